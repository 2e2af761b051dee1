"""Reading players' private messages (``gm.games.fistful.notation`` and ``words``):
the free-text forms of every kind of message, the refusals of what cannot be
read, the explicit fields, and the canonical texts ``legal_inputs`` sends."""

from __future__ import annotations

import pytest
from fistful_support import Table, cards

from gm.errors import GameOverError, InputError, OrderSyntaxError, PhaseError
from gm.games.fistful import GAME
from gm.games.fistful.cards import DECK, Card
from gm.games.fistful.commands import ChooseEnd, DiscardAtSetup, PickCard, PlayCard
from gm.games.fistful.notation import (
    format_card,
    format_cards,
    format_discard,
    format_final,
    format_pick,
    from_params,
)
from gm.games.fistful.words import Part, card_words, scan


def parse(table: Table, player: str, text: str) -> object:
    """The one command ``text`` stands for."""
    (command,) = GAME.parse(table.state, player, text)
    return command


@pytest.mark.parametrize(
    ("text", "card"),
    [
        ("je joue le 5", Card.FIVE),
        ("5", Card.FIVE),
        ("Le 5 !", Card.FIVE),
        ("la dynamite", Card.DYNAMITE),
        ("Dynamite", Card.DYNAMITE),
        ("DYNAMITE !!!", Card.DYNAMITE),
        ("je pose la dyna", Card.DYNAMITE),
        ("TNT", Card.DYNAMITE),
        ("je joue le cinq", Card.FIVE),
        ("huit", Card.EIGHT),
        ("salut MJ, pour le duel 3 je joue le 7. Bonne soirée", Card.SEVEN),
        ("manche 2 : 4", Card.FOUR),
        ("Je tire mon 6 rouge", Card.SIX),
    ],
)
def test_a_card_for_the_duel(text: str, card: Card) -> None:
    t = Table.new().start(ana="1 2", bob="1 2")
    assert parse(t, "ana", text) == PlayCard("ana", card)


def test_the_one_is_read_after_an_article_only() -> None:
    t = Table.new().start(ana="7 8", bob="7 8")
    assert parse(t, "ana", "je joue le un") == PlayCard("ana", Card.ONE)
    assert parse(t, "ana", "1") == PlayCard("ana", Card.ONE)
    assert parse(t, "ana", "j'en joue un : le 3") == PlayCard("ana", Card.THREE)


@pytest.mark.parametrize(
    ("text", "discards"),
    [
        ("1 et 2", "1 2"),
        ("1 2", "1 2"),
        ("1,2", "1 2"),
        ("je défausse la dynamite et le 8", "dynamite 8"),
        ("Ma défausse : 8 + Dynamite", "8 dynamite"),
        ("deux et trois", "2 3"),
    ],
)
def test_the_setup_discards(text: str, discards: str) -> None:
    t = Table.new()
    assert parse(t, "bob", text) == DiscardAtSetup("bob", cards(discards))


def after_a_green_eight() -> Table:
    t = Table.new().start()
    t.duel("5", "8")  # bob's green 8: he takes back the 1 or the 2
    return t


@pytest.mark.parametrize(
    ("text", "command"),
    [
        ("je reprends le 1", PickCard("bob", Card.ONE)),
        ("Je récupère le 2 dans ma pile", PickCard("bob", Card.TWO)),
        ("je prends le 1", PickCard("bob", Card.ONE)),  # « prends » is a pick when one is due
        ("4", PlayCard("bob", Card.FOUR)),
    ],
)
def test_the_green_8_pick_alone_or_the_card_alone(text: str, command: object) -> None:
    assert parse(after_a_green_eight(), "bob", text) == command


@pytest.mark.parametrize(
    ("text", "pick", "card"),
    [
        ("je reprends le 1 et je joue le 4", Card.ONE, Card.FOUR),
        ("je joue le 4, je reprends le 2", Card.TWO, Card.FOUR),  # the pick first all the same
    ],
)
def test_the_green_8_pick_and_the_card_in_one_message(text: str, pick: Card, card: Card) -> None:
    assert GAME.parse(after_a_green_eight().state, "bob", text) == (
        PickCard("bob", pick),
        PlayCard("bob", card),
    )


