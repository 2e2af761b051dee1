"""Nothing secret in any public post: whole random games through the service layer.

Each game is driven by a seeded ``random.Random`` (the test id is the seed,
so a failure replays exactly): random players and number of rounds, orders
pasted as free text in many spellings (each carrying a unique marker word
such as ``zorglub123456``, which the parser must tolerate as an extra word),
explicit orders, replaced and withdrawn orders, refused orders (spent
option, dead target, aiming at oneself), missing orders revealed with
``force``, folds and stays recorded by the MJ or pasted by the player and
changed before the resolution.

After every round the archived posts (``env.store.posts``) are checked
against what only the MJ knows, rebuilt from the log's private events
(``OrderSet``, ``OrderWithdrawn``, ``Folded``, ``Stayed``), an oracle
independent of the engine's resolution:

(a) round and reveal posts hold no option word at all;
(b) a results post shows exactly the live shots with their options (R-5:
    lowered, held and disabled orders never show theirs), and no option
    word anywhere else;
(c) the seed appears in no public post before the final one, and in it;
(d) no private message, accepted or refused, reaches a public post;
(e) each player's history (``gm history --as``) holds no other player's
    secret: their orders, their folds and stays (private until the results),
    their messages and the commands they sent; checked while the choices are
    pending, before each resolution.

Money is conserved all along: bills held + pot + deck = 425 000 $.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from support import PROOF_INTRO, Table

from gm.core import proof as proofs
from gm.errors import GMError
from gm.games.magot import GAME
from gm.service import actions, campaigns, publishing
from gm.service.env import Env
from gm.service.history import timeline

NAMES = ["fab", "marco", "lulu", "tom", "Élodie", "Jean-Paul", "Bob"]
LOOT = 425_000
LABELS = {"triple": "BANG BANG BANG", "bang": "BANG", "click": "CLIC CLIC CLIC"}
SPELLINGS = {
    "triple": ["BANG BANG BANG", "BBB", "triple", "bangbangbang", "Bang Bang Bang !"],
    "bang": ["BANG", "bang", "Bang."],
    "click": ["CLIC CLIC CLIC", "clic", "CCC", "bluff", "click click click"],
}
ORDER_TEXTS = [
    "Je braque mon flingue sur {target} ({option}) {marker}",
    "{marker} : {target} {option}",
    "{target}, {option}. Signé {me}, {marker}",
    "salut MJ, {marker}, je vise {target} avec {option} !",
]
FOLD_TEXTS = ["je me couche {marker}", "{marker} : couché", "je baisse mon arme, {marker}"]
STAY_TEXTS = ["j'en ai une paire, {marker}", "je reste {marker}"]
OPTION_WORD = re.compile(r"bang|clic|bluff|triple", re.IGNORECASE)
SHOT_LINE = re.compile(r"^- \*\*(BANG BANG BANG|BANG|CLIC CLIC CLIC)\*\* — (.+) sur (.+)\u00a0: ")
GAMES = 20


class Game(Table):
    """One random game and everything private that was sent in it."""

    def options_left(self, player: str) -> dict[str, int]:
        return GAME.player_view(self.state, player)["options"]


def order_text(game: Game, player: str, target: str, option: str) -> str:
    template = game.rng.choice(ORDER_TEXTS)
    spelling = game.rng.choice(SPELLINGS[option])
    return template.format(target=target, option=spelling, me=player, marker=game.marker())


def send_orders(game: Game) -> None:
    """Every living player but a few sends an order, some change or withdraw it,
    some first send one the rules refuse."""
    rng = game.rng
    state = game.state
    living = list(state.living)
    dead = [g.name for g in state.players if not g.alive]
    for player in living:
        left = game.options_left(player)
        targets = [n for n in living if n != player]
        spent = [o for o, n in left.items() if n == 0]
        if rng.random() < 0.25:
            option = rng.choice([o for o, n in left.items() if n])
            if spent and rng.random() < 0.5:
                text = order_text(game, player, rng.choice(targets), spent[0])
                code = "magot/option-spent"
            elif dead and rng.random() < 0.5:
                text = order_text(game, player, rng.choice(dead), option)
                code = "magot/dead-target"
            else:
                text = f"{player} {LABELS[option]} {game.marker()}"
                code = "magot/self-target"
            before = game.state
            error = game.send(player, text)
            assert error is not None and error.code == code, (text, error)
            assert game.state == before  # refused: logged, but nothing changed
        if rng.random() < 0.15:
            continue  # no order: the reveal will need force
        for _ in range(1 + (rng.random() < 0.25)):  # sometimes replaced
            option = rng.choice([o for o, n in left.items() if n])
            target = rng.choice(targets)
            if rng.random() < 0.2:
                params = {"target": target, "option": option}
                actions.submit(game.env, game.slug, player, params=params)
            else:
                text = order_text(game, player, target, option)
                assert game.send(player, text) is None, text
        if rng.random() < 0.05:
            assert game.send(player, f"j'annule, {game.marker()}") is None
    # the public reminder names the late players, nothing they or others sent
    public = publishing.remind(game.env, game.slug).public
    assert not OPTION_WORD.search(public), public
    assert not any(marker in public for marker in game.markers), public
    assert game.seed not in public


def reveal(game: Game) -> None:
    """Reveal; with missing orders, sometimes first without force (refused, nothing recorded)."""
    missing = list(GAME.waiting_for(game.state))
    if missing and game.rng.random() < 0.5:
        seq = actions.load(game.env, game.slug).seq
        with pytest.raises(GMError) as refused:
            game.step("reveal", force=False)
        assert refused.value.code == "magot/missing-orders"
        assert refused.value.params["missing"] == missing
        assert actions.load(game.env, game.slug).seq == seq
    game.step("reveal", force=bool(missing))


def choose(game: Game) -> None:
    """Stay or fold, by the MJ or by private message, changed at random."""
    rng = game.rng
    for player in game.state.living:
        for _ in range(rng.choice([0, 0, 1, 1, 2])):
            fold = rng.random() < 0.35
            if rng.random() < 0.5:
                game.step("fold" if fold else "stay", player=player)
            else:
                text = rng.choice(FOLD_TEXTS if fold else STAY_TEXTS).format(marker=game.marker())
                assert game.send(player, text) is None, text


# --- the MJ's full knowledge, from the private events ---------------------------------


def gm_knowledge(env: Env, slug: str) -> dict[int, dict[str, Any]]:
    """Per round: the orders locked at the reveal and who folded, from the log."""
    rounds: dict[int, dict[str, Any]] = {}
    for row in timeline(env, slug):
        kind, payload = row["kind"], row["payload"]
        if not kind.startswith("magot.") or "round" not in payload:
            continue
        r = rounds.setdefault(payload["round"], {"orders": {}, "folds": set()})
        if kind == "magot.order-set":
            r["orders"][payload["player"]] = (payload["target"], payload["option"])
        elif kind == "magot.order-withdrawn":
            r["orders"].pop(payload["player"])
        elif kind == "magot.folded":
            r["folds"].add(payload["player"])
        elif kind == "magot.stayed":
            r["folds"].discard(payload["player"])
    return rounds


def live_shots(orders: dict[str, tuple[str, str]], folds: set[str]) -> Counter[tuple]:
    """(option label, shooter, target) of the orders a results post may show."""
    live = {s: (t, o) for s, (t, o) in orders.items() if s not in folds and t not in folds}
    surprised = {t for t, o in live.values() if o == "triple"}
    return Counter(
        (LABELS[o], s, t) for s, (t, o) in live.items() if o == "triple" or s not in surprised
    )


PRIVATE_KINDS = {
    "magot.order-set",
    "magot.order-withdrawn",
    "magot.folded",
    "magot.stayed",
    "gm.submission-received",
    "gm.submission-rejected",
}


def check_histories(game: Game) -> None:
    """(e) Each player's history holds only public events and their own."""
    for player in game.state.names:
        for row in timeline(game.env, game.slug, viewer=player):
            where = (player, row["seq"], row["kind"])
            assert row["audience"] in ("*", player), where
            if row["kind"] in PRIVATE_KINDS:
                assert row["payload"]["player"] == player, where
            if row["kind"] == "gm.command-decided" and row["audience"] != "*":
                # a command is public only when all it decided is (protocol 4)
                assert row["actor"] == player, where


