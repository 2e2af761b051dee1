"""The cards of Fistful of Gold: two decks of nine, their order and names.

Each deck (red, green) holds the revolver cards 1 to 8 and one Dynamite.
A card is stored by its value (``"1"``…``"8"``, ``"dynamite"``), the same
names the JSON summary uses; a player's two decks never mix, so a card and
its owner's colour say everything. Piles of cards are kept in deck order
(1 … 8, then the Dynamite) so that two equal piles compare equal.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum


class Card(StrEnum):
    """A card of either deck. The values are the stable names in events and JSON."""

    ONE = "1"
    TWO = "2"
    THREE = "3"
    FOUR = "4"
    FIVE = "5"
    SIX = "6"
    SEVEN = "7"
    EIGHT = "8"
    DYNAMITE = "dynamite"

    @property
    def number(self) -> int | None:
        """The revolver value, or None for the Dynamite."""
        return None if self is Card.DYNAMITE else int(self.value)

    @property
    def label(self) -> str:
        """How the MJ's English messages name it: ``the 5``, ``the Dynamite``."""
        return "the Dynamite" if self is Card.DYNAMITE else f"the {self.value}"


class Color(StrEnum):
    """A deck's colour; each player owns one deck."""

    RED = "red"
    GREEN = "green"

    @property
    def other(self) -> Color:
        return Color.GREEN if self is Color.RED else Color.RED


DECK: tuple[Card, ...] = tuple(Card)
"""A whole deck, in deck order."""

DECK_SIZE = len(DECK)
SETUP_DISCARDS = 2
"""Cards each player discards face down before the first manche."""


def sort_cards(cards: Iterable[Card]) -> tuple[Card, ...]:
    """Cards in deck order: 1 … 8, then the Dynamite."""
    return tuple(sorted(cards, key=DECK.index))


def remove_cards(pile: Iterable[Card], taken: Iterable[Card]) -> tuple[Card, ...]:
    """``pile`` without ``taken`` (each of which must be in it), in deck order."""
    rest = list(pile)
    for card in taken:
        rest.remove(card)
    return sort_cards(rest)


def forbidden_after(card: Card | None) -> Card | None:
    """The card one may not play in the duel after ``card`` (rules, 2; R-1).

    One above it: after a 3, no 4. After an 8 or the Dynamite nothing is
    forbidden, and the Dynamite itself never is.
    """
    if card is None or card.number is None or card.number >= 8:
        return None
    return Card(str(card.number + 1))


def labels(cards: Iterable[Card]) -> str:
    """``1, 2, the Dynamite`` for English messages; ``(none)`` when empty."""
    names = [c.value if c is not Card.DYNAMITE else "Dynamite" for c in cards]
    return ", ".join(names) if names else "(none)"
