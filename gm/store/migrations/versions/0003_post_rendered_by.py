"""Posts remember what rendered them: the nullable column ``rendered_by``.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01

Why: ``gm verify`` renders every stored post again and compares the bytes.
Once gm or its templates change (an upgrade, an MJ's --templates folder), an
old post no longer renders the same, and verify could not tell that from a
post edited by hand. Each post now records ``"gm <version> sha256:<the
fingerprint of the templates it used>"``; verify reports a differing post as
*rendered otherwise* when that differs from today's, and as a mismatch when
it is the same. Like ``events.batch`` it is bookkeeping, not part of the
post's hash. Rows written before this revision keep NULL. Explicit DDL.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("posts", sa.Column("rendered_by", sa.String(), nullable=True))


def downgrade() -> None:
    op.drop_column("posts", "rendered_by")
