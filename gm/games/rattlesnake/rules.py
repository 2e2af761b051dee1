"""The rules of Rattlesnake City: ``decide`` and ``evolve`` (``gm/games/rattlesnake/rules.md``).

``decide`` checks a command against the state and returns its events, or
raises a ``gm.errors`` error that names what would be legal; ``evolve``
applies one event and never refuses a stored one. Both are thin
dispatchers: each command and each event has one handler, in the module of
its phase — ``deal`` (the deal, the saloons), ``turn`` (steps 1, 2 and 5,
the end), ``divers`` (step 3: *cartes divers* and trades, R-12), ``bank``
(the bank attack, R-15) and ``poker_turn`` (the poker game, R-9, R-16,
R-17); what they share (``Run``, reading the state, the R-18 threshold) is
``engine``'s. The valley's geometry and income are ``board``, ``tiles``
and ``income``'s; a combat's blows are ``combat``'s. What is here is the
option (another board, R-1), the initial state, the dispatch, and the
defaults for a missing input.

Chance comes only at the deal (``setup/first``, ``setup/bag``,
``setup/actions``, ``setup/shots``), when a discard pile becomes a deck
(``reshuffle-N/actions``, ``reshuffle-N/shots``) and for a default's place
(``turn-N/default-tile``, ``saloon/<player>``): the bag and the decks are
shuffled once and then drawn from the top, so every later draw is fixed by
what was sealed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gm.core import rules as core_rules
from gm.core.names import fold
from gm.core.protocol import Command, Draws, Event
from gm.errors import GameOverError, InputError, PhaseError

from . import bank, deal, divers, poker_turn, turn
from .board import BoardError, default_board_text, load_board
from .cards import find_cards
from .commands import ApplyDefault, GiveUp, Shoot
from .engine import (
    GAME,
    Decider,
    Evolver,
    Run,
    action_of,
    draw_name,
    find_player,
    is_over,
    next_step,
    phase_key,
    poker_awaiting,
    turn_number,
)
from .events import FighterPassed, SaloonPlaced, ShotFired, TilePlaced
from .model import START_CASH, Phase, State
from .tiles import Tile, legal_cells

__all__ = [
    "GAME",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "action_of",
    "banks_of",
    "configure",
    "decide",
    "default_for",
    "evolve",
    "fighter_of",
    "find_player",
    "initial_state",
    "is_over",
    "next_step",
    "phase_key",
    "poker_awaiting",
    "turn_number",
]

banks_of = bank.banks_of
fighter_of = bank.fighter_of

MIN_PLAYERS = 2
MAX_PLAYERS = 6


# --- options ---------------------------------------------------------------------------


def configure(players: Sequence[str], options: Mapping[str, Any]) -> dict[str, Any]:
    """The one option, ``board``: another board file (R-1). The platform
    reads the file (``OptionSpec.file``) and gives its text; the campaign
    keeps it as ``board_text``, so a replay never reads the disk again."""
    unknown = sorted(set(options) - {"board", "board_text"})
    if unknown:
        raise InputError(
            f"rattlesnake has one option, board (a board file), not {', '.join(unknown)}",
            code="rattlesnake/bad-option",
            params={"options": unknown},
        )
    text = options.get("board_text") or options.get("board") or default_board_text()
    if not isinstance(text, str):
        raise InputError("board must be the text of a board file", code="rattlesnake/board")
    try:
        board = load_board(text)
    except BoardError as err:
        raise BoardError(f"the board file is not a valley: {err}") from None
    if len(board.towns) < len(players):
        raise InputError(
            f"{len(players)} players need {len(players)} towns; this board has {len(board.towns)}",
            code="rattlesnake/board",
            params={"players": len(players), "towns": len(board.towns)},
        )
    for name in players:
        key = fold(name)
        # a card's own name (« Lili », « Coyote »): its words would be read as the card;
        # half a card's name (« Joe », « Jim ») names no card alone, so the player is read
        card = len(find_cards(name)) == 1
        if board.find(name) is not None or key in _RESERVED or key.isdigit() or card:
            raise InputError(
                f"a player cannot be called {name!r} at Rattlesnake City: it reads as a word"
                " of the game (a cell, a card, a number)",
                code="rattlesnake/player-name",
                params={"name": name},
            )
    return {"board_text": text}


_RESERVED = {"action", "coups", "passe", "fin", "gm", "banque", "poker"}


def initial_state(players: Sequence[str], options: Mapping[str, Any]) -> State:
    n = len(players)
    return State(
        players=tuple(players),
        board_text=str(options.get("board_text") or default_board_text()),
        cash=(START_CASH,) * n,
        hands=((),) * n,
        shots=((),) * n,
        permanents=((),) * n,
        income=(0,) * n,
    )


# --- reading the state -------------------------------------------------------------------


# --- decide -------------------------------------------------------------------------------


def _blow(run: Run, actor: str, command: Shoot | GiveUp, draws: Draws) -> None:
    """A blow belongs to the combat in play: the poker game's, or the bank attack's."""
    if run.state.phase is Phase.POKER:
        poker_turn.decision(run, actor, command, draws)
    elif isinstance(command, Shoot):
        bank.shoot(run, actor, command, draws)
    else:
        bank.give_up(run, actor, command, draws)


def _default(run: Run, actor: str, command: ApplyDefault, draws: Draws) -> None:
    state = run.state
    core_rules.require_gm(GAME, actor, command)
    default_for(state, command.player)  # refuses when nothing is due from them
    player = find_player(state, command.player)
    if state.phase is Phase.SALOONS:
        legal = legal_cells(state.board, state.layout, Tile.SALOON)
        cell = legal[draws.stream(f"saloon/{draw_name(state, player)}").below(len(legal))]
        run.emit(SaloonPlaced(player, cell, default=True))
        if run.state.order:
            turn.begin_turn(run, draws)
    elif state.phase is Phase.TILE:
        record = state.current
        assert record is not None
        cell = record.legal[
            draws.stream(f"turn-{record.number}/default-tile").below(len(record.legal))
        ]
        run.emit(TilePlaced(record.number, player, record.tile, cell, default=True))
    elif state.phase is Phase.DRAW:
        turn.draw_as(run, player, "action", draws, default=True)
    elif state.phase is Phase.FREE:
        turn.end_turn_as(run, player, draws, default=True)
    elif state.phase is Phase.POKER:
        poker_turn.default_as(run, player, draws)
    else:
        bank.give_up_as(run, player, draws, default=True)


_DECIDE: dict[type[Command], Decider] = {
    **deal.DECIDE,
    **turn.DECIDE,
    **divers.DECIDE,
    **bank.DECIDE,
    **poker_turn.DECIDE,
    Shoot: _blow,
    GiveUp: _blow,
    ApplyDefault: _default,
}
"""Each command's handler."""


