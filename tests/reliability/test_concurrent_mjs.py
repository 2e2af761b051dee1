"""Concurrent MJs (issue 5, item 5; issue 27.4): two OS processes enter 100
orders each into the same campaign at once, then eight enter 200 each, on
SQLite and on PostgreSQL. Every accepted order is in the log exactly once, seqs stay
gap-free, nobody sees "database is locked" (nor a lost race on a seq), and
the archive verifies afterwards."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import time

import pytest
from click.testing import CliRunner
from support import Raw

from gm.cli import cli

PLAYERS = [f"p{n}" for n in range(1, 9)]

WORKER = textwrap.dedent(
    """
    import json, sys, time, traceback
    from gm.errors import GMError
    from gm.service import actions
    from gm.service.env import Env

    db, slug, player, count, start_at = sys.argv[1:6]
    targets = json.loads(sys.argv[6])
    env = Env(db=db)
    env.store.campaign(slug)  # open the store before the start line
    options = ["clic", "clic clic clic", "CLIC", "ccc"]
    report = {"accepted": [], "refused": [], "unexpected": []}
    time.sleep(max(0.0, float(start_at) - time.time()))
    for i in range(int(count)):
        text = f"{targets[i % len(targets)]} {options[i % len(options)]} (#{player}-{i})"
        try:
            result = actions.submit(env, slug, player, text)
        except GMError as err:
            report["refused"].append([text, err.code, err.message])
        except BaseException:
            report["unexpected"].append([text, traceback.format_exc()])
        else:
            seqs = [e.seq for e in result.events if e.kind == "gm.submission-received"]
            report["accepted"].append([text, seqs])
    print(json.dumps(report))
    """
)


def gm(db: str, *args: str) -> str:
    result = CliRunner().invoke(cli, ["--db", db, *args])
    assert result.exit_code == 0, result.output
    return result.output


def run_scenario(db: str, processes: int, per_process: int) -> None:
    gm(db, "new", "magot", "--title", "Course", "--players", ",".join(PLAYERS))
    gm(db, "draw", "--bills", "20000,10000,5000,5000,5000")
    slug = json.loads(gm(db, "status", "--json"))["campaign"]
    ((before,),) = Raw(db).execute("SELECT max(seq) FROM events")

    start_at = time.time() + 1.5 + 0.25 * processes  # after every interpreter imported gm
    procs = []
    for n in range(processes):
        player = PLAYERS[n]
        targets = [p for p in PLAYERS if p != player]
        procs.append(
            subprocess.Popen(
                [
                    sys.executable,
                    "-c",
                    WORKER,
                    db,
                    slug,
                    player,
                    str(per_process),
                    str(start_at),
                    json.dumps(targets[n % 3 :] + targets[: n % 3]),
                ],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
        )
    reports = []
    for proc in procs:
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err
        reports.append(json.loads(out))

    unexpected = [u for r in reports for u in r["unexpected"]]
    assert not unexpected, unexpected
    refused = [r2 for r in reports for r2 in r["refused"]]
    # Every order is legal, and decide() runs under BEGIN IMMEDIATE: no order
    # may lose a race, and above all none may see "database is locked".
    assert not [r for r in refused if r[1] == "store/locked"], refused
    assert not refused, refused
    accepted = [a for r in reports for a in r["accepted"]]
    assert len(accepted) == per_process * processes

    rows = Raw(db).execute("SELECT seq, kind, payload FROM events ORDER BY seq")
    seqs = [seq for seq, _, _ in rows]
    assert seqs == list(range(1, len(rows) + 1)), "seqs are not gap-free"
    received = {
        seq: json.loads(payload)
        for seq, kind, payload in rows
        if kind == "gm.submission-received" and seq > before
    }
    claimed = [seq for _, got in accepted for seq in got]
    assert all(len(got) == 1 for _, got in accepted), accepted
    assert len(claimed) == len(set(claimed)), "two commands were given the same seq"
    assert sorted(claimed) == sorted(received), "the log and the accepted orders differ"
    texts = [text for text, _ in accepted]
    logged = [json.dumps(p, ensure_ascii=False) for p in received.values()]
    for text in texts:
        assert sum(text in line for line in logged) == 1, f"{text!r} not logged exactly once"

    output = gm(db, "verify")
    assert "verify" in output


@pytest.mark.parametrize(("processes", "per_process"), [(2, 100), (8, 200)])
def test_mjs_entering_orders_at_once_lose_and_duplicate_nothing(
    db: str, processes: int, per_process: int
) -> None:
    run_scenario(db, processes, per_process)


CREATOR = textwrap.dedent(
    """
    import json, sys, time
    from gm.cli import cli

    db, start_at, count = sys.argv[1], float(sys.argv[2]), int(sys.argv[3])
    time.sleep(max(0.0, start_at - time.time()))
    codes = []
    for _ in range(count):
        try:
            cli.main(["--db", db, "new", "magot", "--title", "Même titre",
                      "--players", "ana,bob,cyd"], standalone_mode=False)
            codes.append(0)
        except SystemExit as exit:
            codes.append(exit.code)
        except Exception as err:
            codes.append(repr(err))
    print(json.dumps(codes))
    """
)


def test_mjs_creating_campaigns_of_one_title_at_once_each_get_the_next_free_slug(
    db: str,
) -> None:
    """Issue 27.4: eight MJs each run ``gm new --title "Même titre"`` three
    times at once: 24 campaigns, slugs ``meme-titre``, ``meme-titre-2`` …
    ``meme-titre-24``, none refused as already existing."""
    gm(db, "list")  # the schema exists before the race
    processes, each = 8, 3
    start_at = time.time() + 1.5 + 0.25 * processes
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", CREATOR, db, str(start_at), str(each)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(processes)
    ]
    codes = []
    for proc in procs:
        out, err = proc.communicate(timeout=180)
        assert proc.returncode == 0, err
        codes += json.loads(out.strip().splitlines()[-1])
        assert "already exists" not in err, err
    assert codes == [0] * processes * each
    listed = json.loads(gm(db, "list", "--json"))
    slugs = sorted(c["slug"] for c in listed)
    expected = ["meme-titre"] + [f"meme-titre-{n}" for n in range(2, processes * each + 1)]
    assert slugs == sorted(expected)
    assert {c["title"] for c in listed} == {"Même titre"}
