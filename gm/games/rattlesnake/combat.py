"""Rattlesnake City's combat (R-15): a pure, frozen machine.

This module owns one combat, blow by blow: who fights, in which order, each
fighter's cumulative total, who is out, whose turn it is, which shot cards
were laid (to be discarded) and who won. It is shared by the bank attack
(two fighters: the attacker opens, the defender answers) and by the combat
that may follow a poker game (the loser showing a revolver opens, every
participant still there joins or drops out in seating order).

The engine owns the rest: it builds the fighters from its state, turns each
player's message into ``shoot`` or ``give_up``, emits events, and afterwards
removes ``used(combat)`` from the fighters' shot cards into the discard pile.
Nothing here reads a store or a clock; every function returns a new value
or raises a ``gm.errors`` error (code ``rattlesnake/…``, ``params`` for the
French refusal) and leaves its input as it was.

Shot cards are their cartridges (``1``, ``2``, ``3``); permanents are their
rules-page names.

Refusals (``IllegalOrderError`` unless said), with their ``params``:
``fighters`` (``InputError``: fighters); ``cannot-open`` (player);
``combat-over`` (``PhaseError``: player, winner); ``not-your-turn`` (player,
turn); and for a shot — player, cards, legal (every legal shot, as lists of
cartridges, ``[]`` the free shot alone), minimal (those with no card to
spare), shots (in hand), to_beat (the total to go above) —: ``not-a-shot``, ``shot-not-in-hand``, ``no-free-shot`` (+
free, free_shots), ``no-shot``, ``shot-too-low`` (+ total);
``opener-must-shoot`` (player, legal).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from itertools import product

from gm.errors import IllegalOrderError, InputError, PhaseError

# The rules page's names. Only these constants name cards in this module (and TRICHEUR…
# GOUDRON in ``poker``), so that switching to another spelling of the cards is one edit.
IRONFIST = "Ironfist Jim"
SLIPPERY = "Slippery Joe"
HONEST = "Honest Jim"
STINKY = "Stinky Joe"
BONUS = (IRONFIST, SLIPPERY)
"""Permanents worth +1 at their holder's first shot; each also gives a free shot."""
MALUS = (HONEST, STINKY)
"""Permanents worth −1 at their holder's first shot."""
CARTRIDGES = (1, 2, 3)


class Kind(StrEnum):
    """What the combat is for: it changes only what a defender's first « passe » means."""

    BANK = "bank"
    POKER = "poker"


@dataclass(frozen=True)
class Fighter:
    """One fighter: their shot cards in hand, the permanents in front of them, their total."""

    name: str
    shots: tuple[int, ...]
    """Shot cards still in hand (cartridges), in the order the engine gave them."""
    permanents: tuple[str, ...] = ()
    total: int = 0
    fired: bool = False
    """Has shot once: the permanents are counted (R-15: once per combat)."""
    out: bool = False
    laid: tuple[int, ...] = ()
    """Shot cards laid in this combat, discarded at its end."""


@dataclass(frozen=True)
class Move:
    """One blow, for the posts: the shot cards laid (none: passe), the free shot named."""

    player: str
    cards: tuple[int, ...] = ()
    free: str | None = None
    total: int | None = None
    """The shooter's total after the shot; ``None`` for a passe."""

    @property
    def passed(self) -> bool:
        return self.total is None


@dataclass(frozen=True)
class Combat:
    """A combat in progress or over.

    ``fighters`` are in seating order from the opener, who moves first. The
    combat is over when one fighter is left (``winner``); in a bank attack a
    defender who gives up before any shot of theirs *gives in* (``gave_in``),
    which pays the attacker just as losing would (R-8, R-15).
    """

    kind: Kind
    fighters: tuple[Fighter, ...]
    next: int | None = 0
    """Index in ``fighters`` of the one whose turn it is; ``None`` when over."""
    moves: tuple[Move, ...] = ()
    gave_in: bool = False

    @property
    def opener(self) -> str:
        return self.fighters[0].name

    @property
    def over(self) -> bool:
        return self.next is None

    @property
    def turn(self) -> str | None:
        """Whose turn it is; ``None`` once the combat is over."""
        return None if self.next is None else self.fighters[self.next].name

    @property
    def still_in(self) -> tuple[str, ...]:
        return tuple(f.name for f in self.fighters if not f.out)

    @property
    def winner(self) -> str | None:
        """The last fighter left — also the last to have laid a shot card — once over."""
        if not self.over:
            return None
        (name,) = self.still_in
        return name

    @property
    def last_shooter(self) -> str | None:
        shots = [m.player for m in self.moves if not m.passed]
        return shots[-1] if shots else None

    def fighter(self, name: str) -> Fighter:
        for f in self.fighters:
            if f.name == name:
                return f
        raise KeyError(name)


# -- what counts -----------------------------------------------------------------------


def modifier(permanents: Iterable[str]) -> int:
    """What the permanents in front of a fighter add at their first shot (R-15)."""
    return sum((p in BONUS) - (p in MALUS) for p in permanents)


