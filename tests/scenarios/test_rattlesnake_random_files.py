"""Random legal games of Rattlesnake City, written down as scenario files and
played again by ``gm play FILE --json --keep`` (``docs/scenarios.md``,
rattlesnake).

A game of 2 to 6 players with awkward names (``random_files.NAMES``) is
played through the service on the default valley or on another board (the
campaigns' petite vallée, the boards of this folder's scenarios), every
input drawn from ``legal_inputs``: the fortune deals, fills the bag and
shuffles the decks, and picks the defaults. Now and then the R-18 threshold
is lowered for both plays, so that games end on a win in the middle of a
turn (a card, a trade, a bank payment, a poker game) as well as at an income.
The file written from its log names the players in every role the contract
gives them, in any case and with or without accents: ``first`` and the keys
of ``saloons`` and ``hands``, each turn's ``player``, a card laid in front
of a player, a trade's other player, the bank attack's target and each « NOM
TEXTE » blow, the poker game's challenged, joiners, card keys, « NOM
TEXTE » reactions (a Tricheur's target inside), revolver, fleers and blows.

The file must play to the same end: its summary is the live game's (and so
is its final state: hands, decks, bag and board), and the summary keeps the
rules' invariants: money comes only from the income and the bounties, every
tile placed is on the board unless a Dynamitero destroyed it, the turns go
round in play order, the game ends when R-18 or the last tile says with
their winners (R-10), and nothing is played after the end.
"""

from __future__ import annotations

import contextlib
import random
import shutil
import tempfile
from pathlib import Path
from typing import Any
from unittest import mock

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from random_files import (
    PHASES,
    Live,
    bare,
    gm_play,
    nothing_after_the_end,
    play_live,
    same_summary,
    seating,
    spelled,
    toml,
)

from gm.core.names import fold
from gm.core.protocol import ScenarioStep
from gm.games.rattlesnake import engine
from gm.games.rattlesnake.board import load_board
from gm.games.rattlesnake.cards import Card, label
from gm.games.rattlesnake.events import (
    BagFilled,
    BankAttacked,
    CardSold,
    CardTakenBack,
    CheatPlayed,
    CombatEnded,
    DeckShuffled,
    DrawChosen,
    FighterPassed,
    GameSetUp,
    HandDealt,
    PermanentLaid,
    PokerCardChosen,
    PokerChallenged,
    PokerEnded,
    PokerEscaped,
    PokerFightStarted,
    PokerFled,
    PokerJoined,
    SaloonPlaced,
    ShotFired,
    SingleUsePlayed,
    StakeLowered,
    TarPlayed,
    TileDrawn,
    TilePlaced,
)
from gm.games.rattlesnake.model import Phase, State, card_of_key

START_CASH = 10_000
"""What each player receives at the start (gm/games/rattlesnake/rules.md, « Setup »)."""
BOUNTY = 5_000
"""R-7: what a Chasseur de primes collects from the bank."""
BUILDINGS = 50
"""R-3: the building tiles in the bag, with one rail tile per damaged slot."""


def threshold(players: int) -> int:
    """The fortune that wins at once (« End of the game », R-18)."""
    return 200_000 if players <= 3 else 150_000


ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).parent
BOARDS = {
    "default": None,
    "petite": ROOT / "campaigns" / "petite-vallee.board.toml",
    "threshold": HERE / "rattlesnake-threshold.board.toml",
    "last-tile": HERE / "rattlesnake-last-tile.board.toml",
}
"""The valleys games are played on: the default one (R-1) and boards of
other sizes (their bag: R-3)."""


def towns(board: str) -> int:
    path = BOARDS[board]
    return 6 if path is None else len(load_board(path.read_text(encoding="utf-8")).towns)


# --- the live game ---------------------------------------------------------------------------

STEP_4 = ("attaque ", "poker ")


def choose(state: State, inputs: Any, rng: random.Random) -> ScenarioStep:
    """A random legal input, with « fin » and defaults a little less often (turns
    with cards, trades, attacks and poker), and step 3 before step 4: gm takes
    *divers* after a bank attack or a poker game too, but a file has no place
    for them there (it lists a turn's ``divers`` before its ``bank`` and
    ``poker``)."""
    record = state.current
    if state.phase is Phase.FREE and record is not None and (record.bank_done or record.poker_done):
        inputs = [
            i for i in inputs if i.step is not None or i.text == "fin" or i.text.startswith(STEP_4)
        ]
    item = rng.choice(inputs)
    if item.text == "fin" or item.step == "default":
        item = rng.choice(inputs)
    return item


