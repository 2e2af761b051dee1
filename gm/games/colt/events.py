"""The events of Colt Express: what happened, in the past tense.

Public events hold only what the table saw: the train's setup without the
purses' values, each Plan move (a face-down card as « a card »), each card
resolved and its effects, the round's event. What only some may know is
*sealed* (a secret, ``docs/architecture.md``), several per player per round:

* ``LootPlaced`` — the values of the purses drawn into the cars (the MJ's
  secret, family ``loot``); sealed by the setup post, opened by the final post;
* ``DeckDealt`` — a player's shuffled deck for a round, top first (family
  ``deck``, key round and player). Its payload is the MJ's alone (not even its
  owner sees the order of the cards still to draw); the round post seals it,
  the end-of-game disclosure opens it;
* ``CardHidden`` — a face-down card (family ``card``, key round, turn and
  player), its owner's; the Plan post of its turn seals it, the Action post
  that turns it over opens it;
* ``InstructionGiven`` — instructions sent in advance for a card (family
  ``instruction``, key round, player and the card's place in the pile);
  sealed by the Action post that applies them, opened by the disclosure;
* ``PurseMoved`` — which purse (its value) changed hands (family ``purse``,
  key round, step and player: step 0 is the round's event), the bandit's who
  takes, keeps, drops or loses it; sealed by the post of its step, opened by
  the final post, when every value is shown.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from gm.core.protocol import GM, Event, Seat

from .cards import Card
from .model import Choice, Effect, Outcome


@dataclass(frozen=True)
class TrainSet(Event):
    """The train was placed: who plays whom, the cars in order (printed
    numbers, from the locomotive back), and whether the game is played by
    hand (a scenario: ``scripted``)."""

    kind: ClassVar[str] = "colt.train-set"
    characters: tuple[tuple[Seat, str], ...]
    cars: tuple[int, ...]
    scripted: bool = False


@dataclass(frozen=True)
class LootPlaced(Event):
    """The values of the purses lying in each car, from car 1 to the caboose."""

    kind: ClassVar[str] = "colt.loot-placed"
    sealed: ClassVar[bool] = True
    secret: ClassVar[str] = "loot"
    secret_fields: ClassVar[tuple[str, ...]] = ()
    owner_field: ClassVar[str] = "holder"
    purses: tuple[tuple[int, ...], ...]
    holder: Seat = GM


@dataclass(frozen=True)
class RoundOpened(Event):
    """A round began: its card (the turns and the event follow from it)."""

    kind: ClassVar[str] = "colt.round-opened"
    round: int
    card: str


@dataclass(frozen=True)
class DeckDealt(Event):
    """A player's deck for a round, shuffled, top first: the first 6 (Doc: 7)
    are the hand. The MJ's alone: see the module docstring."""

    kind: ClassVar[str] = "colt.deck-dealt"
    sealed: ClassVar[bool] = True
    secret: ClassVar[str] = "deck"
    secret_fields: ClassVar[tuple[str, ...]] = ("round", "player")
    round: int
    player: Seat
    cards: tuple[Card, ...]

    def audience(self) -> str:
        return GM


@dataclass(frozen=True)
class CardPlayed(Event):
    """A Plan turn: ``player`` put a card on the pile; ``card`` is None when it
    lies face down (``CardHidden`` says which, in secret)."""

    kind: ClassVar[str] = "colt.card-played"
    round: int
    turn: int
    player: Seat
    card: Card | None
    default: bool = False


@dataclass(frozen=True)
class CardHidden(Event):
    """The card ``player`` played face down on Plan turn ``turn``."""

    kind: ClassVar[str] = "colt.card-hidden"
    sealed: ClassVar[bool] = True
    secret: ClassVar[str] = "card"
    secret_fields: ClassVar[tuple[str, ...]] = ("round", "turn", "player")
    round: int
    turn: int
    player: Seat
    card: Card


@dataclass(frozen=True)
class CardsDrawn(Event):
    """A Plan turn: ``player`` drew ``count`` cards (3, fewer when the deck ran short)."""

    kind: ClassVar[str] = "colt.cards-drawn"
    round: int
    turn: int
    player: Seat
    count: int
    default: bool = False


@dataclass(frozen=True)
class InstructionGiven(Event):
    """``player``'s instructions for their card at ``slot`` in the pile (0-based)."""

    kind: ClassVar[str] = "colt.instruction-given"
    sealed: ClassVar[bool] = True
    secret: ClassVar[str] = "instruction"
    secret_fields: ClassVar[tuple[str, ...]] = ("round", "player", "slot")
    round: int
    player: Seat
    slot: int
    alternatives: tuple[Choice, ...]


@dataclass(frozen=True)
class CardResolved(Event):
    """A card of the pile resolved (the Action): what its owner chose and what
    happened, in order. ``first`` is the first step the same command resolved."""

    kind: ClassVar[str] = "colt.card-resolved"
    round: int
    step: int
    first: int
    player: Seat
    card: Card
    how: str
    outcome: Outcome
    void: str | None
    effects: tuple[Effect, ...]


@dataclass(frozen=True)
class PurseMoved(Event):
    """A purse changed hands: from a bandit or a spot, to a bandit, a spot or
    out of the game (``to_bandit`` and ``car`` both None). ``player`` is the
    bandit who takes, keeps, drops or loses it, who alone learns its value."""

    kind: ClassVar[str] = "colt.purse-moved"
    sealed: ClassVar[bool] = True
    secret: ClassVar[str] = "purse"
    secret_fields: ClassVar[tuple[str, ...]] = ("round", "step", "player")
    round: int
    step: int
    player: Seat
    value: int
    from_bandit: Seat | None = None
    to_bandit: Seat | None = None
    car: int | None = None
    roof: bool = False


@dataclass(frozen=True)
class PickpocketChosen(Event):
    """At Pickpocket, ``player`` said whether they take a purse lying on their spot."""

    kind: ClassVar[str] = "colt.pickpocket-chosen"
    round: int
    player: Seat
    take: bool
    default: bool = False


@dataclass(frozen=True)
class EventResolved(Event):
    """The round's event was applied, and the round ended (the game too, after the 5th)."""

    kind: ClassVar[str] = "colt.event-resolved"
    round: int
    card: str
    effects: tuple[Effect, ...]


EVENTS: tuple[type[Event], ...] = (
    TrainSet,
    LootPlaced,
    RoundOpened,
    DeckDealt,
    CardPlayed,
    CardHidden,
    CardsDrawn,
    InstructionGiven,
    CardResolved,
    PurseMoved,
    PickpocketChosen,
    EventResolved,
)
"""Every event type of the game, for the codec."""
