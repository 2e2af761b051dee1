"""Rattlesnake City's bank attack (R-8, R-15): what the defender pays.

This module owns the arithmetic of a bank attack's outcome; the blows
themselves are a ``combat.Combat`` of kind ``BANK`` (the attacker opens,
the defender answers). The engine checks who may be attacked (an opponent
owning a town with a bank), runs the combat, then applies ``seizure`` and
gives the bank's owner their two shot cards (``OWNER_DRAWS``) — unless the
payment made someone win at once (R-18).
"""

from __future__ import annotations

from .combat import Combat, Kind

OWNER_DRAWS = 2
"""Shot cards the bank's owner draws after the attack, whatever its outcome."""


def half_cash(cash: int) -> int:
    """Half of a defender's cash, rounded in their favour down to a multiple of 1 000 $ (R-8)."""
    return (cash // 2) // 1000 * 1000


def attacker_wins(combat: Combat) -> bool:
    """Whether the attacker won: the defender gave in or lost the combat."""
    if combat.kind is not Kind.BANK or not combat.over:
        raise ValueError("only a finished bank attack has an outcome")
    return combat.winner == combat.opener


def seizure(combat: Combat, defender_cash: int) -> int:
    """What the defender hands the attacker at the end of the attack: half their cash, or 0."""
    return half_cash(defender_cash) if attacker_wins(combat) else 0
