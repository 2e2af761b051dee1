"""What posts, private replies and scripts may see of a game of Rattlesnake City.

Every view is a plain dict of JSON-able values. Public views hold what the
table sees: the valley (every tile and rail), the income track, the cards in
front of each player, every card played, trade and blow, the number of
cards in each hand — never a player's cash, hand or shot cards, nor the
order of the bag and decks. The final post, once the game is over, shows
each player's cash.

A public view also says what the game waits for now (``now``): whose turn,
the tile drawn and every legal place for it with the income track each
would give (« A2 → bob 2 000 $ »), the blow awaited in a combat.

The valley map (``valley``, the templates' ``valley`` filter, drawn by
``textmap``) is a fixed-width drawing for a code block: free cells by their
name (``A1``, ``M1``, ``P5a``), built ones by their tile's code and their
owner's number (``Sa2`` the saloon of the second player at the table, ``Bq1``
a banque that pays the first), and the railway, each slot by its id, cut ones
dotted.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gm.core.protocol import PostRef, Table, table_for

from .board import default_board_text
from .cards import Card, label
from .income import Reason, beneficiary, legal_places, payments
from .model import Move, Phase, State, threshold
from .poker import REVOLVERS, Poker, Stage
from .rules import poker_awaiting
from .textmap import valley as valley  # the templates' filter, re-exported
from .tiles import Tile, legal_cells

CODES: dict[Tile, str] = {
    Tile.SALOON: "Sa",
    Tile.SHERIF: "Sh",
    Tile.BANQUE: "Bq",
    Tile.STORE: "St",
    Tile.HOTEL: "Ho",
    Tile.MARECHAL: "Mf",
    Tile.EGLISE: "Eg",
    Tile.ECOLE: "Ec",
    Tile.CIMETIERE: "Ci",
    Tile.RANCH: "Rn",
    Tile.MINE: "Mi",
    Tile.GARE: "Gr",
}
"""Two letters per tile on the map; the legend under it spells them out."""

Name = Callable[[str], str]
"""A seat's current name (``Table.name``): what views print for a player."""


def _same(seat: str) -> str:
    return seat


_PLAYER_KEYS = frozenset(
    {
        "player",
        "buyer",
        "seller",
        "holder",
        "taker",
        "winner",
        "to",
        "source",
        "target",
        "challenger",
        "challenged",
        "victim",
        "with_",
        "other",
        "starter",
    }
)
"""The keys of a move's data that may hold a seat (a target may also be a
card or a cell: ``Table.name`` leaves what is no seat as it is)."""


# --- the valley ------------------------------------------------------------------------


def valley_data(state: State, nm: Name = _same) -> dict[str, Any]:
    """The board as the map and the picture draw it: every named cell with
    its tile (or None) and, built, its owner — the player it pays, the
    owner of the nearest saloon (R-4) —, the towns with their owners, the
    players in seating order (the map numbers owners by it), the rail
    slots and the junctions they meet at; players by ``nm``."""
    board = state.board
    layout = state.layout
    town_owner = {t: nm(p) for p, t in ((p, state.town_of_player(p)) for p in state.players) if t}
    town_ids = {t.id for t in board.towns}
    cells = []
    for name, spot in board.spots.items():
        placed = layout.tiles.get(name)
        owner = beneficiary(board, layout, name) if placed else None
        cells.append(
            {
                "name": name,
                "x": spot.cell[0],
                "y": spot.cell[1],
                "zone": spot.zone.value,
                "area": spot.area,
                "tile": placed.kind.value if placed else None,
                "code": CODES[placed.kind] if placed else None,
                "owner": nm(owner) if owner else None,
            }
        )
    return {
        "width": board.width,
        "height": board.height,
        "players": [nm(p) for p in state.players],
        "cells": cells,
        "towns": [{"id": t.id, "name": t.name, "owner": town_owner.get(t.id)} for t in board.towns],
        "junctions": list(
            dict.fromkeys(e for s in board.slots for e in s.between if e not in town_ids)
        ),
        "slots": [
            {
                "id": s.id,
                "between": list(s.between),
                "order": s.order,
                "shape": s.shape,
                "printed": not s.damaged,
                "repaired": s.id in layout.rails,
            }
            for s in board.slots
        ],
    }


