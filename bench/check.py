"""The players' checker on threads of growing length: seconds, and linear.

Random legal games (as ``tests/conformance`` plays them: Le Magot, Colt
Express and Rattlesnake City for 2 to 6 players), published as protocol 3
would (``tests/check/emulate.py``, the stand-in for the proof producer until
gm's posts carry their blocks), then checked whole by ``gm.check``'s
``check_thread`` — reading, the chain re-hashed, the replay with every
command decided again, every post rendered again and compared line by line
— several times, interleaved game by game. For each thread: its size, the
median wall and CPU time, and the CPU time per 100 KB (flat when the
checker is linear). Played games are kept in ``--keep DIR`` (a SQLite file
per game) so that a second run only checks. Run:

    python bench/check.py [--runs 5] [--keep /tmp/gm-bench-check]

Measured: see the report of the checker's branch (docs/architecture.md,
« The players' checker »).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "tests" / "check")]

from emulate import Emulated, emulate  # noqa: E402
from playing import play  # noqa: E402

from gm.check.checker import check_thread  # noqa: E402
from gm.service.env import Env  # noqa: E402

GAMES = [("magot", 0), ("colt", 0), ("rattlesnake", 0), ("rattlesnake", 1), ("rattlesnake", 3)]
"""(game, seed) of the random games, from the shortest thread to the longest."""


def published(game_id: str, seed: int, keep: Path) -> Emulated:
    path = keep / f"{game_id}-{seed}.db"
    db = f"sqlite:///{path}"
    if not path.exists():
        print(f"playing {game_id} {seed}…", file=sys.stderr, flush=True)
        partial = path.with_suffix(".partial")
        partial.unlink(missing_ok=True)
        play(game_id, seed, f"sqlite:///{partial}")
        partial.rename(path)
    env = Env(db=db)
    (campaign,) = env.store.campaigns()
    return emulate(env, campaign.slug)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--keep", type=Path, default=Path("/tmp/gm-bench-check"))
    args = parser.parse_args()
    args.keep.mkdir(parents=True, exist_ok=True)
    threads = []
    for game_id, seed in GAMES:
        emulated = published(game_id, seed, args.keep)
        threads.append((f"{game_id}-{seed}", emulated, emulated.thread()))
    wall: dict[str, list[float]] = {name: [] for name, _, _ in threads}
    cpu: dict[str, list[float]] = {name: [] for name, _, _ in threads}
    for _ in range(args.runs):
        for name, emulated, text in threads:
            w, c = time.perf_counter(), time.process_time()
            outcome = check_thread([("fil.md", text)], renderer=emulated.render)
            wall[name].append(time.perf_counter() - w)
            cpu[name].append(time.process_time() - c)
            assert outcome.report.code == 0, outcome.report.text()
    print(f"{'thread':<16}{'posts':>7}{'KB':>8}{'wall s':>9}{'CPU s':>8}{'CPU s/100 KB':>14}")
    for name, emulated, text in threads:
        size = len(text.encode()) / 1000
        c = statistics.median(cpu[name])
        print(
            f"{name:<16}{len(emulated.posts):>7}{size:>8.0f}"
            f"{statistics.median(wall[name]):>9.2f}{c:>8.2f}{100 * c / size:>14.2f}"
        )
    print(f"(medians of {args.runs} runs, interleaved)")


if __name__ == "__main__":
    main()
