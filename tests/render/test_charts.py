"""The posts' fixed-width chart (``gm.render.charts``) and ``gm chart``'s image.

The text chart: bars scaled to the leader, a sparkline per round, columns
aligned whatever the names (long, wide, hostile), in a code block that every
format keeps. The image: PNG or SVG from the same rows, the same bytes for
the same game, and a clear error naming the extra when matplotlib is absent.
"""

from __future__ import annotations

import sys
import unicodedata
from pathlib import Path

import pytest
import support

from gm.render import Renderer
from gm.render.charts import chart
from gm.render.escape import ZWSP
from gm.render.filters import FilterError
from gm.render.presets import PRESETS, to_forum

ROOT = Path(__file__).resolve().parents[2]


def _width(line: str) -> int:
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in line)


def test_bars_scale_to_the_leader_and_the_sparkline_to_the_richest_round() -> None:
    rows = [
        {"name": "fab", "value": 25000, "history": [0, 10000, 10000, 25000]},
        {"name": "Élodie", "value": 10000, "history": [0, 0, 10000, 10000]},
        {"name": "tom", "value": 0, "history": [0, 0, 0, 0]},
    ]
    assert chart(rows, unit="money", title="Butin après le tour 4") == (
        "Butin après le tour 4\n"
        "fab            ████████████████████  25 000 $  ▁▄▄█\n"
        "Élodie         ████████              10 000 $  ▁▁▄▄\n"
        "tom                                       0 $  ▁▁▁▁"
    )


def test_stars_are_counted_in_french_and_history_is_optional() -> None:
    rows = [{"name": "ana", "value": 1}, {"name": "bob", "value": 2}, {"name": "cid", "value": 0}]
    assert chart(rows, unit="étoiles").splitlines() == [
        "ana            ██████████             1 étoile",
        "bob            ████████████████████  2 étoiles",
        "cid                                   0 étoile",
    ]


def test_columns_stay_aligned_with_long_wide_and_hostile_names(tmp_path: Path) -> None:
    names = ["Jean-Christophe de la Fontaine", "山田太郎さん", "[/code]\n**x**", "a"]
    rows = [{"name": n, "value": 10 * i, "history": [i]} for i, n in enumerate(names)]
    lines = chart(rows, unit="or").splitlines()
    assert {_width(line[: line.index("█")]) for line in lines if "█" in line} == {15}
    assert lines[0].startswith("Jean-Christop… ")
    assert "\n" not in lines[2][:15]
    # in a post, as a template prints it: one code block in every format, not
    # closed early by the name, its columns still aligned on screen
    folder = tmp_path / "templates" / "magot" / "fr"
    folder.mkdir(parents=True)
    (folder / "probe.md.j2").write_text(
        'Butin :\n\n{{ rows|chart(unit="or")|diagram }}\n', encoding="utf-8"
    )
    post = Renderer("magot", override=tmp_path / "templates").render("probe", {"rows": rows})
    for fmt in PRESETS:
        shown = to_forum(post, fmt)
        if PRESETS[fmt].format == "bbcode":
            # a forum closes [code] at the first [/code]: the name's is broken
            assert shown.count("[code]") == 1 and shown.count("[/code]") == 1, fmt
            assert shown.rstrip("\n").endswith("█[/code]"), fmt
            block = shown[shown.index("[code]") + 6 : shown.index("[/code]")]
            assert "[b]" not in block, fmt
        elif fmt == "html":
            assert shown.count("<pre><code>") == 1 and "<strong>" not in shown, fmt
            block = shown[shown.index("<pre><code>") + 11 : shown.index("</code></pre>")]
        else:
            block = shown[shown.index("\n\n") + 2 :]
            assert all(line.startswith("    ") for line in block.splitlines()), fmt
            block = "\n".join(line[4:] for line in block.splitlines())
        assert "[/code] **x**" in block.replace(ZWSP, ""), fmt
        seen = [line.replace(ZWSP, "") for line in block.splitlines() if "█" in line]
        assert len(seen) == 3 and {_width(line[: line.index("█")]) for line in seen} == {15}, fmt


def test_a_bad_chart_is_a_template_error() -> None:
    with pytest.raises(FilterError, match="unknown unit 'km'"):
        chart([{"name": "a", "value": 1}], unit="km")
    with pytest.raises(FilterError, match="needs a name and a value"):
        chart([{"name": "a"}])
    with pytest.raises(FilterError, match="value must be a whole number"):
        chart([{"name": "a", "value": "1"}])


@pytest.fixture
def played(db: str, frozen_clock: object) -> support.Gm:
    gm = support.Gm(db)
    gm("play", str(ROOT / "campaigns" / "exemple-magot.toml"), "--keep")
    return gm


def test_every_results_post_and_the_final_post_end_with_the_chart(played: support.Gm) -> None:
    final = played("post", "final").stdout
    assert "    Butin final, et tour par tour\n    tom " in final
    results = played("post", "results", "3").stdout
    assert "    Butin après le tour 3, et tour par tour\n" in results
    bbcode = played("post", "results", "3", "--format", "bbcode").stdout
    assert "[code]Butin après le tour 3, et tour par tour\n" in bbcode


@pytest.mark.parametrize("suffix", ["png", "svg"])
def test_gm_chart_writes_the_same_picture_for_the_same_game(
    played: support.Gm, tmp_path: Path, suffix: str
) -> None:
    pytest.importorskip("matplotlib")
    first, second = tmp_path / f"a.{suffix}", tmp_path / f"b.{suffix}"
    result = played("chart", "-o", str(first))
    assert result.stderr == f"[le-casse-du-siecle] Wrote {first}: the chart of final.\n"
    played("chart", "-o", str(second))
    data = first.read_bytes()
    assert data == second.read_bytes()
    assert data.startswith(b"\x89PNG") if suffix == "png" else b"<svg" in data[:500]
    if suffix == "svg":
        text = data.decode()
        assert "Butin tour par tour" in text and "Butin final" in text
    result = played("chart", "--round", "3", "-o", str(tmp_path / f"r3.{suffix}"))
    assert "the chart of results 3" in result.stderr
    played("chart", "-o", str(first), code=2)  # kept unless --force


def test_gm_chart_says_what_it_needs(
    played: support.Gm, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    result = played("chart", "-o", str(tmp_path / "a.gif"), code=2)
    assert "a chart is written as png or svg, not 'gif'" in result.stderr
    result = played("chart", "--round", "42", "-o", str(tmp_path / "a.png"), code=3)
    assert "no post with a chart for 42" in result.stderr
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)  # as if not installed
    result = played("chart", "-o", str(tmp_path / "a.png"), code=2)
    assert result.stderr == (
        "Error: drawing an image needs matplotlib, in gm's optional 'charts' extra:"
        " pip install 'gm-forum[charts]' (the posts' text charts need nothing) [chart/extra]\n"
    )
    assert not (tmp_path / "a.png").exists()
