"""Colt Express: bandits rob a train, programming their actions card by card.

A pure rules package (``gm/games/colt/rules.md``): ``cards`` (the components),
``model`` (state), ``commands`` and ``events``, ``action`` (what each card
and each round's event may do and does), ``rules`` (decide / evolve, R-1 to
R-10), ``score`` (the As de la gâchette, ranks), ``words`` and ``notation``
(messages to commands), ``views`` (what posts and replies may show) and
``game`` (its ``GameDef``). ``GAME`` is what ``gm.games.load("colt")``
returns.
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
