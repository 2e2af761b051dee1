"""The rules of Colt Express: ``decide`` and ``evolve``.

``decide`` checks a command against the state and returns the events it
causes, or raises a ``gm.errors`` error with a stable code (``colt/…``) and
the ``params`` the French refusal needs; ``evolve`` applies one stored event
and never refuses it. Rulings ``R-n`` are those of ``gm/games/colt/rules.md``.

The Action runs by itself: after a command, ``_advance`` resolves the cards
of the pile in order while each has one legal outcome, or instructions sent
in advance that single one out (R-6), and stops at the first card whose
owner must choose; after the last card it applies the round's event (for
Pickpocket, once every bandit concerned has answered) and ends the round.
A game set up by hand (a scenario: ``scripted``) draws nothing and stops at
every card, each awaiting its entry.

The fortune names each draw by its purpose: ``setup/characters``,
``setup/cars``, ``setup/purses``, ``round-2/card``, ``round-2/deck/ana``,
``round-3/purse/4`` (the purse step 4 takes or drops, R-7),
``round-5/pickpocket/ana``, ``round-3/default/4`` (R-6) and
``round-5/default/pickpocket-ana``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from gm.core import rules as core_rules
from gm.core.fortune import PURPOSE
from gm.core.names import find_name, fold, slugify
from gm.core.protocol import Command, Draws, Event
from gm.errors import (
    AmbiguousOrderError,
    IllegalOrderError,
    InputError,
    NotFoundError,
    OrderError,
    OrderSyntaxError,
    PhaseError,
    quote_choices,
)

from . import action
from .cards import (
    ACTION_DECK,
    CHARACTERS,
    DOC_HAND,
    DRAW,
    HAND,
    JEWEL,
    PRINTED_CARS,
    PURSE_STOCK,
    ROUND_CARDS,
    ROUNDS,
    START_PURSE,
    STATIONS,
    STRONGBOX,
    Card,
    Happening,
    Turn,
    find_round_card,
    happening,
    layout,
    sort_cards,
)
from .commands import (
    ApplyDefault,
    Choose,
    DrawCards,
    OpenRound,
    Pickpocket,
    PlayCard,
    SetUp,
)
from .events import (
    CardHidden,
    CardPlayed,
    CardResolved,
    CardsDrawn,
    DeckDealt,
    EventResolved,
    InstructionGiven,
    LootPlaced,
    PickpocketChosen,
    PurseMoved,
    RoundOpened,
    TrainSet,
)
from .model import (
    VOID,
    Bandit,
    Choice,
    Effect,
    EventRecord,
    Fx,
    Instruction,
    Loot,
    Outcome,
    Phase,
    PlanMove,
    PlanTurn,
    Played,
    RoundRecord,
    State,
    StepRecord,
)
from .words import GAME_WORDS, phrase

MIN_PLAYERS = 3
MAX_PLAYERS = 6


def configure(players: Sequence[str], options: Mapping[str, Any]) -> dict[str, Any]:
    """Colt Express has no options; player names must not read as game words."""
    if options:
        raise InputError(
            f"colt has no options (got {', '.join(sorted(options))}): characters, cars"
            " and purses are given to gm setup",
            code="colt/no-options",
            params={"options": sorted(options)},
        )
    for name in players:
        key = fold(name)
        if key in GAME_WORDS or key.isdigit():
            raise InputError(
                f"a player cannot be called {name!r} at Colt Express: it reads as a word of"
                " the game",
                code="colt/player-name",
                params={"name": name},
            )
    return {}


def initial_state(players: Sequence[str], options: Mapping[str, Any]) -> State:
    return State(players=tuple(players))


# --- helpers ---------------------------------------------------------------------------


def find_player(state: State, name: str) -> str:
    """The canonical name of the player ``name`` designates: their name or,
    once the train is set, their character's (case and accents ignored)."""
    found = find_name(state.players, name)
    if found is not None:
        return found
    by_character = {b.character: b.name for b in state.bandits}
    found = find_name(by_character, name)
    if found is not None:
        return by_character[found]
    raise NotFoundError(
        f"no bandit named {name!r} (players: {quote_choices(state.players)})",
        code="colt/unknown-player",
        params={"name": name, "players": list(state.players)},
    )


def draw_name(state: State, player: str) -> str:
    """How a player is named in a draw's purpose: their name as a slug
    (``round-2/deck/ana``), or their seat when that is not a unique slug."""
    slugs = [slugify(p) for p in state.players]
    slug = slugify(player)
    if slug and PURPOSE.match(slug) and slugs.count(slug) == 1:
        return slug
    return f"seat-{state.players.index(player) + 1}"


def phase_key(state: State) -> str:
    """Where the game stands, stable while the same input is awaited."""
    if state.phase is Phase.SETUP:
        return "setup"
    if state.phase is Phase.OVER:
        return "over"
    if state.phase is Phase.READY:
        return f"round-{state.round + 1}/ready"
    if state.phase is Phase.PLAN:
        return f"round-{state.round}/plan-{state.plan_turn + 1}"
    if state.phase is Phase.ACTION:
        return f"round-{state.round}/action-{state.step + 1}"
    return f"round-{state.round}/pickpocket"


def is_over(state: State) -> bool:
    return state.phase is Phase.OVER


def ghost_first_turn(state: State, turn: PlanTurn) -> bool:
    """Whether ``turn`` is Ghost's first turn of the round (a face-down play allowed)."""
    if state.character(turn.player) != "Ghost":
        return False
    first = next(t for t in state.current.turns if t.player == turn.player)
    return first.number == turn.number


