"""Who earns what in Rattlesnake City: the income track, and what each legal
place of a tile would make of it.

Pure functions over a board, a ``tiles.Layout`` (what stands where, which
slots are repaired), the players and the permanent cards in front of them:

* a paying building gives 1 000 $ a turn to its *beneficiary*, the owner of
  the nearest saloon (R-2); on a tie between saloons, to the player who
  placed it, tied or not (R-4, R-14) — fixed at placement, since saloons
  never move;
* a mine gives 2 000 $ more to the owner of the town of the nearest bank; a
  tie between banks goes to the bank placed first (R-5); a bank in a town
  nobody owns pays nobody, and no farther bank takes over (R-14);
  recomputed from the layout every time, so a bank or mine that appears or
  disappears moves the money at once;
* a gare joined by intact track to at least one other gare gives, in
  addition, 1 000 $ per gare in its network, itself included, to the owner
  of its town (gm's reading of the source, ``gm/games/rattlesnake/rules.md``);
* permanent cards add or remove 1 000 $ (Lili la tigresse and Punaises
  only while a hotel stands in the holder's town, Croque-mort per cemetery
  there); a player's total is never below zero.

``payments`` lists every amount with its source (for posts and checks);
``income_track`` sums them; ``legal_places`` gives a drawn tile's every
legal place with the track it would give; ``discarded_with`` names the
cards a destroyed hotel takes with it (R-13). The board's distance table is
computed once per board (``Board``), which keeps ``legal_places`` well
under its 50 ms budget (``bench/rattlesnake.py``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from .board import Board
from .cards import CEMETERY_INCOME, FLAT_INCOME, HOTEL_INCOME, Card
from .tiles import PAYING, Layout, Placed, Tile, legal_cells, owners

BUILDING_INCOME = 1000
"""What a paying building gives its beneficiary each turn."""
MINE_BANK_INCOME = 2000
"""What a mine gives, in addition, to the owner of the nearest bank's town."""
STATION_BONUS = 1000
"""What a joined gare gives its town's owner per gare in its network."""

Permanents = Mapping[str, Sequence[Card]]
"""Player → the permanent cards in front of them, in the order laid."""


class Reason(StrEnum):
    """Why a player receives (or loses) an amount each turn."""

    BUILDING = "building"  # 1 000 $: the nearest saloon's owner
    MINE = "mine"  # 2 000 $: the nearest bank's town owner
    STATION = "station"  # the network bonus to the gare's town owner
    CARD = "card"  # a permanent card in front of the player


@dataclass(frozen=True)
class Payment:
    """One line of the income track: ``amount`` to ``player`` each turn,
    because of ``source`` (a cell name, or a card's key for ``CARD``);
    ``via`` is the bank cell for a mine's 2 000 $."""

    player: str
    amount: int
    reason: Reason
    source: str
    via: str | None = None


def saloons(layout: Layout) -> list[str]:
    """The cells holding a saloon."""
    return [name for name, placed in layout.tiles.items() if placed.kind is Tile.SALOON]


def beneficiary(
    board: Board, layout: Layout, name: str, placed: Placed | None = None
) -> str | None:
    """R-4, R-14: the player a building on ``name`` pays, the owner of the
    nearest saloon; on a tie, its placer, even one whose saloon is not among
    the tied. ``placed`` is the tile (default: the one on ``name``). None
    with no saloon on the board."""
    tile = placed if placed is not None else layout.tiles[name]
    return _payee(board, layout, name, tile, saloons(layout))


def _payee(
    board: Board, layout: Layout, name: str, placed: Placed, saloon_cells: list[str]
) -> str | None:
    near = board.nearest(name, saloon_cells)
    if not near:
        return None
    return layout.tiles[near[0]].placer if len(near) == 1 else placed.placer


def nearest_bank(board: Board, layout: Layout, mine: str) -> str | None:
    """R-5: the bank cell whose town receives the mine ``mine``'s 2 000 $:
    the nearest bank, on a tie the one placed first (lowest ``seq``); None
    without banks."""
    return _bank(board, layout, mine, _banks(layout))


def _banks(layout: Layout) -> list[str]:
    return [name for name, placed in layout.tiles.items() if placed.kind is Tile.BANQUE]


def _bank(board: Board, layout: Layout, mine: str, banks: list[str]) -> str | None:
    near = board.nearest(mine, banks)
    return min(near, key=lambda bank: layout.tiles[bank].seq) if near else None


def gares_joined(board: Board, layout: Layout) -> dict[str, int]:
    """Town id → how many gares stand in its rail network (its own included)."""
    with_gare = {t.id for t in board.towns if t.station_name in layout.tiles}
    counts: dict[str, int] = {}
    for network in board.networks(layout.rails):
        n = len(network & with_gare)
        for town in network:
            counts[town] = n
    return counts


