"""Rattlesnake City's combat machine and bank attack (R-8, R-15), one test per ruling,
plus Hypothesis properties over random legal blows (gm/games/rattlesnake/rules.md).

Fighters are built by hand: shot cards are their cartridges, permanents their names.
"""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gm.errors import GMError, IllegalOrderError, InputError, PhaseError
from gm.games.rattlesnake import bank, combat
from gm.games.rattlesnake.combat import HONEST, IRONFIST, SLIPPERY, STINKY, Combat, Fighter, Kind


def duel(attacker: Fighter, defender: Fighter) -> Combat:
    return combat.start(Kind.BANK, [attacker, defender])


def test_r8_half_cash_rounded_down_to_1000() -> None:
    # 13 000 $ → half 6 500 → 6 000 (the defender keeps the odd 500);
    # 7 000 → 3 500 → 3 000; 1 000 → 500 → 0; 12 000 → exactly 6 000.
    assert bank.half_cash(13_000) == 6_000
    assert bank.half_cash(7_000) == 3_000
    assert bank.half_cash(1_000) == 0
    assert bank.half_cash(12_000) == 6_000
    assert bank.half_cash(0) == 0


def test_r8_seizure_after_give_in_and_after_a_lost_defence() -> None:
    # ana opens with 2; bob passes at once: he gives in, hands over half of 9 000 → 4 000.
    c = combat.give_up(
        combat.shoot(duel(Fighter("ana", (2,)), Fighter("bob", (3,))), "ana", [2]), "bob"
    )
    assert c.gave_in and c.winner == "ana"
    assert bank.seizure(c, 9_000) == 4_000
    # ana 2, bob 3 (3 > 2), ana passes: bob defended, pays nothing.
    c = duel(Fighter("ana", (2,)), Fighter("bob", (3,)))
    c = combat.give_up(combat.shoot(combat.shoot(c, "ana", [2]), "bob", [3]), "ana")
    assert not c.gave_in and c.winner == "bob"
    assert bank.seizure(c, 9_000) == 0


def test_r15_permanents_count_at_first_shot() -> None:
    # ana has Ironfist Jim (+1): her first shot of 2 makes 3. bob has Stinky Joe (−1):
    # his first shot must beat 3, so 2+2−1 = 3 is not enough; 3+2−1 = 4 is.
    # Her second shot of 2 makes 3+2 = 5: Ironfist is not counted again.
    c = duel(Fighter("ana", (2, 2), (IRONFIST,)), Fighter("bob", (3, 2, 2), (STINKY,)))
    c = combat.shoot(c, "ana", [2])
    assert c.fighter("ana").total == 3
    with pytest.raises(IllegalOrderError) as refused:
        combat.shoot(c, "bob", [2, 2])
    assert refused.value.code == "rattlesnake/shot-too-low"
    assert refused.value.params["total"] == 3
    assert refused.value.params["legal"] == [[2, 3], [2, 2, 3]]
    assert refused.value.params["minimal"] == [[2, 3]]
    c = combat.shoot(c, "bob", [3, 2])
    assert c.fighter("bob").total == 4
    c = combat.shoot(c, "ana", [2])
    assert c.fighter("ana").total == 5
    assert combat.legal_shots(c, "bob") == ((2,),)  # 4 + 2 = 6 > 5; no −1 again


def test_r15_shot_must_exceed_every_fighter() -> None:
    # Three fighters of a poker combat: ana opens 2, bob 3, cyd must beat 3 — not only ana's
    # 2: cyd's 2+1 = 3 only equals bob and is refused; 3+1 = 4 goes. ana at 2 must then
    # reach 5: 2+3 = 5 (her 3 alone); 2+2 = 4 is refused.
    c = combat.start(
        Kind.POKER, [Fighter("ana", (2, 3, 2)), Fighter("bob", (3,)), Fighter("cyd", (2, 1, 3))]
    )
    c = combat.shoot(combat.shoot(c, "ana", [2]), "bob", [3])
    with pytest.raises(IllegalOrderError):
        combat.shoot(c, "cyd", [2, 1])
    c = combat.shoot(c, "cyd", [3, 1])
    assert c.turn == "ana"
    with pytest.raises(IllegalOrderError):
        combat.shoot(c, "ana", [2])
    assert combat.legal_shots(c, "ana") == ((3,), (2, 3))
    assert combat.minimal_shots(c, "ana") == ((3,),)  # the 2 is to spare
    c = combat.shoot(c, "ana", [3])
    assert [f.total for f in c.fighters] == [5, 3, 4]
    # bob has no card left: passe is all he has; cyd (4) passes too: ana wins, last shooter.
    assert combat.legal_shots(c, "bob") == ()
    c = combat.give_up(combat.give_up(c, "bob"), "cyd")
    assert c.over and c.winner == "ana" == c.last_shooter
    assert combat.used(c) == {"ana": (2, 3), "bob": (3,), "cyd": (3, 1)}
    assert c.fighter("cyd").shots == (2,)


