"""Salts in the posts, and ``gm check-post``: what a player can check.

A two-round game with every fate of an order: round 1 has a live shot (fab),
a disabled order (marco, hit by fab's triple first), a lowered one (tom
folds) and a held one (lulu aims at tom). Only fab's salt is published with
the results; the others' orders stay secret until the disclosure, which
publishes every salt. A post edited by hand fails the check, a post checked
without the reveal it depends on is « not fully checked » (exit 3, never 0),
and a secret order cannot be found from its seal without its salt. (Every
attack on the posts is in tests/tools/test_gm_check_attacks.py.)
"""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from gm.cli import cli
from gm.core import canonical

TOOL = Path(__file__).resolve().parents[2] / "tools" / "gm_check.py"
PLAYERS = ["fab", "marco", "lulu", "tom"]
OPTIONS = ["triple", "bang", "click"]


class Game:
    def __init__(self, tmp_path: Path) -> None:
        self.db = str(tmp_path / "check.db")
        self.dir = tmp_path

    def __call__(self, *args: str, code: int = 0) -> str:
        result = CliRunner().invoke(cli, ["--db", self.db, *args])
        assert result.exit_code == code, (result.stdout, result.stderr)
        return result.stdout

    def orders(self, round_: int) -> dict[str, dict[str, Any]]:
        """The order in force of each player in ``round_`` (the log, MJ side)."""
        history = json.loads(self("history", "--json"))
        return {
            e["payload"]["player"]: e
            for e in history
            if e["kind"] == "magot.order-set" and e["payload"]["round"] == round_
        }

    def file(self, name: str, text: str) -> str:
        path = self.dir / name
        path.write_text(text, encoding="utf-8")
        return str(path)


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Game:
    g = Game(tmp_path_factory.mktemp("check"))
    g("new", "magot", "-t", "Vérif", "-p", ",".join(PLAYERS), "--seed", "s", "-o", "rounds=2")
    for orders, fold in [
        ({"fab": "marco BBB", "marco": "fab BANG", "lulu": "tom clic", "tom": "lulu bang"}, "tom"),
        (
            {"fab": "lulu clic", "marco": "tom bang", "lulu": "marco bang", "tom": "fab clic"},
            "lulu",
        ),
    ]:
        g("draw")
        for player, text in orders.items():
            g("order", player, text)
        g("reveal")
        g("fold", fold)
        g("resolve")
    return g


def check(*args: str) -> tuple[int, str]:
    """Run the stand-alone tool and ``gm check-post``: they must agree."""
    done = subprocess.run(
        [sys.executable, "-I", "-S", str(TOOL), *args],
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=False,
    )
    result = CliRunner().invoke(cli, ["check-post", *args])
    assert (done.returncode, done.stdout) == (result.exit_code, result.stdout)
    return done.returncode, done.stdout


def public_posts(game: Game) -> str:
    """Every public post but the disclosure."""
    kinds = [("opening", None), ("final", None)]
    kinds += [(k, r) for r in (1, 2) for k in ("round", "reveal", "results")]
    return "".join(game("post", kind, *(("--round", str(r)) if r else ())) for kind, r in kinds)


def test_results_publish_the_salts_of_live_shots_only(game: Game) -> None:
    results = game("post", "results", "--round", "1")
    fab = game.orders(1)["fab"]
    seal = canonical.seal(fab["kind"], fab["payload"], fab["salt"])
    assert (
        f"Sceaux ouverts\u00a0: fab `{canonical.short(seal, 32)}` (sel `{fab['salt']}`)\n"
        in results
    )
    posts = public_posts(game)
    secret = [
        game.orders(1)[p]["salt"]
        for p in ("marco", "lulu", "tom")  # disabled, held, lowered
    ] + [game.orders(2)[p]["salt"] for p in ("fab", "lulu")]  # held, lowered
    for salt in secret:
        assert salt not in posts
    disclosure = game("post", "disclosure")
    for round_ in (1, 2):
        for event in game.orders(round_).values():
            assert f"(sel `{event['salt']}`)" in disclosure


def test_a_results_post_checks_against_its_reveal(game: Game) -> None:
    results = game.file("results.md", game("post", "results", "--round", "1"))
    reveal = game.file("reveal.md", game("post", "reveal", "--round", "1"))
    code, out = check("post", results, "--reveal", reveal)
    assert code == 0, out
    fab = game.orders(1)["fab"]
    digits = canonical.short(canonical.seal(fab["kind"], fab["payload"], fab["salt"]), 32)
    assert f"OK : tour 1, fab (les résultats du tour 1) : sceau {digits} retrouvé" in out
    assert (
        "tour 1, fab : sceau ouvert dans les résultats du tour 1 = sceau publié avant dans la révélation du tour 1"
        in out
    )
    bbcode = game("post", "results", "--round", "1", "--format", "bbcode")
    assert check("post", game.file("results.bb", bbcode), "--reveal", reveal)[0] == 0
    assert check("post", game.file("reveal2.md", game("post", "reveal", "--round", "2")))[0] == 0


