"""The end of a game of Colt Express: the As de la gâchette, scores, ranks.

After the 5th round each bandit counts their loot (purses, jewels,
strongboxes and the ransom of *Prise d'otage du conducteur*). The *As de la
gâchette* (+1 000 $) goes to every bandit with the fewest bullet cards left
in their barillet (R-10: when nobody fired, that is everyone). The richest
wins; a tie is broken by fewer bullet cards received; still tied, the
bandits share the rank (1, 1, 3) and the victory.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import GUNSLINGER
from .model import Phase, State


@dataclass(frozen=True)
class Standing:
    """One bandit's result: loot, the As de la gâchette, score and rank."""

    name: str
    loot: int
    gunslinger: bool
    score: int
    rank: int


def gunslingers(state: State) -> tuple[str, ...]:
    """The bandits with the fewest bullet cards left (R-10), in seating order."""
    fewest = min(b.barillet for b in state.bandits)
    return tuple(b.name for b in state.bandits if b.barillet == fewest)


def standings(state: State) -> tuple[Standing, ...]:
    """Every bandit's standing, in seating order. The As de la gâchette counts
    only once the game is over; before, ranks follow the loot alone."""
    over = state.phase is Phase.OVER
    aces = set(gunslingers(state)) if over and state.bandits else set()
    scored = {
        b.name: (b.loot + (GUNSLINGER if b.name in aces else 0), b.received) for b in state.bandits
    }

    def key(name: str) -> tuple[int, int]:
        score, received = scored[name]
        return (-score, received)

    out = []
    for b in state.bandits:
        better = sum(1 for other in scored if key(other) < key(b.name))
        out.append(Standing(b.name, b.loot, b.name in aces, scored[b.name][0], better + 1))
    return tuple(out)


def winners(state: State) -> tuple[str, ...]:
    """The rank-1 bandits once the game is over (empty before), in seating order."""
    if state.phase is not Phase.OVER:
        return ()
    return tuple(s.name for s in standings(state) if s.rank == 1)
