"""The cards of Rattlesnake City: action cards and shot cards (R-3).

Static data only (``gm/games/rattlesnake/rules.md``, « Components »). An action
card is either a *carte jeu*, written as its value (an ``int``, 1 to 25), or
one of the named cards of ``Card`` (the other poker cards and the *cartes
divers*). A shot card is written as its number of cartridges (1, 2 or 3).
Names are the rules page's French ones, as players read them in posts;
keys (``Card`` values) are ASCII so that they can name a draw or a JSON key.
The decks are tuples in a fixed order, the order seeded shuffles start from.
"""

from __future__ import annotations

from enum import StrEnum

from gm.core.names import fold


class Card(StrEnum):
    """A named action card: the poker cards other than the game cards, and
    the 20 *cartes divers* (11 permanent, 9 single-use)."""

    # poker
    TRICHEUR = "tricheur"
    PROFESSIONNEL = "professionnel"
    COYOTE = "coyote"
    GOUDRON = "goudron"
    # divers, permanent
    CUISINIER = "cuisinier"
    CANCAN = "cancan"
    CUISTOT = "cuistot"
    WHISKY = "whisky"
    LILI = "lili"
    PUNAISES = "punaises"
    CROQUE_MORT = "croque-mort"
    IRONFIST = "ironfist"
    SLIPPERY = "slippery"
    HONEST = "honest"
    STINKY = "stinky"
    # divers, single-use
    DYNAMITERO = "dynamitero"
    DESTIN = "destin"
    CHASSEUR = "chasseur"

    @property
    def label(self) -> str:
        """The rules page's name (« Whisky frelaté »)."""
        return LABELS[self]

    @property
    def word(self) -> str:
        """The distinctive word that is enough to name it (« Whisky »)."""
        return WORDS[self]


Action = int | Card
"""An action card: a game card's value (1 to 25) or a named card."""

LABELS: dict[Card, str] = {
    Card.TRICHEUR: "Tricheur",
    Card.PROFESSIONNEL: "Joueur professionnel",
    Card.COYOTE: "Coyote à foie jaune",
    Card.GOUDRON: "Goudron & Plumes",
    Card.CUISINIER: "Cuisinier français",
    Card.CANCAN: "French-cancan",
    Card.CUISTOT: "Cuistot mexicain",
    Card.WHISKY: "Whisky frelaté",
    Card.LILI: "Lili la tigresse",
    Card.PUNAISES: "Punaises",
    Card.CROQUE_MORT: "Croque-mort",
    Card.IRONFIST: "Ironfist Jim",
    Card.SLIPPERY: "Slippery Joe",
    Card.HONEST: "Honest Jim",
    Card.STINKY: "Stinky Joe",
    Card.DYNAMITERO: "Dynamitero",
    Card.DESTIN: "Coup du destin",
    Card.CHASSEUR: "Chasseur de primes",
}

WORDS: dict[Card, str] = {
    Card.TRICHEUR: "Tricheur",
    Card.PROFESSIONNEL: "professionnel",
    Card.COYOTE: "Coyote",
    Card.GOUDRON: "Goudron",
    Card.CUISINIER: "Cuisinier",
    Card.CANCAN: "cancan",
    Card.CUISTOT: "mexicain",
    Card.WHISKY: "Whisky",
    Card.LILI: "Lili",
    Card.PUNAISES: "Punaises",
    Card.CROQUE_MORT: "Croque",
    Card.IRONFIST: "Ironfist",
    Card.SLIPPERY: "Slippery",
    Card.HONEST: "Honest",
    Card.STINKY: "Stinky",
    Card.DYNAMITERO: "Dynamitero",
    Card.DESTIN: "destin",
    Card.CHASSEUR: "Chasseur",
}
"""One word per card that names it alone (notation: « Whisky devant bob »)."""

# --- game cards -------------------------------------------------------------------

GAME_CARDS: tuple[int, ...] = tuple(range(1, 26))
"""The 25 *cartes jeu*, valued 1 to 25."""

REVOLVERS: frozenset[int] = frozenset({3, 7, 10, 13, 17, 20, 24})
"""R-3: the seven game cards that show a revolver (a loser showing one may start a combat)."""


def is_game_card(card: Action) -> bool:
    """Whether ``card`` is a *carte jeu* (a value), not a named card."""
    return isinstance(card, int) and not isinstance(card, bool) and card in GAME_CARDS


def has_revolver(card: Action) -> bool:
    """Whether ``card`` is a game card showing a revolver (R-3)."""
    return is_game_card(card) and card in REVOLVERS


# --- kinds of named cards ----------------------------------------------------------

