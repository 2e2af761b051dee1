"""Colt Express's rules, one test per ruling (R-1 … R-11), per character
power, per turn kind and per round or station event (gm/games/colt/rules.md).

The trains are set up by hand (``colt_support.train``); a test places the
bandits where it needs them and resolves a pile of its own.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest
from colt_support import action_on, apply, events, fortune, give, lay, place, scripted, train
from support import typeset

from gm.core.protocol import GM
from gm.errors import AmbiguousOrderError, GMError, IllegalOrderError, InputError, OrderError
from gm.games.colt import action, notation, rules, score
from gm.games.colt.cards import PRINTED_CARS, Card, Turn
from gm.games.colt.commands import (
    ApplyDefault,
    DrawCards,
    OpenRound,
    PlayCard,
    SetUp,
)
from gm.games.colt.events import CardResolved
from gm.games.colt.model import Loot, Phase, State
from gm.render.engine import Renderer


def say(state: State, player: str, text: str, draws: object = None) -> State:
    """``player``'s message, read and decided as ``gm order`` does."""
    for command in notation.parse(state, player, text):
        state = apply(state, command, player, draws)
    return state


def last(state: State) -> CardResolved | None:
    steps = state.current.steps
    return steps[-1] if steps else None  # type: ignore[return-value]


# --- setup ------------------------------------------------------------------------


def test_r1_each_car_holds_its_printed_loot() -> None:
    state = train(players=("ana", "bob", "cleo", "dan", "eve", "fay"), cars=(1, 2, 3, 4, 5, 6))
    for car, printed in enumerate((1, 2, 3, 4, 5, 6), start=1):
        purses, jewels = PRINTED_CARS[printed]
        assert len(state.inside[car].purses) == purses
        assert state.inside[car].jewels == jewels
    assert (purses, jewels) == (1, 0)
    assert [PRINTED_CARS[c] for c in range(1, 7)] == [
        (3, 0),
        (0, 3),
        (1, 1),
        (3, 1),
        (4, 1),
        (1, 0),
    ]
    assert state.inside[0] == Loot(strongboxes=1)  # the locomotive: one strongbox
    assert state.spare_strongbox and state.marshal == 0
    assert all(b.purses == (250,) for b in state.bandits)


def test_r1_a_car_given_the_wrong_number_of_purses_is_refused() -> None:
    with pytest.raises(InputError, match="car 4 holds 3 purse"):
        train(
            players=("ana", "bob", "cleo"),
            cars=(4, 1, 3),
            purses=((250, 300), (250, 350, 500), (300,)),
        )


@pytest.mark.parametrize("count", [2, 7])
def test_r2_three_to_six_players(count: int) -> None:
    players = ("ana", "bob", "cleo", "dan", "eve", "fay", "gus")[:count]
    state = rules.initial_state(players, {})
    with pytest.raises(InputError, match="3 to 6 players"):
        apply(state, SetUp())
    from gm.games.colt.manifest import INFO

    assert (INFO.min_players, INFO.max_players) == (3, 6)


def test_r3_the_fortune_draws_the_cars_their_order_and_the_purses() -> None:
    seen = set()
    for seed in range(6):
        state = apply(
            rules.initial_state(("ana", "bob", "cleo", "dan"), {}),
            SetUp(),
            draws=fortune(str(seed)),
        )
        assert len(set(state.cars)) == 4 and set(state.cars) <= set(range(1, 7))
        seen.add(state.cars)
        lying = [v for loot in state.inside for v in loot.purses]
        for car, printed in enumerate(state.cars, start=1):
            assert len(state.inside[car].purses) == PRINTED_CARS[printed][0]
        stock = Counter([250] * 4 + [300, 300, 350, 350, 400, 400, 450, 450, 500, 500])
        assert not Counter(lying) - stock  # only purses left once each bandit has 250 $
        assert sorted(b.character for b in state.bandits) == sorted(
            set(b.character for b in state.bandits)
        )
    assert len(seen) > 1


