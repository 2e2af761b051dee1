"""Each game's rules as gm applies them: the rules page a game ships in its package.

A game's rules page is ``rules.md`` at the top of its package
(``gm/games/<id>/rules.md``, or a third-party game's own package), read
through ``importlib.resources`` so that it is found wherever the game was
installed from. ``gm rules <id>`` prints it; ``docs/rules/README.md`` links
the repository's reader to the shipped games' pages.
"""

from __future__ import annotations

import importlib.resources
from pathlib import Path

from gm import games
from gm.errors import NotFoundError
from gm.reader import RULES, read_text

RULES_PAGE = "rules.md"
"""The rules page's name inside a game's package."""


def rules_text(game_id: str) -> str:
    """The rules page of ``game_id`` (``<package>/rules.md``), as Markdown.

    :raises NotFoundError: the game is unknown or has no rules page.
    """
    package = games.package(game_id)
    page = importlib.resources.files(package).joinpath(RULES_PAGE)
    # as_file: a real path for gm.reader's bounded read, even from a zip
    with importlib.resources.as_file(page) as path:
        try:
            return read_text(Path(path), RULES)
        except NotFoundError:
            raise NotFoundError(
                f"no rules page for {game_id!r}: {package} has no {RULES_PAGE}",
                code="docs/not-found",
            ) from None
