"""Issue 28.1: standard output is public, whatever the command.

``gm order ana "je joue Tir" > post.md`` must never put ana's hand in the
thread: posts go to standard output, private replies and messages to
standard error (under a line naming the player), or, with ``--pm-dir``
(``GM_PM_DIR``), to one file per player, ready to paste into their private
message.
"""

from __future__ import annotations

from pathlib import Path

import support
from support import private, typeset


def test_a_public_move_prints_the_post_on_stdout_and_the_hand_nowhere_near(db: str) -> None:
    gm = support.Gm(db)
    support.colt_by_hand(gm)
    result = gm("order", "ana", "je joue Tir")
    assert typeset("## Manche 1, Plan, tour 1 : ana joue Tir") in result.stdout
    assert "Ta main" not in result.stdout and "ana" in result.stdout
    assert result.stderr.startswith("── private reply to ana · Le train [le-train] ──\n")
    assert typeset("Ta main : ") in private(result)


def test_pm_dir_writes_each_private_reply_to_the_players_file(db: str, tmp_path: Path) -> None:
    gm = support.Gm(db)
    support.colt_by_hand(gm)
    folder = tmp_path / "mp"
    result = gm("--pm-dir", str(folder), "order", "ana", "je joue Tir")
    path = folder / "le-train-ana.md"
    assert typeset("Ta main : ") in path.read_text(encoding="utf-8")
    assert "Ta main" not in result.stdout + result.stderr
    assert f"[le-train] Private reply to ana: {path}\n" in result.stderr
    # the latest reply replaces the previous one; each player has their own file
    gm("--pm-dir", str(folder), "order", "bob", "je pioche")
    assert (folder / "le-train-bob.md").exists() and path.exists()


def test_a_refused_message_and_the_reminders_nudges_stay_private(db: str) -> None:
    gm = support.Gm(db)
    gm("new", "magot", "--title", "Casse", "--players", "fab,marco,lulu", "--seed", "s")
    gm("draw", "--deadline", "+48h")
    refused = gm("order", "fab", "je braque fab, BANG", code=1)
    assert refused.stdout == ""
    assert private(refused).startswith(typeset("Ordre refusé"))
    gm("order", "fab", "je braque marco, BANG")
    reminder = gm("remind")
    assert "Il te reste" not in reminder.stdout  # the nudges hold each player's cards
    assert typeset("Il te reste : ") in private(reminder)


def test_a_deal_gives_the_mj_each_players_status_to_send(db: str, tmp_path: Path) -> None:
    """Issue 28.4: « Chacun a reçu sa main en MP » — gm round (Colt) and gm
    setup (Rattlesnake City) hand the MJ each player's status, privately,
    instead of one gm pm per player per manche."""
    gm = support.Gm(db)
    gm("new", "colt", "--title", "Le train", "--players", "ana,bob,cleo", "--seed", "graine")
    gm("setup")
    folder = tmp_path / "mp"
    dealt = gm("--pm-dir", str(folder), "round")
    assert typeset("Chacun a reçu sa main en MP.") in dealt.stdout
    assert "Ta main" not in dealt.stdout
    for player in ("ana", "bob", "cleo"):
        status = (folder / f"le-train-{player}.md").read_text(encoding="utf-8")
        assert status == gm("pm", player).stdout
        assert typeset("Ta main : ") in status
    valley = support.Gm(db)
    valley("new", "rattlesnake", "--title", "Vallée", "--players", "ana,bob,cyd", "--seed", "g")
    dealt = valley("setup")
    assert [private(dealt, n) for n in range(3)] == [valley("pm", p).stdout for p in ("ana", "bob", "cyd")]
