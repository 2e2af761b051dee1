"""Rattlesnake City's deal and saloons (``gm/games/rattlesnake/rules.md``, Setup; R-3).

This module owns ``gm setup`` (the first player, the bag, the two decks and
the hands: what a scenario gives, the rest shuffled by the fortune) and the
saloons placed in seating order, with the events they record; the last
saloon begins the first turn (``turn``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from gm.core import rules as core_rules
from gm.core.protocol import Command, Draws, Event
from gm.errors import InputError

from . import turn
from .cards import ACTION_DECK, SHOT_DECK
from .commands import PlaceSaloon, SetUp
from .engine import (
    GAME,
    Decider,
    Evolver,
    Run,
    acting,
    cell_named,
    find_player,
    not_now,
    refuse,
    track,
)
from .events import BagFilled, DeckShuffled, GameSetUp, HandDealt, OrdersGiven, SaloonPlaced
from .model import HAND_SIZE, Phase, State, card_key, cards_of_keys
from .tiles import Placed, Tile, bag, legal_cells

# --- decide ------------------------------------------------------------------------------------


def _take(pool: Counter[str], wanted: Iterable[str], what: str, where: str) -> None:
    """Take ``wanted`` out of ``pool``, refusing what the components cannot give (R-3)."""
    for key in wanted:
        if pool[key] <= 0:
            raise InputError(
                f"{where}: one {key!r} too many for the {what} (R-3 counts)",
                code="rattlesnake/bad-setup",
                params={"where": where, "card": key},
            )
        pool[key] -= 1


def _rest(pool: Counter[str], order: Sequence[str]) -> list[str]:
    """What is left in ``pool``, in the fixed order of ``order`` (a shuffle's input)."""
    left = Counter(pool)
    out = []
    for key in order:
        if left[key] > 0:
            out.append(key)
            left[key] -= 1
    return out


def set_up(run: Run, actor: str, command: SetUp, draws: Draws) -> None:
    state = run.state
    core_rules.require_gm(GAME, actor, command)
    if state.phase is not Phase.SETUP:
        raise not_now(state, "dealing")
    players = state.players
    first = (
        find_player(state, command.first)
        if command.first is not None
        else players[draws.stream("setup/first").below(len(players))]
    )
    # the bag: its top as given, the rest shuffled by the fortune
    tile_order = [t.value for t in bag(state.board)]
    tiles = Counter(tile_order)
    _take(tiles, [t.value for t in command.bag], "bag", "bag")
    rest = draws.stream("setup/bag").shuffle(_rest(tiles, tile_order))
    bag_order = (*command.bag, *(Tile(t) for t in rest))
    # the action deck: the hands, the top as given, the rest shuffled
    action_order = [card_key(c) for c in ACTION_DECK]
    pool = Counter(action_order)
    hands: dict[str, tuple[str, ...]] = {}
    if command.hands is not None:
        given = {find_player(state, p): cards for p, cards in command.hands}
        missing = [p for p in players if p not in given]
        if missing:
            raise InputError(
                f"hands: give every player's hand, or none (missing: {', '.join(missing)})",
                code="rattlesnake/bad-setup",
                params={"missing": missing},
            )
        for player in players:
            if len(given[player]) != HAND_SIZE:
                raise InputError(
                    f"hands: {player} must hold {HAND_SIZE} cards, not {len(given[player])}",
                    code="rattlesnake/bad-setup",
                    params={"player": player},
                )
            _take(pool, given[player], "action deck", f"hands.{player}")
            hands[player] = tuple(given[player])
    _take(pool, command.actions, "action deck", "actions")
    shuffled = draws.stream("setup/actions").shuffle(_rest(pool, action_order))
    if command.hands is None:
        start = players.index(first)
        for i in range(len(players)):
            player = players[(start + i) % len(players)]
            hands[player] = tuple(shuffled[:HAND_SIZE])
            shuffled = shuffled[HAND_SIZE:]
    actions = (*command.actions, *shuffled)
    # the shot deck
    shot_order = [str(s) for s in SHOT_DECK]
    shots_pool = Counter(shot_order)
    _take(shots_pool, [str(s) for s in command.shots], "shot deck", "shots")
    shot_rest = draws.stream("setup/shots").shuffle(_rest(shots_pool, shot_order))
    shot_deck = (*(str(s) for s in command.shots), *shot_rest)
    for deck, _ in command.reshuffles:
        if deck not in ("actions", "shots"):
            raise InputError(
                f"a reshuffle order is for 'actions' or 'shots', not {deck!r}",
                code="rattlesnake/bad-setup",
            )
    scripted = bool(command.bag or command.actions or command.shots or command.hands)
    run.emit(
        GameSetUp(first, scripted),
        BagFilled(tuple(bag_order)),
        DeckShuffled("actions", 0, tuple(actions)),
        DeckShuffled("shots", 0, tuple(shot_deck)),
        *(HandDealt(p, hands[p]) for p in players),
    )
    if command.reshuffles:
        run.emit(OrdersGiven(tuple(command.reshuffles)))


# the saloons ----------------------------------------------------------------------------------


def place_saloon(run: Run, actor: str, command: PlaceSaloon, draws: Draws) -> None:
    state = run.state
    player = acting(state, actor, command.player)
    if state.phase is not Phase.SALOONS:
        raise not_now(state, "placing a saloon")
    if player != state.saloon_turn:
        raise refuse(
            f"it is {state.saloon_turn}'s turn to place a saloon, not {player}'s",
            "not-your-turn",
            player=player,
            turn=state.saloon_turn,
        )
    cell = cell_named(state, command.cell)
    legal = legal_cells(state.board, state.layout, Tile.SALOON)
    if cell not in legal:
        raise refuse(
            f"a saloon cannot go on {cell}: a free building cell of a town nobody owns"
            f" (legal: {', '.join(legal)})",
            "bad-saloon",
            cell=cell,
            legal=list(legal),
        )
    run.emit(SaloonPlaced(player, cell))
    if run.state.order:  # every town has its saloon: the first turn begins
        turn.begin_turn(run, draws)


def play_order(state: State) -> tuple[str, ...]:
    """The player who placed the last saloon, then clockwise."""
    assert state.first is not None
    n = len(state.players)
    last = (state.seat(state.first) + n - 1) % n
    return tuple(state.players[(last + i) % n] for i in range(n))


# --- evolve ------------------------------------------------------------------------------------


def _set_up(state: State, event: GameSetUp) -> State:
    return state.but(phase=Phase.SALOONS, first=event.first)


def _bag_filled(state: State, event: BagFilled) -> State:
    return state.but(bag=tuple(event.tiles))


def _deck_shuffled(state: State, event: DeckShuffled) -> State:
    if event.deck == "actions":
        return state.but(actions=cards_of_keys(event.cards), action_discard=())
    return state.but(shot_deck=tuple(int(c) for c in event.cards), shot_discard=())


def _orders_given(state: State, event: OrdersGiven) -> State:
    return state.but(given_orders=tuple(event.orders))


def _hand_dealt(state: State, event: HandDealt) -> State:
    return state.with_seat("hands", event.player, cards_of_keys(event.cards))


def _saloon_placed(state: State, event: SaloonPlaced) -> State:
    layout = state.layout.place(
        event.cell, Placed(Tile.SALOON, event.player, state.layout.next_seq)
    )
    after = track(state.but(layout=layout))
    if all(after.town_of_player(p) is not None for p in after.players):
        after = after.but(order=play_order(after))
    return after


DECIDE: dict[type[Command], Decider] = {SetUp: set_up, PlaceSaloon: place_saloon}
EVOLVE: dict[type[Event], Evolver] = {
    GameSetUp: _set_up,
    BagFilled: _bag_filled,
    DeckShuffled: _deck_shuffled,
    OrdersGiven: _orders_given,
    HandDealt: _hand_dealt,
    SaloonPlaced: _saloon_placed,
}
