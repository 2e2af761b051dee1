"""The invariants of Rattlesnake City (gm/games/rattlesnake/rules.md, « Invariants »),
as Hypothesis properties over random legal games built from the game's own
``legal_inputs``, played on the pure rules (``decide``/``evolve``) with the
fortune, on the default valley, the small one of ``rattlesnake_support`` or
the campaigns' petite vallée (three towns of two building cells, R-1):

* every tile is in exactly one place: the bag, the board (a building on a
  cell, a rail tile on a slot), the hand of the player who drew it (step 1),
  or out of the game — together the bag the board calls for (R-3);
* every action card is in exactly one place (the deck, the discard pile, a
  hand, in front of a player), and every shot card too (deck, discard, a
  player's shot cards);
* no town holds two buildings of the same kind except cemeteries; a prairie
  cell holds only a ranch, a mine cell only a mine, a station only a gare;
* money moves only through income, trades, bank attacks and bounties: each
  player's cash is 10 000 $ plus what the events paid them and minus what
  they paid, never below zero; the income track is never negative;
* the end (R-18): the game ends with the event that ends it and nothing
  after; a threshold win goes to every player at or above the threshold, a
  last-tile end comes with an empty bag and goes to the richest (R-10); a
  turn that ends without ending the game draws the next turn's tile; and
  while a turn is at its tile, its draw or its steps 3 and 4, nobody has
  reached the threshold (it is checked after each card, trade, bank payment,
  poker game and income).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rattlesnake_support import SMALL

from gm.core.fortune import FortuneDraws
from gm.core.protocol import GM, Command, Event, Table
from gm.errors import GameOverError
from gm.games.rattlesnake import GAME, rules
from gm.games.rattlesnake.board import Zone
from gm.games.rattlesnake.cards import ACTION_DECK, SHOT_DECK
from gm.games.rattlesnake.events import (
    BountyCollected,
    CardSold,
    CashSeized,
    GameEnded,
    PokerMoney,
    TileDrawn,
    TurnEnded,
)
from gm.games.rattlesnake.model import START_CASH, Phase, State, threshold
from gm.games.rattlesnake.rules import action_of
from gm.games.rattlesnake.tiles import Tile, bag

STEPS = {s.name: s for s in GAME.steps}
PETITE = (Path(__file__).parents[3] / "campaigns" / "petite-vallee.board.toml").read_text(
    encoding="utf-8"
)


def commands(state: State, item: Any) -> list[tuple[str, Command]]:
    if item.step == "default":
        return [(GM, rules.default_for(state, item.values["player"]))]
    if item.step is not None:
        return [(GM, STEPS[item.step].build(dict(item.values), Table.of(state.players)))]
    return [(item.actor, c) for c in GAME.parse(state, item.actor, item.text)]


def money(
    events: list[Event], players: tuple[str, ...], start: dict[str, int] | None = None
) -> dict[str, int]:
    """Each player's cash as the money events make it, from 10 000 $ (or
    ``start``): income, bounties, trades, bank attacks and poker (every stake
    and share)."""
    cash = dict(start) if start else dict.fromkeys(players, START_CASH)
    for event in events:
        match event:
            case TurnEnded():
                assert event.income >= 0
                cash[event.player] += event.income
            case BountyCollected():
                cash[event.player] += event.amount
            case CardSold():
                cash[event.buyer] -= event.price
                cash[event.seller] += event.price
            case CashSeized():
                cash[event.source] -= event.amount
                cash[event.to] += event.amount
            case PokerMoney():  # into the pot (target None) or out of it (source None)
                assert event.amount > 0 and event.amount % 1000 == 0
                if event.source is not None:
                    cash[event.source] -= event.amount
                if event.target is not None:
                    cash[event.target] += event.amount
    return cash


def pot(events: list[Event]) -> int:
    """What lies in the poker pot: every stake in, every share and win out."""
    total = 0
    for event in events:
        if isinstance(event, PokerMoney):
            total += event.amount if event.target is None else 0
            total -= event.amount if event.source is None else 0
    return total


def check(state: State, events: list[Event], start: dict[str, int] | None = None) -> None:
    board = state.board
    # tiles: bag + board + drawn + removed = the board's bag
    where: Counter[Tile] = Counter(state.bag)
    where.update(p.kind for p in state.layout.tiles.values() if p.kind is not Tile.SALOON)
    where.update(Tile(board.slot(s).shape) for s in state.layout.rails)
    where.update(state.removed)
    record = state.current
    if state.phase is Phase.TILE and record is not None:
        where[record.tile] += 1  # drawn, not placed yet
    assert where == Counter(bag(board))
    assert sum(p.kind is Tile.SALOON for p in state.layout.tiles.values()) <= len(state.players)
    # action cards and shot cards, each in one place
    cards: Counter[Any] = Counter(state.actions)
    cards.update(state.action_discard)
    for player in state.players:
        cards.update(state.hand_of(player))
        cards.update(state.permanents_of(player))
    if state.poker is not None:  # on the table: played, chosen, discarded unseen
        cards.update(action_of(c) for c in state.poker.played)
        cards.update(s.card for s in state.poker.seats if s.card is not None)
        if state.poker.unseen is not None:
            cards[state.poker.unseen] += 1
    assert cards == Counter(ACTION_DECK)
    shots: Counter[int] = Counter(state.shot_deck)
    shots.update(state.shot_discard)
    for player in state.players:
        shots.update(state.shots_of(player))
    assert shots == Counter(SHOT_DECK)
    # the valley: one building of a kind per town but cemeteries; zones hold their tiles
    for town in board.towns:
        kinds = [state.layout.tiles[c].kind for c in town.cell_names if c in state.layout.tiles]
        doubled = [k for k, n in Counter(kinds).items() if n > 1 and k is not Tile.CIMETIERE]
        assert not doubled, (town.id, kinds)
    for name, placed in state.layout.tiles.items():
        zone = board.spots[name].zone
        wanted = {Zone.PRAIRIE: Tile.RANCH, Zone.MINE: Tile.MINE, Zone.STATION: Tile.GARE}
        if zone in wanted:
            assert placed.kind is wanted[zone], (name, placed.kind)
        else:
            assert placed.kind not in (Tile.RANCH, Tile.MINE, Tile.GARE), (name, placed.kind)
    # money
    assert money(events, state.players, start) == {p: state.cash_of(p) for p in state.players}
    if state.phase is not Phase.POKER:  # a poker game over: its pot fully paid out
        assert pot(events) == 0
    assert all(c >= 0 for c in state.cash)
    assert all(i >= 0 for i in state.income)


def check_end(state: State, new: list[Event]) -> None:
    ended = [i for i, e in enumerate(new) if isinstance(e, GameEnded)]
    cash = {p: state.cash_of(p) for p in state.players}
    limit = threshold(len(state.players))
    if ended:
        (i,) = ended
        assert i == len(new) - 1, new[i:]  # nothing played after the end
        assert state.phase is Phase.OVER
        end = new[i]
        assert isinstance(end, GameEnded)
        if end.why == "threshold":
            assert set(end.winners) == {p for p, c in cash.items() if c >= limit}, (end, cash)
        else:
            assert end.why == "last-tile" and not state.bag, end
            assert all(c < limit for c in cash.values()), (end, cash)
            assert set(end.winners) == {p for p, c in cash.items() if c == max(cash.values())}
        return
    assert state.phase is not Phase.OVER
    if state.phase in (Phase.TILE, Phase.DRAW, Phase.FREE):
        assert all(c < limit for c in cash.values()), (state.phase, cash)
    for i, event in enumerate(new):
        if isinstance(event, TurnEnded):
            assert any(isinstance(e, TileDrawn) for e in new[i:]), new[i:]


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    players=st.integers(2, 6),
    valley=st.sampled_from(["default", "small", "petite"]),
    rich=st.booleans(),
)
def test_random_legal_games_keep_the_invariants(
    seed: int, players: int, valley: str, rich: bool
) -> None:
    """``rich``: the players start their first turn a few thousand dollars
    short of the threshold, so that R-18's wins in the middle of a turn (a
    card, a trade, a bank payment, a poker game) and at its income happen."""
    rng = random.Random(seed)
    start: dict[str, int] | None = None
    boards = {"small": SMALL, "petite": PETITE}
    names = ("ana", "bob", "cleo", "dan", "eve", "fay")[
        : min(players, 3) if valley in boards else players
    ]
    options = GAME.configure(names, {"board_text": boards[valley]} if valley in boards else {})
    state = GAME.initial_state(names, options)
    drawn: set[str] = set()
    events: list[Event] = []
    for _ in range(1500):
        if GAME.is_over(state):
            break
        inputs = GAME.legal_inputs(state)
        assert inputs
        # « fin » and defaults a little less often: turns with cards, trades, attacks
        item = rng.choice(inputs)
        if item.text == "fin" or item.step == "default":
            item = rng.choice(inputs)
        for actor, command in commands(state, item):
            draws = FortuneDraws(str(seed), drawn=drawn)
            new = rules.decide(state, actor, command, draws)
            drawn.update(draws.opened)
            for event in new:
                state = rules.evolve(state, event)
            events += new
            check_end(state, list(new))
        if rich and start is None and state.phase is Phase.TILE:
            limit = threshold(len(state.players))
            cash = tuple(limit - 1000 * rng.randint(1, 12) for _ in state.players)
            state = replace(state, cash=cash)
            start = {
                p: c - money(events, state.players)[p] + START_CASH
                for p, c in zip(state.players, cash, strict=True)
            }
        if state.phase is not Phase.SETUP:
            check(state, events, start)
    if GAME.is_over(state):
        assert state.winners
        # nothing is played after the end: no input offered, a message, a default refused
        assert not GAME.legal_inputs(state)
        for who in names:
            with pytest.raises(GameOverError):
                GAME.parse(state, who, "fin")
            with pytest.raises(GameOverError):
                rules.default_for(state, who)
