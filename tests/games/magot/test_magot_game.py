"""Le Magot through the platform's protocol: steps, posts, views, summary, scenarios."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import pytest

from gm.core.canonical import canonical_json
from gm.core.codec import EventCodec
from gm.core.fortune import FortuneDraws
from gm.core.protocol import (
    GM,
    NOTHING_SHOWN,
    PUBLIC,
    Awaited,
    Command,
    Event,
    PostRef,
    ScenarioStep,
    Shown,
    Table,
)
from gm.errors import GMError, InputError, NotFoundError, PhaseError
from gm.games import load
from gm.games.magot import GAME
from gm.games.magot.commands import DrawLoot, Fold, Resolve, Reveal, SetOrder, Stay, WithdrawOrder
from gm.games.magot.events import EVENTS, Folded, OrderSet, OrderWithdrawn, Stayed
from gm.games.magot.model import Option, State

FOUR = ["fab", "marco", "lulu", "tom"]

SCENARIO: dict[str, Any] = {
    "game": "magot",
    "title": "Le casse du siècle",
    "players": FOUR,
    "seed": "n'importe quel texte",
    "options": {"rounds": 2, "loot": {"5000": 15, "10000": 15, "20000": 10}},
    "rounds": [
        {
            "bills": [20000, 10000, 5000, 5000, 5000],
            "orders": {
                "fab": "marco BANG",
                "marco": "Je braque mon flingue sur fab (CLIC CLIC CLIC)",
                "lulu": "fab BANG BANG BANG",
                "tom": "fab bang",
            },
            "folds": ["marco"],
        },
        {
            "orders": {"marco": "lulu clic", "lulu": "tom CCC"},
            "force": True,
        },
    ],
}


def step_spec(name: str) -> Any:
    (spec,) = [s for s in GAME.steps if s.name == name]
    return spec


def apply(state: State, actor: str, command: Command) -> tuple[State, list[Event]]:
    events = GAME.decide(state, actor, command, FortuneDraws("seed"))
    for event in events:
        state = GAME.evolve(state, event)
    return state, events


def replay(document: Mapping[str, Any]) -> tuple[State, list[Event], list[PostRef]]:
    """What the service does with a scenario file, minus the store."""
    players = document["players"]
    state = GAME.initial_state(players, GAME.configure(players, document.get("options", {})))
    log: list[Event] = []
    posts: list[PostRef] = [GAME.latest_post(state)]
    for step in GAME.scenario(document):
        if step.text is not None:
            (command,) = GAME.parse(state, step.actor, step.text)
            actor = step.actor
        else:
            assert step.step is not None
            command = step_spec(step.step).build(step.values, Table.of(state.names))
            actor = GM
        before = state
        state, events = apply(state, actor, command)
        log.extend(events)
        posts.extend(GAME.posts_after(before, events, state))
    return state, log, posts


def test_registered_and_shaped_like_a_game() -> None:
    game = load("magot")
    assert game is GAME
    assert (GAME.id, GAME.title, GAME.min_players, GAME.max_players) == (
        "magot",
        "Le Magot",
        3,
        20,
    )
    assert [o.name for o in GAME.options] == ["rounds", "loot"]
    assert {s.name for s in GAME.steps} == {"draw", "reveal", "fold", "stay", "withdraw", "resolve"}
    for spec in GAME.steps:
        assert "Example: gm " + spec.name in spec.help
        assert all(p.name.isidentifier() for p in spec.params)
    assert {s.name: s.deadline for s in GAME.steps}["draw"]
    assert [p.name for p in GAME.order_params] == ["target", "option"]


def test_configure_accepts_cli_text_and_toml_tables() -> None:
    expected = {"rounds": 8, "loot": {"5000": 15, "10000": 15, "20000": 10}}
    assert GAME.configure(FOUR, {}) == expected
    assert GAME.configure(FOUR, {"loot": "5000:15,10000:15,20000:10", "rounds": "8"}) == expected
    assert GAME.configure(FOUR, {"loot": {"20000": 10, "5000": 15, "10000": 15}}) == expected
    with pytest.raises(InputError) as caught:
        GAME.configure(FOUR, {"loot": "5000=15"})
    assert "loot" in caught.value.message and "5000:15" in caught.value.message


@pytest.mark.parametrize(
    ("raw", "bills"),
    [
        ("20000,10000,5000,5000,5000", (20000, 10000, 5000, 5000, 5000)),
        ("20 000, 10k, 5000$", (20000, 10000, 5000)),
        ("20000 10000", (20000, 10000)),
        ([20000, "5000"], (20000, 5000)),
        (None, None),
    ],
)
def test_draw_step_reads_bills(raw: Any, bills: tuple[int, ...] | None) -> None:
    assert step_spec("draw").build({"bills": raw}, Table.of(FOUR)) == DrawLoot(bills)


@pytest.mark.parametrize("raw", ["abc", "20000,,x", "-5000", "0", "2.5k"])
def test_draw_step_refuses_bad_bills(raw: str) -> None:
    with pytest.raises(InputError) as caught:
        step_spec("draw").build({"bills": raw}, Table.of(FOUR))
    assert caught.value.code == "magot/bad-bills" and repr(raw) in caught.value.message


def test_steps_build_their_commands() -> None:
    table = Table(tuple(FOUR), {"fab": "Fabrice"} | {p: p for p in FOUR[1:]})
    assert step_spec("reveal").build({"force": True}, table) == Reveal(force=True)
    assert step_spec("reveal").build({"force": False}, table) == Reveal()
    # a player is named by their current name; the command holds the seat
    assert step_spec("fold").build({"player": "FABRICE"}, table) == Fold("fab")
    assert step_spec("stay").build({"player": "fabrice"}, table) == Stay("fab")
    assert step_spec("withdraw").build({"player": "Fabrice"}, table) == WithdrawOrder("fab")
    assert step_spec("resolve").build({}, table) == Resolve()
    with pytest.raises(InputError):
        step_spec("fold").build({"player": " "}, table)


def test_explicit_orders() -> None:
    state = GAME.initial_state(FOUR, {})
    commands = GAME.order_from_params(state, "FAB", {"target": "marco", "option": "BANG"})
    assert commands == (SetOrder("fab", "marco", Option.BANG),)
    with pytest.raises(InputError) as caught:
        GAME.order_from_params(state, "fab", {"target": "marco", "option": "pan"})
    assert caught.value.code == "magot/bad-option"


def test_every_event_round_trips_through_the_codec() -> None:
    codec = EventCodec(EVENTS)
    _, log, _ = replay(SCENARIO)
    state = GAME.initial_state(FOUR, {})
    for actor, command in [
        (GM, DrawLoot()),
        ("fab", SetOrder("fab", "tom", Option.BANG)),
        ("fab", WithdrawOrder("fab")),
        (GM, Reveal(force=True)),
        ("fab", Stay("fab")),
    ]:
        state, events = apply(state, actor, command)
        log.extend(events)
    assert {type(e) for e in log} == set(EVENTS)
    for event in log:
        kind, payload = codec.encode(event)
        canonical_json(payload)
        assert codec.decode(kind, json.loads(json.dumps(payload))) == event


def test_scenario_steps_follow_the_file() -> None:
    steps = GAME.scenario(SCENARIO)
    assert steps[:2] == [
        ScenarioStep(where="round 1", step="draw", values={"bills": "20000,10000,5000,5000,5000"}),
        ScenarioStep(where="round 1", actor="fab", text="marco BANG"),
    ]
    assert [s.step or s.actor for s in steps] == [
        "draw",
        "fab",
        "marco",
        "lulu",
        "tom",
        "reveal",
        "fold",
        "resolve",
        "draw",
        "marco",
        "lulu",
        "reveal",
        "resolve",
    ]
    assert steps[5].values == {"force": False} and steps[11].values == {"force": True}
    assert steps[6].values == {"player": "marco"} and steps[8].values == {"bills": None}


@pytest.mark.parametrize(
    ("document", "where"),
    [
        ({"rounds": [{"bill": [5000]}]}, "'bill'"),
        ({"round": []}, "'round'"),
        ({"rounds": [{"bills": ["x"]}]}, "round 1"),
        ({"rounds": [{"orders": ["fab"]}]}, "round 1"),
        ({"rounds": [{"folds": "marco"}]}, "round 1"),
        ({"rounds": [{}, {"force": "yes"}]}, "round 2"),
        ({"rounds": {"bills": []}}, "rounds"),
    ],
)
def test_scenario_refuses_bad_keys_and_values(document: dict[str, Any], where: str) -> None:
    with pytest.raises(InputError) as caught:
        GAME.scenario(document)
    assert where in caught.value.message


def test_scenario_replay_posts_and_summary() -> None:
    state, _, posts = replay(SCENARIO)
    assert posts == [
        PostRef("opening"),
        PostRef("round", (1,)),
        PostRef("reveal", (1,)),
        PostRef("results", (1,)),
        PostRef("round", (2,)),
        PostRef("reveal", (2,)),
        PostRef("results", (2,)),
        PostRef("final"),
    ]
    summary = GAME.summary(state)
    assert "campaign" not in summary
    assert summary["game"] == "magot" and summary["finished"] is True
    first = summary["rounds"][0]
    assert {k: first[k] for k in ("number", "drawn", "pot", "folded", "wounded", "killed")} == {
        "number": 1,
        "drawn": [20000, 10000, 5000, 5000, 5000],
        "pot": 45000,
        "folded": ["marco"],
        "wounded": ["fab"],
        "killed": [],
    }
    assert (first["sharers"], first["share"], first["carry"]) == (["lulu", "tom"], 20000, 5000)
    players = {p["name"]: p for p in summary["players"]}
    assert list(players) == FOUR
    assert set(players["fab"]) >= {"name", "alive", "wounds", "shame", "loot", "score", "rank"}
    assert players["marco"]["shame"] == 1 and players["marco"]["score"] == (
        players["marco"]["loot"] - 5000
    )
    assert summary["winners"] == [
        p["name"] for p in summary["players"] if p["rank"] == 1 and p["alive"]
    ]
    json.dumps(summary)


def test_latest_post_follows_the_phase() -> None:
    state = GAME.initial_state(FOUR, {})
    assert GAME.latest_post(state) == PostRef("opening")
    state, _ = apply(state, GM, DrawLoot())
    assert GAME.latest_post(state) == PostRef("round", (1,))
    state, _ = apply(state, GM, Reveal(force=True))
    assert GAME.latest_post(state) == PostRef("reveal", (1,))
    state, _ = apply(state, GM, Resolve())
    assert GAME.latest_post(state) == PostRef("results", (1,))


def test_public_views_of_a_played_game() -> None:
    state, _, posts = replay(SCENARIO)
    opening = GAME.public_view(state, PostRef("opening"))
    assert opening["players"] == FOUR and opening["rounds"] == 2
    assert opening["loot"] == [
        {"value": 20000, "count": 10},
        {"value": 10000, "count": 15},
        {"value": 5000, "count": 15},
    ]
    assert (opening["loot_total"], opening["loot_bills"], opening["bills_per_round"]) == (
        425000,
        40,
        5,
    )
    round1 = GAME.public_view(state, PostRef("round", (1,)))
    assert (round1["pot"], round1["carried"], round1["drawn"]) == (
        45000,
        [],
        [20000, 10000, 5000, 5000, 5000],
    )
    assert round1["awaiting"] == FOUR and round1["deck_left"] == 35 and round1["manual"]
    round2 = GAME.public_view(state, PostRef("round", (2,)))
    assert round2["carried"] == [5000] and round2["awaiting"] == FOUR

    reveal = GAME.public_view(state, PostRef("reveal", (1,)))
    assert reveal["aims"][0] == {"shooter": "fab", "target": "marco"}
    assert reveal["aimed_at"][0] == {"player": "fab", "shooters": ["marco", "lulu", "tom"]}
    assert GAME.public_view(state, PostRef("reveal", (2,)))["missing"] == ["fab", "tom"]

    results = GAME.public_view(state, PostRef("results", (1,)))
    assert results["folded"] == ["marco"]
    assert results["lowered"] == [{"shooter": "marco", "target": "fab"}]
    assert results["held"] == [{"shooter": "fab", "target": "marco"}]
    assert [(s["shooter"], s["option"], s["volley"]) for s in results["shots"]] == [
        ("lulu", "triple", 1),
        ("tom", "bang", 2),
    ]
    assert results["wounded"] == [{"player": "fab", "taken": 2, "total": 2, "dead": False}]
    assert [s["player"] for s in results["sharers"]] == ["lulu", "tom"]
    assert (results["share"], results["carry"], results["ended"]) == (20000, [5000], False)
    assert [r["player"] for r in results["standings"]][:2] == ["lulu", "tom"]
    assert results["standings"][0]["rank"] == 1

    final = GAME.public_view(state, PostRef("final"))
    assert final["reason"] == "last-round" and final["rounds_played"] == 2
    assert [r["rank"] for r in final["ranking"]] == sorted(r["rank"] for r in final["ranking"])
    assert final["winners"] == [r["player"] for r in final["ranking"] if r["winner"]]

    disclosure = GAME.public_view(state, PostRef("disclosure"))
    first = disclosure["orders"][0]["orders"]
    assert first[1] == {"shooter": "marco", "target": "fab", "option": "click", "fate": "lowered"}
    assert first[0]["fate"] == "held" and first[2]["fate"] == "fired"
    for post in posts:
        json.dumps(GAME.public_view(state, post))


def test_public_views_do_not_change_once_posted() -> None:
    """gm verify re-renders old posts: a view depends only on its round's history."""
    state = GAME.initial_state(FOUR, GAME.configure(FOUR, SCENARIO["options"]))
    seen: dict[PostRef, dict[str, Any]] = {}
    for step in GAME.scenario(SCENARIO):
        if step.text is not None:
            (command,) = GAME.parse(state, step.actor, step.text)
            actor = step.actor
        else:
            assert step.step is not None
            command, actor = step_spec(step.step).build(step.values, Table.of(state.names)), GM
        before = state
        state, events = apply(state, actor, command)
        for post in GAME.posts_after(before, events, state):
            seen[post] = GAME.public_view(state, post)
    for post, view in seen.items():
        assert GAME.public_view(state, post) == view, post


