"""Alembic's environment for gm: how migrations reach the database.

gm runs migrations in code (``gm.store.migrate``) and passes its own
connection, already inside a write transaction, as
``config.attributes["connection"]``; the whole upgrade then commits or rolls
back as one transaction (SQLite and PostgreSQL both have transactional DDL).
Run from the ``alembic`` command line (see ``alembic.ini``), it opens the
database named by ``sqlalchemy.url`` or ``GM_DB`` with gm's connection recipe.
"""

from __future__ import annotations

import os
from logging.config import fileConfig
from typing import Any, Literal

from alembic import context
from sqlalchemy.engine import Connection
from sqlmodel import SQLModel
from sqlmodel.sql.sqltypes import AutoString

from gm.store import models  # noqa: F401  (declares gm's tables on SQLModel.metadata)
from gm.store.db import WRITE, open_engine, resolve_url

config = context.config
# The SQLModel classes of gm.store.models are the one source of the schema
# that autogenerate (and tests/store/test_migrations.py) compares with a database.
target_metadata = SQLModel.metadata

# Only the alembic command line configures logging; gm itself must not.
if config.config_file_name is not None and "connection" not in config.attributes:
    fileConfig(config.config_file_name, disable_existing_loggers=False)


def _url() -> str:
    return config.get_main_option("sqlalchemy.url") or resolve_url(os.environ.get("GM_DB"))


def _render_item(type_: str, obj: Any, autogen_context: Any) -> str | Literal[False]:
    """Autogenerate writes a ``str`` field (SQLModel's AutoString) as ``sa.String()``,
    as the revisions do, so that no revision needs to import sqlmodel."""
    if type_ == "type" and isinstance(obj, AutoString):
        return "sa.String()"
    return False


def _configure(**kwargs: Any) -> None:
    # render_as_batch: SQLite has almost no ALTER TABLE; batch mode copies
    # tables instead. NB for future revisions: a batch copy of "events" or
    # "posts" drops their append-only triggers, which the revision must then
    # recreate; and as foreign_keys=ON cannot be switched off inside the
    # migration's transaction, copy a referenced table under
    # "PRAGMA defer_foreign_keys = ON" (checked at commit instead).
    context.configure(
        target_metadata=target_metadata,
        render_as_batch=True,
        render_item=_render_item,
        **kwargs,
    )


def run_migrations_offline() -> None:
    """Write the SQL to stdout (``alembic upgrade head --sql``)."""
    _configure(url=_url(), literal_binds=True, dialect_opts={"paramstyle": "named"})
    with context.begin_transaction():
        context.run_migrations()


def _run(connection: Connection) -> None:
    _configure(connection=connection, transactional_ddl=True)
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    """Migrate through the connection gm passed in, or one opened here."""
    connection = config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    engine = open_engine(_url())
    try:
        with engine.connect() as conn:
            _run(conn.execution_options(**{WRITE: True}))
    finally:
        engine.dispose()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
