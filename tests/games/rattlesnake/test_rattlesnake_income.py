"""Rattlesnake City's income: one test per ruling (R-4, R-5, R-14 of
gm/games/rattlesnake/rules.md), gm's readings of the gare bonus, the permanent
cards, and Hypothesis properties of random valleys (income never negative,
legal places that keep one building of a kind per town and a ranch per
prairie cell).

Distances are R-2's, squared; the figures of the small valley are worked out
in ``rattlesnake_support``'s docstring and again beside each test.
"""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st
from rattlesnake_support import lay, small

from gm.games.rattlesnake.board import Zone, default_board
from gm.games.rattlesnake.cards import PERMANENTS, Card
from gm.games.rattlesnake.income import (
    Payment,
    Reason,
    beneficiary,
    discarded_with,
    gares_joined,
    income_track,
    legal_places,
    nearest_bank,
    payments,
)
from gm.games.rattlesnake.tiles import (
    TOWN_BUILDINGS,
    Layout,
    Placed,
    Tile,
    bag,
    dynamite_targets,
    legal_cells,
)

TWO = ("ana", "bob")
THREE = ("ana", "bob", "cyd")

# --- the nearest saloon, ties to the placer -------------------------------------


def test_r4_tie_pays_placer_fixed_at_placement() -> None:
    board = small()
    # Saloons: ana A1 (0,0), bob B3 (14,0). C2 (7,6) is 6² + 5² = 61 from
    # both, C5 (7,7) 6² + 6² = 72 from both: ties, each paid to its placer.
    layout = lay(("A1", Tile.SALOON, "ana"), ("B3", Tile.SALOON, "bob"))
    layout = layout.place("C2", Placed(Tile.STORE, "ana", 3))
    assert income_track(board, layout, TWO) == {"ana": 1000, "bob": 0}
    layout = layout.place("C5", Placed(Tile.HOTEL, "bob", 4))
    assert income_track(board, layout, TWO) == {"ana": 1000, "bob": 1000}
    assert beneficiary(board, layout, "C2") == "ana"
    assert beneficiary(board, layout, "C5") == "bob"
    # Fixed at placement: later tiles, whoever places them, never move it.
    layout = layout.place("C3", Placed(Tile.SHERIF, "bob", 5))
    assert beneficiary(board, layout, "C2") == "ana"
    # Not a tie: C1 (6,6) is 5² + 5² = 50 from A1, 7² + 5² = 74 from B3: ana's,
    # whoever places it; C6 (8,7) 85 against 61: bob's.
    assert beneficiary(board, layout, "C1", Placed(Tile.BANQUE, "bob", 6)) == "ana"
    assert beneficiary(board, layout, "C6", Placed(Tile.BANQUE, "ana", 6)) == "bob"


def test_r4_legal_places_show_the_tie_for_the_player_who_draws() -> None:
    board = small()
    layout = lay(("A1", Tile.SALOON, "ana"), ("B3", Tile.SALOON, "bob"))
    places = dict(legal_places(board, layout, Tile.BANQUE, "bob", TWO))
    assert places["C5"] == {"ana": 0, "bob": 1000}  # tie: the placer, bob
    assert places["C4"] == {"ana": 1000, "bob": 0}  # (6,7): 61 from A1, 85 from B3
    assert places["A2"] == {"ana": 1000, "bob": 0}
    assert "A1" not in places and "A7" not in places  # a saloon's cell, a station cell
    assert list(places) == [
        *("A2", "A3", "A4", "A5", "A6"),
        *("B1", "B2", "B4", "B5", "B6"),
        *("C1", "C2", "C3", "C4", "C5", "C6"),
    ]


def test_r14_tie_pays_placer_even_if_not_tied() -> None:
    board = default_board()
    # ana's saloon A3 (4,2) and bob's B1 (10,2) are both 2² = 4 from M1
    # (7,2); cyd's F1 (18,10) is 10² + 7² = 149 away. cyd places the mine:
    # the tie pays cyd, whose saloon is not one of the tied.
    layout = lay(("A3", Tile.SALOON, "ana"), ("B1", Tile.SALOON, "bob"), ("F1", Tile.SALOON, "cyd"))
    places = dict(legal_places(board, layout, Tile.MINE, "cyd", THREE))
    assert places["M1"] == {"ana": 0, "bob": 0, "cyd": 1000}
    layout = layout.place("M1", Placed(Tile.MINE, "cyd", 4))
    assert income_track(board, layout, THREE) == {"ana": 0, "bob": 0, "cyd": 1000}


