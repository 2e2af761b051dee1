"""What posts, private replies and scripts may see of a game of Colt Express.

Every view is a plain dict of JSON-able values. Public views are built from
the round records (what the table saw) and hold no secret: purses are
counted, never valued, until the final post (R-7); a face-down card is
« une carte face cachée » until the Action turns it over; hands, decks and
instructions are never in them. The final post, once the game is over,
shows every purse's value.

A public view also says what the game waits for now (``now``): whose Plan
turn and of what kind, or whose card resolves and its legal choices, as
the player would write them; posts are rendered when they are made, so
this is what the table must do next.

The train picture (``picture``, the templates' ``train`` filter) is a fixed-width diagram for a code block:
a column per car, the locomotive on the left, rows for the roof and the
inside, bandits by name, the Marshal, loot as counts (``3b 1j 1c``).
The player view holds that player's hand, deck size, bullets, their own
purses with their values and their cards in the pile.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gm.core.protocol import PostRef, Table, table_for
from gm.errors import NotFoundError

from . import action, rules, score
from .cards import (
    CHARACTERS,
    NEUTRAL_BULLETS,
    POWERS,
    Card,
    happening,
    layout,
)
from .model import (
    Choice,
    Effect,
    Outcome,
    Phase,
    RoundRecord,
    Snapshot,
    State,
    StepRecord,
)
from .words import phrase

LEVEL = {True: "roof", False: "inside"}


# --- the train picture -----------------------------------------------------------------


def _loot_count(purses: int, jewels: int, strongboxes: int) -> str:
    parts = []
    if purses:
        parts.append(f"{purses}b")
    if jewels:
        parts.append(f"{jewels}j")
    if strongboxes:
        parts.append(f"{strongboxes}c")
    return " ".join(parts)


Name = Callable[[str], str]
"""A seat's current name (``Table.name``): what views print for a player."""


def _opt(nm: Name, seat: str | None) -> str | None:
    return None if seat is None else nm(seat)


def _phrase(outcome: Outcome | Choice, nm: Name) -> str:
    """``phrase``, the target named by their current name."""
    return phrase(outcome, None if outcome.target is None else nm(outcome.target))


def train_data(state: State, snapshot: Snapshot | None = None, nm: Name = str) -> dict[str, Any]:
    """The train as the picture filter reads it (counts only, no value)."""
    snap = snapshot or state.snapshot()
    return {
        "cars": state.n,
        "marshal": snap.marshal,
        "bandits": [[nm(name), car, roof] for name, car, roof, *_ in snap.bandits],
        "spots": [list(spot) for spot in snap.spots],
    }


def picture(
    data: dict[str, Any],
    loco: str = "locomotive",
    car_word: str = "wagon {n}",
    roof_word: str = "toit",
    inside_word: str = "dedans",
    marshal_word: str = "MARSHAL",
) -> str:
    """The train as fixed-width text (the ``train`` filter): a column per car,
    the locomotive first; the template gives the words."""
    cars = int(data["cars"])
    titles = [loco] + [car_word.format(n=n) for n in range(1, cars + 1)]
    loot = {(c, bool(r)): _loot_count(p, j, s) for c, r, p, j, s in data["spots"]}
    rows: list[tuple[str, list[str]]] = []
    for roof in (True, False):
        who = []
        for car in range(cars + 1):
            names = [str(n) for n, c, r in data["bandits"] if c == car and bool(r) == roof]
            if not roof and data["marshal"] == car:
                names.insert(0, marshal_word)
            who.append(" ".join(names))
        rows.append((roof_word if roof else inside_word, who))
        rows.append(("", [loot.get((car, roof), "") for car in range(cars + 1)]))
    width = max(len(t) for t in titles)
    for _, cells in rows:
        width = max(width, *(len(c) for c in cells))
    label = max(len(roof_word), len(inside_word))
    lines = [" " * label + " |" + "|".join(f" {t:<{width}} " for t in titles) + "|"]
    lines.append("-" * len(lines[0]))
    for name, cells in rows:
        lines.append(f"{name:<{label}} |" + "|".join(f" {c:<{width}} " for c in cells) + "|")
    return "\n".join(line.rstrip() for line in lines)


# --- pieces of views -------------------------------------------------------------------


def _players(state: State, nm: Name) -> list[dict[str, Any]]:
    if not state.bandits:
        return [{"name": nm(p), "character": None, "power": None} for p in state.players]
    return [
        {"name": nm(b.name), "character": b.character, "power": POWERS[b.character]}
        for b in state.bandits
    ]