def test_r15_defender_passing_first_gives_in() -> None:
    # The defender's first move is a passe: he gives in (same outcome as losing). A defender
    # who passes after shooting has lost a combat, which pays the same, but did not give in.
    c = duel(Fighter("ana", (1,)), Fighter("bob", (3, 3)))
    c = combat.give_up(combat.shoot(c, "ana", [1]), "bob")
    assert c.gave_in and c.winner == "ana" and bank.attacker_wins(c)
    c = duel(Fighter("ana", (1, 3)), Fighter("bob", (2, 1)))
    c = combat.shoot(combat.shoot(c, "ana", [1]), "bob", [2])
    c = combat.give_up(combat.shoot(c, "ana", [3]), "bob")  # ana 4 > bob 2; bob's 1 would make 3
    assert not c.gave_in and c.winner == "ana"
    # A poker combat knows no giving in.
    c = combat.start(Kind.POKER, [Fighter("ana", (1,)), Fighter("bob", (3,))])
    c = combat.give_up(combat.shoot(c, "ana", [1]), "bob")
    assert not c.gave_in and c.winner == "ana"


def test_r15_free_shot_alone_opens() -> None:
    # ana has no shot card but Slippery Joe: she opens with the free shot alone, total 1.
    # bob (Honest Jim, −1) must beat 1: 1−1 = 0 and 2−1 = 1 fail, 3−1 = 2 or 1+2−1 = 2 go.
    c = duel(Fighter("ana", (), (SLIPPERY,)), Fighter("bob", (1, 2, 3), (HONEST,)))
    assert combat.legal_shots(c, "ana") == ((),)
    c = combat.shoot(c, "ana", (), free=SLIPPERY)
    assert c.fighter("ana").total == 1 and c.moves[-1].free == SLIPPERY
    assert combat.legal_shots(c, "bob")[:2] == ((3,), (1, 2))
    # The free shot alone is a first shot only; naming a card one does not hold is refused.
    c2 = duel(Fighter("ana", (1,), (IRONFIST,)), Fighter("bob", (3,)))
    with pytest.raises(IllegalOrderError) as refused:
        combat.shoot(c2, "ana", (), free=SLIPPERY)
    assert refused.value.params["free_shots"] == [IRONFIST]
    c2 = combat.shoot(combat.shoot(c2, "ana", (), free=IRONFIST), "bob", [3])
    with pytest.raises(IllegalOrderError) as refused:
        combat.shoot(c2, "ana", ())
    assert refused.value.code == "rattlesnake/no-shot"
    # Ironfist Jim with Stinky Joe: the free shot alone is worth 0, not an opening.
    with pytest.raises(IllegalOrderError) as refused:
        duel(Fighter("ana", (), (IRONFIST, STINKY)), Fighter("bob", (3,)))
    assert refused.value.code == "rattlesnake/cannot-open"


def test_r15_out_for_good_and_turns_in_seating_order() -> None:
    c = combat.start(
        Kind.POKER, [Fighter("cyd", (1, 3)), Fighter("ana", (2, 3)), Fighter("bob", (3,))]
    )
    c = combat.shoot(c, "cyd", [1])
    assert c.turn == "ana"
    c = combat.give_up(c, "ana")
    assert c.turn == "bob"
    c = combat.shoot(c, "bob", [3])
    assert c.turn == "cyd"  # ana is out for good: skipped
    with pytest.raises(IllegalOrderError) as refused:
        combat.shoot(c, "ana", [3])
    assert refused.value.code == "rattlesnake/not-your-turn"
    c = combat.shoot(c, "cyd", [3])  # 4 > 3
    c = combat.default(c)  # bob misses the deadline: passe
    assert c.winner == "cyd" and c.turn is None
    with pytest.raises(PhaseError):
        combat.shoot(c, "cyd", [1])


