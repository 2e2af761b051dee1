"""Every registered game passes the platform's conformance checks.

Random games, driven only by ``Game.legal_inputs`` (no knowledge of any
game), are played through the service layer, exactly as the CLI plays them.
Each player message carries a unique marker word (``zorglub…``), and now and
then a player sends a message no game accepts. After every command:

* every input ``legal_inputs`` offered was accepted; a refused message
  changed nothing but the log's refusal record;
* the state folded incrementally is the state folded from the whole log;
* no public post holds the seed before the game is over, nor any private
  message, accepted or refused (its marker);
* the players' private replies (``gm pm``, ``gm remind``'s nudges) render in
  every phase.

At the end of each game: the seed is in a post made at the end (and only
its SHA-256 before, in the opening post); the salt of a private event
appears only in a post that, by its game's ``shown``, opens that secret, or
in the end-of-game disclosure; every secret a post opens re-seals to the
seal its owner was given; ``gm verify`` passes; and across the games every
public template of the game was rendered.

What a game's *own* secrets are (Le Magot's options, Fistful's hands) only
the game knows: each game brings its own secrecy oracle
(``tests/games/<id>/test_<id>_posts_secrecy.py``), and the last test here
checks that none is missing.
"""

from __future__ import annotations

import json
import random
import string
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

import pytest
from game_dists import installed
from support import Table

from gm import games
from gm.core.canonical import seal
from gm.core.protocol import PUBLIC, Game, PostRef, ScenarioStep
from gm.errors import GMError, InputError
from gm.render.engine import TEMPLATE_SUFFIX, game_templates_dir, templates_dir
from gm.service import actions, audit, campaigns, publishing
from gm.service.actions import Result
from gm.service.env import Env
from gm.service.loading import extend, fold
from gm.service.posts import public_context

ROOT = Path(__file__).resolve().parents[2]
NAMES = ["ana", "bob", "fab", "marco", "lulu", "Élodie", "Jean-Paul", "tom"]
SEEDS = range(4)
SEEDS_OF = {"rattlesnake": range(2)}
"""Fewer random games where one game is long (Rattlesnake City: 66 tiles)."""
MAX_INPUTS = 2000
REPLIES_EVERY = 8
"""After its first two times, a phase's private replies are checked one time in this many."""
PRIVATE_TEMPLATES = {
    "order_received",
    "order_rejected",
    "pm",
    "nudge",
    "word_received",
    "word_kept",  # added to a refusal whose message also brought a word
    "history",  # a player's own archive (gm history --as PLAYER)
}
"""Templates addressed to one player; every other one is a public post."""
NOBODY_ACCEPTS = "n'importe quoi, je sais pas"


@dataclass
class Playthrough(Table):
    """One random game of any game, and everything private that was sent in it."""

    seen_posts: int = 0
    inputs: int = 0

    @cached_property
    def game(self) -> Game:
        return games.load(self.env.store.campaign(self.slug).game)

    def marker(self) -> str:
        # letters only: a number in a message could be read as a card
        word = "zorglub" + "".join(self.rng.choice(string.ascii_lowercase) for _ in range(8))
        self.markers.append(word)
        return word


def feed(play: Playthrough, item: ScenarioStep) -> Result:
    """Feed one input as the CLI would; a player's message gets its marker."""
    if item.step is not None:
        return actions.step(play.env, play.slug, item.step, item.values)
    if play.rng.random() < 0.05:  # now and then, a word for the fortune (public) with it
        word = "mot" + "".join(play.rng.choice(string.ascii_lowercase) for _ in range(6))
        text = f"{item.text} {play.marker()}\ngraine : {word}"
        play.texts.append(text)
        return actions.submit(play.env, play.slug, item.actor, text)
    text = f"{item.text} {play.marker()}"
    play.texts.append(text)
    return actions.submit(play.env, play.slug, item.actor, text)


def choose(play: Playthrough, inputs: Sequence[ScenarioStep], in_phase: int, patience: int) -> Any:
    """A random input; once the phase has lasted ``patience`` inputs, the step
    that moves the game on (``legal_inputs`` lists it last) when there is one."""
    messages = [i for i in inputs if i.step is None]
    steps = [i for i in inputs if i.step is not None]
    if steps and (in_phase >= patience or not messages):
        return steps[-1] if in_phase >= patience else play.rng.choice(steps)
    if steps and play.rng.random() < 0.3:
        return play.rng.choice(steps)
    return play.rng.choice(messages)


