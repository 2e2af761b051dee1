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
