"""What every game's scenario reader shares (``docs/scenarios.md``): the
keys the platform reads itself, and the refusal of keys nobody reads.

Pure: the service strips the common keys before a game reads its part, but
a game still accepts them, so that its reader can be given a whole file.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from gm.errors import InputError

COMMON_KEYS = frozenset({"game", "title", "players", "seed", "options", "settings", "words"})
"""The keys of every scenario file, read by the platform. ``words`` (optional,
``{ player = "word" }``): each player's word for the fortune, sent before
anything else, as a message « graine : word »."""


def check_top_keys(game_id: str, document: Mapping[str, Any], own: Iterable[str]) -> None:
    """Refuse a top-level key that is neither common nor one of the game's ``own``.

    :raises InputError: ``scenario/unknown-key``, listing every valid key.
    """
    valid = COMMON_KEYS | set(own)
    unknown = sorted(set(document) - valid)
    if unknown:
        raise InputError(
            f"unknown key {unknown[0]!r} in a {game_id} scenario"
            f" (valid: {', '.join(sorted(valid))})",
            code="scenario/unknown-key",
            params={"key": unknown[0]},
        )


def check_entry_keys(where: str, entry: Mapping[str, Any], valid: tuple[str, ...]) -> None:
    """Refuse a key of the table ``where`` (« round 2 », « setup ») not in ``valid``.

    :raises InputError: ``scenario/unknown-key``, listing ``valid`` in order.
    """
    unknown = sorted(set(entry) - set(valid))
    if unknown:
        raise InputError(
            f"{where}: unknown key {unknown[0]!r} (valid: {', '.join(valid)})",
            code="scenario/unknown-key",
            params={"where": where, "key": unknown[0]},
        )


def bad_value(where: str, message: str, key: str) -> InputError:
    """The refusal of a value of a scenario file: ``scenario/bad-value``,
    naming the place in the file (« turn 3 ») and the key."""
    return InputError(
        f"{where}: {message}", code="scenario/bad-value", params={"where": where, "key": key}
    )
