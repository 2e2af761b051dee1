"""Rattlesnake City's turn: its tile, its draw, its income and the end (R-6, R-10, R-18).

This module owns steps 1, 2 and 5 of a turn (``gm/games/rattlesnake/rules.md``,
A turn): the tile drawn from the bag and placed (or removed, R-6), the
draw of an action card or two shot cards (a discard pile made a deck again
when one is empty: the other phases draw through ``draw_action`` and
``draw_shots`` too), « fin » and its income, and the end of the game by
the last tile or the threshold.
"""

from __future__ import annotations

from collections import Counter

from gm.core.protocol import Command, Draws, Event
from gm.errors import InputError

from . import poker as pk
from .commands import Draw, EndTurn, PlaceTile
from .engine import (
    Decider,
    Evolver,
    Run,
    acting,
    add_cash,
    cell_named,
    check_threshold,
    poker_card,
    refuse,
    track,
    turn_number,
    turn_of,
)
from .events import (
    ActionDrawn,
    DeckReshuffled,
    DeckShuffled,
    DrawChosen,
    GameEnded,
    ShotsDrawn,
    TileDrawn,
    TilePlaced,
    TileRemoved,
    TurnEnded,
)
from .model import SHOTS_DRAWN, Phase, State, TurnRecord, card_key, card_of_key
from .tiles import Placed, legal_cells

# --- decide ------------------------------------------------------------------------------------


def begin_turn(run: Run, draws: Draws) -> None:
    """Draw the next turn's tile; one with nowhere to go leaves the game (R-6)."""
    state = run.state
    number = turn_number(state) + 1
    order = state.order
    player = order[(number - 1) % len(order)]
    tile = state.bag[0]
    legal = legal_cells(state.board, state.layout, tile)
    run.emit(TileDrawn(number, player, tile, legal))
    if not legal:
        run.emit(TileRemoved(number, tile))


def place_tile(run: Run, actor: str, command: PlaceTile, draws: Draws) -> None:
    state = run.state
    player = acting(state, actor, command.player)
    turn_of(state, player, Phase.TILE, "placing a tile")
    record = state.current
    assert record is not None
    if command.tile is not None and command.tile is not record.tile:
        raise refuse(
            f"the tile drawn is a {record.tile.label}, not a {command.tile.label}",
            "wrong-tile",
            tile=record.tile.value,
            named=command.tile.value,
        )
    cell = cell_named(state, command.cell)
    if cell not in record.legal:
        raise refuse(
            f"the {record.tile.label} cannot go on {cell} (legal: {', '.join(record.legal)})",
            "bad-place",
            cell=cell,
            tile=record.tile.value,
            legal=list(record.legal),
        )
    run.emit(TilePlaced(record.number, player, record.tile, cell))


def draw(run: Run, actor: str, command: Draw, draws: Draws) -> None:
    draw_as(run, acting(run.state, actor, command.player), command.what, draws)


def draw_as(run: Run, player: str, what: str, draws: Draws, default: bool = False) -> None:
    state = run.state
    turn_of(state, player, Phase.DRAW, "drawing")
    number = turn_number(state)
    run.emit(DrawChosen(number, player, what, default))
    if what == "action":
        draw_action(run, player, draws)
    else:
        draw_shots(run, player, SHOTS_DRAWN, draws)


def _draws_this_turn(state: State, player: str) -> int:
    record = state.current
    return (
        0
        if record is None
        else sum(1 for m in record.moves if m.what == "drawn" and m.get("player") == player)
    )


def _reshuffle(run: Run, deck: str, draws: Draws) -> bool:
    """Make a new ``deck`` from its discard pile (``actions`` or ``shots``); False if it is empty."""
    state = run.state
    discard = state.action_discard if deck == "actions" else state.shot_discard
    if not discard:
        return False
    keys = [card_key(c) for c in discard] if deck == "actions" else [str(s) for s in discard]
    number = state.shuffled(deck) + 1
    given = [order for name, order in state.given_orders if name == deck]
    if given:
        order = list(given[0])
        if Counter(order) != Counter(keys):
            raise InputError(
                f"the given order of {deck} reshuffle {number} does not hold the discard pile"
                f" ({', '.join(sorted(keys))})",
                code="rattlesnake/bad-setup",
                params={"deck": deck, "number": number},
            )
    else:
        order = draws.stream(f"reshuffle-{number}/{deck}").shuffle(keys)
    run.emit(DeckReshuffled(deck, number), DeckShuffled(deck, number, tuple(order)))
    return True


def draw_action(run: Run, player: str, draws: Draws) -> None:
    if not run.state.actions and not _reshuffle(run, "actions", draws):
        return  # both piles empty: nothing to draw
    n = _draws_this_turn(run.state, player) + 1
    run.emit(ActionDrawn(turn_number(run.state), player, n, card_key(run.state.actions[0])))


