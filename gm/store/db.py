"""Where the database lives and how gm connects to it.

This module owns the connection recipe (``docs/architecture.md``, Layers) and nothing
else: resolving ``--db`` / ``GM_DB`` to a SQLAlchemy URL, creating the engine
with the SQLite pragmas and the transaction-begin hook, copying a live SQLite
file with the online backup API, and turning driver errors into
``StoreError``s whose message names the database (never a traceback for a
locked, full, unreadable or unreachable database).

No message shows a password: every path or URL a message names goes
through ``hide_password`` (``display_url`` for a parsed one), parseable or
not, and the driver's own text is scrubbed the same way.

Files are private: the database holds every campaign's secret seed, so gm
creates a SQLite file, and every backup of it, readable and writable by its
owner only (0600; SQLite gives the -wal and -shm files the mode of their
database), and its default folder for the owner only (0700). A folder or a
file the user already has keeps its mode, except gm's own default folder,
which an older gm made with the umask's mode and which gm closes (0700).

SQLite transactions (Python 3.11 still uses pysqlite's "legacy" transaction
control, which never emits BEGIN before a SELECT): we switch pysqlite to
autocommit (``isolation_level = None``) and emit BEGIN ourselves from the
engine's ``begin`` event. A connection whose execution options carry
``gm_write=True`` begins with ``BEGIN IMMEDIATE``: it takes the write lock
first, so a writer that read the log never fails when it later writes (with
a deferred BEGIN the read lock cannot be upgraded and SQLite answers
"database is locked" at once, whatever the busy timeout). Every other
connection begins with a plain (deferred) ``BEGIN``: readers never take the
write lock and, under WAL, see one consistent snapshot.
"""

from __future__ import annotations

import os
import re
import shutil
import sqlite3
import stat
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event, make_url
from sqlalchemy.engine import URL
from sqlalchemy.exc import ArgumentError, DatabaseError, NoSuchModuleError, OperationalError
from sqlalchemy.pool import ConnectionPoolEntry

from gm.errors import InputError, StoreError, quoted
from gm.paths import expand

# The test-only switch is the writer's: files and commits skip fsync together.
from gm.writer import TEST_NO_FSYNC as TEST_NO_FSYNC
from gm.writer import partial, skips_fsync

BUSY_TIMEOUT_MS = 10_000
"""How long a writer waits for another gm before giving up: SQLite's
``busy_timeout``, PostgreSQL's ``lock_timeout`` in write transactions."""

WRITE = "gm_write"
"""Execution option marking a connection whose transactions write."""

# synchronous=FULL rather than NORMAL: in WAL mode NORMAL never corrupts the
# file but may lose the last committed transactions on power loss. A gm write
# is a human-paced command (an order pasted, a round resolved) whose receipt the
# MJ may already have posted on the forum; losing it would break the published
# chain. One extra fsync per command is unnoticeable at that pace.
SQLITE_PRAGMAS = (
    "foreign_keys=ON",
    "journal_mode=WAL",
    "synchronous=FULL",
)


def sqlite_pragmas(*, durable: bool = True) -> tuple[str, ...]:
    """The pragmas of every SQLite connection: ``SQLITE_PRAGMAS``, unless
    ``skips_fsync()`` or the store is not ``durable`` (a rehearsal's throw-away
    database, see ``Store``): then ``synchronous=OFF``."""
    if durable and not skips_fsync():
        return SQLITE_PRAGMAS
    return tuple("synchronous=OFF" if p.startswith("synchronous=") else p for p in SQLITE_PRAGMAS)


PRIVATE_FILE = 0o600
"""The mode of every file gm creates that holds campaigns: the database, its backups."""

PRIVATE_FOLDER = 0o700
"""The mode of gm's default data folder."""


def create_private_file(path: Path) -> None:
    """Create ``path`` empty, readable and writable by its owner only (0600,
    whatever the umask).

    :raises FileExistsError: ``path`` exists (nothing is changed).
    :raises OSError: it cannot be created.
    """
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE_FILE)
    try:
        if hasattr(os, "fchmod"):  # POSIX: a umask such as 0277 cannot weaken it
            os.fchmod(fd, PRIVATE_FILE)
    finally:
        os.close(fd)


