"""Events remember which append they came from: the nullable column ``batch``.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29

Why: ``gm undo`` voids the last command's events, so it must know where a
command starts. Every ``Writer.append`` call is one command, and now stamps
its events with ``batch`` = the seq of its first event. The timestamp is no
such id (it is to the second, and tests fix the clock). ``batch`` is not part
of the event hash: it is the store's bookkeeping, not the record. Rows written
before this revision keep NULL (``gm undo`` then falls back on runs of equal
time and actor). Explicit DDL, as in 0001.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("events", sa.Column("batch", sa.Integer(), nullable=True))


def downgrade() -> None:
    op.drop_column("events", "batch")