def schedule(players: Sequence[str], round_: int, card: str) -> tuple[PlanTurn, ...]:
    """The turns of a round's Plan: each symbol of its card, clockwise from the
    first player; a speed-up symbol gives each two turns in a row; a switching
    symbol goes counter-clockwise from the first player."""
    n = len(players)
    first = (round_ - 1) % n
    clockwise = [players[(first + i) % n] for i in range(n)]
    counter = [players[(first - i) % n] for i in range(n)]
    turns: list[PlanTurn] = []
    for symbol, kind in enumerate(layout(card, n), start=1):
        if kind is Turn.SWITCH:
            order = counter
        elif kind is Turn.SPEED:
            order = [p for p in clockwise for _ in (0, 1)]
        else:
            order = clockwise
        for player in order:
            turns.append(PlanTurn(len(turns) + 1, player, kind, symbol))
    return tuple(turns)


def pickpockets_due(state: State) -> tuple[str, ...]:
    """At Pickpocket, the bandits who must still say whether they take a purse."""
    if state.phase is not Phase.EVENT or happening(state.current.card) is not Happening.PICKPOCKET:
        return ()
    answered = {p for p, _, _ in state.pickpocket}
    return tuple(p for p in action.pickpockets(state) if p not in answered)


def round_card(state: State) -> str:
    return state.current.card


def not_now(state: State, what: str) -> PhaseError:
    return PhaseError(
        f"{what} is not possible now ({phase_key(state)}); next: {next_step(state)}",
        code="colt/not-now",
        params={"what": what, "phase": str(state.phase), "phase_key": phase_key(state)},
    )


def next_step(state: State) -> str:
    """A short English hint for the MJ: what to do next."""
    if state.phase is Phase.SETUP:
        return "gm setup (characters, cars and purses: given or drawn)"
    if state.phase is Phase.READY:
        return f"gm round (opens round {state.round + 1})"
    if state.phase is Phase.PLAN:
        turn = state.turn
        assert turn is not None
        return f"gm order {turn.player} (their Plan turn), or gm default {turn.player} (a draw)"
    if state.phase is Phase.ACTION:
        played = state.resolving
        assert played is not None
        return (
            f"gm order {played.player} (their choice for card {state.step + 1}),"
            f" or gm default {played.player} (R-6)"
        )
    if state.phase is Phase.EVENT:
        due = pickpockets_due(state)
        return f"gm order {due[0]} (Pickpocket), or gm default {due[0]}"
    return "nothing: the game is over"


# --- decide ----------------------------------------------------------------------------


class Run(core_rules.Run[State]):
    """The events of one command, applied as they are decided; and the first
    step the command resolves (what its ``action`` post is numbered by)."""

    def __init__(self, state: State) -> None:
        super().__init__(state, evolve)
        self.first: int | None = None


def decide(state: State, actor: str, command: Command, draws: Draws) -> list[Event]:
    """The events ``command`` causes, or the error that refuses it."""
    if state.phase is Phase.OVER:
        raise core_rules.game_over(command)
    run = Run(state)
    match command:
        case SetUp():
            _setup(run, actor, command, draws)
        case OpenRound():
            _open_round(run, actor, command, draws)
        case PlayCard():
            _play(run, actor, command, draws)
        case DrawCards():
            _draw(run, actor, command.player, draws)
        case Choose():
            _choose(run, actor, command, draws)
        case Pickpocket():
            _pickpocket(run, actor, command.player, command.take, command.value, draws)
        case ApplyDefault():
            _default(run, actor, command, draws)
        case _:
            raise core_rules.unknown_command("colt", command)
    return run.events


def _acting(state: State, actor: str, player: str) -> str:
    return core_rules.acting_player("colt", lambda n: find_player(state, n), actor, player)


# setup ------------------------------------------------------------------------------


def _setup(run: Run, actor: str, command: SetUp, draws: Draws) -> None:
    state = run.state
    core_rules.require_gm("colt", actor, command)
    if state.phase is not Phase.SETUP:
        raise not_now(state, "placing the train")
    n = len(state.players)
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise InputError(
            f"Colt Express takes {MIN_PLAYERS} to {MAX_PLAYERS} players (R-2), not {n}",
            code="colt/players",
            params={"players": n},
        )
    scripted = command.purses is not None
    chosen = _characters(state, command.characters, require_all=scripted)
    if scripted and command.cars is None:
        raise InputError(
            "a train set up by hand gives its cars too (--cars 4,1,3)",
            code="colt/setup-incomplete",
            params={"missing": "cars"},
        )
    left = [c for c in CHARACTERS if c not in chosen.values()]
    free = [p for p in state.players if p not in chosen]
    if free:
        dealt = draws.stream("setup/characters").shuffle(left)
        chosen.update(zip(free, dealt, strict=False))
    if command.cars is not None:
        cars = _check_cars(command.cars, n)
    else:
        cars = tuple(draws.stream("setup/cars").shuffle(range(1, 7))[:n])
    stock = _stock(n)
    if command.purses is not None:
        purses = _check_purses(command.purses, cars, stock)
    else:
        shuffled = draws.stream("setup/purses").shuffle(stock)
        purses, start = [], 0
        for car in cars:
            count = PRINTED_CARS[car][0]
            purses.append(tuple(sorted(shuffled[start : start + count])))
            start += count
    run.emit(
        TrainSet(tuple((p, chosen[p]) for p in state.players), cars, scripted),
        LootPlaced(tuple(tuple(sorted(p)) for p in purses)),
    )


def _stock(players: int) -> list[int]:
    """The purses left for the cars once each bandit has their 250 $ one (R-3)."""
    stock = list(PURSE_STOCK)
    for _ in range(players):
        stock.remove(START_PURSE)
    return stock


