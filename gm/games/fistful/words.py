"""Reading cards and intentions in a player's free text, before any rule applies.

A message is folded (case, accents: ``gm.core.names.fold``) and cut into
words; punctuation only separates. Cards are ``1`` … ``8`` (or ``deux`` …
``huit``, and ``un`` after « le ») and the Dynamite (« dynamite », « dyna »,
« TNT »). A few verbs say what the cards that follow are for, until the next
such verb:

* play: « je joue le 5 », « je pose », « je tire » ;
* pick (green 8, R-4): « je reprends le 3 », « je récupère », « je pioche » ;
  « je prends le 3 » too, but only when a pick is due (``Part.TAKE``);
* discard: « je défausse 4 et 5 », « ma défausse : 1 2 », « je jette » ;
* final duel (R-5): « je révèle le 5 », « pour l'ultime duel », « final ».

Cards before any verb are *unmarked*: ``notation`` reads them as what the
player is expected to send now. A number that follows « duel », « manche »
or « tour » is a count, not a card (« duel 3 : le 5 »); any other number is
an error (« 9 », « 12 ») rather than something silently skipped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import StrEnum

from gm.core.names import fold

from .cards import Card

_WORD = re.compile(r"[^\W_]+")


class Part(StrEnum):
    """What a run of cards in a message is for."""

    UNMARKED = "unmarked"
    PLAY = "play"
    PICK = "pick"
    DISCARD = "discard"
    FINAL = "final"
    TAKE = "take"  # « je prends le 3 »: a pick when one is due, else unmarked


PLAY_WORDS = frozenset(
    {"joue", "joues", "jouer", "jouerai", "jouee", "pose", "poser", "tire", "tirer", "play"}
)
PICK_WORDS = frozenset(
    {
        "reprends",
        "reprend",
        "reprendre",
        "repris",
        "recupere",
        "recuperer",
        "recup",
        "pioche",
        "piocher",
        "ramasse",
        "ramasser",
        "pick",
    }
)
DISCARD_WORDS = frozenset(
    {
        "defausse",
        "defausses",
        "defausser",
        "defausserai",
        "defaussees",
        "jette",
        "jeter",
        "ecarte",
        "ecarter",
        "discard",
    }
)
FINAL_WORDS = frozenset({"revele", "reveler", "revelerai", "ultime", "final", "finale", "finales"})
TAKE_WORDS = frozenset({"prends", "prend", "prendre", "pris"})
MARKERS: dict[str, Part] = {
    **{w: Part.TAKE for w in TAKE_WORDS},
    **{w: Part.PLAY for w in PLAY_WORDS},
    **{w: Part.PICK for w in PICK_WORDS},
    **{w: Part.DISCARD for w in DISCARD_WORDS},
    **{w: Part.FINAL for w in FINAL_WORDS},
}

CARD_WORDS: dict[str, Card] = {
    **{str(n): Card(str(n)) for n in range(1, 9)},
    "deux": Card.TWO,
    "trois": Card.THREE,
    "quatre": Card.FOUR,
    "cinq": Card.FIVE,
    "six": Card.SIX,
    "sept": Card.SEVEN,
    "huit": Card.EIGHT,
    "dynamite": Card.DYNAMITE,
    "dynamites": Card.DYNAMITE,
    "dyna": Card.DYNAMITE,
    "tnt": Card.DYNAMITE,
}
"""Words that are a card wherever they stand."""

COUNT_WORDS = frozenset({"duel", "duels", "manche", "manches", "tour", "tours", "round", "n", "no"})
"""A number right after one of these counts something; it is not a card."""


_FILLER_TEXT = """
    je j me m moi mon ma mes ton ta tes le la les l un une des de du d au aux a et ou
    en y sur avec pour par dans ce cette ca c est qui que qu il elle on nous vous tu te
    t se s ai as ont suis vais va ne pas plus non oui puis ensuite alors donc aussi
    carte cartes main mon ma mes rouge verte vert rouges vertes ok okay voila voici
    salut bonjour coucou merci mj gm stp svp allez bon hop et encore cette fois coup
    mp the i my card cards toi lui
"""
FILLER = frozenset(_FILLER_TEXT.split())
"""Common words of a message: never reported as unread."""


def unread(text: str, names: frozenset[str] = frozenset()) -> tuple[str, ...]:
    """The words of ``text`` that are no card, no verb of the notation, no
    count, no common word and none of ``names`` (folded words of the
    players' names), in the order typed: what the MJ's note lists."""
    out: list[str] = []
    for word in words(text):
        if (
            word in names
            or word in MARKERS
            or word in CARD_WORDS
            or word in COUNT_WORDS
            or word in FILLER
            or word.isdigit()
        ):
            continue
        if word not in out:
            out.append(word)
    return tuple(out)


@dataclass(frozen=True)
class Reading:
    """The cards of a message by purpose, in order, and the numbers that are no card."""

    parts: dict[Part, tuple[Card, ...]] = field(default_factory=dict)
    not_cards: tuple[str, ...] = ()

    def cards(self, part: Part) -> tuple[Card, ...]:
        return self.parts.get(part, ())


def words(text: str) -> list[str]:
    """The folded words of ``text``."""
    return _WORD.findall(fold(text))


def _card(word: str, previous: str | None) -> Card | None:
    if word in CARD_WORDS:
        return CARD_WORDS[word]
    if word == "un" and previous in ("le", "carte"):
        return Card.ONE
    return None


def scan(text: str) -> Reading:
    """The cards of ``text`` by purpose (see the module docstring)."""
    found: dict[Part, list[Card]] = {}
    not_cards: list[str] = []
    part = Part.UNMARKED
    previous: str | None = None
    for word in words(text):
        if word in MARKERS:
            part = MARKERS[word]
        elif (card := _card(word, previous)) is not None:
            if not (card.number is not None and previous in COUNT_WORDS):
                found.setdefault(part, []).append(card)
        elif word.isdigit() and previous not in COUNT_WORDS:
            not_cards.append(word)
        previous = word
    return Reading({k: tuple(v) for k, v in found.items()}, tuple(not_cards))


def card_words(text: str) -> tuple[Card, ...]:
    """Every card named in ``text``, whatever it is for."""
    return tuple(c for cards in scan(text).parts.values() for c in cards)
