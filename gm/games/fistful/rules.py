"""The rules of Fistful of Gold: ``decide`` and ``evolve``.

``decide`` checks a command against the state and returns the events it
causes, or raises a ``gm.errors`` error with a stable code (``fistful/…``,
``phase/…``) and the ``params`` the French refusal needs; it never changes
anything. ``evolve`` applies one stored event and never refuses it. The
rulings ``R-n`` are those of ``gm/games/fistful/rules.md``; the duel itself
is ``duel.resolve``, the options ``config``, what each player owes now
``phases``.

Decisions where the rules page is silent (each has its test):

* **Setup is locked by the MJ** (``gm start``), as a duel is by ``gm
  reveal``: until then a player may change their discards, and the post of
  ``gm start`` publishes their seals before any card is seen.
* **A green-8 pick is public and final** as soon as it is recorded (the
  card is shown to the opponent); re-sending the same pick is harmless, a
  different one is refused. The duel after a green 8 cannot be revealed
  until the pick is in, nor can a manche be scored.
* **A red 7 in the last duel of a manche** ends it normally: the cards left
  in hand are discarded, there is nothing to choose.
* **Discards the rules force** (the cards left in hand at a normal end) are
  applied by the MJ's ``gm resolve`` without a message; a player sends a
  discard only when they may choose (a red-7 end), and a final-duel card
  only when they discard two (R-5). Sending a choice one does not have is
  refused (``fistful/nothing-due``).
* **The final duel** needs the choices first: a final card must be one of
  the cards discarded, so a green-8 owner picks before choosing it.
* **The 6 in a duel it loses** still claims the ties; the claimed gold is
  not « won from the duel » and is reported apart from the duel's gold.
* **The green 7 revealed in the last duel** gives its +1 in the final duel,
  which is the next duel of the manche; revealed in the final duel itself it
  does nothing, like the green 8 and the red 7 there (R-5).
* **A 6 revealed in a final duel** takes the tie pot like any first 6 of the
  manche (« powers included »), which can decide the manche, or tie it again.
* **Every manche ends with ``gm resolve``**, even when nothing is awaited:
  the MJ posts the last duel, then the manche result.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from gm.core import rules as core_rules
from gm.core.protocol import Command, Draws, Event
from gm.errors import (
    IllegalOrderError,
    OrderSyntaxError,
    PhaseError,
)

from . import duel
from .cards import (
    DECK,
    SETUP_DISCARDS,
    Card,
    Color,
    labels,
    remove_cards,
    sort_cards,
)
from .commands import (
    ChooseEnd,
    DiscardAtSetup,
    EndManche,
    PickCard,
    PlayCard,
    RevealDuel,
    StartDuels,
)
from .config import configure
from .events import (
    CardPicked,
    CardPlayed,
    DuelResolved,
    DuelsStarted,
    EndChosen,
    MancheEnded,
    SetupDiscarded,
)
from .model import (
    DuelRecord,
    EndChoice,
    GameEnd,
    Length,
    MancheEnd,
    MancheRecord,
    MancheResult,
    Outcome,
    Phase,
    Pick,
    Player,
    PowerKind,
    State,
)
from .phases import (
    awaiting,
    discard_choice,
    discards_of,
    final_card,
    final_choice,
    final_due,
    find_player,
    forbidden,
    next_step,
    open_choices,
    owed_text,
    owes,
    phase_key,
)


def initial_state(players: Sequence[str], options: Mapping[str, Any]) -> State:
    """The state before the setup discards: each player holds their whole deck."""
    config = configure(players, options)
    return State(
        players=tuple(Player(name, Color(config["colors"][name]), hand=DECK) for name in players),
        length=Length(config["length"]),
    )


# --- decide ------------------------------------------------------------------


def decide(state: State, actor: str, command: Command, draws: Draws) -> list[Event]:
    """The events ``command`` causes, or the error that refuses it. Nothing is drawn."""
    if state.phase is Phase.OVER:
        raise core_rules.game_over(command)
    match command:
        case DiscardAtSetup():
            return _decide_setup(state, actor, command)
        case PlayCard():
            return _decide_play(state, actor, command)
        case PickCard():
            return _decide_pick(state, actor, command)
        case ChooseEnd():
            return _decide_end_choice(state, actor, command)
        case StartDuels():
            return _decide_start(state, actor, command)
        case RevealDuel():
            return _decide_reveal(state, actor, command)
        case EndManche():
            return _decide_end(state, actor, command)
    raise core_rules.unknown_command("fistful", command)


def play(
    state: State, actor: str, command: Command, draws: Draws | None = None
) -> tuple[State, tuple[Event, ...]]:
    """``decide`` then ``evolve``: the new state and the events (for tests, previews)."""
    return core_rules.apply(decide, evolve, state, actor, command, draws)


def _require_gm(actor: str, command: Command) -> None:
    core_rules.require_gm("fistful", actor, command)


def _acting_player(state: State, actor: str, player: str) -> str:
    return core_rules.acting_player("fistful", lambda name: find_player(state, name), actor, player)


def _not_now(state: State, command: Command, what: str) -> PhaseError:
    return PhaseError(
        f"{what} is not possible now ({phase_key(state)}); next: {next_step(state)}",
        code="fistful/not-now",
        params={
            "phase": str(state.phase),
            "phase_key": phase_key(state),
            "what": command.kind.removeprefix("fistful."),
            "manche": state.manche,
            "duel": state.duel,
        },
    )


def where_card(p: Player, card: Card) -> str:
    """Where a card of ``p``'s deck is: ``hand``, ``played`` (this manche) or ``removed``."""
    if card in p.hand:
        return "hand"
    return "played" if card in p.played else "removed"


