"""The events of Rattlesnake City: what happened, in the past tense.

Public events hold what the table sees: the first player, each saloon and
tile placed, which step-2 draw a player chose, every card played and every
trade, each blow of a combat, money handed over, income collected. What only
some may know is *sealed* (a secret, ``docs/architecture.md``):

* ``BagFilled`` — the order of the tiles in the bag (the MJ's, family
  ``bag``), sealed by the setup post, opened by the final post;
* ``DeckShuffled`` — the order of the action or shot deck, at the start or
  each time a discard pile is shuffled into a new deck (the MJ's, family
  ``deck``, key deck and number), sealed by the post of the moment it is
  made, opened by the final post;
* ``HandDealt`` — a player's five starting action cards (family ``hand``);
* ``ActionDrawn`` / ``ShotsDrawn`` — the cards a player draws (family
  ``action`` / ``shots``, key turn, player and number), their owner's.

Every secret is opened by the final post, so a player can check each draw
against the deck orders, and the deck orders against the fortune.
Action cards travel as their keys (``model.card_key``: ``"7"``, ``"whisky"``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from gm.core.protocol import GM, Event

from .cards import Card
from .tiles import Tile


@dataclass(frozen=True)
class GameSetUp(Event):
    """The MJ dealt: ``first`` places the first saloon; every player has
    10 000 $ and five action cards (``HandDealt``)."""

    kind: ClassVar[str] = "rattlesnake.game-set-up"
    first: str
    scripted: bool = False


@dataclass(frozen=True)
class BagFilled(Event):
    """The tiles in the bag, top first."""

    kind: ClassVar[str] = "rattlesnake.bag-filled"
    sealed: ClassVar[bool] = True
    secret: ClassVar[str] = "bag"
    secret_fields: ClassVar[tuple[str, ...]] = ()
    owner_field: ClassVar[str] = "holder"
    tiles: tuple[Tile, ...]
    holder: str = GM

    def audience(self) -> str:
        return GM


@dataclass(frozen=True)
class DeckShuffled(Event):
    """A deck (``actions`` or ``shots``), top first: ``number`` 0 at the start,
    then 1, 2… for each new deck made from its discard pile."""

    kind: ClassVar[str] = "rattlesnake.deck-shuffled"
    sealed: ClassVar[bool] = True
    secret: ClassVar[str] = "deck"
    secret_fields: ClassVar[tuple[str, ...]] = ("deck", "number")
    owner_field: ClassVar[str] = "holder"
    deck: str
    number: int
    cards: tuple[str, ...]
    holder: str = GM

    def audience(self) -> str:
        return GM


@dataclass(frozen=True)
class DeckReshuffled(Event):
    """The discard pile of ``deck`` became its new deck (``DeckShuffled`` says the order)."""

    kind: ClassVar[str] = "rattlesnake.deck-reshuffled"
    deck: str
    number: int


@dataclass(frozen=True)
class OrdersGiven(Event):
    """A game played by hand: the order of each new deck to be made from a
    discard pile, per deck (``actions`` or ``shots``), in order."""

    kind: ClassVar[str] = "rattlesnake.orders-given"
    sealed: ClassVar[bool] = True
    secret: ClassVar[str] = "orders"
    secret_fields: ClassVar[tuple[str, ...]] = ()
    owner_field: ClassVar[str] = "holder"
    orders: tuple[tuple[str, tuple[str, ...]], ...]
    holder: str = GM

    def audience(self) -> str:
        return GM


@dataclass(frozen=True)
class HandDealt(Event):
    """A player's five starting action cards (keys)."""

    kind: ClassVar[str] = "rattlesnake.hand-dealt"
    sealed: ClassVar[bool] = True
    secret: ClassVar[str] = "hand"
    secret_fields: ClassVar[tuple[str, ...]] = ("player",)
    player: str
    cards: tuple[str, ...]


@dataclass(frozen=True)
class SaloonPlaced(Event):
    """``player`` put their saloon on ``cell``: that town is theirs."""

    kind: ClassVar[str] = "rattlesnake.saloon-placed"
    player: str
    cell: str
    default: bool = False


@dataclass(frozen=True)
class TileDrawn(Event):
    """Turn ``turn`` began: ``player`` drew ``tile`` from the bag; ``legal``
    are the places it may go (empty: it is removed at once, R-6)."""

    kind: ClassVar[str] = "rattlesnake.tile-drawn"
    turn: int
    player: str
    tile: Tile
    legal: tuple[str, ...]


@dataclass(frozen=True)
class TilePlaced(Event):
    """Step 1: the tile drawn went on ``cell`` (a cell, or a rail slot)."""

    kind: ClassVar[str] = "rattlesnake.tile-placed"
    turn: int
    player: str
    tile: Tile
    cell: str
    default: bool = False


@dataclass(frozen=True)
class TileRemoved(Event):
    """Step 1: the tile drawn could go nowhere and left the game (R-6)."""

    kind: ClassVar[str] = "rattlesnake.tile-removed"
    turn: int
    tile: Tile


@dataclass(frozen=True)
class DrawChosen(Event):
    """Step 2: ``player`` drew one action card (``action``) or two shot cards (``coups``)."""

    kind: ClassVar[str] = "rattlesnake.draw-chosen"
    turn: int
    player: str
    what: str
    default: bool = False