def test_opener_cannot_pass_before_opening_and_bad_fighters() -> None:
    c = duel(Fighter("ana", (1,)), Fighter("bob", ()))
    with pytest.raises(IllegalOrderError) as refused:
        combat.give_up(c, "ana")
    assert refused.value.code == "rattlesnake/opener-must-shoot"
    with pytest.raises(InputError):
        combat.start(Kind.BANK, [Fighter("ana", (1,))])
    with pytest.raises(InputError):
        combat.start(Kind.BANK, [Fighter("ana", (1,)), Fighter("bob", ()), Fighter("cyd", ())])
    with pytest.raises(IllegalOrderError) as refused:
        combat.shoot(c, "ana", [3])
    assert refused.value.code == "rattlesnake/shot-not-in-hand"


# -- properties ----------------------------------------------------------------------------

permanent = st.sampled_from([IRONFIST, SLIPPERY, HONEST, STINKY, "Punaises"])
fighter_cards = st.tuples(
    st.lists(st.sampled_from([1, 2, 3]), max_size=6), st.lists(permanent, max_size=2)
)


@st.composite
def fights(draw: st.DrawFn) -> tuple[Combat, list[int]]:
    kind = draw(st.sampled_from([Kind.BANK, Kind.POKER]))
    n = 2 if kind is Kind.BANK else draw(st.integers(2, 4))
    opener_shots = draw(st.lists(st.sampled_from([1, 2, 3]), min_size=1, max_size=6))
    fighters = [Fighter("p0", tuple(opener_shots))]
    for i in range(1, n):
        shots, perms = draw(fighter_cards)
        fighters.append(Fighter(f"p{i}", tuple(shots), tuple(perms)))
    choices = draw(st.lists(st.integers(0, 100), min_size=60, max_size=60))
    return combat.start(kind, fighters), choices


def play_out(c: Combat, choices: list[int]) -> list[Combat]:
    """Random legal blows to the end: each choice picks a legal shot or passe."""
    seen = [c]
    for pick in choices:
        if c.over:
            break
        player = c.turn
        assert player is not None
        options: list[tuple[int, ...] | None] = list(combat.legal_shots(c, player))
        if combat.can_pass(c, player):
            options.append(None)
        move = options[pick % len(options)]
        c = combat.give_up(c, player) if move is None else combat.shoot(c, player, move)
        seen.append(c)
    return seen


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fights())
def test_a_combat_ends_with_one_winner_or_a_give_in(case: tuple[Combat, list[int]]) -> None:
    start, choices = case
    seen = play_out(start, choices)
    end = seen[-1]
    # Every fighter has at most 6 cards and one free shot: 60 blows always suffice.
    assert end.over
    assert len(end.still_in) == 1 and end.winner == end.last_shooter
    if end.gave_in:
        assert end.kind is Kind.BANK and end.winner == end.opener and len(end.moves) == 2
    # Cards: each fighter's hand plus what they laid is what they brought.
    for before, after in zip(start.fighters, end.fighters, strict=True):
        assert sorted(after.shots + after.laid) == sorted(before.shots)
    # Every shot went strictly above every other fighter still in, and at least 1.
    for prev, nxt in itertools.pairwise(seen):
        move = nxt.moves[-1]
        if move.passed:
            continue
        others = [f.total for f in prev.fighters if not f.out and f.name != move.player]
        assert move.total is not None and move.total > max([*others, 0])


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fights())
def test_every_legal_shot_is_a_minimal_one_plus_cards(case: tuple[Combat, list[int]]) -> None:
    for c in play_out(*case):
        if c.turn is None:
            continue
        minimal = combat.minimal_shots(c, c.turn)
        assert set(minimal) <= set(combat.legal_shots(c, c.turn))
        for shot in combat.legal_shots(c, c.turn):
            assert any(not (Counter(m) - Counter(shot)) for m in minimal)


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fights(), st.lists(st.sampled_from([1, 2, 3]), max_size=4), st.sampled_from(range(5)))
def test_illegal_blows_are_refused_and_change_nothing(
    case: tuple[Combat, list[int]], cards: list[int], who: int
) -> None:
    start, choices = case
    seen = play_out(start, choices[: choices[0] % 6])
    c = seen[-1]
    player = f"p{who}"
    legal = combat.legal_shots(c, player)
    before = c
    try:
        after = combat.shoot(c, player, cards)
    except GMError:
        assert c == before
        assert tuple(sorted(cards)) not in legal or c.turn != player
    else:
        assert tuple(sorted(cards)) in legal and after != before
