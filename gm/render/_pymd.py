"""The Python-Markdown configuration shared by the HTML preview and the BBCode writer.

Kept apart from ``gm.render.markup`` so that ``markdown`` is imported only when
a post is converted to HTML or BBCode (the Markdown format needs no parser).
See ``gm.render.markup`` for what the configuration guarantees.
"""

from __future__ import annotations

import html
import re
import string
import xml.etree.ElementTree as etree

import markdown
from markdown import util
from markdown.treeprocessors import Treeprocessor

__all__ = ["new_markdown", "parse_tree", "safe_url"]

SAFE_SCHEMES = frozenset({"http", "https", "mailto"})
_INVISIBLE = re.compile(r"[\x00-\x20\x7f]+")
_SCHEME = re.compile(r"([^/?#]*?):")


def safe_url(url: str) -> bool:
    """Whether a link or image address is relative or uses http, https or mailto.

    Entities are decoded and blanks removed first, as a browser would, so
    ``&#106;avascript:`` or ``java script:`` are recognised for what they are.
    """
    # AMP_SUBSTITUTE: automatic e-mail links encode their address as entities this way.
    bare = _INVISIBLE.sub("", html.unescape(url.replace(util.AMP_SUBSTITUTE, "&")))
    match = _SCHEME.match(bare)
    return match is None or match.group(1).lower() in SAFE_SCHEMES


class _SafeLinks(Treeprocessor):
    """Drop link and image addresses that are not ``safe_url`` (runs after unescaping)."""

    def run(self, root: etree.Element) -> None:
        for el in root.iter():
            for attr in ("href", "src"):
                value = el.get(attr)
                if value is not None and not safe_url(value):
                    del el.attrib[attr]


class _LiteralAmpersands(Treeprocessor):
    """Make a text ``&`` always mean itself in the HTML output.

    Python-Markdown's serializer leaves ``&name;`` alone (it takes it for an
    entity), so an escaped ``\\&amp;`` typed by a player would display as
    ``&``. Entities written on purpose are in the stash by then, not in the
    text, and code text is already HTML-escaped.
    """

    def run(self, root: etree.Element) -> None:
        for el in root.iter():
            if el.text and "&" in el.text and el.tag != "code":
                el.text = el.text.replace("&", "&amp;")
            if el.tail and "&" in el.tail:
                el.tail = el.tail.replace("&", "&amp;")


def new_markdown() -> markdown.Markdown:
    """A fresh, configured instance (an instance keeps per-document state)."""
    md = markdown.Markdown(extensions=["tables", "sane_lists", "nl2br"], output_format="html")
    md.preprocessors.deregister("html_block")
    md.inlinePatterns.deregister("html")
    md.ESCAPED_CHARS = sorted(set(md.ESCAPED_CHARS) | set(string.punctuation))
    # After 'unescape' (priority 0): an escaped `\:` must not hide a scheme.
    md.treeprocessors.register(_SafeLinks(md), "gm_safe_links", -5)
    md.treeprocessors.register(_LiteralAmpersands(md), "gm_literal_amp", -10)
    return md


def parse_tree(markdown_text: str, md: markdown.Markdown) -> etree.Element:
    """Parse Markdown into the element tree (root ``div``), as ``Markdown.convert`` does.

    Skips the ``prettify`` step (it adds layout newlines to the tree) and the
    HTML-only ampersand fix; stashed entities stay as placeholders in the text
    (``md.htmlStash``).
    """
    md.treeprocessors.deregister("prettify")
    md.treeprocessors.deregister("gm_literal_amp")
    lines = markdown_text.split("\n")
    for prep in md.preprocessors:
        lines = prep.run(lines)
    root = md.parser.parseDocument(lines).getroot()
    assert root is not None  # parseDocument always builds a root <div>
    for processor in md.treeprocessors:
        new_root = processor.run(root)
        if new_root is not None:
            root = new_root
    return root
