"""``gm deadline``: extend or correct the deadline of the phase in play.

The new deadline is a ``DeadlineSet`` for the current phase, appended on its
own like a setting (one command, so ``gm undo`` restores the previous one),
and a short public notice is rendered for the thread (``common/<lang>/
deadline``), not archived: the round's post keeps the deadline it announced,
and the notice says what changed. A delay (``+24h``) counts from the current
deadline, since moving it is what the MJ asks for; with none set, from now.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime

from gm.core.campaign import DeadlineSet
from gm.core.protocol import GM
from gm.errors import GameOverError
from gm.service import clock, pipeline
from gm.service.deciding import to_record
from gm.service.env import Env
from gm.service.loading import Campaign, extend
from gm.service.pipeline import Worked
from gm.service.posts import render_common
from gm.store.draft import Sink
from gm.store.records import CampaignInfo


@dataclass(frozen=True)
class Moved:
    """A deadline moved: the campaign after it, the deadlines before and after, the notice."""

    campaign: Campaign
    before: datetime | None
    after: datetime
    notice: str
    recorded: bool = True


def move(env: Env, slug: str, when: str, preview: bool = False) -> Moved:
    """Set the deadline of the phase in play to ``when`` (any form ``gm.service.clock`` reads).

    :raises GameOverError: ``phase/game-over``: no deadline once the game is over.
    :raises InputError: ``input/deadline``: a date that cannot be read, past, too far.
    """

    def work(w: Sink, info: CampaignInfo, campaign: Campaign) -> Worked[tuple[Moved, Campaign]]:
        if campaign.over:
            raise GameOverError(
                "the game is over: there is no deadline left to move", code="phase/game-over"
            )
        before = campaign.deadline()
        tz = campaign.meta.settings["tz"]
        at = clock.parse_deadline(when, env.now(), tz, base=before)
        event = DeadlineSet(campaign.game.phase(campaign.state), at.isoformat())
        if preview:
            return Worked((Moved(campaign, before, at, "", False), _with(campaign, event)))
        stored = w.append(info.slug, [to_record(event, GM)], campaign.seq)
        after = extend(campaign, stored)
        return Worked((Moved(after, before, at, ""), after), after)

    moved, shown = pipeline.run(env.store, slug, work)
    notice = render_common(
        shown,
        "deadline",
        env.templates,
        before=None if moved.before is None else {"at": moved.before.isoformat()},
        awaiting=list(shown.game.waiting_for(shown.state)),
    )
    return replace(moved, notice=notice)


def _with(campaign: Campaign, event: DeadlineSet) -> Campaign:
    """The campaign as a preview shows it: with the new deadline, stored nowhere."""
    return replace(campaign, meta=replace(campaign.meta, deadline=event))
