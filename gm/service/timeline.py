"""A campaign's records as a command holds them: in memory, or read when asked.

A campaign folded from its first event holds every record of its log. One
rebuilt from a snapshot (``gm.service.snapshots``) holds only the records
after the snapshot: the ones before are read from the store the first time
something asks for them (``gm history``, ``gm undo``, the final
disclosure). What the posts of every command need from the whole log is
indexed as records are added, so that no command reads or walks the log
from its start to render a post:

* ``draws``: every draw of the fortune (a post names the stream it read);
* ``rolls``: where each dice roll is (the roll's post);
* ``seeds``: where the seed is (the last post opens it);
* ``sealed`` and ``commands``: the private sealed records of the game and
  the private commands, by batch (a post that reveals a secret opens every
  record sealed under its key, and the commands that recorded them).

A snapshot keeps the index of the records it covers (``Index``), without
what posts have opened already (``Index.kept``).

Extending a campaign (``Log.extend``) appends to storage its earlier views
share, so that a long walk (``gm verify``, ``gm play``) adds each record
once instead of copying the log at every command; a view extended twice
(a preview, then the real command) forks its own copy.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Iterable, Sequence, Set
from dataclasses import dataclass
from typing import Any

from gm.core.campaign import ChanceDrawn, CommandDecided, DiceRolled, FortuneSealed
from gm.core.protocol import PUBLIC, SecretKey
from gm.errors import ChainIntegrityError
from gm.store.records import StoredEvent

Reader = Callable[[int, int], Sequence[StoredEvent]]
"""Reads a campaign's records with ``after < seq <= upto``, in seq order."""

Keyer = Callable[[StoredEvent], SecretKey | None]
"""The secret key a private game record seals, or None (``gm.service.loading``)."""


@dataclass(frozen=True)
class Draw:
    """A draw of the fortune as a post names it: the record's purposes and the
    players' words mixed in, ``(name, word)``."""

    seq: int
    purposes: tuple[str, ...]
    words: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Sealed:
    """A private record of the game that seals a secret under ``key``."""

    seq: int
    batch: int | None
    key: SecretKey


@dataclass(frozen=True)
class Index:
    """What posts need from a stretch of the log (see the module docstring)."""

    draws: tuple[Draw, ...] = ()
    rolls: tuple[int, ...] = ()
    seeds: tuple[int, ...] = ()
    sealed: tuple[Sealed, ...] = ()
    commands: tuple[tuple[int, int | None], ...] = ()
    """The private ``gm.command-decided`` records: (seq, batch)."""

    def kept(self, opened: Set[int]) -> Index:
        """This index without what no post can open any more: the sealed
        records ``opened`` names (a record is opened once), and the private
        commands of no batch a sealed record still waits in."""
        sealed = tuple(s for s in self.sealed if s.seq not in opened)
        batches = {s.batch for s in sealed}
        return Index(
            self.draws,
            self.rolls,
            self.seeds,
            sealed,
            tuple(c for c in self.commands if c[1] in batches),
        )

    def then(self, later: Index) -> Index:
        """This index followed by ``later``'s (the records after these)."""
        return Index(
            (*self.draws, *later.draws),
            (*self.rolls, *later.rolls),
            (*self.seeds, *later.seeds),
            (*self.sealed, *later.sealed),
            (*self.commands, *later.commands),
        )

    def to_json(self) -> dict[str, Any]:
        """The index as plain JSON, compact: a snapshot may hold thousands of
        sealed records (every order a player replaced, until a post opens
        them), which the tagged codec would make slow to read back."""
        keys: dict[SecretKey, int] = {}
        for s in self.sealed:
            keys.setdefault(s.key, len(keys))
        return {
            "draws": [[d.seq, list(d.purposes), [list(w) for w in d.words]] for d in self.draws],
            "rolls": list(self.rolls),
            "seeds": list(self.seeds),
            "keys": [list(k) for k in keys],
            "sealed": [[s.seq, s.batch, keys[s.key]] for s in self.sealed],
            "commands": [list(c) for c in self.commands],
        }

    @classmethod
    def from_json(cls, data: Any) -> Index:
        """The index ``to_json`` wrote.

        :raises ValueError: data ``to_json`` does not write.
        """
        try:
            keys = [tuple(k) for k in data["keys"]]
            index = cls(
                tuple(
                    Draw(seq, tuple(p), tuple((a, b) for a, b in w)) for seq, p, w in data["draws"]
                ),
                tuple(data["rolls"]),
                tuple(data["seeds"]),
                tuple(Sealed(seq, batch, keys[k]) for seq, batch, k in data["sealed"]),
                tuple((seq, batch) for seq, batch in data["commands"]),
            )
        except (KeyError, TypeError, ValueError, IndexError) as err:
            raise ValueError(f"not an index: {err!r}") from None
        seqs = [*index.rolls, *index.seeds, *(s.seq for s in index.sealed)]
        if not all(type(n) is int for n in seqs):
            raise ValueError("not an index: a seq that is not a number")
        return index


