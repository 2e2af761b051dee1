"""History benchmark: what a command costs as a campaign's log grows (issue 26).

``gm status``, ``gm order``, ``gm post`` and ``gm verify`` on one Le Magot
campaign of 10, 100, 1,000 and 10,000 events, each command a fresh process,
several runs interleaved size by size, medians. Printed as ratios to the
10-event campaign, and ``gm verify`` at 10,000 events against 1,000.

Budgets (issue 26, « Must hold »):

* ``gm status`` and ``gm order`` at 10,000 events cost at most 1.2x their
  cost at 10 events;
* ``gm verify`` is linear in the events: at 10,000 at most 12x its cost at
  1,000.

The budgets are checked on the medians of the child's **CPU time** (user +
system, ``resource.getrusage(RUSAGE_CHILDREN)`` before and after each run);
wall time is printed beside it. The machine is shared: wall time also counts
the time a command waits for a core another job holds, which moves by tens of
per cent from one minute to the next, while CPU time counts the work gm does,
which is what grows with the log. It leaves out the time ``gm order`` waits
for the disk (one fsync per command, the same at 10 events as at 10,000).

``gm status`` and ``gm order`` are compared whole, start-up included: what the
MJ waits for. ``gm verify`` is compared on its CPU time above the import floor
(``python -c "import sqlmodel, jinja2, markdown"``, measured in the same runs):
whole, the start-up both sizes pay (0.4 s of CPU here) would let a verify
whose own work grew as the square of the events pass a 12x budget; above the
floor, the ratio is that of gm's own work, which is what « linear » is about.
Both ratios are printed.

The campaigns are built once, as a long campaign grows: created, its first
round drawn, then orders entered one by one through the service API
(``gm.service.actions.submit``, three events each: the message, the command,
the order), in one process; the campaign is copied aside when it has 10, 100,
1,000 and 10,000 events. That takes seconds today (the service reuses, within
one process, the campaign it committed); ``--keep DIR`` keeps the databases
there and reuses them (delete the folder to build them again with the code of
the day, which then stores what it stores as the campaign grows: snapshots).
Every measured ``gm order`` runs on a fresh copy of its database (copied
before the run, not timed), so the campaigns never grow between runs; ``gm
status``, ``gm post`` (the latest post: the first round's pot) and ``gm
verify`` read the kept database itself. Before the runs, each command runs
once per database, unmeasured (bytecode, compiled templates, the OS's file
cache, a migration of a database kept from an older gm). gm is measured with
compiled bytecode, as in ``bench/startup.py``, and with a cache folder of the
bench's own (``XDG_CACHE_HOME``). Run:

    python bench/history.py [--runs 7] [--keep DIR] [--sizes 10,100,1000,10000]

(``--runs 0`` builds the databases and stops.)

Exit code 1 when a budget fails.

Measured on the 2-CPU machine shared with other work, before issue 26's
snapshots and single pass (branch ``startup`` at 2eab6c3, with its template
cache; 7 runs, load average 2.2 to 2.6): median CPU time in ms, and its ratio
to the 10-event campaign; the import floor took 420 ms.

=========  ============  ============  ============  =============  =======================
command    10 events     100           1,000         10,000         budget
=========  ============  ============  ============  =============  =======================
status     434 (1.00)    432 (1.00)    498 (1.15)    597 (1.38)     1.2x: exceeded
order      501 (1.00)    508 (1.01)    533 (1.06)    635 (1.27)     1.2x: exceeded
post       473 (1.00)    453 (0.96)    549 (1.16)    638 (1.35)
verify     463 (1.00)    509 (1.10)    603 (1.30)    1,307 (2.83)   4.84x of 1,000 above
                                                                    the floor (12x): met
=========  ============  ============  ============  =============  =======================

After the snapshots, the single pass and the linear verify (main at
8950ef9; databases built by that code, which writes a snapshot every 50
events as the campaign grows, so a command folds up to 48 events past it;
7 runs, load average 1.2 to 2.0; the import floor took 461 ms):

=========  ============  ============  ============  =============  =======================
command    10 events     100           1,000         10,000         budget
=========  ============  ============  ============  =============  =======================
status     498 (1.00)    499 (1.00)    506 (1.02)    535 (1.07)     1.2x: met
order      536 (1.00)    564 (1.05)    605 (1.13)    590 (1.10)     1.2x: met
post       522 (1.00)    543 (1.04)    575 (1.10)    563 (1.08)
verify     545 (1.00)    553 (1.01)    572 (1.05)    1,189 (2.18)   6.54x of 1,000 above
                                                                    the floor (12x): met
=========  ============  ============  ============  =============  =======================

An earlier run (f040cb6, the snapshot written by each command's first,
unmeasured, run, so at the campaign's last event; load 0.4 to 0.9) gave
status 1.04, order 0.99 and verify 3.91.

Before, wall time medians gave the same ratios within 0.15 (status 1.53, order 1.37 at
10,000). The same bench on the branch's base (04cdb8d, no template cache;
load 2.6 to 4.3) gave status 1.30, order 1.40 and verify 4.02: from one run
to the next a ratio moves by about 0.1, the CPU time above the floor of a
small campaign by tens of ms (use ``--runs`` 11 or more to compare two
versions).
"""

