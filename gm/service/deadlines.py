"""``gm deadline``: extend or correct the deadline of the phase in play.

The new deadline is a ``DeadlineSet`` for the current phase, appended on its
own like a setting (one command, so ``gm undo`` restores the previous one),
and a short public notice is rendered for the thread (``common/<lang>/
deadline``), not archived: the round's post keeps the deadline it announced,
and the notice says what changed. A delay (``+24h``) counts from the current
deadline, since moving it is what the MJ asks for; with none set, from now.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from gm.core.campaign import DeadlineSet
from gm.core.protocol import GM
from gm.errors import GameOverError
from gm.service import clock
from gm.service.deciding import to_record
from gm.service.env import Env
from gm.service.loading import Campaign, extend, fold
from gm.service.posts import render_common


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
    with env.store.write(slug) as w:
        info = env.store.campaign(slug)
        campaign = fold(info.slug, info.game, w.events(info.slug))
        if campaign.over:
            raise GameOverError(
                "the game is over: there is no deadline left to move", code="phase/game-over"
            )
        before = campaign.deadline()
        tz = campaign.meta.settings["tz"]
        at = clock.parse_deadline(when, env.now(), tz, base=before)
        event = DeadlineSet(campaign.game.phase(campaign.state), at.isoformat())
        if preview:
            after = campaign
            recorded = False
        else:
            stored = w.append(info.slug, [to_record(event, GM)], campaign.seq)
            after = extend(campaign, stored)
            recorded = True
    shown = after if recorded else _with(campaign, event)
    notice = render_common(
        shown,
        "deadline",
        env.templates,
        before=None if before is None else {"at": before.isoformat()},
        awaiting=list(shown.game.waiting_for(shown.state)),
    )
    return Moved(after, before, at, notice, recorded)


def _with(campaign: Campaign, event: DeadlineSet) -> Campaign:
    """The campaign as a preview shows it: with the new deadline, stored nowhere."""
    from dataclasses import replace

    return replace(campaign, meta=replace(campaign.meta, deadline=event))
