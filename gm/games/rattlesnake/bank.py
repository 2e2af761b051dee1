"""Rattlesnake City's bank attack (step 4; R-8, R-15, R-18).

This module owns the bank attack from its opening shot to its payment: who
may be attacked (an opponent owning a town with a bank), the blows of its
combat (a ``combat.Combat`` of kind ``BANK``: the attacker opens, the
defender answers), what the defender pays (``seizure``) and the bank
owner's two shot cards (``OWNER_DRAWS``) — unless the payment made someone
win at once (R-18).
"""

from __future__ import annotations

from gm.core.protocol import Command, Draws, Event

from . import combat as fight
from .combat import Combat, Kind
from .commands import AttackBank, GiveUp, Shoot
from .engine import (
    Decider,
    Evolver,
    Run,
    acting,
    add_cash,
    check_threshold,
    find_player,
    in_free,
    not_now,
    refuse,
    turn_number,
    without_all,
)
from .events import BankAttacked, CashSeized, CombatEnded, FighterPassed, ShotFired
from .model import Phase, State
from .tiles import Tile, owners
from .turn import draw_shots

OWNER_DRAWS = 2
"""Shot cards the bank's owner draws after the attack, whatever its outcome."""


# --- the payment -------------------------------------------------------------------------------


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


# --- decide ------------------------------------------------------------------------------------


def banks_of(state: State) -> dict[str, str]:
    """Player → the bank cell in their town, for every player owning a town with a bank."""
    found: dict[str, str] = {}
    town_owner = owners(state.board, state.layout)
    for town, owner in town_owner.items():
        for name in state.board.town(town).cell_names:
            placed = state.layout.tiles.get(name)
            if placed is not None and placed.kind is Tile.BANQUE:
                found.setdefault(owner, name)
    return found


def fighter_of(state: State, player: str) -> fight.Fighter:
    return fight.Fighter(
        player,
        state.shots_of(player),
        tuple(c.label for c in state.permanents_of(player)),
    )


def attack(run: Run, actor: str, command: AttackBank, draws: Draws) -> None:
    state = run.state
    player = acting(state, actor, command.player)
    in_free(state, player, "a bank attack")
    record = state.current
    assert record is not None
    if record.bank_done:
        raise refuse("one bank attack per turn", "bank-done")
    target = find_player(state, command.target)
    banks = {p: b for p, b in banks_of(state).items() if p != player}
    if target not in banks:
        raise refuse(
            f"{target} owns no town with a bank (who may be attacked: {', '.join(banks) or 'nobody'})",
            "no-bank",
            target=target,
            legal=list(banks),
        )
    if not fight.can_open(state.shots_of(player), [c.label for c in state.permanents_of(player)]):
        raise refuse(
            "an attack opens with a shot: a shot card, or a permanent's free shot;"
            f" {player} has neither",
            "no-shot",
        )
    if not command.cards and command.free is None:
        combat = fight.start(
            fight.Kind.BANK, (fighter_of(state, player), fighter_of(state, target))
        )
        legal = fight.legal_shots(combat, player)
        raise refuse(
            "an attack opens with a shot: « attaque "
            f"{target} 2 » (openings: {', '.join(' '.join(map(str, c)) or 'coup gratuit' for c in legal)})",
            "no-opening",
            target=target,
            legal=[" ".join(map(str, c)) for c in legal],
        )
    run.emit(BankAttacked(turn_number(state), player, target, banks[target]))
    shoot_as(run, player, Shoot(player, command.cards, command.free), draws)


def _blow_due(state: State, player: str) -> fight.Combat:
    if state.phase is not Phase.BANK or state.combat is None:
        raise not_now(state, "a blow")
    combat = state.combat
    if combat.turn != player:
        raise refuse(
            f"it is {combat.turn}'s blow, not {player}'s",
            "not-your-turn",
            player=player,
            turn=combat.turn,
        )
    return combat


