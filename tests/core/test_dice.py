"""Dice of fortune: the parser (canonical forms, every error with its exact
message and code, the limits), keep-highest/lowest, fixed seed → fixed rolls,
a chi-square test of d6, and agreement with the README's snippet."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gm.core import dice
from gm.core.campaign import PLATFORM_EVENTS
from gm.core.codec import EventCodec
from gm.core.fortune import Fortune, ScriptedDraws
from gm.errors import InputError

README = Path(__file__).resolve().parents[2] / "README.md"


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("d6", "d6"),
        ("1d6", "d6"),
        ("2d6+1", "2d6+1"),
        ("1d100", "d100"),
        ("d%", "d100"),
        ("3d%", "3d100"),
        ("4d6kh3", "4d6kh3"),
        ("2d20kl1", "2d20kl1"),
        ("2d20kh", "2d20kh1"),
        ("d20+d4-1", "d20+d4-1"),
        ("3d6 + 2", "3d6+2"),
        ("  2D6 -  1 ", "2d6-1"),
        ("4D6KH3", "4d6kh3"),
        ("02d06+007", "2d6+7"),
        ("5", "5"),
        ("d2", "d2"),
        ("100d1000", "100d1000"),
        ("10000-d6", "10000-d6"),
    ],
)
def test_valid_expressions_and_their_canonical_form(text: str, canonical: str) -> None:
    parsed = dice.parse(text)
    assert str(parsed) == canonical
    assert dice.parse(canonical) == parsed


def test_the_parsed_terms() -> None:
    assert dice.parse("4d6kh3-2+d%").terms == (
        dice.Dice(4, 6, "h", 3),
        dice.Constant(2, sign=-1),
        dice.Dice(1, 100),
    )


SYNTAX_ERRORS = [
    ("", "no dice expression: write one like 2d6+1, d20 or 4d6kh3"),
    ("   ", "no dice expression: write one like 2d6+1, d20 or 4d6kh3"),
    ("Xd6+2d", "cannot read 'Xd6' in 'Xd6+2d': a die is NdS, like 2d6, d20 or d%"),
    ("d6+2d", "cannot read '2d' in 'd6+2d': a die is NdS, like 2d6, d20 or d%"),
    ("2d6*2", "cannot read '2d6*2' in '2d6*2': a die is NdS, like 2d6, d20 or d%"),
    ("d", "cannot read 'd' in 'd': a die is NdS, like 2d6, d20 or d%"),
    (
        "4d6k3",
        "cannot read '4d6k3' in '4d6k3': keep the highest or lowest dice with khK or klK,"
        " like 4d6kh3",
    ),
    (
        "4d6dl1",
        "cannot read '4d6dl1' in '4d6dl1': a die is NdS, like 2d6, d20 or d%",
    ),
    (
        "abc",
        "cannot read 'abc' in 'abc': a term is dice like 2d6 or a whole number like 3,"
        " joined by + or -",
    ),
    ("2d6−1", "cannot read '2d6−1' in '2d6−1': a die is NdS, like 2d6, d20 or d%"),
    ("+2d6", "'+2d6' starts with '+': start with dice or a number, like 2d6 or 3"),
    ("-1", "'-1' starts with '-': start with dice or a number, like 2d6 or 3"),
    ("2d6++1", "cannot read '++' in '2d6++1': put one term between two signs, like 2d6+1"),
    ("2d6 + - 1", "cannot read '+-' in '2d6 + - 1': put one term between two signs, like 2d6+1"),
    ("2d6+", "'2d6+' ends with '+': add a term after it, like 2d6+1"),
    (
        "2d6 3",
        "expected + or - between '2d6' and '3' in '2d6 3', like 2d6+1 or d20-1",
    ),
]


@pytest.mark.parametrize(("text", "message"), SYNTAX_ERRORS)
def test_syntax_errors_are_clear(text: str, message: str) -> None:
    with pytest.raises(InputError) as info:
        dice.parse(text)
    assert (info.value.message, info.value.code) == (message, "dice/syntax")
    assert info.value.exit_code == 2


LIMIT_ERRORS = [
    ("0d6", "cannot roll '0d6' in '0d6': a term rolls 1 to 100 dice"),
    ("101d6+1", "cannot roll '101d6' in '101d6+1': a term rolls 1 to 100 dice"),
    ("d1", "cannot roll 'd1' in 'd1': dice have 2 to 1000 sides"),
    ("2d1001", "cannot roll '2d1001' in '2d1001': dice have 2 to 1000 sides"),
    ("d0", "cannot roll 'd0' in 'd0': dice have 2 to 1000 sides"),
    ("d6+10001", "the number '10001' in 'd6+10001' is too big: at most 10000"),
    ("4d6kh5", "cannot keep 5 of the 4 dice of '4d6kh5' in '4d6kh5': keep 1 to 4"),
    ("4d6kl0", "cannot keep 0 of the 4 dice of '4d6kl0' in '4d6kl0': keep 1 to 4"),
    ("100d6+100d6+d6", "'100d6+100d6+d6' rolls 201 dice: at most 200 in all"),
    (
        "d6+d6+d6+d6+d6+d6+d6+d6+d6+d6+1",
        "'d6+d6+d6+d6+d6+d6+d6+d6+d6+d6+1' has 11 terms: at most 10",
    ),
    ("d6" + " " * 98 + "+1", "the dice expression is 102 characters long; the limit is 100"),
]


@pytest.mark.parametrize(("text", "message"), LIMIT_ERRORS)
def test_limits_are_clear(text: str, message: str) -> None:
    with pytest.raises(InputError) as info:
        dice.parse(text)
    assert (info.value.message, info.value.code) == (message, "dice/limit")


def test_limits_allow_their_bounds() -> None:
    assert dice.parse("100d6+100d6").dice_count == 200
    assert str(dice.parse("d6+" * 9 + "10000")) == "d6+" * 9 + "10000"
    assert len(dice.parse("d6" + " " * 96 + "+1").terms) == 2  # 100 characters


def test_the_first_error_from_the_left_is_reported() -> None:
    with pytest.raises(InputError, match="cannot read 'x'"):
        dice.parse("x+0d6")
    with pytest.raises(InputError, match="cannot roll '0d6'"):
        dice.parse("0d6+x")


def test_keep_highest_and_lowest() -> None:
    # ScriptedDraws returns below() values: each die is value + 1.
    result = dice.roll("4d6kh3", ScriptedDraws([0, 5, 3, 3]))
    assert result.dice == ((1, 6, 4, 4),)
    assert result.terms[0].kept == (False, True, True, True)
    assert result.kept == ((6, 4, 4),)
    assert result.total == 14
    low = dice.roll("4d6kl2", ScriptedDraws([0, 5, 3, 3]))
    assert (low.kept, low.total) == (((1, 4),), 5)
    # Among equal dice the earlier is kept (the total is the same either way).
    tie = dice.roll("3d6kh1", ScriptedDraws([4, 4, 1]))
    assert tie.terms[0].kept == (True, False, False)
    tie = dice.roll("3d6kl2", ScriptedDraws([4, 1, 1]))
    assert tie.terms[0].kept == (False, True, True)


def test_signs_constants_and_the_draw_order() -> None:
    result = dice.roll("d20-2d4+3", ScriptedDraws([16, 0, 3]))
    assert result.dice == ((17,), (1, 4), ())
    assert [t.value for t in result.terms] == [17, -5, 3]
    assert result.total == 15


def test_fixed_seed_gives_fixed_rolls() -> None:
    # Test vectors: players re-derive published rolls, so these never change.
    assert dice.roll("2d6+1", Fortune("graine", "draw/57")).dice == ((2, 3), ())
    assert dice.roll("d20+d4-1", Fortune("graine", "draw/58")).total == 17
    result = dice.roll("4d6kh3", Fortune("graine", "draw/59"))
    assert (result.dice, result.kept, result.total) == (((4, 4, 4, 2),), ((4, 4, 4),), 12)
    assert dice.roll("3d%", Fortune("la-graine-secrète", "draw/12")).dice == ((81, 56, 68),)


def test_each_die_draws_once_below_its_sides() -> None:
    calls: list[int] = []

    class Spy(ScriptedDraws):
        def below(self, n: int) -> int:
            calls.append(n)
            return 0

    dice.roll("2d6+3-d20+4d8kh1", Spy())
    assert calls == [6, 6, 20, 8, 8, 8, 8]


def test_d6_distribution_passes_a_chi_square_test() -> None:
    """10,000 d6 from one stream, fixed seed: chi-square below the 5 % cut (11.07, 5 dof)."""
    f = Fortune("chi2-dice", "draw/1")
    counts = Counter(dice.roll("d6", f).total for _ in range(10_000))
    assert sorted(counts) == [1, 2, 3, 4, 5, 6]
    expected = 10_000 / 6
    chi2 = sum((counts[face] - expected) ** 2 / expected for face in range(1, 7))
    assert chi2 < 11.07


def test_the_event_records_every_die_and_rebuilds_the_roll() -> None:
    result = dice.roll("4d6kh3+2", Fortune("graine", "draw/59"))
    event = dice.rolled(result, "la fuite")
    assert event == dice.DiceRolled("4d6kh3+2", "la fuite", ((4, 4, 4, 2), ()), 14)
    assert (event.kind, event.audience()) == ("gm.dice-rolled", "*")
    assert dice.from_event(event) == result
    codec = EventCodec(PLATFORM_EVENTS)
    kind, payload = codec.encode(event)
    assert payload == {
        "expression": "4d6kh3+2",
        "reason": "la fuite",
        "dice": [[4, 4, 4, 2], []],
        "total": 14,
    }
    assert codec.decode(kind, payload) == event


def test_a_damaged_event_does_not_rebuild() -> None:
    with pytest.raises(ValueError, match="do not fit"):
        dice.from_event(dice.DiceRolled("2d6", "", ((7, 1),), 8))
    with pytest.raises(ValueError, match="recorded total"):
        dice.from_event(dice.DiceRolled("2d6", "", ((6, 1),), 8))
    with pytest.raises(ValueError, match="groups of dice"):
        dice.from_event(dice.DiceRolled("2d6+1", "", ((6, 1),), 8))


@given(
    st.lists(
        st.tuples(st.integers(1, 20), st.integers(2, 1000), st.sampled_from(["", "kh", "kl"])),
        min_size=1,
        max_size=5,
    ),
    st.integers(0, 10_000),
    st.text(max_size=8),
)
def test_rolls_stay_in_range(terms: list[tuple[int, int, str]], constant: int, seed: str) -> None:
    text = "+".join(f"{n}d{s}{k}" for n, s, k in terms) + f"-{constant}"
    result = dice.roll(text, Fortune(seed, "draw/1"))
    for (n, s, k), term in zip(terms, result.terms, strict=False):
        assert len(term.dice) == n and all(1 <= v <= s for v in term.dice)
        assert sum(term.kept) == (1 if k else n)
    assert result.total == sum(t.value for t in result.terms)
    assert dice.from_event(dice.rolled(result, "")) == result


def _snippet() -> dict[str, object]:
    text = README.read_text(encoding="utf-8")
    match = re.search(r"<!-- fortune-snippet -->\s*```python\n(.*?)```", text, re.S)
    assert match, "README must contain the fortune snippet"
    namespace: dict[str, object] = {}
    exec(match.group(1), namespace)
    return namespace


def test_readme_dice_example_agrees_with_gm() -> None:
    """The README's dice lines, run after its fortune snippet, give gm's rolls."""
    text = README.read_text(encoding="utf-8")
    match = re.search(r"<!-- dice-snippet -->\s*```python\n(.*?)```", text, re.S)
    assert match, "README must contain the dice example"
    namespace = _snippet()
    printed: list[object] = []
    namespace["print"] = printed.append
    exec(match.group(1), namespace)
    assert printed == [
        list(dice.roll("2d6+1", Fortune("graine", "roll/1")).dice[0]),
        [d for group in dice.roll("d20+d4-1", Fortune("graine", "roll/2")).dice for d in group],
    ]


@pytest.mark.parametrize(
    ("seed", "label", "text"),
    [
        ("graine", "draw/57", "2d6+1"),
        ("graine", "draw/58", "d20+d4-1"),
        ("la-graine-secrète", "draw/12", "4d6kh3+3d%-2d8kl1"),
        ("x", "draw/3", "100d1000"),
    ],
)
def test_the_readme_rule_re_derives_any_roll(seed: str, label: str, text: str) -> None:
    """One stream, each die `draw_below(source, sides) + 1` in the order written."""
    namespace = _snippet()
    stream, draw_below = namespace["stream"], namespace["draw_below"]
    expression = dice.parse(text)
    source = stream(seed, label)  # type: ignore[operator]
    derived = tuple(
        tuple(draw_below(source, t.sides) + 1 for _ in range(t.count))  # type: ignore[operator]
        if isinstance(t, dice.Dice)
        else ()
        for t in expression.terms
    )
    assert derived == dice.roll(expression, Fortune(seed, label)).dice
