"""Posts are addressed by their game's coordinates: the nullable column ``address``.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01

Why: a post was named by its kind and one ``round`` number, which cannot say
« manche 2, duel 3 » or « round 4, action 7 ». ``address`` holds the post's
coordinates as typed and printed, outermost first, joined by dots (``"2.3"``;
``""`` for a post made once). ``round`` keeps the first coordinate, so older
readers and exports still find it. Rows written before this revision keep
NULL: their address is their round. Explicit DDL.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("posts", sa.Column("address", sa.String(), nullable=True))


def downgrade() -> None:
    op.drop_column("posts", "address")
