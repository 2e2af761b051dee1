"""Rattlesnake City's notation never turns a number into another choice
(gm/games/rattlesnake/rules.md, « A poker game on the forum », R-16): for every
message it accepts, in every phase a turn goes through (the tile, the draw,
steps 3 and 4, each stage of a poker game), each number the command records
— a game card, a stake, a price, a shot — is one the message writes, read as
players write numbers (« 10 000 » is one number, « 3k » is 3 000), and « no
card » is recorded only when the message says « aucune ». A message the
notation or the rules refuse is fine: refusing is what it should do with a
number it cannot place.
"""

from __future__ import annotations

import dataclasses
import re
from functools import cache
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_rattlesnake_rules import dealt, say

from gm.errors import GMError
from gm.games.rattlesnake import notation
from gm.games.rattlesnake.commands import ChooseCard
from gm.games.rattlesnake.model import State
from gm.render.engine import Renderer

HANDS = {
    "ana": "17, 5, 6, 8, Coyote",
    "bob": "12, 14, 2, 16, Coyote",
    "cyd": "9, 4, 18, 19, Tricheur",
}


@cache
def moments() -> tuple[tuple[str, State, tuple[str, ...]], ...]:
    """States a game goes through, each with who may write then. cyd placed
    the last saloon and plays first; she challenges bob, ana joins."""
    state = dealt(players=("ana", "bob", "cyd"), hands=HANDS, shots="1 2 3 1 2 2 1 1")
    out: list[tuple[str, State, tuple[str, ...]]] = [("tile", state, ("cyd",))]
    for text, who, name, writers in (
        ("A2", "cyd", "draw", ("cyd",)),
        ("coups", "cyd", "steps 3 and 4", ("cyd", "bob")),
        ("poker bob 3000", "cyd", "escape", ("bob",)),
        ("je reste", "bob", "join", ("ana", "bob", "cyd")),
        ("je suis", "ana", "join, ana in", ("ana", "bob", "cyd")),
        ("le 9", "cyd", "cards", ("ana", "bob")),
        ("le 17", "ana", "cards, bob last", ("bob",)),
        ("le 14", "bob", "reactions", ("ana", "bob", "cyd")),
    ):
        state = say(state, who, text)
        out.append((name, state, writers))
    return tuple(out)


WORDS = (
    "le", "la", "je", "mets", "et", "ou", "pour", "à", "de", "poker", "ana", "bob", "cyd",
    "aucune", "je reste", "je suis", "cartes", "je baisse à", "achète Dynamitero à bob",
    "vend Punaises à bob", "Coyote", "Tricheur avec ana", "Joueur professionnel",
    "pas de réaction", "passe", "attaque bob", "fin", "coups", "action", "A2", "B1", "$",
)  # fmt: skip
NUMBERS = st.one_of(
    st.integers(0, 30).map(str),
    st.sampled_from(["00", "007", "0 0", "1 1", "2 1", "10 000", "5 000", "2.000", "3k"]),
    st.integers(1, 30).map(lambda n: f"{n} 000"),
    st.integers(0, 99999).map(str),
)
MESSAGES = st.lists(st.one_of(st.sampled_from(WORDS), NUMBERS), min_size=1, max_size=5).map(
    " ".join
)

_NUMBER = re.compile(r"(?<![0-9a-z])(\d{1,3}(?:[ .]\d{3})+|\d+)(?![0-9])(?:\s*(k)(?![a-z]))?", re.I)


def written(text: str) -> set[int]:
    """Every number a message writes, as players write them."""
    out = set()
    for m in _NUMBER.finditer(text):
        value = int(re.sub(r"[ .]", "", m[1]))
        out.add(value * 1000 if m[2] else value)
    return out


def _plain(text: str) -> str:
    """The text with its French typographic spaces as plain ones."""
    return text.replace("\u202f", " ").replace("\xa0", " ")


def numbers_of(value: Any) -> list[int]:
    """The numbers a command records (its fields, through tuples)."""
    if isinstance(value, (bool, str)) or value is None:
        return []
    if isinstance(value, int):
        return [value]
    if isinstance(value, tuple):
        return [n for v in value for n in numbers_of(v)]
    if dataclasses.is_dataclass(value):
        return [n for f in dataclasses.fields(value) for n in numbers_of(getattr(value, f.name))]
    return []


def test_the_moments_are_the_ones_named() -> None:
    stages = [(s.phase.value, s.poker.stage.value if s.poker else None) for _, s, _ in moments()]
    assert stages == [
        ("tile", None), ("draw", None), ("free", None), ("poker", "escape"), ("poker", "join"),
        ("poker", "join"), ("poker", "cards"), ("poker", "cards"), ("poker", "react"),
    ]  # fmt: skip


@pytest.mark.parametrize(
    "text", ["le 24 et je mets 10 000", "le 0", "00", "5 000", "le 14 et 10 000", "3k"]
)
def test_r16_the_messages_of_the_report_are_refused(text: str) -> None:
    _, state, _ = moments()[-2]  # bob, the challenged, chooses last
    with pytest.raises(GMError):
        notation.parse(state, "bob", text)


@pytest.mark.parametrize(
    ("text", "written"), [("attaque bob 2 000", "« 2 000 »"), ("attaque bob 4", "« 4 »")]
)
def test_r15_a_shot_is_its_cartridges_never_a_part_of_another_number(
    text: str, written: str
) -> None:
    # cyd attacks bob's bank: « 2 000 » was read as the shot card 2 (the « 000 »
    # dropped); a shot card has 1, 2 or 3 cartridges, any other number is refused
    _, state, _ = moments()[2]
    with pytest.raises(GMError) as refused:
        notation.parse(state, "cyd", text)
    error = refused.value
    assert error.code == "rattlesnake/not-a-shot"
    context = {"player": "cyd", "text": text}
    context["error"] = {"code": error.code, "message": error.message, "params": error.params}
    reply = Renderer("rattlesnake").render("order_rejected", context)
    assert _plain(reply) == (
        f"Refusé : une carte coup a 1, 2 ou 3 cartouches (« 2 », « 1 1 ») : {written}"
        " n'en est pas une.\n"
    )
    assert notation.parse(state, "cyd", "attaque bob 1 1")[0].cards == (1, 1)  # type: ignore[attr-defined]


@given(moment=st.integers(0, len(moments()) - 1), data=st.data(), text=MESSAGES)
def test_r16_every_number_recorded_is_one_the_message_writes(
    moment: int, data: st.DataObject, text: str
) -> None:
    _, state, writers = moments()[moment]
    player = data.draw(st.sampled_from(writers))
    try:
        commands = notation.parse(state, player, text)
    except GMError:
        return
    named = written(text)
    words = set(notation.tokens(text))
    for command in commands:
        assert set(numbers_of(command)) <= named, (text, command)
        if isinstance(command, ChooseCard) and command.card is None:
            assert words & notation.NONE_WORDS, (text, command)
