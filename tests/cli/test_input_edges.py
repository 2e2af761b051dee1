"""What enters gm is checked where it enters (brief « edges »): the reproductions
of its part A and of part B, items 2 to 5, each one a traceback, a hang, a
wrong exit or a lost campaign once, now a sentence with its code that
changes nothing. On SQLite and PostgreSQL where a database is involved."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from support import Gm, Raw

from gm.cli import cli

ROOT = Path(__file__).parents[2]
BIG = "x" * 1_000_000


@pytest.fixture
def orders(db: str) -> Gm:
    """A Le Magot campaign waiting for orders."""
    gm = Gm(db)
    gm("new", "magot", "-t", "T", "-p", "fab,marco,lulu", "--seed", "s")
    gm("draw", "--bills", "20000,10000,5000,5000,5000")
    return gm


def last_line(result: object) -> str:
    return result.stderr.strip().splitlines()[-1]  # type: ignore[attr-defined]


def events(gm: Gm) -> int:
    return int(gm.status()["events"])


def test_a_pasted_message_that_is_not_utf8_names_its_byte(orders: Gm) -> None:
    before = events(orders)
    result = orders.runner.invoke(
        cli, ["--db", orders.db, "order", "fab", "-"], input=b"\xff\xfe A1"
    )
    assert result.exit_code == 2
    assert last_line(result) == (
        "Error: the message on standard input is not valid UTF-8: byte 0xFF at byte 1 is not"
        " part of a UTF-8 character; gm reads text as UTF-8 only (save or convert it as UTF-8)"
        " [input/not-utf8]"
    )
    assert events(orders) == before


@pytest.mark.parametrize(
    "args",
    [
        ["-c", "\udcff", "status"],
        ["use", "li\udcffste"],
        ["nick", "fab", "\udcfe"],
        ["roll", "2d6", "pour \udcff"],
        ["export", "-o", "\udcff.json"],
    ],
)
def test_an_argument_that_is_not_utf8_is_refused_before_any_command(
    orders: Gm, args: list[str]
) -> None:
    before = events(orders)
    result = orders(*args, code=2)
    line = last_line(result)
    assert line.startswith("Error: argument ")
    assert "is not valid UTF-8: byte 0x" in line and line.endswith("[input/not-utf8]")
    assert events(orders) == before


def test_deep_json_a_fifo_and_a_device_are_refused_at_once(orders: Gm, tmp_path: Path) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000, "utf-8")
    assert last_line(orders("import", str(deep), code=2)).endswith(
        "nests too deeply: gm reads exports nested at most 32 levels (arrays and objects)"
        " [import/too-deep]"
    )
    fifo = tmp_path / "tube"
    os.mkfifo(fifo)
    assert last_line(orders("import", str(fifo), code=2)).endswith(
        "it is a named pipe (FIFO), not a file; give the path of a regular file [import/unreadable]"
    )
    link = tmp_path / "zero.json"
    link.symlink_to("/dev/zero")
    assert "it is a device, not a file" in last_line(orders("import", str(link), code=2))


def test_deep_toml_in_a_scenario_is_refused(orders: Gm, tmp_path: Path) -> None:
    scenario = tmp_path / "profond.toml"
    scenario.write_text('game = "magot"\nplayers = ["a", "b", "c"]\nx = ' + "[" * 5000, "utf-8")
    assert last_line(orders("play", str(scenario), code=2)).endswith("[scenario/too-deep]")
    dotted = tmp_path / "points.toml"
    dotted.write_text("a" + ".a" * 100_000 + " = 1\n", "utf-8")
    assert last_line(orders("play", str(dotted), code=2)).endswith("[scenario/too-deep]")


def test_a_damaged_database_is_said_to_be_so(orders: Gm) -> None:
    Raw(orders.db).tamper("UPDATE events SET payload = 'pas du json' WHERE seq = 2")
    for command in ("status", "history", "post", "pm"):
        args = [command, "fab"] if command == "pm" else [command]
        result = orders(*args, code=5)
        line = last_line(result)
        assert "Traceback" not in result.output
        assert line.startswith(
            "Error: the database is damaged: campaign 't', event 2: its payload is not JSON"
        ), line
        assert "Restore the campaign from a backup" in line and line.endswith("[store/damaged]")
    assert last_line(orders("verify", code=5)).endswith("[verify/mismatch]")


def test_gm_db_is_a_path_and_memory_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Gm("partie?v2.db")("new", "magot", "-t", "T", "-p", "fab,marco,lulu")
    Gm("salle%20A.db")("new", "magot", "-t", "U", "-p", "fab,marco,lulu")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["partie?v2.db", "salle%20A.db"]
    for memory in ("sqlite://", ":memory:"):
        line = last_line(Gm(memory)("new", "magot", "-t", "T", "-p", "a,b,c", code=4))
        assert line.endswith("[store/in-memory]") and "would vanish" in line


def test_a_word_for_the_fortune_after_the_end_is_refused(db: str) -> None:
    gm = Gm(db)
    gm("play", str(ROOT / "tests" / "scenarios" / "everyone-dies.toml"), "--keep")
    before = events(gm)
    line = last_line(gm("order", "fab", "graine : trop tard", code=1))
    assert line.endswith("[phase/game-over]"), line
    assert events(gm) in (before, before + 1)  # a refused message may be logged, nothing else
    assert gm.status()["phase"] == "over"


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (["order", BIG, "marco clic"], "[player/not-found]"),
        (["-c", BIG, "status"], "[campaign/not-found]"),
        (["deadline", BIG], "[input/deadline]"),
        (["post", BIG], "[magot/unknown-post]"),
        (["draw", "--bills", BIG], "[magot/bad-bills]"),
        (["set", BIG, "1"], "is not one of"),
        (["history", BIG], "characters)"),
    ],
)
def test_an_error_quotes_a_long_input_cut(orders: Gm, args: list[str], code: str) -> None:
    result = orders(*args, code=3 if code.endswith(("not-found]", "post]")) else 2)
    assert len(result.output) < 1_500, result.output[:300]
    assert "1,000,0" in result.output and code in result.output


def test_dash_is_standard_output_for_the_chronicle(
    orders: Gm, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    out = orders("chronicle", "-o", "-").stdout
    assert out.startswith("# T\n")
    assert not (tmp_path / "-").exists()
    orders("chronicle", "-o", "chronique.md")
    assert (tmp_path / "chronique.md").read_text("utf-8") == out


def test_standard_output_on_a_full_disk_is_one_line(orders: Gm) -> None:
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "gm", "--db", orders.db, "post"],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
        )
    assert done.returncode == 4
    assert done.stderr.startswith("Error: cannot write to standard output: No space left on device")
    assert (
        done.stderr.rstrip("\n").endswith("[output/unwritable]") and "Traceback" not in done.stderr
    )


NUL_CODE = 2


def test_an_import_with_nul_bytes_is_refused(orders: Gm, tmp_path: Path, new_db: object) -> None:
    orders("export", "-o", str(tmp_path / "t.json"))
    document = json.loads((tmp_path / "t.json").read_text("utf-8"))
    document["campaign"]["title"] = "T\x00"
    (tmp_path / "nul.json").write_text(json.dumps(document), "utf-8")
    target = Gm(new_db("autre"))  # type: ignore[operator]
    result = target("import", str(tmp_path / "nul.json"), code=NUL_CODE)
    assert "Traceback" not in result.output
    assert last_line(result).endswith(
        "nul.json': campaign.title holds a NUL byte, which no text may hold;"
        " nothing was imported [import/invalid]"
    )
    assert target("list").stderr.startswith("No campaign yet.")


@pytest.mark.parametrize(
    ("field", "value", "code", "end"),
    [
        ("title", "T" * 300, 2, "its title has 300 characters; a title has 1 to 200;"),
        (
            "created_at",
            "2099-01-01T00:00:00Z",
            5,
            "created_at 2099-01-01T00:00:00Z is not the time of its creation, event 1 at",
        ),
    ],
)
def test_an_import_checks_the_campaign_row(
    orders: Gm, tmp_path: Path, new_db: object, field: str, value: str, code: int, end: str
) -> None:
    orders("export", "-o", str(tmp_path / "t.json"))
    document = json.loads((tmp_path / "t.json").read_text("utf-8"))
    document["campaign"][field] = value
    (tmp_path / "edited.json").write_text(json.dumps(document), "utf-8")
    target = Gm(new_db("autre"))  # type: ignore[operator]
    line = last_line(target("import", str(tmp_path / "edited.json"), code=code))
    assert line.startswith(f"Error: campaign 't': {end}"), line
    assert line.endswith(
        "nothing was imported [import/invalid]" if code == 2 else "[import/integrity]"
    )
    assert target("list").stderr.startswith("No campaign yet.")


@pytest.mark.parametrize(
    ("sql", "says"),
    [
        (
            "UPDATE events SET seq = 'deux' WHERE seq = 2",
            "its last event: its seq or hash is 'deux'",
        ),
        ("DELETE FROM events", "its log: it has no events"),
        (
            "UPDATE posts SET address = 'pas une adresse'",
            "post 1: not a post address: 'pas une adresse'",
        ),
    ],
)
def test_a_database_edited_in_place_is_damaged_not_a_traceback(
    orders: Gm, sql: str, says: str
) -> None:
    raw = Raw(orders.db)
    if "'deux'" in sql and raw.dialect != "sqlite":
        pytest.skip("PostgreSQL's integer column refuses text: only SQLite can hold a seq 'deux'")
    raw.tamper(sql)
    for command in ("post",) if "posts" in sql else ("status", "post"):  # status reads no post
        line = last_line(orders(command, code=5))
        assert line.startswith(f"Error: the database is damaged: campaign 't', {says}") or (
            command == "post" and "[store/damaged]" in line
        ), line
        assert line.endswith("[store/damaged]")
    if "posts" not in sql:
        assert "unreadable  the database is damaged" in orders("list").stdout


def test_an_empty_board_and_a_long_time_zone_are_refused(orders: Gm, tmp_path: Path) -> None:
    (tmp_path / "vide.toml").write_text("", "utf-8")
    line = last_line(
        orders(
            "new",
            "rattlesnake",
            "-t",
            "R",
            "-p",
            "a,b",
            "-o",
            f"board={tmp_path / 'vide.toml'}",
            code=2,
        )
    )
    assert line.endswith(
        "for the option board is empty; give a file with the option's content [campaign/option-file]"
    )
    line = last_line(orders("set", "tz", "0" * 300, code=2))
    assert line.startswith("Error: unknown time zone '" + "0" * 60 + "'… (300 characters)")
    assert line.endswith("[input/timezone]")


def test_dash_is_standard_output_for_a_chart(
    orders: Gm, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("matplotlib")
    monkeypatch.chdir(tmp_path)
    for player, order in (("fab", "marco BANG"), ("marco", "lulu BANG"), ("lulu", "fab clic")):
        orders("order", player, order)
    orders("reveal")
    orders("resolve")
    out = orders("chart", "-o", "-").stdout_bytes
    assert out.startswith(b"\x89PNG\r\n\x1a\n")
    assert not (tmp_path / "-").exists()
