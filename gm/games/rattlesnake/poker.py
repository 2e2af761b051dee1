"""Rattlesnake City's poker game (R-9, R-16, R-17): a pure, frozen machine.

This module owns one poker game from the challenge to the last dollar of
the pot: the stake (its drop to the challenged's cash, its lowering), who
plays, the face-down cards, the reveal, the reactions (Tricheur, Joueur
professionnel, Goudron & Plumes), the winner, the revolver combat and the
flights before it, and where every card and every dollar ends up.

The engine builds the ``Seat`` of every player of the game (cash, action
cards in hand, shot cards, permanents), calls one function per player's
decision, and reads back ``stage`` and ``awaiting`` (who must answer),
``transfers`` (every money movement, in order, to emit as events),
``seats`` (cash, hands and shot cards after the game), ``discards`` and
``shot_discards``. Nothing is hidden from the engine here: which decisions
a post may show is the views' business. Every function returns a new value
or raises a ``gm.errors`` error (code ``rattlesnake/…``, ``params`` naming
what would be legal, for the French refusal) and changes nothing.

Game cards are ints 1–25; other action cards are their rules-page names.
Money is in dollars, multiples of 1 000.

Refusals (``IllegalOrderError`` unless said; ``params`` also hold ``player`` when one acts):

==================================  =============================================
code ``rattlesnake/…``              params
==================================  =============================================
``not-now`` (``PhaseError``)        what, stage, awaiting
``no-such-player`` (``InputError``) players
``seats`` (``InputError``)          players
``challenge-self``                  opponents
``amount``                          value, what (not a multiple of 1 000 $)
``cannot-cover``                    stake, cash
``no-game-card``                    hand
``not-in-hand``                     card (Coyote, Tricheur, Joueur professionnel,
                                    Goudron & Plumes)
``not-your-turn``                   turn (who must answer)
``cannot-join``                     legal (who may join)
``cannot-lower``                    stake, value, poor (empty)
``lower-amount``                    stake, value, poor, cash (of each poor one)
``not-playing``                     participants
``already-chosen``                  —
``challenged-last``                 awaiting
``must-choose``, ``card-not-in-hand``  legal (game cards in hand), card
``no-such-target``                  target, legal (opponents showing a card)
``own-tricheur``                    —
``no-revolver``                     legal (losers showing a revolver)
``cannot-open``                     —
==================================  =============================================

Shots and passes in the combat refuse as ``combat`` does.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from gm.errors import IllegalOrderError, InputError, PhaseError

from . import combat as fight
from .combat import Combat, Fighter, Kind

Card = int | str

TRICHEUR = "Tricheur"
PRO = "Joueur professionnel"
COYOTE = "Coyote à foie jaune"
GOUDRON = "Goudron & Plumes"
REVOLVERS = frozenset({3, 7, 10, 13, 17, 20, 24})
"""The game cards that show a revolver (R-3)."""
UNIT = 1000
"""Every amount is a multiple of 1 000 $."""


def is_game_card(card: Card) -> bool:
    """A *carte jeu*: the ints 1 to 25 (``bool`` is not a card)."""
    return isinstance(card, int) and not isinstance(card, bool) and 1 <= card <= 25


def share(amount: int, people: int) -> int:
    """Each one's part of ``amount`` shared by ``people``, rounded down to 1 000 $ (R-17)."""
    return amount // people // UNIT * UNIT if people else 0


class Stage(StrEnum):
    """What the poker game waits for."""

    ESCAPE = "escape"  # the challenged: escape with a Coyote, or stay
    DRAW = "draw"  # the engine: the challenged's forced action card
    JOIN = "join"  # anyone else may join; the challenger may lower; the engine closes
    CARDS = "cards"  # face-down cards; the challenged last, who may play none
    REACT = "react"  # once around from the challenger
    TAR = "tar"  # right after a Tricheur: Goudron & Plumes, or the engine lets the swap stand
    REVOLVER = "revolver"  # a loser showing a revolver may start the combat
    FLIGHT = "flight"  # before the combat: flee with a Coyote, or stand
    COMBAT = "combat"
    DONE = "done"


class Why(StrEnum):
    """Why money moved, for the events and posts."""

    STAKE = "stake"  # a participant's stake into the pot
    REFUND = "refund"  # stake returned: drop to the challenged's cash, lowering, no game
    FORFEIT = "forfeit"  # a cheater's stake shared after Goudron & Plumes
    FLIGHT = "flight"  # a fleer's share
    WIN = "win"  # what remains, to the winner


@dataclass(frozen=True)
class Transfer:
    """``amount`` dollars from ``source`` to ``target``; ``None`` is the pot."""

    source: str | None
    target: str | None
    amount: int
    why: Why