def test_r3_a_scenario_fixes_cars_and_purses_from_the_stock_only() -> None:
    state = train(
        players=("ana", "bob", "cleo"),
        cars=(4, 1, 3),
        purses=((250, 300, 450), (250, 350, 500), (300,)),
    )
    assert state.cars == (4, 1, 3)
    assert state.inside[1].purses == (250, 300, 450) and state.inside[1].jewels == 1
    with pytest.raises(InputError, match="not that many purses of 300"):
        train(
            players=("ana", "bob", "cleo"),
            cars=(4, 1, 3),
            purses=((300, 300, 450), (250, 350, 500), (300,)),
        )


def test_setup_odd_players_in_the_caboose_even_ones_in_front_of_it() -> None:
    state = train(players=("ana", "bob", "cleo", "dan", "eve"))
    assert [(b.car, b.roof) for b in state.bandits] == [
        (5, False),
        (4, False),
        (5, False),
        (4, False),
        (5, False),
    ]


# --- the Plan -----------------------------------------------------------------------


def test_turn_kinds_normal_tunnel_speed_up_switching() -> None:
    players = ("ana", "bob", "cleo")
    turns = rules.schedule(players, 1, "Prenez tout !")  # O X 2 O for 2-4 players
    assert [(t.player, t.kind) for t in turns] == [
        ("ana", Turn.NORMAL),
        ("bob", Turn.NORMAL),
        ("cleo", Turn.NORMAL),
        ("ana", Turn.TUNNEL),
        ("bob", Turn.TUNNEL),
        ("cleo", Turn.TUNNEL),
        ("ana", Turn.SPEED),
        ("ana", Turn.SPEED),
        ("bob", Turn.SPEED),
        ("bob", Turn.SPEED),
        ("cleo", Turn.SPEED),
        ("cleo", Turn.SPEED),
        ("ana", Turn.NORMAL),
        ("bob", Turn.NORMAL),
        ("cleo", Turn.NORMAL),
    ]
    switching = rules.schedule(("a", "b", "c", "d", "e"), 2, "Marshal en colère")  # O O S
    assert [t.player for t in switching][-5:] == ["b", "a", "e", "d", "c"]
    assert [t.player for t in switching][:5] == ["b", "c", "d", "e", "a"]


@pytest.mark.parametrize(
    ("card", "small", "large"),
    [
        ("Marshal en colère", "O O X S", "O O S"),
        ("Bras pivotant", "O X O O", "O X O"),
        ("Freinage", "O O O O", "O X O O"),
        ("Prenez tout !", "O X 2 O", "O 2 S"),
        ("Rébellion des passagers", "O O X O O", "O X O S"),
        ("Pont", "O 2 O", "O 2"),
        ("Tunnel", "O X O X O", "O X O X"),
        ("Pickpocket", "O O X O", "O O X O"),
    ],
)
def test_each_round_card_has_its_turns(card: str, small: str, large: str) -> None:
    from gm.games.colt.cards import layout

    symbol = {Turn.NORMAL: "O", Turn.TUNNEL: "X", Turn.SPEED: "2", Turn.SWITCH: "S"}
    assert " ".join(symbol[t] for t in layout(card, 4)) == small
    assert " ".join(symbol[t] for t in layout(card, 5)) == large


def test_a_play_or_a_draw_of_three_and_a_tunnel_turn_is_face_down() -> None:
    state = train(players=("ana", "bob", "cleo"), card="Tunnel")
    hand = state.bandit("ana").hand
    assert len(hand) == 6
    state = say(state, "ana", "je joue Tir")
    assert state.bandit("ana").hand.count(Card.SHOOT) == hand.count(Card.SHOOT) - 1
    state = say(state, "bob", "je pioche")
    assert len(state.bandit("bob").hand) == 9 and len(state.bandit("bob").deck) == 1
    state = say(state, "cleo", "Déplacement")
    assert state.turn.kind is Turn.TUNNEL
    state = say(state, "ana", "Marshal")
    assert state.pile[-1].face_down and state.current.moves[-1].card is None
    with pytest.raises(IllegalOrderError, match="Balle"):
        say(state, "bob", "je joue Balle")
    with pytest.raises(OrderError, match="no card and no draw"):
        say(state, "bob", "n'importe quoi")


