"""``gm undo``: an event voids the last command; nothing is deleted, ``gm verify`` holds."""

from __future__ import annotations

from typing import Any

import pytest
from support import Gm

PLAYERS = "fab,marco,lulu,tom"
BILLS = "20000,10000,5000,5000,5000"
AIM = "Je braque mon flingue sur marco (BANG BANG BANG)"


def state(gm: Gm) -> dict[str, Any]:
    """``gm status --json`` without what counts events."""
    return {k: v for k, v in gm.json("status").items() if "event" not in k and k != "seq"}


@pytest.fixture
def gm(db: str) -> Gm:
    g = Gm(db)
    g("new", "magot", "--title", "Le casse", "--players", PLAYERS, "--seed", "graine")
    g("draw", "--bills", BILLS)
    return g


def test_undo_after_an_order_restores_the_state_and_keeps_the_events(gm: Gm) -> None:
    before = state(gm)
    gm("order", "fab", AIM)
    assert state(gm) != before
    out = gm("undo").stdout
    assert "gm.submission-received" in out and "magot.order-set" in out
    assert state(gm) == before
    rows = gm.json("history")
    voided = [r for r in rows if r["voided"]]
    assert {r["kind"] for r in voided} >= {"gm.submission-received", "magot.order-set"}
    assert rows[-1]["kind"] == "gm.events-voided" and not rows[-1]["voided"]
    assert "[voided]" in gm("history").stdout
    assert "verify" in gm("verify").stdout


def test_undo_twice_walks_back_two_commands(gm: Gm) -> None:
    opened = state(gm)
    gm("order", "fab", AIM)
    gm("order", "marco", "Je braque lulu, clic clic clic")
    gm("undo")
    gm("undo")
    assert state(gm) == opened
    gm("undo")  # the draw
    assert state(gm)["round"] == 0
    gm("verify")


def test_undo_after_resolve_restores_the_standoff_and_names_the_obsolete_post(gm: Gm) -> None:
    for player, target in (("fab", "marco"), ("marco", "lulu"), ("lulu", "tom"), ("tom", "fab")):
        gm("order", player, f"sur {target}, clic clic clic")
    gm("reveal", "--force")
    standoff = state(gm)
    posts_before = len(gm.json("history"))
    gm("resolve")
    result = gm("undo")
    assert "Posts now obsolete:" in result.stdout and "results" in result.stdout
    assert state(gm) == standoff
    assert len(gm.json("history")) > posts_before
    again = gm("resolve")  # a new command after undo works and posts
    assert again.stdout.strip()
    gm("verify")


def test_preview_records_nothing(gm: Gm) -> None:
    gm("order", "fab", AIM)
    before = gm.json("history")
    out = gm("undo", "--preview").stdout
    assert "Would void" in out and "nothing was recorded" in out
    assert gm.json("history") == before


def test_nothing_to_undo_is_a_clear_error(db: str) -> None:
    gm = Gm(db)
    gm("new", "magot", "--title", "T", "--players", PLAYERS, "--seed", "s")
    gm("order", "fab", "n'importe quoi", code=1)  # a refusal is never undone
    result = gm("undo", code=1)
    assert "nothing to undo" in result.stderr and "[undo/nothing]" in result.stderr


def test_history_player_filters(gm: Gm) -> None:
    gm("order", "fab", AIM)
    gm("order", "marco", "Je braque lulu, clic clic clic")
    rows = gm.json("history", "--player", "FAB")
    assert rows and all(r["actor"] == "fab" or r["payload"].get("player") == "fab" for r in rows)
    assert not any(r["actor"] == "marco" for r in rows)
    assert gm.json("history", "--player", "fab", "--as", "marco") == []
    assert gm.json("history", "--player", "fab", "--round", "1")
