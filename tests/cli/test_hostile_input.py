"""Hostile input, every command (issue #5, item 1).

Hypothesis feeds every ``gm`` command random and adversarial arguments (empty
strings, 10,000-character orders, control characters, RTL marks, emoji, NUL
bytes, SQL fragments, Jinja and Markdown/BBCode syntax, unknown campaigns and
players, commands in the wrong phase) through ``CliRunner``, each against a
fresh copy of a Le Magot campaign waiting for orders. For every input:

* no traceback: the only exception ``CliRunner`` may record is ``SystemExit``;
* a rejected input exits with a code ≥ 1 and prints an ``Error:`` line on
  stderr (``check-post`` follows tools/gm_check.py's convention instead, see
  ``_rejection_line``);
* a rejected input leaves ``gm status --json`` exactly as it was (``gm order``
  may log the rejected submission, so its ``events`` count may grow).

Each command runs on SQLite and, when the suite has a PostgreSQL server, on
PostgreSQL too (each input against its own copy of the campaign's database);
the other states (every game, before its setup, mid-game, over) on SQLite.
The number of inputs tried is printed at the end of the module and checked
against a minimum.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner, Result
from hypothesis import given, settings
from hypothesis import strategies as st
from support import REPORT, PgServer, Raw

from gm.cli import cli
from gm.store.db import sqlite_backup

# Per command; 40 commands, so 600 inputs in all on SQLite, fewer on
# PostgreSQL, where each input costs a database copy.
EXAMPLES = 15
EXAMPLES_PG = 3
# Per command in each of the other states (STATES): 6 states, 960 more, on
# SQLite only: what a state changes is the game's code above the store, and
# the store's PostgreSQL path is the one the first test already tries.
EXAMPLES_STATE = 4
TRIED: Counter[tuple[str, str]] = Counter()

# Values that make a command succeed by design, not hostile input: help and version.
BENIGN = {"-h", "--help", "--version"}

SPECIALS = [
    "",
    " ",
    "\x00",
    "a\x00b",
    "\x1b[31mrouge\x1b[0m",
    "\r\n",
    "\t",
    "\u202e",
    "fab\u202e",
    "\u200b",
    "🤠",
    "🤠" * 50,
    "a" * 10_000,
    "'; DROP TABLE events; --",
    '" OR 1=1 --',
    "{{ 7*7 }}",
    "{% for x in y %}",
    "{{ config.__class__ }}",
    "**b**",
    "[b]x[/b]",
    "<script>x</script>",
    "../../etc/passwd",
    "~nosuchuser0/x.db",
    "~",
    "/dev/null",
    "/",
    ".",
    "-",
    "--",
    "-x",
    "--nope",
    "nobody",
    "fab",
    "marco",
    "lulu",
    "FAB",
    "Élodie",
    "marco clic",
    "je braque marco, BANG",
    "0",
    "-1",
    "99999999999999999999",
    "1e309",
    "nan",
    "+48h",
    "+99999999999h",
    "+999999999d",
    "9999-12-31 23:59",
    "0001-01-01",
    "2d6",
    "1000d1000000",
    "seed",
    "post",
    "opening",
    "round",
    "results",
    # Bytes that are not UTF-8, as Python hands them over (surrogateescape).
    "\udcff",
    "ana\udcfe\udcff",
    # Bidi and invisible controls, a bell, DEL, a C1 control.
    "\u2066ana\u2069",
    "\u200fbob",
    "\x07",
    "\x7f",
    "\u0085",
    # Names that collide with a player's after case and accent folding.
    "Ana",
    "ÀNA",
    "a\u0301na",
    "ana ",
    "BOB",
    "Cléo",
    "fàb",
    # The players of the other states.
    "ana",
    "bob",
    "cleo",
    # Out-of-range numbers and words of the other games.
    "-0",
    "2147483648",
    "9" * 400,
    "0x10",
    "graine : abc",
    "graine : " + "z" * 5000,
    "A1",
    "Z99",
    "le 24",
    "Tir",
    "Braquage : le bijou",
    "sur bob",
    "passe",
    # Huge.
    "x" * 1_000_000,
]

# Random text never starts a path outside the test's folder: as root, an
# export to "/etc/passwd" or "~/x" would really be written (it once was).
_inside = st.text(max_size=40) | st.text(min_size=200, max_size=2000)
hostile = (
    st.sampled_from(SPECIALS) | _inside.filter(lambda s: not s.startswith(("/", "~")))
).filter(lambda s: s not in BENIGN)


def _param_args(param: click.Parameter, draw: st.DrawFn) -> list[str]:
    """Arguments for one parameter: hostile values, sometimes valid ones."""
    if isinstance(param, click.Argument):
        if param.nargs == -1:
            return draw(st.lists(hostile, min_size=1 if param.required else 0, max_size=3))
        if param.required or draw(st.booleans()):
            choices = list(getattr(param.type, "choices", []))
            pool = st.sampled_from(choices) | hostile if choices else hostile
            return [draw(pool)]
        return []
    assert isinstance(param, click.Option)
    if not draw(st.booleans()) and not param.required:
        return []
    flag = max(param.opts, key=len)
    if param.is_flag:
        return [flag]
    choices = list(getattr(param.type, "choices", []))
    pool = st.sampled_from(choices) | hostile if choices else hostile
    if isinstance(param.type, click.types.IntParamType):
        pool = st.integers(-(10**12), 10**12).map(str) | hostile
    return [flag, draw(pool)]


@st.composite
def invocations(draw: st.DrawFn, name: str) -> list[str]:
    """A full argument list for ``gm NAME``: global options, options, arguments."""
    command = cli.commands[name]
    prefix: list[str] = []
    if draw(st.integers(0, 4)) == 0:  # an unknown (or hostile) campaign
        prefix = ["-c", draw(hostile)]
    options: list[str] = []
    positionals: list[str] = []
    for param in command.params:
        if isinstance(param, click.Argument):
            positionals += _param_args(param, draw)
        else:
            options += _param_args(param, draw)
    if draw(st.booleans()):  # positionals first, or after the options
        return [*prefix, name, *positionals, *options]
    return [*prefix, name, *options, *positionals]


def _status(db: str) -> dict[str, Any]:
    result = CliRunner().invoke(cli, ["--db", db, "status", "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


@pytest.fixture(scope="module", autouse=True)
def _report() -> Iterator[None]:
    yield
    total = sum(TRIED.values())
    REPORT.append(f"hostile inputs tried: {total} over {len(TRIED)} commands and databases")


def _tries_at_least(floor: int, name: str, backend: str, run: Callable[[], None]) -> None:
    """Run one Hypothesis test and check it tried ``floor`` inputs or more
    (an input strategy that filters everything out would test nothing)."""
    before = TRIED[name, backend]
    run()
    assert TRIED[name, backend] - before >= floor, (name, backend, TRIED[name, backend] - before)


@pytest.fixture
def campaign(db: str) -> tuple[str, dict[str, Any]]:
    """A Le Magot campaign in round 1, waiting for orders; its status."""
    run = CliRunner().invoke
    for args in (
        ["new", "magot", "-t", "T", "-p", "fab,marco,lulu", "--seed", "s"],
        ["draw", "--bills", "20000,10000,5000,5000,5000"],
    ):
        result = run(cli, ["--db", db, *args])
        assert result.exit_code == 0, (args, result.output)
    return db, _status(db)


@contextmanager
def fresh_copy(golden: str, pg_server: PgServer | None) -> Iterator[str]:
    """A throw-away copy of the golden campaign's database for one input."""
    if pg_server is None:
        with tempfile.TemporaryDirectory() as tmp:
            copy = Path(tmp) / "gm.db"
            sqlite_backup(Path(golden), copy)
            yield str(copy)
        return
    url = pg_server.create(template=golden)
    try:
        yield url
    finally:
        pg_server.drop(url)