def _private_folder(folder: Path) -> None:
    """Create gm's own data folder for its owner only (0700), or close the one
    an older gm left open to others."""
    folder.parent.mkdir(parents=True, exist_ok=True)
    try:
        folder.mkdir(mode=PRIVATE_FOLDER)
    except FileExistsError:
        if folder.is_symlink() or not folder.is_dir() or not hasattr(os, "geteuid"):
            return  # the user pointed it elsewhere: their folder, their mode
        info = folder.stat()
        mode = stat.S_IMODE(info.st_mode)
        if info.st_uid == os.geteuid() and mode & 0o077:
            folder.chmod(mode & PRIVATE_FOLDER)
        return
    folder.chmod(PRIVATE_FOLDER)  # whatever the umask


def _create_sqlite_file(path: Path) -> None:
    """Create a missing database file 0600 before SQLite does (it would use 0644).

    An empty file is an empty SQLite database. If it cannot be created here,
    SQLite's own attempt reports why (a missing folder, a permission).
    """
    if not path.exists():
        with suppress(OSError):
            create_private_file(path)


MASK = "***"
"""What a message shows instead of a password."""

_QUERY_PASSWORD = re.compile(r"(?i)([?&;]password=)[^&\s'\"]*")
_TEXT_USERINFO = re.compile(r"(://[^\s:/@'\"]*:)\S*@")


def hide_password(value: str) -> str:
    """A ``--db`` value, URL or file path, parseable or not, fit for a message.

    In a URL, whatever stands between ``://user:`` and the last ``@`` becomes
    ``***`` (an unescaped ``@`` may be part of the password), and so does a
    ``password=`` query parameter. A value without ``://`` is a file path to
    gm, but one with a ``:`` before an ``@`` may be a mistyped URL
    (``postgresql:/alice:pw@host/gm``): it is masked from its first ``:`` to
    its last ``@``.
    """
    head, sep, rest = value.partition("://")
    if not sep:
        head, rest = "", value
    at = rest.rfind("@")
    colon = rest.find(":", 0, at) if at > 0 else -1
    if colon >= 0:
        value = f"{head}{sep}{rest[: colon + 1]}{MASK}{rest[at:]}"
    return _QUERY_PASSWORD.sub(rf"\g<1>{MASK}", value)


def hide_passwords_in(text: str) -> str:
    """``text`` (a driver's message, say) with every ``scheme://user:password@``
    in it masked as ``scheme://user:***@``, and every ``password=`` parameter."""
    return _QUERY_PASSWORD.sub(rf"\g<1>{MASK}", _TEXT_USERINFO.sub(rf"\g<1>{MASK}@", text))


def default_path() -> Path:
    """The default SQLite file: ``<user data dir>/gm/gm.db`` (platformdirs)."""
    import platformdirs

    return platformdirs.user_data_path("gm", appauthor=False) / "gm.db"


SCHEMES = re.compile(r"(?i)(sqlite|postgresql|postgres)(\+[a-z0-9_]+)?://")
"""The URLs gm takes for ``--db``: SQLite's and PostgreSQL's, with a driver or not.
Anything else without ``://`` is a file path, whatever it holds (``?``, ``%``, ``#``)."""


def resolve_url(db: str | None) -> str:
    """Turn the ``--db`` / ``GM_DB`` value into a SQLAlchemy URL.

    ``None`` means the default file (its folder is created, 0700). A value
    that starts with a scheme gm supports (``sqlite://``, ``postgresql://``,
    ``postgresql+psycopg://``…) is a URL; one holding ``://`` after another
    scheme is refused as a mistyped URL; anything else is a file path, taken
    as it is written (``partie?v2.db`` is that file, ``salle%20A.db`` too).
    An in-memory database is refused: a campaign there would vanish when
    the command ends (``gm play`` rehearses in its own throw-away file).

    :raises StoreError: ``store/bad-url`` (another scheme), ``store/in-memory``.
    :raises InputError: ``input/path`` (an unknown ``~user``).
    """
    if db is None:
        path = default_path()
        try:
            _private_folder(path.parent)
        except OSError as err:
            raise StoreError(
                f"cannot create the folder {path.parent} for the database: {err.strerror}",
                code="store/cannot-open",
            ) from err
        return _file_url(path)
    if SCHEMES.match(db):
        _refuse_memory(db, parse_url(db))
        return db
    if "://" in db:
        raise StoreError(
            f"unsupported database URL {quoted(hide_password(db))}: gm works with SQLite"
            " (a file path, or sqlite:///path/to/gm.db) and PostgreSQL"
            " (postgresql+psycopg://host/db)",
            code="store/bad-url",
        )
    if not db.strip():
        raise InputError(
            "the database path is empty: give a file path, or leave --db and GM_DB out for"
            " the default one (see gm info)",
            code="input/path",
        )
    if db == ":memory:":
        _refuse_memory(db, None)
    try:
        path = expand(db, "database path")
    except InputError as err:  # it quotes the value and its ~user part
        head = db.split("/", 1)[0]
        err.message = err.message.replace(db, hide_password(db)).replace(head, hide_password(head))
        err.args = (err.message,)
        raise
    return _file_url(path.absolute())


