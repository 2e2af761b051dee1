"""Escaping of player-supplied text: the Markdown escaper and the BBCode tag-breaker.

This module owns the one rule that keeps forum posts safe: a string typed by a
player (a name, the text of an order) must show up *literally* in the post,
whatever markup it contains, and must never break the post's layout.

* ``clean_text`` is the common first step: Unicode NFC, every line break and
  tab turned into a space, runs of spaces collapsed, leading and trailing
  blanks removed, other control characters dropped (Python-Markdown uses
  U+0002/U+0003 as internal placeholders; a player must not forge one), and
  so are the render layer's data markers (U+E000, U+E001, below).
* ``escape_markdown`` then puts a backslash before the ASCII punctuation that
  can start or end Markdown syntax. CommonMark (Discourse, Reddit) allows a
  backslash before any ASCII punctuation, and ``gm.render.markup`` configures
  Python-Markdown the same way, so an escape is always read back as the bare
  character. To keep the Markdown source readable, only the characters that
  matter are escaped:

  - everywhere: ``\\ ` * _ [ ] < > | ~ ^`` (emphasis, code, links, raw HTML
    and autolinks, quotes, table cells, strike-through, Reddit superscript);
  - ``&`` only when it starts something that looks like an entity
    (``&amp;``, ``&#38;``), so « fab & lulu » stays as typed;
  - ``!`` only before ``[`` (images);
  - at the start of the text: ``# + - =`` (headings, list bullets, setext
    underlines and thematic breaks) and the ``.`` or ``)`` after leading
    digits when a space or the end follows (« 1. fab » would open an ordered
    list; « 3.14 » is left alone);
  - at the end of the text: a closing run of ``#`` (it would be stripped
    from a heading).

  So « Jean-Paul » and « l'As de pique » stay as they are, while ``*x*``
  becomes ``\\*x\\*``.
* ``defuse`` (run by ``escape_markdown`` before it escapes) reaches what no
  Markdown escape does: the forums' own text rules. It inserts U+2060 WORD
  JOINER, which has no width, prints nothing and is no break opportunity,
  where a forum would otherwise turn a player's text into something else:
  after ``:`` and ``;`` followed by a non-blank, and after a ``:`` ending the
  text (phpBB smilies ``:D`` ``;)`` ``:shock:``, Discourse ``:emoji:`` and
  ``:)`` shortcuts, ``http://``; a name ending in ``:`` before the
  template's ``)``), after
  ``@`` (mentions, e-mail addresses), inside a ``#hashtag`` and ``<3``,
  after a dot inside a word before a letter and before the dot of
  ``www.`` (cmark-gfm's, markdown-it's and phpBB's autolinkers, bare
  ``evil.com`` included), inside ``8)`` and ``8-)``, Reddit's ``r/`` and
  ``u/`` and the typographer's ``(c)`` ``(tm)``. Each was tried through
  the forums' parsers (``tests/render/test_forum_parsers.py``).
* ``mark_data`` wraps escaped data in two private-use characters (``DATA``
  and ``END``) while a template renders, so that the render layer's French
  typography pass (``gm.render.typography``) touches only the template's own
  words, never a name or a player's text; the pass removes them.
* ``break_bbcode_tags`` makes BBCode tags typed by a player inert by inserting
  U+200B ZERO WIDTH SPACE after a ``[`` that is followed by ``/``, a letter or
  ``*``: ``[b]`` becomes ``[\\u200bb]``, which no forum parses as a tag, and
  which still reads ``[b]`` on screen (the invisible character survives
  copy-and-paste, a known and accepted cost).
"""

from __future__ import annotations

import re
import unicodedata

__all__ = [
    "DATA",
    "END",
    "WJ",
    "ZWSP",
    "Raw",
    "break_bbcode_tags",
    "clean_text",
    "defuse",
    "escape_markdown",
    "mark_data",
]

ZWSP = "\u200b"
WJ = "\u2060"
DATA = "\ue000"
"""Opens a run of escaped data in a template's output (removed before the post is returned)."""
END = "\ue001"
"""Closes it."""


class Raw(str):
    """A string that is already Markdown: the template finaliser leaves it alone.

    Filters that produce markup (or text they have escaped themselves) return
    ``Raw``; everything else that reaches a ``{{ … }}`` is escaped.
    """

    __slots__ = ()

    def __repr__(self) -> str:
        return f"Raw({str.__repr__(self)})"