def _rejection_line(name: str, result: Result) -> bool:
    """Did the rejected command say why, in its convention?"""
    if any(line.startswith("Error:") for line in result.stderr.splitlines()):
        return True
    if name == "check":
        # the players' checker speaks French: a refusal is « ERREUR : … », exit 2
        return result.exit_code in (1, 2, 3) and (result.exit_code != 2 or "ERREUR" in result.output)
    return False


STDIN = st.sampled_from(
    [b"", b"\xff\xfe A1", b"ana BANG\n", b"\x00" * 8, b"caf\xe9", "é".encode() * 600_000]
)
"""What a command reading ``-`` or a prompt may find on standard input."""


def _chain(db: str) -> list[tuple[Any, ...]]:
    """Each campaign's event count, last seq and chain head, and its post count."""
    return Raw(db).execute(
        "SELECT e.campaign_id, count(*), max(e.seq),"
        " (SELECT h.hash FROM events h WHERE h.campaign_id = e.campaign_id"
        "  ORDER BY h.seq DESC LIMIT 1),"
        " (SELECT count(*) FROM posts p WHERE p.campaign_id = e.campaign_id)"
        " FROM events e GROUP BY e.campaign_id ORDER BY e.campaign_id"
    )


def _check(
    name: str, golden: str, before: Any, server: PgServer | None, args: list[str], stdin: bytes
) -> None:
    """One hostile invocation against a fresh copy of ``golden``: no traceback,
    a refusal exits non-zero with a sentence and changes nothing."""
    TRIED[name, "sqlite" if server is None else "postgresql"] += 1
    with fresh_copy(golden, server) as db, tempfile.TemporaryDirectory() as tmp:
        cwd = os.getcwd()
        # Files a command writes (-o, backup, a new --db) land in here:
        # deep enough that "../../etc/passwd" stays inside the folder.
        here = Path(tmp, "a", "b", "c")
        here.mkdir(parents=True)
        os.chdir(here)
        try:
            result = CliRunner().invoke(cli, ["--db", db, *args], input=stdin)
        finally:
            os.chdir(cwd)
        after = (_status(db), _chain(db)) if result.exit_code != 0 else before
    where = f"gm {' '.join(map(repr, args))[:300]}\n{result.output[-2000:]}"
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        where,
        result.exc_info,
    )
    assert "Traceback" not in result.output, where
    if result.exit_code == 0:
        return
    assert result.exit_code >= 1, where
    assert _rejection_line(name, result), where
    if name == "order":  # a rejected order is logged: only the event count grows
        assert after[0] == {**before[0], "events": after[0]["events"]}, where
        return
    assert after == before, where


