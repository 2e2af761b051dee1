"""Players' names in Rattlesnake City's messages: a name holding words of
the game (« Poker Alice », « Whisky Jack ») or half a card's name (« Joe »,
« Jim ») is read as the player wherever it is written whole, never as a card
or a word of the game; a name that is a card's own name (« Lili ») is refused
when the campaign is created, as a cell or a number is."""

from __future__ import annotations

import pytest
from rattlesnake_support import SMALL
from test_rattlesnake_rules import dealt, say

from gm.errors import InputError
from gm.games.rattlesnake import notation, rules
from gm.games.rattlesnake.cards import Card
from gm.games.rattlesnake.commands import AttackBank, Challenge, PlayDivers, Trade
from gm.games.rattlesnake.model import Phase


def test_r12_a_player_called_like_half_a_card_is_the_player_of_a_trade() -> None:
    # Joe placed the last saloon: his turn first (banque in B1), then ana's (store in A2)
    state = dealt(
        players=("ana", "Joe"),
        bag="banque, store",
        hands={"ana": "Slippery Joe, Whisky frelaté, 1, 2, 3", "Joe": "4, 5, 6, 7, 8"},
    )
    for text in ("B1", "action", "fin"):
        state = say(state, "Joe", text)
    state = say(say(state, "ana", "A2"), "ana", "action")
    assert state.phase is Phase.FREE and state.active == "ana"
    sale = "vend Slippery Joe à Joe pour 1000"
    assert notation.parse(state, "ana", sale) == (Trade("ana", "Joe", Card.SLIPPERY, 1000),)
    state = say(say(state, "ana", sale), "ana", "Whisky frelaté devant joe")
    assert Card.SLIPPERY in state.hand_of("Joe") and state.permanents_of("Joe") == (Card.WHISKY,)
    # Joe: 10 000 $, 1 000 for his banque, 1 000 paid to ana
    assert (state.cash_of("ana"), state.cash_of("Joe")) == (11000, 10000)


def test_a_name_holding_words_of_the_game_is_read_as_the_name() -> None:
    state = dealt(players=("ana", "Poker Alice"), bag="banque, store")
    state = say(say(state, "Poker Alice", "B1"), "Poker Alice", "action")
    assert notation.parse(state, "ana", "attaque Poker Alice 1") == (
        AttackBank("ana", "Poker Alice", (1,), None),
    )
    assert notation.parse(state, "ana", "poker Poker Alice 3000") == (
        Challenge("ana", "Poker Alice", 3000),
    )
    assert notation.parse(state, "ana", "Whisky devant POKER ALICE") == (
        PlayDivers("ana", Card.WHISKY, "Poker Alice"),
    )


@pytest.mark.parametrize("name", ["Lili", "coyote", "Stinky Joe", "Goudron et Plumes", "le 7"])
def test_a_card_s_own_name_is_no_player_s(name: str) -> None:
    with pytest.raises(InputError, match="reads as a word of the game") as refused:
        rules.configure((name, "bob"), {"board_text": SMALL})
    assert refused.value.code == "rattlesnake/player-name"


@pytest.mark.parametrize("name", ["Joe", "Jim", "Poker Alice", "Whisky Jack", "Coyote Bill"])
def test_a_name_holding_a_card_s_word_is_a_player_s(name: str) -> None:
    assert rules.configure((name, "bob"), {"board_text": SMALL})
