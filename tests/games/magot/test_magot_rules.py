"""Le Magot's rules: one test per ruling (R-1 … R-8), the source's examples,
and the phases and refusals of ``decide``."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import pytest

from gm.core.codec import to_json
from gm.core.fortune import Fortune, FortuneDraws, ScriptedDraws, label_for
from gm.core.protocol import GM, Command, Event
from gm.errors import GMError
from gm.games.magot.commands import (
    DrawLoot,
    Fold,
    Resolve,
    Reveal,
    SetOrder,
    Stay,
    WithdrawOrder,
)
from gm.games.magot.events import GameEnded, LootDrawn, OrdersRevealed, RoundResolved
from gm.games.magot.model import EndReason, Option, Phase, State
from gm.games.magot.rules import (
    awaiting,
    configure,
    decide,
    initial_state,
    next_step,
    phase_key,
    play,
    ranking,
    winners,
)

T, B, C = Option.TRIPLE, Option.BANG, Option.CLICK
FOUR = ("fab", "marco", "lulu", "tom")


def start(players: Sequence[str] = FOUR, **options: object) -> State:
    return initial_state(players, options)


def run(state: State, *steps: tuple[str, Command]) -> State:
    for actor, command in steps:
        state, _ = play(state, actor, command)
    return state


def draw(state: State, bills: Sequence[int] | None = None) -> State:
    if bills is None:
        bills = state.deck[: min(5, len(state.deck))]
    return run(state, (GM, DrawLoot(tuple(bills))))


def play_round(
    state: State,
    orders: Mapping[str, tuple[str, Option]],
    folds: Iterable[str] = (),
    bills: Sequence[int] | None = None,
    force: bool = False,
) -> tuple[State, tuple[Event, ...]]:
    """Draw, send ``orders``, reveal, fold, resolve: the state and the resolve events."""
    state = draw(state, bills)
    for shooter, (target, option) in orders.items():
        state = run(state, (shooter, SetOrder(shooter, target, option)))
    state = run(state, (GM, Reveal(force=force)))
    for player in folds:
        state = run(state, (player, Fold(player)))
    return play(state, GM, Resolve())


def resolution(events: Sequence[Event]) -> RoundResolved:
    (resolved,) = [e for e in events if isinstance(e, RoundResolved)]
    return resolved


def refused(state: State, actor: str, command: Command, code: str) -> GMError:
    with pytest.raises(GMError) as caught:
        decide(state, actor, command, ScriptedDraws())
    assert caught.value.code == code, caught.value.message
    return caught.value


# --- R-1 ---------------------------------------------------------------------


def test_r1_default_loot_is_forty_bills_worth_425000() -> None:
    """R-1: "by default 15 bills of 5 000 $, 15 of 10 000 $, 10 of 20 000 $ (40
    bills, 425 000 $ ...). The MJ may choose another composition and another
    number of rounds"."""
    state = start()
    assert len(state.deck) == 40 and sum(state.deck) == 425_000
    assert state.deck.count(5000) == 15 and state.deck.count(20000) == 10
    assert state.rounds == 8
    assert configure(FOUR, {}) == {
        "rounds": 8,
        "loot": {"5000": 15, "10000": 15, "20000": 10},
    }
    custom = configure(FOUR, {"rounds": "3", "loot": "1000:2, 7000:1"})
    assert custom == {"rounds": 3, "loot": {"1000": 2, "7000": 1}}
    assert configure(FOUR, {"loot": {"7000": 1, 1000: "2"}}) == {
        "rounds": 8,
        "loot": {"1000": 2, "7000": 1},
    }
    assert sorted(start(loot="1000:2,7000:1").deck) == [1000, 1000, 7000]


@pytest.mark.parametrize(
    ("options", "code"),
    [
        ({"rounds": 0}, "magot/bad-rounds"),
        ({"rounds": "huit"}, "magot/bad-rounds"),
        ({"rounds": True}, "magot/bad-rounds"),
        ({"loot": "5000-15"}, "magot/bad-loot"),
        ({"loot": "0:3"}, "magot/bad-loot"),
        ({"loot": "5000:0"}, "magot/bad-loot"),
        ({"loot": 12}, "magot/bad-loot"),
        ({"bullets": 3}, "magot/unknown-option"),
    ],
)
def test_configure_refuses_bad_options_naming_them(options: dict[str, object], code: str) -> None:
    with pytest.raises(GMError) as caught:
        configure(FOUR, options)
    assert caught.value.code == code
    assert next(iter(options)) in caught.value.message


