"""The rules of Le Magot: configuration, ``decide``, ``evolve`` and the standings.

``decide`` checks a command against the state and returns the events it
causes, or raises a ``gm.errors`` error with a stable code (``magot/…``,
``phase/…``) and the ``params`` a reply template needs; it never changes
anything. ``evolve`` applies one stored event and never refuses it. The
rulings ``R-n`` are those of ``gm/games/magot/rules.md``.

Drawing (R-1, R-2): the loot deck is kept sorted from the largest bill down;
a draw by the fortune reads the stream ``round-<n>/bills`` and takes
``min(5, len(deck))`` bills one after the other, each time the bill at index
``below(len(deck))`` of what is left. The bills are recorded in the event in
that order, so a replay never draws.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from gm.core import rules as core_rules
from gm.core.names import find_name
from gm.core.protocol import Command, Draws, Event
from gm.errors import (
    IllegalOrderError,
    InputError,
    NotFoundError,
    PhaseError,
    quote_choices,
)

from .commands import DrawLoot, Fold, Resolve, Reveal, SetOrder, Stay, WithdrawOrder
from .events import (
    Folded,
    GameEnded,
    LootDrawn,
    OrderSet,
    OrdersRevealed,
    OrderWithdrawn,
    RoundResolved,
    Stayed,
)
from .manifest import DEFAULT_LOOT, DEFAULT_ROUNDS, MAX_PLAYERS, MIN_PLAYERS
from .model import (
    BILLS_PER_ROUND,
    INITIAL_STOCK,
    MAX_WOUNDS,
    OPTIONS,
    SHAME_PENALTY,
    Aim,
    EndReason,
    Gangster,
    Option,
    Order,
    Phase,
    Portion,
    Resolution,
    RoundRecord,
    Shot,
    Standing,
    State,
    Wound,
    remove_bills,
    sort_bills,
)
from .text import name_key

MAX_ROUNDS = 100

MAX_BILLS = 1000
"""Bills in the whole loot deck at most (the default deck has 40)."""

MAX_LOOT_UNITS = 100_000
"""The loot's total value, counted in the largest unit dividing every bill, at most.