# --- the file --------------------------------------------------------------------------------


def _amount(rng: random.Random, value: int) -> int | str:
    """An amount as a file may write it: 6000 or « 6 000 $ »."""
    if rng.random() < 0.5:
        return value
    return f"{value:,} $".replace(",", " ")


class Writer:
    """The scenario file of a live game, every name spelled anew each time."""

    def __init__(self, live: Live, rng: random.Random, board: Path | None) -> None:
        self.live, self.rng, self.board = live, rng, board
        self.state: State = live.state

    def name(self, seat: str) -> str:
        return spelled(self.rng, self.live.table.name(seat))

    def card(self, card: Card) -> str:
        """A named card by its rules-page name or, now and then, its distinctive word."""
        return card.word if self.rng.random() < 0.3 else card.label

    def document(self) -> dict[str, Any]:
        events = self.live.events
        set_up = next(e for e in events if isinstance(e, GameSetUp))
        filled = next(e for e in events if isinstance(e, BagFilled))
        decks: dict[str, list[str]] = {"actions": [], "shots": []}
        for e in events:
            if isinstance(e, DeckShuffled):
                assert e.number == len(decks[e.deck])
                cards = [label(card_of_key(k)) for k in e.cards]
                decks[e.deck].append((", " if e.deck == "actions" else " ").join(cards))
        saloons = [e for e in events if isinstance(e, SaloonPlaced)]
        self.rng.shuffle(saloons)  # the file may list them in any order
        document: dict[str, Any] = {
            "game": "rattlesnake",
            "title": "Au hasard de la vallée",
            "players": list(self.live.players),
            "seed": "une autre graine",  # nothing is left to the fortune
        }
        if self.board is not None:
            document["options"] = {"board": self.board.name}
        document["setup"] = {
            "first": self.name(set_up.first),
            "saloons": {self.name(e.player): e.cell for e in saloons},
            "hands": {
                self.name(e.player): ", ".join(label(card_of_key(k)) for k in e.cards)
                for e in events
                if isinstance(e, HandDealt)
            },
            "bag": ", ".join(t.label for t in filled.tiles),
            "actions": decks["actions"] if len(decks["actions"]) > 1 else decks["actions"][0],
            "shots": decks["shots"] if len(decks["shots"]) > 1 else decks["shots"][0],
        }
        starts = [i for i, e in enumerate(events) if isinstance(e, TileDrawn)]
        document["turns"] = [
            self.turn(events[i:j]) for i, j in zip(starts, [*starts[1:], len(events)], strict=True)
        ]
        return document

    def turn(self, events: list[Any]) -> dict[str, Any]:
        drawn = events[0]
        assert isinstance(drawn, TileDrawn)
        entry: dict[str, Any] = {}
        if self.rng.random() < 0.5:
            entry["player"] = self.name(drawn.player)
        placed = next((e for e in events if isinstance(e, TilePlaced)), None)
        if placed is not None:
            here = (
                f"{placed.tile.label} en {placed.cell}" if self.rng.random() < 0.3 else placed.cell
            )
            entry["tile"] = here
        chosen = next((e for e in events if isinstance(e, DrawChosen)), None)
        if chosen is not None:
            entry["draw"] = chosen.what
        divers = [self.divers(e, drawn.player) for e in events if self.is_divers(e)]
        if divers:
            entry["divers"] = divers
        bank = self.bank(events)
        if bank is not None:
            entry["bank"] = bank
        poker = self.poker(events)
        if poker is not None:
            entry["poker_first"] = bank is not None and events.index(
                next(e for e in events if isinstance(e, PokerChallenged))
            ) < events.index(next(e for e in events if isinstance(e, BankAttacked)))
            if not entry["poker_first"] and self.rng.random() < 0.5:
                del entry["poker_first"]  # false is the default
            entry["poker"] = poker
        return entry

    @staticmethod
    def is_divers(event: Any) -> bool:
        return isinstance(event, PermanentLaid | SingleUsePlayed | CardSold)

    def divers(self, event: Any, active: str) -> str:
        if isinstance(event, PermanentLaid):
            if event.holder == active and self.rng.random() < 0.5:
                return self.card(event.card)  # in front of the player themself
            return f"{self.card(event.card)} devant {self.name(event.holder)}"
        if isinstance(event, SingleUsePlayed):
            target = event.target if event.card is Card.DYNAMITERO else Card(event.target).label
            return f"{self.card(event.card)} sur {target}"
        assert isinstance(event, CardSold)
        price = _amount(self.rng, event.price)
        if event.seller == active:
            return f"vend {self.card(event.card)} à {self.name(event.buyer)} pour {price}"
        return f"achète {self.card(event.card)} à {self.name(event.seller)} pour {price}"

    def blow(self, event: Any) -> str:
        if isinstance(event, FighterPassed):
            return f"{self.name(event.player)} passe"
        assert isinstance(event, ShotFired)
        if event.cards:  # a permanent's free shot counts without being named
            return f"{self.name(event.player)} {' '.join(map(str, event.cards))}"
        assert event.free is not None
        return f"{self.name(event.player)} {event.free.label}"

    def bank(self, events: list[Any]) -> dict[str, Any] | None:
        start = next((i for i, e in enumerate(events) if isinstance(e, BankAttacked)), None)
        if start is None:
            return None
        attack = events[start]
        end = next(i for i, e in enumerate(events) if isinstance(e, CombatEnded) and i > start)
        blows = [
            self.blow(e) for e in events[start:end] if isinstance(e, ShotFired | FighterPassed)
        ]
        return {"target": self.name(attack.target), "combat": blows}

    def poker(self, events: list[Any]) -> dict[str, Any] | None:
        start = next((i for i, e in enumerate(events) if isinstance(e, PokerChallenged)), None)
        if start is None:
            return None
        challenge = events[start]
        end = next(i for i, e in enumerate(events) if isinstance(e, PokerEnded) and i > start)
        game = events[start:end]
        poker: dict[str, Any] = {
            "challenged": self.name(challenge.challenged),
            "stake": _amount(self.rng, challenge.stake),
        }
        if any(isinstance(e, PokerEscaped) for e in game):
            poker["coyote"] = True
        joiners = [self.name(e.player) for e in game if isinstance(e, PokerJoined)]
        if joiners:
            poker["joiners"] = joiners
        lowered = [e.stake for e in game if isinstance(e, StakeLowered)]
        if lowered:
            poker["lower"] = _amount(self.rng, lowered[-1])
        cards = {}
        for e in game:
            if isinstance(e, PokerCardChosen):
                if e.card:
                    cards[self.name(e.player)] = self.rng.choice((f"{e.card}", f"le {e.card}"))
                elif self.rng.random() < 0.3:
                    cards[self.name(e.player)] = "aucune"  # else left out: none
        if cards:
            poker["cards"] = dict(self.rng.sample(list(cards.items()), len(cards)))
        reactions = []
        for e in game:
            if isinstance(e, CheatPlayed):
                reactions.append(f"{self.name(e.player)} Tricheur avec {self.name(e.target)}")
            elif isinstance(e, TarPlayed):
                reactions.append(f"{self.name(e.player)} Goudron & Plumes")
            elif isinstance(e, CardTakenBack):
                reactions.append(f"{self.name(e.player)} Joueur professionnel {e.card}")
        if reactions:
            poker["reactions"] = reactions
        fight = next((e for e in game if isinstance(e, PokerFightStarted)), None)
        if fight is not None:
            poker["revolver"] = self.name(fight.player)
            fled = [self.name(e.player) for e in game if isinstance(e, PokerFled)]
            if fled:
                poker["flee"] = fled
            combat = game[game.index(fight) :]
            blows = [self.blow(e) for e in combat if isinstance(e, ShotFired | FighterPassed)]
            if blows:
                poker["combat"] = blows
        return poker


