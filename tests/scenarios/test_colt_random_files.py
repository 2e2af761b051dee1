"""Random legal games of Colt Express, written down as scenario files and
played again by ``gm play FILE --json --keep`` (``docs/scenarios.md``, colt).

A game of 3 to 6 players with awkward names (``random_files.NAMES``) is
played through the service, every input drawn from ``legal_inputs`` (the
fortune deals, draws the purses, picks the defaults; other players send
instructions in advance). The file written from its log names the players
in every role the contract gives them, in the spellings it allows (case,
accents and punctuation ignored) and now and then by their characters: the
keys of ``characters``, ``decks`` and ``event``, the NOM of each « NOM :
TEXTE » plan entry and « NOM [CARTE] : CHOIX » action, and the target of a
Tir or a Coup de poing inside CHOIX.

The file must play to the same end: its summary is the live game's (and so
is its final train: every bandit, every spot's loot, the Marshal), and the
summary keeps the rules' invariants — all the loot of the setup is on
the train or with the bandits (R-1; a purse lost to the Marshal's vengeance
apart), every bullet received was fired or taken from the 13 neutral ones,
the game ends after the fifth round with R-10's winners, and nothing is
played after the end.
"""

from __future__ import annotations

import random
import tempfile
from pathlib import Path
from typing import Any

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

from gm.games.colt.cards import PURSE, Card, Turn
from gm.games.colt.events import (
    CardHidden,
    CardPlayed,
    CardResolved,
    CardsDrawn,
    DeckDealt,
    LootPlaced,
    PickpocketChosen,
    PurseMoved,
    RoundOpened,
    TrainSet,
)
from gm.games.colt.model import Choice, Outcome, State
from gm.games.colt.words import phrase

# The rules' numbers (gm/games/colt/rules.md), written here rather than taken from the code
JEWELS = {1: 0, 2: 3, 3: 1, 4: 1, 5: 1, 6: 0}
"""R-1: the jewels printed on each car's floor."""
START_PURSE, JEWEL, STRONGBOX, GUNSLINGER = 250, 500, 1000, 1000
BARILLET, NEUTRAL_BULLETS = 6, 13

WORDS = {
    Card.MOVE: ("Déplacement",),
    Card.FLOOR: ("Changement d'étage", "étage"),
    Card.MARSHAL: ("Marshal",),
    Card.SHOOT: ("Tir",),
    Card.ROB: ("Braquage",),
    Card.PUNCH: ("Coup de poing", "poing"),
    Card.BULLET: ("Balle",),
}
"""How a file may name each card (``docs/scenarios.md``, colt, decks)."""


class Writer:
    """The scenario file of a live game, every name spelled anew each time."""

    def __init__(self, live: Live, rng: random.Random) -> None:
        self.live, self.rng = live, rng
        self.state: State = live.state
        train = next(e for e in live.events if isinstance(e, TrainSet))
        self.train = train
        self.character = dict(train.characters)

    def name(self, seat: str) -> str:
        """The player as the file may name them (by their name, any spelling)."""
        return spelled(self.rng, self.live.table.name(seat), punctuation=True)

    def bandit(self, seat: str) -> str:
        """A bandit as the file may name them: the player's name or, now and
        then, the character's."""
        return self.character[seat] if self.rng.random() < 0.2 else self.name(seat)

    def card(self, card: Card) -> str:
        return self.rng.choice(WORDS[card])

    def entry(self, nom: str, text: str) -> str:
        """« NOM : TEXTE », spaced either way around the colon."""
        return f"{nom}{self.rng.choice((' : ', ': '))}{text}".rstrip()

    def document(self) -> dict[str, Any]:
        loot = next(e for e in self.live.events if isinstance(e, LootPlaced))
        return {
            "game": "colt",
            "title": "Au hasard des rails",
            "players": list(self.live.players),
            "setup": {
                "characters": {self.name(p): c for p, c in self.train.characters},
                "cars": list(self.train.cars),
                "purses": [list(p) for p in loot.purses],
            },
            "rounds": [
                self.round(e.round, e.card) for e in self.live.events if isinstance(e, RoundOpened)
            ],
        }

    def round(self, number: int, card: str) -> dict[str, Any]:
        events = [e for e in self.live.events if getattr(e, "round", None) == number]
        record = self.state.history[number - 1]
        kinds = {t.number: t.kind for t in record.turns}
        firsts: dict[str, int] = {}
        for t in record.turns:
            firsts.setdefault(t.player, t.number)
        hidden = {(e.turn, e.player): e.card for e in events if isinstance(e, CardHidden)}
        plan = []
        for e in events:
            if isinstance(e, CardsDrawn):
                plan.append(
                    self.entry(self.bandit(e.player), self.rng.choice(("je pioche", "pioche")))
                )
            elif isinstance(e, CardPlayed):
                played = e.card if e.card is not None else hidden[(e.turn, e.player)]
                text = self.rng.choice(("", "je joue ")) + self.card(played)
                ghost = self.character[e.player] == "Ghost" and firsts[e.player] == e.turn
                tunnel = kinds[e.turn] is Turn.TUNNEL
                # face down: written on Ghost's first turn (its only way), and may be on a tunnel
                if e.card is None and (not tunnel or self.rng.random() < 0.5):
                    assert ghost or tunnel
                    text += " face cachée"
                plan.append(self.entry(self.bandit(e.player), text))
        actions = [self.action(e, events) for e in events if isinstance(e, CardResolved)]
        entry: dict[str, Any] = {"card": card, "plan": plan, "actions": actions}
        picks = [e for e in events if isinstance(e, PickpocketChosen)]
        if picks:
            entry["event"] = {self.bandit(e.player): self.pickpocket(e, events) for e in picks}
        entry["decks"] = {
            self.bandit(e.player): [self.card(c) for c in e.cards]
            for e in events
            if isinstance(e, DeckDealt)
        }
        return entry

    def action(self, resolved: CardResolved, events: list[Any]) -> str:
        values = {e.value for e in events if isinstance(e, PurseMoved) and e.step == resolved.step}
        assert len(values) <= 1, (resolved, values)
        outcome: Outcome = resolved.outcome
        value = next(iter(values)) if outcome.loot == PURSE and values else None
        choice = Choice(
            direction=outcome.direction,
            distance=outcome.distance,
            level=outcome.level,
            target=outcome.target,
            loot=outcome.loot,
            value=value,
        )
        target = None if outcome.target is None else self.bandit(outcome.target)
        text = phrase(choice, target)
        if resolved.how == "auto" and value is None and self.rng.random() < 0.4:
            text = ""  # one legal outcome: an empty choice names it
        nom = self.bandit(resolved.player)
        if self.rng.random() < 0.3:
            nom += f" {self.card(resolved.card)}"
        return self.entry(nom, text)

    def pickpocket(self, chosen: PickpocketChosen, events: list[Any]) -> str:
        if not chosen.take:
            return "rien"
        (value,) = [
            e.value
            for e in events
            if isinstance(e, PurseMoved) and e.step == 0 and e.player == chosen.player
        ]
        return f"la bourse de {value}"


