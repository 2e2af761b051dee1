"""The state of a game of Rattlesnake City: the valley, the players, the turn in play.

Everything here is a frozen value; ``State`` is the fold of the event log
(``rules.evolve``). Secrets live in the state too (cash, hands, shot cards,
the order of the bag and of the decks): only ``views`` decides what a post or
a private reply may show.

Per-player values are tuples in seating order (``State.players``), read
through ``State.seat``. Action cards are kept as ``cards.Action`` values (a
game card's value, or a named ``Card``); in events they travel as their
*key* (``cards_key``), since an event field has one type.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum
from functools import cache
from typing import Any

from .board import Board, default_board, default_board_text, load_board
from .cards import Action, Card
from .combat import Combat
from .poker import Poker
from .tiles import Layout, Tile

START_CASH = 10_000
"""What each player receives at the start (« Setup »)."""
HAND_SIZE = 5
"""Action cards dealt to each player at the start."""
SHOTS_DRAWN = 2
"""Shot cards a player draws at step 2 instead of an action card."""


def threshold(players: int) -> int:
    """The fortune that wins at once: 200 000 $ with 2 or 3 players, 150 000 $ with 4 to 6."""
    return 200_000 if players <= 3 else 150_000


def card_key(card: Action) -> str:
    """An action card as events store it: ``"7"`` or ``"whisky"``."""
    return str(card) if isinstance(card, int) else card.value


def card_of_key(key: str) -> Action:
    """The action card a stored key names (``card_key``'s inverse)."""
    return int(key) if key.isdigit() else Card(key)


def cards_key(cards: tuple[Action, ...]) -> tuple[str, ...]:
    return tuple(card_key(c) for c in cards)


def cards_of_keys(keys: tuple[str, ...]) -> tuple[Action, ...]:
    return tuple(card_of_key(k) for k in keys)


@cache
def board_of(text: str) -> Board:
    """The board a campaign's options hold, parsed once per process."""
    return default_board() if text == default_board_text() else load_board(text)


class Phase(StrEnum):
    """What the game waits for."""

    SETUP = "setup"  # the MJ deals (gm setup): the first player, hands, the bag and decks
    SALOONS = "saloons"  # each player, in seating order from the first, places their saloon
    TILE = "tile"  # step 1: the active player places the tile drawn
    DRAW = "draw"  # step 2: one action card, or two shot cards
    FREE = "free"  # steps 3 and 4: divers cards, trades, a bank attack, a poker game; then « fin »
    BANK = "bank"  # a bank attack: the combat, blow by blow
    POKER = "poker"  # a poker game: ``State.poker`` says what it waits for
    OVER = "over"


@dataclass(frozen=True)
class Move:
    """One thing that happened in a turn, for the posts: ``what`` names it
    (``tile``, ``removed``, ``draw``, ``permanent``, ``dynamite``, ``destin``,
    ``bounty``, ``trade``, ``bank``, ``blow``, ``income``, ``won``) and
    ``data`` holds its public details (names, cells, amounts)."""

    what: str
    data: tuple[tuple[str, Any], ...] = ()

    def get(self, key: str, default: Any = None) -> Any:
        return dict(self.data).get(key, default)


@dataclass(frozen=True)
class TurnRecord:
    """A turn: its number, whose, the tile drawn and where it went, what was done."""

    number: int
    player: str
    tile: Tile
    legal: tuple[str, ...]
    """Where the tile could go when it was drawn (empty: removed, R-6)."""
    cell: str | None = None
    income: int = 0
    """Collected at step 5 (0 when the game ended earlier in the turn)."""
    moves: tuple[Move, ...] = ()
    drew: str | None = None
    """Step 2: ``action`` or ``coups`` once drawn."""
    bank_done: bool = False
    poker_done: bool = False
    ended: bool = False


@dataclass(frozen=True)
class State:
    """A game of Rattlesnake City. Build it with ``rules.initial_state``."""

    players: tuple[str, ...]
    board_text: str
    phase: Phase = Phase.SETUP
    first: str | None = None
    """The player the fortune drew: places the first saloon."""
    order: tuple[str, ...] = ()
    """Play order: the player who placed the last saloon, then clockwise."""
    layout: Layout = field(default_factory=Layout)
    bag: tuple[Tile, ...] = ()
    """The tiles still in the bag, top first (the MJ's secret)."""
    removed: tuple[Tile, ...] = ()
    """Tiles out of the game: placed nowhere (R-6) or destroyed (R-13)."""
    cash: tuple[int, ...] = ()
    hands: tuple[tuple[Action, ...], ...] = ()
    shots: tuple[tuple[int, ...], ...] = ()
    permanents: tuple[tuple[Card, ...], ...] = ()
    """The permanent cards in front of each player, in the order laid."""
    income: tuple[int, ...] = ()
    """The income track."""
    actions: tuple[Action, ...] = ()
    """The action deck, top first."""
    action_discard: tuple[Action, ...] = ()
    shot_deck: tuple[int, ...] = ()
    shot_discard: tuple[int, ...] = ()
    shuffles: tuple[tuple[str, int], ...] = ()
    """How many times each deck (``actions``, ``shots``) was made again from its discard."""
    given_orders: tuple[tuple[str, tuple[str, ...]], ...] = ()
    """Deck orders the MJ gave for the reshuffles to come (a game played by
    hand), per deck, in order; each reshuffle uses the next one."""
    history: tuple[TurnRecord, ...] = ()
    combat: Combat | None = None
    bank_target: str | None = None
    poker: Poker | None = None
    """The poker game in play (``Phase.POKER``): seats, pot, cards, stage."""
    tar_declined: tuple[str, ...] = ()
    """Who has said they will not answer the Tricheur just played (the Goudron window)."""
    winners: tuple[str, ...] = ()
    won_by: str | None = None
    """``threshold`` or ``last-tile`` once the game is over."""

    # --- reading ---------------------------------------------------------------

    @property
    def board(self) -> Board:
        return board_of(self.board_text)

    def seat(self, player: str) -> int:
        return self.players.index(player)

    def cash_of(self, player: str) -> int:
        return self.cash[self.seat(player)]

    def hand_of(self, player: str) -> tuple[Action, ...]:
        return self.hands[self.seat(player)]

    def shots_of(self, player: str) -> tuple[int, ...]:
        return self.shots[self.seat(player)]

    def permanents_of(self, player: str) -> tuple[Card, ...]:
        return self.permanents[self.seat(player)]

    def income_of(self, player: str) -> int:
        return self.income[self.seat(player)]

    @property
    def current(self) -> TurnRecord | None:
        return self.history[-1] if self.history else None

    @property
    def active(self) -> str | None:
        """Whose turn it is (the saloon's placer during the saloons)."""
        if self.phase is Phase.SALOONS:
            return self.saloon_turn
        record = self.current
        return record.player if record is not None and not record.ended else None

    @property
    def saloon_turn(self) -> str | None:
        """The player who places a saloon now, in seating order from the first."""
        if self.phase is not Phase.SALOONS or self.first is None:
            return None
        placed = sum(1 for p in self.layout.tiles.values() if p.kind is Tile.SALOON)
        start = self.seat(self.first)
        return self.players[(start + placed) % len(self.players)]

    def town_of_player(self, player: str) -> str | None:
        """The id of the town whose saloon ``player`` placed."""
        for name, placed in self.layout.tiles.items():
            if placed.kind is Tile.SALOON and placed.placer == player:
                return self.board.town_of(name)
        return None

    def permanents_map(self) -> dict[str, tuple[Card, ...]]:
        return dict(zip(self.players, self.permanents, strict=True))

    def shuffled(self, deck: str) -> int:
        return dict(self.shuffles).get(deck, 0)

    # --- writing -----------------------------------------------------------------

    def but(self, **changes: Any) -> State:
        return replace(self, **changes)

    def with_seat(self, name: str, player: str, value: Any) -> State:
        """This state with ``player``'s entry of the per-player field ``name`` set to ``value``."""
        values = list(getattr(self, name))
        values[self.seat(player)] = value
        changes: dict[str, Any] = {name: tuple(values)}
        return replace(self, **changes)

    def with_record(self, **changes: Any) -> State:
        record = self.current
        assert record is not None
        return replace(self, history=(*self.history[:-1], replace(record, **changes)))

    def with_move(self, what: str, **data: Any) -> State:
        record = self.current
        assert record is not None
        return self.with_record(moves=(*record.moves, Move(what, tuple(data.items()))))
