"""What every game's rules share: who may run a command, the refusals once
the game is over, decide-then-evolve (``apply``, and ``Run`` for a ``decide``
whose handlers read the state as their own events leave it).

Pure helpers, parametrised by the game's id (which prefixes the error codes:
``magot/gm-only``, ``fistful/not-yours``) so that each game keeps its own
stable codes and reply templates; the game-over refusals share one code,
``phase/game-over``, in every game.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Generic, TypeVar

from gm.core.fortune import NoDraws
from gm.core.protocol import GM, Command, Draws, Event
from gm.errors import GameOverError, IllegalOrderError, InputError

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


def game_over(command: Command, where: str = "") -> GameOverError:
    """The refusal of ``command`` once the game is over (``where``: what the
    game adds after « the game is over », e.g. `` (round 8)``)."""
    return GameOverError(
        f"the game is over{where}; {command.kind} is no longer possible",
        code="phase/game-over",
        params={"command": command.kind},
    )


def nothing_more_to_send(player: str, text: str | None = None, where: str = "") -> GameOverError:
    """The refusal of ``player``'s message (``text``, when there is one: not
    for explicit fields) once the game is over."""
    if text is None:
        return GameOverError(
            f"the game is over{where}: nothing more to send (from {player})",
            code="phase/game-over",
            params={"player": player},
        )
    return GameOverError(
        f"the game is over{where}: nothing more to send (got {text!r} from {player})",
        code="phase/game-over",
        params={"player": player, "text": text},
    )


class Run(Generic[S]):
    """The events of one command, applied (by ``evolve``) as they are decided:
    a ``decide`` made of several handlers gives each the state the events
    emitted before it leave (``run.state``), and returns ``run.events``."""

    def __init__(self, state: S, evolve: Callable[[S, Event], S]) -> None:
        self.state = state
        self.events: list[Event] = []
        self._evolve = evolve

    def emit(self, *events: Event) -> None:
        for event in events:
            self.events.append(event)
            self.state = self._evolve(self.state, event)


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


__all__ = [
    "Run",
    "acting_player",
    "apply",
    "game_over",
    "nothing_more_to_send",
    "require_gm",
    "unknown_command",
]
