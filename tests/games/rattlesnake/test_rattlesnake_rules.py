"""Rattlesnake City's rulings as the engine applies them (gm/games/rattlesnake/rules.md),
one test per ruling, each named after it.

Most tests play a small scenario text with ``gm play --json`` on the small
valley of ``rattlesnake_support`` (towns A, B, C; mines M1, M2; prairies P1
and P2a/P2b; damaged slots R1 droite and R3 courbe): ana's saloon in A1
(0,0), bob's in B3 (14,0), so that the fortune draws nothing the test does
not give. A test that needs a state no short game reaches (a fortune near
the threshold, the last tile of a 52-tile bag) drives the pure rules
(``notation.parse``, ``rules.decide``, ``rules.evolve``) from such a game and
changes only cash or the bag.

R-2 distances used below, squared (``max(|dx|-1,0)² + max(|dy|-1,0)²``):
A2 (1,0) to A1: 0, to B3: 12² = 144; B1 (12,0) to B3: 1, to A1: 11² = 121;
M1 (7,0) to A1 and to B3: 6² = 36, a tie (R-4: the placer); M2 (7,4) to
both: 6² + 3² = 45, a tie; P2a (0,7) to A1: 6² = 36, to B3: 13² + 6² = 205.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from rattlesnake_support import SMALL

from gm.cli import cli
from gm.core.fortune import ScriptedDraws
from gm.core.protocol import GM
from gm.errors import GameOverError, GMError, IllegalOrderError
from gm.games.rattlesnake import GAME, notation, rules
from gm.games.rattlesnake.cards import Card
from gm.games.rattlesnake.commands import ApplyDefault, SetUp
from gm.games.rattlesnake.events import GameEnded
from gm.games.rattlesnake.model import Phase, State
from gm.games.rattlesnake.tiles import Tile, find_tile

HEAD = """\
game = "rattlesnake"
players = ["ana", "bob"]
[options]
board = "small.toml"
"""


def run(tmp_path: Path, db: str, text: str, *args: str) -> Result:
    (tmp_path / "small.toml").write_text(SMALL, encoding="utf-8")
    path = tmp_path / "jeu.toml"
    path.write_text(HEAD + text, encoding="utf-8")
    return CliRunner().invoke(cli, ["--db", db, "play", str(path), *args])


def summary(tmp_path: Path, db: str, text: str) -> dict[str, Any]:
    result = run(tmp_path, db, text, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def player(summary: dict[str, Any], name: str) -> dict[str, Any]:
    return next(p for p in summary["players"] if p["name"] == name)


# --- the pure rules, for states no short game reaches --------------------------------------


def say(state: State, who: str, text: str) -> State:
    """``who``'s message, read and decided as ``gm order`` does."""
    for command in notation.parse(state, who, text):
        for event in rules.decide(state, who, command, ScriptedDraws()):
            state = rules.evolve(state, event)
    return state


def events_of(state: State, who: str, text: str) -> list[Any]:
    out = []
    for command in notation.parse(state, who, text):
        for event in rules.decide(state, who, command, ScriptedDraws()):
            out.append(event)
            state = rules.evolve(state, event)
    return out


def dealt(
    players: tuple[str, ...] = ("ana", "bob"),
    bag: str = "banque, store, hôtel",
    hands: dict[str, str] | None = None,
    shots: str = "",
) -> State:
    """A game on the small valley, dealt and with ana in A1, bob in B3 (and cyd in C1)."""
    options = rules.configure(players, {"board_text": SMALL})
    state = rules.initial_state(players, options)
    given = None
    if hands is not None:
        given = tuple(
            (p, tuple(k for c in cards.split(",") for k in _keys(c))) for p, cards in hands.items()
        )
    command = SetUp(
        first="ana",
        hands=given,
        bag=tuple(_tile(t) for t in bag.split(",")),
        shots=tuple(int(s) for s in shots.split()),
    )
    for event in rules.decide(state, GM, command, ScriptedDraws()):
        state = rules.evolve(state, event)
    for who, cell in zip(players, ("A1", "B3", "C1"), strict=False):
        state = say(state, who, cell)
    return state


def _tile(text: str) -> Tile:
    found = find_tile(text.strip())
    assert found is not None, text
    return found


