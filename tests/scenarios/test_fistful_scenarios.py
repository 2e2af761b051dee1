"""End-to-end Fistful of Gold scenarios: each ``fistful-*.toml`` here is played by
``gm play --json``.

Every scenario has a ``fistful-*.expected.json`` next to it, worked out by hand
from ``gm/games/fistful/rules.md`` (each duel's arithmetic is in the file's
comments), not copied from gm's output. Only the keys of the summary contract
(``docs/scenarios.md``, fistful) are compared, plus ``final_duel`` (where
this game puts a manche's final duel, so that ``duels`` keeps one entry per
``[[duels]]`` of the file); ``campaign`` depends on the slug and is left out.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from gm.cli import cli

HERE = Path(__file__).parent
SCENARIOS = sorted(HERE.glob("fistful-*.toml"))

TOP_KEYS = ("game", "finished", "winners", "stars", "manches")
MANCHE_KEYS = ("number", "gold", "tie_pot", "winner", "duels", "final_duel")
DUEL_KEYS = ("cards", "winner", "gold")


def _play(db: str, path: Path, *extra: str) -> Result:
    return CliRunner().invoke(cli, ["--db", db, "play", str(path), "--keep", *extra])


def _duel(duel: dict[str, Any] | None) -> dict[str, Any] | None:
    return None if duel is None else {k: duel[k] for k in DUEL_KEYS}


def _contract(summary: dict[str, Any]) -> dict[str, Any]:
    """The part of a summary the contract fixes."""
    return {
        **{key: summary[key] for key in TOP_KEYS if key != "manches"},
        "manches": [
            {
                **{k: m[k] for k in MANCHE_KEYS if k not in ("duels", "final_duel")},
                "duels": [_duel(d) for d in m["duels"]],
                "final_duel": _duel(m["final_duel"]),
            }
            for m in summary["manches"]
        ],
    }


def test_there_are_scenarios() -> None:
    assert len(SCENARIOS) >= 4
    for path in SCENARIOS:
        assert path.with_suffix(".expected.json").is_file(), f"{path.name} has no expected file"


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario_summary(path: Path, db: str) -> None:
    result = _play(db, path, "--json")
    assert result.exit_code == 0, f"exit {result.exit_code}\n{result.output}\n{result.exception!r}"
    summary = json.loads(result.stdout)
    expected = json.loads(path.with_suffix(".expected.json").read_text(encoding="utf-8"))

    # the expected files hold exactly the contract's keys, nothing else
    assert set(expected) == set(TOP_KEYS)
    for manche in expected["manches"]:
        assert set(manche) == set(MANCHE_KEYS)
        assert all(set(d) == set(DUEL_KEYS) for d in manche["duels"])

    got = _contract(summary)
    want = _contract(expected)
    for key in ("game", "finished", "winners", "stars"):
        assert got[key] == want[key], key
    # the contract's mappings follow the seating order
    assert list(summary["stars"]) == list(expected["stars"])
    for got_manche, want_manche in zip(got["manches"], want["manches"], strict=False):
        number = want_manche["number"]
        for i, (g, w) in enumerate(zip(got_manche["duels"], want_manche["duels"], strict=False)):
            assert g == w, f"manche {number}, duel {i + 1}"
        assert got_manche == want_manche, f"manche {number}"
    assert len(got["manches"]) == len(want["manches"])
    assert got == want
    # one summary entry per [[duels]] entry of the file
    document = path.read_text(encoding="utf-8")
    assert sum(len(m["duels"]) for m in summary["manches"]) == document.count("[[duels]]")


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_the_summary_is_what_gm_status_prints(path: Path, db: str) -> None:
    played = _play(db, path, "--json")
    status = CliRunner().invoke(cli, ["--db", db, "status", "--json"])
    assert status.exit_code == 0
    assert json.loads(status.stdout) == json.loads(played.stdout)
    assert json.loads(status.stdout)["campaign"]


def test_the_posts_of_a_scenario_are_printed_in_order(db: str) -> None:
    result = _play(db, HERE / "fistful-short-table.toml")
    assert result.exit_code == 0, result.output
    headings = [line for line in result.stdout.splitlines() if line.startswith("#")]
    assert headings[:4] == [
        "# Fistful of Gold — «\u202fTable de résolution\u202f»",  # French spacing
        "## Mise en place — les cartes sont défaussées",
        "## Manche 1 — duel 1 sur 6",
        "## Manche 1 — duel 2 sur 6",
    ]
    assert headings[-3:] == [
        "## Manche 2 — duel 5 sur 5",
        "## Manche 2 — le compte",
        "# Fistful of Gold — fin du duel «\u202fTable de résolution\u202f»",
    ]
    assert "Campaign 'table-de-resolution' played and selected" in result.stderr


def _write(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "s.toml"
    path.write_text('game = "fistful"\nplayers = ["ana", "bob"]\n' + body, encoding="utf-8")
    return path


def test_a_refused_card_stops_the_play_naming_the_duel_and_the_player(
    db: str, tmp_path: Path
) -> None:
    path = _write(
        tmp_path,
        '[setup]\ndiscards = { ana = "1 2", bob = "1 2" }\n'
        '[[duels]]\ncards = { ana = "3", bob = "5" }\n'
        '[[duels]]\ncards = { ana = "4", bob = "3" }\n',
    )
    result = _play(db, path, "--json")
    assert result.exit_code == 1, result.output
    assert result.stderr.splitlines()[-1] == (
        "Error: [[duels]] entry 2, ana: the 4 is forbidden for ana this duel: ana played the 3 in the"
        " previous duel (playable: 5, 6, 7, 8, Dynamite) [fistful/forbidden]"
    )


def test_a_missing_discard_stops_the_play_saying_what_is_awaited(db: str, tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        '[setup]\ndiscards = { ana = "1 2", bob = "1 2" }\n'
        '[[duels]]\ncards = { ana = "3", bob = "5" }\n'
        '[[duels]]\ncards = { ana = "5", bob = "4" }\n'
        '[[duels]]\ncards = { ana = "7", bob = "3" }\n'
        '[[duels]]\ncards = { ana = "4", bob = "6" }\n',
    )
    result = _play(db, path)
    assert result.exit_code == 1, result.output
    assert result.stderr.splitlines()[-1] == (
        "Error: [[duels]] entry 3, gm resolve: manche 1 cannot end yet: waiting for ana's discard,"
        " bob's discard [fistful/waiting]"
    )


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (
            '[setup]\ndiscards = { ana = "1 2", bob = "1 2" }\n[[duels]]\ncard = { ana = "3" }\n',
            "Error: [[duels]] entry 1: unknown key 'card' (valid: cards, pick, discard, final)"
            " [scenario/unknown-key]",
        ),
        (
            '[setup]\ndiscard = { ana = "1 2" }\n',
            "Error: setup: unknown key 'discard' (valid: discards) [scenario/unknown-key]",
        ),
        (
            '[[duels]]\ncards = { ana = "3", bob = "5" }\n',
            "Error: a fistful scenario needs a [setup] table with each player's two discards,"
            ' e.g. discards = { ana = "1 2", bob = "dynamite 8" } [scenario/bad-value]',
        ),
        (
            '[setup]\ndiscards = { ana = "1 2", bob = "1 2" }\n[[rounds]]\nbills = [5000]\n',
            "Error: unknown key 'rounds' in a fistful scenario (valid: duels, game, options,"
            " players, seed, settings, setup, title, words) [scenario/unknown-key]",
        ),
        (
            '[setup]\ndiscards = { ana = "1 2", bob = "1 2" }\n[[duels]]\ncards = { ana = 3 }\n',
            "Error: [[duels]] entry 1: 'cards' must be a table of player = \"message\", got {'ana': 3}"
            " [scenario/bad-value]",
        ),
    ],
)
def test_a_malformed_scenario_is_a_usage_error(
    db: str, tmp_path: Path, body: str, message: str
) -> None:
    result = _play(db, _write(tmp_path, body))
    assert result.exit_code == 2, result.output
    assert result.stderr.splitlines()[-1] == message


def test_the_example_campaign_is_the_long_duel_with_other_names(db: str) -> None:
    example = Path(__file__).parents[2] / "campaigns" / "exemple-fistful.toml"
    result = _play(db, example, "--json")
    assert result.exit_code == 0, result.output
    renamed = (
        (HERE / "fistful-long-duel.expected.json")
        .read_text(encoding="utf-8")
        .replace('"ana"', '"Django"')
        .replace('"bob"', '"Sartana"')
    )
    assert _contract(json.loads(result.stdout)) == _contract(json.loads(renamed))
