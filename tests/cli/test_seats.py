"""Seats, not names: what the MJ sees when players are renamed or replaced,
one rule for names in every game, names of several words in messages and
scenario files, and events that gain a field.

A seat is a player's stable identity (the name they had when the campaign
was created); the roster only changes the label. Each test here reproduces
a defect of gm 0.2.1 (``docs/architecture.md``, « Seats and names »).
"""

from __future__ import annotations

import dataclasses
import importlib
import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest
import support

import gm as gm_package
from gm import games
from gm.service.loading import codec_for

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "tests" / "scenarios"
FIXTURES = ROOT / "tests" / "fixtures"


@pytest.fixture
def gm(db: str, frozen_clock: object) -> support.Gm:
    return support.Gm(db)


def _row(status: dict[str, Any], name: str) -> dict[str, Any]:
    return next(p for p in status["players"] if p["name"] == name)


# --- renames and replacements --------------------------------------------------------------


def test_colt_a_player_named_like_a_character_is_renamed_not_the_character(gm: support.Gm) -> None:
    """gm 0.2.1 renamed the character Doc with the player Doc: ``gm pm Dan`` crashed."""
    gm("new", "colt", "--title", "P", "--players", "Doc,ana,bob", "--seed", "graine-essai")
    gm("setup")
    assert gm("rename", "Doc", "Dan").stdout.startswith(
        support.typeset("**P — changement à la table n° 1**\n\nDoc s'appelle désormais **Dan**.\n")
    )
    reply = gm("pm", "Dan").stdout
    assert reply.startswith(support.typeset("**P — ta situation, Dan**") + "  \n")
    assert support.typeset("Tu joues **Doc** (commence chaque manche avec 7 cartes en main)") in reply
    assert gm("verify").exit_code == 0


def test_fistful_nick_rename_and_replace_work(gm: support.Gm) -> None:
    """gm 0.2.1 counted a nickname as a player and keyed the colours by name."""
    gm("new", "fistful", "--title", "F", "--players", "ana,bob", "--seed", "s1")
    assert gm("nick", "bob", "bobby").stderr.endswith("'bobby' now means bob.\n")
    gm("rename", "bob", "Robert")
    replaced = gm("replace", "ana", "Yvette", "--gender", "f")
    assert "**Yvette** prend la place d'ana" in replaced.stdout
    status = gm.status()
    assert status["awaiting"] == ["Yvette", "Robert"]
    assert [(p["name"], p["color"]) for p in status["players"]] == [
        ("Yvette", "red"),
        ("Robert", "green"),
    ]
    assert gm("pm", "bobby").stdout.startswith(support.typeset("**F — ta situation, Robert**"))
    assert gm("verify").exit_code == 0


def test_rattlesnake_a_replacement_keeps_the_seats_town_money_and_hand(
    gm: support.Gm, tmp_path: Path
) -> None:
    gm("play", "--keep", str(SCENARIOS / "rattlesnake-poker.toml"))
    before = _row(gm.status(), "cyd")
    gm("replace", "cyd", "Yvette", "--gender", "f")
    after = gm.status()
    assert _row(after, "Yvette") == {**before, "name": "Yvette"}
    assert before["town"] == "C"
    reply = gm("pm", "Yvette").stdout
    assert support.typeset("Ton argent : **8 000 $** · revenus : 0 $ par tour · ta ville : C.") in reply
    genders = [r["payload"] for r in gm.history() if r["kind"] == "gm.gender-set"]
    assert genders[-1] == {"player": "cyd", "gender": "f"}  # the seat's
    # issue 28.2: the posts after it give Yvette cyd's town, number and income
    # (the town was listed unowned, « None », and every place « Yvette perd »)
    gm("order", "bob", "B3")
    gm("order", "bob", "action")
    turn = gm("order", "bob", "fin").stdout
    for line in (
        "Villes : A Dry Gulch (ana) · B Rattlesnake (bob) · C Tombstone Flats (Yvette) ·",
        "Numéros des joueurs : 1 ana · 2 bob · 3 Yvette.",
        "**Piste de revenus** : ana 1 000 $ · bob 2 000 $ · Yvette 0 $",
    ):
        assert support.typeset(line) in turn, line
    assert "None" not in turn and "cyd" not in turn and "Yvette perd" not in turn
    assert gm("verify").exit_code == 0