# --- the checks ------------------------------------------------------------------------------


def same_state(got: State, want: State) -> None:
    """The valley and the players as the live game left them: cash, income,
    hands, shot cards and permanents; the board; the bag and the decks."""
    for field in ("cash", "income", "hands", "shots", "permanents", "layout", "removed", "bag"):
        assert getattr(got, field) == getattr(want, field), field
    for field in ("actions", "action_discard", "shot_deck", "shot_discard", "winners", "won_by"):
        assert getattr(got, field) == getattr(want, field), field


def check_invariants(
    summary: dict[str, Any], document: dict[str, Any], tiles: int, limit: int
) -> None:
    """``tiles``: the bag's size on this board (R-3); ``limit``: the R-18 threshold."""
    players, turns = summary["players"], summary["turns"]
    divers = [d for t in document["turns"] for d in t.get("divers", [])]
    assert summary["finished"] and [t["number"] for t in turns] == list(range(1, len(turns) + 1))
    # the turns go round clockwise from the player who placed the last saloon, the
    # one seated before the first (who placed the first)
    seated = [p["name"] for p in players]
    first = seated.index(next(n for n in seated if fold(n) == fold(document["setup"]["first"])))
    assert all(t["player"] == seated[(first - 1 + i) % len(seated)] for i, t in enumerate(turns))
    # money comes from the income and the bounties alone: trades, bank attacks
    # and poker games only move it between players, a poker pot paid out to the last dollar
    bounties = sum(1 for d in divers if d.startswith(("Chasseur", "Chasseur de primes")))
    assert all(t["income"] >= 0 for t in turns) and all(p["cash"] >= 0 for p in players)
    assert (
        sum(p["cash"] for p in players)
        == START_CASH * len(players) + sum(t["income"] for t in turns) + BOUNTY * bounties
    )
    # every tile placed stands on the board, unless a Dynamitero destroyed it
    board = summary["board"]
    standing = [t for t in board["tiles"].values() if t != "saloon"]
    dynamited = sum(1 for d in divers if d.lower().startswith("dynamitero"))
    placed = sum(1 for t in turns if t["cell"] is not None)
    assert placed - dynamited == len(standing) + len(board["rails"])
    assert sorted(board["tiles"].values()).count("saloon") == len(players)
    towns = [p["town"] for p in players]
    assert None not in towns and len(set(towns)) == len(towns)
    # at once for whoever reaches the threshold, else after the last tile
    cash = {p["name"]: p["cash"] for p in players}
    rich = [n for n, c in cash.items() if c >= limit]
    if rich:
        assert summary["winners"] == rich and len(turns) <= tiles
    else:
        assert len(turns) == tiles
        assert summary["winners"] == [n for n, c in cash.items() if c == max(cash.values())]


