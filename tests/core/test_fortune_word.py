"""gm.core.fortune_word: the one reading of a message's « graine »."""

from __future__ import annotations

import pytest

from gm.core.fortune_word import check_word, find_word
from gm.errors import InputError


@pytest.mark.parametrize(
    ("text", "found"),
    [
        # a word made of what quotes and sentence ends are made of stays itself
        ("graine : .", (".", "", False)),
        ("graine : '.", ("'.", "", False)),
        ("graine : jazz", ("jazz", "", False)),
        ("Graine = jazz", ("jazz", "", False)),
        ("graine: la vie", ("la vie", "", False)),
        ("ma graine est la vie", ("la vie", "", False)),
        ("bonjour MJ\ngraine : jazz", ("jazz", "bonjour MJ", False)),
        ("Salut MJ ! ma graine: Cadillac59 a+", ("Cadillac59", "Salut MJ ! a+", True)),
        ("tom BANG graine : tequila", ("tequila", "tom BANG", True)),
        ("graine : jazz a+", ("jazz", "", True)),  # the line is no word: its first word
        ("GRAÎNE : « pomme »", ("pomme", "", False)),
        ("gra\u0301ine = pomme", ("pomme", "", False)),  # a decomposed accent
        ("je plante une graine", (None, "je plante une graine", False)),
        ("ma graine, la voici", (None, "ma graine, la voici", False)),
    ],
)
def test_the_forms_of_a_word(text: str, found: tuple[str | None, str, bool]) -> None:
    assert find_word(text) == found


def test_a_word_that_is_no_word_is_refused_by_name() -> None:
    with pytest.raises(InputError, match=r"must be 1 to 40 letters or digits") as err:
        check_word("<b>")
    assert err.value.code == "input/word"