def test_posts_that_do_not_exist_yet() -> None:
    state = GAME.initial_state(FOUR, {})
    with pytest.raises(NotFoundError) as caught:
        GAME.public_view(state, PostRef("results", (1,)))
    assert caught.value.code == "magot/no-such-post"
    with pytest.raises(NotFoundError) as unknown:
        GAME.public_view(state, PostRef("weather"))
    assert unknown.value.code == "magot/unknown-post"
    with pytest.raises(PhaseError) as early:
        GAME.public_view(state, PostRef("disclosure"))
    assert early.value.code == "magot/disclosure-early"
    state, _ = apply(state, GM, DrawLoot())
    with pytest.raises(NotFoundError):
        GAME.public_view(state, PostRef("reveal", (1,)))
    with pytest.raises(NotFoundError):
        GAME.public_view(state, PostRef("final"))


def test_player_view_shows_own_order_and_options() -> None:
    state = GAME.initial_state(FOUR, {})
    state, _ = apply(state, GM, DrawLoot())
    (order,) = GAME.parse(state, "fab", "tom BANG")
    state, _ = apply(state, "fab", order)
    view = GAME.player_view(state, "Fab")
    assert view["player"] == "fab" and view["order"] == {"target": "tom", "option": "bang"}
    assert view["options"] == {"triple": 1, "bang": 2, "click": 5}
    assert view["options_after"] == {"triple": 1, "bang": 1, "click": 5}
    assert (view["alive"], view["wounds"], view["shame"], view["loot"]) == (True, 0, 0, 0)
    assert view["phase_key"] == "round-1/orders" and not view["awaited"]
    assert GAME.player_view(state, "marco")["awaited"]
    assert [r["player"] for r in view["standings"]] == FOUR
    state, _ = apply(state, GM, Reveal(force=True))
    state, _ = apply(state, "fab", Fold("fab"))
    assert GAME.player_view(state, "fab")["choice"] == "fold"
    with pytest.raises(NotFoundError):
        GAME.player_view(state, "bob")
    json.dumps(view)


