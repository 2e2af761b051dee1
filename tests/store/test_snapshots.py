"""Snapshots (``gm.service.snapshots``): a cache that never changes a result.

A command reads its campaign's snapshot and the events after it instead of
folding the whole log. These tests play every scenario file and random
legal games of every game twice — once with no snapshot at all, once with a
snapshot written at every command and read back by the next one (nothing
kept between commands, as separate ``gm`` processes) — and compare what
players and the MJ see: every post byte for byte, every event, the summary.
Then they make the snapshot stale, damaged, forged or missing, and check
that nothing changes but a note (and that a forged one cannot fool ``gm
verify``), on every database. The games are compared on SQLite only: what
they check is the fold, which no database changes.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from game_dists import installed
from sqlalchemy import text

from gm import games
from gm.core.protocol import ScenarioStep
from gm.service import actions, audit, campaigns, loading, pipeline, scenario, snapshots
from gm.service.env import Env
from gm.store.db import resolve_url
from gm.store.log import Store

SCENARIOS = sorted(
    p
    for p in (Path(__file__).parents[1] / "scenarios").glob("*.toml")
    if not p.name.endswith(".board.toml")  # a valley a scenario reads, not a scenario
)
NOW = datetime(2026, 12, 1, 20, 0, tzinfo=UTC)


@pytest.fixture(autouse=True)
def same_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    """A scenario without a seed gets the same one each time it is played."""
    monkeypatch.setattr(campaigns, "secrets", SimpleNamespace(token_hex=lambda n: "5e" * n))


def env_for(db: str, *, cached: bool) -> Env:
    """An environment whose salts and clock repeat from one run to the next,
    with or without snapshots."""
    env = Env(db=db, now=lambda: NOW)
    count = itertools.count()
    env.__dict__["store"] = Store(
        resolve_url(db), clock=env.now, salt=lambda: f"{next(count):032x}", snapshots=cached
    )
    return env


@pytest.fixture
def every_command(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Snapshots written at every command, and no campaign kept between
    commands: each one starts from the snapshot and the events after it.
    Yields the seqs of the snapshots read."""
    read: list[int] = []
    monkeypatch.setattr(snapshots, "EVERY", 1)
    original_latest, original_read = loading.latest, snapshots.campaign_from

    def fresh(store: Store, r: Any, info: Any) -> loading.Campaign:
        loading.forget(store)  # as a new process: nothing kept
        return original_latest(store, r, info)

    def counted(stored: Any, *args: Any) -> loading.Campaign:
        read.append(stored.seq)
        return original_read(stored, *args)

    monkeypatch.setattr(loading, "latest", fresh)
    monkeypatch.setattr(pipeline, "latest", fresh)
    monkeypatch.setattr(snapshots, "campaign_from", counted)
    yield read


@dataclass(frozen=True)
class Outcome:
    """What a game left: its events, its posts, its summary."""

    events: list[tuple[int, str, str, str]]
    posts: list[tuple[int, str, str]]
    summary: dict[str, Any]


def outcome(env: Env, slug: str) -> Outcome:
    store = env.store
    campaign = loading.fold(slug, store.campaign(slug).game, store.events(slug))
    return Outcome(
        [(e.seq, e.kind, e.payload_json, e.hash) for e in store.events(slug)],
        [(p.number, p.kind, p.body) for p in store.posts(slug)],
        campaign.game.summary(campaign.state, campaign.table),
    )


def play_random(env: Env, game_id: str, seed: int) -> str:
    """A random legal game of ``game_id`` to its end, through the service."""
    rng = random.Random(f"snapshots/{game_id}/{seed}")
    game = games.load(game_id)
    count = min(game.max_players, game.min_players + 1)
    players = rng.sample(["ana", "bob", "Élodie", "Jean-Paul", "lulu", "tom"], count)
    created = campaigns.create(env, game_id, f"Cache {seed}", players, seed=f"graine-{seed}")
    slug = created.campaign.slug
    for _ in range(3000):
        campaign = actions.load(env, slug)
        if game.is_over(campaign.state):
            return slug
        inputs = game.legal_inputs(campaign.state)
        steps = [i for i in inputs if i.step is not None]
        item: ScenarioStep = steps[-1] if steps and rng.random() < 0.25 else rng.choice(inputs)
        if item.step is not None:
            actions.step(env, slug, item.step, item.values)
        else:
            assert item.actor is not None and item.text is not None
            actions.submit(env, slug, item.actor, item.text)
    raise AssertionError(f"{game_id}: no end after 3000 inputs")


