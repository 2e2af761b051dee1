"""The commands of Le Magot: what a player or the MJ asks for.

Player names in commands are as typed (any case, accents optional);
``rules.decide`` resolves them to the canonical spelling and checks them.
Steps of the MJ (draw, reveal, resolve) are sent with actor ``gm``; orders,
folds and stays may be sent by the player concerned or by the MJ.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from gm.core.protocol import Command, Seat

from .model import Option


@dataclass(frozen=True)
class DrawLoot(Command):
    """Open the next round: draw bills into the pot.

    ``bills`` is ``None`` for a draw by the campaign's fortune, or the bills
    the MJ drew by hand (R-2), which must all be in the loot deck.
    """

    kind: ClassVar[str] = "magot.draw-loot"
    bills: tuple[int, ...] | None = None


@dataclass(frozen=True)
class SetOrder(Command):
    """Send or replace ``player``'s secret order for this round."""

    kind: ClassVar[str] = "magot.set-order"
    player: Seat
    target: Seat
    option: Option


@dataclass(frozen=True)
class WithdrawOrder(Command):
    """Withdraw ``player``'s order for this round."""

    kind: ClassVar[str] = "magot.withdraw-order"
    player: Seat


@dataclass(frozen=True)
class Reveal(Command):
    """Lock the orders and make the aims public. ``force`` accepts missing orders (R-3)."""

    kind: ClassVar[str] = "magot.reveal"
    force: bool = False


@dataclass(frozen=True)
class Fold(Command):
    """``player`` lowers their gun this round."""

    kind: ClassVar[str] = "magot.fold"
    player: Seat


@dataclass(frozen=True)
class Stay(Command):
    """``player`` keeps aiming this round (the default, R-4)."""

    kind: ClassVar[str] = "magot.stay"
    player: Seat


@dataclass(frozen=True)
class Resolve(Command):
    """Fire the shots, share the pot and close the round."""

    kind: ClassVar[str] = "magot.resolve"


COMMANDS: tuple[type[Command], ...] = (
    DrawLoot,
    SetOrder,
    WithdrawOrder,
    Reveal,
    Fold,
    Stay,
    Resolve,
)
"""Every command type of the game, for the log."""
