"""The contract between the platform and a game.

A game is a pure rules package (``gm/games/<id>/``) that exposes one typed
definition, ``GAME``, a ``GameDef``: its static description (``GameInfo``),
its event and command types, and the pure functions the platform calls;
``GameDef.from_modules`` builds it from the standard names of the game's
standard modules (``CONVENTION``), so a game writes only what differs. The
platform never looks inside a game's state: it folds events with ``evolve``,
asks ``decide`` for new events, asks for views to render, and builds the
game's command-line steps from ``StepSpec`` data.

Vocabulary (boardgame.io, python-chess, eventsourcing):

* a *seat* is a player's stable identity in a campaign (``Seat``): the name
  they had when the campaign was created, which never changes. Games,
  events, commands, secrets and ``Awaited`` key on seats only; a player's
  current *name* is a label the platform's roster holds, which reaches the
  game only as a ``Table`` (for reading names in messages and for views);
* a *command* is what someone asks for, in the imperative (``SetOrder``,
  ``Resolve``); the actor is a seat or ``GM``;
* an *event* is what happened, in the past tense (``OrderSet``,
  ``PotShared``); events are frozen dataclasses with a stable ``kind``, a
  ``version`` and an audience (who may read the payload);
* ``decide(state, actor, command, draws)`` checks a command and returns the
  events, or raises a ``gm.errors`` error; ``evolve(state, event)`` applies an
  event and never refuses a stored one. State is the fold of the log.
* chance comes only through ``Draws``: a game asks for the stream of what a
  draw is *for* (``draws.stream("round-3/bills")``), never for "the next
  draw", so nothing recorded in between can move a draw onto another stream;
  the results are written into the events, so replaying a log never draws.
* a *secret* is a sealed event (a private order, a face-down card), keyed by
  what the game says identifies it (``Event.secret_key``): a round and a
  player, or a manche, a duel and a player, or a slot. The platform publishes
  its seal when a post says so (``Shown``) and its salt when a post shows its
  content, in one place (``gm.service.secrets``).

A game's static description (``GameInfo`` and its ``StepSpec``,
``ParamSpec``, ``OptionSpec``, ``PostKind``, ``Coordinate``) is defined in
``gm.games.manifest``, which the command line reads without the core, and
re-exported here with the rest of the contract.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import MISSING, dataclass, field, fields
from types import ModuleType
from typing import (
    TYPE_CHECKING,
    Any,
    ClassVar,
    Generic,
    Literal,
    NewType,
    Protocol,
    TypeAlias,
    TypeVar,
)

from gm.core.names import find_name
from gm.games.manifest import Coordinate as Coordinate
from gm.games.manifest import GameInfo as GameInfo
from gm.games.manifest import OptionSpec as OptionSpec
from gm.games.manifest import ParamSpec as ParamSpec
from gm.games.manifest import PostKind as PostKind
from gm.games.manifest import StepSpec as StepSpec
from gm.games.manifest import post_name as post_name

T = TypeVar("T")
S = TypeVar("S")

GM = "gm"
"""The actor name of the game master. No player may be called this."""

PUBLIC = "*"
"""The audience of an event anyone may read. Otherwise: ``GM`` or a seat.
No player may be called this (``gm.core.names.RESERVED``)."""

if TYPE_CHECKING:
    # To the type checker a seat is the str it is: the rules pass seats
    # around as strings, and a static distinction would have every rule
    # convert them. The codec needs the distinct runtime type below.
    Seat: TypeAlias = str
else:
    Seat = NewType("Seat", str)
"""A player's stable identity in a campaign: the name they had when the
campaign was created. It never changes, whatever the roster calls them now.
The codec sees ``Seat`` in type hints: a field annotated so (alone, in a
tuple, as a dict key) holds a player, which is how an old log's names of
the moment are read back as seats."""


@dataclass(frozen=True)
class Table:
    """The players as a game sees them where names matter: ``seats`` in
    seating order, the current name of each (``names``) and their genders.

    The platform builds it from the roster and passes it to every function
    that reads names in text or writes names for people (``parse``, views,
    ``legal_inputs``…); the rules themselves never see names. A game's
    function may default it to ``Table.of(seats)``, where each seat is
    called by itself (the table of a campaign nobody was renamed in).
    """

    seats: tuple[Seat, ...]
    names: Mapping[Seat, str] = field(default_factory=dict)
    genders: Mapping[Seat, str] = field(default_factory=dict)

    @classmethod
    def of(cls, seats: Iterable[str]) -> Table:
        """The identity table: each seat called by itself."""
        seated = tuple(Seat(s) for s in seats)
        return cls(seated, {s: s for s in seated})

    def name(self, seat: str) -> str:
        """The current name of ``seat`` (anything else, ``GM`` say, as it is)."""
        return self.names.get(Seat(seat), seat)

    def named(self, seats: Iterable[str]) -> list[str]:
        """The current names of ``seats``, in their order."""
        return [self.name(s) for s in seats]

    def seat_named(self, name: str) -> Seat | None:
        """The seat whose current name is ``name`` (case and accents ignored), or None."""
        found = find_name([self.name(s) for s in self.seats], name)
        if found is None:
            return None
        return next(s for s in self.seats if self.name(s) == found)

    def seat_of(self, name: str) -> str:
        """The seat ``name`` designates, or ``name`` as given when no player is
        called so now (the rules then refuse it, naming the players)."""
        seat = self.seat_named(name)
        return name if seat is None else seat

    @property
    def labels(self) -> tuple[tuple[str, Seat], ...]:
        """``(current name, seat)`` of every seat: what ``gm.core.names.mentions`` looks for."""
        return tuple((self.name(s), s) for s in self.seats)

    @property
    def renamed(self) -> bool:
        """Whether some seat is called otherwise than its id now."""
        return any(self.name(s) != s for s in self.seats)

    def relabel(self, text: str) -> str:
        """``text`` (a refusal's message, written by the rules with seats) with
        each seat whose name differs, as a whole word, replaced by its name."""
        moved = {s: self.name(s) for s in self.seats if self.name(s) != s}
        if not moved:
            return text
        longest_first = sorted(moved, key=len, reverse=True)
        pattern = re.compile(r"(?<!\w)(" + "|".join(map(re.escape, longest_first)) + r")(?!\w)")
        return pattern.sub(lambda m: moved[Seat(m.group(1))], text)


def table_for(table: Table | None, seats: Iterable[str]) -> Table:
    """``table``, or the identity table of ``seats`` when a caller gave none
    (the rules' own tests call views with the state alone)."""
    return table if table is not None else Table.of(seats)


SecretKey = tuple[str | int, ...]
"""What identifies a secret: its family, then the values of its key fields
(``("order", 3, "fab")``, ``("card", 2, 3, "ana")``)."""

Upcaster = Callable[[dict[str, Any]], dict[str, Any]]
"""Turns the stored payload of one event version into the next version's."""


@dataclass(frozen=True)
class Event:
    """Something that happened. Subclasses set ``kind`` (e.g. ``"magot.order-set"``).

    **Versions.** ``version`` is the payload's schema version (1 unless a
    class says otherwise). An event stored at an older version is brought up
    to date when it is read, by ``upcasters[v - 1]`` for each version ``v``
    from the stored one up (``upcasters[0]`` turns a version-1 payload into a
    version-2 one); a field added with a default needs no upcaster. Stored
    payloads are never rewritten: their bytes are in the hash chain.

    **Secrets.** A *sealed* event is a secret whose content becomes public
    later (an order, a face-down card); an event that *unseals* withdraws the
    secret with the same key. Both name the secret's family in ``secret`` and
    the fields of their key in ``secret_fields``; the secret in force for a
    key is the latest sealed event with that key not followed by an unsealing
    one. ``owner_field`` names the player it belongs to.
    """

    kind: ClassVar[str] = ""
    version: ClassVar[int] = 1
    upcasters: ClassVar[tuple[Upcaster, ...]] = ()
    sealed: ClassVar[bool] = False
    unseals: ClassVar[bool] = False
    secret: ClassVar[str | None] = None
    secret_fields: ClassVar[tuple[str, ...]] = ("player",)
    owner_field: ClassVar[str] = "player"

    def audience(self) -> str:
        """Who may read this event's payload: ``PUBLIC``, ``GM`` or one player.

        A sealed event, and one that unseals it, is its owner's alone (the
        seal is what the others get); any other event is public unless its
        class says otherwise.
        """
        if self.sealed or self.unseals:
            return self.owner()
        return PUBLIC

    def owner(self) -> str:
        """The player a secret belongs to (its ``owner_field``)."""
        return str(getattr(self, self.owner_field))

    def secret_key(self) -> SecretKey:
        """The key of the secret this event seals or unseals."""
        if self.secret is None:
            raise TypeError(f"{self.kind} is not a secret")
        return (self.secret, *(getattr(self, name) for name in self.secret_fields))

    def drew_chance(self) -> bool:
        """Whether this event holds results drawn from the fortune *in a log
        written before draws were named by their purpose* (protocol 1). Such
        a draw read the stream ``draw/<n>``; ``gm undo`` still refuses it.
        Newer draws are recorded by ``gm.chance-drawn`` events instead."""
        return False


@dataclass(frozen=True)
class Command:
    """Something someone asks for. Subclasses set ``kind`` (e.g. ``"magot.set-order"``).

    Commands evolve as events do: ``version`` and ``upcasters`` (see
    ``Event``), since ``gm.command-decided`` stores them and ``gm verify``
    reads them back to decide them again.
    """

    kind: ClassVar[str] = "command"
    version: ClassVar[int] = 1
    upcasters: ClassVar[tuple[Upcaster, ...]] = ()


class Chance(Protocol):
    """One stream of the fortune: uniform integers and shuffles."""

    label: str

    def below(self, n: int) -> int: ...

    def shuffle(self, items: Sequence[T]) -> list[T]: ...


class Draws(Protocol):
    """The fortune as a game sees it: a stream per purpose.

    ``purpose`` names what the draw is for, in lowercase ASCII words joined
    by ``-`` and ``/`` (``"round-3/bills"``, ``"round-2/deck/ana"``); a
    purpose is drawn once in a campaign, so a game must name each draw
    uniquely.
    """

    def stream(self, purpose: str) -> Chance: ...


@dataclass(frozen=True)
class PostRef:
    """A public post a game can render: its kind and its coordinates.

    ``at`` holds the numbers the kind's ``PostKind.coords`` name, outermost
    first: ``PostRef("results", (3,))`` is round 3's results,
    ``PostRef("duel", (2, 3))`` the third duel of the second manche.
    """

    kind: str
    at: tuple[int, ...] = ()

    @property
    def round(self) -> int | None:
        """The first coordinate (the round, for most posts), if any."""
        return self.at[0] if self.at else None

    @property
    def address(self) -> str:
        """The coordinates as stored and typed: ``"3"``, ``"2.3"``, ``""``."""
        return ".".join(str(n) for n in self.at)


@dataclass(frozen=True)
class Shown:
    """What a public post does with secrets (``GameDef.shown``).

    ``sealed``: the keys whose seals the post publishes (the commitments,
    before any content is public). ``opened``: the keys whose content the
    post shows in full, so their salts are published with them and anyone can
    re-seal them. ``disclose_all``: every secret in force (the end-of-game
    disclosure). Keys without a secret in force are skipped.
    """

    sealed: tuple[SecretKey, ...] = ()
    opened: tuple[SecretKey, ...] = ()
    disclose_all: bool = False


NOTHING_SHOWN = Shown()


@dataclass(frozen=True)
class Awaited:
    """An input the game waits for.

    ``how``: ``private`` (a private message: a secret order), ``public`` (a
    move posted in the thread, on the player's turn) or ``choice`` (a choice
    the player owes while the MJ resolves). ``what`` says what, in a few
    English words for the MJ (« an order », « the green-8 pick »).
    """

    player: Seat
    how: Literal["private", "public", "choice"] = "private"
    what: str = ""


@dataclass(frozen=True)
class ScenarioStep:
    """One input of a scenario file, fed through the same path as the CLI.

    Either a player's message (``actor`` and ``text``) or a game master's step
    (``step`` and ``values``, as ``StepSpec.build`` receives them). ``where``
    names the place in the file for error messages (``"round 2"``).
    """

    where: str
    actor: str = GM
    """A player by their current name (as ``gm order`` takes it), or ``GM``."""
    text: str | None = None
    step: str | None = None
    values: Mapping[str, Any] = field(default_factory=dict)
    when: Callable[[Any], bool] | None = None
    """A condition on the game state (the game's own, pure): the input is fed
    only if it holds then. « End the manche if it is over »: the rules, not
    the file, say where a manche ends."""
    actor_of: Callable[[Any], Seat] | None = None
    """The actor, read from the game state when the input is fed (a turn-based
    game whose file leaves out whose turn it is: the rules know). It may
    raise ``InputError`` naming the place in the file."""


@dataclass(frozen=True)
class GameDef(Generic[S]):
    """A game, as the platform sees it: data and pure functions over its state ``S``.

    ``S`` is the game's own frozen dataclass; the platform only passes it
    back. Views and summaries are plain mappings of JSON-able values, ready
    for templates and ``--json``.
    """

    info: GameInfo
    events: tuple[type[Event], ...]
    commands: tuple[type[Command], ...]
    """Every command type, so that the log can record what was decided."""

    configure: Callable[[Sequence[str], Mapping[str, Any]], dict[str, Any]]
    """Validate raw options (strings from the CLI, or TOML values) and return
    the complete, canonical options. Raises ``InputError`` naming the bad
    option and what is valid."""
    initial_state: Callable[[Sequence[str], Mapping[str, Any]], S]
    evolve: Callable[[S, Event], S]
    """Apply one event. Never refuses a stored event."""
    decide: Callable[[S, str, Command, Draws], list[Event]]
    """Check a command and return its events, or raise a ``gm.errors`` error
    (whose message names seats: the platform relabels it for people)."""
    parse: Callable[[S, str, str, Table], tuple[Command, ...]]
    """Read a player's pasted private message (``state``, the sender's seat,
    the text, the table): the commands it carries, in order (« je reprends le
    3 et je joue le 5 » is two). Players are named by their current names."""
    order_from_params: Callable[[S, str, Mapping[str, Any], Table], tuple[Command, ...]]
    """The commands of explicit ``order_params`` values (``gm order --card 5``)."""
    phase: Callable[[S], str]
    """A stable key of the phase the game waits in (``"round-3/orders"``);
    a deadline applies while this key stays the same."""
    awaiting: Callable[[S], tuple[Awaited, ...]]
    """The inputs the game waits for, in the order they are due (seating
    order, or turn order)."""
    next_step: Callable[[S], str]
    """A short English hint for the MJ: what to do next (``gm reveal``)."""
    is_over: Callable[[S], bool]
    posts_after: Callable[[S, Sequence[Event], S], tuple[PostRef, ...]]
    """The public posts a command's events call for (``before``, ``events``, ``after``)."""
    latest_post: Callable[[S], PostRef]
    """The post that best describes the current state."""
    public_view: Callable[[S, PostRef, Table], Mapping[str, Any]]
    """What a public post may show, players by their current names. Never a secret."""
    shown: Callable[[S, PostRef], Shown]
    """Which secrets a public post seals and opens."""
    player_view: Callable[[S, str, Table], Mapping[str, Any]]
    """What one seat may know: the context of their private replies."""
    summary: Callable[[S, Table], dict[str, Any]]
    """The JSON summary of the scenario format (``docs/scenarios.md``)."""
    legal_inputs: Callable[[S, Table], tuple[ScenarioStep, ...]]
    """Inputs the game accepts now, as the platform feeds them: each awaited
    player's possible messages in the game's own notation and the MJ's steps
    allowed now. Every one of them is accepted, and together they reach every
    phase; empty once the game is over. Random playthroughs are built from them.
    Players are named as people write them: by their current names."""
    scenario: Callable[[Mapping[str, Any], Table], list[ScenarioStep]]
    """A scenario file's game-specific part as steps, for the table of the
    file's players (a name of several words is found in « NOM : TEXTE »).
    Raises ``InputError`` naming the bad key."""
    default_for: Callable[[S, str], Command] | None = None
    """The command the rules apply for ``player``'s missing input (``gm
    default PLAYER``), drawn by the fortune where the rules say so; raises a
    ``gm.errors`` error when nothing is due from them. None: no defaults."""
    filters: Mapping[str, Callable[..., Any]] = field(default_factory=dict)
    """Jinja filters of the game's own templates (pure functions)."""
    picture: Callable[[Mapping[str, Any], Any], bool] | None = None
    """Draw a public post's view (``public_view``'s result) as a picture for
    forums that take images (``gm picture``; Colt Express: the train), on the
    matplotlib ``Figure`` it is given; return False when this view has
    nothing to draw. It sees the public view only, so a picture cannot show a
    secret; the platform checks that matplotlib (gm's optional ``charts``
    extra) is installed and writes PNG or SVG bytes. None: no picture."""
    unread: Callable[[S, str, str, Table], tuple[str, ...]] | None = None
    """The words of an accepted message (``state``, the seat, ``text``, the table)
    that the notation read nothing from, as typed: the MJ's note lists them,
    so that nothing a player wrote is lost unseen. None: not reported."""

    @classmethod
    def from_modules(
        cls,
        info: GameInfo,
        game: ModuleType | Mapping[str, Any],
        *,
        rules: ModuleType | None = None,
        notation: ModuleType | None = None,
        views: ModuleType | None = None,
        events: ModuleType | None = None,
        commands: ModuleType | None = None,
        **overrides: Any,
    ) -> GameDef[Any]:
        """A game's definition by convention: each field is the function (or
        tuple) of that name in the game's own module ``game`` (``globals()``
        of its ``game.py``: what it defines or imports), else in the field's
        standard module (``CONVENTION``), else the field's default; keyword
        arguments give the fields that differ. So a game writes only what is
        not where the convention looks:

            GAME = GameDef.from_modules(
                INFO, globals(), rules=rules, notation=notation, views=views,
                events=events, commands=commands, filters={"train": views.picture},
            )

        (``events`` and ``commands`` are the modules whose ``EVENTS`` and
        ``COMMANDS`` are the fields; a game of one module defines those there.)

        ``filters`` and ``picture`` are only ever given (a game's ``picture``
        module or filter is no drawing function). :raises TypeError: a
        required field is nowhere, or a keyword names no field.
        """
        own = game if isinstance(game, Mapping) else vars(game)
        homes = {
            "rules": rules,
            "notation": notation,
            "views": views,
            "events": events,
            "commands": commands,
        }
        values: dict[str, Any] = {}
        for spec in fields(cls):
            if spec.name == "info":
                continue
            if spec.name in overrides:
                values[spec.name] = overrides.pop(spec.name)
                continue
            if spec.name in GIVEN_ONLY:
                continue
            home, names = CONVENTION.get(spec.name, (None, (spec.name,)))
            module = homes.get(home) if home else None
            places = [own, *([vars(module)] if module is not None else [])]
            found = [p[n] for p in places for n in names if n in p]
            if found:
                values[spec.name] = found[0]
            elif spec.default is MISSING and spec.default_factory is MISSING:
                where = f"its game module{f' or its {home} module' if home else ''}"
                raise TypeError(f"{info.id}: no {' or '.join(names)} in {where}")
        if overrides:
            raise TypeError(f"{info.id}: a GameDef has no field {sorted(overrides)[0]!r}")
        return cls(info=info, **values)

    def __post_init__(self) -> None:
        for cls in self.events:
            if not (cls.sealed or cls.unseals):
                continue
            names = set(getattr(cls, "__dataclass_fields__", {}))
            missing = [n for n in (*cls.secret_fields, cls.owner_field) if n not in names]
            if cls.secret is None or missing:
                raise TypeError(
                    f"{cls.kind}: a sealed or unsealing event names its secret family and"
                    f" has its key fields (missing: {missing or ['secret']})"
                )

    @property
    def id(self) -> str:
        return self.info.id

    @property
    def title(self) -> str:
        return self.info.title

    @property
    def min_players(self) -> int:
        return self.info.min_players

    @property
    def max_players(self) -> int:
        return self.info.max_players

    @property
    def options(self) -> tuple[OptionSpec, ...]:
        return self.info.options

    @property
    def steps(self) -> tuple[StepSpec, ...]:
        return self.info.steps

    @property
    def order_params(self) -> tuple[ParamSpec, ...]:
        return self.info.order_params

    def waiting_for(self, state: S) -> tuple[Seat, ...]:
        """The seats awaited, each once, in the order they are due."""
        return tuple(dict.fromkeys(a.player for a in self.awaiting(state)))


Game = GameDef[Any]
"""A game of any state type, as the platform holds it."""

CONVENTION: Mapping[str, tuple[str | None, tuple[str, ...]]] = {
    "events": ("events", ("EVENTS",)),
    "commands": ("commands", ("COMMANDS",)),
    "configure": ("rules", ("configure",)),
    "initial_state": ("rules", ("initial_state",)),
    "evolve": ("rules", ("evolve",)),
    "decide": ("rules", ("decide",)),
    "phase": ("rules", ("phase_key", "phase")),
    "next_step": ("rules", ("next_step",)),
    "is_over": ("rules", ("is_over",)),
    "default_for": ("rules", ("default_for",)),
    "parse": ("notation", ("parse",)),
    "order_from_params": ("notation", ("order_from_params", "from_params")),
    "unread": ("notation", ("unread",)),
    "public_view": ("views", ("public_view",)),
    "player_view": ("views", ("player_view",)),
    "summary": ("views", ("summary",)),
    "scenario": (None, ("scenario_steps", "scenario")),
}
"""Where ``GameDef.from_modules`` looks for a field, besides the game's own
module: its standard module (``rules``, ``notation``, ``views``, ``events``,
``commands``; None: the game module only) and the names it may have there, first found first. A
field not listed is the function of its own name in the game module
(``awaiting``, ``posts_after``, ``latest_post``, ``shown``, ``legal_inputs``)."""

GIVEN_ONLY = frozenset({"filters", "picture"})
"""Fields ``GameDef.from_modules`` never looks up: their names are common
words of a game's modules (Colt Express has a ``picture`` module and a
``views.picture`` filter), so a game gives them or has none."""
