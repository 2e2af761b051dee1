"""Le Magot's notation never turns a number into another option
(gm/games/magot/rules.md, how gm reads the message): a multiplier counts the
whole run it follows, written whole as players write numbers (« BANG ×3 »
is the triple; « BANG ×3 000 », « triple ×2 », « BANG ×2 » are no option and
refused), so for every order accepted, the shots of the option recorded are
the shots the message writes.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gm.errors import GMError, OrderSyntaxError
from gm.games.magot.model import Option
from gm.games.magot.notation import parse_order
from gm.games.magot.rules import initial_state

STATE = initial_state(("ana", "bob", "cyd", "tom"), {})
SHOTS = {"bang": 1, "BANG": 1, "triple": 3, "BBB": 3, "bang bang bang": 3, "bangbangbang": 3}
RECORDED = {Option.BANG: 1, Option.TRIPLE: 3}


@pytest.mark.parametrize(
    "text", ["bob BANG x 3 000", "bob bang x3.000", "bob triple x2", "bob BBB ×3", "bob bang ×2"]
)
def test_a_multiplier_that_makes_no_option_is_refused(text: str) -> None:
    with pytest.raises(OrderSyntaxError) as refused:
        parse_order(STATE, "tom", text)
    assert refused.value.code == "magot/bang-count"


@given(
    option=st.sampled_from(sorted(SHOTS)),
    sign=st.sampled_from(["x", "×", "x ", " x", " × "]),
    number=st.one_of(
        st.integers(0, 12).map(str),
        st.sampled_from(["03", "1 000", "3 000", "3.000", "001", "1 1", "3 3"]),
        st.integers(0, 99999).map(str),
    ),
    after=st.sampled_from(["", " sur bob", " !", " 000", " manche 2"]),
)
def test_the_shots_recorded_are_the_shots_written(
    option: str, sign: str, number: str, after: str
) -> None:
    text = f"bob {option}{sign}{number}{after}"
    try:
        order = parse_order(STATE, "tom", text)
    except GMError:
        return
    whole = re.match(r"\d{1,3}(?:[ .]\d{3})+|\d+", number + after)
    assert whole is not None
    times = int(re.sub(r"[ .]", "", whole[0]))
    assert RECORDED[order.option] == SHOTS[option] * times, (text, order)
