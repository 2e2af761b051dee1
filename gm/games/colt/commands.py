"""The commands of Colt Express: what a player or the MJ asks for.

Player names in commands are canonical (``notation`` resolves what was
typed, a character's name included). A player's commands may be sent by that
player or by the MJ; the MJ's steps (``gm setup``, ``gm round``) and the
defaults (``gm default``) are sent with actor ``gm``.

* ``PlayCard`` / ``DrawCards``: a Plan turn (« je joue Tir », « Braquage face
  cachée », « je pioche »);
* ``Choose``: the choice for one of the player's cards of the pile, as
  alternatives tried in order (« si je peux tirer sur Belle, je tire sur
  Belle, sinon sur Django » is two): for the card resolving now, it resolves
  it; for a later card (``card`` names its kind, or the player's next card),
  it is kept as an instruction (R-6) and applied when the card comes up;
* ``Pickpocket``: at the station Pickpocket, take a purse or not.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from gm.core.protocol import Command, Seat

from .cards import Card
from .model import Choice


@dataclass(frozen=True)
class PlayCard(Command):
    """On their Plan turn, ``player`` puts ``card`` on the pile (face down
    when asked, on a tunnel turn, or by Ghost on their first turn)."""

    kind: ClassVar[str] = "colt.play-card"
    player: Seat
    card: Card
    face_down: bool = False


@dataclass(frozen=True)
class DrawCards(Command):
    """On their Plan turn, ``player`` draws 3 cards (fewer when the deck runs short)."""

    kind: ClassVar[str] = "colt.draw-cards"
    player: Seat


@dataclass(frozen=True)
class Choose(Command):
    """``player``'s choice for one of their cards: ``card`` names its kind
    (None: the card resolving now if it is theirs, else their next one)."""

    kind: ClassVar[str] = "colt.choose"
    player: Seat
    alternatives: tuple[Choice, ...]
    card: Card | None = None
    conditional: bool = False
    latest: bool = False
    """For the card of that kind the player played last (a play and its
    instructions in one message), rather than their next one."""


@dataclass(frozen=True)
class Pickpocket(Command):
    """At Pickpocket, ``player`` takes a purse lying on their spot, or not."""

    kind: ClassVar[str] = "colt.pickpocket"
    player: Seat
    take: bool
    value: int | None = None


@dataclass(frozen=True)
class SetUp(Command):
    """Place the train (``gm setup``): characters, cars and purses given by
    the MJ or drawn by the fortune (R-3). Purses given by hand make the game
    *scripted*: nothing is ever drawn."""

    kind: ClassVar[str] = "colt.set-up"
    characters: tuple[tuple[Seat, str], ...] = ()
    cars: tuple[int, ...] | None = None
    purses: tuple[tuple[int, ...], ...] | None = None


@dataclass(frozen=True)
class OpenRound(Command):
    """Open the next round (``gm round``): its card and every deck, drawn by
    the fortune, or given (a scripted game)."""

    kind: ClassVar[str] = "colt.open-round"
    card: str | None = None
    decks: tuple[tuple[Seat, tuple[Card, ...]], ...] | None = None


@dataclass(frozen=True)
class ApplyDefault(Command):
    """The rules' default for ``player``'s missing input (``gm default``): on a
    Plan turn, a draw; for a card or Pickpocket, a legal choice drawn by the
    fortune (R-6)."""

    kind: ClassVar[str] = "colt.apply-default"
    player: Seat


COMMANDS: tuple[type[Command], ...] = (
    PlayCard,
    DrawCards,
    Choose,
    Pickpocket,
    SetUp,
    OpenRound,
    ApplyDefault,
)
"""Every command type of the game, for the log."""
