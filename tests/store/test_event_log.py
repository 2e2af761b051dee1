"""The event log and its unit of work: append/load, stale writes, atomicity,
posts, settings, campaigns, and the append-only triggers."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import pytest

from gm.core.canonical import canonical_json, digest
from gm.errors import CampaignError, NotFoundError, StaleStateError
from gm.store import NewEvent, Store, StoredEvent

Event = Callable[..., NewEvent]
Fill = Callable[[Store, str, int], list[StoredEvent]]

ISO_UTC = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")


def test_append_and_load_round_trip(store: Store, campaign: str) -> None:
    new = [
        NewEvent("magot.order-set", "fab", "fab", {"target": "Élodie", "shots": 3}, "pm:fab"),
        NewEvent("magot.loot-drawn", "gm", "*", {"bills": [5000, 10000]}),
    ]
    with store.write(campaign) as w:
        written = w.append(campaign, new, expected_seq=0)
    loaded = store.events(campaign)
    assert loaded == written
    first, second = loaded
    assert [e.seq for e in loaded] == [1, 2]
    assert (first.kind, first.actor, first.audience, first.source) == (
        "magot.order-set",
        "fab",
        "fab",
        "pm:fab",
    )
    assert first.payload == {"target": "Élodie", "shots": 3}
    assert first.payload_json == '{"shots":3,"target":"Élodie"}'
    assert second.source is None
    assert first.prev_hash is None and second.prev_hash == first.hash
    assert first.hash.startswith("sha256:") and first.hash == first.expected_hash()
    assert re.fullmatch(r"[0-9a-f]{32}", first.salt) and first.salt != second.salt
    assert ISO_UTC.match(first.recorded_at) and first.recorded_at == second.recorded_at
    assert store.head(campaign) == second.hash
    assert store.last_seq(campaign) == 2
    assert store.events(campaign, upto=1) == [first]
    assert store.events(campaign, upto=0) == []


def test_payload_strings_are_stored_in_nfc(store: Store, campaign: str) -> None:
    decomposed = "E\u0301lodie"  # É as E + combining acute
    with store.write(campaign) as w:
        (ev,) = w.append(campaign, [NewEvent("k", "gm", "*", {"name": decomposed})], 0)
    assert ev.payload == {"name": "\u00c9lodie"}
    assert store.events(campaign)[0].payload_json == canonical_json({"name": decomposed})


def test_injected_clock_and_salt_make_hashes_reproducible(db_url: str) -> None:
    def build() -> list[StoredEvent]:
        store = Store(
            db_url,
            clock=lambda: datetime(2025, 1, 31, 20, 15, tzinfo=UTC),
            salt=lambda: "00" * 16,
        )
        with store:
            with store.write() as w:
                slug = f"c{len(w.campaigns())}"
                w.create_campaign(slug, "magot", "Repro")
                w.append(slug, [NewEvent("k", "gm", "*", {"n": 1})], 0)
            return store.events(slug)

    first, second = build(), build()
    assert first == second
    assert first[0].recorded_at == "2025-01-31T20:15:00Z"


def test_logs_of_campaigns_are_independent(store: Store, fill: Fill) -> None:
    with store.write() as w:
        w.create_campaign("a", "magot", "A")
        w.create_campaign("b", "fistful", "B")
    fill(store, "a", 3)
    fill(store, "b", 2)
    assert [e.seq for e in store.events("a")] == [1, 2, 3]
    assert [e.seq for e in store.events("b")] == [1, 2]
    assert store.verify_chain("a") == [] and store.verify_chain("b") == []


def test_expected_seq_mismatch_is_stale_and_writes_nothing(
    store: Store, campaign: str, fill: Fill, event: Event
) -> None:
    fill(store, campaign, 2)
    before = store.events(campaign)
    for expected in (0, 1, 3):
        with pytest.raises(StaleStateError) as caught, store.write(campaign) as w:
            w.add_post(campaign, "status", (), 2, "written in the same unit of work")
            w.append(campaign, [event(99)], expected_seq=expected)
        assert caught.value.code == "store/stale"
        assert caught.value.params == {
            "slug": campaign,
            "expected_seq": expected,
            "last_seq": 2,
        }
        assert f"ends at seq 2, not {expected}" in caught.value.message
    assert store.events(campaign) == before
    assert store.posts(campaign) == []


def test_a_failing_unit_of_work_writes_nothing(
    store: Store, campaign: str, fill: Fill, event: Event
) -> None:
    fill(store, campaign, 1)

    class Boom(Exception):
        pass

    with pytest.raises(Boom), store.write(campaign) as w:
        w.create_campaign("other", "magot", "Other")
        w.append(campaign, [event(2), event(3)], expected_seq=1)
        w.add_post(campaign, "status", (1,), 3, "body")
        w.set_setting("current", "other")
        assert len(w.events(campaign)) == 3  # visible inside the unit of work
        raise Boom
    assert [e.seq for e in store.events(campaign)] == [1]
    assert store.posts(campaign) == []
    assert store.get_setting("current") is None
    assert [c.slug for c in store.campaigns()] == [campaign]


def test_empty_append_checks_but_writes_nothing(store: Store, campaign: str) -> None:
    with store.write(campaign) as w:
        assert w.append(campaign, [], expected_seq=0) == []
    with pytest.raises(StaleStateError), store.write(campaign) as w:
        w.append(campaign, [], expected_seq=4)


def test_unknown_campaign_is_not_found_with_known_slugs(store: Store) -> None:
    with store.write() as w:
        for i in range(12):
            w.create_campaign(f"camp-{i:02d}", "magot", f"Campaign {i}")
    with pytest.raises(NotFoundError) as caught:
        store.events("nope")
    err = caught.value
    assert err.code == "campaign/not-found"
    assert err.message.startswith("no campaign 'nope'; known campaigns: camp-00, camp-01,")
    assert "camp-09, … (12 in all)" in err.message and "camp-10" not in err.message
    assert err.params["known"] == [f"camp-{i:02d}" for i in range(10)]
    with pytest.raises(NotFoundError), store.write("nope"):
        pass


def test_not_found_on_an_empty_database(store: Store) -> None:
    with pytest.raises(NotFoundError, match=r"known campaigns: \(none\)"):
        store.campaign("x")


def test_campaigns_and_duplicate_slug(store: Store) -> None:
    with store.write() as w:
        created = w.create_campaign("magot", "magot", "Le Magot")
    assert store.campaigns() == [created]
    assert store.campaign("magot") == created
    assert ISO_UTC.match(created.created_at)
    with pytest.raises(CampaignError) as caught, store.write() as w:
        w.create_campaign("magot", "fistful", "Autre")
    assert caught.value.code == "campaign/exists"
    assert "'magot' already exists" in caught.value.message
    assert store.campaigns() == [created]


def test_posts_are_numbered_and_hashed(store: Store, campaign: str, fill: Fill) -> None:
    fill(store, campaign, 3)
    with store.write(campaign) as w:
        one = w.add_post(campaign, "round-open", (1,), 2, "# Manche 1\n\nÀ vous !")
        two = w.add_post(campaign, "resolution", (1,), 3, "# Résolution")
    assert (one.number, two.number) == (1, 2)
    assert one.hash == digest("# Manche 1\n\nÀ vous !")
    assert store.posts(campaign) == [one, two]
    assert store.verify_posts(campaign) == []
    with pytest.raises(ValueError, match="at_seq 4"), store.write(campaign) as w:
        w.add_post(campaign, "status", (), 4, "after the log's end")


def test_settings_are_mutable(store: Store) -> None:
    assert store.get_setting("current") is None
    store.set_setting("current", "magot")
    store.set_setting("current", "fistful")
    assert store.get_setting("current") == "fistful"


def test_a_read_snapshot_is_consistent(store: Store, campaign: str, fill: Fill) -> None:
    fill(store, campaign, 1)
    with store.read() as r:
        assert r.last_seq(campaign) == 1
        fill(store, campaign, 1)  # another writer commits meanwhile
        assert r.last_seq(campaign) == 1
        assert len(r.events(campaign)) == 1
    assert store.last_seq(campaign) == 2


@pytest.mark.parametrize("table", ["events", "posts"])
@pytest.mark.parametrize("statement", ["UPDATE {t} SET kind = 'x'", "DELETE FROM {t}"])
def test_triggers_refuse_update_and_delete(
    raw: Any, store: Store, campaign: str, fill: Fill, table: str, statement: str
) -> None:
    fill(store, campaign, 2)
    with store.write(campaign) as w:
        w.add_post(campaign, "status", (), 2, "body")
    with pytest.raises(Exception, match="append-only") as caught:
        raw.execute(statement.format(t=table))
    assert type(caught.value).__name__ in {"IntegrityError", "RaiseException", "RestrictViolation"}
    assert len(store.events(campaign)) == 2 and len(store.posts(campaign)) == 1


def test_settings_and_campaigns_are_not_append_only(raw: Any, store: Store) -> None:
    store.set_setting("k", "v")
    raw.execute("UPDATE settings SET value = 'w'")
    assert store.get_setting("k") == "w"
