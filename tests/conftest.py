"""Shared test setup: Hypothesis profiles, an isolated environment for every
test, and the databases tests run on.

Every test that touches a database takes it from the ``db`` fixture (or
``new_db`` for more than one), never from a path of its own: those tests run
once on a fresh SQLite file and, when ``GM_TEST_PG_URL`` names a PostgreSQL
server (a URL to a database the user may create databases from, e.g.
``postgresql+psycopg://gm@/postgres?host=/tmp/gm-pg&port=54329``; ``.ci/run``
starts a throw-away one), once more on a fresh PostgreSQL database if they
are in ``PG_DIRS`` or ``PG_CLI``. Their ids say which:
``test_x[sqlite]``, ``test_x[postgresql]``. Tests about something
only SQLite has (its file, its pragmas, its backup, a full disk under it), or
about no database at all (the players' checker, an oracle's coverage), use a
file of their own.

Without ``GM_TEST_PG_URL`` or psycopg (``pip install -e '.[test]' && pytest``
on a fresh machine) the suite passes on SQLite, and the tests that need
PostgreSQL or its driver skip, saying so. Those tests carry the marker
``postgresql`` (set here on every ``[postgresql]`` run, and by hand on the
tests of the driver's messages): ``.ci/run`` first runs the suite as the
README says, then installs psycopg, starts a server and runs
``pytest -m postgresql`` with ``GM_TEST_REQUIRE_POSTGRESQL=1``, which makes a
missing server or driver an error instead of a skip.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
from support import PG_ENV, CloneDb, NewDb, PgServer

from gm.store.db import TEST_NO_FSYNC

# CI runs a fixed, bounded profile: derandomized so a red build can be
# reproduced, and capped so the suite stays well under the CI time limit.
settings.register_profile(
    "ci",
    derandomize=True,
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("dev", max_examples=100, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))

BACKENDS = ["sqlite", "postgresql"] if os.environ.get(PG_ENV) else ["sqlite"]


def pytest_report_header() -> str:
    if "postgresql" in BACKENDS:
        return "gm databases: sqlite and postgresql (GM_TEST_PG_URL)"
    return f"gm databases: sqlite only (set {PG_ENV} to run the database tests on PostgreSQL too)"


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    import support

    for line in support.REPORT:
        terminalreporter.write_line(line)


REQUIRE_PG_ENV = "GM_TEST_REQUIRE_POSTGRESQL"
"""Set to 1 (CI's PostgreSQL pass), a run without a server or psycopg fails at once."""


def pytest_sessionstart(session: pytest.Session) -> None:
    # CI's PostgreSQL pass must never pass by silently skipping PostgreSQL.
    if os.environ.get(REQUIRE_PG_ENV) != "1":
        return
    if "postgresql" not in BACKENDS:
        raise pytest.UsageError(f"{REQUIRE_PG_ENV}=1 needs a PostgreSQL server: set {PG_ENV}")
    try:
        import psycopg  # noqa: F401
    except ImportError as err:
        raise pytest.UsageError(
            f"{REQUIRE_PG_ENV}=1 needs psycopg: pip install -e '.[postgresql]'"
        ) from err


PG_DIRS = ("store", "reliability", "conformance")
"""The folders of ``tests/`` whose database tests all run on PostgreSQL too:
the store itself, crashes and concurrency, and whole games of every game."""

PG_CLI = (
    "test_hostile_input.py",  # every command, on a campaign copied per input
    "test_input_edges.py",  # a database edited in place, damaged rows
    "test_verify.py",
    "test_transfer.py",
    "test_tampered_archives.py",
    "test_undo.py",
    "test_old_campaigns.py",
    "test_seats.py",  # an event that gains a field, read back from each database
    "test_current_campaign.py",
    "test_no_password.py",
)
"""The command-line tests that run on PostgreSQL too: every command (the
hostile suite tries each one there), and the commands whose work is the
database's — verify, export and import, undo, old logs, damaged rows. The
other commands' tests, and a game's rules, posts and scenarios, reach the
database only through that same store code: their ``[postgresql]`` runs are
left out, so that ``pytest -m postgresql`` stays within CI's time budget."""


def _on_postgresql(item: pytest.Item, tests: Path) -> bool:
    parts = Path(item.path).relative_to(tests).parts
    return parts[0] in PG_DIRS or (parts[0] == "cli" and parts[-1] in PG_CLI)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark ``postgresql`` every test that runs on PostgreSQL: the
    ``[postgresql]`` runs of the database fixtures in ``PG_DIRS`` and
    ``PG_CLI``, and tests that take the server (``pg_server``) without a
    backend of their own. The other ``[postgresql]`` runs are deselected."""
    tests = Path(__file__).parent
    kept: list[pytest.Item] = []
    dropped: list[pytest.Item] = []
    for item in items:
        callspec = getattr(item, "callspec", None)
        backend = callspec.params.get("backend") if callspec is not None else None
        names = getattr(item, "fixturenames", ())
        if backend == "postgresql" and not _on_postgresql(item, tests):
            dropped.append(item)
            continue
        if backend == "postgresql" or ("pg_server" in names and "backend" not in names):
            item.add_marker(pytest.mark.postgresql)
        kept.append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept


@pytest.fixture(autouse=True)
def _isolated(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path_factory: pytest.TempPathFactory,
    request: pytest.FixtureRequest,
) -> None:
    """No test reads the MJ's real database, campaign, templates or cache; and gm does
    not wait for the disk at each commit (``GM_TEST_NO_FSYNC=1``, see
    ``gm.store.db``) unless the test is marked ``durable``: a test of crashes,
    of a full disk or of the durability settings runs with production's."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / "data"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / "cache"))  # compiled templates
    for var in ("GM_DB", "GM_CAMPAIGN", "GM_TEMPLATES"):
        monkeypatch.delenv(var, raising=False)
    if request.node.get_closest_marker("durable") is None:
        monkeypatch.setenv(TEST_NO_FSYNC, "1")
    else:
        monkeypatch.delenv(TEST_NO_FSYNC, raising=False)


FROZEN_NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
"""The time gm reads under ``frozen_clock``: a Tuesday, two days before the
usual test deadline (jeudi 3 décembre 2026 à 20 h 00)."""


@pytest.fixture
def frozen_clock(monkeypatch: pytest.MonkeyPatch) -> datetime:
    """Freeze gm's wall clock at ``FROZEN_NOW``, so deadlines and the time left
    print the same today and in a year: the clock gm reads (``Env.now``),
    which is also the one that stamps each record (``Env.store``), from
    which a message sent after its deadline is told (a late reply)."""
    import gm.service.env

    monkeypatch.setattr(gm.service.env, "utcnow", lambda: FROZEN_NOW)
    return FROZEN_NOW


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer | None]:
    admin = os.environ.get(PG_ENV)
    if not admin:
        yield None
        return
    server = PgServer(admin)
    yield server
    server.close()


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    """The database engine this run of the test uses: ``sqlite`` or ``postgresql``."""
    return str(request.param)


