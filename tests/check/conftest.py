"""The honest threads the checker's tests read: one random legal game of each game.

Each game is played once per session (``tests/check/playing.py``, as the
conformance test plays it) and published as protocol 3 would
(``tests/check/emulate.py``); tests edit copies of its text. The platform's
test game « Pile ou face » (``tests/platform/toss.py``) is among them: the
checker knows no game, so a new game is checked without checker code.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from check_games import LIMITS, Published, registered
from emulate import emulate
from playing import play


@pytest.fixture(scope="session")
def published(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], Published]:
    cache: dict[str, Published] = {}

    def get(game_id: str) -> Published:
        if game_id not in cache:
            db = f"sqlite:///{tmp_path_factory.mktemp(game_id) / 'gm.db'}"
            with registered(game_id) as templates:
                playthrough = play(game_id, 0, db, templates, LIMITS.get(game_id, 0))
                emulated = emulate(playthrough.env, playthrough.slug, templates)
            cache[game_id] = Published(game_id, playthrough, emulated)
        return cache[game_id]

    return get
