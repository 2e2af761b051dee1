"""Markdown to HTML and BBCode: exact output for a representative post, and the safety rules."""

from __future__ import annotations

import re
import xml.etree.ElementTree as etree
from collections.abc import Callable

import pytest

from gm.errors import InputError
from gm.render import convert
from gm.render.escape import ZWSP
from gm.render.markup import bbcode_from_tree, parse_tree, text_width

POST = """\
# Le Magot — fin de partie

## Tour 3 — ça tire

**Couché** : marco — *il baisse son arme*.
**BANG** — tom tire sur lulu : touchée.

- reste du tour 2 : 20 000 $
- nouveaux billets : 20 000 · 10 000

1. tom
2. lulu

> Citation d'un joueur

| joueur | butin | blessures |
|---|--:|:-:|
| tom | 120 000 $ | 0 |
| Élodie | 45 000 $ | 1 |

Voir [le règlement](https://example.org/regles) et `sha256:91c2…07bd`.
"""

HTML = """\
<h1>Le Magot — fin de partie</h1>
<h2>Tour 3 — ça tire</h2>
<p><strong>Couché</strong> : marco — <em>il baisse son arme</em>.<br>
<strong>BANG</strong> — tom tire sur lulu : touchée.</p>
<ul>
<li>reste du tour 2 : 20 000 $</li>
<li>nouveaux billets : 20 000 · 10 000</li>
</ul>
<ol>
<li>tom</li>
<li>lulu</li>
</ol>
<blockquote>
<p>Citation d'un joueur</p>
</blockquote>
<table>
<thead>
<tr>
<th>joueur</th>
<th style="text-align: right;">butin</th>
<th style="text-align: center;">blessures</th>
</tr>
</thead>
<tbody>
<tr>
<td>tom</td>
<td style="text-align: right;">120 000 $</td>
<td style="text-align: center;">0</td>
</tr>
<tr>
<td>Élodie</td>
<td style="text-align: right;">45 000 $</td>
<td style="text-align: center;">1</td>
</tr>
</tbody>
</table>
<p>Voir <a href="https://example.org/regles">le règlement</a> et <code>sha256:91c2…07bd</code>.</p>
"""

BBCODE_HEAD = """\
[size=150][b]Le Magot — fin de partie[/b][/size]

[size=120][b]Tour 3 — ça tire[/b][/size]

[b]Couché[/b] : marco — [i]il baisse son arme[/i].
[b]BANG[/b] — tom tire sur lulu : touchée.

[list]
[*]reste du tour 2 : 20 000 $
[*]nouveaux billets : 20 000 · 10 000
[/list]

[list=1]
[*]tom
[*]lulu
[/list]

[quote]Citation d'un joueur[/quote]

"""

BBCODE_TAIL = """

Voir [url=https://example.org/regles]le règlement[/url] et sha256:91c2…07bd.
"""

TABLES = {
    "native": """\
[table]
[tr][th]joueur[/th][th]butin[/th][th]blessures[/th][/tr]
[tr][td]tom[/td][td]120 000 $[/td][td]0[/td][/tr]
[tr][td]Élodie[/td][td]45 000 $[/td][td]1[/td][/tr]
[/table]""",
    "list": """\
[b]joueur — butin — blessures[/b]
[list]
[*]tom — 120 000 $ — 0
[*]Élodie — 45 000 $ — 1
[/list]""",
    "code": """\
[code]joueur      butin  blessures
------  ---------  ---------
tom     120 000 $      0
Élodie   45 000 $      1[/code]""",
}


def test_markdown_is_returned_unchanged() -> None:
    assert convert(POST, "markdown") == POST


def test_html() -> None:
    assert convert(POST, "html") == HTML


@pytest.mark.parametrize("mode", ["native", "list", "code"])
def test_bbcode(mode: str) -> None:
    assert convert(POST, "bbcode", tables=mode) == BBCODE_HEAD + TABLES[mode] + BBCODE_TAIL


def test_html_and_bbcode_show_the_same_text(
    html_text: Callable[[str], tuple[str, list[str]]],
) -> None:
    visible_html, _ = html_text(convert(POST, "html"))
    bbcode = convert(POST, "bbcode")
    bbcode = re.sub(r"\[/?(?:b|i|size|url)(?:=[^\]]*)?\]", "", bbcode)
    bbcode = re.sub(r"\[/?(?:table|tr|th|td|list|\*|quote)(?:=1)?\]", " ", bbcode)
    assert " ".join(bbcode.split()) == visible_html


