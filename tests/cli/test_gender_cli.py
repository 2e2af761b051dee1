"""Players' genders from the command line: ``gm new -p Élodie:f``, ``gm set gender``.

The gender is a platform event in the log (``gm.gender-set``), public, folded
before the opening post renders; ``gm set gender`` changes it later, and a
wrong spelling or player is refused with nothing recorded.
"""

from __future__ import annotations

import pytest
import support


@pytest.fixture
def gm(db: str, frozen_clock: object) -> support.Gm:
    return support.Gm(db)


def test_new_records_each_given_gender_after_the_creation(gm: support.Gm) -> None:
    gm("new", "magot", "-t", "Genres", "-p", "Élodie:f,marco:M,lulu,Dr:House", "--seed", "x")
    rows = gm.history()
    assert [r["kind"] for r in rows[:4]] == [
        "gm.campaign-created",
        "gm.fortune-sealed",
        "gm.gender-set",
        "gm.gender-set",
    ]
    assert rows[0]["payload"]["players"] == ["Élodie", "marco", "lulu", "Dr:House"]
    assert [r["payload"] for r in rows[2:4]] == [
        {"player": "Élodie", "gender": "f"},
        {"player": "marco", "gender": "m"},
    ]
    assert all(r["audience"] == "*" for r in rows[2:4])
    gm("verify")


def test_set_gender_changes_it_then_says_when_nothing_changes(gm: support.Gm) -> None:
    gm("new", "magot", "-t", "Genres", "-p", "Élodie,marco,lulu", "--seed", "x")
    result = gm("set", "gender", "elodie", "f")
    assert result.stderr == "[genres] gender of Élodie = f\n"
    result = gm("set", "gender", "Élodie", "féminin")
    assert result.stderr == "[genres] gender of Élodie = f (unchanged)\n"
    result = gm("set", "gender", "Élodie", "n")
    assert result.stderr == "[genres] gender of Élodie = n\n"
    kinds = [r["kind"] for r in gm.history()]
    assert kinds.count("gm.gender-set") == 2


def test_a_wrong_gender_or_player_is_refused_and_nothing_recorded(gm: support.Gm) -> None:
    gm("new", "magot", "-t", "Genres", "-p", "Élodie,marco,lulu", "--seed", "x")
    before = len(gm.history())
    result = gm("set", "gender", "Élodie", "x", code=2)
    assert result.stderr == (
        "Error: unknown gender 'x': use m (masculine), f (feminine) or n (neutral: wording"
        " that needs no agreement) [input/gender]\n"
    )
    result = gm("set", "gender", "Max", "f", code=3)
    assert "no player named 'Max'" in result.stderr
    assert "players: Élodie, marco, lulu" in result.stderr
    result = gm("set", "gender", "Élodie", code=2)
    assert "gm set gender takes a player and a gender: m, f or n" in result.stderr
    result = gm("set", "format", "bbcode", "f", code=2)
    assert "gm set format takes one value" in result.stderr
    assert len(gm.history()) == before


def test_gm_new_help_shows_how_to_give_a_gender(gm: support.Gm) -> None:
    """Issue 28.5: `gm new --help` did not show `name:f`, the only way to give
    a player their gender at the start."""
    shown = " ".join(gm("new", "--help").stdout.split())
    assert "--players fab:m,marco:m,lulu:f,tom,Élodie:f" in shown
    assert "NAME:f or NAME:m is a player's grammatical gender, so that posts agree with them" in shown
    assert "'gm set gender'" in shown