@dataclass(frozen=True)
class Seat:
    """A player of the game, in the poker game or not."""

    name: str
    cash: int
    hand: tuple[Card, ...] = ()
    shots: tuple[int, ...] = ()
    permanents: tuple[str, ...] = ()
    playing: bool = False
    """A participant: the challenger, the challenged unless escaped, the joiners."""
    bet: int = 0
    """What this participant has in the pot."""
    chose: bool = False
    """Has made their face-down choice (the challenged may choose none)."""
    card: int | None = None
    """The game card face down, then showing; ``None``: none (or not playing)."""
    reacted: bool = False
    fled: bool = False
    declined: bool = False
    """A loser showing a revolver who will not start the combat."""


@dataclass(frozen=True)
class Poker:
    """A poker game. ``seats`` in the game's seating order."""

    seats: tuple[Seat, ...]
    challenger: str
    challenged: str
    stake: int
    stage: Stage = Stage.ESCAPE
    escaped: bool = False
    dropped: bool = False
    """The stake dropped to the challenged's cash (which that discloses)."""
    revealed: bool = False
    transfers: tuple[Transfer, ...] = ()
    played: tuple[str, ...] = ()
    """Action cards played (Coyote, Tricheur, Joueur professionnel, Goudron), in order."""
    discards: tuple[Card, ...] = ()
    """Every card to the discard pile, filled in at the end (``DONE``)."""
    unseen: int | None = None
    """A lone opponent's card, discarded unseen (R-16)."""
    queue: tuple[str, ...] = ()
    """Who answers in turn in ``REACT`` and ``FLIGHT``, from ``turn``."""
    turn: int = 0
    swap: tuple[str, str] | None = None
    """The Tricheur awaiting Goudron & Plumes: (cheater, the opponent swapped with)."""
    forfeited: str | None = None
    winner: str | None = None
    """The highest card showing after the reactions."""
    starter: str | None = None
    combat: Combat | None = None
    taker: str | None = None
    """Who took what remained of the pot; ``None`` for no game."""
    shot_discards: tuple[int, ...] = field(default=())

    # -- reading ------------------------------------------------------------------------

    def seat(self, name: str) -> Seat:
        for s in self.seats:
            if s.name == name:
                return s
        raise KeyError(name)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.seats)

    @property
    def pot(self) -> int:
        into = sum(t.amount for t in self.transfers if t.target is None)
        out = sum(t.amount for t in self.transfers if t.source is None)
        return into - out

    @property
    def participants(self) -> tuple[str, ...]:
        """The participants in seating order from the challenger."""
        return tuple(n for n in self.from_(self.challenger) if self.seat(n).playing)

    @property
    def showing(self) -> tuple[str, ...]:
        """Participants whose card shows, in seating order from the challenger."""
        if not self.revealed:
            return ()
        return tuple(n for n in self.participants if self.seat(n).card is not None)

    def from_(self, name: str) -> tuple[str, ...]:
        """Every player in seating order from ``name``."""
        i = self.names.index(name)
        return self.names[i:] + self.names[:i]


# -- helpers ---------------------------------------------------------------------------


def _with(poker: Poker, seat: Seat) -> Poker:
    return replace(poker, seats=tuple(seat if s.name == seat.name else s for s in poker.seats))


def _move(poker: Poker, source: str | None, target: str | None, amount: int, why: Why) -> Poker:
    """One money movement; the seats' cash follows. Zero moves are not recorded."""
    if amount <= 0:
        return poker
    seats = []
    for s in poker.seats:
        if s.name == source:
            s = replace(s, cash=s.cash - amount)
        if s.name == target:
            s = replace(s, cash=s.cash + amount)
        seats.append(s)
    return replace(
        poker,
        seats=tuple(seats),
        transfers=(*poker.transfers, Transfer(source, target, amount, why)),
    )


def _take(hand: tuple[Card, ...], card: Card) -> tuple[Card, ...]:
    """``hand`` without one ``card``."""
    rest = list(hand)
    rest.remove(card)
    return tuple(rest)


def _play(poker: Poker, name: str, card: str) -> Poker:
    """``name`` plays the action card ``card`` from their hand: it goes to the discard pile."""
    seat = poker.seat(name)
    poker = _with(poker, replace(seat, hand=_take(seat.hand, card)))
    return replace(poker, played=(*poker.played, card))


def game_cards(hand: Sequence[Card]) -> list[int]:
    return sorted(c for c in hand if isinstance(c, int) and is_game_card(c))


def _stage(poker: Poker, *stages: Stage, what: str) -> None:
    if poker.stage not in stages:
        raise PhaseError(
            f"{what} is not possible now (poker: {poker.stage}, awaiting {', '.join(awaiting(poker)) or 'nobody'})",
            code="rattlesnake/not-now",
            params={"what": what, "stage": str(poker.stage), "awaiting": list(awaiting(poker))},
        )


