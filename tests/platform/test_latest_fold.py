"""The campaign a process keeps between its commands (``gm.service.loading.latest``).

``gm play`` runs a whole game in one process: each command starts from the
campaign the previous one committed instead of folding the whole log again,
but only while the log still ends where that campaign ends. These tests
change the log every other way (another ``Env`` or process, an undo, a
rolled-back command, an import) and check that every command still decides
on exactly what a fold from scratch gives.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from support import NewDb

from gm.service import actions, audit, campaigns, loading, posts, transfer, undo
from gm.service.env import Env
from gm.service.loading import Campaign, fold

PLAYERS = ["fab", "marco", "lulu"]
SLUG = "la-course"


def scratch(env: Env, slug: str = SLUG) -> Campaign:
    """The campaign folded from its first event, as gm verify does."""
    info = env.store.campaign(slug)
    return fold(info.slug, info.game, env.store.events(info.slug))


def senders(campaign: Campaign) -> set[str]:
    """Whose sealed orders are in force."""
    return {secret.owner for secret in campaign.secrets.values()}


def opened(db: str) -> Env:
    env = Env(db=db)
    campaigns.create(env, "magot", "La course", PLAYERS, seed="graine")
    actions.step(env, SLUG, "draw", {"bills": "20000,10000,5000,5000,5000"})
    return env


@pytest.fixture
def folds(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The length of every log folded from its first event from now on."""
    counted: list[int] = []
    original = loading.fold

    def counting(slug: str, game_id: str, records: Any) -> Campaign:
        counted.append(len(records))
        return original(slug, game_id, records)

    monkeypatch.setattr(loading, "fold", counting)
    return counted


def test_a_process_folds_the_log_once_for_many_commands(db: str, folds: list[int]) -> None:
    env = opened(db)
    del folds[:]
    actions.submit(env, SLUG, "fab", "marco clic")
    actions.submit(env, SLUG, "marco", "lulu clic clic clic")
    result = actions.submit(env, SLUG, "fab", "lulu CLIC")  # replaces fab's order
    assert folds == []  # each command started from the one before
    assert result.campaign == scratch(env)
    assert actions.load(env, SLUG) is result.campaign


def test_two_envs_writing_alternately_never_decide_on_a_stale_log(db: str) -> None:
    one, two = opened(db), Env(db=db)
    one.store.campaign(SLUG)
    a = actions.submit(one, SLUG, "fab", "marco clic")
    b = actions.submit(two, SLUG, "marco", "lulu clic")
    c = actions.submit(one, SLUG, "lulu", "fab clic")  # one kept a, but two appended b
    assert a.campaign.seq < b.campaign.seq < c.campaign.seq
    assert c.campaign == scratch(one)
    assert senders(c.campaign) == {"fab", "marco", "lulu"}
    d = actions.submit(two, SLUG, "marco", "fab CLIC")
    assert d.campaign == scratch(two)
    assert d.events[0].seq == c.campaign.seq + 1


def test_an_order_after_an_undo_decides_on_the_voided_log(db: str) -> None:
    env = opened(db)
    actions.submit(env, SLUG, "fab", "marco clic")
    undone = undo.undo(env, SLUG, "erreur de saisie")
    after = actions.submit(env, SLUG, "marco", "lulu clic")
    assert after.campaign == scratch(env)
    assert "fab" not in senders(after.campaign)
    assert undone.event is not None and undone.event.seq in {r.seq for r in after.campaign.records}
    # an undo made by another Env, after this one kept its last command
    other = Env(db=db)
    undo.undo(other, SLUG)
    again = actions.submit(env, SLUG, "lulu", "fab clic")
    assert again.campaign == scratch(env)
    assert senders(again.campaign) == {"lulu"}


def test_a_command_rolled_back_is_not_the_next_ones_starting_point(
    db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = opened(db)
    kept = actions.submit(env, SLUG, "fab", "marco clic").campaign

    def broken(*args: Any, **kwargs: Any) -> str:
        raise RuntimeError("the disk is gone")

    # every order is drafted, then its reply rendered: that fails, so nothing is written
    monkeypatch.setattr(posts, "render_private", broken)
    with pytest.raises(RuntimeError):
        actions.submit(env, SLUG, "marco", "lulu clic")
    monkeypatch.undo()
    assert scratch(env) == kept
    after = actions.submit(env, SLUG, "lulu", "fab clic")
    assert after.campaign == scratch(env)
    assert senders(after.campaign) == {"fab", "lulu"}
    assert after.events[0].seq == kept.seq + 1


def test_a_refused_order_is_kept_like_any_other_command(db: str, folds: list[int]) -> None:
    env = opened(db)
    del folds[:]
    with pytest.raises(Exception, match="marco"):
        actions.submit(env, SLUG, "fab", "marco")  # no option: refused, and logged
    after = actions.submit(env, SLUG, "fab", "marco clic")
    assert folds == []
    assert after.campaign == scratch(env)
    assert after.campaign.records[-len(after.events) - 1].kind == "gm.submission-rejected"


def test_a_campaign_imported_then_played_is_decided_on_its_own_log(
    db: str, new_db: NewDb, tmp_path: Path
) -> None:
    env = opened(db)
    actions.submit(env, SLUG, "fab", "marco clic")
    path = tmp_path / "course.json"
    path.write_text(transfer.dump(transfer.export_campaign(env, SLUG)), encoding="utf-8")
    # into a database where this Env already played a campaign of that name
    target = opened(new_db("other"))
    actions.submit(target, SLUG, "lulu", "fab clic")
    info = transfer.import_campaign(target, path, slug="la-course-2")
    played = actions.submit(target, SLUG, "marco", "lulu clic")
    imported = actions.submit(target, info.slug, "marco", "fab CLIC")
    assert played.campaign == scratch(target)
    assert senders(played.campaign) == {"lulu", "marco"}
    assert imported.campaign == scratch(target, info.slug)
    assert senders(imported.campaign) == {"fab", "marco"}


def test_gm_verify_folds_from_scratch_whatever_a_process_kept(db: str) -> None:
    """The kept campaign is trusted only for the seq and hash it ends with;
    gm verify never reads it: even a wrong one changes nothing it finds."""
    env = opened(db)
    result = actions.submit(env, SLUG, "fab", "marco clic")
    info = env.store.campaign(SLUG)
    bogus = Campaign(
        result.campaign.slug,
        result.campaign.game,
        result.campaign.meta,
        None,  # no state at all: any use of it would fail
        result.campaign.seq,
        result.campaign.head,
        result.campaign.records,
    )
    loading.remember(env.store, info, bogus)
    assert audit.verify(env, SLUG).problems == []
    loading.forget(env.store)
    assert actions.load(env, SLUG) == result.campaign
