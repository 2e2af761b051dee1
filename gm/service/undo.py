"""``gm undo``: void the last command's events, with an event; nothing is deleted.

Command boundaries come from the store: every ``Writer.append`` call is one
command and stamps its events with the same ``batch`` (the seq of its first
event; see migration 0002). Events recorded before that column existed, or
imported from an export, have no batch: for them, a command is a run of
events with the same ``recorded_at`` and ``actor`` (good enough for an old
log, not relied on for new ones).

Undo appends one public ``EventsVoided(first_seq, last_seq)`` covering the
last command that changed something, and the fold skips those events from then
on. Repeated, it walks further back: a command already voided is passed over.
What undo never targets:

* the campaign's creation (nothing to undo then: ``undo/nothing``);
* a refused submission (``gm.submission-rejected``): it changed nothing, and
  the record of a refusal is what forum disputes are about;
* an undo: there is no redo. Run the command again instead.

And undo *refuses* a command that drew from the fortune (``undo/chance``):
draws are final. A purpose is drawn once, so the command could not be run
again anyway, and an MJ must not be able to try a draw and take it back.

Posts already stored stay in the archive (``gm verify`` re-renders each from
the log as it stood when it was made); undo names those it makes obsolete.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from gm.core.campaign import (
    CampaignCreated,
    ChanceDrawn,
    EventsVoided,
    PostPublished,
    SubmissionRejected,
)
from gm.core.protocol import GM
from gm.errors import CampaignError
from gm.service import pipeline
from gm.service.deciding import to_record
from gm.service.env import Env
from gm.service.loading import Campaign, decode, extend
from gm.service.pipeline import Worked
from gm.store.draft import Sink
from gm.store.log import StoredEvent, StoredPost
from gm.store.records import CampaignInfo

NOT_UNDONE = (
    CampaignCreated.kind,
    SubmissionRejected.kind,
    EventsVoided.kind,
    PostPublished.kind,
)
"""A command whose first event is one of these is never undone (a post
published on its own, the disclosure say, stays published)."""


@dataclass(frozen=True)
class Undone:
    """What an undo voided (or would void, for a preview)."""

    campaign: Campaign
    voided: tuple[StoredEvent, ...]
    obsolete: tuple[StoredPost, ...]
    event: StoredEvent | None = None
    """The ``EventsVoided`` recorded; None for a preview."""
    recorded: bool = True


def commands(records: Sequence[StoredEvent]) -> list[tuple[StoredEvent, ...]]:
    """The log cut into commands (one ``Writer.append`` each), oldest first."""
    groups: list[list[StoredEvent]] = []
    last_key: tuple[object, ...] | None = None
    for record in records:
        key: tuple[object, ...] = (
            ("batch", record.batch)
            if record.batch is not None
            else ("run", record.recorded_at, record.actor)
        )
        if groups and key == last_key:
            groups[-1].append(record)
        else:
            groups.append([record])
        last_key = key
    return [tuple(group) for group in groups]


def last_command(campaign: Campaign) -> tuple[StoredEvent, ...] | None:
    """The latest command that undo may void, or None."""
    for group in reversed(commands(campaign.records)):
        if group[0].kind in NOT_UNDONE or any(r.seq in campaign.voided for r in group):
            continue
        return group
    return None


def undo(env: Env, slug: str, reason: str = "", preview: bool = False) -> Undone:
    """Void the last command's events in one write transaction.

    :raises CampaignError: ``undo/nothing`` when only the creation is left.
    """

    def work(
        w: Sink, info: CampaignInfo, campaign: Campaign
    ) -> Worked[tuple[Undone, frozenset[int]]]:
        target = last_command(campaign)
        if target is None:
            raise CampaignError(
                f"nothing to undo in {info.slug!r}: only its creation (and refused"
                " submissions, which are never undone) is left",
                code="undo/nothing",
            )
        if any(_drew(campaign, r) for r in target):
            shown = next(
                (r for r in target if not r.kind.startswith("gm.")),
                next((r for r in target if r.kind == ChanceDrawn.kind), target[0]),
            )
            raise CampaignError(
                f"cannot undo {shown.kind} (event {shown.seq}): it drew from the"
                " fortune, and draws are final, so that an undo can never buy new luck."
                " Correct the game with the next commands instead",
                code="undo/chance",
            )
        first, last = target[0].seq, target[-1].seq
        if preview:
            return Worked((Undone(campaign, target, (), recorded=False), campaign.voided))
        event = EventsVoided(first, last, reason)
        stored = w.append(info.slug, [to_record(event, GM)], campaign.seq)
        after = extend(campaign, stored)
        return Worked((Undone(after, target, (), stored[0]), campaign.voided), after)

    undone, voided = pipeline.run(env.store, slug, work)
    # the posts made since the voided command began, none of them already obsolete
    first = undone.voided[0].seq
    obsolete = tuple(
        p for p in env.store.posts(slug) if p.at_seq >= first and p.at_seq not in voided
    )
    return replace(undone, obsolete=obsolete)


def _drew(campaign: Campaign, record: StoredEvent) -> bool:
    """Whether ``record`` is a draw from the fortune (or, in a protocol-1 log,
    an event holding one)."""
    if record.kind == ChanceDrawn.kind:
        return True
    return campaign.meta.protocol < 2 and decode(campaign.game.id, record).drew_chance()