def refused_message(play: Playthrough, player: str) -> None:
    """A message no game can read: refused, logged, and nothing else changes."""
    before = actions.load(play.env, play.slug)
    text = f"{NOBODY_ACCEPTS} {play.marker()}"
    play.texts.append(text)
    with pytest.raises(GMError) as refused:
        actions.submit(play.env, play.slug, player, text)
    assert not isinstance(refused.value, InputError), refused.value
    after = actions.load(play.env, play.slug)
    assert after.state == before.state
    assert [r.kind for r in after.records[len(before.records) :]] == ["gm.submission-rejected"]


def check_new_posts(play: Playthrough, over: bool) -> None:
    """Posts stored since the last check: no seed before the end, no private text."""
    posts = play.env.store.posts(play.slug, after=play.seen_posts)
    for post in posts:
        where = f"{play.game.id} post {post.number} ({post.kind} {post.at}):\n{post.body}"
        if not over:
            assert play.seed not in post.body, where
        for marker in play.markers:
            assert marker not in post.body, where
        play.seen_posts = post.number


def check_private_replies(play: Playthrough) -> None:
    campaign = actions.load(play.env, play.slug)
    for player in campaign.meta.players:
        assert publishing.private_status(play.env, play.slug, player).strip()
    reminder = publishing.remind(play.env, play.slug)
    assert set(reminder.nudges) == set(campaign.game.waiting_for(campaign.state))
    for marker in play.markers:
        assert marker not in reminder.public


def play_game(game_id: str, seed: int, db: str, templates: Path | None = None) -> Playthrough:
    rng = random.Random(f"{game_id}/{seed}")
    game = games.load(game_id)
    count = rng.randint(game.min_players, min(game.max_players, 6))
    players = rng.sample(NAMES, count)
    secret = f"graine-{game_id}-{seed}-{rng.randrange(10**9)}"
    env = Env(db=db, templates=templates)
    created = campaigns.create(env, game_id, f"Conformité {seed}", players, seed=secret)
    play = Playthrough(rng, env, created.campaign.slug, secret)
    opening = env.store.posts(play.slug)[0].body
    assert created.campaign.meta.commitment in opening
    phase, in_phase, patience = None, 0, rng.randint(2, 12)
    changes: Counter[str] = Counter()
    campaign = actions.load(env, play.slug)
    while True:
        if game.is_over(campaign.state):
            break
        assert play.inputs < MAX_INPUTS, f"{game_id}: no end after {MAX_INPUTS} inputs"
        now = game.phase(campaign.state)
        if now != phase:
            phase, in_phase, patience = now, 0, rng.randint(2, 12)
            # Every phase's private replies, each time it comes while it is
            # new, then one time in REPLIES_EVERY (a long game changes phase
            # at almost every input: checking all would be most of its time)
            changes[now] += 1
            if changes[now] <= 2 or changes[now] % REPLIES_EVERY == 0:
                check_private_replies(play)
        inputs = game.legal_inputs(campaign.state)
        assert inputs, f"{game_id}: nothing to do at {now!r}, yet the game is not over"
        if rng.random() < 0.05:
            refused_message(play, rng.choice(campaign.meta.players))
        item = choose(play, inputs, in_phase, patience)
        try:
            result = feed(play, item)
        except GMError as err:
            pytest.fail(f"{game_id} at {now!r}: legal input {item} was refused: {err}")
        play.inputs += 1
        in_phase += 1
        campaign = actions.load(env, play.slug)
        assert result.campaign.state == campaign.state, (now, item)
        check_new_posts(play, game.is_over(campaign.state))
    check_private_replies(play)
    for kind in ("rules", "disclosure"):  # on demand: the MJ posts the disclosure last
        if game.info.post_kind(kind) is not None:
            publishing.find_post(env, play.slug, kind, None)
    check_new_posts(play, True)
    return play


