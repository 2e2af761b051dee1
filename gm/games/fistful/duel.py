"""Resolving one duel: the resolution table and the card powers, as pure functions.

``resolve(state, cards)`` says what two revealed cards do, given the
manche's standing (who claimed the ties, the green 7's bonus, which duel
this is); it changes nothing. ``rules`` records the outcome in an event and
``evolve`` applies it.

The table (rules, « A duel », 3): same card, two Dynamites included (R-2),
is a tie worth 2 gold to the tie pot; numbers 3 or less apart, the higher
wins the difference; 4 or more apart, the lower wins it; the Dynamite beats
1–4 and loses to 5–8, for 3 gold either way; the red 8 beats a 1 for 3 gold
instead of losing 7.

Powers, applied as the cards are revealed: the first 6 of the manche takes
the tie pot and every later tie (R-3: two 6s at once, when nobody has
claimed yet, mean nobody ever will this manche); the green 7 gives +1 gold
to each later duel its owner wins in the manche; the green 8 takes a card
back from the removed pile (R-4); the red 7 in the 3rd duel or later ends
the manche. In a final duel (R-5) the green 7, the green 8 and the red 7 do
nothing more, while the 6s, the red 8 against a 1 and a green 7 revealed
earlier still count.
"""

from __future__ import annotations

from collections.abc import Mapping

from .cards import Card, Color
from .model import (
    DYNAMITE_GOLD,
    TIE_GOLD,
    Outcome,
    Player,
    Power,
    PowerKind,
    Reason,
    State,
)

RED_SEVEN_FROM = 3
"""The red 7 ends the manche from its 3rd duel on."""

DYNAMITE_BEATS = 4
"""The Dynamite beats the cards up to this one."""

CLOSE = 3
"""Numbers at most this far apart: the higher card wins; farther: the lower."""


def table(a: Player, card_a: Card, b: Player, card_b: Card) -> tuple[str | None, Reason, int]:
    """The winner (None on a tie), why, and the gold of the duel before any bonus."""
    if card_a is card_b:
        return None, Reason.TIE, 0
    if Card.DYNAMITE in (card_a, card_b):
        dynamite, other, number = (
            (a, b, card_b.number) if card_a is Card.DYNAMITE else (b, a, card_a.number)
        )
        assert number is not None
        if number <= DYNAMITE_BEATS:
            return dynamite.name, Reason.DYNAMITE, DYNAMITE_GOLD
        return other.name, Reason.DYNAMITE_FAILS, DYNAMITE_GOLD
    for p, card, q in ((a, card_a, card_b), (b, card_b, card_a)):
        if p.color is Color.RED and card is Card.EIGHT and q is Card.ONE:
            return p.name, Reason.RED_EIGHT, DYNAMITE_GOLD
    n_a, n_b = card_a.number, card_b.number
    assert n_a is not None and n_b is not None
    gap = abs(n_a - n_b)
    high, low = (a, b) if n_a > n_b else (b, a)
    if gap <= CLOSE:
        return high.name, Reason.HIGHER, gap
    return low.name, Reason.LOWER, gap


def resolve(state: State, cards: Mapping[str, Card], *, final: bool = False) -> Outcome:
    """What the two revealed ``cards`` do in the current manche.

    ``final``: this is the final duel of a manche tied on gold (R-5).
    """
    a, b = state.players
    winner, reason, base = table(a, cards[a.name], b, cards[b.name])
    powers: list[Power] = []

    owner, blocked = state.tie_owner, state.tie_blocked
    claimed_by, claimed = None, 0
    sixes = [p for p in state.players if cards[p.name] is Card.SIX]
    if sixes and owner is None and not blocked and len(sixes) == 2:
        blocked = True
        powers += [Power(PowerKind.SIX_BLOCKED, p.name, Card.SIX) for p in sixes]
    elif sixes and owner is None and not blocked:
        owner = claimed_by = sixes[0].name
        claimed = state.tie_pot
        powers.append(Power(PowerKind.SIX_CLAIM, owner, Card.SIX, claimed))
    else:
        powers += [Power(PowerKind.SIX_IDLE, p.name, Card.SIX) for p in sixes]

    tie_gold = TIE_GOLD if reason is Reason.TIE else 0
    tie_to = owner if tie_gold else None

    bonus = 0
    if winner is not None and state.player(winner).bonus:
        bonus = 1
        powers.append(Power(PowerKind.SEVEN_BONUS, winner, Card.SEVEN, 1))
    if reason is Reason.RED_EIGHT:
        assert winner is not None
        powers.append(Power(PowerKind.RED_EIGHT, winner, Card.EIGHT, base))

    for p in state.players:
        card = cards[p.name]
        kind = _lasting_power(state, p, card, final)
        if kind is not None:
            powers.append(Power(kind, p.name, card))

    return Outcome(
        cards={p.name: cards[p.name] for p in state.players},
        winner=winner,
        reason=reason,
        base=base,
        bonus=bonus,
        tie_gold=tie_gold,
        tie_to=tie_to,
        claimed_by=claimed_by,
        claimed=claimed,
        powers=tuple(powers),
        final=final,
    )


def _lasting_power(state: State, p: Player, card: Card, final: bool) -> PowerKind | None:
    """The green 7, green 8 and red 7: powers that shape the rest of the manche."""
    green, red = p.color is Color.GREEN, p.color is Color.RED
    if not ((green and card in (Card.SEVEN, Card.EIGHT)) or (red and card is Card.SEVEN)):
        return None
    if final:
        return PowerKind.INERT
    if green and card is Card.SEVEN:
        return PowerKind.GREEN_SEVEN
    if green:
        return PowerKind.GREEN_EIGHT if p.removed else None
    if state.duel < RED_SEVEN_FROM:
        return PowerKind.RED_SEVEN_EARLY
    if state.duel < state.current.planned:
        return PowerKind.RED_SEVEN_END
    return None  # the manche's last duel: it ends anyway, with no choice to make


def ends_manche(state: State, outcome: Outcome) -> bool:
    """Whether the manche is over once ``outcome`` (a regular duel) is applied."""
    if state.duel >= state.current.planned:
        return True
    return any(p.kind is PowerKind.RED_SEVEN_END for p in outcome.powers)
