"""The components of Colt Express: cards, characters, cars, loot, round and station cards.

Static data only (``gm/games/colt/rules.md``, « Components »). Names are the
French ones the players read in posts; everything else (keys, enums) is
ASCII so that it can name a draw or a JSON key.
"""

from __future__ import annotations

from enum import StrEnum

from gm.core.names import fold


class Card(StrEnum):
    """A card of a bandit's deck: the six actions and the bullet card."""

    MOVE = "deplacement"
    FLOOR = "etage"
    MARSHAL = "marshal"
    SHOOT = "tir"
    ROB = "braquage"
    PUNCH = "poing"
    BULLET = "balle"

    @property
    def label(self) -> str:
        return LABELS[self]


LABELS: dict[Card, str] = {
    Card.MOVE: "Déplacement",
    Card.FLOOR: "Changement d'étage",
    Card.MARSHAL: "Marshal",
    Card.SHOOT: "Tir",
    Card.ROB: "Braquage",
    Card.PUNCH: "Coup de poing",
    Card.BULLET: "Balle",
}

ACTION_DECK: tuple[Card, ...] = (
    Card.MOVE,
    Card.MOVE,
    Card.FLOOR,
    Card.FLOOR,
    Card.MARSHAL,
    Card.SHOOT,
    Card.SHOOT,
    Card.ROB,
    Card.ROB,
    Card.PUNCH,
)
"""A bandit's 10 action cards, in the canonical order every deck is sorted in."""

CARD_ORDER: dict[Card, int] = {card: i for i, card in enumerate(Card)}


def sort_cards(cards: tuple[Card, ...] | list[Card]) -> tuple[Card, ...]:
    """Cards in the canonical order (actions as in ``Card``, bullets last)."""
    return tuple(sorted(cards, key=CARD_ORDER.__getitem__))


BARILLET = 6
"""Bullet cards each bandit may fire (the barillet)."""

NEUTRAL_BULLETS = 13
"""The neutral bullet cards of the Marshal and the events."""

HAND = 6
DOC_HAND = 7
DRAW = 3
ROUNDS = 5

CHARACTERS: tuple[str, ...] = ("Belle", "Cheyenne", "Django", "Doc", "Ghost", "Tuco")

POWERS: dict[str, str] = {
    "Belle": "ne peut être visée par un Tir ou un Coup de poing si un autre bandit peut l'être",
    "Cheyenne": "garde la bourse que lâche sa victime d'un Coup de poing",
    "Django": "son Tir repousse la cible d'un wagon dans le sens du tir",
    "Doc": "commence chaque manche avec 7 cartes en main",
    "Ghost": "peut jouer face cachée à son premier tour de chaque manche",
    "Tuco": "peut aussi tirer à travers le toit, sur l'autre niveau de son wagon",
}
"""Each character's power, in French, as posts state it."""

# --- loot -----------------------------------------------------------------------

PURSE = "purse"
JEWEL = "jewel"
STRONGBOX = "strongbox"
LOOT_KINDS: tuple[str, ...] = (PURSE, JEWEL, STRONGBOX)
JEWEL_VALUE = 500
STRONGBOX_VALUE = 1000
RANSOM = 250
GUNSLINGER = 1000
START_PURSE = 250

PURSE_STOCK: tuple[int, ...] = (250,) * 8 + (300, 300, 350, 350, 400, 400, 450, 450, 500, 500)
"""The 18 purses (R-1); each bandit takes a 250 $ one, the cars draw from the rest."""

PRINTED_CARS: dict[int, tuple[int, int]] = {
    1: (3, 0),
    2: (0, 3),
    3: (1, 1),
    4: (3, 1),
    5: (4, 1),
    6: (1, 0),
}
"""R-1: the loot printed on each car's floor, ``car: (purses, jewels)``."""

# --- round and station cards ------------------------------------------------------


class Turn(StrEnum):
    """A turn symbol of a round card."""

    NORMAL = "normal"  # O
    TUNNEL = "tunnel"  # X: cards are played face down
    SPEED = "speed"  # 2: each player takes two turns in a row
    SWITCH = "switch"  # S: counter-clockwise from the first player


_SYMBOLS = {"O": Turn.NORMAL, "X": Turn.TUNNEL, "2": Turn.SPEED, "S": Turn.SWITCH}


def _layout(text: str) -> tuple[Turn, ...]:
    return tuple(_SYMBOLS[s] for s in text.split())


class Happening(StrEnum):
    """The end-of-round event of a round or station card."""

    ANGRY_MARSHAL = "angry-marshal"
    SWIVEL_ARM = "swivel-arm"
    BRAKING = "braking"
    TAKE_IT_ALL = "take-it-all"
    REBELLION = "rebellion"
    NONE = "none"
    VENGEANCE = "vengeance"
    PICKPOCKET = "pickpocket"
    HOSTAGE = "hostage"


ROUND_CARDS: dict[str, tuple[tuple[Turn, ...], tuple[Turn, ...], Happening]] = {
    "Marshal en colère": (_layout("O O X S"), _layout("O O S"), Happening.ANGRY_MARSHAL),
    "Bras pivotant": (_layout("O X O O"), _layout("O X O"), Happening.SWIVEL_ARM),
    "Freinage": (_layout("O O O O"), _layout("O X O O"), Happening.BRAKING),
    "Prenez tout !": (_layout("O X 2 O"), _layout("O 2 S"), Happening.TAKE_IT_ALL),
    "Rébellion des passagers": (_layout("O O X O O"), _layout("O X O S"), Happening.REBELLION),
    "Pont": (_layout("O 2 O"), _layout("O 2"), Happening.NONE),
    "Tunnel": (_layout("O X O X O"), _layout("O X O X"), Happening.NONE),
}
"""The round cards: the turns for 2–4 players, for 5–6 players, the event."""

STATION_LAYOUT = _layout("O O X O")

STATIONS: dict[str, Happening] = {
    "La vengeance du Marshal": Happening.VENGEANCE,
    "Pickpocket": Happening.PICKPOCKET,
    "Prise d'otage du conducteur": Happening.HOSTAGE,
}
"""The three station cards (the 5th round), all O O X O."""

ALL_CARDS: tuple[str, ...] = (*ROUND_CARDS, *STATIONS)


def layout(card: str, players: int) -> tuple[Turn, ...]:
    """The turns of ``card`` for ``players`` players."""
    if card in STATIONS:
        return STATION_LAYOUT
    small, large, _ = ROUND_CARDS[card]
    return small if players <= 4 else large


def happening(card: str) -> Happening:
    return STATIONS[card] if card in STATIONS else ROUND_CARDS[card][2]


def card_key(text: str) -> str:
    """A round card's name as it is matched: case, accents and punctuation ignored."""
    return "".join(c for c in fold(text) if c.isalnum())


_CARD_KEYS = {card_key(name): name for name in ALL_CARDS}
_CARD_KEYS.update(
    {
        card_key("vengeance du Marshal"): "La vengeance du Marshal",
        card_key("Rébellion"): "Rébellion des passagers",
        card_key("Prise d'otage"): "Prise d'otage du conducteur",
    }
)


def find_round_card(text: str) -> str | None:
    """The round or station card ``text`` names, if any."""
    return _CARD_KEYS.get(card_key(text))