def _player(poker: Poker, name: str) -> Seat:
    try:
        return poker.seat(name)
    except KeyError:
        raise InputError(
            f"{name} is not a player of this game (players: {', '.join(poker.names)})",
            code="rattlesnake/no-such-player",
            params={"player": name, "players": list(poker.names)},
        ) from None


def _refuse(message: str, code: str, **params: Any) -> IllegalOrderError:
    return IllegalOrderError(message, code=f"rattlesnake/{code}", params=params)


def _holds(poker: Poker, name: str, card: str, **params: Any) -> Seat:
    seat = poker.seat(name)
    if card not in seat.hand:
        raise _refuse(f"{name} holds no {card}", "not-in-hand", player=name, card=card, **params)
    return seat


def _amount(value: int, what: str) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0 or value % UNIT:
        raise _refuse(
            f"{what} must be a multiple of 1 000 $, not {value}", "amount", value=value, what=what
        )


# -- awaiting --------------------------------------------------------------------------


def awaiting(poker: Poker) -> tuple[str, ...]:
    """Who must answer now (players), in order; ``()`` when only the engine acts.

    ``DRAW`` waits for the engine's card, ``JOIN`` and ``TAR`` for the engine
    to close them (a deadline; the scenario's next line); any player may join
    or throw the Goudron meanwhile.
    """
    match poker.stage:
        case Stage.ESCAPE:
            return (poker.challenged,)
        case Stage.CARDS:
            others = [
                n for n in poker.participants if n != poker.challenged and not poker.seat(n).chose
            ]
            if others:
                return tuple(others)
            last = poker.seat(poker.challenged)
            return (last.name,) if last.playing and not last.chose else ()
        case Stage.REACT | Stage.FLIGHT:
            return (poker.queue[poker.turn],)
        case Stage.REVOLVER:
            return _revolver_losers(poker)
        case Stage.COMBAT:
            assert poker.combat is not None
            return (poker.combat.turn,) if poker.combat.turn else ()
    return ()


def _revolver_losers(poker: Poker) -> tuple[str, ...]:
    """Losers showing a revolver who have not declined, in seating order from the challenger."""
    return tuple(
        n
        for n in poker.showing
        if n != poker.winner and poker.seat(n).card in REVOLVERS and not poker.seat(n).declined
    )


# -- the challenge ---------------------------------------------------------------------


def challenge(seats: Sequence[Seat], challenger: str, challenged: str, stake: int) -> Poker:
    """``challenger`` challenges ``challenged`` for ``stake`` and puts it on the table (R-16)."""
    names = [s.name for s in seats]
    if len(set(names)) != len(names) or any(s.playing or s.bet or s.chose for s in seats):
        raise InputError(
            "the seats must be the game's players, once each, none in a poker game yet",
            code="rattlesnake/seats",
            params={"players": names},
        )
    poker = Poker(seats=tuple(seats), challenger=challenger, challenged=challenged, stake=stake)
    me = _player(poker, challenger)
    _player(poker, challenged)
    if challenger == challenged:
        raise _refuse(
            f"{challenger} cannot challenge themself",
            "challenge-self",
            player=challenger,
            opponents=[n for n in names if n != challenger],
        )
    _amount(stake, "the stake")
    if stake <= 0:
        raise _refuse("the stake must be 1 000 $ or more", "amount", value=stake, what="the stake")
    if me.cash < stake:
        raise _refuse(
            f"{challenger} has {me.cash} $, not the stake of {stake} $",
            "cannot-cover",
            player=challenger,
            stake=stake,
            cash=me.cash,
        )
    if not game_cards(me.hand):
        raise _refuse(
            f"{challenger} holds no game card",
            "no-game-card",
            player=challenger,
            hand=list(me.hand),
        )
    poker = _with(poker, replace(me, playing=True, bet=stake))
    return _move(poker, challenger, None, stake, Why.STAKE)


def escape(poker: Poker, player: str) -> Poker:
    """The challenged discards a Coyote à foie jaune and escapes (before any forced draw)."""
    _stage(poker, Stage.ESCAPE, what="escaping")
    _is(poker, player, poker.challenged)
    _holds(poker, player, COYOTE)
    return replace(_play(poker, player, COYOTE), escaped=True, stage=Stage.JOIN)


def stay(poker: Poker, player: str) -> Poker:
    """The challenged plays. With no game card in hand, the engine must deal one action card."""
    _stage(poker, Stage.ESCAPE, what="staying")
    _is(poker, player, poker.challenged)
    if not game_cards(poker.seat(player).hand):
        # the tool checks hands, so no bluff: draw, then play; no escape any more.
        return replace(poker, stage=Stage.DRAW)
    return _covered(poker)