@pytest.mark.parametrize("players", [("fab", "marco"), tuple(f"p{i}" for i in range(21))])
def test_configure_refuses_a_number_of_players_it_cannot_seat(players: tuple[str, ...]) -> None:
    # names are the platform's one rule (gm.core.names.check_name), not the game's
    with pytest.raises(GMError) as refused:
        configure(players, {})
    assert refused.value.code == "magot/player-count"


# --- R-2 ---------------------------------------------------------------------


def test_r2_manual_draw_is_recorded_as_manual_and_must_come_from_the_deck() -> None:
    """R-2: "The MJ may instead enter the drawn bills by hand ...; such a draw is
    recorded as manual and is outside the fairness proof"."""
    state = start()
    draws = ScriptedDraws()
    events = decide(state, GM, DrawLoot((20000, 10000, 5000, 5000, 5000)), draws)
    assert events == [LootDrawn(1, (20000, 10000, 5000, 5000, 5000), manual=True)]
    assert draws.purposes == []  # the fortune is not read: nothing to prove
    refused(state, GM, DrawLoot((50000, 5000, 5000, 5000, 5000)), "magot/bad-bills")
    refused(state, GM, DrawLoot((20000, 10000)), "magot/bad-bills")
    small = start(loot="20000:2,5000:1")
    refused(small, GM, DrawLoot((20000, 20000, 20000)), "magot/bad-bills")
    (manual,) = decide(small, GM, DrawLoot((20000, 5000, 20000)), ScriptedDraws())
    assert isinstance(manual, LootDrawn) and manual.manual


def fortune_bills(state: State, label: str) -> tuple[int, ...]:
    """The bills the fortune's stream ``label`` gives, by the rules page's own
    recipe (R-2, "Draw"): from the deck sorted from the largest bill down, take
    the bill at index ``below(len(rest))`` of what is left, five times at most."""
    chance, rest = Fortune("seed", label), sorted(state.deck, reverse=True)
    return tuple(rest.pop(chance.below(len(rest))) for _ in range(min(5, len(rest))))


def test_r2_fortune_draw_is_reproducible_and_takes_bills_from_the_deck() -> None:
    """R-2 (and "Draw"): five bills drawn at random by the campaign's fortune,
    all that remain if fewer. Each round's bills read their own stream,
    ``round-<n>/bills``, with the players' words mixed into its label."""
    state = start()
    draws = FortuneDraws("seed")
    first = decide(state, GM, DrawLoot(), draws)
    assert draws.opened == ["round-1/bills"]
    assert first == decide(state, GM, DrawLoot(), FortuneDraws("seed"))
    (drawn,) = first
    assert isinstance(drawn, LootDrawn) and not drawn.manual and len(drawn.bills) == 5
    assert drawn.bills == fortune_bills(state, "round-1/bills")
    # the players' words change the stream, and so the bills
    words = (("fab", "tequila"), ("lulu", "jazz"))
    (mixed,) = decide(state, GM, DrawLoot(), FortuneDraws("seed", words))
    label = label_for("round-1/bills", words)
    assert label.startswith("round-1/bills+") and len(label) == len("round-1/bills+") + 32
    assert isinstance(mixed, LootDrawn) and mixed.bills == fortune_bills(state, label)
    assert mixed.bills != drawn.bills  # for this seed and these words
    # the next round reads its own stream
    state = run(state, (GM, DrawLoot(drawn.bills)), (GM, Reveal(force=True)), (GM, Resolve()))
    second = ScriptedDraws()
    decide(state, GM, DrawLoot(), second)
    assert second.purposes == ["round-2/bills"]
    # scripted: index 0 of the deck sorted from the largest bill down
    (top,) = decide(start(), GM, DrawLoot(), ScriptedDraws([0, 0, 0, 0, 0]))
    assert isinstance(top, LootDrawn) and top.bills == (20000,) * 5
    last = start(loot="5000:2,20000:1")
    (rest,) = decide(last, GM, DrawLoot(), FortuneDraws("seed"))
    assert isinstance(rest, LootDrawn) and sorted(rest.bills) == [5000, 5000, 20000]
    assert rest.bills == fortune_bills(last, "round-1/bills")


