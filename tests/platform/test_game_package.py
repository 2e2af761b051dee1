"""A game is one package, registered by its distribution (issue 22).

« Pile ou face » is a distribution of its own (``tests/games_dist/toss``):
while it is installed gm finds it through its ``gm.games`` entry point, with
its templates and rules page from its package, and nothing in gm names it.
gm reads the entry points as ``importlib.metadata`` does (``gm.discovery``),
refuses two distributions that register one id, and a built gm carries every
game's templates and rules page.
"""

from __future__ import annotations

import importlib.metadata
import os
import subprocess
import sys
from pathlib import Path

import pytest
from game_dists import DISTS, installed, metadata
from platform_support import Gm

from gm import discovery, games
from gm.errors import RegistryError
from gm.render import Renderer, templates_dir
from gm.rulebook import rules_text

ROOT = Path(__file__).resolve().parents[2]


def fake_dist(folder: Path, name: str, entry_points: str) -> Path:
    """A distribution as importlib.metadata sees one: a metadata folder on the path."""
    info = folder / f"{name}-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(entry_points, encoding="utf-8")
    return folder


def test_the_test_game_is_found_through_its_entry_point() -> None:
    assert "toss" not in games.ids()
    with installed("toss"):
        assert "toss" in games.ids()
        point = games.entry("toss")
        assert (point.name, point.value, point.distribution) == ("toss", "gm_toss", "gm_toss")
        assert games.load("toss").title == "Pile ou face"
        package = DISTS / "toss" / "gm_toss"
        assert Renderer("toss").search_path == [package / "templates", templates_dir()]
        assert rules_text("toss") == (package / "rules.md").read_text(encoding="utf-8")
    assert "toss" not in games.ids()


def test_gm_rules_prints_the_page_of_the_games_package(gm: Gm) -> None:
    page = DISTS / "toss" / "gm_toss" / "rules.md"
    assert gm("rules", "toss").stdout == page.read_text(encoding="utf-8")
    assert gm("rules", "magot").stdout.startswith("# Le Magot — the rules as gm applies them\n")


def test_gm_reads_the_entry_points_importlib_metadata_reads(tmp_path: Path) -> None:
    """gm.discovery does not import importlib.metadata (gm --help cannot
    afford it): both find the same games, a distribution found twice once."""
    shadow = fake_dist(tmp_path / "late", "gm_toss", "[gm.games]\nshadowed = nowhere\n")
    with installed("toss"):
        sys.path.append(str(shadow))
        try:
            theirs = {
                (e.name, e.value, discovery.normalized(e.dist.name if e.dist else ""))
                for e in importlib.metadata.entry_points(group=discovery.GAMES)
            }
            ours = {
                (e.name, e.value, e.distribution) for e in discovery.entry_points(discovery.GAMES)
            }
        finally:
            sys.path.remove(str(shadow))
    assert ours == theirs
    assert ("toss", "gm_toss", "gm_toss") in ours and (
        "magot",
        "gm.games.magot",
        "gm_forum",
    ) in ours
    assert not any(name == "shadowed" for name, _, _ in ours)


def test_two_distributions_registering_one_id_is_an_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.syspath_prepend(
        str(fake_dist(tmp_path, "other_toss", "[gm.games]\ntoss = other_toss\n"))
    )
    with installed("toss"), pytest.raises(RegistryError) as caught:
        games.ids()
    assert caught.value.code == "game/registered-twice"
    message = str(caught.value)
    assert message.startswith("the game 'toss' is registered twice: by gm_toss (gm_toss, ")
    assert "and by other_toss (other_toss, " in message and message.endswith(
        "uninstall one of them"
    )


def test_a_name_that_cannot_be_a_game_id_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("common", "Pile ou face"):
        folder = fake_dist(tmp_path / name.replace(" ", "-"), "odd", f"[gm.games]\n{name} = odd\n")
        monkeypatch.syspath_prepend(str(folder))
        with pytest.raises(RegistryError, match=rf"^odd registers a game as '{name}' "):
            games.ids()
        monkeypatch.undo()


def test_gm_says_so_when_two_distributions_register_one_game(tmp_path: Path) -> None:
    """Even ``gm --help``: the commands it would list depend on the game."""
    folder = fake_dist(tmp_path, "evil", "[gm.games]\nmagot = evil_magot\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(folder), str(ROOT)])}
    for args in (["--help"], ["games"]):
        run = subprocess.run(
            [sys.executable, "-m", "gm", *args],
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
        assert run.returncode == 2, run.stderr
        assert run.stdout == ""
        assert run.stderr.startswith("Error: the game 'magot' is registered twice: by ")
        assert "evil (evil_magot, " in run.stderr
        assert run.stderr.endswith("uninstall one of them [game/registered-twice]\n")


def test_a_built_gm_carries_every_games_templates_and_rules_page(tmp_path: Path) -> None:
    """``pip install .`` ships each game package's templates and rules page
    (setup.py's package data): the built copy, with its own metadata and
    nothing else of the source tree, prints the rules and renders a post."""
    pytest.importorskip("setuptools", reason="building the package needs setuptools")
    build = tmp_path / "build"
    for command in (["build_py", "--build-lib"], ["egg_info", "--egg-base"]):
        subprocess.run(
            [sys.executable, "setup.py", "-q", *command, str(build)],
            cwd=ROOT,
            check=True,
            capture_output=True,
        )
    assert (build / "gm" / "render" / "templates" / "fr" / "_macros.md.j2").is_file()
    for game_id in games.ids():
        package = build / "gm" / "games" / game_id
        assert (package / "rules.md").is_file(), game_id
        shipped = {p.name for p in (package / "templates" / "fr").glob("*.md.j2")}
        source = {p.name for p in (ROOT / "gm" / "games" / game_id / "templates" / "fr").glob("*")}
        assert shipped == source, game_id
    probe = (
        "import gm, sys; from gm import games; from gm.rulebook import rules_text;"
        " from gm.render import Renderer;"
        " print(gm.__file__); print(' '.join(games.ids()));"
        " print(rules_text('colt').splitlines()[0]);"
        " print(Renderer('magot').fingerprint('opening'))"
    )
    run = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=tmp_path,
        env={"PYTHONPATH": str(build), "PATH": ""},
        capture_output=True,
        text=True,
        check=True,
    )
    where, ids, title, fingerprint = run.stdout.splitlines()
    assert where == str(build / "gm" / "__init__.py")
    assert ids == " ".join(games.ids())
    assert title == "# Colt Express — the rules as gm applies them"
    assert fingerprint == Renderer("magot").fingerprint("opening")


def test_the_test_games_metadata_comes_from_its_own_pyproject() -> None:
    text = next(metadata("toss").glob("*.egg-info/entry_points.txt")).read_text(encoding="utf-8")
    assert text.split() == ["[gm.games]", "toss", "=", "gm_toss"]
