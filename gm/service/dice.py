"""Dice of fortune: ``gm roll``, a public roll drawn from the campaign's fortune.

Like every command that changes a campaign, a roll runs in one write
transaction: read the log, fold it, draw from the stream ``draw/<n>`` (the
campaign's n-th draw, see ``gm.core.fortune``), append the
event (actor ``gm``, public), render the ready-to-post line and store it as a
post of kind ``roll``. ``preview`` rolls the same dice and records nothing.

Rolling is allowed in every phase while the game is not over. Once it is
over the seed is public (the final post reveals it), so a roll would prove
nothing: it is refused with ``phase/game-over``.

The post is rendered from the event alone (``render_post``), so ``gm verify``
renders it again from the log and finds the same text.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from pathlib import Path

from gm.core import dice
from gm.core.fortune import Fortune, label_for
from gm.core.protocol import GM, PostRef
from gm.errors import GameOverError, InputError
from gm.service.actions import Post, new_event
from gm.service.env import Env
from gm.service.loading import Campaign, decode, extend, fold
from gm.service.posts import archive, render_common

POST_KIND = "roll"
"""The kind of the stored post (and the template ``common/<lang>/roll.md.j2``)."""

MAX_REASON = 200


@dataclass(frozen=True)
class Rolled:
    """What ``roll`` did: the campaign after it, the roll, its draw number and post."""

    campaign: Campaign
    roll: dice.Roll
    draw: int
    """The roll's number among the campaign's draws: its stream is ``draw/<draw>``."""
    post: Post
    recorded: bool = True


def check_reason(reason: str | None) -> str:
    """The MJ's reason for a roll, trimmed and in NFC; empty when none.

    :raises InputError: ``dice/reason`` for a line break or a text too long.
    """
    text = unicodedata.normalize("NFC", (reason or "").strip())
    if any(unicodedata.category(c) in ("Cc", "Zl", "Zp") for c in text):
        raise InputError(
            f"the reason must be one line of text, without line breaks or tabs: got {text!r}",
            code="dice/reason",
        )
    if len(text) > MAX_REASON:
        raise InputError(
            f"the reason is {len(text)} characters long; the limit is {MAX_REASON}",
            code="dice/reason",
        )
    return text


def roll(
    env: Env, slug: str, expression: str, reason: str | None = None, preview: bool = False
) -> Rolled:
    """Roll ``expression`` for the campaign ``slug``, record it and its post.

    :raises InputError: ``dice/syntax``, ``dice/limit`` or ``dice/reason``.
    :raises GameOverError: the game is over (its seed is public).
    """
    parsed = dice.parse(expression)
    why = check_reason(reason)
    store = env.store
    info = store.campaign(slug)
    with store.write(info.slug) as w:
        campaign = fold(info.slug, info.game, w.events(info.slug))
        if campaign.game.is_over(campaign.state):
            raise GameOverError(
                "the game is over and its seed revealed: a roll now would prove nothing",
                code="phase/game-over",
            )
        number = campaign.draws + 1  # the campaign's n-th draw reads draw/<n>
        label = label_for(number, campaign.meta.words)
        result = dice.roll(parsed, Fortune(campaign.meta.seed or "", label))
        event = dice.rolled(result, why)
        if preview:
            body = _render(campaign, event, number, env.templates)
            return Rolled(campaign, result, number, Post(PostRef(POST_KIND), body), recorded=False)
        stored = w.append(info.slug, [new_event(event, GM)], campaign.seq)
        after = extend(campaign, stored)
        body = render_post(after, env.templates)
        row = archive(w, after, PostRef(POST_KIND), body, env.templates)
    return Rolled(after, result, number, Post(PostRef(POST_KIND), body, row.number))


def render_post(campaign: Campaign, override: Path | None) -> str:
    """The post of the roll that is the last event of ``campaign`` (as stored).

    :raises ValueError: the last event is not a roll, or does not hold together.
    """
    record = campaign.records[-1]
    event = decode(campaign.game.id, record)
    if not isinstance(event, dice.DiceRolled):
        raise ValueError(f"event {record.seq} is {record.kind}, not a dice roll")
    # The roll is the campaign's latest draw: it read the stream draw/<draws>.
    return _render(campaign, event, campaign.draws, override)


def _render(campaign: Campaign, event: dice.DiceRolled, number: int, override: Path | None) -> str:
    result = dice.from_event(event)
    terms = [
        {
            "sign": t.term.sign,
            "constant": t.term.value if isinstance(t.term, dice.Constant) else None,
            "dice": [{"value": v, "kept": k} for v, k in zip(t.dice, t.kept, strict=True)],
        }
        for t in result.terms
    ]
    context = {
        "expression": event.expression,
        "reason": event.reason,
        "terms": terms,
        "total": result.total,
        "draw": number,
        "label": label_for(number, campaign.meta.words),
    }
    return render_common(campaign, POST_KIND, override, roll=context)
