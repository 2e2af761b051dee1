"""The fortune: every chance result of a campaign, derived from its secret seed.

Construction (the README repeats it with a stand-alone snippet):

* The seed is a text; its UTF-8 bytes are the HMAC key. The opening post
  publishes ``sha256(seed bytes)``; the final post reveals the seed.
* A draw reads the stream of what it is *for*: its purpose, named by the
  game (``round-3/bills``) or the platform (``roll/2``, the campaign's second
  dice roll). Nothing else the MJ records (a setting, a refused order, a
  roll, an undo) can move a draw onto another stream, and a purpose is drawn
  once in a campaign. Players' words for the fortune (« graine : … »)
  received before the draw are mixed in: the label is
  ``<purpose>+<mix>`` (``mix``), or the bare purpose when no player sent one.
  Block ``i`` of the stream is
  ``HMAC-SHA256(key=seed, msg=f"{label}:{i}".encode())``; the blocks are
  concatenated into one byte stream, read from the start.
* ``below(n)`` (an integer in ``[0, n)``): let ``k = (n - 1).bit_length()`` and
  ``m = (k + 7) // 8``; read ``m`` bytes as a big-endian integer, keep its low
  ``k`` bits; accept it if it is below ``n``, otherwise read again (rejection
  sampling: no modulo bias). ``below(1)`` reads nothing and returns 0.
* ``shuffle(items)`` is Fisher–Yates: for ``i`` from ``len - 1`` down to 1,
  swap item ``i`` with item ``below(i + 1)``.

Python's ``random`` is not used: its algorithms are not promised across
versions, and the draws must replay forever. The results are written into the
events anyway, so replaying a log never calls this module.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from collections.abc import Collection, Mapping, Sequence
from typing import TypeVar

from gm.core.canonical import canonical_json
from gm.core.names import slugify
from gm.errors import GMError

T = TypeVar("T")

PURPOSE = re.compile(r"^[a-z0-9][a-z0-9-]*(?:/[a-z0-9][a-z0-9-]*)*$")
"""What a purpose looks like: lowercase ASCII words joined by ``-`` and ``/``."""

MIX_DIGITS = 32
"""Hex digits of the words' mix in a label: 128 bits, like every published digest."""


def label_for(purpose: str, words: Sequence[tuple[str, str]] = ()) -> str:
    """The stream label of the draw for ``purpose``, with the players' words
    (``(player, word)`` pairs in seating order) mixed in: see ``mix``."""
    return purpose + (f"+{mix(words)}" if words else "")


def mix(words: Sequence[tuple[str, str]]) -> str:
    """The players' words as they enter a label: the first 32 hex digits of
    SHA-256 over the canonical JSON of ``[[player, word], …]`` in seating
    order. The words are published in the post of every draw that uses them."""
    pairs = [[player, word] for player, word in words]
    return hashlib.sha256(canonical_json(pairs).encode("utf-8")).hexdigest()[:MIX_DIGITS]


def commitment(seed: str) -> str:
    """What the opening post publishes: hex SHA-256 of the seed's UTF-8 bytes."""
    return hashlib.sha256(seed.encode("utf-8")).hexdigest()


class Fortune:
    """A deterministic stream of chance for one command. Implements ``Draws``."""

    def __init__(self, seed: str, label: str) -> None:
        self._key = seed.encode("utf-8")
        self.label = label
        self._block = 0
        self._buffer = b""
        self.used = 0  # how many values were drawn: recorded for the audit

    def _read(self, count: int) -> bytes:
        while len(self._buffer) < count:
            msg = f"{self.label}:{self._block}".encode()
            self._buffer += hmac.new(self._key, msg, hashlib.sha256).digest()
            self._block += 1
        out, self._buffer = self._buffer[:count], self._buffer[count:]
        return out

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)``."""
        if n < 1:
            raise ValueError(f"below() needs n >= 1, got {n}")
        self.used += 1
        if n == 1:
            return 0
        bits = (n - 1).bit_length()
        size = (bits + 7) // 8
        mask = (1 << bits) - 1
        while True:
            value = int.from_bytes(self._read(size), "big") & mask
            if value < n:
                return value

    def shuffle(self, items: Sequence[T]) -> list[T]:
        """A uniformly shuffled copy of ``items`` (Fisher–Yates)."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out


