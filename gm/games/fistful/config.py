"""The options of a game of Fistful of Gold: who plays, which deck, how long.

``configure`` checks the two players and the raw options (strings from
``gm new -o``, or TOML values from a scenario file) and returns the
canonical options stored in the campaign's first event: ``length`` (``short``
or ``long``) and ``colors`` (each player's deck, in seating order).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gm.core.names import fold
from gm.errors import InputError

from .cards import Color
from .manifest import DEFAULT_LENGTH, PLAYERS
from .model import Length

LENGTHS = {
    "short": Length.SHORT,
    "courte": Length.SHORT,
    "court": Length.SHORT,
    "long": Length.LONG,
    "longue": Length.LONG,
}
COLORS = {
    "red": Color.RED,
    "rouge": Color.RED,
    "green": Color.GREEN,
    "vert": Color.GREEN,
    "verte": Color.GREEN,
}
OPTIONS = ("length", "colors")


def configure(players: Sequence[str], options: Mapping[str, Any]) -> dict[str, Any]:
    """Check the players and the raw options; return the canonical options.

    ``length`` is ``short`` or ``long`` (``courte`` / ``longue`` too);
    ``colors`` a text ``ana=green,bob=red`` or a table ``{ana = "green"}``:
    naming one player's deck is enough, and without it the first player is
    red (``rouge`` / ``vert`` are understood).
    """
    check_players(players)
    unknown = sorted(set(options) - set(OPTIONS))
    if unknown:
        raise InputError(
            f"unknown option {unknown[0]!r} for fistful (valid: {', '.join(OPTIONS)})",
            code="fistful/unknown-option",
            params={"option": unknown[0], "valid": list(OPTIONS)},
        )
    raw_length = options.get("length", DEFAULT_LENGTH)
    length = LENGTHS.get(fold(raw_length)) if isinstance(raw_length, str) else None
    if length is None:
        raise InputError(
            f"option length={raw_length!r} is not valid: short (first to 2 manches won)"
            " or long (first to 3)",
            code="fistful/bad-length",
            params={"value": str(raw_length)},
        )
    colors = _parse_colors(players, options.get("colors"))
    return {"length": str(length), "colors": {p: str(colors[p]) for p in players}}


def check_players(players: Sequence[str]) -> None:
    """Exactly two players (names are the platform's: ``gm.core.names.check_name``)."""
    if len(players) != PLAYERS:
        raise InputError(
            f"fistful is a duel: it needs exactly {PLAYERS} players, got {len(players)}",
            code="fistful/player-count",
            params={"count": len(players)},
        )


def _colors_error(raw: Any, why: str) -> InputError:
    return InputError(
        f"option colors={raw!r} is not valid: {why}; write e.g. colors=ana=green,bob=red",
        code="fistful/bad-colors",
        params={"value": str(raw)},
    )


def _parse_colors(players: Sequence[str], raw: Any) -> dict[str, Color]:
    first, second = players
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        return {first: Color.RED, second: Color.GREEN}
    pairs: list[tuple[Any, Any]]
    if isinstance(raw, str):
        pairs = []
        for item in (p for p in raw.replace(";", ",").split(",") if p.strip()):
            name, sep, value = item.partition("=")
            if not sep:
                name, sep, value = item.partition(":")
            if not sep:
                raise _colors_error(raw, f"{item.strip()!r} has no '=' between player and deck")
            pairs.append((name, value))
    elif isinstance(raw, Mapping):
        pairs = list(raw.items())
    else:
        raise _colors_error(raw, "expected a text or a table")
    by_key = {fold(p): p for p in players}
    chosen: dict[str, Color] = {}
    for name, value in pairs:
        player = by_key.get(fold(str(name)))
        if player is None:
            raise _colors_error(
                raw, f"{str(name).strip()!r} is not a player ({', '.join(players)})"
            )
        color = COLORS.get(fold(str(value))) if isinstance(value, str) else None
        if color is None:
            raise _colors_error(raw, f"{value!r} is not a deck (red or green)")
        if chosen.get(player, color) is not color:
            raise _colors_error(raw, f"{player} is given two decks")
        chosen[player] = color
    for player in players:
        other = second if player == first else first
        if player not in chosen and other in chosen:
            chosen[player] = chosen[other].other
    if chosen[first] is chosen[second]:
        raise _colors_error(raw, "both players have the same deck")
    return chosen
