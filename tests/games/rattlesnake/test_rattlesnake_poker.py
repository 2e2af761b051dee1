"""Rattlesnake City's poker machine (R-9, R-16, R-17), one test per ruling, plus
Hypothesis properties over random legal poker games (gm/games/rattlesnake/rules.md).

Players are seated in the order given; everyone starts with 10 000 $ unless told.
Amounts are worked out by hand in the comments.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from gm.errors import GMError, IllegalOrderError, PhaseError
from gm.games.rattlesnake import combat as fight
from gm.games.rattlesnake import poker
from gm.games.rattlesnake.poker import (
    COYOTE,
    GOUDRON,
    PRO,
    REVOLVERS,
    TRICHEUR,
    Card,
    Poker,
    Seat,
    Stage,
    Why,
)


def table(**hands: tuple[Card, ...]) -> list[Seat]:
    """Seats in the order given, 10 000 $ and two shot cards (2, 3) each."""
    return [Seat(name, 10_000, hand, (2, 3)) for name, hand in hands.items()]


def cash(p: Poker) -> dict[str, int]:
    return {s.name: s.cash for s in p.seats}


def hand(p: Poker, name: str) -> tuple[Card, ...]:
    return p.seat(name).hand


def choose_all(p: Poker, **cards: int | None) -> Poker:
    for name, card in cards.items():
        p = poker.choose(p, name, card)
    return p


def test_r9_reactions_once_around_from_challenger() -> None:
    # Seating ana, bob, cyd, dan; cyd challenges ana, bob joins, dan stays out. Reactions go
    # round once from the challenger among those showing a card: cyd, ana, bob — dan never.
    seats = table(ana=(4, TRICHEUR), bob=(6, PRO, 2), cyd=(8,), dan=(10, TRICHEUR))
    p = poker.challenge(seats, "cyd", "ana", 3000)
    p = poker.close_joins(poker.join(poker.stay(p, "ana"), "bob"))
    p = choose_all(p, bob=6, cyd=8, ana=4)
    assert p.stage is Stage.REACT and p.queue == ("cyd", "ana", "bob")
    assert poker.awaiting(p) == ("cyd",)
    with pytest.raises(IllegalOrderError) as refused:
        poker.no_reaction(p, "ana")  # not her turn yet
    assert refused.value.params["turn"] == "cyd"
    p = poker.no_reaction(p, "cyd")
    assert poker.awaiting(p) == ("ana",)
    with pytest.raises(GMError):
        poker.cheat(p, "dan", "cyd")  # not a participant: never reacts
    p = poker.no_reaction(p, "ana")
    assert poker.awaiting(p) == ("bob",)
    # bob, last, takes his 6 back and shows 2: lower, but the round is over after him.
    p = poker.take_back(p, "bob", 2)
    assert p.stage is Stage.DONE and p.taker == "cyd"  # 8 > 4 > 2
    with pytest.raises(PhaseError):
        poker.no_reaction(p, "cyd")  # once around: no second turn


def test_r16_coyote_before_forced_draw() -> None:
    # bob holds a Coyote and no game card. He may escape first.
    seats = table(ana=(9,), bob=(COYOTE, "Whisky frelaté"), cyd=(5,))
    p = poker.escape(poker.challenge(seats, "ana", "bob", 2000), "bob")
    assert p.escaped and p.stage is Stage.JOIN and hand(p, "bob") == ("Whisky frelaté",)
    # If he stays, the engine deals him an action card, after which there is no escape.
    p = poker.stay(poker.challenge(seats, "ana", "bob", 2000), "bob")
    assert p.stage is Stage.DRAW and poker.awaiting(p) == ()
    with pytest.raises(PhaseError) as refused:
        poker.escape(p, "bob")
    assert refused.value.code == "rattlesnake/not-now"
    p = poker.forced_draw(p, 14)
    assert hand(p, "bob") == (COYOTE, "Whisky frelaté", 14) and p.stage is Stage.JOIN
    with pytest.raises(PhaseError):
        poker.escape(p, "bob")
    assert p.pot == 4000  # both stakes in: bob plays
    # A challenged who holds a game card stays without drawing.
    p = poker.stay(poker.challenge(table(ana=(9,), bob=(COYOTE, 3)), "ana", "bob", 2000), "bob")
    assert p.stage is Stage.JOIN


def test_r16_stake_drops_to_cash() -> None:
    # ana stakes 6 000; bob has 4 000: the stake drops to 4 000, ana gets 2 000 back;
    # the pot holds 4 000 + 4 000 = 8 000; cyd then joins at 4 000 (pot 12 000).
    seats = [Seat("ana", 10_000, (9,)), Seat("bob", 4000, (3,)), Seat("cyd", 5000, (1,))]
    p = poker.stay(poker.challenge(seats, "ana", "bob", 6000), "bob")
    assert p.dropped and p.stake == 4000 and p.pot == 8000
    assert [(t.source, t.target, t.amount, t.why) for t in p.transfers] == [
        ("ana", None, 6000, Why.STAKE),
        (None, "ana", 2000, Why.REFUND),
        ("bob", None, 4000, Why.STAKE),
    ]
    assert cash(p) == {"ana": 6000, "bob": 0, "cyd": 5000}
    p = poker.join(p, "cyd")
    assert p.pot == 12_000 and cash(p)["cyd"] == 1000
    # bob with enough cash: no drop.
    p = poker.stay(poker.challenge(table(ana=(9,), bob=(3,)), "ana", "bob", 6000), "bob")
    assert not p.dropped and p.stake == 6000 and p.pot == 12_000


def test_r16_lower_only_for_poor_joiner() -> None:
    seats = [
        Seat("ana", 10_000, (9,)),
        Seat("bob", 10_000, (3,)),
        Seat("cyd", 8000, (5,)),
        Seat("dan", 3000, (7,)),
        Seat("eve", 1000, (PRO,)),  # poor but no game card: cannot join, does not count
    ]
    p = poker.stay(poker.challenge(seats, "ana", "bob", 6000), "bob")
    p = poker.join(p, "cyd")  # 8 000 covers 6 000: pot 18 000
    with pytest.raises(IllegalOrderError) as refused:
        poker.join(p, "dan")
    assert refused.value.code == "rattlesnake/cannot-cover"
    assert poker.too_poor(p) == ("dan",)
    with pytest.raises(IllegalOrderError):
        poker.lower(p, "bob", 3000)  # only the challenger lowers
    with pytest.raises(IllegalOrderError) as refused:
        poker.lower(p, "ana", 4000)  # dan cannot cover 4 000 either
    assert refused.value.code == "rattlesnake/lower-amount"
    # Lowered to 3 000 for everyone: ana, bob and cyd get 3 000 back each; pot 9 000,
    # then dan's 3 000: 12 000.
    p = poker.join(poker.lower(p, "ana", 3000), "dan")
    assert p.stake == 3000 and p.pot == 12_000
    assert cash(p) == {"ana": 7000, "bob": 7000, "cyd": 5000, "dan": 0, "eve": 1000}
    assert {s.name: s.bet for s in p.seats if s.playing} == {
        "ana": 3000,
        "bob": 3000,
        "cyd": 3000,
        "dan": 3000,
    }
    # With nobody too poor, lowering is refused.
    with pytest.raises(IllegalOrderError) as refused:
        poker.lower(p, "ana", 2000)
    assert refused.value.code == "rattlesnake/cannot-lower"


def test_r16_escape_no_joiner_no_game() -> None:
    seats = table(ana=(9,), bob=(COYOTE, 4), cyd=(12,))
    p = poker.escape(poker.challenge(seats, "ana", "bob", 5000), "bob")
    with pytest.raises(IllegalOrderError):
        poker.join(p, "bob")  # the challenged who escaped does not come back as a joiner
    done = poker.close_joins(p)
    assert done.stage is Stage.DONE and done.taker is None and done.pot == 0
    assert cash(done) == {"ana": 10_000, "bob": 10_000, "cyd": 10_000}
    assert done.discards == (COYOTE,) and hand(done, "ana") == (9,)
    # With a joiner, the game goes on without the challenged: ana against cyd.
    p = poker.close_joins(poker.join(p, "cyd"))
    assert p.stage is Stage.CARDS and poker.awaiting(p) == ("ana", "cyd")
    p = choose_all(p, cyd=12, ana=9)
    p = poker.no_reaction(poker.no_reaction(p, "ana"), "cyd")
    assert p.taker == "cyd" and cash(p) == {"ana": 5000, "bob": 10_000, "cyd": 15_000}


def test_r16_no_card_lone_opponent_takes_pot_unseen() -> None:
    # ana 3 000 against bob; ana chooses 5; bob, last, plays none: ana takes the 6 000 pot,
    # her 5 goes to the discard pile unseen; nothing is revealed, no reaction.
    seats = table(ana=(5, TRICHEUR), bob=(11,))
    p = poker.close_joins(poker.stay(poker.challenge(seats, "ana", "bob", 3000), "bob"))
    with pytest.raises(IllegalOrderError) as refused:
        poker.choose(p, "bob", None)  # the challenged picks last
    assert refused.value.code == "rattlesnake/challenged-last"
    with pytest.raises(IllegalOrderError) as refused:
        poker.choose(p, "ana", None)  # only the challenged may play none
    assert refused.value.params["legal"] == [5]
    p = choose_all(p, ana=5, bob=None)
    assert p.stage is Stage.DONE and not p.revealed and p.unseen == 5 and p.taker == "ana"
    assert cash(p) == {"ana": 13_000, "bob": 7000} and p.discards == (5,)
    assert hand(p, "bob") == (11,) and hand(p, "ana") == (TRICHEUR,)
    # With two opponents, bob is out but his stake stays: ana 5 and cyd 9 play for 9 000.
    seats = table(ana=(5,), bob=(11,), cyd=(9,))
    p = poker.challenge(seats, "ana", "bob", 3000)
    p = poker.close_joins(poker.join(poker.stay(p, "bob"), "cyd"))
    p = choose_all(p, ana=5, cyd=9, bob=None)
    assert p.stage is Stage.REACT and p.showing == ("ana", "cyd")
    p = poker.no_reaction(poker.no_reaction(p, "ana"), "cyd")
    assert p.taker == "cyd" and cash(p) == {"ana": 7000, "bob": 7000, "cyd": 16_000}


def test_r17_pro_keeps_taken_back_card() -> None:
    # ana 12 against bob 15; ana takes her 12 back and shows 20: she wins 20 > 15. The 12
    # stays in her hand; 20, 15 and the Joueur professionnel are discarded.
    seats = table(ana=(12, 20, PRO), bob=(15,))
    p = poker.close_joins(poker.stay(poker.challenge(seats, "ana", "bob", 2000), "bob"))
    p = choose_all(p, ana=12, bob=15)
    with pytest.raises(IllegalOrderError) as refused:
        poker.take_back(p, "ana", 15)  # another game card *from her hand*
    assert refused.value.params["legal"] == [20]
    p = poker.no_reaction(poker.take_back(p, "ana", 20), "bob")
    assert p.taker == "ana" and hand(p, "ana") == (12,)
    assert Counter(p.discards) == Counter([PRO, 20, 15]) and 12 not in p.discards


def test_r17_pro_after_tricheur_takes_received_card() -> None:
    # ana 5, bob 18, cyd 9. ana cheats with bob: ana shows 18, bob 5; no Goudron. bob's
    # Joueur professionnel takes back the card *received*, the 5, and shows 21: bob wins.
    # The 5 ends in bob's hand, not ana's, and is not discarded.
    seats = table(ana=(5, TRICHEUR), bob=(18, 21, PRO), cyd=(9,))
    p = poker.challenge(seats, "ana", "bob", 1000)
    p = poker.close_joins(poker.join(poker.stay(p, "bob"), "cyd"))
    p = choose_all(p, ana=5, cyd=9, bob=18)
    p = poker.cheat(p, "ana", "bob")
    assert (p.seat("ana").card, p.seat("bob").card) == (18, 5) and p.stage is Stage.TAR
    p = poker.take_back(poker.let_stand(p), "bob", 21)
    p = poker.no_reaction(p, "cyd")
    assert p.taker == "bob" and hand(p, "bob") == (5,) and hand(p, "ana") == ()
    assert Counter(p.discards) == Counter([TRICHEUR, PRO, 18, 21, 9])


def test_r17_goudron_undoes_swap_and_shares_forfeit() -> None:
    # ana challenges bob for 5 000, cyd joins: pot 15 000; dan stays out, holding Goudron.
    # ana 6, cyd 20, bob 11. ana cheats with cyd; dan's Goudron undoes it, and ana's 5 000
    # is shared among bob, cyd and dan: 5 000 / 3 = 1 666 → 1 000 each; 2 000 stay in the
    # pot, which is 12 000. cyd wins with her own 20. Cash: ana 5 000; bob 10−5+1 = 6 000;
    # cyd 10−5+1+12 = 18 000; dan 11 000 (40 000 in all, as before).
    seats = table(ana=(6, TRICHEUR), bob=(11,), cyd=(20,), dan=(GOUDRON,))
    p = poker.challenge(seats, "ana", "bob", 5000)
    p = poker.close_joins(poker.join(poker.stay(p, "bob"), "cyd"))
    p = poker.cheat(choose_all(p, ana=6, cyd=20, bob=11), "ana", "cyd")
    with pytest.raises(IllegalOrderError) as refused:
        poker.tar(p, "ana")
    assert refused.value.code == "rattlesnake/own-tricheur"
    p = poker.tar(p, "dan")
    assert (p.seat("ana").card, p.seat("cyd").card) == (6, 20) and p.forfeited == "ana"
    assert [(t.target, t.amount) for t in p.transfers if t.why is Why.FORFEIT] == [
        ("bob", 1000),
        ("cyd", 1000),
        ("dan", 1000),
    ]
    assert p.pot == 12_000 and poker.awaiting(p) == ("bob",)
    p = poker.no_reaction(poker.no_reaction(p, "bob"), "cyd")
    assert p.taker == "cyd"
    assert cash(p) == {"ana": 5000, "bob": 6000, "cyd": 18_000, "dan": 11_000}
    assert Counter(p.discards) == Counter([TRICHEUR, GOUDRON, 6, 20, 11])


def test_r17_goudron_does_not_use_up_reaction() -> None:
    # ana cheats with bob; cyd, yet to react, throws Goudron & Plumes and still reacts
    # later in her turn (a Joueur professionnel).
    seats = table(ana=(6, TRICHEUR), bob=(11,), cyd=(8, 14, GOUDRON, PRO))
    p = poker.challenge(seats, "ana", "bob", 1000)
    p = poker.close_joins(poker.join(poker.stay(p, "bob"), "cyd"))
    p = poker.tar(poker.cheat(choose_all(p, ana=6, cyd=8, bob=11), "ana", "bob"), "cyd")
    assert not p.seat("cyd").reacted and poker.awaiting(p) == ("bob",)
    p = poker.take_back(poker.no_reaction(p, "bob"), "cyd", 14)
    assert p.taker == "cyd" and hand(p, "cyd") == (8,)
    # A player who has already reacted may still throw it: ana passes, bob cheats with cyd,
    # ana answers.
    seats = table(ana=(6, GOUDRON), bob=(11, TRICHEUR), cyd=(8,))
    p = poker.challenge(seats, "ana", "bob", 1000)
    p = poker.close_joins(poker.join(poker.stay(p, "bob"), "cyd"))
    p = poker.no_reaction(choose_all(p, ana=6, cyd=8, bob=11), "ana")
    p = poker.tar(poker.cheat(p, "bob", "cyd"), "ana")
    assert p.seat("bob").card == 11 and p.forfeited == "bob" and poker.awaiting(p) == ("cyd",)


def five_players(stake: int) -> Poker:
    # ana 7 (revolver), bob 22, cyd 13 (revolver), dan 9, eve 15; all in at ``stake``.
    seats = table(ana=(7,), bob=(22, COYOTE), cyd=(13, COYOTE), dan=(9, COYOTE), eve=(15, COYOTE))
    p = poker.challenge(seats, "ana", "bob", stake)
    p = poker.stay(p, "bob")
    for name in ("cyd", "dan", "eve"):
        p = poker.join(p, name)
    p = choose_all(poker.close_joins(p), ana=7, cyd=13, dan=9, eve=15, bob=22)
    for name in ("ana", "bob", "cyd", "dan", "eve"):
        p = poker.no_reaction(p, name)
    return p


def test_r17_fleers_share_rounded_down() -> None:
    # Pot 5 × 4 000 = 20 000. bob (22) wins the cards; ana (7) starts the combat. bob,
    # dan and eve flee: 20 000 / 3 = 6 666 → 6 000 each; 2 000 stay. ana 2, cyd 3, ana
    # passes: cyd, the last to lay a shot card, takes the 2 000.
    p = five_players(4000)
    assert p.winner == "bob" and poker.awaiting(p) == ("ana", "cyd")
    p = poker.start_fight(p, "ana")
    assert p.queue == ("bob", "cyd", "dan", "eve")
    p = poker.flee(p, "bob")
    with pytest.raises(IllegalOrderError):
        poker.flee(p, "dan")  # cyd's turn first
    p = poker.flee(poker.flee(poker.stand(p, "cyd"), "dan"), "eve")
    assert [(t.target, t.amount) for t in p.transfers if t.why is Why.FLIGHT] == [
        ("bob", 6000),
        ("dan", 6000),
        ("eve", 6000),
    ]
    assert p.pot == 2000 and p.stage is Stage.COMBAT
    p = poker.give_up(poker.shoot(poker.shoot(p, "ana", [2]), "cyd", [3]), "ana")
    assert p.taker == "cyd" and p.pot == 0 and p.shot_discards == (2, 3)
    assert cash(p) == {"ana": 6000, "bob": 12_000, "cyd": 8000, "dan": 12_000, "eve": 12_000}
    assert p.seat("ana").shots == (3,) and p.seat("cyd").shots == (2,)


def test_r17_starter_takes_rest_when_all_flee() -> None:
    # Pot 15 000; ana's 3 (revolver) loses to bob's 20; ana starts; bob and cyd flee:
    # 15 000 / 2 = 7 500 → 7 000 each; ana takes the 1 000 left, no combat.
    seats = table(ana=(3,), bob=(20, COYOTE), cyd=(8, COYOTE))
    p = poker.challenge(seats, "ana", "bob", 5000)
    p = poker.close_joins(poker.join(poker.stay(p, "bob"), "cyd"))
    p = choose_all(p, ana=3, cyd=8, bob=20)
    for name in ("ana", "bob", "cyd"):
        p = poker.no_reaction(p, name)
    p = poker.flee(poker.flee(poker.start_fight(p, "ana"), "bob"), "cyd")
    assert p.stage is Stage.DONE and p.taker == "ana" and p.combat is None
    assert cash(p) == {"ana": 6000, "bob": 12_000, "cyd": 12_000}
    assert Counter(p.discards) == Counter([COYOTE, COYOTE, 3, 20, 8])


def test_r17_one_combat_at_most() -> None:
    p = five_players(1000)
    with pytest.raises(IllegalOrderError) as refused:
        poker.start_fight(p, "bob")  # the winner has no combat to start
    assert refused.value.params["legal"] == ["ana", "cyd"]
    p = poker.start_fight(p, "ana")
    with pytest.raises(PhaseError):
        poker.start_fight(p, "cyd")  # ana's combat is the one
    for name in ("bob", "cyd", "dan", "eve"):
        p = poker.stand(p, name)
    p = poker.shoot(p, "ana", [2])
    for name in ("bob", "cyd", "dan", "eve"):
        p = poker.give_up(p, name)
    assert p.taker == "ana" and p.stage is Stage.DONE
    with pytest.raises(PhaseError):
        poker.start_fight(p, "cyd")
    # When every loser showing a revolver declines, the winner takes the pot.
    p = poker.decline(poker.decline(five_players(1000), "cyd"), "ana")
    assert p.taker == "bob" and cash(p)["bob"] == 14_000


def test_missed_deadlines_default_to_the_least_move() -> None:
    # ana challenges bob for 2 000; cyd joins. Every deadline missed: bob stays, the joins
    # close, ana shows her lowest card 3, cyd her 5, bob (last) none: out, his stake stays.
    # No reaction; cyd's 5 beats ana's 3 (a revolver), ana does not start a combat: cyd
    # takes the 6 000 pot. Net: ana −2 000, bob −2 000, cyd +4 000.
    seats = table(ana=(9, 3), bob=(12,), cyd=(5, 20))
    p = poker.default(poker.challenge(seats, "ana", "bob", 2000))
    assert p.stage is Stage.JOIN and p.seat("bob").playing
    p = poker.default(poker.join(p, "cyd"))
    p = poker.default(p)
    assert p.showing == ("ana", "cyd") and (p.seat("ana").card, p.seat("cyd").card) == (3, 5)
    p = poker.default(poker.default(p))
    assert p.stage is Stage.REVOLVER and poker.awaiting(p) == ("ana",)
    p = poker.default(p)
    assert p.taker == "cyd" and poker.net(p) == {"ana": -2000, "bob": -2000, "cyd": 4000}
    assert hand(p, "bob") == (12,) and Counter(p.discards) == Counter([3, 5])
    with pytest.raises(PhaseError):
        poker.default(p)
    # In the combat, a missed deadline is a passe.
    p = poker.start_fight(five_players(1000), "ana")
    for name in ("bob", "cyd", "dan", "eve"):
        p = poker.stand(p, name)
    p = poker.shoot(p, "ana", [3])
    for _ in range(4):
        p = poker.default(p)
    assert p.taker == "ana" and p.combat is not None and p.combat.winner == "ana"


# -- properties ----------------------------------------------------------------------------

DECK: list[Card] = [*range(1, 26), *[TRICHEUR] * 3, *[PRO] * 3, *[COYOTE] * 4, GOUDRON]
DECK += ["Whisky frelaté", "Ironfist Jim", "Dynamitero"]


@st.composite
def games(draw: st.DrawFn) -> tuple[Poker, list[int]]:
    n = draw(st.integers(2, 5))
    # A dozen game cards with every reaction card: dense enough hands that Tricheurs,
    # Goudron & Plumes, flights and combats all happen often.
    numbers = draw(st.lists(st.integers(1, 25), min_size=12, max_size=12, unique=True))
    deck = draw(st.permutations([*numbers, *(c for c in DECK if not isinstance(c, int))]))
    sizes = draw(st.lists(st.integers(0, 6), min_size=n, max_size=n))
    seats, at = [], 0
    for i, size in enumerate(sizes):
        shots = draw(st.lists(st.sampled_from([1, 2, 3]), max_size=4))
        perms = draw(st.lists(st.sampled_from([fight.IRONFIST, fight.STINKY]), max_size=1))
        money = draw(st.integers(0, 12)) * 1000
        seats.append(Seat(f"p{i}", money, tuple(deck[at : at + size]), tuple(shots), tuple(perms)))
        at += size
    rich = [s.name for s in seats if s.cash >= 1000 and poker.game_cards(s.hand)]
    assume(rich)
    challenger = draw(st.sampled_from(rich))
    challenged = draw(st.sampled_from([s.name for s in seats if s.name != challenger]))
    stake = draw(st.integers(1, next(s.cash for s in seats if s.name == challenger) // 1000)) * 1000
    game = poker.challenge(seats, challenger, challenged, stake)
    return game, draw(st.lists(st.integers(0, 10_000), min_size=120, max_size=120))


Move = Callable[[Poker], Poker]


def legal_moves(p: Poker, spare: Card) -> list[Move]:
    """Every legal move now (a sample for the multi-choice ones), as functions."""
    moves: list[Move] = []
    s = p.seat
    match p.stage:
        case Stage.ESCAPE:
            moves.append(lambda q: poker.stay(q, q.challenged))
            if COYOTE in s(p.challenged).hand:
                moves.append(lambda q: poker.escape(q, q.challenged))
        case Stage.DRAW:
            moves.append(lambda q: poker.forced_draw(q, spare))
        case Stage.JOIN:
            moves.append(poker.close_joins)
            for name in poker.could_join(p):
                if s(name).cash >= p.stake:
                    moves.append(lambda q, n=name: poker.join(q, n))
            for amount in range(0, p.stake, 1000):
                if any(s(n).cash >= amount for n in poker.too_poor(p)):
                    moves.append(lambda q, a=amount: poker.lower(q, q.challenger, a))
        case Stage.CARDS:
            for name in poker.awaiting(p):
                for card in poker.game_cards(s(name).hand):
                    moves.append(lambda q, n=name, c=card: poker.choose(q, n, c))
                if name == p.challenged:
                    moves.append(lambda q, n=name: poker.choose(q, n, None))
        case Stage.REACT:
            (name,) = poker.awaiting(p)
            moves.append(lambda q, n=name: poker.no_reaction(q, n))
            if TRICHEUR in s(name).hand:
                for other in p.showing:
                    if other != name:
                        moves.append(lambda q, n=name, o=other: poker.cheat(q, n, o))
            if PRO in s(name).hand:
                for card in poker.game_cards(s(name).hand):
                    moves.append(lambda q, n=name, c=card: poker.take_back(q, n, c))
        case Stage.TAR:
            moves.append(poker.let_stand)
            assert p.swap is not None
            for seat in p.seats:
                if GOUDRON in seat.hand and seat.name != p.swap[0]:
                    moves.append(lambda q, n=seat.name: poker.tar(q, n))
        case Stage.REVOLVER:
            for name in poker.awaiting(p):
                moves.append(lambda q, n=name: poker.decline(q, n))
                if fight.can_open(s(name).shots, s(name).permanents):
                    moves.append(lambda q, n=name: poker.start_fight(q, n))
        case Stage.FLIGHT:
            (name,) = poker.awaiting(p)
            moves.append(lambda q, n=name: poker.stand(q, n))
            if COYOTE in s(name).hand:
                moves.append(lambda q, n=name: poker.flee(q, n))
        case Stage.COMBAT:
            assert p.combat is not None
            (name,) = poker.awaiting(p)
            for cards in fight.legal_shots(p.combat, name):
                moves.append(lambda q, n=name, c=cards: poker.shoot(q, n, c))
            if fight.can_pass(p.combat, name):
                moves.append(lambda q, n=name: poker.give_up(q, n))
    return moves


SPARE: Card = "Cuisinier français"  # the forced draw's card: never in the dealt deck


def play(start: Poker, choices: list[int]) -> list[Poker]:
    seen = [start]
    p = start
    for pick in choices:
        if p.stage is Stage.DONE:
            break
        moves = legal_moves(p, SPARE)
        assert moves, p.stage
        p = moves[pick % len(moves)](p)
        seen.append(p)
    return seen


def all_cards(p: Poker) -> Counter[Card]:
    cards: Counter[Card] = Counter()
    for s in p.seats:
        cards.update(s.hand)
        if s.card is not None:
            cards[s.card] += 1
    cards.update(p.played)
    if p.unseen is not None and p.stage is not Stage.DONE:
        cards[p.unseen] += 1
    return cards


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games())
def test_pot_fully_paid_out_and_every_card_in_one_place(case: tuple[Poker, list[int]]) -> None:
    start, choices = case
    seen = play(start, choices)
    end = seen[-1]
    assert end.stage is Stage.DONE  # 120 moves always suffice
    before = sum(s.cash for s in start.seats) + start.pot
    for p in seen:
        # Money: the pot never goes negative, every transfer is positive and in 1 000s,
        # cash plus pot is conserved at every step.
        assert p.pot >= 0 and all(s.cash >= 0 for s in p.seats)
        assert all(t.amount > 0 and t.amount % 1000 == 0 for t in p.transfers)
        assert sum(s.cash for s in p.seats) + p.pot == before
    assert end.pot == 0 and (end.taker is not None or end.escaped)
    # Cards: the dealt cards (and the forced draw) are each in a hand or discarded, once.
    dealt = Counter(c for s in start.seats for c in s.hand)
    drawn = Counter([SPARE]) if any(p.stage is Stage.DRAW for p in seen) else Counter()
    finals: Counter[Card] = Counter(c for s in end.seats for c in s.hand) + Counter(end.discards)
    assert finals == dealt + drawn
    in_hands = {c for s in end.seats for c in s.hand if isinstance(c, int)}
    assert not in_hands & {c for c in end.discards if isinstance(c, int)}
    assert all(s.card is None for s in end.seats)
    # Shot cards: each fighter's hand plus what was laid is what they brought.
    shots_before = Counter(c for s in start.seats for c in s.shots)
    shots_after = Counter(c for s in end.seats for c in s.shots) + Counter(end.shot_discards)
    assert shots_after == shots_before
    if end.combat is not None:
        assert end.combat.over and end.taker == end.combat.winner


ATTEMPTS: list[Callable[[Poker, str, int], Poker]] = [
    lambda p, n, c: poker.escape(p, n),
    lambda p, n, c: poker.stay(p, n),
    lambda p, n, c: poker.forced_draw(p, c),
    lambda p, n, c: poker.join(p, n),
    lambda p, n, c: poker.lower(p, n, c * 1000),
    lambda p, n, c: poker.close_joins(p),
    lambda p, n, c: poker.choose(p, n, c or None),
    lambda p, n, c: poker.cheat(p, n, f"p{c % 5}"),
    lambda p, n, c: poker.tar(p, n),
    lambda p, n, c: poker.let_stand(p),
    lambda p, n, c: poker.take_back(p, n, c),
    lambda p, n, c: poker.no_reaction(p, n),
    lambda p, n, c: poker.start_fight(p, n),
    lambda p, n, c: poker.decline(p, n),
    lambda p, n, c: poker.flee(p, n),
    lambda p, n, c: poker.stand(p, n),
    lambda p, n, c: poker.shoot(p, n, [c % 4]),
    lambda p, n, c: poker.give_up(p, n),
]


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    games(),
    st.integers(0, 30),
    st.sampled_from(range(len(ATTEMPTS))),
    st.sampled_from(["p0", "p1", "p2", "p3", "p4", "nobody"]),
    st.integers(0, 26),
)
def test_illegal_moves_are_refused_and_change_nothing(
    case: tuple[Poker, list[int]], steps: int, attempt: int, name: str, number: int
) -> None:
    start, choices = case
    p = play(start, choices[:steps])[-1]
    before = p
    try:
        after = ATTEMPTS[attempt](p, name, number)
    except GMError as refused:
        assert p == before
        assert refused.code.startswith("rattlesnake/")
    else:
        # Accepted: it must have been one of the legal moves, as the module lists them.
        assert after != before
        if before.stage is Stage.DRAW:
            assert after == poker.forced_draw(before, number)
        else:
            assert after in {poker.act(before, a) for a in poker.legal_actions(before)}


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games())
def test_legal_actions_are_what_the_rules_allow(case: tuple[Poker, list[int]]) -> None:
    # The module's own list of legal actions leads to exactly the states the rules (as this
    # test spells them out, move by move) allow, at every step of a random game.
    start, choices = case
    for p in play(start, choices):
        if p.stage in (Stage.DRAW, Stage.DONE):
            assert poker.legal_actions(p) == ()  # the engine deals the card; the game is over
            continue
        listed = {poker.act(p, a) for a in poker.legal_actions(p)}
        assert listed == {m(p) for m in legal_moves(p, SPARE)}
        assert len(listed) == len(poker.legal_actions(p))  # no action listed twice


def test_revolver_cards_are_the_seven_of_r3() -> None:
    assert sorted(REVOLVERS) == [3, 7, 10, 13, 17, 20, 24]
