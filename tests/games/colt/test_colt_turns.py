"""Colt Express's forum flow on the pure rules: a play sent with its
instructions, instructions from another player during the Plan, the
defaults of a silent player (a draw on a Plan turn, R-6 at Pickpocket),
what the game waits for, and the posts a command calls for."""

from __future__ import annotations

from dataclasses import replace

from colt_support import action_on, apply, events, fortune, place, train

from gm.core.protocol import GM, PostRef
from gm.games.colt import GAME, notation, rules
from gm.games.colt.cards import Card
from gm.games.colt.commands import ApplyDefault
from gm.games.colt.events import CardsDrawn
from gm.games.colt.model import Phase, State


def forum(**kwargs: object) -> State:
    """A train set up by hand, then played as on a forum (instructions allowed)."""
    return replace(train(**kwargs), scripted=False)  # type: ignore[arg-type]


def say(state: State, player: str, text: str) -> State:
    for command in notation.parse(state, player, text):
        state = apply(state, command, player)
    return state


def test_a_play_and_its_instructions_in_one_message() -> None:
    state = forum(players=("ana", "bob", "cleo"), characters=("Django", "Belle", "Tuco"))
    state = say(state, "ana", "je joue Tir, sur Tuco sinon sur Belle")
    (instruction,) = state.instructions
    assert instruction.slot == 0 and [a.target for a in instruction.alternatives] == ["cleo", "bob"]


def test_another_player_instructs_a_card_already_in_the_pile() -> None:
    state = forum(players=("ana", "bob", "cleo"))
    state = say(state, "ana", "je joue Déplacement")
    state = say(state, "ana", "Déplacement : vers l'arrière, sinon vers la locomotive")
    assert [i.slot for i in state.instructions] == [0]
    assert state.turn is not None and state.turn.player == "bob"  # the turn did not move


def test_a_silent_player_draws_on_their_plan_turn() -> None:
    state = train(players=("ana", "bob", "cleo"))
    after, evs = events(state, rules.default_for(state, "ana"), GM)
    assert evs == (CardsDrawn(1, 1, "ana", 3, default=True),)
    assert len(after.bandit("ana").hand) == 9
    assert GAME.posts_after(state, evs, after) == (PostRef("plan", (1, 1)),)


def test_pickpocket_default_is_drawn_by_the_fortune() -> None:
    state = place(
        train(), ana=(1, "inside"), bob=(2, "roof"), cleo=(3, "inside"), dan=(3, "inside")
    )
    record = replace(state.current, card="Pickpocket")
    state = replace(state, history=(*state.history[:-1], record), phase=Phase.EVENT)
    assert [a.player for a in GAME.awaiting(state)] == ["ana"]
    draws = fortune("pickpocket")
    after, _ = events(state, ApplyDefault("ana"), GM, draws)
    assert draws.opened[0] == "round-1/default/pickpocket-ana"
    assert after.phase is Phase.READY
    assert after.history[-1].event is not None and after.history[-1].event.pickpocket[0][2]


def test_the_game_awaits_the_owner_of_the_card_resolving() -> None:
    state = action_on(place(train(), ana=(2, "roof")), ("ana", Card.MOVE), scripted=False)
    (awaited,) = GAME.awaiting(state)
    assert (awaited.player, awaited.how) == ("ana", "public")
    assert GAME.phase(state) == "round-1/action-1"
    assert "gm order ana" in GAME.next_step(state)
