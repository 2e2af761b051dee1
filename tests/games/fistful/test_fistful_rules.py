"""Fistful of Gold's rules, one test per ruling (R-1…R-7 of gm/games/fistful/rules.md),
every case of the resolution table, the powers, the end of a manche and of the
game, the rulings decided in ``gm.games.fistful.rules`` and the refusals.

Games are played through messages and steps (``fistful_support.Table``), as
the MJ plays them; ana takes the red deck and bob the green one unless said.
Every hand-worked number is explained next to it.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from fistful_support import Table, cards, with_hands

from gm.core.protocol import GM, NOTHING_SHOWN, PUBLIC, Awaited, PostRef
from gm.errors import (
    GameOverError,
    IllegalOrderError,
    InputError,
    OrderSyntaxError,
    PhaseError,
)
from gm.games.fistful import GAME
from gm.games.fistful.cards import DECK, Card, Color, forbidden_after
from gm.games.fistful.commands import EndManche, PlayCard, RevealDuel, StartDuels
from gm.games.fistful.config import configure
from gm.games.fistful.duel import table
from gm.games.fistful.events import CardPicked, CardPlayed, MancheEnded
from gm.games.fistful.model import GameEnd, MancheEnd, Phase, Player, Reason
from gm.games.fistful.phases import owes
from gm.games.fistful.rules import play

# A whole first manche for hands 3 4 5 6 7 8 D each (setup « 1 2 » / « 1 2 »), worked out:
# 7–3 gap 4, the lower wins: bob +4 (ana's red 7 in duel 1 does nothing) · 4–5: bob +1 ·
# 6–7: bob +1, ana's 6 takes the (empty) tie pot, bob's green 7 · 8–D: ana +3 ·
# D–4: ana +3 · 3–6: bob +3 and +1 for the green 7 (bob's 6 does nothing: ana holds the ties).
# ana 6, bob 10; ana keeps the 5, bob the 8.
FIRST_MANCHE = ("7 3", "4 5", "6 7", "8 dynamite", "dynamite 4", "3 6")


def kinds(outcome: object) -> list[str]:
    return [str(p.kind) for p in outcome.powers]  # type: ignore[attr-defined]


# --- the forbidden card ------------------------------------------------------


def test_r1_the_card_one_above_the_last_one_is_forbidden_and_the_refusal_says_why() -> None:
    t = Table.new().start()
    t.duel("3", "5")
    with pytest.raises(IllegalOrderError) as refused:
        t.send("ana", "je joue le 4")
    assert refused.value.code == "fistful/forbidden"
    assert refused.value.message == (
        "the 4 is forbidden for ana this duel: ana played the 3 in the previous duel"
        " (playable: 5, 6, 7, 8, Dynamite)"
    )
    assert refused.value.params == {
        "player": "ana",
        "card": "4",
        "previous": "3",
        "playable": ["5", "6", "7", "8", "dynamite"],
    }
    with pytest.raises(IllegalOrderError):
        t.send("bob", "6")  # after bob's 5, bob's 6 is forbidden too
    t.send("ana", "5")  # any other card is fine


def test_r1_only_the_previous_duel_counts() -> None:
    t = Table.new().start()
    t.duel("3", "5")
    t.duel("5", "3")  # ana's 3 was two duels ago: only the 6 is forbidden now
    t.send("ana", "4")
    with pytest.raises(IllegalOrderError):
        t.send("ana", "6")


def test_r1_the_rule_does_not_carry_over_to_the_next_manche() -> None:
    t = Table.new().start()
    t.duels(*FIRST_MANCHE)  # ana's last card of manche 1 is the 3
    t.step("resolve")
    assert t.state.manche == 2
    assert GAME.player_view(t.state, "ana")["forbidden"] is None
    t.send("ana", "4")
    assert t.state.card_of("ana") is Card.FOUR


@pytest.mark.parametrize("last", ["8", "dynamite"])
def test_r1_nothing_is_forbidden_after_an_8_or_the_dynamite(last: str) -> None:
    t = Table.new().start()
    t.duel(last, "3")
    assert GAME.player_view(t.state, "ana")["forbidden"] is None
    for card in t.player("ana").hand:
        t.send("ana", str(card))  # every card of the hand is accepted


def test_r1_the_dynamite_is_never_forbidden() -> None:
    assert [forbidden_after(c) for c in DECK] == [
        *(Card(str(n)) for n in range(2, 9)),
        None,
        None,
    ]
    t = Table.new().start()
    t.duel("7", "3")  # after the 7, the 8 is forbidden, never the Dynamite
    t.send("ana", "dynamite")


def test_r1_the_restriction_is_lifted_when_every_card_in_hand_is_forbidden() -> None:
    t = Table.new().start()
    t.duel("3", "5")
    t.state = with_hands(t.state, ana="4")  # a hand of nothing but the forbidden card
    view = GAME.player_view(t.state, "ana")
    assert view["forbidden"] is None and view["lifted"] is True
    (event,) = t.send("ana", "4")
    assert event == CardPlayed(1, 2, "ana", Card.FOUR)  # manche 1, duel 2


# --- two Dynamites ---------------------------------------------------------------


def test_r2_two_dynamites_are_a_tie() -> None:
    t = Table.new().start()
    outcome = t.duel("dynamite", "dynamite")
    assert (outcome.winner, outcome.reason, outcome.tie_gold) == (None, Reason.TIE, 2)
    assert t.gold() == {"ana": 0, "bob": 0} and t.state.tie_pot == 2


# --- two 6s at once ------------------------------------------------------------


def test_r3_two_sixes_in_one_duel_mean_nobody_ever_takes_the_ties_of_the_manche() -> None:
    t = Table.new().start()
    t.duel("3", "3")  # 2 gold in the pot
    six = t.duel("6", "6")  # both 6s, nobody had claimed: R-3, and 2 more gold in the pot
    assert kinds(six) == ["six-blocked", "six-blocked"]
    assert six.claimed_by is None and six.tie_to is None
    t.duel("4", "4")  # a later tie still goes to the pot, for nobody
    assert t.state.tie_pot == 6 and t.state.tie_blocked and t.state.tie_owner is None
    assert t.gold() == {"ana": 0, "bob": 0}


def test_r3_the_ties_can_be_taken_again_in_the_next_manche() -> None:
    t = Table.new().start()
    t.duels("3 3", "6 6", "4 4", "8 8")
    t.send("bob", "je reprends le 1")  # the green 8's pick
    t.duels("dynamite dynamite", "5 5")  # ana keeps the 7, bob the 1 and the 7
    assert t.phase is Phase.END and t.state.tie_pot == 12
    t.send("bob", "je révèle le 7")  # 0–0: a final duel, bob discards two
    t.step("resolve")  # 7–7: a tie again, 2 more gold nobody takes
    assert t.state.history[0].result.tie_pot == 14  # type: ignore[union-attr]
    outcome = t.duel("6", "3")  # manche 2: ana's 6 is the first, it takes the ties
    assert kinds(outcome) == ["six-claim"]
    assert t.state.tie_owner == "ana" and not t.state.tie_blocked


def test_a_single_six_takes_the_pot_at_once_and_every_later_tie() -> None:
    t = Table.new().start()
    t.duel("3", "3")  # 2 gold in the pot
    outcome = t.duel("6", "5")  # ana wins 1 for the duel, and takes the 2 of the pot
    assert (outcome.winner, outcome.gold, outcome.claimed_by, outcome.claimed) == (
        "ana",
        1,
        "ana",
        2,
    )
    assert t.gold() == {"ana": 3, "bob": 0} and t.state.tie_pot == 0
    tie = t.duel("4", "4")  # a later tie: straight to ana
    assert tie.tie_to == "ana"
    assert t.gold() == {"ana": 5, "bob": 0} and t.state.tie_pot == 0
    later = t.duel("8", "6")  # bob's 6 comes too late: nothing
    assert "six-idle" in kinds(later)
    assert t.state.tie_owner == "ana"


def test_a_six_that_loses_its_duel_still_takes_the_ties() -> None:
    t = Table.new().start(ana="1 2", bob="7 8")  # bob holds 1 2 3 4 5 6 D
    t.duel("3", "3")
    outcome = t.duel("6", "2")  # gap 4: the lower card, bob's 2, wins 4
    assert (outcome.winner, outcome.gold) == ("bob", 4)
    assert (outcome.claimed_by, outcome.claimed) == ("ana", 2)
    assert t.gold() == {"ana": 2, "bob": 4}


# --- R-4: the green 8's pick --------------------------------------------------------


def test_r4_the_pick_can_come_with_the_next_card_and_be_played_at_once() -> None:
    t = Table.new().start()
    eight = t.duel("5", "8")
    assert kinds(eight) == ["green-eight"] and t.player("bob").pick_due
    picked, played = t.send("bob", "je reprends le 1 et je joue le 1")
    assert picked == CardPicked(t.state.turn, "bob", Card.ONE)
    assert played == CardPlayed(1, 2, "bob", Card.ONE)  # manche 1, duel 2
    t.send("ana", "3")
    outcome = t.step("reveal")[0].outcome  # type: ignore[attr-defined]
    assert outcome.cards == {"ana": Card.THREE, "bob": Card.ONE}
    assert t.player("bob").removed == cards("2")


def test_r4_the_pick_can_come_alone_and_the_reveal_waits_for_it() -> None:
    t = Table.new().start()
    t.duel("5", "8")
    t.send("ana", "3")
    t.send("bob", "4")
    assert GAME.awaiting(t.state) == (Awaited("bob", "private", "green-8 pick"),)
    with pytest.raises(PhaseError) as waiting:
        t.step("reveal")
    assert waiting.value.code == "fistful/waiting"
    assert waiting.value.message == (
        "duel 2 of manche 1 cannot be revealed yet: waiting for bob's green-8 pick"
    )
    t.send("bob", "je reprends le 1")
    t.step("reveal")
    assert t.player("bob").hand == cards("1 3 5 6 7 dynamite")


def test_r4_the_pick_is_public_and_final() -> None:
    t = Table.new().start()
    t.duel("5", "8")
    (picked,) = t.send("bob", "je reprends le 2")
    assert picked.audience() == PUBLIC and not picked.sealed
    assert t.send("bob", "je reprends le 2, je joue le 4")[0].kind == "fistful.card-played"
    with pytest.raises(IllegalOrderError) as refused:
        t.send("bob", "je reprends le 1")
    assert refused.value.code == "fistful/already-picked"
    assert refused.value.params["picked"] == "2"


def test_r4_only_the_removed_pile_can_be_picked_from() -> None:
    t = Table.new().start()
    t.duel("5", "8")
    with pytest.raises(IllegalOrderError) as refused:
        t.send("bob", "je reprends le 3")
    assert refused.value.code == "fistful/not-removed"
    assert refused.value.params["removed"] == ["1", "2"]


def test_r4_no_pick_without_a_green_8() -> None:
    t = Table.new().start()
    t.duel("8", "5")  # ana's 8 is red: no pick
    with pytest.raises(IllegalOrderError) as refused:
        t.send("ana", "je reprends le 1")
    assert refused.value.code == "fistful/no-pick-due"


def test_r4_a_green_8_in_the_last_duel_is_picked_before_the_manche_ends() -> None:
    t = Table.new().start()
    t.duels("3 3", "5 5", "dynamite dynamite", "6 6", "4 4", "7 8")
    assert t.phase is Phase.END and GAME.waiting_for(t.state) == ("bob",)
    with pytest.raises(PhaseError):
        t.step("resolve")
    t.send("bob", "je reprends le 1")  # ana 7 bob 0 after 7–8: no final duel
    (ended,) = t.step("resolve")
    assert ended.result.discarded == {"ana": 1, "bob": 2}  # type: ignore[attr-defined]
    assert t.player("bob").removed == cards("1 2 7")  # the 7 left and the 1 picked back


# --- the final duel ---------------------------------------------------------------


def tied_with_a_green_eight() -> Table:
    """A manche tied at 3 gold where bob (green) played his 8 and keeps 1 and 6.

    3–3 tie (pot 2) · 5–8: bob +3, picks the 1 · 8–5: ana +3 · D–D (pot 4) ·
    4–4 (pot 6) · 7–7 (pot 8, bob's green 7). ana keeps the 6; bob the 1 and the 6.
    """
    t = Table.new().start()
    t.duels("3 3", "5 8")
    t.send("bob", "je reprends le 1")
    t.duels("8 5", "dynamite dynamite", "4 4", "7 7")
    assert t.gold() == {"ana": 3, "bob": 3} and t.state.tie_pot == 8
    return t


def test_r5_the_green_8_owner_chooses_which_discard_the_final_duel_reveals() -> None:
    t = tied_with_a_green_eight()
    assert GAME.waiting_for(t.state) == ("bob",)
    assert GAME.next_step(t.state) == (
        "gm order (end of manche 1: waiting for bob's final-duel card)"
    )
    t.send("bob", "je révèle le 1")
    (ended,) = t.step("resolve")
    result = ended.result  # type: ignore[attr-defined]
    # 6–1, gap 5: the lower card wins 5, +1 for bob's green 7; ana's 6 takes the pot (8)
    assert result.final.cards == {"ana": Card.SIX, "bob": Card.ONE}
    assert (result.final.winner, result.final.gold) == ("bob", 6)
    assert (result.final.claimed_by, result.final.claimed) == ("ana", 8)
    assert result.gold == {"ana": 11, "bob": 9} and result.tie_pot == 0
    assert result.winner == "ana"
    assert t.player("bob").removed == cards("1 2 6")  # both of bob's cards discarded


def test_r5_a_final_duel_that_ties_again_gives_the_manche_to_nobody() -> None:
    t = tied_with_a_green_eight()
    t.send("bob", "je révèle le 6")
    (ended,) = t.step("resolve")
    result = ended.result  # type: ignore[attr-defined]
    assert result.final.reason is Reason.TIE  # 6–6, and two 6s at once
    assert "six-blocked" in kinds(result.final)
    assert result.winner is None and result.gold == {"ana": 3, "bob": 3}
    assert result.tie_pot == 10 and result.stars == {"ana": 0, "bob": 0}


def test_r5_the_final_card_must_be_one_of_the_discards() -> None:
    t = tied_with_a_green_eight()
    with pytest.raises(IllegalOrderError) as refused:
        t.send("bob", "je révèle le 4")
    assert refused.value.code == "fistful/final-not-discarded"
    assert refused.value.params["discards"] == ["1", "6"]


def test_r5_a_player_discarding_one_card_has_no_final_choice() -> None:
    t = tied_with_a_green_eight()
    with pytest.raises(IllegalOrderError) as refused:
        t.send("ana", "je révèle le 6")
    assert refused.value.code == "fistful/nothing-due"


def test_the_final_duel_ignores_the_forbidden_card() -> None:
    # hands 2 3 4 5 6 7 D each; all ties; ana's last duel card is the 5, her last card the 6
    t = Table.new().start(ana="1 8", bob="1 8")
    t.duels("7 7", "2 2", "4 4", "dynamite dynamite", "3 3", "5 5")
    (ended,) = t.step("resolve")
    final = ended.result.final  # type: ignore[attr-defined]
    assert final.cards == {"ana": Card.SIX, "bob": Card.SIX}


def test_the_green_7_bonus_counts_in_the_final_duel_after_it() -> None:
    # bob's green 7 came in the last duel: the final duel is the next one (+1)
    t = tied_with_a_green_eight()
    assert t.player("bob").bonus
    t.send("bob", "je révèle le 1")
    (ended,) = t.step("resolve")
    assert ended.result.final.bonus == 1  # type: ignore[attr-defined]


def test_a_green_7_red_7_or_green_8_revealed_in_the_final_duel_does_nothing_more() -> None:
    t2 = Table.new().start()
    t2.duels("3 3", "5 5", "dynamite dynamite", "6 6", "4 4", "8 8")
    t2.send("bob", "je reprends le 1")  # 0–0; ana keeps the 7; bob the 1 and the 7
    t2.send("bob", "je révèle le 7")
    (ended,) = t2.step("resolve")
    final = ended.result.final  # type: ignore[attr-defined]
    assert kinds(final) == ["inert", "inert"]  # the red 7 and the green 7
    assert not t2.player("bob").pick_due


# --- the supply --------------------------------------------------------------------


def test_r6_gold_is_never_short_whatever_the_30_cubes_of_the_box() -> None:
    t = Table.new().start(ana="2 3", bob="2 3")
    players = tuple(replace(p, gold=29) for p in t.state.players)
    t.state = replace(t.state, players=players)
    t.duel("1", "8")  # gap 7: the lower card wins 7, bob picks a card back
    assert t.gold() == {"ana": 36, "bob": 29}


# --- the end by exhaustion ------------------------------------------------------


def exhaust(last: str) -> Table:
    """Five manches of nothing but ties (no star), then the sixth, of one duel.

    Both hold 3 4 5 6 7 8 D. Every duel and every final duel is a tie, so no
    manche has a winner; each costs each player one card (the one left).
    """
    t = Table.new().start()
    for duels in (
        ("3 3", "5 5", "dynamite dynamite", "6 6", "4 4", "7 7"),  # keeps 8: final 8–8
        ("3 3", "5 5", "dynamite dynamite", "6 6", "4 4"),  # keeps 7
        ("3 3", "5 5", "dynamite dynamite", "6 6"),  # keeps 4
        ("3 3", "5 5", "dynamite dynamite"),  # keeps 6
        ("3 3", "5 5"),  # keeps the Dynamite
    ):
        t.duels(*duels)
        (ended,) = t.step("resolve")
        assert ended.result.winner is None and ended.result.game_end is None  # type: ignore[attr-defined]
    assert t.state.manche == 6 and t.state.current.hand_size == 2
    t.duel(*last.split())
    t.step("resolve")
    return t


def test_r7_a_manche_that_would_start_with_one_card_ends_the_game_more_stars_wins() -> None:
    t = exhaust("5 3")  # ana wins 2: one star to none
    assert t.phase is Phase.OVER and t.state.game_end is GameEnd.EXHAUSTION
    assert t.state.winners == ("ana",)
    assert GAME.summary(t.state)["winners"] == ["ana"]


def test_r7_equal_stars_is_a_draw() -> None:
    t = exhaust("3 3")  # 3–3 then the final duel 5–5: nobody, ever
    assert t.phase is Phase.OVER and t.state.game_end is GameEnd.EXHAUSTION
    assert t.state.winners == ()
    summary = GAME.summary(t.state)
    assert summary["finished"] and summary["winners"] == []
    assert summary["stars"] == {"ana": 0, "bob": 0}


# --- the resolution table -------------------------------------------------------------

RED, GREEN = "ana", "bob"
TABLE_CASES = [
    # red card, green card, winner, reason, gold
    ("5", "5", None, Reason.TIE, 0),
    ("dynamite", "dynamite", None, Reason.TIE, 0),
    ("5", "3", RED, Reason.HIGHER, 2),
    ("4", "5", GREEN, Reason.HIGHER, 1),
    ("3", "6", GREEN, Reason.HIGHER, 3),
    ("2", "6", RED, Reason.LOWER, 4),
    ("7", "2", GREEN, Reason.LOWER, 5),
    ("1", "7", RED, Reason.LOWER, 6),
    ("1", "8", RED, Reason.LOWER, 7),  # the green 8 has no power against a 1
    ("dynamite", "1", RED, Reason.DYNAMITE, 3),
    ("4", "dynamite", GREEN, Reason.DYNAMITE, 3),
    ("dynamite", "5", GREEN, Reason.DYNAMITE_FAILS, 3),
    ("8", "dynamite", RED, Reason.DYNAMITE_FAILS, 3),
    ("8", "1", RED, Reason.RED_EIGHT, 3),  # instead of the 7 the 1 would win
]


@pytest.mark.parametrize(("red", "green", "winner", "reason", "gold"), TABLE_CASES)
def test_the_resolution_table(
    red: str, green: str, winner: str | None, reason: Reason, gold: int
) -> None:
    a = Player("ana", Color.RED)
    b = Player("bob", Color.GREEN)
    assert table(a, Card(red), b, Card(green)) == (winner, reason, gold)
    assert table(b, Card(green), a, Card(red)) == (winner, reason, gold)  # seats do not matter


@pytest.mark.parametrize(("red", "green", "winner", "reason", "gold"), TABLE_CASES)
def test_each_case_of_the_table_in_a_played_duel(
    red: str, green: str, winner: str | None, reason: Reason, gold: int
) -> None:
    spare = [c for c in DECK if c not in (Card(red), Card(green), Card.EIGHT)]
    t = Table.new().start(ana=f"{spare[0]} {spare[1]}", bob=f"{spare[0]} {spare[1]}")
    outcome = t.duel(red, green)
    assert (outcome.winner, outcome.reason, outcome.gold) == (winner, reason, gold)
    expected = {"ana": 0, "bob": 0}
    if winner is not None:
        expected[winner] = gold
    assert t.gold() == expected
    assert t.state.tie_pot == (2 if winner is None else 0)


# --- the other powers -----------------------------------------------------------------


def test_the_green_7_gives_1_more_gold_from_the_next_duel_won_on() -> None:
    t = Table.new().start()
    seven = t.duel("6", "7")  # bob wins 1: no bonus yet
    assert (seven.gold, seven.bonus) == (1, 0) and "green-seven" in kinds(seven)
    lost = t.duel("dynamite", "3")  # bob loses: no bonus either
    assert lost.winner == "ana" and lost.bonus == 0
    won = t.duel("4", "5")  # bob wins 1, +1
    assert (won.gold, won.bonus) == (2, 1) and "seven-bonus" in kinds(won)
    assert t.gold() == {"ana": 3, "bob": 3}


def test_the_red_7_gives_no_bonus() -> None:
    t = Table.new().start()
    t.duel("7", "6")  # ana wins 1 with her red 7, in duel 1 (too early to end)
    assert not t.player("ana").bonus
    assert t.duel("5", "4").gold == 1


def test_the_red_7_ends_the_manche_from_its_third_duel_on() -> None:
    t = Table.new().start()
    early = t.duel("7", "3")
    assert kinds(early) == ["red-seven-early"] and t.phase is Phase.DUEL
    t.duel("3", "5")
    t.duel("5", "4")
    assert t.state.duel == 4
    t2 = Table.new().start()
    t2.duels("3 5", "5 4")
    ended = t2.duel("7", "3")  # duel 3
    assert kinds(ended) == ["red-seven-end"]
    assert t2.phase is Phase.END and t2.state.current.ended_by is MancheEnd.RED_SEVEN
    assert GAME.waiting_for(t2.state) == ("ana", "bob")  # each chooses a discard


def test_a_red_7_end_lets_each_player_choose_a_discard_and_keep_the_rest() -> None:
    t = Table.new().start()
    t.duels("3 5", "5 4", "7 3")  # ana keeps 4 6 8 D, bob 6 7 8 D
    t.send("ana", "je défausse la dynamite")
    t.send("bob", "8")
    (ended,) = t.step("resolve")
    result = ended.result  # type: ignore[attr-defined]
    assert result.ended_by is MancheEnd.RED_SEVEN and result.duels == 3
    assert result.next_hand == 6  # 7 cards, minus the one discarded
    assert t.player("ana").hand == cards("3 4 5 6 7 8")
    assert t.player("ana").removed == cards("1 2 dynamite")
    assert t.player("bob").hand == cards("3 4 5 6 7 dynamite")
    assert t.state.current.planned == 5  # one duel fewer than the cards in hand


def test_a_red_7_in_the_last_duel_is_a_normal_end_with_nothing_to_choose() -> None:
    t = Table.new().start()
    t.duels("3 3", "5 5", "dynamite dynamite", "6 6", "4 4")
    last = t.duel("7", "7")  # duel 6 of 6
    assert "red-seven-end" not in kinds(last)
    assert t.state.current.ended_by is MancheEnd.LAST_DUEL
    assert GAME.waiting_for(t.state) == ()  # 0–0 and a final duel of forced cards (8–8)
    (ended,) = t.step("resolve")
    assert ended.result.final.cards == {"ana": Card.EIGHT, "bob": Card.EIGHT}  # type: ignore[attr-defined]


def test_a_green_8_and_a_red_7_in_the_same_duel() -> None:
    t = Table.new().start()
    t.duels("3 5", "5 4")
    outcome = t.duel("7", "8")  # duel 3: the manche ends; bob picks, then discards two
    assert kinds(outcome) == ["red-seven-end", "green-eight"]
    assert GAME.awaiting(t.state) == (
        Awaited("ana", "private", "discard"),
        Awaited("bob", "private", "green-8 pick"),
        Awaited("bob", "private", "discard"),
    )
    assert GAME.waiting_for(t.state) == ("ana", "bob")
    assert owes(t.state, "bob") == ("pick", "discard")
    t.send("bob", "je reprends le 2, je défausse 2 et 3")
    t.send("ana", "4")
    (ended,) = t.step("resolve")
    assert ended.result.discarded == {"ana": 1, "bob": 2}  # type: ignore[attr-defined]
    assert t.player("bob").removed == cards("1 2 3")


# --- the end of a manche and of the game ----------------------------------------------------


def test_a_normal_end_discards_what_is_left_and_gives_back_the_played_cards() -> None:
    t = Table.new().start()
    t.duels(*FIRST_MANCHE)
    assert t.phase is Phase.END and GAME.waiting_for(t.state) == ()
    assert GAME.next_step(t.state) == "gm resolve (ends manche 1)"
    (ended,) = t.step("resolve")
    result = ended.result  # type: ignore[attr-defined]
    assert result.gold == {"ana": 6, "bob": 10} and result.winner == "bob"
    assert result.stars == {"ana": 0, "bob": 1} and result.final is None
    assert t.player("ana").hand == cards("3 4 6 7 8 dynamite")
    assert t.player("ana").removed == cards("1 2 5")
    assert t.player("bob").removed == cards("1 2 8")
    assert (t.state.manche, t.state.duel, t.state.current.planned) == (2, 1, 5)
    assert t.gold() == {"ana": 0, "bob": 0}  # the gold goes back to the supply


def test_the_manche_waits_for_gm_resolve_even_with_nothing_to_choose() -> None:
    t = Table.new().start()
    t.duels(*FIRST_MANCHE)
    assert t.phase is Phase.END
    with pytest.raises(IllegalOrderError) as nothing:
        t.send("ana", "3")  # no duel is open, and ana has nothing to choose
    assert nothing.value.code == "fistful/nothing-due"
    with pytest.raises(PhaseError) as refused:
        t.step("reveal")
    assert refused.value.code == "fistful/not-now"


def short_game() -> Table:
    """bob wins manche 1 (FIRST_MANCHE), then manche 2:
    ana 3 4 6 7 8 D, bob 3 4 5 6 7 D. 3–5: bob +2 · 6–4: ana +2, ana's 6 takes the ties ·
    4–7: bob +3 (green 7) · D–3: ana +3 · 8–dynamite: ana +3. ana 8, bob 5: ana wins."""
    t = Table.new().start()
    t.duels(*FIRST_MANCHE)
    t.step("resolve")
    t.duels("3 5", "6 4", "4 7", "dynamite 3", "8 dynamite")
    t.step("resolve")
    return t


def test_a_short_game_is_won_with_2_stars() -> None:
    t = short_game()
    assert t.state.history[1].result.winner == "ana"  # type: ignore[union-attr]
    assert t.phase is Phase.DUEL  # 1 star each: manche 3, ana 3 4 6 8 D, bob 3 4 5 7 D
    # 4–3: ana +1 · 6–5: ana +1, her 6 takes the ties · 3–7, gap 4: ana +4 · 8–D: ana +3
    t.duels("4 3", "6 5", "3 7", "8 dynamite")
    (ended,) = t.step("resolve")
    assert ended.result.gold == {"ana": 9, "bob": 0}  # type: ignore[attr-defined]
    assert t.phase is Phase.OVER and t.state.game_end is GameEnd.STARS
    assert t.state.winners == ("ana",)
    assert {p.name: p.stars for p in t.state.players} == {"ana": 2, "bob": 1}


def test_a_long_game_needs_3_stars() -> None:
    t = Table.new(length="long").start()
    t.duels(*FIRST_MANCHE)
    t.step("resolve")
    t.duels("3 5", "6 4", "4 7", "dynamite 3", "8 dynamite")
    t.step("resolve")
    assert t.state.target == 3 and t.phase is Phase.DUEL
    assert [p.stars for p in t.state.players] == [1, 1]


def test_every_manche_costs_each_player_exactly_one_card() -> None:
    t = short_game()
    sizes = [r.hand_size for r in t.state.history]
    assert sizes == [7, 6, 5]


def test_gm_start_locks_the_setup_discards() -> None:
    t = Table.new()
    t.send("ana", "1 2")
    t.send("ana", "3 4")  # a player may change them until the start
    t.send("bob", "dynamite 8")
    with pytest.raises(OrderSyntaxError):
        t.send("ana", "5")  # a single card is no setup discard
    with pytest.raises(PhaseError):
        t.send("ana", "je joue le 5")  # and no duel is open yet
    t.step("start")
    assert t.player("ana").removed == cards("3 4")
    assert t.player("ana").hand == cards("1 2 5 6 7 8 dynamite")
    assert t.player("bob").removed == cards("8 dynamite")
    with pytest.raises(PhaseError) as refused:
        t.send("ana", "je défausse 1 2")
    assert refused.value.code == "fistful/not-now"


# --- refusals ----------------------------------------------------------------------------


def test_a_card_not_in_hand_says_where_it_is() -> None:
    t = Table.new().start()
    t.duel("3", "5")
    with pytest.raises(IllegalOrderError) as played:
        t.send("ana", "3")
    assert played.value.code == "fistful/not-in-hand"
    assert played.value.params["where"] == "played"
    assert played.value.message == (
        "the 3 is not in ana's hand: ana already played the 3 this manche"
        " (hand: 4, 5, 6, 7, 8, Dynamite)"
    )
    with pytest.raises(IllegalOrderError) as removed:
        t.send("ana", "1")
    assert removed.value.params["where"] == "removed"
    assert "the 1 is in ana's removed pile" in removed.value.message


def test_setup_discards_take_exactly_two_different_cards() -> None:
    t = Table.new()
    with pytest.raises(OrderSyntaxError) as three:
        t.send("ana", "1 2 3")
    assert three.value.code == "fistful/card-count"
    assert three.value.params["expected"] == 2 and three.value.params["got"] == 3
    with pytest.raises(OrderSyntaxError) as one:
        t.send("ana", "le 1")
    assert one.value.code == "fistful/card-count"
    with pytest.raises(OrderSyntaxError) as twice:
        t.send("ana", "1 et 1")
    assert twice.value.code == "fistful/same-card"


def test_the_steps_wait_for_what_they_need() -> None:
    t = Table.new()
    t.send("ana", "1 2")
    with pytest.raises(PhaseError) as start:
        t.step("start")
    assert start.value.code == "fistful/waiting"
    assert start.value.params["missing"] == ["bob"]
    t.send("bob", "1 2")
    t.step("start")
    t.send("ana", "5")
    with pytest.raises(PhaseError) as reveal:
        t.step("reveal")
    assert reveal.value.params["waiting"] == "bob's card"
    with pytest.raises(PhaseError) as resolve:
        t.step("resolve")
    assert resolve.value.code == "fistful/not-now"
    with pytest.raises(PhaseError):
        t.step("start")


def test_red_7_end_waits_for_both_discards() -> None:
    t = Table.new().start()
    t.duels("3 5", "5 4", "7 3")
    t.send("ana", "4")
    with pytest.raises(PhaseError) as refused:
        t.step("resolve")
    assert refused.value.message == "manche 1 cannot end yet: waiting for bob's discard"


def test_discards_the_rules_force_cannot_be_chosen() -> None:
    t = Table.new().start()
    t.duels(*FIRST_MANCHE)
    with pytest.raises(IllegalOrderError) as refused:
        t.send("ana", "je défausse le 5")
    assert refused.value.code == "fistful/nothing-due"


def test_a_red_7_discard_takes_one_card_from_the_hand() -> None:
    t = Table.new().start()
    t.duels("3 5", "5 4", "7 3")  # ana 2, bob 6: no final duel; ana keeps 4 6 8 D
    with pytest.raises(OrderSyntaxError) as two:
        t.send("ana", "4 6")
    assert two.value.code == "fistful/card-count"
    with pytest.raises(IllegalOrderError) as gone:
        t.send("ana", "3")
    assert gone.value.code == "fistful/not-in-hand"
    with pytest.raises(IllegalOrderError) as no_final:
        t.send("ana", "je défausse 4, je révèle le 4")
    assert no_final.value.code == "fistful/no-final-duel"


def test_the_final_card_comes_after_the_pick_and_the_discards() -> None:
    t = Table.new().start()
    t.duels("3 3", "5 5", "dynamite dynamite", "6 6", "4 4", "8 8")  # 0–0, bob's 8 last
    with pytest.raises(IllegalOrderError) as first:
        t.send("bob", "je révèle le 7")
    assert first.value.code == "fistful/pick-first"
    t2 = Table.new().start()
    t2.duels("3 5", "5 8")  # bob +2, then +3 and he picks the 1
    t2.send("bob", "je reprends le 1")
    t2.duels("7 3")  # red 7, duel 3, gap 4: bob +4; bob (green 8) chooses 2 discards of 5
    assert t2.gold() == {"ana": 0, "bob": 9}
    with pytest.raises(IllegalOrderError) as no_final:
        t2.send("bob", "je révèle le 1")
    assert no_final.value.code == "fistful/no-final-duel"


def test_only_the_mj_runs_the_steps_and_each_player_sends_their_own_cards() -> None:
    t = Table.new().start()
    with pytest.raises(IllegalOrderError) as not_gm:
        play(t.state, "ana", RevealDuel())
    assert not_gm.value.code == "fistful/gm-only"
    with pytest.raises(IllegalOrderError) as not_yours:
        play(t.state, "ana", PlayCard("bob", Card.FIVE))
    assert not_yours.value.code == "fistful/not-yours"
    state, _ = play(t.state, GM, PlayCard("bob", Card.FIVE))  # the MJ may, for a player
    assert state.card_of("bob") is Card.FIVE


def test_nothing_can_be_played_once_the_game_is_over() -> None:
    t = exhaust("5 3")
    for command in (StartDuels(), RevealDuel(), EndManche()):
        with pytest.raises(GameOverError):
            play(t.state, GM, command)
    with pytest.raises(GameOverError):
        GAME.parse(t.state, "ana", "5")[0]
    assert GAME.legal_inputs(t.state) == ()


def test_a_refused_command_changes_nothing() -> None:
    t = Table.new().start()
    t.duel("3", "5")
    before = t.state
    for text in ("4", "3", "1", "9", "bof", "5 6"):
        with pytest.raises((IllegalOrderError, OrderSyntaxError)):
            t.send("ana", text)
        assert t.state == before


def test_scored_manche_events_are_public_and_choices_sealed() -> None:
    t = Table.new().start()
    t.duels("3 5", "5 4", "7 3")
    (choice,) = t.send("ana", "4")
    assert choice.sealed and choice.audience() == "ana"
    assert choice.secret_key() == ("end", 1, "ana")  # the end of manche 1, ana's
    t.send("bob", "6")
    (ended,) = t.step("resolve")
    assert isinstance(ended, MancheEnded) and ended.audience() == PUBLIC
    assert ended.result.discarded == {"ana": 1, "bob": 1}  # counts, never the cards


# --- configuration --------------------------------------------------------------------------


def test_options_default_and_canonical() -> None:
    assert configure(["ana", "bob"], {}) == {
        "length": "short",
        "colors": {"ana": "red", "bob": "green"},
    }
    assert configure(["ana", "bob"], {"length": "Longue", "colors": "ana=vert"}) == {
        "length": "long",
        "colors": {"ana": "green", "bob": "red"},
    }
    assert configure(["ana", "bob"], {"colors": {"Bob": "red", "ana": "green"}})["colors"] == {
        "ana": "green",
        "bob": "red",
    }


@pytest.mark.parametrize(
    ("options", "code", "fragment"),
    [
        ({"length": "medium"}, "fistful/bad-length", "short (first to 2 manches won) or long"),
        ({"colors": "ana=blue"}, "fistful/bad-colors", "'blue' is not a deck (red or green)"),
        ({"colors": "zed=red"}, "fistful/bad-colors", "'zed' is not a player (ana, bob)"),
        ({"colors": "ana=red,bob=red"}, "fistful/bad-colors", "both players have the same deck"),
        ({"colors": "ana"}, "fistful/bad-colors", "has no '=' between player and deck"),
        ({"rounds": "3"}, "fistful/unknown-option", "(valid: length, colors)"),
    ],
)
def test_bad_options_are_refused_naming_what_is_valid(
    options: dict[str, str], code: str, fragment: str
) -> None:
    with pytest.raises(InputError) as refused:
        configure(["ana", "bob"], options)
    assert refused.value.code == code
    assert fragment in refused.value.message


@pytest.mark.parametrize(
    ("players", "code"),
    [
        (["ana"], "fistful/player-count"),
        (["a", "b", "c"], "fistful/player-count"),
    ],
)
def test_players_are_two(players: list[str], code: str) -> None:
    # names are the platform's one rule (gm.core.names.check_name), not the game's
    with pytest.raises(InputError) as refused:
        configure(players, {})
    assert refused.value.code == code


def test_colors_decide_who_holds_which_deck() -> None:
    t = Table.new(colors="ana=green").start()
    assert t.player("ana").color is Color.GREEN
    eight = t.duel("8", "5")  # ana's 8 is the green one now
    assert kinds(eight) == ["green-eight"]


def test_every_post_kind_the_game_declares_has_a_view() -> None:
    """``gm post KIND`` for each kind of the manifest: the full rules read the
    opening's view (the campaign's length and decks), and show no secret."""
    t = Table.new(colors="ana=green")
    opening = GAME.public_view(t.state, PostRef("opening"))
    assert GAME.public_view(t.state, PostRef("rules")) == {**opening, "kind": "rules"}
    assert GAME.shown(t.state, PostRef("rules")) == NOTHING_SHOWN
    over = exhaust("5 3").state  # a game over: every post exists
    for kind in GAME.info.post_kinds:
        at = {"duel": (1, 1), "manche": (1,)}.get(kind.name, ())
        assert len(at) == len(kind.coords)
        assert GAME.public_view(over, PostRef(kind.name, at))["kind"] == kind.name