def test_code_table_counts_accents_as_one_column() -> None:
    decomposed = "| joueur | butin |\n|---|---|\n| E\u0301lodie | 1 |\n| tom | 22 |\n"
    assert convert(decomposed, "bbcode", tables="code") == (
        "[code]joueur  butin\n------  -----\nE\u0301lodie  1\ntom     22[/code]\n"
    )
    assert text_width("E\u0301lodie") == text_width("Élodie") == 6
    assert text_width("a\u200bb") == 2
    assert text_width("日本") == 4


def test_table_cells_with_player_markup() -> None:
    source = "| qui | braque |\n|---|---|\n| \\[b\\]x | \\*\\*Bob\\*\\* |\n"
    assert convert(source, "bbcode") == (
        f"[table]\n[tr][th]qui[/th][th]braque[/th][/tr]\n[tr][td][{ZWSP}b]x[/td][td]**Bob**[/td][/tr]\n[/table]\n"
    )
    assert convert(source, "bbcode", tables="code") == (
        f"[code]qui   braque\n----  -------\n[{ZWSP}b]x  **Bob**[/code]\n"
    )


def test_unknown_format_and_table_mode_are_input_errors() -> None:
    with pytest.raises(
        InputError, match="unknown output format 'rtf'; valid: markdown, bbcode, html"
    ):
        convert("x", "rtf")
    with pytest.raises(InputError, match="unknown table mode 'grid'"):
        convert("x", "bbcode", tables="grid")


def test_raw_html_is_text() -> None:
    source = "<script>alert(1)</script>\n\nfab <b>gras</b> <img src=x onerror=alert(1)>\n"
    assert convert(source, "html") == (
        "<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>\n"
        "<p>fab &lt;b&gt;gras&lt;/b&gt; &lt;img src=x onerror=alert(1)&gt;</p>\n"
    )
    assert convert(source, "bbcode") == (
        "<script>alert(1)</script>\n\nfab <b>gras</b> <img src=x onerror=alert(1)>\n"
    )


def test_entities_become_characters_in_bbcode() -> None:
    source = "A &amp; B&nbsp;: &lt;ok&gt; \\&amp; `&amp;`\n"
    assert (
        convert(source, "html")
        == "<p>A &amp; B&nbsp;: &lt;ok&gt; &amp;amp; <code>&amp;amp;</code></p>\n"
    )
    assert convert(source, "bbcode") == "A & B\u00a0: <ok> &amp; &amp;\n"


@pytest.mark.parametrize(
    "href",
    [
        "javascript:alert(1)",
        "&#106;avascript:alert(1)",
        "java\\script:alert(1)",
        "data:text/html,x",
    ],
)
def test_unsafe_link_addresses_are_dropped(href: str) -> None:
    source = f"[clic]({href}) ![img]({href})\n"
    assert convert(source, "html") == '<p><a>clic</a> <img alt="img"></p>\n'
    assert convert(source, "bbcode") == "clic img\n"


def test_links_and_images() -> None:
    source = '<https://example.org/a> [x](https://e.org/[1] "t") ![plan](/img/p.png)\n'
    assert convert(source, "bbcode") == (
        "[url]https://example.org/a[/url] [url=https://e.org/%5B1%5D]x[/url]"
        " [img]/img/p.png[/img]\n"
    )


def test_automatic_email_link() -> None:
    assert convert("Écris à <fab@example.org>.\n", "bbcode") == (
        "Écris à [url=mailto:fab@example.org]fab@example.org[/url].\n"
    )


def test_code_block_hr_and_nested_list() -> None:
    source = "    [b]code[/b]\n    ligne 2\n\n---\n\n- un\n    - deux\n- trois\n"
    assert convert(source, "bbcode") == (
        f"[code][{ZWSP}b]code[{ZWSP}/b]\nligne 2[/code]\n\n* * *\n\n"
        "[list]\n[*]un\n[list]\n[*]deux\n[/list]\n[*]trois\n[/list]\n"
    )


def test_a_tag_cannot_be_assembled_across_text_nodes() -> None:
    # "[" is text, "b]" is inline code (plain text in BBCode): together they would read [b].
    assert convert("\\[`b]`x\n", "bbcode") == f"[{ZWSP}b]x\n"


def test_empty_document() -> None:
    assert convert("", "html") == ""
    assert convert("\n\n", "bbcode") == ""


@pytest.mark.parametrize("where", ["inline", "block"])
def test_serializer_refuses_an_unknown_element(where: str) -> None:
    root, _ = parse_tree("texte\n")
    etree.SubElement(root[0] if where == "inline" else root, "span").text = "x"
    with pytest.raises(ValueError, match="bbcode: no rule for <span>"):
        bbcode_from_tree(root)
