"""Le Magot as the platform sees it: ``GAME``, its typed definition.

This module only wires the rules to the platform: explicit orders (``gm
order fab --target marco --option bang``), which posts a command calls for
and which secrets each post seals and opens, the inputs accepted now, and
scenario files. The rules themselves live in ``rules``, ``notation`` and
``views``; the MJ's steps in ``manifest``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gm.core.protocol import (
    NOTHING_SHOWN,
    Awaited,
    Command,
    Event,
    GameDef,
    PostRef,
    ScenarioStep,
    Shown,
    Table,
    table_for,
)
from gm.core.scenarios import check_entry_keys, check_top_keys
from gm.errors import InputError

from . import commands, events, notation, rules, views
from .commands import SetOrder
from .events import GameEnded, LootDrawn, OrdersRevealed, RoundResolved
from .manifest import INFO
from .model import OPTIONS, Phase, State

_ROUND_KEYS = ("bills", "orders", "folds", "force")


def parse(state: State, actor: str, text: str, table: Table | None = None) -> tuple[Command, ...]:
    return (notation.parse(state, actor, text, table),)


def order_from_params(
    state: State, actor: str, values: Mapping[str, Any], table: Table | None = None
) -> tuple[Command, ...]:
    """An explicit order: ``gm order fab --target marco --option bang``."""
    table = table_for(table, state.names)
    target = values.get("target")
    if not isinstance(target, str) or not target.strip():
        raise InputError("--target is required: the player aimed at", code="magot/no-target")
    option = values.get("option")
    if not isinstance(option, str):
        raise InputError("--option is required: triple, bang or click", code="magot/bad-option")
    player = rules.find_player(state, actor)
    aimed = table.seat_of(target.strip())
    return (SetOrder(player=player, target=aimed, option=notation.parse_option(option)),)


def awaiting(state: State) -> tuple[Awaited, ...]:
    """Orders from the living players who sent none; at the standoff, a
    choice from every living player: anyone may still fold or stay until the
    resolution, and naming only those who have not answered would tell the
    table who folded (silence is staying, R-4)."""
    if state.phase is Phase.STANDOFF:
        return tuple(Awaited(name, "choice", "stay or fold") for name in state.living)
    return tuple(Awaited(name, "private", "an order") for name in rules.awaiting(state))


def posts_after(before: State, events: Sequence[Event], after: State) -> tuple[PostRef, ...]:
    posts: list[PostRef] = []
    for event in events:
        if isinstance(event, LootDrawn):
            posts.append(PostRef("round", (event.round,)))
        elif isinstance(event, OrdersRevealed):
            posts.append(PostRef("reveal", (event.round,)))
        elif isinstance(event, RoundResolved):
            posts.append(PostRef("results", (event.round,)))
        elif isinstance(event, GameEnded):
            posts.append(PostRef("final"))
    return tuple(posts)


def latest_post(state: State) -> PostRef:
    if state.phase is Phase.OVER:
        return PostRef("final")
    if state.phase is Phase.ORDERS:
        return PostRef("round", (state.round,))
    if state.phase is Phase.STANDOFF:
        return PostRef("reveal", (state.round,))
    if state.round == 0:
        return PostRef("opening")
    return PostRef("results", (state.round,))


def shown(state: State, post: PostRef) -> Shown:
    """The reveal seals every order of its round; the results open the live
    shots' orders (a lowered, held or disabled order keeps its option, so
    its salt too, R-5); the disclosure opens everything once the game is over."""
    if post.kind == "reveal" and post.round is not None:
        return Shown(sealed=tuple(("order", post.round, p) for p in state.names))
    if post.kind == "results" and post.round is not None and 0 < post.round <= len(state.history):
        result = state.history[post.round - 1].resolution
        if result is not None:
            return Shown(opened=tuple(("order", post.round, s.shooter) for s in result.shots))
    if post.kind == "disclosure":
        return Shown(disclose_all=True)
    return NOTHING_SHOWN


def legal_inputs(state: State, table: Table | None = None) -> tuple[ScenarioStep, ...]:
    """Every order, choice and step the rules accept now (see ``GameDef.legal_inputs``).

    Orders are written ``target OPTION`` as a player would (« marco BANG »);
    a player who already ordered may replace or withdraw the order. Players
    are named by their names at ``table``.
    """
    name_of = table_for(table, state.names).name
    here = rules.phase_key(state)
    if state.phase is Phase.OVER:
        return ()
    if state.phase is Phase.DRAW:
        return (ScenarioStep(where=here, step="draw", values={"bills": None}),)
    if state.phase is Phase.ORDERS:
        inputs: list[ScenarioStep] = []
        for seat in state.living:
            gangster = state.player(seat)
            name = name_of(seat)
            for target in state.living:
                if target == seat:
                    continue
                for option in OPTIONS:
                    if gangster.remaining(option):
                        text = f"{name_of(target)} {rules.OPTION_NAMES[option]}"
                        inputs.append(ScenarioStep(where=here, actor=name, text=text))
            if state.order_of(seat) is not None:
                inputs.append(ScenarioStep(where=here, step="withdraw", values={"player": name}))
        force = bool(rules.awaiting(state))
        inputs.append(ScenarioStep(where=here, step="reveal", values={"force": force}))
        return tuple(inputs)
    inputs = []
    for name in map(name_of, state.living):
        inputs.append(ScenarioStep(where=here, actor=name, text="je me couche"))
        inputs.append(ScenarioStep(where=here, actor=name, text="je reste"))
        inputs.append(ScenarioStep(where=here, step="fold", values={"player": name}))
        inputs.append(ScenarioStep(where=here, step="stay", values={"player": name}))
    inputs.append(ScenarioStep(where=here, step="resolve", values={}))
    return tuple(inputs)


def scenario_steps(document: Mapping[str, Any], table: Table | None = None) -> list[ScenarioStep]:
    """The steps of a scenario file (``docs/scenarios.md``, magot part).

    Accepts the whole document (common keys are left to the platform) or
    only its game-specific part.
    """
    check_top_keys("magot", document, ("rounds",))
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

    check_entry_keys(where, entry, _ROUND_KEYS)
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
    steps += [ScenarioStep(where=where, actor=player, text=text) for player, text in orders.items()]
    steps.append(ScenarioStep(where=where, step="reveal", values={"force": force}))
    steps += [ScenarioStep(where=where, step="fold", values={"player": player}) for player in folds]
    steps.append(ScenarioStep(where=where, step="resolve", values={}))
    return steps


GAME: GameDef[State] = GameDef.from_modules(
    INFO,
    globals(),
    rules=rules,
    notation=notation,
    views=views,
    events=events,
    commands=commands,
)
"""Le Magot, as the platform sees it: this module's ``parse`` and
``order_from_params`` (orders as commands), the rest where the convention
looks (``GameDef.from_modules``)."""
