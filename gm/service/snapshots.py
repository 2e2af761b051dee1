"""Snapshots: a campaign's fold, stored beside its log so a command need not fold it all.

A snapshot is a cache. It holds what folding a campaign's log up to one
event gives (the meta, the game state, the secrets in force, the undone
events, an old log's seats, and the index of ``gm.service.timeline``),
keyed by that event's seq and hash and by the code that folded it
(``code_version``). ``gm.service.loading`` uses one only when the log
still goes through that event and the code is the same; otherwise, or
when it does not read back whole (its digest, its decoding), it folds the
log from its first event, as it would with no snapshot at all, and says
so in a note. Deleting every snapshot changes nothing but speed, and
``gm verify`` and ``gm import`` never read one: they fold from scratch.

The encoding is gm's codec for values that must come back exactly
(``encode_value``): JSON where every tuple, set, map, enum and frozen
dataclass says what it is, so that ``decode_value(encode_value(x)) == x``
for every state a game folds (tested on every game). Decoding builds only
dataclasses and enums of gm's and the game's own modules (importing
one of those if need be): a snapshot cannot make gm import or call
anything else. What a snapshot holds in bulk, the index of the records
posts may open, is plain JSON (``gm.service.timeline.Index.to_json``).
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import hashlib
import importlib.util
import json
import sys
from pathlib import Path
from types import MappingProxyType
from typing import Any

import gm
from gm import games
from gm.core.canonical import digest
from gm.core.protocol import Game
from gm.store.records import Snapshot

FORMAT = 1
"""The layout of a snapshot's body; part of ``code_version``."""

EVERY = 50
"""A command that commits writes a snapshot when its campaign's log has
grown by at least this many events since the last one: a command then
reads and folds at most this many events past a snapshot."""


# -- the codec of exact values -------------------------------------------------


class SnapshotError(ValueError):
    """A snapshot body that does not read back (damaged, or not gm's)."""


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


def encode_value(value: Any) -> Any:
    """``value`` as JSON that ``decode_value`` turns back into an equal value."""
    kind = type(value)
    if kind is str or kind is int or kind is bool or value is None or kind is float:
        return value
    if kind is tuple:
        if all(type(v) in _PLAIN for v in value):
            return {"T": list(value)}
        return {"t": [encode_value(v) for v in value]}
    if kind is list:
        return [encode_value(v) for v in value]
    if kind is dict:
        return {"m": [[encode_value(k), encode_value(v)] for k, v in value.items()]}
    if kind is frozenset:
        return {"f": [encode_value(v) for v in value]}
    if kind is set:
        return {"s": [encode_value(v) for v in value]}
    if kind is MappingProxyType:  # a frozen dataclass's read-only map
        return {"p": [[encode_value(k), encode_value(v)] for k, v in value.items()]}
    if isinstance(value, enum.Enum):
        return {"e": _name(kind), "v": value.value}
    if dataclasses.is_dataclass(value):
        return {"d": _name(kind), "v": [encode_value(getattr(value, f)) for f in _fields(kind)]}
    raise TypeError(f"a snapshot cannot hold a {kind.__name__}")


def decode_value(data: Any, allowed: tuple[str, ...] = ("gm",)) -> Any:
    """The value ``encode_value`` encoded as ``data``; ``allowed``: the
    packages whose classes it may build (their modules and subpackages').

    :raises SnapshotError: data no encoding gives, or a class not allowed.
    """
    classes: dict[str, type] = {}

    def cls_of(name: Any, kind: str) -> type:
        if name in classes:
            return classes[name]
        if not isinstance(name, str) or ":" not in name:
            raise SnapshotError(f"not a class name: {name!r}")
        module, _, qualname = name.partition(":")
        if not any(module == p or module.startswith(p + ".") for p in allowed):
            raise SnapshotError(f"a class of {module!r}, which a snapshot cannot name")
        try:  # gm's own modules and the game's only: nothing else is imported
            found: Any = sys.modules.get(module) or importlib.import_module(module)
        except ImportError:
            raise SnapshotError(f"a class of {module!r}, which this gm does not have") from None
        for part in qualname.split("."):
            found = getattr(found, part, None)
        wanted = dataclasses.is_dataclass(found) if kind == "d" else _is_enum(found)
        if not isinstance(found, type) or not wanted:
            raise SnapshotError(f"{name} is not a {'dataclass' if kind == 'd' else 'enum'}")
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
        raise SnapshotError(f"not an encoded value: {sorted(item)}")

    try:
        return dec(data)
    except SnapshotError:
        raise
    except (TypeError, ValueError, KeyError, AttributeError, RecursionError) as err:
        raise SnapshotError(f"does not decode: {err!r}") from None


