"""End-to-end Rattlesnake City scenarios: each ``rattlesnake-*.toml`` here is
played by ``gm play --json``.

Every scenario has a ``rattlesnake-*.expected.json`` next to it, worked out
by hand from ``gm/games/rattlesnake/rules.md`` (the R-2 distances and each
turn's income are in the file's comments), not copied from gm's output; a
board file of its own (``*.board.toml``) is loaded with ``[options] board``.
The whole summary of the contract (``docs/scenarios.md``, rattlesnake) is
compared but ``campaign``, which depends on the slug. Besides, for the
long games, invariants over every turn: each player's cash is 10 000 $ plus
the income of their turns (nothing else moves money in these games), and
each turn's player follows the play order.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from gm.cli import cli

HERE = Path(__file__).parent
SCENARIOS = sorted(p for p in HERE.glob("rattlesnake-*.toml") if not p.name.endswith(".board.toml"))
TOP_KEYS = ("game", "finished", "winners", "players", "board", "turns")
PLAYER_KEYS = ("name", "town", "cash", "income", "permanents", "hand", "shots")
TURN_KEYS = ("number", "player", "tile", "cell", "income")


def _play(db: str, path: Path, *extra: str) -> Result:
    return CliRunner().invoke(cli, ["--db", db, "play", str(path), *extra])


def test_there_are_scenarios() -> None:
    names = {p.name for p in SCENARIOS}
    assert {"rattlesnake-last-tile.toml", "rattlesnake-threshold.toml"} <= names
    for path in SCENARIOS:
        assert path.with_suffix(".expected.json").is_file(), f"{path.name} has no expected file"


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario_summary(path: Path, db: str) -> None:
    result = _play(db, path, "--json")
    assert result.exit_code == 0, f"exit {result.exit_code}\n{result.output}\n{result.exception!r}"
    summary: dict[str, Any] = json.loads(result.stdout)
    expected = json.loads(path.with_suffix(".expected.json").read_text(encoding="utf-8"))
    assert set(expected) == set(TOP_KEYS)
    assert all(set(p) == set(PLAYER_KEYS) for p in expected["players"])
    assert all(set(t) == set(TURN_KEYS) for t in expected["turns"])
    for key in ("game", "finished", "winners", "board"):
        assert summary[key] == expected[key], key
    assert summary["players"] == expected["players"]
    assert len(summary["turns"]) == len(expected["turns"])
    for got, want in zip(summary["turns"], expected["turns"], strict=True):
        assert got == want, want["number"]


INCOME_ONLY = [p for p in SCENARIOS if p.stem in ("rattlesnake-last-tile", "rattlesnake-threshold")]
"""The scenarios whose money comes from the income alone (no trade, attack or poker)."""


@pytest.mark.parametrize("path", INCOME_ONLY, ids=[p.stem for p in INCOME_ONLY])
def test_every_turn_keeps_the_money_invariant(path: Path, db: str) -> None:
    result = _play(db, path, "--json")
    summary = json.loads(result.stdout)
    players = [p["name"] for p in summary["players"]]
    collected = dict.fromkeys(players, 0)
    order: list[str] = []
    for turn in summary["turns"]:
        collected[turn["player"]] += turn["income"]
        assert turn["income"] >= 0
        if turn["player"] not in order:
            order.append(turn["player"])
    for turn in summary["turns"]:  # clockwise, from the player who placed the last saloon
        assert turn["player"] == order[(turn["number"] - 1) % len(order)]
    for p in summary["players"]:
        assert p["cash"] == 10000 + collected[p["name"]], p["name"]
    assert summary["finished"]


def test_the_last_tile_game_ends_on_its_51st_turn(db: str) -> None:
    # 50 buildings and one rail tile: the turn that draws the 51st ends the game
    summary = json.loads(_play(db, HERE / "rattlesnake-last-tile.toml", "--json").stdout)
    assert len(summary["turns"]) == 51
    removed = [t for t in summary["turns"] if t["cell"] is None]
    assert len(removed) == 51 - 15  # 14 buildings stand, and the rail tile on R1
    assert summary["board"]["rails"] == ["R1"]


def test_a_turn_after_the_end_is_refused(tmp_path: Path, db: str) -> None:
    source = HERE / "rattlesnake-threshold.toml"
    text = source.read_text(encoding="utf-8") + '\n[[turns]]\nplayer = "cyd"\ndraw = "action"\n'
    path = tmp_path / "apres.toml"
    path.write_text(text, encoding="utf-8")
    (tmp_path / "rattlesnake-threshold.board.toml").write_text(
        (HERE / "rattlesnake-threshold.board.toml").read_text(encoding="utf-8"), encoding="utf-8"
    )
    result = _play(db, path)
    assert result.exit_code != 0
    assert "turn 28" in result.output and "the game is over (R-18)" in result.output


def test_an_unfinished_scenario_lists_only_the_turns_played(db: str) -> None:
    # rattlesnake-poker.toml plays four turns; the fourth one's « fin » draws
    # turn 5's tile (the general store), which nobody has placed when the file
    # stops: `turns` holds the four turns played, and the status says the
    # game waits for turn 5's tile.
    path = HERE / "rattlesnake-poker.toml"
    result = _play(db, path, "--json", "--keep")
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert not summary["finished"]
    assert [t["number"] for t in summary["turns"]] == [1, 2, 3, 4]
    status = CliRunner().invoke(cli, ["--db", db, "status", "--json"])
    assert json.loads(status.stdout)["phase"] == "turn-5/tile"
