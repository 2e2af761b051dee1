"""A silent player never freezes a game (issue 28.2).

In each of the four games one player sends nothing from the first message
to the last; the MJ answers for them with ``gm default`` (Le Magot's missing
orders with ``gm reveal --force``, R-3), the others play legal moves, and
the game reaches its end and verifies. The moves are the games' own legal
inputs, chosen by a seeded generator: the same game every run.
"""

from __future__ import annotations

import random

import pytest
import support

from gm import games
from gm.core.protocol import GM
from gm.errors import GMError
from gm.service import actions, campaigns, deciding
from gm.service.env import Env

PLAYERS = {
    "magot": ["fab", "marco", "lulu"],
    "fistful": ["ana", "billy"],
    "colt": ["ana", "bob", "cyd"],
    "rattlesnake": ["ana", "bob"],  # two: the shortest game
}
OPTIONS = {"magot": {"rounds": "3"}}
LIMIT = 3000
MAGOT_ELSEWHERE = ("magot/default-at-reveal", "magot/nothing-due")
"""Le Magot's missing order is R-3's, at the reveal; a stay is recorded once
(the stay-or-fold awaits everyone, so as not to tell who folded)."""


def play_with_a_silent_player(db: str, game_id: str) -> tuple[str, int]:
    """Play a whole game where the last player never writes; the number of
    defaults the MJ applied for them."""
    rng = random.Random(f"silent/{game_id}")
    env = Env(db=db)
    game = games.load(game_id)
    players = PLAYERS[game_id]
    silent = players[-1]
    slug = campaigns.create(
        env, game_id, "Muet", players, seed="s", options=OPTIONS.get(game_id, {})
    ).campaign.slug
    defaults = 0
    spoke: dict[tuple[str, str], int] = {}  # (phase, player): messages sent there
    for _ in range(LIMIT):
        campaign = actions.load(env, slug)
        state = campaign.state
        if game.is_over(state):
            return slug, defaults
        phase = game.phase(state)
        waiting = game.waiting_for(state)
        for player in waiting:  # every awaited choice has a default the rules accept
            assert game.default_for is not None
            try:
                due = game.default_for(state, player)
            except GMError as err:
                assert err.code in MAGOT_ELSEWHERE, (player, phase, err)
                continue
            deciding.decide(game, campaign.meta, state, GM, [due])
        inputs = game.legal_inputs(state)
        # Le Magot awaits every living player at the stay-or-fold (secrecy):
        # a few messages each, then the MJ moves on
        speaking = [
            i
            for i in inputs
            if i.actor in waiting and i.actor != silent and spoke.get((phase, i.actor), 0) < 3
        ]
        if speaking:
            item = rng.choice(speaking)
            spoke[phase, item.actor] = spoke.get((phase, item.actor), 0) + 1
            actions.submit(env, slug, item.actor, item.text or "")
            continue
        if silent in waiting:
            try:
                actions.default(env, slug, silent)
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
def test_a_game_with_a_silent_player_defaulted_plays_to_its_end_and_verifies(
    db: str, game_id: str
) -> None:
    slug, defaults = play_with_a_silent_player(db, game_id)
    assert defaults > 0
    gm = support.Gm(db)
    history = gm.json("-c", slug, "history")
    silent = PLAYERS[game_id][-1]
    assert not [e for e in history if e["actor"] == silent and "submission" in e["kind"]]
    applied = [e["payload"]["player"] for e in history if e["kind"] == "gm.default-applied"]
    assert applied.count(silent) >= defaults  # the games' legal inputs may default too
    assert gm("-c", slug, "verify").stdout.endswith(" verify.\n")
