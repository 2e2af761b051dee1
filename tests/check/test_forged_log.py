"""An MJ who rewrites his own log, then publishes it: the thread holds together, the rules do not.

The MJ has gm's code: he changes a record as gm writes it (the bills
drawn, a die, the seed, an aim, a round's outcome; Colt Express's cars and
the purses in them), so every later post is rendered from the forged log
and every proof block hashes it. Nothing in the text contradicts the chain:
the checker catches it because it decides every command again with the
game's own rules and draws every draw again from the revealed seed.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from forum import forum
from playing import play
from support import Gm

from gm.check.checker import check_thread
from gm.check.report import BAD
from gm.service.env import Env
from gm.store.draft import Draft
from gm.store.log import Writer
from gm.store.records import NewEvent, StoredEvent

ORDERS = {
    "fab": "sur marco, BANG BANG BANG",
    "marco": "sur lulu, bang",
    "lulu": "sur tom, clic clic clic",
    "tom": "sur fab, clic clic clic",
}


def play_casse(db: str) -> None:
    """A one-round game of Le Magot with a dice roll, over and disclosed."""
    gm = Gm(db)
    gm(
        "new", "magot", "--title", "Le casse", "--players", "fab,marco,lulu,tom",
        "--seed", "graine", "--option", "rounds=1",
    )  # fmt: skip
    gm("draw")
    gm("roll", "2d6", "--reason", "la diligence")
    for player, text in ORDERS.items():
        gm("order", player, text)
    gm("reveal", "--force")
    gm("resolve")
    gm("post", "disclosure")


@pytest.fixture(scope="module")
def casse(tmp_path_factory: pytest.TempPathFactory) -> str:
    db = f"sqlite:///{tmp_path_factory.mktemp('honest') / 'gm.db'}"
    play_casse(db)
    return db


Payload = dict[str, Any]


@contextmanager
def modified_gm(kind: str, change: Callable[[Payload], Payload]) -> Iterator[list[int]]:
    """gm as a cheating MJ changed it: the first ``kind`` event it records is
    altered just before it is chained, and all that follows, posts and
    proofs included, is made from the altered log. Yields the altered seq."""
    hits: list[int] = []
    originals = {Writer: Writer.append, Draft: Draft.append}

    def append(
        self: Writer | Draft,
        slug: str,
        new_events: Sequence[NewEvent],
        expected_seq: int,
        batch: int | None = None,
    ) -> list[StoredEvent]:
        out = []
        for new in new_events:
            if new.kind == kind and not hits:
                payload = change(dict(new.payload))
                assert payload != new.payload
                hits.append(expected_seq + len(out) + 1)
                new = dataclasses.replace(new, payload=payload)
            out.append(new)
        return originals[type(self)](self, slug, out, expected_seq, batch)  # type: ignore[operator]

    # every command is worked out on a draft, then written as drafted
    with mock.patch.object(Writer, "append", append), mock.patch.object(Draft, "append", append):
        yield hits
    assert len(hits) == 1, hits


def verdict(db: str, slug: str = "le-casse") -> tuple[int, str]:
    """The players' checker on the thread gm published for ``slug``."""
    on_forum = forum(Env(db=db), slug)
    outcome = check_thread([("fil.md", on_forum.thread())], renderer=on_forum.render)
    return outcome.report.code, outcome.report.text()


def forged(
    folder: Path, kind: str, change: Callable[[Payload], Payload]
) -> tuple[int, str]:
    """The verdict on the thread of the game played by a gm that alters the first ``kind`` record."""
    db = f"sqlite:///{folder / 'gm.db'}"
    with modified_gm(kind, change):
        play_casse(db)
    return verdict(db)


def test_the_game_unforged_is_verified(casse: str) -> None:
    code, text = verdict(casse)
    assert code == 0, text


def differs(text: str, seq: int, command: str) -> bool:
    return (
        f"{BAD} : l'événement {seq} n'est pas ce que les règles décident : redécider la"
        f" commande {command} (événement {seq - 1}) donne " in text
    )


def test_bills_not_drawn_from_the_seed_are_caught(tmp_path: Path) -> None:
    def change(p: Payload) -> Payload:
        return {**p, "bills": sorted(p["bills"], reverse=p["bills"][0] <= p["bills"][-1])}

    code, text = forged(tmp_path, "magot.loot-drawn", change)
    assert code == 1, text
    assert differs(text, 5, "magot.draw-loot"), text


def test_dice_not_rolled_from_the_seed_are_caught(tmp_path: Path) -> None:
    def change(p: Payload) -> Payload:
        ((a, b),) = p["dice"]
        other = 6 if a != 6 else 5
        return {**p, "dice": [[other, b]], "total": other + b}

    code, text = forged(tmp_path, "gm.dice-rolled", change)
    assert code == 1, text
    assert differs(text, 9, "gm.roll"), text


def test_a_seed_other_than_the_sealed_one_is_caught(tmp_path: Path) -> None:
    code, text = forged(tmp_path, "gm.fortune-sealed", lambda p: {**p, "seed": "graine truquée"})
    assert code == 1, text
    assert (
        f"{BAD} : la graine révélée « graine truquée » n'est pas celle du sceau du hasard publié"
        " à l'ouverture (sha256:" in text
    ), text


def test_an_aim_the_orders_do_not_give_is_caught(tmp_path: Path) -> None:
    """The reveal shows fab aiming at lulu, though his sealed order aims at marco."""

    def change(p: Payload) -> Payload:
        aims = [{**a, "target": "lulu"} if a["shooter"] == "fab" else a for a in p["aims"]]
        return {**p, "aims": aims}

    code, text = forged(tmp_path, "magot.orders-revealed", change)
    assert code == 1, text
    assert differs(text, 25, "magot.reveal"), text


def test_a_share_the_rules_do_not_give_is_caught(tmp_path: Path) -> None:
    """The results give fab a bill the round's shots do not give him."""

    def change(p: Payload) -> Payload:
        r = p["resolution"]
        portions = [
            {**q, "bills": [*q["bills"], 20000]} if q["player"] == "fab" else q
            for q in r["portions"]
        ]
        return {**p, "resolution": {**r, "portions": portions}}

    code, text = forged(tmp_path, "magot.round-resolved", change)
    assert code == 1, text
    assert differs(text, 28, "magot.resolve"), text


# --- Colt Express: the train and its purses, drawn from the seed ------------------------------


@pytest.mark.parametrize(
    ("kind", "change"),
    [
        # the cars in another order (the train post)
        ("colt.train-set", lambda p: {**p, "cars": list(reversed(p["cars"]))}),
        # each car's purses drawn in another order (sealed, opened at the end)
        ("colt.loot-placed", lambda p: {**p, "purses": [c[::-1] for c in p["purses"]]}),
    ],
    ids=["cars", "purses"],
)
def test_a_colt_draw_the_seed_does_not_give_is_caught(tmp_path: Path, kind: str, change) -> None:
    db = f"sqlite:///{tmp_path / 'gm.db'}"
    with modified_gm(kind, change):
        game = play("colt", 0, db)
    code, text = verdict(db, game.slug)
    assert code == 1, text
    assert f"{BAD} : l'événement " in text and " n'est pas ce que les règles décident" in text, text
