"""The MJ cannot steer the fortune (issue « Proofs that hold against a cheating
MJ », item 2): a draw reads the stream of what it is for, never a running
count; players' words received before a draw are mixed into it, so the MJ's
knowledge of the seed does not tell them the draw; a draw without any word
says so in public; a purpose is drawn once, and undo never takes one back."""

from __future__ import annotations

import json

from click.testing import CliRunner, Result
from support import NewDb, private

from gm.core.fortune import Fortune, label_for

DECK = sorted([20000] * 10 + [10000] * 15 + [5000] * 15, reverse=True)


def gm(db: str, *args: str, code: int = 0) -> Result:
    from gm.cli import cli

    result = CliRunner().invoke(cli, ["--db", db, *args])
    assert result.exit_code == code, (result.output, result.exception)
    return result


def drawn_line(post: str) -> str:
    return next(line for line in post.splitlines() if line.startswith("- nouveaux billets"))


def stream_line(post: str) -> str:
    return next(line for line in post.splitlines() if line.startswith("- tirage"))


def bills(seed: str, label: str, deck: list[int] = DECK) -> list[int]:
    rest, stream = list(deck), Fortune(seed, label)
    return sorted((rest.pop(stream.below(len(rest))) for _ in range(5)), reverse=True)


def money(values: list[int]) -> str:
    return " · ".join(f"{b:,}".replace(",", "\u00a0") for b in values)


def test_nothing_recorded_before_a_draw_moves_it_not_even_a_roll(db: str) -> None:
    gm(db, "new", "magot", "-t", "Pêche", "-p", "fab,marco,lulu", "--seed", "graine")
    first = drawn_line(gm(db, "draw").stdout)
    # The same table and seed again, and events an MJ could record to shift
    # the stream before the draw: none does.
    gm(db, "new", "magot", "-t", "Pêche bis", "-p", "fab,marco,lulu", "--seed", "graine")
    gm(db, "set", "tz", "America/Montreal")
    gm(db, "set", "tables", "list")
    gm(db, "order", "fab", "n'importe quoi", code=1)  # a refused order is logged
    gm(db, "roll", "3d6", "--reason", "pour voir")  # a roll reads roll/1, not the bills
    # and no preview shows the draw before it is made (an MJ could wait for one that suits)
    refused = gm(db, "draw", "--preview", code=1)
    assert "[preview/chance]" in refused.stderr and refused.stdout == ""
    assert drawn_line(gm(db, "draw").stdout) == first


def test_a_draw_reads_the_stream_of_its_purpose(db: str) -> None:
    gm(db, "new", "magot", "-t", "Flux", "-p", "fab,marco,lulu", "--seed", "graine")
    post = gm(db, "draw").stdout
    assert drawn_line(post) == "- nouveaux billets\u00a0: " + money(
        bills("graine", "round-1/bills")
    )
    assert stream_line(post) == "- tirage `round-1/bills`, **tirage sans graine des joueurs**"


def test_words_sent_before_the_first_draw_make_the_seed_alone_worthless(db: str) -> None:
    gm(db, "new", "magot", "-t", "Graines", "-p", "fab,marco,lulu", "--seed", "graine")
    # What an MJ who chose the seed could foresee for round 1:
    foreseen = bills("graine", "round-1/bills")
    gm(db, "order", "lulu", "graine : tequila")
    gm(db, "order", "fab", "Graine: pomme")
    words = (("fab", "pomme"), ("lulu", "tequila"))  # seating order
    label = label_for("round-1/bills", words)
    post = gm(db, "draw").stdout
    assert drawn_line(post) == "- nouveaux billets\u00a0: " + money(bills("graine", label))
    assert stream_line(post) == f"- tirage `{label}`, graines\u00a0: fab `pomme` · lulu `tequila`"
    assert bills("graine", label) != foreseen


def test_a_word_the_mj_typed_is_shown_as_such_to_its_player(db: str) -> None:
    gm(db, "new", "magot", "-t", "Saisie", "-p", "fab,marco,lulu", "--seed", "graine")
    typed = private(gm(db, "order", "fab", "--salt", "citron"))
    assert "Graine saisie par le MJ pour toi\u00a0: `citron`. Si tu ne l'as pas envoyée" in typed
    sent = private(gm(db, "order", "marco", "graine : citron"))
    assert "Ta graine pour le hasard\u00a0: `citron`" in sent
    words = [e for e in json.loads(gm(db, "history", "--json").stdout) if "word" in e["payload"]]
    assert [(e["payload"]["player"], e["payload"]["typed"]) for e in words] == [
        ("fab", True),
        ("marco", False),
    ]


def test_a_word_cannot_pose_as_another_entry_of_the_list(db: str) -> None:
    gm(db, "new", "magot", "-t", "Ruse", "-p", "fab,marco,lulu", "--seed", "graine")
    for word in (
        "pomme » · lulu « poire",
        "pomme\u202eerioP",
        "pomme `x`",
        "**gras**",
        "pomme·poire",
    ):
        result = gm(db, "order", "fab", "--salt", word, code=2)
        assert "[input/word]" in result.stderr, word
    assert not [e for e in json.loads(gm(db, "history", "--json").stdout) if "word" in e["payload"]]


def test_undo_refuses_to_void_a_draw(new_db: NewDb) -> None:
    db = new_db()
    gm(db, "new", "magot", "-t", "Regret", "-p", "fab,marco,lulu", "--seed", "graine")
    gm(db, "draw")
    result = gm(db, "undo", code=1)
    assert "drew from the fortune, and draws are final" in result.stderr
    assert "[undo/chance]" in result.stderr
    # A manual draw is outside the fortune: it can be undone.
    db2 = new_db("g")
    gm(db2, "new", "magot", "-t", "Main", "-p", "fab,marco,lulu", "--seed", "graine")
    gm(db2, "draw", "--bills", "20000,10000,5000,5000,5000")
    gm(db2, "undo")
