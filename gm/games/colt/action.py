"""The Action of Colt Express: what each card may do, and what it does.

``legal`` lists a card's legal outcomes as it comes up (R-4, R-8 and the
characters' powers applied); ``resolve`` turns one outcome into its public
effects (``Effect``) and the purses it moves; ``happen`` does the same for a
round's end-of-round event. Both simulate the train on a small mutable board
(``Board``), so the Marshal's rule is applied in one place: whoever enters
the inside of his car, or is inside a car he enters, takes a neutral bullet
(R-5: none left, nothing) and flees to that car's roof, in seating order
from the round's first player (R-9).

Pure: nothing here draws. Which purse leaves a spot or a bandit is the
caller's (``rules``: the fortune, or the value a scenario names, R-7).
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import JEWEL, PURSE, RANSOM, STRONGBOX, Card, Happening
from .model import VOID, Effect, Fx, Outcome, Played, State

FRONT = "front"
BACK = "back"
DIRECTIONS = (FRONT, BACK)
SIGN = {FRONT: -1, BACK: 1}

READS: dict[Card, tuple[str, ...]] = {
    Card.MOVE: ("direction", "distance"),
    Card.FLOOR: ("level",),
    Card.MARSHAL: ("direction",),
    Card.SHOOT: ("target",),
    Card.ROB: ("loot",),
    Card.PUNCH: ("target", "loot", "direction"),
    Card.BULLET: (),
}
"""The elements of a choice each card reads (``docs/scenarios.md``, colt)."""


@dataclass(frozen=True)
class PurseMove:
    """A purse leaving a bandit or a spot, for ``rules`` to seal (``PurseMoved``)."""

    player: str
    value: int
    from_bandit: str | None = None
    to_bandit: str | None = None
    car: int | None = None
    roof: bool = False


# --- what a card may do -------------------------------------------------------------


def shot_targets(state: State, name: str) -> tuple[str, ...]:
    """Who ``name`` may shoot now: R-4 on a roof, the adjacent cars inside,
    Tuco's shot through the roof, Belle's protection; in seating order."""
    b = state.bandit(name)
    found: set[str] = set()
    if b.roof:
        for sign in (-1, 1):
            car = b.car + sign
            while 0 <= car <= state.n:
                there = state.at(car, True)
                if there:
                    found.update(there)
                    break
                car += sign
    else:
        for car in (b.car - 1, b.car + 1):
            if 0 <= car <= state.n:
                found.update(state.at(car, False))
    if b.character == "Tuco":
        found.update(state.at(b.car, not b.roof))
    found.discard(name)
    return _protect(state, found)


def punch_victims(state: State, name: str) -> tuple[str, ...]:
    """Who ``name`` may punch: the other bandits on their spot, Belle protected."""
    b = state.bandit(name)
    found = set(state.at(b.car, b.roof)) - {name}
    return _protect(state, found)


def _protect(state: State, found: set[str]) -> tuple[str, ...]:
    belle = state.played_by("Belle")
    if belle in found and len(found) > 1:
        found.discard(belle)
    return tuple(p for p in state.players if p in found)


def legal(state: State, played: Played) -> tuple[Outcome, ...]:
    """Every legal outcome of ``played`` now, in a stable order; ``(VOID,)``
    when the card can do nothing (R-8)."""
    b = state.bandit(played.player)
    card = played.card
    if card is Card.MOVE:
        out = []
        for direction in DIRECTIONS:
            for distance in (1, 2, 3) if b.roof else (1,):
                if 0 <= b.car + SIGN[direction] * distance <= state.n:
                    out.append(Outcome(direction=direction, distance=distance))
        return tuple(out)
    if card is Card.FLOOR:
        return (Outcome(level="inside" if b.roof else "roof"),)
    if card is Card.MARSHAL:
        return tuple(
            Outcome(direction=d) for d in DIRECTIONS if 0 <= state.marshal + SIGN[d] <= state.n
        )
    if card is Card.SHOOT:
        if b.barillet == 0:
            return (VOID,)
        return tuple(Outcome(target=t) for t in shot_targets(state, b.name)) or (VOID,)
    if card is Card.ROB:
        loot = state.loot_at(b.car, b.roof)
        found = [
            kind
            for kind, there in (
                (PURSE, loot.purses),
                (JEWEL, loot.jewels),
                (STRONGBOX, loot.strongboxes),
            )
            if there
        ]
        return tuple(Outcome(loot=k) for k in found) or (VOID,)
    if card is Card.PUNCH:
        out = []
        for victim in punch_victims(state, b.name):
            kinds: tuple[str | None, ...] = state.bandit(victim).loot_kinds() or (None,)
            for kind in kinds:
                for d in DIRECTIONS:
                    if 0 <= b.car + SIGN[d] <= state.n:
                        out.append(Outcome(target=victim, loot=kind, direction=d))
        return tuple(out) or (VOID,)
    return (VOID,)


def void_reason(state: State, played: Played) -> str | None:
    """Why a card does nothing (R-8), for posts; None when it can act."""
    b = state.bandit(played.player)
    if legal(state, played) != (VOID,):
        return None
    if played.card is Card.SHOOT:
        return "no-bullet" if b.barillet == 0 else "no-target"
    if played.card is Card.ROB:
        return "nothing-to-take"
    if played.card is Card.PUNCH:
        return "nobody"
    return "nothing"


def purses_offered(state: State, played: Played, outcome: Outcome) -> tuple[int, ...]:
    """The purses one of which the outcome takes or drops (R-7), when it moves one."""
    if outcome.loot != PURSE:
        return ()
    if played.card is Card.ROB:
        b = state.bandit(played.player)
        return state.loot_at(b.car, b.roof).purses
    if played.card is Card.PUNCH and outcome.target is not None:
        return state.bandit(outcome.target).purses
    return ()


# --- what it does ------------------------------------------------------------------------


class Board:
    """The train while a card or an event resolves: positions, the Marshal and
    the neutral bullets, and the effects so far."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.pos = {b.name: (b.car, b.roof) for b in state.bandits}
        self.marshal = state.marshal
        self.neutral = state.neutral
        self.effects: list[Effect] = []
        self.purses: list[PurseMove] = []

    def in_order(self, names: list[str] | set[str]) -> list[str]:
        """``names`` in seating order from the round's first player (R-9)."""
        return [p for p in self.state.from_first() if p in names]

    def move(self, name: str, car: int, roof: bool, why: str | None = None) -> None:
        self.pos[name] = (car, roof)
        self.effects.append(Effect(Fx.MOVE, bandit=name, car=car, roof=roof, why=why))
        if not roof and car == self.marshal:
            self.meet_marshal([name])

    def meet_marshal(self, names: list[str]) -> None:
        for name in self.in_order(names):
            self.neutral_bullet(name, "marshal")
            car = self.pos[name][0]
            self.pos[name] = (car, True)
            self.effects.append(Effect(Fx.MOVE, bandit=name, car=car, roof=True, why="marshal"))

    def neutral_bullet(self, name: str, why: str) -> None:
        given = self.neutral > 0
        if given:
            self.neutral -= 1
        self.effects.append(Effect(Fx.BULLET, bandit=name, given=given, why=why))

    def move_marshal(self, car: int) -> None:
        self.marshal = car
        self.effects.append(Effect(Fx.MARSHAL, car=car))
        inside = [n for n, (c, roof) in self.pos.items() if c == car and not roof]
        if inside:
            self.meet_marshal(inside)