def payments(board: Board, layout: Layout, permanents: Permanents | None = None) -> list[Payment]:
    """Every amount the board and the cards give each turn, building by
    building in board order, then card by card; before the floor at zero."""
    found: list[Payment] = []
    town_owner = owners(board, layout)
    saloon_cells = saloons(layout)
    joined: dict[str, int] | None = None
    banks: list[str] | None = None
    for name in board.spots:
        placed = layout.tiles.get(name)
        if placed is None or placed.kind not in PAYING:
            continue
        payee = _payee(board, layout, name, placed, saloon_cells)
        if payee is not None:
            found.append(Payment(payee, BUILDING_INCOME, Reason.BUILDING, name))
        if placed.kind is Tile.MINE:
            if banks is None:
                banks = _banks(layout)
            bank = _bank(board, layout, name, banks)
            if bank is not None:
                town = board.town_of(bank)
                owner = town_owner.get(town) if town is not None else None
                if owner is not None:  # an unowned town's bank pays nobody
                    found.append(Payment(owner, MINE_BANK_INCOME, Reason.MINE, name, bank))
        elif placed.kind is Tile.GARE:
            if joined is None:
                joined = gares_joined(board, layout)
            town = board.town_of(name)
            assert town is not None  # a gare stands on a station cell
            count = joined.get(town, 0)
            owner = town_owner.get(town)
            if count >= 2 and owner is not None:
                found.append(Payment(owner, STATION_BONUS * count, Reason.STATION, name))
    if permanents:
        found += _card_payments(board, layout, town_owner, permanents)
    return found


def _card_payments(
    board: Board, layout: Layout, town_owner: Mapping[str, str], permanents: Permanents
) -> list[Payment]:
    found: list[Payment] = []
    town_of_player = {player: town for town, player in town_owner.items()}
    for player, cards in permanents.items():
        town = town_of_player.get(player)
        kinds = _kinds_in(board, layout, town) if town is not None else []
        for card in cards:
            if card in FLAT_INCOME:
                amount = FLAT_INCOME[card]
            elif card in HOTEL_INCOME:
                amount = HOTEL_INCOME[card] if Tile.HOTEL in kinds else 0
            elif card in CEMETERY_INCOME:
                amount = CEMETERY_INCOME[card] * kinds.count(Tile.CIMETIERE)
            else:
                continue  # combat cards: no income
            if amount:
                found.append(Payment(player, amount, Reason.CARD, card.value))
    return found


def _kinds_in(board: Board, layout: Layout, town_id: str) -> list[Tile]:
    town = board.town(town_id)
    return [layout.tiles[n].kind for n in town.cell_names if n in layout.tiles]


def discarded_with(
    board: Board, layout: Layout, where: str, permanents: Permanents | None = None
) -> dict[str, tuple[Card, ...]]:
    """R-13: the permanent cards that go with the tile on ``where`` when a
    Dynamitero destroys it — for a hotel, the Lili la tigresse and Punaises
    in front of its town's owner (player → cards, in the order laid); else
    nothing."""
    placed = layout.tiles.get(where)
    town = board.town_of(where)
    if placed is None or placed.kind is not Tile.HOTEL or town is None or not permanents:
        return {}
    owner = owners(board, layout).get(town)
    cards = tuple(c for c in permanents.get(owner, ()) if c in HOTEL_INCOME) if owner else ()
    return {owner: cards} if owner is not None and cards else {}


def income_track(
    board: Board,
    layout: Layout,
    players: Iterable[str],
    permanents: Permanents | None = None,
) -> dict[str, int]:
    """Player → their income per turn (the *piste de revenus*), in the
    order of ``players``: the sum of their ``payments``, never below zero."""
    track = dict.fromkeys(players, 0)
    for payment in payments(board, layout, permanents):
        if payment.player in track:
            track[payment.player] += payment.amount
    return {player: max(amount, 0) for player, amount in track.items()}


def legal_places(
    board: Board,
    layout: Layout,
    kind: Tile,
    placer: str,
    players: Iterable[str],
    permanents: Permanents | None = None,
) -> list[tuple[str, dict[str, int]]]:
    """Every legal place of a ``kind`` tile drawn by ``placer`` (cells or
    slots, in board order, as ``tiles.legal_cells``), each with the income
    track it would give. Empty: the tile goes nowhere and is removed (R-6)."""
    order = tuple(players)
    placed = Placed(kind, placer, layout.next_seq)
    return [
        (where, income_track(board, layout.place(where, placed), order, permanents))
        for where in legal_cells(board, layout, kind)
    ]