# --- a mine's 2 000 $ -------------------------------------------------------------


def test_r5_mine_bank_tie_first_placed() -> None:
    board = small()
    # M1 (7,0) is 4² = 16 from bob's bank B4 (12,1) and from ana's A6 (2,1).
    # The mine itself is 6² = 36 from both saloons (A1, B3): its 1 000 $ go
    # to its placer, ana. Banks A6 and B4 pay their own town's saloon (0 and 1 away).
    layout = lay(
        ("A1", Tile.SALOON, "ana"),
        ("B3", Tile.SALOON, "bob"),
        ("B4", Tile.BANQUE, "bob"),  # seq 3: placed first
        ("A6", Tile.BANQUE, "ana"),  # seq 4
        ("M1", Tile.MINE, "ana"),
    )
    assert nearest_bank(board, layout, "M1") == "B4"
    assert income_track(board, layout, TWO) == {"ana": 2000, "bob": 3000}
    assert Payment("bob", 2000, Reason.MINE, "M1", "B4") in payments(board, layout)
    # The same banks placed the other way round: ana's bank is first.
    swapped = lay(
        ("A1", Tile.SALOON, "ana"),
        ("B3", Tile.SALOON, "bob"),
        ("A6", Tile.BANQUE, "ana"),
        ("B4", Tile.BANQUE, "bob"),
        ("M1", Tile.MINE, "ana"),
    )
    assert nearest_bank(board, swapped, "M1") == "A6"
    assert income_track(board, swapped, TWO) == {"ana": 4000, "bob": 1000}


def test_r5_recomputed_when_bank_destroyed() -> None:
    board = small()
    layout = lay(
        ("A1", Tile.SALOON, "ana"),
        ("B3", Tile.SALOON, "bob"),
        ("B4", Tile.BANQUE, "bob"),
        ("A6", Tile.BANQUE, "ana"),
        ("M1", Tile.MINE, "ana"),
    )
    assert income_track(board, layout, TWO) == {"ana": 2000, "bob": 3000}
    # Dynamitero on B4: the next bank, A6, takes the mine's 2 000 $.
    after = layout.remove("B4")
    assert income_track(board, after, TWO) == {"ana": 4000, "bob": 0}
    # No bank left: the mine pays only its beneficiary.
    assert income_track(board, after.remove("A6"), TWO) == {"ana": 1000, "bob": 0}
    # A bank placed again at the same distance comes after A6: A6 keeps it.
    again = after.place("B4", Placed(Tile.BANQUE, "bob", 9))
    assert nearest_bank(board, again, "M1") == "A6"


def test_r14_mine_income_lost_when_bank_town_unowned() -> None:
    board = small()
    # M2 (7,4): ana's bank A6 (2,1) is 4² + 2² = 20 away, the bank C1 (6,6)
    # 0 + 1² = 1, in town C, which nobody owns: nobody receives the 2 000 $,
    # and the farther bank A6 does not take over. M2 is 6² + 3² = 45 from
    # both saloons: its placer, bob, gets its 1 000 $; C1 is ana's (50 < 74).
    layout = lay(
        ("A1", Tile.SALOON, "ana"),
        ("B3", Tile.SALOON, "bob"),
        ("A6", Tile.BANQUE, "ana"),
        ("C1", Tile.BANQUE, "bob"),
        ("M2", Tile.MINE, "bob"),
    )
    assert nearest_bank(board, layout, "M2") == "C1"
    assert income_track(board, layout, TWO) == {"ana": 2000, "bob": 1000}
    assert not [p for p in payments(board, layout) if p.reason is Reason.MINE]
    # The unowned town's bank destroyed, ana's bank is the nearest.
    assert income_track(board, layout.remove("C1"), TWO) == {"ana": 3000, "bob": 1000}


# --- gares (gm's reading of the network bonus) --------------------------------------------------


def test_gare_alone_pays_only_its_beneficiary() -> None:
    board = small()
    # A7 (1,2) is 0 + 1² = 1 from ana's A1; B7 (13,2) 1 from bob's B3. R1 is
    # damaged: A is cut off, so neither gare is joined to another.
    layout = lay(
        ("A1", Tile.SALOON, "ana"),
        ("B3", Tile.SALOON, "bob"),
        ("A7", Tile.GARE, "bob"),
        ("B7", Tile.GARE, "bob"),
    )
    assert gares_joined(board, layout) == {"A": 1, "B": 1, "C": 0}
    assert income_track(board, layout, TWO) == {"ana": 1000, "bob": 1000}


