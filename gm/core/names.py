"""Names as people type them: normalisation, matching keys, the one rule
for player names, finding names in a message, and slugs.

Player names are kept as the MJ typed them (in NFC) for display, and matched
by a key that ignores case and accents (« Élodie » = « elodie »), so two
players whose names collide after normalisation cannot both exist.
``check_name`` is the platform's only rule for a valid name or nickname (``gm
new``, ``gm rename``, ``gm replace``, ``gm nick``), the same in every game;
``mentions`` is how every game's notation finds the players a message names.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from gm.errors import InputError

_NON_SLUG = re.compile(r"[^a-z0-9]+")
_SPACES = re.compile(r"\s+")


def nfc(text: str) -> str:
    """Unicode NFC with runs of whitespace collapsed and the ends trimmed."""
    return _SPACES.sub(" ", unicodedata.normalize("NFC", text)).strip()


@functools.lru_cache(maxsize=4096)
def fold(text: str) -> str:
    """The matching key of a text: NFC, no accents, casefolded, spaces collapsed.

    Kept for the names and words seen last: the rules match the table's names
    against every order, and ``gm verify`` decides thousands of orders again."""
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


# --- the one rule for names ---------------------------------------------------

MAX_NAME = 40
"""Characters in a player's name (or a nickname) at most, after trimming."""

RESERVED = frozenset({"*", "gm", "mj"})
"""Folded words no player may be called: the public audience of an event
(``*``), the game master's actor (``gm``) and what French MJs call themselves
(``mj``). A seat is never one of them, so an audience or an actor cannot be
mistaken for a player."""

_REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Co", "Cn", "Zl", "Zp"})
"""Control (a newline, a tab), format (a direction mark, a zero-width space),
private-use and unassigned characters, line and paragraph separators: every
player must read the same one-line name."""


def name_problem(name: str) -> str | None:
    """What makes ``name`` (as given) no valid name on its own, or None.

    >>> name_problem("Calamity Jane") is None
    True
    >>> name_problem("*")
    "player name '*' is reserved (the public audience, the MJ): choose another name"
    """
    trimmed = unicodedata.normalize("NFC", name).strip()
    if not trimmed:
        return "a player name cannot be empty"
    if any(unicodedata.category(c) in _REFUSED_CATEGORIES for c in trimmed):
        return (
            f"player name {name!r} contains control or invisible characters (a line break,"
            " a direction mark, a zero-width space…): every player must read the same"
            " one-line name"
        )
    clean = nfc(trimmed)
    if len(clean) > MAX_NAME:
        return f"player name {clean[:20]!r}… is {len(clean)} characters; the limit is {MAX_NAME}"
    if fold(clean) in RESERVED:
        return (
            f"player name {clean!r} is reserved (the public audience, the MJ): choose another name"
        )
    if not any(unicodedata.category(c)[0] in "LN" for c in clean):
        return f"player name {clean!r} has no letter or digit: a name needs at least one"
    return None


def check_name(name: str, taken: Iterable[str] = (), *, code: str = "campaign/players") -> str:
    """``name`` normalised (NFC, spaces collapsed, trimmed), if it is a valid
    name at a table where the names and nicknames ``taken`` are already used.

    This is the platform's one rule for player names and nicknames, in every
    game: 1 to ``MAX_NAME`` characters, at least one letter or digit, no
    control, format, private-use, unassigned, line or paragraph separator
    character, not a ``RESERVED`` word, and distinct from every name of
    ``taken`` once case and accents are folded (and punctuation, which only
    separates words in a message: ``match_key``).

    :raises InputError: naming the problem, with ``code``.
    """
    problem = name_problem(name)
    if problem is not None:
        raise InputError(problem, code=code, params={"name": name})
    clean = nfc(name)
    other = find_name(taken, clean, key=match_key)
    if other is not None:
        ignored = (
            "case and accents" if fold(other) == fold(clean) else "case, accents and punctuation"
        )
        raise InputError(
            f"players {other!r} and {clean!r} are the same name once {ignored} are"
            " ignored; give them distinct names",
            code=code,
            params={"name": clean, "other": other},
        )
    return clean