def purpose_by_seat(purpose: str, former: Mapping[str, str]) -> str:
    """``purpose`` as the rules name it now, when an old log (protocol 2 or
    before) named it after a player's name of the moment: ``former`` maps
    each name a seat had to the seat, and a path part that is such a name's
    slug becomes the seat's (``round-2/deck/ana-bis`` → ``round-2/deck/ana``).

    >>> purpose_by_seat("round-2/default/pickpocket-ana-bis", {"ana-bis": "ana"})
    'round-2/default/pickpocket-ana'
    """
    moved = {slugify(name): slugify(seat) for name, seat in former.items()}
    moved = {old: new for old, new in moved.items() if old and new and old != new}
    if not moved:
        return purpose
    pattern = re.compile(
        r"(?<![a-z0-9])(" + "|".join(map(re.escape, sorted(moved, key=len, reverse=True)))
        + r")(?=/|$)"
    )
    return pattern.sub(lambda m: moved[m.group(1)], purpose)


class FortuneDraws:
    """The fortune of one command (implements ``Draws``): a stream per purpose.

    ``drawn`` are the purposes the campaign drew before (a purpose is drawn
    once); ``opened`` collects the purposes this command draws, in order,
    which the platform records with the command's events.
    """

    def __init__(
        self,
        seed: str,
        words: Sequence[tuple[str, str]] = (),
        drawn: Collection[str] = (),
        aliases: Mapping[str, str] | None = None,
    ) -> None:
        self._seed = seed
        self.words = tuple(words)
        self._drawn = drawn
        self._aliases = aliases or {}
        """Purposes the rules ask for → the purposes an old log recorded for
        them (a log of protocol 2 named a renamed player's draws by their name
        of the moment, ``round-2/deck/ana-bis``, where the rules now name the
        seat): ``gm verify`` re-draws what was drawn."""
        self.opened: list[str] = []

    def stream(self, purpose: str) -> Fortune:
        purpose = self._aliases.get(purpose, purpose)
        if not PURPOSE.match(purpose):
            raise ValueError(f"not a draw purpose: {purpose!r}")
        if purpose in self._drawn or purpose in self.opened:
            raise GMError(
                f"the fortune already drew {purpose!r} in this campaign: a draw is made"
                " once, so that it cannot be made again until it suits",
                code="fortune/drawn",
                params={"purpose": purpose},
            )
        self.opened.append(purpose)
        return Fortune(self._seed, label_for(purpose, self.words))


class SeedUnknown(Exception):
    """A command decided again before the seed is revealed asked for a draw:
    what it drew cannot be derived yet (``purpose`` names the draw)."""

    def __init__(self, purpose: str) -> None:
        super().__init__(f"the draw {purpose!r} needs the seed, which is not revealed yet")
        self.purpose = purpose


class UnrevealedDraws:
    """The draws of a command decided again by someone who does not know the
    seed (a player checking a game in progress): any draw raises ``SeedUnknown``."""

    def stream(self, purpose: str) -> Fortune:
        raise SeedUnknown(purpose)


class NoDraws:
    """The draws of a command that must not use chance: any use is a bug."""

    def stream(self, purpose: str) -> Fortune:
        raise RuntimeError(f"this command has no access to the fortune (asked for {purpose!r})")


class ScriptedDraws:
    """Draws that return prepared values, for tests (boardgame.io's MockRandom).

    Every purpose reads the same prepared values, in order; ``purposes``
    records the purposes asked for."""

    label = "scripted"

    def __init__(self, values: Sequence[int] = ()) -> None:
        self._values = list(values)
        self.purposes: list[str] = []

    def stream(self, purpose: str) -> ScriptedDraws:
        self.purposes.append(purpose)
        return self

    def below(self, n: int) -> int:
        value = self._values.pop(0) if self._values else 0
        if not 0 <= value < n:
            raise ValueError(f"scripted draw {value} not below {n}")
        return value

    def shuffle(self, items: Sequence[T]) -> list[T]:
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out