def _where_text(name: str, card: Card, where: str) -> str:
    if where == "played":
        return f"{name} already played {card.label} this manche"
    return f"{card.label} is in {name}'s removed pile"


def check_in_hand(p: Player, cards: Sequence[Card], what: str) -> None:
    """Refuse cards that are not in ``p``'s hand, saying where they are."""
    for card in cards:
        where = where_card(p, card)
        if where != "hand":
            raise IllegalOrderError(
                f"{card.label} is not in {p.name}'s hand: {_where_text(p.name, card, where)}"
                f" (hand: {labels(p.hand)})",
                code="fistful/not-in-hand",
                params={
                    "player": p.name,
                    "card": str(card),
                    "where": where,
                    "what": what,
                    "hand": [str(c) for c in p.hand],
                    "pick_due": p.pick_due,
                },
            )


def check_count(p: Player, cards: Sequence[Card], expected: int, what: str) -> None:
    """Refuse the wrong number of cards, or the same card twice."""
    if len(cards) != expected:
        raise OrderSyntaxError(
            f"{what} takes {expected} card{'s' if expected > 1 else ''}, got {len(cards)}"
            f" ({labels(cards)})",
            code="fistful/card-count",
            params={
                "player": p.name,
                "what": what,
                "expected": expected,
                "got": len(cards),
                "cards": [str(c) for c in cards],
            },
        )
    if len(set(cards)) != len(cards):
        raise OrderSyntaxError(
            f"{what}: the same card twice ({labels(cards)}); each deck has one of each",
            code="fistful/same-card",
            params={"player": p.name, "what": what, "cards": [str(c) for c in cards]},
        )


def check_playable(state: State, name: str, card: Card) -> None:
    """Refuse a card not in hand, or forbidden this duel (R-1)."""
    p = state.player(name)
    check_in_hand(p, [card], "card")
    banned = forbidden(state, name)
    if card is banned:
        previous = p.last
        assert previous is not None
        playable = [c for c in p.hand if c is not banned]
        raise IllegalOrderError(
            f"{card.label} is forbidden for {name} this duel: {name} played {previous.label}"
            f" in the previous duel (playable: {labels(playable)})",
            code="fistful/forbidden",
            params={
                "player": name,
                "card": str(card),
                "previous": str(previous),
                "playable": [str(c) for c in playable],
            },
        )


def _decide_setup(state: State, actor: str, command: DiscardAtSetup) -> list[Event]:
    if state.phase is not Phase.SETUP:
        raise _not_now(state, command, "setup discards")
    name = _acting_player(state, actor, command.player)
    p = state.player(name)
    check_count(p, command.cards, SETUP_DISCARDS, "the setup discard")
    return [SetupDiscarded(name, sort_cards(command.cards))]


