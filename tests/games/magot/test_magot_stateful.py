"""Random legal and illegal play, holding the engine to the rules page's invariants:
money is conserved, no option is spent twice, a rejected command changes
nothing, the fold of the log is the state, every event survives the codec,
and nothing secret reaches a public view."""

from __future__ import annotations

import functools
import json
import random
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from gm.core.canonical import canonical_json
from gm.core.codec import EventCodec
from gm.core.fortune import FortuneDraws
from gm.core.protocol import GM, Command, Event, PostRef
from gm.errors import GMError
from gm.games.magot import GAME
from gm.games.magot.commands import DrawLoot, Fold, Resolve, Reveal, SetOrder, Stay, WithdrawOrder
from gm.games.magot.events import EVENTS
from gm.games.magot.model import INITIAL_STOCK, OPTIONS, Option, Order, RoundRecord, State
from gm.games.magot.notation import format_order

NAMES = ["fab", "Élodie", "Jean-Paul", "le grand blond", "a", "marco"]
OPTION_VALUES = {str(o) for o in Option}
CODEC = EventCodec(EVENTS)


def live_shots(record: RoundRecord) -> list[tuple[str, str]]:
    """(shooter, option) of the orders whose option a results post may show,
    recomputed from the private orders (an oracle independent of the views)."""
    assert record.resolution is not None
    folded = set(record.resolution.folded)
    live = [(s, o) for s, o in record.orders if s not in folded and o.target not in folded]
    surprised = {o.target for _, o in live if o.option is Option.TRIPLE}
    return [(s, str(o.option)) for s, o in live if o.option is Option.TRIPLE or s not in surprised]


def option_mentions(value: Any, key: str | None = None) -> list[tuple[str | None, Any]]:
    """Every (key, enclosing dict) where an option's name appears as a value."""
    found: list[tuple[str | None, Any]] = []
    if isinstance(value, dict):
        for k, v in value.items():
            if isinstance(v, str) and v in OPTION_VALUES:
                found.append((k, value))
            else:
                found.extend(option_mentions(v, k))
    elif isinstance(value, list | tuple):
        for v in value:
            if isinstance(v, str) and v in OPTION_VALUES:
                found.append((key, None))
            else:
                found.extend(option_mentions(v, key))
    return found


def posts_available(state: State) -> list[PostRef]:
    posts = [PostRef("opening")]
    for record in state.history:
        posts.append(PostRef("round", (record.number,)))
        if record.revealed:
            posts.append(PostRef("reveal", (record.number,)))
        if record.resolution is not None:
            posts.append(PostRef("results", (record.number,)))
    if GAME.is_over(state):
        posts += [PostRef("final"), PostRef("disclosure")]
    return posts