def test_take_is_a_play_when_no_pick_is_due() -> None:
    t = after_a_green_eight()
    assert parse(t, "ana", "je prends le 4") == PlayCard("ana", Card.FOUR)


def red_seven_end() -> Table:
    t = Table.new().start()
    t.duels("3 5", "5 4", "7 3")  # red 7 in duel 3: both choose one discard
    return t


@pytest.mark.parametrize(
    ("text", "command"),
    [
        ("4", ChooseEnd("ana", cards("4"))),
        ("je défausse le 4", ChooseEnd("ana", cards("4"))),
        ("je jette la dynamite", ChooseEnd("ana", cards("dynamite"))),
    ],
)
def test_a_red_7_discard(text: str, command: object) -> None:
    assert parse(red_seven_end(), "ana", text) == command


def tied_with_a_green_eight() -> Table:
    t = Table.new().start()
    t.duels("3 3", "5 8")
    t.send("bob", "je reprends le 1")
    t.duels("8 5", "dynamite dynamite", "4 4", "7 7")  # 3–3, bob keeps 1 and 6
    return t


@pytest.mark.parametrize(
    ("text", "final"),
    [
        ("6", Card.SIX),  # bob's only choice is the final card: unmarked cards are it
        ("je révèle le 1", Card.ONE),
        ("pour l'ultime duel : le 6", Card.SIX),
        ("je joue le 1", Card.ONE),  # at the end of a manche, the card played is the final one
    ],
)
def test_the_final_duel_card(text: str, final: Card) -> None:
    assert parse(tied_with_a_green_eight(), "bob", text) == ChooseEnd("bob", None, final)


def test_discards_and_final_card_in_one_message() -> None:
    t = Table.new().start()
    t.duels("3 5", "5 8")
    t.send("bob", "je reprends le 1")
    t.duels("7 3")  # bob chooses two discards of 1 4 6 7 D
    assert parse(t, "bob", "je défausse 4 et 6, je révèle le 6") == ChooseEnd(
        "bob", cards("4 6"), Card.SIX
    )
    assert parse(t, "bob", "1 dynamite") == ChooseEnd("bob", cards("1 dynamite"))


@pytest.mark.parametrize(
    ("phase", "text", "code"),
    [
        ("setup", "bof", "fistful/no-card"),
        ("duel", "je joue", "fistful/no-card"),
        ("duel", "", "fistful/no-card"),
        ("duel", "9", "fistful/not-a-card"),
        ("duel", "le 12", "fistful/not-a-card"),
        ("duel", "0", "fistful/not-a-card"),
        ("duel", "5 et 6", "fistful/card-count"),
        ("duel", "je reprends le 1 et le 2", "fistful/card-count"),
    ],
)
def test_messages_that_cannot_be_read(phase: str, text: str, code: str) -> None:
    t = Table.new() if phase == "setup" else Table.new().start()
    with pytest.raises(OrderSyntaxError) as refused:
        parse(t, "ana", text)
    assert refused.value.code == code
    assert refused.value.params["text"] == text


def test_no_card_names_what_would_do() -> None:
    t = Table.new().start()
    with pytest.raises(OrderSyntaxError) as refused:
        parse(t, "ana", "bof")
    assert refused.value.message == (
        "no card in 'bof': write the card, e.g. « je joue le 5 » or « dynamite »"
    )


def test_a_number_that_is_no_card_is_named() -> None:
    t = Table.new().start()
    with pytest.raises(OrderSyntaxError) as refused:
        parse(t, "ana", "je joue le 9")
    assert refused.value.message == (
        "'9' is not a card in 'je joue le 9': the cards are 1 to 8 and the Dynamite"
    )


@pytest.mark.parametrize(
    ("when", "text", "what"),
    [
        ("setup", "je joue le 5", "play"),
        ("setup", "je reprends le 5", "pick"),
        ("duel", "je défausse le 5", "discard"),
        ("duel", "je révèle le 5", "final"),
    ],
)
def test_a_purpose_that_does_not_fit_the_moment(when: str, text: str, what: str) -> None:
    t = Table.new() if when == "setup" else Table.new().start()
    with pytest.raises(PhaseError) as refused:
        parse(t, "ana", text)
    assert refused.value.code == "fistful/not-now"
    assert refused.value.params["what"] == what


