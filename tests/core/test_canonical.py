"""Canonical JSON is a contract: these vectors must never change."""

from __future__ import annotations

import pytest

from gm.core.canonical import canonical_json, digest, short


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
