"""``gm_check.py --reply FILE``: a private reply pasted whole, its seals checked.

A player keeps the private replies gm sent them (« Sceau de ton ordre :
`…` », « Sceau de ton choix : `…` », « Ta carte face cachée (tour 2) est
scellée : `…` », « Ta consigne pour ta carte n° 1 est scellée : `…` »).
``--reply`` reads every seal of such a reply and looks for it in the posts
given, as ``--seal`` does, with a line per seal saying what it sealed and
where it is published. A genuine reply of each game passes on the whole
thread, as gm wrote it and as a browser copies it; a reply whose seal was
changed by one digit fails (exit 1); a text with no seal is refused (exit 2).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from gmcheck_support import FORMS, Files, Played, check, play_random

GAMES = ["magot", "fistful", "colt"]
SEAL = re.compile(
    r"(?:Sceau de ton (?:ordre|choix)|est scellée)\u00a0?\s?: `([0-9a-f]{32})`", re.UNICODE
)


@pytest.fixture(scope="module", params=GAMES)
def played(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Played:
    game = request.param
    return play_random(game, 1, str(tmp_path_factory.mktemp(f"reply-{game}") / "gm.db"))


@pytest.fixture
def files(tmp_path: Path) -> Files:
    return Files(tmp_path)


def in_force(played: Played) -> set[str]:
    """The 32 digits of every secret in force: what the last replies gave."""
    from gm.service import actions
    from gm.service.secrets import seal_of

    campaign = actions.load(played.env, played.slug)
    return {seal_of(s.record).removeprefix("sha256:")[:32] for s in campaign.secrets.values()}


def genuine(played: Played) -> list[str]:
    """Private replies whose every seal is still in force (none replaced since)."""
    force = in_force(played)
    out = [r for _, r in played.replies if SEAL.findall(r) and set(SEAL.findall(r)) <= force]
    assert out, f"{played.game}: no private reply with a seal in force"
    return out


def thread(played: Played) -> str:
    return "".join(body + "\n" for body in played.bodies())


@pytest.mark.parametrize("form", ["markdown", "bbcode", "text"])
def test_a_genuine_reply_matches_the_published_seal(
    played: Played, files: Files, form: str
) -> None:
    posts = files(thread(played), "fil")
    kinds = set()
    for reply in genuine(played)[:4]:
        seals = SEAL.findall(reply)
        code, out = check("thread", posts, "--reply", files(FORMS[form](reply), "reponse"))
        assert code == 0, out
        lines = re.findall(
            r"^OK : (ton ordre|ton choix|ta carte face cachée du tour \d+|ta consigne pour ta carte n° \d+)"
            r" \(\S+:\d+\) : sceau ([0-9a-f]{32}) publié (?:pour|parmi) .+, identique / ",
            out,
            re.M,
        )
        assert [s for _, s in lines] == seals, out
        kinds |= {k.split(" du tour")[0].split(" pour ta")[0] for k, _ in lines}
    expected = {"magot": {"ton ordre"}, "fistful": {"ton choix"}, "colt": {"ta carte face cachée"}}
    assert expected[played.game] <= kinds


def test_a_reply_whose_seal_was_changed_fails(played: Played, files: Files) -> None:
    posts = files(thread(played), "fil")
    reply = genuine(played)[0]
    seal = SEAL.findall(reply)[0]
    forged = seal[:-1] + ("0" if seal[-1] != "0" else "1")
    code, out = check("thread", posts, "--reply", files(reply.replace(seal, forged), "reponse"))
    assert code == 1, out
    assert re.search(
        rf"^DIFFÉRENT : .+ \(\S+:\d+\) : sceau {forged} publié dans aucun des messages donnés",
        out,
        re.M,
    ), out
    assert out.rstrip().endswith("(exit 1)")


def test_a_text_without_a_seal_is_refused(played: Played, files: Files) -> None:
    posts = files(thread(played), "fil")
    sealless = next(r for _, r in played.replies if not SEAL.search(r))
    code, out = check("thread", posts, "--reply", files(sealless, "mot"))
    assert code == 2, out
    assert out.startswith("ERREUR / ERROR: ")
    assert "aucun sceau dans cette réponse privée" in out
    assert "no seal in this private reply" in out


def test_the_reply_beside_the_post_that_publishes_its_seal(played: Played, files: Files) -> None:
    """``post``: the reply checked against the one post holding its seal."""
    reply = genuine(played)[0]
    seal = SEAL.findall(reply)[0]
    holder = next(b for b in played.bodies() if seal in b and "(sel" not in b.split(seal)[1][:8])
    code, out = check("post", files(holder, "publie"), "--reply", files(reply, "reponse"))
    assert f"sceau {seal} publié pour " in out, out
    assert code in (0, 3), out
    assert not re.search(r"^DIFFÉRENT", out, re.M), out


def test_a_missing_reply_file_is_a_usage_error(played: Played, files: Files) -> None:
    code, out = check("thread", files(thread(played), "fil"), "--reply", "absent.txt", gm=False)
    assert code == 2
    assert "absent.txt" in out
