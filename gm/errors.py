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

from collections.abc import Mapping
from typing import Any

EXIT_REFUSED = 1  # the rules refuse the command (bad order, wrong phase, game over)
EXIT_USAGE = 2  # the command line itself is wrong (Click uses 2 too)
EXIT_NOT_FOUND = 3  # unknown campaign, game, player, post
EXIT_STORE = 4  # the database cannot be opened, is locked, full or too new
EXIT_INTEGRITY = 5  # verification failed: the log or a post does not match


class GMError(Exception):
    """Base of every error a user can cause."""

    code: str = "gm/error"
    exit_code: int = EXIT_REFUSED

    def __init__(
        self, message: str, *, code: str | None = None, params: Mapping[str, Any] | None = None
    ) -> None:
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


def quote_choices(values: list[str] | tuple[str, ...]) -> str:
    """Format a list of valid values for an error message: ``a, b, c`` or ``(none)``."""
    return ", ".join(values) if values else "(none)"