def _bandits(state: State, nm: Name) -> list[dict[str, Any]]:
    """Each bandit as the table sees them: spot, loot counts, bullets."""
    snap = state.snapshot()
    out = []
    for (name, car, roof, purses, jewels, boxes), b in zip(
        snap.bandits, state.bandits, strict=True
    ):
        out.append(
            {
                "name": nm(name),
                "character": b.character,
                "car": car,
                "level": LEVEL[roof],
                "purses": purses,
                "jewels": jewels,
                "strongboxes": boxes,
                "ransom": b.ransom,
                "received": b.received,
                "barillet": b.barillet,
            }
        )
    return out


def _effect(fx: Effect, nm: Name) -> dict[str, Any]:
    return {
        "kind": str(fx.kind),
        "bandit": _opt(nm, fx.bandit),
        "car": fx.car,
        "level": LEVEL[fx.roof] if fx.car is not None else None,
        "source": _opt(nm, fx.source),
        "loot": fx.loot,
        "given": fx.given,
        "amount": fx.amount,
        "why": fx.why,
    }


def _step(state: State, round_: int, record: StepRecord, nm: Name) -> dict[str, Any]:
    return {
        "step": record.step,
        "player": nm(record.player),
        "card": record.card.label,
        "face_down": record.face_down,
        "how": record.how,
        "choice": None if record.outcome.void else _phrase(record.outcome, nm),
        "void": record.void,
        "effects": [_effect(fx, nm) for fx in record.effects],
        # the streams this step may have read (a template prints those drawn)
        "purse_draw": f"round-{round_}/purse/{record.step}",
        "default_draw": f"round-{round_}/default/{record.step}",
    }


def _moves(record: RoundRecord, nm: Name, upto: int | None = None) -> list[dict[str, Any]]:
    turns = {t.number: t for t in record.turns}
    out = []
    for move in record.moves:
        if upto is not None and move.turn > upto:
            break
        out.append(
            {
                "turn": move.turn,
                "player": nm(move.player),
                "kind": str(turns[move.turn].kind),
                "drew": move.drew,
                "face_down": move.face_down,
                "card": move.card.label if move.card is not None else None,
                "default": move.default,
            }
        )
    return out


def _round(state: State, record: RoundRecord, nm: Name) -> dict[str, Any]:
    n = len(state.players)
    return {
        "number": record.number,
        "card": record.card,
        "station": record.number == 5,
        "event": str(happening(record.card)),
        "first": nm(record.first),
        "symbols": [str(t) for t in layout(record.card, n)],
        "turns": len(record.turns),
        # the streams the round's opening read: its card, each deck
        "card_draw": f"round-{record.number}/card",
        "deck_draws": [
            {"player": nm(p), "draw": f"round-{record.number}/deck/{rules.draw_name(state, p)}"}
            for p in state.players
        ],
    }


def now(state: State, nm: Name = str) -> dict[str, Any]:
    """What the game waits for, as a post tells the table (players named by ``nm``)."""
    out: dict[str, Any] = {"phase": str(state.phase), "round": state.round}
    if state.phase is Phase.PLAN and state.turn is not None:
        turn = state.turn
        out |= {
            "turn": turn.number,
            "turns": len(state.current.turns),
            "player": nm(turn.player),
            "kind": str(turn.kind),
            "ghost": rules.ghost_first_turn(state, turn) and str(turn.kind) != "tunnel",
        }
    elif state.phase is Phase.ACTION and state.resolving is not None:
        played = state.resolving
        assert played.card is not None
        outcomes = action.legal(state, played)
        out |= {
            "step": state.step + 1,
            "steps": len(state.pile),
            "player": nm(played.player),
            "card": played.card.label,
            "face_down": played.face_down,
            "choices": [_phrase(o, nm) for o in outcomes],
        }
    elif state.phase is Phase.EVENT:
        out["pickpockets"] = [nm(p) for p in rules.pickpockets_due(state)]
    elif state.phase is Phase.READY:
        out["next_round"] = state.round + 1
    return out


def revealed(state: State, round_: int) -> int:
    """How many cards of round ``round_``'s pile the table has seen turned
    over: those resolved, and the one resolving now."""
    if not 0 < round_ <= len(state.history):
        return 0
    count = len(state.history[round_ - 1].steps)
    if round_ == state.round and state.phase is Phase.ACTION:
        count += 1
    return count


def turned_over(state: State, round_: int, nm: Name = str) -> list[dict[str, Any]]:
    """Round ``round_``'s face-down cards turned over so far: whose, played on
    which Plan turn, which card (its label, and its code as sealed)."""
    if not 0 < round_ <= len(state.history):
        return []
    record = state.history[round_ - 1]
    plays = [m for m in record.moves if m.drew is None][: revealed(state, round_)]
    cards = [s.card for s in record.steps]
    if round_ == state.round and state.resolving is not None and state.resolving.card:
        cards.append(state.resolving.card)
    return [
        {"player": nm(m.player), "turn": m.turn, "card": card.label, "code": str(card)}
        for m, card in zip(plays, cards, strict=False)
        if m.face_down
    ]