GAMES = ["magot", "fistful", "colt", "rattlesnake", "toss"]


@pytest.mark.parametrize("game_id", GAMES)
def test_a_snapshot_never_changes_a_random_game(
    game_id: str, tmp_path: Path, every_command: list[int]
) -> None:
    with installed("toss"):
        cached_env = env_for(str(tmp_path / "cached.db"), cached=True)
        slug = play_random(cached_env, game_id, 1)
        with_snapshots = outcome(cached_env, slug)
        assert len(every_command) >= 5  # the commands did start from snapshots
        every_command.clear()
        bare_env = env_for(str(tmp_path / "bare.db"), cached=False)
        assert play_random(bare_env, game_id, 1) == slug
        assert every_command == []
        assert outcome(bare_env, slug) == with_snapshots
        assert audit.verify(cached_env, slug).problems == []
        damaged_or_stale(str(tmp_path / "cached.db"), slug, with_snapshots.summary)


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_a_snapshot_never_changes_a_scenario(
    path: Path, tmp_path: Path, every_command: list[int]
) -> None:
    cached_env = env_for(str(tmp_path / "cached.db"), cached=True)
    played = scenario.play(cached_env, path)
    assert every_command  # the commands did start from snapshots
    bare_env = env_for(str(tmp_path / "bare.db"), cached=False)
    bare = scenario.play(bare_env, path)
    slug = played.campaign.slug
    kept = outcome(cached_env, slug)
    assert kept == outcome(bare_env, bare.campaign.slug)
    damaged_or_stale(str(tmp_path / "cached.db"), slug, kept.summary)


def damaged_or_stale(db: str, slug: str, summary: dict[str, Any]) -> None:
    """The campaign's summary, read by a new process, is ``summary`` with its
    snapshot stale, then damaged, then gone."""
    for damage in (
        "UPDATE snapshots SET code = 'sha256:0'",
        "UPDATE snapshots SET body = body || ' '",
        "DELETE FROM snapshots",
    ):
        sql(db, damage)
        data, _ = status_now(db, slug)
        assert {k: data[k] for k in summary} == summary, damage


# -- what is wrong with a snapshot changes nothing but a note --------------------


@pytest.fixture
def played(db: str, monkeypatch: pytest.MonkeyPatch) -> tuple[str, str, Outcome]:
    """A Colt Express scenario played with a snapshot at every command."""
    monkeypatch.setattr(snapshots, "EVERY", 1)
    env = env_for(db, cached=True)
    slug = scenario.play(env, SCENARIOS[0]).campaign.slug
    return db, slug, outcome(env, slug)


def status_now(db: str, slug: str) -> tuple[dict[str, Any], list[str]]:
    """``gm status --json`` as a new process would answer, and the MJ's notes."""
    env = Env(db=db, now=lambda: NOW)
    try:
        return campaigns.status(env, slug), list(env.store.notes)
    finally:
        env.store.close()


def sql(db: str, statement: str, **params: Any) -> None:
    store = Store(resolve_url(db))
    try:
        with store.engine.begin() as conn:
            conn.execute(text(statement), params)
    finally:
        store.close()


def stored_snapshot(db: str, slug: str) -> Any:
    store = Store(resolve_url(db))
    try:
        with store.read() as r:
            return r.snapshot(r.campaign(slug).id)
    finally:
        store.close()


def test_a_campaign_reads_its_snapshot_and_says_nothing(
    played: tuple[str, str, Outcome], monkeypatch: pytest.MonkeyPatch
) -> None:
    db, slug, before = played
    read: list[int] = []
    original = snapshots.campaign_from
    monkeypatch.setattr(
        snapshots,
        "campaign_from",
        lambda *a: read.append(a[0].seq) or original(*a),  # type: ignore[func-returns-value]
    )
    data, notes = status_now(db, slug)
    assert read == [before.events[-1][0]]  # the snapshot at the last event, and no fold
    assert notes == []
    assert {k: data[k] for k in before.summary} == before.summary


