"""Markdown to forum markup: the HTML preview and the BBCode serializer.

A post is written once, in Markdown (the canonical form, stored and hashed);
this module turns it into the other formats. Both go through the same
Python-Markdown configuration, so the HTML preview shows what the BBCode says:

* extensions ``tables``, ``sane_lists`` and ``nl2br``: forums (phpBB,
  Forumactif, Discourse) show a single newline as a line break, so the
  preview does too, and BBCode keeps it as a newline;
* raw HTML is off: the ``html_block`` preprocessor and the ``html`` inline
  pattern are removed, so ``<script>`` comes out as text. HTML entities
  (``&nbsp;``) still work, as in CommonMark;
* a backslash escapes any ASCII punctuation (``ESCAPED_CHARS``), as in
  CommonMark, which is what ``gm.render.escape.escape_markdown`` relies on;
* links and images keep only ``http``, ``https`` and ``mailto`` addresses (or
  relative ones); anything else (``javascript:``) is dropped.

BBCode mapping (phpBB core tags, which Forumactif accepts as well):

==============  ======================================================
Markdown        BBCode
==============  ======================================================
``#`` heading   ``[size=150][b]…[/b][/size]``
``##`` heading  ``[size=120][b]…[/b][/size]``
``###``–h6      ``[b]…[/b]``
paragraph       its text, then a blank line
line break      a newline
``**b**``       ``[b]…[/b]``
``*i*``         ``[i]…[/i]``
```code```      plain text (phpBB has no inline code tag)
code block      ``[code]…[/code]``
link            ``[url=…]…[/url]`` (``[url]…[/url]`` when text = address)
image           ``[img]…[/img]``
``-`` list      ``[list]`` ``[*]…`` ``[/list]``
``1.`` list     ``[list=1]`` ``[*]…`` ``[/list]``
``>`` quote     ``[quote]…[/quote]``
``---``         a line ``* * *``
table           ``tables="native"``: ``[table][tr][th]…[/th]…[/tr]…[/table]``,
                one row per line; ``"list"``: a bold header line, then
                one ``[*]`` per row, cells joined by `` — ``; ``"code"``:
                a ``[code]`` block, columns padded (alignment kept)
==============  ======================================================

Every element Python-Markdown can produce with this configuration has a rule;
an unknown one raises ``ValueError`` rather than silently vanishing. Text is
passed through ``break_bbcode_tags`` (U+200B after a ``[`` that could open a
tag), after adjacent text runs are merged, so no tag can come from data.
"""

from __future__ import annotations

import html
import re
import unicodedata
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from gm.errors import InputError
from gm.render.escape import WJ, break_bbcode_tags

# `markdown` itself is imported lazily (gm.render._pymd): the Markdown format needs no parser.

if TYPE_CHECKING:
    import xml.etree.ElementTree as etree

__all__ = ["FORMATS", "TABLE_MODES", "bbcode_from_tree", "convert", "parse_tree"]

FORMATS = ("markdown", "bbcode", "html")
TABLE_MODES = ("native", "list", "code")

BBCODE_HEADINGS = {
    "h1": ("[size=150][b]", "[/b][/size]"),
    "h2": ("[size=120][b]", "[/b][/size]"),
    "h3": ("[b]", "[/b]"),
    "h4": ("[b]", "[/b]"),
    "h5": ("[b]", "[/b]"),
    "h6": ("[b]", "[/b]"),
}
BBCODE_INLINE = {"strong": ("[b]", "[/b]"), "em": ("[i]", "[/i]")}
BBCODE_HR = "* * *"
LIST_CELL_SEPARATOR = " — "

# Python-Markdown's placeholders for stashed raw text and for `&` in encoded e-mail addresses.
_STASH = re.compile("\x02wzxhzdk:([0-9]+)\x03")
_AMP = re.compile("\x02amp\x03(#[0-9]+|#[xX][0-9A-Fa-f]+|[0-9A-Za-z]+);")


