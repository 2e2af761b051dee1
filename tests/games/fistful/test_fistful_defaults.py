"""R-8: the default of a silent duellist, the first legal cards in deck order."""

from __future__ import annotations

import pytest
from fistful_support import Table, cards, with_hands

from gm.errors import PhaseError
from gm.games.fistful.cards import Card
from gm.games.fistful.commands import DiscardAtSetup, PlayCard
from gm.games.fistful.rules import default_for


def test_r8_the_default_setup_discard_is_the_1_and_the_2() -> None:
    table = Table.new()
    table.send("ana", "5 et 6")
    assert default_for(table.state, "bob") == DiscardAtSetup("bob", cards("1 2"))


def test_r8_the_default_duel_card_is_the_first_in_deck_order() -> None:
    table = Table.new().start(ana="1 2", bob="3 4")
    assert default_for(table.state, "ana") == PlayCard("ana", Card.THREE)
    assert default_for(table.state, "bob") == PlayCard("bob", Card.ONE)


def test_r8_the_default_duel_card_is_never_the_forbidden_one() -> None:
    table = Table.new().start()
    table.duel("3", "5")  # ana may not play the 4 in duel 2
    state = with_hands(table.state, ana="4 6 7 8 dynamite")
    assert state.player("ana").last is Card.THREE
    assert default_for(state, "ana") == PlayCard("ana", Card.SIX)


def test_r8_a_default_for_a_player_who_owes_nothing_is_refused() -> None:
    table = Table.new()
    table.send("ana", "5 et 6")
    with pytest.raises(PhaseError, match=r"^nothing is due from ana now \(setup\)") as err:
        default_for(table.state, "ana")
    assert err.value.code == "fistful/nothing-owed"


def test_r8_defaults_alone_play_a_whole_game_to_its_end() -> None:
    table = Table.new()
    for _ in range(500):
        if table.phase.name == "OVER":
            break
        waiting = [n for n in table.state.names if default_for_or_none(table, n)]
        if waiting:
            table._apply("gm", default_for(table.state, waiting[0]))
        else:
            step = {"SETUP": "start", "DUEL": "reveal", "END": "resolve"}[table.phase.name]
            table.step(step)
    assert table.phase.name == "OVER"


def default_for_or_none(table: Table, name: str) -> bool:
    try:
        default_for(table.state, name)
    except PhaseError:
        return False
    return True
