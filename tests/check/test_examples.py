"""The example games of ``campaigns/`` check as their players would check them."""

from __future__ import annotations

from pathlib import Path

import pytest
from forum import forum

from gm.check.checker import check_thread
from gm.check.report import BAD, OK
from gm.service import publishing, scenario
from gm.service.env import Env

CAMPAIGNS = Path(__file__).resolve().parents[2] / "campaigns"


@pytest.mark.parametrize("path", sorted(CAMPAIGNS.glob("exemple-*.toml")), ids=lambda p: p.stem)
def test_an_example_game_is_verified(db: str, path: Path) -> None:
    env = Env(db=db)
    played = scenario.play(env, path)
    if played.campaign.over and played.campaign.game.info.post_kind("disclosure") is not None:
        # the MJ posts the end-of-game disclosure last: it opens every secret
        publishing.find_post(env, played.campaign.slug, "disclosure", None)
    on_forum = forum(env, played.campaign.slug)
    outcome = check_thread([("fil.md", on_forum.thread())], renderer=on_forum.render)
    text = outcome.report.text()
    assert f"{BAD} :" not in text, text
    if played.campaign.over:
        assert outcome.report.code == 0, text
        assert text.count(f"{OK} : texte rendu de nouveau par gm") == len(on_forum.posts)
    else:  # a game left mid-way: what waits for the seed or a later post is said
        assert outcome.report.code == 3, text