from __future__ import annotations

import argparse
import os
import resource
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from startup import GM, PY  # noqa: E402

SLUG = "longue-partie"
PLAYERS = ("fab", "marco", "lulu", "tom")
SIZES = (10, 100, 1000, 10000)
ORDER = ["order", "fab", "je braque marco, CLIC CLIC CLIC"]
COMMANDS: dict[str, list[str]] = {
    "status": ["status"],
    "order": ORDER,
    "post": ["post"],
    "verify": ["verify"],
}
FLOOR = [PY, "-c", "import sqlmodel, jinja2, markdown"]
"""The import floor (``bench/startup.py``): what any command pays before gm's own work."""
BUDGETS = (
    # (command, size, against size, at most, on the CPU above the floor)
    ("status", 10000, 10, 1.2, False),
    ("order", 10000, 10, 1.2, False),
    ("verify", 10000, 1000, 12.0, True),
)


def database(folder: Path, size: int) -> Path:
    return folder / f"history-{size}.db"


def build(folder: Path, sizes: list[int]) -> None:
    """One campaign grown order by order; a copy of it at each size in ``sizes``."""
    from gm.service import actions, campaigns
    from gm.service.env import Env

    work = folder / "growing.db"
    for stale in folder.glob("growing.db*"):
        stale.unlink()
    # The campaign is kept, not rehearsed: it is built as the MJ's database is,
    # only without waiting for the disk at each commit (that is no part of it).
    env = Env(db=str(work), durable=False)
    campaigns.create(env, "magot", "Longue partie", list(PLAYERS), seed="bench-history")
    actions.step(env, SLUG, "draw", {"bills": None})
    seq = actions.load(env, SLUG).seq
    todo = sorted(sizes)
    n = 0
    started = time.perf_counter()
    while todo:
        if seq >= todo[0]:
            if seq != todo[0]:
                raise SystemExit(f"the campaign went from {seq - 3} to {seq} events past {todo[0]}")
            backup(work, database(folder, todo.pop(0)))
            print(f"  {seq:>6} events after {time.perf_counter() - started:6.1f} s", flush=True)
            continue
        shooter, target = PLAYERS[n % 4], PLAYERS[(n + 1) % 4]
        seq = actions.submit(env, SLUG, shooter, f"je braque {target}, CLIC CLIC CLIC").campaign.seq
        n += 1
    env.store.close()
    for stale in folder.glob("growing.db*"):
        stale.unlink()


def backup(src: Path, dst: Path) -> None:
    """A consistent copy of a SQLite database (its WAL included), made anew."""
    dst.unlink(missing_ok=True)
    source, target = sqlite3.connect(src), sqlite3.connect(dst)
    try:
        source.backup(target)
    finally:
        target.close()
        source.close()


