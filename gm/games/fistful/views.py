"""What templates and scripts may see: public views per post, the player view, the summary.

Every view is a plain dict of JSON-able values (lists, not tuples; cards as
``"1"``…``"8"``, ``"dynamite"``). Public views are built from the manche
records only, so a post renders the same today and after the game. They
hold a card only where the forum saw it: both cards of a revealed duel, a
card a green 8 took back, both cards of a final duel; never a hand, a
removed pile, a setup or end-of-manche discard or a pending choice, except
in the ``disclosure`` post once the game is over. Lists of players follow
the seating order.

The summary (``docs/scenarios.md``): a manche's ``gold`` is each player's
gold at its end (the final duel and the tie gold a 6 took included), its
``tie_pot`` the tie gold nobody took, so that the two add up to all the
gold the manche put on the table; a duel's ``gold`` is what its winner took
from the duel itself, the green 7's +1 included, the tie pot a 6 claimed in
it apart (``claimed``). ``duels`` holds the regular duels only, one per
``[[duels]]`` entry of a scenario; a final duel is the manche's
``final_duel``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gm.core.protocol import PostRef, Table, table_for
from gm.errors import NotFoundError, PhaseError

from .cards import DECK, SETUP_DISCARDS, Card, forbidden_after, remove_cards
from .manifest import INFO
from .model import (
    FIRST_HAND,
    DuelRecord,
    MancheRecord,
    Outcome,
    Phase,
    Pick,
    State,
)
from .phases import (
    discard_choice,
    final_choice,
    final_due,
    find_player,
    forbidden,
    owes,
    phase_key,
)

POST_KINDS = tuple(k.name for k in INFO.post_kinds)


def _names(state: State, nm: Name) -> list[dict[str, str]]:
    return [{"name": nm(p.name), "color": str(p.color)} for p in state.players]


def _color(state: State, name: str) -> str:
    return str(state.player(name).color)


def _per_player(state: State, nm: Name, values: dict[str, Any], key: str) -> list[dict[str, Any]]:
    return [
        {"player": nm(n), "color": _color(state, n), key: values[n]}
        for n in state.names
        if n in values
    ]


Name = Callable[[str], str]
"""A seat's current name (``Table.name``): what views print for a player."""


def _opt(nm: Name, seat: str | None) -> str | None:
    return None if seat is None else nm(seat)


def _cards(cards: tuple[Card, ...] | list[Card]) -> list[str]:
    return [str(c) for c in cards]


def public_view(state: State, post: PostRef, table: Table | None = None) -> dict[str, Any]:
    """The content of one public post, players by their names at ``table``.

    :raises NotFoundError: unknown kind, or coordinates that have no such post (yet).
    :raises PhaseError: the disclosure before the end of the game.
    """
    nm = table_for(table, state.names).name
    base: dict[str, Any] = {
        "game": "fistful",
        "kind": post.kind,
        "at": list(post.at),
        "players": _names(state, nm),
        "length": str(state.length),
        "target": state.target,
    }
    if post.kind in ("opening", "rules"):  # the full rules (gm post rules) read the same
        return base | _opening()
    if post.kind == "setup":
        if state.phase is Phase.SETUP:
            raise _no_post(state, post)
        return base | _setup(state)
    if post.kind == "duel":
        found = _duel_at(state, post.at)
        if found is None:
            raise _no_post(state, post)
        return base | _duel(state, nm, *found)
    if post.kind == "manche":
        done = [r for r in state.history if r.result is not None and post.at in ((), (r.number,))]
        if not done:
            raise _no_post(state, post)
        return base | _manche(state, nm, done[-1])
    if post.kind == "final":
        if state.phase is not Phase.OVER:
            raise _no_post(state, post)
        return base | _final(state, nm)
    if post.kind == "disclosure":
        if state.phase is not Phase.OVER:
            raise PhaseError(
                f"the cards are disclosed only when the game is over (now at {phase_key(state)!r})",
                code="fistful/disclosure-early",
                params={"phase": phase_key(state)},
            )
        return base | _disclosure(state, nm)
    raise NotFoundError(
        f"fistful has no post {post.kind!r} (posts: {', '.join(POST_KINDS)})",
        code="fistful/unknown-post",
        params={"kind": post.kind, "kinds": list(POST_KINDS)},
    )


def _no_post(state: State, post: PostRef) -> NotFoundError:
    where = f" at {post.address}" if post.at else ""
    return NotFoundError(
        f"no {post.kind} post{where}: the game is at {phase_key(state)!r}",
        code="fistful/no-such-post",
        params={"kind": post.kind, "at": list(post.at)},
    )


