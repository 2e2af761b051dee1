"""Rendering has a budget (the "secrets leak" issue, second half).

An edited template that loops or recurses without writing anything never
reaches the output limit: it would hang the command for hours. Through the
command line, with ``GM_TEMPLATES``: the command stops once the template has
taken ``MAX_STEPS`` loop turns and calls (or ``MAX_CPU_SECONDS`` of
processor time), with ``[template/too-slow]`` naming the file and line,
records nothing, and the next command renders as usual. A macro that calls
itself without end is a ``[template/too-deep]`` error, not a traceback.

The slow templates are finite (about half a minute or more without the
limit), so that, the limit removed, these tests fail instead of hanging.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from gm.cli import cli
from gm.errors import EXIT_USAGE
from gm.render.budget import MAX_CPU_SECONDS, MAX_STEPS

# 10^9 turns of an empty loop: half a minute or more; the 10^10 would be hours.
LOOPS = "{% for i in range(100000) %}{% for j in range(10000) %}{% endfor %}{% endfor %}"
# 2^23 calls that write nothing: a minute or more. On one line, where it is stopped.
MACRO = (
    "{% macro split(n) %}{% if n %}{{ split(n - 1) }}{{ split(n - 1) }}{% endif %}"
    "{% endmacro %}\n{{ split(22) }}\n"
)
SLOW = {"loops": f"Le tour s'ouvre.\n{LOOPS}\n", "macro": MACRO}
SLOW_LINE = {"loops": 2, "macro": 1}
SPENT = (
    f"took more than {MAX_STEPS:,} steps (loop turns and calls)",
    f"used more than {MAX_CPU_SECONDS:g} seconds of processor time",
)
ADVICE = (
    "; no post takes that much (look for a loop over a large range, or a macro that calls"
    " itself) [template/too-slow]"
)


def run(db: str, *args: str, code: int = 0, templates: Path | None = None) -> Result:
    env = {"GM_TEMPLATES": str(templates)} if templates is not None else {}
    result = CliRunner().invoke(cli, ["--db", db, *args], env=env)
    assert result.exit_code == code, (result.stdout, result.stderr, result.exception)
    if code:
        assert isinstance(result.exception, SystemExit)  # an error line, not a traceback
    return result


def error_line(result: Result) -> str:
    (line,) = result.stderr.splitlines()
    return line


@pytest.fixture
def opened(db: str) -> str:
    run(db, "new", "magot", "-t", "Lent", "-p", "fab,marco,lulu", "--seed", "s")
    return db


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "gabarits" / "magot" / "fr").mkdir(parents=True)
    return tmp_path / "gabarits"


@pytest.mark.parametrize("kind", ["loops", "macro"])
def test_a_slow_template_stops_at_its_budget(opened: str, folder: Path, kind: str) -> None:
    template = folder / "magot" / "fr" / "round.md.j2"
    template.write_text(SLOW[kind], encoding="utf-8")
    before = run(opened, "status", "--json").stdout
    result = run(opened, "draw", code=EXIT_USAGE, templates=folder)
    line = error_line(result)
    where = f"Error: {template}, line {SLOW_LINE[kind]}: the template "
    assert line.startswith(where) and line.endswith(ADVICE), line
    # the loop runs out of steps; the macro's calls, a little slower each, may
    # first run out of processor time on a slow machine: either says so
    assert line[len(where) : -len(ADVICE)] in SPENT
    if kind == "loops":
        assert line[len(where) : -len(ADVICE)] == SPENT[0]
    assert result.stdout == ""
    assert run(opened, "status", "--json").stdout == before
    # The next command, with the shipped templates, renders as usual.
    run(opened, "draw", "--bills", "20000,10000,5000,5000,5000")


def test_a_macro_that_calls_itself_without_end(opened: str, folder: Path) -> None:
    template = folder / "magot" / "fr" / "round.md.j2"
    template.write_text(
        "{% macro again() %}\n{{ again() }}\n{% endmacro %}\n{{ again() }}\n", encoding="utf-8"
    )
    result = run(opened, "draw", code=EXIT_USAGE, templates=folder)
    assert error_line(result).startswith(f"Error: {template}, line 2: macros or templates call")
    assert error_line(result).endswith(
        " (look for a macro or template that calls itself without end) [template/too-deep]"
    )


def test_a_template_that_includes_itself(opened: str, folder: Path) -> None:
    template = folder / "magot" / "fr" / "round.md.j2"
    template.write_text('{% include "magot/fr/round.md.j2" %}\n', encoding="utf-8")
    result = run(opened, "draw", code=EXIT_USAGE, templates=folder)
    assert error_line(result).endswith("[template/too-deep]")


def test_a_template_nested_too_deeply_to_compile(opened: str, folder: Path) -> None:
    template = folder / "magot" / "fr" / "round.md.j2"
    template.write_text("{% if 1 %}" * 400 + "x" + "{% endif %}" * 400, encoding="utf-8")
    result = run(opened, "draw", code=EXIT_USAGE, templates=folder)
    assert error_line(result) == (
        "Error: a template for 'round' nests blocks or parentheses too deeply to compile"
        " [template/too-deep]"
    )