def test_face_down_elsewhere_is_refused_and_bullet_cards_never_play() -> None:
    state = train(players=("ana", "bob", "cleo"), characters=("Belle", "Django", "Tuco"))
    with pytest.raises(IllegalOrderError, match="face up"):
        say(state, "ana", "Tir face cachée")
    with pytest.raises(IllegalOrderError, match="it is ana's turn"):
        apply(state, PlayCard("bob", Card.SHOOT), "bob")


def test_a_draw_takes_fewer_when_the_deck_runs_short() -> None:
    state = train(players=("ana", "bob", "cleo"), card="Freinage")
    for _ in range(2):
        for p in ("ana", "bob", "cleo"):
            state = say(state, p, "je pioche")
    assert len(state.bandit("ana").hand) == 10 and state.current.moves[3].drew == 1


# --- the Action --------------------------------------------------------------------


def test_move_inside_one_car_on_a_roof_one_to_three() -> None:
    state = place(train(), ana=(2, "inside"), bob=(2, "roof"))
    inside = action.legal(state, action_on(state, ("ana", Card.MOVE)).pile[0])
    assert {(o.direction, o.distance) for o in inside} == {("front", 1), ("back", 1)}
    roof = action.legal(state, action_on(state, ("bob", Card.MOVE)).pile[0])
    assert {(o.direction, o.distance) for o in roof} == {
        ("front", 1),
        ("front", 2),
        ("back", 1),
        ("back", 2),
    }
    state = say(action_on(state, ("bob", Card.MOVE)), "bob", "vers la locomotive, 2 wagons")
    assert state.bandit("bob").spot == (0, True)


def test_r4_a_roof_shot_reaches_the_nearest_occupied_roof_each_way() -> None:
    state = place(
        train(players=("ana", "bob", "cleo", "dan")),
        ana=(2, "roof"),
        bob=(4, "roof"),
        cleo=(3, "roof"),
        dan=(0, "roof"),
    )
    assert action.shot_targets(state, "ana") == ("cleo", "dan")  # any distance, nearest each way
    state = place(state, cleo=(2, "roof"))
    assert action.shot_targets(state, "ana") == ("bob", "dan")  # never one on your own spot


def test_inside_a_shot_reaches_the_adjacent_cars_only() -> None:
    state = place(
        train(), ana=(2, "inside"), bob=(3, "inside"), cleo=(4, "inside"), dan=(2, "roof")
    )
    assert action.shot_targets(state, "ana") == ("bob",)


def test_r5_no_neutral_bullet_left_nothing_but_the_flight() -> None:
    state = replace(place(train(), ana=(1, "inside"), marshal=0), neutral=0)
    state = say(action_on(state, ("ana", Card.MOVE)), "ana", "vers la locomotive")
    ana = state.bandit("ana")
    assert ana.spot == (0, True) and ana.received == 0 and state.neutral == 0


def test_the_marshal_gives_a_bullet_and_sends_to_the_roof() -> None:
    state = place(train(), ana=(1, "inside"), marshal=0)
    state = say(action_on(state, ("ana", Card.MOVE)), "ana", "vers la locomotive")
    assert state.bandit("ana").spot == (0, True) and state.bandit("ana").received == 1
    assert state.neutral == 12


def test_r6_a_default_is_a_legal_choice_drawn_by_the_fortune() -> None:
    state = place(train(), ana=(2, "roof"))
    state = action_on(state, ("ana", Card.MOVE), scripted=False)
    draws = fortune("défaut")
    _after, evs = events(state, ApplyDefault("ana"), GM, draws)
    resolved = next(e for e in evs if isinstance(e, CardResolved))
    assert resolved.how == "default" and resolved.outcome in action.legal(state, state.pile[0])
    assert draws.opened == ["round-1/default/1"]
    assert rules.default_for(state, "ana") == ApplyDefault("ana")
    with pytest.raises(GMError, match="nothing is due from bob"):
        rules.default_for(state, "bob")