def forced_draw(poker: Poker, card: Card) -> Poker:
    """The action card the engine dealt the challenged, who had no game card (R-16)."""
    _stage(poker, Stage.DRAW, what="the challenged's forced draw")
    seat = poker.seat(poker.challenged)
    return _covered(_with(poker, replace(seat, hand=(*seat.hand, card))))


def _covered(poker: Poker) -> Poker:
    """The challenged's stake: the stake drops to their cash if they cannot cover it."""
    seat = poker.seat(poker.challenged)
    if seat.cash < poker.stake:
        poker = _lowered(poker, seat.cash)
        poker = replace(poker, dropped=True)
    seat = poker.seat(poker.challenged)
    poker = _with(poker, replace(seat, playing=True, bet=poker.stake))
    poker = _move(poker, seat.name, None, poker.stake, Why.STAKE)
    return replace(poker, stage=Stage.JOIN)


def _lowered(poker: Poker, stake: int) -> Poker:
    """The stake becomes ``stake`` for everyone: what was paid above it goes back."""
    for name in poker.participants:
        seat = poker.seat(name)
        if seat.bet > stake:
            poker = _with(poker, replace(seat, bet=stake))
            poker = _move(poker, None, name, seat.bet - stake, Why.REFUND)
    return replace(poker, stake=stake)


def _is(poker: Poker, player: str, who: str) -> None:
    _player(poker, player)
    if player != who:
        raise _refuse(
            f"it is {who}'s decision, not {player}'s", "not-your-turn", player=player, turn=who
        )


# -- joining ---------------------------------------------------------------------------


def could_join(poker: Poker) -> tuple[str, ...]:
    """Players who may still join, at the stake or if it were lowered (they hold a game card)."""
    return tuple(
        s.name
        for s in poker.seats
        if s.name not in (poker.challenger, poker.challenged)
        and not s.playing
        and game_cards(s.hand)
    )


def too_poor(poker: Poker) -> tuple[str, ...]:
    """Would-be joiners who cannot cover the stake: the only reason to lower it (R-16)."""
    return tuple(n for n in could_join(poker) if poker.seat(n).cash < poker.stake)


def join(poker: Poker, player: str) -> Poker:
    """``player`` joins at the stake (R-16: they need it in cash and a game card in hand)."""
    _stage(poker, Stage.JOIN, what="joining")
    seat = _player(poker, player)
    if player in (poker.challenger, poker.challenged) or seat.playing:
        raise _refuse(
            f"{player} cannot join: already in this poker game, or the challenged",
            "cannot-join",
            player=player,
            legal=list(could_join(poker)),
        )
    if not game_cards(seat.hand):
        raise _refuse(
            f"{player} holds no game card", "no-game-card", player=player, hand=list(seat.hand)
        )
    if seat.cash < poker.stake:
        raise _refuse(
            f"{player} has {seat.cash} $, not the stake of {poker.stake} $; the challenger may lower it",
            "cannot-cover",
            player=player,
            stake=poker.stake,
            cash=seat.cash,
        )
    poker = _with(poker, replace(seat, playing=True, bet=poker.stake))
    return _move(poker, player, None, poker.stake, Why.STAKE)


def lower(poker: Poker, player: str, stake: int) -> Poker:
    """The challenger lowers the stake for everyone, for a would-be joiner too poor (R-16)."""
    _stage(poker, Stage.JOIN, what="lowering the stake")
    _is(poker, player, poker.challenger)
    _amount(stake, "the stake")
    poor = too_poor(poker)
    params = {"player": player, "stake": poker.stake, "value": stake, "poor": list(poor)}
    if not poor:
        raise _refuse(
            f"nobody who could join is short of the stake of {poker.stake} $: it cannot be lowered",
            "cannot-lower",
            **params,
        )
    if stake >= poker.stake or not any(poker.seat(n).cash >= stake for n in poor):
        raise _refuse(
            f"the stake can go down from {poker.stake} $ to what {', '.join(poor)} can cover",
            "lower-amount",
            **params,
            cash={n: poker.seat(n).cash for n in poor},
        )
    return _lowered(poker, stake)


def close_joins(poker: Poker) -> Poker:
    """Nobody else joins: the cards are chosen, or, the challenged gone and nobody in, no game."""
    _stage(poker, Stage.JOIN, what="closing the joins")
    if len(poker.participants) < 2:
        # The challenged escaped and nobody joined: the stake returns.
        poker = _move(poker, None, poker.challenger, poker.pot, Why.REFUND)
        return _end(poker, None)
    return replace(poker, stage=Stage.CARDS)


# -- the cards -------------------------------------------------------------------------