def decide(state: State, actor: str, command: Command, draws: Draws) -> list[Event]:
    """The events ``command`` causes, or the error that refuses it."""
    if state.phase is Phase.OVER:
        raise core_rules.game_over(command)
    handler = _DECIDE.get(type(command))
    if handler is None:
        raise core_rules.unknown_command(GAME, command)
    run = Run(state, evolve)
    handler(run, actor, command, draws)
    return run.events


# --- defaults -------------------------------------------------------------------------------


def default_for(state: State, player: str) -> Command:
    """What the rules apply for ``player``'s missing input: a place drawn by
    the fortune for a saloon or a tile, an action card at step 2, the end of
    the turn at steps 3-4, « passe » in a combat."""
    name = find_player(state, player)
    if state.phase is Phase.OVER:
        raise GameOverError(
            f"the game is over (R-18): nothing is due from {name}",
            code="phase/game-over",
            params={"player": name},
        )
    if state.phase is Phase.POKER:
        if name not in poker_awaiting(state):
            raise PhaseError(
                f"nothing is due from {name} now; next: {next_step(state)}",
                code="rattlesnake/nothing-due",
                params={"player": name},
            )
        return ApplyDefault(name)
    due = (
        state.combat.turn
        if state.phase is Phase.BANK and state.combat is not None
        else state.saloon_turn
        if state.phase is Phase.SALOONS
        else state.active
    )
    if state.phase in (Phase.SETUP, Phase.OVER) or name != due:
        raise PhaseError(
            f"nothing is due from {name} now; next: {next_step(state)}",
            code="rattlesnake/nothing-due",
            params={"player": name},
        )
    return ApplyDefault(name)


# --- evolve --------------------------------------------------------------------------------


def _shot_fired(state: State, event: ShotFired) -> State:
    """A shot belongs to the combat in play: the poker game's, or the bank attack's."""
    if state.phase is Phase.POKER:
        return poker_turn.shot_fired(state, event)
    return bank.shot_fired(state, event)


def _fighter_passed(state: State, event: FighterPassed) -> State:
    if state.phase is Phase.POKER:
        return poker_turn.fighter_passed(state, event)
    return bank.fighter_passed(state, event)


_EVOLVE: dict[type[Event], Evolver] = {
    **deal.EVOLVE,
    **turn.EVOLVE,
    **divers.EVOLVE,
    **bank.EVOLVE,
    **poker_turn.EVOLVE,
    ShotFired: _shot_fired,
    FighterPassed: _fighter_passed,
}
"""Each event's handler."""


def evolve(state: State, event: Event) -> State:
    """Apply one event to the state."""
    handler = _EVOLVE.get(type(event))
    if handler is None:
        raise TypeError(f"not a rattlesnake event: {event!r}")
    return handler(state, event)
