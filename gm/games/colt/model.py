"""The state of a game of Colt Express: the train, the bandits, the round in play.

Everything here is a frozen value; ``State`` is the fold of the event log
(``rules.evolve``). Secrets live in the state too (hands, decks, face-down
cards, purse values, instructions): only ``views`` decides what a post or a
private reply may show.

Places: a *spot* is a car and a level. Cars count from the locomotive: ``0``
is the locomotive, ``1`` the car behind it, ``len(cars)`` the caboose; a
level is the roof (``roof=True``) or the inside. The Marshal is always
inside. Purses are kept as their values (two purses of the same value are
alike): the spot's or the bandit's ``purses``, sorted.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from gm.core.protocol import Seat

from .cards import JEWEL_VALUE, NEUTRAL_BULLETS, STRONGBOX_VALUE, Card, Turn


class Phase(StrEnum):
    """What the game waits for."""

    SETUP = "setup"  # the MJ places the train (gm setup)
    READY = "ready"  # between rounds: the MJ opens the next one (gm round)
    PLAN = "plan"  # the Plan: the player whose turn it is plays or draws
    ACTION = "action"  # the Action: the owner of the card resolving chooses
    EVENT = "event"  # Pickpocket: the bandits alone by a purse say if they take it
    OVER = "over"


@dataclass(frozen=True)
class Loot:
    """What lies on a spot: purses (their values, sorted), jewels, strongboxes."""

    purses: tuple[int, ...] = ()
    jewels: int = 0
    strongboxes: int = 0

    @property
    def empty(self) -> bool:
        return not (self.purses or self.jewels or self.strongboxes)

    @property
    def value(self) -> int:
        return sum(self.purses) + JEWEL_VALUE * self.jewels + STRONGBOX_VALUE * self.strongboxes


@dataclass(frozen=True)
class Bandit:
    """A player's bandit: where they are, what they carry, their cards."""

    name: str
    character: str
    car: int
    roof: bool
    purses: tuple[int, ...] = ()
    jewels: int = 0
    strongboxes: int = 0
    ransom: int = 0
    barillet: int = 6
    """Bullet cards left to fire."""
    received: int = 0
    """Bullet cards received (from players, the Marshal and events)."""
    hand: tuple[Card, ...] = ()
    deck: tuple[Card, ...] = ()
    """The cards left to draw this round, top first."""

    @property
    def spot(self) -> tuple[int, bool]:
        return (self.car, self.roof)

    @property
    def loot(self) -> int:
        """Dollars carried, the As de la gâchette not included."""
        return (
            sum(self.purses)
            + JEWEL_VALUE * self.jewels
            + STRONGBOX_VALUE * self.strongboxes
            + self.ransom
        )

    def loot_kinds(self) -> tuple[str, ...]:
        kinds = []
        if self.purses:
            kinds.append("purse")
        if self.jewels:
            kinds.append("jewel")
        if self.strongboxes:
            kinds.append("strongbox")
        return tuple(kinds)


@dataclass(frozen=True)
class PlanTurn:
    """One turn of the Plan: its number in the round, whose, of what kind.

    ``symbol`` is the turn symbol of the round card it belongs to (1-based):
    a speed-up symbol gives each player two turns in a row."""

    number: int
    player: str
    kind: Turn
    symbol: int


@dataclass(frozen=True)
class PlanMove:
    """What a player did on a Plan turn: played a card (face up or down) or drew."""

    turn: int
    player: str
    drew: int | None = None
    """Cards drawn (None: a card was played)."""
    face_down: bool = False
    default: bool = False
    card: Card | None = None
    """The card played face up (None: drawn, or face down)."""


@dataclass(frozen=True)
class Played:
    """A card on the pile: whose, which, and whether it lies face down.

    ``card`` is None only in the instant between the public event of a
    face-down play and its sealed event (same command)."""

    player: str
    card: Card | None
    face_down: bool
    turn: int


@dataclass(frozen=True)
class Outcome:
    """One legal way a card resolves: the elements its owner chooses.

    ``direction`` is ``"front"`` (toward the locomotive) or ``"back"`` (toward
    the caboose); ``level`` where a Changement d'étage takes the bandit
    (``"roof"`` or ``"inside"``); ``target`` a player's name; ``loot`` a kind
    (``purse``, ``jewel``, ``strongbox``). A card that does nothing (R-8)
    has the empty outcome."""

    direction: str | None = None
    distance: int | None = None
    level: str | None = None
    target: Seat | None = None
    loot: str | None = None

    @property
    def void(self) -> bool:
        return self == VOID


