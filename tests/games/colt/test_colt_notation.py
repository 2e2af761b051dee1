"""Colt Express's free-text notation: plays, draws, choices, conditionals and
refusals, and every phrase the posts list read back as its outcome."""

from __future__ import annotations

from dataclasses import replace

import pytest
from colt_support import action_on, give, lay, place, train

from gm.errors import IllegalOrderError, OrderSyntaxError, PhaseError
from gm.games.colt import action, notation, rules
from gm.games.colt.cards import Card
from gm.games.colt.commands import Choose, DrawCards, Pickpocket, PlayCard
from gm.games.colt.model import Choice, Loot, Phase
from gm.games.colt.words import phrase


def test_plays_and_draws_in_the_players_words() -> None:
    state = train(players=("ana", "bob", "cleo"), characters=("Ghost", "Belle", "Tuco"))
    assert notation.parse(state, "ana", "je joue Tir") == (PlayCard("ana", Card.SHOOT),)
    assert notation.parse(state, "ana", "Changement d'étage !") == (PlayCard("ana", Card.FLOOR),)
    assert notation.parse(state, "ana", "COUP DE POING") == (PlayCard("ana", Card.PUNCH),)
    assert notation.parse(state, "ana", "Braquage face cachée") == (
        PlayCard("ana", Card.ROB, face_down=True),
    )
    assert notation.parse(state, "ana", "bon, je pioche") == (DrawCards("ana"),)
    with pytest.raises(OrderSyntaxError, match="play a card or draw"):
        notation.parse(state, "ana", "je pioche un Tir")
    with pytest.raises(OrderSyntaxError, match="face down"):
        notation.parse(state, "ana", "je pioche face cachée")
    with pytest.raises(OrderSyntaxError, match="two values of one card"):
        notation.parse(state, "ana", "Tir et Braquage")
    with pytest.raises(IllegalOrderError, match="it is ana's turn"):
        notation.parse(state, "bob", "je joue Tir")


def test_a_play_with_its_instructions() -> None:
    state = train(players=("ana", "bob", "cleo"))
    commands = notation.parse(state, "ana", "je joue Tir, sur Tuco sinon sur bob")
    assert commands[0] == PlayCard("ana", Card.SHOOT)
    choose = commands[1]
    assert isinstance(choose, Choose) and choose.latest and choose.card is Card.SHOOT
    assert [a.target for a in choose.alternatives] == ["cleo", "bob"]


def test_choices_read_every_element() -> None:
    state = action_on(place(train(), ana=(2, "roof"), bob=(2, "roof")), ("ana", Card.PUNCH))
    (choose,) = notation.parse(state, "ana", "Coup de poing : sur Django, le bijou, vers l'arrière")
    assert choose == Choose(
        "ana", (Choice(direction="back", target="bob", loot="jewel"),), Card.PUNCH
    )
    (move,) = notation.parse(state, "ana", "vers la locomotive, deux wagons")
    assert move.alternatives == (Choice(direction="front", distance=2),)
    (purse,) = notation.parse(state, "ana", "la bourse de 300")
    assert purse.alternatives == (Choice(loot="purse", value=300),)
    with pytest.raises(OrderSyntaxError, match="two values of one direction"):
        notation.parse(state, "ana", "vers l'avant puis vers l'arrière")


def test_a_signature_is_no_target() -> None:
    state = action_on(place(train(), ana=(2, "roof"), bob=(2, "roof")), ("ana", Card.PUNCH))
    (choose,) = notation.parse(state, "ana", "sur bob, vers l'arrière. Signé ana")
    assert choose.alternatives[0].target == "bob"


def test_conditional_alternatives_split_at_sinon() -> None:
    state = action_on(place(train(), ana=(2, "roof")), ("bob", Card.MOVE), ("ana", Card.SHOOT))
    (choose,) = notation.parse(
        state, "ana", "Tir : si je peux tirer sur Tuco, je tire sur Tuco, sinon sur Django"
    )
    assert choose.conditional and choose.card is Card.SHOOT
    assert [a.target for a in choose.alternatives] == ["cleo", "bob"]


def test_pickpocket_words() -> None:
    state = place(train(), ana=(1, "inside"))
    state = replace(state, phase=Phase.EVENT)
    assert notation.parse(state, "ana", "la bourse") == (Pickpocket("ana", True),)
    assert notation.parse(state, "ana", "rien") == (Pickpocket("ana", False),)
    with pytest.raises(OrderSyntaxError, match="Pickpocket"):
        notation.parse(state, "ana", "le bijou")


def test_no_message_before_the_train_is_set() -> None:
    state = rules.initial_state(("ana", "bob", "cleo"), {})
    with pytest.raises(PhaseError):
        notation.parse(state, "ana", "je joue Tir")


@pytest.mark.parametrize(
    "card", [Card.MOVE, Card.FLOOR, Card.MARSHAL, Card.SHOOT, Card.ROB, Card.PUNCH]
)
def test_every_legal_choice_as_the_posts_write_it_is_read_back(card: Card) -> None:
    state = place(
        train(), ana=(2, "roof"), bob=(2, "roof"), cleo=(1, "roof"), dan=(4, "roof"), marshal=2
    )
    state = lay(state, 2, "roof", Loot(purses=(300,), jewels=1))
    state = give(state, "bob", jewels=1)
    played = action_on(state, ("ana", card))
    outcomes = action.legal(played, played.pile[0])
    for outcome in outcomes:
        (choose,) = notation.parse(played, "ana", phrase(outcome))
        assert rules.pick_outcome(played, played.pile[0], choose.alternatives[0]) == outcome


def test_r2_a_name_holding_words_of_the_game_is_read_as_the_name() -> None:
    # R-2 refuses a name that is a word of the game; a name that only holds
    # some (« Marshal Dillon », « Tête Brûlée »: a card, a direction) is the
    # player wherever it is written whole, and its words are read as nothing else
    state = train(players=("Marshal Dillon", "Tête Brûlée", "cleo"))
    commands = notation.parse(state, "Marshal Dillon", "je joue Tir sur Tête Brûlée")
    assert commands[0] == PlayCard("Marshal Dillon", Card.SHOOT)
    assert isinstance(commands[1], Choose) and commands[1].alternatives == (
        Choice(target="Tête Brûlée"),
    )
    state = action_on(state, ("Tête Brûlée", Card.SHOOT))
    (choose,) = notation.parse(state, "Tête Brûlée", "sur marshal dillon")
    assert choose == Choose("Tête Brûlée", (Choice(target="Marshal Dillon"),))
    # the card and the direction alone keep their meaning
    (choose,) = notation.parse(state, "cleo", "Marshal : vers la tête")
    assert choose.card is Card.MARSHAL and choose.alternatives == (Choice(direction="front"),)
    # and a name is never read inside a card's name: « Coup » in « Coup de poing »
    state = train(players=("ana", "Coup", "cleo"))
    assert notation.parse(state, "ana", "je joue Coup de poing") == (PlayCard("ana", Card.PUNCH),)
