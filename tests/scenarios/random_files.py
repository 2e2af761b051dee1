"""Random legal games written down as scenario files: what
``test_colt_random_files.py`` and ``test_rattlesnake_random_files.py`` share.

This module owns the awkward names those games are played with (spaces,
accents, apostrophes, hyphens, one name the start of another), the other
spellings a file may give them (``docs/scenarios.md``: case and accents do
not matter), one random legal game played through the service layer
exactly as ``tests/conformance/test_games.py`` plays it (every input drawn
from ``Game.legal_inputs``), the game's events read back from its log, a
small TOML writer, ``gm play FILE --json --keep`` run through the CLI, and
the checks both games make of what it printed and kept.

Each game's test module writes the scenario file from the events (the
contract's format is the game's own), plays it, and compares.
"""

from __future__ import annotations

import json
import random
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from click.testing import CliRunner, Result
from hypothesis import Phase

from gm import games
from gm.cli import cli
from gm.core.protocol import Event, ScenarioStep, Table
from gm.errors import GMError
from gm.service import actions, campaigns
from gm.service.env import Env
from gm.service.loading import decode, is_platform

NAMES = (
    "Calamity Jane",
    "d'Artagnan",
    "Élodie",
    "Jean-Paul",
    "Jean",
    "O'Neil",
    "Zoë la Rousse",
    "Buffalo Bill",
    "L'Écossaise",
    "Anaïs",
    "Ma Dalton",
    "Paul",
    "Marshal Dillon",
    "Tête Brûlée",
    "Poker Alice",
    "Joe",
)
"""Players' names as people type them: several words, accents, apostrophes,
hyphens; « Jean » and « Paul » are words of « Jean-Paul », « Ma » and « La »
look like articles; and names that hold words of a game (Colt Express's
Marshal card and « tête », a direction; Rattlesnake City's « poker », and
« Joe », half of Slippery Joe's and Stinky Joe's names)."""

MAX_INPUTS = 3000

PHASES = (Phase.explicit, Phase.reuse, Phase.generate)
"""Hypothesis without shrinking: a game is a function of its seed as a whole,
so a smaller seed is another game, no simpler, and each try replays a game
twice; the failing example is reported as drawn."""

STATUS_KEYS = frozenset(
    {
        "campaign",
        "title",
        "phase",
        "awaiting",
        "expected",
        "deadline",
        "time_left",
        "next",
        "events",
    }
)
"""What ``gm status --json`` adds to a game's summary (``docs/scenarios.md``)."""


def seating(rng: random.Random, count: int) -> list[str]:
    """``count`` names of ``NAMES`` in a random seating order, one in two with
    a grammatical gender (« Élodie:f »), as ``players`` writes them."""
    names = rng.sample(NAMES, count)
    return [f"{n}:{rng.choice('mf')}" if rng.random() < 0.5 else n for n in names]


def bare(player: str) -> str:
    """A ``players`` entry without its gender: the name the file uses elsewhere."""
    name, sep, gender = player.rpartition(":")
    return name if sep and gender in ("m", "f") else player


def _unaccented(text: str) -> str:
    decomposed = unicodedata.normalize("NFD", text)
    return unicodedata.normalize(
        "NFC", "".join(c for c in decomposed if not unicodedata.combining(c))
    )


def spelled(rng: random.Random, name: str, punctuation: bool = False) -> str:
    """``name`` as a file may write it: as seated most often, else in other
    case, without its accents, or (``punctuation``: a game that ignores it)
    with its hyphens and apostrophes as spaces."""
    roll = rng.random()
    if roll < 0.55:
        return name
    if roll < 0.7:
        return name.upper()
    if roll < 0.8:
        return name.lower()
    if roll < 0.9 or not punctuation:
        return _unaccented(name)
    return name.replace("-", " ").replace("'", " ")


# --- a random game through the service ---------------------------------------------------


@dataclass
class Live:
    """A random legal game played through the service, at its end."""

    game_id: str
    players: list[str]
    """As created: names with their genders."""
    state: Any
    table: Table
    events: list[Event]
    """The game's events, in order (the platform's left out)."""

    @property
    def summary(self) -> dict[str, Any]:
        """The game's JSON summary as ``gm status --json`` prints it."""
        summary = games.load(self.game_id).summary(self.state, self.table)
        return dict(json.loads(json.dumps(summary, ensure_ascii=False)))


Chooser = Callable[[Any, Sequence[ScenarioStep], random.Random], ScenarioStep]


def any_input(state: Any, inputs: Sequence[ScenarioStep], rng: random.Random) -> ScenarioStep:
    return rng.choice(inputs)


