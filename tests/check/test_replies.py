"""A player's private reply, pasted whole (``--reply``), against the replayed log.

gm answers an order privately with its seal and what it understood. The
checker finds the seal among the records the thread's proofs publish and,
once the order is opened, writes the reply again from the log and compares
what it states.
"""

from __future__ import annotations

import pytest
from forum import forum
from support import Gm, private
from test_honest import browser_copy

from gm.check.checker import check_thread
from gm.check.replies import check_replies
from gm.check.report import BAD, OK
from gm.render.presets import to_forum
from gm.service.env import Env

ORDERS = {"fab": "sur marco, clic clic clic", "marco": "sur lulu, clic clic clic"}


def game(db: str) -> tuple[Gm, str]:
    """A one-round game of Le Magot; fab's private reply to his order."""
    gm = Gm(db)
    gm("new", "magot", "--title", "Le casse", "--players", "fab,marco,lulu", "--seed", "graine",
       "--option", "rounds=1")  # fmt: skip
    gm("draw")
    reply = private(gm("order", "fab", ORDERS["fab"]))
    gm("order", "marco", ORDERS["marco"])
    gm("order", "lulu", "sur fab, clic clic clic")
    return gm, reply


def finish(gm: Gm) -> None:
    gm("reveal", "--force")
    gm("resolve")
    gm("post", "disclosure")


def verdict(db: str, reply: str, fmt: str = "auto") -> tuple[int, str]:
    on_forum = forum(Env(db=db), "le-casse")
    outcome = check_thread([("fil.md", on_forum.thread())], renderer=on_forum.render)
    check_replies(outcome, [("reponse.txt", reply)], fmt)
    return outcome.report.code, outcome.report.text()


def test_an_honest_reply_is_found_and_what_it_states_is_the_log(db: str) -> None:
    gm, reply = game(db)
    finish(gm)
    code, text = verdict(db, reply)
    assert code == 0, text
    assert f"{OK} : le sceau " in text and " (reponse.txt:3) est celui de l'événement " in text


@pytest.mark.parametrize("form", ["bbcode", "html", "text"])
def test_an_honest_reply_is_found_as_the_player_copied_it(db: str, form: str) -> None:
    """The reply in BBCode (``--format bbcode``: a reply this short has no markup
    that says BBCode) or HTML, or copied from a browser as plain text."""
    gm, reply = game(db)
    finish(gm)
    pasted = browser_copy(reply) if form == "text" else to_forum(reply, form)
    assert pasted != reply
    code, text = verdict(db, pasted, "bbcode" if form == "bbcode" else "auto")
    assert code == 0, text
    assert f"{OK} : le sceau " in text and " (reponse.txt:" in text, text


def test_a_reply_whose_order_was_replaced_after_the_seal_fails(db: str) -> None:
    gm, reply = game(db)
    gm("reveal", "--force")
    gm("undo")
    gm("order", "fab", "Je braque mon flingue sur lulu (BANG BANG BANG)")
    finish(gm)
    code, text = verdict(db, reply)
    assert code == 1, text
    assert (
        "a été remplacé ensuite (événement" in text
        and "ce n'est plus celui que gm t'a confirmé" in text
    )


def test_a_reply_stating_another_order_fails(db: str) -> None:
    gm, reply = game(db)
    finish(gm)
    code, text = verdict(db, reply.replace("**marco**", "**lulu**"))
    assert code == 1, text
    assert f"{BAD} : ligne reponse.txt:1" in text, text


def test_a_seal_no_record_holds_fails(db: str) -> None:
    gm, reply = game(db)
    finish(gm)
    seal = reply.split("`")[1]
    # its first digit or its last: every digit given is compared
    for other in (
        ("0" if seal[0] != "0" else "1") + seal[1:],
        seal[:-1] + ("0" if seal[-1] != "0" else "1"),
    ):
        code, text = verdict(db, reply.replace(seal, other))
        assert code == 1, text
        assert f"le sceau {other} (reponse.txt:3) n'est celui d'aucun événement du fil" in text


def test_a_text_without_a_seal_is_refused(db: str) -> None:
    gm, _ = game(db)
    finish(gm)
    code, text = verdict(db, "Ordre reçu pour le tour 1 : tu braques marco.\n")
    assert code == 1 and "aucun sceau (32 chiffres hexadécimaux au moins)" in text, text
