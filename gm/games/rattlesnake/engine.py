"""What every phase of Rattlesnake City's rules shares (``gm/games/rattlesnake/rules.md``).

This module owns the shape of a decision (``Run``: the events of one
command, applied as they are decided), reading the state (where the game
stands, whose input it awaits, the MJ's next step), the refusals every phase
gives (not now, not your turn), the small state updates several phases'
events make (cash, the income track) and the R-18 threshold, checked by
every phase that moves money. The phases themselves are ``deal``, ``turn``,
``divers``, ``bank`` and ``poker_turn``; ``rules`` dispatches to them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, TypeAlias

from gm.core import rules as core_rules
from gm.core.names import find_name, slugify
from gm.core.protocol import Draws
from gm.errors import IllegalOrderError, NotFoundError, PhaseError, quote_choices

from . import poker as pk
from .cards import Action, Card
from .events import GameEnded
from .income import income_track
from .model import Phase, State, threshold
from .tiles import Tile

GAME = "rattlesnake"

Decider = Callable[["Run", str, Any, Draws], None]
"""A command's handler: checks it against ``run.state`` and emits its events, or raises."""

Evolver = Callable[[State, Any], State]
"""An event's handler: the state after it (never refuses a stored event)."""


Run: TypeAlias = core_rules.Run[State]
"""The events of one command, applied (by ``evolve``) as they are decided."""


# --- reading the state -------------------------------------------------------------------


def find_player(state: State, name: str) -> str:
    found = find_name(state.players, name)
    if found is None:
        raise NotFoundError(
            f"no player named {name!r} (players: {quote_choices(state.players)})",
            code="rattlesnake/unknown-player",
            params={"name": name, "players": list(state.players)},
        )
    return found


def acting(state: State, actor: str, player: str) -> str:
    return core_rules.acting_player(GAME, lambda n: find_player(state, n), actor, player)


def draw_name(state: State, player: str) -> str:
    """A player as a draw's purpose names them: their name as a slug, or their seat."""
    slugs = [slugify(p) for p in state.players]
    slug = slugify(player)
    if slug and slugs.count(slug) == 1:
        return slug
    return f"seat-{state.seat(player) + 1}"


def turn_number(state: State) -> int:
    record = state.current
    return record.number if record is not None else 0


def phase_key(state: State) -> str:
    """Where the game stands, stable while the same input is awaited."""
    record = state.current
    if state.phase is Phase.SETUP:
        return "setup"
    if state.phase is Phase.OVER:
        return "over"
    if state.phase is Phase.SALOONS:
        return f"saloon-{sum(1 for p in state.layout.tiles.values() if p.kind is Tile.SALOON) + 1}"
    assert record is not None
    if state.phase is Phase.BANK and state.combat is not None:
        return f"turn-{record.number}/bank-{len(state.combat.moves) + 1}"
    if state.phase is Phase.POKER and state.poker is not None:
        poker = state.poker
        blows = len(poker.combat.moves) if poker.combat is not None else 0
        return (
            f"turn-{record.number}/poker-{poker.stage.value}"
            f"-{len(poker.played)}-{poker.turn + 1}-{blows}"
        )
    return f"turn-{record.number}/{state.phase.value}"


def is_over(state: State) -> bool:
    return state.phase is Phase.OVER


def tar_waits(state: State) -> tuple[str, ...]:
    """Who may still answer the Tricheur just played: every player but the cheater."""
    poker = state.poker
    if poker is None or poker.stage is not pk.Stage.TAR or poker.swap is None:
        return ()
    return tuple(p for p in poker.from_(poker.swap[0])[1:] if p not in state.tar_declined)


def poker_awaiting(state: State) -> tuple[str, ...]:
    """Who the poker game waits for: the machine's answer, the challenger
    while the joins are open, every player but the cheater in the Goudron window."""
    poker = state.poker
    if poker is None:
        return ()
    if poker.stage is pk.Stage.JOIN:
        return (poker.challenger,)
    if poker.stage is pk.Stage.TAR:
        return tar_waits(state)
    return pk.awaiting(poker)