# --- R-3 ---------------------------------------------------------------------


def test_r3_missing_orders_need_a_forced_reveal_and_aim_at_nobody() -> None:
    """R-3: "A living player with no order at the reveal aims at nobody and
    spends nothing; the MJ must confirm this explicitly"."""
    state = draw(start())
    state = run(state, ("fab", SetOrder("fab", "tom", B)), ("marco", SetOrder("marco", "fab", C)))
    error = refused(state, GM, Reveal(), "magot/missing-orders")
    assert error.params["missing"] == ["lulu", "tom"]
    assert "lulu, tom" in error.message
    state, events = play(state, GM, Reveal(force=True))
    (revealed,) = events
    assert isinstance(revealed, OrdersRevealed)
    assert revealed.missing == ("lulu", "tom") and revealed.forced
    assert [a.shooter for a in revealed.aims] == ["fab", "marco"]
    state, events = play(state, GM, Resolve())
    after = {g.name: g for g in state.players}
    assert after["lulu"].left == (1, 2, 5) and after["tom"].left == (1, 2, 5)
    assert after["fab"].left == (1, 1, 5)
    assert after["tom"].wounds == 1  # aimed at, he can still be shot
    assert [p.player for p in resolution(events).resolution.portions] == ["fab", "marco", "lulu"]


# --- R-4 ---------------------------------------------------------------------


def test_r4_unrecorded_choice_stays_and_choices_change_until_resolution() -> None:
    """R-4: "A player whose choice is not recorded when the MJ resolves stays.
    The choice may be changed until the resolution"."""
    state = draw(start())
    for shooter, target in [("fab", "marco"), ("marco", "fab"), ("lulu", "tom"), ("tom", "lulu")]:
        state = run(state, (shooter, SetOrder(shooter, target, B)))
    state = run(state, (GM, Reveal()))
    assert awaiting(state) == FOUR
    state = run(state, ("fab", Fold("fab")), ("fab", Stay("fab")))
    state = run(state, (GM, Stay("marco")), (GM, Fold("marco")))
    assert awaiting(state) == ("lulu", "tom")
    _, events = play(state, GM, Resolve())
    result = resolution(events).resolution
    assert result.folded == ("marco",)
    assert {w.player for w in result.wounds} == {"lulu", "tom"}  # they stayed by default


# --- R-5 ---------------------------------------------------------------------


def test_r5_lowered_held_and_disabled_options_stay_secret_but_are_spent() -> None:
    """R-5: "a lowered order's option stays secret too"; held and disabled
    orders' options are never revealed; "Every order's option is spent for
    good, fired or not"."""
    players = ("fab", "marco", "lulu", "tom", "zoe")
    orders = {
        "fab": ("marco", T),  # held: marco folds
        "marco": ("fab", T),  # lowered: marco folds
        "lulu": ("tom", T),  # live: wounds tom
        "tom": ("zoe", B),  # disabled: tom was hit by a triple
        "zoe": ("lulu", C),  # live bluff
    }
    state, events = play_round(start(players), orders, folds=["marco"])
    result = resolution(events).resolution
    assert [(a.shooter, a.target) for a in result.lowered] == [("marco", "fab")]
    assert [(a.shooter, a.target) for a in result.held] == [("fab", "marco")]
    assert [(a.shooter, a.target) for a in result.disabled] == [("tom", "zoe")]
    assert [(s.shooter, s.option) for s in result.shots] == [("lulu", T), ("zoe", C)]
    payload = str(to_json(resolution(events)))
    assert payload.count("triple") == 1 and "bang" not in payload
    left = {g.name: g.left for g in state.players}
    assert left == {
        "fab": (0, 2, 5),
        "marco": (0, 2, 5),
        "lulu": (0, 2, 5),
        "tom": (1, 1, 5),
        "zoe": (1, 2, 4),
    }


