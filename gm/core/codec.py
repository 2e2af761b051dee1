"""Events and commands to JSON and back, driven by their type hints.

Payloads are stored as canonical JSON (``gm.core.canonical``). Supported field
types: ``int``, ``str``, ``bool``, ``None``, ``str`` enums, nested frozen
dataclasses, ``tuple[T, ...]`` and ``dict[str, T]`` (and ``X | None``).
Decoding rebuilds exactly the dataclass that was encoded, so
``decode(encode(e)) == e`` for every event a game declares (tested).
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import types
import typing
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from gm.core.protocol import Event


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
            if item is _identity:
                return tuple
            return lambda data: tuple([item(v) for v in data])
        items = [decoder(a) for a in args]
        return lambda data: tuple(f(v) for f, v in zip(items, data, strict=True))
    if origin is frozenset:
        (inner,) = typing.get_args(tp)
        item = decoder(inner)
        return lambda data: frozenset(item(v) for v in data)
    if origin in (dict, Mapping):
        key_t, val_t = typing.get_args(tp)
        keys, values = decoder(key_t), decoder(val_t)
        return lambda data: {keys(k): values(v) for k, v in data.items()}
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        return _dataclass_decoder(tp)
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return tp
    return _identity


def _dataclass_decoder(cls: type) -> Decoder:
    hints = _hints(cls)
    fields = [(f.name, decoder(hints[f.name])) for f in dataclasses.fields(cls)]

    def decode(data: Any) -> Any:
        return cls(**{name: f(data[name]) for name, f in fields})

    return decode


class EventCodec:
    """Encodes events to ``(kind, payload)`` and decodes them back."""

    def __init__(self, event_types: Iterable[type[Event]]) -> None:
        self._types: dict[str, type[Event]] = {}
        for cls in event_types:
            if cls.kind in self._types:
                raise ValueError(f"two event classes share the kind {cls.kind!r}")
            self._types[cls.kind] = cls

    def encode(self, event: Event) -> tuple[str, dict[str, Any]]:
        return event.kind, to_json(event)

    def decode(self, kind: str, payload: Mapping[str, Any]) -> Event:
        try:
            cls = self._types[kind]
        except KeyError:
            raise KeyError(f"unknown event kind {kind!r}") from None
        event: Event = decoder(cls)(payload)  # type: ignore[arg-type]  # classes hash
        return event

    def knows(self, kind: str) -> bool:
        return kind in self._types

    def type_of(self, kind: str) -> type[Event]:
        """The event class stored under ``kind``."""
        return self._types[kind]
