"""Events and commands to JSON and back, driven by their type hints.

Payloads are stored as canonical JSON (``gm.core.canonical``). Supported field
types: ``int``, ``str``, ``bool``, ``None``, ``str`` enums, nested frozen
dataclasses, ``tuple[T, ...]`` and ``dict[str, T]`` (and ``X | None``).
Decoding rebuilds exactly the dataclass that was encoded, so
``decode(encode(e)) == e`` for every event and command a game declares
(tested). A game's whole state, which snapshots store, has an exact form of
its own that needs no hints (``exact``, ``from_exact``, at the end).

Events evolve (``Event.version``, ``Event.upcasters``): a payload of version
2 or later carries ``"_v": <version>``; reading an older one applies the
class's upcasters up to the current version, and a field the stored payload
lacks takes the dataclass's default. A payload that cannot be read raises
``PayloadError`` (a ``ValueError``), never an ``AttributeError`` or a
``KeyError`` from deep inside. Commands evolve the same way
(``Command.version``, ``Command.upcasters``).

**Seats in old logs.** A field annotated ``Seat`` (alone, in a tuple or a
frozenset, as a dict key or value, in a nested dataclass) holds a player.
Logs written before protocol 3 recorded, after a rename or a replacement,
the player's name of that moment there instead of their seat; ``decode``
takes the map from such names to seats (``seats``) and reads every
``Seat``-typed value through it. The stored bytes are never rewritten.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import importlib
import sys
import types
import typing
from collections.abc import Callable, Iterable, Mapping
from types import MappingProxyType
from typing import Any, Generic, TypeVar

from gm.core.protocol import Command, Event, Seat

VERSION_KEY = "_v"
"""The payload key of an event's schema version (absent means version 1)."""

K = TypeVar("K", Event, Command)


class PayloadError(ValueError):
    """A stored payload that does not decode into its kind's dataclass."""