def _characters(
    state: State, given: tuple[tuple[str, str], ...], require_all: bool
) -> dict[str, str]:
    chosen: dict[str, str] = {}
    for name, character in given:
        player = find_player(state, name)
        found = find_name(CHARACTERS, character)
        if found is None:
            raise InputError(
                f"no character {character!r} (characters: {', '.join(CHARACTERS)})",
                code="colt/unknown-character",
                params={"character": character},
            )
        if player in chosen:
            raise InputError(
                f"{player} is given two characters",
                code="colt/character-twice",
                params={"player": player},
            )
        if found in chosen.values():
            raise InputError(
                f"{found} is given to two players",
                code="colt/character-twice",
                params={"character": found},
            )
        chosen[player] = found
    for player in state.players:  # a player named like a character plays them
        same = find_name(CHARACTERS, player)
        if same is None:
            continue
        if chosen.get(player, same) != same or any(
            c == same and p != player for p, c in chosen.items()
        ):
            raise InputError(
                f"{player} is named like the character {same}: {player} plays {same}, or"
                " nobody does (a bandit is named by their player's or their character's name)",
                code="colt/character-name",
                params={"player": player, "character": same},
            )
        chosen[player] = same
    if require_all and len(chosen) < len(state.players):
        missing = [p for p in state.players if p not in chosen]
        raise InputError(
            f"a train set up by hand gives every player's character (missing: {', '.join(missing)})",
            code="colt/setup-incomplete",
            params={"missing": "characters", "players": missing},
        )
    return chosen


def _check_cars(cars: tuple[int, ...], n: int) -> tuple[int, ...]:
    if len(cars) != n or len(set(cars)) != n or not all(1 <= c <= 6 for c in cars):
        raise InputError(
            f"the train takes {n} different printed cars among 1 to 6, one per player"
            f" (got {', '.join(map(str, cars))})",
            code="colt/bad-cars",
            params={"cars": list(cars), "expected": n},
        )
    return tuple(cars)


def _check_purses(
    purses: tuple[tuple[int, ...], ...], cars: tuple[int, ...], stock: list[int]
) -> list[tuple[int, ...]]:
    if len(purses) != len(cars):
        raise InputError(
            f"give the purses of each of the {len(cars)} cars (got {len(purses)} lists)",
            code="colt/bad-purses",
            params={"cars": list(cars)},
        )
    for car, values in zip(cars, purses, strict=True):
        if len(values) != PRINTED_CARS[car][0]:
            raise InputError(
                f"car {car} holds {PRINTED_CARS[car][0]} purse(s) (R-1), got {len(values)}",
                code="colt/bad-purses",
                params={"car": car, "expected": PRINTED_CARS[car][0], "got": len(values)},
            )
    wanted = Counter(v for values in purses for v in values)
    have = Counter(stock)
    over = sorted(v for v in wanted if wanted[v] > have[v])
    if over:
        raise InputError(
            f"not that many purses of {over[0]} $: the cars' purses come from those left once"
            f" each bandit has their 250 $ one ({', '.join(map(str, sorted(stock)))})",
            code="colt/bad-purses",
            params={"value": over[0]},
        )
    return [tuple(sorted(v)) for v in purses]


# rounds -------------------------------------------------------------------------------


def deck_of(bandit: Bandit) -> tuple[Card, ...]:
    """A bandit's whole deck, sorted: the 10 actions and one Balle per bullet received."""
    return (*ACTION_DECK, *(Card.BULLET,) * bandit.received)


def available_cards(state: State, round_: int) -> tuple[str, ...]:
    """The cards round ``round_`` may use: an unused round card (1–4), a station (5)."""
    if round_ == ROUNDS:
        return tuple(STATIONS)
    used = {r.card for r in state.history}
    return tuple(c for c in ROUND_CARDS if c not in used)


def _open_round(run: Run, actor: str, command: OpenRound, draws: Draws) -> None:
    state = run.state
    core_rules.require_gm("colt", actor, command)
    if state.phase is not Phase.READY:
        raise not_now(state, "opening a round")
    r = state.round + 1
    options = available_cards(state, r)
    if state.scripted:
        if command.card is None or command.decks is None:
            raise InputError(
                "a game set up by hand names each round's card and gives every deck",
                code="colt/round-incomplete",
                params={"round": r},
            )
        card = find_round_card(command.card)
        if card is None or card not in options:
            kind = "a station card" if r == ROUNDS else "a round card not played yet"
            raise InputError(
                f"round {r} takes {kind}, not {command.card!r} (possible: {', '.join(options)})",
                code="colt/round-card",
                params={"round": r, "card": command.card, "possible": list(options)},
            )
        decks = _check_decks(state, command.decks)
    else:
        if command.card is not None or command.decks is not None:
            raise InputError(
                "the fortune draws the round card and shuffles the decks in this game; only a"
                " game set up by hand (gm setup --purses …) gives them",
                code="colt/round-drawn",
                params={"round": r},
            )
        card = options[draws.stream(f"round-{r}/card").below(len(options))]
        decks = {
            p: tuple(
                draws.stream(f"round-{r}/deck/{draw_name(state, p)}").shuffle(
                    deck_of(state.bandit(p))
                )
            )
            for p in state.players
        }
    run.emit(RoundOpened(r, card), *(DeckDealt(r, p, decks[p]) for p in state.players))