# --- pieces of views -----------------------------------------------------------------------


def _players(state: State, nm: Name) -> list[dict[str, Any]]:
    return [
        {
            "name": nm(p),
            "town": state.town_of_player(p),
            "income": state.income_of(p),
            "permanents": [c.label for c in state.permanents_of(p)],
            "hand": len(state.hand_of(p)),
            "shots": len(state.shots_of(p)),
        }
        for p in state.players
    ]


def _move(state: State, move: Move, nm: Name) -> dict[str, Any]:
    """A move for the templates: its data, cards and tiles by their French
    names, players by ``nm``."""
    data = dict(move.data)
    for key in _PLAYER_KEYS & data.keys():
        if isinstance(data[key], str):
            data[key] = nm(data[key])
    if isinstance(data.get("winners"), list | tuple):
        data["winners"] = [nm(w) for w in data["winners"]]
    if move.what == "revealed" and isinstance(data.get("cards"), list):
        data["cards"] = [[nm(c[0]), *c[1:]] for c in data["cards"]]
    for key in ("card", "free"):
        if data.get(key) and isinstance(data[key], str):
            data[key] = Card(data[key]).label
    if data.get("tile"):
        data["tile"] = Tile(data["tile"]).label
    if move.what == "single" and data.get("target") and data["target"] in Card._value2member_map_:
        data["target"] = Card(data["target"]).label
    return {"what": move.what, **data}


def _places(state: State, nm: Name) -> list[dict[str, Any]]:
    """The tile drawn's legal places, each with what it would change on the
    income track; places that change it alike are listed together."""
    record = state.current
    if record is None or state.phase is not Phase.TILE:
        return []
    before = dict(zip(state.players, state.income, strict=True))
    groups: dict[tuple[tuple[str, int], ...], list[str]] = {}
    for where, track in legal_places(
        state.board, state.layout, record.tile, record.player, state.players, state.permanents_map()
    ):
        key = tuple((p, track[p]) for p in state.players if track[p] != before[p])
        groups.setdefault(key, []).append(where)
    return [
        {
            "cells": cells,
            "changes": [
                {"name": nm(p), "income": income, "delta": income - before[p]} for p, income in key
            ],
        }
        for key, cells in groups.items()
    ]


def now(state: State, nm: Name = _same) -> dict[str, Any]:
    """What the game waits for now, as the table must read it (players by ``nm``)."""
    if state.phase is Phase.SETUP:
        return {"phase": "setup"}
    if state.phase is Phase.OVER:
        return {"phase": "over"}
    if state.phase is Phase.SALOONS:
        return {
            "phase": "saloons",
            "player": nm(state.saloon_turn) if state.saloon_turn else state.saloon_turn,
            "legal": list(legal_cells(state.board, state.layout, Tile.SALOON)),
        }
    record = state.current
    assert record is not None
    out: dict[str, Any] = {
        "phase": state.phase.value,
        "player": nm(record.player),
        "turn": record.number,
        "tile": record.tile.label,
    }
    if state.phase is Phase.TILE:
        out["places"] = _places(state, nm)
    if state.phase is Phase.FREE:
        out["bank_done"] = record.bank_done
        out["poker_done"] = record.poker_done
        # the examples of what to write name a rival at this table
        out["rival"] = nm(next(p for p in state.order if p != record.player))
    if state.phase is Phase.POKER and state.poker is not None:
        out["poker"] = poker_view(state, state.poker, nm)
        out["awaiting"] = [nm(p) for p in poker_awaiting(state)]
    if state.phase is Phase.BANK and state.combat is not None:
        combat = state.combat
        out["combat"] = {
            "turn": nm(combat.turn) if combat.turn else combat.turn,
            "fighters": [
                {"name": nm(f.name), "total": f.total, "out": f.out} for f in combat.fighters
            ],
        }
    return out


