"""Colt Express run by an MJ from the command line alone: a train set up by
hand (characters, cars and purses given, then the round's card and decks),
the Plan turn by turn, a face-down card, the Action card by card with the
legal choices listed, refusals and the player's private status. Each test
checks what the MJ sees: the post or reply on stdout (line by line, the
footer's fingerprint apart), the ``Error: … [code]`` line, the exit code.
"""

from __future__ import annotations

from pathlib import Path

import support

ROOT = Path(__file__).resolve().parents[2]

DECK = support.COLT_DECK
setup = support.colt_by_hand


def lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line and not line.startswith("_Empreinte")]


def test_the_plan_turn_by_turn_with_a_face_down_card(db: str) -> None:
    gm = support.Gm(db)
    setup(gm)
    played = gm("order", "ana", "je joue Tir")
    out = played.stdout  # the public post only: ana's hand is in her private reply
    assert "Ta main" not in out and "Noté, ana" not in out
    assert support.typeset("Ta main : ") in support.private(played)
    assert support.typeset("## Manche 1, Plan, tour 1 : ana joue Tir") in out
    assert support.typeset("La pile (1 carte) : 1. ana — Tir") in out
    assert (
        support.typeset(
            "**Au tour de bob** — Plan, tour 2 sur 15 (normal) : joue une carte ou pioche 3 cartes."
        )
        in out
    )
    refused = gm("order", "cleo", "je joue Tir", code=1)
    assert support.private(refused).strip() == support.typeset("Refusé : c'est le tour de bob.")
    assert "Error: it is bob's turn of the Plan, not cleo's [colt/not-your-turn]" in refused.stderr
    gm("order", "bob", "je pioche")
    gm("order", "cleo", "Braquage")
    out = gm("order", "ana", "je joue Marshal").stdout  # a tunnel turn: face down
    assert support.typeset("## Manche 1, Plan, tour 4 : ana joue une carte face cachée") in out
    assert (
        support.typeset(
            "La pile (3 cartes) : 1. ana — Tir · 2. cleo — Braquage · 3. ana — carte face cachée"
        )
        in out
    )
    assert "Marshal" not in out.split("La pile")[1]
    pm = lines(gm("pm", "ana").stdout)
    assert pm[:6] == support.typeset(
        "\n".join(
            [
                "**Le train — ta situation, ana** (manche 1)",
                "Tu joues **Belle** (ne peut être visée par un Tir ou un Coup de poing si un autre bandit peut l'être), dans le wagon 3.",
                "Ta main : Déplacement, Changement d'étage, Braquage, Coup de poing. Ta pioche : 4 cartes.",
                "Balles reçues : 0 · barillet : 6/6.",
                "Ton butin : bourse 250\u00a0$ — 250\u00a0$ en tout.",
                "Tes cartes dans la pile : n° 1 Tir · n° 3 Marshal (face cachée).",
            ]
        )
    ).split("\n")


def test_the_action_lists_the_legal_choices_and_refuses_others(db: str) -> None:
    gm = support.Gm(db)
    setup(gm)
    for player, text in [("ana", "Braquage"), ("bob", "je pioche"), ("cleo", "je pioche")]:
        gm("order", player, text)
    for _ in range(4):
        for player in ("ana", "bob", "cleo"):
            gm("order", player, "je pioche")
    status = gm("status").stdout
    assert "Awaiting: ana" in status
    refused = gm("order", "ana", "le coffre", code=1)
    assert support.private(refused).strip() == support.typeset(
        "Refusé : ce choix n'est pas possible pour ta carte Braquage."
        " Choix possibles : « la bourse » · « le bijou »."
    )
    out = gm("order", "ana", "le bijou").stdout
    assert support.typeset("- **1. ana, Braquage** — « le bijou » : ana prend un bijou.") in out
    assert support.typeset("## Fin de la manche 1 : Tunnel") in out
    assert (
        support.typeset(
            "- **ana** (Belle) dans le wagon 3 : 1 bourse, 1 bijou · balles reçues 0 · barillet 6/6"
        )
        in out
    )


def test_setup_refusals_name_what_is_valid(db: str) -> None:
    gm = support.Gm(db)
    gm("new", "colt", "--title", "Le train", "--players", "ana,bob,cleo", "--seed", "graine")
    out = gm("setup", "--character", "ana=Zorro", code=2)
    assert (
        "no character 'Zorro' (characters: Belle, Cheyenne, Django, Doc, Ghost, Tuco)" in out.stderr
    )
    out = gm("setup", "--cars", "4,4,3", code=2)
    assert "the train takes 3 different printed cars among 1 to 6" in out.stderr
    refused = gm("new", "colt", "--title", "Deux", "--players", "ana,bob", code=2)
    assert "3 to 6 players" in refused.stderr