def measure(cmd: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of one run of ``cmd``, a fresh process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(cmd, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return cpu, wall


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--keep", type=Path, help="build (or reuse) the databases in this folder")
    parser.add_argument(
        "--sizes",
        default=",".join(map(str, SIZES)),
        help="campaign sizes in events, each 7 + 3n (default: %(default)s)",
    )
    parser.add_argument(
        "--commands", default=",".join(COMMANDS), help="what to measure (default: %(default)s)"
    )
    args = parser.parse_args()
    sizes = sorted({int(s) for s in args.sizes.split(",")})
    commands = [c.strip() for c in args.commands.split(",")]
    unknown = [c for c in commands if c not in COMMANDS]
    if unknown or any(s < 10 or (s - 7) % 3 for s in sizes):
        parser.error("sizes are 7 + 3n events, at least 10; commands: " + ", ".join(COMMANDS))

    folder = args.keep or Path(tempfile.mkdtemp(prefix="gm-bench-history-"))
    folder.mkdir(parents=True, exist_ok=True)
    missing = [s for s in sizes if not database(folder, s).exists()]
    if missing:
        print(f"building the campaigns of {', '.join(map(str, missing))} events in {folder}")
        build(folder, missing)
    if args.runs < 1:
        return 0
    env = {**os.environ, "GM_CAMPAIGN": SLUG}
    # Compiled bytecode for gm and its floor alike (see bench/startup.py), and
    # a cache folder of the bench's own (compiled templates).
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(folder / "pycache")
    env["XDG_CACHE_HOME"] = str(folder / "cache")
    scratch = folder / "scratch.db"

    def run(command: str, size: int) -> tuple[float, float]:
        db = database(folder, size)
        if command == "order":  # a fresh copy: the campaign does not grow between runs
            for old in folder.glob("scratch.db*"):
                old.unlink()
            backup(db, scratch)
            db = scratch
        return measure([*GM, "--db", str(db), *COMMANDS[command]], {**env, "GM_DB": str(db)})

    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} CPUs")
    for size in sizes:  # warm-up, unmeasured
        for command in commands:
            run(command, size)
    cpu: dict[tuple[str, int], list[float]] = {}
    wall: dict[tuple[str, int], list[float]] = {}
    floor: list[float] = []
    measure(FLOOR, env)
    for _ in range(args.runs):
        floor.append(measure(FLOOR, env)[0])
        for size in sizes:
            for command in commands:
                c, w = run(command, size)
                cpu.setdefault((command, size), []).append(c)
                wall.setdefault((command, size), []).append(w)
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())} after {args.runs} runs")

    def median(table: dict[tuple[str, int], list[float]], command: str, size: int) -> float:
        return statistics.median(table[command, size])

    floored = statistics.median(floor)
    above = {key: [t - floored for t in times] for key, times in cpu.items()}
    base = sizes[0]
    print(
        f"\nmedians of {args.runs} runs, ms (ratio to the {base}-event campaign);"
        f" CPU above the import floor ({floored * 1000:.1f} ms of CPU)"
    )
    print(f"{'events':<16}" + "".join(f"{s:>20,}" for s in sizes))
    for command in commands:
        for name, table in (("CPU", cpu), ("wall", wall), ("above floor", above)):
            first = median(table, command, base)
            cells = "".join(
                f"{median(table, command, s) * 1000:>12.1f} ({median(table, command, s) / first:5.2f})"
                for s in sizes
            )
            print(f"{command:<6} {name:<11}{cells}")

    ok = True
    print()
    for command, size, against, most, over_floor in BUDGETS:
        if command not in commands or size not in sizes or against not in sizes:
            print(f"gm {command}: {size:,} against {against:,} events not measured")
            continue
        ratio = median(cpu, command, size) / median(cpu, command, against)
        wall_ratio = median(wall, command, size) / median(wall, command, against)
        own = median(above, command, size) / median(above, command, against)
        checked = own if over_floor else ratio
        met = checked <= most
        ok &= met
        on = "CPU above the floor" if over_floor else "CPU"
        print(
            f"gm {command:<6} {size:,} events / {against:,}: {on} {checked:5.2f}"
            f" (budget {most:g}: {'met' if met else 'EXCEEDED'});"
            f" CPU {ratio:.2f}, wall {wall_ratio:.2f}, CPU above the floor {own:.2f}"
        )
    print("all budgets met" if ok else "BUDGET EXCEEDED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
