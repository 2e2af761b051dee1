"""The current campaign belongs to the MJ, not to the database.

On a community's PostgreSQL server every MJ's campaigns share one database:
when one MJ runs ``gm use``, another MJ's next ``gm order`` must still go to
their own campaign. Each MJ (their login on their machine) has their own
current campaign; what gm stored before that (one for the whole database)
is still read until the MJ chooses again.
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner, Result
from support import Raw

from gm.cli import cli


def as_mj(login: str, db: str, *args: str, code: int = 0) -> Result:
    # getpass.getuser() reads LOGNAME first: this is who runs gm.
    result = CliRunner(env={"LOGNAME": login}).invoke(cli, ["--db", db, *args])
    assert result.exit_code == code, (result.output, result.exception)
    return result


def current(login: str, db: str) -> str | None:
    rows = json.loads(as_mj(login, db, "list", "--json").stdout)
    return next((r["slug"] for r in rows if r["current"]), None)


def test_two_mjs_sharing_a_database_keep_their_own_current_campaign(db: str) -> None:
    as_mj("ana", db, "new", "magot", "-t", "Le casse", "-p", "fab,marco,lulu")
    as_mj("bob", db, "new", "fistful", "-t", "Le duel", "-p", "fab,marco")
    assert (current("ana", db), current("bob", db)) == ("le-casse", "le-duel")
    # bob's gm new did not move ana: her order goes to her campaign
    as_mj("ana", db, "draw")
    as_mj("ana", db, "order", "fab", "marco BANG")
    as_mj("bob", db, "order", "fab", "je défausse le 1 et le 2")
    casse = as_mj("ana", db, "status", "--json").stdout
    assert json.loads(casse)["game"] == "magot"
    assert json.loads(as_mj("bob", db, "status", "--json").stdout)["game"] == "fistful"
    # gm use changes only its MJ's choice
    as_mj("bob", db, "use", "le-casse")
    assert (current("ana", db), current("bob", db)) == ("le-casse", "le-casse")
    as_mj("ana", db, "use", "le-duel")
    assert (current("ana", db), current("bob", db)) == ("le-duel", "le-casse")
    assert "current campaign of ana: le-duel" in as_mj("ana", db, "info").stdout


def test_an_mj_with_no_campaign_of_their_own_is_told_how_to_choose(db: str) -> None:
    as_mj("ana", db, "new", "magot", "-t", "Le casse", "-p", "fab,marco,lulu")
    Raw(db).execute("DELETE FROM settings")  # a database gm has never used for this MJ
    result = as_mj("cid", db, "status", code=3)
    assert result.stderr == (
        "Error: no current campaign: create one with 'gm new', or choose one with"
        " 'gm use SLUG' [campaign/none]\n"
    )


def test_the_current_campaign_of_an_older_gm_is_still_read(db: str) -> None:
    as_mj("ana", db, "new", "magot", "-t", "Le casse", "-p", "fab,marco,lulu")
    as_mj("ana", db, "new", "magot", "-t", "Autre", "-p", "fab,marco,lulu")
    # what gm wrote before each MJ had their own: one key for the database
    Raw(db).execute("DELETE FROM settings")
    Raw(db).execute("INSERT INTO settings (key, value) VALUES ('current-campaign', 'le-casse')")
    assert current("ana", db) == current("bob", db) == "le-casse"
    as_mj("bob", db, "use", "autre")
    assert (current("ana", db), current("bob", db)) == ("le-casse", "autre")


@pytest.mark.postgresql  # with psycopg it then fails to connect; without, to load it
def test_gm_info_names_a_server_without_its_password() -> None:
    url = "postgresql+psycopg://mj:secret@localhost:1/gm"  # nobody listens on port 1
    result = CliRunner(env={"LOGNAME": "ana"}).invoke(cli, ["--db", url, "info"])
    assert result.stdout.startswith("gm ") and "secret" not in result.output
    assert result.stdout.splitlines()[1] == "database: postgresql+psycopg://mj:***@localhost:1/gm"
    assert result.exit_code == 4  # then it says it cannot reach it
