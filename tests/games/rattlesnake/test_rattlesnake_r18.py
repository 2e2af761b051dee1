"""R-18 at every moment it lists: a fortune that reaches the threshold in the
middle of a turn ends the game at once, in play (``gm order``) and in a
scenario file (``docs/scenarios.md``: nothing listed after the win is played,
the turn's income is not collected).

The games that reach the threshold for real are the 4-player game of
``tests/scenarios/rattlesnake-threshold.toml`` (150 000 $ at 4 players)
played to the start of turn 27, with hands given (the file gives none) so
that bob holds what he plays. Its comments work the income out: before turn
27, ana holds 10 000 $, bob 132 000, cyd 11 000, dan 13 000; bob's turn 27
places the gare in A7 and would collect 35 000 at step 5. The bank attack,
which that valley gives nobody to attack, is played on the small valley of
``rattlesnake_support`` with bob's cash set by hand near 200 000 $ (the
threshold at 2 players).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from test_rattlesnake_rules import dealt, say

from gm.cli import cli
from gm.core.fortune import ScriptedDraws
from gm.errors import GMError
from gm.games.rattlesnake import GAME, notation, rules
from gm.games.rattlesnake.model import Phase, State
from gm.store.db import sqlite_backup

SCENARIOS = Path(__file__).parents[2] / "scenarios"
HANDS = (
    'hands = { ana = "1, 2, 3, 4, 5", bob = "Stinky Joe, Chasseur de primes, Whisky frelaté,'
    ' 25, 24", cyd = "6, 8, 9, 11, 12", dan = "14, 15, 16, 18, 19" }'
)
"""None of ana's, cyd's or dan's cards shows a revolver (R-3: 3, 7, 10, 13, 17, 20, 24)."""

SLUG = "seuil"


def _threshold_game(tmp: Path, turn_27: str) -> Path:
    """The threshold game, hands given, its turn 27 replaced by ``turn_27``."""
    text = (SCENARIOS / "rattlesnake-threshold.toml").read_text(encoding="utf-8")
    text = text.replace('first = "ana"\n', f'first = "ana"\n{HANDS}\n', 1)
    text = 'seed = "r18"\n' + text[: text.index("# t27 bob")] + turn_27
    board = "rattlesnake-threshold.board.toml"
    (tmp / board).write_text((SCENARIOS / board).read_text(encoding="utf-8"), encoding="utf-8")
    path = tmp / f"{SLUG}.toml"
    path.write_text(text, encoding="utf-8")
    return path


def gm(db: Path, *args: str) -> Result:
    return CliRunner().invoke(cli, ["--db", str(db), *args])


