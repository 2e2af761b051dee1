"""Random legal games of every registered game, played as the conformance test plays them.

The players' checker is proved on the very games ``tests/conformance``
plays (``play_game``: inputs drawn from ``Game.legal_inputs`` alone, with
words for the fortune now and then and refused messages), each post
with its proof block, so its tests know no game either.
"""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

from gm import games
from gm.service import actions, campaigns, publishing
from gm.service.env import Env

ROOT = Path(__file__).resolve().parents[2]


def conformance() -> ModuleType:
    """``tests/conformance/test_games.py``, imported once under its own name."""
    name = "gm_conformance_games"
    if name not in sys.modules:
        path = ROOT / "tests" / "conformance" / "test_games.py"
        spec = importlib.util.spec_from_file_location(name, path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


def play(
    game_id: str,
    seed: int,
    db: str,
    templates: Path | None = None,
    limit: int = 0,
    players: list[str] | None = None,
    options: dict[str, str] | None = None,
) -> Any:
    """A random legal game (``Playthrough``), as the conformance test plays it.

    With ``limit``, at most that many inputs: a long game (Rattlesnake City)
    is then left unfinished, its seed still sealed. ``players`` and
    ``options`` make a bigger table or a longer game (benchmarks).
    """
    if not limit and players is None and options is None:
        return conformance().play_game(game_id, seed, db, templates)
    c = conformance()
    rng = random.Random(f"{game_id}/{seed}")
    game = games.load(game_id)
    if players is None:
        players = rng.sample(c.NAMES, rng.randint(game.min_players, min(game.max_players, 6)))
    secret = f"graine-{game_id}-{seed}-{rng.randrange(10**9)}"
    env = Env(db=db, templates=templates)
    created = campaigns.create(
        env, game_id, f"Conformité {seed}", players, options=options, seed=secret
    )
    playthrough = c.Playthrough(rng, env, created.campaign.slug, secret)
    phase, in_phase, patience = None, 0, rng.randint(2, 12)
    for _ in range(limit or c.MAX_INPUTS):
        state = actions.load(env, playthrough.slug).state
        if game.is_over(state):
            break
        if game.phase(state) != phase:
            phase, in_phase, patience = game.phase(state), 0, rng.randint(2, 12)
        c.feed(playthrough, c.choose(playthrough, game.legal_inputs(state), in_phase, patience))
        in_phase += 1
    if actions.load(env, playthrough.slug).over:
        for kind in ("rules", "disclosure"):  # on demand: the MJ posts the disclosure last
            if game.info.post_kind(kind) is not None:
                publishing.find_post(env, playthrough.slug, kind, None)
    return playthrough