def counted(fighter: Fighter) -> tuple[tuple[str, int], ...]:
    """The permanents that count at ``fighter``'s next shot, each with what it
    adds (R-15: +1 or −1, at their first shot only), in the order they lie:
    what a blow's total holds beside the shot cards."""
    if fighter.fired:
        return ()
    return tuple((p, 1 if p in BONUS else -1) for p in fighter.permanents if p in BONUS + MALUS)


def free_shots(fighter: Fighter) -> tuple[str, ...]:
    """The permanents a fighter may name to open with their free shot alone (first shot only)."""
    if fighter.fired:
        return ()
    return tuple(dict.fromkeys(p for p in fighter.permanents if p in BONUS))


def _to_beat(combat: Combat, name: str) -> int:
    """The total a shot by ``name`` must reach: above every other fighter still in, ≥ 1."""
    others = [f.total for f in combat.fighters if f.name != name and not f.out]
    # The opener's opening must reach 1 even though everyone else stands at 0:
    # max(…, 0) + 1 gives exactly that, and a negative total never lowers the bar.
    return max([*others, 0]) + 1


def _shot_total(fighter: Fighter, cards: Sequence[int]) -> int:
    first = 0 if fighter.fired else modifier(fighter.permanents)
    return fighter.total + first + sum(cards)


def legal_shots(combat: Combat, player: str) -> tuple[tuple[int, ...], ...]:
    """Every shot ``player`` may make now: the shot cards to lay, sorted, smallest first.

    ``()`` in the answer is the free shot alone (only at a first shot, when a
    permanent gives one). An empty answer means only « passe » is left — the
    default when a deadline is missed. Nothing is legal out of turn.
    """
    if combat.turn != player:
        return ()
    fighter = combat.fighter(player)
    need = _to_beat(combat, player)
    counts = Counter(fighter.shots)
    legal: list[tuple[int, ...]] = []
    for n1, n2, n3 in product(*(range(counts[c] + 1) for c in CARTRIDGES)):
        cards = (1,) * n1 + (2,) * n2 + (3,) * n3
        if not cards and not free_shots(fighter):
            continue
        if _shot_total(fighter, cards) >= need:
            legal.append(cards)
    return tuple(sorted(legal, key=lambda c: (sum(c), len(c), c)))


def minimal_shots(combat: Combat, player: str) -> tuple[tuple[int, ...], ...]:
    """The legal shots with no card to spare (take any one away and it falls short).

    A short list for a refusal or a prompt (« 3, ou 1 2 »): every legal shot
    is one of these plus cards.
    """
    legal = legal_shots(combat, player)
    allowed = set(legal)
    return tuple(
        shot
        for shot in legal
        if not any(shot[:i] + shot[i + 1 :] in allowed for i in range(len(shot)))
    )


def can_pass(combat: Combat, player: str) -> bool:
    """Whether ``player`` may give up now: in turn, and not an opener who has not opened."""
    return combat.turn == player and not (player == combat.opener and not combat.moves)


# -- the machine -----------------------------------------------------------------------


def start(kind: Kind, fighters: Sequence[Fighter]) -> Combat:
    """A combat of ``fighters`` (seating order from the opener), the opener to shoot first.

    Refused when there are fewer than two fighters, a name is repeated, a
    fighter arrives with a total or already out, or the opener has no legal
    opening shot: a combat is started by shooting (the attack, the revolver).
    """
    names = [f.name for f in fighters]
    if len(names) < 2 or len(set(names)) != len(names):
        raise InputError(
            f"a combat needs two fighters or more, each once (got {', '.join(names) or 'none'})",
            code="rattlesnake/fighters",
            params={"fighters": names},
        )
    if kind is Kind.BANK and len(names) != 2:
        raise InputError(
            f"a bank attack has two fighters, the attacker and the defender (got {len(names)})",
            code="rattlesnake/fighters",
            params={"fighters": names},
        )
    for f in fighters:
        if f.total or f.fired or f.out or f.laid or any(c not in CARTRIDGES for c in f.shots):
            raise InputError(
                f"{f.name} must enter the combat fresh, with shot cards of 1 to 3 cartridges",
                code="rattlesnake/fighters",
                params={"fighters": names},
            )
    combat = Combat(kind=kind, fighters=tuple(fighters))
    if not legal_shots(combat, combat.opener):
        raise IllegalOrderError(
            f"{combat.opener} cannot open: no shot card and no free shot worth 1 or more",
            code="rattlesnake/cannot-open",
            params={"player": combat.opener},
        )
    return combat


def _check_turn(combat: Combat, player: str) -> None:
    if combat.over:
        raise PhaseError(
            f"the combat is over (won by {combat.winner})",
            code="rattlesnake/combat-over",
            params={"player": player, "winner": combat.winner},
        )
    if combat.turn != player:
        raise IllegalOrderError(
            f"it is {combat.turn}'s turn to shoot, not {player}'s",
            code="rattlesnake/not-your-turn",
            params={"player": player, "turn": combat.turn},
        )


