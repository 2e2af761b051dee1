"""The text map of Rattlesnake City's posts (``views.valley``, drawn by
``textmap``), checked the way a player reads it:

* the railway is there: every slot of the board by its id, on the map or,
  when the map has no room for it, in the lines under it (with the rest of
  its link, end to end) — on every board this project ships, on the map; a cut slot is drawn dotted (``·`` ``¦``),
  an intact one double (``═`` ``║``), and repairing a slot redraws only it;
* no two labels run together on any line, whatever the board: every word
  of the map is a cell's label, a junction's id or a slot's id, and each
  grid row's labels stand on one line, in order, each grid column's at one
  place (« P9aP9b » was the bug);
* a built cell shows its tile's code and its owner's number (the player it
  pays), numbered in the order of the table, names from the table: two
  players of one initial get two numbers, and a renamed player keeps hers;
* every character is one column wide and every line within the width the
  map computes: 73 columns on the default board, 77 with the code block's
  indentation.

Random valleys come from ``rattlesnake_support.random_valley``, with random
tiles built and rails repaired on them.
"""

from __future__ import annotations

import itertools
import random
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from hypothesis import given, settings
from hypothesis import strategies as st
from rattlesnake_support import SMALL, random_valley
from test_rattlesnake_valleys import UNEVEN

from gm.cli import cli
from gm.games.rattlesnake import rules, views
from gm.games.rattlesnake.board import Zone, load_board
from gm.games.rattlesnake.model import State
from gm.games.rattlesnake.textmap import UNDER, map_width
from gm.games.rattlesnake.tiles import Layout, Placed, Tile

ROOT = Path(__file__).resolve().parents[3]
BOARDS = {
    "default": None,
    "petite-vallee": (ROOT / "campaigns" / "petite-vallee.board.toml").read_text(encoding="utf-8"),
    "last-tile": (ROOT / "tests" / "scenarios" / "rattlesnake-last-tile.board.toml").read_text(
        encoding="utf-8"
    ),
    "threshold": (ROOT / "tests" / "scenarios" / "rattlesnake-threshold.board.toml").read_text(
        encoding="utf-8"
    ),
    "small": SMALL,
    "uneven": UNEVEN,
}
"""Every board this project ships or tests with."""
PLAYERS = ("ana", "bob", "cyd", "dan", "eve", "fay")

INTACT = set("═║╔╗╚╝")
CUT = set("·¦")
WORD = re.compile(r"[A-Za-z0-9]+")


def game(text: str | None = None, players: int = 3) -> State:
    options = {"board_text": text} if text else {}
    if text:
        players = min(players, len(load_board(text).towns))
    names = PLAYERS[:players]
    return rules.initial_state(names, rules.configure(names, options))


def with_layout(state: State, layout: Layout) -> State:
    return replace(state, layout=layout)


def split(text: str) -> tuple[list[str], list[str]]:
    """The map's lines, and the lines under it (the slots it had no room for)."""
    lines = text.split("\n")
    if UNDER in lines:
        at = lines.index(UNDER)
        return lines[: at - 1], lines[at + 1 :]
    return lines, []


def words(line: str) -> list[tuple[int, str]]:
    return [(m.start(), m.group()) for m in WORD.finditer(line)]


def neighbours(lines: list[str], row: int, col: int, size: int) -> Iterable[str]:
    """The characters touching a word (sides and diagonals included)."""
    for r in (row - 1, row, row + 1):
        if 0 <= r < len(lines):
            for c in range(col - 1, col + size + 1):
                if 0 <= c < len(lines[r]) and not (r == row and col <= c < col + size):
                    yield lines[r][c]


def expected_labels(data: dict[str, object]) -> dict[str, str]:
    """Each cell's label as a player should read it: its name, or its code
    and its owner's number in the table's order."""
    players = list(data["players"])  # type: ignore[call-overload]
    out = {}
    for cell in data["cells"]:  # type: ignore[attr-defined]
        if cell["code"]:
            out[cell["name"]] = f"{cell['code']}{players.index(cell['owner']) + 1}"
        else:
            out[cell["name"]] = cell["name"]
    return out


