"""Campaigns recorded by gm 0.2.1 (``tests/fixtures/gm-0.2.1-<game>.json``,
see ``tests/fixtures/record.py``) survive the upgrade to seats.

In those logs (protocol 2) the events recorded after a rename or a
replacement name the player by their name of that moment; today's gm reads
them back through the map name-of-that-moment → seat that the roster events
build as the log is folded, without rewriting a byte. Each fixture imports,
verifies, plays on to the end of its game with legal inputs (with a rename
and a replacement of its own mid-game) and verifies again.

Today's gm runs as a later version than 0.2.1 (``gm.__version__`` is
patched): 0.2.1's Rattlesnake City posts after a replacement printed the
seat's town and income wrong (it walked the game state renaming players),
and a post whose wording another gm wrote is noted, never a problem.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import gm
from gm import games
from gm.errors import GMError
from gm.service import actions, audit, roster, transfer
from gm.service.env import Env

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
GAMES = ("magot", "fistful", "colt", "rattlesnake")
MAX_INPUTS = 3000


def _verified(env: Env, slug: str) -> None:
    verdict = audit.verify(env, slug)
    assert verdict.problems == [], verdict.problems


def _play_to_the_end(env: Env, slug: str, game_id: str) -> None:
    """Legal inputs (``GameDef.legal_inputs`` at the campaign's table), the
    step that moves on now and then; a rename and a replacement on the way."""
    game = games.load(game_id)
    rng = random.Random(f"old/{game_id}")
    for count in range(MAX_INPUTS):
        campaign = actions.load(env, slug)
        if game.is_over(campaign.state):
            return
        if count == 3:
            seat = campaign.meta.seats[0]
            roster.replace_player(env, slug, campaign.meta.name(seat), "Calamity Jane", rename=True)
        if count == 7:
            seat = campaign.meta.seats[-1]
            roster.replace_player(env, slug, campaign.meta.name(seat), "Zoé d'Arc", gender="f")
        campaign = actions.load(env, slug)
        inputs = game.legal_inputs(campaign.state, campaign.table)
        assert inputs, f"{game_id}: nothing to do, yet the game is not over"
        steps = [i for i in inputs if i.step is not None]
        item = steps[-1] if steps and count % 4 == 3 else rng.choice(inputs)
        try:
            if item.step is not None:
                actions.step(env, slug, item.step, dict(item.values))
            else:
                actions.submit(env, slug, item.actor, item.text or "")
        except GMError as err:
            pytest.fail(f"{game_id}: legal input {item} was refused: {err}")
    pytest.fail(f"{game_id}: no end after {MAX_INPUTS} inputs")


@pytest.mark.parametrize("game_id", GAMES)
def test_a_gm_0_2_1_campaign_imports_verifies_plays_on_and_verifies_again(
    game_id: str, db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(gm, "__version__", "0.3.0.dev0")
    env = Env(db=db)
    info = transfer.import_campaign(env, FIXTURES / f"gm-0.2.1-{game_id}.json")
    _verified(env, info.slug)
    _play_to_the_end(env, info.slug, game_id)
    _verified(env, info.slug)
    campaign = actions.load(env, info.slug)
    assert "Calamity Jane" in campaign.meta.players and "Zoé d'Arc" in campaign.meta.players