def resolve(
    state: State, played: Played, outcome: Outcome, purse: int | None = None
) -> tuple[tuple[Effect, ...], tuple[PurseMove, ...]]:
    """The effects of ``played`` resolved with ``outcome`` (legal), and the purse
    it moves: ``purse`` is the value of the one that moves, when it moves one."""
    board = Board(state)
    name = played.player
    car, roof = board.pos[name]
    if outcome.void:
        return (), ()
    card = played.card
    if card is Card.MOVE:
        assert outcome.direction is not None and outcome.distance is not None
        board.move(name, car + SIGN[outcome.direction] * outcome.distance, roof)
    elif card is Card.FLOOR:
        board.move(name, car, not roof)
    elif card is Card.MARSHAL:
        assert outcome.direction is not None
        board.move_marshal(board.marshal + SIGN[outcome.direction])
    elif card is Card.SHOOT:
        target = outcome.target
        assert target is not None
        board.effects.append(Effect(Fx.BULLET, bandit=target, source=name))
        if state.bandit(name).character == "Django":
            t_car, t_roof = board.pos[target]
            sign = (t_car > car) - (t_car < car)
            if sign and 0 <= t_car + sign <= state.n:
                board.move(target, t_car + sign, t_roof, "django")
    elif card is Card.ROB:
        assert outcome.loot is not None
        board.effects.append(Effect(Fx.TAKE, bandit=name, loot=outcome.loot, car=car, roof=roof))
        if outcome.loot == PURSE:
            assert purse is not None
            board.purses.append(PurseMove(name, purse, to_bandit=name, car=car, roof=roof))
    elif card is Card.PUNCH:
        victim = outcome.target
        assert victim is not None and outcome.direction is not None
        if outcome.loot is not None:
            keeps = outcome.loot == PURSE and state.bandit(name).character == "Cheyenne"
            if keeps:
                assert purse is not None
                board.effects.append(Effect(Fx.KEEP, bandit=name, source=victim, loot=PURSE))
                board.purses.append(PurseMove(name, purse, from_bandit=victim, to_bandit=name))
            else:
                board.effects.append(
                    Effect(Fx.DROP, bandit=victim, loot=outcome.loot, car=car, roof=roof)
                )
                if outcome.loot == PURSE:
                    assert purse is not None
                    board.purses.append(
                        PurseMove(victim, purse, from_bandit=victim, car=car, roof=roof)
                    )
        board.move(victim, car + SIGN[outcome.direction], roof, "push")
    return tuple(board.effects), tuple(board.purses)


