"""Everything players read in one random game of a game, as gm wrote it
(issue 28.6: the French of posts and replies is checked on this).

The honest threads of ``published`` hold the posts of games played with
legal inputs only, by players without a declared gender, on a frozen clock.
What players read also comes from what goes wrong, and from a table where
people have genders and deadlines run out. So a game is played here as the
conformance test plays it (``legal_inputs``, then the step that moves the
game on, ``tests/conformance``), and meanwhile:

* the players have genders (masculine, feminine, none) and names that no
  French word holds (« Zébulon », « Anouk »), so a name glued to a word
  shows;
* every step that takes one gets a deadline, and the campaign a turn
  deadline; the clock moves on between inputs, hours at a time, so
  deadlines fall at odd minutes and pass (late replies);
* now and then a message is refused: an awaited player's legal message sent
  by someone else, a message of an earlier phase, one with a word or a
  number more, one nobody reads, with a word for the fortune;
* now and then the MJ applies a default, moves a deadline, posts a reminder
  and rolls dice; a player is replaced mid-game and another renamed;
* every player's status is asked for now and then.

Each text is kept as gm stored or printed it: canonical Markdown.
"""

from __future__ import annotations

import itertools
import random
import string
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from playing import conformance

from gm import games
from gm.errors import GMError, InputError
from gm.service import actions, campaigns, deadlines, dice, history, publishing, roster
from gm.service.env import Env
from gm.store.log import Store

PLAYERS = ["Zébulon:m", "Anouk:f", "Ugolin", "Hermine:f", "Barnabé:m", "Yolande:f"]
"""Names no French word holds, with their genders (« Ugolin » has none)."""
NEWCOMER = ("Philomène", "f")
RENAMED = "Théodule"
SEATS = {"magot": 5, "fistful": 2, "colt": 4, "rattlesnake": 3}
LIMITS = {"rattlesnake": 220}
"""Inputs played at most (a whole random Rattlesnake City game takes a minute)."""
REPLACED_AT, RENAMED_AT = 10, 18
"""The inputs after which the first player leaves for a newcomer, and the last is renamed."""
START = datetime(2026, 12, 1, 4, 37, tzinfo=UTC)


@dataclass
class Text:
    where: str
    markdown: str


@dataclass
class Written:
    """One game's texts as players read them."""

    game_id: str
    players: list[str]
    texts: list[Text] = field(default_factory=list)
    sent: list[str] = field(default_factory=list)
    """Every message players sent: what gm quotes of them is theirs, as typed."""

    def add(self, where: str, markdown: str | None) -> None:
        if markdown and markdown.strip():
            self.texts.append(Text(where, markdown))


class Clock:
    """The time gm reads: it moves on only when told, by whole minutes."""

    def __init__(self) -> None:
        self.at = START

    def __call__(self) -> datetime:
        return self.at

    def wait(self, rng: random.Random) -> None:
        self.at += timedelta(minutes=rng.randint(7, 40 * 60))


def _refusal(written: Written, err: GMError, where: str) -> None:
    draft = getattr(err, "draft", None)
    if isinstance(draft, str):
        written.add(f"{where} ({err.code})", draft)


