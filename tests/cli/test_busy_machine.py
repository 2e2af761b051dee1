"""A busy or paused machine is not a runaway template (brief « edges », part B1).

gm once bounded a render by the wall clock: with six busy processes on one
core, ``gm draw`` exited 2 (``template/too-slow``); a process paused for a
moment made ``gm verify`` report a mismatch and ``gm import`` refuse an
honest export. Here a child gm stops itself (``SIGSTOP``) in the middle of
a render, the parent resumes it (``SIGCONT``) after longer than the
wall-clock limit gm had (shortened to 0.2 s in the child, so the pause is
short), and the command must do what it does on an idle machine. The pause
is the machine's, not a sleep in gm; the budget that replaced the limit
counts only the work (tests/render/test_render_budget.py).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from support import Gm, shipped

CHILD = """\
import os, signal, sys
from gm.render import engine
from gm.render import budget
engine.MAX_SECONDS = 0.2  # what a wall-clock limit of 0.2 s would have read
budget.MAX_CPU_SECONDS = 0.2  # and the budget's processor time: the pause is longer
real = engine.finalize
paused = []

def finalize(value):  # every value a template prints goes through it: inside a render
    if not paused:
        paused.append(True)
        os.kill(os.getpid(), signal.SIGSTOP)
    return real(value)

engine.finalize = finalize
from gm.cli import main
sys.argv = ["gm", *sys.argv[1:]]
main()
"""
PAUSE = 0.6
"""Seconds the child stays stopped: three times the limit it would once have hit."""

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGSTOP"), reason="POSIX signals only")


def paused_gm(
    tmp_path: Path, db: str, *args: str, templates: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """``gm --db DB ARGS`` in a child that stops itself once inside a render,
    resumed after ``PAUSE`` seconds."""
    script = tmp_path / "paused_gm.py"
    script.write_text(CHILD, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])}
    if templates is not None:
        env["GM_TEMPLATES"] = str(templates)
    child = subprocess.Popen(
        [sys.executable, str(script), "--db", db, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=tmp_path,
    )
    _, status = os.waitpid(child.pid, os.WUNTRACED)
    assert os.WIFSTOPPED(status), "the child never reached a render"
    time.sleep(PAUSE)  # the machine pauses the child; gm is not running meanwhile
    os.kill(child.pid, signal.SIGCONT)
    out, err = child.communicate(timeout=120)
    return subprocess.CompletedProcess(child.args, child.returncode, out, err)


@pytest.fixture
def played(db: str) -> Gm:
    gm = Gm(db)
    gm("new", "magot", "-t", "Lent", "-p", "fab,marco,lulu", "--seed", "s")
    gm("draw", "--bills", "20000,10000,5000,5000,5000")
    for player, order in (("fab", "marco BANG"), ("marco", "lulu BANG"), ("lulu", "fab clic")):
        gm("order", player, order)
    gm("reveal")
    return gm


def test_a_paused_render_still_posts(played: Gm, tmp_path: Path) -> None:
    done = paused_gm(tmp_path, played.db, "resolve")
    assert done.returncode == 0, done.stderr
    assert "template/too-slow" not in done.stderr
    assert played("post").stdout.rstrip("\n") == done.stdout.rstrip("\n").split("\n\n── ")[0]


def test_a_paused_long_render_still_posts(played: Gm, tmp_path: Path) -> None:
    # A post whose template keeps working after the pause (50,000 loop turns,
    # the clock read every 256): a budget that read the wall clock would see
    # the pause as 0.6 s of work, three times the child's 0.2 s.
    shipped_results = shipped("magot/fr/results.md.j2")
    folder = tmp_path / "gabarits" / "magot" / "fr"
    folder.mkdir(parents=True)
    loop = "{% for i in range(50000) %}{% endfor %}"
    (folder / "results.md.j2").write_text(shipped_results.read_text("utf-8") + loop, "utf-8")
    done = paused_gm(tmp_path, played.db, "resolve", templates=folder.parents[1])
    assert done.returncode == 0, done.stderr
    again = played("--templates", str(folder.parents[1]), "post").stdout
    assert again.rstrip("\n") == done.stdout.rstrip("\n").split("\n\n── ")[0]


def test_a_paused_verify_still_verifies(played: Gm, tmp_path: Path) -> None:
    done = paused_gm(tmp_path, played.db, "verify")
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.endswith(" posts verify.\n")


def test_a_paused_import_still_imports_an_honest_export(
    played: Gm, tmp_path: Path, new_db: object
) -> None:
    played("export", "-o", str(tmp_path / "lent.json"))
    target = new_db("autre")  # type: ignore[operator]
    done = paused_gm(tmp_path, target, "import", str(tmp_path / "lent.json"))
    assert done.returncode == 0, done.stderr
    assert "imported" in done.stderr
    assert Gm(target)("verify").stdout.endswith(" posts verify.\n")


def test_a_limit_is_not_a_mismatch(
    played: Gm, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, new_db: object
) -> None:
    """A post that cannot be rendered again within the budget is said to be
    so, by verify and import, never taken for an edit (exit 5)."""
    from gm.render import budget

    played("export", "-o", str(tmp_path / "lent.json"))
    monkeypatch.setattr(budget, "MAX_STEPS", 0)
    monkeypatch.setattr(budget, "CHECK_EVERY", 1)
    result = played("verify", code=1)
    first = result.stdout.splitlines()[0]
    assert first.startswith("post 1 (opening): could not be rendered again to compare it: ")
    assert first.endswith(
        "took more than 0 steps (loop turns and calls); no post takes that much"
        " (look for a loop over a large range, or a macro that calls itself)"
        " [template/too-slow]"
    )
    line = result.stderr.strip().splitlines()[-1]
    assert line.startswith("Error: 'lent': nothing found that does not verify, but ")
    assert line.endswith("[verify/limit]")
    target = Gm(new_db("autre"))  # type: ignore[operator]
    refused = target("import", str(tmp_path / "lent.json"), code=1)
    assert refused.stderr.strip().endswith(
        "it could not be checked, so nothing was imported [import/limit]"
    )
    assert "import/integrity" not in refused.stderr
    assert target("list").stderr.startswith("No campaign yet.")
