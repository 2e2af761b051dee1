"""SIGKILLs during every kind of write, 30 of each (brief « edges », part A).

Runs tests/reliability/test_crash.py (a Le Magot resolve) and
tests/reliability/test_kills.py (an import, a backup, a Rattlesnake City
poker resolution, the end of a Colt Express round) with ``GM_TEST_KILLS``
kills per kind instead of CI's few, and prints, for each kind, how many
kills found the command done and how many found it absent (every one left
a campaign that verifies and no half-written file, or the run fails).
Run:

    python bench/kills.py [--kills 30] [--postgresql]

On a 2-CPU machine shared with other work, 30 of each take about half an
hour: each kill starts a fresh gm process.

Measured there (2026-12-02, SQLite, load average about 8; every kill left a
campaign that verifies, the command wholly there or absent, and no file
half-written under its name):

=====================================  ====  ======
30 kills during                        done  absent
=====================================  ====  ======
a Le Magot resolve                        7      23
an import                                 5      25
a backup                                  3      27
a Rattlesnake City poker resolution       8      22
the end of a Colt Express round           5      25
=====================================  ====  ======

Random kills seldom land between a file written and named (none left a
``.partial`` file): tests/reliability/test_kills.py kills a gm there on
purpose, for a backup, an export and a chronicle.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parents[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=30)
    parser.add_argument(
        "--postgresql", action="store_true", help="the resolve on PostgreSQL too (GM_TEST_PG_URL)"
    )
    args = parser.parse_args()
    env = {**os.environ, "GM_TEST_KILLS": str(args.kills)}
    tests = [
        "tests/reliability/test_crash.py::test_a_killed_resolve_leaves_the_round_resolved_or_untouched"
    ]
    if not args.postgresql:
        tests[0] += "[sqlite]"
    tests.append("tests/reliability/test_kills.py")
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-x", *tests],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    for line in done.stdout.splitlines():
        if (
            line.startswith(("killed ", "FAILED", "ERROR"))
            or " passed" in line
            or " failed" in line
        ):
            print(line)
    if done.returncode != 0:
        print(done.stdout[-4000:], done.stderr[-2000:], sep="\n")
    return done.returncode


if __name__ == "__main__":
    sys.exit(main())