def _after(combat: Combat, index: int) -> int | None:
    """The next fighter still in after ``index``, cyclically; ``None`` if one is left."""
    if len(combat.still_in) <= 1:
        return None
    n = len(combat.fighters)
    for step in range(1, n + 1):
        i = (index + step) % n
        if not combat.fighters[i].out:
            return i
    return None  # unreachable: two fighters or more are still in


def shoot(
    combat: Combat, player: str, cards: Sequence[int] = (), free: str | None = None
) -> Combat:
    """``player`` lays ``cards`` (cartridges); ``cards`` empty is the free shot alone.

    ``free`` names the permanent whose free shot is used (« ana Slippery
    Joe »); it is checked but adds nothing more: permanents are counted at the
    first shot whether named or not (R-15).
    """
    _check_turn(combat, player)
    index = combat.next
    assert index is not None
    fighter = combat.fighters[index]
    laid = tuple(cards)
    legal = legal_shots(combat, player)
    params = {
        "player": player,
        "cards": list(laid),
        "legal": [list(c) for c in legal],
        "minimal": [list(c) for c in minimal_shots(combat, player)],
        "shots": list(fighter.shots),
        "to_beat": _to_beat(combat, player) - 1,
    }
    if any(c not in CARTRIDGES for c in laid):
        raise IllegalOrderError(
            f"a shot card has 1, 2 or 3 cartridges, not {laid}",
            code="rattlesnake/not-a-shot",
            params=params,
        )
    missing = Counter(laid) - Counter(fighter.shots)
    if missing:
        raise IllegalOrderError(
            f"{player} does not hold the shot cards {sorted(missing.elements())}"
            f" (shot cards: {list(fighter.shots) or 'none'})",
            code="rattlesnake/shot-not-in-hand",
            params=params,
        )
    if free is not None and free not in free_shots(fighter):
        raise IllegalOrderError(
            f"{player} has no free shot from {free} now"
            f" (free shots: {', '.join(free_shots(fighter)) or 'none'})",
            code="rattlesnake/no-free-shot",
            params={**params, "free": free, "free_shots": list(free_shots(fighter))},
        )
    if not laid and not free_shots(fighter):
        raise IllegalOrderError(
            f"{player} must lay shot cards or pass (the free shot alone opens only a first shot)",
            code="rattlesnake/no-shot",
            params=params,
        )
    total = _shot_total(fighter, laid)
    if tuple(sorted(laid)) not in legal:
        raise IllegalOrderError(
            f"{player}'s total would be {total}: a shot must go above {params['to_beat']}"
            f" (legal: {_quote(legal)}, or passe)",
            code="rattlesnake/shot-too-low",
            params={**params, "total": total},
        )
    # Keep the engine's order of the remaining cards: remove each laid card once.
    rest = list(fighter.shots)
    for c in laid:
        rest.remove(c)
    shooter = replace(fighter, shots=tuple(rest), total=total, fired=True, laid=fighter.laid + laid)
    fighters = (*combat.fighters[:index], shooter, *combat.fighters[index + 1 :])
    shot = replace(
        combat,
        fighters=fighters,
        moves=(*combat.moves, Move(player, laid, free, total)),
    )
    return replace(shot, next=_after(shot, index))


def give_up(combat: Combat, player: str) -> Combat:
    """``player`` passes: out for good (R-15). A bank defender yet to shoot gives in."""
    _check_turn(combat, player)
    if not can_pass(combat, player):
        raise IllegalOrderError(
            f"{player} opens the combat: the opening is a shot, not a passe",
            code="rattlesnake/opener-must-shoot",
            params={"player": player, "legal": [list(c) for c in legal_shots(combat, player)]},
        )
    index = combat.next
    assert index is not None
    fighter = combat.fighters[index]
    gave_in = combat.kind is Kind.BANK and index == 1 and not fighter.fired
    fighters = (*combat.fighters[:index], replace(fighter, out=True), *combat.fighters[index + 1 :])
    passed = replace(
        combat, fighters=fighters, moves=(*combat.moves, Move(player)), gave_in=gave_in
    )
    return replace(passed, next=_after(passed, index))


def default(combat: Combat) -> Combat:
    """A missed deadline: the fighter whose turn it is passes (the opener has opened)."""
    turn = combat.turn
    if turn is None:
        raise PhaseError("the combat is over", code="rattlesnake/combat-over", params={})
    return give_up(combat, turn)


def used(combat: Combat) -> dict[str, tuple[int, ...]]:
    """The shot cards each fighter laid, to go to the discard pile."""
    return {f.name: f.laid for f in combat.fighters}


def _quote(legal: Sequence[Sequence[int]]) -> str:
    return ", ".join(" ".join(map(str, c)) if c else "free shot" for c in legal) or "none"


def can_open(shots: Sequence[int], permanents: Sequence[str]) -> bool:
    """Whether a fighter with these cards could open a combat (a total of 1 or more)."""
    cards = [c for c in shots if c in CARTRIDGES]
    if not cards and not any(p in BONUS for p in permanents):
        return False
    return modifier(permanents) + sum(cards) >= 1
