"""The card invariants of the rules page, as Hypothesis properties over random legal games.

Games are built from ``legal_inputs`` alone (Hypothesis picks the next input
and whether the MJ steps now), so every input the game offers is also
checked to be accepted. After every event:

* each player's cards are exactly hand + played this manche + removed pile =
  their nine cards;
* a card leaves a removed pile only through a green 8's pick;
* the gold of a manche = the players' gold + the unclaimed tie pot = all the
  gold its duels put on the table (each winner's gold and each tie's 2);

and after every command, no public view names a card its player has not
shown (in a revealed duel, a green-8 pick or a final duel). At the end, the
fold of the log (through the codec) is the state.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from fistful_support import CODEC, Table, refold
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gm.core.protocol import Event, ScenarioStep
from gm.games.fistful import GAME
from gm.games.fistful.cards import DECK, sort_cards
from gm.games.fistful.events import CardPicked, DuelResolved, MancheEnded
from gm.games.fistful.model import Outcome, Phase, State


def check_cards(state: State) -> None:
    for p in state.players:
        assert len(p.hand) + len(p.played) + len(p.removed) == len(DECK), p
        assert sort_cards((*p.hand, *p.played, *p.removed)) == DECK, p


def check_removed(before: State, event: Event, after: State) -> None:
    for old, new in zip(before.players, after.players, strict=True):
        back = set(old.removed) - set(new.removed)
        if back:
            assert isinstance(event, CardPicked) and back == {event.card}, (event, back)


def placed(outcome: Outcome) -> int:
    """The gold a duel put on the table: the winner's, or a tie's."""
    return outcome.gold + outcome.tie_gold


def check_gold(state: State) -> None:
    for record in state.history:
        on_table = sum(placed(d.outcome) for d in record.duels)
        result = record.result
        if result is not None:
            if result.final is not None:
                on_table += placed(result.final)
            assert sum(result.gold.values()) + result.tie_pot == on_table, result
        elif state.phase in (Phase.DUEL, Phase.END):
            assert sum(p.gold for p in state.players) + state.tie_pot == on_table


def shown_by(events: list[Event]) -> dict[str, set[str]]:
    shown: dict[str, set[str]] = defaultdict(set)
    for event in events:
        if isinstance(event, DuelResolved):
            for player, card in event.outcome.cards.items():
                shown[player].add(str(card))
        elif isinstance(event, CardPicked):
            shown[event.player].add(str(event.card))
        elif isinstance(event, MancheEnded) and event.result.final is not None:
            for player, card in event.result.final.cards.items():
                shown[player].add(str(card))
    return shown


def mentions(value: Any, key: str | None = None) -> list[tuple[str, str]]:
    """Every (player, card) a view holds, but the forbidden cards (no player's card)."""
    found: list[tuple[str, str]] = []
    if isinstance(value, dict):
        if isinstance(value.get("player"), str) and isinstance(value.get("card"), str):
            found.append((value["player"], value["card"]))
        for k, v in value.items():
            if k != "forbidden_next":
                found.extend(mentions(v, k))
    elif isinstance(value, list):
        for v in value:
            found.extend(mentions(v, key))
    return found


def check_public(table: Table, refs: tuple[Any, ...]) -> None:
    shown = shown_by(table.events)
    for ref in refs:
        if ref.kind == "disclosure":
            continue
        for player, card in mentions(GAME.public_view(table.state, ref)):
            assert card in shown[player], (ref, player, card, shown)


def choose(data: st.DataObject, inputs: tuple[ScenarioStep, ...]) -> ScenarioStep:
    steps = [i for i in inputs if i.step is not None]
    messages = [i for i in inputs if i.step is None]
    if steps and (not messages or data.draw(st.booleans(), label="the MJ steps now")):
        return data.draw(st.sampled_from(steps), label="step")
    return data.draw(st.sampled_from(messages), label="message")


# A whole game is the smallest input that reaches its end: large by nature;
# 25 whole games a run (the CI profile's 60 is for smaller inputs).
@settings(
    max_examples=25,
    suppress_health_check=[
        HealthCheck.large_base_example,
        HealthCheck.data_too_large,
        HealthCheck.too_slow,
    ]
)
@given(
    data=st.data(),
    length=st.sampled_from(["short", "long"]),
    colors=st.sampled_from(["ana=red", "ana=green"]),
)
def test_card_invariants_hold_in_random_legal_games(
    data: st.DataObject, length: str, colors: str
) -> None:
    t = Table.new(length=length, colors=colors)
    check_cards(t.state)
    while not GAME.is_over(t.state):
        inputs = GAME.legal_inputs(t.state)
        assert inputs, GAME.phase(t.state)
        item = choose(data, inputs)
        before = t.state
        events = t.feed(item)  # every legal input is accepted
        state = before
        for event in events:
            assert CODEC.decode(*CODEC.encode(event)) == event
            after = GAME.evolve(state, event)
            check_cards(after)
            check_removed(state, event, after)
            state = after
        assert state == t.state
        check_gold(t.state)
        check_public(t, GAME.posts_after(before, events, t.state))
    assert GAME.legal_inputs(t.state) == ()
    assert refold(t.events, colors=colors, length=length) == t.state
    summary = GAME.summary(t.state)
    assert summary["finished"] and len(summary["manches"]) == len(t.state.history)
    winners = summary["winners"]
    stars = summary["stars"]
    assert all(stars[w] == max(stars.values()) for w in winners)