def money(env: Env, slug: str) -> int:
    status = campaigns.status(env, slug)
    deck = sum(int(value) * count for value, count in status["deck"].items())
    return sum(p["loot"] for p in status["players"]) + status["pot"] + deck


def proof_json(body: str) -> str:
    """The JSON of the proof a post ends with: everything it publishes besides its words."""
    (_, block), *_ = proofs.find(body)[-1:]
    return json.dumps(proofs.decode(block).to_json(), ensure_ascii=False)


def check_posts(game: Game) -> None:
    posts = game.env.store.posts(game.slug)
    known = gm_knowledge(game.env, game.slug)
    final = [i for i, p in enumerate(posts) if p.kind == "final"]
    for i, post in enumerate(posts):
        # the post's words; its proof (base64) is read decoded, as a checker reads it
        body = post.body[: post.body.rindex(PROOF_INTRO) + 1]
        proof = proof_json(post.body)
        where = f"post {post.number} ({post.kind}, round {post.round}):\n{body}\n{proof}"
        # (d) nothing of any private message, in the words or in the proof
        for marker in game.markers:
            assert marker not in body and marker not in proof, where
        for text in game.texts:
            assert text not in body and json.dumps(text)[1:-1] not in proof, where
        # (c) the seed only in the final post
        if post.kind == "final":
            assert f"`{game.seed}`" in body, where
        elif not final or i < final[0]:
            assert game.seed not in body, where
        # (a) no option word before the shots (the seed, too, stays out of the proof)
        if post.kind in ("round", "reveal"):
            assert not OPTION_WORD.search(body) and not OPTION_WORD.search(proof), where
        if not final or i < final[0]:
            assert game.seed not in proof, where
        # (b) the live shots, and only them, with their options
        if post.kind == "results":
            r = known[post.round]
            shown: Counter[tuple] = Counter()
            for line in body.splitlines():
                match = SHOT_LINE.match(line)
                if match:
                    shown[match.groups()] += 1
                else:
                    assert not OPTION_WORD.search(line), (line, where)
            assert shown == live_shots(r["orders"], r["folds"]), where
            for label in LABELS.values():
                count = body.count(f"- **{label}** — ")
                assert count == sum(n for (lab, *_), n in shown.items() if lab == label), where


