"""The MJ pastes private messages exactly as a phpBB forum delivers them.

Quotes of the MJ's own reminder, « Re: » headers, signatures, multi-line
messages piped in, messages starting with « - », the players' own words
(« je bluffe », « BB »), orders sent in the wrong phase, and the choices the
MJ records for a player: each is checked on what the MJ sees (the reply on
stdout, the notes and the error on stderr, the exit code), on both databases.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import support
from support import typeset

TITLE = "Le casse du siècle"
SLUG = "le-casse-du-siecle"
DEADLINE = "2026-12-03 20:00"
DEADLINE_FR = "jeudi 3 décembre 2026 à 20 h 00"


class Gm(support.Gm):
    def received(
        self, player: str, target: str, option: str, left: str, *, replaced: bool = False
    ) -> str:
        """The whole reply to an accepted order of round 1 (no word, no money yet)."""
        head = (
            "Nouvel ordre pour le tour 1, il remplace le précédent"
            if replaced
            else "Ordre reçu pour le tour 1"
        )
        return typeset(
            f"{head} : tu braques **{target}** avec **{option}**.\n"
            f"Tu peux le changer jusqu'à la révélation (avant {DEADLINE_FR}).\n"
            f"Sceau de ton ordre : `{self.seal(player, 1)}` — garde-le : il sera publié à la"
            " révélation, preuve que ton ordre n'a pas changé.\n"
            "\n"
            f"Après ce tour, il te restera : {left}.\n"
            "Tu as 0 $, 0 blessure, 0 point de honte.\n"
        )


def header(player: str) -> str:
    return f"── private reply to {player} · {TITLE} [{SLUG}] ──\n"


@pytest.fixture
def gm(db: str, frozen_clock: object) -> Gm:
    g = Gm(db)
    g("new", "magot", "--title", TITLE, "--players", "fab,marco,lulu,tom", "--seed", "s")
    g("draw", "--bills", "20000,10000,5000,5000,5000", "--deadline", DEADLINE)
    return g


# --- 1. quotes, headers, signatures --------------------------------------------


def test_a_phpbb_quote_of_the_mjs_reminder_is_left_out_and_noted(gm: Gm) -> None:
    message = '[quote="MJ"]… « je braque fab, CLIC CLIC CLIC » …[/quote] ok ok : tom BANG'
    result = gm("order", "marco", message)
    assert support.private(result) == gm.received(
        "marco", "tom", "BANG", "BANG BANG BANG ×1, BANG ×1, CLIC CLIC CLIC ×5"
    )
    assert support.notes(result) == (
        header("marco")
        + f"[{SLUG}] Ignored a [quote] of MJ (« … « je braque fab, CLIC CLIC CLIC » … »).\n"
        f"[{SLUG}] Recorded (event 10). Awaiting: fab, lulu, tom."
        " Next: gm order (waiting for fab, lulu, tom) or gm reveal --force\n"
    )
    # the log keeps the message as pasted, quote and all
    received = [e for e in gm.history() if e["kind"] == "gm.submission-received"]
    assert received[-1]["payload"]["text"] == message


def test_nested_quotes_mail_headers_quoted_lines_and_a_signature(gm: Gm) -> None:
    message = (
        "Re: Tour 1\n"
        "\n"
        "Le 1 déc. 2026 à 12:00, MJ a écrit :\n"
        "> Attendus : fab, marco, lulu et tom\n"
        '[quote=lulu][quote="MJ"]lulu BBB[/quote] je vise marco[/quote]\n'
        "je bluffe sur lulu\n"
        "-- \n"
        "Fab, le plus rapide de l'Ouest"
    )
    result = gm("order", "fab", message)
    assert support.private(result) == gm.received(
        "fab", "lulu", "CLIC CLIC CLIC", "BANG BANG BANG ×1, BANG ×2, CLIC CLIC CLIC ×4"
    )
    assert support.notes(result) == (
        header("fab") + f"[{SLUG}] Ignored a [quote] of lulu (« lulu BBB je vise marco »).\n"
        f"[{SLUG}] Ignored a signature (« Fab, le plus rapide de l'Ouest »).\n"
        f"[{SLUG}] Ignored a header line (« Re: Tour 1 »).\n"
        f"[{SLUG}] Ignored an attribution line (« Le 1 déc. 2026 à 12:00, MJ a écrit : »).\n"
        f"[{SLUG}] Ignored 1 quoted line (« Attendus : fab, marco, lulu et tom »).\n"
        f"[{SLUG}] Recorded (event 10). Awaiting: marco, lulu, tom."
        " Next: gm order (waiting for marco, lulu, tom) or gm reveal --force\n"
    )


def test_a_message_that_is_only_a_quote_is_no_order_and_says_why(gm: Gm) -> None:
    before = gm.status()
    result = gm("order", "tom", '[quote="MJ"]tom, ton ordre ?[/quote]', code=2)
    assert result.stdout == ""
    assert result.stderr == (
        f"[{SLUG}] Ignored a [quote] of MJ (« tom, ton ordre ? »).\n"
        "Error: no order given: paste the player's message, or use the explicit options"
        " (everything in it was quoted or signed) [input/empty-order]\n"
    )
    assert gm.status() == before


def test_a_refused_quoted_message_quotes_only_what_was_read(gm: Gm) -> None:
    result = gm("order", "tom", "> fab BANG\nje braque lulu", code=1)
    assert support.private(result) == typeset(
        "Ordre refusé : tu braques, mais avec quoi ? Précise BANG BANG BANG, BANG ou CLIC CLIC"
        " CLIC dans « je braque lulu ».\n"
        "Il te reste : BANG BANG BANG ×1, BANG ×2, CLIC CLIC CLIC ×5.\n"
        "\n"
        f"J'attends ton ordre pour le tour 1, avant {DEADLINE_FR}.\n"
    )
    assert support.notes(result) == (
        header("tom") + f"[{SLUG}] Ignored 1 quoted line (« fab BANG »).\n"
        "Error: no option in 'je braque lulu': add BANG BANG BANG, BANG or CLIC CLIC CLIC"
        " [magot/no-option]\n"
    )


# --- 2. getting the text in ------------------------------------------------------


def test_a_piped_multi_line_message_is_read_from_standard_input(gm: Gm) -> None:
    result = gm("order", "tom", input="salut le MJ\n\nje braque lulu\nBANG BANG BANG\n")
    assert support.private(result) == gm.received(
        "tom", "lulu", "BANG BANG BANG", "BANG BANG BANG ×0, BANG ×2, CLIC CLIC CLIC ×5"
    )
    assert gm.history()[-3]["payload"]["text"] == "salut le MJ\n\nje braque lulu\nBANG BANG BANG"


def test_a_dash_reads_standard_input_too(gm: Gm) -> None:
    result = gm("order", "tom", "-", input="lulu clic")
    assert support.private(result).startswith(
        typeset("Ordre reçu pour le tour 1 : tu braques **lulu** avec **CLIC CLIC CLIC**.") + "  \n"
    )


def test_a_message_starting_with_a_dash_is_a_message_not_an_option(gm: Gm) -> None:
    result = gm("order", "tom", "- je braque lulu -- BANG", "--preview")
    assert support.private(result).startswith(
        typeset("Ordre reçu pour le tour 1 : tu braques **lulu** avec **BANG**.") + "  \n"
    )
    assert result.stderr.endswith(
        f"[{SLUG}] Preview, nothing recorded. Awaiting: fab, marco, lulu. Next: gm order (waiting for fab, marco, lulu) or gm reveal --force\n"
    )
    result = gm("order", "tom", "-x", "lulu", "BANG")
    assert support.private(result).startswith(
        typeset("Ordre reçu pour le tour 1 : tu braques **lulu** avec **BANG**.") + "  \n"
    )


def test_edit_opens_the_editor_and_reads_what_is_above_the_scissors(
    gm: Gm, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    editor = tmp_path / "editor.py"
    editor.write_text(
        "import sys\n"
        "path = sys.argv[1]\n"
        "text = open(path, encoding='utf-8').read()\n"
        "open(path, 'w', encoding='utf-8').write('> rappel du MJ\\nmarco BBB\\n' + text)\n"
    )
    monkeypatch.setenv("EDITOR", f"{sys.executable} {editor}")
    monkeypatch.delenv("VISUAL", raising=False)
    result = gm("order", "fab", "--edit")
    assert support.private(result) == gm.received(
        "fab", "marco", "BANG BANG BANG", "BANG BANG BANG ×0, BANG ×2, CLIC CLIC CLIC ×5"
    )
    assert gm.history()[-3]["payload"]["text"] == "> rappel du MJ\nmarco BBB"
    assert support.notes(result).startswith(
        header("fab") + f"[{SLUG}] Ignored 1 quoted line (« rappel du MJ »).\n"
    )


def test_edit_closed_without_saving_records_nothing(
    gm: Gm, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("EDITOR", "true")
    monkeypatch.delenv("VISUAL", raising=False)
    before = gm.status()
    result = gm("order", "fab", "--edit", code=2)
    assert (
        result.stderr
        == "Error: no message: the editor was closed without saving [input/empty-order]\n"
    )
    assert gm.status() == before


# --- 3. the game's own words -----------------------------------------------------


@pytest.mark.parametrize("text", ["je bluffe sur tom", "bluff sur tom", "tom : je bluffe"])
def test_bluffing_is_clic_clic_clic(gm: Gm, text: str) -> None:
    result = gm("order", "fab", text)
    assert support.private(result).startswith(
        typeset("Ordre reçu pour le tour 1 : tu braques **tom** avec **CLIC CLIC CLIC**.") + "  \n"
    )


def test_bb_is_asked_back_not_guessed(gm: Gm) -> None:
    result = gm("order", "fab", "BB sur marco", code=1)
    assert support.private(result) == typeset(
        "Ordre pas encore enregistré : « BB », c'est BANG ou BANG BANG BANG ? Renvoie ton"
        " ordre en l'écrivant en entier.\n"
        "\n"
        f"J'attends ton ordre pour le tour 1, avant {DEADLINE_FR}.\n"
    )
    assert support.notes(result) == (
        header("fab")
        + "Error: 'BB' in 'BB sur marco' could be BANG or BANG BANG BANG: ask the player which"
        " one [magot/which-option]\n"
    )


def test_a_fortune_word_inside_a_line_is_taken_and_said(gm: Gm) -> None:
    result = gm("order", "fab", "tom BANG graine : tequila")
    assert typeset("Ta graine pour le hasard : `tequila`") in support.private(result)
    assert (
        f"[{SLUG}] Read « graine : tequila » inside a line as the word for the fortune.\n"
        in result.stderr
    )


def test_words_nothing_was_read_from_are_noted(gm: Gm) -> None:
    result = gm("order", "fab", "salut, tom BANG, bonne chance")
    assert support.private(result).startswith(
        typeset("Ordre reçu pour le tour 1 : tu braques **tom** avec **BANG**.") + "  \n"
    )
    assert (
        f"[{SLUG}] Not read in fab's message: « salut », « bonne », « chance ».\n"
        not in result.stderr
    )
    assert f"[{SLUG}] Not read in fab's message: « bonne », « chance ».\n" in result.stderr


# --- 4. the phase, not « I did not understand » -----------------------------------


def test_folding_before_the_reveal_is_too_early(gm: Gm) -> None:
    result = gm("order", "lulu", "je me couche", code=1)
    assert support.private(result) == typeset(
        "Trop tôt, lulu : on reste ou on se couche après la révélation du tour 1, quand chacun"
        " sait qui le braque.\n"
        "\n"
        f"J'attends ton ordre pour le tour 1, avant {DEADLINE_FR}.\n"
    )
    assert support.notes(result) == (
        header("lulu")
        + "Error: too early: staying or folding comes after the reveal of round 1 (got 'je me"
        " couche' from lulu); lulu's order is awaited now [magot/too-early]\n"
    )


def test_an_order_after_the_reveal_is_too_late(gm: Gm) -> None:
    gm("order", "lulu", "tom BANG")
    gm("reveal", "--force", "--deadline", "2026-12-04 20:00")
    result = gm("order", "lulu", "finalement fab BBB", code=1)
    assert support.private(result) == typeset(
        "Trop tard, lulu : les ordres sont verrouillés depuis la révélation du tour 1, ton"
        " ordre ne peut plus changer.\n"
        "\n"
        "J'attends seulement de savoir si tu restes ou si tu te couches, avant vendredi"
        " 4 décembre 2026 à 20 h 00 ; sans nouvelles de toi, tu restes.\n"
    )
    assert result.stderr.endswith("[magot/orders-locked]\n")


def test_an_order_between_rounds_is_too_late_for_the_round_played(gm: Gm) -> None:
    gm("reveal", "--force")
    gm("resolve")
    result = gm("order", "lulu", "tom BANG", code=1)
    assert support.private(result) == typeset(
        "Trop tard, lulu : le tour 1 est joué, et le suivant n'est pas encore ouvert.\n"
        "\n"
        "Rien à m'envoyer pour l'instant : j'attendrai ton ordre quand le tour 2 sera ouvert.\n"
    )


def test_a_refused_replacement_says_the_order_in_force(gm: Gm) -> None:
    gm("order", "lulu", "tom BANG")
    result = gm("order", "lulu", "fab", code=1)
    assert support.private(result).endswith(
        typeset(
            f"Ton ordre en vigueur reste : tu braques **tom** avec **BANG** ; tu peux le changer"
            f" avant {DEADLINE_FR}.\n"
        )
    )


# --- 5. a reply for every recorded choice ----------------------------------------


def test_a_replacing_order_says_it_replaced_the_previous_one(gm: Gm) -> None:
    gm("order", "fab", "marco BANG")
    result = gm("order", "fab", "lulu clic")
    assert support.private(result) == gm.received(
        "fab",
        "lulu",
        "CLIC CLIC CLIC",
        "BANG BANG BANG ×1, BANG ×2, CLIC CLIC CLIC ×4",
        replaced=True,
    )


def test_withdraw_fold_and_stay_print_the_reply_to_send(gm: Gm) -> None:
    gm("order", "fab", "marco BANG")
    result = gm("withdraw", "fab")
    assert support.private(result) == typeset(
        "Ordre retiré pour le tour 1 : pour l'instant, tu ne braques personne.\n"
    )
    assert support.notes(result) == (
        header("fab") + f"[{SLUG}] Done (event 12). Awaiting: fab, marco, lulu, tom."
        " Next: gm order (waiting for fab, marco, lulu, tom) or gm reveal --force\n"
    )
    gm("reveal", "--force")
    assert support.private(gm("fold", "tom")) == typeset(
        "C'est noté, tom : tu te couches au tour 1. Arme baissée, un point de honte, mais"
        " personne ne te tirera dessus.\n"
        "Tu peux encore changer d'avis jusqu'à la résolution.\n"
    )
    result = gm("stay", "tom")
    assert support.private(result) == typeset(
        "C'est noté, tom : tu restes au tour 1. Tu en as une paire.\n"
        "Tu peux encore changer d'avis jusqu'à la résolution.\n"
    )
    assert result.stderr.startswith(header("tom"))


def test_fistful_notes_unread_words_and_leaves_quotes_out(db: str, frozen_clock: object) -> None:
    gm = Gm(db)
    gm("new", "fistful", "--title", "Duel", "--players", "ana,bob", "--seed", "d")
    result = gm(
        "order", "ana", '[quote="MJ"]vos 2 défausses[/quote]\nje défausse 1 et 2, bonne chance bob'
    )
    assert support.private(result).startswith(typeset("Défausse reçue, ana : le 1 et le 2, face cachée."))
    assert support.notes(result) == (
        "── private reply to ana · Duel [duel] ──\n"
        "[duel] Ignored a [quote] of MJ (« vos 2 défausses »).\n"
        "[duel] Not read in ana's message: « bonne », « chance ».\n"
        "[duel] Recorded (event 6). Awaiting: bob. Next: gm order (setup: waiting for bob's"
        " setup discards)\n"
    )