def _keys(text: str) -> list[str]:
    from gm.games.rattlesnake.cards import find_cards
    from gm.games.rattlesnake.model import card_key

    found = find_cards(text.strip())
    assert len(found) == 1, text
    return [card_key(found[0])]


# --- setup and saloons --------------------------------------------------------------------


def test_setup_first_player_places_first_saloon_and_the_last_to_place_plays_first(
    tmp_path: Path, db: str
) -> None:
    # 3 players, bob drawn first: bob, cyd, ana place in seating order from bob;
    # ana placed last, so she plays turn 1, then bob, then cyd (clockwise).
    text = """\
[setup]
first = "bob"
saloons = { ana = "A1", bob = "B3", cyd = "C4" }
bag = "banque, store, hôtel"
[[turns]]
player = "ana"
tile = "A2"
draw = "action"
[[turns]]
player = "bob"
tile = "B1"
draw = "action"
[[turns]]
player = "cyd"
tile = "C5"
draw = "action"
"""
    head = HEAD.replace('["ana", "bob"]', '["ana", "bob", "cyd"]')
    (tmp_path / "small.toml").write_text(SMALL, encoding="utf-8")
    path = tmp_path / "jeu.toml"
    path.write_text(head + text, encoding="utf-8")
    result = CliRunner().invoke(cli, ["--db", db, "play", str(path), "--json"])
    assert result.exit_code == 0, result.output
    got = json.loads(result.stdout)
    assert [t["player"] for t in got["turns"]][:3] == ["ana", "bob", "cyd"]
    assert [p["town"] for p in got["players"]] == ["A", "B", "C"]
    # each built a paying building in their own town: 1 000 $ of income each
    assert [p["cash"] for p in got["players"]] == [11000, 11000, 11000]


def test_saloons_in_seating_order_from_the_first_player() -> None:
    state = dealt(players=("ana", "bob"), bag="banque")
    assert state.phase is Phase.TILE and state.active == "bob"  # bob placed last
    options = rules.configure(("ana", "bob"), {"board_text": SMALL})
    fresh = rules.initial_state(("ana", "bob"), options)
    for event in rules.decide(fresh, GM, SetUp(first="ana"), ScriptedDraws()):
        fresh = rules.evolve(fresh, event)
    with pytest.raises(IllegalOrderError, match="it is ana's turn to place a saloon, not bob's"):
        say(fresh, "bob", "B3")
    # a station cell is not a building cell
    with pytest.raises(IllegalOrderError, match=r"a saloon cannot go on A7.*legal: A1, A2"):
        say(fresh, "ana", "A7")
    fresh = say(fresh, "ana", "A1")
    # town A is ana's now: no second saloon there
    with pytest.raises(IllegalOrderError, match=r"cannot go on A2.*legal: B1"):
        say(fresh, "bob", "A2")
    with pytest.raises(GMError, match="cannot read 'Z9': a cell"):
        say(fresh, "bob", "Z9")


# --- step 1: R-6 ---------------------------------------------------------------------------


def test_r6_tile_removed_when_no_legal_place(tmp_path: Path, db: str) -> None:
    # Two mine cells (M1, M2): the third mine drawn can go nowhere and leaves the
    # game; bob's turn 3 goes on at step 2. Mines pay 1 000 $ to their placer on
    # the M1/M2 ties (36 = 36, 45 = 45): bob 10 000 + 1 000 (t1) + 1 000 (t3)
    # = 12 000; ana 10 000 + 1 000 (t2) = 11 000.
    got = summary(
        tmp_path,
        db,
        """\
[setup]
first = "ana"
saloons = { ana = "A1", bob = "B3" }
bag = "mine, mine, mine, banque"
[[turns]]
player = "bob"
tile = "M1"
draw = "action"
[[turns]]
player = "ana"
tile = "M2"
draw = "coups"
[[turns]]
player = "bob"
draw = "action"
""",
    )
    assert got["turns"][2] == {
        "number": 3,
        "player": "bob",
        "tile": "mine",
        "cell": None,
        "income": 1000,
    }
    assert (player(got, "bob")["cash"], player(got, "ana")["cash"]) == (12000, 11000)
    assert player(got, "bob")["hand"] == 7 and player(got, "ana")["shots"] == 2
    assert got["board"]["tiles"] == {"A1": "saloon", "B3": "saloon", "M1": "mine", "M2": "mine"}


