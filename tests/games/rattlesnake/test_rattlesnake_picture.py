"""The valley as a picture (``gm picture``, ``picture.draw_valley``) and the
example campaign (``campaigns/exemple-rattlesnake.toml``).

The picture is drawn from a public view's ``valley`` only: every cell with
its name, built cells with their tile's code and the number of the player
they pay (as the text map, issue 28.7), the towns with their owners
(« (libre) » for a town nobody owns), the rail slots by id; junctions at the
mean of the stations of the towns they link. The same game draws the same
bytes.
"""

from __future__ import annotations

import json
import re
from html import unescape
from pathlib import Path

import pytest
import support
from rattlesnake_support import SMALL

from gm.games.rattlesnake import rules, views
from gm.games.rattlesnake.picture import draw_valley, junction_places

ROOT = Path(__file__).resolve().parents[3]
EXAMPLE = ROOT / "campaigns" / "exemple-rattlesnake.toml"
SLUG = "la-vallee-du-serpent"


def svg_texts(data: bytes) -> list[str]:
    return [unescape(t) for t in re.findall(r"<text[^>]*>([^<]*)</text>", data.decode())]


def test_junctions_sit_at_the_mean_of_their_towns_stations() -> None:
    state = rules.initial_state(
        ("ana", "bob"), rules.configure(("ana", "bob"), {"board_text": SMALL})
    )
    places = junction_places(views.valley_data(state))
    # A7 (1,2), B7 (13,2), C7 (7,5), centres +0.5: J1 at ((1.5+13.5+7.5)/3, (2.5+2.5+5.5)/3)
    assert places["A"] == (1.5, 2.5) and places["C"] == (7.5, 5.5)
    assert places["J1"] == pytest.approx((7.5, 3.5))


def test_no_valley_nothing_drawn() -> None:
    assert draw_valley({"kind": "rules"}, object()) is False


def test_the_example_campaign_plays(db: str) -> None:
    gm = support.Gm(db)
    summary = gm.json("play", str(EXAMPLE), "--json")
    # four turns played; turn 5's tile is drawn, awaiting its player: not listed
    assert not summary["finished"] and len(summary["turns"]) == 4
    # lulu: banque in E1, hôtel in E3, the mine M1's 2 000 $ (nearest bank E1),
    # Whisky frelaté −1 000: income 3 000; cash 10 000 + 1 000 (t1) − 5 000
    # (half of 11 000 rounded down, R-8) + 3 000 (t4) = 9 000
    lulu = summary["players"][2]
    assert (lulu["cash"], lulu["income"], lulu["permanents"]) == (
        9000,
        3000,
        ["Ironfist Jim", "Whisky frelaté"],
    )
    # marco: 10 000 − 2 000 (the Whisky) + 5 000 (the attack) + 1 000 (M1, a tie: his)
    # fab: 10 000 + 2 000 (the sale) + 2 000 (store + Cuisinier français)
    assert [p["cash"] for p in summary["players"]] == [14000, 14000, 9000]


@pytest.mark.parametrize("suffix", ["png", "svg"])
def test_gm_picture_draws_the_valley(db: str, tmp_path: Path, suffix: str) -> None:
    pytest.importorskip("matplotlib")
    gm = support.Gm(db)
    gm("play", str(EXAMPLE), "--keep")
    first, second = tmp_path / f"a.{suffix}", tmp_path / f"b.{suffix}"
    result = gm("picture", "-o", str(first))
    assert result.stderr == f"[{SLUG}] Wrote {first}: the picture of turn 5.\n"
    gm("picture", "-o", str(second))
    data = first.read_bytes()
    assert data == second.read_bytes()
    if suffix == "png":
        assert data.startswith(b"\x89PNG")
        return
    texts = svg_texts(data)
    assert "La vallée de Rattlesnake — tour 5" in texts
    for town in ("A · Dry Gulch\nfab", "B · Rattlesnake\nmarco", "E · Silver Springs\nlulu"):
        assert all(part in texts for part in town.split("\n")), town
    assert "C · Tombstone Flats" in texts and "(libre)" in texts
    # built cells: codes; free ones: names; every rail slot by id
    assert texts.count("Sa") == 3 and {"Bq", "Ho", "St", "Mi"} <= set(texts)
    # each built cell says whom it pays, by the number the text map gives
    # (« St1 Sa1 » in fab's town, marco's mine M1 and saloon, lulu's E1-E3)
    assert (texts.count("1"), texts.count("2"), texts.count("3")) == (2, 2, 3)
    assert "Numéros des joueurs (à qui rapporte une case bâtie) : 1 fab · 2 marco · 3 lulu" in texts
    assert {"A3", "M2", "P5a", "R1", "R20"} <= set(texts)
    # nothing secret: no cash in the picture (lulu's 9 000, the others' 14 000)
    assert not any("000" in t for t in texts)
    status = json.loads(gm("status", "--json").stdout)
    assert status["players"][2]["cash"] == 9000