# --- the invariants, on the summary and the file ---------------------------------------------


def check_invariants(summary: dict[str, Any], document: dict[str, Any]) -> None:
    """The rules, on the summary of a finished game and the file it played
    (its setup gives the loot, its round cards the events)."""
    players = summary["players"]
    cars = document["setup"]["cars"]
    rounds = [r["card"] for r in document["rounds"]]
    assert summary["finished"] and [r["number"] for r in summary["rounds"]] == [1, 2, 3, 4, 5]
    # the loot of the setup, on the train or carried (ransoms are new money)
    total = (
        START_PURSE * len(players)
        + sum(map(sum, document["setup"]["purses"]))
        + JEWEL * sum(JEWELS[c] for c in cars)
        + STRONGBOX * (2 if "Prenez tout !" in rounds else 1)
    )
    held = summary["lying"] + sum(p["loot"] - p["ransom"] for p in players)
    if rounds[-1] == "La vengeance du Marshal":
        # the bandits on the Marshal's roof lost a purse each, of 250 to 500 $
        victims = [p for p in players if p["car"] == summary["marshal"] and p["level"] == "roof"]
        assert 0 <= total - held <= 500 * len(victims)
    else:
        assert held == total
    for p in players:
        assert p["loot"] == sum(p["purses"]) + JEWEL * p["jewels"] + (
            STRONGBOX * p["strongboxes"] + p["ransom"]
        )
        assert 0 <= p["car"] <= len(cars) and 0 <= p["barillet"] <= BARILLET
    assert 0 <= summary["marshal"] <= len(cars)
    # every bullet received was fired by a bandit or taken from the neutral ones
    fired = sum(BARILLET - p["barillet"] for p in players)
    assert sum(p["bullets_received"] for p in players) == fired + (
        NEUTRAL_BULLETS - summary["neutral_bullets"]
    )
    # the As de la gâchette to who fired most, the richest win, the fewest bullets
    # received breaking a tie
    most = max(BARILLET - p["barillet"] for p in players)
    for p in players:
        assert p["gunslinger"] == (BARILLET - p["barillet"] == most)
        assert p["score"] == p["loot"] + GUNSLINGER * p["gunslinger"]
    best = max(p["score"] for p in players)
    least = min(p["bullets_received"] for p in players if p["score"] == best)
    assert summary["winners"] == [
        p["name"] for p in players if p["score"] == best and p["bullets_received"] == least
    ]


def same_state(got: State, want: State) -> None:
    """The train as the live game left it: every bandit (place, loot, cards,
    bullets), the loot on every spot, the Marshal."""
    assert got.bandits == want.bandits
    assert (got.inside, got.roofs) == (want.inside, want.roofs)
    assert (got.marshal, got.neutral, got.removed, got.spare_strongbox) == (
        want.marshal, want.neutral, want.removed, want.spare_strongbox,
    )  # fmt: skip


def play_and_write_down(seed: int, count: int) -> None:
    """One random game of ``count`` players, its file, its play and every check."""
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory(prefix="gm-colt-file-") as folder:
        db = str(Path(folder) / "gm.db")
        live = play_live("colt", rng, seating(rng, count), db)
        document = Writer(live, rng).document()
        path = Path(folder) / "partie.toml"
        path.write_text(toml(document), encoding="utf-8")
        summary, state = gm_play(db, path)
        same_summary(summary, live.summary)
        same_state(state, live.state)
        check_invariants(summary, document)
        nothing_after_the_end(db, bare(document["players"][0]), "je pioche")


@settings(
    max_examples=6, deadline=None, phases=PHASES, suppress_health_check=[HealthCheck.too_slow]
)
@given(seed=st.integers(0, 2**32 - 1), count=st.integers(3, 6))
@example(seed=5, count=6)  # six bandits, a purse taken at Pickpocket
def test_a_random_game_written_as_a_file_plays_to_the_same_end(seed: int, count: int) -> None:
    play_and_write_down(seed, count)