@dataclass(frozen=True)
class ActionDrawn(Event):
    """The action card ``player`` drew (``number`` counts their draws this turn)."""

    kind: ClassVar[str] = "rattlesnake.action-drawn"
    sealed: ClassVar[bool] = True
    secret: ClassVar[str] = "action"
    secret_fields: ClassVar[tuple[str, ...]] = ("turn", "player", "number")
    turn: int
    player: str
    number: int
    card: str


@dataclass(frozen=True)
class ShotsDrawn(Event):
    """The shot cards ``player`` drew (fewer than asked when both the deck
    and the discard pile ran out)."""

    kind: ClassVar[str] = "rattlesnake.shots-drawn"
    sealed: ClassVar[bool] = True
    secret: ClassVar[str] = "shots"
    secret_fields: ClassVar[tuple[str, ...]] = ("turn", "player", "number")
    turn: int
    player: str
    number: int
    cards: tuple[int, ...]


@dataclass(frozen=True)
class PermanentLaid(Event):
    """Step 3: ``player`` laid the permanent ``card`` in front of ``holder``."""

    kind: ClassVar[str] = "rattlesnake.permanent-laid"
    turn: int
    player: str
    card: Card
    holder: str


@dataclass(frozen=True)
class TileDestroyed(Event):
    """Step 3: ``player``'s Dynamitero destroyed the tile on ``cell`` (a cell
    or a rail slot); the tile leaves the game (R-13)."""

    kind: ClassVar[str] = "rattlesnake.tile-destroyed"
    turn: int
    player: str
    cell: str
    tile: Tile


@dataclass(frozen=True)
class PermanentDiscarded(Event):
    """A permanent card in front of ``holder`` went to the discard pile:
    ``why`` is ``destin`` (a Coup du destin), ``bounty`` (a Chasseur de
    primes arrested a Joe) or ``hotel`` (its town's hotel was destroyed, R-13)."""

    kind: ClassVar[str] = "rattlesnake.permanent-discarded"
    turn: int
    card: Card
    holder: str
    why: str


@dataclass(frozen=True)
class SingleUsePlayed(Event):
    """Step 3: ``player`` played a single-use card (Dynamitero, Coup du
    destin, Chasseur de primes); its effects follow; it is discarded."""

    kind: ClassVar[str] = "rattlesnake.single-use-played"
    turn: int
    player: str
    card: Card
    target: str


@dataclass(frozen=True)
class BountyCollected(Event):
    """R-7: the bank paid ``player`` the bounty for a Joe."""

    kind: ClassVar[str] = "rattlesnake.bounty-collected"
    turn: int
    player: str
    amount: int


@dataclass(frozen=True)
class CardSold(Event):
    """Step 3 (R-12): ``seller`` sold the carte divers ``card`` to ``buyer`` for ``price``."""

    kind: ClassVar[str] = "rattlesnake.card-sold"
    turn: int
    seller: str
    buyer: str
    card: Card
    price: int


@dataclass(frozen=True)
class BankAttacked(Event):
    """Step 4: ``attacker`` attacked the bank on ``bank``, in ``target``'s town."""

    kind: ClassVar[str] = "rattlesnake.bank-attacked"
    turn: int
    attacker: str
    target: str
    bank: str


@dataclass(frozen=True)
class ShotFired(Event):
    """A blow of a combat: ``player`` laid ``cards`` (and named the free shot
    ``free``), bringing their total to ``total``."""

    kind: ClassVar[str] = "rattlesnake.shot-fired"
    turn: int
    player: str
    cards: tuple[int, ...]
    total: int
    free: Card | None = None


@dataclass(frozen=True)
class FighterPassed(Event):
    """A blow of a combat: ``player`` gave up (out for good)."""

    kind: ClassVar[str] = "rattlesnake.fighter-passed"
    turn: int
    player: str
    default: bool = False


@dataclass(frozen=True)
class CombatEnded(Event):
    """The combat is over: ``winner`` is the last one left; ``gave_in``: the
    defender of a bank gave up before shooting (R-15)."""

    kind: ClassVar[str] = "rattlesnake.combat-ended"
    turn: int
    winner: str
    gave_in: bool = False


@dataclass(frozen=True)
class CashSeized(Event):
    """``source`` handed ``to`` ``amount`` dollars (half their cash, R-8)."""

    kind: ClassVar[str] = "rattlesnake.cash-seized"
    turn: int
    source: str
    to: str
    amount: int


@dataclass(frozen=True)
class TurnEnded(Event):
    """Step 5: ``player`` collected ``income`` (0: the game ended before), the turn is over."""

    kind: ClassVar[str] = "rattlesnake.turn-ended"
    turn: int
    player: str
    income: int
    default: bool = False


@dataclass(frozen=True)
class GameEnded(Event):
    """The game is over: ``winners`` (several share the win, R-10, R-18);
    ``why`` is ``threshold`` or ``last-tile``."""

    kind: ClassVar[str] = "rattlesnake.game-ended"
    winners: tuple[str, ...]
    why: str


EVENTS: tuple[type[Event], ...] = (
    GameSetUp,
    BagFilled,
    DeckShuffled,
    DeckReshuffled,
    OrdersGiven,
    HandDealt,
    SaloonPlaced,
    TileDrawn,
    TilePlaced,
    TileRemoved,
    DrawChosen,
    ActionDrawn,
    ShotsDrawn,
    PermanentLaid,
    TileDestroyed,
    PermanentDiscarded,
    SingleUsePlayed,
    BountyCollected,
    CardSold,
    BankAttacked,
    ShotFired,
    FighterPassed,
    CombatEnded,
    CashSeized,
    TurnEnded,
    GameEnded,
)
"""Every event type of the game, for the codec."""
