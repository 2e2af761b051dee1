"""A cheating MJ's edits of an honest thread: every one fails, naming the post and the line.

The edits a dishonest MJ could make to a thread he published, applied to an
honest random game of every registered game (``conftest.published``): a
number (a bill, a share, gold, a wound, a card, a purse…) or a name changed
in a post, a line added, a post dropped, pasted twice or out of order, a
line hidden in a comment or a transparent colour, a record of a proof
rewritten, a seal's body changed, an opening forged. The checker knows no
game: the edit is found because gm renders the post again from the
replayed log and the text differs, or because the chain does not hold.
"""

from __future__ import annotations

import random
import re

import pytest
from conftest import GAMES, Published
from emulate import BLOCK_INTRO

from gm.check.report import BAD
from gm.core import proof as proofs


def files(game: Published, preset: str = "markdown") -> list[tuple[str, str]]:
    return [
        (f"message-{p.number}.md", text)
        for p, text in zip(game.emulated.posts, game.emulated.texts(preset), strict=True)
    ]


def section(text: str, number: int) -> str:
    for part in text.split("\n\n"):
        if part.startswith(f"Message {number} ("):
            return part
    raise AssertionError(f"no section for message {number} in:\n{text}")


def rendered(game: Published) -> list[int]:
    """The posts the checker renders again (all, once the game is over)."""
    fresh = game.check().fresh
    return [p.number for p in game.emulated.posts if p.number in fresh]


def one_of_each_kind(game: Published) -> list[int]:
    seen: dict[str, int] = {}
    known = set(rendered(game))
    for post in game.emulated.posts:
        if post.number in known:
            seen.setdefault(post.kind, post.number)
    return sorted(seen.values())


def text_lines(text: str) -> list[int]:
    """Indexes of the lines of a post a reader reads (its proof block aside)."""
    lines = text.split("\n")
    end = lines.index(BLOCK_INTRO) if BLOCK_INTRO in lines else len(lines)
    return [i for i in range(end) if lines[i].strip()]


def edited(
    texts: list[tuple[str, str]], number: int, index: int, line: str
) -> list[tuple[str, str]]:
    out = list(texts)
    name, text = out[number - 1]
    lines = text.split("\n")
    lines[index] = line
    out[number - 1] = (name, "\n".join(lines))
    return out


def assert_caught(game: Published, texts: list[tuple[str, str]], number: int, *needles: str) -> str:
    report = game.check(texts).report
    text = report.text()
    assert report.code == 1, text
    part = section(text, number)
    bad = [line for line in part.split("\n") if line.strip().startswith(f"{BAD} :")]
    assert any(all(n in line for n in needles) for line in bad), (needles, part)
    return part


@pytest.mark.parametrize("game_id", GAMES)
def test_a_number_changed_in_any_post_is_caught_with_what_gm_prints(published, game_id) -> None:
    game = published(game_id)
    texts = files(game)
    rng = random.Random(game_id)
    for number in one_of_each_kind(game):
        lines = texts[number - 1][1].split("\n")
        # a digit a reader sees (not a list item's number, which Markdown renumbers)
        candidates = [
            (i, m.start())
            for i in text_lines(texts[number - 1][1])
            for m in re.finditer(r"\d", lines[i])
            if not re.match(r"\s*\d+[.)] ", lines[i][: m.start() + 3])
        ]
        if not candidates:
            continue
        i, at = rng.choice(candidates)
        digit = str((int(lines[i][at]) + 1) % 10)
        line = lines[i][:at] + digit + lines[i][at + 1 :]
        assert_caught(
            game,
            edited(texts, number, i, line),
            number,
            f"ligne message-{number}.md:{i + 1}",
            "gm écrirait",
        )
