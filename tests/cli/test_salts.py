"""Salts in Le Magot's posts: what a player can check, and what stays secret.

A two-round game with every fate of an order: round 1 has a live shot (fab),
a disabled order (marco, hit by fab's triple first), a lowered one (tom
folds) and a held one (lulu aims at tom). Only fab's salt is published with
the results, in the text and in the post's proof; the others' orders stay
secret until the disclosure, which publishes every salt. A secret order
cannot be found from its seal without its salt. A results post edited by
hand fails gm check (every attack on the posts is in tests/check).
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from gm.cli import cli
from gm.core import canonical

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


def public_posts(game: Game) -> str:
    """Every public post but the disclosure."""
    kinds = [("opening", None), ("final", None)]
    kinds += [(k, r) for r in (1, 2) for k in ("round", "reveal", "results")]
    return "".join(game("post", kind, *(("--round", str(r)) if r else ())) for kind, r in kinds)


def thread(game: Game, **edits: str) -> list[tuple[str, str]]:
    """Every post of the game as stored (``edits``: a post's new text, by its number)."""
    from gm.service.env import Env

    posts = Env(db=game.db).store.posts("verif")
    return [(f"message-{p.number}.md", edits.get(str(p.number), p.body)) for p in posts]


def proofs_text(text: str) -> str:
    """The JSON of every proof block in ``text``: what a post publishes besides its words."""
    from gm.core import proof as proofs

    return " ".join(json.dumps(proofs.decode(b).to_json()) for _, b in proofs.find(text))


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
        assert salt not in posts and salt not in proofs_text(posts)
    disclosure = game("post", "disclosure")
    for round_ in (1, 2):
        for event in game.orders(round_).values():
            assert f"(sel `{event['salt']}`)" in disclosure


def test_the_thread_checks_and_a_results_post_edited_by_hand_does_not(game: Game) -> None:
    from gm.check.checker import check_thread
    from gm.service.env import Env

    game("post", "disclosure")  # the thread a finished game owes, whatever ran before
    report = check_thread(thread(game)).report
    assert report.code == 0, report.text()
    stored = Env(db=game.db).store.posts("verif")
    number, text = next((p.number, p.body) for p in stored if (p.kind, p.at) == ("results", (1,)))
    salt = game.orders(1)["fab"]["salt"]
    for name, edited in [
        ("option", text.replace("**BANG BANG BANG** — fab", "**BANG** — fab")),
        ("target", text.replace("fab sur marco", "fab sur lulu")),
        ("salt", text.replace(salt, salt[:-1] + ("0" if salt[-1] != "0" else "1"))),
    ]:
        assert edited != text, name
        report = check_thread(thread(game, **{str(number): edited})).report
        assert report.code == 1, (name, report.text())
        assert f"Message {number} (results 1)" in report.text()


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