@pytest.mark.parametrize(
    ("damage", "why"),
    [
        ("UPDATE snapshots SET code = 'sha256:0'", "made by another version of gm"),
        ("UPDATE snapshots SET body = body || ' '", "does not match its digest (damaged)"),
        ("UPDATE snapshots SET head = 'sha256:1'", "no longer goes through the event"),
        ("UPDATE snapshots SET seq = seq - 1", "no longer goes through the event"),
    ],
    ids=["stale", "damaged", "another-head", "another-event"],
)
def test_a_stale_or_damaged_snapshot_is_a_note_and_is_written_again(
    played: tuple[str, str, Outcome], damage: str, why: str
) -> None:
    db, slug, before = played
    sql(db, damage)
    data, notes = status_now(db, slug)
    assert {k: data[k] for k in before.summary} == before.summary
    assert len(notes) == 1 and why in notes[0], notes
    assert notes[0].startswith(f"[{slug}] The snapshot of the campaign at event ")
    assert "Folded the log from its first event instead" in notes[0]
    # written again, whole: the next reader uses it and says nothing
    again = stored_snapshot(db, slug)
    assert (again.seq, again.code) == (before.events[-1][0], snapshots.code_version("colt"))
    assert status_now(db, slug) == (data, [])


def test_a_snapshot_naming_a_class_gm_does_not_build_is_not_read(
    played: tuple[str, str, Outcome],
) -> None:
    """A body that would make gm build something else (a class outside gm
    and the game) is refused, even with its digest recomputed."""
    db, slug, before = played
    snap = stored_snapshot(db, slug)
    body = snap.body.replace('"gm.core.campaign:Meta"', '"subprocess:Popen"', 1)
    assert body != snap.body
    sql(
        db,
        "UPDATE snapshots SET body = :body, digest = :digest",
        body=body,
        digest=snapshots.digest(body),
    )
    data, notes = status_now(db, slug)
    assert {k: data[k] for k in before.summary} == before.summary
    assert "does not read back (a class of 'subprocess', which a snapshot cannot name)" in notes[0]


def test_deleting_every_snapshot_changes_nothing(played: tuple[str, str, Outcome]) -> None:
    db, slug, before = played
    sql(db, "DELETE FROM snapshots")
    data, notes = status_now(db, slug)
    assert {k: data[k] for k in before.summary} == before.summary
    assert notes == []  # a campaign without a snapshot is no news
    env = env_for(db, cached=True)
    assert outcome(env, slug) == before


def test_a_forged_snapshot_cannot_fool_verify(db: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A cheating MJ who rewrites a snapshot with gm's own code (its digest
    recomputed) so that more money lies on the table: the resolution is
    decided on the forged state, and ``gm verify``, which folds the log and
    never reads a snapshot, decides it again and finds another one."""
    monkeypatch.setattr(snapshots, "EVERY", 1)
    env = env_for(db, cached=True)
    campaigns.create(env, "magot", "Le casse", ["fab", "marco", "lulu"], seed="graine")
    slug = "le-casse"
    actions.step(env, slug, "draw", {"bills": "20000,10000,5000,5000,5000"})
    for shooter, target in (("fab", "marco"), ("marco", "lulu"), ("lulu", "fab")):
        actions.submit(env, slug, shooter, f"je braque {target}, CLIC CLIC CLIC")
    assert audit.verify(env, slug).problems == []
    snap = stored_snapshot(db, slug)
    parts, plain = snapshots.read(snap, "magot")
    assert parts["state"].pot == (20000, 10000, 5000, 5000, 5000)
    parts["state"] = replace(parts["state"], pot=(20000,) * 5)  # with gm's own code
    forged = snapshots.make(parts, plain, games.load("magot"), snap.seq, snap.head)
    assert forged is not None
    sql(
        db,
        "UPDATE snapshots SET body = :body, digest = :digest",
        body=forged.body,
        digest=forged.digest,
    )
    cheat = env_for(db, cached=True)
    actions.step(cheat, slug, "reveal", {})
    posted = actions.step(cheat, slug, "resolve", {}, force=True)
    # the forged pot shared: three shares of 20 000 $, 40 000 $ left on the table
    assert "3 parts de **20" in posted.posts[0].body, posted.posts[0].body
    # decided again from the log, the resolution is not the one recorded
    problems = audit.verify(Env(db=db), slug).problems
    assert any("the log holds magot.round-resolved" in line for line in problems), problems


# -- what a command reads ----------------------------------------------------------


def test_a_command_reads_only_the_events_after_the_snapshot(
    db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On a long campaign, a new process's command reads the snapshot and at
    most ``snapshots.EVERY`` events after it, and folds nothing from the
    first event; what it prints is what a fold from scratch gives."""
    from gm.store.log import Reader

    env = env_for(db, cached=True)
    campaigns.create(env, "magot", "Le casse", ["fab", "marco", "lulu"], seed="graine")
    slug = "le-casse"
    actions.step(env, slug, "draw", {"bills": "20000,10000,5000,5000,5000"})
    players = ["fab", "marco", "lulu"]
    n = 0
    while env.store.last_seq(slug) < 4 * snapshots.EVERY:
        actions.submit(env, slug, players[n % 3], f"je braque {players[(n + 1) % 3]}, BANG")
        n += 1
    read: list[int] = []
    original = Reader.events

    def counted(self: Reader, slug: str, upto: int | None = None, after: int = 0) -> Any:
        events = original(self, slug, upto, after)
        read.append(len(events))
        return events

    monkeypatch.setattr(Reader, "events", counted)
    monkeypatch.setattr(loading, "fold", lambda *a: pytest.fail("folded from the first event"))
    fresh = env_for(db, cached=True)
    result = actions.submit(fresh, slug, "fab", "je braque marco, CLIC CLIC CLIC")
    assert read and sum(read) <= snapshots.EVERY, read
    monkeypatch.undo()
    whole = loading.fold(slug, "magot", env.store.events(slug))
    assert (result.campaign.meta, result.campaign.state) == (whole.meta, whole.state)
    assert dict(result.campaign.secrets) == dict(whole.secrets)


