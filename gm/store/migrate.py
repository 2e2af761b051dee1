"""Bringing a database to the schema this gm expects.

``migrate(engine)`` first reads ``alembic_version`` with one cheap query;
only when the database is behind does it import Alembic (slow to import, so
kept off the normal path) and run the upgrade, inside one write transaction
that also serialises two gm processes migrating at the same time. Before
upgrading an existing SQLite database it writes a backup beside it
(``gm.db.backup-<revision>-<UTC time>``), using the online backup API.
A database written by a newer gm is refused, never touched.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import Connection, Engine
from sqlalchemy.exc import OperationalError

from gm.errors import StoreError
from gm.store import migrations
from gm.store.db import WRITE, display_url, sqlite_backup, sqlite_path, translate_errors

TABLES = ("campaigns", "events", "posts", "settings", "snapshots")
"""gm's own tables (revision ``0001``'s, and ``0005``'s snapshots)."""

# Serialises concurrent migrations on PostgreSQL (an arbitrary, fixed key:
# "gm" in ASCII). SQLite needs nothing: the upgrade runs in BEGIN IMMEDIATE.
_PG_MIGRATION_LOCK = 0x676D


@dataclass(frozen=True)
class Migration:
    """What ``migrate`` did: from which revision to which, and the backup made."""

    from_revision: str | None
    to_revision: str
    backup: Path | None


def read_revision(conn: Connection) -> str | None:
    """The database's Alembic revision, or ``None`` if it has none (new or foreign)."""
    if conn.dialect.name == "postgresql":
        exists = conn.exec_driver_sql("SELECT to_regclass('alembic_version')").scalar()
        if exists is None:
            return None
        rows = conn.exec_driver_sql("SELECT version_num FROM alembic_version").scalars().all()
    else:
        try:
            rows = conn.exec_driver_sql("SELECT version_num FROM alembic_version").scalars().all()
        except OperationalError as err:
            if "no such table" in str(err.orig):
                return None
            raise
    if not rows:
        return None
    # gm's history is linear: one row. Several rows would be branches that
    # this gm did not write; the newest-looking one decides the refusal.
    known = [r for r in rows if r in migrations.REVISIONS]
    unknown = [r for r in rows if r not in migrations.REVISIONS]
    if unknown:
        return str(unknown[0])
    return max(known, key=migrations.REVISIONS.index)


def _check_known(revision: str | None, where: str) -> None:
    if revision is not None and revision not in migrations.REVISIONS:
        raise StoreError(
            f"the database {where} was written by a newer gm (revision {revision}); "
            f"upgrade gm (this one knows revisions up to {migrations.HEAD})",
            code="store/too-new",
        )


def schema_revision(engine: Engine) -> str | None:
    """Read the revision without a write lock; refuse a database from a newer gm.

    :raises StoreError: the database cannot be read, or is too new.
    """
    where = display_url(engine.url)
    with translate_errors(where), engine.connect() as conn, conn.begin():
        revision = read_revision(conn)
    _check_known(revision, where)
    return revision


def _foreign_tables(conn: Connection) -> list[str]:
    """Tables that forbid creating gm's schema in a database without a revision."""
    if conn.dialect.name == "sqlite":
        # A gm SQLite file is gm's alone: any table means it is something else.
        # (An empty alembic_version is what a downgrade to base leaves.)
        names = conn.exec_driver_sql(
            "SELECT name FROM sqlite_master WHERE type = 'table' "
            "AND name NOT LIKE 'sqlite_%' AND name != 'alembic_version'"
        ).scalars()
        return sorted(names)
    # A PostgreSQL schema may be shared with other applications: only tables
    # named like ours are in the way.
    names = conn.exec_driver_sql(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
    ).scalars()
    return sorted(n for n in names if n in TABLES)


def backup_name(db: Path, revision: str, moment: datetime | None = None) -> Path:
    """Where the automatic pre-upgrade backup of ``db`` at ``revision`` goes."""
    stamp = (moment or datetime.now(UTC)).astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")
    return db.with_name(f"{db.name}.backup-{revision}-{stamp}")


def _run_alembic_upgrade(conn: Connection) -> None:
    # Imported here: Alembic costs a few hundred milliseconds at start-up and
    # is needed only when the schema changes.
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(Path(migrations.__file__).parent))
    config.attributes["connection"] = conn
    command.upgrade(config, migrations.HEAD)


def migrate(engine: Engine, *, backup: bool = True) -> Migration | None:
    """Upgrade the database to ``migrations.HEAD``; ``None`` if it already is.

    :raises StoreError: the database is from a newer gm, is not a gm
        database, cannot be backed up, or cannot be opened.
    """
    revision = schema_revision(engine)
    if revision == migrations.HEAD:
        return None
    where = display_url(engine.url)
    with translate_errors(where), engine.connect() as conn:
        conn = conn.execution_options(**{WRITE: True})
        with conn.begin():
            if conn.dialect.name == "postgresql":
                conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({_PG_MIGRATION_LOCK})")
            # Read again under the lock: another gm may have migrated meanwhile.
            revision = read_revision(conn)
            _check_known(revision, where)
            if revision == migrations.HEAD:
                return None
            if revision is None:
                foreign = _foreign_tables(conn)
                if foreign:
                    raise StoreError(
                        f"{where} is not a gm database (it has tables {', '.join(foreign)} "
                        "but no gm schema version); gm will not change it: choose another "
                        "--db / GM_DB",
                        code="store/not-gm",
                    )
            made = None
            path = sqlite_path(engine.url)
            if backup and revision is not None and path is not None:
                made = backup_name(path, revision)
                sqlite_backup(path, made)
            _run_alembic_upgrade(conn)
    return Migration(from_revision=revision, to_revision=migrations.HEAD, backup=made)


def require_head(engine: Engine) -> None:
    """Refuse a database that is not at ``migrations.HEAD`` (no upgrade attempted).

    :raises StoreError: the database is behind (``gm db upgrade``) or too new.
    """
    revision = schema_revision(engine)
    if revision != migrations.HEAD:
        raise StoreError(
            f"the database {display_url(engine.url)} is at revision {revision or '(none)'}, "
            f"this gm needs {migrations.HEAD}: run `gm db upgrade`",
            code="store/needs-upgrade",
        )
