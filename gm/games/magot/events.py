"""The events of Le Magot: what happened, in the past tense.

Every event is a frozen dataclass that ``gm.core.codec`` encodes and decodes
exactly. Secret orders (``OrderSet``, ``OrderWithdrawn``) are addressed to
their player and keyed by round and player; a fold or a stay is its player's
until the results show it (the reveal post asks for them by PM). Every other
event is public and holds only public facts: the resolution names lowered,
held and disabled orders without their options (R-5). ``rules.evolve`` still
spends those options, from the orders kept in the state since the reveal.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from gm.core.protocol import Event, Seat

from .model import Aim, EndReason, Option, Resolution


@dataclass(frozen=True)
class LootDrawn(Event):
    """A round opened: ``bills`` (in draw order) joined the pot."""

    kind: ClassVar[str] = "magot.loot-drawn"
    round: int
    bills: tuple[int, ...]
    manual: bool

    def drew_chance(self) -> bool:
        return not self.manual  # a manual draw is outside the fortune


@dataclass(frozen=True)
class OrderSet(Event):
    """A player's secret order was recorded (or replaced)."""

    kind: ClassVar[str] = "magot.order-set"
    sealed: ClassVar[bool] = True
    secret: ClassVar[str] = "order"
    secret_fields: ClassVar[tuple[str, ...]] = ("round", "player")
    round: int
    player: Seat
    target: Seat
    option: Option


@dataclass(frozen=True)
class OrderWithdrawn(Event):
    """A player's order was withdrawn."""

    kind: ClassVar[str] = "magot.order-withdrawn"
    unseals: ClassVar[bool] = True
    secret: ClassVar[str] = "order"
    secret_fields: ClassVar[tuple[str, ...]] = ("round", "player")
    round: int
    player: Seat


@dataclass(frozen=True)
class OrdersRevealed(Event):
    """The orders were locked; the aims went public (never the options).

    ``missing`` are the living players who sent no order and aim at nobody
    (R-3); ``forced`` says the MJ confirmed revealing without them.
    """

    kind: ClassVar[str] = "magot.orders-revealed"
    round: int
    aims: tuple[Aim, ...]
    missing: tuple[Seat, ...]
    forced: bool


@dataclass(frozen=True)
class Folded(Event):
    """A player chose to fold (may still change their mind until the resolution)."""

    kind: ClassVar[str] = "magot.folded"
    round: int
    player: Seat

    def audience(self) -> str:
        return self.player  # public only with the results


@dataclass(frozen=True)
class Stayed(Event):
    """A player chose to stay."""

    kind: ClassVar[str] = "magot.stayed"
    round: int
    player: Seat

    def audience(self) -> str:
        return self.player


@dataclass(frozen=True)
class RoundResolved(Event):
    """The shots were fired and the pot shared: the public facts of the round."""

    kind: ClassVar[str] = "magot.round-resolved"
    round: int
    resolution: Resolution


@dataclass(frozen=True)
class GameEnded(Event):
    """The game ended (R-7). ``lost`` are the bills left in the pot, lost for all."""

    kind: ClassVar[str] = "magot.game-ended"
    round: int
    reason: EndReason
    lost: tuple[int, ...]


EVENTS: tuple[type[Event], ...] = (
    LootDrawn,
    OrderSet,
    OrderWithdrawn,
    OrdersRevealed,
    Folded,
    Stayed,
    RoundResolved,
    GameEnded,
)
"""Every event type of the game, for the codec."""
