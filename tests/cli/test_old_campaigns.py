"""A campaign written by gm 0.1 (protocol 1: 8-digit seals, draws numbered
``draw/<n>``, no recorded commands, posts not committed into the log) still
imports, opens, plays on and verifies with today's gm: what its log lacks is
reported as a note, never taken for tampering, and nothing recorded is lost.

``tests/fixtures/gm-0.1-magot.json`` was made by gm 0.1.0 (commit 1d425f6):
a word for the fortune, a drawn round, orders, a fold, a resolved round, a
dice roll, round 2 drawn and one order sent.
"""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner, Result

from gm.cli import cli

OLD = Path(__file__).resolve().parents[1] / "fixtures" / "gm-0.1-magot.json"


def gm(db: str, *args: str, code: int = 0) -> Result:
    result = CliRunner().invoke(cli, ["--db", db, *args])
    assert result.exit_code == code, (result.output, result.exception)
    return result


def test_an_old_campaign_imports_plays_on_and_verifies(db: str) -> None:
    gm(db, "import", str(OLD))
    status = json.loads(gm(db, "status", "--json").stdout)
    assert (status["phase"], status["awaiting"]) == ("round-2/orders", ["marco", "lulu"])
    verified = gm(db, "verify")
    assert verified.stdout.startswith("ancienne-partie: ")
    assert "recorded before gm kept the commands that decided them (protocol 1)" in verified.stderr
    assert "archived before gm committed each post's text into the log" in verified.stderr
    # It plays on: new commands record what protocol 2 records.
    gm(db, "order", "marco", "fab clic")
    gm(db, "order", "lulu", "fab BANG")
    gm(db, "reveal")
    results = gm(db, "resolve").stdout
    assert "## Tour 2 — ça tire" in results
    assert "Sceaux ouverts" in results and "`" + "0" * 0 in results
    kinds = [e["kind"] for e in json.loads(gm(db, "history", "--json").stdout)]
    assert "gm.command-decided" in kinds and "gm.post-published" in kinds
    assert gm(db, "verify").exit_code == 0
    # The new posts print 32-digit seals; the old ones are kept as published.
    posts = [p for p in json.loads(OLD.read_text(encoding="utf-8"))["posts"]]
    old_reveal = next(p["body"] for p in posts if p["kind"] == "reveal")
    assert old_reveal in gm(db, "chronicle").stdout


def test_an_old_campaign_exports_every_old_event_unchanged(db: str, tmp_path: Path) -> None:
    gm(db, "import", str(OLD))
    out = tmp_path / "again.json"
    gm(db, "export", "-o", str(out))
    before = json.loads(OLD.read_text(encoding="utf-8"))
    after = json.loads(out.read_text(encoding="utf-8"))
    keep = ("seq", "kind", "payload", "salt", "hash", "prev_hash", "recorded_at")
    assert [{k: e[k] for k in keep} for e in after["events"]] == [
        {k: e[k] for k in keep} for e in before["events"]
    ]
    assert [p["body"] for p in after["posts"]] == [p["body"] for p in before["posts"]]
