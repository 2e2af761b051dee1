"""The write lock is held only to write (issue 27.4): every template a
command renders — its posts and their proofs, the player's reply, a
refusal's reply, a roster notice, an on-demand post — is rendered while no
write transaction is open, so that other MJs wait for rows, never for Jinja.
And when another command writes in between, the command is worked out again
from the new tip and both are recorded (``gm.service.pipeline``)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from gm.errors import GMError
from gm.render.engine import Renderer
from gm.service import actions, campaigns, deadlines, publishing, roster, undo
from gm.service.env import Env
from gm.store.log import Store


@pytest.fixture
def watched(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """Counts renders, and those made while a write transaction is open."""
    seen: dict[str, Any] = {"open": 0, "renders": 0, "locked": []}
    write = Store.write

    @contextmanager
    def counting_write(self: Store, slug: str | None = None) -> Iterator[Any]:
        with write(self, slug) as w:
            seen["open"] += 1
            try:
                yield w
            finally:
                seen["open"] -= 1

    render = Renderer.render

    def counting_render(self: Renderer, kind: str, context: Any) -> str:
        seen["renders"] += 1
        if seen["open"]:
            seen["locked"].append(kind)
        return render(self, kind, context)

    monkeypatch.setattr(Store, "write", counting_write)
    monkeypatch.setattr(Renderer, "render", counting_render)
    return seen


def test_no_command_renders_under_the_write_lock(db: str, watched: dict[str, Any]) -> None:
    env = Env(db=db)
    slug = campaigns.create(env, "magot", "Le casse", ["fab", "marco", "lulu"], seed="s").campaign.slug
    created = watched["renders"]
    watched["locked"].clear()  # the opening post is made with the campaign's row
    actions.step(env, slug, "draw", {"bills": "20000,10000,5000,5000,5000"})
    actions.submit(env, slug, "fab", "marco clic")
    with pytest.raises(GMError):
        actions.submit(env, slug, "marco", "bonjour MJ")  # refused: its reply renders too
    actions.submit(env, slug, "marco", "lulu BANG")
    roster.replace_player(env, slug, "lulu", "Lucie")
    roster.nickname(env, slug, "marco", "mc")
    deadlines.move(env, slug, "+24h")
    actions.submit(env, slug, "Lucie", "fab clic")
    undo.undo(env, slug)
    actions.submit(env, slug, "Lucie", "fab clic")
    actions.step(env, slug, "reveal", {})
    publishing.find_post(env, slug, "rules", None)
    assert watched["renders"] > created + 10
    assert watched["locked"] == []


def test_a_command_overtaken_by_another_is_worked_out_again(
    db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Between a command's draft and its write, another MJ records an order:
    the draft is not written over it; the command is decided again on top."""
    env, other = Env(db=db), Env(db=db)
    slug = campaigns.create(env, "magot", "Le casse", ["fab", "marco", "lulu"], seed="s").campaign.slug
    actions.step(env, slug, "draw", {"bills": "20000,10000,5000,5000,5000"})
    draft = Store.draft
    overtaken = []

    def overtaking(self: Store, r: Any, info: Any) -> Any:
        made = draft(self, r, info)
        if self is env.store and not overtaken:
            overtaken.append(actions.submit(other, slug, "marco", "fab BANG"))
        return made

    monkeypatch.setattr(Store, "draft", overtaking)
    mine = actions.submit(env, slug, "fab", "marco clic")
    assert overtaken
    theirs = overtaken[0].events
    # both recorded, mine after theirs, and the campaign folds to both orders
    assert mine.events[0].seq == theirs[-1].seq + 1
    assert mine.events[0].prev_hash == theirs[-1].hash
    state = actions.load(env, slug).state
    assert {p.name for p in state.players if p.name in ("fab", "marco")} == {"fab", "marco"}
    assert env.store.verify_chain(slug) == []
    orders = [e for e in env.store.events(slug) if e.kind == "magot.order-set"]
    assert [o.payload["player"] for o in orders] == ["marco", "fab"]
