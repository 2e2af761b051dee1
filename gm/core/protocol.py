"""The contract between the platform and a game.

A game is a pure rules package (``gm/games/<id>/``) exposing one object that
satisfies ``Game``. The platform never looks inside a game's state: it folds
events with ``evolve``, asks ``decide`` for new events, asks for views to
render, and builds the game's command-line steps from ``StepSpec`` data.

Vocabulary (boardgame.io, python-chess, eventsourcing):

* a *command* is what someone asks for, in the imperative (``SetOrder``,
  ``Resolve``); the actor is a player's name or ``GM``;
* an *event* is what happened, in the past tense (``OrderSet``,
  ``PotShared``); events are frozen dataclasses with a stable ``kind`` and an
  audience (who may read the payload);
* ``decide(state, actor, command, draws)`` checks a command and returns the
  events, or raises a ``gm.errors`` error; ``evolve(state, event)`` applies an
  event and never refuses a stored one. State is the fold of the log.
* chance comes only through ``Draws`` and its results are written into the
  events, so replaying a log never draws again.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal, Protocol, TypeVar

T = TypeVar("T")

GM = "gm"
"""The actor name of the game master. No player may be called this."""

PUBLIC = "*"
"""The audience of an event anyone may read. Otherwise: ``GM`` or a player's name."""


@dataclass(frozen=True)
class Event:
    """Something that happened. Subclasses set ``kind`` (e.g. ``"magot.order-set"``).

    A *sealed* event is a secret order whose content becomes public later:
    the platform publishes its seal (a commitment, see
    ``gm.core.canonical.seal``) when the orders are revealed, so nobody can
    change it afterwards unnoticed. Sealed events and the events that
    *unseal* them (a withdrawal) carry ``round`` and ``player`` fields: the
    order in force for a player in a round is their latest sealed event not
    followed by an unsealing one.
    """

    kind: ClassVar[str] = "event"
    sealed: ClassVar[bool] = False
    unseals: ClassVar[bool] = False

    def audience(self) -> str:
        """Who may read this event's payload: ``PUBLIC``, ``GM`` or one player.

        A sealed event, and one that unseals it, is its ``player``'s alone
        (the seal is what the others get); any other event is public unless
        its class says otherwise.
        """
        if self.sealed or self.unseals:
            return str(getattr(self, "player"))  # noqa: B009  (the field sealed events carry)
        return PUBLIC

    def drew_chance(self) -> bool:
        """Whether this event holds results drawn from the campaign's fortune.

        Such draws are numbered: the n-th one reads the stream ``draw/<n>``,
        whatever else was recorded in between, and ``gm undo`` refuses to void
        it, so neither a harmless event nor an undo can buy a new draw.
        """
        return False


@dataclass(frozen=True)
class Command:
    """Something someone asks for. Subclasses set ``kind`` (e.g. ``"magot.set-order"``)."""

    kind: ClassVar[str] = "command"


class Draws(Protocol):
    """The fortune as a game sees it: uniform integers and shuffles."""

    label: str

    def below(self, n: int) -> int: ...

    def shuffle(self, items: Sequence[T]) -> list[T]: ...


@dataclass(frozen=True)
class OptionSpec:
    """A campaign option a game accepts (``gm new … --option name=value``)."""

    name: str
    help: str
    default: str


@dataclass(frozen=True)
class ParamSpec:
    """One command-line parameter of a game step.

    ``kind`` is ``argument`` (positional), ``option`` (``--name VALUE``) or
    ``flag`` (``--name``). Values reach ``StepSpec.build`` as strings (or
    tuples of strings when ``multiple``, booleans for flags).
    """

    name: str
    help: str = ""
    kind: Literal["argument", "option", "flag"] = "option"
    required: bool = False
    multiple: bool = False
    metavar: str | None = None


@dataclass(frozen=True)
class StepSpec:
    """A game master's step that the game adds to the command line (``gm draw``).

    ``build`` turns the parsed parameters into a command (raising
    ``gm.errors.InputError`` on a bad value). The platform adds ``--preview``
    to every step, and ``--deadline`` to steps with ``deadline=True`` (the
    deadline then applies to the phase the step opens).
    """

    name: str
    help: str
    params: tuple[ParamSpec, ...]
    build: Callable[[Mapping[str, Any]], Command]
    deadline: bool = False


@dataclass(frozen=True)
class GameInfo:
    """What the command line knows of a game without loading its rules.

    Each game package has a light ``manifest`` module exposing ``INFO``, so
    that ``gm --help`` and ``gm games`` start fast; the ``Game`` object
    repeats these attributes.
    """

    id: str
    title: str
    min_players: int
    max_players: int
    options: tuple[OptionSpec, ...]
    steps: tuple[StepSpec, ...]
    order_params: tuple[ParamSpec, ...]
    post_kinds: tuple[str, ...] = ()
    """The public posts the game renders (``gm post KIND``), in the order of a game."""

    @property
    def seats(self) -> str:
        """How many players, for the MJ: "exactly 2 players", "3 to 20 players"."""
        if self.min_players == self.max_players:
            return f"exactly {self.min_players} players"
        return f"{self.min_players} to {self.max_players} players"