def test_r6_naming_a_cell_for_a_removed_tile_is_refused(tmp_path: Path, db: str) -> None:
    result = run(
        tmp_path,
        db,
        """\
[setup]
first = "ana"
saloons = { ana = "A1", bob = "B3" }
bag = "mine, mine, mine"
[[turns]]
tile = "M1"
draw = "action"
[[turns]]
tile = "M2"
draw = "action"
[[turns]]
tile = "M1"
draw = "action"
""",
    )
    assert result.exit_code != 0
    assert "turn 3" in result.output and "placing a tile is not possible now" in result.output


# --- step 3, R-13 ---------------------------------------------------------------


def test_r7_chasseur_arrests_joe_and_collects_5000(tmp_path: Path, db: str) -> None:
    # bob lays Stinky Joe in front of ana, then arrests him: the Joe is
    # discarded, bob collects 5 000 $. bob's banque in B1 pays him 1 000 $:
    # 10 000 + 5 000 + 1 000 = 16 000; hand 5 + 1 drawn − 2 played = 4.
    got = summary(
        tmp_path,
        db,
        """\
[setup]
first = "ana"
saloons = { ana = "A1", bob = "B3" }
hands = { ana = "1, 2, 3, 4, 5", bob = "Stinky Joe, Chasseur de primes, 6, 7, 8" }
bag = "banque"
[[turns]]
player = "bob"
tile = "B1"
draw = "action"
divers = ["Stinky Joe devant ana", "Chasseur de primes sur Stinky Joe"]
""",
    )
    bob, ana = player(got, "bob"), player(got, "ana")
    assert (bob["cash"], bob["hand"], bob["income"]) == (16000, 4, 1000)
    assert (ana["cash"], ana["permanents"], ana["income"]) == (10000, [], 0)


def test_r7_chasseur_needs_a_joe_in_play() -> None:
    state = dealt(hands={"ana": "1, 2, 3, 4, 5", "bob": "Chasseur, Ironfist Jim, 6, 7, 8"})
    state = say(say(state, "bob", "B1"), "bob", "action")
    state = say(state, "bob", "Ironfist Jim devant ana")
    before = state
    with pytest.raises(IllegalOrderError, match=r"a Joe in front of a player \(in play: none\)"):
        say(state, "bob", "Chasseur de primes sur Ironfist Jim")
    assert state == before


def test_r12_only_active_player_plays_divers() -> None:
    state = dealt(hands={"ana": "Whisky frelaté, 1, 2, 3, 4", "bob": "5, 6, 7, 8, 9"})
    state = say(say(state, "bob", "B1"), "bob", "action")  # bob's turn, step 3
    with pytest.raises(IllegalOrderError, match="only bob, whose turn it is, may do that now"):
        say(state, "ana", "Whisky frelaté devant bob")
    assert Card.WHISKY in state.hand_of("ana") and not state.permanents_of("bob")


def test_r12_trade_without_price_refused() -> None:
    state = dealt(hands={"ana": "Whisky frelaté, 1, 2, 3, 4", "bob": "5, 6, 7, 8, 9"})
    state = say(say(state, "bob", "B1"), "bob", "action")
    with pytest.raises(GMError, match="pour 0"):
        say(state, "bob", "achète Whisky frelaté à ana")
    # a card that is not a carte divers is never sold: the refusal names it
    with pytest.raises(IllegalOrderError, match="only cartes divers are sold \\(R-12\\), not le 1"):
        say(state, "bob", "achète 1 à ana pour 1000")
    # the buyer must be able to pay: bob holds 10 000 $
    with pytest.raises(IllegalOrderError, match="bob cannot pay 11000"):
        say(state, "bob", "achète Whisky frelaté à ana pour 11000")


def test_r12_bought_card_playable_same_step(tmp_path: Path, db: str) -> None:
    # bob buys ana's Whisky frelaté for 2 000 $ and lays it in front of her at
    # once: ana's income 1 000 (banque in A2, nearest saloon A1) − 1 000 = 0.
    # bob: 10 000 − 2 000 = 8 000, no income (A2 pays ana); ana 10 000 + 2 000.
    got = summary(
        tmp_path,
        db,
        """\
[setup]
first = "ana"
saloons = { ana = "A1", bob = "B3" }
hands = { ana = "Whisky frelaté, 1, 2, 3, 4", bob = "5, 6, 7, 8, 9" }
bag = "banque"
[[turns]]
player = "bob"
tile = "A2"
draw = "coups"
divers = ["achète Whisky à ana pour 2000", "Whisky frelaté devant ana"]
""",
    )
    bob, ana = player(got, "bob"), player(got, "ana")
    assert (bob["cash"], bob["income"], bob["hand"], bob["shots"]) == (8000, 0, 5, 2)
    assert (ana["cash"], ana["income"], ana["hand"]) == (12000, 0, 4)
    assert ana["permanents"] == ["Whisky frelaté"]
    assert got["turns"][0]["income"] == 0


