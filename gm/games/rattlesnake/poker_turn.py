"""Rattlesnake City's poker game in a turn (step 4; R-9, R-16, R-17, R-18).

``poker`` is the machine; this module turns each decision of the game in
play into its event, which ``evolve`` replays through the machine
(``poker_step``), followed by the money it moved (``PokerMoney``, one per
transfer) and, once it is over, ``PokerEnded`` and the R-18 threshold check.
It also owns the missed deadlines of a poker game (``default_as``).

Forum rules (gm's): the joins close when the challenger says « cartes » or
when a participant sends the first face-down card; the Goudron & Plumes
window after a Tricheur waits for every player but the cheater (awaiting
only a holder would tell the table who holds it), each answering « Goudron
& Plumes » or « pas de Goudron »; it closes when one plays it or all have
declined.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from gm.core.protocol import Command, Draws, Event
from gm.errors import PhaseError

from . import combat as fight
from . import poker as pk
from .cards import Card
from .commands import (
    Challenge,
    Cheat,
    ChooseCard,
    CloseJoins,
    DeclineFight,
    DeclineTar,
    Escape,
    Flee,
    GiveUp,
    Join,
    Lower,
    NoReaction,
    Shoot,
    Stand,
    StartFight,
    Stay,
    TakeBack,
    Tar,
)
from .engine import (
    Decider,
    Evolver,
    Run,
    acting,
    action_of,
    add_cash,
    check_threshold,
    find_player,
    in_free,
    not_now,
    poker_awaiting,
    poker_card,
    refuse,
    tar_waits,
    turn_number,
    without_all,
)
from .events import (
    CardTakenBack,
    CheatPlayed,
    FighterPassed,
    JoinsClosed,
    PokerCardChosen,
    PokerChallenged,
    PokerEnded,
    PokerEscaped,
    PokerFightDeclined,
    PokerFightStarted,
    PokerFled,
    PokerJoined,
    PokerMoney,
    PokerRevealed,
    PokerStayed,
    PokerStood,
    ReactionPassed,
    ShotFired,
    StakeLowered,
    SwapStood,
    TarDeclined,
    TarPlayed,
)
from .model import Phase, State
from .turn import draw_action

# --- the machine ---------------------------------------------------------------------------


def poker_seats(state: State) -> tuple[pk.Seat, ...]:
    """Every player as ``poker`` sees them, in seating order."""
    return tuple(
        pk.Seat(
            p,
            state.cash_of(p),
            tuple(poker_card(c) for c in state.hand_of(p)),
            state.shots_of(p),
            tuple(c.label for c in state.permanents_of(p)),
        )
        for p in state.players
    )


def _free(card: Card | None) -> str | None:
    return card.label if card is not None else None


_MACHINE: dict[type[Event], Callable[[pk.Poker, Any], pk.Poker]] = {
    PokerEscaped: lambda p, e: pk.escape(p, e.player),
    PokerStayed: lambda p, e: pk.stay(p, e.player),
    PokerJoined: lambda p, e: pk.join(p, e.player),
    StakeLowered: lambda p, e: pk.lower(p, e.player, e.stake),
    JoinsClosed: lambda p, e: pk.close_joins(p),
    PokerCardChosen: lambda p, e: pk.choose(p, e.player, e.card or None),
    CheatPlayed: lambda p, e: pk.cheat(p, e.player, e.target),
    TarPlayed: lambda p, e: pk.tar(p, e.player),
    SwapStood: lambda p, e: pk.let_stand(p),
    CardTakenBack: lambda p, e: pk.take_back(p, e.player, e.card),
    ReactionPassed: lambda p, e: pk.no_reaction(p, e.player),
    PokerFightStarted: lambda p, e: pk.start_fight(p, e.player),
    PokerFightDeclined: lambda p, e: pk.decline(p, e.player),
    PokerFled: lambda p, e: pk.flee(p, e.player),
    PokerStood: lambda p, e: pk.stand(p, e.player),
    ShotFired: lambda p, e: pk.shoot(p, e.player, e.cards, _free(e.free)),
    FighterPassed: lambda p, e: pk.give_up(p, e.player),
}
"""Each decision's event as the machine's move."""


def poker_step(poker: pk.Poker, event: Event) -> pk.Poker:
    """The poker game after ``event`` (a decision of the game in play); refuses an illegal one."""
    move = _MACHINE.get(type(event))
    return move(poker, event) if move is not None else poker


# --- decide ----------------------------------------------------------------------------------


def _poker_of(state: State, what: str) -> pk.Poker:
    if state.phase is not Phase.POKER or state.poker is None:
        raise not_now(state, what)
    return state.poker


def _emit(run: Run, event: Event, draws: Draws) -> None:
    """One decision of the poker game: the event, the money it moved, what follows."""
    before = _poker_of(run.state, "a poker decision")
    poker_step(before, event)  # refuses an illegal decision before anything is recorded
    run.emit(event)
    _follow(run, before, draws)


def _follow(run: Run, before: pk.Poker, draws: Draws) -> None:
    state = run.state
    after = state.poker
    assert after is not None
    number = turn_number(state)
    for t in after.transfers[len(before.transfers) :]:
        run.emit(PokerMoney(number, t.source, t.target, t.amount, t.why.value))
    if after.revealed and not before.revealed:
        run.emit(PokerRevealed(number, tuple((n, after.seat(n).card or 0) for n in after.showing)))
    if after.stage is pk.Stage.DRAW:
        # no game card in hand: the challenged draws an action card and must play
        drawn = run.state.poker
        draw_action(run, after.challenged, draws)
        assert run.state.poker is not None and drawn is not None
        if run.state.poker.stage is not pk.Stage.DRAW:
            _follow(run, drawn, draws)
        return
    if after.stage is pk.Stage.DONE:
        run.emit(PokerEnded(number, after.taker))
        check_threshold(run)


def challenge(run: Run, actor: str, command: Challenge, draws: Draws) -> None:
    state = run.state
    player = acting(state, actor, command.player)
    in_free(state, player, "a poker game")
    record = state.current
    assert record is not None
    if record.poker_done:
        raise refuse("one poker game per turn", "poker-done")
    target = find_player(state, command.target)
    poker = pk.challenge(poker_seats(state), player, target, command.stake)  # refuses
    run.emit(PokerChallenged(record.number, player, target, command.stake))
    _follow(run, replace(poker, transfers=()), draws)


def _choose(
    run: Run, player: str, command: ChooseCard, draws: Draws, default: bool = False
) -> None:
    poker = _poker_of(run.state, "choosing a face-down card")
    number = turn_number(run.state)
    joining = poker.stage is pk.Stage.JOIN
    # refuses before anything is emitted, a card 0 too (the event's 0 means « none »)
    pk.choose(pk.close_joins(poker) if joining else poker, player, command.card)
    if joining:
        # gm's forum rule: the first face-down card closes the joins
        _emit(run, JoinsClosed(number), draws)
    _emit(run, PokerCardChosen(number, player, command.card or 0, default), draws)


def _decline_tar(run: Run, player: str, draws: Draws, default: bool = False) -> None:
    state = run.state
    poker = _poker_of(state, "declining Goudron & Plumes")
    if poker.stage is not pk.Stage.TAR:
        raise PhaseError(
            f"no Tricheur to answer now (poker: {poker.stage})",
            code="rattlesnake/not-now",
            params={
                "what": "declining Goudron & Plumes",
                "stage": str(poker.stage),
                "awaiting": list(poker_awaiting(state)),
            },
        )
    waits = tar_waits(state)
    if player not in waits:
        raise refuse(
            f"{player} has nothing to answer now (awaited: {', '.join(waits)})",
            "not-your-turn",
            player=player,
            turn=", ".join(waits),
        )
    run.emit(TarDeclined(turn_number(state), player, default))
    if not tar_waits(run.state):
        _emit(run, SwapStood(turn_number(state)), draws)


def _close_joins(run: Run, player: str, command: CloseJoins, draws: Draws) -> None:
    poker = _poker_of(run.state, "closing the joins")
    if player != poker.challenger:
        raise refuse(
            f"only the challenger, {poker.challenger}, closes the joins",
            "not-your-turn",
            player=player,
            turn=poker.challenger,
        )
    _emit(run, JoinsClosed(turn_number(run.state)), draws)


def _cheat(run: Run, player: str, command: Cheat, draws: Draws) -> None:
    target = find_player(run.state, command.target)
    _emit(run, CheatPlayed(turn_number(run.state), player, target), draws)


def shoot_as(run: Run, player: str, command: Shoot, draws: Draws) -> None:
    poker = _poker_of(run.state, "a blow")
    if poker.combat is not None and poker.stage is pk.Stage.COMBAT:
        after = pk.shoot(poker, player, command.cards, _free(command.free))
        # the combat may be over, its fighters kept
        total = after.combat.fighter(player).total if after.combat is not None else 0
    else:
        total = 0
    n = turn_number(run.state)
    _emit(run, ShotFired(n, player, tuple(command.cards), total, command.free), draws)


def _give_up(run: Run, player: str, command: GiveUp, draws: Draws) -> None:
    _emit(run, FighterPassed(turn_number(run.state), player), draws)


def _decision(make: Callable[[int, str, Any], Event]) -> Callable[[Run, str, Any, Draws], None]:
    """A command that is one decision of the machine: its event, made from the turn and player."""

    def handle(run: Run, player: str, command: Any, draws: Draws) -> None:
        _emit(run, make(turn_number(run.state), player, command), draws)

    return handle


_BY_PLAYER: dict[type[Command], Callable[[Run, str, Any, Draws], None]] = {
    Escape: _decision(lambda n, p, c: PokerEscaped(n, p)),
    Stay: _decision(lambda n, p, c: PokerStayed(n, p)),
    Join: _decision(lambda n, p, c: PokerJoined(n, p)),
    Lower: _decision(lambda n, p, c: StakeLowered(n, p, c.stake)),
    CloseJoins: _close_joins,
    ChooseCard: lambda run, p, c, draws: _choose(run, p, c, draws),
    Cheat: _cheat,
    Tar: _decision(lambda n, p, c: TarPlayed(n, p)),
    DeclineTar: lambda run, p, c, draws: _decline_tar(run, p, draws),
    TakeBack: _decision(lambda n, p, c: CardTakenBack(n, p, c.card)),
    NoReaction: _decision(lambda n, p, c: ReactionPassed(n, p)),
    StartFight: _decision(lambda n, p, c: PokerFightStarted(n, p)),
    DeclineFight: _decision(lambda n, p, c: PokerFightDeclined(n, p)),
    Flee: _decision(lambda n, p, c: PokerFled(n, p)),
    Stand: _decision(lambda n, p, c: PokerStood(n, p)),
    Shoot: shoot_as,
    GiveUp: _give_up,
}
"""Each decision of the game in play, for the player who makes it."""


def decision(run: Run, actor: str, command: Any, draws: Draws) -> None:
    """A decision of the poker game in play, as its event."""
    player = acting(run.state, actor, command.player)
    _BY_PLAYER[type(command)](run, player, command, draws)


def default_as(run: Run, player: str, draws: Draws) -> None:
    """A missed deadline in the poker game (gm's reading, ``poker.default``), for ``player``."""
    state = run.state
    poker = _poker_of(state, "a default")
    n = turn_number(state)
    match poker.stage:
        case pk.Stage.ESCAPE:
            _emit(run, PokerStayed(n, player, default=True), draws)
        case pk.Stage.JOIN:
            _emit(run, JoinsClosed(n, default=True), draws)
        case pk.Stage.CARDS:
            cards = pk.game_cards(poker.seat(player).hand)
            card = None if player == poker.challenged else cards[0]
            _choose(run, player, ChooseCard(player, card), draws, default=True)
        case pk.Stage.REACT:
            _emit(run, ReactionPassed(n, player, default=True), draws)
        case pk.Stage.TAR:
            _decline_tar(run, player, draws, default=True)
        case pk.Stage.REVOLVER:
            _emit(run, PokerFightDeclined(n, player, default=True), draws)
        case pk.Stage.FLIGHT:
            _emit(run, PokerStood(n, player, default=True), draws)
        case pk.Stage.COMBAT:
            assert poker.combat is not None
            if fight.can_pass(poker.combat, player):
                _emit(run, FighterPassed(n, player, default=True), draws)
            else:
                # the starter must open the combat they started: their smallest opening
                opening = fight.minimal_shots(poker.combat, player)[0]
                free = None
                if not opening:
                    free = next(
                        (
                            c
                            for c in state.permanents_of(player)
                            if c in (Card.IRONFIST, Card.SLIPPERY)
                        ),
                        None,
                    )
                shoot_as(run, player, Shoot(player, tuple(opening), free), draws)


# --- evolve ----------------------------------------------------------------------------------


def _evolved(state: State, event: Event) -> State:
    """The state after a decision of the poker game: the game, and the hands it changed."""
    assert state.poker is not None
    poker = poker_step(state.poker, event)
    hands = tuple(tuple(action_of(c) for c in poker.seat(p).hand) for p in state.players)
    after = state.but(poker=poker, hands=hands)
    if isinstance(event, TarPlayed | SwapStood):
        after = after.but(tar_declined=())
    return after


def shot_fired(state: State, event: ShotFired) -> State:
    assert state.poker is not None and state.poker.combat is not None
    counted = fight.counted(state.poker.combat.fighter(event.player))
    after = _evolved(state, event)
    after = after.with_seat(
        "shots", event.player, without_all(state.shots_of(event.player), event.cards)
    )
    after = after.but(shot_discard=(*after.shot_discard, *event.cards))
    return after.with_move(
        "blow",
        player=event.player,
        cards=list(event.cards),
        total=event.total,
        free=event.free.value if event.free else None,
        counted=[list(c) for c in counted],
    )


def fighter_passed(state: State, event: FighterPassed) -> State:
    return _evolved(state, event).with_move("passed", player=event.player, default=event.default)


def _challenged(state: State, event: PokerChallenged) -> State:
    poker = pk.challenge(poker_seats(state), event.challenger, event.challenged, event.stake)
    after = state.but(phase=Phase.POKER, poker=poker, tar_declined=())
    return after.with_record(poker_done=True).with_move(
        "challenge",
        player=event.challenger,
        target=event.challenged,
        stake=event.stake,
    )


def _money(state: State, event: PokerMoney) -> State:
    after = state
    if event.source is not None:
        after = add_cash(after, event.source, -event.amount)
    if event.target is not None:
        after = add_cash(after, event.target, event.amount)
    return after.with_move(
        "money",
        source=event.source,
        target=event.target,
        amount=event.amount,
        why=event.why,
        pot=state.poker.pot if state.poker is not None else 0,
    )


def _revealed(state: State, event: PokerRevealed) -> State:
    return state.with_move("revealed", cards=[list(c) for c in event.cards])


def _tar_declined(state: State, event: TarDeclined) -> State:
    return state.but(tar_declined=(*state.tar_declined, event.player)).with_move(
        "tar-declined", player=event.player, default=event.default
    )


def _ended(state: State, event: PokerEnded) -> State:
    ended = state.poker
    assert ended is not None
    discards = tuple(action_of(c) for c in ended.discards)
    after = state.but(
        phase=Phase.FREE,
        poker=None,
        tar_declined=(),
        action_discard=(*state.action_discard, *discards),
    )
    return after.with_move(
        "poker-ended",
        taker=event.taker,
        unseen=ended.unseen is not None,
        escaped=ended.escaped,
    )


_MOVES: dict[type[Event], str] = {
    PokerEscaped: "escaped",
    PokerStayed: "stayed",
    PokerJoined: "joined",
    StakeLowered: "lowered",
    JoinsClosed: "joins-closed",
    PokerCardChosen: "chose",
    CheatPlayed: "cheat",
    TarPlayed: "tar",
    SwapStood: "swap-stood",
    CardTakenBack: "took-back",
    ReactionPassed: "no-reaction",
    PokerFightStarted: "fight",
    PokerFightDeclined: "no-fight",
    PokerFled: "fled",
    PokerStood: "stood",
}
"""The move each poker decision records, for the posts."""


def _decided(state: State, event: Event) -> State:
    """A poker decision, recorded as a public move: its fields but the turn, never a face-down card."""
    data = {
        k: v
        for k, v in vars(event).items()
        if k != "turn" and not (isinstance(event, PokerCardChosen) and k == "card")
    }
    if isinstance(event, PokerCardChosen) and not event.card:
        # only the challenged plays none, last: the reveal follows at once
        data["none"] = True
    return _evolved(state, event).with_move(_MOVES[type(event)], **data)


DECIDE: dict[type[Command], Decider] = {
    Challenge: challenge,
    **{kind: decision for kind in _BY_PLAYER if kind not in (Shoot, GiveUp)},
}
"""A blow (``Shoot``, ``GiveUp``) is the combat in play's: ``rules`` sends it here or to the bank."""
EVOLVE: dict[type[Event], Evolver] = {
    PokerChallenged: _challenged,
    PokerMoney: _money,
    PokerRevealed: _revealed,
    TarDeclined: _tar_declined,
    PokerEnded: _ended,
    **{kind: _decided for kind in _MOVES},
}