VOID = Outcome()


@dataclass(frozen=True)
class Choice:
    """What a player wrote for a card: any of the elements, or « rien »."""

    direction: str | None = None
    distance: int | None = None
    level: str | None = None
    target: Seat | None = None
    loot: str | None = None
    value: int | None = None
    """A purse's value, in a game played by hand (R-7: a scenario names the
    purse the fortune would have drawn)."""
    nothing: bool = False

    @property
    def empty(self) -> bool:
        return self == Choice()


class Fx(StrEnum):
    """A public effect of a card or an event, applied in order."""

    MOVE = "move"  # bandit → (car, roof)
    MARSHAL = "marshal"  # the Marshal → car
    BULLET = "bullet"  # source (a player, or None: neutral) → bandit; given or not
    TAKE = "take"  # bandit takes loot of that kind from their spot
    DROP = "drop"  # bandit drops loot of that kind on their spot
    KEEP = "keep"  # bandit (Cheyenne) keeps the purse ``source`` dropped
    LOSE = "lose"  # bandit loses their least valuable purse (out of the game)
    STRONGBOX = "strongbox"  # the strongbox beside the train goes inside ``car``
    RANSOM = "ransom"  # bandit receives ``amount`` dollars


@dataclass(frozen=True)
class Effect:
    """One effect. ``why`` tells posts what caused it: ``marshal`` (the bandit met
    the Marshal and flees to the roof), ``django`` (pushed by Django's shot),
    ``push`` (a Coup de poing), ``event`` (the round's event)."""

    kind: Fx
    bandit: Seat | None = None
    car: int | None = None
    roof: bool = False
    source: Seat | None = None
    loot: str | None = None
    given: bool = True
    amount: int = 0
    why: str | None = None


@dataclass(frozen=True)
class Snapshot:
    """The train as a post draws it: where everyone is and what lies where.

    ``spots``: ``(car, roof, purses, jewels, strongboxes)`` per spot with loot
    (counts only); ``bandits``: ``(name, car, roof, purses, jewels,
    strongboxes)``."""

    marshal: int
    bandits: tuple[tuple[str, int, bool, int, int, int], ...]
    spots: tuple[tuple[int, bool, int, int, int], ...]
    spare_strongbox: bool


@dataclass(frozen=True)
class StepRecord:
    """A card of the pile once resolved: public, as the posts tell it."""

    step: int
    first: int
    """The first step resolved by the same command (the post's address)."""
    player: str
    card: Card
    face_down: bool
    how: str
    """``auto`` (one legal outcome), ``choice``, ``instruction`` or ``default`` (R-6)."""
    outcome: Outcome
    void: str | None
    effects: tuple[Effect, ...]
    snapshot: Snapshot


@dataclass(frozen=True)
class EventRecord:
    """The round's event once applied."""

    card: str
    effects: tuple[Effect, ...]
    pickpocket: tuple[tuple[str, bool, bool], ...]
    """Pickpocket: (bandit, took a purse, by default)."""
    snapshot: Snapshot


@dataclass(frozen=True)
class RoundRecord:
    """One round as it went (public facts only, plus what the summary needs)."""

    number: int
    card: str
    first: str
    turns: tuple[PlanTurn, ...]
    moves: tuple[PlanMove, ...] = ()
    steps: tuple[StepRecord, ...] = ()
    event: EventRecord | None = None
    positions: tuple[tuple[str, int, bool], ...] = ()
    loot: tuple[tuple[str, int], ...] = ()
    bullets: tuple[tuple[str, int], ...] = ()
    marshal: int = 0


@dataclass(frozen=True)
class Instruction:
    """A player's instructions for one of their cards, sent in advance (R-6):
    alternatives tried in order when the card resolves."""

    player: str
    slot: int
    """The card's place in the pile (0-based)."""
    alternatives: tuple[Choice, ...]


