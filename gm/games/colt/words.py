"""Colt Express in French words: how a choice is written, and how it is read back.

``phrase`` writes a legal outcome as a player would write it (« vers la
locomotive, 2 wagons », « sur bob, le bijou, vers l'arrière », « rien »):
posts list the legal choices this way, refusals quote them, and
``legal_inputs`` sends them, so ``notation`` must read each one back as
that outcome (tested). ``tokens`` is the one normalisation of free text:
case, accents and punctuation ignored.
"""

from __future__ import annotations

import re

from gm.core.names import fold

from .cards import JEWEL, PURSE, STRONGBOX, Card
from .model import Choice, Outcome

_NOT_WORD = re.compile(r"[^0-9a-z]+")

DIRECTION_WORDS = {"front": "vers la locomotive", "back": "vers l'arrière"}
LEVEL_WORDS = {"roof": "sur le toit", "inside": "à l'intérieur"}
LOOT_WORDS = {PURSE: "la bourse", JEWEL: "le bijou", STRONGBOX: "le coffre"}


# --- what notation reads ---------------------------------------------------------

CARD_WORDS: dict[str, Card] = {
    "deplacement": Card.MOVE,
    "deplacements": Card.MOVE,
    "etage": Card.FLOOR,
    "marshal": Card.MARSHAL,
    "tir": Card.SHOOT,
    "braquage": Card.ROB,
    "poing": Card.PUNCH,
    "balle": Card.BULLET,
    "balles": Card.BULLET,
}
DIRECTIONS: dict[str, str] = {
    "locomotive": "front",
    "loco": "front",
    "avant": "front",
    "tete": "front",
    "arriere": "back",
    "queue": "back",
}
LEVELS: dict[str, str] = {"toit": "roof", "interieur": "inside", "dedans": "inside"}
LOOTS: dict[str, str] = {
    "bourse": PURSE,
    "bourses": PURSE,
    "bijou": JEWEL,
    "bijoux": JEWEL,
    "coffre": STRONGBOX,
    "coffres": STRONGBOX,
}
NUMBERS: dict[str, int] = {"1": 1, "2": 2, "3": 3, "un": 1, "une": 1, "deux": 2, "trois": 3}
DRAW_WORDS = frozenset({"pioche", "pioches", "piocher", "pioche3"})
HIDDEN_WORDS = frozenset({"cachee", "cache", "caches", "cachees"})
LINKS = frozenset({"si", "sinon", "rien", "de", "sur", "vers", "wagon", "wagons", "face"})

GAME_WORDS = frozenset(
    {*CARD_WORDS, *DIRECTIONS, *LEVELS, *LOOTS, *NUMBERS, *DRAW_WORDS, *HIDDEN_WORDS, *LINKS}
)
"""Every word the notation reads: no player may be called so."""


def tokens(text: str) -> list[str]:
    """The words of ``text``, folded: « Vers l'Arrière ! » → ``["vers", "l", "arriere"]``."""
    return [t for t in _NOT_WORD.split(fold(text)) if t]


def distance_words(distance: int) -> str:
    return f"{distance} wagon{'s' if distance > 1 else ''}"


def phrase(outcome: Outcome | Choice, name: str | None = None) -> str:
    """An outcome (or a choice) written as a player would: its elements in a
    fixed order, joined by commas; « rien » for the empty outcome. ``name``
    writes the target (default: the target's player name)."""
    parts = []
    if outcome.target is not None:
        parts.append(f"sur {name or outcome.target}")
    if outcome.loot is not None:
        value = getattr(outcome, "value", None)
        word = LOOT_WORDS[outcome.loot]
        parts.append(f"{word} de {value}" if value is not None else word)
    if outcome.level is not None:
        parts.append(LEVEL_WORDS[outcome.level])
    if outcome.direction is not None:
        parts.append(DIRECTION_WORDS[outcome.direction])
    if outcome.distance is not None:
        parts.append(distance_words(outcome.distance))
    if isinstance(outcome, Choice) and outcome.nothing:
        parts.append("rien")
    return ", ".join(parts) or "rien"