POKER_CARDS: tuple[Card, ...] = (Card.TRICHEUR, Card.PROFESSIONNEL, Card.COYOTE, Card.GOUDRON)
PERMANENTS: tuple[Card, ...] = (
    Card.CUISINIER,
    Card.CANCAN,
    Card.CUISTOT,
    Card.WHISKY,
    Card.LILI,
    Card.PUNAISES,
    Card.CROQUE_MORT,
    Card.IRONFIST,
    Card.SLIPPERY,
    Card.HONEST,
    Card.STINKY,
)
"""The 11 permanent *cartes divers*, laid in front of a player."""
SINGLE_USE: tuple[Card, ...] = (Card.DYNAMITERO, Card.DESTIN, Card.CHASSEUR)
"""The single-use *cartes divers*: they take effect and are discarded."""
DIVERS: tuple[Card, ...] = PERMANENTS + SINGLE_USE

FLAT_INCOME: dict[Card, int] = {
    Card.CUISINIER: 1000,
    Card.CANCAN: 1000,
    Card.CUISTOT: -1000,
    Card.WHISKY: -1000,
}
"""Permanents that change their holder's income per turn, whatever the board."""
HOTEL_INCOME: dict[Card, int] = {Card.LILI: 1000, Card.PUNAISES: -1000}
"""Permanents worth this while a hotel stands in their holder's town (discarded
when it is destroyed, R-13)."""
CEMETERY_INCOME: dict[Card, int] = {Card.CROQUE_MORT: 1000}
"""Permanents worth this per cemetery in their holder's town."""

COMBAT_BONUS: dict[Card, int] = {
    Card.IRONFIST: 1,
    Card.SLIPPERY: 1,
    Card.HONEST: -1,
    Card.STINKY: -1,
}
"""Shots a permanent adds to (or removes from) its holder once per combat (R-15)."""
JOES: tuple[Card, ...] = (Card.SLIPPERY, Card.STINKY)
"""The cards a Chasseur de primes may arrest."""
BOUNTY = 5000
"""R-7: the bounty, paid by the bank, for arresting a Joe."""

# --- decks -------------------------------------------------------------------------

ACTION_DECK: tuple[Action, ...] = (
    *GAME_CARDS,
    *(Card.TRICHEUR,) * 3,
    *(Card.PROFESSIONNEL,) * 3,
    *(Card.COYOTE,) * 4,
    Card.GOUDRON,
    *PERMANENTS,
    *(Card.DYNAMITERO,) * 6,
    *(Card.DESTIN,) * 2,
    Card.CHASSEUR,
)
"""R-3: the 56 action cards — 36 poker cards (25 game cards, 3 Tricheur,
3 Joueur professionnel, 4 Coyote à foie jaune, 1 Goudron & Plumes) and 20
*cartes divers* (the 11 permanents, 6 Dynamitero, 2 Coup du destin, 1
Chasseur de primes) — in the fixed order a seeded shuffle starts from."""

SHOT_DECK: tuple[int, ...] = (1,) * 27 + (2,) * 18 + (3,) * 9
"""R-3: the 54 shot cards by cartridges — 27 of one, 18 of two, 9 of three."""

SHOTS: tuple[int, ...] = (1, 2, 3)
"""The values a shot card may have."""

# --- names ---------------------------------------------------------------------------


def label(card: Action) -> str:
    """The card as posts name it: a game card's value (« 7 »), else its name."""
    return str(card) if isinstance(card, int) else card.label


def _key(text: str) -> str:
    return "".join(c for c in fold(text) if c.isalnum())


_NAMES: dict[str, tuple[Card, ...]] = {}
for _card in Card:
    for _text in (LABELS[_card], WORDS[_card], _card.value):
        _NAMES.setdefault(_key(_text), ())
        if _card not in _NAMES[_key(_text)]:
            _NAMES[_key(_text)] += (_card,)
# Half a name that designates two cards: the notation refuses it as ambiguous.
_NAMES[_key("Jim")] = (Card.IRONFIST, Card.HONEST)
_NAMES[_key("Joe")] = (Card.SLIPPERY, Card.STINKY)
_NAMES[_key("Goudron et Plumes")] = (Card.GOUDRON,)


def find_cards(text: str) -> tuple[Action, ...]:
    """Every action card ``text`` may name, case, accents and punctuation
    ignored: a game card by its value (« 7 », « le 7 »), a named card by its
    rules-page name or distinctive word. () if none; several if ambiguous
    (« Jim », « Joe »)."""
    key = _key(text)
    if key.startswith("le") and key[2:].isdigit():
        key = key[2:]
    if key.isdigit():
        value = int(key)
        return (value,) if value in GAME_CARDS else ()
    return _NAMES.get(key, ())