# --- R-6 ---------------------------------------------------------------------


def test_r6_share_hands_out_the_largest_equal_split_and_carries_the_rest() -> None:
    """R-6: "The MJ hands out the largest total that can be split into equal
    parts ... What cannot be split stays in the pot for the next round. With no
    sharer, the whole pot stays"."""
    three = ("fab", "marco", "lulu")
    loot = "20000:1,10000:2,5000:7"
    orders = {"fab": ("lulu", B), "marco": ("fab", C), "lulu": ("fab", C)}
    state, events = play_round(
        start(three, loot=loot), orders, bills=(20000, 10000, 10000, 5000, 5000)
    )
    result = resolution(events).resolution
    # lulu is wounded: fab and marco share 50 000 in two parts of 25 000
    assert [p.player for p in result.portions] == ["fab", "marco"]
    assert result.share == 25000 and result.carry == ()
    assert sorted(sum(p.bills) for p in result.portions) == [25000, 25000]

    # no sharer: everybody folds, the whole pot stays for the next round
    orders = {"fab": ("marco", C), "marco": ("fab", C), "lulu": ("fab", C)}
    state, events = play_round(start(three, loot=loot), orders, folds=three)
    pot = resolution(events).resolution.carry
    assert sum(pot) == 50000 and state.pot == pot
    assert [g.shame for g in state.players] == [1, 1, 1]
    state = draw(state)
    assert state.history[-1].carried == pot
    assert sum(state.pot) == sum(pot) + sum(state.history[-1].drawn)


def test_r6_ruling_example_two_sharers_twenty_thousand_each() -> None:
    """R-6: "Example: pot 20 000 + 10 000 + 10 000 + 5 000 with two sharers:
    each receives 20 000 $, 5 000 $ stays"."""
    state = start(("fab", "marco", "lulu"), loot="20000:1,10000:2,5000:1")
    orders = {"fab": ("marco", C), "marco": ("fab", C), "lulu": ("fab", C)}
    state = draw(state, (20000, 10000, 10000, 5000))
    for shooter, (target, option) in orders.items():
        state = run(state, (shooter, SetOrder(shooter, target, option)))
    state = run(state, (GM, Reveal()), ("lulu", Fold("lulu")))
    state, events = play(state, GM, Resolve())
    result = resolution(events).resolution
    assert result.share == 20000 and result.carry == (5000,)
    assert {p.bills for p in result.portions} == {(20000,), (10000, 10000)}
    assert state.pot == (5000,)


# --- R-7 ---------------------------------------------------------------------


def test_r7_game_ends_after_the_last_round_and_the_pot_is_lost() -> None:
    """R-7: "The game ends when, at the end of a round: the last round was
    played ... Bills left in the pot at the end are lost"."""
    state = start(("fab", "marco", "lulu"), rounds=1, loot="20000:1,10000:2,5000:2")
    orders = {"fab": ("marco", C), "marco": ("fab", C), "lulu": ("fab", C)}
    state, events = play_round(state, orders, bills=(20000, 10000, 10000, 5000, 5000))
    ended = events[-1]
    assert isinstance(ended, GameEnded) and ended.reason is EndReason.LAST_ROUND
    # 50 000 among three: 10 000 each at most (the 20 000 bill cannot be broken)
    assert ended.lost == state.pot == (20000,)
    assert [g.loot for g in state.players] == [10000, 10000, 10000]
    assert state.phase is Phase.OVER and phase_key(state) == "over"
    refused(state, GM, DrawLoot(), "phase/game-over")


def test_r7_game_ends_when_one_player_at_most_is_alive() -> None:
    """R-7: "... or one player at most is alive"; R-8: the survivor wins."""
    state = start(("fab", "marco", "lulu"))
    for option in (B, B):
        state, events = play_round(
            state, {"fab": ("marco", option), "marco": ("fab", option), "lulu": ("fab", C)}
        )
        assert not any(isinstance(e, GameEnded) for e in events)
    state, events = play_round(
        state, {"fab": ("marco", T), "marco": ("fab", T), "lulu": ("fab", C)}
    )
    ended = events[-1]
    assert isinstance(ended, GameEnded) and ended.reason is EndReason.LAST_SURVIVOR
    assert state.living == ("lulu",) and winners(state) == ("lulu",)
    assert state.phase is Phase.OVER and state.round == 3