def test_next_step_hints() -> None:
    state = GAME.initial_state(FOUR, {})
    assert GAME.next_step(state).startswith("gm draw")
    assert GAME.phase(state) == "setup" and GAME.awaiting(state) == ()
    state, _, _ = replay(SCENARIO)
    assert GAME.is_over(state) and GAME.phase(state) == "over"
    with pytest.raises(GMError) as caught:
        GAME.decide(state, GM, DrawLoot(), FortuneDraws("s"))
    assert caught.value.code == "phase/game-over"


def test_summary_before_the_end() -> None:
    state = GAME.initial_state(FOUR, {})
    summary = GAME.summary(state)
    assert summary["finished"] is False and summary["winners"] == [] and summary["rounds"] == []
    assert [p["rank"] for p in summary["players"]] == [1, 1, 1, 1]
    state, _ = apply(state, GM, DrawLoot((20000, 10000, 5000, 5000, 5000)))
    (entry,) = GAME.summary(state)["rounds"]
    assert entry["resolved"] is False and entry["share"] is None and entry["pot"] == 45000


def test_awaiting_names_what_each_player_owes() -> None:
    state = GAME.initial_state(FOUR, {})
    assert GAME.awaiting(state) == () and GAME.waiting_for(state) == ()
    state, _ = apply(state, GM, DrawLoot())
    state, _ = apply(state, "marco", SetOrder("marco", "fab", Option.CLICK))
    assert GAME.awaiting(state) == tuple(
        Awaited(name, "private", "an order") for name in ("fab", "lulu", "tom")
    )
    assert GAME.waiting_for(state) == ("fab", "lulu", "tom")
    state, _ = apply(state, GM, Reveal(force=True))
    state, _ = apply(state, "lulu", Fold("lulu"))
    # the others stay if they say nothing; anyone may still answer by PM
    # until the resolution, so the whole table stays awaited (naming only who
    # has not answered would tell everyone that lulu folded)
    assert GAME.awaiting(state) == tuple(Awaited(name, "choice", "stay or fold") for name in FOUR)
    state, _ = apply(state, GM, Resolve())
    assert GAME.awaiting(state) == ()