def check_map(data: dict[str, object]) -> tuple[list[str], list[str]]:
    """What a player checks on any map; returns the map's lines and those under it."""
    text = views.valley(data)
    width = map_width(data)
    for line in text.split("\n"):
        assert len(line) <= width, (line, width)
        for char in line:
            assert char.isprintable() and not unicodedata.combining(char), repr(char)
            assert unicodedata.east_asian_width(char) not in ("W", "F"), repr(char)
            assert ord(char) < 0x1F000, repr(char)  # no emoji
    lines, under = split(text)
    labels = expected_labels(data)
    cells = {c["name"]: c for c in data["cells"]}  # type: ignore[attr-defined]
    slots = {s["id"]: s for s in data["slots"]}  # type: ignore[attr-defined]
    junctions = set(data["junctions"])  # type: ignore[call-overload]
    shown = set(labels.values())

    # every word on the map is a label: two labels that touched would make a word of none
    for line in lines:
        for _, word in words(line):
            assert word in shown or word in slots or word in junctions, (word, line)

    # each grid row's labels on one line, in order; each grid column's at one place
    rows: dict[int, list[tuple[int, str]]] = {}
    for name, cell in cells.items():
        rows.setdefault(cell["y"], []).append((cell["x"], labels[name]))
    found = [[w for _, w in words(line) if w in shown] for line in lines]
    lines_with_cells = [k for k, f in enumerate(found) if f]
    assert [found[k] for k in lines_with_cells] == [
        [label for _, label in sorted(rows[y])] for y in sorted(rows)
    ]
    column_of: dict[int, int] = {}
    for k, y in zip(lines_with_cells, sorted(rows), strict=True):
        at = [(col, w) for col, w in words(lines[k]) if w in shown]
        for (x, _), (col, _) in zip(sorted(rows[y]), at, strict=True):
            assert column_of.setdefault(x, col) == col, (x, y)
        # two squares side by side on the grid: blank space between their labels
        for ((x0, _), (c0, w0)), ((x1, _), (c1, _)) in itertools.pairwise(
            zip(sorted(rows[y]), at, strict=True)
        ):
            if x1 == x0 + 1:
                gap = lines[k][c0 + len(w0) : c1]
                assert gap and not gap.strip(), (lines[k], x0, y)

    # every slot on the map, or under it with the rest of its link; drawn in its state's glyphs
    on_map = [(lines, k, col, w) for k, line in enumerate(lines) for col, w in words(line)]
    listed = [(under, k, col, w) for k, line in enumerate(under) for col, w in words(line)]
    for part in (on_map, listed):
        ids = [w for _, _, _, w in part if w in slots]
        assert len(ids) == len(set(ids)), "a slot at most once on the map, once under it"
    named = {w for _, _, _, w in on_map} | {w for _, _, _, w in listed}
    assert set(slots) <= named, "every slot somewhere"
    every = on_map + listed
    for where, k, col, word in every:
        if word not in slots:
            continue
        slot = slots[word]
        own = INTACT if slot["printed"] or slot["repaired"] else CUT
        if where is under:  # « ·R1· », « ═R2═ »
            line = under[k]
            assert {line[col - 1], line[col + len(word)]} <= own, (word, line)
        else:
            around = set(neighbours(where, k, col, len(word)))
            assert around & own, (word, "drawn in its state's glyphs")
    return lines, under


# --- the default board ---------------------------------------------------------------------


def test_the_default_map_draws_the_railway_within_80_columns() -> None:
    state = game()
    data = views.valley_data(state)
    lines, under = check_map(data)
    assert under == [], "every slot named on the map itself"
    # 73 columns, 77 in the code block (four spaces of indentation)
    assert map_width(data) == 73 and max(map(len, lines)) <= 76
    text = "\n".join(lines)
    # the cut slots dotted, the printed ones double: R1 down from A7, R13…R16 across
    assert re.search(r"¦R1\b", text) and re.search(r"·R13·", text)
    assert re.search(r"═R14═", text) and re.search(r"═R15═", text)
    # the two cells of P9, side by side on the grid, apart on the map
    assert re.search(r"\bP9a +P9b\b", text)
    assert "P9aP9b" not in text