def play_and_write_down(seed: int, count: int, valley: str, limit: int | None) -> None:
    """One random game of ``count`` players on ``valley``, with the R-18
    threshold at ``limit`` (None: the rules'), its file, its play and every check."""
    rng = random.Random(seed)
    board = BOARDS[valley]
    with tempfile.TemporaryDirectory(prefix="gm-rattlesnake-file-") as name:
        folder = Path(name)
        db = str(folder / "gm.db")
        options = {} if board is None else {"board": str(board)}
        lowered = (
            mock.patch.object(engine, "threshold", lambda players: limit)
            if limit is not None
            else contextlib.nullcontext()
        )
        with lowered:
            live = play_live(
                "rattlesnake", rng, seating(rng, count), db, options=options, choose=choose
            )
            if board is not None:
                shutil.copy(board, folder / board.name)  # named relative to the file
            document = Writer(live, rng, board).document()
            path = folder / "partie.toml"
            path.write_text(toml(document), encoding="utf-8")
            summary, state = gm_play(db, path)
        same_summary(summary, live.summary)
        same_state(state, live.state)
        check_invariants(
            summary, document, BUILDINGS + len(state.board.damaged_slots), limit or threshold(count)
        )
        nothing_after_the_end(db, bare(document["players"][0]), "fin")


SHAPES = [(v, n) for v in BOARDS for n in range(2, min(6, towns(v)) + 1)]
"""Every valley with every number of players it takes (one town each)."""


@settings(
    max_examples=3, deadline=None, phases=PHASES, suppress_health_check=[HealthCheck.too_slow]
)
@given(
    seed=st.integers(0, 2**32 - 1),
    shape=st.sampled_from(SHAPES),
    limit=st.none() | st.integers(15, 40).map(lambda k: 1000 * k),
)
# a game to the last tile on another board than the default one
@example(seed=2, shape=("petite", 3), limit=None)
# a threshold reached with the cash a bank attack seizes, in the middle of a turn
@example(seed=6, shape=("default", 5), limit=30_000)
def test_a_random_game_written_as_a_file_plays_to_the_same_end(
    seed: int, shape: tuple[str, int], limit: int | None
) -> None:
    """``limit``: the R-18 threshold, lowered (else the rules'), so that a
    game ends in the middle of a turn or at an income."""
    valley, count = shape
    play_and_write_down(seed, count, valley, limit)
