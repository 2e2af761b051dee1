"""The events of Fistful of Gold: what happened, in the past tense.

Secret choices are *sealed* events addressed to their player, with the
``round`` (the state's ``turn``) and ``player`` the platform needs to publish
their seals: the setup discards, each duel's card, the end-of-manche choice.
Every other event is public and holds only public facts: both revealed
cards and what they did, the card a green 8 took back (shown to all), the
final duel, the stars. ``rules.evolve`` applies the discards the rules force
(the cards left in hand) from the state, never from a public event.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from gm.core.protocol import Event

from .cards import Card
from .model import EndChoice, MancheResult, Outcome


@dataclass(frozen=True)
class SetupDiscarded(Event):
    """A player's two setup discards were recorded (or replaced)."""

    kind: ClassVar[str] = "fistful.setup-discarded"
    sealed: ClassVar[bool] = True
    round: int
    player: str
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
    sealed: ClassVar[bool] = True
    round: int
    player: str
    card: Card


@dataclass(frozen=True)
class CardPicked(Event):
    """The green-8 owner took ``card`` back from their removed pile and showed it."""

    kind: ClassVar[str] = "fistful.card-picked"
    round: int
    player: str
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
    sealed: ClassVar[bool] = True
    round: int
    player: str
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