def test_repairing_a_slot_redraws_it_alone() -> None:
    state = game()
    before = views.valley(views.valley_data(state))
    after = views.valley(views.valley_data(with_layout(state, Layout({}, frozenset({"R1"})))))
    assert re.search(r"║R1\b", after) and not re.search(r"║R1\b", before)
    old, new = before.split("\n"), after.split("\n")
    assert len(old) == len(new) and [len(a) for a in old] == [len(b) for b in new]
    changed = [
        (a, b) for x, y in zip(old, new, strict=True) for a, b in zip(x, y, strict=True) if a != b
    ]
    # only dotted characters became double ones, on R1's stretch (A7 to J1: at most four)
    assert changed and all(a in CUT and b in INTACT for a, b in changed)
    assert len(changed) <= 4
    assert re.search(r"¦R2\b", after)  # its neighbour still cut


@pytest.mark.parametrize("name", list(BOARDS))
def test_every_board_shipped_has_its_whole_railway_on_the_map(name: str) -> None:
    data = views.valley_data(game(BOARDS[name]))
    lines, under = check_map(data)
    assert under == []
    text = "\n".join(lines)
    for slot in data["slots"]:
        assert re.search(rf"(?<![A-Za-z0-9]){slot['id']}(?![A-Za-z0-9])", text)


def test_a_built_cell_shows_its_code_and_its_owner() -> None:
    state = game(players=3)
    layout = Layout(
        {
            "A2": Placed(Tile.SALOON, "ana", 1),
            "B5": Placed(Tile.SALOON, "bob", 2),
            "C1": Placed(Tile.SALOON, "cyd", 3),
            "A3": Placed(Tile.BANQUE, "bob", 4),  # placed by bob, pays ana (her saloon is nearest)
            "M2": Placed(Tile.MINE, "cyd", 5),
        }
    )
    free = views.valley(views.valley_data(state)).split("\n")
    data = views.valley_data(with_layout(state, layout))
    lines, _ = check_map(data)
    built = {"A2": "Sa1", "B5": "Sa2", "C1": "Sa3", "A3": "Bq1", "M2": "Mi3"}
    for name, label in built.items():
        # where the free cell's name stood, in the same frame
        row = next(k for k, line in enumerate(free) if re.search(rf"\b{name}\b", line))
        col = free[row].index(name)
        assert lines[row][col : col + len(label)] == label, name
    assert len(lines) == len(free)


def test_owners_are_numbered_by_the_table_with_their_table_names() -> None:
    # ana and alex share an initial: numbers tell them apart
    names = ("ana", "alex")
    state = rules.initial_state(names, rules.configure(names, {}))
    layout = Layout({"A1": Placed(Tile.SALOON, "ana", 1), "F6": Placed(Tile.SALOON, "alex", 2)})
    table = {"ana": "Anaïs", "alex": "Alexandre"}
    data = views.valley_data(with_layout(state, layout), lambda seat: table.get(seat, seat))
    assert data["players"] == ["Anaïs", "Alexandre"]
    lines, _ = check_map(data)
    text = "\n".join(lines)
    assert re.search(r"\bSa1\b", text) and re.search(r"\bSa2\b", text)
    assert "Anaïs" not in text and "ana" not in text  # names in the legend, not in the drawing


def gm(db: str, *args: str) -> Result:
    return CliRunner().invoke(cli, ["--db", db, *args])