def to_json(value: Any) -> Any:
    """A JSON-able copy of a dataclass instance (or any supported value)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_json(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, tuple | list | frozenset):
        return [to_json(v) for v in value]
    if isinstance(value, dict):
        return {str(k): to_json(v) for k, v in value.items()}
    return value


@functools.cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def from_json(tp: Any, data: Any) -> Any:
    """Rebuild a value of type ``tp`` from its JSON form."""
    return decoder(tp)(data)


Decoder = Callable[[Any], Any]


def _identity(data: Any) -> Any:
    return data


def _checked(tp: type) -> Decoder:
    """A JSON scalar of type ``tp`` as it is (a bool is no int here)."""

    def check(data: Any) -> Any:
        if type(data) is not tp:
            raise TypeError(f"expected {tp.__name__}, got {type(data).__name__}")
        return data

    return check


def _list(data: Any) -> list[Any]:
    if not isinstance(data, list | tuple):
        raise TypeError(f"expected a list, got {type(data).__name__}")
    return list(data)


def _dict(data: Any) -> Mapping[str, Any]:
    if not isinstance(data, Mapping):
        raise TypeError(f"expected an object, got {type(data).__name__}")
    return data


_SCALARS = {int: _checked(int), str: _checked(str), bool: _checked(bool), Seat: _checked(str)}


@functools.cache
def decoder(tp: Any) -> Decoder:
    """A function that rebuilds values of type ``tp`` from JSON.

    Built once per type: replaying a long log decodes thousands of events,
    and walking type hints each time would dominate ``gm status``.
    """
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        args = typing.get_args(tp)
        (inner,) = [a for a in args if a is not type(None)]
        decode_inner = decoder(inner)
        return lambda data: None if data is None else decode_inner(data)
    if origin is tuple:
        args = typing.get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            item = decoder(args[0])
            return lambda data: tuple([item(v) for v in _list(data)])
        items = [decoder(a) for a in args]
        return lambda data: tuple(f(v) for f, v in zip(items, _list(data), strict=True))
    if origin is frozenset:
        (inner,) = typing.get_args(tp)
        item = decoder(inner)
        return lambda data: frozenset(item(v) for v in _list(data))
    if origin in (dict, Mapping):
        key_t, val_t = typing.get_args(tp)
        keys, values = decoder(key_t), decoder(val_t)
        return lambda data: {keys(k): values(v) for k, v in _dict(data).items()}
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        return _dataclass_decoder(tp)
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return tp
    return _SCALARS.get(tp, _identity)


def _dataclass_decoder(cls: type) -> Decoder:
    hints = _hints(cls)
    fields = [
        (
            f.name,
            decoder(hints[f.name]),
            f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING,
        )
        for f in dataclasses.fields(cls)
    ]

    def decode(data: Any) -> Any:
        data = _dict(data)
        # A field added later with a default is absent from older payloads.
        return cls(
            **{name: f(data[name]) for name, f, optional in fields if not optional or name in data}
        )

    return decode


SeatMap = Callable[[Any, Mapping[str, str]], Any]
"""Reads the seats of a decoded value through a map from old names to seats."""


@functools.cache
def seat_mapper(tp: Any) -> SeatMap | None:
    """A function that reads every ``Seat``-typed part of a decoded value of
    type ``tp`` through a map (a name of that moment → its seat), or None
    when ``tp`` holds no seat. Built once per type."""
    if tp is Seat:
        return lambda value, seats: seats.get(value, value)
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        (inner,) = [a for a in typing.get_args(tp) if a is not type(None)]
        inner_map = seat_mapper(inner)
        if inner_map is None:
            return None
        return lambda value, seats: None if value is None else inner_map(value, seats)
    if origin is tuple:
        args = typing.get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            each = seat_mapper(args[0])
            if each is None:
                return None
            return lambda value, seats: tuple([each(v, seats) for v in value])
        maps = [seat_mapper(a) for a in args]
        if not any(maps):
            return None
        return lambda value, seats: tuple(
            v if f is None else f(v, seats) for f, v in zip(maps, value, strict=True)
        )
    if origin is frozenset:
        member = seat_mapper(typing.get_args(tp)[0])
        if member is None:
            return None
        return lambda value, seats: frozenset(member(v, seats) for v in value)
    if origin in (dict, Mapping):
        key_t, val_t = typing.get_args(tp)
        keys, values = seat_mapper(key_t), seat_mapper(val_t)
        if keys is None and values is None:
            return None
        key_of, value_of = keys or _same, values or _same
        return lambda value, seats: {
            key_of(k, seats): value_of(v, seats) for k, v in value.items()
        }
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        hints = _hints(tp)
        fields = [(f.name, seat_mapper(hints[f.name])) for f in dataclasses.fields(tp) if f.init]
        mapped = [(name, f) for name, f in fields if f is not None]
        if not mapped:
            return None
        return lambda value, seats: dataclasses.replace(
            value, **{name: f(getattr(value, name), seats) for name, f in mapped}
        )
    return None


def _same(value: Any, seats: Mapping[str, str]) -> Any:
    return value


def encode(item: Event | Command) -> tuple[str, dict[str, Any]]:
    """``(kind, payload)`` of an event or a command; the payload carries its
    version when above 1."""
    payload: dict[str, Any] = to_json(item)
    version = getattr(item, "version", 1)
    if version > 1:
        payload[VERSION_KEY] = version
    return item.kind, payload


class Codec(Generic[K]):
    """Encodes events (or commands) to ``(kind, payload)`` and decodes them back."""

    def __init__(self, types: Iterable[type[K]]) -> None:
        self._types: dict[str, type[K]] = {}
        for cls in types:
            if cls.kind in self._types:
                raise ValueError(f"two classes share the kind {cls.kind!r}")
            self._types[cls.kind] = cls

    def encode(self, item: K) -> tuple[str, dict[str, Any]]:
        return encode(item)

    def decode(self, kind: str, payload: Any, seats: Mapping[str, str] | None = None) -> K:
        """The item stored as ``(kind, payload)``; with ``seats`` (an old log's
        names of the moment → seats), its ``Seat``-typed values read through it.

        :raises KeyError: an unknown kind.
        :raises PayloadError: a payload that does not fit its kind.
        """
        try:
            cls = self._types[kind]
        except KeyError:
            raise KeyError(f"unknown kind {kind!r}") from None
        if not isinstance(payload, Mapping):
            raise PayloadError(f"a {kind} payload is a JSON object, not {type(payload).__name__}")
        data = dict(payload)
        stored = data.pop(VERSION_KEY, 1)
        current = getattr(cls, "version", 1)
        if not isinstance(stored, int) or isinstance(stored, bool) or not 1 <= stored <= current:
            raise PayloadError(
                f"a {kind} payload of version {stored!r}: this gm reads versions 1 to {current}"
            )
        for upcast in getattr(cls, "upcasters", ())[stored - 1 : current - 1]:
            data = upcast(data)
        try:
            item: K = decoder(cls)(data)  # type: ignore[arg-type]  # classes hash
        except (KeyError, TypeError, ValueError, AttributeError) as err:
            raise PayloadError(f"a {kind} payload does not fit its fields: {err!r}") from None
        if seats:
            mapper = seat_mapper(cls)  # type: ignore[arg-type]  # classes hash
            if mapper is not None:
                item = mapper(item, seats)
        return item

    def knows(self, kind: str) -> bool:
        return kind in self._types

    def type_of(self, kind: str) -> type[K]:
        """The class stored under ``kind``."""
        return self._types[kind]


EventCodec = Codec[Event]
CommandCodec = Codec[Command]


# -- exact values: what a snapshot holds -----------------------------------------
#
# A game's state is not an event: its fields may be typed ``Any`` (the details
# of a move) or hold read-only maps, which the hints above cannot read back
# exactly. The exact form says what each value is instead: JSON where every
# tuple, set, map, enum and frozen dataclass is tagged, so that
# ``from_exact(exact(x)) == x`` for every state a game folds (tested on every
# game: ``gm.service.snapshots`` stores campaigns' folds in it). Decoding
# builds only dataclasses and enums of the packages it is given.


def _name(cls: type) -> str:
    return f"{cls.__module__}:{cls.__qualname__}"


_FIELDS: dict[type, tuple[str, ...]] = {}


def _fields(cls: Any) -> tuple[str, ...]:
    """The fields a dataclass's constructor takes, in order (asked once per class)."""
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS[cls] = tuple(f.name for f in dataclasses.fields(cls) if f.init)
    return names


