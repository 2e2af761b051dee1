"""Honest threads of every registered game are verified, with the list of what was.

A random legal game of each game (``conftest.published``), every post
checked by the players' checker: exit 0 once the game is over (3 while its
seed is still sealed), and for each post the chain re-hashed up to it, its
commands decided again and its text rendered again, never a bare OK.
"""

from __future__ import annotations

import random
import re

import pytest
from published import GAMES

from gm.check.report import BAD, MISSING, OK


def _oks(text: str, title: str) -> list[str]:
    section = text.split(title, 1)[1].split("\n\n", 1)[0]
    return [line.strip() for line in section.split("\n")[1:]]


@pytest.mark.parametrize("game_id", GAMES)
def test_an_honest_thread_is_verified_post_by_post(published, game_id: str) -> None:
    game = published(game_id)
    outcome = game.check()
    text = outcome.report.text()
    assert f"{BAD} :" not in text, text
    posts = game.emulated.posts
    for post in posts:
        title = f"Message {post.number} ("
        assert title in text, text
        lines = _oks(text, title)
        assert any(line.startswith(f"{OK} : chaîne recalculée depuis le premier") for line in lines)
        rendered = any(line.startswith(f"{OK} : texte rendu de nouveau par gm") for line in lines)
        # while a record the post needs is sealed, the report says it waits, and why
        waits = any(
            line.startswith(f"{MISSING} : son texte ne peut pas être comparé") for line in lines
        )
        assert rendered or (waits and not game.over), lines
    if game.over:
        assert outcome.report.code == 0, text
        assert "correspond au sceau du hasard de l'ouverture" in text
        assert "BILAN : tout ce que ce fil publie a été vérifié et concorde" in text
        assert "commande(s) redécidée(s) par les règles du jeu" in text
    else:
        assert outcome.report.code == 3, text
        assert f"{MISSING} : la graine n'est pas encore révélée" in text


def test_every_game_but_the_longest_is_played_to_its_end(published) -> None:
    assert [g for g in GAMES if not published(g).over] == ["rattlesnake"]


@pytest.mark.parametrize("preset", ["bbcode", "html"])
@pytest.mark.parametrize("game_id", ["magot", "colt"])
def test_a_thread_pasted_as_the_forum_shows_it_is_verified(
    published, game_id: str, preset: str
) -> None:
    game = published(game_id)
    outcome = game.check(game.emulated.thread(preset))
    assert outcome.report.code == 0, outcome.report.text()
    assert f"(format {preset}" in outcome.report.text()


def test_posts_one_file_each_in_any_order_are_put_in_order(published) -> None:
    game = published("fistful")
    files = [(f"message-{i}.md", t) for i, t in enumerate(game.emulated.texts(), 1)]
    random.Random(1).shuffle(files)
    outcome = game.check(files)
    assert outcome.report.code == 0, outcome.report.text()
    order = [int(n) for n in re.findall(r"^Message (\d+) ", outcome.report.text(), re.M)]
    assert order == sorted(order)
