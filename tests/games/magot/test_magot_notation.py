"""Reading players' private messages: orders, folds and stays, and the refusals."""

from __future__ import annotations

import doctest
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gm.core.protocol import GM
from gm.errors import AmbiguousOrderError, GMError, InputError, OrderSyntaxError
from gm.games.magot import notation, share
from gm.games.magot.commands import DrawLoot, Fold, Reveal, SetOrder, Stay, WithdrawOrder
from gm.games.magot.model import Gangster, Option, Order, State
from gm.games.magot.notation import format_order, parse, parse_choice, parse_option, parse_order
from gm.games.magot.rules import initial_state, play

T, B, C = Option.TRIPLE, Option.BANG, Option.CLICK
PLAYERS = ("fab", "marco", "lulu", "Élodie", "Jean-Paul", "le grand blond", "a", "marc")


def state_of(players: tuple[str, ...] = PLAYERS) -> State:
    return initial_state(players, {})


def read(text: str, sender: str = "tom", players: tuple[str, ...] = PLAYERS) -> SetOrder:
    order = parse_order(state_of((*players, "tom")), sender, text)
    assert isinstance(order, SetOrder)
    return order


def code_of(text: str, sender: str = "tom", state: State | None = None) -> str:
    state = state or state_of((*PLAYERS, "tom"))
    with pytest.raises(GMError) as caught:
        parse_order(state, sender, text)
    assert text in caught.value.message  # the input is quoted
    return caught.value.code


def test_doctests_of_notation_and_share() -> None:
    for module in (notation, share):
        result = doctest.testmod(module)
        assert result.failed == 0 and result.attempted > 0


@pytest.mark.parametrize(
    ("text", "target", "option"),
    [
        ("Je braque mon flingue sur fab (BANG BANG BANG)", "fab", T),
        ("fab BBB", "fab", T),
        ("Fab bang", "fab", B),
        ("lulu : clic clic clic", "lulu", C),
        ("je braque Élodie. BANG", "Élodie", B),
        ("je braque ELODIE. bang !", "Élodie", B),
        ("je braque fab, BANG BANG BANG", "fab", T),
        ("BANG ×3 sur fab", "fab", T),
        ("bang x3 pour marco", "marco", T),
        ("bangbangbang marco", "marco", T),
        ("Bang-Bang-Bang sur marco", "marco", T),
        ("triple sur lulu", "lulu", T),
        ("BBB (BANG BANG BANG) sur lulu", "lulu", T),
        ("click click click lulu", "lulu", C),
        ("CCC lulu", "lulu", C),
        ("bluff sur lulu", "lulu", C),
        ("lulu clic", "lulu", C),
        ("jean paul, CLIC CLIC CLIC", "Jean-Paul", C),
        ("JEAN-PAUL bang", "Jean-Paul", B),
        ("Je vise le grand blond : BANG", "le grand blond", B),
        ("marc bang", "marc", B),
        ("marco bang", "marco", B),
        ("**marco** BANG", "marco", B),
        ("Salut MJ ! Je braque marco, BANG. Bises, tom", "marco", B),
    ],
)
def test_examples_are_read(text: str, target: str, option: Option) -> None:
    assert read(text) == SetOrder(player="tom", target=target, option=option)


def test_single_letter_names_match_only_as_whole_words_and_only_when_alone() -> None:
    """« a » never matches inside « braque », and the French word « a » gives
    way to any other name; typed alone it is the target."""
    assert read("a BANG").target == "a"
    assert read("Je braque A. BANG").target == "a"
    assert read("je braque fab, il a un flingue chargé : BANG").target == "fab"
    assert read("fab a BANG").target == "fab"
    assert read("je braque fab BANG", players=("fab", "marco", "bra")).target == "fab"
    with pytest.raises(OrderSyntaxError):
        read("je braque, BANG", players=("fab", "marco", "bra"))


def test_senders_own_name_is_a_signature_unless_alone() -> None:
    assert read("marco BANG -- fab", sender="fab").target == "marco"
    assert code_of("fab BANG", sender="fab") == "magot/self-target"


@pytest.mark.parametrize(
    ("text", "code", "kind"),
    [
        ("BANG BANG BANG !", "magot/no-target", OrderSyntaxError),
        ("je braque mon flingue, BANG", "magot/no-target", OrderSyntaxError),
        ("fab marco BANG", "magot/two-targets", AmbiguousOrderError),
        ("je braque Bob (BANG)", "magot/unknown-player", OrderSyntaxError),
        ("fab", "magot/no-option", OrderSyntaxError),
        ("je braque fab", "magot/no-option", OrderSyntaxError),
        ("fab BANG BANG", "magot/bang-count", OrderSyntaxError),
        ("fab BANG BANG BANG BANG", "magot/bang-count", OrderSyntaxError),
        ("fab BANG, ou plutôt CLIC CLIC CLIC", "magot/two-options", AmbiguousOrderError),
        ("fab BBB ... non, BANG", "magot/two-options", AmbiguousOrderError),
        ("fab clic bang", "magot/two-options", AmbiguousOrderError),
    ],
)
def test_refusals_name_the_problem(text: str, code: str, kind: type[GMError]) -> None:
    state = state_of((*PLAYERS, "tom"))
    with pytest.raises(kind) as caught:
        parse_order(state, "tom", text)
    assert caught.value.code == code
    assert repr(text) in caught.value.message


