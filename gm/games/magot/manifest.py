"""What the platform needs to know of Le Magot before playing it.

The game's id, players, options, the MJ's steps (``gm draw``…) and the
explicit order fields: static data that ``gm --help`` and ``gm games`` read
without importing the rules, so the command line starts fast. Step builders
import the commands only when a step actually runs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from gm.errors import InputError
from gm.games.manifest import Coordinate, GameInfo, OptionSpec, ParamSpec, PostKind, StepSpec

if TYPE_CHECKING:
    from gm.core.protocol import Command, Table

MIN_PLAYERS = 3
MAX_PLAYERS = 20
DEFAULT_ROUNDS = 8
"""R-7: the game lasts 8 rounds at most, unless the MJ configures another number."""

DEFAULT_LOOT: dict[str, int] = {"5000": 15, "10000": 15, "20000": 10}
"""R-1: 40 bills, 425 000 $: five bills for each of eight rounds."""


def parse_bills(raw: Any) -> tuple[int, ...] | None:
    """``"20000,10000,5000"`` (or a list of numbers) as a tuple of bills; None stays None.

    Commas, semicolons or ``+`` separate bills; spaces and ``_`` inside a
    number, a trailing ``$`` and a ``k`` for thousands are accepted.
    """
    if raw is None:
        return None
    if isinstance(raw, str):
        items: list[Any] = [p for p in raw.replace(";", ",").replace("+", ",").split(",")]
        if not raw.strip():
            items = []
    elif isinstance(raw, Sequence):
        items = list(raw)
    else:
        raise _bills_error(raw)
    bills = []
    for item in items:
        for piece in _pieces(item):
            value = _bill(piece)
            if value is None:
                raise _bills_error(raw)
            bills.append(value)
    return tuple(bills)


def _pieces(item: Any) -> list[Any]:
    """``"20000 10000"`` is two bills, ``"20 000"`` one (a thousands group has 3 digits)."""
    if not isinstance(item, str):
        return [item]
    pieces = item.split()
    if len(pieces) > 1 and all(len(p.rstrip("$kK")) >= 4 or p[-1:] in "kK" for p in pieces):
        return pieces
    return [item]


def _bill(item: Any) -> int | None:
    if isinstance(item, int) and not isinstance(item, bool):
        return item if item > 0 else None
    if not isinstance(item, str):
        return None
    text = item.strip().lower().removesuffix("$").strip()
    for space in (" ", "_", "\u202f", "\u00a0", "."):
        text = text.replace(space, "")
    scale = 1000 if text.endswith("k") else 1
    if scale > 1 and "." in item:
        return None  # « 2.5k »: no fractions of a thousand
    text = text.removesuffix("k")
    if not text.isdigit() or int(text) == 0:
        return None
    return int(text) * scale


def _bills_error(raw: Any) -> InputError:
    return InputError(
        f"bills {raw!r} are not valid: give bill values separated by commas,"
        " e.g. 20000,10000,5000,5000,5000",
        code="magot/bad-bills",
        params={"bills": str(raw)},
    )


def _build_draw(values: Mapping[str, Any], table: Table) -> Command:
    from .commands import DrawLoot

    return DrawLoot(bills=parse_bills(values.get("bills")))


def _build_reveal(values: Mapping[str, Any], table: Table) -> Command:
    from .commands import Reveal

    return Reveal(force=bool(values.get("force", False)))


def _player_value(values: Mapping[str, Any], table: Table) -> str:
    """The seat of the player named (by their current name)."""
    player = values.get("player")
    if not isinstance(player, str) or not player.strip():
        raise InputError("a player name is required", code="magot/no-player")
    return table.seat_of(player.strip())


def _build_fold(values: Mapping[str, Any], table: Table) -> Command:
    from .commands import Fold

    return Fold(player=_player_value(values, table))


def _build_stay(values: Mapping[str, Any], table: Table) -> Command:
    from .commands import Stay

    return Stay(player=_player_value(values, table))


def _build_withdraw(values: Mapping[str, Any], table: Table) -> Command:
    from .commands import WithdrawOrder

    return WithdrawOrder(player=_player_value(values, table))


def _build_resolve(values: Mapping[str, Any], table: Table) -> Command:
    from .commands import Resolve

    return Resolve()


_PLAYER = ParamSpec("player", help="The player's name.", kind="argument", required=True)

STEPS: tuple[StepSpec, ...] = (
    StepSpec(
        name="draw",
        help=(
            "Open the next round: draw 5 bills from the loot deck into the pot (all that"
            " remain if fewer), by the campaign's fortune, or as drawn by hand with --bills"
            " (R-2: recorded as manual, outside the fairness proof).\n\n"
            "Example: gm draw --bills 20000,10000,5000,5000,5000"
        ),
        params=(
            ParamSpec(
                "bills",
                help="The bills drawn by hand, comma-separated (default: the fortune draws).",
                metavar="BILLS",
            ),
        ),
        build=_build_draw,
        deadline=True,
    ),
    StepSpec(
        name="reveal",
        help=(
            "Lock the orders and post who aims at whom (never the options). Refused while a"
            " living player has sent no order, unless --force: they then aim at nobody and"
            " spend nothing (R-3).\n\nExample: gm reveal --force"
        ),
        params=(
            ParamSpec("force", help="Reveal even though some orders are missing.", kind="flag"),
        ),
        build=_build_reveal,
        deadline=True,
    ),
    StepSpec(
        name="fold",
        help=(
            "Record that a player folds this round (lowers their gun: safe, no share,"
            " +1 shame). Can be changed with gm stay until gm resolve.\n\nExample: gm fold marco"
        ),
        params=(_PLAYER,),
        build=_build_fold,
    ),
    StepSpec(
        name="stay",
        help=(
            "Record that a player stays this round (the default for anyone not recorded,"
            " R-4).\n\nExample: gm stay marco"
        ),
        params=(_PLAYER,),
        build=_build_stay,
    ),
    StepSpec(
        name="withdraw",
        help=(
            "Withdraw a player's order before the reveal (the history keeps it).\n\n"
            "Example: gm withdraw fab"
        ),
        params=(_PLAYER,),
        build=_build_withdraw,
    ),
    StepSpec(
        name="resolve",
        help=(
            "Fire the shots, share the pot and close the round; ends the game when R-7 says"
            " so. The next round is opened by gm draw.\n\nExample: gm resolve"
        ),
        params=(),
        build=_build_resolve,
    ),
)

ORDER_PARAMS: tuple[ParamSpec, ...] = (
    # not ``required``: they are needed only when the order is not free text
    ParamSpec("target", help="The player aimed at (with --option).", metavar="PLAYER"),
    ParamSpec(
        "option",
        help="triple (BANG BANG BANG), bang (BANG) or click (CLIC CLIC CLIC), with --target.",
        metavar="OPTION",
    ),
)


INFO = GameInfo(
    id="magot",
    title="Le Magot",
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    options=(
        OptionSpec("rounds", "Number of rounds at most (R-7).", str(DEFAULT_ROUNDS)),
        OptionSpec(
            "loot",
            "The loot deck, as value:count pairs (R-1).",
            ",".join(f"{v}:{c}" for v, c in DEFAULT_LOOT.items()),
        ),
    ),
    steps=STEPS,
    order_params=ORDER_PARAMS,
    post_kinds=(
        PostKind("opening"),
        PostKind("rules"),
        PostKind("round", ("round",), label="mise"),
        PostKind("reveal", ("round",), label="révélation"),
        PostKind("results", ("round",), label="résultats"),
        PostKind("final"),
        PostKind("disclosure", owed_at_end=True),
    ),
    order_examples=(
        "fab: Je braque mon flingue sur marco (BANG BANG BANG)",
        "lulu: sur tom, clic clic clic",
        "marco: je me couche",
    ),
    coordinates=(Coordinate("round", "tour"),),
)
