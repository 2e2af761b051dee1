"""The core and the games stay pure: no database, CLI, templates, clock or
``random``; games never import each other (docs/architecture.md, « Layers »)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1] / "gm"
FORBIDDEN_MODULES = {
    "sqlmodel",
    "sqlalchemy",
    "alembic",
    "click",
    "jinja2",
    "markdown",
    "random",
    "time",
    "secrets",
    "os",
    "platformdirs",
    "psycopg",
    "sqlite3",
    "pathlib",
    "socket",
}
FORBIDDEN_GM = ("gm.store", "gm.service", "gm.render", "gm.cli")
PURE_FILES = sorted((ROOT / "core").rglob("*.py")) + sorted((ROOT / "games").rglob("*.py"))


def _imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append(node.module)
    return found


@pytest.mark.parametrize("path", PURE_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_pure_modules_import_nothing_impure(path: Path) -> None:
    for name in _imports(path):
        top = name.split(".")[0]
        assert top not in FORBIDDEN_MODULES, f"{path.name} imports {name}"
        assert not name.startswith(FORBIDDEN_GM), f"{path.name} imports {name}"


@pytest.mark.parametrize("path", PURE_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_pure_modules_read_no_clock(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    for call in ("datetime.now", "datetime.utcnow", "date.today"):
        assert call not in text, f"{path.name} calls {call}"
    # open() or a path's .open(), not a name ending in it (Rattlesnake's ``can_open(``)
    assert not re.search(r"(?<!\w)open\(", text), f"{path.name} calls open("


def test_games_do_not_import_each_other() -> None:
    games = [p for p in (ROOT / "games").iterdir() if p.is_dir() and not p.name.startswith("_")]
    for game in games:
        for path in game.rglob("*.py"):
            for name in _imports(path):
                for other in games:
                    if other != game:
                        assert not name.startswith(f"gm.games.{other.name}"), (
                            f"{path} imports {name}"
                        )


def test_every_module_has_a_docstring() -> None:
    for path in ROOT.rglob("*.py"):
        if "migrations/versions" in str(path):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        assert ast.get_docstring(tree), f"{path.relative_to(ROOT)} has no module docstring"


CHECKER_FORBIDDEN = (
    "sqlalchemy",
    "sqlmodel",
    "alembic",
    "click",
    "psycopg",
    "sqlite3",
    "platformdirs",
    "gm.cli",
    "gm.store.log",
    "gm.store.db",
    "gm.store.models",
    "gm.store.migrate",
    "gm.service.env",
)
"""What the players' checker must run without: it runs in a browser (Pyodide)
from a zip of gm's pure packages, the renderer and the replay."""


def test_the_checker_imports_no_database_cli_or_store(tmp_path: Path) -> None:
    """``gm.check`` statically, and everything a whole check loads at run time."""
    for path in sorted((ROOT / "check").rglob("*.py")):
        for name in _imports(path):
            assert not name.startswith(CHECKER_FORBIDDEN), f"{path.name} imports {name}"
    thread = tmp_path / "fil.md"
    thread.write_text("pas un message de gm\n", encoding="utf-8")
    script = (
        "import sys\n"
        "from gm.check import main\n"
        f"code, _ = main([{str(thread)!r}, '--reply', {str(thread)!r}], '')\n"
        "assert code == 2, code\n"
        "import gm.check.checker, gm.check.replies, gm.check.compare, gm.service.replaying\n"
        "import gm.service.posts, gm.games\n"
        "for game in gm.games.ids():\n"
        "    gm.games.load(game)\n"
        f"loaded = [m for m in sys.modules if m.startswith({CHECKER_FORBIDDEN!r})]\n"
        "print(loaded)\n"
    )
    import subprocess
    import sys

    out = subprocess.run(
        [sys.executable, "-I", "-c", script], capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "[]", out.stdout


PLATFORM_POSTS = {"opening", "rules", "final", "disclosure", "roll", "roster"}
"""Posts every game may make: the platform's words, not a game's."""
PLATFORM_LAYERS = ("core", "store", "service", "render", "cli", "check")
STORED_ROUND = {
    Path("store/records.py"),
    Path("store/models.py"),
    Path("store/migrations/versions/0001_initial.py"),
    Path("service/transfer.py"),
}
"""Where ``"round"`` is the posts table's column (migration 0001) and its
field in exports: kept for old archives; posts' coordinates live in
``address`` since 0004."""


def _game_words() -> dict[str, str]:
    import importlib

    from gm import games

    words: dict[str, str] = {}
    for game_id in games.ids():
        info = games.info(game_id)
        words[game_id] = f"the id of {game_id}"
        words[info.title] = f"the title of {game_id}"
        for kind in info.post_kinds:
            if kind.name not in PLATFORM_POSTS:
                words.setdefault(kind.name, f"a post kind of {game_id}")
            for coordinate in kind.coords:
                words.setdefault(coordinate, f"a coordinate of {game_id}")
        for coordinate in info.coordinates:
            words.setdefault(coordinate.name, f"a coordinate of {game_id}")
        phases = importlib.import_module(f"gm.games.{game_id}.model").Phase
        for phase in phases:
            words.setdefault(phase.value, f"a phase of {game_id}")
    return words


def _strings(path: Path) -> list[tuple[int, str]]:
    """The string constants of a module, docstrings apart (documentation may
    take a game as its example; code may not)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if (
            isinstance(node, ast.Module | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
            and body
            and isinstance(body[0], ast.Expr)
            and isinstance(body[0].value, ast.Constant)
        ):
            docstrings.add(id(body[0].value))
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in docstrings
    ]


def test_the_platform_names_no_game_post_kind_or_phase() -> None:
    """Game words live in the games (issue 22): no string in the platform's
    code is a game's id or title, one of its post kinds, coordinates or
    phases. The chronicle's labels, history's filters, the charts and the
    end of a game come from what each game declares."""
    words = _game_words()
    found = []
    for layer in PLATFORM_LAYERS:
        for path in sorted((ROOT / layer).rglob("*.py")):
            relative = path.relative_to(ROOT)
            for line, value in _strings(path):
                if value == "round" and relative in STORED_ROUND:
                    continue
                if value in words:
                    found.append(f"gm/{relative}:{line}: {value!r} ({words[value]})")
    assert found == []


def test_the_words_test_sees_a_game_word() -> None:
    """The test above can fail: the literal it looks for is found in a module."""
    words = _game_words()
    assert "manche" in words and "magot" in words and "standoff" in words
    probe = ROOT / "service" / "history.py"
    assert all(value not in words for _, value in _strings(probe))
    assert ("manche" in words) and any(
        v == "manche" for _, v in _strings(ROOT / "games" / "fistful" / "manifest.py")
    )
