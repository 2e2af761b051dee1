"""The registry of games: every game gm can run, by id.

Adding a game is a new subpackage with the standard files (model, commands,
events, rules, notation, views), one line in ``_BUILTIN``, and a
``templates/<id>/`` folder. Games are imported lazily: ``gm --help`` lists
their steps without importing anything heavy, and games never import each
other.
"""

from __future__ import annotations

import importlib

from gm.core.protocol import Game
from gm.errors import NotFoundError, quote_choices

_BUILTIN: dict[str, str] = {
    "magot": "gm.games.magot",
}


def ids() -> tuple[str, ...]:
    """The registered game ids, sorted."""
    return tuple(sorted(_BUILTIN))


def load(game_id: str) -> Game:
    """The game registered as ``game_id`` (case-insensitive).

    :raises NotFoundError: naming the known games.
    """
    key = game_id.strip().lower()
    if key not in _BUILTIN:
        raise NotFoundError(
            f"unknown game {game_id!r} (known: {quote_choices(ids())})", code="game/not-found"
        )
    module = importlib.import_module(_BUILTIN[key])
    game: Game = module.GAME
    return game


def all_games() -> list[Game]:
    """Every registered game, in id order."""
    return [load(i) for i in ids()]
