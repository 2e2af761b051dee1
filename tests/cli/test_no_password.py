"""No password in any message: a malformed, unsupported or unreachable
database URL (or a mistyped one gm takes for a file path) never shows its
password on stdout or stderr, whatever the command, and never as a
traceback. Runs with or without psycopg (without it, PostgreSQL URLs stop at
"the driver is not installed", which must hide the password too)."""

from __future__ import annotations

import traceback
from pathlib import Path

import pytest
from click.testing import CliRunner

from gm.cli import cli
from gm.store.db import display_url, hide_password, hide_passwords_in

SECRET = "S3CRETpw"

URLS = [
    # the issue's: a space in the scheme, which SQLAlchemy cannot parse
    f"postgres ql://alice:{SECRET}@h/gm",
    f"postgresql+psycopg://alice:{SECRET}@h:notaport/gm",  # SQLAlchemy: ValueError
    f"postgresql+psycopg://alice:{SECRET}@[::1/gm",  # an unclosed IPv6 host
    f"postgresql+psycopg://alice:{SECRET}@@127.0.0.1:1/gm",  # an unescaped @ ...
    f"postgresql+psycopg://alice:S3C@{SECRET}@127.0.0.1:1/gm",  # ... inside the password
    f"postgresql+psycopg://alice:{SECRET}/x@127.0.0.1:1/gm",  # a / in the password
    f"postgresql+psycopg://alice:{SECRET}@127.0.0.1:1/gm?connect_timeout=2",  # refused
    f"postgresql+psycopg://alice:{SECRET}@127.0.0.1:99999/gm",  # no such port
    f"postgresql+psycopg://alice:{SECRET}@127.0.0.1:1/gm?nosuchoption=1",
    f"postgresql+psycopg://alice:{SECRET}@127.0.0.1:1/gm?sslmode=bogus",
    f"postgresql+psycopg://alice@127.0.0.1:1/gm?password={SECRET}&connect_timeout=2",
    f"postgresql://alice:{SECRET}@127.0.0.1:1/gm?connect_timeout=2",  # the default driver
    f"postgresql+psycopg2://alice:{SECRET}@127.0.0.1:1/gm",  # a driver not installed
    f"postgresql+nosuchdriver://alice:{SECRET}@h/gm",
    f"mysql://alice:{SECRET}@h/gm",  # unsupported
    f"sqlite://alice:{SECRET}@/gm.db",  # SQLite has no password: still not shown
    f"://alice:{SECRET}@h/gm",  # no scheme at all
    # a URL missing its "//": gm takes it for a file path, and shows it masked
    f"postgresql:/alice:{SECRET}@h/gm",
    f"~nosuchuser0:{SECRET}@h/gm",
]

COMMANDS = [
    ["info"],
    ["list"],
    ["status"],
    ["new", "magot", "--title", "T", "--players", "a,b,c"],
    ["backup", "copie.db"],
]


@pytest.mark.postgresql  # run again once psycopg is there: then it reaches the driver
@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c[0])
@pytest.mark.parametrize("url", URLS)
def test_no_message_shows_the_password(
    url: str, command: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    for args in (["--db", url, *command], command):
        if args is command:
            monkeypatch.setenv("GM_DB", url)  # the same value from the environment
        result = CliRunner().invoke(cli, args)
        shown = result.output + result.stdout + result.stderr
        if result.exc_info is not None and not isinstance(result.exception, SystemExit):
            shown += "".join(traceback.format_exception(*result.exc_info))
        assert SECRET not in shown, shown
        assert isinstance(result.exception, SystemExit | None), shown  # never a traceback
        assert result.exit_code in (2, 3, 4), shown
        assert "Error: " in result.stderr


def test_gm_info_shows_the_server_without_its_password() -> None:
    url = f"postgresql+psycopg://alice:{SECRET}@db.example:5433/gm?password={SECRET}"
    assert display_url(url) == "postgresql+psycopg://alice:***@db.example:5433/gm?password=***"


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        ("postgresql://alice:pw@h/gm", "postgresql://alice:***@h/gm"),
        ("postgres ql://alice:pw@h/gm", "postgres ql://alice:***@h/gm"),
        ("postgresql://alice:p@w:x@h/gm", "postgresql://alice:***@h/gm"),
        ("postgresql://:pw@h/gm", "postgresql://:***@h/gm"),
        ("postgresql://alice@h/gm", "postgresql://alice@h/gm"),
        ("postgresql://h:5432/gm", "postgresql://h:5432/gm"),
        ("postgresql://h/gm?password=pw&port=1", "postgresql://h/gm?password=***&port=1"),
        ("postgresql:/alice:pw@h/gm", "postgresql:***@h/gm"),
        ("/home/alice/gm.db", "/home/alice/gm.db"),
        ("/home/alice/parties@2026/gm.db", "/home/alice/parties@2026/gm.db"),
    ],
)
def test_hide_password(value: str, shown: str) -> None:
    assert hide_password(value) == shown


def test_hide_passwords_in_free_text() -> None:
    text = "could not connect to postgresql://alice:p@ss@h/gm (user alice@h: denied)"
    assert hide_passwords_in(text) == (
        "could not connect to postgresql://alice:***@h/gm (user alice@h: denied)"
    )