def test_r13_hotel_destroyed_discards_lili_and_punaises(tmp_path: Path, db: str) -> None:
    # bob puts the hotel in A2 (ana's town; income to ana), lays Lili la
    # tigresse (+1 000 while a hotel stands in her town) and Punaises
    # (−1 000 likewise) in front of ana, then dynamites the hotel: both cards
    # go with it. ana's income: 0; bob's: 0 (nothing of his stands).
    got = summary(
        tmp_path,
        db,
        """\
[setup]
first = "ana"
saloons = { ana = "A1", bob = "B3" }
hands = { ana = "1, 2, 3, 4, 5", bob = "Lili la tigresse, Punaises, Dynamitero, 6, 7" }
bag = "hôtel, hôtel"
[[turns]]
player = "bob"
tile = "A2"
draw = "action"
divers = ["Lili la tigresse devant ana", "Punaises devant ana", "Dynamitero sur A2"]
""",
    )
    ana = player(got, "ana")
    assert (ana["permanents"], ana["income"], ana["cash"]) == ([], 0, 10000)
    assert got["board"]["tiles"] == {"A1": "saloon", "B3": "saloon"}
    assert player(got, "bob")["hand"] == 3  # 5 + 1 − 3


def test_r13_hotel_destroyed_engine_discards_the_cards() -> None:
    state = dealt(
        bag="hôtel, hôtel",
        hands={"ana": "1, 2, 3, 4, 5", "bob": "Lili la tigresse, Punaises, Dynamitero, 6, 7"},
    )
    state = say(say(state, "bob", "A2"), "bob", "action")
    state = say(say(state, "bob", "Lili devant ana"), "bob", "Punaises devant ana")
    assert state.income_of("ana") == 1000  # hotel 1 000 + Lili 1 000 − Punaises 1 000
    state = say(state, "bob", "Dynamitero sur A2")
    assert state.permanents_of("ana") == ()
    assert {Card.LILI, Card.PUNAISES, Card.DYNAMITERO} <= set(state.action_discard)
    assert Tile.HOTEL in state.removed


def test_r13_dynamited_cell_free_again() -> None:
    # bob's banque in B1, dynamited by bob himself: the next tile (ana's turn 2,
    # a store) may go to B1 again, and the banque is out of the game.
    state = dealt(
        bag="banque, store", hands={"ana": "1, 2, 3, 4, 5", "bob": "Dynamitero, 6, 7, 8, 9"}
    )
    state = say(say(state, "bob", "B1"), "bob", "action")
    assert state.income_of("bob") == 1000
    state = say(state, "bob", "Dynamitero sur B1")
    assert state.income_of("bob") == 0 and "B1" not in state.layout.tiles
    assert Tile.BANQUE in state.removed
    state = say(state, "bob", "fin")
    assert state.active == "ana" and "B1" in state.current.legal
    state = say(state, "ana", "B1")
    assert state.layout.tiles["B1"].kind is Tile.STORE
    # a saloon is never dynamited, nor the printed track
    state = dealt(bag="banque", hands={"ana": "1, 2, 3, 4, 5", "bob": "Dynamitero, 6, 7, 8, 9"})
    state = say(say(state, "bob", "B1"), "bob", "action")
    with pytest.raises(IllegalOrderError, match=r"targets: B1\)"):
        say(state, "bob", "Dynamitero sur A1")
    with pytest.raises(IllegalOrderError, match=r"targets: B1\)"):
        say(state, "bob", "Dynamitero sur R2")


# --- step 4: R-8, R-15 -----------------------------------------------------------------


