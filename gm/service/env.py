"""The environment a use case runs in: the store, templates, the clock, the MJ.

The clock lives here (not in the pure core) so that tests can freeze it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gm.store.log import Store


def utcnow() -> datetime:
    """The wall clock. Looked up at each call, so a test can freeze it."""
    return datetime.now(UTC)


def _now() -> datetime:
    return utcnow()


def login() -> str:
    """Who runs gm on this machine: the OS login name ("mj" when it has none)."""
    import getpass

    try:
        return getpass.getuser()
    except (OSError, KeyError):  # no USER variable and no passwd entry (a bare container)
        return "mj"


@dataclass
class Env:
    """Where and how use cases run. The store is opened on first use."""

    db: str | None = None
    """A path or SQLAlchemy URL; None means the default file in the user data folder."""
    templates: Path | None = None
    now: Callable[[], datetime] = field(default=_now)
    mj: str = field(default_factory=login)
    """Whose current campaign ``gm use`` sets: each MJ sharing a database
    (a community's PostgreSQL server) has their own."""
    durable: bool = True
    """False for a database nobody keeps (``gm play``'s rehearsal): commits
    do not wait for the disk (``gm.store.db.open_engine``)."""
    snapshots: bool = True
    """False where no command will come (``gm play``'s rehearsal): no
    snapshot is read or written (``gm.service.snapshots``)."""

    @cached_property
    def store(self) -> Store:
        from gm.store.db import resolve_url
        from gm.store.log import Store

        # One clock for the service and the log: the time a record says it
        # was recorded is the time the service reasons with (a late order).
        return Store(
            resolve_url(self.db), durable=self.durable, clock=self.now, snapshots=self.snapshots
        )
