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
from gm.core.scenarios import check_entry_keys, check_top_keys
from gm.errors import InputError

from . import notation, rules, views
from .commands import SetOrder
from .events import EVENTS, GameEnded, LootDrawn, OrdersRevealed, RoundResolved
from .manifest import INFO
from .model import OPTIONS, Phase, State

_ROUND_KEYS = ("bills", "orders", "folds", "force")


class Magot:
    """Le Magot, as the platform sees it. Stateless: every method is pure."""

    id: str = INFO.id
    title: str = INFO.title
    min_players: int = INFO.min_players
    max_players: int = INFO.max_players
    options: tuple[OptionSpec, ...] = INFO.options
    steps: tuple[StepSpec, ...] = INFO.steps
    events: tuple[type[Event], ...] = EVENTS
    order_params: tuple[ParamSpec, ...] = INFO.order_params

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

    def legal_inputs(self, state: State) -> tuple[ScenarioStep, ...]:
        return legal_inputs(state)


def legal_inputs(state: State) -> tuple[ScenarioStep, ...]:
    """Every order, choice and step the rules accept now (see ``Game.legal_inputs``).

    Orders are written ``target OPTION`` as a player would (« marco BANG »);
    a player who already ordered may replace or withdraw the order.
    """
    here = rules.phase_key(state)
    if state.phase is Phase.OVER:
        return ()
    if state.phase is Phase.DRAW:
        return (ScenarioStep(where=here, step="draw", values={"bills": None}),)
    if state.phase is Phase.ORDERS:
        inputs: list[ScenarioStep] = []
        for name in state.living:
            gangster = state.player(name)
            for target in state.living:
                if target == name:
                    continue
                for option in OPTIONS:
                    if gangster.remaining(option):
                        text = f"{target} {rules.OPTION_NAMES[option]}"
                        inputs.append(ScenarioStep(where=here, actor=name, text=text))
            if state.order_of(name) is not None:
                inputs.append(ScenarioStep(where=here, step="withdraw", values={"player": name}))
        force = bool(rules.awaiting(state))
        inputs.append(ScenarioStep(where=here, step="reveal", values={"force": force}))
        return tuple(inputs)
    inputs = []
    for name in state.living:
        inputs.append(ScenarioStep(where=here, actor=name, text="je me couche"))
        inputs.append(ScenarioStep(where=here, actor=name, text="je reste"))
        inputs.append(ScenarioStep(where=here, step="fold", values={"player": name}))
        inputs.append(ScenarioStep(where=here, step="stay", values={"player": name}))
    inputs.append(ScenarioStep(where=here, step="resolve", values={}))
    return tuple(inputs)


def scenario_steps(document: Mapping[str, Any]) -> list[ScenarioStep]:
    """The steps of a scenario file (``shared/scenarios.md``, magot part).

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
