"""What templates and scripts may see: public, player and summary views.

Every view is a plain dict of JSON-able values (lists, not tuples). Public
views are built from the round history only, so a post renders the same
today and after the game (``gm verify`` re-renders old posts). They never
hold an option of an order except in a ``shots`` entry (a live order of a
resolved round, whose order the results post opens: ``game.shown``) or in the
``disclosure`` post (after the end); nor how many options anyone has left,
which would betray lowered and held orders (R-5).

Money is in dollars; bill lists are sorted largest first; lists of players
follow the seating order unless they are rankings.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from gm.core.protocol import PostRef, Table, table_for
from gm.errors import NotFoundError, PhaseError

from .manifest import INFO
from .model import (
    BILLS_PER_ROUND,
    INITIAL_STOCK,
    MAX_WOUNDS,
    OPTIONS,
    SHAME_PENALTY,
    Aim,
    Gangster,
    Option,
    Phase,
    RoundRecord,
    Standing,
    State,
    sort_bills,
)
from .rules import awaiting, bills_purpose, find_player, phase_key, ranking, winners

POST_KINDS = tuple(k.name for k in INFO.post_kinds)

_VOLLEY = {Option.TRIPLE: 1, Option.BANG: 2, Option.CLICK: 3}


Name = Callable[[str], str]
"""A seat's current name (``Table.name``): what views print for a player."""


def public_view(state: State, post: PostRef, table: Table | None = None) -> dict[str, Any]:
    """The content of one public post, players by their names at ``table``.

    :raises NotFoundError: unknown kind, or a round that has no such post (yet).
    :raises PhaseError: the disclosure before the end of the game.
    """
    n = table_for(table, state.names).name
    base: dict[str, Any] = {
        "game": "magot",
        "kind": post.kind,
        "round": post.round,
        "rounds": state.rounds,
        "players": [n(p) for p in state.names],
    }
    if post.kind in ("opening", "rules"):  # the rules post shows what the opening shows
        return base | _opening(state)
    if post.kind == "final":
        if state.phase is not Phase.OVER:
            raise NotFoundError(
                f"no final post yet: the game is at {phase_key(state)!r}",
                code="magot/no-such-post",
                params={"kind": post.kind, "round": None},
            )
        return base | _final(state, n)
    if post.kind == "disclosure":
        if state.phase is not Phase.OVER:
            raise PhaseError(
                "the orders are disclosed only when the game is over"
                f" (now at {phase_key(state)!r})",
                code="magot/disclosure-early",
                params={"phase": phase_key(state)},
            )
        return base | _disclosure(state, n)
    if post.kind not in POST_KINDS:
        raise NotFoundError(
            f"magot has no post {post.kind!r} (posts: {', '.join(POST_KINDS)})",
            code="magot/unknown-post",
            params={"kind": post.kind, "kinds": list(POST_KINDS)},
        )
    record = _record_for(state, post)
    if post.kind == "round":
        return base | _round(state, record, n)
    if post.kind == "reveal":
        return base | _reveal(record, n)
    return base | _results(state, record, n)


def _record_for(state: State, post: PostRef) -> RoundRecord:
    number = post.round if post.round is not None else state.round
    record = state.history[number - 1] if 1 <= number <= len(state.history) else None
    ready = record is not None and (
        post.kind == "round"
        or (post.kind == "reveal" and record.revealed)
        or (post.kind == "results" and record.resolution is not None)
    )
    if record is None or not ready:
        raise NotFoundError(
            f"no {post.kind} post for round {number}: the game is at {phase_key(state)!r}",
            code="magot/no-such-post",
            params={"kind": post.kind, "round": number},
        )
    return record


def _bills(bills: Sequence[int]) -> list[int]:
    return list(sort_bills(list(bills)))


def _opening(state: State) -> dict[str, Any]:
    return {
        "loot": [{"value": v, "count": c} for v, c in state.loot],
        "loot_total": state.initial_loot,
        "loot_bills": sum(c for _, c in state.loot),
        "bills_per_round": BILLS_PER_ROUND,
        "stock": {str(o): INITIAL_STOCK[o] for o in OPTIONS},
        "max_wounds": MAX_WOUNDS,
        "shame_penalty": SHAME_PENALTY,
    }


def _round(state: State, record: RoundRecord, n: Name) -> dict[str, Any]:
    drawn_so_far = [b for r in state.history[: record.number] for b in r.drawn]
    return {
        "pot": sum(record.pot),
        "pot_bills": _bills(record.pot),
        "carried": _bills(record.carried),
        "carried_total": sum(record.carried),
        "drawn": _bills(record.drawn),
        "drawn_total": sum(record.drawn),
        "manual": record.manual,
        # the fortune's stream of these bills (None when drawn by hand, R-2)
        "draw": None if record.manual else bills_purpose(record.number),
        "deck_left": sum(c for _, c in state.loot) - len(drawn_so_far),
        "deck_left_total": state.initial_loot - sum(drawn_so_far),
        "awaiting": [n(p) for p in record.alive],
        "first": record.number == 1,
        "last": record.number == state.rounds,
    }


