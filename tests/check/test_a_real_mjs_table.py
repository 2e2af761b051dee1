"""A real MJ's table, in all four games (issue 28, « Must hold »): a whole
game where one player never writes (the MJ applies the rules' default for
them) and another leaves mid-game for a newcomer (``gm replace``), played to
its end with the games' own legal inputs; then ``gm verify`` passes and the
players' checker, reading the thread as the forum shows it, finds it
honest — the replacement's notice and the newcomer's moves included."""

from __future__ import annotations

import random

import pytest
from forum import forum

from gm import games
from gm.check.checker import check_thread
from gm.errors import GMError
from gm.service import actions, audit, campaigns, roster
from gm.service.env import Env

PLAYERS = {
    "magot": ["fab", "marco", "lulu"],
    "fistful": ["ana", "billy"],
    "colt": ["ana", "bob", "cyd"],
    "rattlesnake": ["ana", "bob"],
}
OPTIONS = {"magot": {"rounds": "3"}}
NEWCOMER = "Zoé la Nouvelle"
REPLACE_AFTER = 12
LIMIT = 3000
MAGOT_ELSEWHERE = ("magot/default-at-reveal", "magot/nothing-due")


def play(db: str, game_id: str) -> tuple[Env, str, int]:
    """The game; its slug and the defaults applied for the silent player."""
    rng = random.Random(f"table/{game_id}")
    env = Env(db=db)
    game = games.load(game_id)
    players = PLAYERS[game_id]
    silent = players[-1]
    slug = campaigns.create(
        env, game_id, "La table", players, seed="s", options=OPTIONS.get(game_id, {})
    ).campaign.slug
    defaults, inputs_played = 0, 0
    spoke: dict[tuple[str, str], int] = {}
    for _ in range(LIMIT):
        campaign = actions.load(env, slug)
        state, table = campaign.state, campaign.table
        if game.is_over(state):
            return env, slug, defaults
        if inputs_played == REPLACE_AFTER:
            # the first player leaves; the newcomer takes the seat and plays on
            roster.replace_player(env, slug, table.name(players[0]), NEWCOMER, gender="f")
            inputs_played += 1
            continue
        phase = game.phase(state)
        waiting = game.waiting_for(state)
        inputs = game.legal_inputs(state, table)
        speaking = [
            i
            for i in inputs
            if i.step is None
            and table.seat_named(i.actor) in waiting
            and table.seat_named(i.actor) != silent
            and spoke.get((phase, i.actor), 0) < 3
        ]
        inputs_played += 1
        if speaking:
            item = rng.choice(speaking)
            spoke[phase, item.actor] = spoke.get((phase, item.actor), 0) + 1
            actions.submit(env, slug, item.actor, item.text or "")
            continue
        if silent in waiting:
            try:
                actions.default(env, slug, table.name(silent))
                defaults += 1
                continue
            except GMError as err:
                assert err.code in MAGOT_ELSEWHERE, err
        steps = [i for i in inputs if i.step is not None]
        assert steps, (game.next_step(state), inputs)
        item = rng.choice(steps)
        actions.step(env, slug, item.step or "", item.values)
    raise AssertionError(f"{game_id}: not over after {LIMIT} inputs")


@pytest.mark.parametrize("game_id", sorted(PLAYERS))
def test_a_game_with_a_newcomer_and_a_silent_player_verifies_and_checks(
    db: str, game_id: str
) -> None:
    env, slug, defaults = play(db, game_id)
    assert defaults > 0
    campaign = actions.load(env, slug)
    assert NEWCOMER in campaign.meta.players
    history = env.store.events(slug)
    newcomer_seat = PLAYERS[game_id][0]
    arrived = next(r.seq for r in history if r.kind == "gm.player-replaced")
    # the newcomer played on: messages of their seat after the replacement
    assert any(
        r.kind == "gm.submission-received" and r.actor == newcomer_seat and r.seq > arrived
        for r in history
    )
    assert audit.verify(env, slug).problems == []
    for kind in ("rules", "disclosure"):  # the posts an MJ makes on demand
        info = games.info(game_id)
        if info.post_kind(kind) is not None:
            from gm.service import publishing

            publishing.find_post(env, slug, kind, None)
    on_forum = forum(env, slug)
    outcome = check_thread([("fil.md", on_forum.thread())], renderer=on_forum.render)
    assert outcome.report.code == 0, outcome.report.text()