def _duel_at(state: State, at: tuple[int, ...]) -> tuple[MancheRecord, DuelRecord] | None:
    """The duel at ``(manche, duel)``; the latest duel when ``at`` is empty."""
    found = None
    for record in state.history:
        for d in record.duels:
            if not at or at == (record.number, d.number):
                found = (record, d)
    return found


def _opening() -> dict[str, Any]:
    return {
        "deck": _cards(DECK),
        "setup_discards": SETUP_DISCARDS,
        "first_hand": FIRST_HAND,
        "first_duels": FIRST_HAND - 1,
    }


def _setup(state: State) -> dict[str, Any]:
    first = state.history[0]
    return {"manche": 1, "hand": first.hand_size, "duels": first.planned}


def outcome_view(state: State, outcome: Outcome, nm: Name) -> dict[str, Any]:
    """A duel's public result, for posts (``nm``: a seat's name to show)."""
    numbers = [c.number for c in outcome.cards.values()]
    gap = abs(numbers[0] - numbers[1]) if None not in numbers else None  # type: ignore[operator]
    loser = None
    if outcome.winner is not None:
        loser = next(n for n in state.names if n != outcome.winner)
    return {
        "cards": [
            {"player": nm(n), "color": _color(state, n), "card": str(outcome.cards[n])}
            for n in state.names
        ],
        "winner": _opt(nm, outcome.winner),
        "loser": _opt(nm, loser),
        "reason": str(outcome.reason),
        "gap": gap,
        "base": outcome.base,
        "bonus": outcome.bonus,
        "gold": outcome.gold,
        "tie": outcome.tie_gold > 0,
        "tie_gold": outcome.tie_gold,
        "tie_to": _opt(nm, outcome.tie_to),
        "claimed_by": _opt(nm, outcome.claimed_by),
        "claimed": outcome.claimed,
        "powers": [
            {
                "kind": str(p.kind),
                "player": nm(p.player),
                "color": _color(state, p.player),
                "card": str(p.card),
                "gold": p.gold,
            }
            for p in outcome.powers
        ],
        "final": outcome.final,
    }


def _picks(
    state: State, nm: Name, picks: tuple[Pick, ...], turn: int | None
) -> list[dict[str, str]]:
    return [
        {"player": nm(k.player), "color": _color(state, k.player), "card": str(k.card)}
        for k in picks
        if k.turn == turn
    ]


def _duel(state: State, nm: Name, record: MancheRecord, d: DuelRecord) -> dict[str, Any]:
    ended = d is record.duels[-1] and record.ended_by is not None
    forbidden_next = []
    if not ended:
        for n in state.names:
            banned = forbidden_after(d.outcome.cards[n])
            if banned is not None:
                forbidden_next.append(
                    {"player": nm(n), "color": _color(state, n), "card": str(banned)}
                )
    a, b = state.names
    return {
        "manche": record.number,
        "duel": d.number,
        "duels": record.planned,
        "last": d.number == record.planned,
        **outcome_view(state, d.outcome, nm),
        "picked": _picks(state, nm, record.picks, d.turn),
        "gold_after": _per_player(state, nm, d.gold, "gold"),
        "tie_pot": d.tie_pot,
        "tie_owner": _opt(nm, d.tie_owner),
        "tie_blocked": d.tie_blocked,
        "hands": _per_player(state, nm, d.hands, "cards"),
        "ended": ended,
        "ended_by": str(record.ended_by) if ended and record.ended_by else None,
        "next_duel": None if ended else d.number + 1,
        "forbidden_next": forbidden_next,
        "final_due": ended and d.gold[a] == d.gold[b],
        "owed": [
            {"player": nm(n), "color": _color(state, n), "what": list(d.owed.get(n, ()))}
            for n in state.names
            if d.owed.get(n)
        ],
    }


def _manche(state: State, nm: Name, record: MancheRecord) -> dict[str, Any]:
    result = record.result
    assert result is not None
    winner = result.winner
    return {
        "manche": record.number,
        "ended_by": str(result.ended_by),
        "duels_played": result.duels,
        "duels": record.planned,
        "picked": _picks(state, nm, record.picks, record.end_turn),
        "gold_before": _per_player(state, nm, result.gold_before, "gold"),
        "final": outcome_view(state, result.final, nm) if result.final is not None else None,
        "gold": _per_player(state, nm, result.gold, "gold"),
        "tie_pot": result.tie_pot,
        "winner": _opt(nm, winner),
        "loser": None if winner is None else nm(next(n for n in state.names if n != winner)),
        "stars": _per_player(state, nm, result.stars, "stars"),
        # the gold of the manche duel by duel (the final duel last), for the chart
        "chart_labels": _labels(
            f"Or de la manche {record.number}, duel par duel", "duel", "Or", "or"
        ),
        "chart": [
            {
                "name": nm(n),
                "value": result.gold[n],
                "history": [d.gold[n] for d in record.duels]
                + ([result.gold[n]] if result.final is not None else []),
            }
            for n in state.names
        ],
        "discarded": _per_player(state, nm, result.discarded, "count"),
        "game_over": result.game_end is not None,
        "game_end": str(result.game_end) if result.game_end else None,
        "winners": [nm(w) for w in result.winners],
        "next": None
        if result.game_end is not None
        else {
            "manche": record.number + 1,
            "cards": result.next_hand,
            "duels": result.next_hand - 1,
        },
    }