def test_r7_game_ends_when_nobody_is_alive() -> None:
    """R-7: "one player at most is alive" (here, none: nobody wins, R-8)."""
    state = start(("fab", "marco", "lulu"))
    for option in (B, B):
        state, _ = play_round(
            state, {"fab": ("marco", option), "marco": ("lulu", option), "lulu": ("fab", option)}
        )
    state, events = play_round(
        state, {"fab": ("marco", T), "marco": ("lulu", T), "lulu": ("fab", T)}
    )
    assert isinstance(events[-1], GameEnded) and events[-1].reason is EndReason.NO_SURVIVOR
    assert state.living == () and winners(state) == ()


def test_r7_game_ends_when_deck_and_pot_are_empty() -> None:
    """R-7: "... or the loot deck is empty and the pot is empty"."""
    state = start(("fab", "marco", "lulu"), loot="5000:3")
    orders = {"fab": ("marco", C), "marco": ("lulu", C), "lulu": ("fab", C)}
    state, events = play_round(state, orders)
    assert isinstance(events[-1], GameEnded) and events[-1].reason is EndReason.LOOT_GONE
    assert events[-1].lost == () and state.round == 1
    assert [g.bills for g in state.players] == [(5000,)] * 3


# --- R-8 ---------------------------------------------------------------------


def test_r8_ranking_living_first_then_score_shame_wounds_and_shared_ranks() -> None:
    """R-8: "living players first, then the dead. Within each group: higher score
    first; ties broken by fewer shame points, then by more wounds ...; still
    tied: same rank"."""
    from gm.games.magot.model import Gangster

    players = [
        Gangster("dead_rich", wounds=3, bills=(100000,), alive=False, death_round=2),
        Gangster("poor", bills=(5000,)),
        Gangster("shamed", bills=(20000,), shame=1),  # score 15 000
        Gangster("clean", bills=(10000, 5000)),  # score 15 000, no shame: ahead
        Gangster("hothead", bills=(5000,), wounds=2),  # ties poor on score, more wounds
        Gangster("twin", bills=(5000,), wounds=2),  # full tie with hothead
        Gangster("dead_poor", wounds=3, alive=False, death_round=1),
    ]
    assert ranking(players) == (
        ("clean", 1),
        ("shamed", 2),
        ("hothead", 3),
        ("twin", 3),
        ("poor", 5),
        ("dead_rich", 6),
        ("dead_poor", 7),
    )


def test_r8_winners_survivor_nobody_or_the_living_of_rank_one() -> None:
    """R-8: "if exactly one player is alive, that player wins whatever the scores.
    If nobody is alive, nobody wins. Otherwise the living players of rank 1 win
    (several on a full tie)"."""
    from dataclasses import replace

    from gm.games.magot.model import Gangster

    def with_players(*players: Gangster) -> State:
        return replace(start(), players=players)

    rich_dead = Gangster("rich", bills=(200000,), wounds=3, alive=False)
    assert winners(with_players(rich_dead, Gangster("poor"), Gangster("x", alive=False))) == (
        "poor",
    )
    assert winners(with_players(rich_dead, Gangster("x", alive=False))) == ()
    tie = with_players(Gangster("a1", bills=(5000,)), Gangster("b1", bills=(5000,)), rich_dead)
    assert winners(tie) == ("a1", "b1")
    assert winners(with_players(Gangster("a1", bills=(5000,)), Gangster("b1"))) == ("a1",)


# --- the source's examples ---------------------------------------------------


def test_source_fab_stays_under_one_triple_and_two_bangs_and_dies() -> None:
    """Source: "fab ne s'est pas couché ... braqué par trois joueurs, l'un avec
    BANG BANG BANG et les deux autres avec BANG ... Total : trois blessures"."""
    orders = {"fab": ("marco", C), "marco": ("fab", T), "lulu": ("fab", B), "tom": ("fab", B)}
    state, events = play_round(start(), orders)
    result = resolution(events).resolution
    (wound,) = result.wounds
    assert (wound.player, wound.taken, wound.total, wound.dead) == ("fab", 3, 3, True)
    fab = state.player("fab")
    assert not fab.alive and fab.wounds == 3 and fab.death_round == 1
    assert [s.shooter for s in result.shots] == ["marco", "lulu", "tom"]
    # fab's bluff was disabled by the triple: not revealed
    assert [a.shooter for a in result.disabled] == ["fab"]


