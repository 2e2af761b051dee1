"""Every awaited choice has a default, and every step takes --force (issue 28.2).

``gm default PLAYER`` answers for a silent player in all four games, and a
step's ``--force`` applies the defaults it waits for first (Le Magot's
``gm reveal --force`` keeps its own meaning, R-3). What the MJ sees: the
replies and posts, the notes, the exit codes.
"""

from __future__ import annotations

import support
from support import typeset

TITLE = "Duel"
SLUG = "duel"


def fistful(db: str) -> support.Gm:
    gm = support.Gm(db)
    gm("new", "fistful", "--title", TITLE, "--players", "ana,billy", "--seed", "s")
    return gm


def test_fistful_gm_default_billy_discards_the_1_and_the_2(db: str) -> None:
    gm = fistful(db)
    gm("order", "ana", "5 et 6")
    result = gm("default", "billy")
    assert support.private(result).startswith(
        typeset(
            "Sans réponse de ta part à temps, billy, la règle a choisi pour toi.\n\n"
            "Défausse reçue, billy : le 1 et le 2, face cachée."
        )
    )
    assert "Next: gm start (locks the setup discards, opens duel 1)" in result.stderr
    assert gm("verify").exit_code == 0


def test_fistful_reveal_force_plays_the_missing_card_then_reveals(db: str) -> None:
    gm = fistful(db)
    gm("order", "ana", "5 et 6")
    gm("start", "--force")  # billy's setup discards by default first
    gm("order", "ana", "je joue le 3")
    result = gm("reveal", "--force")
    assert result.stderr.startswith(f"── private reply to billy · {TITLE} [{SLUG}] ──\n")
    assert support.private(result).startswith(
        "Sans réponse de ta part à temps, billy, la règle a choisi pour toi.\n"
    )
    assert typeset("Carte reçue pour le duel 1 de la manche 1 : **3**.") in support.private(result)
    assert "**ana** joue le **3 rouge**, **billy** le **3 vert**." in result.stdout  # the duel post
    assert f"[{SLUG}] Applied the rules' default for billy (event " in result.stderr
    kinds = [e["kind"] for e in gm.history()]
    assert kinds.count("gm.default-applied") == 2
    assert gm("verify").exit_code == 0


def test_force_without_anyone_awaited_is_the_step_alone(db: str) -> None:
    gm = fistful(db)
    gm("order", "ana", "5 et 6")
    gm("order", "billy", "7 et 8")
    result = gm("start", "--force")
    assert "Applied the rules' default" not in result.stderr
    assert "gm.default-applied" not in [e["kind"] for e in gm.history()]


def test_force_never_plays_on_for_a_step_that_cannot_come(db: str) -> None:
    gm = support.Gm(db)
    gm("new", "rattlesnake", "--title", TITLE, "--players", "ana,bob,cyd", "--seed", "s")
    gm("setup")
    before = len(gm.history())
    result = gm("setup", "--force", code=1)
    assert result.stderr.startswith("Error: dealing is not possible now")
    assert "[rattlesnake/not-now]" in result.stderr
    assert len(gm.history()) == before  # no default was applied on the way


def test_colt_round_force_defaults_the_round_to_its_end(db: str) -> None:
    gm = support.Gm(db)
    gm("new", "colt", "--title", TITLE, "--players", "ana,bob,cyd", "--seed", "s")
    gm("setup")
    gm("round")
    result = gm("round", "--force")
    assert result.stderr.count("Applied the rules' default for ") > 0
    assert gm.status()["phase"] == "round-2/plan-1"
    assert gm("verify").exit_code == 0


def magot(db: str) -> support.Gm:
    gm = support.Gm(db)
    gm("new", "magot", "--title", TITLE, "--players", "fab,marco,lulu", "--seed", "s")
    gm("draw", "--bills", "20000,10000,5000,5000,5000")
    return gm


def test_r3_gm_default_for_a_missing_order_points_to_the_forced_reveal(db: str) -> None:
    gm = magot(db)
    result = gm("default", "marco", code=1)
    assert result.stderr.endswith(
        "Error: marco's missing order is settled at the reveal (R-3): 'gm reveal --force'"
        " reveals with marco aiming at nobody and spending nothing [magot/default-at-reveal]\n"
    )


def test_r4_gm_default_at_the_stay_or_fold_records_a_stay(db: str) -> None:
    gm = magot(db)
    gm("order", "fab", "marco clic")
    gm("order", "lulu", "fab clic")
    gm("reveal", "--force")  # marco aims at nobody
    gm("order", "fab", "je me couche")
    result = gm("default", "marco")
    assert result.stderr.startswith(f"── private reply to marco · {TITLE} [{SLUG}] ──\n")
    assert support.private(result) == typeset(
        "Sans réponse de ta part à temps, marco, la règle te fait rester au tour 1 : qui ne"
        " dit rien reste.\n"
        "Tu peux encore changer d'avis jusqu'à la résolution.\n"
    )
    stays = [e for e in gm.history() if e["kind"] == "gm.command-decided"][-1]
    assert (stays["payload"]["command"], stays["payload"]["args"]) == (
        "magot.stay",
        {"player": "marco"},
    )
    refused = gm("default", "marco", code=1)
    assert "[magot/nothing-due]" in refused.stderr
    assert gm("verify").exit_code == 0
