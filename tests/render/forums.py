"""The forums' own parsers, as the tests use them (none of them is gm's).

* **Discourse**: markdown-it-py as Discourse configures markdown-it: GFM
  tables and strike-through, ``breaks`` (a newline is a line break),
  ``linkify`` (bare addresses become links) and the typographer; Discourse's
  emoji (``:smile:``, the ``:)`` shortcuts), ``@mentions`` and ``#hashtags``
  are plugins markdown-it-py lacks: ``discourse_tokens`` finds what they
  would take in the rendered text.
* **Reddit / cmark-gfm**: GitHub's cmark-gfm (``cmarkgfm``), with its
  autolink, table and strike-through extensions; Reddit also links ``r/x``
  and ``u/x``.
* **phpBB 3.3**: the ``bbcode`` package cut down to phpBB 3.3's default tags
  (``b i u quote code list * url img size color email``), and phpBB's default
  smilies and magic URLs (``http://…``, ``www.…``, e-mail addresses).
* **Forumactif**: the same with Forumactif's larger set (``table tr td``,
  ``center``, ``hr``, ``strike``, ``spoiler``…).
* **HTML preview**: html5lib, the WHATWG parser browsers implement.
"""

from __future__ import annotations

import functools
import re
import xml.etree.ElementTree as etree
from dataclasses import dataclass

import bbcode
import cmarkgfm
import html5lib
from cmarkgfm.cmark import Options
from markdown_it import MarkdownIt

WJ = "\u2060"
ZWSP = "\u200b"

PHPBB_TAGS = frozenset(
    ["b", "i", "u", "quote", "code", "list", "*", "url", "img", "size", "color", "email"]
)
FORUMACTIF_TAGS = PHPBB_TAGS | frozenset(
    [
        "table",
        "tr",
        "td",
        "center",
        "left",
        "right",
        "hr",
        "strike",
        "s",
        "spoiler",
        "hide",
        "font",
        "sub",
        "sup",
    ]
)

PHPBB_SMILIES = [
    ":D",
    ":-D",
    ":grin:",
    ":)",
    ":-)",
    ":smile:",
    ";)",
    ";-)",
    ":wink:",
    ":(",
    ":-(",
    ":sad:",
    ":o",
    ":-o",
    ":eek:",
    ":shock:",
    ":?",
    ":-?",
    ":???:",
    "8-)",
    ":cool:",
    ":lol:",
    ":x",
    ":-x",
    ":mad:",
    ":P",
    ":-P",
    ":razz:",
    ":oops:",
    ":cry:",
    ":evil:",
    ":twisted:",
    ":roll:",
    ":!:",
    ":?:",
    ":idea:",
    ":arrow:",
    ":|",
    ":-|",
    ":mrgreen:",
    ":geek:",
    ":ugeek:",
]
"""phpBB 3.3's default smilies (its install schema)."""

DISCOURSE_SHORTCUTS = [
    ":)",
    ":-)",
    ":(",
    ":-(",
    ";)",
    ";-)",
    ":D",
    ":-D",
    ":P",
    ":-P",
    ":p",
    ":O",
    ":o",
    ":/",
    ":|",
    ":$",
    ":'(",
    "<3",
    "8-)",
    "B-)",
]
"""Discourse's emoji shortcuts (the site setting enable_emoji_shortcuts)."""

MAGIC_URL = re.compile(
    r"(?:https?|ftp)://|(?<![\w.])www\.\w|[\w.+-]+@[\w-]+\.[a-z]{2,}", re.IGNORECASE
)
"""What phpBB's magic URLs (and the bbcode package's) turn into a link."""


def discourse_html(markdown: str) -> str:
    md = MarkdownIt("commonmark", {"breaks": True, "linkify": True, "typographer": True})
    md.enable(["table", "strikethrough", "linkify", "replacements", "smartquotes"])
    return md.render(markdown)


def cmark_html(markdown: str) -> str:
    return cmarkgfm.github_flavored_markdown_to_html(markdown, options=Options.CMARK_OPT_DEFAULT)


def _bbcode_parser(tags: frozenset[str]) -> bbcode.Parser:
    parser = bbcode.Parser(install_defaults=False, replace_cosmetic=False)
    simple = {
        "b": "<strong>%(value)s</strong>",
        "i": "<em>%(value)s</em>",
        "u": "<u>%(value)s</u>",
        "s": "<s>%(value)s</s>",
        "strike": "<s>%(value)s</s>",
        "quote": "<blockquote>%(value)s</blockquote>",
        "center": "<div>%(value)s</div>",
        "table": "<table>%(value)s</table>",
        "tr": "<tr>%(value)s</tr>",
        "td": "<td>%(value)s</td>",
        "size": "<span>%(value)s</span>",
        "color": "<span>%(value)s</span>",
        "spoiler": "<div>%(value)s</div>",
    }
    for tag in tags:
        if tag in simple:
            parser.add_simple_formatter(tag, simple[tag])
    parser.add_simple_formatter("hr", "<hr />", standalone=True)
    parser.add_simple_formatter(
        "code", "<pre><code>%(value)s</code></pre>", render_embedded=False, replace_links=False
    )
    parser.add_simple_formatter("url", "<a>%(value)s</a>", replace_links=False)
    parser.add_simple_formatter("img", "<img />", replace_links=False)

    def list_(tag: str, value: str, options: dict[str, str], parent: object, ctx: object) -> str:
        kind = "ol" if options.get("list") else "ul"
        return f"<{kind}>{value}</{kind}>"

    def item(tag: str, value: str, options: dict[str, str], parent: object, ctx: object) -> str:
        return f"<li>{value}</li>"

    parser.add_formatter(
        "list", list_, transform_newlines=False, strip=True, swallow_trailing_newline=True
    )
    parser.add_formatter("*", item, newline_closes=True, same_tag_closes=True, strip=True)
    return parser