def _check_decks(
    state: State, decks: tuple[tuple[str, tuple[Card, ...]], ...]
) -> dict[str, tuple[Card, ...]]:
    out: dict[str, tuple[Card, ...]] = {}
    for name, cards in decks:
        player = find_player(state, name)
        expected = deck_of(state.bandit(player))
        if sort_cards(cards) != expected:
            raise InputError(
                f"{player}'s deck must hold their 10 action cards and {len(expected) - 10}"
                f" Balle (one per bullet received), got {len(cards)} cards",
                code="colt/bad-deck",
                params={"player": player, "balles": len(expected) - 10, "got": len(cards)},
            )
        out[player] = tuple(cards)
    missing = [p for p in state.players if p not in out]
    if missing:
        raise InputError(
            f"every player's deck is needed (missing: {', '.join(missing)})",
            code="colt/bad-deck",
            params={"missing": missing},
        )
    return out


# the Plan ---------------------------------------------------------------------------


def _plan_turn(state: State, player: str, what: str) -> PlanTurn:
    if state.phase is not Phase.PLAN:
        raise not_now(state, what)
    turn = state.turn
    assert turn is not None
    if turn.player != player:
        raise IllegalOrderError(
            f"it is {turn.player}'s turn of the Plan, not {player}'s",
            code="colt/not-your-turn",
            params={"player": player, "turn": turn.player, "number": turn.number},
        )
    return turn


def _play(run: Run, actor: str, command: PlayCard, draws: Draws) -> None:
    state = run.state
    player = _acting(state, actor, command.player)
    turn = _plan_turn(state, player, "playing a card")
    b = state.bandit(player)
    hand = [c.label for c in sort_cards(b.hand)]
    if command.card is Card.BULLET:
        raise IllegalOrderError(
            "a Balle card can never be played", code="colt/bullet", params={"hand": hand}
        )
    if command.card not in b.hand:
        raise IllegalOrderError(
            f"{player} has no {command.card.label} in hand (hand: {', '.join(hand) or 'empty'})",
            code="colt/not-in-hand",
            params={"player": player, "card": command.card.label, "hand": hand},
        )
    face_down = turn.kind is Turn.TUNNEL
    if command.face_down and not face_down:
        if not ghost_first_turn(state, turn):
            raise IllegalOrderError(
                f"turn {turn.number} is played face up: only a tunnel turn, or Ghost's first"
                " turn of the round, is played face down",
                code="colt/face-up",
                params={"turn": turn.number, "kind": str(turn.kind)},
            )
        face_down = True
    r = state.round
    if face_down:
        run.emit(
            CardPlayed(r, turn.number, player, None),
            CardHidden(r, turn.number, player, command.card),
        )
    else:
        run.emit(CardPlayed(r, turn.number, player, command.card))
    _advance(run, draws)


def _draw(run: Run, actor: str, name: str, draws: Draws, default: bool = False) -> None:
    state = run.state
    player = _acting(state, actor, name)
    turn = _plan_turn(state, player, "drawing cards")
    count = min(DRAW, len(state.bandit(player).deck))
    run.emit(CardsDrawn(state.round, turn.number, player, count, default))
    _advance(run, draws)


# choices --------------------------------------------------------------------------


def elements(choice: Choice) -> tuple[str, ...]:
    names = ("direction", "distance", "level", "target", "loot")
    return tuple(n for n in names if getattr(choice, n) is not None)


def check_reads(card: Card, choice: Choice) -> None:
    """Refuse an element the card does not read (a direction on a Tir)."""
    for name in elements(choice):
        if name not in action.READS[card]:
            raise OrderSyntaxError(
                f"a {card.label} does not take a {name} (it reads:"
                f" {', '.join(action.READS[card]) or 'nothing'})",
                code="colt/not-read",
                params={"card": card.label, "element": name, "reads": list(action.READS[card])},
            )


def fitting(outcomes: tuple[Outcome, ...], choice: Choice) -> tuple[Outcome, ...]:
    """The outcomes ``choice`` fits: every element it names agrees."""
    if choice.nothing:
        return outcomes if outcomes == (VOID,) and not elements(choice) else ()
    names = elements(choice)
    return tuple(o for o in outcomes if all(getattr(o, n) == getattr(choice, n) for n in names))


def choices_text(state: State, outcomes: tuple[Outcome, ...]) -> list[str]:
    return [phrase(o) for o in outcomes]


def pick_outcome(state: State, played: Played, choice: Choice) -> Outcome:
    """The one legal outcome ``choice`` singles out for ``played``, or the refusal."""
    assert played.card is not None
    outcomes = action.legal(state, played)
    check_reads(played.card, choice)
    found = fitting(outcomes, choice)
    choices = choices_text(state, outcomes)
    params = {
        "player": played.player,
        "card": played.card.label,
        "step": state.step + 1,
        "choices": choices,
        "void": outcomes == (VOID,),
    }
    if choice.nothing and outcomes != (VOID,):
        raise IllegalOrderError(
            f"the {played.card.label} can act: « rien » is not a choice"
            f" (choices: {'; '.join(choices)})",
            code="colt/can-act",
            params=params,
        )
    if not found:
        if outcomes == (VOID,):
            raise IllegalOrderError(
                f"the {played.card.label} does nothing now (R-8): write « rien » or nothing",
                code="colt/does-nothing",
                params=params,
            )
        raise IllegalOrderError(
            f"« {phrase(choice)} » is not a legal choice for {played.player}'s"
            f" {played.card.label} (choices: {'; '.join(choices)})",
            code="colt/illegal-choice",
            params={**params, "chosen": phrase(choice)},
        )
    if len(found) > 1 and choice.value is not None and state.scripted:
        found = _by_value(state, played, found, choice, params)
    if len(found) > 1:
        raise OrderError(
            f"choice missing for {played.player}'s {played.card.label}: « {phrase(choice)} »"
            f" fits {len(found)} choices ({'; '.join(phrase(o) for o in found)})",
            code="colt/missing-choice",
            params={**params, "choices": choices_text(state, found), "chosen": phrase(choice)},
        )
    return found[0]