BANK_GAME = """\
[setup]
first = "ana"
saloons = { ana = "A1", bob = "B3" }
bag = "banque, store, hôtel"
shots = "2 3 1 1 2 2 3 1 2 3"
[[turns]]
player = "bob"
tile = "A2"
draw = "coups"
bank = { target = "ana", combat = ["bob 2", "ana passe"] }
[[turns]]
player = "ana"
tile = "A3"
draw = "coups"
[[turns]]
player = "bob"
tile = "B1"
draw = "coups"
bank = { target = "ana", combat = ["bob 3", "ana 2 2", "bob 3", "ana passe"] }
"""


def test_r15_bank_attack_combat(tmp_path: Path, db: str) -> None:
    # Turn 1: bob builds a banque in ana's A2 (income to ana), draws shots 2 3
    # and attacks ana's bank with the 2; ana, without a shot card, gives in:
    # half her 10 000 $, 5 000, to bob; then ana, the bank's owner, draws
    # two shot cards, 1 1. bob: 15 000 (no income); ana: 5 000.
    # Turn 2: ana's store in A3: income 2 000; she draws 2 2: 7 000 $.
    # Turn 3: bob's hotel in B1 (income 1 000); he draws 3 1 (holds 3 3 1):
    # bob 3; ana 2 2 → 4 > 3; bob 3 → 6 > 4; ana, holding 1 1 (at most 6, not
    # above 6), passes and loses: half of 7 000 is 3 500, rounded in her
    # favour to 3 000. ana then draws 2 3. bob: 15 000 + 3 000 + 1 000
    # = 19 000, shots 1; ana: 7 000 − 3 000 = 4 000, shots 1 1 2 3.
    got = summary(tmp_path, db, BANK_GAME)
    bob, ana = player(got, "bob"), player(got, "ana")
    assert (bob["cash"], bob["shots"], bob["income"]) == (19000, 1, 1000)
    assert (ana["cash"], ana["shots"], ana["income"]) == (4000, 4, 2000)
    assert [t["income"] for t in got["turns"]][:3] == [0, 2000, 1000]


def test_r15_a_blow_not_above_the_other_total_is_refused(tmp_path: Path, db: str) -> None:
    text = BANK_GAME.replace('"ana 2 2", "bob 3", "ana passe"', '"ana 2 1"')
    result = run(tmp_path, db, text)
    assert result.exit_code != 0
    assert "turn 3" in result.output and "ana" in result.output


def test_r15_no_attack_on_a_player_without_a_bank() -> None:
    state = dealt(bag="store", shots="2 3")
    state = say(say(state, "bob", "B1"), "bob", "coups")
    with pytest.raises(
        IllegalOrderError, match=r"ana owns no town with a bank \(who may be attacked: nobody\)"
    ):
        say(state, "bob", "attaque ana 2")


# --- the end ---------------------------------------------------------------------


def test_r10_last_tile_richest_ties_share() -> None:
    # bob's turn 1 draws the last tile (the bag emptied by hand): the game
    # ends at the end of his turn. His banque in B1 pays 1 000 $: 11 000 each
    # with ana given 11 000 — a tie, both win.
    state = dealt(bag="banque")
    state = state.but(bag=(), cash=(11000, 10000))
    state = say(say(say(state, "bob", "B1"), "bob", "action"), "bob", "fin")
    assert state.phase is Phase.OVER
    assert state.winners == ("ana", "bob") and state.won_by == "last-tile"
    # without the tie, the richest alone
    state = dealt(bag="banque").but(bag=(), cash=(10500, 10000))
    state = say(say(say(state, "bob", "B1"), "bob", "action"), "bob", "fin")
    assert state.winners == ("bob",)


def test_r18_ends_on_last_tile_removed() -> None:
    # the last tile is a third mine: removed, the turn is played, then the game ends
    state = dealt(bag="mine, mine, mine")
    state = say(say(say(state, "bob", "M1"), "bob", "action"), "bob", "fin")
    state = say(say(state, "ana", "M2"), "ana", "action")
    state = state.but(bag=state.bag[:1])  # the next draw, the third mine, is the last tile
    state = say(state, "ana", "fin")
    assert state.phase is Phase.DRAW and state.active == "bob"  # the mine left: step 2
    assert state.current.tile is Tile.MINE and state.current.cell is None
    state = say(say(state, "bob", "action"), "bob", "fin")
    assert state.phase is Phase.OVER and state.won_by == "last-tile"
    # bob 10 000 + 1 000 + 1 000, ana 10 000 + 1 000
    assert (state.cash_of("bob"), state.cash_of("ana"), state.winners) == (12000, 11000, ("bob",))


