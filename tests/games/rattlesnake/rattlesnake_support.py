"""A small hand-built valley for Rattlesnake City's tests, helpers to lay
tiles on a board, and random valleys (``random_valley``: a board file of
2 to 6 towns of any size, mountains, prairies and a railway of junctions
and links of 1 to 4 slots, on a grid of any size).

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

import random

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


def random_valley(rng: random.Random) -> str:
    """A board file drawn by ``rng``: towns grown cell by cell (mostly
    touching, sometimes scattered) with a station beside them or anywhere,
    mountains, prairies of 1 to 3 cells, and a railway joining every town
    through 0 to 3 junctions (a random tree, plus a link or two), each link
    of 1 to 4 slots, some damaged. About a third of the grid is named, so
    that the railway must find its way between crowded zones. Ids avoid the
    letters of other kinds of names (M, P, R, J), so that it always loads."""
    width, height = rng.randint(8, 24), rng.randint(6, 16)
    budget = width * height * 35 // 100
    free = {(x, y) for x in range(width) for y in range(height)}

    def take(cell: tuple[int, int]) -> list[int]:
        free.discard(cell)
        return list(cell)

    def around(cells: list[tuple[int, int]]) -> list[tuple[int, int]]:
        near = {(x + dx, y + dy) for x, y in cells for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))}
        return sorted(near & free)

    def crowded() -> bool:
        return width * height - len(free) > budget

    parts = [f"[grid]\nwidth = {width}\nheight = {height}\n"]
    towns: list[str] = []
    for letter in "ABCDEF"[: rng.randint(2, 6)]:
        if crowded() and len(towns) >= 2:
            break
        cells = [tuple(take(rng.choice(sorted(free))))]
        for _ in range(rng.randint(0, 7)):
            options = around(cells) if rng.random() < 0.85 else sorted(free)
            if options:
                cells.append(tuple(take(rng.choice(options))))
        beside = around(cells)
        station = take(rng.choice(beside if beside and rng.random() < 0.8 else sorted(free)))
        towns.append(letter)
        parts.append(
            f'[[towns]]\nid = "{letter}"\nname = "Ville {letter}"\n'
            f"cells = {[list(c) for c in cells]}\nstation = {station}\n"
        )
    mountains = ["[[mountains]]\n" + 'id = "M0"\n' + f"cell = {take(rng.choice(sorted(free)))}\n"]
    for n in range(1, rng.randint(1, 4)):
        if not crowded():
            mountains.append(
                f'[[mountains]]\nid = "M{n}"\ncell = {take(rng.choice(sorted(free)))}\n'
            )
    prairies = []
    for n in range(rng.randint(1, 6)):
        if n and crowded():
            break
        cells = [tuple(take(rng.choice(sorted(free))))]
        for _ in range(rng.randint(0, 2)):
            if around(cells[-1:]):
                cells.append(tuple(take(rng.choice(around(cells[-1:])))))
        prairies.append(f'[[prairies]]\nid = "P{n + 1}"\ncells = {[list(c) for c in cells]}\n')
    nodes = towns + [f"J{n + 1}" for n in range(rng.randint(0, 3))]
    rng.shuffle(nodes)
    links = {frozenset((node, rng.choice(nodes[:k]))) for k, node in enumerate(nodes) if k}
    for _ in range(rng.randint(0, 2)):
        links.add(frozenset(rng.sample(nodes, 2)))
    rails = []
    for link in sorted(links, key=sorted):
        a, b = sorted(link)
        for order in range(1, rng.randint(1, 4) + 1):
            rails.append(
                f'[[rails]]\nid = "R{len(rails) + 1}"\nbetween = ["{a}", "{b}"]\norder = {order}\n'
                f'shape = "{rng.choice(["droite", "courbe"])}"\n'
                f"damaged = {'true' if rng.random() < 0.6 else 'false'}\n"
            )
    return "\n".join([*parts, *mountains, *prairies, *rails])