@dataclass(frozen=True)
class BBCodeForum:
    name: str
    tags: frozenset[str]

    def problems(self, text: str) -> list[str]:
        """What this forum would not show as gm meant it: unknown or unbalanced
        tags, smilies, magic links."""
        parser = _bbcode_parser(self.tags)
        found: list[str] = []
        stack: list[str] = []
        plain: list[str] = []
        for kind, tag, _options, token in parser.tokenize(text):
            # phpBB 3.3's [code] ignores every tag inside it, the smilies and
            # magic links its plugins would make included (s9e's ignoreTags
            # rule): a chart's names in a code block show as typed.
            in_code = "code" in stack
            if kind == parser.TOKEN_TAG_START:
                if tag not in self.tags:
                    found.append(f"tag {token!r} unknown to {self.name}")
                if tag != "*":
                    stack.append(tag)
            elif kind == parser.TOKEN_TAG_END:
                if not stack or stack[-1] != tag:
                    found.append(f"unbalanced {token!r} (open: {stack})")
                else:
                    stack.pop()
            elif kind == parser.TOKEN_DATA:
                if not in_code:
                    plain.append(token)
                tag_like = re.search(r"\[/?[A-Za-z*][^\]\n]*\]", token)
                if tag_like:
                    found.append(f"tag {tag_like[0]!r} unknown to {self.name}, shown as text")
            elif kind == parser.TOKEN_NEWLINE:
                plain.append("\n")
        if stack:
            found.append(f"tags left open: {stack}")
        shown = "".join(plain)
        found += [f"smiley {s!r}" for s in PHPBB_SMILIES if s in shown]
        found += [f"magic link {m[0]!r}" for m in MAGIC_URL.finditer(shown)]
        return found

    def html(self, text: str) -> str:
        return str(_bbcode_parser(self.tags).format(text))


PHPBB = BBCodeForum("phpBB 3.3", PHPBB_TAGS)
FORUMACTIF = BBCodeForum("Forumactif", FORUMACTIF_TAGS)


@functools.lru_cache(maxsize=256)
def parse_html(html: str) -> etree.Element:
    """The document an HTML5 parser builds from ``html``. Cached: one text is
    read several ways (its elements, its lines, its prose) and html5lib,
    pure Python, is most of these tests' time. Callers only read the tree."""
    return html5lib.parse(html, treebuilder="etree", namespaceHTMLElements=False)


def elements(html: str) -> tuple[list[etree.Element], str]:
    """Every element an HTML5 parser builds from ``html`` (inside ``<body>``), and the
    visible text (word joiners removed, blanks collapsed)."""
    doc = parse_html(html)
    body = doc.find("body")
    assert body is not None
    found = [el for el in body.iter() if el is not body]
    text = "".join(body.itertext()).replace(WJ, "")
    return found, " ".join(text.split())


_BLOCKS = {"p", "li", "h1", "h2", "h3", "h4", "h5", "h6", "tr", "pre", "blockquote", "div"}


def visual_lines(html: str) -> list[str]:
    """The lines a reader sees: one per block and per line break (code blocks:
    one per line), blanks collapsed, word joiners removed."""
    doc = parse_html(html)
    lines: list[str] = []
    current: list[str] = []

    def flush() -> None:
        line = " ".join("".join(current).replace(WJ, "").replace(ZWSP, "").split())
        if line:
            lines.append(line)
        current.clear()

    def walk(el: etree.Element, pre: bool) -> None:
        if el.tag in _BLOCKS:
            flush()
        if el.tag == "br":
            flush()
        if el.text:
            if pre or el.tag == "pre":
                for i, part in enumerate(el.text.split("\n")):
                    if i:
                        flush()
                    current.append(part)
            else:
                current.append(el.text)
        for child in el:
            walk(child, pre or el.tag == "pre")
            if child.tail:
                current.append(child.tail)
        if el.tag in _BLOCKS or el.tag in ("td", "th"):
            if el.tag in ("td", "th"):
                current.append(" ")
            else:
                flush()

    body = doc.find("body")
    assert body is not None
    walk(body, False)
    flush()
    return lines


EMOJI = re.compile(r"(?<![\w:]):[a-z0-9_+\-]+:(?![\w])")
MENTION = re.compile(r"(?<![\w@])@\w")
HASHTAG = re.compile(r"(?<![\w&#])#\w")
REDDIT_LINK = re.compile(r"(?<![\w/])/?[ru]/\w")


def discourse_tokens(text: str) -> list[str]:
    """What Discourse's emoji, mention and hashtag plugins would take in ``text``."""
    found = [m[0] for m in EMOJI.finditer(text)]
    found += [s for s in DISCOURSE_SHORTCUTS if s in text]
    found += [m[0] for m in MENTION.finditer(text)]
    found += [m[0] for m in HASHTAG.finditer(text)]
    return found
