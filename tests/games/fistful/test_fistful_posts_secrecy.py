"""Nothing secret in any public post: whole random games of Fistful of Gold
through the service layer (``gm.service.actions``, ``campaigns``).

Each game is driven by a seeded ``random.Random`` (the test id is the seed,
so a failure replays exactly) from the game's own ``legal_inputs``, with the
messages dressed the way players write them (« salut MJ, zorglub123456, je
joue le 5 », each with a unique marker word), some sent as explicit fields,
some replaced, and refused messages mixed in (a card not in hand, a card
forbidden this duel, a number that is no card).

After every command, every stored post is checked against what only the MJ
knows, rebuilt from the log's events (an oracle independent of the views):

(a) the cards a post shows (the templates' card macro, « **5 rouge** ») are
    exactly those the forum saw at that moment: the two cards of the duel it
    reports, a green-8 pick made in its turn, the two cards of a final duel;
    so per player they are cards that player has publicly shown, and no
    setup or end-of-manche discard or pending choice ever appears;
(b) no salt of a secret choice (setup discards, a discard the post does not
    show, a card replaced before the reveal) is published;
(c) the seed appears in no post before the final one, and in it;
(d) no private message, accepted or refused, reaches a public post.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from support import Table, post_parts, shipped

from gm.check.checker import check_thread
from gm.core import proof as proofs
from gm.core.protocol import ScenarioStep, post_name
from gm.games.fistful import GAME
from gm.service import actions, campaigns, publishing
from gm.service.env import Env
from gm.service.history import timeline

CARD = re.compile(r"\*\*([1-8]|Dynamite) (rouge|vert|verte)\*\*")
COLOR = {"rouge": "red", "vert": "green", "verte": "green"}
DRESSES = [
    "{marker} {text}",
    "salut MJ, {marker}, {text} !",
    "{text}. Signé {me} ({marker})",
]
GAMES = 10


@dataclass
class Game(Table):
    colors: dict[str, str] = field(default_factory=dict)
    seen: Counter[str] = field(default_factory=Counter)
    checked: set[int] = field(default_factory=set)


def play_input(game: Game, item: ScenarioStep) -> None:
    rng = game.rng
    if item.step is not None:
        actions.step(game.env, game.slug, item.step, dict(item.values))
        return
    assert item.text is not None
    text = item.text
    alone = "/duel-" in GAME.phase(game.state) and len(text.split()) == 1
    if alone and rng.random() < 0.1:  # the MJ types it as an explicit field
        actions.submit(game.env, game.slug, item.actor, params={"card": text})
        game.seen["explicit"] += 1
        return
    dressed = rng.choice(DRESSES).format(text=text, marker=game.marker(), me=item.actor)
    assert game.send(item.actor, dressed) is None, dressed


def refuse_something(game: Game, player: str) -> None:
    """A message the rules refuse: logged, nothing changes."""
    state = game.state
    p = state.player(player)
    phase = GAME.phase(state)
    candidates = ["9 " + game.marker(), f"bof {game.marker()}"]
    if "/duel-" in phase:
        candidates += [f"je joue le {c} {game.marker()}" for c in p.removed]
        candidates += [f"le {c}, {game.marker()}" for c in p.played]
        banned = GAME.player_view(state, player)["forbidden"]
        if banned is not None and banned in [str(c) for c in p.hand]:
            candidates.append(f"{game.marker()} : {banned}")
    before = state
    error = game.send(player, game.rng.choice(candidates))
    assert error is not None
    assert game.state == before
    game.seen["refused"] += 1


PostKey = tuple[str, tuple[int, ...]]
"""A post as the game addresses it: ``("duel", (2, 3))``, ``("manche", (2,))``."""


def secret_key(kind: str, payload: dict[str, Any]) -> tuple[Any, ...]:
    """What identifies a sealed choice, read from its stored payload: the
    setup discards by player, a card by manche, duel and player, an end
    choice by manche and player."""
    return (kind, payload.get("manche"), payload.get("duel"), payload["player"])


def oracle(
    rows: list[dict[str, Any]], upto: int
) -> tuple[dict[PostKey, Counter[tuple[str, str]]], set[str], set[str]]:
    """From the log (``timeline`` rows) up to seq ``upto``: per post, the
    (player, card) the forum saw in it; the salts of every secret choice; and
    those of the choices another replaced under the same key (a card sent,
    then changed): no post's words show them, and a proof opens them with
    the choice that replaced them, once a post shows it (its whole history,
    so that players decide each command again).

    A duel's cards are in its duel post, a final duel's in its manche's post;
    a green-8 pick is shown in the post of the turn it was made in (the
    internal counter that ``DuelResolved`` and ``MancheEnded`` carry)."""
    shown: dict[PostKey, Counter[tuple[str, str]]] = {}
    post_of_turn: dict[int, PostKey] = {}
    picks: list[tuple[int, str, str]] = []
    in_force: dict[tuple[Any, ...], dict[str, Any]] = {}
    replaced: set[str] = set()
    secret: set[str] = set()
    finals: set[int] = set()
    for row in rows:
        if row["seq"] > upto:
            break
        kind, payload = row["kind"], row["payload"]
        if kind == "fistful.duel-resolved":
            key: PostKey = ("duel", (payload["manche"], payload["duel"]))
            post_of_turn[payload["round"]] = key
            shown.setdefault(key, Counter()).update(payload["outcome"]["cards"].items())
        elif kind == "fistful.card-picked":
            picks.append((payload["round"], payload["player"], payload["card"]))
        elif kind == "fistful.manche-ended":
            manche = payload["result"]["manche"]
            key = ("manche", (manche,))
            post_of_turn[payload["round"]] = key
            if payload["result"]["final"] is not None:
                finals.add(manche)
                shown.setdefault(key, Counter()).update(payload["result"]["final"]["cards"].items())
        elif kind == "fistful.setup-discarded":
            secret.add(row["salt"])
        if row["seal"] is not None:
            sealed = secret_key(kind, payload)
            if sealed in in_force:
                replaced.add(in_force[sealed]["salt"])
            in_force[sealed] = row
    for turn, player, card in picks:
        if turn in post_of_turn:  # else its post is not out yet
            shown.setdefault(post_of_turn[turn], Counter())[(player, card)] += 1
    for (kind, manche, _duel, _player), row in in_force.items():
        discards = row["payload"].get("choice", {}).get("discards", [])
        if kind == "fistful.end-chosen" and not (manche in finals and len(discards) == 1):
            secret.add(row["salt"])
    return shown, secret, replaced


def check_posts(game: Game) -> None:
    """Check the posts stored since the last check (a stored post never changes,
    and the log before it neither: each is checked once)."""
    posts = [p for p in game.env.store.posts(game.slug) if p.number not in game.checked]
    rows = timeline(game.env, game.slug) if posts else []
    over = GAME.is_over(game.state)
    for post in posts:
        game.checked.add(post.number)
        if post.kind == "disclosure":
            continue
        # its words; what its proof publishes is searched too, decoded
        body, proof = post_parts(post.body)
        where = f"post {post.number} ({post_name(post.kind, post.at)}):\n{body}\n{proof}"
        shown, secret, replaced = oracle(rows, post.at_seq)
        # (a) the cards shown are those the forum saw at this post's place
        players = {color: name for name, color in game.colors.items()}
        mentioned: Counter[tuple[str, str]] = Counter(
            (players[COLOR[color]], "dynamite" if card == "Dynamite" else card)
            for card, color in CARD.findall(body)
        )
        expected = shown.get((post.kind, post.at), Counter())
        assert set(mentioned) == set(expected), (mentioned, expected, where)
        game.seen[f"cards in {post.kind}"] += sum(mentioned.values())
        # (b) no secret salt
        for salt in secret:
            assert salt not in body and salt not in proof, (salt, where)
        for salt in replaced:
            assert salt not in body, (salt, where)
        # (c) the seed only in the final post
        if post.kind == "final":
            assert f"`{game.seed}`" in body, where
        else:
            assert game.seed not in body and game.seed not in proof, where
        # (d) nothing of any private message
        for marker in game.markers:
            assert marker not in body and marker not in proof, where
        for text in game.texts:
            assert text not in body, where
    if not over:
        reminder = publishing.remind(game.env, game.slug).public
        assert not CARD.search(reminder)
        assert not any(marker in reminder for marker in game.markers)


def mirrored(game: Game, item: ScenarioStep, messages: list[ScenarioStep]) -> ScenarioStep:
    """Often, the card the opponent already sent, when it is legal: ties, tie
    pots, two 6s at once and tied manches (final duels) come far more often."""
    state = game.state
    other = state.opponent(item.actor).name
    theirs = state.card_of(other)
    if theirs is None or game.rng.random() < 0.2:
        return item
    same = [m for m in messages if m.actor == item.actor and m.text == str(theirs)]
    return same[0] if same else item


def play(seed: int, db: str) -> Game:
    rng = random.Random(seed)
    env = Env(db=db)
    players = rng.choice([["ana", "bob"], ["Élodie", "Jean-Paul"], ["**Bob**", "Django"]])
    colors = rng.choice([None, f"{players[0]}=green", f"{players[1]}=red"])
    options = {"length": rng.choice(["short", "long"])}
    if colors:
        options["colors"] = colors
    secret = f"graine-secrète-{seed}-{rng.randrange(10**9)}"
    created = campaigns.create(
        env, "fistful", f"Duel {seed}", players, options=options, seed=secret
    )
    slug = created.campaign.slug
    state = created.campaign.state
    game = Game(rng, env, slug, secret, colors={p.name: str(p.color) for p in state.players})
    steps = 0
    while not GAME.is_over(game.state):
        inputs = GAME.legal_inputs(game.state)
        mj = [i for i in inputs if i.step is not None]
        messages = [i for i in inputs if i.step is None]
        if messages and rng.random() < 0.08:
            refuse_something(game, rng.choice(messages).actor)
        if mj and (not messages or rng.random() < 0.45):
            item = mj[0]
        else:
            item = rng.choice(messages)
            item = mirrored(game, item, messages)
        play_input(game, item)
        check_posts(game)
        steps += 1
        assert steps < 1000
    return game


@pytest.mark.parametrize("seed", range(GAMES))
def test_no_secret_reaches_a_public_post(seed: int, db: str) -> None:
    game = play(seed, db)
    posts = game.env.store.posts(game.slug)
    assert posts[-1].kind == "final" and sum(p.kind == "final" for p in posts) == 1
    # after the end, the disclosure shows every setup discard
    disclosure = publishing.find_post(game.env, game.slug, "disclosure", None).body
    for player, cards in game.state.setup_discards:
        color = "rouge" if game.colors[player] == "red" else "vert"
        for card in cards:
            label = (
                "Dynamite " + ("rouge" if color == "rouge" else "verte")
                if card == "dynamite"
                else f"{card} {color}"
            )
            assert f"**{label}**" in disclosure
    for marker in game.markers:
        assert marker not in disclosure
    # and a player can check every secret choice from the posts alone
    assert_posts_check(game, disclosure)


def whole_choices(game: Game, manche: int) -> list[str]:
    """Who, at the end of manche ``manche``, chose their one discard and
    showed it in a final duel."""
    record = game.state.history[manche - 1]
    assert record.number == manche and record.result is not None
    if record.result.final is None:
        return []
    return [n for n, c in record.choices if len(c.discards) == 1]


def assert_posts_check(game: Game, disclosure: str) -> None:
    """Each post's proof opens what the post shows: each duel post both cards
    of its duel, each manche post the choices its final duel shows whole,
    and, by the disclosure, every secret choice of the game (the last one each
    player sent for each setup, duel and end of manche, and those before it
    under the same key); and the players' checker finds the thread whole and
    true (exit 0)."""
    keys: dict[int, tuple[Any, ...]] = {}
    in_force: set[tuple[Any, ...]] = set()
    for entry in timeline(game.env, game.slug):
        if entry["seal"]:
            keys[entry["seq"]] = secret_key(entry["kind"], entry["payload"])
            if not entry.get("voided"):
                in_force.add(keys[entry["seq"]])

    def opened(body: str) -> set[tuple[Any, ...]]:
        proof = proofs.decode(proofs.find(body)[-1][1])
        return {keys[o.seq] for o in proof.opened if o.seq in keys}

    posts = game.env.store.posts(game.slug)
    seen: set[tuple[Any, ...]] = set()
    for post in posts:
        found = opened(post.body)
        seen |= found
        if post.kind == "duel":
            manche, duel = post.at
            assert found == {
                k for k in in_force if k[0] == "fistful.card-played" and k[1:3] == (manche, duel)
            }
        elif post.kind == "manche":
            # the choices its final duel shows whole (one discard, revealed
            # there) are opened; the others stay sealed until the disclosure
            (manche,) = post.at
            assert all(k[:2] == ("fistful.end-chosen", manche) for k in found), found
            assert {k[3] for k in found} == set(whole_choices(game, manche))
    assert posts[-1].body == disclosure
    assert seen == in_force
    thread = [(f"message-{p.number}.md", p.body) for p in posts]
    report = check_thread(thread).report
    assert report.code == 0, report.text()


def test_the_random_games_cover_every_secret_case(tmp_path: Path) -> None:
    """The oracle is not vacuous: across the seeds there are picks, red-7 ends,
    final duels with a chosen card, two 6s at once, refusals, both game ends.
    (About the oracle, not the store: one SQLite file per game.)"""
    seen: Counter[str] = Counter()
    for seed in range(GAMES):
        game = play(seed, str(tmp_path / f"g{seed}.db"))
        seen.update(game.seen)
        for row in timeline(game.env, game.slug):
            kind, payload = row["kind"], row["payload"]
            seen[kind] += 1
            if kind == "fistful.duel-resolved":
                seen.update(p["kind"] for p in payload["outcome"]["powers"])
            if kind == "fistful.manche-ended":
                result = payload["result"]
                seen["final duel" if result["final"] else "no final duel"] += 1
                if result["game_end"]:
                    seen[result["game_end"]] += 1
            if kind == "fistful.end-chosen" and payload["choice"]["final"] is not None:
                seen["final card chosen"] += 1
    for case in (
        "fistful.card-picked",
        "fistful.end-chosen",
        "red-seven-end",
        "six-blocked",
        "six-claim",
        "final duel",
        "final card chosen",
        "gm.submission-rejected",
        "refused",
        "explicit",
        "stars",
        "cards in duel",
        "cards in manche",
    ):
        assert seen[case] > 0, (case, seen)


PUBLIC_TEMPLATES = ("opening", "setup", "duel", "manche", "final", "disclosure", "_fistful")
PRINTED = re.compile(r"\{\{(.*?)\}\}", re.S)
CARD_FIELD = re.compile(r"\.cards?\b|\bvalue\b|^\s*(c|card|cards)\s*$")
THROUGH_MACRO = re.compile(r"^\s*(g\.)?(the_)?card\(")


def test_public_templates_print_cards_only_through_the_card_macro() -> None:
    """So that (a) above finds every card a post shows: a card field printed any
    other way would escape the oracle. The exceptions are named: the card
    forbidden in the next duel (no player's card) and the macros themselves."""
    folder = shipped("fistful/fr/x").parent
    allowed = {
        "g.the_plain(f.card)",  # « ana ne peut pas jouer le 6 »: a rule, not a card shown
        "view.next.cards",  # how many cards each hand holds next manche: a count
        "value",  # inside the card macro itself
        '"la" if value == "dynamite" else "le"',
        '"Dynamite" if value == "dynamite" else value',
        '"la Dynamite" if value == "dynamite" else "le " ~ value',
    }
    for name in PUBLIC_TEMPLATES:
        source = (folder / f"{name}.md.j2").read_text(encoding="utf-8")
        for expression in PRINTED.findall(source):
            printed = expression.strip()
            if CARD_FIELD.search(printed) and not THROUGH_MACRO.match(printed):
                assert printed in allowed, (
                    f"{name}.md.j2 prints a card outside the macro: {printed}"
                )