def test_r18_threshold_stops_turn_no_income() -> None:
    # 2 players: 200 000 $. bob at 195 000 collects the 5 000 $ bounty at step 3
    # and wins at once: no income that turn (his banque's 1 000 $), nothing more.
    state = dealt(hands={"ana": "1, 2, 3, 4, 5", "bob": "Stinky Joe, Chasseur, 6, 7, 8"})
    state = say(say(state, "bob", "B1"), "bob", "action").but(cash=(10000, 195000))
    state = say(state, "bob", "Stinky Joe devant ana")
    events = events_of(state, "bob", "Chasseur de primes sur Stinky Joe")
    assert isinstance(events[-1], GameEnded) and events[-1].winners == ("bob",)
    state = say(state, "bob", "Chasseur de primes sur Stinky Joe")
    assert state.phase is Phase.OVER and state.cash_of("bob") == 200000
    assert state.current.income == 0
    with pytest.raises(GameOverError):
        say(state, "bob", "fin")
    # reached by the income: 199 000 + 1 000 at step 5
    state = dealt().but()
    state = say(say(state, "bob", "B1"), "bob", "action").but(cash=(10000, 199000))
    state = say(state, "bob", "fin")
    assert state.phase is Phase.OVER and state.winners == ("bob",) and state.won_by == "threshold"


def test_r18_nothing_after_a_win_in_a_scenario() -> None:
    # a scenario's divers listed after the winning bounty is refused
    state = dealt(hands={"ana": "1, 2, 3, 4, 5", "bob": "Stinky Joe, Chasseur, Whisky, 7, 8"})
    steps = GAME.scenario(
        {
            "turns": [
                {
                    "player": "bob",
                    "tile": "B1",
                    "draw": "action",
                    "divers": [
                        "Stinky Joe devant ana",
                        "Chasseur de primes sur Stinky Joe",
                        "Whisky frelaté devant ana",
                    ],
                }
            ]
        }
    )
    turn = [s for s in steps if s.where.startswith("turn 1")]
    for step in turn[:3]:
        assert step.actor_of is not None
        state = say(state, step.actor_of(state), step.text or "")
        if step.where.endswith("draw"):
            state = state.but(cash=(10000, 195000))
    state = say(state, turn[3].actor_of(state), turn[3].text or "")  # the bounty wins
    assert state.phase is Phase.OVER
    with pytest.raises(GMError, match=r"the game is over \(R-18\)"):
        turn[4].actor_of(state)


# --- refusals and defaults -----------------------------------------------------------------------


def status(db: str) -> Result:
    return CliRunner().invoke(cli, ["--db", db, "status", "--json"])


def test_refusals_name_what_is_legal_and_change_nothing(tmp_path: Path, db: str) -> None:
    result = run(
        tmp_path,
        db,
        """\
[setup]
first = "ana"
saloons = { ana = "A1", bob = "B3" }
bag = "banque, store"
""",
        "--keep",
    )
    assert result.exit_code == 0, result.output
    before = json.loads(status(db).stdout)
    logged = before.pop("events")
    for who, text, message in [
        (
            "bob",
            "C7",
            "the banque cannot go on C7 (legal: A2, A3, A4, A5, A6, B1, B2, B4, B5, B6, C1",
        ),
        ("ana", "A2", "it is bob's turn, not ana's"),
        ("bob", "gare en A2", "the tile drawn is a banque, not a gare"),
        ("bob", "action", "drawing is not possible now"),
    ]:
        got = CliRunner().invoke(cli, ["--db", db, "order", who, text])
        assert got.exit_code != 0 or message in got.output, got.output
        assert message in got.output, (text, got.output)
        now = json.loads(status(db).stdout)
        logged += 1  # the refusal's record, and nothing else
        assert now.pop("events") == logged
        assert now == before


