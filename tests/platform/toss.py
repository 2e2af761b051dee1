"""« Pile ou face »: a tiny game used to test the platform without Le Magot.

Players guess heads or tails by private message; the MJ's ``flip`` step draws
the coin from the fortune; a right guess scores a point. Three rounds. It is
registered only inside the tests, through ``gm.games._BUILTIN``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from gm.core.protocol import (
    GM,
    NOTHING_SHOWN,
    Awaited,
    Command,
    Draws,
    Event,
    GameDef,
    GameInfo,
    OptionSpec,
    ParamSpec,
    PostKind,
    PostRef,
    ScenarioStep,
    Shown,
    StepSpec,
)
from gm.errors import InputError, OrderSyntaxError, PhaseError


@dataclass(frozen=True)
class Guess(Command):
    kind = "toss.guess"
    player: str
    side: str


@dataclass(frozen=True)
class Flip(Command):
    kind = "toss.flip"


@dataclass(frozen=True)
class GuessSet(Event):
    kind = "toss.guess-set"
    sealed = True
    secret = "guess"
    round: int
    player: str
    side: str


@dataclass(frozen=True)
class CoinFlipped(Event):
    kind = "toss.coin-flipped"
    round: int
    side: str
    winners: tuple[str, ...]


@dataclass(frozen=True)
class State:
    players: tuple[str, ...]
    rounds: int
    round: int = 1
    guesses: tuple[tuple[str, str], ...] = ()
    scores: tuple[tuple[str, int], ...] = ()
    flips: tuple[str, ...] = ()


STEPS = (
    StepSpec(
        "flip",
        "Flip the coin.\n\nExample: gm flip",
        (ParamSpec("force", "flip even with missing guesses", kind="flag"),),
        lambda values: Flip(),
        deadline=True,
    ),
)
INFO = GameInfo(
    id="toss",
    title="Pile ou face",
    min_players=2,
    max_players=4,
    options=(OptionSpec("rounds", "number of rounds", "3"),),
    steps=STEPS,
    order_params=(ParamSpec("side", "pile or face"),),
    post_kinds=(PostKind("opening"), PostKind("results", ("round",))),
)

def configure(players: Sequence[str], options: Mapping[str, Any]) -> dict[str, Any]:
    unknown = set(options) - {"rounds"}
    if unknown:
        raise InputError(f"unknown option {sorted(unknown)[0]!r} (options: rounds)")
    try:
        rounds = int(options.get("rounds", 3))
    except ValueError:
        raise InputError(f"rounds must be a number, got {options['rounds']!r}") from None
    return {"rounds": rounds}

def initial_state(players: Sequence[str], options: Mapping[str, Any]) -> State:
    return State(tuple(players), options["rounds"], scores=tuple((p, 0) for p in players))

def evolve(state: State, event: Event) -> State:
    match event:
        case GuessSet():
            rest = tuple(g for g in state.guesses if g[0] != event.player)
            return replace(state, guesses=(*rest, (event.player, event.side)))
        case CoinFlipped():
            scores = tuple((p, s + (p in event.winners)) for p, s in state.scores)
            return replace(
                state,
                round=state.round + 1,
                guesses=(),
                scores=scores,
                flips=(*state.flips, event.side),
            )
    return state

def decide(state: State, actor: str, command: Command, draws: Draws) -> list[Event]:
    if is_over(state):
        raise PhaseError("the game is over", code="phase/game-over")
    match command:
        case Guess():
            return [GuessSet(state.round, command.player, command.side)]
        case Flip():
            side = ("pile", "face")[draws.stream(f"round-{state.round}/coin").below(2)]
            winners = tuple(p for p, s in state.guesses if s == side)
            return [CoinFlipped(state.round, side, winners)]
    raise AssertionError(command)

def parse(state: State, actor: str, text: str) -> tuple[Command, ...]:
    words = text.lower().split()
    sides = [w for w in words if w in ("pile", "face")]
    if len(sides) != 1:
        raise OrderSyntaxError(f"say pile or face, got {text!r}", code="order/syntax")
    return (Guess(actor, sides[0]),)

def order_from_params(state: State, actor: str, values: Mapping[str, Any]) -> tuple[Command, ...]:
    return parse(state, actor, str(values.get("side", "")))

def phase(state: State) -> str:
    return "over" if is_over(state) else f"round-{state.round}/guesses"

def awaiting(state: State) -> tuple[Awaited, ...]:
    if is_over(state):
        return ()
    guessed = {p for p, _ in state.guesses}
    return tuple(Awaited(p, "private", "a guess") for p in state.players if p not in guessed)

def next_step(state: State) -> str:
    return "nothing: the game is over" if is_over(state) else "gm flip"

def is_over(state: State) -> bool:
    return state.round > state.rounds

def posts_after(before: State, events: Sequence[Event], after: State) -> tuple[PostRef, ...]:
    if any(isinstance(e, CoinFlipped) for e in events):
        return (PostRef("results", (before.round,)),)
    return ()

def latest_post(state: State) -> PostRef:
    return PostRef("opening") if not state.flips else PostRef("results", (len(state.flips),))

def shown(state: State, post: PostRef) -> Shown:
    if post.kind == "results" and post.round is not None:
        return Shown(opened=tuple(("guess", post.round, p) for p in state.players))
    return NOTHING_SHOWN

def legal_inputs(state: State) -> tuple[ScenarioStep, ...]:
    return ()

def public_view(state: State, post: PostRef) -> Mapping[str, Any]:
    return {
        "players": list(state.players),
        "flips": list(state.flips),
        "scores": [{"name": p, "score": s} for p, s in state.scores],
    }

def player_view(state: State, player: str) -> Mapping[str, Any]:
    guess = dict(state.guesses).get(player)
    return {"guess": guess, "score": dict(state.scores)[player]}

def summary(state: State) -> dict[str, Any]:
    return {
        "game": INFO.id,
        "finished": is_over(state),
        "players": [{"name": p, "score": s} for p, s in state.scores],
        "rounds": [{"number": i + 1, "side": f} for i, f in enumerate(state.flips)],
    }

def scenario(document: Mapping[str, Any]) -> list[ScenarioStep]:
    steps: list[ScenarioStep] = []
    for i, round_ in enumerate(document.get("rounds", []), start=1):
        for player, text in round_.get("guesses", {}).items():
            steps.append(ScenarioStep(f"round {i}", actor=player, text=text))
        steps.append(ScenarioStep(f"round {i}", actor=GM, step="flip", values={}))
    return steps


GAME: GameDef[State] = GameDef(
    info=INFO,
    events=(GuessSet, CoinFlipped),
    commands=(Guess, Flip),
    configure=configure,
    initial_state=initial_state,
    evolve=evolve,
    decide=decide,
    parse=parse,
    order_from_params=order_from_params,
    phase=phase,
    awaiting=awaiting,
    next_step=next_step,
    is_over=is_over,
    posts_after=posts_after,
    latest_post=latest_post,
    public_view=public_view,
    shown=shown,
    player_view=player_view,
    summary=summary,
    legal_inputs=legal_inputs,
    scenario=scenario,
)