def test_a_train_set_by_hand_is_said_to_be_the_mjs_choice(db: str) -> None:
    """What the MJ gives gm setup is printed as his choice, never as chance;
    what the fortune drew is printed with its stream."""
    gm = support.Gm(db)
    gm("new", "colt", "--title", "Le train", "--players", "ana,bob,cleo", "--seed", "graine")
    out = gm("setup", "--character", "ana=Belle", "--character", "bob=Django",
             "--character", "cleo=Tuco").stdout  # fmt: skip
    assert support.typeset(
        "- Personnages choisis par le MJ : sans tirage, c'est son choix et non le hasard.\n"
        "- Wagons tirés au hasard : tirage `setup/cars`, **tirage sans graine des joueurs**\n"
    ) in out
    assert "distribués par le hasard" not in out
    hand = support.Gm(db)
    hand("new", "colt", "--title", "À la main", "--players", "ana,bob,cleo", "--seed", "g")
    out = hand(
        "setup", "--character", "ana=Belle", "--character", "bob=Django", "--character",
        "cleo=Tuco", "--cars", "4,1,3", "--purses", "250 300 450/250 350 500/300",
    ).stdout  # fmt: skip
    assert "tirage `setup/" not in out
    for what in ("Personnages choisis", "Wagons placés", "Bourses des wagons fixées"):
        assert support.typeset(f"- {what} par le MJ : sans tirage") in out
    out = hand(
        "round", "--card", "Tunnel",
        *(f for p in ("ana", "bob", "cleo") for f in ("--deck", f"{p}={DECK}")),
    ).stdout  # fmt: skip
    assert support.typeset(
        "- Carte de la manche choisie par le MJ : sans tirage, c'est son choix et non le hasard.\n"
        "- Pioche d'ana ordonnée par le MJ : sans tirage.\n"
    ) in out
    assert "tirage `round-" not in out


def test_a_pushed_bandit_agrees_with_their_declared_gender(db: str, tmp_path: Path) -> None:
    """Issue 28.6: « lulu est poussée » when lulu is declared feminine, « tom
    est poussé » when masculine, and wording that needs no agreement for a
    bandit without a gender (« se retrouve », « recule ») — never « poussé·e »."""
    example = (ROOT / "campaigns" / "exemple-colt.toml").read_text(encoding="utf-8")
    gendered = tmp_path / "colt.toml"
    gendered.write_text(
        example.replace(
            'players = ["fab", "marco", "lulu", "tom"]',
            'players = ["fab:m", "marco", "lulu:f", "tom:m"]',
        ),
        encoding="utf-8",
    )
    out = support.Gm(db)("play", str(gendered)).stdout
    assert "·e" not in out
    assert support.typeset("lulu est poussée dans le wagon 3") in out
    assert support.typeset("marco se retrouve dans le wagon 4") in out  # no gender declared
    assert support.typeset("tom est repoussé dans le wagon 2") in out


def test_a_bandit_without_a_purse_has_none_in_the_final_table(db: str) -> None:
    """Issue 28.6, « bourses : aucun »: the purses column says « aucune », in
    the feminine of « bourse », for lulu, who ends the example game without one."""
    final = support.Gm(db)("play", str(ROOT / "campaigns" / "exemple-colt.toml")).stdout
    assert support.typeset("| 3 | lulu (Tuco) | aucune | 0 | 1 | 0 $ | — | 1 000 $ | 5 |") in final
    assert "| aucun |" not in final


def test_a_refusal_lists_every_card_of_the_hand_the_marshal_included(db: str) -> None:
    """Issue 28.6: the refusal's list of playable cards left out the Marshal
    a player held. It lists the whole hand (Balle cards apart: never played)."""
    gm = support.Gm(db)
    setup(gm)
    refused = gm("order", "ana", "je joue le truc", code=1)
    assert support.private(refused) == support.typeset(
        "Je n'ai pas compris « je joue le truc », ana : joue une carte de ta main (Déplacement,"
        " Tir, Braquage, Changement d'étage, Marshal, Coup de poing) ou écris « je pioche ».\n"
    )
