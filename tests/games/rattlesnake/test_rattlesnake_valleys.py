"""R-1 read with R-11: another valley keeps the structure — towns, prairies,
mountains, railway — in any number and size. A town may have fewer or more
than six building cells, its station cell being the next number.

On the board level, the small valley of ``rattlesnake_support`` with its
towns resized (A: 2 building cells, B: 1, C: 10); on the game level, the
example campaign ``campaigns/exemple-rattlesnake-petite-vallee.toml``, whose
comments work out every turn's income by hand, played by ``gm play``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from rattlesnake_support import SMALL, lay

from gm.cli import cli
from gm.games.rattlesnake import rules, views
from gm.games.rattlesnake.board import BoardError, Zone, load_board
from gm.games.rattlesnake.tiles import Tile, bag, legal_cells

ROOT = Path(__file__).resolve().parents[3]
EXAMPLE = ROOT / "campaigns" / "exemple-rattlesnake-petite-vallee.toml"
SLUG = "la-petite-vallee"

TEN = "[[6, 6], [7, 6], [8, 6], [6, 7], [7, 7], [8, 7], [9, 6], [9, 7], [10, 6], [10, 7]]"
UNEVEN = (
    SMALL.replace("cells = [[0, 0], [1, 0], [2, 0], [0, 1], [1, 1], [2, 1]]", "cells = [[0, 0], [1, 0]]")
    .replace("cells = [[12, 0], [13, 0], [14, 0], [12, 1], [13, 1], [14, 1]]", "cells = [[12, 0]]")
    .replace("cells = [[6, 6], [7, 6], [8, 6], [6, 7], [7, 7], [8, 7]]", f"cells = {TEN}")
)  # fmt: skip
"""The small valley with towns of 2 (A), 1 (B) and 10 (C) building cells; stations unmoved."""


def test_r1_another_board_may_have_towns_of_any_size() -> None:
    board = load_board(UNEVEN)
    a, b, c = board.towns
    # the building cells by their rank in the file, the station the next number
    assert (a.cell_names, a.station_name) == (("A1", "A2"), "A3")
    assert (b.cell_names, b.station_name) == (("B1",), "B2")
    assert c.cell_names == tuple(f"C{i}" for i in range(1, 11)) and c.station_name == "C11"
    assert board.spot("A3").cell == (1, 2) and board.spot("A3").zone is Zone.STATION
    assert board.spot("B2").zone is Zone.STATION and board.spot("B1").zone is Zone.BUILDING
    assert board.spot("C10").cell == (10, 7) and board.find("c11") == "C11"
    assert board.town_of("C11") == "C" and board.find("A4") is None and board.find("C12") is None
    assert len(board.names) == (3 + 2 + 11) + 2 + 3  # the towns', mountains' and prairies' cells
    # the bag still holds the 50 buildings, and one rail tile per damaged slot
    assert len(bag(board)) == 50 + 2


def test_r1_the_checks_of_another_board_are_kept() -> None:
    # C's station is C11, so a town C1 (whose first cell would be C11 too) is refused
    clash = UNEVEN.replace('id = "B"', 'id = "C1"').replace('["J1", "B"]', '["J1", "C1"]')
    with pytest.raises(
        BoardError, match="name 'C11': it names both town C1's cell C11 and town C's cell C11"
    ):
        load_board(clash)
    with pytest.raises(BoardError, match="at least 1 building cell"):
        load_board(UNEVEN.replace("cells = [[12, 0]]", "cells = []"))
    with pytest.raises(BoardError, match=r"town B's station cell B2.*also town B's building"):
        load_board(UNEVEN.replace("station = [13, 2]", "station = [12, 0]"))


def test_r6_placement_on_towns_of_other_sizes() -> None:
    board = load_board(UNEVEN)
    layout = lay(("A1", Tile.SALOON, "ana"), ("B1", Tile.SALOON, "bob"))
    # a saloon only in a town nobody owns: C's ten cells
    assert legal_cells(board, layout, Tile.SALOON) == tuple(f"C{i}" for i in range(1, 11))
    # B's one building cell holds bob's saloon: no other building fits in B
    assert legal_cells(board, layout, Tile.BANQUE) == ("A2", *(f"C{i}" for i in range(1, 11)))
    assert legal_cells(board, layout, Tile.GARE) == ("A3", "B2", "C11")
    full = layout.place("A2", layout.tiles["A1"])
    for cell in (f"C{i}" for i in range(1, 11)):
        full = full.place(cell, layout.tiles["B1"])
    assert legal_cells(board, full, Tile.HOTEL) == ()  # removed from the game
    assert legal_cells(board, full, Tile.GARE) == ("A3", "B2", "C11")


def test_r11_the_text_map_of_another_board_names_every_free_cell() -> None:
    # a column as wide as its longest label and a gutter after it: C's ten
    # cells, C10 the last in the file at (10, 7), its station C11 at (7, 5);
    # the railway from A3 and B2 to the junction J1, and down to C11
    state = rules.initial_state(
        ("ana", "bob"), rules.configure(("ana", "bob"), {"board_text": UNEVEN})
    )
    assert views.valley(views.valley_data(state)) == "\n".join(
        [
            "A1  A2              M1                B1",
            "",
            "    A3····R1····J1═══════════R2═══════════B2",
            "                ¦",
            "                ¦R3 P1",
            "                ¦",
            "                ¦   M2",
            "                ║",
            "                ╚R4═C11",
            "                C1  C2  C3  C7  C9",
            "P2a P2b         C4  C5  C6  C8  C10",
        ]
    )
    # a name longer than three characters (town CX: CX10, CX11) widens its
    # column to four, so that none is cut and none touches the next
    wide = UNEVEN.replace('id = "C"', 'id = "CX"').replace('"C"]', '"CX"]')
    state = rules.initial_state(
        ("ana", "bob"), rules.configure(("ana", "bob"), {"board_text": wide})
    )
    lines = views.valley(views.valley_data(state)).splitlines()
    assert lines[0] == "A1  A2              M1                  B1"
    assert lines[8] == " " * 16 + "╚R4═CX11"
    assert lines[-1] == "P2a P2b         CX4 CX5  CX6 CX8 CX10"


# --- a game on another valley ---------------------------------------------------------------


def gm(db: str, *args: str) -> Result:
    return CliRunner().invoke(cli, ["--db", db, *args])


def test_r1_a_game_on_a_valley_of_small_towns(db: str) -> None:
    # The figures of the example's comments: each turn's income, then the
    # cash after eight turns (ana 25 000, bob 16 000, cyd 12 000).
    result = gm(db, "play", str(EXAMPLE), "--json")
    assert result.exit_code == 0, result.output
    summary: dict[str, Any] = json.loads(result.stdout)
    assert not summary["finished"] and summary["winners"] == []
    turns = [
        (t["number"], t["player"], t["tile"], t["cell"], t["income"]) for t in summary["turns"]
    ]
    assert turns == [
        (1, "cyd", "banque", "C2", 2000),
        (2, "ana", "mine", "M1", 1000),
        (3, "bob", "gare", "B3", 1000),
        (4, "cyd", "droite", "R1", 3000),
        (5, "ana", "gare", "A3", 4000),
        (6, "bob", "ranch", "P3", 4000),
        (7, "cyd", "courbe", "R3", 3000),
        (8, "ana", "gare", "C3", 5000),
    ]
    players = {p["name"]: p for p in summary["players"]}
    assert {n: (p["town"], p["cash"], p["income"]) for n, p in players.items()} == {
        "ana": ("A", 25000, 5000),
        "bob": ("B", 16000, 5000),
        "cyd": ("C", 12000, 7000),
    }
    assert players["cyd"]["permanents"] == ["French-cancan", "Whisky frelaté"]
    # hands: 5 dealt; ana + 3 draws − Whisky − her 20; bob + 1 − his 18; cyd + 2 − cancan
    assert [p["hand"] for p in summary["players"]] == [6, 5, 6]
    # shots: bob drew 2 3 and fired the 2; cyd drew 1 1 as the bank's owner, then 2 2
    assert [p["shots"] for p in summary["players"]] == [0, 1, 4]
    assert summary["board"] == {
        "tiles": {
            "A1": "saloon", "A3": "gare", "B2": "saloon", "B3": "gare", "C1": "saloon",
            "C2": "banque", "C3": "gare", "M1": "mine", "P3": "ranch",
        },
        "rails": ["R1", "R3"],
    }  # fmt: skip


def test_r1_posts_describe_another_valley(db: str) -> None:
    assert gm(db, "play", str(EXAMPLE), "--keep").exit_code == 0
    turn = gm(db, "-c", SLUG, "post", "turn", "9", "--format", "markdown").output
    # the map after turn 8 (a code block): every tile built with its owner's
    # number, every free cell by name, the railway repaired (R1 and R3)
    assert (
        "\n".join(
            [
                "    Sa1 A2            Mi1         B1  Sa2",
                "        Gr1═════R1════╗           Gr2",
                "                      ║           ║",
                "                      ║           ║",
                "                      ║           ║",
                "    P2a     P1  ╔═R3══J1═════R2═══╝   Rn2",
                "                ║",
                "    P2b         ║           M2",
                "                ║",
                "                ║ Sa3 Bq3",
                "                ║",
                "                ╚═Gr3",
            ]
        )
        in turn
    )
    assert "Numéros des joueurs\u00a0: 1 ana · 2 bob · 3 cyd." in turn
    rules_post = gm(db, "-c", SLUG, "post", "rules", "--format", "markdown").output
    assert (
        "**La vallée** (le plateau de cette partie)\u00a0: 3 villes (2 cases à bâtir et une gare"
        " chacune), 3 prairies, 2 montagnes avec une mine chacune, et une voie ferrée dont"
        " 2 tronçons sont coupés. Les cases se nomment A1…A2 (la gare A3), M1, P1, P2a, et"
        " les tronçons R1…"
    ) in rules_post
    assert "six villes" not in rules_post


def test_r1_the_picture_draws_another_valley(db: str, tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    from test_rattlesnake_picture import svg_texts

    assert gm(db, "play", str(EXAMPLE), "--keep").exit_code == 0
    path = tmp_path / "vallee.svg"
    assert gm(db, "-c", SLUG, "picture", "turn", "9", "-o", str(path)).exit_code == 0
    texts = svg_texts(path.read_bytes())
    assert "La vallée de Rattlesnake — tour 9" in texts
    assert {"A · Alkali Flat", "B · Bitter Creek", "C · Coyote Wells"} <= set(texts)
    # after turn 8: three saloons, three gares, the banque, the mine, the ranch;
    # the free cells by name (A2, B1, M2, P1, P2a, P2b) and the three slots
    assert texts.count("Sa") == 3 and texts.count("Gr") == 3
    assert {"Bq", "Mi", "Rn", "A2", "B1", "M2", "P1", "P2a", "P2b", "R1", "R2", "R3"} <= set(texts)
