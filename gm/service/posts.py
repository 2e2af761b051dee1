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
from collections.abc import Mapping
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import gm
from gm.core.fortune import label_for
from gm.core.protocol import PostRef
from gm.service.loading import Campaign, codec_for, orders_in_force, record_seal

if TYPE_CHECKING:
    from gm.render import Renderer
    from gm.store.log import Writer
    from gm.store.records import StoredPost


_BLANK_RUNS = re.compile(r"\n{3,}")


def tidy(markdown: str) -> str:
    """One blank line between blocks, one newline at the end: templates can
    then separate blocks generously without minding Jinja's whitespace rules."""
    return _BLANK_RUNS.sub("\n\n", markdown).strip("\n") + "\n"


@functools.cache
def renderer(game_id: str, lang: str, override: Path | None) -> Renderer:
    from gm.render import Renderer

    return Renderer(game_id, lang, override)


def rendered_by(campaign: Campaign, kind: str, override: Path | None) -> str:
    """What renders the campaign's ``kind`` posts today: ``gm <version>
    sha256:<fingerprint of the templates>`` (stored with each post for ``gm
    verify``). Bump gm's version when a change of code changes a post."""
    lang = campaign.meta.settings["lang"]
    fingerprint = renderer(campaign.game.id, lang, override).fingerprint(kind)
    return f"gm {gm.__version__} {fingerprint}"


def archive(
    w: Writer, campaign: Campaign, ref: PostRef, body: str, override: Path | None
) -> StoredPost:
    """Store ``body``, the public post ``ref`` rendered from ``campaign`` as it
    stands, with what rendered it; every stored post goes through here."""
    made = rendered_by(campaign, ref.kind, override)
    return w.add_post(campaign.slug, ref.kind, ref.round, campaign.seq, body, made)


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
        "draws": campaign.draws,
        "draw_label": label_for(campaign.draws, campaign.meta.words) if campaign.draws else None,
        "words": [{"player": p, "word": w} for p, w in campaign.meta.words],
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


def opened_context(
    campaign: Campaign, round_: int | None, view: Mapping[str, Any]
) -> list[dict[str, str]]:
    """The orders a post makes public, with their salts: ``{player, seal, salt}``.

    gm cannot tell by itself which orders a post reveals, so it relies on one
    convention of the games' public views: ``unsealed`` lists the players
    whose order in force for the post's round the post shows in full (Le
    Magot's results: the live shooters; a duel: both players). Only their
    salts are published; the salt of an order whose content stays secret
    (in Le Magot, a lowered, held or disabled order) is never given, or
    anyone could find its content by trying every possibility against its seal.
    """
    unsealed = view.get("unsealed")
    if round_ is None or not isinstance(unsealed, list):
        return []
    in_force = orders_in_force(campaign, round_)
    opened = []
    for player in unsealed:
        record = in_force.get(player) if isinstance(player, str) else None
        if record is not None:
            opened.append({"player": player, "seal": record_seal(record), "salt": record.salt})
    return opened


def disclosed_context(campaign: Campaign, kind: str) -> list[dict[str, Any]]:
    """Every sealed order in force of every round, salts included, for the
    ``disclosure`` post once the game is over: ``{round, player, seal, salt}``."""
    if kind != "disclosure" or not campaign.game.is_over(campaign.state):
        return []
    codec = codec_for(campaign.game.id)
    rounds = sorted(
        {
            record.payload["round"]
            for record in campaign.records
            if not record.kind.startswith("gm.")
            and codec.type_of(record.kind).sealed
            and isinstance(record.payload.get("round"), int)
        }
    )
    out: list[dict[str, Any]] = []
    for round_ in rounds:
        in_force = orders_in_force(campaign, round_)
        out.extend(
            {
                "round": round_,
                "player": player,
                "seal": record_seal(in_force[player]),
                "salt": in_force[player].salt,
            }
            for player in campaign.meta.players
            if player in in_force
        )
    return out


def render_public(campaign: Campaign, ref: PostRef, head: str | None, override: Path | None) -> str:
    """Render the public post ``ref`` of the campaign as it stands, in Markdown.

    Besides the view, a post gets ``seals`` (the commitments of the round's
    orders in force), ``opened`` (the orders the post reveals, with their
    salts: see ``opened_context``) and ``disclosed`` (every order's salt, in
    the disclosure post only).
    """
    context = public_context(campaign, ref, head)
    lang = campaign.meta.settings["lang"]
    return tidy(renderer(campaign.game.id, lang, override).render(ref.kind, context))


def public_context(campaign: Campaign, ref: PostRef, head: str | None) -> dict[str, Any]:
    """Everything a public template receives for the post ``ref``: all that an
    edited template could ever print (the conformance tests search it)."""
    view = campaign.game.public_view(campaign.state, ref)
    return {
        "post": {"kind": ref.kind, "round": ref.round},
        "view": view,
        "campaign": campaign_context(campaign, head),
        "deadline": deadline_context(campaign),
        "seals": seals_context(campaign, ref.round),
        "opened": opened_context(campaign, ref.round, view),
        "disclosed": disclosed_context(campaign, ref.kind),
    }


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