def choose(poker: Poker, player: str, card: int | None) -> Poker:
    """``player``'s face-down game card; ``None`` (the challenged only, last): none."""
    _stage(poker, Stage.CARDS, what="choosing a card")
    seat = _player(poker, player)
    legal = game_cards(seat.hand)
    if not seat.playing:
        raise _refuse(
            f"{player} is not in this poker game ({', '.join(poker.participants)})",
            "not-playing",
            player=player,
            participants=list(poker.participants),
        )
    if seat.chose:
        raise _refuse(f"{player} has already chosen", "already-chosen", player=player)
    if player == poker.challenged and awaiting(poker) != (player,):
        raise _refuse(
            f"the challenged chooses last: waiting for {', '.join(awaiting(poker))}",
            "challenged-last",
            player=player,
            awaiting=list(awaiting(poker)),
        )
    if card is None:
        if player != poker.challenged:
            raise _refuse(
                f"{player} must choose a game card (only the challenged may play none)",
                "must-choose",
                player=player,
                legal=legal,
            )
    elif not (is_game_card(card) and card in seat.hand):
        raise _refuse(
            f"{player} holds no game card {card} (game cards: {', '.join(map(str, legal)) or 'none'})",
            "card-not-in-hand",
            player=player,
            card=card,
            legal=legal,
        )
    hand = seat.hand if card is None else _take(seat.hand, card)
    poker = _with(poker, replace(seat, hand=hand, chose=True, card=card))
    if awaiting(poker):
        return poker
    return _reveal(poker)


def _reveal(poker: Poker) -> Poker:
    challenged = poker.seat(poker.challenged)
    if challenged.playing and challenged.card is None:
        # out at once, the stake stays in the pot.
        others = [n for n in poker.participants if n != poker.challenged]
        if len(others) == 1:
            (lone,) = others
            seat = poker.seat(lone)
            poker = replace(_with(poker, replace(seat, card=None)), unseen=seat.card)
            poker = _move(poker, None, lone, poker.pot, Why.WIN)
            return _end(poker, lone)
    poker = replace(poker, revealed=True)
    return replace(poker, stage=Stage.REACT, queue=poker.showing, turn=0)


# -- the reactions (R-9, R-17) ---------------------------------------------------------


def _reactor(poker: Poker, player: str, what: str) -> Seat:
    _stage(poker, Stage.REACT, what=what)
    seat = _player(poker, player)
    turn = poker.queue[poker.turn]
    if player != turn:
        raise _refuse(
            f"it is {turn}'s turn to react, not {player}'s",
            "not-your-turn",
            player=player,
            turn=turn,
        )
    return seat


def cheat(poker: Poker, player: str, target: str) -> Poker:
    """Tricheur: ``player`` swaps the card showing in front of them with ``target``'s."""
    seat = _reactor(poker, player, "a Tricheur")
    legal = [n for n in poker.showing if n != player]
    _holds(poker, player, TRICHEUR)
    if target not in legal:
        raise _refuse(
            f"{player} can swap only with an opponent showing a card ({', '.join(legal)})",
            "no-such-target",
            player=player,
            target=target,
            legal=legal,
        )
    other = poker.seat(target)
    poker = _play(poker, player, TRICHEUR)
    poker = _with(poker, replace(poker.seat(player), card=other.card, reacted=True))
    poker = _with(poker, replace(other, card=seat.card))
    # Goudron & Plumes may answer right now; the engine closes the window.
    return replace(poker, stage=Stage.TAR, swap=(player, target))


def tar(poker: Poker, player: str) -> Poker:
    """Goudron & Plumes on the Tricheur just played: undo the swap, share the cheater's stake."""
    _stage(poker, Stage.TAR, what="Goudron & Plumes")
    _player(poker, player)
    assert poker.swap is not None
    cheater, target = poker.swap
    if player == cheater:
        raise _refuse(f"{player} cannot answer their own Tricheur", "own-tricheur", player=player)
    _holds(poker, player, GOUDRON)
    poker = _play(poker, player, GOUDRON)
    a, b = poker.seat(cheater), poker.seat(target)
    poker = _with(_with(poker, replace(a, card=b.card)), replace(b, card=a.card))
    # every other player of the game, in the poker game or not, gets an equal part
    # rounded down to 1 000 $; the rest stays in the pot. The cheater plays on.
    others = [n for n in poker.from_(cheater) if n != cheater]
    part = share(a.bet, len(others))
    for name in others:
        poker = _move(poker, None, name, part, Why.FORFEIT)
    return _next_reactor(replace(poker, swap=None, forfeited=cheater))


def let_stand(poker: Poker) -> Poker:
    """No Goudron & Plumes answers the Tricheur: the swap stands, the next participant reacts."""
    _stage(poker, Stage.TAR, what="closing the Goudron & Plumes window")
    return _next_reactor(replace(poker, swap=None))


