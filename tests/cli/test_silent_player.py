"""A silent player never freezes a game (issue 28.2).

In each of the four games one player sends nothing from the first message
to the last; the MJ answers for them with ``gm default`` (Le Magot's missing
orders with ``gm reveal --force``, R-3), the others play legal moves, and
the game reaches its end and verifies. The moves are the games' own legal
inputs, chosen by a seeded generator: the same game every run.
"""

from __future__ import annotations

import pytest
import support

PLAYERS = {
    "magot": ["fab", "marco", "lulu"],
    "fistful": ["ana", "billy"],
    "colt": ["ana", "bob", "cyd"],
    "rattlesnake": ["ana", "bob"],  # two: the shortest game
}
OPTIONS = {"magot": {"rounds": "3"}}
@pytest.mark.parametrize("game_id", sorted(PLAYERS))
def test_a_game_with_a_silent_player_defaulted_plays_to_its_end_and_verifies(
    db: str, game_id: str
) -> None:
    _, slug, defaults = support.play_with_a_silent_player(
        db, game_id, PLAYERS[game_id], seed=f"silent/{game_id}", options=OPTIONS.get(game_id)
    )
    assert defaults > 0
    gm = support.Gm(db)
    history = gm.json("-c", slug, "history")
    silent = PLAYERS[game_id][-1]
    assert not [e for e in history if e["actor"] == silent and "submission" in e["kind"]]
    applied = [e["payload"]["player"] for e in history if e["kind"] == "gm.default-applied"]
    assert applied.count(silent) >= defaults  # the games' legal inputs may default too
    assert gm("-c", slug, "verify").stdout.endswith(" verify.\n")
