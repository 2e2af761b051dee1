"""What the store hands out and takes in, the event hash contract, and its check.

Callers (``gm.service``) work with these frozen dataclasses, never with ORM
rows or sessions. This module imports only the standard library,
``gm.core.canonical`` and ``gm.core.proof``: the hash contracts
(``event_hash`` up to protocol 3, ``gm.core.proof.envelope_hash`` from
protocol 4, which the log's first event names: ``sealed_chain``) and the
chain check (``chain_problems``, also usable on an exported log) need no
SQLAlchemy.
"""

from __future__ import annotations

import functools
import json
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from gm.core.canonical import (
    canonical_json,
    canonical_object,
    canonical_value,
    digest,
    seal,
    seal_text,
)
from gm.core.proof import envelope_hash
from gm.errors import DamagedError, quoted
from gm.reader import json_value

SALT_BYTES = 16
"""Random bytes in each event's salt (written as 32 hex digits)."""


def event_hash(
    *,
    prev_hash: str | None,
    seq: int,
    kind: str,
    actor: str,
    audience: str,
    payload: Any,
    salt: str,
    source: str | None,
    recorded_at: str,
) -> str:
    """The hash of one event of the log: the contract players re-derive.

    ::

        hash = digest(canonical_json({
            "prev": prev_hash or "",     # hash of event seq-1; "" for seq 1
            "seq": seq,                  # 1, 2, 3 … (an integer)
            "kind": kind,
            "actor": actor,
            "audience": audience,
            "payload": payload,          # the JSON value, not its text
            "salt": salt,                # 32 hex digits
            "source": source or "",
            "recorded_at": recorded_at,  # "2025-01-31T20:15:00Z"
        }))

    where ``canonical_json`` is ``json.dumps(value, sort_keys=True,
    separators=(",", ":"), ensure_ascii=False)`` over NFC strings and
    ``digest(text)`` is ``"sha256:" + sha256(text.encode("utf-8")).hexdigest()``
    (``gm.core.canonical``). Because the canonical form is applied
    recursively, the stored ``payload`` text appears byte for byte inside the
    hashed text. The salt keeps a secret payload with few possible values
    (an order) from being guessed from a published chain head.
    """
    envelope = {
        "prev": prev_hash or "",
        "seq": seq,
        "kind": kind,
        "actor": actor,
        "audience": audience,
        "payload": payload,
        "salt": salt,
        "source": source or "",
        "recorded_at": recorded_at,
    }
    return digest(canonical_json(envelope))


SEALED_FROM = 4
"""The first protocol whose chain commits to bodies (``gm.core.proof``)."""

CREATED = "gm.campaign-created"


def sealed_chain(kind: str, payload: Any) -> bool:
    """Whether a log whose first event is (``kind``, ``payload``) chains
    bodies (protocol 4 on: ``gm.core.proof.envelope_hash``) rather than
    payloads and salts (``event_hash``). The first event says so, and it is
    itself in the chain: a forger who changes the protocol changes its hash."""
    if kind != CREATED or not isinstance(payload, dict):
        return False
    protocol = payload.get("protocol", 1)
    return isinstance(protocol, int) and protocol >= SEALED_FROM


def link_hash(
    *,
    sealed: bool,
    prev_hash: str | None,
    seq: int,
    kind: str,
    actor: str,
    audience: str,
    payload: Any,
    salt: str,
    source: str | None,
    recorded_at: str,
    payload_json: str | None = None,
) -> str:
    """One record's hash in its chain: ``envelope_hash`` over its body when
    the chain is ``sealed`` (protocol 4 on), ``event_hash`` before.

    ``payload_json``: the payload's canonical JSON text, when the caller
    knows it is canonical (``canonical_value`` said so, or gm just wrote
    it): the hashed text is then composed around it, byte for byte the
    same, instead of normalising the payload again."""
    if not sealed:
        if payload_json is None:
            return event_hash(
                prev_hash=prev_hash,
                seq=seq,
                kind=kind,
                actor=actor,
                audience=audience,
                payload=payload,
                salt=salt,
                source=source,
                recorded_at=recorded_at,
            )
        return digest(
            canonical_object(
                {
                    "prev": canonical_json(prev_hash or ""),
                    "seq": canonical_json(seq),
                    "kind": canonical_json(kind),
                    "actor": canonical_json(actor),
                    "audience": canonical_json(audience),
                    "payload": payload_json,
                    "salt": canonical_json(salt),
                    "source": canonical_json(source or ""),
                    "recorded_at": canonical_json(recorded_at),
                }
            )
        )
    return envelope_hash(
        prev_hash=prev_hash,
        seq=seq,
        kind=kind,
        actor=actor,
        audience=audience,
        body=seal(kind, payload, salt)
        if payload_json is None
        else seal_text(kind, payload_json, salt),
        source=source,
        recorded_at=recorded_at,
    )