def pick_events(state: State, name: str, card: Card) -> list[Event]:
    """The green-8 pick of ``card`` (R-4), or nothing when it was already made so."""
    p = state.player(name)
    done = [k for k in state.current.picks if k.player == name and k.turn == state.turn]
    if not p.pick_due:
        if done and done[-1].card is card:
            return []  # sent again with the next message: it is the same pick
        if done:
            raise IllegalOrderError(
                f"{name} already took back {done[-1].card.label} with the green 8; a pick"
                " is shown to all and cannot be changed",
                code="fistful/already-picked",
                params={"player": name, "card": str(card), "picked": str(done[-1].card)},
            )
        raise IllegalOrderError(
            f"{name} has no card to take back: only the green 8's owner picks, right after"
            " the duel where it was revealed",
            code="fistful/no-pick-due",
            params={"player": name, "card": str(card)},
        )
    if card not in p.removed:
        raise IllegalOrderError(
            f"{card.label} is not in {name}'s removed pile (removed: {labels(p.removed)})",
            code="fistful/not-removed",
            params={
                "player": name,
                "card": str(card),
                "where": where_card(p, card),
                "removed": [str(c) for c in p.removed],
            },
        )
    return [CardPicked(state.turn, name, card)]


def _decide_pick(state: State, actor: str, command: PickCard) -> list[Event]:
    if state.phase not in (Phase.DUEL, Phase.END):
        raise _not_now(state, command, "a green-8 pick")
    name = _acting_player(state, actor, command.player)
    return pick_events(state, name, command.card)


def _decide_play(state: State, actor: str, command: PlayCard) -> list[Event]:
    if state.phase is not Phase.DUEL:
        raise _not_now(state, command, "playing a card")
    name = _acting_player(state, actor, command.player)
    check_playable(state, name, command.card)
    return [CardPlayed(state.manche, state.duel, name, command.card)]


def _decide_end_choice(state: State, actor: str, command: ChooseEnd) -> list[Event]:
    if state.phase is not Phase.END:
        raise _not_now(state, command, "an end-of-manche choice")
    name = _acting_player(state, actor, command.player)
    if not open_choices(state, name):
        p = state.player(name)
        raise IllegalOrderError(
            f"{name} has nothing to choose at the end of manche {state.manche}: the rules"
            f" discard what is left in {name}'s hand ({p.discard_count} card"
            f"{'s' if p.discard_count > 1 else ''})",
            code="fistful/nothing-due",
            params={"player": name, "manche": state.manche, "count": p.discard_count},
        )
    p = state.player(name)
    current = state.choice_of(name)
    discards = current.discards if current is not None else None
    final = current.final if current is not None else None
    if command.discards is not None:
        chosen = _check_discards(state, p, command.discards)
        if discard_choice(p):
            discards = chosen
            final = final if final in discards else None
    if command.final is not None:
        _check_final(state, p, discards, command.final)
        if final_choice(state, p):
            final = command.final
            discards = discards if discards is not None else p.hand
    if discards is not None:
        choice = EndChoice(discards, final)
        if choice != current:
            return [EndChosen(state.manche, name, choice)]
    return []


def _check_discards(state: State, p: Player, cards: tuple[Card, ...]) -> tuple[Card, ...]:
    what = f"the discard at the end of manche {state.manche}"
    if not discard_choice(p):
        forced = p.hand if not p.pick_due else None
        if forced is not None and sort_cards(cards) == forced:
            return forced
        raise IllegalOrderError(
            f"{p.name} does not choose the discards at the end of manche {state.manche}:"
            f" the rules discard what is left in hand ({p.discard_count} card"
            f"{'s' if p.discard_count > 1 else ''})",
            code="fistful/discards-forced",
            params={"player": p.name, "count": p.discard_count, "cards": [str(c) for c in cards]},
        )
    check_count(p, cards, p.discard_count, what)
    check_in_hand(p, cards, "discard")
    return sort_cards(cards)