def _aims(aims: Sequence[Aim], n: Name) -> list[dict[str, str]]:
    return [{"shooter": n(a.shooter), "target": n(a.target)} for a in aims]


def _reveal(record: RoundRecord, n: Name) -> dict[str, Any]:
    return {
        "aims": _aims(record.aims, n),
        "missing": [n(p) for p in record.missing],
        "forced": record.forced,
        "aimed_at": [
            {"player": n(p), "shooters": [n(a.shooter) for a in record.aims if a.target == p]}
            for p in record.alive
        ],
        "alive": [n(p) for p in record.alive],
        "pot": sum(record.pot),
        "pot_bills": _bills(record.pot),
    }


def _deaths(state: State, upto: int) -> dict[str, int]:
    """Who died in rounds 1..upto, and when."""
    deaths: dict[str, int] = {}
    for record in state.history[:upto]:
        if record.resolution is not None:
            for wound in record.resolution.wounds:
                if wound.dead:
                    deaths[wound.player] = record.number
    return deaths


def _standing_rows(
    players: Sequence[Standing], deaths: dict[str, int], n: Name
) -> list[dict[str, Any]]:
    by_name = {p.player: p for p in players}
    rows = []
    for name, rank in ranking(players):
        p = by_name[name]
        loot = sum(p.bills)
        rows.append(
            {
                "rank": rank,
                "seat": name,  # dropped below: the chart and the final look seats up
                "player": n(name),
                "loot": loot,
                "bills": list(p.bills),
                "wounds": p.wounds,
                "shame": p.shame,
                "score": loot - SHAME_PENALTY * p.shame,
                "alive": p.alive,
                "death_round": deaths.get(name),
            }
        )
    return rows


def _as_standings(players: Sequence[Gangster]) -> tuple[Standing, ...]:
    return tuple(Standing(g.name, g.bills, g.wounds, g.shame, g.alive) for g in players)


def _chart(state: State, rows: list[dict[str, Any]], upto: int) -> list[dict[str, Any]]:
    """The money over the rounds, for the chart: each player of ``rows`` (in
    their order) with their loot now and after each round up to ``upto``."""
    by_round = [
        {s.player: sum(s.bills) for s in record.standings}
        for record in state.history[:upto]
        if record.resolution is not None
    ]
    return [
        {
            "name": row["player"],
            "value": row["loot"],
            "history": [loot.get(row["seat"], 0) for loot in by_round],
        }
        for row in rows
    ]


