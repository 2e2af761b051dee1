"""The session's honest threads (``published.Published``), each game played once,
and what players read in one game of each game with its slips (``written.Written``)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from forum import forum
from playing import play
from published import LIMITS, Published, registered
from written import Written, write


@pytest.fixture(scope="session")
def published(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], Published]:
    cache: dict[str, Published] = {}

    def get(game_id: str) -> Published:
        if game_id not in cache:
            db = f"sqlite:///{tmp_path_factory.mktemp(game_id) / 'gm.db'}"
            with registered(game_id) as templates:
                playthrough = play(game_id, 0, db, templates, LIMITS.get(game_id, 0))
                on_forum = forum(playthrough.env, playthrough.slug, templates)
            cache[game_id] = Published(game_id, playthrough, on_forum)
        return cache[game_id]

    return get


@pytest.fixture(scope="session")
def written(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], Written]:
    """Everything players read in one random game of each game (``written.write``)."""
    cache: dict[str, Written] = {}

    def get(game_id: str) -> Written:
        if game_id not in cache:
            db = f"sqlite:///{tmp_path_factory.mktemp(game_id) / 'gm.db'}"
            cache[game_id] = write(game_id, db)
        return cache[game_id]

    return get
