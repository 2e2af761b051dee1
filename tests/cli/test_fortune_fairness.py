"""The MJ cannot fish for luck: draws are numbered, not tied to event numbers,
and ``gm undo`` refuses to void one (issue #4, "Committed fortune")."""

from __future__ import annotations

from click.testing import CliRunner, Result
from support import NewDb

from gm.core.fortune import Fortune


def gm(db: str, *args: str, code: int = 0) -> Result:
    from gm.cli import cli

    result = CliRunner().invoke(cli, ["--db", db, *args])
    assert result.exit_code == code, (result.output, result.exception)
    return result


def drawn_line(post: str) -> str:
    return next(line for line in post.splitlines() if line.startswith("- nouveaux billets"))


def test_nothing_recorded_before_a_draw_changes_it(db: str) -> None:
    gm(db, "new", "magot", "-t", "Pêche", "-p", "fab,marco,lulu", "--seed", "graine")
    first = drawn_line(gm(db, "draw", "--preview").stdout)
    # Harmless events an MJ could record to shift the stream: none does.
    gm(db, "set", "tz", "America/Montreal")
    gm(db, "set", "tables", "list")
    gm(db, "order", "fab", "n'importe quoi", code=1)  # a refused order is logged
    assert drawn_line(gm(db, "draw", "--preview").stdout) == first
    assert drawn_line(gm(db, "draw").stdout) == first
    assert "(tirage n° 1, `draw/1`)" in first


def test_a_draw_reads_the_stream_its_number_names(db: str) -> None:
    gm(db, "new", "magot", "-t", "Flux", "-p", "fab,marco,lulu", "--seed", "graine")
    line = drawn_line(gm(db, "draw").stdout)
    deck = sorted([20000] * 10 + [10000] * 15 + [5000] * 15, reverse=True)
    stream = Fortune("graine", "draw/1")
    bills = sorted((deck.pop(stream.below(len(deck))) for _ in range(5)), reverse=True)
    assert line.startswith(
        "- nouveaux billets : " + " · ".join(f"{b:,}".replace(",", "\u00a0") for b in bills)
    )


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
