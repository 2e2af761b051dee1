"""End-to-end Colt Express scenarios: each ``colt-*.toml`` here is played by
``gm play --json``.

Every scenario has a ``colt-*.expected.json`` next to it, worked out by hand
from ``gm/games/colt/rules.md`` (each card's effect is in the file's comments),
not copied from gm's output. Only the keys of the summary contract
(``docs/scenarios.md``, colt) are compared; ``campaign`` depends on the slug
and is left out. Refused entries stop the play with the error naming the
round and the entry.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from support import typeset

from gm.cli import cli

HERE = Path(__file__).parent
SCENARIOS = sorted(HERE.glob("colt-*.toml"))

TOP_KEYS = (
    "game",
    "finished",
    "winners",
    "players",
    "marshal",
    "neutral_bullets",
    "lying",
    "rounds",
)
PLAYER_KEYS = (
    "name", "character", "loot", "purses", "jewels", "strongboxes", "ransom",
    "bullets_received", "barillet", "gunslinger", "score", "car", "level", "rank",
)  # fmt: skip
ROUND_KEYS = (
    "number", "card", "first", "actions", "void", "draws", "face_down", "marshal",
    "positions", "loot", "bullets",
)  # fmt: skip


def _play(db: str, path: Path, *extra: str) -> Result:
    return CliRunner().invoke(cli, ["--db", db, "play", str(path), *extra])


def _contract(summary: dict[str, Any]) -> dict[str, Any]:
    return {
        **{k: summary[k] for k in TOP_KEYS if k not in ("players", "rounds")},
        "players": [{k: p[k] for k in PLAYER_KEYS} for p in summary["players"]],
        "rounds": [{k: r[k] for k in ROUND_KEYS} for r in summary["rounds"]],
    }


def test_there_are_scenarios() -> None:
    assert len(SCENARIOS) >= 3
    for path in SCENARIOS:
        assert path.with_suffix(".expected.json").is_file(), f"{path.name} has no expected file"


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario_summary(path: Path, db: str) -> None:
    result = _play(db, path, "--json")
    assert result.exit_code == 0, f"exit {result.exit_code}\n{result.output}\n{result.exception!r}"
    summary = json.loads(result.stdout)
    expected = json.loads(path.with_suffix(".expected.json").read_text(encoding="utf-8"))
    assert set(expected) == set(TOP_KEYS)
    assert all(set(p) == set(PLAYER_KEYS) for p in expected["players"])
    assert all(set(r) == set(ROUND_KEYS) for r in expected["rounds"])
    got, want = _contract(summary), _contract(expected)
    for key in TOP_KEYS:
        if key in ("players", "rounds"):
            continue
        assert got[key] == want[key], key
    assert got["players"] == want["players"]
    for got_round, want_round in zip(got["rounds"], want["rounds"], strict=True):
        assert got_round == want_round, want_round["number"]
    # the contract's mappings follow the seating order
    for got_round in summary["rounds"]:
        assert list(got_round["positions"]) == [p["name"] for p in summary["players"]]


BASE = Path(__file__).with_name("colt-pont.toml").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ('"bob : vers l\'arrière"', '"bob : vers la locomotive"', "choix manquant|choice missing"),
        ('"cleo Tir : rien"', '"cleo Tir : sur ana"', "does nothing now"),
        ('"ana Braquage : le bijou"', '"ana Braquage : le coffre"', "not a legal choice"),
        (
            '"Belle Tir : sur bob"',
            '"Belle Tir : sur bob, vers l\'arrière"',
            "does not take a direction",
        ),
        ('"Belle Tir : sur bob"', '"bob Tir : sur ana"', "card 5 is ana's"),
        ('"ana : vers la locomotive, 3 wagons"', '"ana : rien"', "can act"),
        ('"cleo : la bourse"', '"cleo Tir : la bourse"', "not the card resolving now"),
        ('"bob : je pioche"', '"cleo : je pioche"', "it is bob's turn"),
        ('"ana : Braquage"', '"ana : Braquage face cachée"', "played face up"),
        ("[rounds.decks]", 'event = { ana = "rien" }\n[rounds.decks]', "for Pickpocket only"),
        ('"bob : je pioche"', '"bob : je pioche face cachée"', "a draw is not played face down"),
        (
            '"ana : vers la locomotive, 3 wagons"',
            '"ana : vers la locomotive, 3 wagons, sur bob"',
            "does not take a target",
        ),
    ],
)
def test_a_refused_entry_stops_the_play_naming_round_and_entry(
    tmp_path: Path, db: str, old: str, new: str, message: str
) -> None:
    assert old in BASE
    path = tmp_path / "refus.toml"
    path.write_text(BASE.replace(old, new, 1), encoding="utf-8")
    result = _play(db, path)
    assert result.exit_code != 0
    assert re.search(r"round 1[,:] ", result.output), result.output
    assert any(m in result.output for m in message.split("|")), result.output


def test_an_unfinished_scenario_lists_only_the_rounds_played(db: str) -> None:
    # colt-pont.toml plays round 1 (Pont) to its event and stops: the game
    # waits for round 2, which is not in `rounds` (one round, not two).
    result = _play(db, HERE / "colt-pont.toml", "--json", "--keep")
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert not summary["finished"] and [r["number"] for r in summary["rounds"]] == [1]
    status = json.loads(CliRunner().invoke(cli, ["--db", db, "status", "--json"]).stdout)
    assert status["phase"] == "round-2/ready" and len(status["rounds"]) == 1


PUNCH = """\
# five bandits: ana (Ghost), cleo (Tuco) and eve (Django) start inside the
# caboose (car 5), bob and dan inside car 4; each holds a 250 $ purse
game = "colt"
title = "Le coup de poing"
players = ["ana", "bob", "cleo", "dan", "eve"]

