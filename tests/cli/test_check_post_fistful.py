"""``gm check-post`` and tools/gm_check.py on Fistful of Gold's posts.

What a player of a duel can check from the forum alone: each card a duel
post shows is sealed again with the salt published next to it and gives the
seal printed there, which is the one its player received privately when the
MJ recorded the card; after the game, the disclosure does the same for every
secret choice (setup discards, duel cards, end-of-manche discards and the
final-duel card chosen among two, R-5). A post edited by hand fails.

Games: the README's example (a long game with a green 8 and a final duel)
and a scenario with red-7 ends and the choices they ask for; random games
are checked in tests/games/fistful/test_fistful_posts_secrecy.py.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from support import Gm

ROOT = Path(__file__).resolve().parents[2]
TOOL = ROOT / "tools" / "gm_check.py"
GAMES = {
    "exemple": ROOT / "campaigns" / "exemple-fistful.toml",
    "sept-rouge": ROOT / "tests" / "scenarios" / "fistful-red-seven-choices.toml",
}
FORMATS = ["markdown", "bbcode", "html"]
SEALED = {"fistful.card-played", "fistful.setup-discarded", "fistful.end-chosen"}


def tool(text: str, *args: str) -> tuple[int, str]:
    done = subprocess.run(
        [sys.executable, "-I", "-S", str(TOOL), "post", "-", *args],
        input=text,
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=False,
    )
    return done.returncode, done.stdout


def checked(out: str) -> set[tuple[int, str, str]]:
    """(turn, player, seal) of each « OK : tour T, P : sceau S retrouvé » line."""
    return {
        (int(m[1]), m[2], m[3])
        for m in re.finditer(r"^OK : tour (\d+), (.+?) : sceau ([0-9a-f]{8}) retrouvé", out, re.M)
    }


class Played:
    def __init__(self, gm: Gm, name: str) -> None:
        self.gm = gm
        self.name = name
        self.history = gm.history()

    def post(self, kind: str, round_: int | None = None, fmt: str = "markdown") -> str:
        args = ["post", kind, "--format", fmt]
        if round_ is not None:
            args += ["--round", str(round_)]
        return str(self.gm(*args).stdout)

    def in_force(self) -> set[tuple[int, str, str]]:
        """Every secret choice in force, (turn, player, short seal), from the log."""
        latest: dict[tuple[int, str], Any] = {}
        for e in self.history:
            if e["kind"] in SEALED:
                latest[(e["payload"]["round"], e["payload"]["player"])] = e
        return {(t, p, e["seal"].removeprefix("sha256:")[:8]) for (t, p), e in latest.items()}

    def manche_ends(self) -> dict[int, bool]:
        """The turn of each end of manche → whether it had a final duel."""
        return {
            e["payload"]["round"]: e["payload"]["result"]["final"] is not None
            for e in self.history
            if e["kind"] == "fistful.manche-ended"
        }

    def shown_in_full(self, turn: int) -> set[tuple[int, str, str]]:
        """The end-of-manche choices a final duel shows whole: one discard, revealed there."""
        if not self.manche_ends()[turn]:
            return set()
        latest = {
            e["payload"]["player"]: e
            for e in self.history
            if e["kind"] == "fistful.end-chosen" and e["payload"]["round"] == turn
        }
        return {
            (turn, p, e["seal"].removeprefix("sha256:")[:8])
            for p, e in latest.items()
            if len(e["payload"]["choice"]["discards"]) == 1
        }

    def duel_turns(self) -> list[int]:
        return [e["payload"]["round"] for e in self.history if e["kind"] == "fistful.duel-resolved"]


@pytest.fixture(scope="module", params=sorted(GAMES))
def played(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Played:
    gm = Gm(str(tmp_path_factory.mktemp("fistful-check") / "gm.db"))
    gm("play", str(GAMES[request.param]))
    return Played(gm, request.param)


@pytest.mark.parametrize("fmt", FORMATS)
def test_every_duel_post_checks_against_the_seals_players_received(
    played: Played, fmt: str
) -> None:
    in_force = played.in_force()
    for turn in played.duel_turns():
        code, out = tool(played.post("duel", turn, fmt))
        assert code == 0, out
        got = checked(out)
        # both cards of the duel, each with the seal its player was sent
        assert {(t, p) for t, p, _ in got} == {(turn, p) for t, p, _ in in_force if t == turn}
        assert got <= in_force
        assert "compare aussi ce sceau à celui de sa réponse privée" in out


@pytest.mark.parametrize("fmt", FORMATS)
def test_every_manche_post_checks_the_choices_its_final_duel_shows(
    played: Played, fmt: str
) -> None:
    for turn in played.manche_ends():
        code, out = tool(played.post("manche", turn, fmt))
        assert code == 0, out
        assert checked(out) == played.shown_in_full(turn)


def test_a_final_duel_card_changed_in_a_manche_post_is_detected(played: Played) -> None:
    shown = [e for t in played.manche_ends() for e in played.shown_in_full(t)]
    if not shown:
        assert played.name != "sept-rouge"  # there: bob's 8 in the final duel of manche 1
        pytest.skip("no choice shown whole by a final duel in this game")
    turn, player, _ = shown[0]
    post = played.post("manche", turn)
    card = re.search(
        rf"\*\*{re.escape(player)}\*\* (?:joue )?(?:le|la) \*\*([1-8]|Dynamite) ", post
    )
    assert card is not None
    other = "1" if card[1] != "1" else "2"
    edited = post.replace(card[0], card[0].replace(f"**{card[1]} ", f"**{other} "), 1)
    code, out = tool(edited)
    assert code == 1
    assert f"DIFFÉRENT : tour {turn}, {player} : sceau recalculé" in out


@pytest.mark.parametrize("fmt", FORMATS)
def test_the_disclosure_opens_every_secret_choice_of_the_game(played: Played, fmt: str) -> None:
    code, out = tool(played.post("disclosure", fmt=fmt))
    assert code == 0, out
    assert checked(out) == played.in_force()
    assert "DIFFÉRENT" not in out


def test_a_card_changed_in_a_duel_post_is_detected(played: Played) -> None:
    turn = played.duel_turns()[0]
    post = played.post("duel", turn)
    first = re.search(r"\*\*(.+?)\*\* joue (?:le|la) \*\*([1-8]|Dynamite) ", post)
    assert first is not None
    player, card = first[1], first[2]
    other = "1" if card != "1" else "2"
    edited = post.replace(f"**{card} ", f"**{other} ", 1)
    code, out = tool(edited)
    assert code == 1
    assert f"DIFFÉRENT : tour {turn}, {player} : sceau recalculé" in out


def test_a_salt_changed_in_the_disclosure_is_detected(played: Played) -> None:
    post = played.post("disclosure")
    salt = re.search(r"\(sel `([0-9a-f]+)`\)", post)
    assert salt is not None
    edited = post.replace(salt[1], salt[1][::-1], 1)
    code, out = tool(edited)
    assert code == 1 and out.count("DIFFÉRENT") == 1


def test_an_end_of_manche_discard_changed_in_the_disclosure_is_detected(played: Played) -> None:
    post = played.post("disclosure")
    # a chosen discard: one whose turn has an opened seal (a discard the rules
    # force, the card left in hand, is no secret: gm verify checks those)
    chosen = {(t, p) for t, p, _ in played.in_force()}
    for line in re.finditer(r"^- défausses \(tour (\d+)\) : (.*)$", post, re.M):
        turn = int(line[1])
        for part in line[2].split(" · "):
            player, _, shown = part.partition(" **")
            if (turn, player) in chosen:
                break
        else:
            continue
        break
    else:
        pytest.fail("no chosen discard in this game")
    card = shown.split(" ", 1)[0]
    other = next(c for c in "12345678" if c not in line[2])
    edited = post.replace(line[0], line[0].replace(f"{player} **{card} ", f"{player} **{other} "))
    code, out = tool(edited)
    assert code == 1
    assert f"DIFFÉRENT : tour {turn}, {player} : sceau recalculé" in out


def test_gm_check_post_says_the_same_as_the_stand_alone_tool(
    played: Played, tmp_path: Path
) -> None:
    for text in (played.post("duel", played.duel_turns()[-1]), played.post("disclosure")):
        path = tmp_path / "post.md"
        path.write_text(text, encoding="utf-8")
        result = played.gm("check-post", "post", str(path))
        assert (result.exit_code, result.stdout) == tool(text)