@pytest.mark.parametrize("name", list(cli.commands))
def test_hostile_input_never_tracebacks_nor_changes_state(
    campaign: tuple[str, dict[str, Any]],
    name: str,
    backend: str,
    pg_server: PgServer | None,
) -> None:
    golden, status = campaign
    server = pg_server if backend == "postgresql" else None
    before = (status, _chain(golden))

    @settings(max_examples=EXAMPLES if server is None else EXAMPLES_PG)
    @given(args=invocations(name), stdin=STDIN)
    def check(args: list[str], stdin: bytes) -> None:
        _check(name, golden, before, server, args, stdin)

    _tries_at_least(10 if server is None else 2, name, backend, check)


STATES: dict[str, list[list[str]]] = {
    # Wrong phase: campaigns just created, before their setup.
    "colt-new": [["new", "colt", "-t", "T", "-p", "ana,bob,cleo", "--seed", "s"]],
    "rattlesnake-new": [["new", "rattlesnake", "-t", "T", "-p", "ana,bob,cyd", "--seed", "s"]],
    # In the middle of a game: Colt Express after its first round.
    "colt-round-2": [["play", "tests/scenarios/colt-pont.toml", "--keep"]],
    # After the end, one of each other game.
    "magot-over": [["play", "tests/scenarios/everyone-dies.toml", "--keep"]],
    "fistful-over": [["play", "tests/scenarios/fistful-short-table.toml", "--keep"]],
    "rattlesnake-over": [["play", "tests/scenarios/rattlesnake-last-tile.toml", "--keep"]],
}
"""The other states every command is tried in, each built once per backend."""

ROOT = Path(__file__).parents[2]


@pytest.fixture(scope="module")
def states(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], tuple[str, Any]]:
    """``state`` → (its SQLite database, its status and chain), built on first use."""
    built: dict[str, tuple[str, Any]] = {}

    def build(state: str) -> tuple[str, Any]:
        if state not in built:
            db = str(tmp_path_factory.mktemp("state") / f"{state}.db")
            cwd = os.getcwd()
            os.chdir(ROOT)
            try:
                for args in STATES[state]:
                    result = CliRunner().invoke(cli, ["--db", db, *args])
                    assert result.exit_code == 0, (state, args, result.output)
            finally:
                os.chdir(cwd)
            built[state] = db, (_status(db), _chain(db))
        return built[state]

    return build


@pytest.mark.parametrize("name", list(cli.commands))
@pytest.mark.parametrize("state", list(STATES))
def test_hostile_input_in_every_game_and_phase(states: Any, state: str, name: str) -> None:
    """Every command of every game, in the wrong phase, mid-game and after the end."""
    golden, before = states(state)

    @settings(max_examples=EXAMPLES_STATE)
    @given(args=invocations(name), stdin=STDIN)
    def check(args: list[str], stdin: bytes) -> None:
        _check(name, golden, before, None, args, stdin)

    _tries_at_least(3, name, "sqlite", check)


@pytest.mark.parametrize(
    ("args", "what"),
    [
        (["--db", "~nosuchuser0/gm.db", "list"], "database path '~nosuchuser0/gm.db'"),
        (["backup", "~nosuchuser0/copie.db"], "backup path '~nosuchuser0/copie.db'"),
        (["--templates", "~nosuchuser0/tpl", "pm", "fab"], "templates folder '~nosuchuser0/tpl'"),
    ],
)
def test_a_home_folder_that_does_not_exist_is_refused_clearly(
    campaign: tuple[str, dict[str, Any]], args: list[str], what: str
) -> None:
    # Path.expanduser raises a bare RuntimeError for an unknown ~user (found
    # by a longer run of the test above): it must be a clear usage error.
    db, before = campaign
    if args[0] == "backup" and "://" in db:
        pytest.skip("gm backup refuses PostgreSQL first (pg_dump is the tool there)")
    result = CliRunner().invoke(cli, ["--db", db, *args] if args[0] != "--db" else args)
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert result.exit_code == 2, result.output
    line = result.stderr.strip().splitlines()[-1]
    assert line.startswith("Error: ") and line.endswith("[input/path]"), line
    assert "cannot expand '~nosuchuser0'" in line
    assert f"in the {what}: no such home folder" in line
    assert _status(db) == before
