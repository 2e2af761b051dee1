"""The commands of Rattlesnake City: what a player or the MJ asks for.

Player names in commands are canonical (``notation`` resolves what was
typed). A player's commands may be sent by that player or by the MJ; the
MJ's step (``gm setup``) and the defaults (``gm default``) are sent with
actor ``gm``.

* ``SetUp`` — deal: the first player, the hands, the bag and the decks,
  drawn by the fortune or given (a game played by hand);
* ``PlaceSaloon`` — a player's saloon, in seating order from the first;
* ``PlaceTile`` — step 1, the tile drawn (« A1 », « gare en A7 »);
* ``Draw`` — step 2, « action » or « coups »;
* ``PlayDivers`` / ``Trade`` — step 3 (R-12);
* ``AttackBank`` (with its opening shot) / ``Shoot`` / ``GiveUp`` — step 4's
  bank attack and its combat (R-15);
* ``Challenge`` — step 4's poker game (R-9, R-16, R-17), then its decisions:
  ``Escape`` / ``Stay`` (the challenged), ``Join``, ``Lower`` (the
  challenger), ``CloseJoins`` (the challenger: « cartes »), ``ChooseCard``
  (a face-down card, by private message), the reactions ``Cheat``,
  ``TakeBack``, ``NoReaction``, the Goudron window ``Tar`` / ``DeclineTar``,
  ``StartFight`` / ``DeclineFight`` (a loser showing a revolver), ``Flee``
  / ``Stand``; the combat's blows are ``Shoot`` / ``GiveUp``;
* ``EndTurn`` — step 5: collect the income; the next turn's tile is drawn;
* ``ApplyDefault`` — the rules' default for a missing input.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from gm.core.protocol import Command, Seat

from .cards import Card
from .tiles import Tile


@dataclass(frozen=True)
class SetUp(Command):
    """Deal (``gm setup``). Anything left out is drawn by the fortune; given
    decks are their tops (``bag``, ``actions``, ``shots``), then, in
    ``reshuffles``, the order of each new deck made from a discard pile
    (``actions`` or ``shots``). Action cards are given as their keys
    (``model.card_key``), shot cards as strings of their cartridges there."""

    kind: ClassVar[str] = "rattlesnake.set-up"
    first: Seat | None = None
    hands: tuple[tuple[Seat, tuple[str, ...]], ...] | None = None
    bag: tuple[Tile, ...] = ()
    actions: tuple[str, ...] = ()
    shots: tuple[int, ...] = ()
    reshuffles: tuple[tuple[str, tuple[str, ...]], ...] = ()


@dataclass(frozen=True)
class PlaceSaloon(Command):
    kind: ClassVar[str] = "rattlesnake.place-saloon"
    player: Seat
    cell: str


@dataclass(frozen=True)
class PlaceTile(Command):
    """Step 1; ``tile``: the tile the player named, checked against the one drawn."""

    kind: ClassVar[str] = "rattlesnake.place-tile"
    player: Seat
    cell: str
    tile: Tile | None = None


@dataclass(frozen=True)
class Draw(Command):
    """Step 2: ``what`` is ``action`` (one action card) or ``coups`` (two shot cards)."""

    kind: ClassVar[str] = "rattlesnake.draw"
    player: Seat
    what: str


@dataclass(frozen=True)
class PlayDivers(Command):
    """Step 3: ``player`` plays ``card`` from their hand. ``target``: the
    player a permanent goes in front of (None: themself), the cell or slot a
    Dynamitero destroys, the permanent a Coup du destin or a Chasseur de
    primes takes (its key)."""

    kind: ClassVar[str] = "rattlesnake.play-divers"
    player: Seat
    card: Card
    target: Seat | None = None


@dataclass(frozen=True)
class Trade(Command):
    """Step 3 (R-12): ``seller`` sells ``card`` to ``buyer`` for ``price``;
    one of them is the active player."""

    kind: ClassVar[str] = "rattlesnake.trade"
    seller: Seat
    buyer: Seat
    card: Card
    price: int


@dataclass(frozen=True)
class AttackBank(Command):
    """Step 4: ``player`` attacks ``target``'s bank with an opening shot:
    shot cards laid, or a permanent's free shot named alone (R-15)."""

    kind: ClassVar[str] = "rattlesnake.attack-bank"
    player: Seat
    target: Seat
    cards: tuple[int, ...] = ()
    free: Card | None = None


@dataclass(frozen=True)
class Shoot(Command):
    """A blow: the shot cards laid (cartridges), or the free shot named alone."""

    kind: ClassVar[str] = "rattlesnake.shoot"
    player: Seat
    cards: tuple[int, ...] = ()
    free: Card | None = None