def poker_view(state: State, poker: Poker, nm: Name = _same) -> dict[str, Any]:
    """The poker game as the table sees it: the stake, the pot, who plays and
    who has chosen — a card only once the cards are revealed, never a hand."""
    seats = []
    for name in poker.participants:
        seat = poker.seat(name)
        seats.append(
            {
                "name": nm(name),
                "bet": seat.bet,
                "chose": seat.chose,
                "card": seat.card if poker.revealed else None,
                "revolver": poker.revealed and seat.card in REVOLVERS,
                "fled": seat.fled,
            }
        )
    combat = poker.combat
    return {
        "challenger": nm(poker.challenger),
        "challenged": nm(poker.challenged),
        "stake": poker.stake,
        "pot": poker.pot,
        "stage": poker.stage.value,
        "escaped": poker.escaped,
        "revealed": poker.revealed,
        "participants": seats,
        "awaiting": [nm(p) for p in poker_awaiting(state)],
        "cheater": nm(poker.swap[0]) if poker.swap else None,
        "winner": nm(poker.winner) if poker.winner else poker.winner,
        "starter": nm(poker.starter) if poker.starter else poker.starter,
        "combat": (
            {
                "turn": nm(combat.turn) if combat.turn else combat.turn,
                "fighters": [
                    {"name": nm(f.name), "total": f.total, "out": f.out} for f in combat.fighters
                ],
            }
            if combat is not None and poker.stage is Stage.COMBAT
            else None
        ),
    }


def _turn(state: State, number: int, nm: Name, first_move: int = 1) -> dict[str, Any]:
    record = state.history[number - 1]
    return {
        "number": record.number,
        "player": nm(record.player),
        "tile": record.tile.label,
        "legal": list(record.legal),
        "cell": record.cell,
        "income": record.income,
        "ended": record.ended,
        # a draw is said by the choice it follows (« pioche deux cartes coups »),
        # but a bank owner's, after the attack, by itself
        "moves": [
            _move(state, m, nm)
            for m in record.moves[first_move - 1 :]
            if m.what != "drawn" or m.get("owner")
        ],
    }


def _track(state: State, nm: Name) -> list[dict[str, Any]]:
    return [{"name": nm(p), "income": state.income_of(p)} for p in state.players]


def _sources(state: State, nm: Name) -> list[dict[str, Any]]:
    """Where each player's income comes from (for the track's detail)."""
    out = []
    for payment in payments(state.board, state.layout, state.permanents_map()):
        out.append(
            {
                "name": nm(payment.player),
                "amount": payment.amount,
                "reason": payment.reason.value,
                "source": (
                    Card(payment.source).label if payment.reason is Reason.CARD else payment.source
                ),
            }
        )
    return out


def public_view(state: State, post: PostRef, table: Table | None = None) -> dict[str, Any]:
    """What a public post may show, players by their names at ``table``:
    never a player's cash, hand or shot cards."""
    nm = table_for(table, state.players).name
    view: dict[str, Any] = {
        "players": _players(state, nm),
        "threshold": threshold(len(state.players)),
        "towns": [{"id": t.id, "name": t.name} for t in state.board.towns],
        "tiles_left": len(state.bag),
        "now": now(state, nm),
        "valley": valley_data(state, nm),
        "track": _track(state, nm),
    }
    if post.kind == "setup":
        view["first"] = nm(state.first) if state.first else state.first
        # the streams the deal reads (what the MJ gave by hand is not drawn)
        view["setup_draws"] = ["setup/first", "setup/bag", "setup/actions", "setup/shots"]
    elif post.kind == "saloon" and post.at:
        saloons = [(n, p) for n, p in state.layout.tiles.items() if p.kind is Tile.SALOON]
        saloons.sort(key=lambda item: item[1].seq)
        if 0 < post.at[0] <= len(saloons):
            cell, placed = saloons[post.at[0] - 1]
            view["saloon"] = {
                "player": nm(placed.placer) if placed.placer else placed.placer,
                "cell": cell,
                "town": state.board.town_of(cell),
            }
    elif post.kind in ("turn", "move") and post.at and 0 < post.at[0] <= len(state.history):
        first = post.at[1] if post.kind == "move" and len(post.at) > 1 else 1
        view["turn"] = _turn(state, post.at[0], nm, first)
        view["sources"] = _sources(state, nm)
    elif post.kind == "rules":
        view["board"] = board_words(state)
    elif post.kind == "final":
        view["standings"] = standings(state, nm)
        view["winners"] = [nm(w) for w in state.winners]
        view["won_by"] = state.won_by
    return view


