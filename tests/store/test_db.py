"""Opening the database: paths and URLs, the SQLite recipe (pragmas, IMMEDIATE
writes, lock-free reads), driver errors as StoreError, and backups."""

from __future__ import annotations

import os
import sqlite3
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event as sa_event
from sqlalchemy.exc import IntegrityError

from gm.errors import EXIT_STORE, StoreError
from gm.store import NewEvent, Store, StoredEvent, default_path, resolve_url
from gm.store.db import TEST_NO_FSYNC

Fill = Callable[[Store, str, int], list[StoredEvent]]


@pytest.mark.skipif(sys.platform != "linux", reason="XDG_DATA_HOME is the Linux convention")
def test_default_path_is_in_the_user_data_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert default_path() == tmp_path / "data" / "gm" / "gm.db"
    assert resolve_url(None) == f"sqlite:///{tmp_path / 'data' / 'gm' / 'gm.db'}"
    assert (tmp_path / "data" / "gm").is_dir()


def test_resolve_url_paths_and_urls(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert resolve_url("camp.db") == f"sqlite:///{tmp_path / 'camp.db'}"
    assert resolve_url(str(tmp_path / "a b.db")) == f"sqlite:///{tmp_path / 'a b.db'}"
    url = "postgresql+psycopg://gm:pw@db.example/gm"
    assert resolve_url(url) == url
    assert resolve_url("sqlite:///relative.db") == "sqlite:///relative.db"


@pytest.mark.durable
def test_sqlite_pragmas(sqlite_url: str) -> None:
    with Store(sqlite_url) as store, store.engine.connect() as conn:
        pragma = {
            name: conn.exec_driver_sql(f"PRAGMA {name}").scalar()
            for name in ("journal_mode", "foreign_keys", "synchronous", "busy_timeout")
        }
    assert pragma == {
        "journal_mode": "wal",
        "foreign_keys": 1,
        "synchronous": 2,
        "busy_timeout": 10000,
    }


def _durability(db_url: str, *, durable: bool = True) -> str:
    """How gm's own connection commits: SQLite's ``synchronous`` (0 OFF, 2 FULL);
    on PostgreSQL, ``synchronous_commit`` as gm's session overrides it
    (``off``), or ``server`` when gm leaves the server's setting alone."""
    with Store(db_url, durable=durable) as store, store.engine.connect() as conn:
        if conn.dialect.name == "sqlite":
            return str(conn.exec_driver_sql("PRAGMA synchronous").scalar())
        setting, source = conn.exec_driver_sql(
            "SELECT setting, source FROM pg_settings WHERE name = 'synchronous_commit'"
        ).one()
        return str(setting) if source in ("client", "session") else "server"


@pytest.mark.durable
def test_production_waits_for_the_disk_at_each_commit(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without GM_TEST_NO_FSYNC=1 (or with any other value), gm runs SQLite
    with synchronous=FULL and leaves PostgreSQL's synchronous_commit to the
    server (on by default)."""
    durable = "2" if db_url.startswith("sqlite") else "server"
    assert TEST_NO_FSYNC not in os.environ  # the durable marker: production settings
    assert _durability(db_url) == durable
    for value in ("0", "", "yes", "true"):
        monkeypatch.setenv(TEST_NO_FSYNC, value)
        assert _durability(db_url) == durable


@pytest.mark.durable
def test_a_store_nobody_keeps_does_not_wait_for_the_disk(db_url: str) -> None:
    """``durable=False`` (gm play's rehearsal) commits without waiting for the
    disk, even with the production settings; the default store still waits."""
    assert TEST_NO_FSYNC not in os.environ
    assert _durability(db_url, durable=False) == ("0" if db_url.startswith("sqlite") else "off")
    assert _durability(db_url) == ("2" if db_url.startswith("sqlite") else "server")


def test_the_suite_does_not_wait_for_the_disk(db_url: str) -> None:
    """Tests not marked durable run with GM_TEST_NO_FSYNC=1 (tests/conftest.py)."""
    assert os.environ[TEST_NO_FSYNC] == "1"
    assert _durability(db_url) == ("0" if db_url.startswith("sqlite") else "off")


def test_foreign_keys_are_enforced(sqlite_url: str) -> None:
    with (
        Store(sqlite_url) as store,
        store.engine.connect() as conn,
        conn.begin(),
        pytest.raises(IntegrityError, match="FOREIGN KEY"),
    ):
        conn.exec_driver_sql(
            "INSERT INTO posts (campaign_id, number, kind, at_seq, body, hash, created_at) "
            "VALUES (999, 1, 'k', 0, 'b', 'h', 't')"
        )


def _try_write_lock(path: str) -> bool:
    """Whether another process could take the write lock right now."""
    conn = sqlite3.connect(path, timeout=0, isolation_level=None)
    try:
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("ROLLBACK")
        return True
    except sqlite3.OperationalError as err:
        assert "locked" in str(err)
        return False
    finally:
        conn.close()


def test_reads_do_not_take_the_write_lock_but_writes_take_it_at_once(
    sqlite_url: str, fill: Fill
) -> None:
    path = sqlite_url.removeprefix("sqlite:///")
    with Store(sqlite_url) as store:
        with store.write() as w:
            w.create_campaign("c", "magot", "C")
        fill(store, "c", 1)
        with store.read() as r:
            r.events("c")
            assert _try_write_lock(path)
        with store.write("c") as w:
            assert not _try_write_lock(path)  # before anything was written
            w.events("c")


def test_locked_past_the_timeout_is_a_store_error(sqlite_url: str, fill: Fill) -> None:
    path = sqlite_url.removeprefix("sqlite:///")
    with Store(sqlite_url, busy_timeout_ms=200) as store:
        with store.write() as w:
            w.create_campaign("c", "magot", "C")
        fill(store, "c", 1)
        holder = sqlite3.connect(path, isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")
        try:
            assert len(store.events("c")) == 1  # readers still read under WAL
            started = time.monotonic()
            with pytest.raises(StoreError) as caught, store.write("c"):
                pass
            assert time.monotonic() - started < 5
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        err = caught.value
        assert err.code == "store/locked" and err.exit_code == EXIT_STORE
        assert path in err.message and "0.2 s" in err.message
        fill(store, "c", 1)  # usable again once the lock is gone
        assert store.verify_chain("c") == []


def test_postgresql_writer_waits_for_the_campaign_lock(db_url: str, fill: Fill) -> None:
    """Two writers of one campaign are serialised by SELECT … FOR UPDATE."""
    if not db_url.startswith("postgresql"):
        pytest.skip("PostgreSQL only (SQLite: the test above)")
    import psycopg
    from sqlalchemy import make_url

    with Store(db_url, busy_timeout_ms=300) as store:
        with store.write() as w:
            w.create_campaign("c", "magot", "C")
            w.create_campaign("d", "magot", "D")
        conninfo = make_url(db_url).set(drivername="postgresql").render_as_string(False)
        with psycopg.connect(conninfo) as holder:
            holder.execute("SELECT id FROM campaigns WHERE slug = 'c' FOR UPDATE")
            fill(store, "d", 1)  # another campaign is not blocked
            assert store.events("c") == []  # nor are readers
            with pytest.raises(StoreError) as caught, store.write("c"):
                pass
        assert caught.value.code == "store/locked"
        fill(store, "c", 1)
        assert store.last_seq("c") == 1


@pytest.mark.durable
def test_disk_full_is_a_store_error_and_writes_nothing(sqlite_url: str, fill: Fill) -> None:
    with Store(sqlite_url) as store:
        with store.write() as w:
            w.create_campaign("c", "magot", "C")
        fill(store, "c", 1)

        def no_room(dbapi_conn: Any, _record: Any) -> None:
            pages = dbapi_conn.execute("PRAGMA page_count").fetchone()[0]
            dbapi_conn.execute(f"PRAGMA max_page_count = {pages}")

        sa_event.listen(store.engine, "connect", no_room)
        store.engine.dispose()
        with pytest.raises(StoreError) as caught, store.write("c") as w:
            w.append("c", [NewEvent("k", "gm", "*", {"blob": "x" * 200_000})], 1)
        assert caught.value.code == "store/full"
        assert "full" in caught.value.message and "nothing was written" in caught.value.message
        sa_event.remove(store.engine, "connect", no_room)
        store.engine.dispose()
        assert store.last_seq("c") == 1 and store.verify_chain("c") == []


def test_not_a_database_file(tmp_path: Path) -> None:
    path = tmp_path / "notes.db"
    path.write_text("Chers joueurs, voici les règles du Magot.\n" * 50)
    with pytest.raises(StoreError) as caught, Store(str(path)) as store:
        store.campaigns()
    assert caught.value.code == "store/not-a-database"
    assert str(path) in caught.value.message


def test_missing_folder_cannot_be_opened(tmp_path: Path) -> None:
    path = tmp_path / "missing" / "gm.db"
    with pytest.raises(StoreError) as caught, Store(str(path)) as store:
        store.campaigns()
    assert caught.value.code == "store/cannot-open"
    assert str(path) in caught.value.message


@pytest.mark.postgresql
def test_unreachable_postgresql_hides_the_password() -> None:
    pytest.importorskip(
        "psycopg", reason="needs psycopg, PostgreSQL's driver: pip install -e '.[postgresql]'"
    )
    url = "postgresql+psycopg://gm:s3cret@127.0.0.1:1/gm?connect_timeout=2"
    with pytest.raises(StoreError) as caught, Store(url) as store:
        store.campaigns()
    assert caught.value.code == "store/unavailable"
    assert "127.0.0.1:1/gm" in caught.value.message and "s3cret" not in caught.value.message


@pytest.mark.parametrize("url", ["mysql://gm@localhost/gm", "sqlite+nope://"])
def test_unsupported_or_malformed_urls(url: str) -> None:
    with pytest.raises(StoreError) as caught, Store(url) as store:
        store.campaigns()
    assert caught.value.code in {"store/bad-url", "store/unavailable"}


def test_backup_copies_and_never_overwrites(sqlite_url: str, tmp_path: Path, fill: Fill) -> None:
    target = tmp_path / "copy.db"
    with Store(sqlite_url) as store:
        with store.write() as w:
            w.create_campaign("c", "magot", "C")
        fill(store, "c", 3)
        assert store.backup(target) == target
        with pytest.raises(StoreError) as caught:
            store.backup(target)
    assert caught.value.code == "store/backup-exists"
    with Store(str(target)) as copy:
        assert copy.last_seq("c") == 3 and copy.verify_chain("c") == []


def test_backup_is_sqlite_only(tmp_path: Path) -> None:
    with pytest.raises(StoreError) as caught:
        Store("postgresql+psycopg://gm@127.0.0.1:1/gm").backup(tmp_path / "x.db")
    assert caught.value.code == "store/backup-unsupported"
    assert not (tmp_path / "x.db").exists()