def _check_final(state: State, p: Player, discards: tuple[Card, ...] | None, card: Card) -> None:
    """Refuse a final-duel card that is not due, or not one of the cards discarded."""
    if not final_due(state):
        raise IllegalOrderError(
            f"no final duel at the end of manche {state.manche}: the gold is not tied",
            code="fistful/no-final-duel",
            params={"player": p.name, "card": str(card)},
        )
    if discards is None and not discard_choice(p) and not p.pick_due:
        discards = p.hand
    if discards is None:
        code, why = (
            ("fistful/pick-first", "take a card back with the green 8 first")
            if p.pick_due and not discard_choice(p)
            else ("fistful/discard-first", "choose the discards first")
        )
        raise IllegalOrderError(
            f"{p.name} cannot choose the final-duel card yet: {why}; it is one of the"
            " cards discarded",
            code=code,
            params={"player": p.name, "card": str(card)},
        )
    if card not in discards:
        raise IllegalOrderError(
            f"{card.label} is not among {p.name}'s discards ({labels(discards)}): the final"
            " duel reveals one of the cards discarded (R-5)",
            code="fistful/final-not-discarded",
            params={
                "player": p.name,
                "card": str(card),
                "discards": [str(c) for c in discards],
            },
        )


def _decide_start(state: State, actor: str, command: StartDuels) -> list[Event]:
    _require_gm(actor, command)
    if state.phase is not Phase.SETUP:
        raise _not_now(state, command, "starting the duel")
    missing = [n for n in state.names if state.setup_of(n) is None]
    if missing:
        raise PhaseError(
            f"no setup discards from {', '.join(missing)} yet: each player first discards"
            " two cards face down",
            code="fistful/waiting",
            params={"missing": missing, "waiting": owed_text(state)},
        )
    return [DuelsStarted(state.turn)]


def _decide_reveal(state: State, actor: str, command: RevealDuel) -> list[Event]:
    _require_gm(actor, command)
    if state.phase is not Phase.DUEL:
        raise _not_now(state, command, "revealing a duel")
    waiting = awaiting(state)
    if waiting:
        raise PhaseError(
            f"duel {state.duel} of manche {state.manche} cannot be revealed yet: waiting"
            f" for {owed_text(state)}",
            code="fistful/waiting",
            params={"missing": list(waiting), "waiting": owed_text(state)},
        )
    outcome = duel.resolve(state, dict(state.cards))
    return [DuelResolved(state.turn, state.manche, state.duel, outcome)]


def _decide_end(state: State, actor: str, command: EndManche) -> list[Event]:
    _require_gm(actor, command)
    if state.phase is not Phase.END:
        raise _not_now(state, command, "ending the manche")
    waiting = awaiting(state)
    if waiting:
        raise PhaseError(
            f"manche {state.manche} cannot end yet: waiting for {owed_text(state)}",
            code="fistful/waiting",
            params={"missing": list(waiting), "waiting": owed_text(state)},
        )
    return [MancheEnded(state.turn, score_manche(state))]


def score_manche(state: State) -> MancheResult:
    """The end of the current manche: final duel if the gold is tied, star, game end."""
    record = state.current
    gold_before = {p.name: p.gold for p in state.players}
    gold = dict(gold_before)
    pot = state.tie_pot
    final: Outcome | None = None
    if final_due(state):
        cards = {}
        for p in state.players:
            card = final_card(state, p)
            assert card is not None
            cards[p.name] = card
        final = duel.resolve(state, cards, final=True)
        gold = _gold_after(gold, final)
        pot = _pot_after(pot, final)
    a, b = state.names
    winner = None if gold[a] == gold[b] else (a if gold[a] > gold[b] else b)
    stars = {p.name: p.stars + (p.name == winner) for p in state.players}
    discarded: dict[str, int] = {}
    hands = []
    for p in state.players:
        discards = discards_of(state, p)
        assert discards is not None
        discarded[p.name] = len(discards)
        hands.append(len(p.hand) - len(discards) + len(p.played))
    next_hand = min(hands)  # the same for both: every manche costs each player one card
    game_end: GameEnd | None = None
    winners: tuple[str, ...] = ()
    champions = tuple(n for n in state.names if stars[n] >= state.target)
    if champions:
        game_end, winners = GameEnd.STARS, champions
    elif next_hand <= 1:  # no duel possible with one card
        game_end = GameEnd.EXHAUSTION
        winners = () if stars[a] == stars[b] else ((a,) if stars[a] > stars[b] else (b,))
    return MancheResult(
        manche=state.manche,
        ended_by=record.ended_by or MancheEnd.LAST_DUEL,
        duels=len(record.duels),
        gold_before=gold_before,
        final=final,
        gold=gold,
        tie_pot=pot,
        winner=winner,
        stars=stars,
        discarded=discarded,
        next_hand=next_hand,
        game_end=game_end,
        winners=winners,
    )


