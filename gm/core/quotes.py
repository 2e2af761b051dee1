"""What a forum adds around a player's message, taken off before it is read.

On phpBB a reply quotes the message it answers by default; mail-style
private messages carry « Re: » subject lines and « X a écrit : » lines; many
players sign. The quoted text is often gm's own reminder, which names other
players and options (« je braque fab, CLIC CLIC CLIC »), so reading it as
part of the order would refuse or, worse, change it. ``strip`` takes off:

* BBCode quote blocks, nested or not, with or without an author
  (``[quote]``, ``[quote="MJ"]``, ``[quote=MJ post_id=12 …]``), and what
  comes before a closing ``[/quote]`` left without its opening tag (a quote
  cut when pasting);
* Markdown / mail quoted lines (``> …``);
* mail-style headers at the top (``Re: Tour 3``, ``Sujet : …``, ``De : …``)
  and attribution lines (« Le 3 déc., MJ a écrit : », « MJ wrote: »);
* a signature: everything after a line ``--`` (or ``-- ``).

It is one pure function, used for every game's notation (``gm order``), and
it says what it took off, for the MJ's note.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_OPEN = r"\[quote(?:[= ][^\]]*)?\]"
_CLOSE = r"\[/quote\]"
_TAG = re.compile(rf"{_OPEN}|{_CLOSE}", re.I)
_AUTHOR = re.compile(
    r"\[quote(?:=|\s+name=)\s*(?:\"(?P<quoted>[^\"\]]+)\""
    r"|(?P<bare>[^\"\]\s=]+(?: (?![^\s\]=]+=)[^\"\]\s=]+)*))",
    re.I,
)
_QUOTED_LINE = re.compile(r"^[ \t]*>")
_HEADER = re.compile(
    r"^[ \t]*(?:re|tr|fwd?|sujet|objet|subject|de|from|à|to|envoyé|sent|date|cc)[ \t]*:",
    re.I,
)
_ATTRIBUTION = re.compile(r"(?:a écrit|a ecrit|wrote)[ \t]*:[ \t]*$", re.I)
_SIGNATURE = re.compile(r"^--[ \t]?$")
EXCERPT = 40
"""Characters of an ignored part quoted in the MJ's note."""


@dataclass(frozen=True)
class Stripped:
    """A message with what the forum added taken off, and what that was."""

    text: str
    ignored: tuple[str, ...] = ()
    """One short English description per part taken off, for the MJ."""


def excerpt(text: str) -> str:
    """A part taken off, on one line and at most ``EXCERPT`` characters."""
    flat = " ".join(text.split())
    return flat if len(flat) <= EXCERPT else flat[: EXCERPT - 1].rstrip() + "…"


def strip(text: str) -> Stripped:
    """``text`` without forum quotes, headers and signature.

    >>> strip('[quote="MJ"]je braque fab, CLIC[/quote] ok : tom BANG').text
    'ok : tom BANG'
    >>> strip("> lulu BANG\\ntom BBB\\n-- \\nMarco").ignored
    ('a signature (« Marco »)', '1 quoted line (« lulu BANG »)')
    """
    ignored: list[str] = []
    text = _strip_bbcode(text, ignored)
    lines = text.split("\n")
    lines = _strip_signature(lines, ignored)
    lines = _strip_headers(lines, ignored)
    lines = _strip_quoted_lines(lines, ignored)
    return Stripped("\n".join(lines).strip(), tuple(ignored))


def _strip_bbcode(text: str, ignored: list[str]) -> str:
    """Take off every outermost quote block, counting nested tags."""
    kept: list[str] = []
    depth, start, last = 0, 0, 0
    for tag in _TAG.finditer(text):
        if tag.group(0)[1] != "/":  # an opening tag
            if depth == 0:
                kept.append(text[last : tag.start()])
                start = tag.start()
            depth += 1
        elif depth > 0:
            depth -= 1
            if depth == 0:
                ignored.append(_describe_quote(text[start : tag.end()]))
                last = tag.end()
        else:  # a closing tag with no opening one: a quote cut when pasted
            cut = "".join(kept) + text[last : tag.start()]
            ignored.append(f"a quote cut at its start (« {excerpt(_untag(cut))} »)")
            kept, last = [], tag.end()
    if depth > 0:  # never closed: a quote pasted without its end
        ignored.append(f"a quote left open (« {excerpt(_untag(text[start:]))} »)")
    else:
        kept.append(text[last:])
    # a quote ends a line: what follows it is never glued to a quoted line
    return "\n".join(part.strip("\n") for part in kept if part.strip())


def _untag(text: str) -> str:
    return _TAG.sub(" ", text)


def _describe_quote(block: str) -> str:
    author = _AUTHOR.match(block)
    inner = _untag(block)
    who = f" of {author['quoted'] or author['bare']}" if author else ""
    return f"a [quote]{who} (« {excerpt(inner)} »)"


def _strip_signature(lines: list[str], ignored: list[str]) -> list[str]:
    for i, line in enumerate(lines):
        if _SIGNATURE.match(line):
            rest = "\n".join(lines[i + 1 :])
            ignored.append(f"a signature (« {excerpt(rest)} »)" if rest.strip() else "a signature")
            return lines[:i]
    return lines


def _strip_headers(lines: list[str], ignored: list[str]) -> list[str]:
    out: list[str] = []
    at_top = True
    for line in lines:
        if at_top and not line.strip():
            out.append(line)
            continue
        if at_top and _HEADER.match(line):
            ignored.append(f"a header line (« {excerpt(line)} »)")
            continue
        if _ATTRIBUTION.search(line):
            ignored.append(f"an attribution line (« {excerpt(line)} »)")
            continue
        at_top = False
        out.append(line)
    return out


def _strip_quoted_lines(lines: list[str], ignored: list[str]) -> list[str]:
    quoted = [line for line in lines if _QUOTED_LINE.match(line)]
    if not quoted:
        return lines
    content = " ".join(_QUOTED_LINE.sub("", line, count=1) for line in quoted)
    count = len(quoted)
    ignored.append(f"{count} quoted line{'s' if count > 1 else ''} (« {excerpt(content)} »)")
    return [line for line in lines if not _QUOTED_LINE.match(line)]
