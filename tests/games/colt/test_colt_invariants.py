"""The invariants of Colt Express (gm/games/colt/rules.md), as Hypothesis
properties over random legal games built from the game's own
``legal_inputs``, played on the pure rules with the fortune:

* each bandit's cards: hand + deck + cards in the pile are the 10 action
  cards and one Balle per bullet received before the round; the barillet
  and the neutral bullets only shrink, and every bullet received was fired
  by a bandit or taken from the 13 neutral ones;
* loot is conserved: what lies on the train, what the bandits carry, the
  strongbox beside the train and the purses events removed always add up
  to the setup's total (ransoms apart);
* a bandit is always on one spot of the train, the Marshal always inside one
  of its cars;
* the game ends after the fifth round, nothing is played after it, and the
  winners are R-10's: the richest with the As de la gâchette, a tie broken
  by the fewest bullets received.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gm.core.fortune import FortuneDraws
from gm.core.protocol import GM, Command, Table
from gm.errors import GameOverError
from gm.games.colt import GAME, rules, score
from gm.games.colt.cards import ACTION_DECK, BARILLET, NEUTRAL_BULLETS, STRONGBOX_VALUE, Card
from gm.games.colt.model import Phase, State

STEPS = {s.name: s for s in GAME.steps}


def total_loot(state: State) -> int:
    lying = sum(loot.value for loot in (*state.inside, *state.roofs))
    carried = sum(b.loot - b.ransom for b in state.bandits)
    return lying + carried + STRONGBOX_VALUE * state.spare_strongbox + sum(state.removed)


def check(state: State, before: State, start: int, balles: dict[str, int]) -> None:
    assert total_loot(state) == start
    assert 0 <= state.marshal <= state.n
    fired = sum(BARILLET - b.barillet for b in state.bandits)
    assert sum(b.received for b in state.bandits) == fired + NEUTRAL_BULLETS - state.neutral
    assert state.neutral <= before.neutral
    for b, old in zip(state.bandits, before.bandits, strict=True):
        assert 0 <= b.car <= state.n
        assert b.barillet <= old.barillet and b.received >= old.received
        if state.phase in (Phase.PLAN, Phase.ACTION, Phase.EVENT):
            pile = [p.card for p in state.pile if p.player == b.name]
            cards = Counter([*b.hand, *b.deck, *pile])
            assert cards[Card.BULLET] == balles[b.name]
            del cards[Card.BULLET]
            assert cards == Counter(ACTION_DECK)


def commands(state: State, item) -> list[tuple[str, Command]]:  # type: ignore[no-untyped-def]
    if item.step == "default":
        player = item.values["player"]
        return [(GM, rules.default_for(state, player))]
    if item.step is not None:
        return [(GM, STEPS[item.step].build(dict(item.values), Table.of(state.players)))]
    return [(item.actor, c) for c in GAME.parse(state, item.actor, item.text)]


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(3, 6))
def test_random_legal_games_keep_the_invariants(seed: int, players: int) -> None:
    rng = random.Random(seed)
    names = ["ana", "bob", "cleo", "dan", "eve", "fay"][:players]
    state = GAME.initial_state(names, {})
    drawn: set[str] = set()
    start: int | None = None
    balles: dict[str, int] = {}
    for _ in range(3000):
        if GAME.is_over(state):
            break
        inputs = GAME.legal_inputs(state)
        assert inputs
        item = rng.choice(inputs)
        before = state
        for actor, command in commands(state, item):
            draws = FortuneDraws(str(seed), drawn=drawn)
            state, _ = rules.play(state, actor, command, draws)
            drawn.update(draws.opened)
        if before.phase is Phase.SETUP:
            start = total_loot(state)
        if state.round != before.round:
            balles = {b.name: b.received for b in state.bandits}
        if start is not None and before.bandits:
            check(state, before, start, balles)
    assert GAME.is_over(state)
    assert len(state.history) == 5
    # the end: nothing more is played, and R-10's winners, worked from the bandits
    assert not GAME.legal_inputs(state)
    with pytest.raises(GameOverError):
        GAME.parse(state, names[0], "je joue Tir")
    fewest = min(b.barillet for b in state.bandits)
    scored = {b.name: b.loot + (1000 if b.barillet == fewest else 0) for b in state.bandits}
    best = [b for b in state.bandits if scored[b.name] == max(scored.values())]
    least = min(b.received for b in best)
    assert score.winners(state) == tuple(b.name for b in best if b.received == least)
