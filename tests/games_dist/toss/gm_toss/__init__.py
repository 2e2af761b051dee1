"""« Pile ou face »: a small game that exercises the platform without Le Magot.

A distribution of its own (``tests/games_dist/toss``: this package, its
templates and rules page, and a ``pyproject.toml`` registering it in the
entry point group ``gm.games``), installed only while a test needs it
(``tests/game_dists.py``): gm finds it as it finds any game from another
distribution, nothing in gm names it. It uses every capability a seed game
needs from the platform, so that the next games (Colt Express, Rattlesnake
City) are only a game package:

* **several secrets per player per round**: each player bets, by private
  message, on two coins (« pile face »): two sealed guesses, keyed by round,
  player and coin (``("guess", 3, "ana", 2)``); one message carries both
  (``parse`` returns two commands), or one at a time (« pièce 2 : face »);
* **draws by purpose**: ``gm flip`` tosses coin 1 and coin 2, each from its
  own stream (``round-3/coin-1``, ``round-3/coin-2``);
* **turn order and choices during resolution**: each right guess scores a
  point; then, in turn order (the first player rotates each round), each
  player who scored says in the thread whom they rob of a point (« je vole
  bob ») or that they keep it (« je garde »): a public move, on their turn;
* **defaults drawn by the fortune**: ``gm default ana`` applies the rule for
  a silent robber: the fortune picks the victim among those who can lose a
  point (stream ``round-3/steal-2``);
* **post addresses with two coordinates**: each robbery is post ``steal r.k``
  (round r, k-th robbery); the results post is ``results r``;
* **the game's own filter and a fixed-width diagram** (``coin`` and the
  scoreboard drawn in a code block).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from gm.core.names import fold, mentions
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
    Table,
    table_for,
)
from gm.errors import IllegalOrderError, InputError, OrderSyntaxError, PhaseError

SIDES = ("pile", "face")
COINS = (1, 2)


# --- commands -------------------------------------------------------------------


@dataclass(frozen=True)
class Guess(Command):
    """Bet ``side`` on coin ``coin`` this round (secret)."""

    kind: ClassVar[str] = "toss.guess"
    player: str
    coin: int
    side: str


@dataclass(frozen=True)
class Flip(Command):
    """Toss both coins (the MJ). ``force``: even with missing guesses."""

    kind: ClassVar[str] = "toss.flip"
    force: bool = False


@dataclass(frozen=True)
class Steal(Command):
    """On their turn, ``player`` robs ``victim`` of a point (None: keeps it)."""

    kind: ClassVar[str] = "toss.steal"
    player: str
    victim: str | None


# --- events ---------------------------------------------------------------------


@dataclass(frozen=True)
class GuessSet(Event):
    kind: ClassVar[str] = "toss.guess-set"
    sealed: ClassVar[bool] = True
    secret: ClassVar[str] = "guess"
    secret_fields: ClassVar[tuple[str, ...]] = ("round", "player", "coin")
    round: int
    player: str
    coin: int
    side: str


@dataclass(frozen=True)
class CoinsFlipped(Event):
    """Both coins fell; ``scored`` are the players who guessed one right, in
    turn order from the round's first player: they rob in that order."""

    kind: ClassVar[str] = "toss.coins-flipped"
    round: int
    coins: tuple[str, ...]
    points: tuple[tuple[str, int], ...]
    scored: tuple[str, ...]


@dataclass(frozen=True)
class Stolen(Event):
    kind: ClassVar[str] = "toss.stolen"
    round: int
    turn: int
    player: str
    victim: str | None


# --- state ----------------------------------------------------------------------


@dataclass(frozen=True)
class State:
    players: tuple[str, ...]
    rounds: int
    round: int = 1
    guesses: tuple[tuple[str, int, str], ...] = ()
    scores: tuple[tuple[str, int], ...] = ()
    flips: tuple[tuple[str, ...], ...] = ()
    robbers: tuple[str, ...] = ()
    """Who still robs this round, in turn order; the first is to move."""
    robbed: tuple[tuple[int, int, str, str | None], ...] = ()
    """Every robbery: (round, turn, player, victim)."""

    def score(self, name: str) -> int:
        return dict(self.scores)[name]

    @property
    def stealing(self) -> bool:
        return bool(self.robbers)

    def guess(self, name: str, coin: int) -> str | None:
        return next((s for p, c, s in self.guesses if p == name and c == coin), None)


