"""The registry of games: every game gm can run, by id.

Adding a game is a new subpackage with the standard files (manifest, model,
commands, events, rules, notation, views, game), one line in ``_BUILTIN``,
and a ``templates/<id>/`` folder (see ``docs/architecture.md``). Games are imported lazily: ``gm --help`` lists
their steps without importing anything heavy, and games never import each
other.
"""

from __future__ import annotations

import importlib

from gm.core.protocol import Game, GameInfo
from gm.errors import NotFoundError, quote_choices

_BUILTIN: dict[str, str] = {
    "colt": "gm.games.colt",
    "rattlesnake": "gm.games.rattlesnake",
    "fistful": "gm.games.fistful",
    "magot": "gm.games.magot",
}


def ids() -> tuple[str, ...]:
    """The registered game ids, sorted."""
    return tuple(sorted(_BUILTIN))


def _module(game_id: str) -> str:
    key = game_id.strip().lower()
    if key not in _BUILTIN:
        raise NotFoundError(
            f"unknown game {game_id!r} (known: {quote_choices(ids())})", code="game/not-found"
        )
    return _BUILTIN[key]


def package(game_id: str) -> str:
    """The name of the package of the game registered as ``game_id``: where
    its templates and rules page are (``gm.render``, ``gm.rulebook``).

    :raises NotFoundError: naming the known games.
    """
    return _module(game_id)


def load(game_id: str) -> Game:
    """The game registered as ``game_id`` (case-insensitive).

    :raises NotFoundError: naming the known games.
    """
    game: Game = importlib.import_module(_module(game_id)).GAME
    return game


def info(game_id: str) -> GameInfo:
    """A game's static description (its ``manifest``), without loading its rules."""
    name = _module(game_id) + ".manifest"
    try:
        manifest: GameInfo = importlib.import_module(name).INFO
    except ModuleNotFoundError as err:
        if err.name != name:
            raise
        # A game without a manifest still works; it only loads earlier.
        return load(game_id).info
    return manifest


def all_info() -> list[GameInfo]:
    """Every registered game's description, in id order."""
    return [info(i) for i in ids()]


def all_games() -> list[Game]:
    """Every registered game, in id order."""
    return [load(i) for i in ids()]