def _by_value(
    state: State,
    played: Played,
    found: tuple[Outcome, ...],
    choice: Choice,
    params: dict[str, Any],
) -> tuple[Outcome, ...]:
    """R-11: a purse named by its value (a game played by hand, R-7) tells the
    victim of a Coup de poing when one bandit only holds such a purse; more
    than one is ambiguous, none is no such purse."""
    value = choice.value
    assert value is not None
    holding = tuple(o for o in found if value in action.purses_offered(state, played, o))
    victims = list(dict.fromkeys(o.target for o in holding if o.target is not None))
    if not holding:
        offered = sorted({v for o in found for v in action.purses_offered(state, played, o)})
        raise IllegalOrderError(
            f"no purse of {value} $ on offer (purses: {', '.join(map(str, offered))})",
            code="colt/no-such-purse",
            params={**params, "value": value, "offered": offered},
        )
    if len(victims) > 1:
        raise AmbiguousOrderError(
            f"« {phrase(choice)} » is ambiguous: {' and '.join(victims)} each hold a purse of"
            f" {value} $ (R-11: name the victim, « {phrase(replace(choice, target=victims[0]))} »)",
            code="colt/ambiguous-victim",
            params={
                **params,
                # each victim with the value kept: « la bourse » alone would be refused
                "choices": [phrase(replace(choice, target=v)) for v in victims],
                "value": value,
                "victims": victims,
                "chosen": phrase(choice),
            },
        )
    return holding


def _instruction_outcome(
    state: State, played: Played, alternatives: tuple[Choice, ...]
) -> Outcome | None:
    """What instructions sent in advance decide for ``played`` (R-6): the first
    alternative that fits a legal outcome decides it if it fits one only;
    otherwise (it fits several, or none fits) its owner is asked."""
    outcomes = action.legal(state, played)
    for choice in alternatives:
        found = fitting(outcomes, choice)
        if found:
            if len(found) == 1 and _purse_known(state, played, found[0], choice):
                return found[0]
            return None
    return None


def _purse_known(state: State, played: Played, outcome: Outcome, choice: Choice) -> bool:
    """Whether the purse an outcome moves can be told without asking (a
    scripted game needs its value when they differ)."""
    offered = action.purses_offered(state, played, outcome)
    return not (state.scripted and len(set(offered)) > 1 and choice.value is None)


def _purse(
    state: State, offered: tuple[int, ...], value: int | None, draws: Draws, purpose: str
) -> int:
    """The value of the purse that moves among ``offered`` (R-7)."""
    if value is not None:
        if not state.scripted:
            raise IllegalOrderError(
                "nobody chooses a purse by its value: you choose « la bourse », the fortune"
                " draws which one (R-7)",
                code="colt/purse-value",
                params={"value": value},
            )
        if value not in offered:
            raise IllegalOrderError(
                f"no purse of {value} $ on offer (purses: {', '.join(map(str, offered))})",
                code="colt/no-such-purse",
                params={"value": value, "offered": list(offered)},
            )
        return value
    if len(set(offered)) == 1:
        return offered[0]
    if state.scripted:
        raise OrderError(
            f"choice missing: which purse? (R-7: name the value the fortune would have drawn:"
            f" {', '.join(map(str, sorted(set(offered))))})",
            code="colt/purse-missing",
            params={"offered": sorted(set(offered))},
        )
    return offered[draws.stream(purpose).below(len(offered))]


def _resolve(run: Run, draws: Draws, outcome: Outcome, how: str, value: int | None = None) -> None:
    state = run.state
    played = state.resolving
    assert played is not None and played.card is not None
    step = state.step + 1
    if run.first is None:
        run.first = step
    offered = action.purses_offered(state, played, outcome)
    purse = (
        _purse(state, offered, value, draws, f"round-{state.round}/purse/{step}")
        if offered
        else None
    )
    effects, moves = action.resolve(state, played, outcome, purse)
    reason = action.void_reason(state, played) if outcome.void else None
    run.emit(
        *(_sealed(state.round, step, m) for m in moves),
        CardResolved(
            state.round, step, run.first, played.player, played.card, how, outcome, reason, effects
        ),
    )


def _sealed(round_: int, step: int, move: action.PurseMove) -> PurseMoved:
    return PurseMoved(
        round_,
        step,
        move.player,
        move.value,
        move.from_bandit,
        move.to_bandit,
        move.car,
        move.roof,
    )


def _choose(run: Run, actor: str, command: Choose, draws: Draws) -> None:
    state = run.state
    if state.phase not in (Phase.PLAN, Phase.ACTION):
        raise not_now(state, "a choice for a card")
    player = _acting(state, actor, command.player)
    current = state.resolving
    if (
        current is not None
        and current.player == player
        and (command.card is None or command.card is current.card)
        and not command.latest
    ):
        _choose_now(run, current, command, draws)
        return
    if state.scripted:
        if current is not None and current.player != player:
            raise IllegalOrderError(
                f"card {state.step + 1} is {current.player}'s: in a game played by hand each"
                " card's choice comes when it resolves, from its owner",
                code="colt/not-your-card",
                params={"player": player, "owner": current.player, "step": state.step + 1},
            )
        raise IllegalOrderError(
            f"{command.card.label if command.card else 'that card'} is not the card resolving"
            f" now: in a game played by hand each card's choice comes when it resolves",
            code="colt/wrong-card",
            params={"player": player, "card": command.card.label if command.card else None},
        )
    _instruct(run, player, command)