def _is_enum(found: Any) -> bool:
    return isinstance(found, type) and issubclass(found, enum.Enum)


# -- what code folded it --------------------------------------------------------


_FOLD_MODULES = ("gm.core", "gm.service.loading", "gm.service.timeline", "gm.service.snapshots")
"""Besides the game's package, the code a fold runs: the platform's events
and meta, the fold, the index, this encoding."""


@functools.cache
def code_version(game_id: str) -> str | None:
    """A digest of the code that folds ``game_id``'s campaigns: gm's version,
    ``FORMAT``, and the source of the game's package and of gm's fold. A
    snapshot made by other code is not used (it could fold otherwise).
    None when the sources cannot be read (then no snapshot is used)."""
    h = hashlib.sha256(f"gm {gm.__version__} snapshot {FORMAT}\n".encode())
    try:
        for name in (games.package(game_id), *_FOLD_MODULES):
            for path in _sources(name):
                h.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    except (OSError, ImportError, ValueError):
        return None
    return "sha256:" + h.hexdigest()


def _sources(name: str) -> list[Path]:
    spec = importlib.util.find_spec(name)
    if spec is None:
        raise ImportError(name)
    if spec.submodule_search_locations:  # a package: every module in it
        return sorted(
            p for folder in spec.submodule_search_locations for p in Path(folder).rglob("*.py")
        )
    if spec.origin is None:
        raise ImportError(name)
    return [Path(spec.origin)]


# -- a snapshot -------------------------------------------------------------------


def allowed(game_id: str) -> tuple[str, ...]:
    """The packages whose classes a snapshot of ``game_id`` may hold."""
    return ("gm", games.package(game_id))


def make(
    parts: dict[str, Any], plain: dict[str, Any], game: Game, seq: int, head: str
) -> Snapshot | None:
    """A snapshot of ``parts`` (values, through ``encode_value``) and ``plain``
    (JSON as it is); see ``gm.service.loading.snapshot_parts``. None when the
    code's version cannot be known."""
    code = code_version(game.id)
    if code is None:
        return None
    try:
        encoded = encode_value(parts)
    except TypeError:  # a state this codec cannot hold (tests hold every game's): no cache
        return None
    body = json.dumps(
        {
            "format": FORMAT,
            "game": game.id,
            "seq": seq,
            "head": head,
            "parts": encoded,
            "plain": plain,
        },
        separators=(",", ":"),
        ensure_ascii=False,
    )
    return Snapshot(seq, head, code, body, digest(body))


def problem(snapshot: Snapshot, game_id: str, seq: int, head: str | None) -> str | None:
    """Why ``snapshot`` cannot stand for the log of ``game_id`` that ends at
    ``(seq, head)``, before reading its body; None when it may."""
    if snapshot.code != code_version(game_id):
        return "it was made by another version of gm or of the game"
    if snapshot.seq > seq or (snapshot.seq == seq and snapshot.head != head):
        return "the log no longer goes through the event it was made at"
    if digest(snapshot.body) != snapshot.digest:
        return "its text does not match its digest (damaged)"
    return None


def read(snapshot: Snapshot, game_id: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The parts and the plain JSON a snapshot holds.

    :raises SnapshotError: a body that does not read back.
    """
    try:
        data = json.loads(snapshot.body)
    except (ValueError, RecursionError) as err:
        raise SnapshotError(f"its text is not JSON ({err})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise SnapshotError("its format is not this gm's")
    if data.get("game") != game_id or data.get("seq") != snapshot.seq:
        raise SnapshotError("its text is another campaign's or another event's")
    games.load(game_id)  # the game's modules, whose classes its state holds
    parts = decode_value(data.get("parts"), allowed(game_id))
    plain = data.get("plain")
    if not isinstance(parts, dict) or not isinstance(plain, dict):
        raise SnapshotError("it holds no parts")
    return parts, plain