def test_unknown_target_quotes_the_name_as_typed() -> None:
    state = state_of((*PLAYERS, "tom"))
    with pytest.raises(OrderSyntaxError) as caught:
        parse_order(state, "tom", "je braque Bob (BANG)")
    assert caught.value.params["name"] == "Bob"
    assert "'Bob'" in caught.value.message and "fab" in caught.value.message


def test_rules_refusals_come_through_the_parser() -> None:
    state = state_of((*PLAYERS, "tom"))
    dead = replace(state.player("fab"), alive=False, wounds=3, death_round=1)
    spent = replace(state.player("tom"), left=(0, 2, 5))
    state = replace(
        state,
        players=tuple(
            dead if g.name == "fab" else spent if g.name == "tom" else g for g in state.players
        ),
    )
    assert code_of("fab BANG", state=state) == "magot/dead-target"
    assert code_of("marco BBB", state=state) == "magot/option-spent"
    with pytest.raises(GMError) as caught:
        parse_order(state, "fab", "marco BANG")
    assert caught.value.code == "magot/dead-player"
    with pytest.raises(GMError) as caught:
        parse_order(state, "tom", "marco BBB")
    assert caught.value.message == (
        "option 'triple' already spent by tom (left: bang ×2, click ×5) (order text: 'marco BBB')"
    )


def test_withdrawal_text() -> None:
    state = state_of()
    assert parse_order(state, "fab", "j'annule mon ordre") == WithdrawOrder("fab")


@pytest.mark.parametrize(
    ("text", "choice"),
    [
        ("je me couche", Fold),
        ("Couché.", Fold),
        ("je baisse mon arme", Fold),
        ("fold", Fold),
        ("je reste couché", Fold),
        ("je ne reste pas", Fold),
        ("je reste", Stay),
        ("J'en ai une paire !", Stay),
        ("je ne me couche pas, jamais", Stay),
        ("pas question de me coucher", Stay),
        ("stay", Stay),
    ],
)
def test_stay_or_fold_texts(text: str, choice: type[Fold | Stay]) -> None:
    assert parse_choice(state_of(), "Fab", text) == choice(player="fab")


def test_stay_or_fold_refusals() -> None:
    with pytest.raises(AmbiguousOrderError) as two:
        parse_choice(state_of(), "fab", "je reste... non je me couche")
    assert two.value.code == "magot/two-choices"
    with pytest.raises(OrderSyntaxError) as none:
        parse_choice(state_of(), "fab", "marco BANG")
    assert none.value.code == "magot/no-choice"


def test_parse_follows_the_phase() -> None:
    three = ("fab", "marco", "lulu")
    state = initial_state(three, {})
    with pytest.raises(GMError) as early:
        parse(state, "fab", "marco BANG")
    assert early.value.code == "phase/wrong"
    state, _ = play(state, GM, DrawLoot(state.deck[:5]))
    assert parse(state, "Fab", "marco BANG") == SetOrder("fab", "marco", B)
    for shooter, target in zip(three, three[1:] + three[:1], strict=True):
        state, _ = play(state, shooter, parse(state, shooter, f"{target} clic"))
    state, _ = play(state, GM, Reveal())
    assert parse(state, "fab", "je me couche") == Fold("fab")
    assert parse(state, "lulu", "j'en ai une paire") == Stay("lulu")
    with pytest.raises(GMError) as unknown:
        parse(state, "bob", "je reste")
    assert unknown.value.code == "magot/unknown-player"


@pytest.mark.parametrize(
    ("text", "option"),
    [
        ("triple", T),
        ("BBB", T),
        ("BANG BANG BANG", T),
        ("bang", B),
        ("BANG", B),
        ("click", C),
        ("clic", C),
        ("CLIC CLIC CLIC", C),
        ("bluff", C),
    ],
)
def test_parse_option_for_explicit_orders(text: str, option: Option) -> None:
    assert parse_option(text) is option


@pytest.mark.parametrize("text", ["", "bang bang", "fab", "bang clic", "b"])
def test_parse_option_refusals(text: str) -> None:
    with pytest.raises(InputError) as caught:
        parse_option(text)
    assert caught.value.code == "magot/bad-option"


names = st.sampled_from(
    ["fab", "Marco", "Élodie", "Jean-Paul", "le grand blond", "a", "Zoë", "d'Artagnan", "O'Neil"]
)


@settings(max_examples=80, deadline=None)
@given(players=st.lists(names, min_size=3, max_size=6, unique=True), data=st.data())
def test_format_order_reads_back(players: list[str], data: st.DataObject) -> None:
    state = state_of(tuple(players))
    shooter = data.draw(st.sampled_from(players))
    target = data.draw(st.sampled_from([p for p in players if p != shooter]))
    option = data.draw(st.sampled_from(list(Option)))
    order = Order(target, option)
    assert parse_order(state, shooter, format_order(order)) == SetOrder(shooter, target, option)


def test_gangster_names_are_kept_as_written() -> None:
    state = state_of()
    assert isinstance(state.player("Élodie"), Gangster)
    assert read("elodie bang").target == "Élodie"