def next_step(state: State) -> str:
    """A short English hint for the MJ: what to do next."""
    if state.phase is Phase.SETUP:
        return "gm setup (deals: the first player, the hands, the bag and the decks)"
    if state.phase is Phase.OVER:
        return "nothing: the game is over"
    if state.phase is Phase.SALOONS:
        return f"gm order {state.saloon_turn} (their saloon), or gm default {state.saloon_turn}"
    if state.phase is Phase.BANK and state.combat is not None:
        who = state.combat.turn
        return f"gm order {who} (their blow), or gm default {who} (passe)"
    if state.phase is Phase.POKER and state.poker is not None:
        who = ", ".join(poker_awaiting(state))
        return f"gm order {who} (poker: {state.poker.stage.value}), or gm default {who}"
    player = state.active
    what = {
        Phase.TILE: "step 1: where the tile goes",
        Phase.DRAW: "step 2: action or coups",
        Phase.FREE: "steps 3-4, then « fin »",
    }[state.phase]
    return f"gm order {player} ({what}), or gm default {player}"


# --- refusals ------------------------------------------------------------------------------


def not_now(state: State, what: str) -> PhaseError:
    return PhaseError(
        f"{what} is not possible now ({phase_key(state)}); next: {next_step(state)}",
        code="rattlesnake/not-now",
        params={"what": what, "phase": state.phase.value, "phase_key": phase_key(state)},
    )


def refuse(message: str, code: str, **params: Any) -> IllegalOrderError:
    return IllegalOrderError(message, code=f"rattlesnake/{code}", params=params)


def cell_named(state: State, text: str) -> str:
    found = state.board.find(text)
    if found is None:
        raise refuse(
            f"{text!r} is not a cell or a rail slot of the valley (A1…, M1, P3, P5a, R1…)",
            "unknown-cell",
            cell=text,
        )
    return found


def turn_of(state: State, player: str, phase: Phase, what: str) -> None:
    """Refuse unless the game is at ``phase`` of ``player``'s turn."""
    if state.phase is not phase:
        raise not_now(state, what)
    if player != state.active:
        raise refuse(
            f"it is {state.active}'s turn, not {player}'s",
            "not-your-turn",
            player=player,
            turn=state.active,
        )


def in_free(state: State, player: str, what: str) -> None:
    """Refuse unless the game is at steps 3-4 of ``player``'s turn (R-12)."""
    if state.phase is not Phase.FREE:
        raise not_now(state, what)
    if player != state.active:
        raise refuse(
            f"only {state.active}, whose turn it is, may do that now (R-12), not {player}",
            "not-your-turn",
            player=player,
            turn=state.active,
        )


# --- the end at once (R-18) ------------------------------------------------------------------


def check_threshold(run: Run) -> bool:
    """R-18: a player whose cash reaches the threshold wins at once (several share)."""
    state = run.state
    limit = threshold(len(state.players))
    rich = tuple(p for p in state.players if state.cash_of(p) >= limit)
    if rich:
        run.emit(GameEnded(rich, "threshold"))
        return True
    return False


# --- what several phases' events change ------------------------------------------------------


def track(state: State) -> State:
    """The state with its income track recomputed (a tile or a permanent moved)."""
    found = income_track(state.board, state.layout, state.players, state.permanents_map())
    return state.but(income=tuple(found[p] for p in state.players))


def add_cash(state: State, player: str, amount: int) -> State:
    return state.with_seat("cash", player, state.cash_of(player) + amount)


def without(items: tuple[Any, ...], item: Any) -> tuple[Any, ...]:
    i = items.index(item)
    return items[:i] + items[i + 1 :]


def without_all(items: tuple[Any, ...], gone: Iterable[Any]) -> tuple[Any, ...]:
    for item in gone:
        items = without(items, item)
    return items


_LABELS = {c.label: c for c in Card}


def poker_card(card: Action) -> int | str:
    """An action card as ``poker`` writes it: a game card's value, or a rules-page name."""
    return card if isinstance(card, int) else card.label


def action_of(card: int | str) -> Action:
    """``poker_card``'s inverse."""
    return card if isinstance(card, int) else _LABELS[card]
