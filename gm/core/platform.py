"""The platform's own commands: what the MJ asks for that no game rules.

``gm roll`` is a command like a game's: decided against the campaign, its
events recorded after a ``CommandDecided``, and decided again by ``gm
verify``. Its dice read the stream ``roll/<n>``, the campaign's n-th roll,
so a roll never moves a game's draw, nor a game's draw a roll.
"""

from __future__ import annotations

from dataclasses import dataclass

from gm.core import dice
from gm.core.campaign import Meta
from gm.core.protocol import Command, Draws, Event
from gm.errors import GameOverError


@dataclass(frozen=True)
class RollDice(Command):
    """Roll ``expression`` (already checked) for ``reason``, in public."""

    kind = "gm.roll"
    expression: str
    reason: str


PLATFORM_COMMANDS: tuple[type[Command], ...] = (RollDice,)


def roll_purpose(meta: Meta) -> str:
    """The stream of the campaign's next roll."""
    return f"roll/{meta.rolls + 1}"


def decide(meta: Meta, over: bool, command: Command, draws: Draws) -> list[Event]:
    """The events of a platform command.

    :raises GameOverError: a roll once the game is over (its seed is public).
    """
    match command:
        case RollDice():
            if over:
                raise GameOverError(
                    "the game is over and its seed revealed: a roll now would prove nothing",
                    code="phase/game-over",
                )
            result = dice.roll(command.expression, draws.stream(roll_purpose(meta)))
            return [dice.rolled(result, command.reason)]
    raise TypeError(f"not a platform command: {command.kind}")