def test_replace_sets_the_newcomers_gender_and_refuses_it_for_a_rename(gm: support.Gm) -> None:
    gm("new", "magot", "-t", "G", "-p", "fab,marco:m,lulu", "--seed", "x")
    gm("replace", "marco", "Zoé", "--gender", "f")
    genders = [r["payload"] for r in gm.history() if r["kind"] == "gm.gender-set"]
    assert genders == [{"player": "marco", "gender": "m"}, {"player": "marco", "gender": "f"}]
    assert gm.status()["players"] == ["fab", "Zoé", "lulu"] or [
        p["name"] for p in gm.status()["players"]
    ] == ["fab", "Zoé", "lulu"]
    refused = gm("rename", "lulu", "Lucie", "--gender", "f", code=2)
    assert "no such option" in refused.stderr.lower()
    assert gm("verify").exit_code == 0


# --- one rule for names ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("*", "player name '*' is reserved (the public audience, the MJ): choose another name"),
        ("gm", "player name 'gm' is reserved (the public audience, the MJ): choose another name"),
        ("MJ", "player name 'MJ' is reserved (the public audience, the MJ): choose another name"),
        ("\u0301", "player name '\u0301' has no letter or digit: a name needs at least one"),
    ],
)
def test_reserved_and_letterless_names_are_refused_in_every_game(
    gm: support.Gm, name: str, why: str
) -> None:
    for game in ("magot", "fistful", "colt", "rattlesnake"):
        players = f"{name},bob" if game == "fistful" else f"{name},bob,cyd"
        result = gm("new", game, "-t", "S", "-p", players, code=2)
        assert result.stderr == f"Error: {why} [campaign/players]\n"
    gm("new", "rattlesnake", "-t", "S", "-p", "ana,bob,cyd")
    assert gm("rename", "bob", name, code=2).stderr == f"Error: {why} [campaign/players]\n"
    assert gm("replace", "bob", name, code=2).stderr == f"Error: {why} [campaign/players]\n"
    assert gm("nick", "bob", name, code=2).stderr == f"Error: {why} [campaign/players]\n"
    assert [p["name"] for p in gm.status()["players"]] == ["ana", "bob", "cyd"]


def test_a_name_with_a_line_break_is_refused(gm: support.Gm) -> None:
    result = gm("new", "fistful", "-t", "S", "-p", "a\nb,bob", code=2)
    assert result.stderr == (
        "Error: player name 'a\\nb' contains control or invisible characters (a line break,"
        " a direction mark, a zero-width space…): every player must read the same one-line"
        " name [campaign/players]\n"
    )


# --- names of several words ------------------------------------------------------------------


def _named(toml: str, old: str, new: str) -> str:
    """A scenario file with player ``old`` called ``new`` (keys quoted)."""
    toml = re.sub(rf"(?<![\w\"]){old}(?= =)", f'"{new}"', toml)
    return re.sub(rf"\b{old}\b", new, toml)


def _renamed(value: Any, old: str, new: str) -> Any:
    if isinstance(value, str):
        return new if value == old else value
    if isinstance(value, list):
        return [_renamed(v, old, new) for v in value]
    if isinstance(value, dict):
        return {_renamed(k, old, new): _renamed(v, old, new) for k, v in value.items()}
    return value


@pytest.mark.parametrize("scenario", ["rattlesnake-poker", "colt-pont"])
def test_a_name_of_two_words_plays_the_same_scenario(
    gm: support.Gm, tmp_path: Path, scenario: str
) -> None:
    """« Calamity Jane tire 2 » (Rattlesnake City, a blow) and « Calamity Jane :
    Tir » (Colt Express, a plan entry): the name is whatever the roster holds."""
    text = _named((SCENARIOS / f"{scenario}.toml").read_text(encoding="utf-8"), "ana", "Calamity Jane")
    if scenario == "rattlesnake-poker":
        assert '"Calamity Jane 2"' in text
        text = text.replace('"Calamity Jane 2"', '"Calamity Jane tire 2"')
    else:
        assert '"Calamity Jane : Tir"' in text
    path = tmp_path / f"{scenario}.toml"
    path.write_text(text, encoding="utf-8")
    expected = json.loads((SCENARIOS / f"{scenario}.expected.json").read_text(encoding="utf-8"))
    summary = json.loads(gm("play", str(path), "--json").stdout)
    assert {key: summary[key] for key in expected} == _renamed(expected, "ana", "Calamity Jane")