def shown_in_manche(state: State, number: int) -> tuple[str, ...]:
    """The players whose end-of-manche choice the manche post shows in full:
    a single discard, revealed in the final duel (R-5)."""
    record = state.history[number - 1] if 0 < number <= len(state.history) else None
    if record is None or record.result is None or record.result.final is None:
        return ()
    choices = dict(record.choices)
    return tuple(n for n in state.names if n in choices and len(choices[n].discards) == 1)


def _final(state: State, nm: Name) -> dict[str, Any]:
    played = [r for r in state.history if r.result is not None]
    stars = {p.name: p.stars for p in state.players}
    return {
        "reason": str(state.game_end) if state.game_end else None,
        "winners": [nm(w) for w in state.winners],
        "stars": _per_player(state, nm, stars, "stars"),
        # the stars, and the gold each player ended each manche with, for the chart
        "chart_labels": _labels("Or de chaque manche", "manche", "Étoiles de shérif", "or"),
        "chart": [
            {
                "name": nm(n),
                "value": stars[n],
                "history": [r.result.gold[n] for r in played if r.result is not None],
            }
            for n in state.names
        ],
        "manches_played": len(played),
        "manches": [
            {
                "number": r.number,
                "winner": _opt(nm, r.result.winner),
                "gold": _per_player(state, nm, r.result.gold, "gold"),
                "final": r.result.final is not None,
                "ended_by": str(r.result.ended_by),
            }
            for r in played
            if r.result is not None
        ],
    }


def _disclosure(state: State, nm: Name) -> dict[str, Any]:
    manches = []
    for record in state.history:
        if record.result is None:
            continue
        choices = dict(record.choices)
        manches.append(
            {
                "number": record.number,
                "end_turn": record.end_turn,
                "duels": [
                    {
                        "duel": d.number,
                        "turn": d.turn,
                        "cards": [
                            {
                                "player": nm(n),
                                "color": _color(state, n),
                                "card": str(d.outcome.cards[n]),
                            }
                            for n in state.names
                        ],
                    }
                    for d in record.duels
                ],
                "picks": [
                    {"player": nm(k.player), "color": _color(state, k.player), "card": str(k.card)}
                    for k in record.picks
                ],
                "discards": [
                    {
                        "player": nm(n),
                        "color": _color(state, n),
                        "cards": _cards(cards),
                        "chosen": n in choices,
                    }
                    for n, cards in record.discards
                ],
                "final": None
                if record.result.final is None
                else [
                    {
                        "player": nm(n),
                        "color": _color(state, n),
                        "card": str(record.result.final.cards[n]),
                    }
                    for n in state.names
                ],
            }
        )
    return {
        "setup": [
            {"player": nm(n), "color": _color(state, n), "cards": _cards(cards)}
            for n, cards in state.setup_discards
        ],
        "manches": manches,
        "hands": [
            {
                "player": nm(p.name),
                "color": str(p.color),
                "hand": _cards(p.hand),
                "removed": _cards(p.removed),
            }
            for p in state.players
        ],
    }