def _choose_now(run: Run, played: Played, command: Choose, draws: Draws) -> None:
    state = run.state
    assert played.card is not None
    for choice in command.alternatives:
        check_reads(played.card, choice)
    if not command.conditional:
        (choice,) = command.alternatives
        outcome = pick_outcome(state, played, choice)
        _resolve(run, draws, outcome, "choice", choice.value)
        _advance(run, draws)
        return
    outcomes = action.legal(state, played)
    for choice in command.alternatives:
        if fitting(outcomes, choice):
            outcome = pick_outcome(state, played, choice)
            _resolve(run, draws, outcome, "choice", choice.value)
            _advance(run, draws)
            return
    raise IllegalOrderError(
        f"none of {played.player}'s alternatives is possible for their {played.card.label}"
        f" (choices: {'; '.join(choices_text(state, outcomes))})",
        code="colt/no-alternative",
        params={
            "player": played.player,
            "card": played.card.label,
            "step": state.step + 1,
            "choices": choices_text(state, outcomes),
        },
    )


def _instruct(run: Run, player: str, command: Choose) -> None:
    """Keep ``command`` as the instructions for one of ``player``'s cards still to resolve."""
    state = run.state
    start = state.step if state.phase is Phase.ACTION else 0
    slots = [
        i
        for i in range(start, len(state.pile))
        if state.pile[i].player == player
        and (command.card is None or state.pile[i].card is command.card)
    ]
    if not slots:
        what = command.card.label if command.card else "card"
        raise IllegalOrderError(
            f"{player} has no {what} left to resolve in the pile this round",
            code="colt/no-card-to-instruct",
            params={"player": player, "card": command.card.label if command.card else None},
        )
    slot = slots[-1] if command.latest else slots[0]
    card = state.pile[slot].card
    assert card is not None
    for choice in command.alternatives:
        if choice.empty:
            raise OrderSyntaxError(
                f"nothing to read in {player}'s instructions: name a direction, a target, a loot…",
                code="colt/empty-instruction",
                params={"player": player},
            )
        check_reads(card, choice)
        if choice.value is not None:
            raise IllegalOrderError(
                "nobody chooses a purse by its value: you choose « la bourse », the fortune"
                " draws which one (R-7)",
                code="colt/purse-value",
                params={"value": choice.value},
            )
    run.emit(InstructionGiven(state.round, player, slot, command.alternatives))


# Pickpocket -------------------------------------------------------------------------


def _pickpocket(
    run: Run,
    actor: str,
    name: str,
    take: bool,
    value: int | None,
    draws: Draws,
    default: bool = False,
) -> None:
    state = run.state
    if state.phase is not Phase.EVENT:
        raise not_now(state, "a Pickpocket choice")
    player = _acting(state, actor, name)
    due = pickpockets_due(state)
    if player not in due:
        answered = any(p == player for p, _, _ in state.pickpocket)
        if not take and not answered:
            return  # « rien » from a bandit with nothing to take: nothing happens
        raise IllegalOrderError(
            f"{player} has no purse to take at Pickpocket"
            + (
                " (already answered)"
                if answered
                else ": only a bandit alone on their spot with a purse"
            ),
            code="colt/not-pickpocket",
            params={"player": player, "answered": answered, "due": list(due)},
        )
    events: list[Event] = [PickpocketChosen(state.round, player, take, default)]
    if take:
        b = state.bandit(player)
        offered = state.loot_at(b.car, b.roof).purses
        purpose = f"round-{state.round}/pickpocket/{draw_name(state, player)}"
        purse = _purse(state, offered, value, draws, purpose)
        events.append(
            PurseMoved(state.round, 0, player, purse, to_bandit=player, car=b.car, roof=b.roof)
        )
    elif value is not None:
        raise OrderSyntaxError("« rien » takes no purse value", code="colt/two-values")
    run.emit(*events)
    _advance(run, draws)


# defaults ------------------------------------------------------------------------------


def _default(run: Run, actor: str, command: ApplyDefault, draws: Draws) -> None:
    state = run.state
    core_rules.require_gm("colt", actor, command)
    player = find_player(state, command.player)
    if state.phase is Phase.PLAN and state.turn is not None and state.turn.player == player:
        _draw(run, actor, player, draws, default=True)
        return
    played = state.resolving
    if played is not None and played.player == player:
        outcomes = action.legal(state, played)
        index = draws.stream(f"round-{state.round}/default/{state.step + 1}").below(len(outcomes))
        _resolve(run, draws, outcomes[index], "default")
        _advance(run, draws)
        return
    if player in pickpockets_due(state):
        purpose = f"round-{state.round}/default/pickpocket-{draw_name(state, player)}"
        take = draws.stream(purpose).below(2) == 1
        _pickpocket(run, actor, player, take, None, draws, default=True)
        return
    raise PhaseError(
        f"nothing is due from {player} now ({phase_key(state)}); next: {next_step(state)}",
        code="colt/nothing-due",
        params={"player": player, "phase_key": phase_key(state)},
    )


def default_for(state: State, player: str) -> Command:
    """The rules' default for ``player``'s missing input (``gm default``): a
    draw on their Plan turn; a legal choice drawn by the fortune for their card
    or at Pickpocket (R-6)."""
    name = find_player(state, player)
    turn = state.turn
    played = state.resolving
    due = (
        (turn is not None and turn.player == name)
        or (played is not None and played.player == name and not state.scripted)
        or name in pickpockets_due(state)
    )
    if not due:
        raise PhaseError(
            f"nothing is due from {name} now ({phase_key(state)}); next: {next_step(state)}",
            code="colt/nothing-due",
            params={"player": name, "phase_key": phase_key(state)},
        )
    return ApplyDefault(name)


# the Action -----------------------------------------------------------------------------