def test_source_triple_against_bang_only_the_bang_shooter_is_wounded() -> None:
    """Source (Marco's summary): "BANG BANG BANG contre BANG seul le BANG est blessé"."""
    orders = {"fab": ("marco", T), "marco": ("fab", B), "lulu": ("tom", C), "tom": ("lulu", C)}
    state, events = play_round(start(), orders)
    result = resolution(events).resolution
    assert [(w.player, w.taken) for w in result.wounds] == [("marco", 1)]
    assert [a.shooter for a in result.disabled] == ["marco"]
    assert [(s.shooter, s.option) for s in result.shots] == [("fab", T), ("lulu", C), ("tom", C)]
    assert state.player("marco").left == (1, 1, 5)  # the disabled BANG is spent anyway


def test_source_mutual_triples_both_wounded() -> None:
    """Source: "BANG BANG BANG contre BANG BANG BANG les deux sont blessés"."""
    orders = {"fab": ("marco", T), "marco": ("fab", T), "lulu": ("tom", C), "tom": ("lulu", C)}
    _, events = play_round(start(), orders)
    result = resolution(events).resolution
    assert [(w.player, w.taken) for w in result.wounds] == [("fab", 1), ("marco", 1)]
    assert result.disabled == ()


def test_source_bang_against_bang_both_wounded() -> None:
    """Source: "BANG contre BANG les deux sont blessés"."""
    orders = {"fab": ("marco", B), "marco": ("fab", B), "lulu": ("tom", C), "tom": ("lulu", C)}
    _, events = play_round(start(), orders)
    result = resolution(events).resolution
    assert [(w.player, w.taken) for w in result.wounds] == [("fab", 1), ("marco", 1)]
    assert [p.player for p in result.portions] == ["lulu", "tom"]


def test_clicks_never_wound_and_a_bang_hits_a_target_already_hit() -> None:
    """ "CLIC CLIC CLIC never wounds"; "every remaining live BANG fires ... even a
    target already wounded this round"."""
    orders = {"fab": ("tom", T), "marco": ("tom", B), "lulu": ("fab", C), "tom": ("lulu", C)}
    _, events = play_round(start(), orders)
    result = resolution(events).resolution
    assert [(w.player, w.taken) for w in result.wounds] == [("tom", 2)]
    assert [a.shooter for a in result.disabled] == ["tom"]


def test_wounds_are_capped_at_three() -> None:
    """ "a player who reaches 3 wounds is dead (wounds never exceed 3)"."""
    five = ("fab", "marco", "lulu", "tom", "zoe")
    state = start(five)
    first = {"fab": ("zoe", B), "marco": ("zoe", C), "lulu": ("zoe", C), "tom": ("zoe", C)}
    state, _ = play_round(state, {**first, "zoe": ("fab", C)})
    second = {"fab": ("zoe", T), "marco": ("zoe", B), "lulu": ("zoe", B), "tom": ("zoe", C)}
    state, events = play_round(state, {**second, "zoe": ("fab", C)})
    (wound,) = resolution(events).resolution.wounds
    assert (wound.taken, wound.total, wound.dead) == (3, 3, True)
    assert state.player("zoe").wounds == 3


def test_dead_players_keep_their_bills_and_take_no_part() -> None:
    """ "Dead players keep their bills but are out: no orders, cannot be aimed at,
    never share"."""
    state = start()
    state, _ = play_round(
        state, {"fab": ("tom", C), "marco": ("tom", C), "lulu": ("tom", C), "tom": ("fab", C)}
    )
    tom_bills = state.player("tom").bills
    assert tom_bills
    for option in (T, B, B):
        state, _ = play_round(
            state,
            {"fab": ("tom", option), "marco": ("fab", C), "lulu": ("fab", C), "tom": ("lulu", C)},
        )
        if not state.player("tom").alive:
            break
    assert not state.player("tom").alive and state.player("tom").bills == tom_bills
    state = draw(state)
    assert awaiting(state) == ("fab", "marco", "lulu")
    refused(state, "tom", SetOrder("tom", "fab", C), "magot/dead-player")
    refused(state, "fab", SetOrder("fab", "tom", C), "magot/dead-target")


