"""The events of Fistful of Gold: what happened, in the past tense.

Secret choices are *sealed* events addressed to their player, keyed by what
players call them: the setup discards by player, each duel's card by manche,
duel and player, the end-of-manche choice by manche and player. (Version 1
of these events, written before gm 0.2, keyed them by an internal turn
counter, ``round``; their upcasters keep that number as ``duel`` of manche 0,
or as manche ``-round``, so that old logs still fold and their secrets keep
distinct keys.)
Every other event is public and holds only public facts: both revealed
cards and what they did, the card a green 8 took back (shown to all), the
final duel, the stars. ``rules.evolve`` applies the discards the rules force
(the cards left in hand) from the state, never from a public event.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from gm.core.protocol import Event, Seat, Upcaster

from .cards import Card
from .model import EndChoice, MancheResult, Outcome


def _drop_round(payload: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in payload.items() if k != "round"}


def _turn_as_duel(payload: dict[str, Any]) -> dict[str, Any]:
    return {**_drop_round(payload), "manche": 0, "duel": payload["round"]}


def _turn_as_manche(payload: dict[str, Any]) -> dict[str, Any]:
    return {**_drop_round(payload), "manche": -payload["round"]}


@dataclass(frozen=True)
class SetupDiscarded(Event):
    """A player's two setup discards were recorded (or replaced)."""

    kind: ClassVar[str] = "fistful.setup-discarded"
    version: ClassVar[int] = 2
    upcasters: ClassVar[tuple[Upcaster, ...]] = (_drop_round,)
    sealed: ClassVar[bool] = True
    secret: ClassVar[str] = "setup"
    secret_fields: ClassVar[tuple[str, ...]] = ("player",)
    player: Seat
    cards: tuple[Card, ...]


@dataclass(frozen=True)
class DuelsStarted(Event):
    """The setup discards were locked; the first manche began."""

    kind: ClassVar[str] = "fistful.duels-started"
    round: int


@dataclass(frozen=True)
class CardPlayed(Event):
    """A player's secret card for a duel was recorded (or replaced)."""

    kind: ClassVar[str] = "fistful.card-played"
    version: ClassVar[int] = 2
    upcasters: ClassVar[tuple[Upcaster, ...]] = (_turn_as_duel,)
    sealed: ClassVar[bool] = True
    secret: ClassVar[str] = "card"
    secret_fields: ClassVar[tuple[str, ...]] = ("manche", "duel", "player")
    manche: int
    duel: int
    player: Seat
    card: Card


@dataclass(frozen=True)
class CardPicked(Event):
    """The green-8 owner took ``card`` back from their removed pile and showed it."""

    kind: ClassVar[str] = "fistful.card-picked"
    round: int
    player: Seat
    card: Card


@dataclass(frozen=True)
class DuelResolved(Event):
    """Both cards of a duel were revealed: the public facts of the duel."""

    kind: ClassVar[str] = "fistful.duel-resolved"
    round: int
    manche: int
    duel: int
    outcome: Outcome


@dataclass(frozen=True)
class EndChosen(Event):
    """A player's secret end-of-manche choice was recorded (or replaced)."""

    kind: ClassVar[str] = "fistful.end-chosen"
    version: ClassVar[int] = 2
    upcasters: ClassVar[tuple[Upcaster, ...]] = (_turn_as_manche,)
    sealed: ClassVar[bool] = True
    secret: ClassVar[str] = "end"
    secret_fields: ClassVar[tuple[str, ...]] = ("manche", "player")
    manche: int
    player: Seat
    choice: EndChoice


@dataclass(frozen=True)
class MancheEnded(Event):
    """A manche was scored (final duel included); ``result.game_end`` says
    whether the game ended with it."""

    kind: ClassVar[str] = "fistful.manche-ended"
    round: int
    result: MancheResult


EVENTS: tuple[type[Event], ...] = (
    SetupDiscarded,
    DuelsStarted,
    CardPlayed,
    CardPicked,
    DuelResolved,
    EndChosen,
    MancheEnded,
)
"""Every event type of the game, for the codec."""
