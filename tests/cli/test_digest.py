"""Digest mode (issue 28.4): ``gm set digest on`` prints the posts a game
gathers (Rattlesnake City's moves while the active player keeps the hand,
Colt Express's Plan turns until the Action) with the next one, as one forum
message. Every post is still archived and proved on its own, and what the
MJ pastes, message after message, is the archive in its order."""

from __future__ import annotations

import random
import re

import pytest
import support

from gm import games
from gm.service import actions
from gm.service.env import Env

HEADER = re.compile(r"^── (post \d+: .*|posts [\d, ]+: one message \(digest\)) ──$", re.MULTILINE)


def play(db: str, game_id: str, players: list[str], digest: bool) -> tuple[list[str], str]:
    """A seeded legal game played with the command line; what each command
    printed on standard output (one forum message each), and the slug."""
    rng = random.Random(f"digest/{game_id}")
    gm = support.Gm(db)
    gm("new", game_id, "-t", "Digest", "-p", ",".join(players), "--seed", "s")
    slug = "digest"
    if digest:
        gm("set", "digest", "on")
    env = Env(db=db)
    game = games.load(game_id)
    messages: list[str] = []
    for _ in range(400):
        campaign = actions.load(env, slug)
        if game.is_over(campaign.state):
            break
        inputs = [
            i
            for i in game.legal_inputs(campaign.state, campaign.table)
            if i.step is None or not i.values
        ]
        messages_first = [i for i in inputs if i.step is None]
        item = rng.choice(messages_first or inputs)
        if item.step is None:
            out = gm("order", item.actor, item.text or "").stdout
        else:
            out = gm(item.step).stdout
        if out.strip():
            messages.append(out)
    held = gm("post", "--held").stdout
    if held.strip():
        messages.append(held)
    return messages, slug


def archived(db: str, slug: str) -> list[str]:
    return [p.body.rstrip("\n") for p in Env(db=db).store.posts(slug)]


@pytest.mark.parametrize(
    ("game_id", "players"), [("rattlesnake", ["ana", "bob"]), ("colt", ["ana", "bob", "cyd"])]
)
def test_a_digest_is_the_archive_in_fewer_messages(
    new_db: support.NewDb, game_id: str, players: list[str]
) -> None:
    plain, slug = play(new_db("plain"), game_id, players, digest=False)
    db = new_db("digest")
    digested, _ = play(db, game_id, players, digest=True)
    assert len(digested) < len(plain)
    # pasted one after the other, the messages are every post but the opening, in order
    pasted = "\n\n".join(m.rstrip("\n") for m in digested)
    assert pasted == "\n\n".join(archived(db, slug)[1:])
    assert support.Gm(db)("verify").stdout.endswith(" verify.\n")


def test_digest_off_prints_every_post_at_once(db: str) -> None:
    gm = support.Gm(db)
    gm("new", "rattlesnake", "-t", "Digest", "-p", "ana,bob", "--seed", "s")
    gm("set", "digest", "on")
    gm("set", "digest", "off")
    out = gm("setup")
    assert out.stdout.strip() and "held" not in out.stderr
    assert gm("post", "--held").stderr.endswith("Nothing is held: every post was printed.\n")
