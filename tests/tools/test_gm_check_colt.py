"""``gm_check.py`` reads Colt Express threads: a whole game played by hand
(tests/scenarios/colt-doc-five-rounds.toml), in every form a player gets
it, is fully checked: the seed against the opening's commitment and every
face-down card, sealed again from the salt its Action post prints, against
the seal its Plan post published. A card changed in an Action post, or a
seal changed in a Plan post, is a mismatch.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from gmcheck_support import FORMS, Files, check
from support import typeset

from gm.cli import cli
from gm.service import chronicle
from gm.service.env import Env

SCENARIO = Path(__file__).parents[1] / "scenarios" / "colt-doc-five-rounds.toml"
SLUG = "cinq-manches-jusqu-a-tombstone"


@pytest.fixture(scope="module")
def bodies(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    db = str(tmp_path_factory.mktemp("colt-check") / "gm.db")
    result = CliRunner().invoke(cli, ["--db", db, "play", str(SCENARIO), "--keep"])
    assert result.exit_code == 0, result.output
    env = Env(db=db)
    return [p.body for p in env.store.posts(SLUG)] + chronicle.chronicle(env, SLUG)[:1]


@pytest.fixture
def files(tmp_path: Path) -> Files:
    return Files(tmp_path)


@pytest.mark.parametrize("form", [*FORMS, "chronicle"])
def test_an_honest_colt_thread_is_fully_checked(bodies: list[str], files: Files, form: str) -> None:
    text = (
        bodies[-1] if form == "chronicle" else "".join(FORMS[form](b) + "\n" for b in bodies[:-1])
    )
    code, out = check("thread", files(text))
    assert code == 0, out
    assert "la graine correspond au sceau" in out
    # bob's face-down Tir (round 1, turn 2) and ana's face-down Déplacement (round 3, turn 5)
    assert re.search(r"^OK : manche 1, carte face cachée du tour 2, bob : sceau ouvert", out, re.M)
    assert re.search(r"^OK : manche 3, carte face cachée du tour 5, ana : sceau ouvert", out, re.M)


def test_a_face_down_card_changed_after_the_fact_is_caught(bodies: list[str], files: Files) -> None:
    posts = bodies[:-1]
    changed = [
        b.replace(
            typeset("Carte face cachée de bob (tour 2) : Tir,"),
            typeset("Carte face cachée de bob (tour 2) : Braquage,"),
        )
        for b in posts
    ]
    assert changed != posts
    code, out = check("thread", files("\n".join(changed)))
    assert code == 1, out
    assert "manche 1, carte face cachée du tour 2, bob : sceau" in out


def test_a_plan_seal_changed_is_caught(bodies: list[str], files: Files) -> None:
    posts = bodies[:-1]
    # gm prints a no-break space before « : » (the render pass)
    pattern = re.compile(r"(Sceau de la carte face cachée de bob \(tour 2\)\u00a0: `)([0-9a-f])")
    changed = [pattern.sub(lambda m: m[1] + ("0" if m[2] != "0" else "1"), b) for b in posts]
    assert changed != posts
    code, out = check("thread", files("\n".join(changed)))
    assert code == 1, out
    assert "manche 1, carte face cachée du tour 2, bob : sceau" in out
