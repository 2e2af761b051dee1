"""Helpers for the Fistful of Gold tests: drive the pure rules as the platform does.

``Table`` holds a state and plays messages (through ``notation.parse``, as
``gm order`` does) and the MJ's steps (through the steps' ``build``, as the
command line does), keeping every event. Nothing here touches a database.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from gm.core.codec import EventCodec
from gm.core.protocol import GM, Event, ScenarioStep
from gm.core.protocol import Table as Seating
from gm.games.fistful import GAME
from gm.games.fistful.cards import Card, sort_cards
from gm.games.fistful.model import Outcome, Phase, State
from gm.games.fistful.rules import play

CODEC = EventCodec(GAME.events)
STEPS = {s.name: s for s in GAME.steps}


def cards(text: str) -> tuple[Card, ...]:
    """``"1 2 dynamite"`` as cards, in the order written."""
    return tuple(Card(w) for w in text.split())


@dataclass
class Table:
    """A game being played by messages and steps, with its log."""

    state: State
    events: list[Event] = field(default_factory=list)

    @classmethod
    def new(cls, players: Iterable[str] = ("ana", "bob"), **options: Any) -> Table:
        return cls(GAME.initial_state(list(players), options))

    def send(self, player: str, text: str) -> tuple[Event, ...]:
        """``player``'s private message, parsed and decided as ``gm order`` does:
        each of its commands in turn, on the state the one before left, all of
        them or (the first refusal raised) none."""
        state, events = self.state, []
        for command in GAME.parse(state, player, text):
            state, decided = play(state, player, command)
            events.extend(decided)
        self.state = state
        self.events.extend(events)
        return tuple(events)

    def step(self, name: str, **values: Any) -> tuple[Event, ...]:
        """An MJ step (``start``, ``reveal``, ``resolve``)."""
        return self._apply(GM, STEPS[name].build(values, Seating.of(self.state.names)))

    def feed(self, item: ScenarioStep) -> tuple[Event, ...]:
        """One input as ``legal_inputs`` or a scenario gives it."""
        if item.step is not None:
            return self.step(item.step, **dict(item.values))
        assert item.text is not None
        return self.send(item.actor, item.text)

    def _apply(self, actor: str, command: Any) -> tuple[Event, ...]:
        self.state, events = play(self.state, actor, command)
        self.events.extend(events)
        return events

    def start(self, ana: str = "1 2", bob: str = "1 2") -> Table:
        """Both setup discards (first player ``ana``, second ``bob``), then ``gm start``."""
        first, second = self.state.names
        self.send(first, ana)
        self.send(second, bob)
        self.step("start")
        return self

    def duel(self, a: str, b: str) -> Outcome:
        """Both players' cards, then ``gm reveal``: the duel's outcome."""
        first, second = self.state.names
        self.send(first, a)
        self.send(second, b)
        (event,) = self.step("reveal")
        outcome: Outcome = event.outcome  # type: ignore[attr-defined]
        return outcome

    def duels(self, *pairs: str) -> list[Outcome]:
        """Several duels, each written ``"3 4"`` (first player's card, second's)."""
        out = []
        for pair in pairs:
            a, b = pair.split()
            out.append(self.duel(a, b))
        return out

    def player(self, name: str) -> Any:
        return self.state.player(name)

    @property
    def phase(self) -> Phase:
        return self.state.phase

    def gold(self) -> dict[str, int]:
        return {p.name: p.gold for p in self.state.players}


def with_hands(state: State, **hands: str) -> State:
    """``state`` with the named players' hands replaced (cards moved from/to removed),
    for rules tests that need a position the normal flow reaches only slowly."""
    players = []
    for p in state.players:
        if p.name in hands:
            hand = sort_cards(cards(hands[p.name]))
            others = [c for c in (*p.hand, *p.removed) if c not in hand and c not in p.played]
            p = replace(p, hand=hand, removed=sort_cards(others))
        players.append(p)
    return replace(state, players=tuple(players))


def refold(
    events: Iterable[Event], players: Iterable[str] = ("ana", "bob"), **options: Any
) -> State:
    """The state rebuilt from scratch from ``events``, each through the codec."""
    state = GAME.initial_state(list(players), options)
    for event in events:
        state = GAME.evolve(state, CODEC.decode(*CODEC.encode(event)))
    return state
