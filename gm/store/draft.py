"""A unit of work written nowhere yet: what a command will append, made
without holding the write lock.

A command's work — folding, deciding, rendering its posts and their proofs —
takes far longer than writing its rows, and every other MJ waits while one
holds the write lock. So a command first works on a ``Draft`` made from a
read of the log: the draft chains the events it is given after the log's
tip exactly as ``Writer.append`` would (seq, salt, time, hash) and numbers
the posts after the last one, so the posts and their proofs can be rendered
from it. Then ``Writer.commit`` takes the lock only to check that the log
still ends where the draft began and to insert the rows as drafted; if
another command got there first, nothing is written and the command works
again from the new tip (``gm.service.actions``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Protocol

from gm.core.canonical import digest
from gm.store.records import CampaignInfo, NewEvent, StoredEvent, StoredPost, chained, utc_timestamp


class Sink(Protocol):
    """What a command writes through: a ``Writer`` (under the lock) or a ``Draft``."""

    def lock(self, slug: str) -> CampaignInfo: ...

    def append(
        self,
        slug: str,
        new_events: Sequence[NewEvent],
        expected_seq: int,
        batch: int | None = None,
    ) -> list[StoredEvent]: ...

    def add_post(
        self,
        slug: str,
        kind: str,
        at: tuple[int, ...],
        at_seq: int,
        body: str,
        rendered_by: str | None = None,
    ) -> StoredPost: ...

    def last_post(self, slug: str) -> StoredPost | None: ...


def chain_batch(
    new_events: Sequence[NewEvent],
    *,
    after: int,
    prev_hash: str | None,
    sealed: bool,
    recorded_at: str,
    salt: Callable[[], str],
    batch: int | None,
) -> list[StoredEvent]:
    """``new_events`` chained as one append after seq ``after`` whose hash is
    ``prev_hash``: the one place an append's links are made, by the writer
    and by a draft alike."""
    stored: list[StoredEvent] = []
    for offset, new in enumerate(new_events, start=1):
        stored.append(
            chained(
                new,
                seq=after + offset,
                prev_hash=prev_hash,
                salt=salt(),
                recorded_at=recorded_at,
                batch=after + 1 if batch is None else batch,
                sealed=sealed,
            )
        )
        prev_hash = stored[-1].hash
    return stored


def new_post(
    number: int,
    kind: str,
    at: tuple[int, ...],
    at_seq: int,
    body: str,
    created_at: str,
    rendered_by: str | None,
) -> StoredPost:
    """Post ``number`` as it is archived (its hash is its body's digest)."""
    return StoredPost(
        number=number,
        kind=kind,
        round=at[0] if at else None,
        at_seq=at_seq,
        body=body,
        hash=digest(body),
        created_at=created_at,
        rendered_by=rendered_by,
        address=".".join(str(n) for n in at),
    )


@dataclass
class Draft:
    """The rows one command would append to campaign ``info``, drafted after
    its log's tip ``(seq, hash)`` and its last post; ``Writer.commit``
    writes them if the log has not moved since."""

    info: CampaignInfo
    seq: int
    head: str | None
    sealed: bool
    last: StoredPost | None
    clock: Callable[[], datetime | None]
    salt: Callable[[], str]
    events: list[StoredEvent] = field(default_factory=list)
    posts: list[StoredPost] = field(default_factory=list)

    def _check(self, slug: str) -> None:
        if slug != self.info.slug:
            raise ValueError(f"a draft for {self.info.slug!r} cannot write to {slug!r}")

    def lock(self, slug: str) -> CampaignInfo:
        self._check(slug)
        return self.info

    @property
    def tip(self) -> tuple[int, str | None]:
        """The seq and hash the drafted log would end with."""
        if self.events:
            return self.events[-1].seq, self.events[-1].hash
        return self.seq, self.head

    def append(
        self,
        slug: str,
        new_events: Sequence[NewEvent],
        expected_seq: int,
        batch: int | None = None,
    ) -> list[StoredEvent]:
        self._check(slug)
        seq, head = self.tip
        if expected_seq != seq:
            raise ValueError(f"the draft ends at seq {seq}, not {expected_seq}")
        if not new_events:
            return []
        stored = chain_batch(
            new_events,
            after=seq,
            prev_hash=head,
            sealed=self.sealed,
            recorded_at=utc_timestamp(self.clock()),
            salt=self.salt,
            batch=batch,
        )
        self.events.extend(stored)
        return stored

    def add_post(
        self,
        slug: str,
        kind: str,
        at: tuple[int, ...],
        at_seq: int,
        body: str,
        rendered_by: str | None = None,
    ) -> StoredPost:
        self._check(slug)
        if not 0 <= at_seq <= self.tip[0]:
            raise ValueError(f"at_seq {at_seq} is not in the drafted log (0..{self.tip[0]})")
        post = new_post(
            self.first_post + len(self.posts),
            kind,
            at,
            at_seq,
            body,
            utc_timestamp(self.clock()),
            rendered_by,
        )
        self.posts.append(post)
        return post

    @property
    def first_post(self) -> int:
        """The number the draft's first post takes."""
        return (self.last.number if self.last is not None else 0) + 1

    def last_post(self, slug: str) -> StoredPost | None:
        self._check(slug)
        return self.posts[-1] if self.posts else self.last
