"""Issue 28.5: a message that arrives after the deadline gets a reply that
says so (it still counts until the MJ moves on), never « avant » a past
time; the players' checker writes the same reply again from the log."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import support
from forum import forum

from gm.check.checker import check_thread
from gm.check.replies import check_replies
from gm.service import actions, deadlines
from gm.service.env import Env

LATE = "le délai du "
SLUG = "casse"


def opened(db: str) -> support.Gm:
    gm = support.Gm(db)
    gm("new", "magot", "--title", "Casse", "--players", "fab,marco,lulu", "--seed", "s",
       "--option", "rounds=1")  # fmt: skip
    gm("draw")
    # a deadline set two hours ago, one hour ahead: it passed an hour ago
    earlier = Env(db=db, now=lambda: datetime.now(UTC) - timedelta(hours=2))
    deadlines.move(earlier, SLUG, "+1h")
    return gm


def test_an_order_after_the_deadline_is_told_it_is_late(db: str) -> None:
    gm = opened(db)
    reply = support.private(gm("order", "fab", "je braque marco, BANG"))
    assert support.typeset(LATE) in reply and "est passé" in reply
    assert "(avant " not in reply


def test_an_order_before_the_deadline_has_until_then(db: str) -> None:
    gm = support.Gm(db)
    gm("new", "magot", "--title", "Casse", "--players", "fab,marco,lulu", "--seed", "s")
    gm("draw", "--deadline", "+24h")
    reply = support.private(gm("order", "fab", "je braque marco, BANG"))
    assert "(avant " in reply and "est passé" not in reply


def test_the_checker_writes_the_late_reply_again(db: str) -> None:
    gm = opened(db)
    env = Env(db=db)
    reply = actions.submit(env, SLUG, "fab", "sur marco, clic clic clic").reply
    assert reply is not None and "est passé" in reply
    gm("order", "marco", "sur lulu, clic clic clic")
    gm("order", "lulu", "sur fab, clic clic clic")
    gm("reveal", "--force")
    gm("resolve")
    gm("post", "disclosure")
    on_forum = forum(env, SLUG)
    outcome = check_thread([("fil.md", on_forum.thread())], renderer=on_forum.render)
    check_replies(outcome, [("reponse.txt", reply)], "auto")
    assert outcome.report.code == 0, outcome.report.text()
    # the same reply saying « avant » would not be what gm wrote
    forged = reply.replace("est passé", "n'est pas passé")
    outcome = check_thread([("fil.md", on_forum.thread())], renderer=on_forum.render)
    check_replies(outcome, [("reponse.txt", forged)], "auto")
    assert outcome.report.code != 0
