"""Paths the MJ types: ``~`` and ``~user`` expanded as a shell would, or a
clear error (``Path.expanduser`` raises a bare RuntimeError for an unknown
user, or when there is no home folder at all)."""

from __future__ import annotations

from pathlib import Path

from gm.errors import InputError


def expand(path: str | Path, what: str) -> Path:
    """``path`` with a leading ``~`` or ``~user`` expanded; ``what`` names it in the error.

    :raises InputError: ``input/path``, when that home folder cannot be found.
    """
    try:
        return Path(path).expanduser()
    except RuntimeError:
        head = str(path).split("/", 1)[0]
        raise InputError(
            f"cannot expand {head!r} in the {what} {str(path)!r}: no such home folder on this"
            " machine; give the full path",
            code="input/path",
        ) from None
