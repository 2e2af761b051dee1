"""The proof block every public post carries, and the chain it lets anyone re-derive.

A post's proof is what a player needs, with the thread alone, to re-decide
the game: every record of the campaign's log since the previous post (the
public ones in full, the private ones as their *body*, a commitment), the
content of the private records the post opens (payload and salt), and
where the post sits (its number, kind, coordinates and the log position it
shows). Nothing secret is in it: a private record's body is the SHA-256
seal of its kind, payload and random salt (``gm.core.canonical.seal``), so
it tells nothing of the content until the salt is published.

**The chain of protocol 4.** From protocol 4 on, an event's hash commits to
its body instead of its payload and salt::

    hash = digest(canonical_json({
        "prev": prev_hash or "", "seq": seq, "kind": kind, "actor": actor,
        "audience": audience, "body": seal(kind, payload, salt),
        "source": source or "", "recorded_at": recorded_at,
    }))

so a record published as a body still links the chain: a player recomputes
every hash from the first event to the chain head printed at the foot of a
post, private records included, without seeing their content; and once a
record is opened, its payload and salt must seal to the body the chain holds.
Logs of protocols 1 to 3 hash the payload and salt themselves
(``gm.store.records.event_hash``); their posts carry no proof block.

**The block** (format 1) is the line ``gm-preuve/1`` followed by the
base64 (RFC 4648, standard alphabet) of the zlib-compressed canonical JSON
of the proof (``Proof.to_json``), cut into lines of ``LINE`` characters.
Whitespace inside the block is ignored, so a forum that wraps or indents
the lines, or a copy of the rendered page, reads the same. A reader finds
the block by its first line and reads base64 characters until the first
line that holds anything else.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
import zlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from gm.core.canonical import canonical_json, digest, seal

FORMAT = 1
"""The version of the block's format (the number after ``gm-preuve/``)."""

MARK = "gm-preuve"
HEADER = f"{MARK}/{FORMAT}"
"""The block's first line."""

LINE = 76
"""Characters of base64 per line of a block."""

MAX_BLOCK = 8 * 1024 * 1024
"""Bytes a block may decompress to: a block is read from pasted text, and a
hostile paste must not exhaust memory (zlib's own limit is enforced)."""

_HEADER = re.compile(rf"{MARK}/(\d+)")
_BASE64_LINE = re.compile(r"^[A-Za-z0-9+/=]+$")


class ProofError(ValueError):
    """A block that cannot be read: its text, its compression or its JSON."""


def body_of(kind: str, payload: Any, salt: str) -> str:
    """What the chain of protocol 4 commits to for one record: its seal."""
    return seal(kind, payload, salt)


def envelope_hash(
    *,
    prev_hash: str | None,
    seq: int,
    kind: str,
    actor: str,
    audience: str,
    body: str,
    source: str | None,
    recorded_at: str,
) -> str:
    """The hash of one event of a protocol-4 log (see the module docstring)."""
    envelope = {
        "prev": prev_hash or "",
        "seq": seq,
        "kind": kind,
        "actor": actor,
        "audience": audience,
        "body": body,
        "source": source or "",
        "recorded_at": recorded_at,
    }
    return digest(canonical_json(envelope))


@dataclass(frozen=True)
class Entry:
    """One record of the log as a post publishes it.

    ``payload`` and ``salt`` are given for a public record (and None for a
    private one, which the chain knows by its ``body`` alone until a post
    opens it).
    """

    seq: int
    kind: str
    actor: str
    audience: str
    recorded_at: str
    body: str
    source: str | None = None
    payload: dict[str, Any] | None = None
    salt: str | None = None

    @property
    def is_open(self) -> bool:
        return self.payload is not None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "seq": self.seq,
            "kind": self.kind,
            "actor": self.actor,
            "audience": self.audience,
            "at": self.recorded_at,
        }
        if self.source is not None:
            out["source"] = self.source
        if self.payload is not None:
            out["payload"] = self.payload
            out["salt"] = self.salt
        else:
            out["body"] = self.body
        return out

    @classmethod
    def from_json(cls, data: Any) -> Entry:
        item = _object(data, "a record")
        payload = item.get("payload")
        salt = item.get("salt")
        kind = _text(item, "kind")
        if payload is not None:
            if not isinstance(payload, dict) or not isinstance(salt, str):
                raise ProofError("an open record needs a JSON object payload and a salt")
            body = body_of(kind, payload, salt)
        else:
            body = _text(item, "body")
        source = item.get("source")
        if source is not None and not isinstance(source, str):
            raise ProofError("a record's source is a text")
        return cls(
            seq=_int(item, "seq"),
            kind=kind,
            actor=_text(item, "actor"),
            audience=_text(item, "audience"),
            recorded_at=_text(item, "at"),
            body=body,
            source=source,
            payload=payload,
            salt=salt,
        )

    def hash(self, prev_hash: str | None) -> str:
        """This record's hash in a protocol-4 chain after ``prev_hash``."""
        return envelope_hash(
            prev_hash=prev_hash,
            seq=self.seq,
            kind=self.kind,
            actor=self.actor,
            audience=self.audience,
            body=self.body,
            source=self.source,
            recorded_at=self.recorded_at,
        )