[setup]
characters = { ana = "Ghost", bob = "Doc", cleo = "Tuco", dan = "Belle", eve = "Django" }
cars = [2, 3, 6, 1, 5]
purses = [[], [350], [250], [250, 300, 400], [300, 450, 500, 400]]

[[rounds]]
card = "Pont"
plan = [
  "ana : Braquage",
  "bob : étage",
  "cleo : Braquage",
  "dan : étage",
  "eve : poing",
  "ana : je pioche", "ana : je pioche",
  "bob : je pioche", "bob : je pioche",
  "cleo : je pioche", "cleo : je pioche",
  "dan : je pioche", "dan : je pioche",
  "eve : je pioche", "eve : je pioche",
]
actions = [
  "ana Braquage : la bourse de 300",
  "bob :",
  "cleo Braquage : le bijou",
  "dan :",
  "eve : la bourse de 300, vers l'avant",
]

[rounds.decks]
ana = ["Braquage", "Tir", "Déplacement", "Changement d'étage", "Coup de poing", "Marshal", "Déplacement", "Changement d'étage", "Tir", "Braquage"]
bob = ["Tir", "étage", "Déplacement", "Braquage", "Marshal", "poing", "Tir", "Déplacement", "étage", "Braquage"]
cleo = ["Braquage", "Changement d'étage", "Tir", "Déplacement", "Coup de poing", "Marshal", "Déplacement", "Changement d'étage", "Tir", "Braquage"]
dan = ["Tir", "étage", "Déplacement", "Braquage", "Marshal", "poing", "Tir", "Déplacement", "étage", "Braquage"]
eve = ["Braquage", "Changement d'étage", "Tir", "Déplacement", "Coup de poing", "Marshal", "Déplacement", "Changement d'étage", "Tir", "Braquage"]
"""


def test_r11_a_punch_named_by_its_purse_value_in_a_scenario_file(tmp_path: Path, db: str) -> None:
    # ana robs the 300 purse (she holds 250, 300), bob and dan climb to car 4's
    # roof, cleo robs the jewel (250 and the jewel), then eve punches inside the
    # caboose, where ana and cleo stand: « la bourse de 300 » can only be ana's,
    # who drops it and goes forward to car 4 inside; cleo keeps hers.
    path = tmp_path / "poing.toml"
    path.write_text(PUNCH, encoding="utf-8")
    result = _play(db, path, "--json")
    assert result.exit_code == 0, result.output
    players = {p["name"]: p for p in json.loads(result.stdout)["players"]}
    assert (players["ana"]["purses"], players["ana"]["car"], players["ana"]["level"]) == (
        [250], 4, "inside",
    )  # fmt: skip
    assert (players["cleo"]["purses"], players["cleo"]["jewels"]) == ([250], 1)
    assert players["cleo"]["car"] == 5 and players["eve"]["car"] == 5
    # both hold a 250: refused as ambiguous, the reply naming them; a 500: no such purse
    for value, lines in (
        (
            250,
            [
                "Ambigu : ana et cleo ont chacun une bourse de 250 $ : nomme ta victime"
                " (« sur ana, … »). Choix possibles : « sur ana, la bourse de 250, vers la"
                " locomotive » · « sur cleo, la bourse de 250, vers la locomotive ».",
                "Error: round 1, action 5 (eve), eve: « la bourse de 250, vers la locomotive »"
                " is ambiguous: ana and cleo each hold a purse of 250 $ (R-11: name the"
                " victim, « sur ana, la bourse de 250, vers la locomotive »)"
                " [colt/ambiguous-victim]",
            ],
        ),
        (
            500,
            [
                "Refusé : pas de bourse de 500 $ à prendre ici.",
                "Error: round 1, action 5 (eve), eve: no purse of 500 $ on offer"
                " (purses: 250, 300) [colt/no-such-purse]",
            ],
        ),
    ):
        path.write_text(PUNCH.replace("la bourse de 300, vers", f"la bourse de {value}, vers"))
        refused = _play(db, path)
        assert refused.exit_code == 1
        assert [line for line in refused.output.splitlines() if line] == [
            typeset(lines[0]),
            lines[1],
        ]
    # the choice the reply lists is read: cleo drops her 250 and goes forward
    path.write_text(PUNCH.replace("la bourse de 300, vers", "sur cleo, la bourse de 250, vers"))
    result = _play(db, path, "--json")
    assert result.exit_code == 0, result.output
    players = {p["name"]: p for p in json.loads(result.stdout)["players"]}
    assert (players["cleo"]["purses"], players["cleo"]["car"]) == ([], 4)
    assert (players["ana"]["purses"], players["ana"]["car"]) == ([250, 300], 5)


def _spelled(value: Any, names: dict[str, str]) -> Any:
    """``value`` (an expected summary) with the players called ``names``."""
    if isinstance(value, str):
        return names.get(value, value)
    if isinstance(value, list):
        return [_spelled(v, names) for v in value]
    if isinstance(value, dict):
        return {_spelled(k, names): _spelled(v, names) for k, v in value.items()}
    return value


def test_names_are_read_in_a_file_as_in_a_message_punctuation_ignored(
    tmp_path: Path, db: str
) -> None:
    # « Names … are matched ignoring case, accents and punctuation »: the file
    # writes Jean-Paul « Jean Paul » (never « Jean » with « Paul » as a card)
    # and d'Artagnan « d Artagnan », as keys, as NOM and as a target.
    seated = {"ana": "d'Artagnan", "bob": "Jean-Paul", "cleo": "Jean"}
    written = {"ana": "d Artagnan", "bob": "JEAN PAUL", "cleo": "jean"}
    source = (HERE / "colt-pont.toml").read_text(encoding="utf-8")
    head, players, body = source.partition('players = ["ana", "bob", "cleo"]')
    assert players
    for old, new in written.items():
        body = re.sub(rf"\b{old}(?= =)", f'"{new}"', body)
        body = re.sub(rf"\b{old}\b", new, body)
    assert '"JEAN PAUL : je joue Changement d\'étage"' in body and "sur JEAN PAUL" in body
    path = tmp_path / "ponctuation.toml"
    path.write_text(head + 'players = ["d\'Artagnan", "Jean-Paul", "Jean"]' + body, "utf-8")
    result = _play(db, path, "--json")
    assert result.exit_code == 0, result.output
    expected = json.loads((HERE / "colt-pont.expected.json").read_text(encoding="utf-8"))
    assert _contract(json.loads(result.stdout)) == _spelled(_contract(expected), seated)
