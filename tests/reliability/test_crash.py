"""Crash safety (issue 5, item 4): a ``gm resolve`` killed with SIGKILL at any
point of its run leaves a sound database (SQLite's integrity check, amcheck
on PostgreSQL) whose round is either fully resolved or untouched, on both
databases; a full disk under a SQLite file gives a clean error and writes
nothing."""

from __future__ import annotations

import errno
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from support import REPORT, CloneDb, Raw

from gm.cli import cli

# Crashes are what these tests are about: gm runs with its production
# durability settings (tests/conftest.py), not the suite's GM_TEST_NO_FSYNC.
pytestmark = pytest.mark.durable

ITERATIONS = int(os.environ.get("GM_TEST_KILLS", "16"))  # bench/kills.py: 30
SEED = 20240505


def gm(db: Path | str, *args: str, code: int = 0) -> str:
    result = CliRunner().invoke(cli, ["--db", str(db), *args])
    assert result.exit_code == code, result.output
    return result.output


def gm_process(db: Path | str, *args: str) -> list[str]:
    return [sys.executable, "-m", "gm", "--db", str(db), *args]


def standoff(db: str) -> None:
    """A Magot campaign at the standoff of round 1: drawn, ordered, revealed."""
    gm(db, "new", "magot", "--title", "Crash", "--players", "p1,p2,p3,p4")
    gm(db, "draw", "--bills", "20000,10000,5000,5000,5000")
    for player, order in {
        "p1": "p2 bang",
        "p2": "p3 clic clic clic",
        "p3": "p1 clic",
        "p4": "p1 BANG",
    }.items():
        gm(db, "order", player, order)
    gm(db, "reveal")


def round_state(db: str) -> tuple[str, bool, int, int, int]:
    """(phase, round resolved, events, resolved events, results posts)."""
    status = json.loads(gm(db, "status", "--json"))
    raw = Raw(db)
    ((resolved_events,),) = raw.execute(
        "SELECT count(*) FROM events WHERE kind = 'magot.round-resolved'"
    )
    ((results_posts,),) = raw.execute("SELECT count(*) FROM posts WHERE kind = 'results'")
    return (
        status["phase"],
        status["rounds"][0]["resolved"],
        status["events"],
        resolved_events,
        results_posts,
    )


def test_a_killed_resolve_leaves_the_round_resolved_or_untouched(
    db: str, clone_db: CloneDb, backend: str
) -> None:
    standoff(db)
    untouched = round_state(db)
    assert untouched[:2] == ("round-1/standoff", False)
    assert untouched[3:] == (0, 0)

    # One full run: how long a resolve takes here, start-up included.
    full = clone_db(db)
    started = time.monotonic()
    subprocess.run(gm_process(full, "resolve"), check=True, capture_output=True)
    duration = time.monotonic() - started
    resolved = round_state(full)
    assert resolved[:2] == ("round-1/done", True)
    assert resolved[2] == untouched[2] + 3  # the command, the round resolved, the post's digest
    assert resolved[3:] == (1, 1)

    rng = random.Random(SEED)
    outcomes = []
    for i in range(ITERATIONS):
        copy = clone_db(db)
        # Half the kills anywhere, half late in the run, where the transaction is.
        low = 0.0 if i % 2 == 0 else 0.6 * duration
        delay = rng.uniform(low, duration)
        proc = subprocess.Popen(
            gm_process(copy, "resolve"), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        time.sleep(delay)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)

        assert Raw(copy).integrity() == "ok", f"kill {i} after {delay:.3f}s"
        gm(copy, "verify")
        state = round_state(copy)
        assert state in (untouched, resolved), f"kill {i} after {delay:.3f}s: {state}"
        # The results post exists iff the round-resolved event does.
        assert state[3] == state[4]
        outcomes.append("resolved" if state == resolved else "untouched")
        if state == untouched:
            # The database is still usable: the resolve can be run again.
            gm(copy, "resolve")
            assert round_state(copy) == resolved
            gm(copy, "verify")
    counts = {o: outcomes.count(o) for o in ("resolved", "untouched")}
    REPORT.append(
        f"killed resolves on {backend}: {counts['resolved']} resolved, {counts['untouched']} untouched"
    )
    assert len(outcomes) == ITERATIONS


def _fill(directory: Path) -> None:
    """Fill the filesystem holding ``directory`` to the last byte."""
    for size in (1 << 16, 4096, 512, 1):
        try:
            with open(directory / f"filler-{size}", "wb", buffering=0) as f:
                chunk = b"x" * size
                while True:
                    f.write(chunk)
        except OSError as err:
            assert err.errno == errno.ENOSPC


@pytest.fixture
def tiny_disk(tmp_path: Path):
    mount = tmp_path / "disk"
    mount.mkdir()
    if not shutil.which("mount") or os.geteuid() != 0:
        pytest.skip("a full disk needs root to mount a tiny tmpfs")
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=1M", "tmpfs", str(mount)], capture_output=True
    )
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tiny tmpfs: {done.stderr.decode().strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def test_a_full_disk_gives_a_clean_error_and_writes_nothing(tiny_disk: Path) -> None:
    db = tiny_disk / "gm.db"
    gm(db, "new", "magot", "--title", "Plein", "--players", "p1,p2,p3,p4")
    gm(db, "draw", "--bills", "20000,10000,5000,5000,5000")
    before = json.loads(gm(db, "status", "--json"))["events"]

    _fill(tiny_disk)
    done = subprocess.run(gm_process(db, "order", "p1", "p2 clic"), capture_output=True, text=True)
    output = done.stdout + done.stderr
    print("full disk:", output.strip())
    assert "Traceback" not in output, output
    assert done.returncode == 4, output
    assert "Error: " in output and "[store/full]" in output, output

    for filler in tiny_disk.glob("filler-*"):
        filler.unlink()
    assert Raw(str(db)).integrity() == "ok"
    gm(db, "verify")
    assert json.loads(gm(db, "status", "--json"))["events"] == before
    # With space again, the same order goes through.
    gm(db, "order", "p1", "p2 clic")
    assert json.loads(gm(db, "status", "--json"))["events"] > before