def test_gare_bonus_counts_every_gare_of_its_network() -> None:
    board = small()
    layout = lay(
        ("A1", Tile.SALOON, "ana"),
        ("B3", Tile.SALOON, "bob"),
        ("C2", Tile.SALOON, "cyd"),
        ("A7", Tile.GARE, "bob"),
        ("B7", Tile.GARE, "bob"),
        ("C7", Tile.GARE, "ana"),
    )
    # R1 repaired: A –J1– B (R2 printed intact); two gares: 2 000 $ more
    # to each town's owner. C7 (7,5) touches cyd's C2: cyd's 1 000 $.
    joined = layout.place("R1", Placed(Tile.DROITE, "cyd", 7))
    assert income_track(board, joined, THREE) == {"ana": 3000, "bob": 3000, "cyd": 1000}
    # R3 repaired too: J1 – C (R4 printed): three gares, 3 000 $ each.
    all_three = joined.place("R3", Placed(Tile.COURBE, "cyd", 8))
    assert income_track(board, all_three, THREE) == {"ana": 4000, "bob": 4000, "cyd": 4000}
    # Dynamitero on R1: A is cut off again, B and C stay joined.
    cut = all_three.remove("R1")
    assert income_track(board, cut, THREE) == {"ana": 1000, "bob": 3000, "cyd": 3000}


def test_gare_in_unowned_town_pays_no_bonus_there() -> None:
    board = small()
    # Two players: town C has no owner. Gares A7 and C7, R1 and R3
    # repaired: one network of two gares. ana (A) gets 2 000 $; C's bonus
    # goes to nobody. C7 (7,5) is 6² + 4² = 52 from A1 and from B3: a tie,
    # its 1 000 $ to its placer, bob.
    layout = lay(
        ("A1", Tile.SALOON, "ana"),
        ("B3", Tile.SALOON, "bob"),
        ("A7", Tile.GARE, "ana"),
        ("C7", Tile.GARE, "bob"),
        rails=("R1", "R3"),
    )
    assert income_track(board, layout, TWO) == {"ana": 3000, "bob": 1000}


# --- permanent cards -----------------------------------------------------------------------------


def test_permanent_cards_change_income_never_below_zero() -> None:
    board = small()
    layout = lay(
        ("A1", Tile.SALOON, "ana"),
        ("B3", Tile.SALOON, "bob"),
        ("A2", Tile.HOTEL, "ana"),
        ("A3", Tile.CIMETIERE, "ana"),
        ("A4", Tile.CIMETIERE, "ana"),
        ("B2", Tile.CIMETIERE, "bob"),
    )
    base = income_track(board, layout, TWO)
    assert base == {"ana": 1000, "bob": 0}  # cemeteries pay nothing
    cards = {
        "ana": [Card.CUISINIER, Card.LILI, Card.CROQUE_MORT, Card.WHISKY, Card.IRONFIST],
        "bob": [Card.CANCAN, Card.PUNAISES, Card.CUISTOT],
    }
    # ana: 1 000 + 1 000 (Cuisinier) + 1 000 (Lili, a hotel in A) + 2 000
    # (Croque-mort, two cemeteries in A) − 1 000 (Whisky) = 4 000; Ironfist
    # Jim counts only in combat. bob: 1 000 (French-cancan) + 0 (Punaises: no
    # hotel in B) − 1 000 (Cuistot) = 0.
    assert income_track(board, layout, TWO, cards) == {"ana": 4000, "bob": 0}
    # Never below zero: bob with Whisky frelaté and nothing else.
    assert income_track(board, layout, TWO, {"bob": [Card.WHISKY]}) == {"ana": 1000, "bob": 0}
    # Punaises where a hotel stands: −1 000; the total still floors at 0.
    hotel_b = layout.place("B1", Placed(Tile.HOTEL, "bob", 7))
    assert income_track(board, hotel_b, TWO, {"bob": [Card.PUNAISES, Card.CANCAN]}) == {
        "ana": 1000,
        "bob": 1000,
    }
    # Lili counts no more once the hotel is destroyed.
    assert income_track(board, layout.remove("A2"), TWO, {"ana": [Card.LILI]}) == {
        "ana": 0,
        "bob": 0,
    }


