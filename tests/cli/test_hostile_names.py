"""Player names that look like markup reach every post literally, in the three
formats, end to end through the CLI (issue #2: ``*x*``, ``[b]``, ``<script>``, ``|``)."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from click.testing import CliRunner

from gm.cli import cli

NAMES = ["*x*", "[b]gras[/b]", "<script>alert(1)</script>", "a|b", "{{ config }}"]
ALLOWED_HTML = {
    "h1",
    "h2",
    "p",
    "strong",
    "em",
    "code",
    "ul",
    "li",
    "table",
    "thead",
    "tbody",
    "tr",
    "th",
    "td",
    "br",
    "pre",  # the chart at the end of the results: a code block
}


class Elements(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: set[str] = set()
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.add(tag)

    def handle_data(self, data: str) -> None:
        self.text.append(data)


@pytest.fixture
def played(db: str) -> list[str]:
    """A round with the hostile names, played into the test's database."""
    run = CliRunner().invoke
    steps = [
        ["new", "magot", "-t", "Noms {{ 7*7 }}", "-p", ",".join(NAMES), "--seed", "s"],
        ["draw", "--bills", "20000,10000,5000,5000,5000"],
        ["order", NAMES[0], "--target", NAMES[1], "--option", "bang"],
        ["order", NAMES[1], "--target", NAMES[2], "--option", "triple"],
        ["order", NAMES[2], "--target", NAMES[3], "--option", "click"],
        ["order", NAMES[3], "--target", NAMES[4], "--option", "click"],
        ["order", NAMES[4], "--target", NAMES[0], "--option", "click"],
        ["reveal"],
        ["resolve"],
    ]
    for args in steps:
        result = run(cli, ["--db", db, *args])
        assert result.exit_code == 0, (args, result.output)
    return [db]


@pytest.mark.parametrize("kind", ["opening", "round", "reveal", "results"])
def test_names_show_literally_in_html_with_no_injected_element(
    played: list[str], kind: str
) -> None:
    html = CliRunner().invoke(cli, ["--db", played[0], "post", kind, "--format", "html"]).stdout
    parsed = Elements()
    parsed.feed(html)
    assert parsed.tags <= ALLOWED_HTML, parsed.tags - ALLOWED_HTML
    visible = "".join(parsed.text)
    for name in NAMES:
        assert name in visible, (name, visible)
    if kind == "opening":  # template syntax in data is never executed
        assert "Noms {{ 7*7 }}" in visible and "Noms 49" not in visible


@pytest.mark.parametrize("kind", ["opening", "reveal", "results"])
def test_names_make_no_bbcode_tag(played: list[str], kind: str) -> None:
    bbcode = CliRunner().invoke(cli, ["--db", played[0], "post", kind, "--format", "bbcode"]).stdout
    tags = set(re.findall(r"\[/?([a-z*]+)", bbcode))
    assert "b" in tags  # gm's own bold is there…
    assert bbcode.count("[b]") == bbcode.count("[/b]")
    assert "[b]gras" not in bbcode  # …but the player's [b] was broken
    assert "[b]\u200bgras" not in bbcode
    assert "[\u200bb]gras[\u200b/b]" in bbcode
    for name in NAMES:
        assert name in bbcode.replace("\u200b", "")


def test_markdown_escapes_the_names(played: list[str]) -> None:
    markdown = CliRunner().invoke(cli, ["--db", played[0], "post", "opening"]).stdout
    assert (
        r"\*x\* · \[b\]gras\[/b\] · \<script\>alert(1)\</script\> · a\|b · {{ config }}" in markdown
    )
