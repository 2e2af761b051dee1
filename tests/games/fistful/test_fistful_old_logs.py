"""Logs written before gm 0.2 still fold, verify and disclose.

Version 1 of Fistful's sealed events carried ``round``, the internal turn
counter, instead of the key players use (``SetupDiscarded(round, player,
cards)``, ``CardPlayed(round, player, card)``, ``EndChosen(round, player,
choice)``), with no ``"_v"`` in the payload, and their campaigns were created
at protocol 1 (no ``gm.command-decided``, no ``gm.post-published``). Here such
payloads are written by hand, then a whole old log is stored the way gm 0.1
stored it: it must fold to the same game, ``gm verify`` must find no problem,
the end-of-game disclosure must publish every old secret's salt, and a game
cut in the middle must go on with today's commands.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from fistful_support import CODEC, Table, refold

from gm.core.campaign import CampaignCreated, FortuneSealed, SubmissionReceived
from gm.core.canonical import seal
from gm.core.codec import PayloadError, to_json
from gm.core.fortune import commitment
from gm.core.protocol import GM, Event
from gm.games.fistful import GAME
from gm.games.fistful.cards import Card
from gm.games.fistful.events import (
    CardPlayed,
    DuelResolved,
    DuelsStarted,
    EndChosen,
    MancheEnded,
    SetupDiscarded,
)
from gm.games.fistful.model import EndChoice, State
from gm.service import actions, audit, publishing
from gm.service.env import Env
from gm.store.records import NewEvent

SCENARIOS = Path(__file__).parents[2] / "scenarios"
SEED = "vieille-graine"


# --- version-1 payloads, by hand ---------------------------------------------------------


def test_a_version_1_setup_discard_drops_its_turn() -> None:
    old = {"round": 1, "player": "ana", "cards": ["1", "dynamite"]}
    assert CODEC.decode("fistful.setup-discarded", old) == SetupDiscarded(
        "ana", (Card.ONE, Card.DYNAMITE)
    )


def test_a_version_1_card_is_the_duel_of_its_turn_in_manche_0() -> None:
    old = {"round": 4, "player": "bob", "card": "5"}
    event = CODEC.decode("fistful.card-played", old)
    assert event == CardPlayed(0, 4, "bob", Card.FIVE)
    assert event.secret_key() == ("card", 0, 4, "bob")  # never a key of today's (manche >= 1)


def test_a_version_1_end_choice_is_manche_minus_its_turn() -> None:
    old = {"round": 8, "player": "ana", "choice": {"discards": ["4", "6"], "final": "6"}}
    event = CODEC.decode("fistful.end-chosen", old)
    assert event == EndChosen(-8, "ana", EndChoice((Card.FOUR, Card.SIX), Card.SIX))
    assert event.secret_key() == ("end", -8, "ana")


def test_version_2_payloads_say_so_and_read_back() -> None:
    for event in (
        SetupDiscarded("ana", (Card.ONE, Card.TWO)),
        CardPlayed(2, 3, "bob", Card.EIGHT),
        EndChosen(2, "ana", EndChoice((Card.FOUR,), None)),
    ):
        kind, payload = CODEC.encode(event)
        assert payload["_v"] == 2 and "round" not in payload
        assert CODEC.decode(kind, payload) == event


def test_an_unknown_version_is_refused_not_guessed() -> None:
    with pytest.raises(PayloadError, match="reads versions 1 to 2"):
        CODEC.decode("fistful.card-played", {"_v": 3, "manche": 1, "duel": 1, "player": "a"})


# --- whole old logs ---------------------------------------------------------------------------


@dataclass
class Input:
    """One input of a game as gm 0.1 recorded it: who, their message, and the
    events with the turn they were decided in."""

    actor: str
    text: str | None
    events: list[tuple[Event, int]]


def play(name: str) -> tuple[Table, dict[str, Any], list[Input]]:
    """Play a scenario file through the rules, keeping each event's turn."""
    document = tomllib.loads((SCENARIOS / name).read_text(encoding="utf-8"))
    table = Table.new(document["players"], **document.get("options", {}))
    inputs = []
    for item in GAME.scenario(document):
        if item.when is not None and not item.when(table.state):
            continue
        turn = table.state.turn
        events = table.feed(item)
        actor = GM if item.step is not None else item.actor
        inputs.append(Input(actor, item.text, [(e, turn) for e in events]))
    return table, document, inputs