def test_r6_conditional_instructions_sent_in_advance_apply_when_the_card_comes_up() -> None:
    state = place(train(), ana=(2, "roof"), bob=(3, "roof"), cleo=(1, "roof"), dan=(4, "inside"))
    state = action_on(state, ("dan", Card.MOVE), ("ana", Card.SHOOT), scripted=False)
    state = say(
        state, "ana", "Tir : si je peux tirer sur Belle, je tire sur Belle, sinon sur Django"
    )
    assert state.instructions and state.phase is Phase.ACTION and state.step == 0
    state = say(state, "dan", "vers la locomotive")  # then ana's Tir resolves by itself
    shot = state.current.steps[-1]
    assert shot.how == "instruction" and shot.outcome.target == "bob"  # Belle is ana herself
    assert state.bandit("bob").received == 1


def test_r6_an_instruction_that_fits_no_outcome_leaves_the_choice_to_its_owner() -> None:
    state = place(train(), ana=(2, "roof"), bob=(3, "roof"), cleo=(1, "roof"), dan=(4, "inside"))
    state = action_on(state, ("dan", Card.MOVE), ("ana", Card.SHOOT), scripted=False)
    state = say(state, "ana", "Tir : sur Cheyenne")
    state = say(state, "dan", "vers la locomotive")
    assert state.resolving is not None and state.resolving.player == "ana"


def test_r7_the_player_picks_the_kind_the_fortune_the_purse() -> None:
    state = lay(place(train(), ana=(2, "inside")), 2, "inside", Loot(purses=(250, 450), jewels=1))
    state = action_on(state, ("ana", Card.ROB), scripted=False)
    with pytest.raises(IllegalOrderError, match="nobody chooses a purse by its value"):
        say(state, "ana", "la bourse de 450", fortune())
    after = say(state, "ana", "la bourse", scripted(1))
    assert after.bandit("ana").purses == (250, 450) and after.inside[2].purses == (250,)
    jewel = say(state, "ana", "le bijou")
    assert jewel.bandit("ana").jewels == 1


def test_r7_a_scenario_writes_the_value_the_fortune_would_have_drawn() -> None:
    state = lay(place(train(), ana=(2, "inside")), 2, "inside", Loot(purses=(250, 450)))
    state = action_on(state, ("ana", Card.ROB))
    with pytest.raises(OrderError, match="which purse"):
        say(state, "ana", "la bourse")
    with pytest.raises(IllegalOrderError, match="no purse of 300"):
        say(state, "ana", "la bourse de 300")
    assert say(state, "ana", "la bourse de 450").bandit("ana").purses == (250, 450)


def test_r8_an_action_does_what_it_can() -> None:
    state = place(train(), ana=(2, "roof"), bob=(2, "roof"), cleo=(4, "inside"), dan=(4, "inside"))
    state = give(state, "bob", purses=())
    punch = say(action_on(state, ("ana", Card.PUNCH)), "ana", "sur bob, vers l'arrière")
    assert punch.bandit("bob").spot == (3, True)  # no loot to drop: pushed all the same
    empty = give(state, "ana", barillet=0)
    for card in (Card.SHOOT, Card.ROB):
        after = say(action_on(empty, ("ana", card)), "ana", "rien")
        assert last(after).void is not None and last(after).effects == ()
    alone = place(state, bob=(3, "roof"))
    assert action.legal(alone, action_on(alone, ("ana", Card.PUNCH)).pile[0]) == (action.VOID,)
    with pytest.raises(IllegalOrderError, match="can act"):
        say(action_on(state, ("ana", Card.PUNCH)), "ana", "rien")


def test_r9_neutral_bullets_in_seating_order_from_the_first_player() -> None:
    state = train()  # round 1: ana is the first player
    state = replace(
        place(
            state,
            ana=(2, "inside"),
            bob=(2, "inside"),
            cleo=(2, "inside"),
            dan=(1, "inside"),
            marshal=1,
        ),
        neutral=2,
    )
    state = say(action_on(state, ("dan", Card.MARSHAL)), "dan", "vers l'arrière")
    assert [state.bandit(p).received for p in ("ana", "bob", "cleo")] == [1, 1, 0]
    assert all(state.bandit(p).roof for p in ("ana", "bob", "cleo"))  # all flee
    assert state.marshal == 2 and state.neutral == 0