def take_back(poker: Poker, player: str, card: int) -> Poker:
    """Joueur professionnel: the card showing goes back to ``player``'s hand, ``card`` shows."""
    seat = _reactor(poker, player, "a Joueur professionnel")
    _holds(poker, player, PRO)
    legal = game_cards(seat.hand)
    if not (is_game_card(card) and card in seat.hand):
        raise _refuse(
            f"{player} must show another game card from their hand ({', '.join(map(str, legal)) or 'none'})",
            "card-not-in-hand",
            player=player,
            card=card,
            legal=legal,
        )
    poker = _play(poker, player, PRO)
    seat = poker.seat(player)
    assert seat.card is not None
    # the card taken back (after an unanswered Tricheur, the card received) is no
    # longer in the game: it stays in this hand, never discarded.
    hand = (*_take(seat.hand, card), seat.card)
    poker = _with(poker, replace(seat, hand=hand, card=card, reacted=True))
    return _next_reactor(poker)


def no_reaction(poker: Poker, player: str) -> Poker:
    """``player`` lets their turn to react go by."""
    seat = _reactor(poker, player, "passing the reaction")
    return _next_reactor(_with(poker, replace(seat, reacted=True)))


def _next_reactor(poker: Poker) -> Poker:
    turn = poker.turn + 1
    if turn < len(poker.queue):
        return replace(poker, stage=Stage.REACT, turn=turn)
    return _judge(replace(poker, queue=(), turn=0))


def _judge(poker: Poker) -> Poker:
    """The highest card showing wins, unless a loser showing a revolver starts a combat."""
    winner = max(poker.showing, key=lambda n: poker.seat(n).card or 0)
    poker = replace(poker, winner=winner)
    if _revolver_losers(poker):
        return replace(poker, stage=Stage.REVOLVER)
    return _end(_move(poker, None, winner, poker.pot, Why.WIN), winner)


# -- the revolver (R-17) ---------------------------------------------------------------


def start_fight(poker: Poker, player: str) -> Poker:
    """A loser whose card shows a revolver starts the combat (one at most)."""
    _stage(poker, Stage.REVOLVER, what="starting a combat")
    seat = _player(poker, player)
    legal = list(_revolver_losers(poker))
    if player not in legal:
        raise _refuse(
            f"only a loser showing a revolver may start the combat ({', '.join(legal)})",
            "no-revolver",
            player=player,
            legal=legal,
        )
    if not fight.can_open(seat.shots, seat.permanents):
        raise _refuse(f"{player} has no shot to open a combat with", "cannot-open", player=player)
    queue = tuple(n for n in poker.from_(player) if n in poker.showing and n != player)
    return replace(poker, stage=Stage.FLIGHT, starter=player, queue=queue, turn=0)


def decline(poker: Poker, player: str) -> Poker:
    """A loser showing a revolver will not start a combat; when all decline, the winner takes the pot."""
    _stage(poker, Stage.REVOLVER, what="declining the combat")
    seat = _player(poker, player)
    legal = list(_revolver_losers(poker))
    if player not in legal:
        raise _refuse(
            f"{player} has no combat to decline ({', '.join(legal)})",
            "no-revolver",
            player=player,
            legal=legal,
        )
    poker = _with(poker, replace(seat, declined=True))
    if _revolver_losers(poker):
        return poker
    assert poker.winner is not None
    return _end(_move(poker, None, poker.winner, poker.pot, Why.WIN), poker.winner)


def _flyer(poker: Poker, player: str, what: str) -> Seat:
    _stage(poker, Stage.FLIGHT, what=what)
    seat = _player(poker, player)
    turn = poker.queue[poker.turn]
    if player != turn:
        raise _refuse(
            f"it is {turn}'s turn to flee or stand, not {player}'s",
            "not-your-turn",
            player=player,
            turn=turn,
        )
    return seat


def flee(poker: Poker, player: str) -> Poker:
    """``player`` discards a Coyote à foie jaune and flees with a share of the pot."""
    _flyer(poker, player, "fleeing")
    _holds(poker, player, COYOTE)
    poker = _play(poker, player, COYOTE)
    return _next_flyer(_with(poker, replace(poker.seat(player), fled=True)))


def stand(poker: Poker, player: str) -> Poker:
    """``player`` does not flee: they may fight (or drop out in the combat)."""
    _flyer(poker, player, "standing")
    return _next_flyer(poker)


def _next_flyer(poker: Poker) -> Poker:
    turn = poker.turn + 1
    if turn < len(poker.queue):
        return replace(poker, turn=turn)
    starter = poker.starter
    assert starter is not None
    fleers = [n for n in poker.from_(starter) if poker.seat(n).fled]
    part = share(poker.pot, len(fleers))
    for name in fleers:
        poker = _move(poker, None, name, part, Why.FLIGHT)
    fighters = [n for n in poker.from_(starter) if n in poker.showing and not poker.seat(n).fled]
    poker = replace(poker, queue=(), turn=0)
    if len(fighters) == 1:
        # nobody is left to fight: the starter takes what remains.
        return _end(_move(poker, None, starter, poker.pot, Why.WIN), starter)
    seats = [poker.seat(n) for n in fighters]
    combat = fight.start(Kind.POKER, [Fighter(s.name, s.shots, s.permanents) for s in seats])
    return replace(poker, stage=Stage.COMBAT, combat=combat)


