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
