"""Dice of fortune: ``gm roll``, a public roll drawn from the campaign's fortune.

A roll is the platform's command ``RollDice`` (``gm.core.platform``), run like
any command: decided in one write transaction, recorded after its
``CommandDecided``, its stream ``roll/<n>`` (the campaign's n-th roll) named
in a ``ChanceDrawn``, its ready-to-post line published as a post of kind
``roll``. There is no preview: dice are seen once, when they count
(``gm.service.actions`` refuses to preview any command that draws).

Rolling is allowed in every phase while the game is not over. Once it is
over the seed is public (the final post reveals it), so a roll would prove
nothing: it is refused with ``phase/game-over``.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from gm.core import dice
from gm.core.platform import RollDice
from gm.errors import InputError
from gm.service import actions
from gm.service.actions import Post
from gm.service.env import Env
from gm.service.loading import Campaign, decode
from gm.service.posts import last_roll

MAX_REASON = 200


@dataclass(frozen=True)
class Rolled:
    """What ``roll`` did: the campaign after it, the roll, its post."""

    campaign: Campaign
    roll: dice.Roll
    post: Post
    recorded: bool = True


def check_reason(reason: str | None) -> str:
    """The MJ's reason for a roll, trimmed and in NFC; empty when none.

    :raises InputError: ``dice/reason`` for a line break or a text too long.
    """
    text = unicodedata.normalize("NFC", (reason or "").strip())
    if any(unicodedata.category(c) in ("Cc", "Zl", "Zp", "Cf") or c in "«»" for c in text):
        raise InputError(
            f"the reason must be one line of text, without line breaks, tabs, invisible"
            f" characters or « » (the post quotes it with them): got {text!r}",
            code="dice/reason",
        )
    if len(text) > MAX_REASON:
        raise InputError(
            f"the reason is {len(text)} characters long; the limit is {MAX_REASON}",
            code="dice/reason",
        )
    return text


def roll(env: Env, slug: str, expression: str, reason: str | None = None) -> Rolled:
    """Roll ``expression`` for the campaign ``slug``, record it and its post.

    :raises InputError: ``dice/syntax``, ``dice/limit`` or ``dice/reason``.
    :raises GameOverError: the game is over (its seed is public).
    """
    parsed = dice.parse(expression)
    why = check_reason(reason)
    result = actions.command(env, slug, RollDice(str(parsed), why))
    campaign = result.campaign
    last = last_roll(campaign)
    assert last is not None  # the command just recorded one
    event = decode(campaign.game.id, last)
    assert isinstance(event, dice.DiceRolled)
    return Rolled(campaign, dice.from_event(event), result.posts[-1], result.recorded)
