"""Honest threads pass: ``gm_check.py thread`` on whole random games.

Random games of every registered game (tests/tools/gmcheck_support.py:
random players, some with Markdown or BBCode in their names, players' words
for the fortune sent at random moments, dice rolled between the moves), then
the whole thread checked as players get it: Markdown, BBCode (tables native,
as lists, as code blocks), HTML, a browser's plain copy, and ``gm chronicle``
in Markdown and HTML. Everything must be checked and match: exit 0, with the
seed checked, every label recomputed, every bill and die drawn again and
every seal opened. A thread with a post missing says what it could not check
(exit 3), in any order the files come.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from gmcheck_support import FORMS, Files, Played, check, play_random

from gm.service import actions, chronicle

SEEDS = range(2)
GAMES = ["magot", "fistful"]


@pytest.fixture(
    scope="module", params=[(g, s) for g in GAMES for s in SEEDS], ids=lambda p: f"{p[0]}-{p[1]}"
)
def played(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Played:
    game, seed = request.param
    return play_random(game, seed, str(tmp_path_factory.mktemp(f"fil-{game}-{seed}") / "gm.db"))


@pytest.fixture
def files(tmp_path: Path) -> Files:
    return Files(tmp_path)


def thread(played: Played, form: str) -> str:
    if form == "chronicle":
        return chronicle.chronicle(played.env, played.slug)[0]
    if form == "chronicle-html":
        return chronicle.chronicle(played.env, played.slug, "html")[0]
    return "".join(FORMS[form](body) + "\n" for body in played.bodies())


@pytest.mark.parametrize("form", [*FORMS, "chronicle", "chronicle-html"])
def test_an_honest_thread_is_fully_checked(played: Played, files: Files, form: str) -> None:
    code, out = check("thread", files(thread(played, form)))
    assert code == 0, out
    assert not re.search(r"^(DIFFÉRENT|NON VÉRIFIÉ)", out, re.M), out
    assert "la graine correspond au sceau" in out
    history = played.history()
    # every draw and every roll drawn again from the seed
    draws = sum(1 for e in history if e.kind == "gm.chance-drawn")
    redone = len(
        re.findall(
            r"^OK : .* (?:billets .* retirés de la graine|dés .* retirés de la graine)", out, re.M
        )
    )
    manual = sum(1 for e in history if e.kind == "magot.loot-drawn" and e.payload["manual"])
    assert redone == draws - manual, (redone, draws, manual)
    assert len(re.findall(r"^OK : .* étiquette ", out, re.M)) == draws - manual
    # every secret in force sealed again from its salt
    assert len(re.findall(r"^OK : .* sceau [0-9a-f]{32} retrouvé", out, re.M)) >= len(
        in_force(played)
    )


def test_the_random_games_cover_words_rolls_and_every_game(tmp_path: Path) -> None:
    """The honest threads above are not vacuous."""
    games = [play_random(g, s, str(tmp_path / f"{g}{s}.db")) for g in GAMES for s in SEEDS]
    assert {p.game for p in games} == set(GAMES)
    assert sum(p.rolls for p in games) >= 6
    assert sum(p.words for p in games) >= 6
    names = {n for p in games for n in actions.load(p.env, p.slug).meta.players}
    assert {"B_b", "*Zoé*", "Mo[b]", "Jean Paul"} & names


def test_posts_given_in_any_order_are_put_in_order(played: Played, files: Files) -> None:
    paths = [files(body, f"m{i}") for i, body in enumerate(played.bodies())]
    random.Random(7).shuffle(paths)
    code, out = check("thread", *paths)
    assert code == 0, out


def test_a_thread_with_a_post_missing_says_what_was_not_checked(
    played: Played, files: Files
) -> None:
    posts = played.posts
    last = len(posts) - 1  # the disclosure
    cases = {"disclosure": last, "final": next(i for i, p in enumerate(posts) if p.kind == "final")}
    middle = [
        i for i, p in enumerate(posts) if p.kind in ("results", "reveal", "round", "duel", "setup")
    ]
    cases["middle"] = middle[len(middle) // 2]
    for name, gone in cases.items():
        text = "".join(p.body + "\n" for i, p in enumerate(posts) if i != gone)
        code, out = check("thread", files(text, name))
        assert code == 3, (name, out)
        assert re.search(r"^NON VÉRIFIÉ : ", out, re.M), out
        assert not re.search(r"^DIFFÉRENT", out, re.M), out
    # a game under way: the seed is not revealed, so the draws are not redone
    under_way = [p.body for p in posts if p.kind not in ("final", "disclosure")]
    code, out = check("thread", files("".join(b + "\n" for b in under_way), "en-cours"))
    assert code == 3, out
    assert "la fin de partie manque (ou la partie n'est pas finie)" in out


def in_force(played: Played) -> list[str]:
    """The seal of every secret in force (the log's, MJ side): what the
    players' private replies gave them last."""
    from gm.service import actions
    from gm.service.secrets import seal_of

    campaign = actions.load(played.env, played.slug)
    return [seal_of(s.record).removeprefix("sha256:") for s in campaign.secrets.values()]


def test_each_player_finds_the_seals_of_their_private_replies(played: Played, files: Files) -> None:
    """--seal: every seal gm sent privately and kept in force is published."""
    seals = in_force(played)
    args = [a for s in seals for a in ("--seal", s[:32])]
    code, out = check("thread", files(thread(played, "markdown")), *args)
    assert code == 0, out
    assert len(re.findall(r"^OK : ton sceau [0-9a-f]{32} est celui publié", out, re.M)) == len(
        seals
    )


def test_reminders_pasted_into_a_thread_are_no_game_and_no_duplicate(tmp_path: Path) -> None:
    """Players paste the MJ's reminders with the rest: two reminders (alike in
    title, different in text) are neither « two games » nor « two different
    posts for one reminder »: an honest thread stays fully checked."""
    from gm.service import campaigns, publishing
    from gm.service.env import Env

    env = Env(db=str(tmp_path / "gm.db"))
    slug = campaigns.create(env, "magot", "Rappels", ["ana", "bob", "cyd"], seed="s").campaign.slug
    first = publishing.remind(env, slug).public
    actions.step(env, slug, "draw", {})
    actions.submit(env, slug, "ana", "bob BANG")
    second = publishing.remind(env, slug).public
    assert first != second and "on attend encore" in second
    bodies = [p.body for p in env.store.posts(slug)]
    files = Files(tmp_path)
    code, out = check("thread", files("\n".join([bodies[0], first, *bodies[1:], second])))
    assert "deux jeux différents" not in out and "deux messages différents" not in out, out
    assert code == 3, out  # the seed is not revealed yet: nothing contradicted
