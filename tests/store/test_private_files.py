"""The database holds every campaign's seed: gm creates its SQLite file (and
the -wal and -shm files beside it), ``gm backup`` copies and the automatic
pre-upgrade backups readable by their owner only (0600), and its default
data folder for its owner only (0700). A folder the user chose keeps its
mode. Every test runs under the common umask 022, which would give 0644."""

from __future__ import annotations

import os
import stat
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from support import Gm

from gm.cli import cli
from gm.store import Store, default_path, migrate, migrations
from gm.store.db import resolve_url, sqlite_backup

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX file modes")

Fill = Callable[[Store, str, int], object]


@pytest.fixture(autouse=True)
def _umask_022() -> Iterator[None]:
    old = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(old)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_a_new_database_and_its_wal_and_shm_are_0600(tmp_path: Path, fill: Fill) -> None:
    folder = tmp_path / "mine"
    folder.mkdir(mode=0o755)
    db = folder / "gm.db"
    with Store(str(db)) as store:
        with store.write() as w:
            w.create_campaign("c", "magot", "C")
        fill(store, "c", 2)
        # the pooled connection keeps the -wal and -shm files open here
        made = {p.name: mode(p) for p in folder.iterdir()}
    assert made == {"gm.db": 0o600, "gm.db-wal": 0o600, "gm.db-shm": 0o600}
    assert mode(folder) == 0o755  # the user's folder keeps its mode


def test_gm_new_with_db_creates_the_file_0600_and_leaves_the_folder(tmp_path: Path) -> None:
    folder = tmp_path / "shared"
    folder.mkdir()
    folder.chmod(0o775)
    db = folder / "camp.db"
    Gm(str(db))("new", "magot", "--title", "T", "--players", "a,b,c")
    assert mode(db) == 0o600
    assert mode(folder) == 0o775


def test_an_existing_database_keeps_its_mode(tmp_path: Path) -> None:
    """The user's own file: gm does not chmod it (they may share it on purpose)."""
    db = tmp_path / "gm.db"
    with Store(str(db)) as store:
        store.open()
    db.chmod(0o640)
    Gm(str(db))("list")
    assert mode(db) == 0o640


def test_the_default_folder_is_created_0700(tmp_path: Path) -> None:
    """The user data folder of the run (XDG_DATA_HOME, set by conftest)."""
    path = default_path()
    assert not path.parent.exists()
    # no --db: the default database
    result = CliRunner().invoke(cli, ["new", "magot", "--title", "T", "--players", "a,b,c"])
    assert result.exit_code == 0, result.output
    assert mode(path.parent) == 0o700
    assert mode(path) == 0o600


def test_an_open_default_folder_left_by_an_older_gm_is_closed() -> None:
    folder = default_path().parent
    folder.mkdir(parents=True)
    folder.chmod(0o755)
    resolve_url(None)
    assert mode(folder) == 0o700


def test_a_default_folder_the_user_linked_elsewhere_keeps_its_mode(tmp_path: Path) -> None:
    shared = tmp_path / "shared"
    shared.mkdir(mode=0o755)
    folder = default_path().parent
    folder.parent.mkdir(parents=True)
    folder.symlink_to(shared)
    resolve_url(None)
    assert mode(shared) == 0o755


def test_gm_backup_is_0600(tmp_path: Path) -> None:
    db = tmp_path / "gm.db"
    gm = Gm(str(db))
    gm("new", "magot", "--title", "T", "--players", "a,b,c")
    gm("backup", str(tmp_path / "copie.db"))
    assert mode(tmp_path / "copie.db") == 0o600


def test_the_pre_upgrade_backup_is_0600(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fill: Fill
) -> None:
    db = tmp_path / "gm.db"
    with Store(str(db)) as store:
        with store.write() as w:
            w.create_campaign("old", "magot", "Old")
        fill(store, "old", 1)
        with store.engine.begin() as conn:
            conn.exec_driver_sql("UPDATE alembic_version SET version_num = '0000'")
    monkeypatch.setattr(migrations, "REVISIONS", ("0000", migrations.HEAD))
    monkeypatch.setattr(
        migrate,
        "_run_alembic_upgrade",
        lambda conn: conn.exec_driver_sql(
            f"UPDATE alembic_version SET version_num = '{migrations.HEAD}'"
        ),
    )
    with Store(str(db)) as store:
        done = store.open()
    assert done is not None and done.backup is not None
    assert mode(done.backup) == 0o600


def test_private_files_whatever_the_umask(tmp_path: Path) -> None:
    from gm.store.db import create_private_file

    os.umask(0o277)  # would make a read-only file
    create_private_file(tmp_path / "a")
    os.umask(0o000)  # would make a world-writable one
    create_private_file(tmp_path / "b")
    assert mode(tmp_path / "a") == mode(tmp_path / "b") == 0o600
    with pytest.raises(FileExistsError):
        create_private_file(tmp_path / "a")


def test_sqlite_backup_of_a_shared_file_is_still_0600(tmp_path: Path) -> None:
    db = tmp_path / "gm.db"
    with Store(str(db)) as store:
        store.open()
    db.chmod(0o644)
    sqlite_backup(db, tmp_path / "copy.db")
    assert mode(tmp_path / "copy.db") == 0o600