def convert(
    markdown_text: str, fmt: str, tables: str = "native", header_cell: str = "th"
) -> str:
    """Convert a post from Markdown to ``fmt`` (one of ``FORMATS``).

    ``"markdown"`` returns the text unchanged; ``"html"`` is the preview (raw
    HTML disabled); ``"bbcode"`` follows the mapping in this module's
    docstring, with ``tables`` (one of ``TABLE_MODES``) choosing how tables
    are written and ``header_cell`` (``th``, or ``td`` for a forum without
    ``[th]``: the text in bold) the tag of a native table's header cells.
    ``tables`` and ``header_cell`` only affect BBCode. Callers that print
    for a forum use ``gm.render.presets.to_forum``.
    """
    if fmt not in FORMATS:
        raise InputError(
            f"unknown output format {fmt!r}; valid: {', '.join(FORMATS)}", code="render/format"
        )
    if tables not in TABLE_MODES:
        raise InputError(
            f"unknown table mode {tables!r}; valid: {', '.join(TABLE_MODES)}",
            code="render/tables",
        )
    if fmt == "markdown":
        return markdown_text
    if fmt == "html":
        from gm.render import _pymd

        out = _pymd.new_markdown().convert(markdown_text)
        return out + "\n" if out else ""
    root, resolve = parse_tree(markdown_text)
    return bbcode_from_tree(root, tables, resolve, header_cell)


def parse_tree(markdown_text: str) -> tuple[etree.Element, Callable[[str], str]]:
    """Parse Markdown into Python-Markdown's element tree (root ``div``).

    Also returns the function that turns stash placeholders left in the text
    (HTML entities such as ``&nbsp;``) back into the characters they stand for.
    """
    from gm.render import _pymd

    md = _pymd.new_markdown()
    root = _pymd.parse_tree(markdown_text, md)
    return root, _stash_resolver(md.htmlStash.rawHtmlBlocks)


def _stash_resolver(blocks: Sequence[object]) -> Callable[[str], str]:
    """Return a function that puts stashed entities back as the characters they stand for."""

    def resolve(text: str) -> str:
        def stashed(match: re.Match[str]) -> str:
            raw = blocks[int(match.group(1))]
            if not isinstance(raw, str):  # pragma: no cover - only md_in_html stashes elements
                raise ValueError("bbcode: unexpected stashed element")
            return html.unescape(raw)

        if "\x02" not in text:
            return text
        text = _STASH.sub(stashed, text)
        return _AMP.sub(lambda m: html.unescape("&" + m.group(1) + ";"), text)

    return resolve


# --- BBCode serializer ---------------------------------------------------------------------

# A serialized inline run: (is_text, chunk). Text chunks are escaped after merging, so a `[`
# at the end of one text node and `b]` at the start of the next cannot form a tag.
_Chunk = tuple[bool, str]


def bbcode_from_tree(
    root: etree.Element,
    tables: str = "native",
    resolve: Callable[[str], str] | None = None,
    header_cell: str = "th",
) -> str:
    """Serialize a Python-Markdown element tree (root ``div``) to BBCode."""
    if tables not in TABLE_MODES:
        raise ValueError(f"unknown table mode {tables!r}")
    if header_cell not in ("th", "td"):
        raise ValueError(f"unknown header cell tag {header_cell!r}")
    writer = _BBCodeWriter(tables, resolve or (lambda text: text), header_cell)
    if root.tag != "div":
        raise ValueError(f"bbcode: expected the document root <div>, got <{root.tag}>")
    out = writer.blocks(root)
    return out + "\n" if out else ""


