"""Rattlesnake City benchmark: a drawn tile's every legal place, each with the
income track it would give (``income.legal_places``), on a half-filled
default board.

Budget (issue 16): listing a tile's legal places with their income takes
under 50 ms on the default board.

The valley: six players, their saloons in the six towns, then half the bag
(33 tiles, drawn from a seeded shuffle) placed where ``legal_places`` allows,
with permanent cards in front of some players. Each tile kind is then timed
several times in this one process, interleaved kind by kind; the median and
the worst run are printed. Loading the board (parsing, checking, the R-2
distance table, once per board) is timed apart. Run:

    python bench/rattlesnake.py [--runs 21]

Measured on the 2-CPU machine shared with other work (load average about
4, 21 runs): board load about 3 ms; every kind's median under 2 ms (the town
buildings, with about 20 free cells, about 1.5 ms; a rail tile about
0.1 ms), the worst run under 10 ms: all far under the budget.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time

from gm.games.rattlesnake.board import default_board_text, load_board
from gm.games.rattlesnake.cards import Card
from gm.games.rattlesnake.income import legal_places
from gm.games.rattlesnake.tiles import Layout, Placed, Tile, bag, legal_cells

BUDGET_MS = 50.0
PLAYERS = ("ana", "bob", "cyd", "dan", "eve", "fay")
PERMANENTS = {
    "ana": [Card.CUISINIER, Card.LILI],
    "bob": [Card.WHISKY],
    "cyd": [Card.CROQUE_MORT, Card.PUNAISES],
}


def half_filled(seed: int) -> Layout:
    board = load_board(default_board_text())
    rng = random.Random(seed)
    layout = Layout()
    for player in PLAYERS:
        cell = rng.choice(legal_cells(board, layout, Tile.SALOON))
        layout = layout.place(cell, Placed(Tile.SALOON, player, layout.next_seq))
    tiles = list(bag(board))
    rng.shuffle(tiles)
    for turn, kind in enumerate(tiles[: len(tiles) // 2]):
        places = legal_cells(board, layout, kind)
        if places:
            placer = PLAYERS[turn % len(PLAYERS)]
            layout = layout.place(rng.choice(places), Placed(kind, placer, layout.next_seq))
    return layout


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=21)
    parser.add_argument("--seed", type=int, default=16)
    args = parser.parse_args()
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} CPUs")

    loads = []
    for _ in range(args.runs):
        start = time.perf_counter()
        board = load_board(default_board_text())
        loads.append((time.perf_counter() - start) * 1000)
    print(f"board load (parse, check, distance table) median {statistics.median(loads):6.2f} ms")

    layout = half_filled(args.seed)
    filled = len(layout.tiles) + len(layout.rails)
    print(f"half-filled default board: {filled} tiles placed ({len(layout.rails)} rail tiles)")
    kinds = [k for k in Tile if k is not Tile.SALOON]
    times: dict[Tile, list[float]] = {k: [] for k in kinds}
    counts: dict[Tile, int] = {}
    for _ in range(args.runs):
        for kind in kinds:
            start = time.perf_counter()
            places = legal_places(board, layout, kind, "ana", PLAYERS, PERMANENTS)
            times[kind].append((time.perf_counter() - start) * 1000)
            counts[kind] = len(places)
    ok = True
    for kind in kinds:
        median, worst = statistics.median(times[kind]), max(times[kind])
        ok &= median < BUDGET_MS
        print(
            f"legal_places({kind.value:<9}) {counts[kind]:2d} places"
            f"  median {median:6.2f} ms  worst {worst:6.2f} ms  (budget {BUDGET_MS:.0f} ms)"
        )
    print("all budgets met" if ok else "BUDGET EXCEEDED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