# --- events that evolve ----------------------------------------------------------------------

EVOLVED = {
    "magot": ("gm.games.magot", "LootDrawn"),
    "fistful": ("gm.games.fistful", "CardPlayed"),
    "colt": ("gm.games.colt", "CardsDrawn"),
    "rattlesnake": ("gm.games.rattlesnake", "TilePlaced"),
}


def _evolve(monkeypatch: pytest.MonkeyPatch, game: str) -> type:
    """Give one event of ``game`` a new defaulted field (``note: str = ""``),
    everywhere the game and the codec refer to it, as a later gm would."""
    package, name = EVOLVED[game]
    games.load(game)  # every module of the game imported, to be patched
    old = getattr(importlib.import_module(f"{package}.events"), name)
    new = dataclasses.make_dataclass(
        name, [("note", str, dataclasses.field(default=""))], bases=(old,), frozen=True
    )
    new.__module__ = old.__module__
    for module_name, module in list(sys.modules.items()):
        if not module_name.startswith(package):
            continue
        if getattr(module, name, None) is old:
            monkeypatch.setattr(module, name, new)
        for table in list(vars(module).values()):  # handlers by event class
            if isinstance(table, dict) and old in table:
                monkeypatch.setitem(table, new, table[old])
    monkeypatch.setitem(codec_for(game)._types, old.kind, new)
    return new


@pytest.mark.parametrize("game", list(EVOLVED))
def test_an_event_that_gains_a_defaulted_field_still_verifies_and_imports(
    gm: support.Gm, new_db: support.NewDb, monkeypatch: pytest.MonkeyPatch, game: str
) -> None:
    """gm 0.2.1 compared the stored payload bytes with today's re-encoding:
    one new field, and every event of that kind was « a problem »."""
    monkeypatch.setattr(gm_package, "__version__", "0.3.0.dev0")  # a later gm
    _evolve(monkeypatch, game)
    imported = gm("import", str(FIXTURES / f"gm-0.2.1-{game}.json"))
    assert imported.exit_code == 0
    verified = gm("verify")
    assert verified.stdout.startswith(f"ancienne-partie-{game}: ")
    fresh = support.Gm(new_db("fresh"))
    fresh("play", "--keep", str(ROOT / "campaigns" / f"exemple-{game}.toml"))
    assert fresh("verify").exit_code == 0


def test_a_command_that_evolves_is_upcast_when_verify_decides_it_again(
    gm: support.Gm, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``gm.command-decided`` stores commands: a later gm that gives Le
    Magot's order a new required field (version 2) reads the stored version 1
    through its upcaster, and the 0.2.1 export still imports and verifies."""
    from gm.games.magot import commands
    from gm.service.loading import commands_for

    old = commands.SetOrder
    fixture = str(FIXTURES / "gm-0.2.1-magot.json")

    def patched(upcasters: tuple[Any, ...]) -> None:
        new = dataclasses.make_dataclass(
            "SetOrder",
            [("via", str)],
            bases=(old,),
            frozen=True,
            namespace={"version": 2, "upcasters": upcasters},
        )
        new.__module__ = old.__module__
        monkeypatch.setitem(commands_for("magot")._types, old.kind, new)

    patched(())  # version 2 without a way to read version 1
    refused = gm("import", fixture, code=5)
    assert "magot.set-order" in refused.stderr and "nothing was imported" in refused.stderr
    patched((lambda args: {**args, "via": "message"},))
    assert gm("import", fixture).exit_code == 0
    assert gm("verify").exit_code == 0
