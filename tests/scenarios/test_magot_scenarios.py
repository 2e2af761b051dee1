"""End-to-end Le Magot scenarios: each ``*.toml`` here is played by ``gm play --json``.

Every scenario has a ``*.expected.json`` next to it, worked out by hand from
``gm/games/magot/rules.md`` (the rulings R-n cited in each file's comments), not
copied from gm's output. Only the keys of the summary contract
(``docs/scenarios.md``) are compared; ``campaign`` depends on the slug and
is left out, as is anything else gm adds.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from gm.cli import cli
from gm.core.fortune import Fortune

HERE = Path(__file__).parent
SCENARIOS = sorted(
    p for p in HERE.glob("*.toml") if not p.name.startswith(("fistful-", "colt-", "rattlesnake-"))
)

TOP_KEYS = ("game", "finished", "winners")
PLAYER_KEYS = ("name", "alive", "wounds", "shame", "loot", "score", "rank")
ROUND_KEYS = ("number", "drawn", "pot", "folded", "wounded", "killed", "sharers", "share", "carry")


def _play(db: str, path: Path) -> Result:
    return CliRunner().invoke(cli, ["--db", db, "play", str(path), "--keep", "--json"])


def _contract(summary: dict[str, Any]) -> dict[str, Any]:
    """The part of a summary the contract fixes: players keyed by name."""
    return {
        **{key: summary[key] for key in TOP_KEYS},
        "players": {p["name"]: {k: p[k] for k in PLAYER_KEYS} for p in summary["players"]},
        "rounds": [{k: r[k] for k in ROUND_KEYS} for r in summary["rounds"]],
    }


def test_there_are_scenarios() -> None:
    assert len(SCENARIOS) >= 8
    for path in SCENARIOS:
        assert path.with_suffix(".expected.json").is_file(), f"{path.name} has no expected file"


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario_summary(path: Path, db: str) -> None:
    result = _play(db, path)
    assert result.exit_code == 0, f"exit {result.exit_code}\n{result.output}\n{result.exception!r}"
    summary = json.loads(result.stdout)
    expected = json.loads(path.with_suffix(".expected.json").read_text(encoding="utf-8"))

    # the expected files hold exactly the contract's keys, nothing else
    assert set(expected) == {*TOP_KEYS, "players", "rounds"}
    assert all(set(p) == set(PLAYER_KEYS) for p in expected["players"])
    assert all(set(r) == set(ROUND_KEYS) for r in expected["rounds"])

    got = _contract(summary)
    want = _contract(expected)
    # players in seating order, as the contract's lists of names are
    assert [p["name"] for p in summary["players"]] == [p["name"] for p in expected["players"]]
    assert got["players"] == want["players"]
    for got_round, want_round in zip(got["rounds"], want["rounds"], strict=False):
        assert got_round == want_round, f"round {want_round['number']}"
    assert len(got["rounds"]) == len(want["rounds"])
    assert got == want


REFUSED = """\
game = "magot"
title = "Refus"
players = ["fab", "marco", "lulu"]

[options]
loot = { "5000" = 10, "10000" = 10, "20000" = 10 }

[[rounds]]
bills = [5000, 5000, 5000, 5000, 5000]
orders = { fab = "marco BBB", marco = "lulu clic", lulu = "fab clic" }

[[rounds]]
bills = [10000, 10000, 10000, 10000, 10000]
orders = { fab = "lulu BANG BANG BANG", marco = "lulu clic", lulu = "fab clic" }
"""


def _refused(tmp_path: Path, db: str) -> str:
    """Play REFUSED, check it stops as ``gm order`` would, return the error line."""
    path = tmp_path / "refus.toml"
    path.write_text(REFUSED, encoding="utf-8")
    result = _play(db, path)
    assert result.exit_code == 1, result.output
    lines = [line for line in result.stderr.splitlines() if line.startswith("Error: ")]
    assert len(lines) == 1, result.stderr
    return lines[0]


def test_refused_order_stops_the_play(tmp_path: Path, db: str) -> None:
    """fab spent his only BANG BANG BANG in round 1: round 2's order is refused."""
    line = _refused(tmp_path, db)
    assert line.startswith("Error: round 2, "), line
    assert "fab" in line, line
    assert "'triple' already spent" in line, line


def test_refused_order_names_round_and_player_once(tmp_path: Path, db: str) -> None:
    """The contract's form: ``Error: round 2, fab: <the problem>``."""
    line = _refused(tmp_path, db)
    assert line.startswith("Error: round 2, fab: option 'triple' already spent"), line


UNKNOWN_KEY = """\
game = "magot"
players = ["fab", "marco", "lulu"]

[[rounds]]
bills = [5000, 5000, 5000, 5000, 5000]
orders = { fab = "marco clic", marco = "lulu clic", lulu = "fab clic" }
fold = ["fab"]
"""


def test_unknown_round_key_is_a_usage_error(tmp_path: Path, db: str) -> None:
    path = tmp_path / "typo.toml"
    path.write_text(UNKNOWN_KEY, encoding="utf-8")
    result = _play(db, path)
    assert result.exit_code == 2, result.output
    assert "Error: " in result.stderr
    assert "round 1" in result.stderr
    assert "'fold'" in result.stderr
    assert "folds" in result.stderr  # the valid keys are listed


WORDS = """\
game = "magot"
title = "Graines"
players = ["fab", "marco", "lulu"]
seed = "graines-du-scenario"
words = { lulu = "jazz", fab = "tequila" }

[options]
rounds = 1
loot = { "5000" = 10, "10000" = 10, "20000" = 10 }

[[rounds]]
orders = { fab = "marco clic", marco = "lulu clic", lulu = "fab clic" }
"""


def test_words_are_sent_first_and_mixed_into_the_fortune_draw(tmp_path: Path, db: str) -> None:
    """``words`` (a common key): each player's word, sent before the first
    round; the round's bills, drawn by the fortune, read the stream
    ``round-1/bills`` with the words mixed in, in seating order (fab before
    lulu, whatever the file's order)."""
    path = tmp_path / "graines.toml"
    path.write_text(WORDS, encoding="utf-8")
    result = _play(db, path)
    assert result.exit_code == 0, result.output
    pairs = json.dumps([["fab", "tequila"], ["lulu", "jazz"]], separators=(",", ":"))
    label = "round-1/bills+" + hashlib.sha256(pairs.encode()).hexdigest()[:32]
    stream = Fortune("graines-du-scenario", label)
    deck = [20000] * 10 + [10000] * 10 + [5000] * 10  # sorted from the largest bill down
    bills = [deck.pop(stream.below(len(deck))) for _ in range(5)]
    (round_one,) = json.loads(result.stdout)["rounds"]
    assert round_one["drawn"] == sorted(bills, reverse=True)
    assert round_one["pot"] == sum(bills)
