"""The database tables, declared with SQLAlchemy Core on one ``metadata``.

These tables describe the schema that ``migrations/versions`` builds with
explicit DDL; a test checks that a migrated database and these declarations
agree. The store reads and writes them with Core statements, and callers
receive the frozen dataclasses of ``gm.store.records``, never rows.

Why Core and not SQLModel classes: the store never used ORM objects
(hydrating thousands of events is slow), and importing SQLModel costs every
database command its pydantic and ORM imports, about 190 ms on the bench
machine, for declarations that Core writes as plainly (``bench/startup.py``).

Constraint names are explicit so that migrations and autogenerate compare by
name on both SQLite and PostgreSQL.
"""

from __future__ import annotations

from sqlalchemy import (
    CheckConstraint,
    Column,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
)

metadata = MetaData()

campaigns = Table(
    "campaigns",
    metadata,
    # One campaign: a game played on the forum, known by its slug. The
    # authoritative configuration is the log's first event; this row is the
    # lookup key and the lock writers take on PostgreSQL.
    Column("id", Integer, primary_key=True),
    Column("slug", String, nullable=False),
    Column("game", String, nullable=False),
    Column("title", String, nullable=False),
    Column("created_at", String, nullable=False),  # ISO-8601 UTC, "2025-01-31T20:15:00Z"
    UniqueConstraint("slug", name="uq_campaigns_slug"),
)

events = Table(
    "events",
    metadata,
    # One entry of a campaign's append-only, hash-chained log. (campaign_id,
    # seq) is unique: two writers cannot both append number n, and its index
    # serves every per-campaign read. UPDATE and DELETE are refused by
    # triggers (see 0001_initial).
    Column("id", Integer, primary_key=True),
    Column("campaign_id", Integer, ForeignKey("campaigns.id"), nullable=False),
    Column("seq", Integer, nullable=False),  # 1, 2, 3 … gap-free per campaign
    Column("kind", String, nullable=False),  # "magot.order-set"
    Column("actor", String, nullable=False),  # a player's name, or "gm"
    Column("audience", String, nullable=False),  # "*" (public), "gm", or one player's name
    Column("payload", Text, nullable=False),  # canonical JSON, exactly as hashed
    Column("salt", String, nullable=False),  # 16 random bytes, hex
    Column("source", String, nullable=True),  # where the input came from: "pm:fab", a post URL
    Column("recorded_at", String, nullable=False),  # ISO-8601 UTC
    Column("prev_hash", String, nullable=True),  # None for seq 1
    Column("hash", String, nullable=False),  # "sha256:<hex>", see gm.store.records.event_hash
    # The seq of the first event of its append (one command); not hashed.
    Column("batch", Integer, nullable=True),
    UniqueConstraint("campaign_id", "seq", name="uq_events_campaign_seq"),
    CheckConstraint("seq >= 1", name="ck_events_seq_positive"),
)

posts = Table(
    "posts",
    metadata,
    # A rendered forum post, archived as published (UPDATE/DELETE refused).
    Column("id", Integer, primary_key=True),
    Column("campaign_id", Integer, ForeignKey("campaigns.id"), nullable=False),
    Column("number", Integer, nullable=False),  # 1, 2, 3 … per campaign
    Column("kind", String, nullable=False),  # "round-open", "resolution" …
    Column("round", Integer, nullable=True),
    Column("at_seq", Integer, nullable=False),  # the log's last seq when the post was rendered
    Column("body", Text, nullable=False),  # Markdown, as published
    Column("hash", String, nullable=False),  # digest(body)
    Column("created_at", String, nullable=False),  # ISO-8601 UTC
    # What rendered it: "gm <version> sha256:<templates fingerprint>" (0003).
    Column("rendered_by", String, nullable=True),
    # Its coordinates, "2.3" for manche 2, duel 3; "" for none (0004). NULL: see round.
    Column("address", String, nullable=True),
    UniqueConstraint("campaign_id", "number", name="uq_posts_campaign_number"),
    CheckConstraint("number >= 1", name="ck_posts_number_positive"),
    CheckConstraint("at_seq >= 0", name="ck_posts_at_seq"),
)

settings = Table(
    "settings",
    metadata,
    # A mutable key/value setting, such as the current campaign.
    Column("key", String, primary_key=True),
    Column("value", Text, nullable=False),
)