_WORDS = re.compile(r"[^\W_]+")


def match_key(name: str) -> str:
    """What tells two names apart in a message: their folded words (letters
    and digits; spaces, hyphens, apostrophes and punctuation only separate
    them), as every game reads names. « Jean-Paul » and « jean paul » are the
    same name."""
    return " ".join(_WORDS.findall(fold(name)))


# --- finding names in a message -----------------------------------------------


@dataclass(frozen=True)
class Mention:
    """A name found in a message: whose it is, and the words it spans
    (``words[start:end]`` of the message as the game split it)."""

    seat: str
    start: int
    end: int
    label: tuple[str, ...]
    """The name's own words, as the game split them (« calamity », « jane »)."""


def mentions(
    words: Sequence[str],
    labels: Iterable[tuple[str, str]],
    split: Callable[[str], Sequence[str]],
    own: Callable[[Sequence[str], int], int] | None = None,
) -> list[Mention]:
    """Where ``labels`` (``(name, seat)`` pairs: the players' current names,
    and whatever else a game lets players be called by) are written in
    ``words``, left to right, as whole words: every game's notation finds
    players in a message with it.

    ``split`` is the game's own way of cutting text into folded words (its
    reading of apostrophes and hyphens), applied to each name too, so that a
    name of several words (« Calamity Jane », « Jean-Paul ») is matched as
    consecutive words, case and accents ignored. At each word the longest
    name that fits is taken, and the search resumes after it: « Jean Paul »
    is never also « Jean ».

    ``own(words, i)``, when given, is how many words from ``i`` the game
    reads as a phrase of its own (a card's name): a shorter name is not read
    inside it, so a player called « Joe » is not found in « Slippery Joe ».

    >>> split = lambda text: fold(text).replace("-", " ").split()
    >>> [(m.seat, m.start) for m in mentions(split("Calamity Jane tire"),
    ...     [("Calamity", "c"), ("Calamity Jane", "cj")], split)]
    [('cj', 0)]
    """
    keyed = sorted(
        ((tuple(split(name)), seat) for name, seat in labels),
        key=lambda pair: -len(pair[0]),
    )
    keyed = [(key, seat) for key, seat in keyed if key]
    found: list[Mention] = []
    i = 0
    while i < len(words):
        phrase = own(words, i) if own is not None else 0
        for key, seat in keyed:
            end = i + len(key)
            if len(key) >= phrase and tuple(words[i:end]) == key:
                found.append(Mention(seat, i, end, key))
                i = end
                break
        else:
            i += max(phrase, 1)
    return found


def leading(
    text: str,
    labels: Iterable[tuple[str, str]],
    split: Callable[[str], Sequence[str]],
) -> tuple[str, str] | None:
    """The longest of ``labels`` (``(name, seat)``) that ``text`` starts with,
    as whole words, and the rest of ``text``: « Calamity Jane tire 2 » →
    (``"cj"``, ``"tire 2"``). None if no name starts it.

    ``split`` is the game's own way of cutting text into folded words, as for
    ``mentions``: a name is read at the head of a scenario entry exactly as
    in a message, so a game that ignores punctuation between words reads
    « Jean Paul : Tir » as Jean-Paul's, never as « Jean » followed by « Paul ».

    >>> split = lambda text: fold(text).replace("-", " ").replace(":", " ").split()
    >>> leading("Calamity Jane : Tir", [("Calamity", "c"), ("calamity jane", "cj")], split)
    ('cj', ': Tir')
    >>> leading("Jean Paul : Tir", [("Jean", "j"), ("Jean-Paul", "jp")], split)
    ('jp', ': Tir')
    """
    clean = nfc(text)
    words = tuple(split(clean))
    keyed = sorted(
        ((tuple(split(name)), seat) for name, seat in labels), key=lambda pair: -len(pair[0])
    )
    for key, seat in keyed:
        if not key or words[: len(key)] != key:
            continue
        # the rest of the text starts where the shortest head holding the name's words ends
        for end in range(1, len(clean) + 1):
            head = tuple(split(clean[:end]))
            if head == key:
                return seat, clean[end:].strip()
            if len(head) > len(key):
                break
    return None
