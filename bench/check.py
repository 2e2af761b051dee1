"""The players' checker on threads of growing length: seconds, and linear.

Random legal games (as ``tests/conformance`` plays them: Le Magot, Colt
Express and Rattlesnake City for 2 to 6 players, then Le Magot for 20
players over 12 to 100 rounds), each post published with its proof block
(``tests/check/forum.py`` reads the thread from the store), then checked whole by ``gm.check``'s
``check_thread`` — reading, the chain re-hashed, the replay with every
command decided again, every post rendered again and compared line by line
— several times, interleaved game by game. For each thread: its size, the
median wall and CPU time, and the CPU time per 100 KB (flat when the
checker is linear). Played games are kept in ``--keep DIR`` (a SQLite file
per game) so that a second run only checks. Run:

    python bench/check.py [--runs 5] [--keep /tmp/gm-bench-check]

Measured on the 2-CPU machine (2026-12-03, 3 runs, real threads: each post
with the proof block gm published):

    thread            posts      KB   wall s   CPU s  CPU s/100 KB
    magot-0              28      73     0.32    0.20          0.27
    magot-20x12          40     142     0.78    0.53          0.37
    colt-0              115     217     1.25    0.83          0.38
    magot-20x25          79     284     1.31    0.91          0.32
    magot-20x50         154     577     2.81    1.80          0.31
    rattlesnake-0       472     665     4.42    2.98          0.45
    rattlesnake-1       505     710     4.89    3.30          0.46
    magot-20x100        304    1274     5.37    3.78          0.30

Linear: 0.3 s of CPU per 100 KB at Le Magot whatever the length (0.45 at
Rattlesnake City, whose views list every legal place of a tile), so a
1.4 MB thread takes about 4 s of CPU (the retired tools/gm_check.py took
43 s). Most of it is gm rendering every post again (the game's views and
templates, as when the MJ made them), then reading and the replay.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "tests" / "check")]

from forum import Forum, forum  # noqa: E402
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
) -> Forum:
    path, done = keep / f"{name}.db", keep / f"{name}.played"
    if not done.exists():
        print(f"playing {name}…", file=sys.stderr, flush=True)
        for stale in keep.glob(f"{name}.db*"):
            stale.unlink()
        play(game_id, seed, f"sqlite:///{path}", players=players, options=options,
             limit=50_000 if players else 0)  # fmt: skip
        done.touch()
    env = Env(db=f"sqlite:///{path}")
    (campaign,) = env.store.campaigns()
    return forum(env, campaign.slug)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--keep", type=Path, default=Path("/tmp/gm-bench-check"))
    args = parser.parse_args()
    args.keep.mkdir(parents=True, exist_ok=True)
    threads = []
    for name, *spec in GAMES:
        on_forum = published(name, *spec, args.keep)  # type: ignore[arg-type]
        threads.append((name, on_forum, on_forum.thread()))
    threads.sort(key=lambda t: len(t[2]))
    wall: dict[str, list[float]] = {name: [] for name, _, _ in threads}
    cpu: dict[str, list[float]] = {name: [] for name, _, _ in threads}
    for _ in range(args.runs):
        for name, on_forum, text in threads:
            w, c = time.perf_counter(), time.process_time()
            outcome = check_thread([("fil.md", text)], renderer=on_forum.render)
            wall[name].append(time.perf_counter() - w)
            cpu[name].append(time.process_time() - c)
            assert outcome.report.code == 0, outcome.report.text()
    print(f"{'thread':<16}{'posts':>7}{'KB':>8}{'wall s':>9}{'CPU s':>8}{'CPU s/100 KB':>14}")
    for name, on_forum, text in threads:
        size = len(text.encode()) / 1000
        c = statistics.median(cpu[name])
        print(
            f"{name:<16}{len(on_forum.posts):>7}{size:>8.0f}"
            f"{statistics.median(wall[name]):>9.2f}{c:>8.2f}{100 * c / size:>14.2f}"
        )
    print(f"(medians of {args.runs} runs, interleaved)")


if __name__ == "__main__":
    main()
