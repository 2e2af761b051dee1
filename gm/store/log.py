"""The store: campaigns, their hash-chained event logs, the post archive, settings.

``Store(url)`` is the only object the service talks to. Reads go through
``store.read()`` (a snapshot that never takes the write lock) or the
one-call helpers built on it; every change goes through one unit of work::

    with store.write(slug) as w:          # BEGIN IMMEDIATE / SELECT … FOR UPDATE
        events = w.events(slug)           # the latest state, under the lock
        w.append(slug, new_events, expected_seq=events[-1].seq if events else 0)
        w.add_post(slug, "resolution", 3, at_seq, body)
    # committed here; an exception anywhere in the block writes nothing

Statements are SQLAlchemy Core over the models' tables, and results are the
frozen dataclasses of ``gm.store.records``: no ORM objects or sessions leak
out, and loading thousands of events costs a tuple and a ``json.loads`` each.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any, Self

from sqlalchemy import Connection, Engine, Table, bindparam, func, insert, select
from sqlalchemy.exc import IntegrityError

from gm.core.canonical import digest
from gm.core.names import numbered_slug
from gm.errors import (
    CampaignError,
    NotFoundError,
    StaleStateError,
    StoreError,
    quote_choices,
    quoted,
)
from gm.paths import expand
from gm.store.db import (
    BUSY_TIMEOUT_MS,
    WRITE,
    display_url,
    is_sqlite,
    open_engine,
    parse_url,
    resolve_url,
    sqlite_backup,
    sqlite_path,
    translate_errors,
)
from gm.store.draft import Draft, chain_batch, new_post
from gm.store.migrate import Migration, migrate, require_head
from gm.store.models import campaigns as campaigns_t
from gm.store.models import events as events_t
from gm.store.models import posts as posts_t
from gm.store.models import settings as settings_t
from gm.store.models import snapshots as snapshots_t
from gm.store.records import (
    EVENT_COLUMNS,
    POST_FIELDS,
    CampaignInfo,
    NewEvent,
    Snapshot,
    StoredEvent,
    StoredPost,
    campaign_from_row,
    chain_problems,
    damaged,
    event_attribute,
    event_from_row,
    new_salt,
    post_from_row,
    sealed_chain,
    utc_timestamp,
)

_CAMPAIGN_COLUMNS = (
    campaigns_t.c.id,
    campaigns_t.c.slug,
    campaigns_t.c.game,
    campaigns_t.c.title,
    campaigns_t.c.created_at,
)
_EVENT_COLUMNS = tuple(getattr(events_t.c, name) for name in EVENT_COLUMNS)
_POST_COLUMNS = tuple(getattr(posts_t.c, name) for name in POST_FIELDS)

# Built once: a command runs these several times, and building a statement
# costs more than SQLite takes to answer it.
_LAST = (
    select(events_t.c.seq, events_t.c.hash)
    .where(events_t.c.campaign_id == bindparam("campaign_id"))
    .order_by(events_t.c.seq.desc())
    .limit(1)
)
_FIRST = select(events_t.c.kind, events_t.c.payload).where(
    events_t.c.campaign_id == bindparam("campaign_id"), events_t.c.seq == 1
)
_LAST_POST = select(func.coalesce(func.max(posts_t.c.number), 0)).where(
    posts_t.c.campaign_id == bindparam("campaign_id")
)
_NEWEST_POST = (
    select(*_POST_COLUMNS)
    .where(posts_t.c.campaign_id == bindparam("campaign_id"))
    .order_by(posts_t.c.number.desc())
    .limit(1)
)
_SNAPSHOT = select(
    snapshots_t.c.seq,
    snapshots_t.c.head,
    snapshots_t.c.code,
    snapshots_t.c.body,
    snapshots_t.c.digest,
).where(snapshots_t.c.campaign_id == bindparam("campaign_id"))

MAX_LISTED = 10
"""How many known slugs a "campaign not found" message lists."""


def _event(slug: str, row: Sequence[Any], *, decode: bool = True) -> StoredEvent:
    # Checked as it is read: a row edited in place is a DamagedError, not a crash.
    return event_from_row(slug, dict(zip(EVENT_COLUMNS, row, strict=True)), decode=decode)


class Reader:
    """Queries over one open transaction (a snapshot when from ``Store.read``)."""

    def __init__(self, conn: Connection) -> None:
        self._conn = conn

    def campaigns(self) -> list[CampaignInfo]:
        """Every campaign, by slug."""
        rows = self._conn.execute(select(*_CAMPAIGN_COLUMNS).order_by(campaigns_t.c.slug))
        return [campaign_from_row(row) for row in rows]

    def campaign(self, slug: str) -> CampaignInfo:
        """The campaign ``slug``.

        :raises NotFoundError: ``campaign/not-found``, listing known slugs.
        """
        return self._campaign(slug)

    def _campaign(self, slug: str) -> CampaignInfo:
        row = self._conn.execute(
            select(*_CAMPAIGN_COLUMNS).where(campaigns_t.c.slug == slug)
        ).first()
        if row is None:
            raise self._not_found(slug)
        return campaign_from_row(row)

    def _not_found(self, slug: str) -> NotFoundError:
        known = list(
            self._conn.execute(
                select(campaigns_t.c.slug).order_by(campaigns_t.c.slug).limit(MAX_LISTED + 1)
            ).scalars()
        )
        listed = quote_choices(known[:MAX_LISTED])
        if len(known) > MAX_LISTED:
            total = self._conn.execute(select(func.count()).select_from(campaigns_t)).scalar_one()
            listed += f", … ({total} in all)"
        return NotFoundError(
            f"no campaign {quoted(slug)}; known campaigns: {listed}",
            code="campaign/not-found",
            params={"slug": slug, "known": known[:MAX_LISTED]},
        )

    def events(self, slug: str, upto: int | None = None, after: int = 0) -> list[StoredEvent]:
        """The campaign's events in seq order, after seq ``after`` and up to
        seq ``upto`` included."""
        return self._load(slug, upto, decode=True, after=after)

    def _load(
        self, slug: str, upto: int | None, *, decode: bool, after: int = 0
    ) -> list[StoredEvent]:
        campaign_id = self._campaign(slug).id
        query = select(*_EVENT_COLUMNS).where(events_t.c.campaign_id == campaign_id)
        if after:
            query = query.where(events_t.c.seq > after)
        if upto is not None:
            query = query.where(events_t.c.seq <= upto)
        rows = self._conn.execute(query.order_by(events_t.c.seq)).all()
        return [_event(slug, row, decode=decode) for row in rows]

    def verify_chain(self, slug: str) -> list[str]:
        """Re-derive the campaign's hash chain; an empty list means it verifies.

        Each problem names the seq where it shows (see ``records.chain_problems``).
        """
        # Not decoded here: a payload that is not JSON is a finding, not a crash.
        return chain_problems(self._load(slug, None, decode=False))

    def verify_posts(self, slug: str) -> list[str]:
        """Check every archived post's hash and numbering; empty means all verify."""
        problems = []
        expected = 1
        for post in self.posts(slug):
            if post.number != expected:
                problems.append(f"post {post.number}: gap in numbering, expected {expected}")
            if digest(post.body) != post.hash:
                problems.append(f"post {post.number}: body does not match its hash {post.hash}")
            expected = post.number + 1
        return problems

    def _last(self, campaign_id: int, slug: str = "") -> tuple[int, str | None]:
        row = self._conn.execute(_LAST, {"campaign_id": campaign_id}).first()
        if row is None:
            return (0, None)
        if not isinstance(row[0], int) or not isinstance(row[1], str):
            # SQLite sorts a text seq after every number: it would be the « last »
            raise damaged(
                slug or f"#{campaign_id}",
                "its last event",
                f"its seq or hash is {quoted(row[0], 40)}, {quoted(row[1], 40)}",
            )
        return (row[0], row[1])

    def tip(self, slug: str) -> tuple[int, str | None]:
        """The seq and hash of the campaign's last event (``(0, None)`` for an
        empty log), in one query: what a cached fold is checked against."""
        return self._last(self._campaign(slug).id, slug)

    def last_seq(self, slug: str) -> int:
        """The seq of the campaign's last event (0 for an empty log)."""
        return self._last(self._campaign(slug).id, slug)[0]

    def head(self, slug: str) -> str | None:
        """The hash of the campaign's last event (``None`` for an empty log)."""
        return self._last(self._campaign(slug).id, slug)[1]

    def last_post(self, slug: str) -> StoredPost | None:
        """The campaign's latest archived post (None before the first)."""
        return self._last_post(self._campaign(slug).id, slug)

    def _last_post(self, campaign_id: int, slug: str) -> StoredPost | None:
        row = self._conn.execute(_NEWEST_POST, {"campaign_id": campaign_id}).first()
        return None if row is None else post_from_row(slug, row)

    def draft(
        self, info: CampaignInfo, *, clock: Callable[[], datetime | None], salt: Callable[[], str]
    ) -> Draft:
        """A draft of what a command will append to ``info`` after its log as
        this transaction reads it: its tip, its chain's scheme and its last
        post, read by the campaign's id."""
        seq, head = self._last(info.id, info.slug)
        return Draft(
            info,
            seq,
            head,
            self._sealed(info.id),
            self._last_post(info.id, info.slug),
            clock=clock,
            salt=salt,
        )

    def _sealed(self, campaign_id: int) -> bool:
        """Whether the campaign's chain commits to bodies (``records.sealed_chain``)."""
        row = self._conn.execute(_FIRST, {"campaign_id": campaign_id}).first()
        if row is None:
            return False
        try:
            payload = json.loads(row[1])
        except (TypeError, ValueError):
            return False  # a damaged first event: verify names it
        return sealed_chain(row[0], payload)

    def posts(self, slug: str, after: int = 0) -> list[StoredPost]:
        """The campaign's archived posts numbered above ``after``, by number."""
        campaign_id = self._campaign(slug).id
        rows = self._conn.execute(
            select(*_POST_COLUMNS)
            .where(posts_t.c.campaign_id == campaign_id, posts_t.c.number > after)
            .order_by(posts_t.c.number)
        )
        return [post_from_row(slug, row) for row in rows]

    def get_setting(self, key: str) -> str | None:
        """The value of setting ``key``, or ``None``."""
        return self._conn.execute(
            select(settings_t.c.value).where(settings_t.c.key == key)
        ).scalar_one_or_none()

    def tips(self) -> dict[int, tuple[int, str]]:
        """Every campaign's last event, ``id → (seq, hash)``, in one query
        (each found through the events' index, however long the logs)."""
        inner = events_t.alias("newest")
        last = (
            select(func.max(inner.c.seq))
            .where(inner.c.campaign_id == campaigns_t.c.id)
            .scalar_subquery()
        )
        rows = self._conn.execute(
            select(campaigns_t.c.id, events_t.c.seq, events_t.c.hash)
            .select_from(campaigns_t)
            .join(
                events_t,
                (events_t.c.campaign_id == campaigns_t.c.id) & (events_t.c.seq == last),
            )
        )
        return {
            campaign_id: (seq, head)
            for campaign_id, seq, head in rows
            if type(seq) is int and type(head) is str
        }

    def snapshots(self) -> dict[int, Snapshot]:
        """Every campaign's snapshot, by campaign id (see ``snapshot``)."""
        rows = self._conn.execute(select(snapshots_t.c.campaign_id, *_SNAPSHOT.selected_columns))
        out = {}
        for campaign_id, *values in rows:
            snap = _snapshot(values)
            if snap is not None:
                out[campaign_id] = snap
        return out

    def snapshot(self, campaign_id: int) -> Snapshot | None:
        """The campaign's stored snapshot, if it has one whose columns read
        back as gm writes them (anything else is no snapshot: a cache)."""
        row = self._conn.execute(_SNAPSHOT, {"campaign_id": campaign_id}).first()
        return None if row is None else _snapshot(row)