def status(db: Path) -> dict[str, Any]:
    result = gm(db, "-c", SLUG, "status", "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def cash(summary: dict[str, Any]) -> dict[str, int]:
    return {p["name"]: p["cash"] for p in summary["players"]}


@pytest.fixture(scope="module")
def turn_27(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A database holding the threshold game at bob's turn 27, steps 1 and 2 done."""
    tmp = tmp_path_factory.mktemp("r18")
    db = tmp / "gm.db"
    assert gm(db, "play", str(_threshold_game(tmp, "")), "--keep").exit_code == 0
    for text in ("A7", "action"):
        result = gm(db, "-c", SLUG, "order", "bob", text)
        assert result.exit_code == 0, result.output
    return db


@pytest.fixture
def game(turn_27: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "copie.db"
    sqlite_backup(turn_27, copy)
    return copy


def orders(db: Path, *messages: tuple[str, str]) -> list[Result]:
    return [gm(db, "-c", SLUG, "order", who, text) for who, text in messages]


def test_r18_a_carte_divers_that_reaches_the_threshold_ends_the_game_in_play(game: Path) -> None:
    # before: bob 132 000, dan 13 000. bob sells his Whisky frelaté to dan for
    # 13 000: bob 145 000, dan 0. He lays Stinky Joe in front of ana, then
    # arrests it with the Chasseur de primes: a 5 000 $ bounty, bob
    # 150 000 = the threshold at 4 players: he wins at once, at that card.
    # His « fin » is refused (the game is over) and his 35 000 of income are
    # never collected.
    before = cash(status(game))
    assert before == {"ana": 10000, "bob": 132000, "cyd": 11000, "dan": 13000}
    results = orders(
        game,
        ("bob", "vend Whisky frelaté à dan pour 13000"),
        ("bob", "Stinky Joe devant ana"),
        ("bob", "Chasseur de primes sur Stinky Joe"),
    )
    assert [r.exit_code for r in results] == [0, 0, 0]
    after = status(game)
    assert after["finished"] and after["winners"] == ["bob"] and after["phase"] == "over"
    assert cash(after) == {"ana": 10000, "bob": 150000, "cyd": 11000, "dan": 0}
    (late,) = orders(game, ("bob", "fin"))
    assert late.exit_code != 0 and "[phase/game-over]" in late.output
    assert after["turns"][-1] == {
        "number": 27, "player": "bob", "tile": "gare", "cell": "A7", "income": 0,
    }  # fmt: skip
    assert cash(status(game)) == cash(after)


def test_r18_a_trade_that_reaches_the_threshold_ends_the_game_in_play(game: Path) -> None:
    # the bounty first: bob 132 000 + 5 000 = 137 000; then the trade: dan pays
    # 13 000 for the Whisky frelaté, bob 150 000: the trade wins, and the poker
    # game he would challenge next is refused.
    results = orders(
        game,
        ("bob", "Stinky Joe devant ana"),
        ("bob", "Chasseur de primes sur Stinky Joe"),
        ("bob", "vend Whisky frelaté à dan pour 13000"),
    )
    assert [r.exit_code for r in results] == [0, 0, 0]
    after = status(game)
    assert after["finished"] and after["winners"] == ["bob"]
    assert cash(after) == {"ana": 10000, "bob": 150000, "cyd": 11000, "dan": 0}
    (late,) = orders(game, ("bob", "poker dan 1000"))
    assert late.exit_code != 0 and "[phase/game-over]" in late.output


def test_r18_a_poker_game_that_reaches_the_threshold_ends_the_game_in_play(game: Path) -> None:
    # bob challenges dan for 10 000; dan stays, ana and cyd join (10 000 each):
    # a pot of 40 000. Cards: bob 25, ana 1, cyd 6, dan 14; nobody reacts, no
    # loser shows a revolver: bob takes the pot, 132 000 − 10 000 + 40 000 =
    # 162 000 ≥ 150 000: he wins when the poker game is over. ana 0, cyd 1 000,
    # dan 3 000; no income.
    results = orders(
        game,
        ("bob", "poker dan 10000"),
        ("dan", "je reste"),
        ("ana", "je suis"),
        ("cyd", "je suis"),
        ("bob", "cartes"),
        ("bob", "le 25"),
        ("ana", "le 1"),
        ("cyd", "le 6"),
        ("dan", "le 14"),
    )
    assert [r.exit_code for r in results] == [0] * 9, [r.output for r in results]
    for _ in range(4):  # the reactions, in seating order from the challenger
        who = status(game)["awaiting"]
        if not who:
            break
        (answer,) = orders(game, (who[0], "pas de réaction"))
        assert answer.exit_code == 0, answer.output
    after = status(game)
    assert after["finished"] and after["winners"] == ["bob"]
    assert cash(after) == {"ana": 0, "bob": 162000, "cyd": 1000, "dan": 3000}
    assert after["turns"][-1]["income"] == 0


def test_r18_a_bank_attack_payment_that_reaches_the_threshold_ends_the_game_in_play() -> None:
    # 2 players: 200 000 $. bob, at 195 000, builds a banque in ana's A2 and
    # draws the shots 2 3; he attacks ana's bank with the 2 and ana gives in:
    # half her 10 000, 5 000, to bob: 200 000, he wins at the payment. ana,
    # the bank's owner, does not draw her two shot cards (1 1 stay on the
    # deck), and bob's turn has no income.
    state = dealt(bag="banque", shots="2 3 1 1")
    state = say(say(state, "bob", "A2"), "bob", "coups").but(cash=(10000, 195000))
    state = say(state, "bob", "attaque ana 2")
    state = say(state, "ana", "passe")
    assert state.phase is Phase.OVER and state.winners == ("bob",)
    assert (state.cash_of("ana"), state.cash_of("bob")) == (5000, 200000)
    assert state.shots_of("ana") == () and state.shot_deck[:2] == (1, 1)
    assert state.current is not None and state.current.income == 0


# --- the scenario reader ----------------------------------------------------------------------


def test_r18_a_scenario_turn_won_at_a_carte_divers_ends_there(tmp_path: Path, db: str) -> None:
    # the same turn 27 as in play, written in the file: the bounty wins (bob
    # 150 000), and the turn has no « fin » to say: the file plays to its end,
    # finished, with turn 27's income 0.
    path = _threshold_game(
        tmp_path,
        '[[turns]]\nplayer = "bob"\ntile = "A7"\ndraw = "action"\ndivers = ['
        '"vend Whisky frelaté à dan pour 13000", "Stinky Joe devant ana",'
        ' "Chasseur de primes sur Stinky Joe"]\n',
    )
    result = CliRunner().invoke(cli, ["--db", db, "play", str(path), "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["finished"] and summary["winners"] == ["bob"]
    assert cash(summary) == {"ana": 10000, "bob": 150000, "cyd": 11000, "dan": 0}
    assert len(summary["turns"]) == 27 and summary["turns"][-1]["income"] == 0


def test_r18_a_scenario_turn_won_at_a_poker_game_ends_there(tmp_path: Path, db: str) -> None:
    # turn 27's poker game as in play: bob 162 000, the bank attack listed
    # before it (poker_first) would have been played; here nothing follows.
    path = _threshold_game(
        tmp_path,
        '[[turns]]\nplayer = "bob"\ntile = "A7"\ndraw = "action"\n[turns.poker]\n'
        'challenged = "dan"\nstake = 10000\njoiners = ["ana", "cyd"]\n'
        'cards = { bob = "25", ana = "1", cyd = "6", dan = "14" }\n',
    )
    result = CliRunner().invoke(cli, ["--db", db, "play", str(path), "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["finished"] and summary["winners"] == ["bob"]
    assert cash(summary) == {"ana": 0, "bob": 162000, "cyd": 1000, "dan": 3000}
    assert summary["turns"][-1]["income"] == 0


def _feed(state: State, steps: list[Any], change: Callable[[State], State]) -> State:
    """``gm play``'s loop over a turn's steps (``gm.service.scenario.play``), on
    the pure rules; ``change`` sets the cash once step 2 is done."""
    for step in steps:
        if step.when is not None and not step.when(state):
            continue
        actor = step.actor_of(state) if step.actor_of is not None else step.actor
        for command in notation.parse(state, actor, step.text or ""):
            for event in rules.decide(state, actor, command, ScriptedDraws()):
                state = rules.evolve(state, event)
        if step.where.endswith(", draw"):
            state = change(state)
    return state


BANK_WIN = {"target": "ana", "combat": ["bob 2", "ana passe"]}


@pytest.mark.parametrize(
    ("turn", "refused"),
    [
        # the bounty wins; the Whisky frelaté listed after it is refused
        (
            {"divers": ["Stinky Joe devant ana", "Chasseur de primes sur Stinky Joe",
                        "Whisky frelaté devant ana"]},
            "divers 3",
        ),
        # the bounty wins; the bank attack still to come is refused
        (
            {"divers": ["Stinky Joe devant ana", "Chasseur de primes sur Stinky Joe"],
             "bank": BANK_WIN},
            "bank",
        ),
        # the bank attack's payment wins; the poker game after it is refused
        ({"bank": BANK_WIN, "poker": {"challenged": "ana", "stake": 1000}}, "poker, challenge"),
        # the bank attack's payment wins: its blows listed after the last are refused
        ({"bank": {"target": "ana", "combat": ["bob 2", "ana passe", "bob 1"]}}, "blow 3"),
    ],
    ids=["divers-after-a-card", "bank-after-a-card", "poker-after-the-bank", "blow-after-the-bank"],
)  # fmt: skip
def test_r18_a_scenario_lists_nothing_after_a_win_in_the_middle_of_a_turn(
    turn: dict[str, Any], refused: str
) -> None:
    # 2 players, 200 000 $: bob at 195 000 once he has drawn; the bounty
    # (+5 000) or ana giving in to his attack (half her 10 000) brings him to
    # 200 000. What the file lists after that moment is refused, naming it.
    state = dealt(
        bag="banque",
        hands={"ana": "1, 2, 3, 4, 5", "bob": "Stinky Joe, Chasseur, Whisky, 7, 8"},
        shots="2 3 1 1",
    )
    entry = {"player": "bob", "tile": "A2", "draw": "coups", **turn}
    steps = [s for s in GAME.scenario({"turns": [entry]}) if s.where.startswith("turn 1")]
    cut = next(i for i, s in enumerate(steps) if s.where == f"turn 1, {refused}")
    state = _feed(state, steps[:cut], lambda s: s.but(cash=(10000, 195000)))
    assert state.phase is Phase.OVER and state.winners == ("bob",)
    assert state.cash_of("bob") == 200000
    step = steps[cut]
    with pytest.raises(GMError, match=r"the game is over"):
        actor = step.actor_of(state) if step.actor_of is not None else step.actor
        for command in notation.parse(state, actor, step.text or ""):
            rules.decide(state, actor, command, ScriptedDraws())
    # and the turn's own « fin » is not said: nothing is refused for it
    end = next(s for s in steps if s.where == "turn 1, end")
    assert end.when is not None and not end.when(state)
