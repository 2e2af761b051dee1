"""The database tables, as SQLModel classes (``table=True``, suffix ``Row``).

These classes describe the schema that ``migrations/versions`` builds with
explicit DDL, and ``SQLModel.metadata`` (also ``metadata`` here) is the one
metadata Alembic compares with a database; tests check that a migrated
database and these declarations agree, column by column and constraint by
constraint.

The store never hydrates ORM objects (loading thousands of events as objects
is slow): it reads and writes each class's ``__table__`` with SQLAlchemy Core
statements, where they read better than ORM queries, and callers receive the
frozen dataclasses of ``gm.store.records``, never rows. The module-level
names ``campaigns``, ``events``, ``posts``, ``settings`` and ``snapshots`` are those
``Table`` objects.

Importing this module loads SQLModel, pydantic and SQLAlchemy's ORM: only
commands that open the database pay for it (``gm --help`` and ``gm games``
never import it; ``bench/startup.py`` keeps ``gm status`` within its budget).

Constraint names are explicit so that migrations and autogenerate compare by
name on both SQLite and PostgreSQL. A ``str`` field is SQLModel's
``AutoString``, a ``VARCHAR`` without length like ``sa.String()`` in the
revisions; long texts say ``sa_type=Text``.
"""

from __future__ import annotations

from sqlalchemy import CheckConstraint, MetaData, Table, Text, UniqueConstraint
from sqlmodel import Field, SQLModel


class CampaignRow(SQLModel, table=True):
    """One campaign: a game played on the forum, known by its slug.

    The authoritative configuration is the log's first event; this row is the
    lookup key and the lock writers take on PostgreSQL.
    """

    __tablename__ = "campaigns"
    __table_args__ = (UniqueConstraint("slug", name="uq_campaigns_slug"),)

    id: int | None = Field(default=None, primary_key=True)
    slug: str
    game: str
    title: str
    created_at: str  # ISO-8601 UTC, "2025-01-31T20:15:00Z"


class EventRow(SQLModel, table=True):
    """One entry of a campaign's append-only, hash-chained log.

    ``(campaign_id, seq)`` is unique: two writers cannot both append number n,
    and its index serves every per-campaign read. UPDATE and DELETE are
    refused by triggers (see ``0001_initial``).
    """

    __tablename__ = "events"
    __table_args__ = (
        UniqueConstraint("campaign_id", "seq", name="uq_events_campaign_seq"),
        CheckConstraint("seq >= 1", name="ck_events_seq_positive"),
    )

    id: int | None = Field(default=None, primary_key=True)
    campaign_id: int = Field(foreign_key="campaigns.id")
    seq: int  # 1, 2, 3 … gap-free per campaign
    kind: str  # "magot.order-set"
    actor: str  # a player's name, or "gm"
    audience: str  # "*" (public), "gm", or one player's name
    payload: str = Field(sa_type=Text)  # canonical JSON, exactly as hashed
    salt: str  # 16 random bytes, hex
    source: str | None = None  # where the input came from: "pm:fab", a post URL
    recorded_at: str  # ISO-8601 UTC
    prev_hash: str | None = None  # None for seq 1
    hash: str  # "sha256:<hex>", see gm.store.records.event_hash
    # The seq of the first event of its append (one command); not hashed (0002).
    batch: int | None = None


class PostRow(SQLModel, table=True):
    """A rendered forum post, archived as published (UPDATE/DELETE refused)."""

    __tablename__ = "posts"
    __table_args__ = (
        UniqueConstraint("campaign_id", "number", name="uq_posts_campaign_number"),
        CheckConstraint("number >= 1", name="ck_posts_number_positive"),
        CheckConstraint("at_seq >= 0", name="ck_posts_at_seq"),
    )

    id: int | None = Field(default=None, primary_key=True)
    campaign_id: int = Field(foreign_key="campaigns.id")
    number: int  # 1, 2, 3 … per campaign
    kind: str  # "round-open", "resolution" …
    round: int | None = None
    at_seq: int  # the log's last seq when the post was rendered
    body: str = Field(sa_type=Text)  # Markdown, as published
    hash: str  # digest(body)
    created_at: str  # ISO-8601 UTC
    # What rendered it: "gm <version> sha256:<templates fingerprint>" (0003).
    rendered_by: str | None = None
    # Its coordinates, "2.3" for manche 2, duel 3; "" for none (0004). NULL: see round.
    address: str | None = None


class SnapshotRow(SQLModel, table=True):
    """A campaign's fold at one event of its log: a cache (``gm.service.snapshots``).

    One per campaign, replaced as the log grows (never by an older one):
    unlike events and posts it is updated, and deleting it changes nothing
    but speed (0005).
    """

    __tablename__ = "snapshots"

    campaign_id: int = Field(foreign_key="campaigns.id", primary_key=True)
    seq: int  # the last event it covers
    head: str  # that event's hash
    code: str  # "sha256:<hex>" of the code that folded it
    body: str = Field(sa_type=Text)  # JSON
    digest: str  # digest(body)
    written_at: str  # ISO-8601 UTC


class SettingRow(SQLModel, table=True):
    """A mutable key/value setting, such as an MJ's current campaign."""

    __tablename__ = "settings"

    key: str = Field(primary_key=True)
    value: str = Field(sa_type=Text)


metadata: MetaData = SQLModel.metadata
"""The metadata every table above is declared on: Alembic's ``target_metadata``."""

# The tables the store's Core statements use (gm.store.log).
campaigns: Table = CampaignRow.__table__  # type: ignore[attr-defined]
events: Table = EventRow.__table__  # type: ignore[attr-defined]
posts: Table = PostRow.__table__  # type: ignore[attr-defined]
settings: Table = SettingRow.__table__  # type: ignore[attr-defined]
snapshots: Table = SnapshotRow.__table__  # type: ignore[attr-defined]