@dataclass(frozen=True)
class PostRef:
    """A public post a game can render: its template ``kind`` and, if any, its round."""

    kind: str
    round: int | None = None


@dataclass(frozen=True)
class ScenarioStep:
    """One input of a scenario file, fed through the same path as the CLI.

    Either a player's order (``actor`` and ``text``) or a game master's step
    (``step`` and ``values``, as ``StepSpec.build`` receives them). ``where``
    names the place in the file for error messages (``"round 2"``).
    """

    where: str
    actor: str = GM
    text: str | None = None
    step: str | None = None
    values: Mapping[str, Any] = field(default_factory=dict)
    when: Callable[[Any], bool] | None = None
    """A condition on the game state (the game's own, pure): the input is fed
    only if it holds then. « End the manche if it is over »: the rules, not
    the file, say where a manche ends."""


class Game(Protocol):
    """What a game package exposes as ``GAME``.

    ``S`` (the state) is the game's own frozen dataclass; the platform only
    passes it back. Views and summaries are plain mappings of JSON-able
    values, ready for templates and ``--json``.
    """

    id: str
    title: str
    min_players: int
    max_players: int
    options: tuple[OptionSpec, ...]
    steps: tuple[StepSpec, ...]
    events: tuple[type[Event], ...]
    order_params: tuple[ParamSpec, ...]
    """Explicit fields ``gm order`` accepts instead of free text (``--target``)."""

    def configure(self, players: Sequence[str], options: Mapping[str, Any]) -> dict[str, Any]:
        """Validate raw options (strings from the CLI, or TOML values) and return
        the complete, canonical options (every default filled in). Raises
        ``InputError`` naming the bad option and what is valid."""
        ...

    def initial_state(self, players: Sequence[str], options: Mapping[str, Any]) -> Any:
        """The state before any event, from the players and configured options."""
        ...

    def evolve(self, state: Any, event: Event) -> Any:
        """Apply one event. Never refuses a stored event."""
        ...

    def decide(self, state: Any, actor: str, command: Command, draws: Draws) -> list[Event]:
        """Check a command and return its events, or raise a ``gm.errors`` error."""
        ...

    def parse(self, state: Any, actor: str, text: str) -> Command:
        """Parse a player's pasted private message into a command."""
        ...

    def order_from_params(self, state: Any, actor: str, values: Mapping[str, Any]) -> Command:
        """Build a player's command from explicit ``order_params`` values."""
        ...

    def phase(self, state: Any) -> str:
        """A stable key of the phase the game waits in (``"round-3/orders"``);
        a deadline applies while this key stays the same."""
        ...

    def awaiting(self, state: Any) -> tuple[str, ...]:
        """The players whose input the game waits on, in seating order."""
        ...

    def next_step(self, state: Any) -> str:
        """A short English hint for the MJ: what to do next (``gm reveal``)."""
        ...

    def is_over(self, state: Any) -> bool: ...

    def posts_after(self, before: Any, events: Sequence[Event], after: Any) -> tuple[PostRef, ...]:
        """The public posts a command's events call for (e.g. the results, then
        the final post)."""
        ...

    def latest_post(self, state: Any) -> PostRef:
        """The post that best describes the current state (``gm post`` default)."""
        ...

    def public_view(self, state: Any, post: PostRef) -> Mapping[str, Any]:
        """What a public post may show. Never a secret."""
        ...

    def player_view(self, state: Any, player: str) -> Mapping[str, Any]:
        """What one player may know: the context of their private replies."""
        ...

    def summary(self, state: Any) -> dict[str, Any]:
        """The JSON summary of ``shared/scenarios.md`` (without ``campaign``)."""
        ...

    def legal_inputs(self, state: Any) -> tuple[ScenarioStep, ...]:
        """Inputs the game accepts now, as the platform feeds them: each awaited
        player's possible messages in the game's own notation
        (``ScenarioStep(actor=…, text=…)``) and the MJ's steps allowed now
        (``ScenarioStep(step=…, values=…)``). Every one of them is accepted,
        and together they reach every phase; empty once the game is over.
        Random playthroughs (the conformance tests) are built from them."""
        ...

    def scenario(self, document: Mapping[str, Any]) -> list[ScenarioStep]:
        """Turn a scenario file's game-specific part into steps. Raises
        ``InputError`` naming the bad key."""
        ...