def test_a_results_post_without_its_reveal_is_not_fully_checked(game: Game) -> None:
    results = game.file("results.md", game("post", "results", "--round", "1"))
    code, out = check("post", results)
    assert code == 3, out
    assert (
        "NON VÉRIFIÉ : les résultats du tour 1" in out and "la révélation de ce tour manque" in out
    )
    reveal2 = game.file("reveal2.md", game("post", "reveal", "--round", "2"))
    code, out = check("post", results, "--reveal", reveal2)  # another round's reveal
    assert code == 3, out


def test_a_post_edited_by_hand_is_detected(game: Game) -> None:
    text = game("post", "results", "--round", "1")
    reveal = game.file("reveal.md", game("post", "reveal", "--round", "1"))
    salt = game.orders(1)["fab"]["salt"]
    for name, edited in [
        ("option", text.replace("**BANG BANG BANG** — fab", "**BANG** — fab")),
        ("target", text.replace("fab sur marco", "fab sur lulu")),
        ("salt", text.replace(salt, salt[:-1] + ("0" if salt[-1] != "0" else "1"))),
    ]:
        assert edited != text
        code, out = check("post", game.file(f"{name}.md", edited), "--reveal", reveal)
        assert code == 1, name
        assert "DIFFÉRENT" in out and "MISMATCH" in out
    # a forged seal printed next to the edit still fails against the reveal post
    forged = canonical.seal(
        "magot.order-set",
        {"round": 1, "player": "fab", "target": "marco", "option": "bang"},
        salt,
    )
    true = canonical.seal("magot.order-set", game.orders(1)["fab"]["payload"], salt)
    edited = text.replace("**BANG BANG BANG** — fab", "**BANG** — fab").replace(
        canonical.short(true, 32), canonical.short(forged, 32)
    )
    code, out = check("post", game.file("forged.md", edited), "--reveal", reveal)
    assert code == 1
    assert (
        f"tour 1, fab (les résultats du tour 1) : sceau {canonical.short(forged, 32)} retrouvé"
        in out
    )
    assert (
        f"tour 1, fab : sceau {canonical.short(forged, 32)} ≠ {canonical.short(true, 32)} publié dans la révélation du tour 1"
        in out
    )


def test_the_disclosure_and_the_final_post_check(game: Game) -> None:
    disclosure = game.file("disclosure.md", game("post", "disclosure"))
    reveals = [game.file(f"r{r}.md", game("post", "reveal", "--round", str(r))) for r in (1, 2)]
    code, out = check("post", disclosure, "--reveal", reveals[0], "--reveal", reveals[1])
    assert code == 0, out
    assert out.count("seal matches") == 8  # 8 orders, each with the seal next to its salt
    assert out.count("= sceau publié avant dans la révélation") == 8  # and with the reveal's
    assert check("post", disclosure, "--reveal", reveals[0])[0] == 3  # round 2 not compared
    final = game.file("final.md", game("post", "final"))
    opening = game.file("opening.md", game("post", "opening"))
    code, out = check("post", final, "--opening", opening)
    assert code == 0, out
    assert (
        f"OK : la fin de partie ({final}:" in out
        and f"la graine correspond au sceau sha256:{canonical.sha256_hex('s')} / the final post"
        in out
    )
    assert check("post", final)[0] == 3  # the seed, not compared with the opening


def matches(event: dict[str, Any], printed: str, salt: str | None) -> list[tuple[str, str]]:
    """Every (target, option) whose seal with ``salt`` (or with no salt at all)
    has the printed seal (32 hex digits) of ``event``'s order."""
    player, found = event["payload"]["player"], []
    for target, option in itertools.product(PLAYERS, OPTIONS):
        payload = {"round": 1, "player": player, "target": target, "option": option}
        if salt is None:
            text = canonical.canonical_json({"kind": event["kind"], "payload": payload})
            guess = canonical.digest(text)
        else:
            guess = canonical.seal(event["kind"], payload, salt)
        if canonical.short(guess, 32) == printed:
            found.append((target, option))
    return found


def test_a_secret_order_cannot_be_found_without_its_salt(game: Game) -> None:
    """Brute force: every (target, option) pair against the published seals of
    the orders that stayed secret: no pair matches without the salt (trying
    no salt, an empty one and every salt published before the disclosure),
    exactly one with it."""
    reveal = game("post", "reveal", "--round", "1")
    published = set()
    for round_ in (1, 2):
        results = game("post", "results", "--round", str(round_))
        published |= {
            part.split("(sel `")[1][:32] for part in results.split(" · ") if "(sel `" in part
        }
    for player in ("marco", "lulu", "tom"):
        event = game.orders(1)[player]
        printed = reveal.split(f"{player} `")[1][:32]
        assert printed == canonical.short(
            canonical.seal(event["kind"], event["payload"], event["salt"]), 32
        )

        for salt in [None, "", *sorted(published)]:
            assert matches(event, printed, salt) == []
        assert matches(event, printed, event["salt"]) == [
            (event["payload"]["target"], event["payload"]["option"])
        ]


def test_gm_verify_still_passes(game: Game) -> None:
    game("verify")