# --- rules ----------------------------------------------------------------------


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


def first_player(state: State) -> int:
    """The index of the round's first player: it moves on each round."""
    return (state.round - 1) % len(state.players)


def in_turn_order(state: State, names: Sequence[str]) -> tuple[str, ...]:
    start = first_player(state)
    order = state.players[start:] + state.players[:start]
    return tuple(p for p in order if p in names)


def evolve(state: State, event: Event) -> State:
    match event:
        case GuessSet():
            rest = tuple(g for g in state.guesses if g[:2] != (event.player, event.coin))
            return replace(state, guesses=(*rest, (event.player, event.coin, event.side)))
        case CoinsFlipped():
            scores = tuple((p, s + dict(event.points).get(p, 0)) for p, s in state.scores)
            after = replace(state, scores=scores, flips=(*state.flips, event.coins))
            return _next_round(replace(after, robbers=event.scored))
        case Stolen():
            scores = tuple(
                (p, s + (p == event.player) - (p == event.victim)) if event.victim else (p, s)
                for p, s in state.scores
            )
            robbed = (*state.robbed, (event.round, event.turn, event.player, event.victim))
            after = replace(state, scores=scores, robbers=state.robbers[1:], robbed=robbed)
            return _next_round(after)
    return state


def _next_round(state: State) -> State:
    if state.robbers:
        return state
    return replace(state, round=state.round + 1, guesses=())


def victims(state: State, robber: str) -> tuple[str, ...]:
    return tuple(p for p in state.players if p != robber and state.score(p) > 0)


def decide(state: State, actor: str, command: Command, draws: Draws) -> list[Event]:
    if is_over(state):
        raise PhaseError("the game is over", code="phase/game-over")
    match command:
        case Guess():
            if state.stealing:
                raise PhaseError(
                    f"the coins have fallen: it is {state.robbers[0]}'s turn to rob",
                    code="toss/not-now",
                )
            return [GuessSet(state.round, command.player, command.coin, command.side)]
        case Flip():
            if actor != GM:
                raise IllegalOrderError("only the MJ flips", code="toss/gm-only")
            if state.stealing:
                raise PhaseError(f"{state.robbers[0]} must rob first", code="toss/not-now")
            missing = [p for p in state.players for c in COINS if state.guess(p, c) is None]
            if missing and not command.force:
                raise PhaseError(
                    f"guesses missing from {', '.join(dict.fromkeys(missing))} (gm flip --force)",
                    code="toss/missing",
                )
            coins = tuple(
                SIDES[draws.stream(f"round-{state.round}/coin-{c}").below(2)] for c in COINS
            )
            points = {
                p: sum(state.guess(p, c) == coins[c - 1] for c in COINS) for p in state.players
            }
            scored = in_turn_order(state, [p for p, n in points.items() if n])
            return [CoinsFlipped(state.round, coins, tuple(points.items()), scored)]
        case Steal():
            if not state.stealing:
                raise PhaseError("nobody robs now: the coins have not fallen", code="toss/not-now")
            if command.player != state.robbers[0]:
                raise IllegalOrderError(
                    f"it is {state.robbers[0]}'s turn, not {command.player}'s",
                    code="toss/not-your-turn",
                )
            if command.victim is not None and command.victim not in victims(state, command.player):
                raise IllegalOrderError(
                    f"{command.victim} has no point to lose"
                    f" (can be robbed: {', '.join(victims(state, command.player)) or 'nobody'})",
                    code="toss/no-point",
                )
            turn = sum(1 for r in state.robbed if r[0] == state.round) + 1
            return [Stolen(state.round, turn, command.player, command.victim)]
    raise AssertionError(command)


def default_for(state: State, player: str) -> Command:
    """A silent robber robs someone the fortune picks among those who can lose a point."""
    if not state.stealing or state.robbers[0] != player:
        raise PhaseError(f"nothing is due from {player} now", code="toss/nothing-due")
    return DefaultSteal(player)


