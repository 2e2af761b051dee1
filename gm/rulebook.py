"""The documentation shipped with gm: each game's rules as gm applies them.

``docs/`` at the top of the repository is installed inside the package as
``gm/docs`` (see ``setup.py``); in a source tree it is read where it stands.
"""

from __future__ import annotations

from pathlib import Path

import gm
from gm.errors import NotFoundError
from gm.reader import RULES, read_text


def folder() -> Path:
    """Where the documentation is: the installed copy, else the source tree's."""
    package = Path(gm.__file__).parent
    for path in (package / "docs", package.parent / "docs"):
        if (path / "rules").is_dir():
            return path
    raise NotFoundError("gm's documentation is missing from this installation", code="docs/missing")


def rules_text(game_id: str) -> str:
    """The rules page of ``game_id`` (``docs/rules/<id>.md``), as Markdown.

    :raises NotFoundError: the game has no rules page.
    """
    path = folder() / "rules" / f"{game_id}.md"
    try:
        return read_text(path, RULES)
    except NotFoundError:
        raise NotFoundError(
            f"no rules page for {game_id!r} in {folder()}", code="docs/not-found"
        ) from None
