"""The valley of Rattlesnake City as data: a board file, checked, named, measured.

The printed board is replaced by a TOML file (R-1; the default one is the
package file ``board.toml``): a grid of unit cells holding towns (building
cells, six on the default board but any number on another, and a station
cell each), mountains (one mine cell each),
prairies, and the railway's slots on links between towns and junctions.
This module owns:

* ``load_board(text)``: the file read and checked, or a ``BoardError`` that
  names the cell or id at fault and why, so that an MJ can fix the file;
* the cells' names (R-11: ``A1``…``A6`` a town's building cells in file
  order, ``A7`` its station cell, ``M1``, ``P3``, ``P5a``/``P5b``, slots
  ``R1``) both ways;
* distances (R-2: between the nearest corners of two cells, squared, so
  integers and exact ties) and ``nearest``, which returns every tied cell:
  the callers apply the tie-breaks (R-4, R-5, R-14);
* rail networks: which towns the intact track joins.

Nothing here knows what stands on the board: tiles and income take a
``Board`` and a placement of their own (``tiles.Layout``).
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cache
from importlib import resources
from typing import Any, NoReturn

from gm.errors import InputError

Cell = tuple[int, int]
"""A cell's coordinates ``(x, y)``: x to the right, y down, from 0."""

SHAPES: tuple[str, ...] = ("droite", "courbe")
"""The shapes of a rail slot (and of the rail tile that repairs it)."""

BUILDING_CELLS = 6
"""Building cells per town on the default board (the station cell comes on
top); another board's towns may have any number from 1 (R-1)."""

BOARD_FILE = "board.toml"
"""The default board, a data file of this package."""

_ID = re.compile(r"[A-Za-z][A-Za-z0-9]*\Z")
_JUNCTION = re.compile(r"J[0-9]+\Z")
_PRAIRIE_LETTERS = "abcdefghijklmnopqrstuvwxyz"


class BoardError(InputError):
    """A board file that gm cannot use: not TOML, or not a valley (R-1)."""

    code = "rattlesnake/board"


class Zone(StrEnum):
    """What a named cell is for."""

    BUILDING = "building"  # a town's building cell
    STATION = "station"  # a town's station cell, reserved for a gare
    MINE = "mine"  # a mountain's mine cell
    PRAIRIE = "prairie"  # a prairie's cell, for a ranch


@dataclass(frozen=True)
class Town:
    """A town: its building cells in file order (at least one), and its station cell."""

    id: str
    name: str
    cells: tuple[Cell, ...]
    station: Cell

    @property
    def cell_names(self) -> tuple[str, ...]:
        """The building cells' names (R-11): ``A1``…``A6`` on the default board."""
        return tuple(f"{self.id}{i}" for i in range(1, len(self.cells) + 1))

    @property
    def station_name(self) -> str:
        """The station cell's name (R-11): the next number (``A7`` after six cells)."""
        return f"{self.id}{len(self.cells) + 1}"


@dataclass(frozen=True)
class Mountain:
    """A mountain: one mine cell, named by the mountain (``M1``)."""

    id: str
    cell: Cell


@dataclass(frozen=True)
class Prairie:
    """A prairie: its cells in file order; it holds as many ranches as cells."""

    id: str
    cells: tuple[Cell, ...]

    @property
    def cell_names(self) -> tuple[str, ...]:
        """``P3`` for a one-cell prairie, else ``P5a``, ``P5b``… (R-11)."""
        if len(self.cells) == 1:
            return (self.id,)
        return tuple(self.id + letter for letter in _PRAIRIE_LETTERS[: len(self.cells)])


@dataclass(frozen=True)
class Slot:
    """A rail slot: on the link ``between`` two ends (towns or junctions),
    at rank ``order`` along it, of a shape; ``damaged`` if printed broken."""

    id: str
    between: tuple[str, str]
    order: int
    shape: str
    damaged: bool

    @property
    def link(self) -> frozenset[str]:
        """The link the slot lies on, whichever way the file wrote it."""
        return frozenset(self.between)


