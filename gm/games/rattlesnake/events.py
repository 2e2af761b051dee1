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
  ``action`` / ``shots``, key turn, player and number), their owner's;
* ``PokerCardChosen`` — a participant's face-down game card in a poker game
  (family ``poker``, key turn and player), sealed by the post of the choice,
  opened by the post of the reveal (never before: a lone opponent's card
  discarded unseen stays sealed until the final post).

A poker game (R-9, R-16, R-17) is a string of public decisions, each an
event replayed through ``poker``'s machine, followed by the money it moved
(``PokerMoney``: stakes into the pot, refunds, shares, the pot won) and, at
its end, ``PokerEnded`` (the cards it used go to the discard pile).

Every secret is opened by the final post, so a player can check each draw
against the deck orders, and the deck orders against the fortune.
Action cards travel as their keys (``model.card_key``: ``"7"``, ``"whisky"``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from gm.core.protocol import GM, Event, Seat

from .cards import Card
from .tiles import Tile


@dataclass(frozen=True)
class GameSetUp(Event):
    """The MJ dealt: ``first`` places the first saloon; every player has
    10 000 $ and five action cards (``HandDealt``)."""

    kind: ClassVar[str] = "rattlesnake.game-set-up"
    first: Seat
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
    holder: Seat = GM

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
    holder: Seat = GM

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
    orders: tuple[tuple[Seat, tuple[str, ...]], ...]
    holder: Seat = GM

    def audience(self) -> str:
        return GM


@dataclass(frozen=True)
class HandDealt(Event):
    """A player's five starting action cards (keys)."""

    kind: ClassVar[str] = "rattlesnake.hand-dealt"
    sealed: ClassVar[bool] = True
    secret: ClassVar[str] = "hand"
    secret_fields: ClassVar[tuple[str, ...]] = ("player",)
    player: Seat
    cards: tuple[str, ...]


@dataclass(frozen=True)
class SaloonPlaced(Event):
    """``player`` put their saloon on ``cell``: that town is theirs."""

    kind: ClassVar[str] = "rattlesnake.saloon-placed"
    player: Seat
    cell: str
    default: bool = False


@dataclass(frozen=True)
class TileDrawn(Event):
    """Turn ``turn`` began: ``player`` drew ``tile`` from the bag; ``legal``
    are the places it may go (empty: it is removed at once, R-6)."""

    kind: ClassVar[str] = "rattlesnake.tile-drawn"
    turn: int
    player: Seat
    tile: Tile
    legal: tuple[str, ...]


@dataclass(frozen=True)
class TilePlaced(Event):
    """Step 1: the tile drawn went on ``cell`` (a cell, or a rail slot)."""

    kind: ClassVar[str] = "rattlesnake.tile-placed"
    turn: int
    player: Seat
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
    player: Seat
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
    player: Seat
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
    player: Seat
    number: int
    cards: tuple[int, ...]


@dataclass(frozen=True)
class PermanentLaid(Event):
    """Step 3: ``player`` laid the permanent ``card`` in front of ``holder``."""

    kind: ClassVar[str] = "rattlesnake.permanent-laid"
    turn: int
    player: Seat
    card: Card
    holder: Seat


@dataclass(frozen=True)
class TileDestroyed(Event):
    """Step 3: ``player``'s Dynamitero destroyed the tile on ``cell`` (a cell
    or a rail slot); the tile leaves the game (R-13)."""

    kind: ClassVar[str] = "rattlesnake.tile-destroyed"
    turn: int
    player: Seat
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
    holder: Seat
    why: str


@dataclass(frozen=True)
class SingleUsePlayed(Event):
    """Step 3: ``player`` played a single-use card (Dynamitero, Coup du
    destin, Chasseur de primes); its effects follow; it is discarded."""

    kind: ClassVar[str] = "rattlesnake.single-use-played"
    turn: int
    player: Seat
    card: Card
    target: Seat


@dataclass(frozen=True)
class BountyCollected(Event):
    """R-7: the bank paid ``player`` the bounty for a Joe."""

    kind: ClassVar[str] = "rattlesnake.bounty-collected"
    turn: int
    player: Seat
    amount: int


@dataclass(frozen=True)
class CardSold(Event):
    """Step 3 (R-12): ``seller`` sold the carte divers ``card`` to ``buyer`` for ``price``."""

    kind: ClassVar[str] = "rattlesnake.card-sold"
    turn: int
    seller: Seat
    buyer: Seat
    card: Card
    price: int


@dataclass(frozen=True)
class BankAttacked(Event):
    """Step 4: ``attacker`` attacked the bank on ``bank``, in ``target``'s town."""

    kind: ClassVar[str] = "rattlesnake.bank-attacked"
    turn: int
    attacker: Seat
    target: Seat
    bank: str


@dataclass(frozen=True)
class ShotFired(Event):
    """A blow of a combat: ``player`` laid ``cards`` (and named the free shot
    ``free``), bringing their total to ``total``."""

    kind: ClassVar[str] = "rattlesnake.shot-fired"
    turn: int
    player: Seat
    cards: tuple[int, ...]
    total: int
    free: Card | None = None


@dataclass(frozen=True)
class FighterPassed(Event):
    """A blow of a combat: ``player`` gave up (out for good)."""

    kind: ClassVar[str] = "rattlesnake.fighter-passed"
    turn: int
    player: Seat
    default: bool = False


@dataclass(frozen=True)
class CombatEnded(Event):
    """The combat is over: ``winner`` is the last one left; ``gave_in``: the
    defender of a bank gave up before shooting (R-15)."""

    kind: ClassVar[str] = "rattlesnake.combat-ended"
    turn: int
    winner: Seat
    gave_in: bool = False


@dataclass(frozen=True)
class CashSeized(Event):
    """``source`` handed ``to`` ``amount`` dollars (half their cash, R-8)."""

    kind: ClassVar[str] = "rattlesnake.cash-seized"
    turn: int
    source: Seat
    to: Seat
    amount: int


@dataclass(frozen=True)
class TurnEnded(Event):
    """Step 5: ``player`` collected ``income`` (0: the game ended before), the turn is over."""

    kind: ClassVar[str] = "rattlesnake.turn-ended"
    turn: int
    player: Seat
    income: int
    default: bool = False


@dataclass(frozen=True)
class GameEnded(Event):
    """The game is over: ``winners`` (several share the win, R-10, R-18);
    ``why`` is ``threshold`` or ``last-tile``."""

    kind: ClassVar[str] = "rattlesnake.game-ended"
    winners: tuple[Seat, ...]
    why: str


# --- the poker game (R-9, R-16, R-17) ---------------------------------------------------


@dataclass(frozen=True)
class PokerChallenged(Event):
    """Step 4: ``challenger`` challenged ``challenged`` for ``stake`` and put it on the table."""

    kind: ClassVar[str] = "rattlesnake.poker-challenged"
    turn: int
    challenger: Seat
    challenged: Seat
    stake: int


@dataclass(frozen=True)
class PokerEscaped(Event):
    """The challenged discarded a Coyote à foie jaune and escaped."""

    kind: ClassVar[str] = "rattlesnake.poker-escaped"
    turn: int
    player: Seat


@dataclass(frozen=True)
class PokerStayed(Event):
    """The challenged plays (with no game card in hand, an action card is drawn for them, R-16)."""

    kind: ClassVar[str] = "rattlesnake.poker-stayed"
    turn: int
    player: Seat
    default: bool = False


@dataclass(frozen=True)
class PokerJoined(Event):
    """``player`` joined the poker game at the stake."""

    kind: ClassVar[str] = "rattlesnake.poker-joined"
    turn: int
    player: Seat


@dataclass(frozen=True)
class StakeLowered(Event):
    """The challenger lowered the stake to ``stake`` for everyone (R-16)."""

    kind: ClassVar[str] = "rattlesnake.stake-lowered"
    turn: int
    player: Seat
    stake: int


@dataclass(frozen=True)
class JoinsClosed(Event):
    """Nobody else may join: the face-down cards are chosen (or, nobody left to play, no game)."""

    kind: ClassVar[str] = "rattlesnake.joins-closed"
    turn: int
    default: bool = False


@dataclass(frozen=True)
class PokerCardChosen(Event):
    """``player``'s face-down game card; ``card`` 0: none (the challenged only)."""

    kind: ClassVar[str] = "rattlesnake.poker-card-chosen"
    sealed: ClassVar[bool] = True
    secret: ClassVar[str] = "poker"
    secret_fields: ClassVar[tuple[str, ...]] = ("turn", "player")
    turn: int
    player: Seat
    card: int
    default: bool = False


@dataclass(frozen=True)
class PokerRevealed(Event):
    """The face-down cards turned over together: ``cards`` (player, card) in
    seating order from the challenger; a challenged who played none is not listed."""

    kind: ClassVar[str] = "rattlesnake.poker-revealed"
    turn: int
    cards: tuple[tuple[Seat, int], ...]


@dataclass(frozen=True)
class CheatPlayed(Event):
    """Tricheur: ``player`` swapped the card showing in front of them with ``target``'s."""

    kind: ClassVar[str] = "rattlesnake.cheat-played"
    turn: int
    player: Seat
    target: Seat


@dataclass(frozen=True)
class TarPlayed(Event):
    """Goudron & Plumes: ``player`` undid the Tricheur just played; the cheater's stake is shared."""

    kind: ClassVar[str] = "rattlesnake.tar-played"
    turn: int
    player: Seat


@dataclass(frozen=True)
class TarDeclined(Event):
    """``player`` will not answer the Tricheur with Goudron & Plumes."""

    kind: ClassVar[str] = "rattlesnake.tar-declined"
    turn: int
    player: Seat
    default: bool = False


@dataclass(frozen=True)
class SwapStood(Event):
    """Nobody answered the Tricheur: the swap stands."""

    kind: ClassVar[str] = "rattlesnake.swap-stood"
    turn: int


@dataclass(frozen=True)
class CardTakenBack(Event):
    """Joueur professionnel: ``player`` took back the card showing and shows ``card`` instead."""

    kind: ClassVar[str] = "rattlesnake.card-taken-back"
    turn: int
    player: Seat
    card: int


@dataclass(frozen=True)
class ReactionPassed(Event):
    """``player`` let their turn to react go by."""

    kind: ClassVar[str] = "rattlesnake.reaction-passed"
    turn: int
    player: Seat
    default: bool = False


@dataclass(frozen=True)
class PokerFightStarted(Event):
    """``player``, a loser showing a revolver, started the combat (R-17)."""

    kind: ClassVar[str] = "rattlesnake.poker-fight-started"
    turn: int
    player: Seat


@dataclass(frozen=True)
class PokerFightDeclined(Event):
    """``player``, a loser showing a revolver, will not start a combat."""

    kind: ClassVar[str] = "rattlesnake.poker-fight-declined"
    turn: int
    player: Seat
    default: bool = False


@dataclass(frozen=True)
class PokerFled(Event):
    """Before the combat, ``player`` discarded a Coyote à foie jaune to flee with a share."""

    kind: ClassVar[str] = "rattlesnake.poker-fled"
    turn: int
    player: Seat


@dataclass(frozen=True)
class PokerStood(Event):
    """Before the combat, ``player`` did not flee."""

    kind: ClassVar[str] = "rattlesnake.poker-stood"
    turn: int
    player: Seat
    default: bool = False


@dataclass(frozen=True)
class PokerMoney(Event):
    """``amount`` dollars moved in a poker game: from ``source`` (None: the pot)
    to ``target`` (None: the pot); ``why`` is ``stake``, ``refund``,
    ``forfeit`` (a share of a cheater's stake), ``flight`` or ``win``."""

    kind: ClassVar[str] = "rattlesnake.poker-money"
    turn: int
    source: Seat | None
    target: Seat | None
    amount: int
    why: str


@dataclass(frozen=True)
class PokerEnded(Event):
    """The poker game is over: ``taker`` took what remained of the pot (None:
    no game); the cards it used went to the discard pile."""

    kind: ClassVar[str] = "rattlesnake.poker-ended"
    turn: int
    taker: Seat | None


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
    PokerChallenged,
    PokerEscaped,
    PokerStayed,
    PokerJoined,
    StakeLowered,
    JoinsClosed,
    PokerCardChosen,
    PokerRevealed,
    CheatPlayed,
    TarPlayed,
    TarDeclined,
    SwapStood,
    CardTakenBack,
    ReactionPassed,
    PokerFightStarted,
    PokerFightDeclined,
    PokerFled,
    PokerStood,
    PokerMoney,
    PokerEnded,
)
"""Every event type of the game, for the codec."""
