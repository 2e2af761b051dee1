"""The first schema: campaigns, the append-only event log, the post archive, settings.

Revision ID: 0001
Revises:
Create Date: 2025-11-29

Why: everything gm keeps. The log is append-only and the posts are an
archive, so both refuse UPDATE and DELETE with a trigger (SQLite has no
privileges; on PostgreSQL a trigger also binds the table's owner, which a
REVOKE would not). Explicit DDL: this revision must build the same schema
forever, whatever the models become.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

APPEND_ONLY = ("events", "posts")


def upgrade() -> None:
    op.create_table(
        "campaigns",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("slug", sa.String(), nullable=False),
        sa.Column("game", sa.String(), nullable=False),
        sa.Column("title", sa.String(), nullable=False),
        sa.Column("created_at", sa.String(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("slug", name="uq_campaigns_slug"),
    )
    op.create_table(
        "events",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("campaign_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(), nullable=False),
        sa.Column("actor", sa.String(), nullable=False),
        sa.Column("audience", sa.String(), nullable=False),
        sa.Column("payload", sa.Text(), nullable=False),
        sa.Column("salt", sa.String(), nullable=False),
        sa.Column("source", sa.String(), nullable=True),
        sa.Column("recorded_at", sa.String(), nullable=False),
        sa.Column("prev_hash", sa.String(), nullable=True),
        sa.Column("hash", sa.String(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.ForeignKeyConstraint(["campaign_id"], ["campaigns.id"]),
        # Also the index of every per-campaign read (WHERE campaign_id = ?
        # ORDER BY seq): no separate index needed.
        sa.UniqueConstraint("campaign_id", "seq", name="uq_events_campaign_seq"),
        sa.CheckConstraint("seq >= 1", name="ck_events_seq_positive"),
    )
    op.create_table(
        "posts",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("campaign_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(), nullable=False),
        sa.Column("round", sa.Integer(), nullable=True),
        sa.Column("at_seq", sa.Integer(), nullable=False),
        sa.Column("body", sa.Text(), nullable=False),
        sa.Column("hash", sa.String(), nullable=False),
        sa.Column("created_at", sa.String(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.ForeignKeyConstraint(["campaign_id"], ["campaigns.id"]),
        sa.UniqueConstraint("campaign_id", "number", name="uq_posts_campaign_number"),
        sa.CheckConstraint("number >= 1", name="ck_posts_number_positive"),
        sa.CheckConstraint("at_seq >= 0", name="ck_posts_at_seq"),
    )
    op.create_table(
        "settings",
        sa.Column("key", sa.String(), nullable=False),
        sa.Column("value", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("key"),
    )

    dialect = op.get_bind().dialect.name
    if dialect == "sqlite":
        for table in APPEND_ONLY:
            for action in ("UPDATE", "DELETE"):
                op.execute(
                    f"CREATE TRIGGER {table}_no_{action.lower()} BEFORE {action} ON {table} "
                    f"BEGIN SELECT RAISE(ABORT, '{table} are append-only'); END"
                )
    elif dialect == "postgresql":
        # restrict_violation (SQLSTATE 23001) is an integrity error, like
        # SQLite's RAISE(ABORT): drivers report both the same way.
        op.execute(
            """
            CREATE FUNCTION gm_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                RAISE EXCEPTION '% are append-only', TG_TABLE_NAME
                    USING ERRCODE = 'restrict_violation';
            END;
            $$
            """
        )
        for table in APPEND_ONLY:
            op.execute(
                f"CREATE TRIGGER {table}_append_only BEFORE UPDATE OR DELETE ON {table} "
                "FOR EACH ROW EXECUTE FUNCTION gm_refuse_change()"
            )
            op.execute(
                f"CREATE TRIGGER {table}_no_truncate BEFORE TRUNCATE ON {table} "
                "FOR EACH STATEMENT EXECUTE FUNCTION gm_refuse_change()"
            )
    else:
        raise NotImplementedError(f"gm has no append-only triggers for {dialect}")


def downgrade() -> None:
    # Dropping a table drops its triggers on both databases.
    op.drop_table("settings")
    op.drop_table("posts")
    op.drop_table("events")
    op.drop_table("campaigns")
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP FUNCTION gm_refuse_change()")