class MagotGames(RuleBasedStateMachine):
    state: State
    initial: State
    events: list[Event]
    drawn: set[str]

    @initialize(data=st.data())
    def setup(self, data: st.DataObject) -> None:
        players = NAMES[: data.draw(st.integers(3, len(NAMES)), label="players")]
        loot = data.draw(
            st.dictionaries(
                st.sampled_from(["1000", "2000", "5000", "7000", "20000"]),
                st.integers(1, 6),
                min_size=1,
            ),
            label="loot",
        )
        rounds = data.draw(st.integers(1, 8), label="rounds")
        options = GAME.configure(players, {"rounds": rounds, "loot": loot})
        self.initial = self.state = GAME.initial_state(players, options)
        self.events = []
        self.drawn = set()

    # --- commands ---------------------------------------------------------------

    def attempt(self, actor: str, command: Command) -> bool:
        before = self.state
        snapshot = repr(before)
        draws = FortuneDraws("stateful", drawn=self.drawn)
        try:
            events = GAME.decide(self.state, actor, command, draws)
        except GMError as error:
            assert error.code and error.message
            assert error.code != "fortune/drawn", error.message  # a purpose is drawn once
            assert self.state is before and repr(self.state) == snapshot
            return False
        for event in events:
            kind, payload = CODEC.encode(event)
            canonical_json(payload)
            assert CODEC.decode(kind, json.loads(json.dumps(payload))) == event
            self.state = GAME.evolve(self.state, event)
        self.events.extend(events)
        self.drawn.update(draws.opened)
        return True

    def anyone(self, data: st.DataObject, label: str) -> str:
        return data.draw(st.sampled_from([*self.state.names, GM]), label=label)

    @rule(data=st.data())
    def draw(self, data: st.DataObject) -> None:
        deck = list(self.state.deck)
        if data.draw(st.booleans(), label="manual") and deck:
            size = min(5, len(deck)) + data.draw(st.sampled_from([0, 0, 0, -1, 1]), label="off")
            bills = data.draw(st.permutations(deck), label="bills")[: max(0, size)]
            self.attempt(GM, DrawLoot(tuple(bills)))
        else:
            self.attempt(self.anyone(data, "actor") if data.draw(st.booleans()) else GM, DrawLoot())

    @rule(data=st.data())
    def order(self, data: st.DataObject) -> None:
        actor = self.anyone(data, "actor")
        player = actor if actor != GM else data.draw(st.sampled_from(self.state.names))
        target = data.draw(st.sampled_from(self.state.names), label="target")
        option = data.draw(st.sampled_from(list(Option)), label="option")
        if actor != GM and data.draw(st.booleans(), label="as text"):
            noise = data.draw(st.sampled_from(["", "Je braque ", "salut MJ ! "]))
            try:
                (command,) = GAME.parse(
                    self.state, actor, noise + format_order(Order(target, option))
                )
            except GMError:
                return
            self.attempt(actor, command)
        else:
            self.attempt(actor, SetOrder(player, target, option))

    @rule(data=st.data())
    def withdraw(self, data: st.DataObject) -> None:
        self.attempt(GM, WithdrawOrder(data.draw(st.sampled_from(self.state.names))))

    @rule(force=st.booleans())
    def reveal(self, force: bool) -> None:
        self.attempt(GM, Reveal(force=force))

    @rule(data=st.data())
    def choose(self, data: st.DataObject) -> None:
        player = data.draw(st.sampled_from(self.state.names), label="player")
        text = data.draw(st.sampled_from(["je me couche", "j'en ai une paire", None]))
        if text is not None:
            try:
                (command,) = GAME.parse(self.state, player, text)
            except GMError:
                return
        else:
            command = data.draw(st.sampled_from([Fold(player), Stay(player)]))
        self.attempt(self.anyone(data, "actor"), command)

    @rule()
    def resolve(self) -> None:
        self.attempt(GM, Resolve())

    @rule(data=st.data())
    def legal_order(self, data: st.DataObject) -> None:
        """A legal order when there is one (random orders are mostly refused)."""
        living = self.state.living
        shooter = data.draw(st.sampled_from(living), label="shooter")
        targets = [n for n in living if n != shooter]
        options = [o for o in Option if self.state.player(shooter).remaining(o)]
        if targets and options:
            # focusing on one victim half of the time brings deaths and endings
            focus = data.draw(st.booleans(), label="focus")
            target = targets[0] if focus else data.draw(st.sampled_from(targets), label="target")
            option = data.draw(st.sampled_from(options), label="option")
            self.attempt(shooter, SetOrder(shooter, target, option))

    @rule(data=st.data())
    def whole_round(self, data: st.DataObject) -> None:
        """A whole legal round: draw, orders (some missing), reveal, choices, resolve."""
        if not self.attempt(GM, DrawLoot()):
            return
        for _ in self.state.living:
            if data.draw(st.integers(0, 9), label="send") > 0:
                self.legal_order(data)
        self.attempt(GM, Reveal(force=True))
        for name in self.state.living:
            if data.draw(st.integers(0, 3), label="fold") == 0:
                self.attempt(name, Fold(name))
        self.attempt(GM, Resolve())

    # --- invariants ------------------------------------------------------------

    @invariant()
    def money_is_conserved(self) -> None:
        check_money(self.state)

    @invariant()
    def options_are_spent_once_at_most_one_a_round(self) -> None:
        check_options(self.state)

    @invariant()
    def the_fold_of_the_log_is_the_state(self) -> None:
        assert functools.reduce(GAME.evolve, self.events, self.initial) == self.state

    @invariant()
    def public_views_hold_no_secret(self) -> None:
        check_views(self.state)


