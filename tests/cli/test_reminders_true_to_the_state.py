"""Issue 28.5: a reminder says what is true now.

Before the deadline it names the deadline and what happens after it; once
the deadline is past, it says that the MJ decides now, by the rules'
defaults, never « passé ce délai » of a past time; and a turn played in the
thread is not asked « en MP ».
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import support

from gm.service import publishing
from gm.service.env import Env


def test_a_reminder_after_the_deadline_says_the_mj_decides_now(db: str) -> None:
    gm = support.Gm(db)
    gm("new", "magot", "--title", "Casse", "--players", "fab,marco,lulu", "--seed", "s")
    gm("draw", "--deadline", "+24h")
    gm("order", "fab", "je braque marco, BANG")
    before = publishing.remind(Env(db=db), "casse").public
    assert support.typeset("Passé ce délai, le MJ tranche.") in before
    later = Env(db=db, now=lambda: datetime.now(UTC) + timedelta(hours=25))
    after = publishing.remind(later, "casse").public
    assert "Passé ce délai" not in after
    assert support.typeset("Le délai est passé (**") in after
    assert support.typeset(
        ": le MJ tranche maintenant, selon les règles, pour qui n'a pas répondu."
    ) in after


def test_a_turn_played_in_the_thread_is_not_asked_in_private(db: str) -> None:
    gm = support.Gm(db)
    gm("new", "colt", "--title", "Le train", "--players", "ana,bob,cleo", "--seed", "graine")
    gm("setup")
    gm("round")
    public = publishing.remind(Env(db=db), "le-train").public
    expected = support.Gm(db).json("status")["expected"]
    assert [e["how"] for e in expected] == ["public"]  # the Plan's first turn, face up
    assert "en MP" not in public
    assert support.typeset("À vous de jouer, ici dans le fil") in public
