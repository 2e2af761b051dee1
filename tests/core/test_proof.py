"""The proof block's format (gm.core.proof): what a post carries and a player reads back."""

from __future__ import annotations

import base64
import zlib

import pytest

from gm.core.canonical import canonical_json, seal
from gm.core.proof import (
    HEADER,
    LINE,
    MAX_BLOCK,
    Entry,
    Opening,
    Proof,
    ProofError,
    decode,
    encode,
    envelope_hash,
    find,
    hashes,
)

SALT = "0123456789abcdef0123456789abcdef"


def _proof() -> Proof:
    public = Entry.from_json(
        {
            "seq": 1,
            "kind": "gm.campaign-created",
            "actor": "gm",
            "audience": "*",
            "at": "2026-12-02T10:00:00Z",
            "payload": {"title": "Le casse", "players": ["fab", "Élodie"]},
            "salt": SALT,
        }
    )
    private = Entry(
        seq=2,
        kind="magot.order-set",
        actor="fab",
        audience="fab",
        recorded_at="2026-12-02T10:01:00Z",
        body=seal("magot.order-set", {"round": 1, "player": "fab"}, SALT),
        source="MP du 2/12",
    )
    return Proof(
        campaign=public.hash(None),
        number=1,
        kind="opening",
        at=(),
        at_seq=2,
        records=(public, private),
        opened=(Opening(2, {"round": 1, "player": "fab"}, SALT),),
    )


def test_a_block_reads_back_as_the_proof_it_was_made_of() -> None:
    proof = _proof()
    block = encode(proof)
    lines = block.split("\n")
    assert lines[0] == HEADER
    assert all(len(line) <= LINE for line in lines[1:])
    assert decode(block) == proof


def test_a_block_survives_wrapping_indentation_and_a_copy_with_its_surroundings() -> None:
    proof = _proof()
    block = encode(proof)
    head, *rest = block.split("\n")
    rewrapped = "\n".join([head, *("   " + part[:30] + "\n  " + part[30:] for part in rest)])
    text = f"## Tour 1\n\nSur la table : 45 000 $\n\n{rewrapped}\n\n_Empreinte du registre_"
    (found,) = find(text)
    assert found[0] == 4
    assert decode(found[1]) == proof


def test_an_open_record_is_hashed_through_its_seal() -> None:
    proof = _proof()
    public, private = proof.records
    assert public.body == seal(public.kind, public.payload, SALT)
    first, second = hashes(proof.records)
    assert first == public.hash(None)
    assert second == envelope_hash(
        prev_hash=first,
        seq=2,
        kind=private.kind,
        actor="fab",
        audience="fab",
        body=private.body,
        source="MP du 2/12",
        recorded_at=private.recorded_at,
    )
    assert proof.opened[0].seals_to(private)
    forged = Opening(2, {"round": 1, "player": "marco"}, SALT)
    assert not forged.seals_to(private)


@pytest.mark.parametrize(
    ("block", "says"),
    [
        ("gm-preuve/2\nAAAA", "format 2"),
        ("gm-preuve/1\n!!!!", "not base64"),
        ("gm-preuve/1\n" + base64.b64encode(b"not zlib").decode(), "damaged"),
        ("gm-preuve/1\n" + base64.b64encode(zlib.compress(b"[1, 2")).decode(), "JSON"),
        ("gm-preuve/1\n" + base64.b64encode(zlib.compress(b"[1, 2]")).decode(), "object"),
        ("preuve\nAAAA", "starts with"),
    ],
)
def test_a_block_that_cannot_be_read_says_why(block: str, says: str) -> None:
    with pytest.raises(ProofError, match=says):
        decode(block)


def test_a_block_that_inflates_beyond_the_limit_is_refused() -> None:
    bomb = zlib.compress(b" " * (MAX_BLOCK + 10), 9)
    with pytest.raises(ProofError, match="more than"):
        decode(HEADER + "\n" + base64.b64encode(bomb).decode())


def test_a_record_that_claims_content_must_have_a_salt() -> None:
    data = _proof().to_json()
    del data["records"][0]["salt"]
    block = HEADER + "\n" + base64.b64encode(zlib.compress(canonical_json(data).encode())).decode()
    with pytest.raises(ProofError, match="salt"):
        decode(block)