@dataclass(frozen=True)
class DefaultSteal(Command):
    """The rule for a silent robber: the fortune picks the victim."""

    kind: ClassVar[str] = "toss.default-steal"
    player: str


def decide_with_default(state: State, actor: str, command: Command, draws: Draws) -> list[Event]:
    if isinstance(command, DefaultSteal):
        options = victims(state, command.player)
        turn = sum(1 for r in state.robbed if r[0] == state.round) + 1
        victim = None
        if options:
            chance = draws.stream(f"round-{state.round}/steal-{turn}")
            victim = options[chance.below(len(options))]
        return decide(state, actor, Steal(command.player, victim), draws)
    return decide(state, actor, command, draws)


# --- notation -------------------------------------------------------------------


def _words(text: str) -> list[str]:
    return fold(text).replace(":", " ").replace(",", " ").split()


def parse(state: State, actor: str, text: str, table: Table | None = None) -> tuple[Command, ...]:
    words = _words(text)
    if state.stealing:
        if "garde" in words:
            return (Steal(actor, None),)
        # players are found by their current names, several words included
        table = table_for(table, state.players)
        names = list(dict.fromkeys(m.seat for m in mentions(words, table.labels, _words)))
        if "vole" in words and len(names) == 1:
            return (Steal(actor, names[0]),)
        raise OrderSyntaxError(
            f"say « je vole <joueur> » or « je garde », got {text!r}", code="order/syntax"
        )
    sides = [w for w in words if w in SIDES]
    if "piece" in words:
        numbers = [int(w) for w in words if w in ("1", "2")]
        if len(numbers) == 1 and len(sides) == 1:
            return (Guess(actor, numbers[0], sides[0]),)
    if len(sides) == 2:
        return tuple(Guess(actor, coin, side) for coin, side in zip(COINS, sides, strict=True))
    raise OrderSyntaxError(
        f"say pile or face for both coins (« pile face »), got {text!r}", code="order/syntax"
    )


def order_from_params(
    state: State, actor: str, values: Mapping[str, Any], table: Table | None = None
) -> tuple[Command, ...]:
    return parse(state, actor, str(values.get("side", "")), table)


# --- what the platform asks ----------------------------------------------------


def phase(state: State) -> str:
    if is_over(state):
        return "over"
    if state.stealing:
        return f"round-{state.round}/steal-{state.robbers[0]}"
    return f"round-{state.round}/guesses"


def awaiting(state: State) -> tuple[Awaited, ...]:
    if is_over(state):
        return ()
    if state.stealing:
        return (Awaited(state.robbers[0], "public", "whom to rob"),)
    return tuple(
        Awaited(p, "private", f"a guess for coin {c}")
        for p in state.players
        for c in COINS
        if state.guess(p, c) is None
    )


def next_step(state: State) -> str:
    if is_over(state):
        return "nothing: the game is over"
    if state.stealing:
        return f"gm order {state.robbers[0]} (their robbery), or gm default {state.robbers[0]}"
    return "gm flip"


def is_over(state: State) -> bool:
    return state.round > state.rounds


def posts_after(before: State, events: Sequence[Event], after: State) -> tuple[PostRef, ...]:
    posts = []
    for event in events:
        if isinstance(event, CoinsFlipped):
            posts.append(PostRef("results", (event.round,)))
        elif isinstance(event, Stolen):
            posts.append(PostRef("steal", (event.round, event.turn)))
    if is_over(after) and not is_over(before):
        posts.append(PostRef("final"))
    return tuple(posts)


def latest_post(state: State) -> PostRef:
    if is_over(state):
        return PostRef("final")
    return PostRef("opening") if not state.flips else PostRef("results", (len(state.flips),))


def shown(state: State, post: PostRef) -> Shown:
    """The results open both guesses of every player of that round."""
    if post.kind == "results" and post.round is not None:
        return Shown(
            opened=tuple(("guess", post.round, p, c) for p in state.players for c in COINS)
        )
    if post.kind == "final":
        return Shown(disclose_all=True)
    return NOTHING_SHOWN


