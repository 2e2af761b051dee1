"""What the platform needs to know of Fistful of Gold before playing it.

The game's id, players, options, the MJ's steps (``gm start``, ``gm
reveal``, ``gm resolve``) and the explicit order fields (``--card``,
``--pick``, ``--discard``, ``--final``): static data that ``gm --help`` and
``gm games`` read without importing the rules. Step builders import the
commands only when a step actually runs.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from gm.games.manifest import Coordinate, GameInfo, OptionSpec, ParamSpec, PostKind, StepSpec

if TYPE_CHECKING:
    from gm.core.protocol import Command, Table

PLAYERS = 2
DEFAULT_LENGTH = "short"


def _build_start(values: Mapping[str, Any], table: Table) -> Command:
    from .commands import StartDuels

    return StartDuels()


def _build_reveal(values: Mapping[str, Any], table: Table) -> Command:
    from .commands import RevealDuel

    return RevealDuel()


def _build_resolve(values: Mapping[str, Any], table: Table) -> Command:
    from .commands import EndManche

    return EndManche()


STEPS: tuple[StepSpec, ...] = (
    StepSpec(
        name="start",
        help=(
            "Lock both players' secret setup discards and open the first duel: posts the"
            " seals of the discards and calls for the first cards. Refused until both"
            " players have sent their two discards.\n\nExample: gm start --deadline +48h"
        ),
        params=(),
        build=_build_start,
        deadline=True,
    ),
    StepSpec(
        name="reveal",
        help=(
            "Reveal both cards of the duel, resolve it (gold, tie pot, powers) and post it;"
            " the next duel opens, or the manche ends. Refused while a card or a green-8"
            " pick is missing.\n\nExample: gm reveal --deadline +24h"
        ),
        params=(),
        build=_build_reveal,
        deadline=True,
    ),
    StepSpec(
        name="resolve",
        help=(
            "End the manche once its discards and final-duel choices are in: play the"
            " final duel if the gold is tied, award the sheriff star, post the result"
            " (and the final post when the game is over); the next manche opens.\n\n"
            "Example: gm resolve --deadline +48h"
        ),
        params=(),
        build=_build_resolve,
        deadline=True,
    ),
)

ORDER_PARAMS: tuple[ParamSpec, ...] = (
    ParamSpec(
        "card", help="Fistful: the card played this duel (1 to 8 or dynamite).", metavar="CARD"
    ),
    ParamSpec(
        "pick",
        help="Fistful: the card a green 8 takes back from the removed pile.",
        metavar="CARD",
    ),
    ParamSpec(
        "discard",
        help="Fistful: the cards discarded (setup: two, e.g. '1 2'; end of a manche: as due).",
        metavar="CARDS",
    ),
    ParamSpec(
        "final",
        help="Fistful: the discarded card revealed in a final duel (R-5).",
        metavar="CARD",
    ),
)

INFO = GameInfo(
    id="fistful",
    title="Fistful of Gold",
    min_players=PLAYERS,
    max_players=PLAYERS,
    options=(
        OptionSpec(
            "length", "short (first to 2 manches won) or long (first to 3).", DEFAULT_LENGTH
        ),
        OptionSpec(
            "colors",
            "Who takes which deck, e.g. ana=green,bob=red.",
            "first player red",
        ),
    ),
    steps=STEPS,
    order_params=ORDER_PARAMS,
    post_kinds=(
        PostKind("opening"),
        PostKind("rules"),
        PostKind("setup", label="mise en place"),
        PostKind("duel", ("manche", "duel"), label="duel"),
        PostKind("manche", ("manche",), label="compte de la manche"),
        PostKind("final"),
        PostKind("disclosure", owed_at_end=True),
    ),
    order_examples=(
        "ana: je défausse la dynamite et le 8",
        "ana: je joue le 5",
        "bob: je révèle le 3",
    ),
    coordinates=(Coordinate("manche", "manche"), Coordinate("duel", "duel")),
)