def play_live(
    game_id: str,
    rng: random.Random,
    players: list[str],
    db: str,
    options: Mapping[str, Any] | None = None,
    choose: Chooser = any_input,
) -> Live:
    """Create a campaign and play it to its end through ``gm.service.actions``,
    each input ``choose``-n among what ``legal_inputs`` offers (messages with
    the players' names in them, the MJ's steps, ``gm default``)."""
    game = games.load(game_id)
    env = Env(db=db, durable=False)
    secret = f"graine-{rng.randrange(10**9)}"
    created = campaigns.create(env, game_id, "En direct", players, options=options, seed=secret)
    slug = created.campaign.slug
    campaign = created.campaign
    count = 0
    while not game.is_over(campaign.state):
        assert count < MAX_INPUTS, f"{game_id}: no end after {MAX_INPUTS} inputs"
        inputs = game.legal_inputs(campaign.state, campaign.table)
        assert inputs, f"{game_id}: nothing to do at {game.phase(campaign.state)}"
        item = choose(campaign.state, inputs, rng)
        try:
            if item.step is not None:
                result = actions.step(env, slug, item.step, item.values)
            else:
                result = actions.submit(env, slug, item.actor, item.text or "")
        except GMError as err:  # pragma: no cover - a failure's message
            raise AssertionError(f"legal input {item} was refused: {err}") from err
        campaign = result.campaign
        count += 1
    events = [decode(game_id, r) for r in campaign.live if not is_platform(r.kind)]
    return Live(game_id, players, campaign.state, campaign.table, events)


# --- scenario files ----------------------------------------------------------------------


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        # a JSON string is a TOML basic string (the same escapes)
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    if isinstance(value, Mapping):
        return "{ " + ", ".join(f"{_key(k)} = {_value(v)}" for k, v in value.items()) + " }"
    raise TypeError(value)


def _key(key: str) -> str:
    return key if key.isascii() and key.replace("_", "").isalnum() else _value(key)


def _nested(value: Any) -> bool:
    """Written as a table of its own (``[setup]``), not inline: it holds lists or tables."""
    return isinstance(value, Mapping) and any(isinstance(v, list | Mapping) for v in value.values())


def _tables(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, Mapping) for v in value)


def toml(document: Mapping[str, Any]) -> str:
    """``document`` as TOML: small tables inline, the others and arrays of
    tables (``[[rounds]]``) under their headers."""
    lines: list[str] = []

    def table(path: list[str], data: Mapping[str, Any], header: str | None) -> None:
        if header is not None:
            lines.extend(["", header])
        for key, value in data.items():
            if not _nested(value) and not _tables(value):
                lines.append(f"{_key(key)} = {_value(value)}")
        for key, value in data.items():
            here = [*path, _key(key)]
            if _nested(value):
                table(here, value, f"[{'.'.join(here)}]")
            elif _tables(value):
                for item in value:
                    table(here, item, f"[[{'.'.join(here)}]]")

    table([], document, None)
    return "\n".join(lines) + "\n"


def gm(db: str, *args: str) -> Result:
    return CliRunner().invoke(cli, ["--db", db, *args])


def gm_play(db: str, path: Path) -> tuple[dict[str, Any], Any]:
    """``gm play FILE --json --keep``: the summary, and the final state of the
    campaign it kept (made current). The play must succeed."""
    result = gm(db, "play", str(path), "--json", "--keep")
    assert result.exit_code == 0, (
        f"gm play refused the file (exit {result.exit_code}):\n{result.output}"
        f"\n{result.exception!r}\n--- {path.name}\n{path.read_text(encoding='utf-8')}"
    )
    summary = dict(json.loads(result.stdout))
    return summary, actions.load(Env(db=db), summary["campaign"]).state


def same_summary(got: Mapping[str, Any], want: Mapping[str, Any]) -> None:
    """The file's summary is the live game's, key by key (players and turns one by one)."""
    assert set(got) - STATUS_KEYS == set(want)
    assert got["phase"] == "over" and got["awaiting"] == []
    for key, value in want.items():
        if isinstance(value, list) and len(value) == len(got[key]):
            for i, (a, b) in enumerate(zip(got[key], value, strict=True)):
                assert a == b, f"{key}[{i}]"
        assert got[key] == value, key


def nothing_after_the_end(db: str, player: str, text: str) -> None:
    """A message sent to the campaign the file played, once over, is refused."""
    result = gm(db, "order", player, text)
    assert result.exit_code != 0 and "[phase/game-over]" in result.output, result.output
