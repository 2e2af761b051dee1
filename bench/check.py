"""The players' checker on threads of growing length: seconds, and linear.

Random legal games (as ``tests/conformance`` plays them: Le Magot, Colt
Express and Rattlesnake City for 2 to 6 players, then Le Magot for 20
players over 12 to 100 rounds), published as protocol 3
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

TABLE = [f"j{i:02}" for i in range(1, 21)]
LOOT = "5000:200,10000:200,20000:100"
GAMES: list[tuple[str, str, int, list[str] | None, dict[str, str] | None]] = [
    ("magot-0", "magot", 0, None, None),
    ("colt-0", "colt", 0, None, None),
    ("rattlesnake-0", "rattlesnake", 0, None, None),
    ("rattlesnake-1", "rattlesnake", 1, None, None),
    *[
        (f"magot-20x{r}", "magot", 0, TABLE, {"rounds": str(r), "loot": LOOT})
        for r in (12, 25, 50, 100)
    ],
]
"""(name, game, seed, players, options) of the random games: the conformance
test's own (2 to 6 players), then Le Magot for 20 players over 12 to 100
rounds (the largest table and game gm allows: a thread of about 1.2 MB)."""


def published(
    name: str,
    game_id: str,
    seed: int,
    players: list[str] | None,
    options: dict[str, str] | None,
    keep: Path,
) -> Emulated:
    path = keep / f"{name}.db"
    if not path.exists():
        print(f"playing {name}…", file=sys.stderr, flush=True)
        partial = path.with_suffix(".partial")
        partial.unlink(missing_ok=True)
        play(game_id, seed, f"sqlite:///{partial}", players=players, options=options,
             limit=50_000 if players else 0)  # fmt: skip
        partial.rename(path)
    env = Env(db=f"sqlite:///{path}")
    (campaign,) = env.store.campaigns()
    return emulate(env, campaign.slug)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--keep", type=Path, default=Path("/tmp/gm-bench-check"))
    args = parser.parse_args()
    args.keep.mkdir(parents=True, exist_ok=True)
    threads = []
    for name, *spec in GAMES:
        emulated = published(name, *spec, args.keep)  # type: ignore[arg-type]
        threads.append((name, emulated, emulated.thread()))
    threads.sort(key=lambda t: len(t[2]))
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