def test_r13_hotel_destroyed_discards_lili_and_punaises() -> None:
    board = small()
    layout = lay(
        ("A1", Tile.SALOON, "ana"),
        ("B3", Tile.SALOON, "bob"),
        ("A2", Tile.HOTEL, "bob"),
        ("B1", Tile.HOTEL, "ana"),
        ("C1", Tile.HOTEL, "ana"),
    )
    cards = {"ana": [Card.PUNAISES, Card.CUISINIER, Card.LILI], "bob": [Card.WHISKY]}
    # The hotel of ana's town, whoever placed it: ana's Punaises and Lili go.
    assert discarded_with(board, layout, "A2", cards) == {"ana": (Card.PUNAISES, Card.LILI)}
    # bob's town's hotel: bob holds neither card; C has no owner; not a hotel.
    assert discarded_with(board, layout, "B1", cards) == {}
    assert discarded_with(board, layout, "C1", cards) == {}
    assert discarded_with(board, layout, "A1", cards) == {}


def test_legal_places_give_the_track_each_place_would_give() -> None:
    board = default_board()
    layout = lay(("A3", Tile.SALOON, "ana"), ("E2", Tile.SALOON, "bob"))
    for kind in (Tile.RANCH, Tile.GARE, Tile.DROITE, Tile.CIMETIERE):
        places = legal_places(board, layout, kind, "ana", TWO, {"bob": [Card.WHISKY]})
        assert [where for where, _ in places] == list(legal_cells(board, layout, kind))
        for where, track in places:
            after = layout.place(where, Placed(kind, "ana", layout.next_seq))
            assert track == income_track(board, after, TWO, {"bob": [Card.WHISKY]})


# --- properties of random valleys ------------------------------------------------------------------


def check_invariants(layout: Layout) -> None:
    board = default_board()
    for town in board.towns:
        kinds = Counter(layout.tiles[n].kind for n in town.cell_names if n in layout.tiles)
        for kind in (*TOWN_BUILDINGS, Tile.SALOON):
            if kind is not Tile.CIMETIERE:
                assert kinds[kind] <= 1, (town.id, kind)
        station = layout.tiles.get(town.station_name)
        assert station is None or station.kind is Tile.GARE
    for prairie in board.prairies:
        ranches = [n for n in prairie.cell_names if n in layout.tiles]
        assert len(ranches) <= len(prairie.cells)
        assert all(layout.tiles[n].kind is Tile.RANCH for n in ranches)
    for name, placed in layout.tiles.items():
        zone = board.spot(name).zone
        if placed.kind is Tile.RANCH:
            assert zone is Zone.PRAIRIE
        elif placed.kind is Tile.MINE:
            assert zone is Zone.MINE
        elif placed.kind is Tile.GARE:
            assert zone is Zone.STATION
        else:
            assert zone is Zone.BUILDING


@settings(max_examples=40, deadline=None)
@given(
    players=st.integers(2, 6),
    data=st.data(),
)
def test_random_valleys_income_never_negative_and_placements_legal(
    players: int, data: st.DataObject
) -> None:
    board = default_board()
    names = ("ana", "bob", "cyd", "dan", "eve", "fay")[:players]
    layout = Layout()
    for player in names:  # the setup: each saloon in a town nobody owns
        cell = data.draw(st.sampled_from(legal_cells(board, layout, Tile.SALOON)))
        layout = layout.place(cell, Placed(Tile.SALOON, player, layout.next_seq))
    tiles = data.draw(st.permutations(bag(board)))
    cards = data.draw(
        st.dictionaries(st.sampled_from(names), st.lists(st.sampled_from(PERMANENTS), max_size=4))
    )
    turns = data.draw(st.integers(0, len(tiles)))
    for turn, kind in enumerate(tiles[:turns]):
        placer = names[turn % players]
        places = legal_places(board, layout, kind, placer, names, cards)
        for where, track in places:
            assert all(amount >= 0 for amount in track.values())
            assert set(track) == set(names)
            check_invariants(layout.place(where, Placed(kind, placer, layout.next_seq)))
        if places:
            where = data.draw(st.sampled_from([w for w, _ in places]))
            layout = layout.place(where, Placed(kind, placer, layout.next_seq))
        if data.draw(st.integers(0, 9)) == 0 and dynamite_targets(board, layout):
            layout = layout.remove(data.draw(st.sampled_from(dynamite_targets(board, layout))))
        track = income_track(board, layout, names, cards)
        assert all(amount >= 0 for amount in track.values())