def _file_url(path: Path) -> str:
    # Built, not formatted: a « ? » or « % » in the name stays in the name.
    return URL.create("sqlite", database=str(path)).render_as_string(hide_password=False)


def _refuse_memory(db: str, parsed: URL | None) -> None:
    if parsed is not None:
        if parsed.drivername not in ("sqlite", "sqlite+pysqlite"):
            return  # another database, or a driver gm refuses when it opens it
        name = parsed.database or ""
        memory = name in ("", ":memory:") or name.startswith("file::memory:")
        memory = memory or parsed.query.get("mode") == "memory"
        if not memory:
            return
    raise StoreError(
        f"{quoted(hide_password(db))} is an in-memory database: a campaign there would"
        " vanish when the command ends; give a file path (gm play rehearses in a"
        " throw-away database by itself)",
        code="store/in-memory",
    )


_URL_HINT = (
    "expected a file path, or a URL such as sqlite:///path/to/gm.db or postgresql+psycopg://host/db"
)


def parse_url(url: str) -> URL:
    """Parse a SQLAlchemy URL, refusing a malformed one with a ``StoreError``
    (whose message masks the password, see ``hide_password``)."""
    try:
        parsed = make_url(url)
    except (ArgumentError, ValueError, TypeError):  # ValueError: a port that is no number
        raise StoreError(
            f"not a database path or URL: {hide_password(url)!r} ({_URL_HINT})",
            code="store/bad-url",
        ) from None  # the parser's error may quote the URL
    if parsed.host is not None and "@" in parsed.host:
        # "alice:p@ss@host": the driver would be asked for host "ss@host", and
        # say so in its error. An @ in a user name or password is written %40.
        raise StoreError(
            f"not a database URL: {hide_password(url)!r} has more than one '@' (write an @ "
            "in a user name or password as %40)",
            code="store/bad-url",
        )
    return parsed


def is_sqlite(url: str | URL) -> bool:
    """Whether ``url`` names a SQLite database."""
    parsed = parse_url(url) if isinstance(url, str) else url
    return parsed.get_backend_name() == "sqlite"


def display_url(url: str | URL) -> str:
    """How a database is named in messages: the file path, or the URL without password."""
    parsed = parse_url(url) if isinstance(url, str) else url
    if parsed.get_backend_name() == "sqlite":
        return hide_password(parsed.database or ":memory:")
    return hide_password(parsed.render_as_string(hide_password=True))


def sqlite_path(url: str | URL) -> Path | None:
    """The file behind a SQLite URL (``None`` for in-memory or other backends)."""
    parsed = parse_url(url) if isinstance(url, str) else url
    if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:"):
        return None
    return Path(parsed.database)