def write(game_id: str, db: str, seed: int = 0) -> Written:
    """One random game of ``game_id`` and every text players read in it."""
    c = conformance()
    rng = random.Random(f"written/{game_id}/{seed}")
    game = games.load(game_id)
    clock = Clock()
    salts = itertools.count()
    env = Env(db=db, now=clock)
    env.__dict__["store"] = Store(db, clock=clock, salt=lambda: f"{next(salts):032x}")
    players = PLAYERS[: SEATS.get(game_id, game.min_players)]
    created = campaigns.create(
        env, game_id, "La belle équipe", players, seed=f"graine-{seed}",
        settings={"turn-deadline": "+24h"},
    )  # fmt: skip
    slug = created.campaign.slug
    written = Written(game_id, [p.split(":")[0] for p in players])
    past: list[Any] = []  # legal messages of earlier phases
    limit = LIMITS.get(game_id, c.MAX_INPUTS)
    phase, in_phase, patience = None, 0, rng.randint(2, 12)
    for n in range(limit):
        campaign = actions.load(env, slug)
        state, table = campaign.state, campaign.table
        if game.is_over(state):
            break
        clock.wait(rng)
        if game.phase(state) != phase:
            phase, in_phase, patience = game.phase(state), 0, rng.randint(2, 12)
        inputs = game.legal_inputs(state, table)
        messages = [i for i in inputs if i.step is None]
        names = list(campaign.meta.players)
        waiting = [campaign.meta.name(s) for s in game.waiting_for(state)]
        if n == REPLACED_AT:
            changed = roster.replace_player(env, slug, names[0], NEWCOMER[0], gender=NEWCOMER[1])
            written.players.append(NEWCOMER[0])
            written.add("newcomer's status", changed.status)
            continue
        if n == RENAMED_AT:
            roster.replace_player(env, slug, names[-1], RENAMED, rename=True)
            written.players.append(RENAMED)
            continue
        roll = rng.random()
        if roll < 0.12 and (messages or past):
            _refuse(written, env, slug, rng, names, messages, past)
        elif roll < 0.17 and waiting:
            try:
                result = actions.default(env, slug, rng.choice(waiting))
            except GMError as err:
                _refusal(written, err, "default")
            else:
                written.add("default's reply", result.reply)
            continue
        elif roll < 0.19:
            try:  # a day and a half later than the deadline, if that is still ahead
                written.add("deadline notice", deadlines.move(env, slug, "+36h").notice)
            except InputError as err:
                if err.code != "input/deadline":
                    raise
        elif roll < 0.22:
            reminder = publishing.remind(env, slug)
            written.add("reminder", reminder.public)
            for player, nudge in reminder.nudges.items():
                written.add(f"nudge to {player}", nudge)
        elif roll < 0.23:
            dice.roll(env, slug, "2d6", "qui commence")
        elif roll < 0.26:
            for player in names:
                written.add(f"status of {player}", publishing.private_status(env, slug, player))
        campaign = actions.load(env, slug)  # the refusal above may have been read
        if game.is_over(campaign.state):
            break
        inputs = game.legal_inputs(campaign.state, campaign.table)
        item = c.choose(c.Playthrough(rng, env, slug, ""), inputs, in_phase, patience)
        in_phase += 1
        if item.step is None:
            past.append(item)
            text = item.text or ""
            if rng.random() < 0.1:
                text += f"\ngraine : mot{rng.choice(string.ascii_lowercase)}"
            written.sent.append(text)
            result = actions.submit(env, slug, item.actor, text)
        else:
            try:
                result = actions.step(env, slug, item.step, item.values, deadline="+48h")
            except GMError as err:
                if err.code != "input/deadline":
                    raise
                result = actions.step(env, slug, item.step, item.values)
        written.add(f"reply to {item.actor}", result.reply)
        for default in result.defaults:
            written.add("default's reply", default.reply)
    campaign = actions.load(env, slug)
    for kind in ("rules", "disclosure"):
        if game.info.post_kind(kind) is not None and campaign.over:
            publishing.find_post(env, slug, kind, None)
    for player in campaign.meta.players:
        written.add(f"status of {player}", publishing.private_status(env, slug, player))
        written.add(f"archive of {player}", history.player_archive(env, slug, player))
    for post in env.store.posts(slug):
        written.add(f"post {post.number} ({post.kind})", post.body)
    return written


def _refuse(
    written: Written,
    env: Env,
    slug: str,
    rng: random.Random,
    names: list[str],
    messages: list[Any],
    past: list[Any],
) -> None:
    """A message gm refuses (or reads: then its reply is kept too)."""
    how = rng.randrange(5)
    if how == 0 and messages:  # an awaited player's message, sent by someone else
        item = rng.choice(messages)
        player, text = rng.choice([n for n in names if n != item.actor] or names), item.text
    elif how == 1 and past:  # a message of an earlier phase
        item = rng.choice(past)
        player, text = item.actor, item.text
    elif how == 2 and messages:  # a word more, a number more
        item = rng.choice(messages)
        player, text = item.actor, f"{item.text} {rng.choice(['hihi', '99', 'Gaston', '0'])}"
    elif how == 3:
        player, text = rng.choice(names), f"{conformance().NOBODY_ACCEPTS}\ngraine : motrefus"
    else:
        player, text = rng.choice(names), conformance().NOBODY_ACCEPTS
    if player not in actions.load(env, slug).meta.players:
        return
    written.sent.append(text or "")
    try:
        result = actions.submit(env, slug, player, text or "")
    except GMError as err:
        _refusal(written, err, f"refusal to {player}")
    else:
        written.add(f"reply to {player}", result.reply)