def board_words(state: State) -> dict[str, Any]:
    """What the rules post says of the valley: the default one (R-1), or
    another board's counts and a name of each kind (R-11)."""
    board = state.board
    sizes = sorted({len(t.cells) for t in board.towns})
    town = board.towns[0]
    one = [p.cell_names[0] for p in board.prairies if len(p.cells) == 1]
    many = [p.cell_names[0] for p in board.prairies if len(p.cells) > 1]
    return {
        "default": state.board_text == default_board_text(),
        "towns": len(board.towns),
        "sizes": [sizes[0], sizes[-1]],
        "prairies": len(board.prairies),
        "mountains": len(board.mountains),
        "damaged": len(board.damaged_slots),
        "first": town.cell_names[0],
        "last": town.cell_names[-1],
        "station": town.station_name,
        "names": [*(m.id for m in board.mountains[:1]), *one[:1], *many[:1]],
        "slot": board.slot_ids[0] if board.slot_ids else None,
    }


def standings(state: State, nm: Name = _same) -> list[dict[str, Any]]:
    """Every player's fortune, richest first (for the final post)."""
    rows: list[dict[str, Any]] = [
        {
            "name": nm(p),
            "cash": state.cash_of(p),
            "income": state.income_of(p),
            "town": state.town_of_player(p),
            "winner": p in state.winners,
        }
        for p in state.players
    ]
    rows.sort(key=lambda r: -r["cash"])
    return rows


def player_view(state: State, player: str, table: Table | None = None) -> dict[str, Any]:
    """What ``player`` (a seat) may know: their cash, hand and shot cards
    besides the public view, players by their names at ``table``."""
    nm = table_for(table, state.players).name
    due = now(state)
    mine: dict[str, Any] | None = None
    if state.poker is not None and player in state.poker.names:
        seat = state.poker.seat(player)
        mine = {
            "playing": seat.playing,
            "chose": seat.chose,
            # their own face-down card, before the reveal too: it is theirs
            "card": seat.card,
        }
    return {
        "name": nm(player),
        "cash": state.cash_of(player),
        "hand": [label(c) for c in sorted(state.hand_of(player), key=_card_order)],
        "shots": sorted(state.shots_of(player)),
        "permanents": [c.label for c in state.permanents_of(player)],
        "income": state.income_of(player),
        "town": state.town_of_player(player),
        "phase": state.phase.value,
        "now": now(state, nm),
        "yours": (
            player in due["awaiting"]
            if "awaiting" in due
            else due.get("player") == player or (due.get("combat") or {}).get("turn") == player
        ),
        "poker": mine,
        "threshold": threshold(len(state.players)),
    }


def _card_order(card: int | Card) -> tuple[int, int, str]:
    return (0, card, "") if isinstance(card, int) else (1, 0, card.label)


def summary(state: State, table: Table | None = None) -> dict[str, Any]:
    """The JSON summary of the scenario contract (``docs/scenarios.md``,
    rattlesnake), players by their names at ``table``."""
    nm = table_for(table, state.players).name
    tiles = {
        name: state.layout.tiles[name].kind.label
        for name in state.board.spots
        if name in state.layout.tiles
    }
    return {
        "game": "rattlesnake",
        "finished": state.phase is Phase.OVER,
        "winners": [nm(p) for p in state.players if p in state.winners],
        "players": [
            {
                "name": nm(p),
                "town": state.town_of_player(p),
                "cash": state.cash_of(p),
                "income": state.income_of(p),
                "permanents": [c.label for c in state.permanents_of(p)],
                "hand": len(state.hand_of(p)),
                "shots": len(state.shots_of(p)),
            }
            for p in state.players
        ],
        "board": {
            "tiles": tiles,
            "rails": [s for s in state.board.slot_ids if s in state.layout.rails],
        },
        "turns": [
            {
                "number": r.number,
                "player": nm(r.player),
                "tile": r.tile.label,
                "cell": r.cell,
                "income": r.income,
            }
            for r in state.history
            # a turn is listed once played: ended by its income, or by the end of the game in it
            if r.ended or state.phase is Phase.OVER
        ],
    }
