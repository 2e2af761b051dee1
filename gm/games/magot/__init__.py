"""Le Magot: gangsters share the loot of their last heist, guns drawn.

A pure rules package (``gm/games/magot/rules.md``): ``model`` (state),
``commands`` and ``events``, ``rules`` (decide / evolve, R-1 to R-8),
``share`` (R-6's exact split), ``notation`` (private messages to orders),
``views`` (what posts and replies may show) and ``game`` (its ``GameDef``).
``GAME`` is what ``gm.games.load("magot")`` returns.
"""

from typing import Any

__all__ = ["GAME"]


def __getattr__(name: str) -> Any:
    # The rules load on first use: ``gm --help`` reads only ``manifest``.
    if name in __all__:
        from .game import GAME

        globals().update(GAME=GAME)
        return GAME
    raise AttributeError(name)
