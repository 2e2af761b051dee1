"""Rattlesnake City: saloon owners rebuild a ruined valley, town by town.

A pure rules package (``gm/games/rattlesnake/rules.md``): ``board`` (the valley
as data, R-1, R-2, R-11), ``tiles`` (the tiles, the bag of R-3, where each
may go: R-6, R-13), ``cards`` (the action and shot cards of R-3),
``income`` (who each building pays: R-4, R-5, R-14), ``combat`` and
``bank`` (R-8, R-15), ``poker`` (R-9, R-16, R-17), ``model`` (state),
``commands`` and ``events``, ``rules`` (decide / evolve), ``notation``
(messages to commands), ``views`` (what posts and replies may show) and
``game`` (its ``GameDef``). The default board is the package file
``board.toml``. ``GAME`` is what ``gm.games.load("rattlesnake")`` returns.
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