def test_r10_the_as_de_la_gachette_goes_to_the_fewest_bullets_left() -> None:
    state = replace(train(), phase=Phase.OVER)
    assert score.gunslingers(state) == ("ana", "bob", "cleo", "dan")  # nobody fired: everyone
    state = give(give(state, "bob", barillet=3), "dan", barillet=3)
    assert score.gunslingers(state) == ("bob", "dan")
    table = {s.name: s for s in score.standings(state)}
    assert table["bob"].score == 1250 and table["ana"].score == 250


def test_tie_break_fewer_bullets_received_then_a_shared_rank() -> None:
    state = replace(train(), phase=Phase.OVER)
    state = give(give(state, "ana", received=2), "bob", received=1)
    assert [s.rank for s in score.standings(state)] == [4, 3, 1, 1]
    assert score.winners(state) == ("cleo", "dan")


# --- characters -------------------------------------------------------------------


def test_belle_is_no_target_while_another_bandit_is() -> None:
    state = place(
        train(characters=("Django", "Belle", "Tuco", "Cheyenne")),
        ana=(2, "roof"),
        bob=(3, "roof"),
        cleo=(1, "roof"),
        dan=(4, "inside"),
    )
    assert action.shot_targets(state, "ana") == ("cleo",)
    alone = place(state, cleo=(2, "inside"))
    assert action.shot_targets(alone, "ana") == ("bob",)
    both = place(state, bob=(2, "roof"), cleo=(2, "roof"))
    assert action.punch_victims(both, "ana") == ("cleo",)


def test_cheyenne_keeps_the_purse_her_victim_drops() -> None:
    state = place(
        train(characters=("Cheyenne", "Belle", "Tuco", "Django")), ana=(2, "roof"), bob=(2, "roof")
    )
    state = say(action_on(state, ("ana", Card.PUNCH)), "ana", "sur bob, la bourse, vers l'avant")
    assert state.bandit("ana").purses == (250, 250) and state.bandit("bob").purses == ()
    assert state.roofs[2].empty and state.bandit("bob").spot == (1, True)


def test_a_punch_drops_the_loot_on_the_spot() -> None:
    state = place(train(), ana=(2, "roof"), bob=(2, "roof"))
    state = give(state, "bob", jewels=1)
    state = say(
        action_on(state, ("ana", Card.PUNCH)), "ana", "sur Django, le bijou, vers l'arrière"
    )
    assert state.roofs[2].jewels == 1 and state.bandit("bob").jewels == 0
    assert state.bandit("bob").spot == (3, True)


def test_django_pushes_his_target_one_car_in_the_direction_of_the_shot() -> None:
    state = place(
        train(characters=("Django", "Belle", "Tuco", "Cheyenne")), ana=(2, "roof"), cleo=(3, "roof")
    )
    state = say(action_on(state, ("ana", Card.SHOOT)), "ana", "sur Tuco")
    assert state.bandit("cleo").spot == (4, True) and state.bandit("cleo").received == 1
    edge = place(state, ana=(3, "roof"), cleo=(4, "roof"))
    edge = say(action_on(edge, ("ana", Card.SHOOT)), "ana", "sur cleo")
    assert edge.bandit("cleo").spot == (4, True)  # never off the train


def test_doc_holds_seven_cards() -> None:
    state = train(characters=("Doc", "Belle", "Tuco", "Django"))
    assert len(state.bandit("ana").hand) == 7 and len(state.bandit("bob").hand) == 6


def test_ghost_may_play_face_down_on_the_first_turn_only() -> None:
    state = train(players=("ana", "bob", "cleo"), characters=("Ghost", "Belle", "Tuco"))
    state = say(state, "ana", "Tir face cachée")
    assert state.pile[0].face_down and state.current.moves[0].card is None
    state = say(say(state, "bob", "Tir"), "cleo", "Tir")
    with pytest.raises(IllegalOrderError, match="face up"):
        say(state, "ana", "Marshal face cachée")