class _Indexer:
    """Builds an index record by record (the kinds it looks at are few)."""

    def __init__(self, keyer: Keyer) -> None:
        self.keyer = keyer
        self.draws: list[Draw] = []
        self.rolls: list[int] = []
        self.seeds: list[int] = []
        self.sealed: list[Sealed] = []
        self.commands: list[tuple[int, int | None]] = []

    def add(self, record: StoredEvent) -> None:
        kind = record.kind
        if kind.startswith("gm."):
            if kind == ChanceDrawn.kind:
                if record.known:
                    payload = record.payload
                    self.draws.append(
                        Draw(
                            record.seq,
                            tuple(payload["purposes"]),
                            tuple((p, w) for p, w in payload["words"]),
                        )
                    )
            elif kind == DiceRolled.kind:
                self.rolls.append(record.seq)
            elif kind == FortuneSealed.kind:
                self.seeds.append(record.seq)
            elif kind == CommandDecided.kind and record.audience != PUBLIC:
                self.commands.append((record.seq, record.batch))
        elif record.audience != PUBLIC and record.known:
            key = self.keyer(record)
            if key is not None:
                self.sealed.append(Sealed(record.seq, record.batch, key))

    def index(self, upto: int | None = None) -> Index:
        """What was added, of the records up to seq ``upto`` (None: all)."""
        last = upto if upto is not None else float("inf")
        return Index(
            tuple(d for d in self.draws if d.seq <= last),
            tuple(s for s in self.rolls if s <= last),
            tuple(s for s in self.seeds if s <= last),
            tuple(s for s in self.sealed if s.seq <= last),
            tuple(c for c in self.commands if c[0] <= last),
        )


class _Storage:
    """Records after ``base``, shared by the views that extend one another,
    with their index, built as far as some view asked."""

    def __init__(self, base: int, records: list[StoredEvent], keyer: Keyer) -> None:
        self.base = base
        self.records = records
        self.indexer = _Indexer(keyer)
        self.indexed = 0
        self.lock = threading.Lock()

    def index(self, upto: int) -> _Indexer:
        """The index of the first ``upto`` records (it may hold more: views
        filter by seq)."""
        with self.lock:
            while self.indexed < upto:
                self.indexer.add(self.records[self.indexed])
                self.indexed += 1
            return self.indexer


@dataclass(frozen=True)
class Past:
    """The records before a campaign's in-memory ones, as a snapshot left them:
    read from the store when asked (``read``), their index kept."""

    seq: int
    head: str
    origin: str
    """The hash of the log's first record (every post's proof names it)."""
    indexed: Index | dict[str, Any]
    """The index of the records up to ``seq``, or its JSON (``Index.to_json``),
    read the first time a post asks for it (``index``)."""
    read: Reader
    """Reads records from the store."""
    keyer: Keyer
    """How to index the records themselves, if the JSON does not read back."""

    @functools.cached_property
    def index(self) -> Index:
        """The index of the records up to ``seq``: a command that publishes no
        post never builds it. JSON that does not read back (the snapshot's
        digest matched, so it was written so on purpose) is not trusted: the
        records are read and indexed again."""
        if isinstance(self.indexed, Index):
            return self.indexed
        try:
            return Index.from_json(self.indexed)
        except ValueError:
            return index_of(self.records, self.keyer)

    @functools.cached_property
    def records(self) -> tuple[StoredEvent, ...]:
        """Every record up to ``seq``, read once."""
        return self._read(0)

    def after(self, seq: int) -> tuple[StoredEvent, ...]:
        """The records after ``seq`` up to ``self.seq``: from those read
        already, if all were, else read."""
        if "records" in self.__dict__:
            return self.records[seq:]
        return self._read(seq)

    def _read(self, seq: int) -> tuple[StoredEvent, ...]:
        """:raises ChainIntegrityError: the store no longer holds the records
        as the snapshot saw them (a log cut or rewritten since)."""
        records = tuple(self.read(seq, self.seq))
        if not _links(records, seq, self.seq, self.head) or (
            seq == 0 and records[0].hash != self.origin
        ):
            raise ChainIntegrityError(
                f"the log no longer holds events {seq + 1} to {self.seq} as they were when"
                " its snapshot was made: run 'gm verify'",
                params={"seq": self.seq},
            )
        return records