def _advance(run: Run, draws: Draws) -> None:
    """Resolve what needs nobody's choice, up to the next choice or the round's end."""
    while True:
        state = run.state
        if state.phase is Phase.ACTION:
            played = state.resolving
            if played is None:
                raise AssertionError("the Action with no card left")
            if state.scripted:
                return
            outcomes = action.legal(state, played)
            if len(outcomes) == 1:
                _resolve(run, draws, outcomes[0], "auto")
                continue
            instruction = state.instruction(state.step)
            if instruction is not None:
                outcome = _instruction_outcome(state, played, instruction.alternatives)
                if outcome is not None:
                    _resolve(run, draws, outcome, "instruction")
                    continue
            return
        if state.phase is Phase.EVENT:
            if pickpockets_due(state):
                return
            card = round_card(state)
            effects, moves = action.happen(state, happening(card))
            run.emit(
                *(_sealed(state.round, 0, m) for m in moves),
                EventResolved(state.round, card, effects),
            )
        return


# --- evolve -------------------------------------------------------------------------------


def evolve(state: State, event: Event) -> State:
    """Apply one event to the state."""
    match event:
        case TrainSet():
            return _evolve_train(state, event)
        case LootPlaced():
            inside = list(state.inside)
            for car, values in enumerate(event.purses, start=1):
                inside[car] = replace(inside[car], purses=tuple(sorted(values)))
            return state.but(inside=tuple(inside))
        case RoundOpened():
            turns = schedule(state.players, event.round, event.card)
            record = RoundRecord(
                event.round,
                event.card,
                state.players[(event.round - 1) % len(state.players)],
                turns,
            )
            return replace(
                state,
                phase=Phase.PLAN,
                round=event.round,
                history=(*state.history, record),
                plan_turn=0,
                pile=(),
                step=0,
                instructions=(),
                pickpocket=(),
            )
        case DeckDealt():
            b = state.bandit(event.player)
            size = DOC_HAND if b.character == "Doc" else HAND
            return state.with_bandit(replace(b, hand=event.cards[:size], deck=event.cards[size:]))
        case CardPlayed():
            played = Played(event.player, event.card, event.card is None, event.turn)
            after = state.but(pile=(*state.pile, played))
            if event.card is not None:
                after = _from_hand(after, event.player, event.card)
            move = PlanMove(
                event.turn, event.player, None, event.card is None, event.default, event.card
            )
            return _next_turn(after, move)
        case CardHidden():
            pile = tuple(
                replace(p, card=event.card)
                if p.turn == event.turn and p.player == event.player
                else p
                for p in state.pile
            )
            return _from_hand(state.but(pile=pile), event.player, event.card)
        case CardsDrawn():
            b = state.bandit(event.player)
            b = replace(b, hand=(*b.hand, *b.deck[: event.count]), deck=b.deck[event.count :])
            move = PlanMove(event.turn, event.player, event.count, False, event.default)
            return _next_turn(state.with_bandit(b), move)
        case InstructionGiven():
            kept = tuple(i for i in state.instructions if i.slot != event.slot)
            given = Instruction(event.player, event.slot, event.alternatives)
            return state.but(instructions=(*kept, given))
        case CardResolved():
            return _evolve_resolved(state, event)
        case PurseMoved():
            return _evolve_purse(state, event)
        case PickpocketChosen():
            return replace(
                state, pickpocket=(*state.pickpocket, (event.player, event.take, event.default))
            )
        case EventResolved():
            return _evolve_event(state, event)
    raise TypeError(f"not a colt event: {event!r}")


def _evolve_train(state: State, event: TrainSet) -> State:
    characters = dict(event.characters)
    n = len(event.cars)
    bandits = tuple(
        Bandit(
            name=p,
            character=characters[p],
            car=n if i % 2 == 0 else n - 1,
            roof=False,
            purses=(START_PURSE,),
        )
        for i, p in enumerate(state.players)
    )
    inside = (Loot(strongboxes=1), *(Loot(jewels=PRINTED_CARS[c][1]) for c in event.cars))
    return replace(
        state,
        phase=Phase.READY,
        scripted=event.scripted,
        cars=event.cars,
        bandits=bandits,
        marshal=0,
        inside=inside,
        roofs=tuple(Loot() for _ in range(n + 1)),
    )


def _from_hand(state: State, player: str, card: Card) -> State:
    b = state.bandit(player)
    hand = list(b.hand)
    hand.remove(card)
    return state.with_bandit(replace(b, hand=tuple(hand)))


def _next_turn(state: State, move: PlanMove) -> State:
    record = replace(state.current, moves=(*state.current.moves, move))
    after = replace(state.with_record(record), plan_turn=state.plan_turn + 1)
    if after.plan_turn < len(record.turns):
        return after
    return after.but(phase=Phase.ACTION if after.pile else Phase.EVENT, step=0)


def _apply(state: State, effects: tuple[Effect, ...]) -> State:
    for fx in effects:
        if fx.kind is Fx.MOVE:
            assert fx.bandit is not None and fx.car is not None
            state = state.with_bandit(replace(state.bandit(fx.bandit), car=fx.car, roof=fx.roof))
        elif fx.kind is Fx.MARSHAL:
            assert fx.car is not None
            state = state.but(marshal=fx.car)
        elif fx.kind is Fx.BULLET:
            assert fx.bandit is not None
            if not fx.given:
                continue
            if fx.source is None:
                state = state.but(neutral=state.neutral - 1)
            else:
                shooter = state.bandit(fx.source)
                state = state.with_bandit(replace(shooter, barillet=shooter.barillet - 1))
            target = state.bandit(fx.bandit)
            state = state.with_bandit(replace(target, received=target.received + 1))
        elif fx.kind in (Fx.TAKE, Fx.DROP) and fx.loot in (JEWEL, STRONGBOX):
            assert fx.bandit is not None and fx.car is not None
            sign = 1 if fx.kind is Fx.TAKE else -1
            state = _shift(state, fx.bandit, fx.car, fx.roof, fx.loot, sign)
        elif fx.kind is Fx.STRONGBOX:
            assert fx.car is not None
            loot = state.inside[fx.car]
            state = state.with_loot(fx.car, False, replace(loot, strongboxes=loot.strongboxes + 1))
            state = state.but(spare_strongbox=False)
        elif fx.kind is Fx.RANSOM:
            assert fx.bandit is not None
            b = state.bandit(fx.bandit)
            state = state.with_bandit(replace(b, ransom=b.ransom + fx.amount))
        # purses move with PurseMoved (their value is a secret)
    return state


