"""The registry of games: every game gm can run, by id.

A game is one package: its code, its templates (``templates/<lang>/``), its
rules page (``rules.md``) and its data files, registered by its distribution
in the entry point group ``gm.games`` (``[project.entry-points."gm.games"]``
in ``pyproject.toml``: ``magot = "gm.games.magot"``). gm's own games are
registered so in gm's ``pyproject.toml``; a game from another distribution
the same way (``docs/architecture.md``, « Adding a game »). The entry point
names the game's package, whose ``GAME`` is the game (``module:attr`` names
another attribute).

Games are imported lazily: ``gm --help`` lists their steps from their
``manifest`` without importing anything heavy, and games never import each
other. The table is read from the installed distributions' metadata
(``gm.discovery``) once per ``sys.path``: a test that puts a distribution on
the path sees its game.
"""

from __future__ import annotations

import functools
import importlib
import re
import sys
from typing import TYPE_CHECKING

from gm.discovery import GAMES, EntryPoint, entry_points
from gm.errors import NotFoundError, RegistryError, quote_choices

if TYPE_CHECKING:
    from gm.core.protocol import Game
    from gm.games.manifest import GameInfo

_ID = re.compile(r"[a-z][a-z0-9_-]*")
RESERVED = frozenset({"common"})
"""Names a game cannot take: ``common`` owns the platform's templates."""


@functools.lru_cache(maxsize=4)
def _table(path: tuple[str, ...]) -> dict[str, EntryPoint]:
    table: dict[str, EntryPoint] = {}
    for point in entry_points(GAMES, path):
        key = point.name.strip().lower()
        if not _ID.fullmatch(key) or key in RESERVED:
            raise RegistryError(
                f"{point.distribution} registers a game as {point.name!r} ({point.folder}):"
                " a game id is lower-case letters, digits, '-' or '_', and not"
                f" {quote_choices(sorted(RESERVED))}"
            )
        if key in table:
            first = table[key]
            # Never a silent choice: which game a campaign plays would depend
            # on the order of sys.path.
            raise RegistryError(
                f"the game {key!r} is registered twice: by {first.distribution}"
                f" ({first.value}, {first.folder}) and by {point.distribution}"
                f" ({point.value}, {point.folder}); uninstall one of them",
                code="game/registered-twice",
            )
        table[key] = point
    return table


def _registry() -> dict[str, EntryPoint]:
    """The registered games, by id. :raises RegistryError: see ``_table``."""
    return _table(tuple(sys.path))


def ids() -> tuple[str, ...]:
    """The registered game ids, sorted."""
    return tuple(sorted(_registry()))


def entry(game_id: str) -> EntryPoint:
    """How the game registered as ``game_id`` is registered: its entry point,
    and the distribution that declares it.

    :raises NotFoundError: naming the known games.
    """
    key = game_id.strip().lower()
    table = _registry()
    if key not in table:
        # An install made before the games were entry points registers none.
        hint = "" if table else "; no game is installed: reinstall gm (pip install -e .)"
        raise NotFoundError(
            f"unknown game {game_id!r} (known: {quote_choices(ids())}){hint}",
            code="game/not-found",
        )
    return table[key]


def package(game_id: str) -> str:
    """The name of the package of the game registered as ``game_id``: where
    its templates and rules page are (``gm.render``, ``gm.rulebook``).

    :raises NotFoundError: naming the known games.
    """
    return entry(game_id).module


def load(game_id: str) -> Game:
    """The game registered as ``game_id`` (case-insensitive).

    :raises NotFoundError: naming the known games.
    """
    point = entry(game_id)
    game: Game = getattr(importlib.import_module(point.module), point.attr or "GAME")
    return game


def info(game_id: str) -> GameInfo:
    """A game's static description (its ``manifest``), without loading its rules."""
    name = package(game_id) + ".manifest"
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
