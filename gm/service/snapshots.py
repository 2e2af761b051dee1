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

The encoding is gm's codec, in its exact form (``gm.core.codec.exact``):
JSON where every tuple, set, map, enum and frozen dataclass says what it
is, so a state decodes to an equal state. Decoding builds only dataclasses
and enums of gm's and the game's own packages: a snapshot cannot make gm
import or call anything else. What a snapshot holds in bulk, the index of
the records posts may open, is plain JSON (``gm.service.timeline.Index``).
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import json
from pathlib import Path
from typing import Any

import gm
from gm import games
from gm.core import codec
from gm.core.campaign import Meta
from gm.core.canonical import digest
from gm.core.codec import PayloadError
from gm.core.protocol import Game
from gm.service.loading import Campaign, Secret, keyer
from gm.service.timeline import Log, Past, Reader
from gm.store.records import Snapshot

FORMAT = 1
"""The layout of a snapshot's body; part of ``code_version``."""

EVERY = 50
"""A command that commits writes a snapshot when its campaign's log has
grown by at least this many events since the last one: a command then
reads and folds at most this many events past a snapshot."""


class SnapshotError(ValueError):
    """A snapshot body that does not read back (damaged, or not gm's)."""


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
    """A snapshot of ``parts`` (values, in the codec's exact form) and
    ``plain`` (JSON as it is), made at ``(seq, head)``; None when the code's
    version cannot be known or a value has no exact form."""
    code = code_version(game.id)
    if code is None:
        return None
    try:
        encoded = codec.exact(parts)
    except TypeError:  # a state the codec cannot hold (tests hold every game's): no cache
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
    try:
        parts = codec.from_exact(data.get("parts"), allowed(game_id))
    except PayloadError as err:
        raise SnapshotError(err.args[0]) from None
    plain = data.get("plain")
    if not isinstance(parts, dict) or not isinstance(plain, dict):
        raise SnapshotError("it holds no parts")
    return parts, plain


def of(campaign: Campaign) -> Snapshot | None:
    """The snapshot of ``campaign`` as it stands (``campaign_from`` reads it
    back), or None (see ``make``)."""
    if campaign.head is None:
        return None
    parts = {
        "meta": campaign.meta,
        "state": campaign.state,
        "voided": campaign.voided,
        "secrets": tuple(campaign.secrets.values()),
        "seated": dict(campaign.seated),
        "origin": campaign.log.first_hash(),
    }
    plain = {"index": campaign.index().kept(campaign.meta.opened).to_json()}
    return make(parts, plain, campaign.game, campaign.seq, campaign.head)


_SHAPES: dict[str, type] = {
    "meta": Meta,
    "voided": frozenset,
    "secrets": tuple,
    "seated": dict,
    "origin": str,
}
"""What each part of a snapshot is (besides the game's state)."""


def campaign_from(snapshot: Snapshot, slug: str, game_id: str, past: Reader) -> Campaign:
    """The campaign ``snapshot`` holds, at its event; ``past`` reads the
    records before that when they are asked for.

    :raises SnapshotError: a body that does not read back, or parts of the
        wrong shape.
    """
    parts, plain = read(snapshot, game_id)
    index = plain.get("index")
    if not isinstance(index, dict):
        raise SnapshotError("it holds no index")
    if "state" not in parts:
        raise SnapshotError("it holds no state")
    for name, shape in _SHAPES.items():
        if not isinstance(parts.get(name), shape):
            raise SnapshotError(f"its {name} is not a {shape.__name__}")
    if not all(isinstance(s, Secret) for s in parts["secrets"]):
        raise SnapshotError("its secrets are not secrets")
    keys = keyer(game_id)
    before = Past(snapshot.seq, snapshot.head, parts["origin"], index, past, keys)
    return Campaign(
        slug,
        games.load(game_id),
        parts["meta"],
        parts["state"],
        snapshot.seq,
        snapshot.head,
        Log.of((), keys, before),
        parts["voided"],
        {s.key: s for s in parts["secrets"]},
        parts["seated"],
    )
