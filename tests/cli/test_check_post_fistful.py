"""``gm check-post`` and tools/gm_check.py on Fistful of Gold's posts.

What a player of a duel can check from the forum alone: each card a duel
post shows is sealed again with the salt published next to it and gives the
seal printed there, which is the one its player received privately when the
MJ recorded the card; after the game, the disclosure does the same for every
secret choice (setup discards, duel cards, end-of-manche discards and the
final-duel card chosen among two, R-5), and each of them against the seal
an earlier post printed (the setup's, the duel's, the end of the manche's):
without those posts it is « not fully checked » (exit 3). A post edited by
hand fails. (Every attack on the posts is in tests/tools/test_gm_check_attacks.py.)

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


def tool(text: str, *args: str, command: str = "post") -> tuple[int, str]:
    done = subprocess.run(
        [sys.executable, "-I", "-S", str(TOOL), command, "-", *args],
        input=text,
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=False,
    )
    return done.returncode, done.stdout


def checked(out: str) -> set[tuple[Any, ...]]:
    """The secret, player and seal of each « OK : … : sceau S retrouvé » line:
    (manche, duel, player, seal) for a card, (manche, player, seal) for an
    end-of-manche choice, (player, seal) for the setup discards."""
    found: set[tuple[Any, ...]] = set()
    for m in re.finditer(
        r"^OK : (.+?), ([^,(]+?) \(.*?\) : sceau ([0-9a-f]{32}) retrouvé", out, re.M
    ):
        where, player, digits = m[1], m[2], m[3]
        card = re.fullmatch(r"manche (\d+), duel (\d+)", where)
        end = re.fullmatch(r"fin de la manche (\d+)", where)
        if card:
            found.add((int(card[1]), int(card[2]), player, digits))
        elif end:
            found.add((int(end[1]), player, digits))
        else:
            assert where == "mise en place", where
            found.add((player, digits))
    return found


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

    def in_force(self) -> set[tuple[Any, ...]]:
        """Every secret choice in force, keyed as ``checked`` keys them, from the log."""
        latest: dict[tuple[Any, ...], Any] = {}
        for e in self.history:
            if e["kind"] in SEALED:
                fields = {
                    "fistful.card-played": ("manche", "duel", "player"),
                    "fistful.end-chosen": ("manche", "player"),
                    "fistful.setup-discarded": ("player",),
                }[e["kind"]]
                latest[tuple(e["payload"][f] for f in fields)] = e
        return {(*k, e["seal"].removeprefix("sha256:")[:32]) for k, e in latest.items()}

    def manche_ends(self) -> dict[int, bool]:
        """Each manche scored → whether it had a final duel."""
        return {
            e["payload"]["result"]["manche"]: e["payload"]["result"]["final"] is not None
            for e in self.history
            if e["kind"] == "fistful.manche-ended"
        }

    def shown_in_full(self, manche: int) -> set[tuple[Any, ...]]:
        """The end-of-manche choices a final duel shows whole: one discard, revealed there."""
        if not self.manche_ends()[manche]:
            return set()
        latest = {
            e["payload"]["player"]: e
            for e in self.history
            if e["kind"] == "fistful.end-chosen" and e["payload"]["manche"] == manche
        }
        return {
            (manche, p, e["seal"].removeprefix("sha256:")[:32])
            for p, e in latest.items()
            if len(e["payload"]["choice"]["discards"]) == 1
        }

    def duels(self) -> list[tuple[int, int]]:
        return [
            (e["payload"]["manche"], e["payload"]["duel"])
            for e in self.history
            if e["kind"] == "fistful.duel-resolved"
        ]

    def thread(self, fmt: str = "markdown") -> str:
        """Every post of the game but the disclosure, one after the other."""
        posts = self.gm.runner.invoke(
            __import__("gm.cli").cli.cli, ["--db", self.gm.db, "chronicle"]
        )
        assert posts.exit_code == 0
        return str(posts.stdout)


@pytest.fixture(scope="module", params=sorted(GAMES))
def played(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Played:
    gm = Gm(str(tmp_path_factory.mktemp("fistful-check") / "gm.db"))
    gm("play", str(GAMES[request.param]), "--keep")
    return Played(gm, request.param)


@pytest.mark.parametrize("fmt", FORMATS)
def test_every_duel_post_checks_against_the_seals_players_received(
    played: Played, fmt: str
) -> None:
    in_force = played.in_force()
    for manche, duel in played.duels():
        post = played.gm("post", "duel", f"{manche}.{duel}", "--format", fmt).stdout
        code, out = tool(post)
        assert code == 0, out
        got = checked(out)
        # both cards of the duel, each with the seal its player was sent
        assert {k[:3] for k in got} == {k[:3] for k in in_force if k[:2] == (manche, duel)}
        assert got <= in_force
        assert "chaque joueur compare le sceau de sa carte à celui de sa réponse privée" in out


@pytest.mark.parametrize("fmt", FORMATS)
def test_every_manche_post_checks_the_choices_its_final_duel_shows(
    played: Played, fmt: str
) -> None:
    for manche in played.manche_ends():
        code, out = tool(played.post("manche", manche, fmt))
        assert code == 0, out
        assert checked(out) == played.shown_in_full(manche)


def test_a_final_duel_card_changed_in_a_manche_post_is_detected(played: Played) -> None:
    shown = [e for m in played.manche_ends() for e in played.shown_in_full(m)]
    if not shown:
        assert played.name != "sept-rouge"  # there: bob's 8 in the final duel of manche 1
        pytest.skip("no choice shown whole by a final duel in this game")
    manche, player, _ = shown[0]
    post = played.post("manche", manche)
    card = re.search(
        rf"\*\*{re.escape(player)}\*\* (?:joue )?(?:le|la) \*\*([1-8]|Dynamite) ", post
    )
    assert card is not None
    other = "1" if card[1] != "1" else "2"
    edited = post.replace(card[0], card[0].replace(f"**{card[1]} ", f"**{other} "), 1)
    code, out = tool(edited)
    assert code == 1
    assert (
        f"DIFFÉRENT : fin de la manche {manche}, {player} (le compte de la manche {manche}) : sceau recalculé"
        in out
    )


@pytest.mark.parametrize("fmt", FORMATS)
def test_the_disclosure_opens_every_secret_choice_of_the_game(played: Played, fmt: str) -> None:
    code, out = tool(played.post("disclosure", fmt=fmt))
    assert code == 3, out  # alone: not compared with the seals published during the game
    assert checked(out) == played.in_force()
    assert "DIFFÉRENT" not in out
    assert "la mise en place manque" in out
    # with every post of the game, everything is checked
    code, out = tool(played.thread() + played.post("disclosure"), command="thread")
    assert code == 0, out
    assert checked(out) >= played.in_force()


def test_a_card_changed_in_a_duel_post_is_detected(played: Played) -> None:
    manche, duel = played.duels()[0]
    post = played.gm("post", "duel", f"{manche}.{duel}").stdout
    first = re.search(r"\*\*(.+?)\*\* joue (?:le|la) \*\*([1-8]|Dynamite) ", post)
    assert first is not None
    player, card = first[1], first[2]
    other = "1" if card != "1" else "2"
    edited = post.replace(f"**{card} ", f"**{other} ", 1)
    code, out = tool(edited)
    assert code == 1
    assert (
        f"DIFFÉRENT : manche {manche}, duel {duel}, {player} (le duel {duel} de la manche {manche}) : sceau recalculé"
        in out
    )


def test_a_salt_changed_in_the_disclosure_is_detected(played: Played) -> None:
    post = played.post("disclosure")
    salt = re.search(r"\(sel `([0-9a-f]+)`\)", post)
    assert salt is not None
    edited = post.replace(salt[1], salt[1][::-1], 1)
    code, out = tool(edited)
    assert code == 1 and sum(line.startswith("DIFFÉRENT") for line in out.splitlines()) == 1, out


def test_an_end_of_manche_discard_changed_in_the_disclosure_is_detected(played: Played) -> None:
    post = played.post("disclosure")
    # a chosen discard (« au choix »): a discard the rules force, the card
    # left in hand, is no secret: gm verify checks those
    manches = [m.start() for m in re.finditer(r"^\*\*Manche \d+\*\*$", post, re.M)]
    for line in re.finditer(r"^- défausses\u00a0: (.*)$", post, re.M):
        manche = sum(1 for start in manches if start < line.start())
        part = next((p for p in line[1].split(" · ") if p.endswith("(au choix)")), None)
        if part is not None:
            break
    else:
        pytest.fail("no chosen discard in this game")
    player, _, shown = part.partition(" **")
    card = shown.split(" ", 1)[0]
    other = next(c for c in "12345678" if c not in line[1])
    edited = post.replace(line[0], line[0].replace(f"{player} **{card} ", f"{player} **{other} "))
    code, out = tool(edited)
    assert code == 1
    assert (
        f"DIFFÉRENT : fin de la manche {manche}, {player} (le dévoilement) : sceau recalculé" in out
    )


def test_gm_check_post_says_the_same_as_the_stand_alone_tool(
    played: Played, tmp_path: Path
) -> None:
    manche, duel = played.duels()[-1]
    duel_post = played.gm("post", "duel", f"{manche}.{duel}").stdout
    for text, code in ((duel_post, 0), (played.post("disclosure"), 3)):
        path = tmp_path / "post.md"
        path.write_text(text, encoding="utf-8")
        result = played.gm("check-post", "post", str(path), code=code)
        done = subprocess.run(
            [sys.executable, "-I", "-S", str(TOOL), "post", str(path)],
            capture_output=True,
            text=True,
            encoding="utf-8",
            check=False,
        )
        assert (result.exit_code, result.stdout) == (done.returncode, done.stdout)
