"""The tiles of Rattlesnake City, the bag, and where each tile may go.

Owns the tile kinds (French names and distinctive words as the rules page
spells them), the bag's composition (R-3: the 50 buildings and one rail tile
per damaged slot of the board, of that slot's shape), the placement
description every rule reads (``Layout``: what stands on each cell, which
slots hold a rail tile), the rules of placement (« A turn », step 1; a tile
with no legal place is removed, R-6) and what a Dynamitero may destroy
(R-13). Pure: no state beyond the ``Layout`` it is given.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType

from gm.core.names import fold

from .board import Board, Zone


class Tile(StrEnum):
    """A tile kind: the 11 buildings of the bag, the two rail tiles, the saloon."""

    SHERIF = "sherif"
    BANQUE = "banque"
    STORE = "store"
    HOTEL = "hotel"
    MARECHAL = "marechal"
    EGLISE = "eglise"
    ECOLE = "ecole"
    CIMETIERE = "cimetiere"
    RANCH = "ranch"
    MINE = "mine"
    GARE = "gare"
    DROITE = "droite"
    COURBE = "courbe"
    SALOON = "saloon"

    @property
    def label(self) -> str:
        """The rules page's name (« bureau du shérif »)."""
        return LABELS[self]

    @property
    def word(self) -> str:
        """The distinctive word that is enough to name it (« shérif »)."""
        return WORDS[self]

    @property
    def is_rail(self) -> bool:
        return self in RAILS


LABELS: dict[Tile, str] = {
    Tile.SHERIF: "bureau du shérif",
    Tile.BANQUE: "banque",
    Tile.STORE: "general store",
    Tile.HOTEL: "hôtel",
    Tile.MARECHAL: "maréchal-ferrant",
    Tile.EGLISE: "église",
    Tile.ECOLE: "école",
    Tile.CIMETIERE: "cimetière",
    Tile.RANCH: "ranch",
    Tile.MINE: "mine",
    Tile.GARE: "gare",
    Tile.DROITE: "droite",
    Tile.COURBE: "courbe",
    Tile.SALOON: "saloon",
}

WORDS: dict[Tile, str] = {
    Tile.SHERIF: "shérif",
    Tile.BANQUE: "banque",
    Tile.STORE: "store",
    Tile.HOTEL: "hôtel",
    Tile.MARECHAL: "maréchal",
    Tile.EGLISE: "église",
    Tile.ECOLE: "école",
    Tile.CIMETIERE: "cimetière",
    Tile.RANCH: "ranch",
    Tile.MINE: "mine",
    Tile.GARE: "gare",
    Tile.DROITE: "droite",
    Tile.COURBE: "courbe",
    Tile.SALOON: "saloon",
}

RAILS: tuple[Tile, ...] = (Tile.DROITE, Tile.COURBE)
"""The rail tiles; a tile's value is the shape of the slot it repairs."""

TOWN_BUILDINGS: tuple[Tile, ...] = (
    Tile.SHERIF,
    Tile.BANQUE,
    Tile.STORE,
    Tile.HOTEL,
    Tile.MARECHAL,
    Tile.EGLISE,
    Tile.ECOLE,
    Tile.CIMETIERE,
)
"""Buildings that go on a town's building cells, one of a kind per town
except cemeteries."""

PAYING: frozenset[Tile] = frozenset(
    {
        Tile.SHERIF,
        Tile.BANQUE,
        Tile.STORE,
        Tile.HOTEL,
        Tile.MARECHAL,
        Tile.RANCH,
        Tile.MINE,
        Tile.GARE,
    }
)
"""Buildings that pay 1 000 $ a turn to their beneficiary (the saloon,
église, école and cimetière pay nothing)."""

BUILDINGS: tuple[Tile, ...] = (
    *(Tile.GARE,) * 6,
    *(Tile.MINE,) * 4,
    *(Tile.RANCH,) * 14,
    *(Tile.SHERIF,) * 4,
    *(Tile.BANQUE,) * 4,
    *(Tile.STORE,) * 4,
    *(Tile.HOTEL,) * 4,
    *(Tile.MARECHAL,) * 4,
    *(Tile.EGLISE,) * 2,
    *(Tile.ECOLE,) * 2,
    *(Tile.CIMETIERE,) * 2,
)
"""R-3: the 50 buildings of the bag, whatever the board."""


def bag(board: Board) -> tuple[Tile, ...]:
    """R-3: the bag for ``board``, in a fixed order (the 50 buildings, then
    one rail tile per damaged slot, of its shape, in slot order): 66 tiles
    on the default board. A seeded shuffle starts from this order."""
    return BUILDINGS + tuple(Tile(slot.shape) for slot in board.damaged_slots)


def _key(text: str) -> str:
    return "".join(c for c in fold(text) if c.isalnum())