def _shift(state: State, name: str, car: int, roof: bool, kind: str | None, sign: int) -> State:
    """Move one jewel or strongbox between a bandit and a spot (+1: to the bandit)."""
    b = state.bandit(name)
    loot = state.loot_at(car, roof)
    if kind == JEWEL:
        b = replace(b, jewels=b.jewels + sign)
        loot = replace(loot, jewels=loot.jewels - sign)
    else:
        b = replace(b, strongboxes=b.strongboxes + sign)
        loot = replace(loot, strongboxes=loot.strongboxes - sign)
    return state.with_bandit(b).with_loot(car, roof, loot)


def _drawn_among(state: State, event: PurseMoved) -> tuple[int, ...]:
    """The purses the fortune drew ``event``'s among (R-7), read from the
    state before the move, as ``_purse`` saw them: a Braquage's or
    Pickpocket's spot, a Coup de poing victim's purses. () when nothing was
    drawn: a game played by hand (the scenario names the value), purses all
    alike, or a purse no choice moves (the Vengeance's least valuable one).
    Derived here rather than stored, so that the events stay as they were."""
    if state.scripted:
        return ()
    if event.step == 0 and (event.from_bandit is not None or event.to_bandit is None):
        return ()  # an event's purse taken without a draw (La vengeance du Marshal)
    if event.from_bandit is not None:
        offered = state.bandit(event.from_bandit).purses
    elif event.car is not None:
        offered = state.loot_at(event.car, event.roof).purses
    else:
        return ()
    return tuple(offered) if len(set(offered)) > 1 else ()


def _evolve_purse(state: State, event: PurseMoved) -> State:
    among = _drawn_among(state, event)
    if among:
        drawn = (event.round, event.step, event.player, among, event.value)
        state = state.but(purse_draws=(*state.purse_draws, drawn))
    if event.from_bandit is not None:
        b = state.bandit(event.from_bandit)
        state = state.with_bandit(replace(b, purses=_without(b.purses, event.value)))
    else:
        assert event.car is not None
        loot = state.loot_at(event.car, event.roof)
        state = state.with_loot(
            event.car, event.roof, replace(loot, purses=_without(loot.purses, event.value))
        )
    if event.to_bandit is not None:
        b = state.bandit(event.to_bandit)
        return state.with_bandit(replace(b, purses=tuple(sorted((*b.purses, event.value)))))
    if event.car is not None and event.from_bandit is not None:
        loot = state.loot_at(event.car, event.roof)
        purses = tuple(sorted((*loot.purses, event.value)))
        return state.with_loot(event.car, event.roof, replace(loot, purses=purses))
    return state.but(removed=tuple(sorted((*state.removed, event.value))))


def _without(values: tuple[int, ...], value: int) -> tuple[int, ...]:
    out = list(values)
    out.remove(value)
    return tuple(out)


def _evolve_resolved(state: State, event: CardResolved) -> State:
    played = state.pile[event.step - 1]
    after = _apply(state, event.effects)
    record = StepRecord(
        step=event.step,
        first=event.first,
        player=event.player,
        card=event.card,
        face_down=played.face_down,
        how=event.how,
        outcome=event.outcome,
        void=event.void,
        effects=event.effects,
        snapshot=after.snapshot(),
    )
    current = after.current
    after = after.with_record(replace(current, steps=(*current.steps, record)))
    instructions = tuple(i for i in after.instructions if i.slot != event.step - 1)
    step = state.step + 1
    phase = Phase.ACTION if step < len(state.pile) else Phase.EVENT
    return after.but(step=step, phase=phase, instructions=instructions)


def _evolve_event(state: State, event: EventResolved) -> State:
    after = _apply(state, event.effects)
    record = after.current
    record = replace(
        record,
        event=EventRecord(event.card, event.effects, state.pickpocket, after.snapshot()),
        positions=tuple((b.name, b.car, b.roof) for b in after.bandits),
        loot=tuple((b.name, b.loot) for b in after.bandits),
        bullets=tuple((b.name, b.received) for b in after.bandits),
        marshal=after.marshal,
    )
    bandits = tuple(replace(b, hand=(), deck=()) for b in after.bandits)
    return replace(
        after.with_record(record),
        bandits=bandits,
        phase=Phase.OVER if event.round >= ROUNDS else Phase.READY,
        pile=(),
        step=0,
        instructions=(),
        pickpocket=(),
        plan_turn=0,
    )


def play(
    state: State, actor: str, command: Command, draws: Draws | None = None
) -> tuple[State, tuple[Event, ...]]:
    """``decide`` then ``evolve``: the new state and the events (tests, previews)."""
    return core_rules.apply(decide, evolve, state, actor, command, draws)


__all__ = [
    "Happening",
    "configure",
    "decide",
    "evolve",
    "initial_state",
    "is_over",
    "next_step",
    "phase_key",
    "play",
]