def test_the_post_numbers_the_players_in_its_legend(db: str) -> None:
    assert (
        gm(db, "new", "rattlesnake", "-t", "S", "-p", "ana,alex,bob", "--seed", "x").exit_code == 0
    )
    assert gm(db, "setup").exit_code == 0
    for player, cell in (
        ("bob", "A2"),
        ("ana", "B5"),
        ("alex", "C1"),
    ):  # the fortune drew bob first
        assert gm(db, "order", player, cell).exit_code == 0, player
    first = gm(db, "post", "turn", "1", "--format", "markdown").output
    assert "Numéros des joueurs\u00a0: 1 ana · 2 alex · 3 bob." in first
    # a renamed player keeps her number; the next turn's map says so
    assert gm(db, "rename", "alex", "Alexandre").exit_code == 0
    for order in ("A1", "action", "fin"):  # alex's turn 1: her tile, a card, the income
        assert gm(db, "order", "Alexandre", order).exit_code == 0, order
    post = gm(db, "post", "turn", "2", "--format", "markdown").output
    assert "Numéros des joueurs\u00a0: 1 ana · 2 Alexandre · 3 bob." in post
    block = " ".join(line for line in post.split("\n") if line.startswith("    "))
    # bob's saloon in A2 and the shérif beside it in A1 (it pays bob), alex's in C1
    # on that row of the grid, then ana's in B5 on the next
    assert re.search(r"\bSh3 +Sa3\b.*\bSa2\b.*\bSa1\b", block)
    assert (
        "en pointillé, un tronçon coupé" in post and "J1, J2, J3\u00a0: les embranchements" in post
    )


# --- random valleys ------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 6), built=st.floats(0, 1))
def test_any_valley_keeps_its_labels_apart_and_its_railway_drawn(
    seed: int, players: int, built: float
) -> None:
    rng = random.Random(seed)
    text = random_valley(rng)
    state = game(text, players)
    board = state.board
    names = state.players
    tiles: dict[str, Placed] = {}
    towns = list(board.towns)
    rng.shuffle(towns)
    for player, town in zip(names, towns, strict=False):  # a saloon each, in a town of its own
        tiles[rng.choice(town.cell_names)] = Placed(Tile.SALOON, player, len(tiles) + 1)
    kinds = {
        Zone.BUILDING: [Tile.BANQUE, Tile.HOTEL, Tile.EGLISE, Tile.CIMETIERE],
        Zone.STATION: [Tile.GARE],
        Zone.MINE: [Tile.MINE],
        Zone.PRAIRIE: [Tile.RANCH],
    }
    for name, spot in board.spots.items():
        if name not in tiles and rng.random() < built:
            tiles[name] = Placed(rng.choice(kinds[spot.zone]), rng.choice(names), len(tiles) + 1)
    rails = frozenset(s.id for s in board.damaged_slots if rng.random() < 0.5)
    check_map(views.valley_data(with_layout(state, Layout(tiles, rails))))


def test_a_crowded_valley_lists_under_the_map_what_it_cannot_name() -> None:
    # a station hemmed in by its town and the grid's edge: three links cannot all leave it
    text = """\
[grid]
width = 6
height = 4

[[towns]]
id = "A"
name = "Alpha"
cells = [[0, 0], [1, 0], [1, 1]]
station = [0, 1]

[[towns]]
id = "B"
name = "Bravo"
cells = [[5, 0]]
station = [5, 3]

[[towns]]
id = "C"
name = "Charlie"
cells = [[3, 3]]
station = [2, 3]

[[mountains]]
id = "M1"
cell = [0, 2]

[[prairies]]
id = "P1"
cells = [[4, 0]]

[[rails]]
id = "R1"
between = ["A", "B"]
order = 1
shape = "droite"
damaged = true

[[rails]]
id = "R2"
between = ["A", "C"]
order = 1
shape = "droite"
damaged = false

[[rails]]
id = "R3"
between = ["A", "J1"]
order = 1
shape = "courbe"
damaged = true

[[rails]]
id = "R4"
between = ["J1", "B"]
order = 1
shape = "courbe"
damaged = false
"""
    data = views.valley_data(game(text, 2))
    _, under = check_map(data)
    # the links find their ways in the file's order: R3, the third out of A4, finds none
    assert under == ["de A4 à J1 : ·R3·"]