# -- the combat ------------------------------------------------------------------------


def shoot(poker: Poker, player: str, cards: Sequence[int] = (), free: str | None = None) -> Poker:
    """A shot in the revolver combat (``combat.shoot``)."""
    _stage(poker, Stage.COMBAT, what="shooting")
    assert poker.combat is not None
    return _fought(poker, fight.shoot(poker.combat, player, cards, free))


def give_up(poker: Poker, player: str) -> Poker:
    """Dropping out of the revolver combat (``combat.give_up``)."""
    _stage(poker, Stage.COMBAT, what="passing")
    assert poker.combat is not None
    return _fought(poker, fight.give_up(poker.combat, player))


def _fought(poker: Poker, combat: Combat) -> Poker:
    poker = replace(poker, combat=combat)
    if not combat.over:
        return poker
    laid: list[int] = []
    for f in combat.fighters:
        poker = _with(poker, replace(poker.seat(f.name), shots=f.shots))
        laid.extend(f.laid)
    poker = replace(poker, shot_discards=tuple(laid))
    # The last to have laid a shot card is the last one left.
    winner = combat.winner
    assert winner is not None and winner == combat.last_shooter
    return _end(_move(poker, None, winner, poker.pot, Why.WIN), winner)


# -- the end ---------------------------------------------------------------------------


def _end(poker: Poker, taker: str | None) -> Poker:
    """Every card used goes to the discard pile: game cards showing or unseen, action cards played."""
    shown: list[Card] = []
    seats = []
    for s in poker.seats:
        if s.card is not None:
            shown.append(s.card)
        seats.append(replace(s, card=None))
    if poker.unseen is not None:
        shown.append(poker.unseen)
    return replace(
        poker,
        seats=tuple(seats),
        stage=Stage.DONE,
        taker=taker,
        discards=(*poker.played, *shown),
    )


def default(poker: Poker) -> Poker:
    """What a missed deadline does, for everyone awaited (gm's reading, see the rules page).

    The challenged stays; the joins close; a participant's card is their lowest
    game card, the challenged plays none; no reaction; the Tricheur stands;
    no combat; nobody flees; a fighter passes.
    """
    match poker.stage:
        case Stage.ESCAPE:
            return stay(poker, poker.challenged)
        case Stage.JOIN:
            return close_joins(poker)
        case Stage.CARDS:
            for name in awaiting(poker):
                hand = game_cards(poker.seat(name).hand)
                if name == poker.challenged:
                    poker = choose(poker, name, None)
                else:
                    poker = choose(poker, name, hand[0])
            if poker.stage is Stage.CARDS and awaiting(poker):  # the challenged, after the others
                poker = choose(poker, poker.challenged, None)
            return poker
        case Stage.REACT:
            return no_reaction(poker, poker.queue[poker.turn])
        case Stage.TAR:
            return let_stand(poker)
        case Stage.REVOLVER:
            for name in _revolver_losers(poker):
                poker = decline(poker, name)
            return poker
        case Stage.FLIGHT:
            return stand(poker, poker.queue[poker.turn])
        case Stage.COMBAT:
            assert poker.combat is not None
            return _fought(poker, fight.default(poker.combat))
    raise PhaseError(
        f"nothing to default in poker stage {poker.stage}",
        code="rattlesnake/not-now",
        params={"what": "default", "stage": str(poker.stage), "awaiting": []},
    )


# -- every legal action, python-chess style --------------------------------------------


class Verb(StrEnum):
    """What an action does: one per function of this module that moves the game on."""

    ESCAPE = "escape"
    STAY = "stay"
    JOIN = "join"
    LOWER = "lower"
    CLOSE = "close"  # the engine: nobody else joins
    CHOOSE = "choose"
    CHEAT = "cheat"
    TAR = "tar"
    LET_STAND = "let-stand"  # the engine: no Goudron & Plumes
    TAKE_BACK = "take-back"
    NO_REACTION = "no-reaction"
    FIGHT = "fight"
    DECLINE = "decline"
    FLEE = "flee"
    STAND = "stand"
    SHOOT = "shoot"
    GIVE_UP = "give-up"


@dataclass(frozen=True)
class Action:
    """One legal move: who (``None``: the engine), what, and its one argument.

    ``arg``: the amount (``LOWER``), the game card or ``None`` (``CHOOSE``),
    the opponent (``CHEAT``), the card shown instead (``TAKE_BACK``), the shot
    cards (``SHOOT``; ``()`` is the free shot alone); otherwise ``None``.
    """

    verb: Verb
    player: str | None = None
    arg: int | str | tuple[int, ...] | None = None


