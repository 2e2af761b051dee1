"""The state of a game of Le Magot: gangsters, orders, the loot and the history.

Everything here is a frozen value. ``State`` is the fold of the event log
(``rules.evolve``); nothing in this module changes it. The small public
records (``Aim``, ``Shot``, ``Wound``, ``Portion``, ``Resolution``) are shared
with the events, so a resolution event and the history it leaves in the state
hold the very same facts.

Money is counted in whole dollars; a bill is its value (``5000``). Tuples of
bills are kept sorted from the largest bill down, so that two equal piles of
bills compare equal.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from gm.core.protocol import Seat

BILLS_PER_ROUND = 5
"""How many bills each round draws from the loot deck (fewer when it runs out)."""

SHAME_PENALTY = 5000
"""Dollars taken off the final score for each point of shame."""

MAX_WOUNDS = 3
"""The wound that kills; wounds never go beyond it."""


class Option(StrEnum):
    """What a gun holds this round. The values are the stable names in events."""

    TRIPLE = "triple"  # BANG BANG BANG: fires first
    BANG = "bang"  # fires second
    CLICK = "click"  # CLIC CLIC CLIC: a bluff, no bullet


OPTIONS: tuple[Option, ...] = (Option.TRIPLE, Option.BANG, Option.CLICK)
"""The options in their canonical order (the order of ``Gangster.left``)."""

INITIAL_STOCK: dict[Option, int] = {Option.TRIPLE: 1, Option.BANG: 2, Option.CLICK: 5}
"""Each player's options for the whole game."""


class Phase(StrEnum):
    """What the game waits for."""

    DRAW = "draw"  # the MJ opens the next round (``gm draw``); round 0 = not started
    ORDERS = "orders"  # secret orders come in until the reveal
    STANDOFF = "standoff"  # aims are public; players stay or fold until the resolution
    OVER = "over"


class EndReason(StrEnum):
    """Why the game ended (R-7)."""

    LAST_SURVIVOR = "last-survivor"  # exactly one player alive
    NO_SURVIVOR = "no-survivor"  # everybody died
    LAST_ROUND = "last-round"  # the configured number of rounds was played
    LOOT_GONE = "loot-gone"  # the loot deck and the pot are both empty


def sort_bills(bills: tuple[int, ...] | list[int]) -> tuple[int, ...]:
    """Bills in canonical order: largest first."""
    return tuple(sorted(bills, reverse=True))


def remove_bills(pile: tuple[int, ...], taken: tuple[int, ...]) -> tuple[int, ...]:
    """``pile`` without ``taken`` (a sub-multiset of it), sorted."""
    rest = list(pile)
    for bill in taken:
        rest.remove(bill)
    return sort_bills(rest)


@dataclass(frozen=True)
class Order:
    """A secret order: the player aimed at and the option loaded."""

    target: str
    option: Option


@dataclass(frozen=True)
class Aim:
    """A public fact: who aims at whom (never with what)."""

    shooter: Seat
    target: Seat


@dataclass(frozen=True)
class Shot:
    """A live order that was carried out, its option revealed.

    ``option`` is ``click`` for a bluff that was called: it never wounds.
    """

    shooter: Seat
    target: Seat
    option: Option


@dataclass(frozen=True)
class Wound:
    """The wounds a player took in one round."""

    player: Seat
    taken: int  # wounds inflicted this round (before the cap)
    total: int  # wounds after the round, at most MAX_WOUNDS
    dead: bool


@dataclass(frozen=True)
class Portion:
    """The bills one sharer took from the pot."""

    player: Seat
    bills: tuple[int, ...]


@dataclass(frozen=True)
class Resolution:
    """Everything public about a round's shots and share (no secret option).

    ``lowered`` (the shooter folded), ``held`` (the target folded) and
    ``disabled`` (the shooter was hit by a BANG BANG BANG) name orders whose
    options stay secret (R-5). ``shots`` are the live orders in firing order:
    BANG BANG BANG, then BANG, then the bluffs.
    """

    folded: tuple[Seat, ...]
    lowered: tuple[Aim, ...]
    held: tuple[Aim, ...]
    disabled: tuple[Aim, ...]
    shots: tuple[Shot, ...]
    wounds: tuple[Wound, ...]
    portions: tuple[Portion, ...]
    share: int  # dollars each sharer received
    carry: tuple[int, ...]  # bills left in the pot