def _gold_after(gold: dict[str, int], outcome: Outcome) -> dict[str, int]:
    out = dict(gold)
    if outcome.winner is not None:
        out[outcome.winner] += outcome.gold
    if outcome.claimed_by is not None:
        out[outcome.claimed_by] += outcome.claimed
    if outcome.tie_to is not None:
        out[outcome.tie_to] += outcome.tie_gold
    return out


def _pot_after(pot: int, outcome: Outcome) -> int:
    if outcome.claimed_by is not None:
        pot = 0
    if outcome.tie_gold and outcome.tie_to is None:
        pot += outcome.tie_gold
    return pot


# --- evolve ------------------------------------------------------------------


def evolve(state: State, event: Event) -> State:
    """Apply one event to the state."""
    match event:
        case SetupDiscarded():
            setup = dict(state.setup)
            setup[event.player] = event.cards
            return replace(state, setup=_seated(state, setup))
        case DuelsStarted():
            return _evolve_started(state)
        case CardPlayed():
            cards = dict(state.cards)
            cards[event.player] = event.card
            return replace(state, cards=_seated(state, cards))
        case CardPicked():
            p = state.player(event.player)
            p = replace(
                p,
                hand=sort_cards((*p.hand, event.card)),
                removed=remove_cards(p.removed, [event.card]),
                pick_due=False,
            )
            record = state.current
            record = replace(record, picks=(*record.picks, Pick(event.round, p.name, event.card)))
            return state.with_player(p).with_record(record)
        case DuelResolved():
            return _evolve_duel(state, event)
        case EndChosen():
            choices = dict(state.choices)
            choices[event.player] = event.choice
            return replace(state, choices=_seated(state, choices))
        case MancheEnded():
            return _evolve_manche_end(state, event.result)
    raise TypeError(f"not a fistful event: {event!r}")


def _seated(state: State, values: dict[str, Any]) -> tuple[tuple[str, Any], ...]:
    return tuple((n, values[n]) for n in state.names if n in values)


def _evolve_started(state: State) -> State:
    discards = dict(state.setup)
    players = tuple(
        replace(p, hand=remove_cards(p.hand, discards[p.name]), removed=discards[p.name])
        for p in state.players
    )
    hand = min(len(p.hand) for p in players)
    record = MancheRecord(number=1, hand_size=hand, planned=hand - 1, start_turn=state.turn + 1)
    return replace(
        state,
        players=players,
        phase=Phase.DUEL,
        turn=state.turn + 1,
        manche=1,
        duel=1,
        setup=(),
        setup_discards=state.setup,
        history=(record,),
    )


def _evolve_duel(state: State, event: DuelResolved) -> State:
    outcome = event.outcome
    gains = _gold_after({n: 0 for n in state.names}, outcome)
    kinds = {(power.kind, power.player) for power in outcome.powers}
    players = []
    for p in state.players:
        card = outcome.cards[p.name]
        p = replace(
            p,
            hand=remove_cards(p.hand, [card]),
            played=(*p.played, card),
            gold=p.gold + gains[p.name],
            bonus=p.bonus or (PowerKind.GREEN_SEVEN, p.name) in kinds,
        )
        if (PowerKind.GREEN_EIGHT, p.name) in kinds:
            p = replace(p, eight=True, pick_due=True)
        players.append(p)
    after = replace(
        state,
        players=tuple(players),
        tie_pot=_pot_after(state.tie_pot, outcome),
        tie_owner=outcome.claimed_by or state.tie_owner,
        tie_blocked=state.tie_blocked
        or any(power.kind is PowerKind.SIX_BLOCKED for power in outcome.powers),
    )
    ended = duel.ends_manche(state, outcome)
    record = state.current
    duel_record = DuelRecord(
        turn=event.round,
        number=event.duel,
        outcome=outcome,
        gold={p.name: p.gold for p in players},
        tie_pot=after.tie_pot,
        tie_owner=after.tie_owner,
        tie_blocked=after.tie_blocked,
        hands={p.name: len(p.hand) for p in players},
    )
    record = replace(record, duels=(*record.duels, duel_record))
    if ended:
        ended_by = (
            MancheEnd.RED_SEVEN
            if any(power.kind is PowerKind.RED_SEVEN_END for power in outcome.powers)
            else MancheEnd.LAST_DUEL
        )
        record = replace(record, ended_by=ended_by, end_turn=state.turn + 1)
        after = replace(
            after.with_record(record), phase=Phase.END, turn=state.turn + 1, cards=(), choices=()
        )
    else:
        after = replace(
            after.with_record(record), turn=state.turn + 1, duel=state.duel + 1, cards=()
        )
    owed = {n: owes(after, n) for n in after.names}
    record = replace(record, duels=(*record.duels[:-1], replace(duel_record, owed=owed)))
    return after.with_record(record)