@dataclass(frozen=True)
class GiveUp(Command):
    """A fighter gives up (« passe »): out for good; a defender who has not
    shot yet gives in."""

    kind: ClassVar[str] = "rattlesnake.give-up"
    player: Seat


@dataclass(frozen=True)
class EndTurn(Command):
    """Step 5: the active player is done; the income is collected."""

    kind: ClassVar[str] = "rattlesnake.end-turn"
    player: Seat


@dataclass(frozen=True)
class ApplyDefault(Command):
    """The rules' default for ``player``'s missing input (``gm default``):
    a saloon or a tile on a legal place drawn by the fortune, an action card
    at step 2, the end of the turn, « passe » in a combat."""

    kind: ClassVar[str] = "rattlesnake.apply-default"
    player: Seat


@dataclass(frozen=True)
class Challenge(Command):
    """Step 4: ``player`` challenges ``target`` to a poker game for ``stake``."""

    kind: ClassVar[str] = "rattlesnake.challenge"
    player: Seat
    target: Seat
    stake: int


@dataclass(frozen=True)
class Escape(Command):
    """The challenged discards a Coyote à foie jaune and escapes."""

    kind: ClassVar[str] = "rattlesnake.escape"
    player: Seat


@dataclass(frozen=True)
class Stay(Command):
    """The challenged plays (« je reste »)."""

    kind: ClassVar[str] = "rattlesnake.stay"
    player: Seat


@dataclass(frozen=True)
class Join(Command):
    """``player`` joins the poker game at the stake."""

    kind: ClassVar[str] = "rattlesnake.join"
    player: Seat


@dataclass(frozen=True)
class Lower(Command):
    """The challenger lowers the stake to ``stake`` for everyone (R-16)."""

    kind: ClassVar[str] = "rattlesnake.lower"
    player: Seat
    stake: int


@dataclass(frozen=True)
class CloseJoins(Command):
    """The challenger closes the joins (« cartes »): the face-down cards are chosen."""

    kind: ClassVar[str] = "rattlesnake.close-joins"
    player: Seat


@dataclass(frozen=True)
class ChooseCard(Command):
    """``player``'s face-down game card (a private message); ``None``: none
    (the challenged only). While the joins are open, the first card closes them."""

    kind: ClassVar[str] = "rattlesnake.choose-card"
    player: Seat
    card: int | None = None


@dataclass(frozen=True)
class Cheat(Command):
    """Tricheur: swap the card showing in front of ``player`` with ``target``'s."""

    kind: ClassVar[str] = "rattlesnake.cheat"
    player: Seat
    target: Seat


@dataclass(frozen=True)
class Tar(Command):
    """Goudron & Plumes on the Tricheur just played."""

    kind: ClassVar[str] = "rattlesnake.tar"
    player: Seat


@dataclass(frozen=True)
class DeclineTar(Command):
    """``player`` does not answer the Tricheur (« pas de Goudron »)."""

    kind: ClassVar[str] = "rattlesnake.decline-tar"
    player: Seat


@dataclass(frozen=True)
class TakeBack(Command):
    """Joueur professionnel: take back the card showing, show ``card`` instead."""

    kind: ClassVar[str] = "rattlesnake.take-back"
    player: Seat
    card: int


@dataclass(frozen=True)
class NoReaction(Command):
    """``player`` lets their turn to react go by (« pas de réaction »)."""

    kind: ClassVar[str] = "rattlesnake.no-reaction"
    player: Seat


@dataclass(frozen=True)
class StartFight(Command):
    """A loser showing a revolver starts the combat (« revolver »)."""

    kind: ClassVar[str] = "rattlesnake.start-fight"
    player: Seat


@dataclass(frozen=True)
class DeclineFight(Command):
    """A loser showing a revolver will not start a combat."""

    kind: ClassVar[str] = "rattlesnake.decline-fight"
    player: Seat


@dataclass(frozen=True)
class Flee(Command):
    """Before the combat: discard a Coyote à foie jaune and flee with a share (« je fuis »)."""

    kind: ClassVar[str] = "rattlesnake.flee"
    player: Seat


@dataclass(frozen=True)
class Stand(Command):
    """Before the combat: do not flee (« je reste »)."""

    kind: ClassVar[str] = "rattlesnake.stand"
    player: Seat


COMMANDS: tuple[type[Command], ...] = (
    SetUp,
    PlaceSaloon,
    PlaceTile,
    Draw,
    PlayDivers,
    Trade,
    AttackBank,
    Shoot,
    GiveUp,
    EndTurn,
    ApplyDefault,
    Challenge,
    Escape,
    Stay,
    Join,
    Lower,
    CloseJoins,
    ChooseCard,
    Cheat,
    Tar,
    DeclineTar,
    TakeBack,
    NoReaction,
    StartFight,
    DeclineFight,
    Flee,
    Stand,
)
"""Every command type of the game, for the log."""
