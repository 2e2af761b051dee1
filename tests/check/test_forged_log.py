"""An MJ who rewrites his own log, then publishes it: the thread holds together, the rules do not.

The MJ has the database: he changes a record (the bills drawn, a die, the
seed, an aim, a round's outcome; Colt Express's cars and the purses in
them) before gm publishes the thread, so every post is rendered from the
forged log and every proof block re-hashes (the producer, ``emulate``,
publishes what the store holds). Nothing in the text contradicts the chain:
the checker catches it because it decides every command again with the
game's own rules and draws every draw again from the revealed seed.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import pytest
from emulate import emulate
from support import Gm

from gm.check.checker import check_thread
from gm.check.report import BAD
from gm.core.canonical import canonical_json
from gm.service.env import Env
from gm.store.records import StoredEvent

ORDERS = {
    "fab": "sur marco, BANG BANG BANG",
    "marco": "sur lulu, bang",
    "lulu": "sur tom, clic clic clic",
    "tom": "sur fab, clic clic clic",
}


@pytest.fixture(scope="module")
def casse(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A one-round game of Le Magot with a dice roll, over and disclosed."""
    db = f"sqlite:///{tmp_path_factory.mktemp('forged') / 'gm.db'}"
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
    return db


Payload = dict[str, Any]


def forged(
    db: str, kind: str, change: Callable[[Payload], Payload], slug: str = "le-casse"
) -> tuple[int, str]:
    """The verdict on the thread gm publishes once the first ``kind`` record is changed."""
    env = Env(db=db)  # an Env of its own: its store's events are the MJ's forgery
    events = env.store.events
    hits = []

    def tampered(slug: str, upto: int | None = None) -> list[StoredEvent]:
        out = []
        for record in events(slug, upto):
            if record.kind == kind and (not hits or hits[0] == record.seq):
                payload = change(dict(record.payload))
                assert payload != record.payload
                hits.append(record.seq)
                record = dataclasses.replace(
                    record, payload=payload, payload_json=canonical_json(payload)
                )
            out.append(record)
        return out

    env.store.events = tampered  # type: ignore[method-assign]
    emulated = emulate(env, slug)
    assert len(set(hits)) == 1, hits
    outcome = check_thread([("fil.md", emulated.thread())], renderer=emulated.render)
    return outcome.report.code, outcome.report.text()


def verdict(db: str) -> tuple[int, str]:
    emulated = emulate(Env(db=db), "le-casse")
    outcome = check_thread([("fil.md", emulated.thread())], renderer=emulated.render)
    return outcome.report.code, outcome.report.text()


def test_the_game_unforged_is_verified(casse: str) -> None:
    code, text = verdict(casse)
    assert code == 0, text


def differs(text: str, seq: int, command: str) -> bool:
    return (
        f"{BAD} : l'événement {seq} n'est pas ce que les règles décident : redécider la"
        f" commande {command} (événement {seq - 1}) donne " in text
    )


def test_bills_not_drawn_from_the_seed_are_caught(casse: str) -> None:
    def change(p: Payload) -> Payload:
        return {**p, "bills": sorted(p["bills"], reverse=p["bills"][0] <= p["bills"][-1])}

    code, text = forged(casse, "magot.loot-drawn", change)
    assert code == 1, text
    assert differs(text, 5, "magot.draw-loot"), text


def test_dice_not_rolled_from_the_seed_are_caught(casse: str) -> None:
    def change(p: Payload) -> Payload:
        ((a, b),) = p["dice"]
        other = 6 if a != 6 else 5
        return {**p, "dice": [[other, b]], "total": other + b}

    code, text = forged(casse, "gm.dice-rolled", change)
    assert code == 1, text
    assert differs(text, 9, "gm.roll"), text


def test_a_seed_other_than_the_sealed_one_is_caught(casse: str) -> None:
    code, text = forged(casse, "gm.fortune-sealed", lambda p: {**p, "seed": "graine truquée"})
    assert code == 1, text
    assert (
        f"{BAD} : la graine révélée « graine truquée » n'est pas celle du sceau du hasard publié"
        " à l'ouverture (sha256:" in text
    ), text
    # and every draw, made again from the seed revealed, differs from the log
    assert differs(text, 5, "magot.draw-loot") and differs(text, 9, "gm.roll"), text


def test_an_aim_the_orders_do_not_give_is_caught(casse: str) -> None:
    """The reveal shows fab aiming at lulu, though his sealed order aims at marco."""

    def change(p: Payload) -> Payload:
        aims = [{**a, "target": "lulu"} if a["shooter"] == "fab" else a for a in p["aims"]]
        return {**p, "aims": aims}

    code, text = forged(casse, "magot.orders-revealed", change)
    assert code == 1, text
    assert differs(text, 25, "magot.reveal"), text


def test_a_share_the_rules_do_not_give_is_caught(casse: str) -> None:
    """The results give fab a bill the round's shots do not give him."""

    def change(p: Payload) -> Payload:
        r = p["resolution"]
        portions = [
            {**q, "bills": [*q["bills"], 20000]} if q["player"] == "fab" else q
            for q in r["portions"]
        ]
        return {**p, "resolution": {**r, "portions": portions}}

    code, text = forged(casse, "magot.round-resolved", change)
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
def test_a_colt_draw_the_seed_does_not_give_is_caught(published, kind: str, change) -> None:
    game = published("colt")
    code, text = forged(str(game.play.env.db), kind, change, game.play.slug)
    assert code == 1, text
    assert f"{BAD} : l'événement " in text and " n'est pas ce que les règles décident" in text, text