@pytest.fixture
def new_db(backend: str, tmp_path: Path, pg_server: PgServer | None) -> Iterator[NewDb]:
    """``new_db(name="gm")``: a fresh, empty database as a ``--db`` value
    (a SQLite file path, or a PostgreSQL URL), dropped after the test."""
    made: list[str] = []

    def make(name: str = "gm") -> str:
        if backend == "sqlite":
            path = tmp_path / f"{name}.db"
            if path.exists():
                raise ValueError(f"the test already has a database {name!r}")
            return str(path)
        assert pg_server is not None
        url = pg_server.create()
        made.append(url)
        return url

    yield make
    if pg_server is not None:
        for url in made:
            pg_server.drop(url)


@pytest.fixture
def clone_db(backend: str, tmp_path: Path, pg_server: PgServer | None) -> Iterator[CloneDb]:
    """``clone_db(db)``: a copy of the database ``db`` (SQLite's online backup,
    or PostgreSQL's ``CREATE DATABASE … TEMPLATE``), dropped after the test."""
    from gm.store.db import sqlite_backup

    made: list[str] = []

    def clone(source: str) -> str:
        if backend == "sqlite":
            target = tmp_path / f"clone-{uuid.uuid4().hex[:8]}.db"
            sqlite_backup(Path(source), target)
            return str(target)
        assert pg_server is not None
        url = pg_server.create(template=source)
        made.append(url)
        return url

    yield clone
    if pg_server is not None:
        for url in made:
            pg_server.drop(url)


@pytest.fixture
def db(new_db: NewDb) -> str:
    """A fresh, empty database as a ``--db`` value (a path or a URL)."""
    return new_db()
