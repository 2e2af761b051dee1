"""Canonical JSON is a contract: these vectors must never change."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gm.core.canonical import canonical_json, canonical_value, digest, seal, seal_text, short
from gm.store.records import link_hash


def test_canonical_form_sorts_keys_packs_and_keeps_unicode() -> None:
    assert canonical_json({"b": 1, "a": ["É", True, None]}) == '{"a":["É",true,null],"b":1}'


def test_strings_are_normalised_to_nfc() -> None:
    decomposed = "E\u0301lodie"
    assert canonical_json(decomposed) == canonical_json("Élodie")


def test_floats_are_refused() -> None:
    with pytest.raises(TypeError):
        canonical_json({"x": 1.5})


def test_digest_vector() -> None:
    assert digest("") == "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    assert short(digest("")) == "e3b0c44298fc1c149afbf4c8996fb924"  # 128 bits


# -- hashing stored text as it is (gm verify stays linear) ---------------------

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12,
)


@given(JSON, st.text(), st.text())
def test_a_stored_text_hashes_as_its_value_does(value: object, kind: str, salt: str) -> None:
    """What ``gm verify`` hashes from the stored text is what a command hashed
    from the value: the seal and both chain contracts, byte for byte."""
    text = canonical_json({"v": value})
    assert canonical_value(text) == json.loads(text)
    assert seal_text(kind, text, salt) == seal(kind, json.loads(text), salt)
    fields: dict[str, Any] = dict(
        prev_hash=None, seq=3, kind=kind, actor="gm", audience="*", salt=salt,
        source=None, recorded_at="2026-12-07T10:00:00Z",
    )  # fmt: skip
    for sealed in (False, True):
        assert link_hash(
            sealed=sealed, payload=json.loads(text), payload_json=text, **fields
        ) == link_hash(sealed=sealed, payload=json.loads(text), **fields)


@pytest.mark.parametrize(
    "text",
    [
        '{"a": 1}',  # spacing
        '{"b":1,"a":2}',  # key order
        '{"a":"\\u00e9"}',  # an escape where the character is written
        '{"a":"e\u0301"}',  # not NFC
        '{"a":1.0}',  # a float
        '{"a":NaN}',
        '{"\u0065\u0301":1}',  # a key not in NFC
    ],
)
def test_text_that_is_not_canonical_is_refused(text: str) -> None:
    with pytest.raises(ValueError):
        canonical_value(text)