class _BBCodeWriter:
    def __init__(self, tables: str, resolve: Callable[[str], str], header_cell: str) -> None:
        self.tables = tables
        self.resolve = resolve
        self.header_cell = header_cell

    # Blocks -------------------------------------------------------------------------------

    def blocks(self, parent: etree.Element) -> str:
        """Serialize the block children of ``parent``, separated by blank lines."""
        parts: list[str] = []
        pending: list[_Chunk] = []  # inline content outside a block (tight list items)
        if parent.text:
            pending.extend(self._text(parent.text))
        for child in parent:
            if child.tag in _BLOCK_TAGS:
                parts.append(_join(pending).strip(_BLANKS))
                pending = []
                parts.append(self.block(child))
            else:
                pending.extend(self.inline(child))
            if child.tail:
                pending.extend(self._text(child.tail))
        parts.append(_join(pending).strip(_BLANKS))
        return "\n\n".join(part for part in parts if part)

    def block(self, el: etree.Element) -> str:
        tag = el.tag
        if tag == "p":
            return _join(self.content(el)).strip(_BLANKS)
        if tag in BBCODE_HEADINGS:
            opening, closing = BBCODE_HEADINGS[tag]
            return opening + _join(self.content(el)).strip(_BLANKS) + closing
        if tag == "blockquote":
            return "[quote]" + self.blocks(el) + "[/quote]"
        if tag in ("ul", "ol"):
            return self.list_(el)
        if tag == "pre":
            return self.code_block(el)
        if tag == "hr":
            return BBCODE_HR
        if tag == "table":
            return self.table(el)
        raise ValueError(f"bbcode: no rule for <{tag}>")

    def list_(self, el: etree.Element) -> str:
        opening = "[list=1]" if el.tag == "ol" else "[list]"
        items: list[str] = []
        for li in el:
            if li.tag != "li":
                raise ValueError(f"bbcode: <{li.tag}> inside <{el.tag}>")
            items.append("[*]" + self.blocks(li).replace("\n\n", "\n"))
        return "\n".join([opening, *items, "[/list]"])

    def code_block(self, el: etree.Element) -> str:
        code = el.find("code")
        if code is None or len(el) != 1 or len(code):
            raise ValueError("bbcode: <pre> must hold exactly one <code> with text")
        text = html.unescape(self.resolve(code.text or "")).rstrip("\n")
        return "[code]" + break_bbcode_tags(text) + "[/code]"

    # Tables -------------------------------------------------------------------------------

    def table(self, el: etree.Element) -> str:
        rows: list[tuple[bool, list[etree.Element]]] = []  # (is header, cells)
        for section in el:
            if section.tag not in ("thead", "tbody"):
                raise ValueError(f"bbcode: <{section.tag}> inside <table>")
            for tr in section:
                if tr.tag != "tr" or any(cell.tag not in ("th", "td") for cell in tr):
                    raise ValueError("bbcode: malformed table row")
                rows.append((section.tag == "thead", list(tr)))
        if self.tables == "native":
            lines = ["[table]"]
            for _, cells in rows:
                lines.append("[tr]" + "".join(self._native_cell(c) for c in cells) + "[/tr]")
            lines.append("[/table]")
            return "\n".join(lines)
        if self.tables == "list":
            out = ["[b]" + self._cells_line(cells) + "[/b]" for is_head, cells in rows if is_head]
            items = ["[*]" + self._cells_line(cells) for is_head, cells in rows if not is_head]
            if items:
                out.append("\n".join(["[list]", *items, "[/list]"]))
            return "\n".join(out)
        return self.code_table(rows)

    def _native_cell(self, cell: etree.Element) -> str:
        text = _join(self.content(cell)).strip(_BLANKS)
        if cell.tag == "th" and self.header_cell == "td":
            return f"[td][b]{text}[/b][/td]" if text else "[td][/td]"
        return f"[{cell.tag}]{text}[/{cell.tag}]"

    def _cells_line(self, cells: list[etree.Element]) -> str:
        return LIST_CELL_SEPARATOR.join(_join(self.content(c)).strip(_BLANKS) for c in cells)

    def code_table(self, rows: list[tuple[bool, list[etree.Element]]]) -> str:
        texts = [[self.plain_text(cell) for cell in cells] for _, cells in rows]
        ncols = max((len(r) for r in texts), default=0)
        widths = [
            max((text_width(r[i]) for r in texts if i < len(r)), default=0) for i in range(ncols)
        ]
        aligns = [_align(rows[0][1][i]) if i < len(rows[0][1]) else "left" for i in range(ncols)]
        lines: list[str] = []
        for n, (is_head, _) in enumerate(rows):
            cells = [_pad(t, widths[i], aligns[i]) for i, t in enumerate(texts[n])]
            lines.append("  ".join(cells).rstrip())
            if is_head and (n + 1 == len(rows) or not rows[n + 1][0]):
                lines.append("  ".join("-" * w for w in widths))
        return "[code]" + break_bbcode_tags("\n".join(lines)) + "[/code]"

    def plain_text(self, el: etree.Element) -> str:
        """The visible text of ``el``, on one line (for monospace tables)."""
        parts: list[str] = []

        def walk(node: etree.Element) -> None:
            if node.tag == "br":
                parts.append(" ")
            elif node.text:
                text = self.resolve(node.text)
                parts.append(html.unescape(text) if node.tag == "code" else text)
            if node.tag == "img":
                parts.append(node.get("alt", ""))
            for child in node:
                walk(child)
                if child.tail:
                    parts.append(self.resolve(child.tail))

        walk(el)
        # Layout blanks only: a no-break space (« 0 $ », « tour ? ») is the text's own.
        return " ".join(_LAYOUT_BLANKS.split("".join(parts).strip(_BLANKS)))

    # Inline -------------------------------------------------------------------------------

    def content(self, el: etree.Element) -> list[_Chunk]:
        """The inline content of ``el`` (its text and children, not its tail)."""
        chunks: list[_Chunk] = []
        if el.text:
            chunks.extend(self._text(el.text))
        for child in el:
            chunks.extend(self.inline(child))
            if child.tail:
                chunks.extend(self._text(child.tail))
        return chunks

    def inline(self, el: etree.Element) -> list[_Chunk]:
        tag = el.tag
        if tag in BBCODE_INLINE:
            opening, closing = BBCODE_INLINE[tag]
            return [(False, opening), *self.content(el), (False, closing)]
        if tag == "code":
            # phpBB has no inline code: the span's text is plain text there, and
            # phpBB's autolinker would link a word such as « www.x.fr ».
            return [(True, _break_www(html.unescape(self.resolve(el.text or ""))))]
        if tag == "br":
            return [(False, "\n")]
        if tag == "a":
            href = el.get("href")
            inner = self.content(el)
            if not href:
                return inner
            href = _bbcode_url(self.resolve(href))
            if _join(inner) == href:
                return [(False, f"[url]{href}[/url]")]
            return [(False, f"[url={href}]"), *inner, (False, "[/url]")]
        if tag == "img":
            src = el.get("src")
            if not src:
                return self._text(el.get("alt", ""))
            return [(False, f"[img]{_bbcode_url(self.resolve(src))}[/img]")]
        raise ValueError(f"bbcode: no rule for <{tag}>")

    def _text(self, text: str) -> list[_Chunk]:
        return [(True, self.resolve(text))]


