"""Nothing secret in any public post: whole random games of Colt Express
through the service layer, driven by the game's own ``legal_inputs`` (the
test id is the seed, so a failure replays exactly), with messages dressed
the way players write them (each with a unique marker word) and refused
messages mixed in.

After every command, every new post is checked against what only the MJ
knows, rebuilt from the log (an oracle independent of the views):

(a) no purse value before the final post (R-7): the values of the purses
    drawn into the cars and moved since are sealed; a post before the end
    names no amount but the 250 $ every bandit starts with and the ransom;
(b) a face-down card is named in no post before the Action turns it over:
    the Plan posts show « carte face cachée » at its place in the pile, and
    its salt is published only by a post made once it resolves;
(c) no hand or deck (« Ta main », the deck's seal's salt) and no salt of a
    deck, of the purses' values or of an instruction before the end;
(d) the seed only in the final post; no private message in any post.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from support import Table, post_parts

from gm.core.protocol import ScenarioStep, post_name
from gm.games.colt import GAME
from gm.service import actions, campaigns, publishing
from gm.service.env import Env
from gm.service.history import timeline

AMOUNT = re.compile(r"(?<![\w`])((?:\d{1,3}[\u202f\u00a0 ])*\d{1,3}) \$")
PURSE_VALUES = {300, 350, 400, 450, 500}
PILE = re.compile(r"(\d+)\. ([^·\n]+?) — (carte face cachée|[^·\n]+?)(?= ·|$)", re.M)
DRESSES = ["{marker} {text}", "salut MJ, {marker}, {text} !", "{text}. Signé {me} ({marker})"]
NAMES = ["ana", "bob", "cleo", "Élodie", "Jean-Paul", "tom"]
GAMES = 5


def play_input(game: Table, item: ScenarioStep) -> None:
    if item.step is not None:
        actions.step(game.env, game.slug, item.step, dict(item.values))
        return
    assert item.text is not None
    dressed = game.rng.choice(DRESSES).format(text=item.text, marker=game.marker(), me=item.actor)
    assert game.send(item.actor, dressed) is None, dressed


def oracle(rows: list[dict[str, Any]], upto: int) -> dict[str, Any]:
    """From the log up to seq ``upto``: face-down plays (round, turn) → card
    and whether they resolved; the salts that must stay hidden."""
    hidden: dict[tuple[int, int], dict[str, Any]] = {}
    pile: dict[int, list[tuple[int, int]]] = {}
    resolved: dict[int, int] = {}
    salts: set[str] = set()
    for row in rows:
        if row["seq"] > upto:
            break
        kind, payload = row["kind"], row["payload"]
        if kind == "colt.card-played":
            pile.setdefault(payload["round"], []).append((payload["round"], payload["turn"]))
        elif kind == "colt.card-hidden":
            hidden[(payload["round"], payload["turn"])] = {
                "card": payload["card"],
                "salt": row["salt"],
            }
        elif kind == "colt.card-resolved":
            resolved[payload["round"]] = payload["step"]
        elif kind in (
            "colt.deck-dealt",
            "colt.loot-placed",
            "colt.purse-moved",
            "colt.instruction-given",
        ):
            salts.add(row["salt"])
    for key, info in hidden.items():
        r = key[0]
        place = pile[r].index(key) + 1
        info["turned"] = place <= resolved.get(r, 0) + 1  # resolved, or resolving now
        if not info["turned"]:
            salts.add(info["salt"])
    return {"hidden": hidden, "salts": salts, "pile": pile}


def check_posts(game: Table, checked: set[int]) -> None:
    posts = [p for p in game.env.store.posts(game.slug) if p.number not in checked]
    rows = timeline(game.env, game.slug) if posts else []
    for post in posts:
        checked.add(post.number)
        # its words; what its proof publishes is searched too, decoded
        body, proof = post_parts(post.body)
        where = f"post {post.number} ({post_name(post.kind, post.at)}):\n{body}\n{proof}"
        seen = oracle(rows, post.at_seq)
        if post.kind != "final":
            # (a) no purse value: only the 250 $ of the start and the ransom
            for amount in AMOUNT.findall(body):
                value = int(re.sub(r"\D", "", amount))
                assert value not in PURSE_VALUES, (amount, where)
            assert game.seed not in body and game.seed not in proof, where
        else:
            assert f"`{game.seed}`" in body, where
        # (b) face-down cards: hidden in the Plan posts' pile until turned over
        if post.kind == "plan":
            round_ = post.at[0]
            line = body.split("La pile", 1)[1].split("\n")[0]
            for place, _player, shown in PILE.findall(line):
                key = seen["pile"][round_][int(place) - 1]
                if key in seen["hidden"]:
                    assert shown == "carte face cachée", (place, where)
        # (b, c) no salt of a secret still hidden; no hand
        for salt in seen["salts"] if post.kind != "final" else ():  # the end discloses all
            assert salt not in body and salt not in proof, (salt, where)
        assert "Ta main" not in body, where
        # (d) nothing of any private message
        for marker in game.markers:
            assert marker not in body and marker not in proof, where


def play(seed: int, db: str) -> Table:
    rng = random.Random(seed)
    env = Env(db=db)
    players = rng.sample(NAMES, rng.randint(3, 6))
    secret = f"graine-secrète-{seed}-{rng.randrange(10**9)}"
    created = campaigns.create(env, "colt", f"Train {seed}", players, seed=secret)
    game = Table(rng, env, created.campaign.slug, secret)
    checked: set[int] = set()
    steps = 0
    while not GAME.is_over(game.state):
        inputs = GAME.legal_inputs(game.state)
        mj = [i for i in inputs if i.step is not None]
        messages = [i for i in inputs if i.step is None]
        if messages and rng.random() < 0.05:
            before = game.state
            assert game.send(rng.choice(messages).actor, f"bof {game.marker()}") is not None
            assert game.state == before
        if mj and (not messages or rng.random() < 0.15):
            item = rng.choice(mj)
        else:
            item = rng.choice(messages)
        play_input(game, item)
        check_posts(game, checked)
        steps += 1
        assert steps < 3000
    return game


@pytest.mark.parametrize("seed", range(GAMES))
def test_no_secret_reaches_a_public_post(seed: int, db: str) -> None:
    game = play(seed, db)
    posts = game.env.store.posts(game.slug)
    assert posts[-1].kind == "final" and sum(p.kind == "final" for p in posts) == 1
    final = posts[-1].body
    state = game.state
    for b in state.bandits:  # the final post shows every purse's value
        for value in b.purses:
            assert f"{value:,}".replace(",", "\u202f") in final or str(value) in final
    assert publishing.find_post(game.env, game.slug, "rules", None).body