def test_shown_seals_every_order_at_the_reveal_and_opens_only_the_live_shots() -> None:
    """The reveal post publishes the seal of every order of its round; the
    results post opens the live shots' orders only (R-5: a lowered, held or
    disabled order keeps its option secret, so its salt too); the disclosure
    opens everything. The other posts show no secret."""
    state, _, _ = replay(SCENARIO)
    assert GAME.shown(state, PostRef("reveal", (1,))) == Shown(
        sealed=tuple(("order", 1, name) for name in FOUR)
    )
    # round 1: marco folded (his order lowered, fab's at him held): lulu and tom fired
    assert GAME.shown(state, PostRef("results", (1,))) == Shown(
        opened=(("order", 1, "lulu"), ("order", 1, "tom"))
    )
    shots = GAME.public_view(state, PostRef("results", (2,)))["shots"]
    assert GAME.shown(state, PostRef("results", (2,))) == Shown(
        opened=tuple(("order", 2, shot["shooter"]) for shot in shots)
    )
    assert GAME.shown(state, PostRef("disclosure")) == Shown(disclose_all=True)
    for post in (PostRef("opening"), PostRef("round", (1,)), PostRef("final")):
        assert GAME.shown(state, post) is NOTHING_SHOWN
    # a results post that does not exist yet opens nothing
    assert GAME.shown(GAME.initial_state(FOUR, {}), PostRef("results", (1,))) is NOTHING_SHOWN


def test_orders_are_keyed_secrets_and_choices_are_private_until_the_results() -> None:
    """An order is a secret keyed by (round, player), which a withdrawal
    unseals; a fold or a stay is its player's alone until the results post
    shows the folds (``RoundResolved``, public)."""
    order = OrderSet(2, "fab", "marco", Option.BANG)
    assert order.sealed and order.secret_key() == ("order", 2, "fab")
    assert OrderWithdrawn(2, "fab").secret_key() == order.secret_key()
    assert order.audience() == OrderWithdrawn(2, "fab").audience() == "fab"
    assert Folded(2, "marco").audience() == "marco"
    assert Stayed(2, "marco").audience() == "marco"
    _, log, _ = replay(SCENARIO)
    private = {OrderSet, OrderWithdrawn, Folded, Stayed}
    for event in log:
        if type(event) not in private:
            assert event.audience() == PUBLIC, event