def draw_shots(run: Run, player: str, count: int, draws: Draws) -> None:
    """Draw ``count`` shot cards; an empty deck is made again from its discard
    pile midway (the cards already drawn are a draw of their own)."""
    left = count
    while left:
        if not run.state.shot_deck and not _reshuffle(run, "shots", draws):
            return  # both piles empty: fewer cards
        taken = tuple(run.state.shot_deck[:left])
        number = _draws_this_turn(run.state, player) + 1
        run.emit(ShotsDrawn(turn_number(run.state), player, number, taken))
        left -= len(taken)


def end_turn(run: Run, actor: str, command: EndTurn, draws: Draws) -> None:
    end_turn_as(run, acting(run.state, actor, command.player), draws)


def end_turn_as(run: Run, player: str, draws: Draws, default: bool = False) -> None:
    state = run.state
    turn_of(state, player, Phase.FREE, "ending the turn")
    run.emit(TurnEnded(turn_number(state), player, state.income_of(player), default))
    if check_threshold(run):
        return
    if not run.state.bag:  # the turn that drew the last tile is over
        cash = run.state.cash
        best = max(cash)
        run.emit(
            GameEnded(
                tuple(p for p, c in zip(run.state.players, cash, strict=True) if c == best),
                "last-tile",
            )
        )
        return
    begin_turn(run, draws)


# --- evolve ------------------------------------------------------------------------------------


def _tile_drawn(state: State, event: TileDrawn) -> State:
    record = TurnRecord(event.turn, event.player, event.tile, event.legal)
    return state.but(phase=Phase.TILE, bag=state.bag[1:], history=(*state.history, record))


def _tile_placed(state: State, event: TilePlaced) -> State:
    layout = state.layout.place(event.cell, Placed(event.tile, event.player, state.layout.next_seq))
    after = track(state.but(layout=layout, phase=Phase.DRAW))
    return after.with_record(cell=event.cell).with_move(
        "tile",
        player=event.player,
        tile=event.tile.value,
        cell=event.cell,
        default=event.default,
    )


def _tile_removed(state: State, event: TileRemoved) -> State:
    return state.but(phase=Phase.DRAW, removed=(*state.removed, event.tile)).with_move(
        "removed", tile=event.tile.value
    )


def _draw_chosen(state: State, event: DrawChosen) -> State:
    return (
        state.but(phase=Phase.FREE)
        .with_record(drew=event.what)
        .with_move("draw", player=event.player, kind=event.what, default=event.default)
    )


def _action_drawn(state: State, event: ActionDrawn) -> State:
    card = card_of_key(event.card)
    after = state.but(actions=state.actions[1:])
    after = after.with_seat("hands", event.player, (*state.hand_of(event.player), card))
    if state.poker is not None and state.poker.stage is pk.Stage.DRAW:
        # the challenged's forced draw is the poker game's too
        after = after.but(poker=pk.forced_draw(state.poker, poker_card(card)))
    return after.with_move("drawn", player=event.player, count=1)


def _shots_drawn(state: State, event: ShotsDrawn) -> State:
    after = state.but(shot_deck=state.shot_deck[len(event.cards) :])
    after = after.with_seat("shots", event.player, (*state.shots_of(event.player), *event.cards))
    # the active player's draw is the one they chose (« coups »); another
    # player's is a bank owner's, after the attack: the post says it
    owner = state.current is not None and state.current.player != event.player
    return after.with_move("drawn", player=event.player, count=len(event.cards), owner=owner)


def _deck_reshuffled(state: State, event: DeckReshuffled) -> State:
    counts = dict(state.shuffles)
    counts[event.deck] = event.number
    given = list(state.given_orders)
    for i, (deck, _) in enumerate(given):
        if deck == event.deck:
            del given[i]
            break
    after = state.but(shuffles=tuple(counts.items()), given_orders=tuple(given))
    if after.current is None:
        return after
    # the turn's post says so: a new deck, and the draw that ordered it (or the MJ)
    return after.with_move("reshuffled", deck=event.deck, number=event.number)


def _turn_ended(state: State, event: TurnEnded) -> State:
    after = add_cash(state, event.player, event.income)
    after = after.with_record(income=event.income, ended=True)
    return after.with_move(
        "income", player=event.player, amount=event.income, default=event.default
    )


def _game_ended(state: State, event: GameEnded) -> State:
    after = state.but(phase=Phase.OVER, winners=event.winners, won_by=event.why, combat=None)
    return (
        after.with_move("won", winners=list(event.winners), why=event.why)
        if after.history
        else after
    )


DECIDE: dict[type[Command], Decider] = {PlaceTile: place_tile, Draw: draw, EndTurn: end_turn}
EVOLVE: dict[type[Event], Evolver] = {
    TileDrawn: _tile_drawn,
    TilePlaced: _tile_placed,
    TileRemoved: _tile_removed,
    DrawChosen: _draw_chosen,
    ActionDrawn: _action_drawn,
    ShotsDrawn: _shots_drawn,
    DeckReshuffled: _deck_reshuffled,
    TurnEnded: _turn_ended,
    GameEnded: _game_ended,
}
