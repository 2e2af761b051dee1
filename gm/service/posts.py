"""Rendering a campaign's posts and private replies from views.

Templates receive views, never state: ``view`` is the game's public view (or
one player's view for private replies), ``campaign`` the platform's public
facts (title, fortune commitment, chain head; the seed only once the game is
over), ``deadline`` the current phase's deadline if any. Posts are stored as
Markdown, their canonical form; other formats are derived when printed.
"""

from __future__ import annotations

import functools
import re
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gm.core.protocol import PostRef
from gm.service.loading import Campaign, orders_in_force, record_seal

if TYPE_CHECKING:
    from gm.render import Renderer


_BLANK_RUNS = re.compile(r"\n{3,}")


def tidy(markdown: str) -> str:
    """One blank line between blocks, one newline at the end: templates can
    then separate blocks generously without minding Jinja's whitespace rules."""
    return _BLANK_RUNS.sub("\n\n", markdown).strip("\n") + "\n"


@functools.cache
def renderer(game_id: str, lang: str, override: Path | None) -> Renderer:
    from gm.render import Renderer

    return Renderer(game_id, lang, override)


def campaign_context(campaign: Campaign, head: str | None) -> dict[str, Any]:
    """The platform's public facts about a campaign, for every template."""
    meta = campaign.meta
    over = campaign.game.is_over(campaign.state)
    return {
        "title": meta.title,
        "slug": campaign.slug,
        "game": campaign.game.id,
        "game_title": campaign.game.title,
        "players": list(meta.players),
        "commitment": "sha256:" + meta.commitment,
        "seed": meta.seed if over else None,
        "chain_head": head,
        "seq": campaign.seq,
    }


def deadline_context(campaign: Campaign) -> dict[str, Any] | None:
    """The deadline of the phase the game is in, if the MJ set one."""
    deadline = campaign.meta.deadline
    if deadline is None or deadline.phase != campaign.game.phase(campaign.state):
        return None
    return {"at": deadline.at, "tz": campaign.meta.settings["tz"]}


def seals_context(campaign: Campaign, round_: int | None) -> list[dict[str, str]]:
    """The seals of the orders in force for a round, in seating order."""
    if round_ is None:
        return []
    in_force = orders_in_force(campaign, round_)
    return [
        {"player": player, "seal": record_seal(in_force[player])}
        for player in campaign.meta.players
        if player in in_force
    ]


def render_public(campaign: Campaign, ref: PostRef, head: str | None, override: Path | None) -> str:
    """Render the public post ``ref`` of the campaign as it stands, in Markdown."""
    context = {
        "post": {"kind": ref.kind, "round": ref.round},
        "view": campaign.game.public_view(campaign.state, ref),
        "campaign": campaign_context(campaign, head),
        "deadline": deadline_context(campaign),
        "seals": seals_context(campaign, ref.round),
    }
    lang = campaign.meta.settings["lang"]
    return tidy(renderer(campaign.game.id, lang, override).render(ref.kind, context))


def render_private(
    campaign: Campaign,
    kind: str,
    player: str,
    override: Path | None,
    extra: dict[str, Any] | None = None,
) -> str:
    """Render a private reply for ``player`` from their own view only."""
    context = {
        "player": player,
        "view": campaign.game.player_view(campaign.state, player),
        "campaign": campaign_context(campaign, campaign.head),
        "deadline": deadline_context(campaign),
        **(extra or {}),
    }
    lang = campaign.meta.settings["lang"]
    return tidy(renderer(campaign.game.id, lang, override).render(kind, context))


def render_common(campaign: Campaign, kind: str, override: Path | None, **extra: Any) -> str:
    """Render a template that needs no game view (reminders, refusals)."""
    context = {
        "campaign": campaign_context(campaign, campaign.head),
        "deadline": deadline_context(campaign),
        **extra,
    }
    lang = campaign.meta.settings["lang"]
    return tidy(renderer(campaign.game.id, lang, override).render(kind, context))


def output(body: str, fmt: str, tables: str) -> str:
    """A stored Markdown post in the format the forum wants."""
    if fmt == "markdown":
        return body
    from gm.render import convert

    return convert(body, fmt, tables)


def deadline_datetime(campaign: Campaign) -> datetime | None:
    ctx = deadline_context(campaign)
    return datetime.fromisoformat(ctx["at"]) if ctx else None
