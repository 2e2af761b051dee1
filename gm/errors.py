"""The typed errors of gm: one hierarchy, stable codes, exit codes.

Every error a user can cause is a ``GMError``. Its ``code`` is stable (scripts
and the French reply templates key on it), its message quotes the input and
says what would be valid, and its ``exit_code`` tells scripts what kind of
failure it was. The command line converts these once, in its group; anything
else is a bug and keeps its traceback.

Player-facing errors (``OrderError``) also carry ``params``: the values a
French template needs to explain the refusal to the player.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

EXIT_REFUSED = 1  # the rules refuse the command (bad order, wrong phase, game over)
EXIT_USAGE = 2  # the command line itself is wrong (Click uses 2 too)
EXIT_NOT_FOUND = 3  # unknown campaign, game, player, post
EXIT_STORE = 4  # the database or the disk: cannot open, locked, full, too new, unwritable output
EXIT_INTEGRITY = 5  # verification failed: the log or a post does not match, the database is damaged


class GMError(Exception):
    """Base of every error a user can cause."""

    code: str = "gm/error"
    exit_code: int = EXIT_REFUSED

    def __init__(
        self, message: str, *, code: str | None = None, params: Mapping[str, Any] | None = None
    ) -> None:
        message = cut_quotes(message)
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        self.params: dict[str, Any] = dict(params or {})
        self.notes: tuple[str, ...] = ()
        """Lines for the MJ printed before the error (what was ignored in a message)."""
        self.draft: str | None = None
        """Text for the MJ to use despite the error, e.g. the French reply that
        tells a player why their order was refused. The CLI prints it on stdout."""

    def __str__(self) -> str:
        return self.message


class InputError(GMError):
    """A value given on the command line or in a file is malformed."""

    code = "input/invalid"
    exit_code = EXIT_USAGE


class NotFoundError(GMError):
    """Something named does not exist: a campaign, a game, a player, a post."""

    code = "gm/not-found"
    exit_code = EXIT_NOT_FOUND


class CampaignError(GMError):
    """A campaign cannot be created or used as asked."""

    code = "campaign/invalid"


class OrderError(GMError):
    """A player's submission is refused. Raised by the games' parsers and rules."""

    code = "order/invalid"


class OrderSyntaxError(OrderError):
    """The text cannot be understood as an order (python-chess: invalid)."""

    code = "order/syntax"


class AmbiguousOrderError(OrderError):
    """The text could mean more than one order (python-chess: ambiguous)."""

    code = "order/ambiguous"


class IllegalOrderError(OrderError):
    """The order is understood but the rules do not allow it now (python-chess: illegal)."""

    code = "order/illegal"


class PhaseError(GMError):
    """The command does not fit the game's current phase."""

    code = "phase/wrong"


class GameOverError(PhaseError):
    """The game has ended; nothing more can be played."""

    code = "phase/game-over"


class RegistryError(GMError):
    """The installed games cannot be told apart: two distributions register the
    same game id, or one registers a name that cannot be a game id."""

    code = "game/registry"
    exit_code = EXIT_USAGE


class StoreError(GMError):
    """The database cannot do what was asked (unreachable, locked, full, too new)."""

    code = "store/error"
    exit_code = EXIT_STORE


class StaleStateError(StoreError):
    """Another writer appended to the campaign first; the command was not applied."""

    code = "store/stale"


class ChainIntegrityError(GMError):
    """The log, its hash chain or a stored post does not verify."""

    code = "store/integrity"
    exit_code = EXIT_INTEGRITY


class DamagedError(ChainIntegrityError):
    """A row of the database cannot be read as gm wrote it: edited in place, or
    a disk fault. Its message names the campaign, what is damaged and how to
    restore from a backup or an export."""

    code = "store/damaged"


class OutputError(GMError):
    """Standard output cannot be written (a full disk, a closed terminal)."""

    code = "output/unwritable"
    exit_code = EXIT_STORE


MAX_QUOTED = 60
"""Characters of a user's input an error message quotes; the rest is counted, not shown."""


def quoted(value: object, limit: int = MAX_QUOTED) -> str:
    """``value`` quoted for an error message (``repr``, so control characters
    and invisible marks show as escapes), cut to ``limit`` characters: an
    error that echoes a megabyte of input whole is unreadable. What is cut is
    said, with the input's full length.

    >>> quoted("fab")
    "'fab'"
    >>> quoted("x" * 1000, limit=5)
    "'xxxxx'… (1,000 characters)"
    """
    if not isinstance(value, str):  # a number, None, a list from a file: as Python writes it
        text = repr(value)
        return text if len(text) <= limit else f"{text[:limit]}… ({len(text):,} characters)"
    if len(value) <= limit:
        return repr(value)
    return f"{value[:limit]!r}… ({len(value):,} characters)"


MAX_QUOTED_RUN = 240
"""The most characters of one quoted run any error message keeps (``cut_quotes``):
above a long path, far below a pasted megabyte."""

_QUOTED_RUN = re.compile(r"'(?:[^'\\\n]|\\.)*'|\"(?:[^\"\\\n]|\\.)*\"")


def cut_quotes(message: str, limit: int = MAX_QUOTED_RUN) -> str:
    """``message`` with every quoted run (as ``repr`` writes one) longer than
    ``limit`` cut as ``quoted`` cuts it. Every ``GMError`` goes through it, so
    that an error quoting a user's input with ``{value!r}`` rather than
    ``quoted`` never echoes a megabyte whole.

    >>> cut_quotes("no player '" + "x" * 300 + "'", limit=3)
    "no player 'xxx'… (300 characters)"
    """
    if len(message) <= limit + 2:
        return message

    def cut(match: re.Match[str]) -> str:
        run = match.group(0)
        if len(run) <= limit + 2:
            return run
        inner = run[1:-1]
        shown = inner[:limit]
        if (len(shown) - len(shown.rstrip("\\"))) % 2:  # do not end inside an escape
            shown = shown[:-1]
        return f"{run[0]}{shown}{run[0]}… ({len(inner):,} characters)"

    return _QUOTED_RUN.sub(cut, message)


def quote_choices(values: list[str] | tuple[str, ...]) -> str:
    """Format a list of valid values for an error message: ``a, b, c`` or ``(none)``."""
    return ", ".join(values) if values else "(none)"