def chained(
    new: NewEvent,
    *,
    seq: int,
    prev_hash: str | None,
    salt: str,
    recorded_at: str,
    batch: int | None = None,
    sealed: bool = False,
) -> StoredEvent:
    """The stored form of ``new`` as event ``seq`` of a log whose last hash is
    ``prev_hash``: its canonical payload text and its hash (``link_hash``;
    ``sealed``: the log chains bodies, see ``sealed_chain``). The one place
    a chain link is built (appends and previews alike)."""
    if not isinstance(new.payload, dict):
        raise TypeError(f"an event payload must be a dict, not {type(new.payload)}")
    payload_json = canonical_json(new.payload)
    payload = json.loads(payload_json)  # what is hashed: NFC strings
    return StoredEvent(
        seq=seq,
        kind=new.kind,
        actor=new.actor,
        audience=new.audience,
        payload=payload,
        payload_json=payload_json,
        salt=salt,
        source=new.source,
        recorded_at=recorded_at,
        prev_hash=prev_hash,
        hash=link_hash(
            sealed=sealed,
            prev_hash=prev_hash,
            seq=seq,
            kind=new.kind,
            actor=new.actor,
            audience=new.audience,
            payload=payload,
            salt=salt,
            source=new.source,
            recorded_at=recorded_at,
            payload_json=payload_json,
        ),
        batch=batch,
    )


def new_salt() -> str:
    """A fresh event salt: 16 bytes from ``secrets``, in hex."""
    return secrets.token_hex(SALT_BYTES)


def utc_timestamp(moment: datetime | None = None) -> str:
    """``moment`` (default: now) as ISO-8601 UTC to the second: ``2025-01-31T20:15:00Z``.

    A naive ``moment`` is taken to be UTC already.
    """
    if moment is None:
        moment = datetime.now(UTC)
    elif moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


EVENT_COLUMNS = (
    "seq",
    "kind",
    "actor",
    "audience",
    "payload",
    "salt",
    "source",
    "recorded_at",
    "prev_hash",
    "hash",
    "batch",
)
"""The columns of a stored event, in ``StoredEvent`` order (the ``payload``
column holds ``StoredEvent.payload_json``): the store's reads and writes and
the export format use this one list."""

POST_FIELDS = (
    "number",
    "kind",
    "round",
    "at_seq",
    "body",
    "hash",
    "created_at",
    "rendered_by",
    "address",
)
"""The columns of an archived post, in ``StoredPost`` order."""


def damaged(slug: str, where: str, what: str) -> DamagedError:
    """The error for a row of campaign ``slug`` that gm did not write as it is
    now (edited in place, or a disk fault): what is damaged, where, and how
    to get the campaign back."""
    return DamagedError(
        f"the database is damaged: campaign {quoted(slug)}, {where}: {what}. gm never writes"
        " that, so the file was edited or the disk failed; nothing was changed. Restore the"
        " campaign from a backup (check it with: gm --db BACKUP.db verify, then use that"
        " file) or from an export (gm --db NEW.db import EXPORT.json)",
        params={"slug": slug, "where": where},
    )


_EVENT_TYPES: dict[str, tuple[type | None, ...]] = {
    "seq": (int,),
    "kind": (str,),
    "actor": (str,),
    "audience": (str,),
    "payload": (str,),
    "salt": (str,),
    "source": (str, None),
    "recorded_at": (str,),
    "prev_hash": (str, None),
    "hash": (str,),
    "batch": (int, None),
}
_POST_TYPES: dict[str, tuple[type | None, ...]] = {
    "number": (int,),
    "kind": (str,),
    "round": (int, None),
    "at_seq": (int,),
    "body": (str,),
    "hash": (str,),
    "created_at": (str,),
    "rendered_by": (str, None),
    "address": (str, None),
}
_CAMPAIGN_TYPES: dict[str, tuple[type | None, ...]] = {
    "id": (int,),
    "slug": (str,),
    "game": (str,),
    "title": (str,),
    "created_at": (str,),
}


def _typed(value: object, allowed: tuple[type | None, ...]) -> bool:
    return any(
        value is None if t is None else isinstance(value, t) and not isinstance(value, bool)
        for t in allowed
    )


def _kind(value: object) -> str:
    return "empty (NULL)" if value is None else f"{type(value).__name__} {quoted(value, 40)}"


