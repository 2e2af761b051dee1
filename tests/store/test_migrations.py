"""Migrations: blank → head, idempotence, newer and foreign databases refused,
the pre-upgrade backup, and the migrated schema equal to the models."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from sqlalchemy import Connection, Engine, create_engine, text

from gm.errors import StoreError
from gm.store import Store, migrate, migrations
from gm.store.db import open_engine, resolve_url
from gm.store.migrate import backup_name, read_revision

Fill = Callable[[Store, str, int], object]

ALL_TABLES = {"alembic_version", "campaigns", "events", "posts", "settings"}


def _tables(conn: Connection) -> set[str]:
    if conn.dialect.name == "sqlite":
        sql = "SELECT name FROM sqlite_master WHERE type = 'table'"
    else:
        sql = "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'"
    return set(conn.exec_driver_sql(sql).scalars())


def _triggers(conn: Connection) -> set[str]:
    if conn.dialect.name == "sqlite":
        sql = "SELECT name FROM sqlite_master WHERE type = 'trigger'"
    else:
        sql = "SELECT tgname FROM pg_trigger WHERE NOT tgisinternal"
    return set(conn.exec_driver_sql(sql).scalars())


def _set_revision(url: str, revision: str) -> None:
    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = :r"), {"r": revision})
    engine.dispose()


def test_blank_database_migrates_to_head_with_tables_and_triggers(db_url: str) -> None:
    engine = open_engine(db_url)
    try:
        done = migrate.migrate(engine)
        assert done == migrate.Migration(None, migrations.HEAD, None)
        with engine.connect() as conn:
            assert _tables(conn) >= ALL_TABLES
            assert read_revision(conn) == migrations.HEAD
            triggers = _triggers(conn)
        if engine.dialect.name == "sqlite":
            assert triggers == {
                "events_no_update",
                "events_no_delete",
                "posts_no_update",
                "posts_no_delete",
            }
        else:
            assert triggers == {
                "events_append_only",
                "events_no_truncate",
                "posts_append_only",
                "posts_no_truncate",
            }
    finally:
        engine.dispose()


def test_migrate_twice_is_a_no_op(db_url: str) -> None:
    engine = open_engine(db_url)
    try:
        assert migrate.migrate(engine) is not None
        assert migrate.migrate(engine) is None
    finally:
        engine.dispose()
    with Store(db_url) as store:
        assert store.open() is None


def test_up_to_date_database_does_not_import_alembic(sqlite_url: str) -> None:
    """Start-up speed: Alembic is imported only when an upgrade is needed."""
    with Store(sqlite_url) as store:
        store.open()
    code = (
        "import sys; from gm.store import Store; "
        f"Store({sqlite_url!r}).campaigns(); "
        "print('alembic' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_database_from_newer_gm_is_refused_untouched(db_url: str) -> None:
    with Store(db_url) as store:
        store.open()
    _set_revision(db_url, "9999")
    with pytest.raises(StoreError) as caught, Store(db_url) as store:
        store.campaigns()
    assert caught.value.code == "store/too-new"
    assert "newer gm (revision 9999); upgrade gm" in caught.value.message
    engine = create_engine(db_url)
    with engine.connect() as conn:
        assert read_revision(conn) == "9999"
    engine.dispose()


def test_foreign_sqlite_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "other.db"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE recipes (name TEXT)")
    with pytest.raises(StoreError) as caught, Store(str(path)) as store:
        store.campaigns()
    assert caught.value.code == "store/not-gm"
    assert str(path) in caught.value.message and "recipes" in caught.value.message


def test_backup_is_made_before_upgrading_an_older_database(
    sqlite_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fill: Fill
) -> None:
    """Simulate a database one revision behind: gm knows "0000" → HEAD."""
    with Store(sqlite_url) as store:
        store.open()
        with store.write() as w:
            w.create_campaign("old", "magot", "Old")
        fill(store, "old", 3)
    _set_revision(sqlite_url, "0000")
    monkeypatch.setattr(migrations, "REVISIONS", ("0000", migrations.HEAD))
    upgraded: list[str | None] = []

    def fake_upgrade(conn: Connection) -> None:
        upgraded.append(read_revision(conn))
        conn.exec_driver_sql(f"UPDATE alembic_version SET version_num = '{migrations.HEAD}'")

    monkeypatch.setattr(migrate, "_run_alembic_upgrade", fake_upgrade)
    with Store(sqlite_url) as store:
        done = store.open()
    assert upgraded == ["0000"]
    assert done is not None and done.from_revision == "0000" and done.backup is not None
    db = tmp_path / "gm.db"
    assert done.backup.parent == db.parent
    assert done.backup.name.startswith("gm.db.backup-0000-")
    with sqlite3.connect(done.backup) as copy:
        assert copy.execute("SELECT version_num FROM alembic_version").fetchone() == ("0000",)
        assert copy.execute("SELECT count(*) FROM events").fetchone() == (3,)
        assert copy.execute("PRAGMA integrity_check").fetchone() == ("ok",)


def test_backup_name() -> None:
    from datetime import UTC, datetime

    moment = datetime(2025, 1, 31, 20, 15, 7, tzinfo=UTC)
    assert backup_name(Path("/x/gm.db"), "0001", moment) == Path(
        "/x/gm.db.backup-0001-20250131T201507Z"
    )


def test_the_tables_are_sqlmodel_classes_on_one_metadata() -> None:
    """The SQLModel classes are the one declaration of the schema; the store's
    Core statements use their tables under the module-level names."""
    from sqlmodel import SQLModel

    from gm.store import models

    classes = {
        "campaigns": models.CampaignRow,
        "events": models.EventRow,
        "posts": models.PostRow,
        "settings": models.SettingRow,
    }
    for name, cls in classes.items():
        assert issubclass(cls, SQLModel) and cls.model_config.get("table") is True
        assert getattr(models, name) is cls.__table__  # type: ignore[attr-defined]
        assert SQLModel.metadata.tables[name] is cls.__table__  # type: ignore[attr-defined]
    assert models.metadata is SQLModel.metadata


def test_migrated_schema_equals_the_models(db_url: str) -> None:
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext
    from sqlmodel import SQLModel

    import gm.store.models  # noqa: F401  (declares the tables)

    engine = open_engine(db_url)
    try:
        migrate.migrate(engine)
        with engine.connect() as conn:
            diff = compare_metadata(MigrationContext.configure(conn), SQLModel.metadata)
    finally:
        engine.dispose()
    assert diff == []


def _schema(url: str) -> dict[str, object]:
    """Every table of gm as the database describes it: columns with their types,
    nullability and defaults, keys, unique and check constraints, indexes."""
    from sqlalchemy import inspect

    engine = open_engine(url)
    try:
        insp = inspect(engine)
        schema: dict[str, object] = {}
        for table in migrate.TABLES:
            columns = [
                (c["name"], str(c["type"]), c["nullable"], c.get("default"))
                for c in insp.get_columns(table)
            ]
            fks = sorted(
                (tuple(f["constrained_columns"]), f["referred_table"], tuple(f["referred_columns"]))
                for f in insp.get_foreign_keys(table)
            )
            uniques = sorted(
                (u["name"], tuple(u["column_names"])) for u in insp.get_unique_constraints(table)
            )
            checks = sorted((c["name"], c["sqltext"]) for c in insp.get_check_constraints(table))
            indexes = sorted(
                (i["name"], tuple(i["column_names"]), i["unique"]) for i in insp.get_indexes(table)
            )
            pk = insp.get_pk_constraint(table)["constrained_columns"]
            schema[table] = (columns, pk, fks, uniques, checks, indexes)
        return schema
    finally:
        engine.dispose()


def test_the_models_build_the_schema_the_migrations_build(new_db: Callable[..., str]) -> None:
    """create_all() of the SQLModel classes and revisions 0001 to head give the
    same tables, column for column and constraint for constraint (the
    revisions stay the only way gm builds a database)."""
    from sqlmodel import SQLModel

    import gm.store.models  # noqa: F401  (declares the tables)

    migrated, created = (resolve_url(new_db(name)) for name in ("migrated", "created"))
    engine = open_engine(migrated)
    try:
        migrate.migrate(engine)
    finally:
        engine.dispose()
    engine = open_engine(created)
    try:
        SQLModel.metadata.create_all(
            engine, tables=[SQLModel.metadata.tables[t] for t in migrate.TABLES]
        )
    finally:
        engine.dispose()
    assert _schema(created) == _schema(migrated)


def test_alembic_compares_the_sqlmodel_metadata_and_writes_plain_types(
    db_url: str, tmp_path: Path
) -> None:
    """env.py's target metadata is SQLModel's: a table declared on it shows up
    in autogenerate, and a str column (SQLModel's AutoString) is written as
    sa.String(), so revisions never import sqlmodel."""
    import shutil

    from alembic import command
    from alembic.config import Config
    from sqlalchemy import Column, Integer, Table
    from sqlmodel import SQLModel
    from sqlmodel.sql.sqltypes import AutoString

    engine = open_engine(db_url)
    scripts = tmp_path / "migrations"
    shutil.copytree(Path(migrations.__file__).parent, scripts)
    config = Config()
    config.set_main_option("script_location", str(scripts))
    probe = Table(
        "gm_probe",
        SQLModel.metadata,
        Column("id", Integer, primary_key=True),
        Column("name", AutoString, nullable=False),
    )
    try:
        migrate.migrate(engine)
        with engine.connect() as conn:
            config.attributes["connection"] = conn
            command.revision(config, "probe", autogenerate=True, rev_id="9999")
    finally:
        SQLModel.metadata.remove(probe)
        engine.dispose()
    (written,) = (scripts / "versions").glob("9999_*.py")
    text = written.read_text()
    upgrade = text[text.index("def upgrade") : text.index("def downgrade")]
    assert "op.create_table('gm_probe'" in upgrade
    assert upgrade.count("op.") == 1  # gm's own tables match the metadata
    assert "sa.Column('name', sa.String(), nullable=False)" in upgrade
    assert "sqlmodel" not in text


def test_revisions_constant_matches_the_scripts() -> None:
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    config = Config()
    config.set_main_option("script_location", str(Path(migrations.__file__).parent))
    scripts = ScriptDirectory.from_config(config)
    ordered = [s.revision for s in reversed(list(scripts.walk_revisions()))]
    assert tuple(ordered) == migrations.REVISIONS
    assert scripts.get_current_head() == migrations.HEAD


def _alembic(engine: Engine, direction: str, revision: str) -> None:
    """Run Alembic's upgrade or downgrade to ``revision`` in one transaction, as gm does."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(Path(migrations.__file__).parent))
    with engine.connect() as conn, conn.begin():
        config.attributes["connection"] = conn
        getattr(command, direction)(config, revision)


def test_downgrade_to_base_and_upgrade_again(db_url: str) -> None:
    engine = open_engine(db_url)
    try:
        migrate.migrate(engine)
        _alembic(engine, "downgrade", "base")
        with engine.connect() as conn:
            assert _tables(conn) <= {"alembic_version"}
        assert migrate.migrate(engine) is not None
        with engine.connect() as conn:
            assert _tables(conn) >= ALL_TABLES
    finally:
        engine.dispose()


def test_migrations_are_shipped_as_packages() -> None:
    root = Path(migrations.__file__).parent
    assert (root / "__init__.py").is_file() and (root / "versions" / "__init__.py").is_file()
    assert (root / "env.py").is_file() and (root / "script.py.mako").is_file()
    assert "from alembic import op" in (root / "script.py.mako").read_text()


def test_upgrade_from_0002_keeps_every_post_and_marks_none_as_rendered(db_url: str) -> None:
    """A database of the previous version, with a campaign and a post: 0003
    adds ``posts.rendered_by`` and leaves the old post as it was, NULL."""
    engine = open_engine(db_url)
    try:
        _alembic(engine, "upgrade", "0002")
        with engine.begin() as conn:
            conn.exec_driver_sql(
                "INSERT INTO campaigns (slug, game, title, created_at)"
                " VALUES ('old', 'magot', 'Old', '2026-11-30T20:00:00Z')"
            )
            conn.exec_driver_sql(
                "INSERT INTO posts (campaign_id, number, kind, round, at_seq, body, hash,"
                " created_at) SELECT id, 1, 'opening', NULL, 0, 'Bonjour', 'sha256:x',"
                " '2026-11-30T20:00:00Z' FROM campaigns"
            )
        assert migrate.migrate(engine) is not None
        with engine.connect() as conn:
            assert read_revision(conn) == migrations.HEAD
            rows = conn.exec_driver_sql("SELECT number, body, rendered_by FROM posts").all()
        assert [tuple(r) for r in rows] == [(1, "Bonjour", None)]
    finally:
        engine.dispose()


def test_upgrade_from_0003_keeps_every_post_and_reads_its_round_as_its_address(
    db_url: str,
) -> None:
    """0004 adds ``posts.address``; an older post keeps NULL and is found by its round."""
    from gm.store.log import Store

    engine = open_engine(db_url)
    try:
        _alembic(engine, "upgrade", "0003")
        with engine.begin() as conn:
            conn.exec_driver_sql(
                "INSERT INTO campaigns (slug, game, title, created_at)"
                " VALUES ('old', 'magot', 'Old', '2026-11-30T20:00:00Z')"
            )
            conn.exec_driver_sql(
                "INSERT INTO posts (campaign_id, number, kind, round, at_seq, body, hash,"
                " created_at) SELECT id, 1, 'results', 3, 0, 'Tour 3', 'sha256:x',"
                " '2026-11-30T20:00:00Z' FROM campaigns"
            )
        assert migrate.migrate(engine) is not None
        with engine.connect() as conn:
            assert read_revision(conn) == migrations.HEAD
    finally:
        engine.dispose()
    with Store(db_url) as store:
        (post,) = store.posts("old")
    assert (post.address, post.round, post.at) == (None, 3, (3,))


def test_0005_adds_the_snapshots_and_dropping_them_loses_nothing(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A campaign of a database at 0004 (no snapshots) goes on after the
    upgrade, and its commands write snapshots; back at 0004 the table is
    gone, the campaign as it was, and 0005 again starts the cache over."""
    from gm.service import actions, campaigns, snapshots
    from gm.service.env import Env

    monkeypatch.setattr(snapshots, "EVERY", 1)
    env = Env(db=db_url)
    campaigns.create(env, "magot", "Le casse", ["fab", "marco", "lulu"], seed="graine")
    actions.step(env, "le-casse", "draw", {"bills": "20000,10000,5000,5000,5000"})
    before = campaigns.status(env, "le-casse")
    env.store.close()
    engine = open_engine(db_url)
    try:
        _alembic(engine, "downgrade", "0004")
        with engine.connect() as conn:
            assert "snapshots" not in _tables(conn)
    finally:
        engine.dispose()
    env = Env(db=db_url)  # opening migrates to 0005 again
    assert campaigns.status(env, "le-casse") == before
    actions.submit(env, "le-casse", "fab", "je braque marco, BANG")
    with env.store.read() as r:
        snap = r.snapshot(r.campaign("le-casse").id)
    assert snap is not None and snap.seq == env.store.last_seq("le-casse")
    env.store.close()
