"""Nothing secret in any public post of Rattlesnake City: whole random games
through the service layer, driven by the game's own ``legal_inputs`` (the
test id is the seed, so a failure replays exactly), with messages dressed
the way players write them (each with a unique marker word) and refused
messages mixed in.

After every command, every new post is checked against what only the MJ
and each player know, taken from the state when the post was made and
from the log (an oracle independent of the templates):

(a) no player's cash, hand or shot cards in a public post before the final
    one: none of the private status's lines (« Ton argent », « Ta main »,
    « Tes cartes coups »), and the public view a post is rendered from
    holds no cash and only counts of hands and shot cards;
(b) no salt of a private event (the hands dealt, the bag's and the decks'
    orders, the cards drawn) before the final post, which discloses them;
(c) the seed only in the final post; no private message in any post.

And a player's private reply (``gm pm``) shows their own cash, hand and
shot cards, and nobody else's.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from support import Table, post_parts

from gm.core.protocol import PostRef, ScenarioStep, post_name
from gm.games.rattlesnake import GAME
from gm.games.rattlesnake.cards import label
from gm.service import actions, campaigns, publishing
from gm.service.env import Env
from gm.service.history import timeline

DRESSES = ["{marker} {text}", "{text} ({marker})", "{text}. Signé {me} ({marker})"]
NAMES = ["ana", "bob", "cleo", "Élodie", "Jean-Paul", "tom"]
GAMES = 3
MAX_STEPS = 250
"""Commands per game: enough for many turns, saloons, bank attacks and trades;
the whole game to its end would take too long for CI (the invariants test
plays some to the end on the pure rules)."""
PRIVATE_LINES = ("Ton argent", "Ta main", "Tes cartes coups", "Aucune carte coups")
PRIVATE_KINDS = (
    "rattlesnake.hand-dealt",
    "rattlesnake.bag-filled",
    "rattlesnake.deck-shuffled",
    "rattlesnake.action-drawn",
    "rattlesnake.shots-drawn",
)


def play_input(game: Table, item: ScenarioStep) -> None:
    if item.step is not None:
        actions.step(game.env, game.slug, item.step, dict(item.values))
        return
    assert item.text is not None and item.actor is not None
    dressed = game.rng.choice(DRESSES).format(text=item.text, marker=game.marker(), me=item.actor)
    assert game.send(item.actor, dressed) is None, dressed


def no_secret_in_view(value: Any, where: str) -> None:
    """A public view holds no cash, and only counts of hands and shot cards."""
    if isinstance(value, dict):
        assert "cash" not in value, where
        for key in ("hand", "shots"):
            if key in value:
                assert isinstance(value[key], int), (key, where)
        for item in value.values():
            no_secret_in_view(item, where)
    elif isinstance(value, list):
        for item in value:
            no_secret_in_view(item, where)


def check_posts(game: Table, checked: set[int]) -> None:
    posts = [p for p in game.env.store.posts(game.slug) if p.number not in checked]
    rows = timeline(game.env, game.slug) if posts else []
    state = game.state
    for post in posts:
        checked.add(post.number)
        # its words; what its proof publishes is searched too, decoded
        body, proof = post_parts(post.body)
        where = f"post {post.number} ({post_name(post.kind, post.at)}):\n{body}\n{proof}"
        if post.kind == "final":
            assert f"`{game.seed}`" in body, where
            continue
        assert game.seed not in body and game.seed not in proof, where
        for line in PRIVATE_LINES:
            assert line not in body, (line, where)
        salts = {
            r["salt"]
            for r in rows
            if r["seq"] <= post.at_seq and r["kind"] in PRIVATE_KINDS and r.get("salt")
        }
        for salt in salts:
            assert salt not in body and salt not in proof, (salt, where)
        for marker in game.markers:
            assert marker not in body and marker not in proof, where
        # the view of the newest post, from the state now (same shape at any time)
        no_secret_in_view(GAME.public_view(state, PostRef(post.kind, post.at)), where)


def check_private(game: Table) -> None:
    """Each player's status shows their own cash, hand and shots only."""
    state = game.state
    for player in state.players:
        text = publishing.private_status(game.env, game.slug, player)
        cash = f"{state.cash_of(player):,}".replace(",", "\u202f")
        money = re.search(r"Ton argent\s*:\s*\*\*([^*]+)\*\*", text)
        assert money is not None, text
        assert re.sub(r"\D", "", money.group(1)) == re.sub(r"\D", "", cash), text
        hand = state.hand_of(player)
        if hand:
            shown = re.search(r"Ta main\s*:\s*(.*)\.[ ]*\n", text)
            assert shown is not None, text
            assert sorted(shown.group(1).split(", ")) == sorted(label(c) for c in hand), text
        else:
            assert "Ta main est vide" in text
        shots = state.shots_of(player)
        if shots:
            line = re.search(r"Tes cartes coups, par leurs cartouches\s*:\s*([\d, ]+)\.", text)
            assert line is not None, text
            assert sorted(int(s) for s in line.group(1).split(", ")) == sorted(shots), text
        for other in state.players:
            if other != player:
                assert f"{other}, ta situation" not in text