def public_view(state: State, post: PostRef, table: Table | None = None) -> Mapping[str, Any]:
    name = table_for(table, state.players).name
    base = {
        "players": [name(p) for p in state.players],
        "scores": [{"name": name(p), "score": s} for p, s in state.scores],
        "robbers": [name(p) for p in state.robbers],
    }
    if post.kind == "results" and post.round is not None:
        return base | {"round": post.round, "coins": list(state.flips[post.round - 1])}
    if post.kind == "steal" and len(post.at) == 2:
        found = [r for r in state.robbed if (r[0], r[1]) == post.at]
        if not found:
            raise InputError(f"no robbery {post.address}", code="toss/no-such-post")
        _, _, robber, victim = found[0]
        return base | {
            "round": post.at[0],
            "turn": post.at[1],
            "robber": name(robber),
            "victim": None if victim is None else name(victim),
        }
    return base


def player_view(state: State, player: str, table: Table | None = None) -> Mapping[str, Any]:
    guesses = [state.guess(player, c) for c in COINS]
    return {"guesses": [g or "?" for g in guesses], "score": state.score(player)}


def summary(state: State, table: Table | None = None) -> dict[str, Any]:
    name = table_for(table, state.players).name
    return {
        "game": "toss",
        "finished": is_over(state),
        "players": [{"name": name(p), "score": s} for p, s in state.scores],
        "rounds": [{"number": i + 1, "coins": list(f)} for i, f in enumerate(state.flips)],
    }


def legal_inputs(state: State, table: Table | None = None) -> tuple[ScenarioStep, ...]:
    name = table_for(table, state.players).name
    here = phase(state)
    if is_over(state):
        return ()
    if state.stealing:
        robber = name(state.robbers[0])
        out = [ScenarioStep(here, actor=robber, text="je garde")]
        out += [
            ScenarioStep(here, actor=robber, text=f"je vole {name(v)}")
            for v in victims(state, state.robbers[0])
        ]
        out.append(ScenarioStep(here, step="default", values={"player": robber}))
        return tuple(out)
    out = [
        ScenarioStep(here, actor=name(p), text=f"{a} {b}")
        for p in state.players
        for a in SIDES
        for b in SIDES
    ]
    out += [
        ScenarioStep(here, actor=name(p), text=f"pièce 2 : {s}")
        for p in state.players
        for s in SIDES
    ]
    out.append(ScenarioStep(here, step="flip", values={"force": True}))
    return tuple(out)


def scenario(document: Mapping[str, Any], table: Table | None = None) -> list[ScenarioStep]:
    steps: list[ScenarioStep] = []
    for i, round_ in enumerate(document.get("rounds", []), start=1):
        for player, text in round_.get("guesses", {}).items():
            steps.append(ScenarioStep(f"round {i}", actor=player, text=text))
        steps.append(ScenarioStep(f"round {i}", step="flip", values={"force": True}))
        for player, text in round_.get("steals", {}).items():
            steps.append(ScenarioStep(f"round {i}", actor=player, text=text))
    return steps


def coin(side: str) -> str:
    """The game's own filter: « pile » → « 🪙 pile »."""
    return f"🪙 {side}"


def scoreboard(scores: Sequence[Mapping[str, Any]]) -> str:
    """The scores drawn in fixed width (for ``|diagram``): a bar of ``#`` each."""
    width = max(len(row["name"]) for row in scores)
    return "\n".join(f"{row['name']:<{width}} |{'#' * row['score']}" for row in scores)


STEPS = (
    StepSpec(
        "flip",
        "Flip both coins.\n\nExample: gm flip",
        (ParamSpec("force", "flip even with missing guesses", kind="flag"),),
        lambda values, table: Flip(force=bool(values.get("force"))),
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
    post_kinds=(
        PostKind("opening"),
        PostKind("results", ("round",)),
        PostKind("steal", ("round", "turn")),
        PostKind("final"),
    ),
)

EVENTS = (GuessSet, CoinsFlipped, Stolen)
COMMANDS = (Guess, Flip, Steal, DefaultSteal)

# Everything is in this one module, under the names GameDef.from_modules looks for.
GAME: GameDef[State] = GameDef.from_modules(
    INFO, globals(), decide=decide_with_default, filters={"coin": coin, "scoreboard": scoreboard}
)