def test_tuco_shoots_through_the_roof_of_his_car() -> None:
    state = place(
        train(characters=("Tuco", "Belle", "Django", "Cheyenne")),
        ana=(2, "inside"),
        bob=(4, "inside"),
        cleo=(2, "roof"),
        dan=(4, "roof"),
    )
    assert action.shot_targets(state, "ana") == ("cleo",)


# --- round and station events -----------------------------------------------------


def _event(state: State) -> State:
    from gm.games.colt.events import EventResolved

    effects, moves = action.happen(state, rules.happening(state.current.card))
    for m in moves:
        state = rules.evolve(state, rules._sealed(state.round, 0, m))
    return rules.evolve(state, EventResolved(state.round, state.current.card, effects))


def test_angry_marshal_shoots_his_roof_then_moves_back() -> None:
    state = place(
        train(card="Marshal en colère"),
        marshal=1,
        ana=(1, "roof"),
        bob=(1, "roof"),
        cleo=(2, "inside"),
        dan=(3, "roof"),
    )
    state = _event(state)
    assert [state.bandit(p).received for p in ("ana", "bob", "cleo", "dan")] == [1, 1, 1, 0]
    assert state.marshal == 2 and state.bandit("cleo").spot == (2, True)


def test_swivel_arm_sweeps_the_roofs_to_the_caboose() -> None:
    state = _event(place(train(card="Bras pivotant"), ana=(1, "roof"), bob=(0, "roof")))
    assert state.bandit("ana").spot == (4, True) and state.bandit("bob").spot == (4, True)
    assert state.bandit("cleo").spot == (4, False)


def test_braking_moves_the_roofs_one_car_forward() -> None:
    state = _event(place(train(card="Freinage"), ana=(2, "roof"), bob=(0, "roof")))
    assert state.bandit("ana").spot == (1, True) and state.bandit("bob").spot == (0, True)


def test_take_it_all_puts_the_second_strongbox_in_the_marshals_car() -> None:
    state = _event(place(train(card="Prenez tout !"), marshal=2))
    assert state.inside[2].strongboxes == 1 and not state.spare_strongbox


def test_rebellion_shoots_everyone_inside() -> None:
    state = _event(place(train(card="Rébellion des passagers"), ana=(0, "inside"), bob=(1, "roof")))
    assert [state.bandit(p).received for p in ("ana", "bob", "cleo", "dan")] == [1, 0, 1, 1]


def test_bridge_and_tunnel_have_no_event() -> None:
    for card in ("Pont", "Tunnel"):
        before = train(card=card)
        after = _event(before)
        assert after.bandits == tuple(replace(b, hand=(), deck=()) for b in before.bandits)


def station(card: str) -> State:
    state = train(card="Pont")
    return replace(state, history=(*state.history[:-1], replace(state.current, card=card)))


def test_vengeance_du_marshal_takes_the_least_purse_of_his_roof() -> None:
    state = place(station("La vengeance du Marshal"), marshal=2, ana=(2, "roof"))
    state = _event(give(state, "ana", purses=(250, 400)))
    assert state.bandit("ana").purses == (400,) and state.removed == (250,)


def test_pickpocket_a_bandit_alone_by_a_purse_may_take_it() -> None:
    state = place(
        station("Pickpocket"),
        ana=(1, "inside"),
        bob=(2, "roof"),
        cleo=(3, "inside"),
        dan=(3, "inside"),
    )
    state = replace(state, phase=Phase.EVENT)
    assert rules.pickpockets_due(state) == ("ana",)  # alone, with purses lying there
    state = say(state, "ana", "la bourse", scripted(0))
    assert len(state.bandit("ana").purses) == 2 and state.phase is Phase.READY


def test_hostage_pays_250_to_each_bandit_at_the_locomotive() -> None:
    state = _event(
        place(station("Prise d'otage du conducteur"), ana=(0, "roof"), bob=(0, "inside"))
    )
    assert [state.bandit(p).ransom for p in ("ana", "bob", "cleo")] == [250, 250, 0]
    assert state.bandit("ana").loot == 500


# --- a whole round by the rules' own steps ----------------------------------------


