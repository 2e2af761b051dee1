"""The command line of the campaign's game (issue 22): a step's help and
options, and ``gm order``'s fields and wording, are those of the current
campaign's game only, and Click refuses another game's option as any unknown
one; with no campaign, the help says which game does what. Two games
declaring one step's parameter differently, or a step named like a command
of gm's own, is an error when the command line is built."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import click
import pytest
from support import Gm

from gm.cli.steps import StepClash, build_commands
from gm.core.protocol import GameInfo, ParamSpec, StepSpec


@pytest.fixture
def colt(db: str) -> Gm:
    gm = Gm(db)
    gm("new", "colt", "-t", "Le train", "-p", "ana,bob,cleo", "--seed", "s")
    return gm


@pytest.fixture
def rattlesnake(db: str) -> Gm:
    gm = Gm(db)
    gm("new", "rattlesnake", "-t", "La vallée", "-p", "ana,bob,cleo", "--seed", "s")
    return gm


def test_a_step_s_help_is_the_campaign_s_game_s(colt: Gm, rattlesnake: Gm) -> None:
    colt("use", "le-train")
    text = colt("setup", "--help").stdout
    assert "Place the train" in text and "--character" in text
    assert "Deal" not in text and "--hand" not in text and "Rattlesnake" not in text
    rattlesnake("use", "la-vallee")
    text = rattlesnake("setup", "--help").stdout
    assert "Deal:" in text and "--hand" in text
    assert "--character" not in text and "Colt" not in text


def test_another_game_s_option_is_unknown(colt: Gm) -> None:
    before = len(colt.history())
    refused = colt("setup", "--hand", "ana=x", code=2)
    assert "No such option '--hand'" in refused.stderr
    assert len(colt.history()) == before


def test_with_no_campaign_the_help_says_whose_step_it_is(tmp_path: Path) -> None:
    db = tmp_path / "nothing-yet.db"
    text = Gm(str(db))("setup", "--help").stdout
    assert "Colt Express (colt) — Place the train" in text
    assert "Rattlesnake City (rattlesnake) — Deal" in text
    assert "(A step of Le Magot campaigns.)" in Gm(str(db))("draw", "--help").stdout
    assert not db.exists()  # asking for help creates no database


def test_order_s_help_and_fields_are_the_game_s(colt: Gm, db: str) -> None:
    text = colt("order", "--help").stdout
    assert 'gm order ana "je joue Déplacement"' in text
    assert "--target" not in text and "BANG" not in text
    magot = Gm(db)
    magot("new", "magot", "-t", "Le casse", "-p", "fab,marco,lulu", "--seed", "s")
    text = magot("order", "--help").stdout
    assert "--target" in text and "--option" in text
    assert "gm order fab" in text and "Déplacement" not in text


def test_a_step_s_parameter_declared_twice_differently_is_refused() -> None:
    def info(game_id: str, param: ParamSpec) -> GameInfo:
        step = StepSpec("deal", "Deal.", (param,), build=lambda values, table: None)  # type: ignore[arg-type,return-value]
        return GameInfo(game_id, game_id.title(), 2, 4, (), (step,), ())

    same = [info("one", ParamSpec("cards")), info("two", ParamSpec("cards", help="other"))]
    assert [c.name for c in build_commands(same)] == ["deal"]
    clashing = [info("one", ParamSpec("cards")), info("two", ParamSpec("cards", multiple=True))]
    with pytest.raises(StepClash, match="one and two declare its parameter 'cards' differently"):
        build_commands(clashing)


def test_a_step_named_like_a_command_of_gm_is_refused() -> None:
    from gm.cli import cli

    with pytest.raises(StepClash, match="two commands are named 'gm status'"):
        cli.add_command(click.Command("status"))


def test_the_root_help_opens_no_database(tmp_path: Path) -> None:
    db = tmp_path / "gm.db"
    code = f"from gm.cli import cli; cli(['--db', {str(db)!r}, '--help'], prog_name='gm')"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert "setup" in done.stdout and "order" in done.stdout
    assert not db.exists()