def test_the_mj_reads_the_note_on_standard_error(played: tuple[str, str, Outcome]) -> None:
    from click.testing import CliRunner

    from gm.cli import cli

    db, slug, _ = played
    runner = CliRunner()
    clean = runner.invoke(cli, ["--db", db, "-c", slug, "status"])
    sql(db, "UPDATE snapshots SET code = 'sha256:0'")
    stale = runner.invoke(cli, ["--db", db, "-c", slug, "status"])
    assert (stale.exit_code, stale.stdout) == (0, clean.stdout)
    assert stale.stderr == (
        f"[{slug}] The snapshot of the campaign at event {stored_snapshot(db, slug).seq} was not"
        " used: it was made by another version of gm or of the game. Folded the log from its"
        " first event instead, and a new one is written (a snapshot only saves time: nothing"
        " else changes).\n"
    )
    assert runner.invoke(cli, ["--db", db, "-c", slug, "status"]).stderr == ""


def test_a_read_does_not_wait_to_write_a_snapshot(
    played: tuple[str, str, Outcome], monkeypatch: pytest.MonkeyPatch
) -> None:
    """While another gm holds the write lock, a status whose campaign has no
    usable snapshot answers at once (without writing one), instead of
    waiting for the lock as a command would."""
    import threading

    db, slug, before = played
    sql(db, "DELETE FROM snapshots")
    holder = Store(resolve_url(db))
    waiting = Store(resolve_url(db), busy_timeout_ms=600_000)
    answers: list[dict[str, Any]] = []
    env = Env(db=db, now=lambda: NOW)
    env.__dict__["store"] = waiting
    try:
        with holder.write(slug):
            reader = threading.Thread(target=lambda: answers.append(campaigns.status(env, slug)))
            reader.start()
            reader.join(timeout=120)  # it would wait 600 s for the lock
            assert not reader.is_alive(), "the status waited for the write lock"
        assert {k: answers[0][k] for k in before.summary} == before.summary
        assert stored_snapshot(db, slug) is None  # nothing written meanwhile
        campaigns.status(env, slug)  # the lock is free: now it is written
        assert stored_snapshot(db, slug).seq == before.events[-1][0]
    finally:
        holder.close()
        waiting.close()


