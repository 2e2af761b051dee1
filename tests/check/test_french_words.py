"""Issue 28.6: no English word in anything a player reads.

Every post of a random legal game of each game (the honest threads of
``published``), read as players read it: its words, outside code spans and
code blocks (the draws' stream labels, seals and the train's drawing are
identifiers players copy, not prose), and outside the proof block. None of
the English words gm's code uses for the things of the games may show.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from published import GAMES
from written import Written

ENGLISH = {
    "and", "bag", "bank", "card", "cards", "deck", "draw", "false", "from", "hand",
    "instruction", "loot", "move", "none", "null", "phase", "player", "players", "purse",
    "purses", "results", "reveal", "roster", "round", "seat", "setup", "shot", "shots",
    "step", "the", "town", "true", "turn", "with",
}  # fmt: skip
"""Words of gm's code and data that a template could let through."""

CODE_SPAN = re.compile(r"`[^`\n]*`")
WORD = re.compile(r"[A-Za-zÀ-ÖØ-öø-ÿ]+")


def prose(markdown: str) -> str:
    """A post's prose: without its proof section, code blocks and code spans."""
    markdown = markdown.split("\n\nPreuve pour les vérificateurs")[0]
    lines = [line for line in markdown.split("\n") if not line.startswith("    ")]
    return CODE_SPAN.sub(" ", "\n".join(lines))


@pytest.mark.parametrize("game_id", GAMES)
def test_no_english_word_in_any_post(published, game_id: str) -> None:
    game = published(game_id)
    names = {w.lower() for name in game.players() for w in WORD.findall(name)}
    for post in game.on_forum.posts:
        words = {w.lower() for w in WORD.findall(prose(post.markdown))} - names
        assert not words & ENGLISH, (post.number, post.kind, sorted(words & ENGLISH))


@pytest.mark.parametrize("game_id", [g for g in GAMES if g != "toss"])
def test_no_english_word_in_any_reply_either(
    written: Callable[[str], Written], game_id: str
) -> None:
    """The private replies too — refusals, defaults, nudges, statuses,
    archives, late replies — of a game that goes wrong now and then
    (``written``), players' own words (quoted) apart."""
    game = written(game_id)
    names = {w.lower() for name in game.players for w in WORD.findall(name)}
    said = {w.lower() for text in game.sent for w in WORD.findall(text)}
    for text in game.texts:
        words = {w.lower() for w in WORD.findall(prose(text.markdown))} - names - said
        assert not words & ENGLISH, (text.where, sorted(words & ENGLISH))