def event_from_row(slug: str, values: dict[str, Any], *, decode: bool) -> StoredEvent:
    """An event row read back, checked (every column of its type; with
    ``decode``, the payload a JSON object, bounded in depth).

    :raises DamagedError: naming the campaign, the event and what is wrong.
    """
    v = values
    if not (  # the usual case, cheaply: a command may read thousands of events
        type(v["seq"]) is int
        and type(v["kind"]) is str
        and type(v["actor"]) is str
        and type(v["audience"]) is str
        and type(v["payload"]) is str
        and type(v["salt"]) is str
        and type(v["recorded_at"]) is str
        and type(v["hash"]) is str
        and (v["source"] is None or type(v["source"]) is str)
        and (v["prev_hash"] is None or type(v["prev_hash"]) is str)
        and (v["batch"] is None or type(v["batch"]) is int)
    ):
        seq = values.get("seq")
        where = f"event {seq}" if isinstance(seq, int) else "an event"
        for name, allowed in _EVENT_TYPES.items():
            if not _typed(values[name], allowed):
                raise damaged(slug, where, f"its {name} is {_kind(values[name])}")
    where = f"event {v['seq']}"
    text = values.pop("payload")
    payload: dict[str, Any] = {}
    if decode:
        try:
            value = json_value(text)
        except ValueError as err:
            raise damaged(slug, where, f"its payload is not JSON ({err})") from None
        if not isinstance(value, dict):
            raise damaged(slug, where, "its payload is not a JSON object")
        payload = value
    return StoredEvent(payload=payload, payload_json=text, **values)


def post_from_row(slug: str, row: Sequence[Any]) -> StoredPost:
    """A post row read back, checked (every column of its type, its address).

    :raises DamagedError: naming the campaign, the post and what is wrong.
    """
    values = dict(zip(POST_FIELDS, row, strict=True))
    number = values["number"]
    where = f"post {number}" if isinstance(number, int) else "a post"
    for name, allowed in _POST_TYPES.items():
        if not _typed(values[name], allowed):
            raise damaged(slug, where, f"its {name} is {_kind(values[name])}")
    post = StoredPost(**values)
    try:
        post.at  # noqa: B018  (reads the address)
    except ValueError as err:
        raise damaged(slug, where, str(err)) from None
    return post


def campaign_from_row(row: Sequence[Any]) -> CampaignInfo:
    """A campaign row read back, checked.

    :raises DamagedError: naming the campaign and the column.
    """
    values = dict(zip(_CAMPAIGN_TYPES, row, strict=True))
    slug = values["slug"] if isinstance(values["slug"], str) else f"#{values['id']}"
    for name, allowed in _CAMPAIGN_TYPES.items():
        if not _typed(values[name], allowed):
            raise damaged(str(slug), "its row", f"its {name} is {_kind(values[name])}")
    return CampaignInfo(**values)


def event_attribute(column: str) -> str:
    """The ``StoredEvent`` attribute behind an event column."""
    return "payload_json" if column == "payload" else column


@dataclass(frozen=True)
class CampaignInfo:
    """A campaign as the store knows it."""

    id: int
    slug: str
    game: str
    title: str
    created_at: str


@dataclass(frozen=True)
class NewEvent:
    """An event to append; the store assigns seq, salt, time and hashes."""

    kind: str
    actor: str
    audience: str
    payload: dict[str, Any]
    source: str | None = None


@dataclass(frozen=True)
class StoredEvent:
    """An event as recorded in the log.

    ``payload`` is the decoded ``payload_json``; ``payload_json`` is the
    canonical text exactly as stored and hashed.
    """

    seq: int
    kind: str
    actor: str
    audience: str
    payload: dict[str, Any] = field(compare=False)
    payload_json: str
    salt: str
    source: str | None
    recorded_at: str
    prev_hash: str | None
    hash: str
    batch: int | None = field(default=None, compare=False)
    """The seq of the first event of the append that recorded this one: one
    command's events share it. Store bookkeeping, not hashed; ``None`` for
    events recorded before it existed (or imported from an export)."""
    sealed_body: str | None = field(default=None, compare=False)
    """Set on a record known only by its body (its seal), as a post's proof
    publishes a private record no post has opened (``gm.check``): its
    ``payload`` is then empty and its ``salt`` unknown. None for a record
    whose content is known, which every record of the store is."""

    @property
    def known(self) -> bool:
        """Whether this record's content (payload and salt) is known."""
        return self.sealed_body is None

    @functools.cached_property
    def body(self) -> str:
        """What the chain of protocol 4 commits to: the record's seal
        (``gm.core.canonical.seal`` of its kind, payload and salt), worked
        out once (every post's proof names the records since the last)."""
        if self.sealed_body is not None:
            return self.sealed_body
        # the payload's text is canonical (gm wrote it; gm verify says when a
        # row was edited): hashed as it is, not normalised again
        return seal_text(self.kind, self.payload_json, self.salt)

    def expected_hash(self, sealed: bool = False) -> str:
        """The hash this event should have, recomputed from its fields
        (``sealed``: in a log that chains bodies, see ``sealed_chain``)."""
        return link_hash(
            sealed=sealed,
            prev_hash=self.prev_hash,
            seq=self.seq,
            kind=self.kind,
            actor=self.actor,
            audience=self.audience,
            payload=self.payload,
            salt=self.salt,
            source=self.source,
            recorded_at=self.recorded_at,
        )