# --- phases and refusals -----------------------------------------------------


def test_phase_keys_awaiting_and_next_steps_follow_the_round() -> None:
    state = start()
    assert (phase_key(state), awaiting(state)) == ("setup", ())
    assert next_step(state).startswith("gm draw")
    state = draw(state)
    assert phase_key(state) == "round-1/orders" and awaiting(state) == FOUR
    assert "gm reveal --force" in next_step(state)
    for shooter, target in zip(FOUR, FOUR[1:] + FOUR[:1], strict=True):
        state = run(state, (shooter, SetOrder(shooter, target, C)))
    assert awaiting(state) == () and next_step(state) == "gm reveal"
    state = run(state, (GM, Reveal()))
    assert phase_key(state) == "round-1/standoff" and awaiting(state) == FOUR
    state = run(state, ("fab", Stay("fab")))
    assert awaiting(state) == ("marco", "lulu", "tom") and "gm resolve" in next_step(state)
    state = run(state, (GM, Resolve()))
    assert phase_key(state) == "round-1/done" and next_step(state).startswith("gm draw")


def test_orders_can_be_replaced_and_withdrawn_until_the_reveal() -> None:
    """ "An order may be replaced or withdrawn until the reveal"."""
    state = draw(start())
    state = run(state, ("fab", SetOrder("fab", "tom", C)), ("fab", SetOrder("FAB", "Marco", B)))
    order = state.order_of("fab")
    assert order is not None and order.target == "marco"
    state = run(state, (GM, WithdrawOrder("fab")))
    assert state.order_of("fab") is None
    refused(state, GM, WithdrawOrder("fab"), "magot/no-order")
    for shooter, target in zip(FOUR, FOUR[1:] + FOUR[:1], strict=True):
        state = run(state, (shooter, SetOrder(shooter, target, C)))
    state = run(state, (GM, Reveal()))
    refused(state, "fab", SetOrder("fab", "tom", B), "phase/wrong")
    refused(state, "fab", WithdrawOrder("fab"), "phase/wrong")


@pytest.mark.parametrize(
    ("actor", "command", "code"),
    [
        ("fab", SetOrder("fab", "fab", B), "magot/self-target"),
        ("fab", SetOrder("fab", "bob", B), "magot/unknown-player"),
        ("bob", SetOrder("bob", "fab", B), "magot/unknown-player"),
        ("marco", SetOrder("fab", "tom", B), "magot/not-yours"),
        ("fab", Reveal(force=True), "magot/gm-only"),
        ("fab", Resolve(), "magot/gm-only"),
        (GM, DrawLoot(), "phase/wrong"),
        (GM, Resolve(), "phase/wrong"),
        (GM, Fold("fab"), "phase/wrong"),
    ],
)
def test_refusals_have_stable_codes(actor: str, command: Command, code: str) -> None:
    state = draw(start())
    error = refused(state, actor, command, code)
    assert error.message


def test_option_spent_names_the_options_left() -> None:
    state = start()
    state, _ = play_round(
        state, {"fab": ("tom", T), "marco": ("fab", C), "lulu": ("fab", C), "tom": ("lulu", C)}
    )
    state = draw(state)
    error = refused(state, "fab", SetOrder("fab", "tom", T), "magot/option-spent")
    assert error.message == "option 'triple' already spent by fab (left: bang ×2, click ×5)"
    assert error.params == {
        "player": "fab",
        "option": "triple",
        "remaining": {"triple": 0, "bang": 2, "click": 5},
    }


def test_a_rejected_command_changes_nothing() -> None:
    state = draw(start())
    before = state
    with pytest.raises(GMError):
        play(state, "fab", SetOrder("fab", "fab", B))
    assert state == before
