"""Kills during every kind of write (brief « edges », part A): a ``gm`` process
killed with SIGKILL at a random moment of an import, a backup, a Rattlesnake
City poker resolution or the end of a Colt Express round leaves a consistent
campaign (the database's own check and ``gm verify`` pass) in which the
command is either wholly there or absent, and no file half-written under its
final name (tests/reliability/test_crash.py does the same for a Le Magot
resolve).

``GM_TEST_KILLS`` kills per kind (default 3, so that CI stays quick);
``bench/kills.py`` runs 30 of each and prints how many found the command done
and how many found it absent. A kill's moment is drawn from a seeded random
generator between 0.3 and 1.3 times the length of one full run measured
first (the writes are near its end; a machine busier than during that run
makes the command longer): nothing asserts on time.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from support import REPORT, Raw

from gm.cli import cli
from gm.store.db import sqlite_backup

pytestmark = pytest.mark.durable  # gm's production durability settings

KILLS = int(os.environ.get("GM_TEST_KILLS", "3"))
SEED = 20261202
ROOT = Path(__file__).parents[2]
SCENARIOS = ROOT / "tests" / "scenarios"


def gm(db: Path | str, *args: str, code: int = 0) -> str:
    result = CliRunner().invoke(cli, ["--db", str(db), *args])
    assert result.exit_code == code, (args, result.output)
    return result.stdout


def campaign_state(db: Path | str, slug: str) -> tuple[Any, ...] | None:
    """What a user sees of the campaign (its status and history), or None
    if the database holds no campaign ``slug``; the campaign verifies."""
    if not Path(db).exists() or slug not in gm(db, "list"):
        return None
    assert Raw(str(db)).integrity() == "ok"
    gm(db, "-c", slug, "verify")
    status = json.loads(gm(db, "-c", slug, "status", "--json"))
    history = [(e["seq"], e["kind"]) for e in json.loads(gm(db, "-c", slug, "history", "--json"))]
    return status["events"], history, Raw(str(db)).execute("SELECT count(*) FROM posts")


def before_input(folder: Path, scenario: Path, kind: str | None) -> tuple[Path, str, list[str]]:
    """A SQLite database holding ``scenario``'s campaign just before the input
    whose command logs an event ``kind`` (None: the file's last input), its
    slug, and that input as ``gm order`` arguments."""
    from gm.service import scenario as playing
    from gm.service.env import Env

    db = folder / "played.db"
    before = folder / "before.db"
    feed = playing._feed
    fed: list[Any] = []

    class Found(Exception):
        pass

    def watched(env: Any, slug: str, item: Any) -> Any:
        before.unlink(missing_ok=True)
        sqlite_backup(db, before)
        seen = Raw(str(db)).execute("SELECT count(*) FROM events")[0][0]
        result = feed(env, slug, item)
        fed[:] = [slug, item]
        kinds = {k for (k,) in Raw(str(db)).execute(f"SELECT kind FROM events WHERE id > {seen}")}
        if kind is not None and kind in kinds:
            raise Found
        return result

    playing._feed = watched  # type: ignore[assignment]
    try:
        playing.play(Env(db=str(db)), scenario)
        assert kind is None, f"{scenario.name} logs no {kind}"
    except Found:
        pass
    finally:
        playing._feed = feed  # type: ignore[assignment]
    slug, item = fed
    assert item.step is None, item  # a player's message: gm order PLAYER TEXT
    return before, slug, ["-c", slug, "order", item.actor, item.text]


@dataclass
class Kind:
    """One kind of write: a database to start from, the command, what to look at."""

    name: str
    prepare: Callable[[Path], tuple[Path, list[str]]]
    """folder → (the database as it was, the command's arguments after --db)"""
    look: Callable[[Path, Path], Any]
    """(the database, the folder) → what the command changed, None if nothing"""


def _order(scenario: str, kind: str | None) -> Kind:
    slug: list[str] = []  # the campaign the scenario made, once prepared

    def prepare(folder: Path) -> tuple[Path, list[str]]:
        db, made, args = before_input(folder, SCENARIOS / scenario, kind)
        slug[:] = [made]
        return db, args

    def look(db: Path, folder: Path) -> Any:
        return campaign_state(db, slug[0])

    return Kind(f"order ({scenario}, {kind or 'last input'})", prepare, look)


def _exported(folder: Path) -> Path:
    source = folder / "source.db"
    gm(source, "play", str(SCENARIOS / "rattlesnake-poker.toml"), "--keep")
    gm(source, "export", "-o", str(folder / "partie.json"))
    return source


def _import_prepare(folder: Path) -> tuple[Path, list[str]]:
    _exported(folder)
    target = folder / "target.db"
    gm(target, "list")  # an empty database, created
    return target, ["import", str(folder / "partie.json")]


def _backup_prepare(folder: Path) -> tuple[Path, list[str]]:
    return _exported(folder), ["backup", str(folder / "copie.db")]


def _backup_look(db: Path, folder: Path) -> Any:
    copy = folder / "copie.db"
    if not copy.exists():
        return None
    return campaign_state(copy, "rattlesnake-poker")


KINDS = [
    Kind(
        "import",
        _import_prepare,
        lambda db, folder: campaign_state(db, "rattlesnake-poker"),
    ),
    Kind("backup", _backup_prepare, _backup_look),
    _order("rattlesnake-poker.toml", "rattlesnake.poker-ended"),
    _order("colt-pont.toml", None),  # its last input ends round 1
]


@pytest.fixture
def run_gm() -> Iterator[Callable[[Path, list[str], float | None], None]]:
    """``run_gm(db, args, kill_after)``: gm in its own process, killed after
    ``kill_after`` seconds (None: left to finish)."""

    def run(db: Path, args: list[str], kill_after: float | None) -> None:
        proc = subprocess.Popen(
            [sys.executable, "-m", "gm", "--db", str(db), *args],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            cwd=db.parent,
        )
        if kill_after is None:
            assert proc.wait(timeout=300) == 0, args
            return
        time.sleep(kill_after)  # the moment of the kill, not a measure
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=60)

    yield run


def _copy(made: Path, here: Path) -> Path:
    """A copy of the starting folder (databases through SQLite's backup)."""
    here.mkdir()
    for file in made.iterdir():
        if file.suffix == ".db":
            sqlite_backup(file, here / file.name)
        elif file.is_file():
            (here / file.name).write_bytes(file.read_bytes())
    return here


@pytest.mark.parametrize("kind", KINDS, ids=lambda k: k.name)
def test_a_kill_leaves_the_command_whole_or_absent(
    kind: Kind, tmp_path: Path, run_gm: Callable[[Path, list[str], float | None], None]
) -> None:
    made = tmp_path / "made"
    made.mkdir()
    start, args = kind.prepare(made)
    untouched = kind.look(start, made)

    # One full run, on a copy: the command's whole effect and its length.
    full = _copy(made, tmp_path / "full")
    db = full / start.name
    began = time.monotonic()
    run_gm(db, [a.replace(str(made), str(full)) for a in args], None)
    length = time.monotonic() - began
    done = kind.look(db, full)
    assert done is not None and done != untouched

    rng = random.Random(SEED)
    outcomes = {"done": 0, "absent": 0}
    partial = 0  # kills that left a temporary file beside the final name: mid-write
    for i in range(KILLS):
        here = _copy(made, tmp_path / f"kill-{i}")
        delay = rng.uniform(0.3 * length, 1.3 * length)
        run_gm(here / start.name, [a.replace(str(made), str(here)) for a in args], delay)
        state = kind.look(here / start.name, here)
        assert state in (untouched, done), f"kill {i} after {delay:.2f}s of {length:.2f}s"
        outcomes["done" if state == done else "absent"] += 1
        partial += any(here.glob(".*.partial"))
    REPORT.append(
        f"killed {kind.name}: {outcomes['done']} done, {outcomes['absent']} absent"
        f" (of {KILLS}; {partial} left a .partial file; a full run took {length:.2f}s)"
    )


MID_WRITE = """\
import os, signal, sys
from gm import writer
real = writer._sync

def killed(fd):  # the file is whole under its temporary name, not yet renamed
    real(fd)
    os.kill(os.getpid(), signal.SIGKILL)

writer._sync = killed
from gm.cli import main
sys.argv = ["gm", *sys.argv[1:]]
main()
"""


@pytest.mark.parametrize(
    ("args", "name"),
    [
        (["backup", "copie.db"], "copie.db"),
        (["export", "-o", "partie.json", "--force"], "partie.json"),
        (["chronicle", "-o", "chronique.md", "--force"], "chronique.md"),
    ],
)
def test_a_kill_in_the_middle_of_a_file_leaves_the_old_one(
    tmp_path: Path, args: list[str], name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The one moment random kills rarely hit: the new file written, not yet
    named. The child kills itself there; the name holds the old file (or
    nothing), never part of the new one."""
    db = tmp_path / "gm.db"
    gm(db, "new", "magot", "-t", "T", "-p", "fab,marco,lulu", "--seed", "s")
    target = tmp_path / name
    old = None if name.endswith(".db") else b"la semaine derniere\n"
    if old is not None:
        target.write_bytes(old)
    script = tmp_path / "mid_write.py"
    script.write_text(MID_WRITE, "utf-8")
    done = subprocess.run(
        [sys.executable, str(script), "--db", str(db), *args],
        cwd=tmp_path,
        capture_output=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert done.returncode == -signal.SIGKILL, done.stderr
    assert (target.read_bytes() if target.exists() else None) == old
    assert len(list(tmp_path.glob(f".{name}.*.partial"))) == 1  # killed mid-write indeed
    gm(db, "verify")
    monkeypatch.chdir(tmp_path)
    gm(db, *args)  # the same command again writes the whole file
    assert target.read_bytes() != old
