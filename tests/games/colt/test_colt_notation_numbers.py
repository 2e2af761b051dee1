"""Colt Express's notation never turns a number into another choice
(gm/games/colt/rules.md, R-7 and R-11): for every message it accepts, on a
Déplacement along the roofs, a Coup de poing among three bandits (a game
played by hand, purses named by their value) and a turn of the Plan, each
distance and purse value recorded is one the message writes (« 250 000 » is
one number, not 250), and a distance written (« 4 wagons ») is the one the
card resolves with, never dropped so that the only legal one is taken. A
message the notation or the rules refuse is fine.
"""

from __future__ import annotations

import re
from functools import cache

from colt_support import action_on, apply, give, place, train
from hypothesis import given
from hypothesis import strategies as st

from gm.errors import GMError
from gm.games.colt import notation, rules
from gm.games.colt.cards import Card
from gm.games.colt.commands import Choose
from gm.games.colt.events import CardResolved
from gm.games.colt.model import State
from gm.games.colt.words import NUMBERS


@cache
def moments() -> tuple[tuple[State, str], ...]:
    punch = place(train(), cleo=(2, "roof"), bob=(2, "roof"), dan=(2, "roof"))
    punch = give(give(punch, "bob", purses=(250, 400)), "dan", purses=(250, 300))
    move = place(train(), ana=(1, "roof"))
    return (
        (action_on(punch, ("cleo", Card.PUNCH)), "cleo"),
        (action_on(move, ("ana", Card.MOVE)), "ana"),
        (train(), "ana"),
    )


WORDS = (
    "vers l'avant", "vers l'arrière", "vers la locomotive", "sur bob", "sur dan", "la bourse",
    "la bourse de", "le bijou", "wagon", "wagons", "rien", "sinon", "si", "je joue", "Tir",
    "Déplacement", "un", "deux", "trois", "et", "de", "$",
)  # fmt: skip
NUMBERS_WRITTEN = st.one_of(
    st.integers(0, 9).map(str),
    st.sampled_from(["250", "300", "400", "500", "250 000", "1 000", "4.000", "00", "03"]),
    st.integers(0, 99999).map(str),
)
MESSAGES = st.lists(
    st.one_of(st.sampled_from(WORDS), NUMBERS_WRITTEN), min_size=1, max_size=6
).map(" ".join)

_NUMBER = re.compile(r"(?<![0-9a-z])(\d{1,3}(?:[ .]\d{3})+|\d+)(?![0-9])", re.I)
_DISTANCE = re.compile(r"(?<![0-9a-z])(\d{1,3}(?:[ .]\d{3})+|\d+|un|une|deux|trois) wagons?\b")


def written(text: str) -> set[int]:
    """The numbers a message writes, digits or words, as players write them."""
    numbers = {int(re.sub(r"[ .]", "", m[1])) for m in _NUMBER.finditer(text)}
    return numbers | {v for w, v in NUMBERS.items() if re.search(rf"\b{w}\b", text)}


def as_number(word: str) -> int:
    return NUMBERS.get(word) or int(re.sub(r"[ .]", "", word))


def test_a_distance_too_far_is_refused_not_taken_as_the_only_legal_one() -> None:
    state, _ = moments()[1]  # ana on car 1's roof: one car to the locomotive
    for text in ("vers la locomotive, 4 wagons", "vers la locomotive, 0 wagon", "1 000 wagons"):
        try:
            after = say(state, "ana", text)
        except GMError as refused:
            assert refused.code in ("colt/illegal-choice", "colt/choice-missing"), text
        else:
            raise AssertionError((text, after.current.steps))


def say(state: State, player: str, text: str) -> State:
    for command in notation.parse(state, player, text):
        state = apply(state, command, player)
    return state


@given(moment=st.integers(0, len(moments()) - 1), text=MESSAGES)
def test_r11_every_number_recorded_is_one_the_message_writes(moment: int, text: str) -> None:
    state, player = moments()[moment]
    try:
        commands = notation.parse(state, player, text)
    except GMError:
        return
    named = written(text)
    for command in commands:
        if isinstance(command, Choose):
            for choice in command.alternatives:
                assert choice.distance is None or choice.distance in named, (text, choice)
                assert choice.value is None or choice.value in named, (text, choice)
    distances = {as_number(m[1]) for m in _DISTANCE.finditer(text)}
    try:
        for command in commands:
            state, events = rules.play(state, player, command, None)
    except GMError:
        return
    for event in events:
        if isinstance(event, CardResolved) and distances and "sinon" not in text:
            assert event.outcome.distance in distances, (text, event)