def open_engine(
    url: str, *, busy_timeout_ms: int = BUSY_TIMEOUT_MS, durable: bool = True
) -> Engine:
    """Create the engine for ``url`` with gm's connection recipe.

    ``durable=False`` stops waiting for the disk at each commit (SQLite
    ``synchronous=OFF``, PostgreSQL ``synchronous_commit=off``): for a
    database nobody keeps, such as ``gm play``'s rehearsal. Nothing is
    connected yet: errors surface on first use, where the store converts them
    with ``translate_errors``.
    """
    parsed = parse_url(url)
    backend = parsed.get_backend_name()
    if backend not in ("sqlite", "postgresql"):
        raise StoreError(
            f"unsupported database {display_url(parsed)!r}: gm works with SQLite and "
            "PostgreSQL (postgresql+psycopg://…)",
            code="store/bad-url",
        )
    try:
        if backend == "sqlite":
            engine = create_engine(parsed, connect_args={"timeout": busy_timeout_ms / 1000})
            _install_sqlite_hooks(
                engine, busy_timeout_ms, _private_path(parsed), sqlite_pragmas(durable=durable)
            )
            return engine
        # pool_pre_ping: a community server restarts; a stale pooled connection
        # should be replaced, not reported as an error to the MJ.
        connect_args = {}
        if skips_fsync() or not durable:  # libpq passes "-c" options to the session
            given = parsed.query.get("options", ())
            given = (given,) if isinstance(given, str) else given
            connect_args["options"] = " ".join([*given, "-c synchronous_commit=off"])
        return create_engine(parsed, pool_pre_ping=True, connect_args=connect_args)
    except NoSuchModuleError as err:
        raise StoreError(
            f"unknown database driver in {display_url(parsed)!r}: use sqlite:///… or "
            "postgresql+psycopg://…",
            code="store/bad-url",
        ) from err
    except ImportError as err:
        raise StoreError(
            f"the driver for {display_url(parsed)!r} is not installed ({err.name}); "
            "for PostgreSQL install gm with the extra: pip install 'gm-forum[postgresql]'",
            code="store/bad-url",
        ) from err
    except ArgumentError as err:  # "Invalid SQLite URL": sqlite://host/…, say
        shown = hide_password(parsed.render_as_string(hide_password=True))
        raise StoreError(
            f"not a database path or URL: {shown!r} ({_URL_HINT})", code="store/bad-url"
        ) from err


def _private_path(parsed: URL) -> Path | None:
    """The file gm should create 0600 before connecting (not a ``file:`` URI)."""
    if parsed.query.get("uri"):
        return None
    return sqlite_path(parsed)


def _install_sqlite_hooks(
    engine: Engine, busy_timeout_ms: int, path: Path | None, pragmas: tuple[str, ...]
) -> None:
    if path is not None:

        @event.listens_for(engine, "do_connect")
        def _on_do_connect(*_args: Any) -> None:
            _create_sqlite_file(path)

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn: Any, _record: ConnectionPoolEntry) -> None:
        # Stop pysqlite's implicit BEGIN; _on_begin below emits our own.
        dbapi_conn.isolation_level = None
        dbapi_conn.execute(f"PRAGMA busy_timeout={int(busy_timeout_ms)}")
        for pragma in pragmas:
            dbapi_conn.execute(f"PRAGMA {pragma}")

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Any) -> None:
        write = conn.get_execution_options().get(WRITE, False)
        conn.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")


def sqlite_backup(src: Path, dst: Path) -> None:
    """Copy the live SQLite database ``src`` to the new file ``dst``.

    Uses SQLite's online backup API (a consistent copy even while another gm
    writes; copying the file with ``cp`` is not safe under WAL), into a
    temporary file beside ``dst`` that is checked (``PRAGMA
    integrity_check``), flushed and only then named ``dst`` (``gm.writer``):
    a backup killed half-way never leaves half a copy under its name.
    Refuses to overwrite ``dst``; the copy is readable and writable by its
    owner only (0600).

    :raises StoreError: ``dst`` exists, cannot be written, or the copy is bad.
    """
    src_shown, dst_shown = hide_password(str(src)), hide_password(str(dst))

    def exists() -> StoreError:
        return StoreError(
            f"backup file {dst_shown} already exists; choose another name",
            code="store/backup-exists",
        )

    if os.path.lexists(dst):
        raise exists()
    try:
        with partial(dst, replace=False, mode=PRIVATE_FILE) as tmp:
            source = sqlite3.connect(src)
            try:
                target = sqlite3.connect(tmp)
                try:
                    if skips_fsync():  # tests only (GM_TEST_NO_FSYNC)
                        target.execute("PRAGMA synchronous=OFF")
                    source.backup(target)
                    (check,) = target.execute("PRAGMA integrity_check").fetchone()
                finally:
                    target.close()
            finally:
                source.close()
            if check != "ok":
                raise StoreError(
                    f"the backup {dst_shown} of {src_shown} fails its integrity check: {check}",
                    code="store/backup-failed",
                )
    except FileExistsError as err:
        raise exists() from err
    except sqlite3.Error as err:
        raise StoreError(
            f"cannot back up {src_shown} to {dst_shown}: {hide_passwords_in(str(err))}",
            code="store/backup-failed",
        ) from err
    except OSError as err:
        raise StoreError(
            f"cannot create the backup file {dst_shown}: {err.strerror}", code="store/backup-failed"
        ) from err