def test_default_draws_an_action_card_then_ends_the_turn(tmp_path: Path, db: str) -> None:
    result = run(
        tmp_path,
        db,
        """\
[setup]
first = "ana"
saloons = { ana = "A1", bob = "B3" }
bag = "banque, store"
[[turns]]
tile = "B1"
draw = "coups"
""",
        "--keep",
    )
    assert result.exit_code == 0, result.output
    # bob's turn 1 is over (the scenario ends each turn with « fin »): ana's turn 2
    got = json.loads(status(db).stdout)
    assert got["turns"][0]["income"] == 1000
    assert player(got, "bob")["cash"] == 11000
    first = CliRunner().invoke(cli, ["--db", db, "default", "ana"])
    assert first.exit_code == 0, first.output  # ana's tile, placed by the fortune
    second = CliRunner().invoke(cli, ["--db", db, "default", "ana"])
    assert second.exit_code == 0, second.output  # step 2: one action card
    got = json.loads(status(db).stdout)
    assert player(got, "ana")["hand"] == 6 and player(got, "ana")["shots"] == 0
    third = CliRunner().invoke(cli, ["--db", db, "default", "ana"])
    assert third.exit_code == 0, third.output  # steps 3-5: the turn ends, income collected
    got = json.loads(status(db).stdout)
    assert [t["player"] for t in got["turns"]] == ["bob", "ana"]  # the turns played
    assert got["phase"] == "turn-3/tile" and got["awaiting"] == ["bob"]  # bob's turn 3 drawn
    refused = CliRunner().invoke(cli, ["--db", db, "default", "ana"])
    assert refused.exit_code != 0 and "nothing is due from ana" in refused.output


def test_default_in_a_bank_attack_passes() -> None:
    state = dealt(bag="banque", shots="2 3 1 1")
    state = say(say(state, "bob", "A2"), "bob", "coups")
    state = say(state, "bob", "attaque ana 2")
    assert state.phase is Phase.BANK
    for event in rules.decide(state, GM, ApplyDefault("ana"), ScriptedDraws()):
        state = rules.evolve(state, event)
    # ana gave in: half her 10 000 $
    assert (state.cash_of("ana"), state.cash_of("bob")) == (5000, 15000)
    assert state.phase is Phase.FREE and len(state.shots_of("ana")) == 2


def test_r13_dynamited_rail_slot_is_damaged_again() -> None:
    # bob repairs R1 (A–J1) with the droite, then dynamites it: the slot is
    # damaged again, the rail tile out of the game (the printed R2 is no target)
    state = dealt(bag="droite", hands={"ana": "1, 2, 3, 4, 5", "bob": "Dynamitero, 6, 7, 8, 9"})
    state = say(say(state, "bob", "R1"), "bob", "action")
    assert "R1" in state.layout.rails
    state = say(state, "bob", "Dynamitero sur R1")
    assert "R1" not in state.layout.rails and Tile.DROITE in state.removed


def test_r15_one_bank_attack_per_turn() -> None:
    state = dealt(bag="banque", shots="3 3 1 1 2 2")
    state = say(say(state, "bob", "A2"), "bob", "coups")
    state = say(say(state, "bob", "attaque ana 3"), "ana", "passe")
    assert (state.cash_of("ana"), state.cash_of("bob")) == (5000, 15000)
    with pytest.raises(IllegalOrderError, match="one bank attack per turn"):
        say(state, "bob", "attaque ana 3")


def test_r12_cards_in_front_of_a_player_are_never_sold() -> None:
    state = dealt(hands={"ana": "1, 2, 3, 4, 5", "bob": "Cuisinier français, 6, 7, 8, 9"})
    state = say(say(state, "bob", "B1"), "bob", "action")
    state = say(state, "bob", "Cuisinier français")  # in front of bob himself
    assert state.permanents_of("bob") == (Card.CUISINIER,)
    with pytest.raises(IllegalOrderError, match="bob holds no Cuisinier français to sell"):
        say(state, "bob", "vend Cuisinier français à ana pour 1000")


def test_r18_threshold_reached_by_a_trade_ends_at_once() -> None:
    # ana, not the active player, sells her Whisky frelaté to bob for 1 000 $:
    # 199 000 + 1 000 = 200 000, the threshold at 2 players: she wins at once,
    # and bob's turn stops there (no income: his banque's 1 000 $ are not paid)
    state = dealt(hands={"ana": "Whisky frelaté, 1, 2, 3, 4", "bob": "5, 6, 7, 8, 9"})
    state = say(say(state, "bob", "B1"), "bob", "action").but(cash=(199000, 10000))
    state = say(state, "bob", "achète Whisky frelaté à ana pour 1000")
    assert state.phase is Phase.OVER and state.winners == ("ana",)
    assert (state.cash_of("ana"), state.cash_of("bob")) == (200000, 9000)
    assert state.current.income == 0
