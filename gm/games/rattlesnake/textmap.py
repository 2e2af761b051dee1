"""The valley as a fixed-width text map: the templates' ``valley`` filter.

A post carries the map as text in a code block (the ``diagram`` filter), so
it must read alike in every forum's monospace font: every character is one
column wide — ASCII, Latin-1's ``·`` and ``¦``, and the box-drawing lines of
WGL4 (``═ ║ ╔ ╗ ╚ ╝ ┼``), which every monospace font carries; no emoji,
nothing that East Asian rules draw two columns wide.

The board is drawn on a lattice twice as fine as its grid:

* a *cell column* per grid column, as wide as the longest label it may ever
  hold — a free cell's name (``P5a``), a built cell's code and its owner's
  number (``Sa2``), a junction's id (``J1``) — and at least one character;
* a one-character *gutter* between two columns, so that two labels never
  touch, whatever the board;
* a *gutter row* between two grid rows, drawn only where the railway
  passes.

The railway has no geometry in the board file (R-1: links between ends,
slots in their order), so it is laid out here: a junction goes in the free
cell nearest to where the picture puts it (``picture.junction_places``),
and each link runs between its ends — a town's station cell, a junction —
through free cells and gutters, by a short path with few turns that crosses
another link only straight across and never runs along it. Its slots share
the path in their order, each drawn ``═``/``║`` when intact (printed
undamaged, or repaired) and ``·``/``¦`` when cut, with its id written on it
(``═R14═``) or beside it (``¦R1``). A slot that finds no room for its id, or
a link that finds no path, is written again under the map, from end to end
under ``UNDER`` (``de A7 à J1 : ·R1· ═R2═``), so that every slot can be
found.

The plan — column widths, the junctions' cells, the paths, where each id
goes — depends on the board alone: it is computed once per board, and every
post of a game draws the same frame. Only the labels of built cells and the
state of the slots change from one post to the next.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from .picture import junction_places

Point = tuple[int, int]
"""A lattice point ``(i, j)``: grid cell ``(x, y)`` is ``(2x, 2y)``; odd
coordinates are gutters."""
Char = tuple[int, int]
"""A character of the map: its column, and the lattice row it is drawn on."""
Step = tuple[int, int]

LEFT: Step = (-1, 0)
RIGHT: Step = (1, 0)
UP: Step = (0, -1)
DOWN: Step = (0, 1)
STEPS: tuple[Step, ...] = (RIGHT, DOWN, LEFT, UP)

INTACT: dict[frozenset[Step], str] = {
    frozenset({LEFT, RIGHT}): "═",
    frozenset({UP, DOWN}): "║",
    frozenset({RIGHT, DOWN}): "╔",
    frozenset({LEFT, DOWN}): "╗",
    frozenset({RIGHT, UP}): "╚",
    frozenset({LEFT, UP}): "╝",
}
"""An intact slot's characters, by the sides a character joins: a solid
double line, as rails are."""
CUT_ACROSS = "·"
CUT_DOWN = "¦"
"""A cut slot's characters: dotted across, a broken bar down (and a dot at
a bend) — the track is there, but broken."""
CROSSING = "┼"
"""Where one link passes straight over another."""
UNDER = "Tronçons sans numéro sur la carte :"
"""The heading of the links written again under the map, end to end."""

TURN_COST = 2
NEAR_LABEL_COST = 3
CROSSING_COST = 4
"""Path costs beyond one per lattice step: fewer bends, room beside labels
(a track against a label reads as joining it), and a crossing only when
going round costs more."""
MAX_GUTTER = 3
"""The widest gutter tried for a board whose slot ids do not all fit."""
CROWD_COST = 1.5
SHORT_COST = 100.0
"""What each named neighbour adds to a junction's squared distance from its
ideal place, and each link for which it would have no side left."""


@dataclass(frozen=True)
class Track:
    """A link as the plan lays it: its ends (station cell names or junction
    ids) in the order its slots count from, its slots in that order, and
    whether every one of them has its id on the map."""

    ends: tuple[str, str]
    slots: tuple[str, ...]
    complete: bool


@dataclass(frozen=True)
class Plan:
    """Everything of the map that depends on the board alone."""

    width: int
    """Characters in the widest line (the map's, or the lines under it)."""
    rows: tuple[int, ...]
    """The lattice rows drawn, top to bottom."""
    cells: Mapping[str, Char]
    """Each named cell's first character."""
    junctions: Mapping[str, Char]
    """Each junction drawn: its id's first character."""
    blocks: Mapping[str, int]
    """Characters of each named cell's and junction's column."""
    lines: Mapping[Char, tuple[str, frozenset[Step]]]
    """Each character of track: its slot, and the sides it joins."""
    crossings: frozenset[Char]
    fills: tuple[tuple[str, str], ...]
    """(label, slot): a station or junction whose track leaves to the right,
    from the end of its label (the rest of its column is track)."""
    labels: Mapping[str, Char]
    """Each slot whose id is on the map: its first character."""
    tracks: tuple[Track, ...]
    """Every link, in the order of the board file's slots."""


def valley(data: Mapping[str, Any]) -> str:
    """The fixed-width map of a ``views.valley_data``: lines of text for a
    code block, none wider than ``map_width(data)``."""
    plan = _plan_of(data)
    players = [str(p) for p in data.get("players") or ()]
    intact = {
        str(s["id"]): bool(s.get("printed")) or bool(s.get("repaired")) for s in data["slots"]
    }
    canvas = {j: [" "] * plan.width for j in plan.rows}

    def put(char: Char, text: str) -> None:
        col, row = char
        canvas[row][col : col + len(text)] = text

    for char, (slot, sides) in plan.lines.items():
        put(char, _glyph(sides, intact[slot]))
    for char in plan.crossings:
        put(char, CROSSING)
    labels: dict[str, str] = {j: j for j in plan.junctions}
    for cell in data["cells"]:
        labels[str(cell["name"])] = _cell_label(cell, players)
    for name, char in plan.cells.items():
        put(char, labels[name])
    for name, char in plan.junctions.items():
        put(char, name)
    for name, slot in plan.fills:
        col, row = plan.cells.get(name) or plan.junctions[name]
        start = col + len(labels[name])
        put(
            (start, row),
            _glyph(frozenset({LEFT, RIGHT}), intact[slot])
            * (plan.blocks[name] - len(labels[name])),
        )
    for slot, char in plan.labels.items():
        put(char, slot)
    lines = ["".join(canvas[j]).rstrip() for j in plan.rows]
    lines += _under(plan, intact)
    return "\n".join(lines)


def map_width(data: Mapping[str, Any]) -> int:
    """The widest a line of ``valley(data)`` may be, in characters (columns)."""
    return _plan_of(data).width


# --- labels and glyphs ---------------------------------------------------------------------------


def _tag_width(players: int) -> int:
    """Characters of an owner's number: one up to 9 players."""
    return len(str(max(players, 1)))


def _cell_label(cell: Mapping[str, Any], players: Sequence[str]) -> str:
    """A free cell's name; a built one's code and its owner's number
    (``Sa2``: the second player at the table), the code alone if nobody."""
    code = cell.get("code")
    if not code:
        return str(cell["name"])
    owner = cell.get("owner")
    return f"{code}{players.index(owner) + 1}" if owner in players else str(code)


def _glyph(sides: frozenset[Step], intact: bool) -> str:
    if intact:
        return INTACT.get(sides, "═")
    return CUT_DOWN if sides == frozenset({UP, DOWN}) else CUT_ACROSS


def _token(slot: str, intact: bool) -> str:
    mark = "═" if intact else CUT_ACROSS
    return f"{mark}{slot}{mark}"


def _under(plan: Plan, intact: Mapping[str, bool]) -> list[str]:
    """The links whose slots are not all named on the map, end to end,
    wrapped to the map's width."""
    out: list[str] = []
    for track in plan.tracks:
        if track.complete:
            continue
        if not out:
            out += ["", UNDER]
        line = f"de {track.ends[0]} à {track.ends[1]} :"
        for slot in track.slots:
            token = _token(slot, intact[slot])
            if len(line) + 1 + len(token) > plan.width:
                out.append(line)
                line = "  " + token
            else:
                line += " " + token
        out.append(line)
    return out


# --- the plan ---------------------------------------------------------------------------------


def _plan_of(data: Mapping[str, Any]) -> Plan:
    cells = tuple(
        (
            str(c["name"]),
            int(c["x"]),
            int(c["y"]),
            str(c.get("zone") or ""),
            str(c.get("area") or ""),
        )
        for c in data["cells"]
    )
    towns = tuple(str(t["id"]) for t in data["towns"])
    slots = tuple(
        (str(s["id"]), str(s["between"][0]), str(s["between"][1]), int(s.get("order") or rank))
        for rank, s in enumerate(data["slots"], 1)
    )
    tag = _tag_width(len(data.get("players") or ()))
    return _best_plan(int(data["width"]), int(data["height"]), tag, cells, towns, slots)


Cells = tuple[tuple[str, int, int, str, str], ...]
"""The named cells as the plan reads them: name, x, y, zone, area."""
Slots = tuple[tuple[str, str, str, int], ...]
"""The rail slots as the plan reads them: id, both ends, order."""


@lru_cache(maxsize=16)
def _best_plan(
    width: int, height: int, tag: int, cells: Cells, towns: tuple[str, ...], slots: Slots
) -> Plan:
    """The narrowest plan that names every slot on the map: gutters of one
    character, else wider ones (more room for ids along the track), up to
    ``MAX_GUTTER``; if none does, the one that leaves fewest ids out."""
    plans = []
    for gutter in range(1, MAX_GUTTER + 1):
        plan = _plan(width, height, tag, cells, towns, slots, gutter)
        missing = sum(len(t.slots) for t in plan.tracks if not t.complete)
        if not missing:
            return plan
        plans.append((missing, gutter, plan))
    return min(plans, key=lambda p: p[:2])[2]


def _plan(
    width: int,
    height: int,
    tag: int,
    cells: Cells,
    towns: tuple[str, ...],
    slots: Slots,
    gutter: int,
) -> Plan:
    named = {(x, y): name for name, x, y, _, _ in cells}
    station = {area: name for name, _, _, zone, area in cells if zone == "station"}
    where = {name: (x, y) for name, x, y, _, _ in cells}
    column = [1] * width
    for name, x, _, _, _ in cells:
        column[x] = max(column[x], len(name), 2 + tag)

    junctions = _junction_cells(width, height, cells, towns, slots, set(named))
    for junction, (x, _) in junctions.items():
        column[x] = max(column[x], len(junction))

    # the lattice: cell columns at even i, gutters at odd i
    size = [column[i // 2] if i % 2 == 0 else gutter for i in range(2 * width - 1)]
    left = [sum(size[:i]) for i in range(len(size))]
    canvas_width = sum(size)
    tall = 2 * height - 1

    label_at: dict[Point, str] = {(2 * x, 2 * y): name for (x, y), name in named.items()}
    label_at.update({(2 * x, 2 * y): j for j, (x, y) in junctions.items()})
    blocked = set(label_at)
    # the gutter between two labels side by side keeps them apart
    blocked |= {(i + 1, j) for (i, j) in label_at if (i + 2, j) in label_at}
    beside = {(i + d, j) for (i, j) in label_at for d in (-1, 1)}

    def end_point(end: str) -> Point | None:
        if end in junctions:
            x, y = junctions[end]
        elif end in station:
            x, y = where[station[end]]
        else:
            return None
        return (2 * x, 2 * y)

    def end_name(end: str) -> str:
        return station.get(end, end)

    links: dict[frozenset[str], list[tuple[str, str, str, int]]] = {}
    for slot in slots:
        links.setdefault(frozenset(slot[1:3]), []).append(slot)

    used: dict[Point, str] = {}  # "h", "v": a straight pass another link may cross; "x": not
    lines: dict[Char, tuple[str, frozenset[Step]]] = {}
    crossings: set[Char] = set()
    fills: list[tuple[str, str]] = []
    chunks: dict[str, list[Char]] = {}
    routed: list[tuple[tuple[str, str], tuple[str, ...], bool]] = []
    for group in links.values():
        a, b = group[0][1], group[0][2]
        ids = tuple(s[0] for s in sorted(group, key=lambda s: s[3]))
        start, goal = end_point(a), end_point(b)
        path = (
            _route(start, goal, (len(size), tall), blocked, used, beside)
            if start is not None and goal is not None
            else None
        )
        routed.append(((end_name(a), end_name(b)), ids, path is not None))
        if path is None:
            continue
        order: list[Char] = []
        sides_of: dict[Char, frozenset[Step]] = {}
        for k in range(1, len(path) - 1):
            (i, j), prev, nxt = path[k], path[k - 1], path[k + 1]
            came = (prev[0] - i, prev[1] - j)
            goes = (nxt[0] - i, nxt[1] - j)
            port = (left[i], j)
            rest = [(left[i] + o, j) for o in range(1, size[i])]
            here = (list(reversed(rest)) if came == RIGHT else []) + [port]
            here += rest if goes == RIGHT else []
            order += here
            for char in here:
                sides_of[char] = (
                    frozenset({came, goes}) if char == port else frozenset({LEFT, RIGHT})
                )
            if (i, j) in used:
                crossings.add(port)
                lines.pop(port, None)
                used[i, j] = "x"
            else:
                used[i, j] = (
                    "h"
                    if {came, goes} == {LEFT, RIGHT}
                    else "v"
                    if {came, goes} == {UP, DOWN}
                    else "x"
                )
        n = len(ids)
        for rank, slot_id in enumerate(ids):
            part = order[rank * len(order) // n : (rank + 1) * len(order) // n]
            chunks[slot_id] = part
            for char in part:
                if char not in crossings:
                    lines[char] = (slot_id, sides_of[char])
        if path[1][0] > path[0][0]:  # the track leaves its first end to the right
            fills.append((end_name(a), ids[0]))
        if path[-2][0] > path[-1][0]:
            fills.append((end_name(b), ids[-1]))

    cell_chars = {name: (left[2 * x], 2 * y) for name, (x, y) in where.items()}
    junction_chars = {j: (left[2 * x], 2 * y) for j, (x, y) in junctions.items()}
    blocks = {name: size[2 * x] for name, (x, _) in where.items()}
    blocks.update({j: size[2 * x] for j, (x, _) in junctions.items()})

    taken: set[Char] = set()  # characters of labels: cells' whole columns, junctions' ids
    for name, (col, row) in cell_chars.items():
        taken |= {(col + o, row) for o in range(blocks[name])}
    for junction, (col, row) in junction_chars.items():
        taken |= {(col + o, row) for o in range(len(junction))}
    track = set(lines) | crossings
    for name, _ in fills:
        col, row = cell_chars.get(name) or junction_chars[name]
        if name in junction_chars:
            track |= {(col + o, row) for o in range(len(name), blocks[name])}
    labels = _place_ids(chunks, lines, crossings, taken, track, (canvas_width, tall))

    tracks = tuple(
        Track(ends, ids, drawn and all(s in labels for s in ids)) for ends, ids, drawn in routed
    )
    drawn_rows = {row for _, row in (*track, *labels.values())}
    rows = [j for j in range(tall) if j % 2 == 0 or j in drawn_rows]
    full = drawn_rows | {row for _, row in taken}
    while rows and rows[0] not in full:
        rows.pop(0)
    while rows and rows[-1] not in full:
        rows.pop()
    plan = Plan(
        width=canvas_width,
        rows=tuple(rows),
        cells=cell_chars,
        junctions=junction_chars,
        blocks=blocks,
        lines=lines,
        crossings=frozenset(crossings),
        fills=tuple(fills),
        labels=labels,
        tracks=tracks,
    )
    under = _under(plan, {s[0]: True for s in slots})
    return replace(plan, width=max([canvas_width, *(len(u) for u in under)]))


def _junction_cells(
    width: int,
    height: int,
    cells: Cells,
    towns: tuple[str, ...],
    slots: Slots,
    occupied: set[tuple[int, int]],
) -> dict[str, tuple[int, int]]:
    """Each junction's cell: the free cell nearest to where the picture draws
    it (the middle of the grid for one that reaches no town), better with
    free neighbours, ties to the upper then the left one; none for a
    junction that finds no free cell."""
    view = {
        "cells": [{"name": n, "x": x, "y": y, "zone": z, "area": a} for n, x, y, z, a in cells],
        "towns": [{"id": t} for t in towns],
        "slots": [{"id": s, "between": [a, b]} for s, a, b, _ in slots],
    }
    places = junction_places(view)
    degree: dict[str, int] = {}
    for link in {frozenset((a, b)) for _, a, b, _ in slots}:
        for end in link:
            degree[end] = degree.get(end, 0) + 1
    ends = dict.fromkeys(end for _, a, b, _ in slots for end in (a, b))
    free = [(x, y) for y in range(height) for x in range(width) if (x, y) not in occupied]
    found: dict[str, tuple[int, int]] = {}
    for end in ends:
        if end in towns or not free:
            continue
        cx, cy = places.get(end, (width / 2, height / 2))
        links = degree[end]

        def cost(
            c: tuple[int, int], cx: float = cx, cy: float = cy, links: int = links
        ) -> tuple[float, int, int]:
            # Its track leaves a junction by its four sides: a label beside it
            # closes one (the gutter between two labels stays blank), the
            # grid's edge too; a label above or below makes the track bend.
            x, y = c
            sides = [
                x > 0 and (x - 1, y) not in occupied,
                x < width - 1 and (x + 1, y) not in occupied,
                y > 0,
                y < height - 1,
            ]
            crowd = sum((x + dx, y + dy) in occupied for dx, dy in STEPS)
            short = max(0, links - sum(sides))
            far = (x + 0.5 - cx) ** 2 + (y + 0.5 - cy) ** 2
            return (far + CROWD_COST * crowd + SHORT_COST * short, y, x)

        best = min(free, key=cost)
        free.remove(best)
        occupied.add(best)
        found[end] = best
    return found


def _route(
    start: Point,
    goal: Point,
    bounds: tuple[int, int],
    blocked: set[Point],
    used: Mapping[Point, str],
    beside: set[Point],
) -> list[Point] | None:
    """The cheapest lattice path from ``start`` to ``goal`` (both included):
    through no blocked point, and through a point another link uses only
    straight across it (never beside a label, where a crossing would read as
    a branch); None if there is none."""
    width, height = bounds
    # leaving or reaching an end across is no track against a label
    own = {(p[0] + d, p[1]) for p in (start, goal) for d in (-1, 1)}
    best: dict[tuple[Point, Step | None], int] = {(start, None): 0}
    back: dict[tuple[Point, Step | None], tuple[Point, Step | None]] = {}
    heap: list[tuple[int, int, Point, Step | None]] = [(0, 0, start, None)]
    seq = 0
    while heap:
        cost, _, point, came = heapq.heappop(heap)
        if point == goal:
            path = [point]
            state: tuple[Point, Step | None] = (point, came)
            while state in back:
                state = back[state]
                path.append(state[0])
            return path[::-1]
        if cost > best.get((point, came), cost):
            continue
        moves: Iterable[Step] = STEPS
        if point in used and came is not None:
            moves = (came,)  # straight across the other link
        for step in moves:
            nxt = (point[0] + step[0], point[1] + step[1])
            if not (0 <= nxt[0] < width and 0 <= nxt[1] < height):
                continue
            extra = 0
            if nxt != goal:
                if nxt in blocked:
                    continue
                if nxt in used:
                    across = "v" if step in (LEFT, RIGHT) else "h"
                    if used[nxt] != across or nxt in beside:
                        continue
                    extra += CROSSING_COST
                if nxt in beside and nxt not in own:
                    extra += NEAR_LABEL_COST
            if came is not None and step != came:
                extra += TURN_COST
            total = cost + 1 + extra
            key = (nxt, step)
            if total < best.get(key, total + 1):
                best[key] = total
                back[key] = (point, came)
                seq += 1
                heapq.heappush(heap, (total, seq, nxt, step))
    return None


def _place_ids(
    chunks: Mapping[str, list[Char]],
    lines: Mapping[Char, tuple[str, frozenset[Step]]],
    crossings: set[Char],
    taken: set[Char],
    track: set[Char],
    bounds: tuple[int, int],
) -> dict[str, Char]:
    """Where each slot's id goes: on a straight run of its own track across,
    with a character of it on each side (``═R14═``); else beside a character
    of its own track that goes down — a straight one first, then a bend on
    its open side — the id then followed by a space (``¦R1``, ``R1╔``); else
    just above or below a stretch of it across; none if nothing finds room.
    Ids never overwrite another label, and never touch one."""
    placed: dict[str, Char] = {}
    words: set[Char] = set(taken)
    width, tall = bounds

    def free(char: Char) -> bool:
        inside = 0 <= char[0] < width and 0 <= char[1] < tall
        return inside and char not in words and char not in track

    def room(first: Char, size: int, margin: Char) -> bool:
        """The id fits from ``first``, the character past its far end blank."""
        chars = [(first[0] + o, first[1]) for o in range(size)]
        edge = not 0 <= margin[0] < width
        return all(free(c) for c in chars) and (edge or free(margin))

    for slot, part in chunks.items():
        size = len(slot)
        spot: Char | None = None
        # across: runs of consecutive characters of one row, all of this slot
        runs: list[list[Char]] = [[]]
        for char in part:
            mine = char not in crossings and lines.get(char, ("",))[0] == slot
            last = runs[-1][-1] if runs[-1] else None
            if not mine:
                runs.append([])
            elif last and last[1] == char[1] and abs(last[0] - char[0]) == 1:
                runs[-1].append(char)
            else:
                runs.append([char])
        long = [sorted(r) for r in runs if len(r) >= size + 2]
        if long:
            run = max(long, key=len)
            spot = run[(len(run) - size) // 2]
        else:
            middle = (len(part) - 1) / 2
            downs = sorted(
                (
                    k
                    for k, c in enumerate(part)
                    if c in lines and lines[c][0] == slot and {UP, DOWN} & lines[c][1]
                ),
                key=lambda k: (lines[part[k]][1] != frozenset({UP, DOWN}), abs(k - middle), k),
            )
            for k in downs:
                (col, row), sides = part[k], lines[part[k]][1]
                if RIGHT not in sides and room((col + 1, row), size, (col + size + 1, row)):
                    spot = (col + 1, row)
                    break
                if LEFT not in sides and room((col - size, row), size, (col - size - 1, row)):
                    spot = (col - size, row)
                    break
        if spot is None:
            spot = _over(runs, size, room)
        if spot is None:
            continue
        col, row = spot
        if (col - 1, row) in words or (col + size, row) in words:
            continue  # an id against another label would read as one word
        placed[slot] = spot
        words |= {(col + o, row) for o in range(size)}
    return placed


def _over(
    runs: list[list[Char]], size: int, room: Callable[[Char, int, Char], bool]
) -> Char | None:
    """Where an id goes above or below the longest stretch of its track
    across that leaves room (centred on it, blank on both sides), if any."""
    for run in sorted((r for r in runs if r), key=len, reverse=True):
        row = run[0][1]
        middle = (min(c for c, _ in run) + max(c for c, _ in run) + 1) // 2
        first = middle - size // 2
        for other in (row - 1, row + 1):
            if room((first - 1, other), 1, (first - 1, other)) and room(
                (first, other), size, (first + size, other)
            ):
                return (first, other)
    return None