def _snapshot(row: Sequence[Any]) -> Snapshot | None:
    """A snapshot row read back, if its columns are as gm writes them
    (anything else is no snapshot: it is a cache)."""
    seq, head, code, body, digest_ = row
    if type(seq) is not int or not all(type(v) is str for v in (head, code, body, digest_)):
        return None
    return Snapshot(seq, head, code, body, digest_)


class Writer(Reader):
    """The unit of work of ``Store.write``: everything commits together or not at all.

    Every campaign a writer touches is locked first (``SELECT … FOR UPDATE``
    on PostgreSQL; on SQLite ``BEGIN IMMEDIATE`` already holds the one write
    lock), so what it reads is what it appends after.
    """

    def __init__(
        self, conn: Connection, *, clock: Callable[[], datetime | None], salt: Callable[[], str]
    ) -> None:
        super().__init__(conn)
        self._clock = clock
        self._salt = salt
        self._locked: dict[str, CampaignInfo] = {}

    def _campaign(self, slug: str) -> CampaignInfo:
        info = self._locked.get(slug)
        if info is None:
            row = self._conn.execute(
                select(*_CAMPAIGN_COLUMNS).where(campaigns_t.c.slug == slug).with_for_update()
            ).first()
            if row is None:
                raise self._not_found(slug)
            info = self._locked[slug] = campaign_from_row(row)
        return info

    def lock(self, slug: str) -> CampaignInfo:
        """Lock campaign ``slug`` for this unit of work and return it.

        :raises NotFoundError: ``campaign/not-found``.
        """
        return self._campaign(slug)

    def free_slug(self, base: str) -> str:
        """``base``, or ``base-2``, ``base-3``… whichever no campaign has, as
        seen under this writer's lock, so that MJs creating campaigns of one
        title at once each get the next free slug, never ``campaign/exists``.

        SQLite's ``BEGIN IMMEDIATE`` already makes writers take turns; on
        PostgreSQL the campaigns table is locked against other creators
        (``SHARE ROW EXCLUSIVE`` conflicts with itself and with inserts;
        readers go on) until this unit of work commits.
        """
        if self._conn.dialect.name == "postgresql":
            self._conn.exec_driver_sql("LOCK TABLE campaigns IN SHARE ROW EXCLUSIVE MODE")
        taken = set(self._conn.execute(select(campaigns_t.c.slug)).scalars())
        n = 1
        while numbered_slug(base, n) in taken:
            n += 1
        return numbered_slug(base, n)

    def create_campaign(self, slug: str, game: str, title: str) -> CampaignInfo:
        """Create an empty campaign.

        :raises CampaignError: ``campaign/exists`` when the slug is taken.
        """
        if not slug:
            raise CampaignError("a campaign needs a non-empty slug", code="campaign/invalid-slug")
        taken = self._conn.execute(
            select(campaigns_t.c.id).where(campaigns_t.c.slug == slug)
        ).first()
        if taken is not None:
            raise self._exists(slug)
        created_at = utc_timestamp(self._clock())
        try:
            new_id = self._conn.execute(
                insert(campaigns_t)
                .values(slug=slug, game=game, title=title, created_at=created_at)
                .returning(campaigns_t.c.id)
            ).scalar_one()
        except IntegrityError as err:  # a concurrent writer created it first (PostgreSQL)
            raise self._exists(slug) from err
        info = self._locked[slug] = CampaignInfo(new_id, slug, game, title, created_at)
        return info

    @staticmethod
    def _exists(slug: str) -> CampaignError:
        return CampaignError(
            f"a campaign {slug!r} already exists; choose another slug",
            code="campaign/exists",
            params={"slug": slug},
        )

    def append(
        self,
        slug: str,
        new_events: Sequence[NewEvent],
        expected_seq: int,
        batch: int | None = None,
    ) -> list[StoredEvent]:
        """Append events after seq ``expected_seq``, chaining their hashes.

        ``expected_seq`` is the last seq the caller decided on (0 for an empty
        log). The new events get seq ``expected_seq + 1`` …, a fresh salt each,
        one ``recorded_at`` for the batch, ``event_hash``, and ``batch`` =
        ``expected_seq + 1`` (one append is one command; ``gm undo`` relies on
        it), or the given ``batch`` when a command appends in two steps (its
        events, then the posts they called for).

        :raises StaleStateError: the log has moved on since ``expected_seq``;
            nothing is written.
        :raises NotFoundError: ``campaign/not-found``.
        """
        if expected_seq < 0:
            raise ValueError(f"expected_seq must be >= 0, not {expected_seq}")
        campaign_id = self._campaign(slug).id
        last_seq, prev_hash = self._last(campaign_id, slug)
        if last_seq != expected_seq:
            raise StaleStateError(
                f"campaign {slug!r} changed meanwhile: its log ends at seq {last_seq}, "
                f"not {expected_seq}; nothing was written, run the command again",
                params={"slug": slug, "expected_seq": expected_seq, "last_seq": last_seq},
            )
        if not new_events:
            return []
        first = new_events[0]
        stored = chain_batch(
            new_events,
            after=expected_seq,
            prev_hash=prev_hash,
            sealed=(
                sealed_chain(first.kind, first.payload)
                if expected_seq == 0
                else self._sealed(campaign_id)
            ),
            recorded_at=utc_timestamp(self._clock()),
            salt=self._salt,
            batch=batch,
        )
        rows = [_event_row(campaign_id, ev) for ev in stored]
        try:
            self._conn.execute(insert(events_t), rows)
        except IntegrityError as err:
            # Only reachable if two writers got past the check together, which
            # the locks prevent; the unique (campaign_id, seq) is the backstop.
            raise StaleStateError(
                f"campaign {slug!r}: another writer appended seq {expected_seq + 1} first; "
                "nothing was written, run the command again",
                params={"slug": slug, "expected_seq": expected_seq},
            ) from err
        return stored

    def add_post(
        self,
        slug: str,
        kind: str,
        at: tuple[int, ...],
        at_seq: int,
        body: str,
        rendered_by: str | None = None,
    ) -> StoredPost:
        """Archive a post rendered after log seq ``at_seq``; it gets the next number.

        ``at``: the post's coordinates (``PostRef.at``); ``rendered_by``: what
        rendered it (``gm.service.posts.rendered_by``).
        """
        campaign_id = self._campaign(slug).id
        last_seq = self._last(campaign_id, slug)[0]
        if not 0 <= at_seq <= last_seq:
            raise ValueError(f"at_seq {at_seq} is not in the log of {slug!r} (0..{last_seq})")
        number = self._conn.execute(_LAST_POST, {"campaign_id": campaign_id}).scalar_one() + 1
        post = new_post(number, kind, at, at_seq, body, utc_timestamp(self._clock()), rendered_by)
        try:
            self._conn.execute(insert(posts_t).values(_post_row(campaign_id, post)))
        except IntegrityError as err:
            raise StaleStateError(
                f"campaign {slug!r}: another writer archived post {number} first; "
                "nothing was written, run the command again",
                params={"slug": slug},
            ) from err
        return post

    def put_snapshot(self, info: CampaignInfo, snapshot: Snapshot) -> None:
        """Store ``snapshot`` as the campaign's, unless it holds one made at
        a later event (snapshots never go back)."""
        values = {
            "seq": snapshot.seq,
            "head": snapshot.head,
            "code": snapshot.code,
            "body": snapshot.body,
            "digest": snapshot.digest,
            "written_at": utc_timestamp(self._clock()),
        }
        stmt = self._upsert(snapshots_t).values(campaign_id=info.id, **values)
        self._conn.execute(
            stmt.on_conflict_do_update(
                index_elements=["campaign_id"],
                set_=values,
                where=snapshots_t.c.seq <= snapshot.seq,
            )
        )

    def commit(self, draft: Draft, snapshot: Snapshot | None = None) -> None:
        """Write what ``draft`` holds, as drafted, if the campaign's log still
        ends where the draft began (its seq and hash, and its last post);
        and ``snapshot``, the campaign's fold after it, if given.

        :raises StaleStateError: another command wrote meanwhile; nothing is
            written (the caller works again from the new tip).
        """
        slug = draft.info.slug
        campaign_id = self._campaign(slug).id
        if campaign_id != draft.info.id or self._last(campaign_id, slug) != (draft.seq, draft.head):
            raise StaleStateError(
                f"campaign {slug!r} changed meanwhile; nothing was written, run the command again",
                params={"slug": slug, "expected_seq": draft.seq},
            )
        posts = self._conn.execute(_LAST_POST, {"campaign_id": campaign_id}).scalar_one()
        if posts + 1 != draft.first_post:
            raise StaleStateError(
                f"campaign {slug!r}: another writer archived post {posts} meanwhile; nothing"
                " was written, run the command again",
                params={"slug": slug},
            )
        if draft.events:
            self._conn.execute(insert(events_t), [_event_row(campaign_id, e) for e in draft.events])
        if draft.posts:
            self._conn.execute(insert(posts_t), [_post_row(campaign_id, p) for p in draft.posts])
        if snapshot is not None:
            self.put_snapshot(draft.info, snapshot)

    def restore(
        self,
        campaign: CampaignInfo,
        events: Sequence[StoredEvent],
        posts: Sequence[StoredPost],
    ) -> CampaignInfo:
        """Insert a campaign, its events and its posts exactly as given (``gm import``).

        Nothing is re-hashed, renumbered or re-stamped: seqs, salts, payload
        texts, timestamps and hashes are written verbatim, so the copy verifies
        as the original did. The caller checks them first (``gm.store.transfer``);
        ``campaign.id`` is ignored, ``campaign.slug`` is where it goes.

        :raises CampaignError: ``campaign/exists`` when the slug is taken.
        """
        slug = campaign.slug
        taken = self._conn.execute(
            select(campaigns_t.c.id).where(campaigns_t.c.slug == slug)
        ).first()
        if taken is not None:
            raise self._exists(slug)
        try:
            new_id = self._conn.execute(
                insert(campaigns_t)
                .values(
                    slug=slug,
                    game=campaign.game,
                    title=campaign.title,
                    created_at=campaign.created_at,
                )
                .returning(campaigns_t.c.id)
            ).scalar_one()
        except IntegrityError as err:  # a concurrent writer created it first (PostgreSQL)
            raise self._exists(slug) from err
        if events:
            self._conn.execute(
                insert(events_t),
                [_event_row(new_id, ev) for ev in events],
            )
        if posts:
            self._conn.execute(insert(posts_t), [_post_row(new_id, post) for post in posts])
        info = self._locked[slug] = CampaignInfo(
            new_id, slug, campaign.game, campaign.title, campaign.created_at
        )
        return info

    def set_setting(self, key: str, value: str) -> None:
        """Set (insert or replace) setting ``key``."""
        stmt = self._upsert(settings_t).values(key=key, value=value)
        self._conn.execute(
            stmt.on_conflict_do_update(index_elements=["key"], set_={"value": value})
        )

    def _upsert(self, table: Table) -> Any:
        """An INSERT into ``table`` that can say what to do ON CONFLICT, in the
        database's dialect."""
        # Imported here: the PostgreSQL dialect costs ~20 ms of start-up that
        # every SQLite command would otherwise pay.
        if self._conn.dialect.name == "sqlite":
            from sqlalchemy.dialects.sqlite import insert as sqlite_insert

            return sqlite_insert(table)
        from sqlalchemy.dialects.postgresql import insert as pg_insert

        return pg_insert(table)


