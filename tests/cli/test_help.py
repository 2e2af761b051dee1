"""Every command has help with an example; help and ``gm games`` stay light."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from gm.cli import cli

COMMANDS = sorted(cli.commands)


def test_the_group_lists_every_command() -> None:
    result = CliRunner().invoke(cli, ["--help"])
    assert result.exit_code == 0
    for name in COMMANDS:
        assert f"  {name}" in result.output


@pytest.mark.parametrize("name", COMMANDS)
def test_every_command_has_help_with_an_example(name: str) -> None:
    result = CliRunner().invoke(cli, [name, "--help"])
    assert result.exit_code == 0, result.output
    # gm check is the players' command: its help is in French
    assert ("Exemples :" if name == "check" else "Example:") in result.output
    assert f"gm {name}" in result.output


def test_the_generic_and_magot_commands_exist() -> None:
    expected = {
        "new",
        "list",
        "use",
        "status",
        "order",
        "post",
        "pm",
        "play",
        "history",
        "games",
        "remind",
        "info",
        "set",
        "draw",
        "reveal",
        "fold",
        "stay",
        "resolve",
    }
    assert expected <= set(COMMANDS)


@pytest.mark.parametrize("args", [["--help"], ["games"]])
def test_help_and_games_import_no_database_library(args: list[str]) -> None:
    code = (
        "import sys\n"
        "from gm.cli import cli\n"
        f"try:\n    cli.main({args!r}, prog_name='gm')\nexcept SystemExit:\n    pass\n"
        "heavy = sorted(m for m in sys.modules if m.split('.')[0] in ('sqlalchemy', 'sqlmodel', 'alembic', 'jinja2', 'markdown'))\n"
        "print('HEAVY', heavy, file=sys.stderr)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "HEAVY []" in out.stderr


@pytest.mark.parametrize(("args", "listed"), [(["--help"], "  draw "), (["games"], "magot")])
def test_help_and_games_import_no_core_module(args: list[str], listed: str) -> None:
    # The command line is built from the games' manifests (gm.games.manifest)
    # alone: not one module of gm.core, the protocol included (issue 26);
    # --format reads its choices when it is used. The games' steps must still
    # be there: a registry that failed to load would import nothing either.
    code = (
        "import sys\n"
        "from gm.cli import main\n"
        f"sys.argv = ['gm', *{args!r}]\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "core = sorted(m for m in sys.modules if m == 'gm.core' or m.startswith('gm.core.'))\n"
        "print('CORE', core, file=sys.stderr)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert listed in out.stdout
    assert "CORE []" in out.stderr, out.stderr


def test_status_loads_the_tables_but_no_templates_nor_migrations(tmp_path: Path) -> None:
    # gm status is the command an MJ runs most: it loads the store's tables
    # (SQLModel classes, hence pydantic) but must not pay for migrations or
    # the template engine (bench/startup.py).
    db = str(tmp_path / "gm.db")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "gm",
            "--db",
            db,
            "new",
            "magot",
            "--title",
            "T",
            "--players",
            "a,b,c",
        ],
        capture_output=True,
        check=True,
    )
    code = (
        "import sys\n"
        "from gm.cli import cli\n"
        f"try:\n    cli.main(['--db', {db!r}, 'status'], prog_name='gm')\nexcept SystemExit:\n    pass\n"
        "loaded = {m.split('.')[0] for m in sys.modules}\n"
        "print('EXPECTED', sorted(loaded & {'sqlalchemy', 'sqlmodel', 'pydantic'}), file=sys.stderr)\n"
        "print('HEAVY', sorted(loaded & {'alembic', 'jinja2', 'markdown', 'mako'}), file=sys.stderr)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "EXPECTED ['pydantic', 'sqlalchemy', 'sqlmodel']" in out.stderr, out.stderr
    assert "HEAVY []" in out.stderr, out.stderr


@pytest.mark.postgresql
def test_a_sqlite_database_never_loads_the_postgresql_driver(tmp_path: Path) -> None:
    # psycopg (about 70 ms of CPU) and SQLAlchemy's PostgreSQL dialects (35 ms)
    # are loaded when a PostgreSQL engine is made, never for SQLite (issue 26);
    # creating a database runs the migrations, whose Alembic loads the
    # dialects (not the driver): the MJ's commands after it load neither.
    pytest.importorskip("psycopg", reason="the driver is not installed: nothing could load it")
    db = str(tmp_path / "gm.db")

    def loaded(*commands: list[str]) -> str:
        code = (
            "import sys\n"
            "from gm.cli import cli\n"
            f"for args in {list(commands)!r}:\n"
            f"    try:\n        cli.main(['--db', {db!r}, *args], prog_name='gm')\n"
            "    except SystemExit as done:\n        assert not done.code, (args, done.code)\n"
            "print('DRIVER', sorted(m for m in sys.modules if m.startswith('psycopg')),"
            " file=sys.stderr)\n"
            "print('DIALECTS', sorted(m for m in sys.modules"
            " if m.startswith('sqlalchemy.dialects.postgresql')), file=sys.stderr)\n"
        )
        run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
        assert run.returncode == 0, run.stderr
        return run.stderr

    created = loaded(["new", "magot", "--title", "T", "--players", "a,b,c"])
    assert "DRIVER []" in created, created
    played = loaded(["draw"], ["status"], ["order", "a", "b BANG"], ["post"], ["verify"])
    assert "DRIVER []" in played, played
    assert "DIALECTS []" in played, played