def _without_seats(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Standings as views show them: players by name only."""
    return [{k: v for k, v in row.items() if k != "seat"} for row in rows]


def _results(state: State, record: RoundRecord, n: Name) -> dict[str, Any]:
    result = record.resolution
    assert result is not None
    ended = state.phase is Phase.OVER and state.round == record.number
    standings = _standing_rows(record.standings, _deaths(state, record.number), n)
    return {
        "pot": sum(record.pot),
        "pot_bills": _bills(record.pot),
        "missing": [n(p) for p in record.missing],
        "folded": [n(p) for p in result.folded],
        "lowered": _aims(result.lowered, n),
        "held": _aims(result.held, n),
        "disabled": _aims(result.disabled, n),
        "shots": [
            {
                "shooter": n(s.shooter),
                "target": n(s.target),
                "option": str(s.option),
                "volley": _VOLLEY[s.option],
                "wounds": s.option is not Option.CLICK,
            }
            for s in result.shots
        ],
        "wounded": [
            {"player": n(w.player), "taken": w.taken, "total": w.total, "dead": w.dead}
            for w in result.wounds
        ],
        "killed": [n(w.player) for w in result.wounds if w.dead],
        "sharers": [
            {"player": n(p.player), "bills": list(p.bills), "total": sum(p.bills)}
            for p in result.portions
        ],
        "share": result.share,
        "shared_total": result.share * len(result.portions),
        "carry": list(result.carry),
        "carry_total": sum(result.carry),
        "standings": _without_seats(standings),
        "shame_penalty": SHAME_PENALTY,
        "chart": _chart(state, standings, record.number),
        "chart_labels": _labels("Butin tour par tour", "tour", "Butin", "$"),
        "ended": ended,
        "end_reason": str(state.end_reason) if ended and state.end_reason else None,
        "lost": list(result.carry) if ended else [],
    }


def _final(state: State, n: Name) -> dict[str, Any]:
    won = set(winners(state))
    rows = _standing_rows(_as_standings(state.players), _deaths(state, len(state.history)), n)
    for row in rows:
        row["winner"] = row["seat"] in won
    return {
        "reason": str(state.end_reason) if state.end_reason else None,
        "rounds_played": state.round,
        "winners": [n(p) for p in state.names if p in won],
        "survivors": [n(p) for p in state.living],
        "ranking": _without_seats(rows),
        "chart": _chart(state, rows, len(state.history)),
        "chart_labels": _labels("Butin tour par tour", "tour", "Butin final", "$"),
        "lost": list(state.pot),
        "lost_total": sum(state.pot),
    }


def _disclosure(state: State, n: Name) -> dict[str, Any]:
    rounds = []
    for record in state.history:
        if not record.revealed:
            continue
        fates: dict[str, str] = {}
        if record.resolution is not None:
            for fate, aims in (
                ("lowered", record.resolution.lowered),
                ("held", record.resolution.held),
                ("disabled", record.resolution.disabled),
            ):
                for aim in aims:
                    fates[aim.shooter] = fate
        rounds.append(
            {
                "round": record.number,
                "orders": [
                    {
                        "shooter": n(shooter),
                        "target": n(order.target),
                        "option": str(order.option),
                        "fate": fates.get(shooter, "fired"),
                    }
                    for shooter, order in record.orders
                ],
                "missing": [n(p) for p in record.missing],
            }
        )
    return {"orders": rounds}


def player_view(state: State, player: str, table: Table | None = None) -> dict[str, Any]:
    """What the seat ``player`` may know: their own status, order and the
    public standings, players by their names at ``table``."""
    n = table_for(table, state.names).name
    name = find_player(state, player)
    g = state.player(name)
    order = state.order_of(name)
    after = g.spend(order.option) if order is not None else g
    choice = "fold" if name in state.folds else "stay" if name in state.stays else None
    return {
        "game": "magot",
        "player": n(name),
        "round": state.round,
        "rounds": state.rounds,
        "phase": str(state.phase),
        "phase_key": phase_key(state),
        "alive": g.alive,
        "death_round": g.death_round,
        "wounds": g.wounds,
        "shame": g.shame,
        "bills": list(g.bills),
        "loot": g.loot,
        "score": g.score,
        "options": g.options_left(),
        "options_after": after.options_left(),
        "order": None
        if order is None
        else {"target": n(order.target), "option": str(order.option)},
        "choice": choice,
        "awaited": name in awaiting(state),
        "pot": sum(state.pot),
        "pot_bills": list(state.pot),
        "standings": _without_seats(
            _standing_rows(_as_standings(state.players), _deaths(state, len(state.history)), n)
        ),
    }


def summary(state: State, table: Table | None = None) -> dict[str, Any]:
    """The JSON summary of ``docs/scenarios.md`` (the service adds ``campaign``),
    players by their names at ``table``."""
    n = table_for(table, state.names).name
    over = state.phase is Phase.OVER
    ranks = dict(ranking(state.players))
    rounds = []
    for record in state.history:
        result = record.resolution
        entry: dict[str, Any] = {
            "number": record.number,
            "drawn": _bills(record.drawn),
            "manual": record.manual,
            "pot": sum(record.pot),
            "resolved": result is not None,
            "folded": [],
            "wounded": [],
            "killed": [],
            "sharers": [],
            "share": None,
            "carry": None,
        }
        if result is not None:
            entry |= {
                "folded": [n(p) for p in result.folded],
                "wounded": [n(w.player) for w in result.wounds],
                "killed": [n(w.player) for w in result.wounds if w.dead],
                "sharers": [n(p.player) for p in result.portions],
                "share": result.share,
                "carry": sum(result.carry),
            }
        rounds.append(entry)
    return {
        "game": "magot",
        "finished": over,
        "phase": phase_key(state),
        "round": state.round,
        "winners": [n(p) for p in winners(state)] if over else [],
        "players": [
            {
                "name": n(g.name),
                "alive": g.alive,
                "wounds": g.wounds,
                "shame": g.shame,
                "loot": g.loot,
                "score": g.score,
                "rank": ranks[g.name],
            }
            for g in state.players
        ],
        "rounds": rounds,
        "deck": {str(v): n for v, n in sorted(Counter(state.deck).items())},
        "pot": sum(state.pot),
    }


def _labels(lines: str, axis: str, bars: str, unit: str) -> dict[str, str]:
    """The French words of the chart's image (``gm chart``): the lines' title,
    their axis, the bars' title, and what the lines count."""
    return {"lines": lines, "axis": axis, "bars": bars, "unit": unit}
