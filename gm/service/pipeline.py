"""How every command that changes a campaign is worked out and written.

A command reads the campaign as it stands (``loading.latest``: the fold this
process kept, carried on with what others appended), works out everything
it will write — its events, its posts and their proofs — on a draft
(``gm.store.draft``) without holding the write lock, then takes the lock
only to check that the log has not moved and to write the draft in one
transaction. Folding, deciding and rendering take far longer than writing
rows; other MJs (another campaign in the same SQLite file, another command
on this one) wait only for the write.

If another command wrote to the campaign meanwhile, nothing is written and
the command is worked out again, this time under the lock, where nobody can
overtake it: at most one working-out is wasted, and a command never loses
a race for good. Preview runs work on a draft and write nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

from gm.errors import StaleStateError
from gm.service import snapshots
from gm.service.loading import Campaign, latest, remember, snapshot_due, snapshot_written
from gm.store.draft import Sink
from gm.store.log import Store
from gm.store.records import CampaignInfo, Snapshot

T = TypeVar("T")


@dataclass(frozen=True)
class Worked(Generic[T]):
    """What a working-out of a command gives: its ``value`` for the caller,
    and the campaign its writes make (None when it writes nothing)."""

    value: T
    committed: Campaign | None = None


Work = Callable[[Sink, CampaignInfo, Campaign], Worked[T]]
"""A command's work: given where to write, the campaign's row and the
campaign as it stands, what it gives and the campaign after its writes."""


def run(store: Store, slug: str, work: Work[T], *, drafts: int = 1) -> T:
    """Work ``work`` out for campaign ``slug`` and write what it wrote, as
    one transaction (see the module's docstring); returns its value.

    ``work`` may run more than once (it must write only through its
    ``Sink``); what it raises is raised, and nothing is written then.
    """
    done: Worked[T] | None = None
    info: CampaignInfo | None = None
    snapshot: Snapshot | None = None
    for _ in range(drafts):
        with store.read() as r:
            info = r.campaign(slug)
            campaign = latest(store, r, info)
            draft = store.draft(r, info)
        done = work(draft, info, campaign)
        if done.committed is None:
            return done.value  # a preview, or nothing to write
        snapshot = _snapshot(store, done.committed)
        try:
            with store.write(slug) as w:
                w.commit(draft, snapshot)
        except StaleStateError:
            done = None  # another command wrote first
            continue
        break
    if done is None:
        with store.write(slug) as w:
            info = w.lock(slug)
            done = work(w, info, latest(store, w, info))
            snapshot = None if done.committed is None else _snapshot(store, done.committed)
            if snapshot is not None:
                w.put_snapshot(info, snapshot)
    # Committed now: the next command starts from here.
    if done.committed is not None and info is not None:
        remember(store, info, done.committed)
        if snapshot is not None:
            snapshot_written(store, info.slug, snapshot.seq)
    return done.value


def _snapshot(store: Store, campaign: Campaign) -> Snapshot | None:
    """The snapshot a command that commits ``campaign`` writes with it, if
    one is due (``gm.service.snapshots``)."""
    return snapshots.of(campaign) if snapshot_due(store, campaign) else None
