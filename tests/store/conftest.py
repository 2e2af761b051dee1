"""Fixtures for the store tests: a database URL per test, on SQLite and PostgreSQL.

``db_url`` runs a test on a fresh SQLite file and, when ``GM_TEST_PG_URL``
names a PostgreSQL server (a URL to a database the user may create databases
from, e.g. ``postgresql+psycopg://gm@/postgres?host=/tmp/gm-pg&port=54329``),
again on a fresh PostgreSQL database; otherwise the PostgreSQL run is skipped.
``Raw`` talks to the database behind gm's back, as a tamperer would.
"""

from __future__ import annotations

import os
import sqlite3
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, make_url

from gm.store import NewEvent, Store, StoredEvent

PG_ENV = "GM_TEST_PG_URL"


def _pg_admin_url() -> str | None:
    return os.environ.get(PG_ENV) or None


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'gm.db'}"


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'gm.db'}"
        return
    admin = _pg_admin_url()
    if admin is None:
        pytest.skip(f"PostgreSQL tests need {PG_ENV}")
    name = f"gm_test_{uuid.uuid4().hex[:12]}"
    engine = create_engine(admin, isolation_level="AUTOCOMMIT")
    with engine.connect() as conn:
        conn.exec_driver_sql(f'CREATE DATABASE "{name}"')
    try:
        yield make_url(admin).set(database=name).render_as_string(hide_password=False)
    finally:
        with engine.connect() as conn:
            conn.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        engine.dispose()


@pytest.fixture
def store(db_url: str) -> Iterator[Store]:
    with Store(db_url) as s:
        yield s


@pytest.fixture
def campaign(store: Store) -> str:
    """A campaign ``test`` with an empty log."""
    with store.write() as w:
        w.create_campaign("test", "magot", "Le Magot de test")
    return "test"


def make_event(n: int, **payload: Any) -> NewEvent:
    """A small public test event."""
    return NewEvent("test.happened", "gm", "*", {"n": n, **payload})


def append_events(store: Store, slug: str, count: int) -> list[StoredEvent]:
    """Append ``count`` test events to ``slug`` in one unit of work."""
    with store.write(slug) as w:
        last = w.last_seq(slug)
        return w.append(
            slug, [make_event(last + i) for i in range(1, count + 1)], expected_seq=last
        )


@pytest.fixture(name="event")
def event_fixture() -> Callable[..., NewEvent]:
    """``event(n, **payload)``: a small public test event."""
    return make_event


@pytest.fixture(name="fill")
def fill_fixture() -> Callable[[Store, str, int], list[StoredEvent]]:
    """``fill(store, slug, count)``: append ``count`` test events in one unit of work."""
    return append_events


class Raw:
    """Direct driver access to the database, bypassing gm (autocommit)."""

    def __init__(self, url: str) -> None:
        self.url = make_url(url)
        self.dialect = self.url.get_backend_name()

    def _connect(self) -> Any:
        if self.dialect == "sqlite":
            conn = sqlite3.connect(self.url.database or "", isolation_level=None)
            return conn
        import psycopg

        conninfo = self.url.set(drivername="postgresql").render_as_string(hide_password=False)
        return psycopg.connect(conninfo, autocommit=True)

    def execute(self, sql: str) -> list[tuple[Any, ...]]:
        """Run one statement (no parameters: write literals) and fetch its rows."""
        conn = self._connect()
        try:
            cur = conn.execute(sql)
            return list(cur.fetchall()) if cur.description else []
        finally:
            conn.close()

    def tamper(self, sql: str) -> None:
        """Run ``sql`` with the append-only triggers out of the way, as a cheater would."""
        if self.dialect == "sqlite":
            for trigger in ("events_no_update", "events_no_delete"):
                self.execute(f"DROP TRIGGER IF EXISTS {trigger}")
            self.execute(sql)
        else:
            self.execute("ALTER TABLE events DISABLE TRIGGER USER")
            self.execute(sql)
            self.execute("ALTER TABLE events ENABLE TRIGGER USER")


@pytest.fixture(name="raw")
def raw_fixture(db_url: str, store: Store) -> Raw:
    store.open()  # the schema exists before anyone tampers with it
    return Raw(db_url)
