"""A real MJ's table, in all four games (issue 28, « Must hold »): a whole
game where one player never writes (the MJ applies the rules' default for
them) and another leaves mid-game for a newcomer (``gm replace``), played to
its end with the games' own legal inputs; then ``gm verify`` passes and the
players' checker, reading the thread as the forum shows it, finds it
honest — the replacement's notice and the newcomer's moves included."""

from __future__ import annotations

import pytest
import support
from forum import forum

from gm import games
from gm.check.checker import check_thread
from gm.service import actions, audit

PLAYERS = {
    "magot": ["fab", "marco", "lulu"],
    "fistful": ["ana", "billy"],
    "colt": ["ana", "bob", "cyd"],
    "rattlesnake": ["ana", "bob"],
}
OPTIONS = {"magot": {"rounds": "3"}}
NEWCOMER = "Zoé la Nouvelle"
REPLACE_AFTER = 12


@pytest.mark.parametrize("game_id", sorted(PLAYERS))
def test_a_game_with_a_newcomer_and_a_silent_player_verifies_and_checks(
    db: str, game_id: str
) -> None:
    env, slug, defaults = support.play_with_a_silent_player(
        db,
        game_id,
        PLAYERS[game_id],
        seed=f"table/{game_id}",
        options=OPTIONS.get(game_id),
        replace=(REPLACE_AFTER, NEWCOMER),
    )
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