@dataclass(frozen=True)
class Snapshot:
    """A campaign's fold as stored beside its log (``gm.service.snapshots``):
    the seq and hash of the last event it covers, the code that made it,
    its body (JSON) and the body's digest."""

    seq: int
    head: str
    code: str
    body: str
    digest: str


@dataclass(frozen=True)
class StoredPost:
    """A published post as archived; ``hash`` is ``digest(body)``.

    ``rendered_by`` says what wrote it, ``"gm <version> <templates
    fingerprint>"`` (see ``gm.service.posts.rendered_by``), so that ``gm
    verify`` can tell a post edited since from one an older gm or other
    templates wrote; None for posts archived before gm recorded it.
    ``address`` holds its coordinates (``"2.3"``; see ``PostRef.at``); None
    for posts archived before it existed, whose address is their ``round``.
    """

    number: int
    kind: str
    round: int | None
    at_seq: int
    body: str
    hash: str
    created_at: str
    rendered_by: str | None = None
    address: str | None = None

    @property
    def at(self) -> tuple[int, ...]:
        """The post's coordinates, outermost first."""
        if self.address is None:
            return () if self.round is None else (self.round,)
        return parse_address(self.address)


def parse_address(text: str) -> tuple[int, ...]:
    """``"2.3"`` → ``(2, 3)``; ``""`` → ``()``. :raises ValueError: not an address."""
    if not text:
        return ()
    parts = text.split(".")
    if not all(p.isascii() and p.isdigit() and len(p) <= 9 for p in parts):
        raise ValueError(f"not a post address: {text!r} (numbers joined by dots, e.g. 2.3)")
    return tuple(int(p) for p in parts)


def chain_problems(events: Sequence[StoredEvent]) -> list[str]:
    """Check a campaign's events, in seq order, against the hash contract.

    Each problem names the seq where it shows: a recomputed hash that differs
    from the stored one (the event was altered), a ``prev_hash`` that is not
    the previous event's hash, a gap in the numbering (events removed). The
    payload is re-read from its stored text, not trusted as decoded. An empty
    list means the chain verifies. Removing the *last* events leaves a valid
    shorter chain: only a head published on the forum can reveal that.
    """
    problems: list[str] = []
    expected_seq = 1
    prev: StoredEvent | None = None
    sealed = False
    for ev in events:
        where = f"seq {ev.seq}"
        if ev.seq != expected_seq:
            if ev.seq > expected_seq:
                missing = (
                    f"seq {expected_seq}"
                    if ev.seq == expected_seq + 1
                    else f"seqs {expected_seq}–{ev.seq - 1}"
                )
                problems.append(f"{where}: gap in the sequence, {missing} missing")
            else:
                problems.append(f"{where}: out of order after seq {expected_seq - 1}")
        expected_prev = prev.hash if prev is not None else None
        if (ev.prev_hash or None) != expected_prev:
            if prev is None:
                problems.append(f"{where}: prev_hash should be empty for the first event")
            else:
                problems.append(f"{where}: prev_hash does not match the hash of seq {prev.seq}")
        try:
            value = json_value(ev.payload_json)  # bounded: a row edited in place
        except ValueError:
            problems.append(f"{where}: payload is not canonical JSON")
        else:
            try:
                # Canonical text is hashed as it is stored (linear in the log's
                # size, nothing normalised twice); other text is a finding.
                canonical_value(ev.payload_json)
                text: str | None = ev.payload_json
            except ValueError:
                text = None
                try:
                    canonical_json(value)
                except TypeError:
                    problems.append(f"{where}: payload is not canonical JSON")
                    expected_seq, prev = ev.seq + 1, ev
                    continue
                problems.append(f"{where}: payload text is not in canonical form")
            if prev is None:
                sealed = sealed_chain(ev.kind, value)
            recomputed = link_hash(
                sealed=sealed,
                prev_hash=ev.prev_hash,
                seq=ev.seq,
                kind=ev.kind,
                actor=ev.actor,
                audience=ev.audience,
                payload=value,
                salt=ev.salt,
                source=ev.source,
                recorded_at=ev.recorded_at,
                payload_json=text,
            )
            if recomputed != ev.hash:
                problems.append(
                    f"{where}: hash mismatch (stored {ev.hash}, recomputed {recomputed}): "
                    "the event was altered"
                )
        expected_seq = ev.seq + 1
        prev = ev
    return problems