def face_down_keys(state: State, round_: int) -> tuple[tuple[str | int, ...], ...]:
    """The secret keys of round ``round_``'s face-down cards turned over so far."""
    if not 0 < round_ <= len(state.history):
        return ()
    plays = [m for m in state.history[round_ - 1].moves if m.drew is None]
    shown = plays[: revealed(state, round_)]
    return tuple(("card", round_, m.turn, m.player) for m in shown if m.face_down)


# --- public views ------------------------------------------------------------------------


def _record(state: State, round_: int | None) -> RoundRecord:
    if round_ is None or not 0 < round_ <= len(state.history):
        raise NotFoundError(
            f"no round {round_} yet (rounds played: {len(state.history)})",
            code="colt/no-such-post",
            params={"round": round_},
        )
    return state.history[round_ - 1]


def public_view(state: State, post: PostRef, table: Table | None = None) -> dict[str, Any]:
    """The content of one public post (see the module docstring), players by
    their names at ``table``."""
    nm = table_for(table, state.players).name
    base: dict[str, Any] = {
        "game": "colt",
        "kind": post.kind,
        "players": _players(state, nm),
        "characters": list(CHARACTERS),
        "neutral": state.neutral,
        "neutral_total": NEUTRAL_BULLETS,
        "now": now(state, nm),
        "over": state.phase is Phase.OVER,
    }
    if state.bandits:
        base |= {
            "cars": list(state.cars),
            "caboose": state.n,
            "train": train_data(state, nm=nm),
            "bandits": _bandits(state, nm),
            "marshal": state.marshal,
            "spare_strongbox": state.spare_strongbox,
        }
    if post.kind == "train":
        # the streams the setup may have read (a template prints those drawn)
        return base | {"setup_draws": ["setup/characters", "setup/cars", "setup/purses"]}
    if post.kind in ("opening", "rules"):
        return base
    if post.kind == "round" and len(post.at) == 1:
        record = _record(state, post.at[0])
        return base | {"round": _round(state, record, nm)}
    if post.kind == "plan" and len(post.at) == 2:
        record = _record(state, post.at[0])
        turn = post.at[1]
        if not any(m.turn == turn for m in record.moves):
            raise NotFoundError(
                f"no Plan turn {turn} in round {record.number}",
                code="colt/no-such-post",
                params={"round": record.number, "turn": turn},
            )
        moves = _moves(record, nm, turn)
        return base | {
            "round": _round(state, record, nm),
            "move": moves[-1],
            "pile": [m for m in moves if m["drew"] is None],
        }
    if post.kind == "action" and len(post.at) == 2:
        record = _record(state, post.at[0])
        steps = [s for s in record.steps if s.first == post.at[1]]
        if not steps:
            raise NotFoundError(
                f"no Action step {post.at[1]} in round {record.number}",
                code="colt/no-such-post",
                params={"round": record.number, "step": post.at[1]},
            )
        snapshot = steps[-1].snapshot
        return base | {
            "round": _round(state, record, nm),
            "steps": [_step(state, record.number, s, nm) for s in steps],
            "turned_over": turned_over(state, record.number, nm),
            "total": sum(1 for m in record.moves if m.drew is None),
            "train": train_data(state, snapshot, nm),
        }
    if post.kind == "event" and len(post.at) == 1:
        record = _record(state, post.at[0])
        if record.event is None:
            raise NotFoundError(
                f"round {record.number} has not ended yet",
                code="colt/no-such-post",
                params={"round": record.number},
            )
        return base | {
            "round": _round(state, record, nm),
            "effects": [_effect(fx, nm) for fx in record.event.effects],
            "pickpocket": [
                {
                    "player": nm(p),
                    "took": took,
                    "default": d,
                    "purse_draw": f"round-{record.number}/pickpocket/{rules.draw_name(state, p)}",
                    "default_draw": f"round-{record.number}/default/pickpocket-"
                    f"{rules.draw_name(state, p)}",
                }
                for p, took, d in record.event.pickpocket
            ],
            "train": train_data(state, record.event.snapshot, nm),
            "last": record.number == 5,
        }
    if post.kind == "final":
        over = state.phase is Phase.OVER
        return base | {
            "standings": _final(state, nm),
            # the purses the fortune drew and among which: secret until the end
            "purse_draws": [
                {"round": r, "step": step, "player": nm(p), "offered": list(among), "value": value}
                for r, step, p, among, value in (state.purse_draws if over else ())
            ],
        }
    raise NotFoundError(
        f"no post {post.kind} {post.address} in Colt Express",
        code="colt/no-such-post",
        params={"kind": post.kind},
    )


