"""Fistful of Gold: two gunslingers duel with revolver cards, red deck against green.

A pure rules package (``gm/games/fistful/rules.md``): ``cards`` (the decks),
``model`` (state), ``commands`` and ``events``, ``config`` (length and
decks), ``duel`` (the resolution table and the card powers), ``phases``
(what the game waits for), ``rules`` (decide / evolve, R-1 to R-7 and the
rulings decided here), ``words`` and ``notation`` (private messages to
commands), ``views`` (what posts and replies may show) and ``game`` (its
``GameDef``). ``GAME`` is what ``gm.games.load("fistful")``
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