def old_payload(event: Event, turn: int) -> tuple[str, dict[str, Any]]:
    """The payload gm 0.1 stored for ``event``, decided in turn ``turn``."""
    kind, payload = CODEC.encode(event)
    if not event.sealed:
        return kind, payload
    assert payload.pop("_v") == 2
    payload.pop("manche", None)
    payload.pop("duel", None)
    return kind, {"round": turn, **payload}


def old_records(item: Input) -> list[NewEvent]:
    records = []
    if item.actor != GM:
        assert item.text is not None
        records.append(
            NewEvent(
                "gm.submission-received",
                item.actor,
                item.actor,
                to_json(SubmissionReceived(item.actor, item.text)),
            )
        )
    for event, turn in item.events:
        kind, payload = old_payload(event, turn)
        records.append(NewEvent(kind, item.actor, event.audience(), payload))
    return records


def store_old_log(env: Env, document: dict[str, Any], inputs: list[Input]) -> str:
    """A protocol-1 campaign whose log holds ``inputs``, written as gm 0.1 wrote it."""
    slug = "vieux-duel"
    options = GAME.configure(document["players"], document.get("options", {}))
    created = to_json(
        CampaignCreated(
            "fistful", "Vieux duel", tuple(document["players"]), options, commitment(SEED)
        )
    )
    del created["protocol"]  # gm 0.1 knew no protocol
    with env.store.write() as w:
        w.create_campaign(slug, "fistful", "Vieux duel")
        seq = len(
            w.append(
                slug,
                [
                    NewEvent(CampaignCreated.kind, GM, "*", created),
                    NewEvent(FortuneSealed.kind, GM, GM, to_json(FortuneSealed(SEED))),
                ],
                0,
            )
        )
        for item in inputs:
            seq += len(w.append(slug, old_records(item), seq))
    return slug


def test_the_upcast_events_fold_to_the_same_game() -> None:
    table, document, inputs = play("fistful-red-seven-choices.toml")
    decoded = [
        CODEC.decode(*old_payload(event, turn)) for item in inputs for event, turn in item.events
    ]
    options = document.get("options", {})
    assert refold(decoded, document["players"], **options) == table.state
    sealed = [(e, t) for item in inputs for e, t in item.events if e.sealed]
    assert {type(e) for e, _ in sealed} == {SetupDiscarded, CardPlayed, EndChosen}
    keys = {CODEC.decode(*old_payload(e, t)).secret_key() for e, t in sealed}
    assert all(k[1] == 0 for k in keys if k[0] == "card")  # no manche of today's
    assert all(k[1] < 0 for k in keys if k[0] == "end")
    # old secrets told apart by their turn keep distinct keys
    assert len(keys) == len({(e.kind, t, e.owner()) for e, t in sealed})


def opened_lines(post: str) -> dict[str, str]:
    """The « Sceaux ouverts (where) : … » lines of a post, by where."""
    out = {}
    for line in post.splitlines():
        if m := re.match(r"Sceaux ouverts \((.+?)\)\u00a0: ", line):
            out[m[1]] = line
    return out


def old_choices(state: State) -> list[tuple[str, dict[str, Any], str]]:
    """Every sealed choice of a finished game as gm 0.1 sealed it, rebuilt from
    what the disclosure shows (the cards, the turn): (kind, payload, where)."""
    out: list[tuple[str, dict[str, Any], str]] = [
        (
            "fistful.setup-discarded",
            {"round": 1, "player": n, "cards": [str(c) for c in cards]},
            "mise en place, tour 1 avant gm 0.2",
        )
        for n, cards in state.setup_discards
    ]
    for record in state.history:
        for d in record.duels:
            where = f"manche {record.number}, duel {d.number}, tour {d.turn} avant gm 0.2"
            for n, card in d.outcome.cards.items():
                payload = {"round": d.turn, "player": n, "card": str(card)}
                out.append(("fistful.card-played", payload, where))
        where = f"fin de la manche {record.number}, tour {record.end_turn} avant gm 0.2"
        for n, choice in record.choices:
            final = str(choice.final) if choice.final is not None else None
            payload = {
                "round": record.end_turn,
                "player": n,
                "choice": {"discards": [str(c) for c in choice.discards], "final": final},
            }
            out.append(("fistful.end-chosen", payload, where))
    return out


