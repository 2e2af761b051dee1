"""Fistful of Gold's notation never turns a number into another card
(gm/games/fistful/rules.md, how gm reads a message): for every message it
accepts, at the setup's discards and in a duel, each card the command
records is one the message names — its number written whole (« 5 000 » is
no 5, « 10 » is no 1) or in words, the Dynamite by its name. A message the
notation refuses is fine: refusing is what it should do with a number that
is no card.
"""

from __future__ import annotations

import dataclasses
import re
from functools import cache
from itertools import pairwise
from typing import Any

from fistful_support import Table
from hypothesis import given
from hypothesis import strategies as st

from gm.errors import GMError
from gm.games.fistful import GAME
from gm.games.fistful.cards import Card
from gm.games.fistful.model import State
from gm.games.fistful.words import CARD_WORDS, words


@cache
def moments() -> tuple[State, ...]:
    return (Table.new().state, Table.new().start(ana="1 2", bob="1 2").state)


WORDS = (
    "je joue", "le", "la", "et", "je défausse", "je reprends", "je révèle", "dynamite", "cinq",
    "huit", "un", "manche", "duel", "cartes", "$", "ou",
)  # fmt: skip
NUMBERS = st.one_of(
    st.integers(0, 12).map(str),
    st.sampled_from(["00", "05", "5 000", "1 000", "2.000", "10 000", "5k", "1 1"]),
    st.integers(0, 99999).map(str),
)
MESSAGES = st.lists(st.one_of(st.sampled_from(WORDS), NUMBERS), min_size=1, max_size=5).map(
    " ".join
)

_NUMBER = re.compile(r"(?<![0-9a-z])(\d{1,3}(?:[ .]\d{3})+|\d+)(?![0-9])", re.I)


def named(text: str) -> set[Card]:
    """The cards a message names: numbers written whole, or words."""
    numbers = {int(re.sub(r"[ .]", "", m[1])) for m in _NUMBER.finditer(text)}
    out = {c for c in Card if c.number is not None and c.number in numbers}
    folded = words(text)
    out |= {CARD_WORDS[w] for w in folded if w in CARD_WORDS and not w.isdigit()}
    # « le un », « carte un »: the 1 in words
    return out | {Card.ONE for a, b in pairwise(folded) if (a, b) in _ONE}


_ONE = {("le", "un"), ("carte", "un")}


def cards_of(value: Any) -> list[Card]:
    if isinstance(value, Card):
        return [value]
    if isinstance(value, tuple):
        return [c for v in value for c in cards_of(v)]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return [c for f in dataclasses.fields(value) for c in cards_of(getattr(value, f.name))]
    return []


def test_the_moments_are_the_setup_and_a_duel() -> None:
    assert [s.phase.value for s in moments()] == ["setup", "duel"]


@given(moment=st.integers(0, len(moments()) - 1), text=MESSAGES)
def test_every_card_recorded_is_one_the_message_names(moment: int, text: str) -> None:
    try:
        commands = GAME.parse(moments()[moment], "ana", text)
    except GMError:
        return
    for command in commands:
        assert set(cards_of(command)) <= named(text), (text, command)
