"""How long commands hold the write lock, against how long they take.

Plays the example campaigns (``campaigns/exemple-*.toml``) with ``gm play``
in a throw-away SQLite file, and times every write transaction (from the
lock taken to the commit), in wall-clock time, the campaign's creation
apart (once per campaign: its slug is taken under the lock). Several runs,
medians per transaction; prints, per game, the writes, the median and
longest time under the lock, the play's time and the share of it spent
under the lock. Run:

    python bench/lock.py [--runs 3]

Measured on the 2-CPU machine (2026-12-03, 3 runs, with other work running):

    with gm.service.pipeline (the lock only to write a drafted command)
    game                         writes  lock med ms  lock max ms  play ms   locked
    colt                            151         0.92         9.31     1001    35.3 %
    fistful                          59         0.69         1.14      171    25.0 %
    magot                            78         0.66         1.48      228    24.1 %
    rattlesnake-petite-vallee        39         0.74         1.19      154    19.5 %
    rattlesnake                      24         0.82         2.77      153    16.4 %

    before (each command decided and rendered under the lock)
    colt                            151        11.88        21.15     1658    96.9 %
    fistful                          59         3.99        15.20      409    96.9 %
    magot                            78         3.76        15.26      350    89.0 %
    rattlesnake-petite-vallee        39         3.05         5.73      140    94.9 %
    rattlesnake                      24         3.05         7.69       95    95.8 %

What is left under the lock is SQLite's commit (a synced write) and the
tip's check: 4-13 times shorter a wait for another MJ.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def measure(example: Path) -> tuple[list[float], float]:
    """The write transactions' times (ms) of one play of ``example``, and the
    play's time (ms), the campaign's creation apart."""
    from gm.service import campaigns, scenario
    from gm.service.env import Env
    from gm.store.log import Store

    locks: list[float] = []
    creating = [0.0]
    write, create = Store.write, campaigns.create

    @contextmanager
    def timed_write(self: Store, slug: str | None = None) -> Iterator[Any]:
        start = time.perf_counter()
        with write(self, slug) as w:
            yield w
        locks.append((time.perf_counter() - start) * 1000)

    def timed_create(*args: Any, **kwargs: Any) -> Any:
        start, before = time.perf_counter(), len(locks)
        try:
            return create(*args, **kwargs)
        finally:
            creating[0] += (time.perf_counter() - start) * 1000
            del locks[before:]  # once per campaign, with its slug taken under the lock

    Store.write = timed_write  # type: ignore[method-assign,assignment]
    campaigns.create = timed_create  # type: ignore[assignment]
    try:
        with tempfile.TemporaryDirectory() as tmp:
            env = Env(db=str(Path(tmp) / "bench.db"))
            start = time.perf_counter()
            scenario.play(env, example)
            played = (time.perf_counter() - start) * 1000 - creating[0]
            env.store.close()
    finally:
        Store.write = write  # type: ignore[method-assign]
        campaigns.create = create  # type: ignore[assignment]
    return locks, played


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args(argv)
    examples = sorted((ROOT / "campaigns").glob("exemple-*.toml"))
    print(f"{'game':<28}{'writes':>7}{'lock med ms':>13}{'lock max ms':>13}{'play ms':>9}{'locked':>9}")
    for example in examples:
        runs = [measure(example) for _ in range(args.runs)]
        locks = [statistics.median(x) for x in zip(*(r[0] for r in runs), strict=False)]
        played = statistics.median(r[1] for r in runs)
        name = example.stem.removeprefix("exemple-")
        print(
            f"{name:<28}{len(locks):>7}{statistics.median(locks):>13.2f}{max(locks):>13.2f}"
            f"{played:>9.0f}{100 * sum(locks) / played:>8.1f} %"
        )


if __name__ == "__main__":
    main(sys.argv[1:])
