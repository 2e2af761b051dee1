"""Each campaign's fold at one event of its log: the table ``snapshots``.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-07

Why: every command folded its campaign's whole log again, so a command on
the 10,000th event cost several times one on the first. A snapshot is the
fold at one event (``gm.service.snapshots``): the seq and hash of that
event, a digest of the code that folded it, the body (JSON) and its digest.
It is a cache, one row per campaign replaced as the log grows: no trigger
guards it as the events and posts are guarded, and dropping the table (a
downgrade) loses nothing but speed. Explicit DDL.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "snapshots",
        sa.Column("campaign_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("head", sa.String(), nullable=False),
        sa.Column("code", sa.String(), nullable=False),
        sa.Column("body", sa.Text(), nullable=False),
        sa.Column("digest", sa.String(), nullable=False),
        sa.Column("written_at", sa.String(), nullable=False),
        sa.PrimaryKeyConstraint("campaign_id"),
        sa.ForeignKeyConstraint(["campaign_id"], ["campaigns.id"]),
    )


def downgrade() -> None:
    op.drop_table("snapshots")