@dataclass(frozen=True)
class State:
    """A game of Colt Express at one point of its log."""

    players: tuple[str, ...]
    phase: Phase = Phase.SETUP
    scripted: bool = False
    """Set up by hand (a scenario): no fortune; every card awaits its entry."""
    cars: tuple[int, ...] = ()
    """The printed cars in the train, from the one behind the locomotive to the caboose."""
    bandits: tuple[Bandit, ...] = ()
    marshal: int = 0
    inside: tuple[Loot, ...] = ()
    roofs: tuple[Loot, ...] = ()
    spare_strongbox: bool = True
    neutral: int = NEUTRAL_BULLETS
    removed: tuple[int, ...] = ()
    """Values of the purses events took out of the game."""
    round: int = 0
    history: tuple[RoundRecord, ...] = ()
    plan_turn: int = 0
    """The index of the next Plan turn in the current round's turns."""
    pile: tuple[Played, ...] = ()
    step: int = 0
    """The index of the next card of the pile to resolve."""
    instructions: tuple[Instruction, ...] = ()
    pickpocket: tuple[tuple[str, bool, bool], ...] = ()
    """Pickpocket answers so far: (bandit, takes a purse, by default)."""
    purse_draws: tuple[tuple[int, int, str, tuple[int, ...], int], ...] = ()
    """The fortune's purse draws (R-7): round, step (0: the round's event),
    bandit, the purses on offer in the order drawn among, the value drawn.
    Secret until the final post."""

    # --- lookups ------------------------------------------------------------

    @property
    def n(self) -> int:
        """The caboose's number: one car per player."""
        return len(self.cars)

    def bandit(self, name: str) -> Bandit:
        for b in self.bandits:
            if b.name == name:
                return b
        raise KeyError(name)

    def character(self, name: str) -> str:
        return self.bandit(name).character

    def played_by(self, character: str) -> str | None:
        return next((b.name for b in self.bandits if b.character == character), None)

    @property
    def current(self) -> RoundRecord:
        return self.history[-1]

    @property
    def first(self) -> str:
        """The first player of the current round (the player after the last one's)."""
        return self.players[(max(self.round, 1) - 1) % len(self.players)]

    def from_first(self) -> tuple[str, ...]:
        """The players in seating order from the round's first player (R-9)."""
        i = self.players.index(self.first)
        return self.players[i:] + self.players[:i]

    def loot_at(self, car: int, roof: bool) -> Loot:
        return (self.roofs if roof else self.inside)[car]

    def at(self, car: int, roof: bool) -> tuple[str, ...]:
        """The bandits on a spot, in seating order."""
        return tuple(b.name for b in self.bandits if b.car == car and b.roof == roof)

    @property
    def turn(self) -> PlanTurn | None:
        """The Plan turn being played, if the Plan is on."""
        if self.phase is not Phase.PLAN:
            return None
        return self.current.turns[self.plan_turn]

    @property
    def resolving(self) -> Played | None:
        """The card of the pile being resolved, if the Action is on."""
        if self.phase is not Phase.ACTION or self.step >= len(self.pile):
            return None
        return self.pile[self.step]

    def instruction(self, slot: int) -> Instruction | None:
        return next((i for i in self.instructions if i.slot == slot), None)

    # --- copies -------------------------------------------------------------

    def but(self, **changes: Any) -> State:
        """A copy with ``changes``: ``dataclasses.replace`` without re-running
        ``__init__`` over every field. The fold calls this for each event of
        the log, on every command, so its cost is the game's share of each
        command's time; the fields are immutable values, so sharing them is safe."""
        unknown = set(changes) - set(self.__dataclass_fields__)
        if unknown:
            raise TypeError(f"State has no field {sorted(unknown)[0]!r}")
        copy = object.__new__(State)
        copy.__dict__.update(self.__dict__)
        copy.__dict__.update(changes)
        return copy

    def with_bandit(self, bandit: Bandit) -> State:
        return self.but(bandits=tuple(bandit if b.name == bandit.name else b for b in self.bandits))

    def with_loot(self, car: int, roof: bool, loot: Loot) -> State:
        if roof:
            return self.but(roofs=(*self.roofs[:car], loot, *self.roofs[car + 1 :]))
        return self.but(inside=(*self.inside[:car], loot, *self.inside[car + 1 :]))

    def with_record(self, record: RoundRecord) -> State:
        return self.but(history=(*self.history[:-1], record))

    def snapshot(self) -> Snapshot:
        spots = []
        for car in range(self.n + 1):
            for roof in (True, False):
                loot = self.loot_at(car, roof)
                if not loot.empty:
                    spots.append((car, roof, len(loot.purses), loot.jewels, loot.strongboxes))
        return Snapshot(
            marshal=self.marshal,
            bandits=tuple(
                (b.name, b.car, b.roof, len(b.purses), b.jewels, b.strongboxes)
                for b in self.bandits
            ),
            spots=tuple(spots),
            spare_strongbox=self.spare_strongbox,
        )
