"""gm.store: the database — campaigns, the append-only hash-chained event log,
the archive of published posts, settings, and the schema migrations.

Modules: ``records`` (the dataclasses callers see and the event hash
contract; standard library only), ``log`` (``Store``), ``db`` (paths, URLs,
the connection recipe, driver errors to ``StoreError``), ``models`` (the
SQLModel table classes, whose tables ``log`` uses with Core statements),
``migrate`` and ``migrations`` (Alembic).

The names below are imported on first use, so that ``import gm.store`` (or
``from gm.store import NewEvent``) loads neither SQLAlchemy nor SQLModel.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from gm.store.db import default_path, resolve_url
    from gm.store.log import Store
    from gm.store.records import (
        CampaignInfo,
        NewEvent,
        StoredEvent,
        StoredPost,
        chain_problems,
        event_hash,
    )

_EXPORTS = {
    "CampaignInfo": "gm.store.records",
    "NewEvent": "gm.store.records",
    "StoredEvent": "gm.store.records",
    "StoredPost": "gm.store.records",
    "event_hash": "gm.store.records",
    "Store": "gm.store.log",
    "chain_problems": "gm.store.records",
    "default_path": "gm.store.db",
    "resolve_url": "gm.store.db",
}

__all__ = [
    "CampaignInfo",
    "NewEvent",
    "Store",
    "StoredEvent",
    "StoredPost",
    "chain_problems",
    "default_path",
    "event_hash",
    "resolve_url",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'gm.store' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