_NAMES: dict[str, Tile] = {}
for _tile in Tile:
    for _text in (LABELS[_tile], WORDS[_tile], _tile.value):
        _NAMES[_key(_text)] = _tile
_NAMES[_key("bureau")] = Tile.SHERIF
_NAMES[_key("rail droit")] = Tile.DROITE
_NAMES[_key("voie droite")] = Tile.DROITE
_NAMES[_key("voie courbe")] = Tile.COURBE


def find_tile(text: str) -> Tile | None:
    """The tile ``text`` names by its rules-page name or distinctive word,
    case, accents and punctuation ignored (« Shérif », « hotel »), or None."""
    return _NAMES.get(_key(text))


# --- what stands on the board -----------------------------------------------------


@dataclass(frozen=True)
class Placed:
    """A tile on a cell: its kind, the player who placed it, and its rank
    among all placements (``seq``, from 1: saloons first). The placer breaks
    a tie between saloons (R-4, R-14); ``seq`` one between banks (R-5)."""

    kind: Tile
    placer: str
    seq: int


def _frozen(mapping: Mapping[str, Placed]) -> Mapping[str, Placed]:
    return MappingProxyType(dict(mapping))


@dataclass(frozen=True)
class Layout:
    """What stands on the board: the tile on each occupied cell (by R-11
    name, saloons included), and the damaged slots that hold a rail tile."""

    tiles: Mapping[str, Placed] = field(default_factory=dict)
    rails: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        object.__setattr__(self, "tiles", _frozen(self.tiles))
        object.__setattr__(self, "rails", frozenset(self.rails))

    def __hash__(self) -> int:
        return hash((frozenset(self.tiles.items()), self.rails))

    @property
    def next_seq(self) -> int:
        """The ``seq`` of the next tile placed."""
        return max((p.seq for p in self.tiles.values()), default=0) + 1

    def place(self, where: str, placed: Placed) -> Layout:
        """This layout with ``placed`` on the cell ``where``, or, for a rail
        tile, the slot ``where`` repaired."""
        if placed.kind.is_rail:
            return Layout(self.tiles, self.rails | {where})
        return Layout({**self.tiles, where: placed}, self.rails)

    def remove(self, where: str) -> Layout:
        """This layout without the tile on the cell or slot ``where`` (R-13)."""
        if where in self.rails:
            return Layout(self.tiles, self.rails - {where})
        return Layout({k: v for k, v in self.tiles.items() if k != where}, self.rails)


def owners(board: Board, layout: Layout) -> dict[str, str]:
    """Town id → the player whose saloon stands in it (unowned towns absent)."""
    found: dict[str, str] = {}
    for name, placed in layout.tiles.items():
        if placed.kind is Tile.SALOON:
            town = board.town_of(name)
            if town is not None:
                found[town] = placed.placer
    return found


def legal_cells(board: Board, layout: Layout, kind: Tile) -> tuple[str, ...]:
    """Every place a ``kind`` tile may go now, in board order (« A turn »,
    step 1; the setup for a saloon). () means it goes nowhere: removed (R-6).

    * a rail tile: a damaged slot of its shape holding no rail tile yet (slot ids);
    * a gare: a free station cell of any town;
    * a mine: a free mine cell; a ranch: a free prairie cell (so a prairie
      never holds more ranches than cells);
    * a saloon: a free building cell of a town nobody owns yet;
    * any other building: a free building cell of any town, owned or not,
      holding no building of that kind yet — cemeteries excepted.
    """
    if kind.is_rail:
        return tuple(
            slot.id
            for slot in board.damaged_slots
            if slot.shape == kind.value and slot.id not in layout.rails
        )
    taken = layout.tiles
    if kind is Tile.GARE:
        return tuple(t.station_name for t in board.towns if t.station_name not in taken)
    if kind is Tile.MINE or kind is Tile.RANCH:
        zone = Zone.MINE if kind is Tile.MINE else Zone.PRAIRIE
        return tuple(s.name for s in board.spots.values() if s.zone is zone and s.name not in taken)
    found: list[str] = []
    for town in board.towns:
        here = [taken[n].kind for n in (*town.cell_names, town.station_name) if n in taken]
        if kind is Tile.SALOON and Tile.SALOON in here:
            continue
        if kind is not Tile.CIMETIERE and kind in here:
            continue
        found += [n for n in town.cell_names if n not in taken]
    return tuple(found)


def dynamite_targets(board: Board, layout: Layout) -> tuple[str, ...]:
    """R-13: what a Dynamitero may destroy, in board order: every building
    but saloons (cell names), then every rail tile (slot ids). The printed
    track that was never damaged is not a tile and cannot be destroyed."""
    cells = tuple(
        name
        for name in board.spots
        if name in layout.tiles and layout.tiles[name].kind is not Tile.SALOON
    )
    return cells + tuple(slot for slot in board.slot_ids if slot in layout.rails)