def play(seed: int, db: str) -> Table:
    rng = random.Random(seed)
    env = Env(db=db)
    players = rng.sample(NAMES, rng.randint(2, 6))
    secret = f"graine-secrète-{seed}-{rng.randrange(10**9)}"
    created = campaigns.create(env, "rattlesnake", f"Vallée {seed}", players, seed=secret)
    game = Table(rng, env, created.campaign.slug, secret)
    checked: set[int] = set()
    for steps in range(MAX_STEPS):
        if GAME.is_over(game.state):
            break
        inputs = GAME.legal_inputs(game.state)
        mj = [i for i in inputs if i.step is not None]
        messages = [i for i in inputs if i.step is None]
        # (in a combat any text without a shot is « passe »: nothing is refused there)
        if messages and game.state.combat is None and rng.random() < 0.05:
            before = game.state
            assert game.send(rng.choice(messages).actor or "", f"bof {game.marker()}") is not None
            assert game.state == before
        # « fin » less often, so that turns hold divers, trades and attacks
        ends = [i for i in messages if i.text == "fin"]
        others = [i for i in messages if i.text != "fin"]
        if mj and (not messages or rng.random() < 0.1):
            item = rng.choice(mj)
        elif others and (not ends or rng.random() < 0.5):
            item = rng.choice(others)
        else:
            item = rng.choice(messages)
        play_input(game, item)
        check_posts(game, checked)
        if steps % 25 == 0:
            check_private(game)
    check_private(game)
    return game


@pytest.mark.parametrize("seed", range(GAMES))
def test_no_secret_reaches_a_public_post(seed: int, db: str) -> None:
    game = play(seed, db)
    posts = game.env.store.posts(game.slug)
    assert any(p.kind == "turn" for p in posts)
    assert publishing.find_post(game.env, game.slug, "rules", None).body


def test_the_final_post_discloses_every_fortune(db: str) -> None:
    rng = random.Random(99)
    env = Env(db=db)
    created = campaigns.create(env, "rattlesnake", "Fin", ["ana", "bob"], seed="graine-fin")
    game = Table(rng, env, created.campaign.slug, "graine-fin")
    actions.step(env, game.slug, "setup", {})
    while not GAME.is_over(game.state):
        actions.default(env, game.slug, GAME.awaiting(game.state)[0].player)
    final = game.env.store.posts(game.slug)[-1]
    assert final.kind == "final"
    packed = re.sub(r"\s", "", final.body)  # amounts are written « 59 000 $ »
    for player in game.state.players:
        assert f"|{game.state.cash_of(player)}$|" in packed, final.body
