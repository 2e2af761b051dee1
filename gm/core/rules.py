"""What every game's rules share: who may run a command, decide-then-evolve.

Pure helpers, parametrised by the game's id (which prefixes the error codes:
``magot/gm-only``, ``fistful/not-yours``) so that each game keeps its own
stable codes and reply templates.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from gm.core.fortune import NoDraws
from gm.core.protocol import GM, Command, Draws, Event
from gm.errors import IllegalOrderError, InputError

S = TypeVar("S")


def require_gm(game_id: str, actor: str, command: Command) -> None:
    """Refuse a step of the MJ's (``gm reveal``…) sent by a player."""
    if actor != GM:
        raise IllegalOrderError(
            f"only the MJ may {command.kind.removeprefix(game_id + '.')}, not {actor!r}",
            code=f"{game_id}/gm-only",
            params={"actor": actor, "command": command.kind},
        )


def acting_player(game_id: str, find: Callable[[str], str], actor: str, player: str) -> str:
    """The canonical name of ``player``, whom ``actor`` (that player or the MJ) acts for.

    ``find`` resolves a typed name to a seated player (raising if unknown).
    """
    name = find(player)
    if actor != GM and find(actor) != name:
        raise IllegalOrderError(
            f"{actor!r} cannot act for {name}: only {name} or the MJ can",
            code=f"{game_id}/not-yours",
            params={"actor": actor, "player": name},
        )
    return name


def unknown_command(game_id: str, command: Command) -> InputError:
    """The refusal of a command the game does not know (a bug in a caller)."""
    return InputError(
        f"{game_id} does not know the command {command.kind!r}",
        code=f"{game_id}/unknown-command",
        params={"command": command.kind},
    )


def apply(
    decide: Callable[[S, str, Command, Draws], Sequence[Event]],
    evolve: Callable[[S, Event], S],
    state: S,
    actor: str,
    command: Command,
    draws: Draws | None = None,
) -> tuple[S, tuple[Event, ...]]:
    """``decide`` then ``evolve``: the new state and the events (tests, previews)."""
    events = tuple(decide(state, actor, command, draws or NoDraws()))
    for event in events:
        state = evolve(state, event)
    return state, events


__all__ = ["acting_player", "apply", "require_gm", "unknown_command"]