def legal_actions(poker: Poker) -> tuple[Action, ...]:
    """Every move the rules allow now, by anyone — for refusals, prompts and tests.

    It reads the hands, so it is for the engine and private replies only. The
    forced draw (``DRAW``) is missing: its card is the engine's to deal.
    """
    s = poker.seat
    out: list[Action] = []
    match poker.stage:
        case Stage.ESCAPE:
            out.append(Action(Verb.STAY, poker.challenged))
            if COYOTE in s(poker.challenged).hand:
                out.append(Action(Verb.ESCAPE, poker.challenged))
        case Stage.JOIN:
            out.append(Action(Verb.CLOSE))
            out += [Action(Verb.JOIN, n) for n in could_join(poker) if s(n).cash >= poker.stake]
            poor = too_poor(poker)
            out += [
                Action(Verb.LOWER, poker.challenger, amount)
                for amount in range(0, poker.stake, UNIT)
                if any(s(n).cash >= amount for n in poor)
            ]
        case Stage.CARDS:
            for name in awaiting(poker):
                out += [Action(Verb.CHOOSE, name, c) for c in game_cards(s(name).hand)]
                if name == poker.challenged:
                    out.append(Action(Verb.CHOOSE, name, None))
        case Stage.REACT:
            (name,) = awaiting(poker)
            out.append(Action(Verb.NO_REACTION, name))
            if TRICHEUR in s(name).hand:
                out += [Action(Verb.CHEAT, name, o) for o in poker.showing if o != name]
            if PRO in s(name).hand:
                out += [Action(Verb.TAKE_BACK, name, c) for c in game_cards(s(name).hand)]
        case Stage.TAR:
            assert poker.swap is not None
            out.append(Action(Verb.LET_STAND))
            out += [
                Action(Verb.TAR, x.name)
                for x in poker.seats
                if GOUDRON in x.hand and x.name != poker.swap[0]
            ]
        case Stage.REVOLVER:
            for name in awaiting(poker):
                out.append(Action(Verb.DECLINE, name))
                if fight.can_open(s(name).shots, s(name).permanents):
                    out.append(Action(Verb.FIGHT, name))
        case Stage.FLIGHT:
            (name,) = awaiting(poker)
            out.append(Action(Verb.STAND, name))
            if COYOTE in s(name).hand:
                out.append(Action(Verb.FLEE, name))
        case Stage.COMBAT:
            assert poker.combat is not None
            (name,) = awaiting(poker)
            out += [Action(Verb.SHOOT, name, c) for c in fight.legal_shots(poker.combat, name)]
            if fight.can_pass(poker.combat, name):
                out.append(Action(Verb.GIVE_UP, name))
    return tuple(out)


def act(poker: Poker, action: Action) -> Poker:
    """Apply ``action`` through the function it names (which checks it)."""
    who = action.player or ""
    arg = action.arg
    match action.verb:
        case Verb.ESCAPE:
            return escape(poker, who)
        case Verb.STAY:
            return stay(poker, who)
        case Verb.JOIN:
            return join(poker, who)
        case Verb.LOWER:
            assert isinstance(arg, int)
            return lower(poker, who, arg)
        case Verb.CLOSE:
            return close_joins(poker)
        case Verb.CHOOSE:
            assert arg is None or isinstance(arg, int)
            return choose(poker, who, arg)
        case Verb.CHEAT:
            assert isinstance(arg, str)
            return cheat(poker, who, arg)
        case Verb.TAR:
            return tar(poker, who)
        case Verb.LET_STAND:
            return let_stand(poker)
        case Verb.TAKE_BACK:
            assert isinstance(arg, int)
            return take_back(poker, who, arg)
        case Verb.NO_REACTION:
            return no_reaction(poker, who)
        case Verb.FIGHT:
            return start_fight(poker, who)
        case Verb.DECLINE:
            return decline(poker, who)
        case Verb.FLEE:
            return flee(poker, who)
        case Verb.STAND:
            return stand(poker, who)
        case Verb.SHOOT:
            assert isinstance(arg, tuple)
            return shoot(poker, who, arg)
        case Verb.GIVE_UP:
            return give_up(poker, who)
    raise AssertionError(action.verb)  # every Verb is matched above


def net(poker: Poker) -> dict[str, int]:
    """Each player's gain (or loss) so far; the pot's part is ``-poker.pot``."""
    gains = dict.fromkeys(poker.names, 0)
    for t in poker.transfers:
        if t.source is not None:
            gains[t.source] -= t.amount
        if t.target is not None:
            gains[t.target] += t.amount
    return gains
