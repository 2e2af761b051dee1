"""A pasted post against gm's own render of it, line by line, as a reader sees both.

gm stores a post as canonical Markdown; the MJ pasted it converted for the
forum (``gm.render.presets.to_forum``), and the player copied it as
Markdown, BBCode, HTML or a browser's text. So gm's render is converted to
the pasted text's format (the campaign's preset first, then the others of
that format), both are read by the same strict reader
(``gm.check.reading``), and their lines are aligned (``difflib``): a line
the thread shows that gm would not print, a line gm would print that the
thread lacks, a line changed, each with its place and what gm would print.
Lines before the post's first line belong to no post (a chronicle's own
headings). The proof block is compared as what it holds, not as base64.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from gm.check.reading import Line, read_lines
from gm.check.thread import _blocks
from gm.render.presets import PRESETS, to_forum


@dataclass
class Difference:
    """One place where the thread and gm's render differ."""

    shown: Line | None
    """The thread's line (None: gm prints a line the thread lacks)."""
    fresh: str | None
    """What gm prints there (None: the thread shows a line gm does not print)."""
    before: Line | None = None
    """For a missing line: the thread's line it would come before."""


@dataclass
class Comparison:
    """The outcome of comparing one post."""

    preset: str
    outside: list[Line] = field(default_factory=list)
    """The lines before the post's first line: no post holds them."""
    differences: list[Difference] = field(default_factory=list)
    compared: int = 0
    """How many lines of the post were compared (the proof block's apart)."""


def candidates(fmt: str, settings: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The (preset, tables) pairs a text pasted as ``fmt`` may have been made
    with, the campaign's own first."""
    wanted = "html" if fmt in ("html", "text") else fmt
    own = (str(settings.get("format", "markdown")), str(settings.get("tables", "auto")))
    out = [own] if PRESETS[own[0]].format == wanted else []
    for name, spec in PRESETS.items():
        if spec.format != wanted:
            continue
        for tables in ("auto", "native", "list", "code"):
            if (name, tables) not in out:
                out.append((name, tables))
    return out


def fresh_lines(markdown: str, fmt: str, preset: str, tables: str) -> list[Line]:
    """gm's render of a post, as a reader of a ``fmt`` paste would see it."""
    text = to_forum(markdown, preset, tables)
    # a browser's copy is the forum's HTML as shown: read gm's HTML
    return read_lines(text, "html" if fmt == "text" else fmt)[1]


def without_block(lines: list[Line]) -> list[Line]:
    """The lines of a post without its proof block's."""
    found = _blocks(lines)
    if not found:
        return lines
    dropped = {i for a, b in found for i in range(a, b)}
    return [line for i, line in enumerate(lines) if i not in dropped]


def compare(pasted: list[Line], markdown: str, fmt: str, settings: Mapping[str, Any]) -> Comparison:
    """Compare a post's lines (its block's apart) with gm's render ``markdown``."""
    shown = without_block(pasted)
    best: Comparison | None = None
    for preset, tables in candidates(fmt, settings):
        fresh = without_block(fresh_lines(markdown, fmt, preset, tables))
        result = _align(shown, fresh, preset)
        if not result.differences:
            return result
        if best is None or len(result.differences) < len(best.differences):
            best = result
    assert best is not None
    return best


def _key(line: Line) -> str:
    return " ".join(line.text.split())


def _align(shown: list[Line], fresh: list[Line], preset: str) -> Comparison:
    out = Comparison(preset, compared=len(fresh))
    a = [_key(line) for line in shown]
    b = [_key(line) for line in fresh]
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    opcodes = matcher.get_opcodes()
    for n, (tag, i1, i2, j1, j2) in enumerate(opcodes):
        if tag == "equal":
            continue
        if n == 0 and j1 == 0 and tag == "delete":
            out.outside.extend(shown[i1:i2])  # before the post's first line
            continue
        if n == 0 and tag == "replace" and i2 - i1 > j2 - j1:
            # lines before the post, then its first lines changed
            extra = (i2 - i1) - (j2 - j1)
            out.outside.extend(shown[i1 : i1 + extra])
            i1 += extra
        if tag in ("replace", "delete"):
            for k in range(i1, i2):
                offset = k - i1
                fresh_text = (
                    fresh[j1 + offset].text if tag == "replace" and j1 + offset < j2 else None
                )
                out.differences.append(Difference(shown[k], fresh_text))
        if tag in ("replace", "insert"):
            for k in range(j1 + (i2 - i1 if tag == "replace" else 0), j2):
                before = shown[i2] if i2 < len(shown) else None
                out.differences.append(Difference(None, fresh[k].text, before))
    return out