_PLAIN = frozenset({str, int, bool, float, type(None)})
"""The types JSON holds as they are: a tuple of nothing else is written as
a list tagged ``T`` (a deck, the bills), which reads back at C speed."""


def exact(value: Any) -> Any:
    """``value`` as JSON that ``from_exact`` turns back into an equal value.

    :raises TypeError: a value of a type the exact form cannot hold.
    """
    kind = type(value)
    if kind is str or kind is int or kind is bool or value is None or kind is float:
        return value
    if kind is tuple:
        if all(type(v) in _PLAIN for v in value):
            return {"T": list(value)}
        return {"t": [exact(v) for v in value]}
    if kind is list:
        return [exact(v) for v in value]
    if kind is dict:
        return {"m": [[exact(k), exact(v)] for k, v in value.items()]}
    if kind is frozenset:
        return {"f": [exact(v) for v in value]}
    if kind is set:
        return {"s": [exact(v) for v in value]}
    if kind is MappingProxyType:  # a frozen dataclass's read-only map
        return {"p": [[exact(k), exact(v)] for k, v in value.items()]}
    if isinstance(value, enum.Enum):
        return {"e": _name(kind), "v": value.value}
    if dataclasses.is_dataclass(value):
        return {"d": _name(kind), "v": [exact(getattr(value, f)) for f in _fields(kind)]}
    raise TypeError(f"a snapshot cannot hold a {kind.__name__}")


def from_exact(data: Any, allowed: tuple[str, ...] = ("gm",)) -> Any:
    """The value ``exact`` encoded as ``data``; ``allowed``: the
    packages whose classes it may build (their modules and subpackages').

    :raises PayloadError: data ``exact`` does not give, or a class not allowed.
    """
    classes: dict[str, type] = {}

    def cls_of(name: Any, kind: str) -> type:
        if name in classes:
            return classes[name]
        if not isinstance(name, str) or ":" not in name:
            raise PayloadError(f"not a class name: {name!r}")
        module, _, qualname = name.partition(":")
        if not any(module == p or module.startswith(p + ".") for p in allowed):
            raise PayloadError(f"a class of {module!r}, which a snapshot cannot name")
        try:  # gm's own modules and the game's only: nothing else is imported
            found: Any = sys.modules.get(module) or importlib.import_module(module)
        except ImportError:
            raise PayloadError(f"a class of {module!r}, which this gm does not have") from None
        for part in qualname.split("."):
            found = getattr(found, part, None)
        wanted = dataclasses.is_dataclass(found) if kind == "d" else _is_enum(found)
        if not isinstance(found, type) or not wanted:
            raise PayloadError(f"{name} is not a {'dataclass' if kind == 'd' else 'enum'}")
        classes[name] = found
        return found

    def dec(item: Any) -> Any:
        kind = type(item)
        if kind is list:
            return [dec(v) for v in item]
        if kind is not dict:
            return item
        if "T" in item:
            return tuple(item["T"])
        if "t" in item:
            return tuple([dec(v) for v in item["t"]])
        if "m" in item:
            return {dec(k): dec(v) for k, v in item["m"]}
        if "d" in item:
            cls = cls_of(item["d"], "d")
            return cls(*[dec(v) for v in item["v"]])
        if "e" in item:
            return cls_of(item["e"], "e")(item["v"])
        if "f" in item:
            return frozenset(dec(v) for v in item["f"])
        if "s" in item:
            return {dec(v) for v in item["s"]}
        if "p" in item:
            return MappingProxyType({dec(k): dec(v) for k, v in item["p"]})
        raise PayloadError(f"not an encoded value: {sorted(item)}")

    try:
        return dec(data)
    except PayloadError:
        raise
    except (TypeError, ValueError, KeyError, AttributeError, RecursionError) as err:
        raise PayloadError(f"does not decode: {err!r}") from None


def _is_enum(found: Any) -> bool:
    return isinstance(found, type) and issubclass(found, enum.Enum)
