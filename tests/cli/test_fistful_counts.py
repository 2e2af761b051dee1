"""Fistful of Gold counts in manches and duels, everywhere the MJ and players look.

Posts, footers, ``gm post`` (``duel 2.3``, ``manche --manche 2``), ``gm
history --manche/--duel`` and the errors of a scenario file: never an
internal turn number (« tour 7 »).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import support

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def gm(db: str, frozen_clock: object) -> support.Gm:
    gm = support.Gm(db)
    gm("play", str(ROOT / "campaigns" / "exemple-fistful.toml"), "--keep")
    return gm


def test_no_public_post_counts_in_tours(gm: support.Gm) -> None:
    text = gm("chronicle").stdout
    assert not re.search(r"\btours?\b", text, re.IGNORECASE)
    assert "· manche 2, duel 3_" in text
    # each manche ends with its gold duel by duel, the game with the stars
    assert "\n    Or de la manche 2, et duel par duel\n    Django " in text
    assert "\n    Étoiles de shérif, et l'or de chaque manche\n    Django " in text
    assert "3 étoiles" in text


def test_post_finds_a_manche_by_its_number(gm: support.Gm) -> None:
    by_option = gm("post", "manche", "--manche", "2")
    assert by_option.stdout.startswith("## Manche 2 — le compte\n")
    assert by_option.stdout == gm("post", "manche", "2").stdout
    assert gm("post", "duel", "2.3").stdout.startswith("## Manche 2 — duel 3 sur ")
    missing = gm("post", "manche", "9", code=3)
    assert "no manche for manche 9" in missing.stderr
    listed = re.search(r"stored: (.*)\)", missing.stderr)
    assert listed is not None
    manches = [m for m in listed[1].split(", ") if m.startswith("manche ")]
    assert manches == ["manche 1", "manche 2", "manche 3", "manche 4"]


def test_history_filters_by_manche_and_duel(gm: support.Gm) -> None:
    assert gm.history("2.1") == gm.history("--at", "manche=2", "--at", "duel=1")
    rows = gm.history("2.1")
    played = [r for r in rows if r["kind"] == "fistful.card-played"]
    assert {(r["payload"]["manche"], r["payload"]["duel"]) for r in played} == {(2, 1)}
    assert sorted(r["payload"]["player"] for r in played) == ["Django", "Sartana"]
    assert all(r["manche"] == 2 and r["duel"] == 1 for r in rows)
