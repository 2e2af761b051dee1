"""Sizes that bound work are checked and refused clearly (issue 5, item 8).

Each limit is hit through the command line, just past its bound: the exact
error line, the exit code, and nothing recorded. Just inside the bound, the
same command works, so the limit is where it says it is.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from gm.cli import cli
from gm.core.names import MAX_NAME
from gm.games.magot.rules import MAX_BILLS, MAX_LOOT_UNITS, MAX_ROUNDS
from gm.render.engine import MAX_OUTPUT
from gm.service.actions import MAX_ORDER_TEXT
from gm.service.campaigns import MAX_TITLE


def run(db: str, *args: str, code: int = 0) -> Result:
    result = CliRunner().invoke(cli, ["--db", db, *args])
    assert result.exit_code == code, (result.stdout, result.stderr)
    return result


def error_line(result: Result) -> str:
    (line,) = [line for line in result.stderr.splitlines() if line.startswith("Error: ")]
    return line


def events(db: str) -> int:
    return int(json.loads(run(db, "status", "--json").stdout)["events"])


@pytest.fixture
def opened(db: str) -> str:
    """A Le Magot campaign in round 1, waiting for orders."""
    run(db, "new", "magot", "-t", "Limites", "-p", "fab,marco,lulu", "--seed", "s")
    run(db, "draw", "--bills", "20000,10000,5000,5000,5000")
    return db


def test_players_per_campaign(db: str) -> None:
    names = [f"p{i}" for i in range(21)]
    result = run(db, "new", "magot", "-t", "T", "-p", ",".join(names), code=2)
    assert error_line(result) == "Error: Le Magot needs 3 to 20 players, got 21 [campaign/players]"
    assert run(db, "list").stderr.startswith("No campaign yet.")
    run(db, "new", "magot", "-t", "T", "-p", ",".join(names[:20]), "--preview")


def test_player_name_and_title_lengths(db: str) -> None:
    long_name = "l" * (MAX_NAME + 1)
    result = run(db, "new", "magot", "-t", "T", "-p", f"fab,marco,{long_name}", code=2)
    assert error_line(result) == (
        f"Error: player name {long_name[:20]!r}… is {MAX_NAME + 1} characters;"
        f" the limit is {MAX_NAME} [campaign/players]"
    )
    result = run(db, "new", "magot", "-t", "x" * (MAX_TITLE + 1), "-p", "fab,marco,lulu", code=2)
    assert (
        error_line(result) == f"Error: a title needs 1 to {MAX_TITLE} characters [campaign/title]"
    )
    title = "Le très long casse " * 10  # 190 characters
    run(db, "new", "magot", "-t", title, "-p", f"fab,marco,{long_name[:-1]}")
    slug = json.loads(run(db, "status", "--json").stdout)["campaign"]
    assert slug == "le-tres-long-casse-" * 3 + "le"  # cut at a word, 63 at most
    run(db, "new", "magot", "-t", "x" * MAX_TITLE, "-p", "fab,marco,lulu")


def test_order_text_length(opened: str) -> None:
    before = events(opened)
    text = "marco bang " + "x" * (MAX_ORDER_TEXT - 10)
    result = run(opened, "order", "fab", text, code=2)
    assert error_line(result) == (
        f"Error: the order text is {MAX_ORDER_TEXT + 1} characters long;"
        f" the limit is {MAX_ORDER_TEXT} [input/too-long]"
    )
    assert events(opened) == before  # not an order: not even logged as a refusal
    run(opened, "order", "fab", text[:-1])


def test_dice_count(opened: str) -> None:
    before = events(opened)
    result = run(opened, "roll", "100d6+100d6+1d6", code=2)
    assert (
        error_line(result)
        == "Error: '100d6+100d6+1d6' rolls 201 dice: at most 200 in all [dice/limit]"
    )
    result = run(opened, "roll", "101d6", code=2)
    assert error_line(result) == (
        "Error: cannot roll '101d6' in '101d6': a term rolls 1 to 100 dice [dice/limit]"
    )
    assert events(opened) == before
    run(opened, "roll", "100d6+100d6")


def test_rounds_and_loot_options(db: str) -> None:
    new = ("new", "magot", "-t", "T", "-p", "fab,marco,lulu", "--preview")
    result = run(db, *new, "-o", f"rounds={MAX_ROUNDS + 1}", code=2)
    assert error_line(result) == (
        f"Error: option rounds='{MAX_ROUNDS + 1}' is not valid: give a whole number"
        f" from 1 to {MAX_ROUNDS} (default 8) [magot/bad-rounds]"
    )
    result = run(db, *new, "-o", f"loot=5000:{MAX_BILLS + 1}", code=2)
    assert error_line(result) == (
        f"Error: option loot='5000:{MAX_BILLS + 1}' is not valid: it holds {MAX_BILLS + 1}"
        f" bills; at most {MAX_BILLS}; write bill values and counts,"
        ' e.g. "5000:15,10000:15,20000:10" [magot/bad-loot]'
    )
    # 1 $ and 999 999 $ bills: an exact share would work on millions of units.
    result = run(db, *new, "-o", "loot=1:5,999999:5", code=2)
    assert error_line(result) == (
        "Error: option loot='1:5,999999:5' is not valid: its bills are too far apart to share"
        " exactly: the loot is worth 5000000 times 1 $, the largest amount dividing every bill;"
        f" at most {MAX_LOOT_UNITS} (use values with a larger common divisor, such as 5000"
        ' and 10000); write bill values and counts, e.g. "5000:15,10000:15,20000:10"'
        " [magot/bad-loot]"
    )
    run(db, *new, "-o", f"rounds={MAX_ROUNDS}", "-o", f"loot=5000:{MAX_BILLS}")
    run(db, *new, "-o", f"loot=1:5,{MAX_LOOT_UNITS - 5}:1")


def test_deadline_at_most_a_year_away(opened: str) -> None:
    before = events(opened)
    for text in ("+99999999999h", "+367d", "9999-12-31 23:59"):
        result = run(opened, "reveal", "--force", "--deadline", text, code=2)
        assert error_line(result) == (
            f"Error: the deadline {text!r} is more than 366 days away; give one within a year"
            " [input/deadline]"
        )
    assert events(opened) == before
    run(opened, "reveal", "--force", "--deadline", "+366d")


def test_template_output_size(opened: str, tmp_path: Path) -> None:
    """An edited template that writes too much is stopped at MAX_OUTPUT characters,
    at the top level and inside a macro, and nothing is recorded."""
    folder = tmp_path / "gabarits" / "magot" / "fr"
    folder.mkdir(parents=True)
    # Five times the limit: finite, so that without the limit this test fails
    # at once instead of running forever; a runaway loop is stopped the same way.
    loop = "{% for i in range(1000) %}{% for j in range(500) %}0123456789{% endfor %}{% endfor %}"
    (folder / "reveal.md.j2").write_text(loop + "\n", encoding="utf-8")
    (folder / "results.md.j2").write_text(
        "{% macro big() %}" + loop + "{% endmacro %}\n{{ big() }}\n", encoding="utf-8"
    )
    override = ("--templates", str(tmp_path / "gabarits"))
    before = events(opened)
    result = run(opened, *override, "reveal", "--force", code=2)
    assert error_line(result) == (
        f"Error: {folder / 'reveal.md.j2'}: the template writes more than {MAX_OUTPUT:,}"
        " characters; no post is that long (look for a runaway loop, or a `*` or `**` on a"
        " large number) [template/too-long]"
    )
    assert events(opened) == before
    run(opened, "reveal", "--force")
    result = run(opened, *override, "resolve", code=2)
    assert error_line(result).endswith(
        f"the template writes more than {MAX_OUTPUT:,} characters; no post is that long"
        " (look for a runaway loop, or a `*` or `**` on a large number) [template/too-long]"
    )
    assert "results.md.j2" in error_line(result)
    for hog in ("{{ 'x' * 10**12 }}", "{{ [0] * 10**9 }}", "{{ 7 ** (10 ** 9) }}"):
        (folder / "results.md.j2").write_text(hog + "\n", encoding="utf-8")
        result = run(opened, *override, "resolve", code=2)
        assert "[template/too-long]" in error_line(result), hog
    # A long but finite post is fine.
    (folder / "results.md.j2").write_text("{{ '0123456789' * 50000 }}\n", encoding="utf-8")
    assert len(run(opened, *override, "resolve").stdout) > 500_000