def check_money(state: State) -> None:
    held = sum(g.loot for g in state.players)
    assert sum(state.deck) + sum(state.pot) + held == state.initial_loot


def check_options(state: State) -> None:
    used: Counter[tuple[str, Option]] = Counter()
    for record in state.history:
        if record.resolution is None:
            continue
        shooters = [s for s, _ in record.orders]
        assert len(shooters) == len(set(shooters))
        used.update((s, o.option) for s, o in record.orders)
    for g in state.players:
        for option, left in zip(OPTIONS, g.left, strict=True):
            assert left >= 0
            assert INITIAL_STOCK[option] - left == used[(g.name, option)]


def check_views(state: State) -> None:
    for post in posts_available(state):
        view = GAME.public_view(state, post)
        json.dumps(view)
        mentions = option_mentions(view)
        if post.kind == "disclosure":
            continue
        if post.kind != "results":
            assert not mentions, (post, mentions)
            continue
        assert post.round is not None
        shown = [(d["shooter"], d["option"]) for k, d in mentions if k == "option" and d]
        assert len(shown) == len(mentions), mentions
        assert sorted(shown) == sorted(live_shots(state.record(post.round)))
        assert all(d in view["shots"] for _, d in mentions)
    summary = GAME.summary(state)
    json.dumps(summary)
    assert not option_mentions(summary)
    for name in state.names:
        json.dumps(GAME.player_view(state, name))


MagotGames.TestCase.settings = settings(
    max_examples=100,
    stateful_step_count=50,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
test_magot_games = MagotGames.TestCase


def seeded_game(seed: int) -> tuple[State, State, list[Event]]:
    """A whole game to its end, with choices from a seeded generator."""
    rng = random.Random(seed)
    players = NAMES[: rng.randint(3, len(NAMES))]
    loot = rng.choice([{}, {"loot": "5000:3,10000:3"}, {"loot": "1000:9,3000:4,7000:2"}])
    initial = state = GAME.initial_state(players, GAME.configure(players, loot))
    events: list[Event] = []
    drawn: set[str] = set()

    def act(actor: str, command: Command) -> None:
        nonlocal state
        draws = FortuneDraws(str(seed), drawn=drawn)
        try:
            new = GAME.decide(state, actor, command, draws)
        except GMError as error:
            assert error.code != "fortune/drawn", error.message
            return
        drawn.update(draws.opened)
        events.extend(new)
        state = functools.reduce(GAME.evolve, new, state)

    while not GAME.is_over(state):
        act(GM, DrawLoot())
        victim = rng.choice(state.living)
        for shooter in state.living:
            left: list[Option] = [o for o in Option if state.player(shooter).remaining(o)]
            bullets: list[Option] = [o for o in left if o is not Option.CLICK] or left
            target = rng.choice([n for n in state.living if n != shooter])
            if victim != shooter and rng.random() < 0.6:
                target, left = victim, bullets  # a gang-up: deaths and early endings
            if rng.random() < 0.9:
                act(shooter, SetOrder(shooter, target, rng.choice(left)))
        act(GM, Reveal(force=True))
        for name in state.living:
            if rng.random() < 0.2:
                act(name, Fold(name))
        act(GM, Resolve())
        check_money(state)
        check_options(state)
    return initial, state, events


def test_long_seeded_games_keep_the_invariants() -> None:
    """Whole games to their end: deeper than the state machine's short runs."""
    endings: Counter[str] = Counter()
    deaths = 0
    for seed in range(40):
        initial, state, events = seeded_game(seed)
        check_views(state)
        assert functools.reduce(GAME.evolve, events, initial) == state
        endings[str(state.end_reason)] += 1
        deaths += sum(not g.alive for g in state.players)
    assert len(endings) >= 2 and deaths > 10, (endings, deaths)
