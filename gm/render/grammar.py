"""French grammar around player names: elision and gender agreement.

Template filters (registered with gm's own, see ``gm.render.filters``):

``elide(word)`` / ``de``
    The word before a name, elided where French elides: ``"ana"|elide("de")``
    → ``d'ana``, ``"bob"|de`` → ``de bob``, ``"as"|elide("le")`` → ``l'as``;
    a capitalised word keeps its capital (``De`` → ``D'``). ``bold=True``
    puts the name in bold after it: ``d'**ana**``. The name is escaped like
    any value. Works with ``de``, ``le``, ``la``, ``que``, ``je``, ``me``,
    ``te``, ``se``, ``ne``, ``jusque``, ``lorsque``, ``puisque``.
``accord(masculine, feminine, neutral)``
    The form that agrees with a player (a name) or a group (a list of
    names), from the players' genders (``campaign.genders``, which every
    template receives): ``aim.shooter|accord("sonné", "sonnée", "groggy")``.
    A group agrees in the feminine when every member is feminine, in the
    masculine when every member has a gender and one is masculine (the
    French rule for mixed groups), and takes the neutral form as soon as
    one member has no gender. The neutral form is wording that needs no
    agreement (« hors-jeu », « groggy »), never a masculine by default.
    Called in a macro, the macro's file must be imported ``with context``.

The elision rule, which a name alone must decide (no dictionary of names):

* a name whose first letter is a vowel (``a e i o u``, accented or not,
  ``æ``, ``œ``) elides: « d'ana », « d'Élodie », « d'Ugo »;
* ``y`` elides only before a consonant, where it sounds [i]: « d'Yves »,
  but « de Yann », « de Yasmine »;
* ``h``: forum names starting with an h are mostly read with an h aspiré
  (« de Hulk », « de Harry »), so they do not elide, except the French first
  names of ``H_MUET`` (« d'Hélène », « d'Hugo »), matched on the name's
  first word without case or accents;
* anything else (a consonant, a digit, a symbol) does not elide.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Mapping
from typing import Any

from jinja2 import pass_context
from jinja2.runtime import Context

from gm.render.escape import Raw
from gm.render.filters import FilterError, to_markdown

__all__ = ["FILTERS", "H_MUET", "agreement", "elides"]

H_MUET = frozenset(
    {
        "hadrien",
        "hector",
        "helene",
        "heloise",
        "henri",
        "henriette",
        "herve",
        "hilaire",
        "hippolyte",
        "homere",
        "honore",
        "horace",
        "hortense",
        "hubert",
        "hugo",
        "hugues",
        "huguette",
    }
)
"""First names with an h muet that elide (« d'Hélène »); every other name
starting with an h keeps its article (« de Hulk »)."""

_VOWELS = frozenset("aeiouæœ")
_ELIDED = {
    "de": "d'",
    "le": "l'",
    "la": "l'",
    "que": "qu'",
    "je": "j'",
    "me": "m'",
    "te": "t'",
    "se": "s'",
    "ne": "n'",
    "jusque": "jusqu'",
    "lorsque": "lorsqu'",
    "puisque": "puisqu'",
}


def _bare(text: str) -> str:
    """Lowercase, without accents: « Élodie » → « elodie »."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


def elides(name: str) -> bool:
    """Whether a word before ``name`` elides (see the module docstring)."""
    bare = _bare(name.strip())
    if not bare:
        return False
    first = bare[0]
    if first in _VOWELS:
        return True
    if first == "y":
        return len(bare) > 1 and bare[1].isalpha() and bare[1] not in _VOWELS | {"y"}
    if first == "h":
        word = bare.split()[0].split("-")[0]
        return word in H_MUET
    return False


def elide(name: Any, word: str = "de", bold: bool = False) -> Raw:
    """``word`` then ``name`` (escaped), elided when the name calls for it."""
    if not isinstance(name, str):
        raise FilterError(f"elide expects a name, got {name!r}")
    key = word.casefold()
    if key not in _ELIDED:
        raise FilterError(f"elide does not know the word {word!r} (known: {', '.join(_ELIDED)})")
    shown = to_markdown(name)
    if bold:
        shown = Raw(f"**{shown}**")
    if not elides(name):
        return Raw(f"{word} {shown}")
    short = _ELIDED[key]
    if word[:1].isupper():
        short = short[:1].upper() + short[1:]
    return Raw(f"{short}{shown}")


def de(name: Any, bold: bool = False) -> Raw:
    """``elide(name, "de")``: « d'ana », « de bob »."""
    return elide(name, "de", bold)


def agreement(who: Any, genders: Mapping[str, str]) -> str:
    """``"m"``, ``"f"`` or ``""`` (neutral) for a name or a list of names."""
    names = [who] if isinstance(who, str) else list(who)
    if not names or not all(isinstance(n, str) for n in names):
        raise FilterError(f"accord expects a name or a list of names, got {who!r}")
    given = [genders.get(n, "") for n in names]
    if "" in given:
        return ""
    return "f" if all(g == "f" for g in given) else "m"


@pass_context
def accord(context: Context, who: Any, masculine: str, feminine: str, neutral: str) -> Raw:
    """The form of ``masculine``/``feminine``/``neutral`` that agrees with ``who``."""
    campaign = context.get("campaign")
    if not isinstance(campaign, Mapping) or "genders" not in campaign:
        raise FilterError(
            "accord needs the players' genders (campaign.genders): in a macro, import its"
            " file 'with context'"
        )
    form = {"m": masculine, "f": feminine, "": neutral}[agreement(who, campaign["genders"])]
    return to_markdown(form)


FILTERS: dict[str, Callable[..., Raw]] = {"elide": elide, "de": de, "accord": accord}
