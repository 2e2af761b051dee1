"""Le Magot: gangsters share the loot of their last heist, guns drawn.

A pure rules package (``shared/rules/magot.md``): ``model`` (state),
``commands`` and ``events``, ``rules`` (decide / evolve, R-1 to R-8),
``share`` (R-6's exact split), ``notation`` (private messages to orders),
``views`` (what posts and replies may show) and ``game`` (the platform's
``Game`` protocol). ``GAME`` is what ``gm.games.load("magot")`` returns.
"""

from typing import Any

__all__ = ["GAME", "Magot"]


def __getattr__(name: str) -> Any:
    # The rules load on first use: ``gm --help`` reads only ``manifest``.
    if name in __all__:
        from .game import Magot

        globals().update(Magot=Magot, GAME=Magot())
        return globals()[name]
    raise AttributeError(name)