def _links(records: Sequence[StoredEvent], after: int, upto: int, head: str) -> bool:
    """Whether ``records`` are events ``after + 1`` to ``upto``, each linked
    to the one before, the last with hash ``head``."""
    if len(records) != upto - after or not records or records[-1].hash != head:
        return not records and after == upto
    return all(
        r.seq == after + i and (i == 1 or r.prev_hash == records[i - 2].hash)
        for i, r in enumerate(records, start=1)
    )


class Log:
    """One campaign's records up to ``seq``: the ones after ``past`` in memory."""

    __slots__ = ("_all", "_index", "_length", "_storage", "past")

    def __init__(self, past: Past | None, storage: _Storage, length: int) -> None:
        self.past = past
        self._storage = storage
        self._length = length
        self._all: tuple[StoredEvent, ...] | None = None
        self._index: Index | None = None

    @classmethod
    def of(cls, records: Iterable[StoredEvent], keyer: Keyer, past: Past | None = None) -> Log:
        """A log of ``records`` (every record when ``past`` is None, else the
        ones after it)."""
        held = list(records)
        base = past.seq if past is not None else 0
        return cls(past, _Storage(base, held, keyer), len(held))

    @property
    def base(self) -> int:
        """The seq of the last record not in memory (0: all are)."""
        return self._storage.base

    @property
    def seq(self) -> int:
        return self.base + self._length

    @property
    def held(self) -> Sequence[StoredEvent]:
        """The records in memory (after ``base``)."""
        return self._storage.records[: self._length]

    def extend(self, records: Sequence[StoredEvent]) -> Log:
        """This log followed by ``records`` (the next seqs)."""
        storage = self._storage
        with storage.lock:
            if len(storage.records) == self._length:
                storage.records.extend(records)
                return Log(self.past, storage, self._length + len(records))
        # another view extended the storage first: this one goes its own way
        copy = _Storage(
            storage.base, [*storage.records[: self._length], *records], storage.indexer.keyer
        )
        return Log(self.past, copy, len(copy.records))

    def after(self, seq: int) -> tuple[StoredEvent, ...]:
        """The records after ``seq``, up to this log's end."""
        start = seq - self.base
        if start >= 0:
            return tuple(self._storage.records[start : self._length])
        assert self.past is not None
        return (*self.past.after(seq), *self.held)

    def only(self, seqs: Iterable[int]) -> list[StoredEvent]:
        """The records of ``seqs`` (each at most once), in seq order."""
        wanted = sorted(set(seqs))
        if wanted and wanted[0] <= self.base:
            everything = self.all()
            return [everything[s - 1] for s in wanted]
        records = self._storage.records
        return [records[s - self.base - 1] for s in wanted]

    def all(self) -> tuple[StoredEvent, ...]:
        """Every record, reading the ones before ``base`` if need be."""
        if self._all is None:
            held = tuple(self.held)
            self._all = held if self.past is None else (*self.past.records, *held)
        return self._all

    def first_hash(self) -> str:
        """The hash of the log's first record: what names the campaign in proofs."""
        if self.past is not None:
            return self.past.origin
        return self._storage.records[0].hash

    def index(self) -> Index:
        """The index of every record of this log (made once per log: a
        command's posts each ask for it)."""
        if self._index is None:
            held = self._storage.index(self._length).index(self.seq)
            self._index = held if self.past is None else self.past.index.then(held)
        return self._index


def index_of(records: Iterable[StoredEvent], keyer: Keyer) -> Index:
    """The index of ``records`` alone."""
    indexer = _Indexer(keyer)
    for record in records:
        indexer.add(record)
    return indexer.index()