def store_error(
    err: BaseException, where: str, *, busy_timeout_ms: int = BUSY_TIMEOUT_MS
) -> StoreError | None:
    """The ``StoreError`` for a driver error the user can act on, else ``None``.

    ``where`` names the database (path or password-less URL) in the message.
    Errors that are not recognised stay what they are: they are bugs.
    """
    orig = getattr(err, "orig", None) or err
    text = hide_passwords_in(str(orig).strip())
    low = text.lower()
    if "database is locked" in low or "lock timeout" in low or "database table is locked" in low:
        return StoreError(
            f"the database {where} is busy: another gm process kept it locked for more than "
            f"{busy_timeout_ms / 1000:g} s; nothing was written, try again",
            code="store/locked",
        )
    if (
        "database or disk is full" in low
        or "no space left" in low
        or "disk full" in low
        or (getattr(orig, "sqlstate", None) == "53100")
        or ("disk i/o error" in low and _no_space_at(where))
    ):
        return StoreError(
            f"the database {where} is full (no space left on the disk, or a quota); "
            "nothing was written: free some space and try again",
            code="store/full",
        )
    if "file is not a database" in low:
        return StoreError(
            f"{where} is not a database file (SQLite says: {text}); check the --db / GM_DB path",
            code="store/not-a-database",
        )
    if "malformed" in low:
        return StoreError(
            f"the database {where} is damaged ({text}); restore a backup "
            "(gm keeps one next to the database before every upgrade)",
            code="store/corrupt",
        )
    if "readonly database" in low or "read-only" in low:
        return StoreError(
            f"the database {where} is read-only for you ({text}); check its permissions "
            "and those of its folder (SQLite writes -wal and -shm files beside it)",
            code="store/read-only",
        )
    if "unable to open database file" in low:
        return StoreError(
            f"cannot open the database {where}: {text} (does the folder exist, and may you "
            "write to it?)",
            code="store/cannot-open",
        )
    if "invalid connection option" in low or "invalid dsn" in low:
        # libpq refuses a query parameter of the URL (psycopg: ProgrammingError).
        return StoreError(
            f"cannot use the database {where}: {text}; check the options after '?' in the URL",
            code="store/bad-url",
        )
    if isinstance(err, OperationalError | sqlite3.OperationalError):
        # Anything else operational: server unreachable, authentication failed,
        # disk I/O error. The driver's text is the most useful hint we have.
        return StoreError(f"cannot use the database {where}: {text}", code="store/unavailable")
    return None


FULL_BELOW_BYTES = 64 * 1024
"""Free space under which a failing write is put down to a full disk."""


def _no_space_at(where: str) -> bool:
    """Whether the filesystem of the SQLite file ``where`` is (nearly) full.

    SQLite reports a full disk as "disk I/O error" when it is creating its
    -wal or -shm file rather than writing pages; the free space tells the two
    apart, so the MJ hears "the disk is full", not a mysterious I/O error.
    """
    try:
        usage = shutil.disk_usage(Path(where).parent)
    except (OSError, ValueError):
        return False
    return usage.free < FULL_BELOW_BYTES


@contextmanager
def translate_errors(where: str, *, busy_timeout_ms: int = BUSY_TIMEOUT_MS) -> Iterator[None]:
    """Convert the driver errors a user can act on into ``StoreError``s."""
    try:
        yield
    except (DatabaseError, sqlite3.Error) as err:
        converted = store_error(err, where, busy_timeout_ms=busy_timeout_ms)
        if converted is None:
            raise
        raise converted from err
