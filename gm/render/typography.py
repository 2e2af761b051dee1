"""The render layer's last pass over a post: French spacing and line breaks every forum keeps.

A template writes ordinary spaces and ordinary newlines; ``finish`` turns
its Markdown into what French typesetting and every Markdown renderer
expect, in one place, so that templates stay easy to edit (and to merge):

* **French spacing**, in the template's own words only. A space before
  ``;`` ``!`` ``?`` and inside « » becomes U+202F NARROW NO-BREAK SPACE; a
  space before ``:``, after « n° », around the « h » of « 14 h 23 » and
  between a number and ``$`` or ``%`` becomes U+00A0 NO-BREAK SPACE
  (``money`` already writes its thousands and its ``$`` that way). So no
  line breaks before the punctuation, in any format: the characters are
  plain text to Markdown, BBCode and HTML alike, and ``tables code`` keeps
  them (``gm.render.markup``).
  What the pass never touches: escaped data (names, players' texts: the
  finaliser wraps them in ``gm.render.escape.DATA``/``END`` while the
  template renders), code spans (seals, fingerprints, draw labels, words:
  what players compare and ``gm check`` renders again), ``diagram``
  blocks, and Markdown syntax (a ``:`` or ``!`` glued to what follows, as
  in ``:-:``, ``http://`` or ``![``, is not French punctuation).
* **Hard line breaks.** CommonMark (Reddit, cmark-gfm) joins two lines of a
  paragraph into one; Discourse and the BBCode forums keep them. Every line
  that continues a paragraph therefore ends with two spaces, the hard break
  that markdown-it-py, cmark-gfm and Python-Markdown all honour (a trailing
  backslash is not Python-Markdown's). Lines that start a block (a list
  item, a heading, a table row, a quote) need none.

The data markers are removed last: what ``finish`` returns holds none. So
are the word joiners ``gm.render.escape.defuse`` put into data printed inside
a code span (```{{ o.salt }}```): no forum reads markup there.
"""

from __future__ import annotations

import re

from gm.render.escape import DATA, END, WJ

__all__ = ["NBSP", "NNBSP", "finish", "french_spacing", "hard_breaks"]

NBSP = "\u00a0"
NNBSP = "\u202f"

# (pattern matching one ordinary space, its replacement, where the character the rule
# hangs on is: +1 after the space, -1 before it). The space and that character (the
# punctuation, the « ° » of « n° », the « h ») must both be the template's own.
_RULES: tuple[tuple[re.Pattern[str], str, int], ...] = (
    (re.compile(r" (?=[;!?](?![\w\[/(]))"), NNBSP, 1),  # « vraiment ? », not « ![img] »
    (re.compile(r" (?=:(?![\w/\-:]))"), NBSP, 1),  # « Sceau : », not « :-: », « http:// »
    (re.compile(r"(?<=«) "), NNBSP, -1),
    (re.compile(r" (?=»)"), NNBSP, 1),
    (re.compile(r"(?<=\b[nN]°) (?=\S)"), NBSP, -1),
    (re.compile(r"(?<=\d) (?=h\b)"), NBSP, 1),  # 14 h 23, 48 h
    (re.compile(r"(?<=\d\u00a0h) (?=\d)"), NBSP, -1),
    (re.compile(r"(?<=\d) (?=[$%])"), NBSP, 1),
)

_MARKS = re.compile(f"[{DATA}{END}]")
_CODE_SPAN = re.compile(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)")


def _protected(text: str, code: bool = True) -> list[bool]:
    """Which characters of ``text`` the pass must leave alone: data (and code spans)."""
    keep = [False] * len(text)
    depth = start = 0
    for mark in _MARKS.finditer(text):
        i = mark.start()
        if text[i] == DATA:
            if not depth:
                start = i
            depth += 1
        elif depth:
            depth -= 1
            if not depth:
                keep[start : i + 1] = [True] * (i + 1 - start)
    if depth:
        keep[start:] = [True] * (len(text) - start)
    for match in _CODE_SPAN.finditer(text if code else ""):
        if "\n" not in match.group(0):
            keep[match.start() : match.end()] = [True] * (match.end() - match.start())
    return keep


def french_spacing(text: str) -> str:
    """The template's ordinary spaces made French no-break spaces (see the module)."""
    chars = list(text)
    # A rule only turns a space into another space: what is data or code stays so.
    keep = _protected(text)
    for pattern, replacement, anchor in _RULES:
        for match in pattern.finditer("".join(chars)):
            space = match.start()
            tied = space + anchor
            if keep[space] or not 0 <= tied < len(chars) or keep[tied]:
                continue
            chars[space] = replacement
    return "".join(chars)


_BLOCK_START = re.compile(r" {0,3}(?:[-*+] |\d{1,9}[.)] |#{1,6}(?: |$)|\||>|[-*_=]{3,} *$)")
_NO_BREAK_AFTER = re.compile(r" {0,3}(?:#{1,6}(?: |$)|\||[-*_=]{3,} *$)")


def hard_breaks(text: str) -> str:
    """End with two spaces every line that a paragraph continues on the next one."""
    lines = text.split("\n")
    keep = _protected(text, code=False)  # a diagram block is data; a code span is not a block
    out: list[str] = []
    at = 0  # index in ``text`` of the current line's end
    for i, line in enumerate(lines):
        at += len(line)
        nxt = lines[i + 1] if i + 1 < len(lines) else ""
        visible = _strip_markers(line)
        if (
            visible.strip()
            and _strip_markers(nxt).strip()
            and not keep[at - 1 if line else at]  # inside a diagram block
            and not visible.endswith(("  ", "\\"))
            and not _NO_BREAK_AFTER.match(visible)
            and not _BLOCK_START.match(_strip_markers(nxt).lstrip(" "))
            and not visible.startswith("    ")
        ):
            line = line.rstrip(" ") + "  "
        out.append(line)
        at += 1
    return "\n".join(out)


def _strip_markers(text: str) -> str:
    return text.replace(DATA, "").replace(END, "")


def _plain_code_spans(text: str) -> str:
    """Take the word joiners ``defuse`` put into data back out of code spans:
    nothing in a code span is a link or a smiley, and what is there (a seal,
    a salt, ``sha256:…``) is copied and compared by players."""
    if WJ not in text:
        return text
    return _CODE_SPAN.sub(lambda m: m.group(0).replace(WJ, ""), text)


def finish(text: str) -> str:
    """French spacing, then hard breaks; then the data markers go, and the
    word joiners inside code spans."""
    return _plain_code_spans(_strip_markers(hard_breaks(french_spacing(text))))
