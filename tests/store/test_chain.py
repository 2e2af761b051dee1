"""The hash chain: the contract re-derived with the standard library alone, and
tampering (altered payload, salt, prev hash, deleted rows) found at its seq."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import unicodedata
from collections.abc import Callable
from typing import Any

from gm.store import Store, StoredEvent, chain_problems, event_hash

Fill = Callable[[Store, str, int], list[StoredEvent]]


def test_event_hash_golden_vector() -> None:
    """Changing the formula must fail here: posts already published quote hashes."""
    got = event_hash(
        prev_hash="sha256:" + "ab" * 32,
        seq=7,
        kind="magot.order-set",
        actor="fab",
        audience="fab",
        payload={"target": "Élodie", "shots": 3},
        salt="00112233445566778899aabbccddeeff",
        source="pm:fab",
        recorded_at="2025-01-31T20:15:00Z",
    )
    assert got == "sha256:892fb595536214987540b3869f5a7e93b5c12f2f52b8583ff9cb0f59315e3555"


def _player_hash(ev: StoredEvent) -> str:
    """What the README tells players to run: json + hashlib + unicodedata."""

    def nfc(value: Any) -> Any:
        if isinstance(value, str):
            return unicodedata.normalize("NFC", value)
        if isinstance(value, dict):
            return {nfc(k): nfc(v) for k, v in value.items()}
        if isinstance(value, list):
            return [nfc(v) for v in value]
        return value

    envelope = {
        "prev": ev.prev_hash or "",
        "seq": ev.seq,
        "kind": ev.kind,
        "actor": ev.actor,
        "audience": ev.audience,
        "payload": json.loads(ev.payload_json),
        "salt": ev.salt,
        "source": ev.source or "",
        "recorded_at": ev.recorded_at,
    }
    text = json.dumps(nfc(envelope), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def test_players_can_rederive_every_hash(store: Store, campaign: str, fill: Fill) -> None:
    events = fill(store, campaign, 5)
    assert [_player_hash(e) for e in events] == [e.hash for e in events]
    assert events[2].payload_json in json.dumps(
        {"payload": events[2].payload}, sort_keys=True, separators=(",", ":"), ensure_ascii=False
    )


def test_a_fresh_chain_verifies(store: Store, campaign: str, fill: Fill) -> None:
    assert store.verify_chain(campaign) == []
    fill(store, campaign, 3)
    fill(store, campaign, 4)
    assert store.verify_chain(campaign) == []


def _campaign_id(raw: Any, slug: str) -> int:
    return int(raw.execute(f"SELECT id FROM campaigns WHERE slug = '{slug}'")[0][0])


def test_altered_payload_is_found_at_its_seq(
    raw: Any, store: Store, campaign: str, fill: Fill
) -> None:
    fill(store, campaign, 5)
    cid = _campaign_id(raw, campaign)
    raw.tamper(f"UPDATE events SET payload = '{{\"n\":42}}' WHERE campaign_id = {cid} AND seq = 3")
    problems = store.verify_chain(campaign)
    assert len(problems) == 1
    assert problems[0].startswith("seq 3: hash mismatch")


def test_altered_salt_is_found_at_its_seq(
    raw: Any, store: Store, campaign: str, fill: Fill
) -> None:
    fill(store, campaign, 5)
    cid = _campaign_id(raw, campaign)
    raw.tamper(f"UPDATE events SET salt = '{'0' * 32}' WHERE campaign_id = {cid} AND seq = 2")
    assert [p.split(":")[0] for p in store.verify_chain(campaign)] == ["seq 2"]


def test_altered_prev_hash_is_found(raw: Any, store: Store, campaign: str, fill: Fill) -> None:
    fill(store, campaign, 4)
    cid = _campaign_id(raw, campaign)
    raw.tamper(
        f"UPDATE events SET prev_hash = 'sha256:{'0' * 64}' WHERE campaign_id = {cid} AND seq = 4"
    )
    problems = store.verify_chain(campaign)
    assert problems[0] == "seq 4: prev_hash does not match the hash of seq 3"
    assert problems[1].startswith("seq 4: hash mismatch")


def test_deleted_event_is_found_at_the_next_seq(
    raw: Any, store: Store, campaign: str, fill: Fill
) -> None:
    fill(store, campaign, 6)
    cid = _campaign_id(raw, campaign)
    raw.tamper(f"DELETE FROM events WHERE campaign_id = {cid} AND seq IN (3, 4)")
    problems = store.verify_chain(campaign)
    assert problems == [
        "seq 5: gap in the sequence, seqs 3–4 missing",
        "seq 5: prev_hash does not match the hash of seq 2",
    ]


def test_rewritten_event_with_recomputed_hash_breaks_the_next_link(
    raw: Any, store: Store, campaign: str, fill: Fill
) -> None:
    """A cheater who also recomputes the altered event's hash is caught one seq later."""
    events = fill(store, campaign, 3)
    forged = dataclasses.replace(events[1], payload={"n": 99})
    forged_hash = forged.expected_hash()
    cid = _campaign_id(raw, campaign)
    raw.tamper(
        "UPDATE events SET payload = '{\"n\":99}', "
        f"hash = '{forged_hash}' WHERE campaign_id = {cid} AND seq = 2"
    )
    assert store.verify_chain(campaign) == ["seq 3: prev_hash does not match the hash of seq 2"]


def test_non_canonical_or_broken_payload_text_is_reported(
    raw: Any, store: Store, campaign: str, fill: Fill
) -> None:
    fill(store, campaign, 3)
    cid = _campaign_id(raw, campaign)
    raw.tamper(f"UPDATE events SET payload = '{{\"n\": 1}}' WHERE campaign_id = {cid} AND seq = 1")
    raw.tamper(f"UPDATE events SET payload = '{{oops' WHERE campaign_id = {cid} AND seq = 2")
    assert store.verify_chain(campaign) == [
        "seq 1: payload text is not in canonical form",
        "seq 2: payload is not canonical JSON",
    ]


def test_chain_problems_on_a_list() -> None:
    """The pure check also serves exported logs: order and the first prev_hash."""
    a, b = (
        StoredEvent(
            seq=s,
            kind="k",
            actor="gm",
            audience="*",
            payload={},
            payload_json="{}",
            salt="00" * 16,
            source=None,
            recorded_at="2025-01-31T20:15:00Z",
            prev_hash=prev,
            hash="",
        )
        for s, prev in ((1, None), (2, None))
    )
    a = dataclasses.replace(a, hash=a.expected_hash())
    b = dataclasses.replace(b, prev_hash=a.hash)
    b = dataclasses.replace(b, hash=b.expected_hash())
    assert chain_problems([a, b]) == []
    assert chain_problems([b, a])[0] == "seq 2: gap in the sequence, seq 1 missing"
    assert chain_problems([b])[:2] == [
        "seq 2: gap in the sequence, seq 1 missing",
        "seq 2: prev_hash should be empty for the first event",
    ]