def pickpockets(state: State) -> tuple[str, ...]:
    """The bandits alone on their spot where a purse lies (Pickpocket), in R-9 order."""
    out = []
    for p in state.from_first():
        b = state.bandit(p)
        if len(state.at(b.car, b.roof)) == 1 and state.loot_at(b.car, b.roof).purses:
            out.append(p)
    return tuple(out)


def happen(state: State, what: Happening) -> tuple[tuple[Effect, ...], tuple[PurseMove, ...]]:
    """The effects of a round's end-of-round event (Pickpocket's purses apart:
    each bandit's choice moves its own, ``rules``)."""
    board = Board(state)
    n = state.n
    roofs = [b.name for b in state.bandits if b.roof]
    if what is Happening.ANGRY_MARSHAL:
        for name in board.in_order([p for p in roofs if board.pos[p][0] == board.marshal]):
            board.neutral_bullet(name, "event")
        if board.marshal < n:
            board.move_marshal(board.marshal + 1)
    elif what is Happening.SWIVEL_ARM:
        for name in board.in_order(roofs):
            if board.pos[name][0] != n:
                board.move(name, n, True, "event")
    elif what is Happening.BRAKING:
        for name in board.in_order(roofs):
            if board.pos[name][0] > 0:
                board.move(name, board.pos[name][0] - 1, True, "event")
    elif what is Happening.TAKE_IT_ALL:
        if state.spare_strongbox:
            board.effects.append(Effect(Fx.STRONGBOX, car=board.marshal))
    elif what is Happening.REBELLION:
        inside = [b.name for b in state.bandits if not b.roof]
        for name in board.in_order(inside):
            board.neutral_bullet(name, "event")
    elif what is Happening.VENGEANCE:
        victims = [p for p in roofs if board.pos[p][0] == board.marshal]
        for name in board.in_order(victims):
            purses = state.bandit(name).purses
            if purses:
                board.effects.append(Effect(Fx.LOSE, bandit=name, loot=PURSE))
                board.purses.append(PurseMove(name, min(purses), from_bandit=name))
    elif what is Happening.PICKPOCKET:
        for name, took, _ in state.pickpocket:
            if took:
                car, roof = board.pos[name]
                board.effects.append(Effect(Fx.TAKE, bandit=name, loot=PURSE, car=car, roof=roof))
    elif what is Happening.HOSTAGE:
        for name in board.in_order([b.name for b in state.bandits if b.car == 0]):
            board.effects.append(Effect(Fx.RANSOM, bandit=name, amount=RANSOM))
    return tuple(board.effects), tuple(board.purses)
