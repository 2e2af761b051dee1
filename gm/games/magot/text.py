"""Text folding for matching what people type against names and keywords.

Players type names and orders in any case, with or without accents, with
any punctuation. Matching folds both sides the same way (``gm.core.names``:
Unicode normalisation, accents stripped, case folded: ``É`` → ``e``), then
splits into words made of letters and digits; everything else (spaces,
hyphens, apostrophes, punctuation) only separates words. So « Jean-Paul », « jean paul » and
« JEAN PAUL ! » are the same words, and « d'Artagnan » is « d artagnan ».
"""

from __future__ import annotations

import re
import unicodedata

from gm.core import names

_WORD = re.compile(r"[^\W_]+")


def fold(text: str) -> str:
    """Case-folded, accent-free text: the platform's matching key."""
    return names.fold(text)


def words(text: str) -> tuple[str, ...]:
    """The folded words of ``text``."""
    return tuple(_WORD.findall(fold(text)))


def spans(text: str) -> tuple[tuple[str, str], ...]:
    """Each word of ``text`` as ``(folded, as typed)``, to quote the original."""
    original = unicodedata.normalize("NFC", text)
    out: list[tuple[str, str]] = []
    for match in _WORD.finditer(original):
        # folding may split a word (a ligature, a stray mark): keep each piece
        for piece in _WORD.findall(fold(match.group())):
            out.append((piece, match.group()))
    return tuple(out)


def name_key(name: str) -> str:
    """The form under which a player's name is matched: its folded words."""
    return " ".join(words(name))