@dataclass(frozen=True)
class Spot:
    """A named cell: its name (R-11), coordinates, use, and the id of the
    town, mountain or prairie it belongs to."""

    name: str
    cell: Cell
    zone: Zone
    area: str


@dataclass(frozen=True)
class Board:
    """A checked valley. Build it with ``load_board``; the lookups and the
    distance table are computed once, when it is made."""

    width: int
    height: int
    towns: tuple[Town, ...]
    mountains: tuple[Mountain, ...]
    prairies: tuple[Prairie, ...]
    slots: tuple[Slot, ...]
    spots: Mapping[str, Spot] = field(init=False, repr=False, compare=False)
    """Every named cell by name, in board order (towns A1…A7, B1…, mountains, prairies)."""
    _folded: Mapping[str, str] = field(init=False, repr=False, compare=False)
    _by_cell: Mapping[Cell, str] = field(init=False, repr=False, compare=False)
    _dist: Mapping[str, Mapping[str, int]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        spots: dict[str, Spot] = {}
        for town in self.towns:
            for name, cell in zip(town.cell_names, town.cells, strict=True):
                spots[name] = Spot(name, cell, Zone.BUILDING, town.id)
            spots[town.station_name] = Spot(town.station_name, town.station, Zone.STATION, town.id)
        for mountain in self.mountains:
            spots[mountain.id] = Spot(mountain.id, mountain.cell, Zone.MINE, mountain.id)
        for prairie in self.prairies:
            for name, cell in zip(prairie.cell_names, prairie.cells, strict=True):
                spots[name] = Spot(name, cell, Zone.PRAIRIE, prairie.id)
        folded = {name.casefold(): name for name in spots}
        folded.update({slot.id.casefold(): slot.id for slot in self.slots})
        # R-2, precomputed: every tile's income asks for these distances.
        dist = {
            a.name: {b.name: dist2(a.cell, b.cell) for b in spots.values()} for a in spots.values()
        }
        object.__setattr__(self, "spots", spots)
        object.__setattr__(self, "_folded", folded)
        object.__setattr__(self, "_by_cell", {s.cell: s.name for s in spots.values()})
        object.__setattr__(self, "_dist", dist)

    # --- names (R-11) ---------------------------------------------------------

    @property
    def names(self) -> tuple[str, ...]:
        """Every cell's name, in board order."""
        return tuple(self.spots)

    @property
    def slot_ids(self) -> tuple[str, ...]:
        """Every rail slot's id, in file order."""
        return tuple(slot.id for slot in self.slots)

    def find(self, text: str) -> str | None:
        """The cell or slot ``text`` names, case ignored (``a7`` → ``A7``), or None."""
        return self._folded.get(text.strip().casefold())

    def spot(self, name: str) -> Spot:
        """The named cell ``name`` (exact spelling; see ``find``).

        :raises KeyError: no cell has that name.
        """
        return self.spots[name]

    def name_at(self, cell: Cell) -> str | None:
        """The name of the cell at ``(x, y)``, or None if it is in no zone."""
        return self._by_cell.get(cell)

    def slot(self, slot_id: str) -> Slot:
        """The rail slot ``slot_id`` (exact spelling).

        :raises KeyError: no slot has that id.
        """
        for slot in self.slots:
            if slot.id == slot_id:
                return slot
        raise KeyError(slot_id)

    def town(self, town_id: str) -> Town:
        """The town ``town_id``.

        :raises KeyError: no town has that id.
        """
        for town in self.towns:
            if town.id == town_id:
                return town
        raise KeyError(town_id)

    def town_of(self, name: str) -> str | None:
        """The id of the town whose building or station cell ``name`` is, else None."""
        spot = self.spots.get(name)
        if spot is None or spot.zone not in (Zone.BUILDING, Zone.STATION):
            return None
        return spot.area

    # --- distances (R-2) ------------------------------------------------------

    def dist2(self, a: str, b: str) -> int:
        """The squared corner distance between the cells named ``a`` and ``b``."""
        return self._dist[a][b]

    def nearest(self, name: str, candidates: Iterable[str]) -> tuple[str, ...]:
        """The ``candidates`` (cell names) nearest to the cell ``name``, every
        one tied at the shortest distance, in the order given; () if none."""
        row = self._dist[name]
        best: list[str] = []
        shortest = -1
        for other in candidates:
            d = row[other]
            if shortest < 0 or d < shortest:
                best, shortest = [other], d
            elif d == shortest:
                best.append(other)
        return tuple(best)

    # --- the railway ----------------------------------------------------------

    @property
    def damaged_slots(self) -> tuple[Slot, ...]:
        """The slots printed damaged: the only ones a rail tile may repair."""
        return tuple(slot for slot in self.slots if slot.damaged)

    def networks(self, repaired: Iterable[str] = ()) -> tuple[frozenset[str], ...]:
        """The towns the intact track joins, one set per network, every town
        in exactly one (alone if nothing joins it), in town order.

        A slot is intact when printed undamaged or holding a rail tile (its
        id in ``repaired``); a link between two ends (towns or junctions)
        carries trains only when every slot on it is intact; networks are
        the connected groups of towns through such links and junctions.
        """
        fixed = set(repaired)
        parent: dict[str, str] = {}

        def root(node: str) -> str:
            parent.setdefault(node, node)
            while parent[node] != node:
                parent[node] = parent[parent[node]]
                node = parent[node]
            return node

        broken: set[frozenset[str]] = set()
        links: set[frozenset[str]] = set()
        for slot in self.slots:
            links.add(slot.link)
            if slot.damaged and slot.id not in fixed:
                broken.add(slot.link)
        for link in links - broken:
            a, b = sorted(link)
            parent[root(a)] = root(b)
        groups: dict[str, list[str]] = {}
        for town in self.towns:
            groups.setdefault(root(town.id), []).append(town.id)
        return tuple(frozenset(group) for group in groups.values())


def dist2(a: Cell, b: Cell) -> int:
    """R-2: the squared distance between the nearest corners of two unit
    cells, ``max(|dx|-1, 0)² + max(|dy|-1, 0)²`` (0 for touching cells)."""
    dx = max(abs(a[0] - b[0]) - 1, 0)
    dy = max(abs(a[1] - b[1]) - 1, 0)
    return dx * dx + dy * dy


# --- loading and checking a board file -------------------------------------------


def _fail(where: str, reason: str) -> NoReturn:
    raise BoardError(f"board file: {where}: {reason}", params={"where": where, "reason": reason})


def _type_name(value: object) -> str:
    return {
        bool: "a boolean",
        int: "an integer",
        float: "a number",
        str: "a string",
        list: "an array",
        dict: "a table",
    }.get(type(value), type(value).__name__)


def _table(value: object, where: str, keys: tuple[str, ...]) -> dict[str, Any]:
    """``value`` as a table with exactly ``keys``."""
    if not isinstance(value, dict):
        _fail(where, f"must be a table, not {_type_name(value)}")
    unknown = sorted(set(value) - set(keys))
    if unknown:
        _fail(where, f"unknown key {unknown[0]!r} (valid: {', '.join(keys)})")
    missing = [k for k in keys if k not in value]
    if missing:
        _fail(where, f"missing key {missing[0]!r}")
    return value


def _tables(document: dict[str, Any], key: str) -> list[Any]:
    value = document[key]
    if not isinstance(value, list):
        _fail(key, f"must be an array of tables ([[{key}]]), not {_type_name(value)}")
    return value


def _entry(raw: object, table: str, single: str, rank: int) -> str:
    """How messages name an entry of ``[[table]]``: by its id when it has one."""
    if isinstance(raw, dict) and isinstance(raw.get("id"), str) and _ID.match(raw["id"]):
        return f"{single} {raw['id']!r} ([[{table}]] #{rank})"
    return f"[[{table}]] #{rank}"


def _int(value: object, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        _fail(where, f"must be an integer, not {_type_name(value)} ({value!r})")
    return value


def _str(value: object, where: str) -> str:
    if not isinstance(value, str):
        _fail(where, f"must be a string, not {_type_name(value)} ({value!r})")
    return value


def _id(value: object, where: str) -> str:
    text = _str(value, where)
    if not _ID.match(text):
        _fail(where, f"id {text!r} must be a letter followed by letters or digits")
    return text


def _cell(value: object, where: str, width: int, height: int) -> Cell:
    if (
        not isinstance(value, list)
        or len(value) != 2
        or any(isinstance(v, bool) or not isinstance(v, int) for v in value)
    ):
        _fail(where, f"a cell is two integers [x, y], not {value!r}")
    x, y = value
    if not (0 <= x < width and 0 <= y < height):
        _fail(
            where,
            f"cell [{x}, {y}] is outside the {width}×{height} grid"
            f" (x from 0 to {width - 1}, y from 0 to {height - 1})",
        )
    return (x, y)


def _cells(value: object, where: str, width: int, height: int) -> tuple[Cell, ...]:
    if not isinstance(value, list):
        _fail(where, f"must be an array of cells [[x, y], …], not {_type_name(value)}")
    return tuple(_cell(v, where, width, height) for v in value)


def load_board(text: str) -> Board:
    """The board described by the TOML ``text`` (R-1).

    :raises BoardError: the text is not TOML (the parser's message gives the
        line), or not a valley: a key unknown or missing, a value of the
        wrong type, a cell outside the grid or in two zones, a town without
        a building cell or a station, an id used twice, a shape
        other than ``droite``/``courbe``, a rail end that is neither a town
        nor a junction (``J1``…), two slots with one order on one link. The
        message names the table, the id or cell, and the reason.
    """
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        _fail("not valid TOML", str(err))
    _table(document, "top level", ("grid", "towns", "mountains", "prairies", "rails"))
    grid = _table(document["grid"], "[grid]", ("width", "height"))
    width = _int(grid["width"], "[grid] width")
    height = _int(grid["height"], "[grid] height")
    if width < 1 or height < 1:
        _fail("[grid]", f"width and height must be at least 1, not {width}×{height}")

    ids: dict[str, str] = {}  # folded id -> where it was first given

    def claim(identifier: str, where: str) -> None:
        key = identifier.casefold()
        if key in ids:
            _fail(where, f"id {identifier!r} is already used by {ids[key]}")
        ids[key] = where

    occupied: dict[Cell, str] = {}  # cell -> the zone that holds it

    def occupy(cell: Cell, what: str) -> None:
        if cell in occupied:
            _fail(
                what, f"cell [{cell[0]}, {cell[1]}] is also {occupied[cell]}: two zones on one cell"
            )
        occupied[cell] = what

    towns: list[Town] = []
    for i, raw in enumerate(_tables(document, "towns"), 1):
        where = _entry(raw, "towns", "town", i)
        entry = _table(raw, where, ("id", "name", "cells", "station"))
        town_id = _id(entry["id"], f"{where} id")
        if _JUNCTION.match(town_id):
            _fail(where, "J followed by digits is a junction's id, not a town's")
        claim(town_id, where)
        name = _str(entry["name"], f"{where} name").strip()
        if not name:
            _fail(f"{where} name", "must not be empty")
        cells = _cells(entry["cells"], f"{where} cells", width, height)
        if not cells:
            # another board's towns may have any size, but a saloon needs a building cell
            _fail(f"{where} cells", "a town has at least 1 building cell (plus its station), not 0")
        station = _cell(entry["station"], f"{where} station", width, height)
        town = Town(town_id, name, cells, station)
        for rank, cell in enumerate(cells, 1):
            occupy(cell, f"town {town_id}'s building cell {town_id}{rank}")
        occupy(station, f"town {town_id}'s station cell {town.station_name}")
        towns.append(town)
    if len(towns) < 2:
        _fail("towns", f"a valley has at least 2 towns (one per player), not {len(towns)}")

    mountains: list[Mountain] = []
    for i, raw in enumerate(_tables(document, "mountains"), 1):
        where = _entry(raw, "mountains", "mountain", i)
        entry = _table(raw, where, ("id", "cell"))
        mountain_id = _id(entry["id"], f"{where} id")
        claim(mountain_id, where)
        cell = _cell(entry["cell"], f"{where} cell", width, height)
        occupy(cell, f"mountain {mountain_id}'s mine cell")
        mountains.append(Mountain(mountain_id, cell))

    prairies: list[Prairie] = []
    for i, raw in enumerate(_tables(document, "prairies"), 1):
        where = _entry(raw, "prairies", "prairie", i)
        entry = _table(raw, where, ("id", "cells"))
        prairie_id = _id(entry["id"], f"{where} id")
        claim(prairie_id, where)
        cells = _cells(entry["cells"], f"{where} cells", width, height)
        if not 1 <= len(cells) <= len(_PRAIRIE_LETTERS):
            _fail(f"{where} cells", f"a prairie has 1 to 26 cells, not {len(cells)}")
        prairie = Prairie(prairie_id, cells)
        for name, cell in zip(prairie.cell_names, cells, strict=True):
            occupy(cell, f"prairie {prairie_id}'s cell {name}")
        prairies.append(prairie)

    town_ids = {town.id for town in towns}
    slots: list[Slot] = []
    orders: dict[tuple[frozenset[str], int], str] = {}
    for i, raw in enumerate(_tables(document, "rails"), 1):
        where = _entry(raw, "rails", "rail slot", i)
        entry = _table(raw, where, ("id", "between", "order", "shape", "damaged"))
        slot_id = _id(entry["id"], f"{where} id")
        claim(slot_id, where)
        between = entry["between"]
        if (
            not isinstance(between, list)
            or len(between) != 2
            or not all(isinstance(end, str) for end in between)
        ):
            _fail(f"{where} between", f'must be two ends ["A", "J1"], not {between!r}')
        for end in between:
            if end not in town_ids and not _JUNCTION.match(end):
                _fail(
                    f"{where} between",
                    f"end {end!r} is neither a town ({', '.join(sorted(town_ids))})"
                    " nor a junction (J followed by digits: J1, J2…)",
                )
        if between[0] == between[1]:
            _fail(f"{where} between", f"a link joins two different ends, not {between[0]!r} twice")
        order = _int(entry["order"], f"{where} order")
        if order < 1:
            _fail(f"{where} order", f"must be at least 1, not {order}")
        shape = _str(entry["shape"], f"{where} shape")
        if shape not in SHAPES:
            _fail(f"{where} shape", f"unknown shape {shape!r} (valid: {', '.join(SHAPES)})")
        damaged = entry["damaged"]
        if not isinstance(damaged, bool):
            _fail(f"{where} damaged", f"must be true or false, not {damaged!r}")
        link = frozenset(between)
        if (link, order) in orders:
            _fail(
                f"{where} order",
                f"order {order} on the link {between[0]}–{between[1]} is already rail slot {orders[link, order]}'s",
            )
        orders[link, order] = slot_id
        slots.append(Slot(slot_id, (between[0], between[1]), order, shape, damaged))

    # every name must designate one thing, case ignored (orders are typed by hand).
    named: dict[str, str] = {}
    for name, what in _names(towns, mountains, prairies, slots):
        key = name.casefold()
        if key in named:
            _fail(f"name {name!r}", f"it names both {named[key]} and {what}: rename an id")
        named[key] = what
    return Board(width, height, tuple(towns), tuple(mountains), tuple(prairies), tuple(slots))


def _names(
    towns: list[Town], mountains: list[Mountain], prairies: list[Prairie], slots: list[Slot]
) -> Iterable[tuple[str, str]]:
    """Every R-11 name with what it designates, in board order."""
    for town in towns:
        for name in (*town.cell_names, town.station_name):
            yield name, f"town {town.id}'s cell {name}"
    for mountain in mountains:
        yield mountain.id, f"mountain {mountain.id}"
    for prairie in prairies:
        for name in prairie.cell_names:
            yield name, f"prairie {prairie.id}'s cell {name}"
    for slot in slots:
        yield slot.id, f"rail slot {slot.id}"


def default_board_text() -> str:
    """The text of the default board file shipped with gm."""
    return resources.files(__package__).joinpath(BOARD_FILE).read_text(encoding="utf-8")


@cache
def default_board() -> Board:
    """The default valley (R-1), loaded once."""
    return load_board(default_board_text())