def _evolve_manche_end(state: State, result: MancheResult) -> State:
    chosen = dict(state.choices)
    players = []
    discarded: dict[str, tuple[Card, ...]] = {}
    for p in state.players:
        discards = discards_of(state, p)
        assert discards is not None
        discarded[p.name] = discards
        players.append(
            replace(
                p,
                hand=sort_cards((*remove_cards(p.hand, discards), *p.played)),
                played=(),
                removed=sort_cards((*p.removed, *discards)),
                gold=0,
                stars=result.stars[p.name],
                bonus=False,
                eight=False,
                pick_due=False,
            )
        )
    record = replace(
        state.current,
        result=result,
        choices=_seated(state, chosen),
        discards=_seated(state, discarded),
    )
    after = replace(
        state,
        players=tuple(players),
        history=(*state.history[:-1], record),
        choices=(),
        cards=(),
        tie_pot=0,
        tie_owner=None,
        tie_blocked=False,
    )
    if result.game_end is not None:
        return replace(after, phase=Phase.OVER, game_end=result.game_end, winners=result.winners)
    hand = result.next_hand
    following = MancheRecord(
        number=state.manche + 1, hand_size=hand, planned=hand - 1, start_turn=state.turn + 1
    )
    return replace(
        after,
        phase=Phase.DUEL,
        turn=state.turn + 1,
        manche=state.manche + 1,
        duel=1,
        history=(*after.history, following),
    )


# --- defaults ------------------------------------------------------------------


def default_for(state: State, player: str) -> Command:
    """R-8: the rules' default for ``player``'s missing choice (``gm default``).

    The game help is silent and nothing here is drawn, so the default is the
    most neutral legal choice, the same for everyone: the first cards in
    deck order (1 … 8, then the Dynamite). Setup: the two first cards of the
    hand; a duel: the first playable card (not the forbidden one, R-1); a
    green-8 pick: the first card of the removed pile, made before anything
    else owed; a red-7 end: the first cards of the hand; the final-duel card
    (R-5): the first of the discards. One default answers one thing owed: a
    player who owes a pick and a card gets the pick, then the card."""
    name = find_player(state, player)
    owed = owes(state, name)
    if not owed:
        raise PhaseError(
            f"nothing is due from {name} now ({phase_key(state)}); next: {next_step(state)}",
            code="fistful/nothing-owed",
            params={"player": name, "phase_key": phase_key(state)},
        )
    p = state.player(name)
    if "pick" in owed:
        return PickCard(name, sort_cards(p.removed)[0])
    if "setup" in owed:
        return DiscardAtSetup(name, sort_cards(p.hand)[:SETUP_DISCARDS])
    if "card" in owed:
        banned = forbidden(state, name)
        return PlayCard(name, next(c for c in sort_cards(p.hand) if c is not banned))
    if "discard" in owed:
        discards = sort_cards(p.hand)[: p.discard_count]
        return ChooseEnd(name, discards, discards[0] if final_choice(state, p) else None)
    chosen = discards_of(state, p)
    assert chosen is not None  # a final card is owed only once the discards are known
    return ChooseEnd(name, None, sort_cards(chosen)[0])