# Only layout whitespace is trimmed: a no-break space is content.
_BLANKS = " \t\n"
_LAYOUT_BLANKS = re.compile("[ \t\n]+")
_WWW = re.compile(r"(?<![\w.])(www)(?=\.)", re.IGNORECASE)


def _break_www(text: str) -> str:
    """A word joiner before the dot of ``www.``: no autolinker reads it then."""
    return _WWW.sub("\\1" + WJ, text)
_BLOCK_TAGS = frozenset(["p", "blockquote", "ul", "ol", "pre", "hr", "table", *BBCODE_HEADINGS])


def _join(chunks: list[_Chunk]) -> str:
    """Join chunks, merging adjacent text before breaking would-be tags in it."""
    out: list[str] = []
    run: list[str] = []
    for is_text, chunk in chunks:
        if is_text:
            run.append(chunk)
            continue
        if run:
            out.append(break_bbcode_tags("".join(run)))
            run = []
        out.append(chunk)
    if run:
        out.append(break_bbcode_tags("".join(run)))
    return "".join(out)


def _bbcode_url(url: str) -> str:
    """Percent-encode what would end a ``[url=…]`` tag early or split it."""
    return "".join(f"%{ord(ch):02X}" if ch in '[]" ' or ord(ch) < 0x20 else ch for ch in url)


def _align(cell: etree.Element) -> str:
    style = cell.get("style", "") + " " + cell.get("align", "")
    for align in ("right", "center"):
        if align in style:
            return align
    return "left"


def _pad(text: str, width: int, align: str) -> str:
    gap = width - text_width(text)
    if align == "right":
        return " " * gap + text
    if align == "center":
        return " " * (gap // 2) + text + " " * (gap - gap // 2)
    return text + " " * gap


def text_width(text: str) -> int:
    """Monospace columns of ``text``: one per character of its NFC form.

    Combining marks left after NFC and zero-width characters count zero, East
    Asian wide characters two; so « Élodie » is six columns whichever way it
    was typed.
    """
    return sum(_char_width(ch) for ch in unicodedata.normalize("NFC", text))


def _char_width(ch: str) -> int:
    if unicodedata.combining(ch) or ch in "\u200b\u200c\u200d\u2060\ufeff":
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
