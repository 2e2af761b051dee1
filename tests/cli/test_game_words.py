"""Game words come from the games (issue 22): the chronicle names each post
and its coordinates with the words its game declares, and ``gm history``
filters by any number the game counts in (WHERE, ``--at NAME=N``), in
every game — where it knew Le Magot's round and Fistful's manche and duel
only (« mise · tour 1 » for a Colt round, 0 of 123 events for
``gm history -r 2`` on a Rattlesnake campaign)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import support

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def colt(db: str) -> support.Gm:
    gm = support.Gm(db)
    gm("play", str(ROOT / "campaigns" / "exemple-colt.toml"), "--keep")
    return gm


@pytest.fixture
def rattlesnake(db: str) -> support.Gm:
    gm = support.Gm(db)
    gm("play", str(ROOT / "campaigns" / "exemple-rattlesnake.toml"), "--keep")
    return gm


def headers(chronicle: str) -> list[str]:
    """The label of every post header of a chronicle (« Message 5 — … »)."""
    return re.findall(r"Message \d+ — ([^_\n]*?)_?\s*$", chronicle, re.MULTILINE)


def test_the_chronicle_names_colt_posts_in_colt_words(colt: support.Gm) -> None:
    labels = headers(colt("chronicle").stdout)
    assert "début de manche · manche 1" in labels
    assert "fin de manche · manche 1" in labels
    assert any(re.fullmatch(r"plan · manche 1, tour \d+", label) for label in labels)
    assert any(re.fullmatch(r"action · manche 1, action \d+", label) for label in labels)
    assert not [label for label in labels if "mise" in label or "round" in label]


def test_the_chronicle_names_rattlesnake_posts_in_its_words(rattlesnake: support.Gm) -> None:
    labels = headers(rattlesnake("chronicle").stdout)
    assert "la donne" in labels
    assert "saloon · n° 1" in labels
    assert "tuile tirée · tour 1" in labels
    assert any(re.fullmatch(r"coup · tour \d+, coup \d+", label) for label in labels)
    assert not [label for label in labels if re.search(r"\b(turn|seat|move|setup)\b", label)]


def test_a_roster_notice_is_named_in_french(db: str) -> None:
    gm = support.Gm(db)
    gm("new", "magot", "-t", "T", "-p", "fab,marco,lulu", "--seed", "s")
    gm("rename", "lulu", "Lucie")
    assert "changement à la table" in headers(gm("chronicle").stdout)


def test_rattlesnake_history_filters_by_turn(rattlesnake: support.Gm) -> None:
    everything = rattlesnake.history()
    turn_two = rattlesnake.history("2")
    assert turn_two == rattlesnake.history("-r", "2") == rattlesnake.history("--at", "turn=2")
    assert 0 < len(turn_two) < len(everything)
    assert all(r["turn"] == 2 for r in turn_two)
    # the tile drawn and placed in turn 2 is among them
    assert any(r["kind"].startswith("rattlesnake.") and r["payload"].get("turn") == 2 for r in turn_two)
    # its events do not count moves (only its posts do): a move is nowhere
    assert rattlesnake.history("2.1") == []


def test_colt_history_filters_by_round(colt: support.Gm) -> None:
    rows = colt.history("2")
    assert rows and all(r["round"] == 2 for r in rows)
    assert {r["payload"]["round"] for r in rows if "round" in r["payload"]} == {2}


def test_history_names_the_counts_of_the_game_when_a_place_is_wrong(
    rattlesnake: support.Gm,
) -> None:
    unknown = rattlesnake("history", "--at", "manche=2", code=2)
    assert "--at takes NAME=N, not 'manche=2'" in unknown.output
    assert "Rattlesnake City counts in: turn, move, seat" in unknown.output
    too_deep = rattlesnake("history", "1.2.3.4", code=2)
    assert "WHERE '1.2.3.4' is not numbers joined by dots" in too_deep.output
    both = rattlesnake("history", "2", "-r", "2", code=2)
    assert "WHERE or --round, not both" in both.output


@pytest.mark.parametrize(
    ("game", "players"),
    [
        ("magot", "fab:m,marco,lulu:f"),
        ("fistful", "ana:f,bob:m"),
        ("colt", "ana:f,bob:m,cyd"),
        ("rattlesnake", "ana:f,bob:m"),
    ],
)
def test_a_replacement_notice_names_nothing_the_game_has_not(
    db: str, game: str, players: str
) -> None:
    """Issue 28.6: the notice said « mêmes blessures » in games without
    wounds, and « tout ce qu'il avait » of a player who may be a woman: it
    says what every game's seat keeps, with no game's word and no gender."""
    gm = support.Gm(db)
    gm("new", game, "-t", "La relève", "-p", players, "--seed", "s")
    old = players.split(":")[0]
    notice = gm("replace", old, "Zoé", "--gender", "f").stdout
    of = "d'ana" if old == "ana" else f"de {old}"
    assert support.typeset(
        f"**Zoé** prend la place {of} : son siège, son jeu et ses secrets. Bienvenue, Zoé !\n"
    ) in notice
    assert not re.search(r"blessure|butin|\bil\b|\belle\b", notice)