@dataclass(frozen=True)
class Opening:
    """The content of a private record published by a later post: its payload
    and salt, which must seal to the body the chain holds for ``seq``."""

    seq: int
    payload: dict[str, Any]
    salt: str

    def to_json(self) -> dict[str, Any]:
        return {"seq": self.seq, "payload": self.payload, "salt": self.salt}

    @classmethod
    def from_json(cls, data: Any) -> Opening:
        item = _object(data, "an opened record")
        payload = item.get("payload")
        if not isinstance(payload, dict):
            raise ProofError("an opened record's payload is a JSON object")
        return cls(_int(item, "seq"), payload, _text(item, "salt"))

    def seals_to(self, entry: Entry) -> bool:
        """Whether this content is the one the chain committed to for ``entry``."""
        return entry.seq == self.seq and body_of(entry.kind, self.payload, self.salt) == entry.body


@dataclass(frozen=True)
class Proof:
    """What one post proves: where it sits, the records since the previous
    post, and the private records it opens."""

    campaign: str
    """The hash of the campaign's first event: which log this post belongs to."""
    number: int
    kind: str
    at: tuple[int, ...]
    at_seq: int
    """The log position the post shows (its footer's chain head is the hash of this seq)."""
    records: tuple[Entry, ...] = ()
    opened: tuple[Opening, ...] = ()
    text: str | None = field(default=None, compare=False, init=False, repr=False)
    """The block's base64 as read (``decode``): written again as it was,
    whatever zlib would make of the proof today. Not an argument: a proof
    made or changed (``dataclasses.replace``) is compressed afresh."""

    def to_json(self) -> dict[str, Any]:
        return {
            "v": FORMAT,
            "campaign": self.campaign,
            "post": {"number": self.number, "kind": self.kind, "at": list(self.at)},
            "at_seq": self.at_seq,
            "records": [e.to_json() for e in self.records],
            "opened": [o.to_json() for o in self.opened],
        }

    @classmethod
    def from_json(cls, data: Any) -> Proof:
        item = _object(data, "a proof")
        if item.get("v") != FORMAT:
            raise ProofError(f"a proof of format {item.get('v')!r}: this gm reads format {FORMAT}")
        post = _object(item.get("post"), "the post")
        at = post.get("at")
        if not isinstance(at, list) or not all(_is_int(n) for n in at):
            raise ProofError("a post's coordinates are a list of integers")
        records = item.get("records", [])
        opened = item.get("opened", [])
        if not isinstance(records, list) or not isinstance(opened, list):
            raise ProofError("a proof's records and openings are lists")
        return cls(
            campaign=_text(item, "campaign"),
            number=_int(post, "number"),
            kind=_text(post, "kind"),
            at=tuple(at),
            at_seq=_int(item, "at_seq"),
            records=tuple(Entry.from_json(r) for r in records),
            opened=tuple(Opening.from_json(o) for o in opened),
        )


def encode(proof: Proof) -> str:
    """The block's text: the header line, then the base64 lines (those it
    was read from, for a proof ``decode`` gave)."""
    text = proof.text
    if text is None:
        data = zlib.compress(canonical_json(proof.to_json()).encode("utf-8"), 9)
        text = base64.b64encode(data).decode("ascii")
    lines = [text[i : i + LINE] for i in range(0, len(text), LINE)]
    return "\n".join([HEADER, *lines])


def decode(block: str) -> Proof:
    """The proof a block's text holds (header line first; whitespace ignored).

    :raises ProofError: naming what cannot be read.
    """
    head, _, rest = block.strip().partition("\n")
    match = _HEADER.fullmatch(head.strip())
    if match is None:
        raise ProofError(f"a proof block starts with the line {HEADER!r}")
    if int(match.group(1)) != FORMAT:
        raise ProofError(f"a proof block of format {match.group(1)}: this gm reads format {FORMAT}")
    squeezed = "".join(rest.split())
    try:
        data = base64.b64decode(squeezed, validate=True)
    except (binascii.Error, ValueError):
        raise ProofError("the proof block is not base64 text") from None
    try:
        inflater = zlib.decompressobj()
        raw = inflater.decompress(data, MAX_BLOCK)
        if inflater.unconsumed_tail:
            raise ProofError(f"the proof block holds more than {MAX_BLOCK} bytes")
        raw += inflater.flush()
    except zlib.error:
        raise ProofError("the proof block is damaged (it does not decompress)") from None
    try:
        value = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise ProofError("the proof block does not hold JSON") from None
    proof = Proof.from_json(value)
    object.__setattr__(proof, "text", squeezed)
    return proof


def find(text: str) -> list[tuple[int, str]]:
    """Every block in a text, as (the index of its header line, its text):
    the header line and the base64 lines that follow it."""
    lines = text.splitlines()
    out = []
    i = 0
    while i < len(lines):
        if _HEADER.fullmatch(lines[i].strip()):
            j = i + 1
            while j < len(lines) and _BASE64_LINE.match(lines[j].strip()):
                j += 1
            out.append((i, "\n".join(line.strip() for line in lines[i:j])))
            i = j
        else:
            i += 1
    return out


def hashes(entries: Iterable[Entry], prev_hash: str | None = None) -> list[str]:
    """The hash of each entry in turn, each chained on the one before."""
    out = []
    for entry in entries:
        prev_hash = entry.hash(prev_hash)
        out.append(prev_hash)
    return out


def _object(data: Any, what: str) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise ProofError(f"{what} is a JSON object")
    return data


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _int(item: dict[str, Any], key: str) -> int:
    value = item.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise ProofError(f"{key!r} is an integer, not {value!r}"[:200])
    return value


def _text(item: dict[str, Any], key: str) -> str:
    value = item.get(key)
    if not isinstance(value, str):
        raise ProofError(f"{key!r} is a text, not {value!r}"[:200])
    return value