def _post_row(campaign_id: int, post: StoredPost) -> dict[str, Any]:
    """The ``posts`` row of an archived post."""
    return {"campaign_id": campaign_id, **{f: getattr(post, f) for f in POST_FIELDS}}


def _event_row(campaign_id: int, ev: StoredEvent) -> dict[str, Any]:
    """The ``events`` row of a stored event: the payload text exactly as hashed."""
    return {
        "campaign_id": campaign_id,
        **{c: getattr(ev, event_attribute(c)) for c in EVENT_COLUMNS},
    }


class Store:
    """gm's database: open lazily, migrated on first use, errors as ``StoreError``.

    ``url`` is a SQLAlchemy URL or a SQLite file path (see ``db.resolve_url``).

    ``clock`` and ``salt`` replace the wall clock and ``secrets`` (tests and
    golden transcripts need reproducible hashes); ``auto_migrate=False``
    refuses an old database instead of upgrading it; ``snapshots=False``
    folds every campaign from its first event (``gm.service.snapshots``: a
    snapshot only saves time); ``durable=False`` does
    not wait for the disk at each commit (``db.open_engine``): only for a
    database nobody keeps, such as ``gm play``'s rehearsal. A ``Store`` may be
    shared by threads: each read or write takes its own connection.
    """

    def __init__(
        self,
        url: str,
        *,
        busy_timeout_ms: int = BUSY_TIMEOUT_MS,
        auto_migrate: bool = True,
        clock: Callable[[], datetime | None] | None = None,
        salt: Callable[[], str] | None = None,
        durable: bool = True,
        snapshots: bool = True,
    ) -> None:
        self.url = resolve_url(url)  # a plain file path is accepted too
        self.durable = durable
        self.where = display_url(parse_url(self.url))
        self._busy_timeout_ms = busy_timeout_ms
        self._auto_migrate = auto_migrate
        self._clock: Callable[[], datetime | None] = clock or (lambda: None)
        self._salt = salt or new_salt
        self._engine: Engine | None = None
        self._opening = threading.Lock()
        self.migration: Migration | None = None
        """What opening the store migrated, if anything."""
        self.snapshots = snapshots
        """Whether commands read and write snapshots (``gm.service.snapshots``)."""
        self.notes: list[str] = []
        """What the MJ should be told of the store's work, a line each (a
        snapshot not used, and why); the command line prints them."""

    # -- connections ---------------------------------------------------------

    @property
    def engine(self) -> Engine:
        """The engine, created and migrated on first use."""
        if self._engine is None:
            with self._opening:
                if self._engine is None:
                    engine = open_engine(
                        self.url, busy_timeout_ms=self._busy_timeout_ms, durable=self.durable
                    )
                    try:
                        self._prepare(engine)
                    except BaseException:
                        engine.dispose()
                        raise
                    self._engine = engine
        return self._engine

    def _prepare(self, engine: Engine) -> None:
        if self._auto_migrate:
            self.migration = migrate(engine)
        else:
            require_head(engine)

    def open(self) -> Migration | None:
        """Connect and migrate now rather than on the first query; what was migrated.

        :raises StoreError: the database cannot be opened, or is too new.
        """
        self.engine  # noqa: B018  (the property opens and migrates)
        return self.migration

    @property
    def is_sqlite(self) -> bool:
        """Whether the database is SQLite (else PostgreSQL)."""
        return is_sqlite(self.url)

    def close(self) -> None:
        """Close every pooled connection (the store reopens on next use)."""
        if self._engine is not None:
            self._engine.dispose()
            self._engine = None

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _translate(self) -> AbstractContextManager[None]:
        return translate_errors(self.where, busy_timeout_ms=self._busy_timeout_ms)

    @contextmanager
    def read(self) -> Iterator[Reader]:
        """A read-only snapshot: consistent across queries, never taking the write lock."""
        with self._translate(), self.engine.connect() as conn:
            if conn.dialect.name == "postgresql":
                conn = conn.execution_options(
                    isolation_level="REPEATABLE READ", postgresql_readonly=True
                )
            with conn.begin():
                yield Reader(conn)

    def keep_snapshots(self, made: Sequence[tuple[CampaignInfo, Snapshot]]) -> bool:
        """Store the campaigns' snapshots ``made`` in a unit of work of its own
        if nobody holds the write lock: a cache is not worth waiting for.
        Whether they were stored (a locked or read-only database keeps its old
        ones, silently)."""
        try:
            with self.write(wait=False) as w:
                for info, snapshot in made:
                    w.put_snapshot(info, snapshot)
        except StoreError:
            return False
        return True

    @contextmanager
    def write(self, slug: str | None = None, *, wait: bool = True) -> Iterator[Writer]:
        """One unit of work: commits at the end of the block, rolls back on any exception.

        Takes the write lock at once (``BEGIN IMMEDIATE`` on SQLite; on
        PostgreSQL ``SELECT … FOR UPDATE`` on each campaign touched, starting
        with ``slug`` if given), waiting up to the busy timeout for another gm.

        ``wait=False``: give up at once (``store/locked``) when another gm
        holds the lock, instead of waiting for it.

        :raises StoreError: ``store/locked`` when the wait times out.
        :raises NotFoundError: ``slug`` is given and unknown.
        """
        timeout = int(self._busy_timeout_ms) if wait else 1
        with self._translate(), self.engine.connect() as conn:
            sqlite = conn.dialect.name == "sqlite"
            raw: Any = conn.connection.dbapi_connection
            if sqlite and not wait:
                raw.execute(f"PRAGMA busy_timeout={timeout}")
            try:
                conn = conn.execution_options(**{WRITE: True})
                with conn.begin():
                    if not sqlite:
                        conn.exec_driver_sql(f"SET LOCAL lock_timeout = {timeout}")
                    writer = Writer(conn, clock=self._clock, salt=self._salt)
                    if slug is not None:
                        writer.lock(slug)
                    yield writer
            finally:
                if sqlite and not wait:
                    raw.execute(f"PRAGMA busy_timeout={int(self._busy_timeout_ms)}")

    def draft(self, r: Reader, info: CampaignInfo) -> Draft:
        """A draft of what a command will append to ``info``, after its log as
        the transaction ``r`` reads it (see ``gm.store.draft``)."""
        return r.draft(info, clock=self._clock, salt=self._salt)

    # -- one-call reads ------------------------------------------------------

    def campaigns(self) -> list[CampaignInfo]:
        """Every campaign, by slug."""
        with self.read() as r:
            return r.campaigns()

    def campaign(self, slug: str) -> CampaignInfo:
        """The campaign ``slug``.

        :raises NotFoundError: ``campaign/not-found``, listing known slugs.
        """
        with self.read() as r:
            return r.campaign(slug)

    def events(self, slug: str, upto: int | None = None, after: int = 0) -> list[StoredEvent]:
        """The campaign's events in seq order, after seq ``after`` and up to
        seq ``upto`` included."""
        with self.read() as r:
            return r.events(slug, upto, after)

    def last_seq(self, slug: str) -> int:
        """The seq of the campaign's last event (0 for an empty log)."""
        with self.read() as r:
            return r.last_seq(slug)

    def head(self, slug: str) -> str | None:
        """The hash of the campaign's last event, or ``None``."""
        with self.read() as r:
            return r.head(slug)

    def last_post(self, slug: str) -> StoredPost | None:
        """The campaign's latest archived post (None before the first)."""
        with self.read() as r:
            return r.last_post(slug)

    def posts(self, slug: str, after: int = 0) -> list[StoredPost]:
        """The campaign's archived posts numbered above ``after``, by number."""
        with self.read() as r:
            return r.posts(slug, after)

    def get_setting(self, key: str) -> str | None:
        """The value of setting ``key``, or ``None``."""
        with self.read() as r:
            return r.get_setting(key)

    def set_setting(self, key: str, value: str) -> None:
        """Set setting ``key`` in its own unit of work."""
        with self.write() as w:
            w.set_setting(key, value)

    # -- audit and safety ----------------------------------------------------

    def verify_chain(self, slug: str) -> list[str]:
        """Re-derive the campaign's hash chain; an empty list means it verifies.

        Each problem names the seq where it shows (see ``records.chain_problems``).
        """
        with self.read() as r:
            return r.verify_chain(slug)

    def verify_posts(self, slug: str) -> list[str]:
        """Check every archived post's hash and numbering; empty means all verify."""
        with self.read() as r:
            return r.verify_posts(slug)

    def backup(self, path: str | Path) -> Path:
        """Copy the SQLite database to the new file ``path`` (never overwrites).

        :raises StoreError: not SQLite, ``path`` exists, or the copy fails.
        """
        source = sqlite_path(self.url)
        if source is None:
            raise StoreError(
                f"gm backs up SQLite databases only; back up {self.where} with pg_dump",
                code="store/backup-unsupported",
            )
        self.open()  # refuse a file that is not a gm database before copying it
        target = expand(path, "backup path").absolute()
        with self._translate():
            sqlite_backup(source, target)
        return target