R-6's exact share works on pot values in that unit (the default loot is worth
85 units of 5 000 $); with bills of 1 $ and 999 999 $ a pot would be
millions of units and one share could take minutes. Under this bound a share
stays within milliseconds (``bench/share.py``)."""

OPTION_NAMES = {
    Option.TRIPLE: "BANG BANG BANG",
    Option.BANG: "BANG",
    Option.CLICK: "CLIC CLIC CLIC",
}
"""How options are written for the MJ (English messages quote the forum's words)."""


# --- configuration -----------------------------------------------------------


def configure(players: Sequence[str], options: Mapping[str, Any]) -> dict[str, Any]:
    """Check the players and the raw options; return the canonical options.

    ``rounds`` is a positive integer (or its text); ``loot`` a text such as
    ``"5000:15,10000:15,20000:10"`` or a mapping ``{"5000": 15, ...}``.
    """
    check_players(players)
    unknown = sorted(set(options) - {"rounds", "loot"})
    if unknown:
        raise InputError(
            f"unknown option {unknown[0]!r} for magot (valid: rounds, loot)",
            code="magot/unknown-option",
            params={"option": unknown[0], "valid": ["rounds", "loot"]},
        )
    rounds = _parse_rounds(options.get("rounds", DEFAULT_ROUNDS))
    loot = _parse_loot(options.get("loot", DEFAULT_LOOT))
    return {"rounds": rounds, "loot": loot}


def check_players(players: Sequence[str]) -> None:
    """Refuse a number of players the game cannot seat (names are the
    platform's: ``gm.core.names.check_name``)."""
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise InputError(
            f"magot needs {MIN_PLAYERS} to {MAX_PLAYERS} players, got {len(players)}",
            code="magot/player-count",
            params={"count": len(players), "min": MIN_PLAYERS, "max": MAX_PLAYERS},
        )


def _parse_rounds(raw: Any) -> int:
    value: int | None = None
    if isinstance(raw, int) and not isinstance(raw, bool):
        value = raw
    elif isinstance(raw, str) and raw.strip().isdigit():
        value = int(raw.strip())
    if value is None or not 1 <= value <= MAX_ROUNDS:
        raise InputError(
            f"option rounds={raw!r} is not valid: give a whole number from 1 to {MAX_ROUNDS}"
            f" (default {DEFAULT_ROUNDS})",
            code="magot/bad-rounds",
            params={"value": str(raw)},
        )
    return value


def _loot_error(raw: Any, why: str) -> InputError:
    return InputError(
        f"option loot={raw!r} is not valid: {why}; write bill values and counts,"
        ' e.g. "5000:15,10000:15,20000:10"',
        code="magot/bad-loot",
        params={"value": str(raw)},
    )


def _whole(raw: Any) -> int | None:
    if isinstance(raw, int) and not isinstance(raw, bool):
        return raw
    if isinstance(raw, str):
        digits = raw.strip().replace("_", "").replace(" ", "").replace("\u202f", "")
        digits = digits.removesuffix("$").strip()
        if digits.isdigit():
            return int(digits)
    return None


def _parse_loot(raw: Any) -> dict[str, int]:
    pairs: list[tuple[Any, Any]]
    if isinstance(raw, str):
        pairs = []
        for item in (p for p in raw.replace(";", ",").split(",") if p.strip()):
            if ":" not in item:
                raise _loot_error(raw, f"{item.strip()!r} has no ':' between value and count")
            value_text, count_text = item.split(":", 1)
            pairs.append((value_text, count_text))
    elif isinstance(raw, Mapping):
        pairs = list(raw.items())
    else:
        raise _loot_error(raw, "expected a text or a table")
    loot: dict[int, int] = {}
    for value_raw, count_raw in pairs:
        bill, count = _whole(value_raw), _whole(count_raw)
        if bill is None or bill <= 0:
            raise _loot_error(raw, f"bill value {value_raw!r} is not a positive whole number")
        if count is None or count < 0:
            raise _loot_error(raw, f"count {count_raw!r} is not a whole number")
        loot[bill] = loot.get(bill, 0) + count
    loot = {v: c for v, c in loot.items() if c}
    if not loot:
        raise _loot_error(raw, "the loot holds no bill")
    bills = sum(loot.values())
    if bills > MAX_BILLS:
        raise _loot_error(raw, f"it holds {bills} bills; at most {MAX_BILLS}")
    unit = math.gcd(*loot)
    units = sum(value * count for value, count in loot.items()) // unit
    if units > MAX_LOOT_UNITS:
        raise _loot_error(
            raw,
            f"its bills are too far apart to share exactly: the loot is worth {units} times"
            f" {unit} $, the largest amount dividing every bill; at most {MAX_LOOT_UNITS}"
            " (use values with a larger common divisor, such as 5000 and 10000)",
        )
    return {str(v): loot[v] for v in sorted(loot)}


def initial_state(players: Sequence[str], options: Mapping[str, Any]) -> State:
    """The state before the first draw."""
    config = configure(players, options)
    loot = tuple(sorted(((int(v), c) for v, c in config["loot"].items()), reverse=True))
    deck = sort_bills([v for v, c in loot for _ in range(c)])
    return State(
        players=tuple(Gangster(name=name) for name in players),
        rounds=config["rounds"],
        loot=loot,
        deck=deck,
    )


# --- lookups -----------------------------------------------------------------


def find_player(state: State, name: str) -> str:
    """The canonical name of the player called ``name`` (case and accents ignored)."""
    found = find_name(state.names, name, key=name_key)
    if found is not None:
        return found
    raise NotFoundError(
        f"no player named {name!r} (players: {quote_choices(state.names)})",
        code="magot/unknown-player",
        params={"name": name, "players": list(state.names), "targets": list(state.living)},
    )


def remaining_text(gangster: Gangster) -> str:
    """``bang ×2, click ×4``: the options a player still holds."""
    held = [f"{o} ×{n}" for o, n in zip(OPTIONS, gangster.left, strict=True) if n]
    return ", ".join(held) if held else "nothing"


def check_order(state: State, player: str, target: str, option: Option) -> SetOrder:
    """A legal order with canonical names, or the error that refuses it."""
    shooter = state.player(find_player(state, player))
    if not shooter.alive:
        raise IllegalOrderError(
            f"{shooter.name} is dead (round {shooter.death_round}) and sends no more orders",
            code="magot/dead-player",
            params={"player": shooter.name},
        )
    aimed = state.player(find_player(state, target))
    if aimed.name == shooter.name:
        others = [n for n in state.living if n != shooter.name]
        raise IllegalOrderError(
            f"{shooter.name} cannot aim at themself (living targets: {quote_choices(others)})",
            code="magot/self-target",
            params={"player": shooter.name, "targets": others},
        )
    if not aimed.alive:
        others = [n for n in state.living if n != shooter.name]
        raise IllegalOrderError(
            f"{aimed.name} is dead and cannot be aimed at"
            f" (living targets: {quote_choices(others)})",
            code="magot/dead-target",
            params={"player": shooter.name, "target": aimed.name, "targets": others},
        )
    if shooter.remaining(option) < 1:
        raise IllegalOrderError(
            f"option {str(option)!r} already spent by {shooter.name}"
            f" (left: {remaining_text(shooter)})",
            code="magot/option-spent",
            params={
                "player": shooter.name,
                "option": str(option),
                "remaining": shooter.options_left(),
            },
        )
    return SetOrder(player=shooter.name, target=aimed.name, option=option)


# --- phases ------------------------------------------------------------------


def phase_key(state: State) -> str:
    """``setup``, ``round-3/orders``, ``round-3/standoff``, ``round-3/done`` or ``over``."""
    if state.phase is Phase.OVER:
        return "over"
    if state.phase is Phase.DRAW:
        return "setup" if state.round == 0 else f"round-{state.round}/done"
    return f"round-{state.round}/{state.phase}"


def awaiting(state: State) -> tuple[str, ...]:
    """Living players without an order (orders), or without a recorded
    choice (standoff: informational, they stay by default, R-4)."""
    if state.phase is Phase.ORDERS:
        ordered = {shooter for shooter, _ in state.orders}
        return tuple(n for n in state.living if n not in ordered)
    if state.phase is Phase.STANDOFF:
        chose = set(state.folds) | set(state.stays)
        return tuple(n for n in state.living if n not in chose)
    return ()


def next_step(state: State) -> str:
    """What the MJ does next, in a few English words."""
    if state.phase is Phase.OVER:
        return "game over: gm post final (then gm post disclosure)"
    if state.phase is Phase.DRAW:
        return f"gm draw (opens round {state.round + 1})"
    waiting = awaiting(state)
    if state.phase is Phase.ORDERS:
        if not waiting:
            return "gm reveal"
        return f"gm order (waiting for {', '.join(waiting)}) or gm reveal --force"
    if not waiting:
        return "gm resolve"
    return f"gm fold / gm stay, or gm resolve (undecided players stay: {', '.join(waiting)})"


def is_over(state: State) -> bool:
    return state.phase is Phase.OVER


def _phase_error(state: State, command: Command, expected: str) -> PhaseError:
    if state.phase is Phase.OVER:
        return core_rules.game_over(command, f" (round {state.round})")
    return PhaseError(
        f"{command.kind} is not possible in phase {phase_key(state)!r}: {expected}"
        f" (next: {next_step(state)})",
        code="phase/wrong",
        params={"phase": phase_key(state), "command": command.kind, "next": next_step(state)},
    )


# --- decide ------------------------------------------------------------------


def decide(state: State, actor: str, command: Command, draws: Draws) -> list[Event]:
    """The events ``command`` causes, or the error that refuses it."""
    match command:
        case DrawLoot():
            return _decide_draw(state, actor, command, draws)
        case SetOrder():
            return _decide_order(state, actor, command)
        case WithdrawOrder():
            return _decide_withdraw(state, actor, command)
        case Reveal():
            return _decide_reveal(state, actor, command)
        case Fold() | Stay():
            return _decide_choice(state, actor, command)
        case Resolve():
            return _decide_resolve(state, actor, command)
    raise core_rules.unknown_command("magot", command)


def play(
    state: State, actor: str, command: Command, draws: Draws | None = None
) -> tuple[State, tuple[Event, ...]]:
    """``decide`` then ``evolve``: the new state and the events (for tests, previews)."""
    return core_rules.apply(decide, evolve, state, actor, command, draws)


def _require_gm(actor: str, command: Command) -> None:
    core_rules.require_gm("magot", actor, command)


def _acting_player(state: State, actor: str, player: str) -> str:
    return core_rules.acting_player("magot", lambda name: find_player(state, name), actor, player)


def _decide_draw(state: State, actor: str, command: DrawLoot, draws: Draws) -> list[Event]:
    _require_gm(actor, command)
    if state.phase is not Phase.DRAW:
        raise _phase_error(state, command, "the round is already open")
    count = min(BILLS_PER_ROUND, len(state.deck))
    if command.bills is None:
        rest = list(state.deck)
        chance = draws.stream(bills_purpose(state.round + 1))
        bills = tuple(rest.pop(chance.below(len(rest))) for _ in range(count))
        return [LootDrawn(round=state.round + 1, bills=bills, manual=False)]
    _check_manual_bills(state, command.bills, count)
    return [LootDrawn(round=state.round + 1, bills=tuple(command.bills), manual=True)]


def bills_purpose(round_: int) -> str:
    """The fortune's stream of round ``round_``'s bills."""
    return f"round-{round_}/bills"


def _deck_text(state: State) -> str:
    counts = Counter(state.deck)
    return ", ".join(f"{v} ×{counts[v]}" for v in sorted(counts, reverse=True)) or "empty"


def _check_manual_bills(state: State, bills: tuple[int, ...], count: int) -> None:
    params = {"bills": list(bills), "count": count, "deck": dict(Counter(state.deck))}
    if len(bills) != count:
        raise InputError(
            f"a draw takes {count} bill(s) now, got {len(bills)}: {list(bills)}"
            f" (deck: {_deck_text(state)})",
            code="magot/bad-bills",
            params=params,
        )
    missing = Counter(bills) - Counter(state.deck)
    if missing:
        extra = ", ".join(f"{v} ×{n}" for v, n in sorted(missing.items(), reverse=True))
        raise InputError(
            f"bills {list(bills)} are not all in the loot deck (too many: {extra};"
            f" deck: {_deck_text(state)})",
            code="magot/bad-bills",
            params=params,
        )


def _decide_order(state: State, actor: str, command: SetOrder) -> list[Event]:
    if state.phase is not Phase.ORDERS:
        expected = (
            "orders are locked since the reveal"
            if state.phase is Phase.STANDOFF
            else ("orders are sent after gm draw opens a round")
        )
        raise _phase_error(state, command, expected)
    player = _acting_player(state, actor, command.player)
    order = check_order(state, player, command.target, command.option)
    return [OrderSet(state.round, order.player, order.target, order.option)]


def _decide_withdraw(state: State, actor: str, command: WithdrawOrder) -> list[Event]:
    if state.phase is not Phase.ORDERS:
        raise _phase_error(state, command, "orders can be withdrawn only before the reveal")
    player = _acting_player(state, actor, command.player)
    if state.order_of(player) is None:
        raise IllegalOrderError(
            f"{player} has no order to withdraw in round {state.round}",
            code="magot/no-order",
            params={"player": player},
        )
    return [OrderWithdrawn(state.round, player)]


def _decide_reveal(state: State, actor: str, command: Reveal) -> list[Event]:
    _require_gm(actor, command)
    if state.phase is not Phase.ORDERS:
        raise _phase_error(state, command, "the reveal comes after the orders")
    missing = awaiting(state)
    if missing and not command.force:
        raise PhaseError(
            f"no order from {', '.join(missing)}: they would aim at nobody and spend"
            " nothing (R-3); wait, or confirm with gm reveal --force",
            code="magot/missing-orders",
            params={"missing": list(missing)},
        )
    aims = tuple(Aim(shooter, order.target) for shooter, order in state.orders)
    return [OrdersRevealed(state.round, aims, missing, bool(missing))]


def _decide_choice(state: State, actor: str, command: Fold | Stay) -> list[Event]:
    if state.phase is not Phase.STANDOFF:
        raise _phase_error(state, command, "players stay or fold after the reveal")
    player = _acting_player(state, actor, command.player)
    if not state.player(player).alive:
        raise IllegalOrderError(
            f"{player} is dead and takes no part in the round",
            code="magot/dead-player",
            params={"player": player},
        )
    if isinstance(command, Fold):
        return [Folded(state.round, player)]
    return [Stayed(state.round, player)]


def _decide_resolve(state: State, actor: str, command: Resolve) -> list[Event]:
    _require_gm(actor, command)
    if state.phase is not Phase.STANDOFF:
        raise _phase_error(state, command, "the resolution comes after the reveal")
    resolved = RoundResolved(state.round, resolve_round(state))
    events: list[Event] = [resolved]
    reason = end_reason(evolve(state, resolved))
    if reason is not None:
        events.append(GameEnded(state.round, reason, resolved.resolution.carry))
    return events


def resolve_round(state: State) -> Resolution:
    """Shots, wounds and share of the current round (phase 5 and 6 of a round)."""
    folds = set(state.folds)
    lowered: list[Aim] = []
    held: list[Aim] = []
    live: list[tuple[str, Order]] = []
    for shooter, order in state.orders:
        if shooter in folds:
            lowered.append(Aim(shooter, order.target))
        elif order.target in folds:
            held.append(Aim(shooter, order.target))
        else:
            live.append((shooter, order))

    taken: Counter[str] = Counter()
    triples = [(s, o) for s, o in live if o.option is Option.TRIPLE]
    surprised = {o.target for _, o in triples}  # caught by a BANG BANG BANG
    disabled = [
        Aim(s, o.target) for s, o in live if o.option is not Option.TRIPLE and s in surprised
    ]
    bangs = [(s, o) for s, o in live if o.option is Option.BANG and s not in surprised]
    clicks = [(s, o) for s, o in live if o.option is Option.CLICK and s not in surprised]
    for _, order in triples + bangs:
        taken[order.target] += 1
    shots = tuple(Shot(s, o.target, o.option) for s, o in triples + bangs + clicks)

    wounds = tuple(
        Wound(g.name, taken[g.name], total, total >= MAX_WOUNDS)
        for g in state.players
        if taken[g.name]
        for total in (min(MAX_WOUNDS, g.wounds + taken[g.name]),)
    )
    sharers = [n for n in state.living if n not in folds and not taken[n]]
    from .share import split_pot  # R-6's solver: only a resolution needs it

    split = split_pot(state.pot, len(sharers))
    return Resolution(
        folded=tuple(n for n in state.living if n in folds),
        lowered=tuple(lowered),
        held=tuple(held),
        disabled=tuple(disabled),
        shots=shots,
        wounds=wounds,
        portions=tuple(Portion(n, part) for n, part in zip(sharers, split.parts, strict=True)),
        share=split.each,
        carry=split.carry,
    )


def end_reason(state: State) -> EndReason | None:
    """R-7, checked at the end of a round: why the game ends now, if it does."""
    alive = len(state.living)
    if alive == 0:
        return EndReason.NO_SURVIVOR
    if alive == 1:
        return EndReason.LAST_SURVIVOR
    if state.round >= state.rounds:
        return EndReason.LAST_ROUND
    if not state.deck and not state.pot:
        return EndReason.LOOT_GONE
    return None


# --- evolve ------------------------------------------------------------------


def evolve(state: State, event: Event) -> State:
    """Apply one event to the state."""
    match event:
        case LootDrawn():
            return _evolve_drawn(state, event)
        case OrderSet():
            orders = dict(state.orders)
            orders[event.player] = Order(event.target, event.option)
            return replace(state, orders=_seated(state, orders))
        case OrderWithdrawn():
            orders = dict(state.orders)
            orders.pop(event.player, None)
            return replace(state, orders=_seated(state, orders))
        case OrdersRevealed():
            record = replace(
                state.history[-1],
                revealed=True,
                aims=event.aims,
                missing=event.missing,
                forced=event.forced,
                orders=state.orders,
            )
            return replace(state, phase=Phase.STANDOFF, history=(*state.history[:-1], record))
        case Folded():
            folds = {*state.folds, event.player}
            stays = set(state.stays) - {event.player}
            return replace(state, folds=_in_seats(state, folds), stays=_in_seats(state, stays))
        case Stayed():
            folds = set(state.folds) - {event.player}
            stays = {*state.stays, event.player}
            return replace(state, folds=_in_seats(state, folds), stays=_in_seats(state, stays))
        case RoundResolved():
            return _evolve_resolved(state, event)
        case GameEnded():
            return replace(state, phase=Phase.OVER, end_reason=event.reason)
    raise TypeError(f"not a magot event: {event!r}")


def _seated(state: State, orders: dict[str, Order]) -> tuple[tuple[str, Order], ...]:
    return tuple((n, orders[n]) for n in state.names if n in orders)


def _in_seats(state: State, names: set[str]) -> tuple[str, ...]:
    return tuple(n for n in state.names if n in names)


def _evolve_drawn(state: State, event: LootDrawn) -> State:
    record = RoundRecord(
        number=event.round,
        alive=state.living,
        carried=state.pot,
        drawn=event.bills,
        manual=event.manual,
    )
    return replace(
        state,
        round=event.round,
        phase=Phase.ORDERS,
        deck=remove_bills(state.deck, event.bills),
        pot=sort_bills(state.pot + event.bills),
        orders=(),
        folds=(),
        stays=(),
        history=(*state.history, record),
    )


def _evolve_resolved(state: State, event: RoundResolved) -> State:
    result = event.resolution
    # Every locked order spends its option, fired or not; the event
    # does not say which, the state does.
    spent = dict(state.orders)
    wounds = {w.player: w for w in result.wounds}
    portions = {p.player: p.bills for p in result.portions}
    folded = set(result.folded)
    players = []
    for g in state.players:
        if g.name in spent:
            g = g.spend(spent[g.name].option)
        if g.name in wounds:
            w = wounds[g.name]
            g = replace(
                g,
                wounds=w.total,
                alive=not w.dead,
                death_round=event.round if w.dead else g.death_round,
            )
        if g.name in folded:
            g = replace(g, shame=g.shame + 1)
        if g.name in portions:
            g = replace(g, bills=sort_bills(g.bills + portions[g.name]))
        players.append(g)
    standings = tuple(Standing(g.name, g.bills, g.wounds, g.shame, g.alive) for g in players)
    record = replace(state.history[-1], resolution=result, standings=standings)
    return replace(
        state,
        players=tuple(players),
        pot=result.carry,
        phase=Phase.DRAW,
        orders=(),
        folds=(),
        stays=(),
        history=(*state.history[:-1], record),
    )


# --- standings ---------------------------------------------------------------


def rank_key(g: Gangster | Standing) -> tuple[bool, int, int, int]:
    """R-8: the living first; then higher score, fewer shame, more wounds."""
    loot = sum(g.bills)
    return (not g.alive, -(loot - SHAME_PENALTY * g.shame), g.shame, -g.wounds)


def ranking(players: Sequence[Gangster] | Sequence[Standing]) -> tuple[tuple[str, int], ...]:
    """``(name, rank)`` in rank order (ties share a rank, in seating order)."""
    keys = [(rank_key(g), _name(g)) for g in players]
    ordered = sorted(range(len(keys)), key=lambda i: keys[i][0])
    return tuple((keys[i][1], 1 + sum(1 for k, _ in keys if k < keys[i][0])) for i in ordered)


def _name(g: Gangster | Standing) -> str:
    return g.name if isinstance(g, Gangster) else g.player


def winners(state: State) -> tuple[str, ...]:
    """R-8: the last survivor; nobody if all are dead; else the living of rank 1.

    Meaningful once the game is over; before, it names who would win now.
    """
    living = state.living
    if len(living) <= 1:
        return living
    ranks = dict(ranking(state.players))
    return tuple(n for n in living if ranks[n] == 1)


def initial_options() -> dict[str, int]:
    """Each player's options at the start, by name."""
    return {str(o): INITIAL_STOCK[o] for o in OPTIONS}


def default_for(state: State, player: str) -> Command:
    """The rules' default for ``player``'s missing input (``gm default``).

    At the stay-or-fold, silence means staying (R-4): the default records it
    now, so the post and the player's reply say so. A missing order has no
    default of its own: R-3 applies it at the reveal (``gm reveal --force``:
    the player aims at nobody and spends nothing), which this error says."""
    name = find_player(state, player)
    if state.phase is Phase.STANDOFF and name in awaiting(state):
        return Stay(name)
    if state.phase is Phase.ORDERS and name in awaiting(state):
        raise PhaseError(
            f"{name}'s missing order is settled at the reveal (R-3): 'gm reveal --force'"
            f" reveals with {name} aiming at nobody and spending nothing",
            code="magot/default-at-reveal",
            params={"player": name},
        )
    raise PhaseError(
        f"nothing is due from {name} now; next: {next_step(state)}",
        code="magot/nothing-due",
        params={"player": name},
    )
