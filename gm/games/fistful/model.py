"""The state of a game of Fistful of Gold: two duellists, their cards, the manches.

Everything here is a frozen value; ``State`` is the fold of the event log
(``rules.evolve``). The public records (``Outcome``, ``Power``,
``DuelRecord``, ``Pick``, ``MancheResult``) are shared with the events, so a
resolution event and the history it leaves in the state hold the same facts.
Secrets live in the state too (hands, removed piles, pending choices, the
discards of every manche): only ``views`` decides what a post may show.

Seats: ``players`` is in seating order; every mapping keyed by player
(``dict[str, …]``) is read in that order by the views, never in its own.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum

from gm.core.protocol import Seat

from .cards import Card, Color


class Length(StrEnum):
    """Short game: first to 2 manches won; long game: first to 3."""

    SHORT = "short"
    LONG = "long"


STARS_TO_WIN: dict[Length, int] = {Length.SHORT: 2, Length.LONG: 3}

TIE_GOLD = 2
"""Gold placed between the cards when a duel is a tie."""

DYNAMITE_GOLD = 3
"""What a duel with the Dynamite, and the red 8 against a 1, is worth."""

FIRST_HAND = 7
"""Cards in hand at the start of the first manche (9 minus the 2 setup discards)."""


class Phase(StrEnum):
    """What the game waits for."""

    SETUP = "setup"  # secret setup discards, until the MJ starts (``gm start``)
    DUEL = "duel"  # both cards of the current duel (and a green-8 pick, if due)
    END = "end"  # the manche is over: discards and final-duel choices, then ``gm resolve``
    OVER = "over"


class MancheEnd(StrEnum):
    """How a manche ended."""

    LAST_DUEL = "last-duel"  # its last duel was played
    RED_SEVEN = "red-seven"  # a red 7 in its 3rd duel or later


class GameEnd(StrEnum):
    """Why the game ended."""

    STARS = "stars"  # a player won enough manches
    EXHAUSTION = "exhaustion"  # the next manche would start with a single card


class Reason(StrEnum):
    """How a duel was decided (the resolution table of the rules)."""

    TIE = "tie"  # same card, two Dynamites included
    HIGHER = "higher"  # numbers 3 or less apart: the higher card wins the difference
    LOWER = "lower"  # numbers 4 or more apart: the lower card wins the difference
    DYNAMITE = "dynamite"  # the Dynamite against 1–4: the Dynamite wins 3
    DYNAMITE_FAILS = "dynamite-fails"  # the Dynamite against 5–8: the number wins 3
    RED_EIGHT = "red-eight"  # the red 8 against a 1: the red 8 wins 3


class PowerKind(StrEnum):
    """A card power that fired (or visibly did nothing) in a duel."""

    SIX_CLAIM = "six-claim"  # first 6 of the manche: the tie pot now and every later tie
    SIX_BLOCKED = "six-blocked"  # both 6s at once, nobody claims the ties this manche
    SIX_IDLE = "six-idle"  # a 6 once the ties are claimed or blocked: nothing
    GREEN_SEVEN = "green-seven"  # +1 gold per duel won, from the next duel on
    SEVEN_BONUS = "seven-bonus"  # that +1 on this duel's win
    GREEN_EIGHT = "green-eight"  # a card back from the removed pile; 2 discards at the end
    RED_SEVEN_END = "red-seven-end"  # 3rd duel or later: the manche ends after this duel
    RED_SEVEN_EARLY = "red-seven-early"  # before the 3rd duel: nothing
    RED_EIGHT = "red-eight"  # beat a 1: wins the duel and 3 gold
    INERT = "inert"  # in a final duel, a green 7, green 8 or red 7 does nothing more


@dataclass(frozen=True)
class Power:
    """One power of a revealed card: whose, which card, and the gold it moved."""

    kind: PowerKind
    player: Seat
    card: Card
    gold: int = 0


@dataclass(frozen=True)
class Outcome:
    """The public result of one duel (or final duel): both cards and what they did.

    ``gold`` (``base`` + ``bonus``) is what the winner took from the duel
    itself; a 6's claim of the tie pot is apart (``claimed`` by
    ``claimed_by``), as is a tie's gold, which goes to the pot or, once a 6
    claimed the ties, straight to ``tie_to``.
    """

    cards: dict[Seat, Card]
    winner: Seat | None
    reason: Reason
    base: int
    bonus: int
    tie_gold: int
    tie_to: Seat | None
    claimed_by: Seat | None
    claimed: int
    powers: tuple[Power, ...]
    final: bool

    @property
    def gold(self) -> int:
        return self.base + self.bonus


@dataclass(frozen=True)
class DuelRecord:
    """A revealed duel and the public standing right after it."""

    turn: int
    number: int  # the duel's number in its manche, from 1
    outcome: Outcome
    gold: dict[str, int]  # each player's gold in the manche after this duel
    tie_pot: int  # unclaimed tie gold after this duel
    tie_owner: str | None
    tie_blocked: bool
    hands: dict[str, int]  # cards in each hand after this duel (a public count)
    owed: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """What each player owed right after this duel (``rules.owes``): public,
    since it follows from the revealed cards and the gold."""


@dataclass(frozen=True)
class Pick:
    """A green-8 pick: the card taken back from the removed pile, shown to all."""

    turn: int
    player: str
    card: Card


@dataclass(frozen=True)
class EndChoice:
    """A player's secret choice at the end of a manche: the cards discarded and,
    when they discard two and a final duel is due, the one revealed in it (R-5)."""

    discards: tuple[Card, ...]
    final: Card | None = None


@dataclass(frozen=True)
class MancheResult:
    """The public end of a manche: the final duel if any, the winner, the stars."""

    manche: int
    ended_by: MancheEnd
    duels: int  # regular duels played
    gold_before: dict[Seat, int]  # gold after the last regular duel
    final: Outcome | None
    gold: dict[Seat, int]  # gold at the end, final duel included
    tie_pot: int  # tie gold nobody took
    winner: Seat | None
    stars: dict[Seat, int]  # stars after this manche
    discarded: dict[Seat, int]  # how many cards each player discarded (never which)
    next_hand: int  # cards in hand at the start of the next manche
    game_end: GameEnd | None
    winners: tuple[Seat, ...]


@dataclass(frozen=True)
class MancheRecord:
    """One manche as it went. ``choices`` and ``discards`` are secret until the
    game is over; everything else is public."""

    number: int
    hand_size: int  # cards in each hand at the start
    planned: int  # duels it has if no red 7 ends it early
    start_turn: int
    duels: tuple[DuelRecord, ...] = ()
    picks: tuple[Pick, ...] = ()
    ended_by: MancheEnd | None = None
    end_turn: int | None = None
    result: MancheResult | None = None
    choices: tuple[tuple[str, EndChoice], ...] = ()
    discards: tuple[tuple[str, tuple[Card, ...]], ...] = ()


@dataclass(frozen=True)
class Player:
    """A duellist and their nine cards: ``hand`` + ``played`` + ``removed``.

    ``played`` are this manche's regular duels' cards, in play order; they
    come back to the hand when the manche ends. ``bonus``: the green 7 was
    revealed this manche; ``eight``: the green 8's power fired this manche
    (two discards at the end); ``pick_due``: its pick is still awaited.
    """

    name: str
    color: Color
    hand: tuple[Card, ...] = ()
    played: tuple[Card, ...] = ()
    removed: tuple[Card, ...] = ()
    gold: int = 0
    stars: int = 0
    bonus: bool = False
    eight: bool = False
    pick_due: bool = False

    @property
    def last(self) -> Card | None:
        """The card of the previous duel of this manche, if any."""
        return self.played[-1] if self.played else None

    @property
    def discard_count(self) -> int:
        """Cards to discard at the end of this manche: 1, or 2 after a green 8."""
        return 2 if self.eight else 1


@dataclass(frozen=True)
class State:
    """A game of Fistful of Gold at one point of its log.

    ``turn`` numbers every moment where secrets are collected (setup = 1,
    then each duel and each end of manche). It is internal: public events
    carry it as ``round`` (a green-8 pick is shown in the post of its turn),
    but secrets and posts are addressed as players say, by manche and duel
    (gm 0.1 sealed secrets with it: see ``events``). ``manche`` is
    0 during the setup; ``duel`` is the number of the current (or, once the
    manche is over, the last) duel of the manche. ``setup``, ``cards`` and
    ``choices`` are the pending secrets of the current turn.
    """

    players: tuple[Player, ...]
    length: Length
    phase: Phase = Phase.SETUP
    turn: int = 1
    manche: int = 0
    duel: int = 0
    setup: tuple[tuple[str, tuple[Card, ...]], ...] = ()
    cards: tuple[tuple[str, Card], ...] = ()
    choices: tuple[tuple[str, EndChoice], ...] = ()
    tie_pot: int = 0
    tie_owner: str | None = None
    tie_blocked: bool = False
    history: tuple[MancheRecord, ...] = ()
    setup_discards: tuple[tuple[str, tuple[Card, ...]], ...] = field(default=())
    game_end: GameEnd | None = None
    winners: tuple[str, ...] = ()

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.players)

    def player(self, name: str) -> Player:
        """The player called exactly ``name`` (canonical spelling)."""
        for p in self.players:
            if p.name == name:
                return p
        raise KeyError(name)

    def opponent(self, name: str) -> Player:
        return next(p for p in self.players if p.name != name)

    def of_color(self, color: Color) -> Player:
        return next(p for p in self.players if p.color is color)

    @property
    def target(self) -> int:
        """Stars that win the game."""
        return STARS_TO_WIN[self.length]

    @property
    def current(self) -> MancheRecord:
        """The record of the manche being played (or the last one)."""
        return self.history[-1]

    def card_of(self, name: str) -> Card | None:
        """The card ``name`` sent for the current duel, if any."""
        return dict(self.cards).get(name)

    def setup_of(self, name: str) -> tuple[Card, ...] | None:
        return dict(self.setup).get(name)

    def choice_of(self, name: str) -> EndChoice | None:
        return dict(self.choices).get(name)

    def with_player(self, player: Player) -> State:
        """A copy with ``player`` replacing the player of the same name."""
        return replace(
            self, players=tuple(player if p.name == player.name else p for p in self.players)
        )

    def with_record(self, record: MancheRecord) -> State:
        """A copy whose current manche record is ``record``."""
        return replace(self, history=(*self.history[:-1], record))
