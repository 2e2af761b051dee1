"""The Alembic migrations of gm's database, shipped inside the package.

This file is imported on every start-up, so it imports nothing: it only
names the revisions this gm knows, for the one cheap ``SELECT`` that decides
whether Alembic (slow to import) is needed at all. Add each new revision id
to ``REVISIONS``; a test checks that the list matches the scripts.
"""

from __future__ import annotations

REVISIONS: tuple[str, ...] = ("0001", "0002", "0003", "0004", "0005")
"""Every revision id in order, oldest first."""

HEAD = REVISIONS[-1]
"""The revision a database must be at for this gm to use it."""
