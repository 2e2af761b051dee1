"""Honest threads of every registered game are verified, with the list of what was.

A random legal game of each game (``conftest.published``), every post
checked by the players' checker: exit 0 once the game is over (3 while its
seed is still sealed), and for each post the chain re-hashed up to it, its
commands decided again and its text rendered again, never a bare OK.
"""

from __future__ import annotations

import random
import re
from html.parser import HTMLParser

import pytest
from published import GAMES

from gm.check.reading import detect_format
from gm.check.report import BAD, MISSING, OK
from gm.render.markup import convert


def _oks(text: str, title: str) -> list[str]:
    section = text.split(title, 1)[1].split("\n\n", 1)[0]
    return [line.strip() for line in section.split("\n")[1:]]


@pytest.mark.parametrize("game_id", GAMES)
def test_an_honest_thread_is_verified_post_by_post(published, game_id: str) -> None:
    game = published(game_id)
    outcome = game.check()
    text = outcome.report.text()
    assert f"{BAD} :" not in text, text
    posts = game.on_forum.posts
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


@pytest.mark.parametrize("preset", ["bbcode", "html", "forumactif"])
@pytest.mark.parametrize("game_id", ["magot", "colt"])
def test_a_thread_pasted_as_the_forum_shows_it_is_verified(
    published, game_id: str, preset: str
) -> None:
    game = published(game_id)
    outcome = game.check(game.on_forum.thread(preset))
    assert outcome.report.code == 0, outcome.report.text()
    shown = "bbcode" if preset == "forumactif" else preset  # Forumactif: BBCode, native tables
    assert f"(format {shown}" in outcome.report.text()


def test_posts_one_file_each_in_any_order_are_put_in_order(published) -> None:
    game = published("fistful")
    files = [(f"message-{i}.md", t) for i, t in enumerate(game.on_forum.texts(), 1)]
    random.Random(1).shuffle(files)
    outcome = game.check(files)
    assert outcome.report.code == 0, outcome.report.text()
    order = [int(n) for n in re.findall(r"^Message (\d+) ", outcome.report.text(), re.M)]
    assert order == sorted(order)


def test_reminders_pasted_into_the_thread_change_nothing(published) -> None:
    """Players paste the MJ's reminders with the rest (they carry no proof):
    in one text or as files of their own, the honest thread stays verified."""
    from gm.service import publishing

    game = published("magot")
    reminder = publishing.remind(game.play.env, game.play.slug).public
    assert "on attend encore" in reminder
    texts = [(f"message-{i}.md", t) for i, t in enumerate(game.on_forum.texts(), 1)]
    middle = len(texts) // 2
    as_files = [*texts[:2], ("rappel-1.md", reminder), *texts[2:middle]]
    as_files += [("rappel-2.md", reminder.replace("merci", "merci à tous")), *texts[middle:]]
    for thread in (as_files, "\n\n".join(text for _, text in as_files)):
        outcome = game.check(thread)
        assert outcome.report.code == 0, outcome.report.text()


class _BrowserCopy(HTMLParser):
    """The text a browser copies from a post shown as HTML: a line per block,
    table cells separated by tabs, a code block's lines as they are."""

    BLOCKS = frozenset(
        ["p", "h1", "h2", "h3", "h4", "h5", "h6", "li", "ul", "ol", "table", "tr", "hr", "pre"]
    )

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []
        self.cell = 0
        self.pre = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.BLOCKS or tag == "br":
            self.out.append("\n")
        self.pre = self.pre or tag == "pre"
        if tag == "tr":
            self.cell = 0
        if tag in ("td", "th"):
            self.out.append("\t" if self.cell else "")
            self.cell += 1

    def handle_endtag(self, tag: str) -> None:
        self.pre = self.pre and tag != "pre"
        if tag in self.BLOCKS:
            self.out.append("\n")

    def handle_data(self, data: str) -> None:
        self.out.append(data if self.pre else re.sub(r"[ \t\n\r\f]+", " ", data))


def browser_copy(markdown: str) -> str:
    parser = _BrowserCopy()
    parser.feed(convert(markdown, "html"))
    lines = [line.rstrip(" ") for line in "".join(parser.out).split("\n")]
    return "\n".join(line for line in lines if line.strip()) + "\n"


@pytest.mark.parametrize("game_id", ["magot", "fistful", "colt"])
def test_a_thread_a_browser_copied_as_plain_text_is_verified(published, game_id: str) -> None:
    game = published(game_id)
    thread = "\n\n".join(browser_copy(post.markdown) for post in game.on_forum.posts)
    assert "**" not in thread and "<" not in thread
    outcome = game.check(thread)
    assert outcome.report.code == 0, outcome.report.text()
    assert detect_format(thread) == "text"
    assert "(format html)" in outcome.report.text()  # compared with gm's HTML, as shown
