"""Finding gm's posts in what a player pasted, by their proof blocks.

The input is one text or several (files of one post each, posts pasted one
after the other, a whole ``gm chronicle``, in Markdown, BBCode, HTML or
text copied from a browser). Each is read by the strict reader
(``gm.check.reading``); every public post of gm ends with its proof block
(``gm.core.proof``: the line ``gm-preuve/1`` and base64 lines), so a post
is the lines from the end of the previous post of the same text to the end
of its block. Where the post's own first line is, the comparison with gm's
render says (``gm.check.compare``): what comes before it belongs to no post.
No French heading is read: the block says which post it is.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from gm.check.reading import Line, Problem, Unreadable, read_lines
from gm.core import proof as proofs
from gm.core.proof import Proof, ProofError

_HEADER = re.compile(rf"{re.escape(proofs.MARK)}/\d+")
_BASE64 = re.compile(r"[A-Za-z0-9+/=]+")


@dataclass
class Pasted:
    """One post as the input holds it."""

    source: str
    """The input it is in (a file name, or « entrée standard »)."""
    order: int
    """Its place in the input: texts in the order given, posts in their text."""
    fmt: str
    """How its text was read: markdown, bbcode, html or text."""
    lines: list[Line]
    """Its lines as a reader sees them, from the end of the previous post to the end of its block."""
    block: int
    """The index in ``lines`` of its block's first line."""
    proof: Proof | None
    error: str | None = None
    """Why its block cannot be read (``proof`` is None then)."""
    problems: list[Problem] = field(default_factory=list)
    """Markup in its lines that hides or shows what the checker cannot show."""

    def where(self, line: Line | None = None) -> str:
        """« fil.md:12 », or « fil.md:3–40 » for the whole post."""
        if line is not None:
            return f"{self.source}:{line.no}"
        first = self.lines[0].no if self.lines else 0
        last = self.lines[-1].no if self.lines else 0
        return f"{self.source}:{first}–{last}"


@dataclass
class Thread:
    """Every post found in the input, and what is outside any post."""

    posts: list[Pasted]
    outside: list[tuple[str, Line]]
    """Lines after the last post of a text: no post holds them."""
    problems: list[tuple[str, Problem]]
    """Hidden markup in lines outside any post."""
    empty: list[str]
    """The texts in which no post was found."""


def read_thread(texts: Sequence[tuple[str, str]], fmt: str = "auto") -> Thread:
    """The posts of ``texts`` ((name, text) pairs), in input order.

    :raises Unreadable: a text cannot be read at all (empty, or broken HTML).
    """
    thread = Thread([], [], [], [])
    for name, text in texts:
        if not text.strip():
            raise Unreadable(f"{name} : le texte est vide")
        used, lines, problems = read_lines(text, fmt)
        found = _blocks(lines)
        start = 0
        spans: list[tuple[int, int, Pasted]] = []
        for first, end in found:
            block_text = "\n".join(line.text.strip() for line in lines[first:end])
            try:
                proof, error = proofs.decode(block_text), None
            except ProofError as err:
                proof, error = None, str(err)
            post = Pasted(
                name, len(thread.posts), used, lines[start:end], first - start, proof, error
            )
            thread.posts.append(post)
            spans.append((lines[start].no, lines[end - 1].no, post))
            start = end
        if not found:
            thread.empty.append(name)
        thread.outside.extend((name, line) for line in lines[start:])
        for problem in problems:
            owner = next((p for a, b, p in spans if a <= problem[0] <= b), None)
            if owner is not None:
                owner.problems.append(problem)
            else:
                thread.problems.append((name, problem))
    return thread


def _blocks(lines: list[Line]) -> list[tuple[int, int]]:
    """Where the proof blocks are: (index of the header line, index after the last line)."""
    out = []
    i = 0
    while i < len(lines):
        if _HEADER.fullmatch(lines[i].text.strip()):
            j = i + 1
            while j < len(lines) and _BASE64.fullmatch(lines[j].text.strip()):
                j += 1
            out.append((i, j))
            i = j
        else:
            i += 1
    return out
