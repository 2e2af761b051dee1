"""Canonical JSON and SHA-256 digests: the hashing contract.

Every hash gm publishes (the event chain, order seals, post fingerprints, the
seed commitment) is SHA-256 over bytes produced here, so that anyone can
recompute it with the Python standard library alone:

* canonical JSON is ``json.dumps(value, sort_keys=True, separators=(",", ":"),
  ensure_ascii=False)`` encoded as UTF-8, with every string in Unicode NFC and
  no floats (integers, strings, booleans, null, lists and objects only);
* a digest is written ``sha256:<64 hex digits>``; posts show its first 32;
* an order's seal is the digest of ``{"kind", "payload", "salt"}`` (``seal``).
"""

from __future__ import annotations

import functools
import hashlib
import json
import unicodedata
from collections.abc import Mapping
from typing import Any

PREFIX = "sha256:"


def normalize(value: Any) -> Any:
    """Return ``value`` with every string in NFC; refuse floats (not canonical)."""
    if isinstance(value, str):
        return unicodedata.normalize("NFC", value)
    if isinstance(value, bool) or value is None or isinstance(value, int):
        return value
    if isinstance(value, float):
        raise TypeError("floats have no canonical form; use integers")
    if isinstance(value, dict):
        return {normalize(str(k)): normalize(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [normalize(v) for v in value]
    raise TypeError(f"cannot put {type(value).__name__} in canonical JSON")


def canonical_json(value: Any) -> str:
    """Serialize ``value`` to its one canonical JSON text."""
    return json.dumps(normalize(value), sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _refuse(text: str) -> Any:
    raise ValueError(f"{text} is not canonical JSON: use integers")


def canonical_value(text: str) -> Any:
    """The value of ``text`` if ``text`` is canonical JSON (``canonical_json``
    of that value, byte for byte), else ``ValueError``.

    Cheaper than ``canonical_json(json.loads(text)) == text``: the text is
    checked for NFC as a whole, not string by string. That is the same
    thing, because every string of a JSON text lies between quotes, which
    never combine with what surrounds them, so each string is NFC exactly
    when the whole text is. The value is not bounded in depth: give it text
    ``gm.reader.json_value`` has parsed once, or gm's own.
    """
    value = json.loads(text, parse_float=_refuse, parse_constant=_refuse)
    if not unicodedata.is_normalized("NFC", text):
        raise ValueError("a string is not in Unicode NFC")
    if json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False) != text:
        raise ValueError("not in canonical form (key order, spacing or escapes)")
    return value


def canonical_object(texts: Mapping[str, str]) -> str:
    """The canonical JSON of an object whose values are given as their
    canonical JSON texts (``canonical_json`` of the object they make): the
    hashing contracts put a stored payload text in an envelope this way,
    byte for byte, without decoding and normalising it again."""
    pairs = sorted((_key(key), text) for key, text in texts.items())
    return "{" + ",".join(f"{key[1]}:{text}" for key, text in pairs) + "}"


@functools.lru_cache(maxsize=64)
def _key(key: str) -> tuple[str, str]:
    """A key as JSON sorts it (NFC) and as it is written (the hashing
    contracts use a handful of keys: each is worked out once)."""
    return normalize(key), canonical_json(key)


def sha256_hex(data: bytes | str) -> str:
    """Hex SHA-256 of bytes, or of a string's UTF-8 bytes."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    return hashlib.sha256(data).hexdigest()


def digest(data: bytes | str) -> str:
    """The tagged digest ``sha256:<hex>``."""
    return PREFIX + sha256_hex(data)


def seal(kind: str, payload: Any, salt: str) -> str:
    """The commitment to a secret event: ``digest`` of the canonical JSON of
    ``{"kind": kind, "payload": payload, "salt": salt}``.

    Published when orders are revealed; the random salt (published when the
    order itself becomes public) makes it impossible to find the order by
    trying every possible one.
    """
    return digest(canonical_json({"kind": kind, "payload": payload, "salt": salt}))


def seal_text(kind: str, payload_json: str, salt: str) -> str:
    """``seal(kind, payload, salt)`` from the payload's canonical JSON text
    (as the log stores it) rather than from its value: the same digest."""
    return digest(
        canonical_object(
            {"kind": canonical_json(kind), "payload": payload_json, "salt": canonical_json(salt)}
        )
    )


def short(tagged: str, length: int = 32) -> str:
    """The short form of a digest shown in posts: its first ``length`` hex
    digits (32: 128 bits, what players compare)."""
    return tagged.removeprefix(PREFIX)[:length]
