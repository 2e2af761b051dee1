"""A player's word for the fortune, as their message carries it.

The one place where a message's « graine » is read, for every game and every
phase: the game reads what is left of the message, never the word. The forms
read (case and accents ignored): a line « graine : mot », « graine = mot »,
« graine: mot », « ma graine est mot » (the rest of the line is the word), or
the same inside a line (« tom BANG graine : tequila »), where only the first
word after it is taken. What a word may be is ``check_word``'s.
"""

from __future__ import annotations

import re
import unicodedata

from gm.core.names import nfc
from gm.errors import InputError

MAX_WORD = 40

_MARK = "[\u0300-\u036f]*"  # a decomposed accent after a letter
_SPACE = r"[^\S\n]"  # any blank but a line break (no-break spaces included)
_KEY = (
    rf"(?:\b(?:ma|mon){_SPACE}+)?"  # « ma graine » (« mon » as typed too)
    rf"\bgr[aàâä]{_MARK}[iîï]{_MARK}n[eéèêë]{_MARK}"
    rf"(?:{_SPACE}*[:=]|{_SPACE}+[eé]{_MARK}st\b)"
)
_WORD_LINE = re.compile(rf"^{_SPACE}*{_KEY}{_SPACE}*(.*?){_SPACE}*$", re.I | re.M)
_WORD_INLINE = re.compile(rf"{_KEY}{_SPACE}*([\w'.-]+)", re.I)
_FIRST = re.compile(r"[\w'.-]+")
_WRAPPING = "«»\"“”„`'‹› \u00a0\u202f"
_TRAILING = "!?,;:."
_WORD = re.compile(r"^[\w'.-]+(?: [\w'.-]+)*$")
"""A word for the fortune: letters, digits and ``' . - _``, single spaces
inside. Nothing that reads as markup, a separator of the list the posts
print (« · », guillemets) or a direction override."""


def split_word(text: str) -> tuple[str | None, str]:
    """A player's word for the fortune and the rest of their message, which
    is the order the game reads."""
    word, rest, _ = find_word(text)
    return word, rest


def find_word(text: str) -> tuple[str | None, str, bool]:
    """Like ``split_word``, and whether only part of what follows « graine »
    was taken (the word was in the middle of a line, or the rest of its line
    is not a word): then the first word is taken, and the MJ is told, since
    the player may have meant more."""
    match = _WORD_LINE.search(text)
    if match is not None:
        rest = (text[: match.start()] + text[match.end() :]).strip()
        raw = match.group(1)
        word = _unwrap(raw)
        if _valid(word):
            return word, rest, False
        if _valid(raw):  # « graine : ... » is a word of its own, not quotes around nothing
            return raw, rest, False
        first = _FIRST.search(word)
        if first is not None:
            return first.group(), rest, True
        return word, rest, False  # nothing word-like: check_word says why
    inline = _WORD_INLINE.search(text)
    if inline is not None:
        before, after = text[: inline.start()].rstrip(" \t"), text[inline.end() :].lstrip(" \t")
        return inline.group(1), f"{before} {after}".strip(), True
    return None, text, False


def _unwrap(word: str) -> str:
    """The word without the quotes around it or the sentence's end after it
    (« graine : « jazz » ! » is ``jazz``)."""
    return word.rstrip(_TRAILING + _WRAPPING).strip(_WRAPPING).rstrip(_TRAILING + _WRAPPING)


def _valid(word: str) -> bool:
    clean = nfc(word)
    return (
        bool(clean)
        and len(clean) <= MAX_WORD
        and _WORD.match(clean) is not None
        and not any(unicodedata.category(c) in ("Cf", "Cc", "Co", "Cn") for c in clean)
    )


def check_word(word: str) -> str:
    """A player's word, normalised.

    :raises InputError: ``input/word``: empty, too long, or with characters
        other than letters, digits, ``' . - _`` and single inner spaces.
    """
    if not _valid(word):
        raise InputError(
            f"the fortune word {word[:30]!r} must be 1 to {MAX_WORD} letters or digits"
            " (' . - _ and single spaces allowed inside), e.g. « tequila »",
            code="input/word",
        )
    return nfc(word)
