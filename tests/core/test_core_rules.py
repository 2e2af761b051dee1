"""What every game's rules share (``gm.core.rules``): the refusals once the
game is over, in every game's words, and ``Run``, a decide's events applied
as they are decided."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from gm.core import rules
from gm.core.protocol import Command, Event
from gm.errors import GameOverError


@dataclass(frozen=True)
class Count(Event):
    kind: ClassVar[str] = "demo.count"
    by: int


@dataclass(frozen=True)
class Go(Command):
    kind: ClassVar[str] = "demo.go"


def test_the_refusals_once_the_game_is_over() -> None:
    refusal = rules.game_over(Go(), " (round 8)")
    assert isinstance(refusal, GameOverError) and refusal.code == "phase/game-over"
    assert str(refusal) == "the game is over (round 8); demo.go is no longer possible"
    assert refusal.params == {"command": "demo.go"}
    sent = rules.nothing_more_to_send("ana", "je joue le 5")
    assert str(sent) == "the game is over: nothing more to send (got 'je joue le 5' from ana)"
    assert sent.params == {"player": "ana", "text": "je joue le 5"}
    fields = rules.nothing_more_to_send("ana", where=" (R-18)")
    assert str(fields) == "the game is over (R-18): nothing more to send (from ana)"
    assert fields.params == {"player": "ana"}


def test_run_applies_each_event_as_it_is_emitted() -> None:
    run = rules.Run(0, lambda total, event: total + event.by)
    seen = []
    for by in (2, 3):
        seen.append(run.state)  # a handler reads the state the events before it leave
        run.emit(Count(by))
    run.emit(Count(1), Count(4))
    assert (seen, run.state, run.events) == ([0, 2], 10, [Count(2), Count(3), Count(1), Count(4)])