def shoot(run: Run, actor: str, command: Shoot, draws: Draws) -> None:
    shoot_as(run, acting(run.state, actor, command.player), command, draws)


def shoot_as(run: Run, player: str, command: Shoot, draws: Draws) -> None:
    combat = _blow_due(run.state, player)
    free = command.free.label if command.free is not None else None
    after = fight.shoot(combat, player, command.cards, free=free)  # refuses an illegal blow
    run.emit(
        ShotFired(
            turn_number(run.state),
            player,
            tuple(command.cards),
            after.fighter(player).total,
            command.free,
        )
    )
    _after_blow(run, draws)


def give_up(run: Run, actor: str, command: GiveUp, draws: Draws) -> None:
    give_up_as(run, acting(run.state, actor, command.player), draws)


def give_up_as(run: Run, player: str, draws: Draws, default: bool = False) -> None:
    combat = _blow_due(run.state, player)
    fight.give_up(combat, player)  # refuses a give-up the rules do not allow
    run.emit(FighterPassed(turn_number(run.state), player, default))
    _after_blow(run, draws)


def _after_blow(run: Run, draws: Draws) -> None:
    combat = run.state.combat
    assert combat is not None
    if not combat.over:
        return
    state = run.state
    number = turn_number(state)
    winner = combat.winner
    assert winner is not None
    target = state.bank_target
    assert target is not None
    attacker = combat.opener
    run.emit(CombatEnded(number, winner, combat.gave_in))
    amount = seizure(combat, state.cash_of(target))
    if amount:
        run.emit(CashSeized(number, target, attacker, amount))
    if check_threshold(run):
        return
    draw_shots(run, target, OWNER_DRAWS, draws)


# --- evolve ------------------------------------------------------------------------------------


def _bank_attacked(state: State, event: BankAttacked) -> State:
    combat = fight.start(
        fight.Kind.BANK,
        (fighter_of(state, event.attacker), fighter_of(state, event.target)),
    )
    after = state.but(phase=Phase.BANK, combat=combat, bank_target=event.target)
    return after.with_record(bank_done=True).with_move(
        "bank", player=event.attacker, target=event.target, bank=event.bank
    )


def shot_fired(state: State, event: ShotFired) -> State:
    assert state.combat is not None
    counted = fight.counted(state.combat.fighter(event.player))
    free = event.free.label if event.free is not None else None
    combat = fight.shoot(state.combat, event.player, event.cards, free=free)
    after = state.with_seat(
        "shots", event.player, without_all(state.shots_of(event.player), event.cards)
    )
    after = after.but(combat=combat, shot_discard=(*after.shot_discard, *event.cards))
    return after.with_move(
        "blow",
        player=event.player,
        cards=list(event.cards),
        total=event.total,
        free=event.free.value if event.free else None,
        counted=[list(c) for c in counted],
    )


def fighter_passed(state: State, event: FighterPassed) -> State:
    assert state.combat is not None
    combat = fight.give_up(state.combat, event.player)
    return state.but(combat=combat).with_move("passed", player=event.player, default=event.default)


def _combat_ended(state: State, event: CombatEnded) -> State:
    return state.but(phase=Phase.FREE, combat=None, bank_target=None).with_move(
        "combat-won", winner=event.winner, gave_in=event.gave_in
    )


def _cash_seized(state: State, event: CashSeized) -> State:
    after = add_cash(add_cash(state, event.source, -event.amount), event.to, event.amount)
    return after.with_move("seized", source=event.source, to=event.to, amount=event.amount)


DECIDE: dict[type[Command], Decider] = {AttackBank: attack}
"""A blow (``Shoot``, ``GiveUp``) is the combat in play's: ``rules`` sends it here or to poker."""
EVOLVE: dict[type[Event], Evolver] = {
    BankAttacked: _bank_attacked,
    CombatEnded: _combat_ended,
    CashSeized: _cash_seized,
}
