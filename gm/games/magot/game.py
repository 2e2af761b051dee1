"""``Magot``: Le Magot seen through the platform's ``Game`` protocol.

This module only wires the rules to the platform: the MJ's command-line
steps (``gm draw``, ``gm reveal``, ``gm fold``…), explicit orders (``gm order
fab --target marco --option bang``), which posts a command calls for, and
scenario files. The rules themselves live in ``rules``, ``notation`` and
``views``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gm.core.protocol import (
    Command,
    Draws,
    Event,
    OptionSpec,
    ParamSpec,
    PostRef,
    ScenarioStep,
    StepSpec,
)
from gm.errors import InputError

from . import notation, rules, views
from .commands import DrawLoot, Fold, Resolve, Reveal, SetOrder, Stay, WithdrawOrder
from .events import EVENTS, GameEnded, LootDrawn, OrdersRevealed, RoundResolved
from .model import Phase, State

_COMMON_KEYS = frozenset({"game", "title", "players", "seed", "options", "settings"})
_ROUND_KEYS = ("bills", "orders", "folds", "force")


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


def _build_draw(values: Mapping[str, Any]) -> Command:
    return DrawLoot(bills=parse_bills(values.get("bills")))


def _build_reveal(values: Mapping[str, Any]) -> Command:
    return Reveal(force=bool(values.get("force", False)))


def _player_value(values: Mapping[str, Any]) -> str:
    player = values.get("player")
    if not isinstance(player, str) or not player.strip():
        raise InputError("a player name is required", code="magot/no-player")
    return player.strip()


def _build_fold(values: Mapping[str, Any]) -> Command:
    return Fold(player=_player_value(values))


def _build_stay(values: Mapping[str, Any]) -> Command:
    return Stay(player=_player_value(values))


def _build_withdraw(values: Mapping[str, Any]) -> Command:
    return WithdrawOrder(player=_player_value(values))


def _build_resolve(values: Mapping[str, Any]) -> Command:
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


class Magot:
    """Le Magot, as the platform sees it. Stateless: every method is pure."""

    id: str = "magot"
    title: str = "Le Magot"
    min_players: int = rules.MIN_PLAYERS
    max_players: int = rules.MAX_PLAYERS
    options: tuple[OptionSpec, ...] = (
        OptionSpec("rounds", "Number of rounds at most (R-7).", str(rules.DEFAULT_ROUNDS)),
        OptionSpec(
            "loot",
            "The loot deck, as value:count pairs (R-1).",
            ",".join(f"{v}:{c}" for v, c in rules.DEFAULT_LOOT.items()),
        ),
    )
    steps: tuple[StepSpec, ...] = STEPS
    events: tuple[type[Event], ...] = EVENTS
    order_params: tuple[ParamSpec, ...] = ORDER_PARAMS

    def configure(self, players: Sequence[str], options: Mapping[str, Any]) -> dict[str, Any]:
        return rules.configure(players, options)

    def initial_state(self, players: Sequence[str], options: Mapping[str, Any]) -> State:
        return rules.initial_state(players, options)

    def evolve(self, state: State, event: Event) -> State:
        return rules.evolve(state, event)

    def decide(self, state: State, actor: str, command: Command, draws: Draws) -> list[Event]:
        return rules.decide(state, actor, command, draws)

    def parse(self, state: State, actor: str, text: str) -> Command:
        return notation.parse(state, actor, text)

    def order_from_params(self, state: State, actor: str, values: Mapping[str, Any]) -> Command:
        """An explicit order: ``gm order fab --target marco --option bang``."""
        target = values.get("target")
        if not isinstance(target, str) or not target.strip():
            raise InputError("--target is required: the player aimed at", code="magot/no-target")
        option = values.get("option")
        if not isinstance(option, str):
            raise InputError("--option is required: triple, bang or click", code="magot/bad-option")
        player = rules.find_player(state, actor)
        return SetOrder(player=player, target=target.strip(), option=notation.parse_option(option))

    def phase(self, state: State) -> str:
        return rules.phase_key(state)

    def awaiting(self, state: State) -> tuple[str, ...]:
        return rules.awaiting(state)

    def next_step(self, state: State) -> str:
        return rules.next_step(state)

    def is_over(self, state: State) -> bool:
        return rules.is_over(state)

    def posts_after(
        self, before: State, events: Sequence[Event], after: State
    ) -> tuple[PostRef, ...]:
        posts: list[PostRef] = []
        for event in events:
            if isinstance(event, LootDrawn):
                posts.append(PostRef("round", event.round))
            elif isinstance(event, OrdersRevealed):
                posts.append(PostRef("reveal", event.round))
            elif isinstance(event, RoundResolved):
                posts.append(PostRef("results", event.round))
            elif isinstance(event, GameEnded):
                posts.append(PostRef("final"))
        return tuple(posts)

    def latest_post(self, state: State) -> PostRef:
        if state.phase is Phase.OVER:
            return PostRef("final")
        if state.phase is Phase.ORDERS:
            return PostRef("round", state.round)
        if state.phase is Phase.STANDOFF:
            return PostRef("reveal", state.round)
        if state.round == 0:
            return PostRef("opening")
        return PostRef("results", state.round)

    def public_view(self, state: State, post: PostRef) -> dict[str, Any]:
        return views.public_view(state, post)

    def player_view(self, state: State, player: str) -> dict[str, Any]:
        return views.player_view(state, player)

    def summary(self, state: State) -> dict[str, Any]:
        return views.summary(state)

    def scenario(self, document: Mapping[str, Any]) -> list[ScenarioStep]:
        return scenario_steps(document)


def scenario_steps(document: Mapping[str, Any]) -> list[ScenarioStep]:
    """The steps of a scenario file (``shared/scenarios.md``, magot part).

    Accepts the whole document (common keys are left to the platform) or
    only its game-specific part.
    """
    unknown = sorted(set(document) - _COMMON_KEYS - {"rounds"})
    if unknown:
        raise InputError(
            f"unknown key {unknown[0]!r} in a magot scenario"
            f" (valid: {', '.join(sorted(_COMMON_KEYS | {'rounds'}))})",
            code="scenario/unknown-key",
            params={"key": unknown[0]},
        )
    rounds = document.get("rounds", [])
    if not isinstance(rounds, list) or not all(isinstance(r, Mapping) for r in rounds):
        raise InputError(
            "'rounds' must be an array of tables ([[rounds]])", code="scenario/bad-value"
        )
    steps: list[ScenarioStep] = []
    for number, entry in enumerate(rounds, start=1):
        steps.extend(_round_steps(number, entry))
    return steps


def _round_steps(number: int, entry: Mapping[str, Any]) -> list[ScenarioStep]:
    where = f"round {number}"

    def bad(key: str, expected: str) -> InputError:
        return InputError(
            f"{where}: {key!r} must be {expected}, got {entry[key]!r}",
            code="scenario/bad-value",
            params={"where": where, "key": key},
        )

    unknown = sorted(set(entry) - set(_ROUND_KEYS))
    if unknown:
        raise InputError(
            f"{where}: unknown key {unknown[0]!r} (valid: {', '.join(_ROUND_KEYS)})",
            code="scenario/unknown-key",
            params={"where": where, "key": unknown[0]},
        )
    bills = entry.get("bills")
    if bills is not None:
        if not isinstance(bills, list) or not all(
            isinstance(b, int) and not isinstance(b, bool) and b > 0 for b in bills
        ):
            raise bad("bills", "a list of bill values, e.g. [20000, 10000, 5000]")
        bills = ",".join(str(b) for b in bills)
    orders = entry.get("orders", {})
    if not isinstance(orders, Mapping) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in orders.items()
    ):
        raise bad("orders", 'a table of player = "order text"')
    folds = entry.get("folds", [])
    if not isinstance(folds, list) or not all(isinstance(f, str) for f in folds):
        raise bad("folds", "a list of player names")
    force = entry.get("force", False)
    if not isinstance(force, bool):
        raise bad("force", "true or false")

    steps = [ScenarioStep(where=where, step="draw", values={"bills": bills})]
    steps += [
        ScenarioStep(where=f"{where}, player {player}", actor=player, text=text)
        for player, text in orders.items()
    ]
    steps.append(ScenarioStep(where=where, step="reveal", values={"force": force}))
    steps += [
        ScenarioStep(where=f"{where}, player {player}", step="fold", values={"player": player})
        for player in folds
    ]
    steps.append(ScenarioStep(where=where, step="resolve", values={}))
    return steps
