"""A small hand-built valley for Rattlesnake City's tests, and helpers to lay
tiles on a board.

The valley (15 × 8 cells; x right, y down)::

    x:  0  1  2  3  4  5  6  7  8  9 10 11 12 13 14
    y0  A1 A2 A3 .  .  .  .  M1 .  .  .  .  B1 B2 B3
    y1  A4 A5 A6 .  .  .  .  .  .  .  .  .  B4 B5 B6
    y2  .  A7 .  .  .  .  .  .  .  .  .  .  .  B7 .
    y3  .  .  .  .  .  .  .  P1 .  .  .  .  .  .  .
    y4  .  .  .  .  .  .  .  M2 .  .  .  .  .  .  .
    y5  .  .  .  .  .  .  .  C7 .  .  .  .  .  .  .
    y6  .  .  .  .  .  .  C1 C2 C3 .  .  .  .  .  .
    y7  P2a P2b .  .  .  .  C4 C5 C6 .  .  .  .  .  .

Railway: A –R1 (damaged, droite)– J1 –R2 (printed, droite)– B, and
J1 –R3 (damaged, courbe), R4 (printed, courbe)– C.

R-2 distances used by the tests, squared, ``max(|dx|-1,0)² + max(|dy|-1,0)²``:
M1 (7,0) to A3 (2,0) and to B1 (12,0): dx 5 → 4² = 16, a tie; to A6 (2,1)
and B4 (12,1): 16 too; to A1 (0,0) and B3 (14,0): 6² = 36; to C2 (7,6): 5² =
25. C2 (7,6) to A1 (0,0) and to B3 (14,0): 6² + 5² = 61, a tie; C5 (7,7):
6² + 6² = 72 to both. M2 (7,4) to C1 (6,6): 0 + 1² = 1; to A6 (2,1):
4² + 2² = 20.
"""

from __future__ import annotations

from gm.games.rattlesnake.board import Board, load_board
from gm.games.rattlesnake.tiles import Layout, Placed, Tile

SMALL = """\
[grid]
width = 15
height = 8

[[towns]]
id = "A"
name = "Alpha"
cells = [[0, 0], [1, 0], [2, 0], [0, 1], [1, 1], [2, 1]]
station = [1, 2]

[[towns]]
id = "B"
name = "Bravo"
cells = [[12, 0], [13, 0], [14, 0], [12, 1], [13, 1], [14, 1]]
station = [13, 2]

[[towns]]
id = "C"
name = "Charlie"
cells = [[6, 6], [7, 6], [8, 6], [6, 7], [7, 7], [8, 7]]
station = [7, 5]

[[mountains]]
id = "M1"
cell = [7, 0]

[[mountains]]
id = "M2"
cell = [7, 4]

[[prairies]]
id = "P1"
cells = [[7, 3]]

[[prairies]]
id = "P2"
cells = [[0, 7], [1, 7]]

[[rails]]
id = "R1"
between = ["A", "J1"]
order = 1
shape = "droite"
damaged = true

[[rails]]
id = "R2"
between = ["J1", "B"]
order = 1
shape = "droite"
damaged = false

[[rails]]
id = "R3"
between = ["J1", "C"]
order = 1
shape = "courbe"
damaged = true

[[rails]]
id = "R4"
between = ["J1", "C"]
order = 2
shape = "courbe"
damaged = false
"""


def small() -> Board:
    return load_board(SMALL)


def lay(*tiles: tuple[str, Tile, str], rails: tuple[str, ...] = ()) -> Layout:
    """A layout from ``(cell, kind, placer)`` in placement order (seq 1, 2…)."""
    return Layout(
        {cell: Placed(kind, placer, seq) for seq, (cell, kind, placer) in enumerate(tiles, 1)},
        frozenset(rails),
    )