def _final(state: State, nm: Name) -> list[dict[str, Any]]:
    """The final scores: every value shown, once the game is over only."""
    if state.phase is not Phase.OVER:
        return []
    table = score.standings(state)
    return [
        {
            "name": nm(s.name),
            "character": state.character(s.name),
            "purses": list(state.bandit(s.name).purses),
            "jewels": state.bandit(s.name).jewels,
            "strongboxes": state.bandit(s.name).strongboxes,
            "ransom": state.bandit(s.name).ransom,
            "loot": s.loot,
            "gunslinger": s.gunslinger,
            "score": s.score,
            "rank": s.rank,
            "received": state.bandit(s.name).received,
            "barillet": state.bandit(s.name).barillet,
        }
        for s in sorted(table, key=lambda s: (s.rank, state.players.index(s.name)))
    ]


# --- the player view ---------------------------------------------------------------------


def player_view(state: State, player: str, table: Table | None = None) -> dict[str, Any]:
    """What the seat ``player`` may know: their hand, deck size, bullets, own
    purses' values and cards in the pile, and what is awaited from them
    (players by their names at ``table``)."""
    nm = table_for(table, state.players).name
    view: dict[str, Any] = {
        "phase": str(state.phase),
        "round": state.round,
        "now": now(state, nm),
        "character": None,
    }
    if not state.bandits:
        return view
    b = state.bandit(player)
    mine = [
        {
            "step": i + 1,
            "card": p.card.label if p.card is not None else None,
            "face_down": p.face_down,
            "resolved": state.phase is Phase.ACTION and i < state.step,
        }
        for i, p in enumerate(state.pile)
        if p.player == player
    ]
    instructions = [
        {"step": i.slot + 1, "alternatives": [_phrase(a, nm) for a in i.alternatives]}
        for i in state.instructions
        if i.player == player
    ]
    return view | {
        "character": b.character,
        "power": POWERS[b.character],
        "car": b.car,
        "level": LEVEL[b.roof],
        "hand": [c.label for c in sorted(b.hand, key=list(Card).index)],
        "deck": len(b.deck),
        "received": b.received,
        "barillet": b.barillet,
        "purses": list(b.purses),
        "jewels": b.jewels,
        "strongboxes": b.strongboxes,
        "ransom": b.ransom,
        "loot": b.loot,
        "pile": mine,
        "instructions": instructions,
        "train": train_data(state, nm=nm),
        "over": state.phase is Phase.OVER,
    }


# --- the summary ---------------------------------------------------------------------------


def summary(state: State, table: Table | None = None) -> dict[str, Any]:
    """The JSON summary of the scenario contract (``docs/scenarios.md``, colt),
    players by their names at ``table``."""
    nm = table_for(table, state.players).name
    over = state.phase is Phase.OVER
    ranked = {s.name: s for s in score.standings(state)} if state.bandits else {}
    players = []
    for b in state.bandits:
        s = ranked[b.name]
        players.append(
            {
                "name": nm(b.name),
                "character": b.character,
                "loot": b.loot,
                "purses": sorted(b.purses),
                "jewels": b.jewels,
                "strongboxes": b.strongboxes,
                "ransom": b.ransom,
                "bullets_received": b.received,
                "barillet": b.barillet,
                "gunslinger": s.gunslinger,
                "score": s.score,
                "car": b.car,
                "level": LEVEL[b.roof],
                "rank": s.rank,
            }
        )
    lying = sum(loot.value for loot in (*state.inside, *state.roofs))
    rounds = []
    for record in state.history:
        if record.event is None:
            continue
        plays = [m for m in record.moves if m.drew is None]
        rounds.append(
            {
                "number": record.number,
                "card": record.card,
                "first": nm(record.first),
                "actions": len(record.steps),
                "void": sum(1 for s in record.steps if s.outcome.void),
                "draws": sum(1 for m in record.moves if m.drew is not None),
                "face_down": sum(1 for m in plays if m.face_down),
                "marshal": record.marshal,
                "positions": {nm(n): [c, LEVEL[r]] for n, c, r in record.positions},
                "loot": {nm(n): v for n, v in record.loot},
                "bullets": {nm(n): v for n, v in record.bullets},
            }
        )
    return {
        "game": "colt",
        "finished": over,
        "winners": [nm(w) for w in score.winners(state)],
        "players": players,
        "marshal": state.marshal,
        "neutral_bullets": state.neutral,
        "lying": lying,
        "rounds": rounds,
    }
