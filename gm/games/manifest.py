"""What a game's manifest is made of: its description, read without its rules
or the core.

Each game's light ``manifest`` module builds its ``GameInfo`` (its steps and
their parameters, its options, its post kinds and coordinates) from these
classes, and ``gm --help`` and ``gm games`` build the command line from the
manifests alone: nothing here imports ``gm.core`` (``tests/cli/test_help.py``
checks that ``gm --help`` loads no module of it). ``gm.core.protocol``
re-exports them with the rest of the contract between the platform and a
game; this module is the one part of that contract the games package holds,
and ``gm/games/__init__.py``, which importing it runs, must import nothing
of the core either. Pure, like the core and the games
(``tests/test_architecture.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from gm.core.protocol import Command, Table


@dataclass(frozen=True)
class OptionSpec:
    """A campaign option a game accepts (``gm new … --option name=value``)."""

    name: str
    help: str
    default: str
    file: bool = False
    """The value names a file (a board, a map): ``gm play`` reads it relative
    to the scenario file, ``gm new`` relative to the working directory; the
    game's ``configure`` reads it once and keeps what it needs in the
    campaign's options, so that a replay never reads the disk."""


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

    ``build`` turns the parsed parameters and the ``Table`` (a player is
    named by their current name: ``table.seat_of``) into a command (raising
    ``gm.errors.InputError`` on a bad value). The platform adds ``--preview``
    to every step, and ``--deadline`` to steps with ``deadline=True`` (the
    deadline then applies to the phase the step opens).
    """

    name: str
    help: str
    params: tuple[ParamSpec, ...]
    build: Callable[[Mapping[str, Any], Table], Command]
    deadline: bool = False


@dataclass(frozen=True)
class PostKind:
    """A public post a game renders (``gm post KIND``) and its coordinates.

    ``coords`` name the numbers that tell two posts of this kind apart, as
    players count them: ``("round",)`` for Le Magot's results, ``("manche",
    "duel")`` for a duel; none for a post made once (the opening).
    """

    name: str
    coords: tuple[str, ...] = ()
    owed_at_end: bool = False
    """A post the MJ asks for (``gm post KIND``) that the game owes its
    players once it is over (Le Magot's disclosure): ``gm chronicle``
    publishes it if the MJ has not, so that the archive is the whole thread."""
    deals: bool = False
    """A post that tells every player they received something in private
    (« Chacun a reçu sa main en MP »): the command that publishes it also
    gives the MJ each player's private status, ready to send."""
    label: str = ""
    """What players call it, in French (« résultats »), where gm names a post
    (the chronicle's headers); the kind's name when empty."""
    gathered: str = ""
    """In digest mode (``gm set digest on``), when the command line prints
    this post: ``"hand"``, with the next posts while the player who acted
    still has the hand (nobody else is awaited); ``"next"``, with the next
    post that is not gathered; ``""`` (the default), at once. Every post is
    still archived and proved on its own: a digest is several posts pasted
    as one forum message."""


@dataclass(frozen=True)
class Coordinate:
    """A number a game counts in (a round, a manche, a duel): its name, as
    events' payloads and posts' coordinates spell it, and what players call
    it, in French (« tour »). A game lists them outermost first."""

    name: str
    label: str


@dataclass(frozen=True)
class GameInfo:
    """What the command line knows of a game without loading its rules.

    Each game package has a light ``manifest`` module exposing ``INFO``, so
    that ``gm --help`` and ``gm games`` start fast.
    """

    id: str
    title: str
    min_players: int
    max_players: int
    options: tuple[OptionSpec, ...]
    steps: tuple[StepSpec, ...]
    order_params: tuple[ParamSpec, ...]
    """Explicit fields ``gm order`` accepts instead of free text (``--target``)."""
    post_kinds: tuple[PostKind, ...] = ()
    """The public posts the game renders, in the order of a game."""
    order_examples: tuple[str, ...] = ()
    """Players' messages as the game reads them, ``NAME: message`` (French),
    for ``gm order --help``: what the MJ can expect to paste."""
    coordinates: tuple[Coordinate, ...] = ()
    """The numbers the game counts in, outermost first (Le Magot: the round;
    Fistful of Gold: the manche, then the duel): ``gm history`` says where
    each event was in them and filters by them, the chronicle names posts'
    coordinates with their labels."""

    @property
    def seats(self) -> str:
        """How many players, for the MJ: "exactly 2 players", "3 to 20 players"."""
        if self.min_players == self.max_players:
            return f"exactly {self.min_players} players"
        return f"{self.min_players} to {self.max_players} players"

    def coordinate(self, name: str) -> Coordinate | None:
        """The coordinate named ``name``, if the game counts in it."""
        return next((c for c in self.coordinates if c.name == name), None)

    def post_kind(self, name: str) -> PostKind | None:
        """The post kind ``name``, if the game has one."""
        return next((k for k in self.post_kinds if k.name == name), None)


def post_name(kind: str, at: tuple[int, ...]) -> str:
    """A post as the MJ names it and types it: ``results 3``, ``duel 2.3``, ``opening``."""
    return f"{kind} {'.'.join(map(str, at))}" if at else kind