def test_an_old_log_folds_verifies_and_discloses_every_old_secret(db: str) -> None:
    table, document, inputs = play("fistful-red-seven-choices.toml")
    env = Env(db=db)
    slug = store_old_log(env, document, inputs)
    campaign = actions.load(env, slug)
    assert campaign.meta.protocol == 1
    assert campaign.state == table.state and GAME.is_over(campaign.state)

    verdict = audit.verify(env, slug)
    assert verdict.problems == []
    assert any("protocol 1" in note for note in verdict.notes)

    disclosure = publishing.find_post(env, slug, "disclosure", None).body
    lines = opened_lines(disclosure)
    salts = {
        (r.kind, r.payload["player"], r.payload["round"]): r.salt
        for r in env.store.events(slug)
        if r.kind.startswith("fistful.") and CODEC.type_of(r.kind).sealed
    }
    choices = old_choices(table.state)
    assert len(choices) == len(salts) == 2 + 2 * 11 + 4  # setup, 11 duels, 2 red-7 ends
    for kind, payload, where in choices:
        # under its duel, with its turn: what the post shows is enough to seal it again
        salt = salts[kind, payload["player"], payload["round"]]
        printed = seal(kind, payload, salt).removeprefix("sha256:")[:32]
        assert f"{payload['player']} `{printed}` (sel `{salt}`)" in lines[where], (where, lines)
    assert len(lines) == 1 + 11 + 2
    assert '`{"kind": …, "payload": {"round": <tour>, "player": …, …}, "salt": …}`' in disclosure
    assert audit.verify(env, slug).problems == []  # the disclosure post too


def test_an_old_game_cut_in_the_middle_goes_on_with_new_commands(db: str) -> None:
    """Stored by gm 0.1 up to ana's card of manche 2's first duel; bob's card,
    the reveal and the rest come from today's gm: old and new secrets side by
    side, each under its own key, and the whole log verifies."""
    table, document, inputs = play("fistful-red-seven-choices.toml")
    cut = next(
        i
        for i, item in enumerate(inputs)
        if any(isinstance(e, CardPlayed) and e.manche == 2 for e, _ in item.events)
    )
    env = Env(db=db)
    slug = store_old_log(env, document, inputs[: cut + 1])
    for item in inputs[cut + 1 :]:
        if item.actor == GM:
            (name,) = {STEP_OF[type(e)] for e, _ in item.events if type(e) in STEP_OF}
            actions.step(env, slug, name, {})
        else:
            actions.submit(env, slug, item.actor, text=item.text)
    campaign = actions.load(env, slug)
    assert campaign.state == table.state
    assert audit.verify(env, slug).problems == []

    keys = {key[:2] for key in campaign.secrets}
    assert ("card", 0) in keys and ("card", 2) in keys and ("end", 2) in keys
    # manche 2, duel 1: ana's card was sealed by gm 0.1 (turn 6), bob's by today's gm
    post = publishing.find_post(env, slug, "duel", (2, 1)).body
    assert [line.split(" `")[0] for line in post.splitlines() if "Sceaux" in line] == [
        "Sceaux ouverts\u00a0: bob"
    ]
    disclosure = opened_lines(publishing.find_post(env, slug, "disclosure", None).body)
    assert disclosure["manche 2, duel 1"].startswith(
        "Sceaux ouverts (manche 2, duel 1)\u00a0: bob `"
    )
    assert disclosure["manche 2, duel 1, tour 6 avant gm 0.2"].startswith(
        "Sceaux ouverts (manche 2, duel 1, tour 6 avant gm 0.2)\u00a0: ana `"
    )
    assert audit.verify(env, slug).problems == []


STEP_OF: dict[type[Event], str] = {
    DuelsStarted: "start",
    DuelResolved: "reveal",
    MancheEnded: "resolve",
}
"""The MJ's step that decided an event."""