def test_a_whole_game_set_up_by_the_fortune_ends_after_five_rounds() -> None:
    state = rules.initial_state(("ana", "bob", "cleo"), {})
    drawn: set[str] = set()

    def go(state: State, actor: str, command: object) -> State:
        from gm.core.fortune import FortuneDraws

        draws = FortuneDraws("partie", drawn=drawn)
        after, _ = rules.play(state, actor, command, draws)  # type: ignore[arg-type]
        drawn.update(draws.opened)
        return after

    state = go(state, GM, SetUp())
    cards = []
    while state.phase is not Phase.OVER:
        if state.phase is Phase.READY:
            state = go(state, GM, OpenRound())
            cards.append(state.current.card)
        elif state.phase is Phase.PLAN:
            t = state.turn
            playable = [c for c in state.bandit(t.player).hand if c is not Card.BULLET]
            state = go(
                state,
                t.player,
                PlayCard(t.player, playable[0]) if playable else DrawCards(t.player),
            )
        else:
            who = (
                state.resolving.player
                if state.phase is Phase.ACTION
                else rules.pickpockets_due(state)[0]
            )
            state = go(state, GM, ApplyDefault(who))
    assert (
        len(cards) == 5
        and len(set(cards)) == 5
        and cards[4] in ("La vengeance du Marshal", "Pickpocket", "Prise d'otage du conducteur")
    )
    assert [r.first for r in state.history] == ["ana", "bob", "cleo", "ana", "bob"]
    assert score.winners(state)
    assert all(r.event is not None for r in state.history)
    # every bullet received was fired by a bandit or taken from the 13 neutral ones
    fired = sum(6 - b.barillet for b in state.bandits)
    assert sum(b.received for b in state.bandits) == fired + 13 - state.neutral


def test_r11_a_punch_named_by_its_purse_value_reads_the_victim_from_who_holds_it() -> None:
    # cleo (Tuco) punches on car 2's roof, where bob (Django) and dan
    # (Cheyenne) stand; a game played by hand names the purse by its value
    # . bob holds 250 and 400, dan 250 and 300: « la bourse de 400, vers
    # l'avant » can only be bob's 400, which drops on the roof of car 2 while
    # bob goes forward to car 1 (dan stays, keeps both purses).
    state = place(train(), cleo=(2, "roof"), bob=(2, "roof"), dan=(2, "roof"))
    state = give(give(state, "bob", purses=(250, 400)), "dan", purses=(250, 300))
    punch = action_on(state, ("cleo", Card.PUNCH))
    after = say(punch, "cleo", "la bourse de 400, vers l'avant")
    assert after.bandit("bob").purses == (250,) and after.bandit("bob").spot == (1, True)
    assert after.roofs[2].purses == (400,) and after.bandit("dan").purses == (250, 300)
    assert after.bandit("dan").spot == (2, True)
    # both hold a 250: which bandit is meant is ambiguous; the reply names the choices
    with pytest.raises(AmbiguousOrderError, match=r"la bourse de 250.*bob.*dan") as caught:
        say(punch, "cleo", "la bourse de 250, vers l'avant")
    assert caught.value.code == "colt/ambiguous-victim"
    assert caught.value.params["victims"] == ["bob", "dan"]
    error = caught.value
    context = {"player": "cleo", "text": "la bourse de 250, vers l'avant"}
    context["error"] = {"code": error.code, "message": error.message, "params": error.params}
    assert Renderer("colt").render("order_rejected", context) == typeset(
        "Ambigu : bob et dan ont chacun une bourse de 250 $ : nomme ta victime (« sur bob, … »)."
        " Choix possibles : « sur bob, la bourse de 250, vers la locomotive »"
        " · « sur dan, la bourse de 250, vers la locomotive ».\n"
    )
    # nobody on the spot holds a 500
    with pytest.raises(IllegalOrderError, match="no purse of 500"):
        say(punch, "cleo", "la bourse de 500, vers l'avant")
    # the victim named, the value need not single them out
    named = say(punch, "cleo", "sur dan, la bourse de 250, vers l'arrière")
    assert named.bandit("dan").purses == (300,) and named.bandit("dan").spot == (3, True)
