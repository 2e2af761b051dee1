"""A word for the fortune is kept from any message that carries one (issue 28.3).

Whatever else the message says, in every phase and in all four games: the
rest may be refused (the refusal is still recorded and replied), the word is
recorded all the same, as its own command, and the MJ is told. Each test
checks what the MJ sees: the reply on stdout, the notes on stderr, the exit
code, and the log.
"""

from __future__ import annotations

import pytest
import support
from support import typeset

TITLE = "Graines"
SLUG = "graines"
KEPT = typeset(
    "Ta graine, elle, est bien notée : `{}` — elle sera publiée et mêlée aux prochains tirages.\n"
)


def header(player: str) -> str:
    return f"── private reply to {player} · {TITLE} [{SLUG}] ──\n"


def words(gm: support.Gm) -> list[tuple[str, str]]:
    return [
        (e["payload"]["player"], e["payload"]["word"])
        for e in gm.history()
        if e["kind"] == "gm.entropy-added"
    ]


@pytest.fixture
def magot(db: str) -> support.Gm:
    gm = support.Gm(db)
    gm("new", "magot", "--title", TITLE, "--players", "fab,marco,lulu", "--seed", "s")
    return gm


def test_magot_keeps_the_word_of_a_message_refused_before_the_first_round(
    magot: support.Gm,
) -> None:
    result = magot("order", "marco", "Salut MJ ! ma graine: Cadillac59 a+", code=1)
    assert support.private(result) == typeset(
        "Ordre refusé : ce n'est pas le moment d'envoyer un ordre. Attends l'ouverture du"
        " prochain tour.\n"
        "\n"
        "Rien à m'envoyer pour l'instant : j'attendrai ton ordre quand le tour 1 sera ouvert.\n"
        "\n"
    ) + KEPT.format("Cadillac59")
    assert support.notes(result) == (
        header("marco")
        + f"[{SLUG}] Read « graine : Cadillac59 » inside a line as the word for the fortune.\n"
        f"[{SLUG}] Kept the word for the fortune « Cadillac59 » (event 5): a word is recorded"
        " even when the rest of the message is refused.\n"
        "Error: no round is open (setup): orders are sent after gm draw (got 'Salut MJ ! a+'"
        " from marco) [phase/wrong]\n"
    )
    kinds = [e["kind"] for e in magot.history()][-2:]
    assert kinds == ["gm.submission-rejected", "gm.entropy-added"]
    assert words(magot) == [("marco", "Cadillac59")]
    # the kept word mixes into the next draw, which says so
    post = magot("draw").stdout
    assert typeset("graines : marco `Cadillac59`") in post
    assert magot("verify").exit_code == 0


def test_magot_keeps_the_word_of_an_order_refused_mid_round(magot: support.Gm) -> None:
    magot("draw", "--bills", "20000,10000,5000,5000,5000")
    result = magot("order", "marco", "Salut MJ ! ma graine: Cadillac59 a+", code=1)
    assert support.private(result).endswith("\n\n" + KEPT.format("Cadillac59"))
    assert support.private(result).startswith(typeset("Ordre refusé : je ne vois pas qui tu braques"))
    assert "[magot/no-target]" in result.stderr
    assert words(magot) == [("marco", "Cadillac59")]


def test_colt_setup_records_the_word_of_a_greeting(db: str) -> None:
    gm = support.Gm(db)
    gm("new", "colt", "--title", TITLE, "--players", "ana,bob,cyd", "--seed", "s")
    result = gm("order", "ana", "bonjour MJ\ngraine : jazz", code=1)
    assert support.private(result) == typeset("Refusé : ce n'est pas le moment.\n\n") + KEPT.format("jazz")
    assert support.notes(result) == (
        header("ana")
        + f"[{SLUG}] Kept the word for the fortune « jazz » (event 5): a word is recorded even"
        " when the rest of the message is refused.\n"
        "Error: a player's message is not possible now (setup); next: gm setup (characters,"
        " cars and purses: given or drawn) [colt/not-now]\n"
    )
    assert words(gm) == [("ana", "jazz")]
    assert gm("verify").exit_code == 0


@pytest.mark.parametrize(
    ("game", "players"),
    [
        ("magot", "ana,bob,cyd"),
        ("fistful", "ana,bob"),
        ("colt", "ana,bob,cyd"),
        ("rattlesnake", "ana,bob,cyd"),
    ],
)
def test_every_game_keeps_a_word_whatever_else_the_message_says(
    db: str, game: str, players: str
) -> None:
    gm = support.Gm(db)
    gm("new", game, "--title", TITLE, "--players", players, "--seed", "s")
    gm("order", "bob", "Graine = jazz")  # a word alone, before anything is dealt
    assert words(gm) == [("bob", "jazz")]
    result = gm("order", "ana", "Bonjour le MJ, n'importe quoi\nma graine est la vie", code=1)
    assert support.private(result).endswith(KEPT.format("la vie"))
    assert "Kept the word for the fortune « la vie »" in result.stderr
    assert words(gm) == [("bob", "jazz"), ("ana", "la vie")]
    assert gm("verify").exit_code == 0


@pytest.mark.parametrize(
    ("message", "word"),
    [
        ("graine : pomme", "pomme"),
        ("graine = pomme", "pomme"),
        ("graine: pomme", "pomme"),
        ("ma graine est pomme", "pomme"),
        ("Graine = jazz", "jazz"),
        ("GRAÎNE : Pomme d'api !", "Pomme d'api"),
        ("Ma graîne est « tequila ».", "tequila"),
        ("salut\ngraine\u00a0: pomme\nbises", "pomme"),
    ],
)
def test_every_form_of_the_word_is_read(magot: support.Gm, message: str, word: str) -> None:
    magot("order", "fab", message, code=1 if "salut" in message else 0)
    assert words(magot) == [("fab", word)]


def test_a_kept_word_is_its_own_command_that_undo_takes_back_alone(magot: support.Gm) -> None:
    magot("order", "marco", "salut\ngraine : pomme", code=1)
    magot("undo")
    voided = [e for e in magot.history() if e["kind"] == "gm.events-voided"]
    assert [(v["payload"]["first_seq"], v["payload"]["last_seq"]) for v in voided] == [(5, 5)]
    assert [e["kind"] for e in magot.history()][3:5] == [
        "gm.submission-rejected",  # the refusal stays, as every refusal does
        "gm.entropy-added",
    ]
    post = magot("draw").stdout
    assert "pomme" not in post
    assert typeset("sans graine des joueurs") in post


def test_a_preview_keeps_nothing_and_says_the_word_would_be_kept(magot: support.Gm) -> None:
    result = magot("order", "marco", "salut\ngraine : pomme", "--preview", code=1)
    assert f"[{SLUG}] The word for the fortune « pomme » would be kept all the same.\n" in (
        result.stderr
    )
    assert words(magot) == []