# Characters `str.splitlines` treats as line boundaries, plus the tab: all become spaces.
_LINE_LIKE = re.compile("[\t\n\v\f\r\x1c\x1d\x1e\x85\u2028\u2029]")
_SPACES = re.compile("  +")
_MARKERS = re.compile(f"[{DATA}{END}]")

_ALWAYS = frozenset("\\`*_[]<>|~^")
# `&` followed by what Python-Markdown or CommonMark would read as an entity.
_ENTITY_AHEAD = re.compile(r"#?[0-9A-Za-z]+;")
# What may start a block at the beginning of a line: heading, bullet, setext
# underline / thematic break, and an ordered-list marker after digits.
_LEADING_MARK = re.compile(r"(?P<mark>[#+\-=])|(?P<digits>[0-9]+)(?P<delim>[.)])(?= |$)")
_TRAILING_HASHES = re.compile(r"#+ *$")


def clean_text(text: str) -> str:
    """Return ``text`` on one line, in NFC, without control characters.

    Line breaks and tabs become spaces, runs of spaces collapse to one and
    leading and trailing spaces go, so a name can neither break the layout,
    start an indented code block, nor undo the ``**`` around it.
    """
    text = _LINE_LIKE.sub(" ", text)
    if not text.isprintable():
        # Drop the remaining C0/C1 controls; keep every other character (even unassigned ones).
        text = "".join(ch for ch in text if unicodedata.category(ch) != "Cc")
    text = unicodedata.normalize("NFC", text)
    # The render layer's data markers are never data: a value made from marked
    # output (``{{ bold|upper }}``) loses them, and a player cannot forge one.
    text = _MARKERS.sub("", text)
    return _SPACES.sub(" ", text).strip()


# Where a forum's own text rules would turn data into a smiley, an emoji, a link or a
# mention: a WORD JOINER goes at each of these (zero-width) positions.
_DEFUSE = re.compile(
    r"""
      (?<=[:;@])(?=\S)             # :D ;) :smile: http:// @mention bob@x
    | (?<=:)$                       # « :smile: » then the template's « ) »
    | (?<![\w&]\#)(?<=\#)(?=\w)     # Discourse's #hashtag (not a#b, &#38;)
    | (?<=<)(?=3)                   # <3
    | (?<=[^\s.]\.)(?=[^\W\d_])      # a dot inside a word, before a letter: evil.com
    | (?<=\bwww)(?=\.)              # www. (cmark-gfm links www.<anything>)
    | (?<=\b8)(?=-?\))              # 8) 8-)
    | (?<=\b[ru])(?=/)              # Reddit's r/sub and u/user
    | (?<=\()(?=(?:c|r|tm|p)\))      # the typographer's (c) (r) (tm) (p)
    """,
    re.VERBOSE | re.IGNORECASE,
)


def defuse(text: str) -> str:
    """Insert U+2060 WORD JOINER where a forum would read ``text`` as a smiley,
    an emoji, a link, a mention or a hashtag (see the module docstring)."""
    return _DEFUSE.sub(WJ, text)


def mark_data(text: str) -> Raw:
    """``text`` (already escaped) between the data markers, for the typography pass."""
    return Raw(DATA + text + END)


def escape_markdown(text: str) -> Raw:
    """Escape ``text`` so that Markdown renders it literally, on one line.

    The result is ``Raw`` (already Markdown). Escaping a ``Raw`` value again
    would double the backslashes: callers (the finaliser, the filters) skip
    ``Raw`` values.
    """
    text = defuse(clean_text(text))
    marked = {i for i, ch in enumerate(text) if _needs_escape(text, i, ch)}
    lead = _LEADING_MARK.match(text)
    if lead is not None:
        marked.add(lead.start("mark") if lead.group("mark") else lead.start("delim"))
    trail = _TRAILING_HASHES.search(text)
    if trail is not None:
        marked.update(i for i in range(trail.start(), trail.end()) if text[i] == "#")
    return Raw("".join("\\" + ch if i in marked else ch for i, ch in enumerate(text)))


def _needs_escape(text: str, i: int, ch: str) -> bool:
    """Whether ``text[i]`` needs a backslash wherever it stands."""
    if ch in _ALWAYS:
        return True
    if ch == "&":
        return _ENTITY_AHEAD.match(text, i + 1) is not None
    if ch == "!":
        return text.startswith("[", i + 1)
    return False


_TAG_START = re.compile(r"\[(?=/?[A-Za-z*])")


def break_bbcode_tags(text: str) -> str:
    """Insert U+200B after every ``[`` that could open a BBCode tag."""
    return _TAG_START.sub("[" + ZWSP, text)
