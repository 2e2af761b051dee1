"""Names as people type them: normalisation, matching keys and slugs.

Player names are kept as the MJ typed them (in NFC) for display, and matched
by a key that ignores case and accents (« Élodie » = « elodie »), so two
players whose names collide after normalisation cannot both exist.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable

_NON_SLUG = re.compile(r"[^a-z0-9]+")
_SPACES = re.compile(r"\s+")


def nfc(text: str) -> str:
    """Unicode NFC with runs of whitespace collapsed and the ends trimmed."""
    return _SPACES.sub(" ", unicodedata.normalize("NFC", text)).strip()


def fold(text: str) -> str:
    """The matching key of a text: NFC, no accents, casefolded, spaces collapsed."""
    decomposed = unicodedata.normalize("NFKD", nfc(text))
    stripped = "".join(c for c in decomposed if not unicodedata.combining(c))
    return unicodedata.normalize("NFC", stripped).casefold()


def find_name(names: Iterable[str], name: str, key: Callable[[str], str] = fold) -> str | None:
    """The one of ``names`` that ``name`` designates once both are ``key``-ed
    (by default case and accents ignored), or None."""
    wanted = key(name)
    return next((n for n in names if key(n) == wanted), None)


MAX_SLUG = 63
"""Characters in a campaign slug at most: short enough to type after ``-c``."""


def numbered_slug(base: str, n: int) -> str:
    """The ``n``-th slug of ``base``: ``base`` itself for 1, then ``base-2``,
    ``base-3``…, cut so that it stays within ``MAX_SLUG``."""
    if n <= 1:
        return base
    suffix = f"-{n}"
    return base[: MAX_SLUG - len(suffix)].rstrip("-") + suffix


def slugify(text: str) -> str:
    """A URL- and shell-friendly slug: « Le casse du siècle » → ``le-casse-du-siecle``.

    A long title gives a slug cut at a word boundary within ``MAX_SLUG``.
    """
    slug = _NON_SLUG.sub("-", fold(text)).strip("-")
    if len(slug) > MAX_SLUG:
        cut = slug[: MAX_SLUG + 1]
        slug = cut.rsplit("-", 1)[0] if "-" in cut else cut[:MAX_SLUG]
    return slug.strip("-")
