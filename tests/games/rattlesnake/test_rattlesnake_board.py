"""Rattlesnake City's board, tiles and cards: one test per ruling (R-1, R-2,
R-3, R-6, R-11, R-13 of gm/games/rattlesnake/rules.md), on the default board
and on the small hand-built valley of ``rattlesnake_support``."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from importlib import resources
from pathlib import Path

import pytest
from rattlesnake_support import SMALL, lay, small

from gm.errors import InputError
from gm.games.rattlesnake.board import (
    BoardError,
    Zone,
    default_board,
    default_board_text,
    dist2,
    load_board,
)
from gm.games.rattlesnake.cards import (
    ACTION_DECK,
    DIVERS,
    PERMANENTS,
    REVOLVERS,
    SHOT_DECK,
    SINGLE_USE,
    Card,
    find_cards,
    has_revolver,
    is_game_card,
)
from gm.games.rattlesnake.tiles import (
    BUILDINGS,
    Placed,
    Tile,
    bag,
    dynamite_targets,
    find_tile,
    legal_cells,
)

ROOT = Path(__file__).resolve().parents[3]

# --- the board as data -----------------------------------------------------------


def test_r1_default_board_loads() -> None:
    board = default_board()
    assert (board.width, board.height) == (23, 14)
    assert [t.id for t in board.towns] == ["A", "B", "C", "D", "E", "F"]
    assert board.towns[1].name == "Rattlesnake"
    assert all(len(t.cells) == 6 for t in board.towns)
    assert [m.id for m in board.mountains] == ["M1", "M2", "M3", "M4"]
    assert len(board.prairies) == 11
    assert sum(len(p.cells) for p in board.prairies) == 14
    assert len(board.slots) == 20
    damaged = board.damaged_slots
    assert len(damaged) == 16
    assert Counter(s.shape for s in damaged) == {"droite": 10, "courbe": 6}
    assert board.slot("R14").damaged is False
    assert board.slot("R1").between == ("A", "J1")
    assert default_board() is board  # loaded once


def test_r1_default_board_is_package_data() -> None:
    """The board ships inside the package: found through importlib.resources,
    the very text of the file in the source tree."""
    packaged = resources.files("gm.games.rattlesnake").joinpath("board.toml")
    assert packaged.is_file()
    assert default_board_text() == packaged.read_text(encoding="utf-8")
    assert "[[towns]]" in default_board_text()


def test_r1_board_is_in_a_built_package(tmp_path: Path) -> None:
    """``pip install .`` (not only an editable install) carries the board:
    setup.py's build copies it next to the module, and the built copy of gm,
    imported on its own, finds it."""
    pytest.importorskip("setuptools", reason="building the package needs setuptools")
    build = tmp_path / "build"
    subprocess.run(
        [sys.executable, "setup.py", "-q", "build_py", "--build-lib", str(build)],
        cwd=ROOT,
        check=True,
        capture_output=True,
    )
    assert (build / "gm" / "games" / "rattlesnake" / "board.toml").is_file()
    probe = (
        "import gm; from gm.games.rattlesnake.board import default_board;"
        " print(gm.__file__); print(len(default_board().towns))"
    )
    run = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=tmp_path,
        env={"PYTHONPATH": str(build), "PATH": ""},
        check=True,
        capture_output=True,
        text=True,
    )
    where, towns = run.stdout.split()
    assert Path(where).is_relative_to(build)
    assert towns == "6"


def _broken(old: str, new: str) -> str:
    assert old in SMALL, old
    return SMALL.replace(old, new, 1)


BROKEN = {
    "toml syntax": (
        _broken("width = 15", "width = "),
        ["not valid TOML: Invalid value (at line 2, column 9)"],
    ),
    "cell outside the grid": (
        _broken("[[0, 0], [1, 0]", "[[15, 0], [1, 0]"),
        [
            "town 'A' ([[towns]] #1) cells",
            "cell [15, 0] is outside the 15×8 grid",
            "x from 0 to 14",
        ],
    ),
    "two zones on one cell": (
        _broken("cells = [[7, 3]]", "cells = [[7, 0]]"),
        ["prairie P1's cell P1", "cell [7, 0] is also mountain M1's mine cell", "two zones"],
    ),
    "station on a building cell": (
        _broken("station = [1, 2]", "station = [1, 1]"),
        ["town A's station cell A7", "cell [1, 1] is also town A's building cell A5"],
    ),
    "town without a building cell": (
        _broken("cells = [[0, 0], [1, 0], [2, 0], [0, 1], [1, 1], [2, 1]]", "cells = []"),
        ["town 'A' ([[towns]] #1) cells", "at least 1 building cell", "not 0"],
    ),
    "a building cell given twice": (
        _broken("[[0, 0], [1, 0], [2, 0]", "[[0, 0], [0, 0], [2, 0]"),
        ["town A's building cell A2", "cell [0, 0] is also town A's building cell A1"],
    ),
    "town without station": (
        _broken("station = [1, 2]\n", ""),
        ["town 'A' ([[towns]] #1): missing key 'station'"],
    ),
    "duplicate id": (
        _broken('id = "M2"', 'id = "P1"'),  # a prairie's id, given first to a mountain
        [
            "prairie 'P1' ([[prairies]] #1)",
            "id 'P1' is already used by mountain 'P1' ([[mountains]] #2)",
        ],
    ),
    "duplicate id, case ignored": (
        _broken('id = "R4"', 'id = "r3"'),
        ["id 'r3' is already used by rail slot 'R3'"],
    ),
    "bad shape": (
        _broken('shape = "courbe"', 'shape = "tordue"'),
        ["rail slot 'R3' ([[rails]] #3) shape", "unknown shape 'tordue'", "droite, courbe"],
    ),
    "rail end neither town nor junction": (
        _broken('between = ["J1", "B"]', 'between = ["J1", "Z"]'),
        [
            "rail slot 'R2' ([[rails]] #2) between",
            "end 'Z' is neither a town (A, B, C)",
            "nor a junction",
        ],
    ),
    "duplicate order on one link": (
        _broken('between = ["J1", "C"]\norder = 2', 'between = ["C", "J1"]\norder = 1'),
        [
            "rail slot 'R4' ([[rails]] #4) order",
            "order 1 on the link C–J1 is already rail slot R3's",
        ],
    ),
    "unknown key": (
        _broken('name = "Alpha"', 'name = "Alpha"\ncolour = "red"'),
        ["town 'A' ([[towns]] #1): unknown key 'colour'", "valid: id, name, cells, station"],
    ),
    "unknown top-level table": (SMALL + "[rivers]\n", ["top level", "unknown key 'rivers'"]),
    "wrong type": (
        _broken("width = 15", 'width = "15"'),
        ["[grid] width", "must be an integer, not a string ('15')"],
    ),
    "wrong type, boolean": (
        _broken("damaged = true", 'damaged = "yes"'),
        ["rail slot 'R1' ([[rails]] #1) damaged", "must be true or false, not 'yes'"],
    ),
    "cell not a pair": (
        _broken("cell = [7, 0]", "cell = [7]"),
        ["mountain 'M1' ([[mountains]] #1) cell", "a cell is two integers [x, y], not [7]"],
    ),
    "two things with one name": (
        SMALL.replace('"C"', '"M"'),
        ["name 'M1'", "names both town M's cell M1 and mountain M1", "rename an id"],
    ),
    "junction id for a town": (
        _broken('id = "C"', 'id = "J2"'),
        ["town 'J2' ([[towns]] #3)", "J followed by digits is a junction's id"],
    ),
}


@pytest.mark.parametrize("case", list(BROKEN), ids=list(BROKEN))
def test_r1_broken_board_refused_with_cell_and_reason(case: str) -> None:
    text, expected = BROKEN[case]
    with pytest.raises(BoardError) as caught:
        load_board(text)
    err = caught.value
    assert err.code == "rattlesnake/board"
    assert isinstance(err, InputError)  # a malformed file: exit code 2
    assert err.message.startswith("board file: ")
    for fragment in expected:
        assert fragment in err.message, err.message


def test_r1_small_board_loads() -> None:
    board = small()
    assert [t.id for t in board.towns] == ["A", "B", "C"]
    assert board.slot_ids == ("R1", "R2", "R3", "R4")


# --- distances --------------------------------------------------------------------


def test_r2_corner_distance_adjacent_is_zero() -> None:
    assert dist2((3, 3), (3, 3)) == 0
    assert dist2((3, 3), (4, 3)) == 0  # side by side
    assert dist2((3, 3), (4, 4)) == 0  # corner to corner
    assert dist2((3, 3), (5, 3)) == 1  # one cell between: 1² + 0
    assert dist2((0, 0), (3, 4)) == 13  # 2² + 3²
    assert dist2((3, 4), (0, 0)) == 13
    board = small()
    assert board.dist2("A1", "A5") == 0
    assert board.dist2("M1", "A3") == 16  # dx 5: 4²


def test_r2_mines_equidistant_to_two_towns() -> None:
    """The source's yellow dots: each mine is as near to a cell of one town
    as to a cell of its neighbour (dx 3 on one row: 2² = 4)."""
    board = default_board()
    cells = [name for town in board.towns for name in town.cell_names]
    expected = {
        "M1": ("A3", "A6", "B1", "B4"),
        "M2": ("B3", "B6", "C1", "C4"),
        "M3": ("D3", "D6", "E1", "E4"),
        "M4": ("E3", "E6", "F1", "F4"),
    }
    for mine, tied in expected.items():
        assert board.nearest(mine, cells) == tied
        assert {board.dist2(mine, cell) for cell in tied} == {4}


def test_r2_nearest_returns_every_tied_candidate() -> None:
    board = small()
    assert board.nearest("C2", ["A1", "B3"]) == ("A1", "B3")  # 61 each
    assert board.nearest("C2", ["A1", "B3", "C7"]) == ("C7",)
    assert board.nearest("C2", []) == ()


# --- components ----------------------------------------------------------------------


def test_r3_bag_has_50_buildings_plus_one_rail_per_damaged_slot() -> None:
    assert len(BUILDINGS) == 50
    counts = Counter(bag(default_board()))
    assert sum(counts.values()) == 66
    assert counts == {
        Tile.GARE: 6,
        Tile.MINE: 4,
        Tile.RANCH: 14,
        Tile.SHERIF: 4,
        Tile.BANQUE: 4,
        Tile.STORE: 4,
        Tile.HOTEL: 4,
        Tile.MARECHAL: 4,
        Tile.EGLISE: 2,
        Tile.ECOLE: 2,
        Tile.CIMETIERE: 2,
        Tile.DROITE: 10,
        Tile.COURBE: 6,
    }
    # Another board brings its own rail tiles: R1 droite and R3 courbe.
    other = Counter(bag(small()))
    assert sum(other.values()) == 52
    assert (other[Tile.DROITE], other[Tile.COURBE]) == (1, 1)
    assert Tile.SALOON not in other


def test_r3_revolver_cards() -> None:
    assert sorted(REVOLVERS) == [3, 7, 10, 13, 17, 20, 24]
    assert [v for v in range(1, 26) if has_revolver(v)] == [3, 7, 10, 13, 17, 20, 24]
    assert not has_revolver(Card.COYOTE)
    assert not has_revolver(26)


def test_r3_action_card_counts() -> None:
    assert len(ACTION_DECK) == 56
    counts = Counter(ACTION_DECK)
    game = [c for c in ACTION_DECK if is_game_card(c)]
    assert sorted(game) == list(range(1, 26))
    poker = len(game) + counts[Card.TRICHEUR] + counts[Card.PROFESSIONNEL]
    poker += counts[Card.COYOTE] + counts[Card.GOUDRON]
    assert poker == 36
    assert (counts[Card.TRICHEUR], counts[Card.PROFESSIONNEL]) == (3, 3)
    assert (counts[Card.COYOTE], counts[Card.GOUDRON]) == (4, 1)
    assert sum(counts[c] for c in DIVERS) == 20
    assert sum(counts[c] for c in PERMANENTS) == 11
    assert all(counts[c] == 1 for c in PERMANENTS)
    assert sum(counts[c] for c in SINGLE_USE) == 9
    assert (counts[Card.DYNAMITERO], counts[Card.DESTIN], counts[Card.CHASSEUR]) == (6, 2, 1)


def test_r3_shot_card_counts() -> None:
    assert Counter(SHOT_DECK) == {1: 27, 2: 18, 3: 9}
    assert len(SHOT_DECK) == 54


def test_r3_names_and_distinctive_words() -> None:
    words = {
        "shérif": Tile.SHERIF,
        "banque": Tile.BANQUE,
        "store": Tile.STORE,
        "hôtel": Tile.HOTEL,
        "HOTEL": Tile.HOTEL,
        "maréchal": Tile.MARECHAL,
        "Maréchal-ferrant": Tile.MARECHAL,
        "église": Tile.EGLISE,
        "école": Tile.ECOLE,
        "cimetière": Tile.CIMETIERE,
        "ranch": Tile.RANCH,
        "mine": Tile.MINE,
        "gare": Tile.GARE,
        "droite": Tile.DROITE,
        "courbe": Tile.COURBE,
        "saloon": Tile.SALOON,
        "Bureau du shérif": Tile.SHERIF,
        "general store": Tile.STORE,
    }
    for text, tile in words.items():
        assert find_tile(text) is tile, text
    assert find_tile("moulin") is None
    assert Tile.SHERIF.label == "bureau du shérif"
    assert find_cards("Whisky") == (Card.WHISKY,)
    assert find_cards("whisky frelaté") == (Card.WHISKY,)
    assert find_cards("Goudron & Plumes") == (Card.GOUDRON,)
    assert find_cards("professionnel") == (Card.PROFESSIONNEL,)
    assert find_cards("coyote") == (Card.COYOTE,)
    assert find_cards("Croque-mort") == (Card.CROQUE_MORT,)
    assert find_cards("le 7") == (7,)
    assert find_cards("25") == (25,)
    assert find_cards("26") == ()
    assert find_cards("Jim") == (Card.IRONFIST, Card.HONEST)  # ambiguous
    assert find_cards("Joe") == (Card.SLIPPERY, Card.STINKY)
    assert Card.PROFESSIONNEL.label == "Joueur professionnel"


# --- where a tile may go ---------------------------------------------------------------


def test_r6_tile_has_no_legal_place() -> None:
    """The small valley has 3 towns: once each holds a banque, a 4th banque
    has no legal place (it is removed from the game)."""
    board = small()
    layout = lay(
        ("A1", Tile.SALOON, "ana"),
        ("B3", Tile.SALOON, "bob"),
        ("A2", Tile.BANQUE, "ana"),
        ("B2", Tile.BANQUE, "bob"),
    )
    assert legal_cells(board, layout, Tile.BANQUE) == ("C1", "C2", "C3", "C4", "C5", "C6")
    layout = layout.place("C4", layout.tiles["A2"])
    assert legal_cells(board, layout, Tile.BANQUE) == ()
    # Cemeteries are the exception: any free building cell.
    layout = lay(("A1", Tile.SALOON, "ana"), ("A2", Tile.CIMETIERE, "ana"))
    assert "A3" in legal_cells(board, layout, Tile.CIMETIERE)


def test_r6_rules_of_placement() -> None:
    board = small()
    layout = lay(("A1", Tile.SALOON, "ana"), ("A7", Tile.GARE, "bob"), ("P2a", Tile.RANCH, "bob"))
    assert legal_cells(board, layout, Tile.GARE) == ("B7", "C7")
    assert legal_cells(board, layout, Tile.MINE) == ("M1", "M2")
    assert legal_cells(board, layout, Tile.RANCH) == ("P1", "P2b")
    assert legal_cells(board, layout, Tile.DROITE) == ("R1",)  # R2 is printed intact
    assert legal_cells(board, layout, Tile.COURBE) == ("R3",)
    repaired = layout.place("R3", Placed(Tile.COURBE, "ana", 4))
    assert repaired.rails == {"R3"}
    assert legal_cells(board, repaired, Tile.COURBE) == ()
    # a town building never goes on a station cell; a saloon only in a town nobody owns
    assert "A7" not in legal_cells(board, layout, Tile.STORE)
    assert legal_cells(board, layout, Tile.SALOON) == (
        *("B1", "B2", "B3", "B4", "B5", "B6"),
        *("C1", "C2", "C3", "C4", "C5", "C6"),
    )


# --- names ---------------------------------------------------------------------------


def test_r11_cell_names_from_file_order() -> None:
    board = default_board()
    a = board.town("A")
    assert a.cell_names == ("A1", "A2", "A3", "A4", "A5", "A6")
    assert a.station_name == "A7"
    assert board.spot("A1").cell == (2, 2)  # first in the file
    assert board.spot("A4").cell == (2, 3)
    assert board.spot("A7").cell == (3, 4)
    assert board.spot("A7").zone is Zone.STATION
    assert board.spot("M1").cell == (7, 2)
    assert board.spot("M1").zone is Zone.MINE
    assert board.spot("P3").cell == (7, 8)
    assert (board.spot("P5a").cell, board.spot("P5b").cell) == ((0, 6), (0, 7))
    assert board.spot("P5b").area == "P5"
    assert board.name_at((0, 7)) == "P5b"
    assert board.name_at((5, 5)) is None
    assert board.find("p5B") == "P5b"
    assert board.find(" r20 ") == "R20"
    assert board.find("A8") is None
    assert board.town_of("F3") == "F"
    assert board.town_of("F7") == "F"
    assert board.town_of("M2") is None
    assert len(board.names) == 6 * 7 + 4 + 14


# --- what a Dynamitero may destroy ---------------------------------------------------


def test_r13_printed_track_indestructible() -> None:
    board = small()
    layout = lay(
        ("A1", Tile.SALOON, "ana"),
        ("B3", Tile.SALOON, "bob"),
        ("A2", Tile.HOTEL, "ana"),
        ("M1", Tile.MINE, "bob"),
        rails=("R3",),
    )
    targets = dynamite_targets(board, layout)
    assert targets == ("A2", "M1", "R3")  # no saloon, no printed slot (R2, R4), no empty R1
    # Destroyed, the slot is free again for a later tile.
    after = layout.remove("R3")
    assert legal_cells(board, after, Tile.COURBE) == ("R3",)
    assert "A2" in legal_cells(board, layout.remove("A2"), Tile.HOTEL)


# --- rail networks ---------------------------------------------------------------------------


def test_networks_join_towns_through_intact_links() -> None:
    board = small()
    # R1 damaged: A alone; B joined to nothing but J1 (R3 damaged: C alone).
    assert board.networks() == (frozenset("A"), frozenset("B"), frozenset("C"))
    assert board.networks({"R1"}) == (frozenset("AB"), frozenset("C"))
    assert board.networks({"R1", "R3"}) == (frozenset("ABC"),)
    # A link joins only when every slot on it is intact.
    d = default_board()
    assert frozenset("AB") not in d.networks({"R1", "R2", "R5", "R6", "R13"})
    assert frozenset("AB") in d.networks({"R1", "R2", "R5", "R6", "R13", "R16"})