@dataclass(frozen=True)
class Gangster:
    """A player. ``left`` counts the options left, in ``OPTIONS`` order."""

    name: str
    wounds: int = 0
    shame: int = 0
    bills: tuple[int, ...] = ()
    left: tuple[int, int, int] = (
        INITIAL_STOCK[Option.TRIPLE],
        INITIAL_STOCK[Option.BANG],
        INITIAL_STOCK[Option.CLICK],
    )
    alive: bool = True
    death_round: int | None = None

    def remaining(self, option: Option) -> int:
        """How many of ``option`` this player still holds."""
        return self.left[OPTIONS.index(option)]

    def options_left(self) -> dict[str, int]:
        """Options left by name, in canonical order: ``{"triple": 1, ...}``."""
        return {str(o): n for o, n in zip(OPTIONS, self.left, strict=True)}

    def spend(self, option: Option) -> Gangster:
        counts = list(self.left)
        index = OPTIONS.index(option)
        counts[index] = max(0, counts[index] - 1)
        return replace(self, left=(counts[0], counts[1], counts[2]))

    @property
    def loot(self) -> int:
        """Dollars held."""
        return sum(self.bills)

    @property
    def score(self) -> int:
        """Final score: bills minus the shame penalty (may be negative)."""
        return self.loot - SHAME_PENALTY * self.shame


@dataclass(frozen=True)
class Standing:
    """A public snapshot of one player after a round (for the results post)."""

    player: str
    bills: tuple[int, ...]
    wounds: int
    shame: int
    alive: bool


@dataclass(frozen=True)
class RoundRecord:
    """What happened in one round, kept for the posts and the disclosure.

    ``orders`` are the orders locked at the reveal: secret until the game
    ends, whatever became of them.
    """

    number: int
    alive: tuple[str, ...]  # living players when the round opened
    carried: tuple[int, ...]  # bills left from the previous round
    drawn: tuple[int, ...]  # as drawn (manual bills as entered)
    manual: bool
    revealed: bool = False
    aims: tuple[Aim, ...] = ()
    missing: tuple[str, ...] = ()
    forced: bool = False
    orders: tuple[tuple[str, Order], ...] = ()
    resolution: Resolution | None = None
    standings: tuple[Standing, ...] = ()

    @property
    def pot(self) -> tuple[int, ...]:
        """The bills on the table this round."""
        return sort_bills(self.carried + self.drawn)


@dataclass(frozen=True)
class State:
    """A game of Le Magot at one point of its log.

    ``players`` are in seating order. ``loot`` is the configured composition
    as ``(value, count)`` pairs, largest value first. ``round`` is the number of
    the round opened last (0 before the first draw). ``orders``, ``folds`` and
    ``stays`` belong to the current round and are in seating order.
    """

    players: tuple[Gangster, ...]
    rounds: int
    loot: tuple[tuple[int, int], ...]
    deck: tuple[int, ...]
    pot: tuple[int, ...] = ()
    round: int = 0
    phase: Phase = Phase.DRAW
    orders: tuple[tuple[str, Order], ...] = ()
    folds: tuple[str, ...] = ()
    stays: tuple[str, ...] = ()
    history: tuple[RoundRecord, ...] = ()
    end_reason: EndReason | None = None

    def player(self, name: str) -> Gangster:
        """The player called exactly ``name`` (canonical spelling)."""
        for gangster in self.players:
            if gangster.name == name:
                return gangster
        raise KeyError(name)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(g.name for g in self.players)

    @property
    def living(self) -> tuple[str, ...]:
        """Living players, in seating order."""
        return tuple(g.name for g in self.players if g.alive)

    def order_of(self, name: str) -> Order | None:
        """The current round's order of ``name``, if any."""
        for shooter, order in self.orders:
            if shooter == name:
                return order
        return None

    def record(self, number: int) -> RoundRecord:
        """The history of round ``number`` (1-based)."""
        if not 1 <= number <= len(self.history):
            raise KeyError(number)
        return self.history[number - 1]

    @property
    def initial_loot(self) -> int:
        """Dollars in the whole game: what money conservation is checked against."""
        return sum(value * count for value, count in self.loot)

    def with_player(self, gangster: Gangster) -> State:
        """A copy with ``gangster`` replacing the player of the same name."""
        players = tuple(gangster if g.name == gangster.name else g for g in self.players)
        return replace(self, players=players)
