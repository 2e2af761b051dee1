"""Fixtures for the store tests: a database URL per test, on SQLite and PostgreSQL.

``db_url`` is the root conftest's ``db`` as a SQLAlchemy URL: a fresh SQLite
file and, when ``GM_TEST_PG_URL`` names a server, a fresh PostgreSQL
database. ``Raw`` talks to the database behind gm's back, as a tamperer would.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from support import Raw

from gm.store import NewEvent, Store, StoredEvent
from gm.store.db import resolve_url


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'gm.db'}"


@pytest.fixture
def db_url(db: str) -> str:
    return resolve_url(db)


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


@pytest.fixture(name="raw")
def raw_fixture(db_url: str, store: Store) -> Raw:
    store.open()  # the schema exists before anyone tampers with it
    return Raw(db_url)