def test_an_index_that_does_not_read_back_is_made_again_from_the_records(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A snapshot whose index was rewritten (its digest recomputed): the post
    that opens the orders opens the same records, from the log itself."""
    monkeypatch.setattr(snapshots, "EVERY", 1)

    def round_one(env: Env) -> None:
        campaigns.create(env, "magot", "Le casse", ["fab", "marco", "lulu"], seed="graine")
        actions.step(env, "le-casse", "draw", {"bills": "20000,10000,5000,5000,5000"})
        for shooter, target in (("fab", "marco"), ("marco", "lulu"), ("lulu", "fab")):
            actions.submit(env, "le-casse", shooter, f"je braque {target}, BANG")

    bare = env_for(str(tmp_path / "bare.db"), cached=False)
    round_one(bare)
    actions.step(bare, "le-casse", "reveal", {})
    db = str(tmp_path / "cached.db")
    cached = env_for(db, cached=True)
    round_one(cached)
    snap = stored_snapshot(db, "le-casse")
    parts, plain = snapshots.read(snap, "magot")
    assert plain["index"]["sealed"]  # the three orders, still sealed
    broken = snapshots.make(
        parts, {"index": {"sealed": "?"}}, games.load("magot"), snap.seq, snap.head
    )
    assert broken is not None
    sql(db, "UPDATE snapshots SET body = :b, digest = :d", b=broken.body, d=broken.digest)
    loading.forget(cached.store)
    actions.step(cached, "le-casse", "reveal", {})
    assert outcome(cached, "le-casse") == outcome(bare, "le-casse")


def test_the_dashboard_reads_snapshots_not_logs(db: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """``gm list``: the first one folds each campaign and writes its snapshot;
    the next reads every campaign's snapshot and last event, and no log. A
    snapshot that cannot be used is one note for them all."""
    from gm.store.log import Reader

    env = env_for(db, cached=True)
    for n in range(5):
        campaigns.create(env, "magot", f"Partie {n}", ["fab", "marco", "lulu"], seed=f"g{n}")
    actions.step(env, "partie-0", "draw", {"bills": "20000,10000,5000,5000,5000"})
    first = campaigns.dashboard(env)
    env.store.close()

    read: list[str] = []
    original = Reader.events

    def counted(self: Reader, slug: str, upto: int | None = None, after: int = 0) -> Any:
        read.append(slug)
        return original(self, slug, upto, after)

    monkeypatch.setattr(Reader, "events", counted)
    again = env_for(db, cached=True)
    assert campaigns.dashboard(again) == first
    assert read == [] and again.store.notes == []
    again.store.close()

    sql(db, "UPDATE snapshots SET code = 'sha256:0'")
    stale = env_for(db, cached=True)
    assert campaigns.dashboard(stale) == first
    assert stale.store.notes == [
        "The snapshots of 5 campaign(s) were not used (partie-0, partie-1, partie-2, partie-3,"
        " partie-4): it was made by another version of gm or of the game. Their logs were"
        " folded from the first event, and new snapshots written (a snapshot only saves time:"
        " nothing else changes)."
    ]
    stale.store.close()


def test_an_undo_after_a_snapshot_folds_the_past_again(
    tmp_path: Path, every_command: list[int]
) -> None:
    """An undo voids events a snapshot folded in: the command after it reads
    the past and folds it again, exactly as a campaign without snapshots."""
    from gm.service import undo

    def play(env: Env) -> None:
        campaigns.create(env, "magot", "Le casse", ["fab", "marco", "lulu"], seed="graine")
        actions.step(env, "le-casse", "draw", {"bills": "20000,10000,5000,5000,5000"})
        actions.submit(env, "le-casse", "fab", "je braque marco, BANG")
        actions.submit(env, "le-casse", "marco", "je braque lulu, BANG")
        undo.undo(env, "le-casse", "erreur de saisie")
        undo.undo(env, "le-casse", "erreur de saisie")
        actions.submit(env, "le-casse", "fab", "je braque lulu, CLIC CLIC CLIC")
        for shooter, target in (("marco", "fab"), ("lulu", "fab")):
            actions.submit(env, "le-casse", shooter, f"je braque {target}, BANG")
        actions.step(env, "le-casse", "reveal", {})

    cached = env_for(str(tmp_path / "cached.db"), cached=True)
    play(cached)
    assert every_command
    bare = env_for(str(tmp_path / "bare.db"), cached=False)
    play(bare)
    assert outcome(cached, "le-casse") == outcome(bare, "le-casse")
