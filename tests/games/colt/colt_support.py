"""Helpers for the Colt Express tests: trains set up by hand, bandits placed
where a test needs them, and the pure rules driven as the platform does.

``train`` sets a game up by hand (no fortune) and opens round 1 with decks
in the canonical order, so every hand is known. ``place`` moves bandits and
the Marshal directly (a test's starting position); ``action_on`` lays a pile
and starts the Action on it, so that one card can be resolved by itself.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from gm.core.fortune import FortuneDraws, ScriptedDraws
from gm.core.protocol import GM, Command, Event
from gm.games.colt import rules
from gm.games.colt.cards import ACTION_DECK, Card
from gm.games.colt.commands import OpenRound, SetUp
from gm.games.colt.model import Loot, Phase, Played, State

PLAYERS = ("ana", "bob", "cleo", "dan")
CHARACTERS = ("Belle", "Django", "Tuco", "Cheyenne", "Doc", "Ghost")


def train(
    players: Sequence[str] = PLAYERS,
    characters: Sequence[str] | None = None,
    cars: Sequence[int] | None = None,
    purses: Sequence[Sequence[int]] | None = None,
    card: str = "Pont",
    decks: Mapping[str, Sequence[Card]] | None = None,
) -> State:
    """A game set up by hand and round 1 opened (``card``), decks in the
    canonical order unless given: every hand is Déplacement, Déplacement,
    Changement d'étage, Changement d'étage, Marshal, Tir (Doc: and a Tir)."""
    n = len(players)
    characters = characters or CHARACTERS[:n]
    cars = cars or tuple(range(1, n + 1))
    if purses is None:
        stock = [250] * (8 - n) + [300, 300, 350, 350, 400, 400, 450, 450, 500, 500]
        purses, i = [], 0
        for c in cars:
            count = {1: 3, 2: 0, 3: 1, 4: 3, 5: 4, 6: 1}[c]
            purses.append(stock[i : i + count])
            i += count
    state = rules.initial_state(players, {})
    state = apply(
        state,
        SetUp(
            tuple(zip(players, characters, strict=True)),
            tuple(cars),
            tuple(tuple(p) for p in purses),
        ),
    )
    given = {p: tuple((decks or {}).get(p, ACTION_DECK)) for p in players}
    return apply(state, OpenRound(card, tuple(given.items())))


def apply(state: State, command: Command, actor: str = GM, draws: object = None) -> State:
    after, _ = rules.play(state, actor, command, draws)  # type: ignore[arg-type]
    return after


def events(
    state: State, command: Command, actor: str = GM, draws: object = None
) -> tuple[State, tuple[Event, ...]]:
    return rules.play(state, actor, command, draws)  # type: ignore[arg-type]


def place(state: State, marshal: int | None = None, **spots: tuple[int, str]) -> State:
    """Bandits put on spots: ``ana=(2, "roof")``; the Marshal on a car."""
    for name, (car, level) in spots.items():
        state = state.with_bandit(replace(state.bandit(name), car=car, roof=level == "roof"))
    if marshal is not None:
        state = replace(state, marshal=marshal)
    return state


def give(state: State, name: str, **fields: object) -> State:
    """Change a bandit's fields (purses, jewels, barillet…)."""
    return state.with_bandit(replace(state.bandit(name), **fields))  # type: ignore[arg-type]


def lay(state: State, car: int, level: str, loot: Loot) -> State:
    return state.with_loot(car, level == "roof", loot)


def action_on(state: State, *pile: tuple[str, Card], scripted: bool = True) -> State:
    """The Action on ``pile`` (owner, card), face up, from its first card."""
    played = tuple(Played(p, c, False, i + 1) for i, (p, c) in enumerate(pile))
    return replace(state, phase=Phase.ACTION, pile=played, step=0, scripted=scripted)


def fortune(seed: str = "graine") -> FortuneDraws:
    return FortuneDraws(seed)


def scripted(*values: int) -> ScriptedDraws:
    return ScriptedDraws(values)
