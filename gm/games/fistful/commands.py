"""The commands of Fistful of Gold: what a player or the MJ asks for.

Player names in commands are canonical (``rules`` resolves what was typed);
the players' commands may be sent by the player concerned or by the MJ. The
MJ's steps (``gm start``, ``gm reveal``, ``gm resolve``) are sent with actor
``gm``. A private message may carry several commands (« je reprends le 3 et
je joue le 5 » is a ``PickCard`` then a ``PlayCard``): the platform decides
them in order, each on the state the one before left, all or none; a pick
always comes first, whatever the order of the words.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from gm.core.protocol import Command, Seat

from .cards import Card


@dataclass(frozen=True)
class DiscardAtSetup(Command):
    """Send or replace ``player``'s two secret setup discards."""

    kind: ClassVar[str] = "fistful.discard-at-setup"
    player: Seat
    cards: tuple[Card, ...]


@dataclass(frozen=True)
class PlayCard(Command):
    """Send or replace ``player``'s card for the current duel."""

    kind: ClassVar[str] = "fistful.play-card"
    player: Seat
    card: Card


@dataclass(frozen=True)
class PickCard(Command):
    """The green-8 owner takes ``card`` back from their removed pile (R-4)."""

    kind: ClassVar[str] = "fistful.pick-card"
    player: Seat
    card: Card


@dataclass(frozen=True)
class ChooseEnd(Command):
    """``player``'s end-of-manche choice: which cards to discard (when they may
    choose) and which of them to reveal in the final duel (R-5). A part left
    ``None`` keeps what was sent before."""

    kind: ClassVar[str] = "fistful.choose-end"
    player: Seat
    discards: tuple[Card, ...] | None = None
    final: Card | None = None


@dataclass(frozen=True)
class StartDuels(Command):
    """Lock the setup discards and open the first duel."""

    kind: ClassVar[str] = "fistful.start-duels"


@dataclass(frozen=True)
class RevealDuel(Command):
    """Reveal both cards of the current duel and resolve it."""

    kind: ClassVar[str] = "fistful.reveal-duel"


@dataclass(frozen=True)
class EndManche(Command):
    """Lock the end-of-manche choices, play the final duel if due, score the manche."""

    kind: ClassVar[str] = "fistful.end-manche"


COMMANDS: tuple[type[Command], ...] = (
    DiscardAtSetup,
    PlayCard,
    PickCard,
    ChooseEnd,
    StartDuels,
    RevealDuel,
    EndManche,
)
"""Every command type of the game, for the log."""
