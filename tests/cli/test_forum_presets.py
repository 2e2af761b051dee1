"""Forum presets from the command line, and the reply to a refused order in the chosen format (issue 13, items 1 and 2)."""

from __future__ import annotations

import html5lib
import pytest
from support import Gm, private, typeset

NAMES = "fab,**Bob**,<img src=x onerror=alert(1)>,:smile:"
WJ, ZWSP = "\u2060", "\u200b"


@pytest.fixture
def gm(db: str, frozen_clock: object) -> Gm:
    gm = Gm(db)
    gm("new", "magot", "-t", "Presets", "-p", NAMES, "--seed", "graine")
    gm("draw", "--bills", "20000,10000,5000,5000,5000")
    return gm


REFUSED = "je braque [url=http://evil]**Bob**[/url] BANG BANG"


def test_a_refused_order_is_answered_in_bbcode_without_markdown_escapes(gm: Gm) -> None:
    result = gm("order", "fab", REFUSED, "--format", "phpbb", code=1)
    assert private(result) == typeset(
        "Ordre refusé : « BANG BANG » n'existe pas. C'est BANG (une balle) ou BANG BANG BANG"
        " (le plus rapide).\n"
        "\n"
        "J'attends ton ordre pour le tour 1.\n",
        breaks=False,
    )
    quoted = gm("order", "fab", "Bob [url=http://evil]x[/url]", "--format", "bbcode", code=1)
    # the player's text, quoted back: no backslash, no live [url] tag, no link, lines kept
    assert private(quoted) == typeset(
        "Ordre refusé : tu braques, mais avec quoi ? Précise BANG BANG BANG, BANG ou CLIC CLIC"
        f" CLIC dans « Bob [{ZWSP}url=http:{WJ}//evil]x[{ZWSP}/url] ».\n"
        "Il te reste : BANG BANG BANG ×1, BANG ×2, CLIC CLIC CLIC ×5.\n"
        "\n"
        "J'attends ton ordre pour le tour 1.\n",
        breaks=False,
    )


def test_a_refused_order_in_html_holds_no_element_from_a_name(gm: Gm) -> None:
    result = gm("order", "fab", "je braque personne BANG", "--format", "html", code=1)
    doc = html5lib.parse(private(result), treebuilder="etree", namespaceHTMLElements=False)
    body = doc.find("body")
    assert body is not None
    assert {el.tag for el in body.iter()} <= {"body", "p", "br", "strong", "em", "code"}
    text = "".join(body.itertext()).replace(WJ, "")
    assert "<img src=x onerror=alert(1)>" in text and "**Bob**" in text


def test_the_refusal_follows_the_campaigns_format_setting(gm: Gm) -> None:
    gm("set", "format", "forumactif")
    result = gm("order", "fab", "je braque personne BANG", code=1)
    assert private(result).startswith(typeset("Ordre refusé : je ne connais personne", breaks=False))
    assert "\\*" not in private(result)  # BBCode, not Markdown


def test_a_preset_sets_the_tables_too(gm: Gm) -> None:
    assert gm("set", "tables", "native").stderr == "[presets] tables = native\n"
    assert gm("set", "format", "phpbb").stderr == "[presets] format = phpbb, tables = auto\n"
    gm("order", "fab", "--target", "**Bob**", "--option", "bang")
    gm("reveal", "--force")
    reveal = gm("post", "reveal").stdout
    assert "[table]" not in reveal and "[list]" in reveal
    assert "[table]" in gm("post", "reveal", "--format", "forumactif").stdout
    assert "| qui | braque |" in gm("post", "reveal", "--format", "reddit").stdout


def test_an_unknown_preset_is_refused_naming_the_valid_ones(gm: Gm) -> None:
    result = gm("set", "format", "vbulletin", code=2)
    assert result.stderr == (
        "Error: format cannot be 'vbulletin' (valid: markdown, bbcode, html, phpbb, forumactif,"
        " discourse, reddit) [input/setting]\n"
    )
    assert "Invalid value for '--format'" in gm("post", "--format", "vbulletin", code=2).stderr