def test_a_verb_without_a_card_is_only_a_word() -> None:
    t = Table.new().start()
    assert parse(t, "ana", "je joue le 5 pour le duel final") == PlayCard("ana", Card.FIVE)


def test_nothing_is_read_once_the_game_is_over() -> None:
    t = Table.new().start()
    t.state = t.state.__class__(**{**t.state.__dict__, "phase": t.state.phase.OVER})
    with pytest.raises(GameOverError):
        parse(t, "ana", "5")


def test_words_by_purpose() -> None:
    reading = scan("Je reprends le 3, puis je joue la dynamite. Duel 4, tour 2.")
    assert reading.parts == {Part.PICK: cards("3"), Part.PLAY: cards("dynamite")}
    assert reading.not_cards == ()
    assert card_words("ana") == () and card_words("Dynamite Joe") == cards("dynamite")


# --- explicit fields -------------------------------------------------------------------


def test_explicit_fields() -> None:
    setup = Table.new()
    assert from_params(setup.state, "ana", {"discard": "1 2"}) == (
        DiscardAtSetup("ana", cards("1 2")),
    )
    t = after_a_green_eight()
    assert from_params(t.state, "bob", {"card": "4", "pick": "1"}) == (
        PickCard("bob", Card.ONE),
        PlayCard("bob", Card.FOUR),
    )
    assert from_params(t.state, "bob", {"pick": "dynamite"}) == (PickCard("bob", Card.DYNAMITE),)
    end = tied_with_a_green_eight()
    assert from_params(end.state, "bob", {"final": "6"}) == (ChooseEnd("bob", None, Card.SIX),)
    assert from_params(end.state, "bob", {"card": "6"}) == (ChooseEnd("bob", None, Card.SIX),)


@pytest.mark.parametrize(
    ("values", "fragment"),
    [
        ({"card": "9"}, "--card '9' is not a card: write 1 to 8 or dynamite"),
        ({"card": "4 5"}, "--card takes one card, got 2 in '4 5'"),
        ({"target": "bob"}, "fistful orders take no --target"),
        ({}, "no field given: --card, --pick, --discard or --final"),
    ],
)
def test_bad_explicit_fields(values: dict[str, str], fragment: str) -> None:
    t = Table.new().start()
    with pytest.raises(InputError) as refused:
        from_params(t.state, "ana", values)
    assert fragment in refused.value.message


def test_an_explicit_field_that_does_not_fit_the_moment() -> None:
    t = Table.new().start()
    with pytest.raises(PhaseError) as refused:
        from_params(t.state, "ana", {"discard": "4"})
    assert refused.value.code == "fistful/not-now"


# --- canonical texts ----------------------------------------------------------------------


def test_canonical_texts_read_back() -> None:
    assert [format_card(c) for c in DECK][-2:] == ["8", "dynamite"]
    setup = Table.new()
    assert parse(setup, "ana", format_cards(cards("8 dynamite"))) == DiscardAtSetup(
        "ana", cards("8 dynamite")
    )
    t = after_a_green_eight()
    assert format_pick(Card.ONE) == "je reprends le 1"
    assert parse(t, "bob", format_pick(Card.TWO)) == PickCard("bob", Card.TWO)
    assert parse(t, "bob", format_card(Card.DYNAMITE)) == PlayCard("bob", Card.DYNAMITE)
    end = tied_with_a_green_eight()
    assert format_final(Card.ONE) == "je révèle le 1"
    assert parse(end, "bob", format_final(Card.ONE)) == ChooseEnd("bob", None, Card.ONE)
    assert format_discard(cards("4 dynamite")) == "je défausse 4 dynamite"
    red = red_seven_end()
    assert parse(red, "ana", format_discard(cards("dynamite"))) == ChooseEnd(
        "ana", cards("dynamite")
    )
