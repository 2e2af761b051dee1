"""``gm picture``: a post drawn as an image, the way its game pictures it.

Colt Express draws the train (``GameDef.picture``): the same train as the
post's fixed-width diagram, from the post's public view only, so the picture
holds no purse value, no hand and no seed. The same game draws the same
bytes; a bad file name, a game without pictures, a post without one and a
missing matplotlib are clear errors that write nothing.
"""

from __future__ import annotations

import re
import sys
from html import unescape
from pathlib import Path

import pytest
import support

from gm.service import actions
from gm.service.env import Env

ROOT = Path(__file__).resolve().parents[2]
SLUG = "le-train-de-yuma"


@pytest.fixture
def colt(tmp_path: Path, frozen_clock: object) -> support.Gm:
    """The example Colt game, on SQLite only: a picture is drawn from a
    folded state, which no database changes (the store's PostgreSQL runs
    are the other commands' tests)."""
    gm = support.Gm(str(tmp_path / "colt.db"))
    gm("play", str(ROOT / "campaigns" / "exemple-colt.toml"), "--keep")
    return gm


def svg_texts(data: bytes) -> list[str]:
    """The words an SVG shows (matplotlib writes text as <text> with svg.fonttype none)."""
    return [unescape(t) for t in re.findall(r"<text[^>]*>([^<]*)</text>", data.decode())]


@pytest.mark.parametrize("suffix", ["png", "svg"])
def test_gm_picture_draws_the_same_train_for_the_same_game(
    colt: support.Gm, tmp_path: Path, suffix: str
) -> None:
    pytest.importorskip("matplotlib")
    first, second = tmp_path / f"a.{suffix}", tmp_path / f"b.{suffix}"
    result = colt("picture", "-o", str(first))
    assert result.stderr == f"[{SLUG}] Wrote {first}: the picture of final.\n"
    colt("picture", "-o", str(second))
    data = first.read_bytes()
    assert data == second.read_bytes()
    assert data.startswith(b"\x89PNG") if suffix == "png" else b"<svg" in data[:500]
    result = colt("picture", "action", "2.5", "-o", str(tmp_path / f"step.{suffix}"))
    assert re.fullmatch(
        rf"\[{SLUG}\] Wrote .*step\.{suffix}: the picture of action 2\.\d+\.\n", result.stderr
    )
    colt("picture", "-o", str(first), code=2)  # kept unless --force
    colt("picture", "-o", str(first), "--force")


def diagram(post: str) -> list[list[str]]:
    """The cells of a post's fixed-width train: rows toit, its loot, dedans, its loot."""
    lines = [line for line in post.splitlines() if line.startswith("    ") and "|" in line]
    return [[c.strip() for c in line.split("|")[1:-1]] for line in lines]


@pytest.mark.parametrize(("kind", "where"), [("train", None), ("action", "3.4"), ("final", None)])
def test_the_picture_shows_what_the_post_diagram_shows(
    colt: support.Gm, tmp_path: Path, kind: str, where: str | None
) -> None:
    pytest.importorskip("matplotlib")
    out = tmp_path / "train.svg"
    colt("picture", kind, *([where] if where else []), "-o", str(out))
    texts = svg_texts(out.read_bytes())
    titles, roofs, roof_loot, insides, inside_loot = diagram(
        colt("post", kind, *([where] if where else [])).stdout
    )
    assert [t for t in texts if t == "locomotive" or t.startswith("wagon ")] == titles
    for cells, loot in ((roofs, roof_loot), (insides, inside_loot)):
        for names, counts in zip(cells, loot, strict=True):
            for name in names.split():  # the example's names have no space
                if name == "MARSHAL":
                    assert "★ MARSHAL" in texts
                else:
                    assert any(name in t.split(" · ") or name in t.split("\n") for t in texts), name
            if counts:  # « 4b 1j » in the post, « 4 b · 1 j » in the picture
                assert " · ".join(re.sub(r"(\d+)", r"\1 ", c) for c in counts.split()) in texts


def test_the_picture_holds_no_secret(colt: support.Gm, tmp_path: Path) -> None:
    """Drawn from the public view: no purse value (every purse lies face down
    until the final post), no seed, no hand, in any picture of the game."""
    pytest.importorskip("matplotlib")
    env = Env(db=colt.db)
    seed = actions.load(env, SLUG).meta.seed
    pictured = [
        p for p in env.store.posts(SLUG) if p.kind in ("train", "round", "plan", "action", "event")
    ]
    # Each kind's first and last picture, and one in three between (drawing
    # is the slow part; every state a picture can show is still met)
    ends = {p.kind: p for p in pictured} | {p.kind: p for p in reversed(pictured)}
    drawn = 0
    for i, post in enumerate(pictured):
        if i % 3 and post not in ends.values():
            continue
        where = ".".join(map(str, post.at))
        out = tmp_path / f"{post.number}.svg"
        colt("picture", post.kind, *([where] if where else []), "-o", str(out))
        shown = " ".join(svg_texts(out.read_bytes()))
        assert not re.search(r"\b(?:250|300|350|400|450|500)\b|\$", shown), (post.number, shown)
        assert seed not in shown and "main" not in shown
        drawn += 1
    assert drawn > 15


def test_gm_picture_says_what_it_needs(
    colt: support.Gm, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    result = colt("picture", "-o", str(tmp_path / "a.gif"), code=2)
    assert "a picture is written as png or svg, not 'gif'" in result.stderr
    result = colt("picture", "action", "9", "-o", str(tmp_path / "a.png"), code=3)
    assert "no action at 9 with a picture" in result.stderr
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)  # as if not installed
    result = colt("picture", "-o", str(tmp_path / "a.png"), code=2)
    assert result.stderr == (
        "Error: drawing an image needs matplotlib, in gm's optional 'charts' extra:"
        " pip install 'gm-forum[charts]' (the posts' text diagrams need nothing)"
        " [picture/extra]\n"
    )
    assert not (tmp_path / "a.png").exists()


def test_a_game_without_pictures_says_so(db: str, frozen_clock: object, tmp_path: Path) -> None:
    gm = support.Gm(db)
    gm("play", str(ROOT / "campaigns" / "exemple-magot.toml"), "--keep")
    result = gm("picture", "-o", str(tmp_path / "a.png"), code=2)
    assert result.stderr == (
        "Error: Le Magot draws no picture of its posts (gm chart draws the standings)"
        " [picture/none]\n"
    )
    assert not (tmp_path / "a.png").exists()
