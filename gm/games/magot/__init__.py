"""Le Magot: gangsters share the loot of their last heist, guns drawn.

A pure rules package (``shared/rules/magot.md``): ``model`` (state),
``commands`` and ``events``, ``rules`` (decide / evolve, R-1 to R-8),
``share`` (R-6's exact split), ``notation`` (private messages to orders),
``views`` (what posts and replies may show) and ``game`` (the platform's
``Game`` protocol). ``GAME`` is what ``gm.games.load("magot")`` returns.
"""

from .game import Magot

GAME = Magot()

__all__ = ["GAME", "Magot"]
