"""The honest threads the checker's tests read: one random legal game of each game.

(A module of its own, not conftest.py: ``from conftest import`` would find
another folder's conftest when several folders of tests run together.)

Each game is played once per session (``tests/check/playing.py``, as the
conformance test plays it) and published by gm
(each post with its proof block: ``tests/check/forum.py``); tests edit
copies of its text. The platform's
test game « Pile ou face » (``tests/games_dist/toss``) is among them: the
checker knows no game, so a new game is checked without checker code.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from forum import Forum
from game_dists import installed

from gm import games
from gm.check.checker import Outcome, check_thread
from gm.service import actions

GAMES = [*games.ids(), "toss"]
LIMITS = {"rattlesnake": 160}
"""Inputs played at most: a whole random Rattlesnake City game takes a minute."""


@contextmanager
def registered(game_id: str) -> Iterator[Path | None]:
    """The game loadable while inside; its templates folder (None: its package's).
    « Pile ou face » is installed from its own distribution meanwhile."""
    if game_id != "toss":
        yield None
        return
    with installed("toss"):
        yield None


@dataclass
class Published:
    """One honest game and its thread as the forum holds it."""

    game_id: str
    play: Any
    on_forum: Forum

    @property
    def over(self) -> bool:
        with registered(self.game_id):
            return actions.load(self.play.env, self.play.slug).over

    def players(self) -> list[str]:
        with registered(self.game_id):
            return list(actions.load(self.play.env, self.play.slug).meta.players)

    def check(self, texts: list[tuple[str, str]] | str | None = None, fmt: str = "auto") -> Outcome:
        """The checker's verdict on ``texts`` (the honest thread by default)."""
        if texts is None:
            texts = self.on_forum.thread()
        if isinstance(texts, str):
            texts = [("fil.md", texts)]
        with registered(self.game_id):
            return check_thread(texts, fmt=fmt, renderer=self.on_forum.render)