def play(seed: int, db: str) -> Game:
    rng = random.Random(seed)
    env = Env(db=db)
    players = rng.sample(NAMES, rng.randint(3, 6))
    secret = f"graine-secrète-{seed}-{rng.randrange(10**9)}"
    created = campaigns.create(
        env,
        "magot",
        f"Partie {seed}",
        players,
        options={"rounds": str(rng.randint(2, 8))},
        seed=secret,
    )
    game = Game(rng, env, created.campaign.slug, secret)
    assert money(env, game.slug) == LOOT
    while not GAME.is_over(game.state):
        game.step("draw")
        send_orders(game)
        reveal(game)
        choose(game)
        check_histories(game)
        game.step("resolve")
        assert money(env, game.slug) == LOOT
        check_posts(game)
    return game


@pytest.mark.parametrize("seed", range(GAMES))
def test_no_secret_reaches_a_public_post(seed: int, db: str) -> None:
    game = play(seed, db)
    env, slug = game.env, game.slug
    posts = env.store.posts(slug)
    assert posts[-1].kind == "final"
    assert sum(p.kind == "final" for p in posts) == 1
    # the game went through what the checks are about
    events = timeline(env, slug)
    logged = " ".join(str(e["payload"]) for e in events)
    assert all(marker in logged for marker in game.markers)
    assert money(env, slug) == LOOT

    # after the end, the disclosure shows every locked order with its option
    disclosure = publishing.find_post(env, slug, "disclosure", None).body
    for number, r in gm_knowledge(env, slug).items():
        assert f"**Tour {number}**" in disclosure
        for shooter, (target, option) in r["orders"].items():
            assert f"| {shooter} | {target} | {LABELS[option]} |" in disclosure
    for marker in game.markers:
        assert marker not in disclosure


def test_the_random_games_cover_every_secret_case(tmp_path: Path) -> None:
    """The oracle is not vacuous: across the seeds, orders are lowered, held,
    disabled and shown, reveals are forced, orders refused and withdrawn."""
    seen: Counter[str] = Counter()
    for seed in range(GAMES):
        game = play(seed, str(tmp_path / f"g{seed}.db"))  # about the oracle, not the store
        for row in timeline(game.env, game.slug):
            kind, payload = row["kind"], row["payload"]
            seen[kind] += 1
            if kind == "magot.round-resolved":
                for fate in ("lowered", "held", "disabled", "shots"):
                    seen[fate] += len(payload["resolution"][fate])
                seen["click shots"] += sum(
                    s["option"] == "click" for s in payload["resolution"]["shots"]
                )
            if kind == "magot.orders-revealed" and payload["forced"]:
                seen["forced"] += 1
            if kind == "magot.game-ended":
                seen[payload["reason"]] += 1
    for case in (
        "lowered",
        "held",
        "disabled",
        "shots",
        "click shots",
        "forced",
        "gm.submission-rejected",
        "magot.order-withdrawn",
        "magot.stayed",
        "last-round",
    ):
        assert seen[case] > 0, (case, seen)