def player_view(state: State, player: str, table: Table | None = None) -> dict[str, Any]:
    """What the seat ``player`` may know: their own cards and choices, and the
    public standing, players by their names at ``table``."""
    nm = table_for(table, state.names).name
    name = find_player(state, player)
    p = state.player(name)
    other = state.opponent(name)
    card = state.card_of(name)
    choice = state.choice_of(name)
    running = state.phase in (Phase.DUEL, Phase.END)
    picked = [
        k.card
        for k in (state.current.picks if state.history else ())
        if k.player == name and k.turn == state.turn
    ]
    banned = forbidden(state, name)
    lifted = (
        state.phase is Phase.DUEL
        and banned is None
        and forbidden_after(p.last) is not None
        and set(p.hand) == {forbidden_after(p.last)}
    )
    forced = None
    if state.phase is Phase.END and not discard_choice(p) and not p.pick_due:
        forced = _cards(p.hand)
    return {
        "game": "fistful",
        "player": nm(name),
        "color": str(p.color),
        "opponent": nm(other.name),
        "opponent_color": str(other.color),
        "phase": str(state.phase),
        "phase_key": phase_key(state),
        "turn": state.turn,
        "manche": state.manche,
        "duel": state.duel if state.phase is Phase.DUEL else None,
        "duels": state.current.planned if state.history else None,
        "hand": _cards(p.hand),
        "removed": _cards(p.removed),
        "played": _cards(p.played),
        "setup": _cards(state.setup_of(name) or ()) if state.phase is Phase.SETUP else [],
        "keeps": _cards(remove_cards(p.hand, state.setup_of(name) or ()))
        if state.phase is Phase.SETUP
        else _cards(p.hand),
        "card": str(card) if card is not None else None,
        "forbidden": str(banned) if banned is not None else None,
        "forbidden_because": str(p.last) if banned is not None and p.last else None,
        "lifted": lifted,
        "forbidden_next": str(forbidden_after(card)) if forbidden_after(card) else None,
        "pick_due": p.pick_due,
        "picked": str(picked[-1]) if picked else None,
        "discard_count": p.discard_count,
        "discard_choice": state.phase is Phase.END and discard_choice(p),
        "forced_discards": forced,
        "final_due": final_due(state),
        "final_choice": final_choice(state, p),
        "choice": None
        if choice is None
        else {
            "discards": _cards(choice.discards),
            "final": str(choice.final) if choice.final is not None else None,
        },
        "owes": list(owes(state, name)),
        "awaited": bool(owes(state, name)),
        "gold": p.gold if running else 0,
        "opponent_gold": other.gold if running else 0,
        "tie_pot": state.tie_pot,
        "tie_owner": _opt(nm, state.tie_owner),
        "stars": p.stars,
        "opponent_stars": other.stars,
        "target": state.target,
        "over": state.phase is Phase.OVER,
        "winners": [nm(w) for w in state.winners],
    }


def _duel_summary(state: State, outcome: Outcome, nm: Name) -> dict[str, Any]:
    return {
        "cards": {nm(n): str(outcome.cards[n]) for n in state.names},
        "winner": _opt(nm, outcome.winner),
        "gold": outcome.gold,
        "reason": str(outcome.reason),
        "bonus": outcome.bonus,
        "tie": outcome.tie_gold > 0,
        "claimed": None
        if outcome.claimed_by is None
        else {"player": nm(outcome.claimed_by), "gold": outcome.claimed},
        "powers": [str(p.kind) for p in outcome.powers],
    }


def summary(state: State, table: Table | None = None) -> dict[str, Any]:
    """The JSON summary of ``docs/scenarios.md`` (the service adds ``campaign``),
    players by their names at ``table``."""
    nm = table_for(table, state.names).name
    over = state.phase is Phase.OVER
    manches = []
    for record in state.history:
        result = record.result
        if result is None and state.phase is Phase.OVER:
            continue
        if result is not None:
            gold, tie_pot = result.gold, result.tie_pot
        else:
            gold, tie_pot = {p.name: p.gold for p in state.players}, state.tie_pot
        manches.append(
            {
                "number": record.number,
                "gold": {nm(n): gold[n] for n in state.names},
                "tie_pot": tie_pot,
                "winner": _opt(nm, result.winner) if result is not None else None,
                "duels": [_duel_summary(state, d.outcome, nm) for d in record.duels],
                "final_duel": _duel_summary(state, result.final, nm)
                if result is not None and result.final is not None
                else None,
                "finished": result is not None,
                "ended_by": str(record.ended_by) if record.ended_by else None,
                "cards": record.hand_size,
            }
        )
    return {
        "game": "fistful",
        "finished": over,
        "winners": [nm(w) for w in state.winners] if over else [],
        "stars": {nm(p.name): p.stars for p in state.players},
        "manches": manches,
        "phase": phase_key(state),
        "length": str(state.length),
        "target": state.target,
        "reason": str(state.game_end) if state.game_end else None,
        "players": [
            {
                "name": nm(p.name),
                "color": str(p.color),
                "stars": p.stars,
                "gold": p.gold if state.phase in (Phase.DUEL, Phase.END) else 0,
                "hand": len(p.hand),
                "removed": len(p.removed),
            }
            for p in state.players
        ],
    }


def _labels(lines: str, axis: str, bars: str, unit: str) -> dict[str, str]:
    """The French words of the chart's image (``gm chart``): the lines' title,
    their axis, the bars' title, and what the lines count."""
    return {"lines": lines, "axis": axis, "bars": bars, "unit": unit}