def check_salts_and_seed(play: Playthrough) -> None:
    """Salts only where the game's view unseals an order (or in the disclosure);
    the seed only once the game is over; no private message. Checked in what
    each post's template *received* (its whole context), not only in what the
    shipped template printed: an MJ's own template can print anything it gets."""
    env, slug, game = play.env, play.slug, play.game
    records = env.store.events(slug)
    by_salt = {r.salt: r for r in records}
    private = {r.salt: r for r in records if r.audience != PUBLIC}
    revealed_seed = False
    campaign, folded = None, 0
    for post in env.store.posts(slug):
        # each post's campaign as it was then: folded on from the previous post's
        campaign = (
            fold(slug, game.id, records[: post.at_seq])
            if campaign is None or post.at_seq < folded
            else extend(campaign, records[folded : post.at_seq])
        )
        folded = post.at_seq
        over = game.is_over(campaign.state)
        revealed_seed |= over and play.seed in post.body
        allowed: set[str] = set()
        received = post.body
        if post.kind in _game_posts(game.id, env.templates):
            ref = PostRef(post.kind, post.at)
            context = public_context(campaign, ref, campaign.head)
            shown = game.shown(campaign.state, ref)
            keys = set(shown.opened) | (set(campaign.secrets) if shown.disclose_all else set())
            allowed = {campaign.secrets[k].record.salt for k in keys if k in campaign.secrets}
            for entry in context["opened"] + context["disclosed"]:
                record = by_salt[entry["salt"]]
                assert entry["seal"] == seal(record.kind, record.payload, record.salt)
            received = json.dumps(context, ensure_ascii=False, default=str)
        where = f"{game.id} post {post.number} ({post.kind})"
        if not over:
            assert play.seed not in received, f"{where} receives the seed before the end"
        for marker in play.markers:
            assert marker not in received, f"{where} receives a private message ({marker})"
        for salt, record in private.items():
            if salt in received or salt in post.body:
                assert salt in allowed, (
                    f"{where} receives the salt of seq {record.seq} ({record.kind},"
                    f" for {record.audience}), which it does not open"
                )
    assert revealed_seed, f"{game.id}: no post made at the end reveals the seed"


def _public_kinds(folder: Path | None) -> set[str]:
    """The public post kinds of a templates folder (``<folder>/fr/*.md.j2``)."""
    if folder is None:
        return set()
    names = (p.name for p in (folder / "fr").glob(f"*{TEMPLATE_SUFFIX}"))
    kinds = {n.removesuffix(TEMPLATE_SUFFIX) for n in names if not n.startswith("_")}
    return kinds - PRIVATE_TEMPLATES


def _game_posts(game_id: str, override: Path | None = None) -> set[str]:
    """The game's public post kinds: in the MJ's folder if given, else in its package."""
    return _public_kinds(override / game_id if override else game_templates_dir(game_id))


@pytest.mark.parametrize("game_id", games.ids())
def test_random_games_keep_every_platform_guarantee(game_id: str, db: str) -> None:
    check_games(game_id, db)


def test_the_platform_test_game_keeps_them_too(db: str) -> None:
    """« Pile ou face » (tests/games_dist/toss, installed as a distribution of
    its own): several secrets per player per round, turn order, robberies
    while the round resolves, fortune defaults."""
    with installed("toss"):
        check_games("toss", db)


def check_games(game_id: str, db: str, templates: Path | None = None) -> None:
    kinds: set[str] = set()
    for seed in SEEDS_OF.get(game_id, SEEDS):
        play = play_game(game_id, seed, db, templates)
        check_salts_and_seed(play)
        assert audit.verify(play.env, play.slug) == audit.Verdict()
        logged = " ".join(r.payload_json for r in play.env.store.events(play.slug))
        assert all(marker in logged for marker in play.markers)  # every message is on file
        kinds |= {p.kind for p in play.env.store.posts(play.slug)}
        kinds.add("remind")  # rendered after every phase change
    # Every public template of the game was rendered (roll: tests/cli/test_roll.py).
    assert _game_posts(game_id, templates) <= kinds, _game_posts(game_id, templates) - kinds
    # (proof: the end of every post of protocol 4, rendered with each)
    assert _public_kinds(templates_dir()) - {"roll", "deadline", "roster", "proof"} <= kinds


def test_every_game_brings_its_own_secrecy_oracle() -> None:
    for game_id in games.ids():
        oracle = ROOT / "tests" / "games" / game_id / f"test_{game_id}_posts_secrecy.py"
        assert oracle.is_file(), f"{game_id} has no secrecy test at {oracle.relative_to(ROOT)}"
