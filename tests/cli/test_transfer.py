"""``gm export``, ``gm import`` and ``gm backup``: a campaign moves to another
database with every hash intact (export → import → export is byte-identical),
a tampered or malformed file is refused and writes nothing, and a backup is a
gm database that verifies."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from support import PG_ENV, PgServer, Raw

from gm.cli import cli
from gm.errors import EXIT_INTEGRITY, EXIT_NOT_FOUND, EXIT_STORE, CampaignError, InputError

ROOT = Path(__file__).resolve().parents[2]
SLUG = "le-casse-du-siecle"


def gm(db: Path | str, *args: str, code: int = 0) -> Result:
    result = CliRunner().invoke(cli, ["--db", str(db), *args])
    assert result.exit_code == code, (result.output, result.exception)
    return result


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A database with the example campaign played to its end (read-only for tests)."""
    db = tmp_path_factory.mktemp("played") / "a.db"
    gm(db, "play", str(ROOT / "campaigns" / "exemple-magot.toml"), "--keep")
    return db


@pytest.fixture(scope="module")
def exported(played: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("export") / "x.json"
    gm(played, "export", SLUG, "-o", str(path))
    return path


def status(db: Path | str, *args: str) -> dict[str, Any]:
    return json.loads(gm(db, *args, "status", "--json").stdout)


def campaigns(db: Path | str) -> list[str]:
    if not Path(str(db)).exists() and "://" not in str(db):
        return []  # gm never created the file
    return [row[0] for row in Raw(str(db)).execute("SELECT slug FROM campaigns ORDER BY slug")]


def rewrite(source: Path, target: Path, change: Any) -> Path:
    document = json.loads(source.read_text(encoding="utf-8"))
    change(document)
    target.write_text(json.dumps(document, ensure_ascii=False), encoding="utf-8")
    return target


def test_the_export_is_the_documented_format(exported: Path) -> None:
    document = json.loads(exported.read_text(encoding="utf-8"))
    assert document["format"] == "gm-campaign"
    assert document["version"] == 1
    assert document["campaign"]["slug"] == SLUG
    assert len(document["events"]) == 243  # the example game, its 5 players' genders included
    assert len(document["posts"]) == 26
    first = document["events"][0]
    assert first["seq"] == 1 and first["prev_hash"] is None
    assert json.loads(first["payload"])["game"] == "magot"  # the stored text
    assert exported.read_bytes().endswith(b"}\n")


def test_export_to_stdout_is_the_same_file(played: Path, exported: Path) -> None:
    assert gm(played, "export", SLUG, "-o", "-").stdout_bytes == exported.read_bytes()
    assert gm(played, "export", "-o", "-").stdout_bytes == exported.read_bytes()  # the current one


def test_an_export_never_replaces_a_file_unless_forced(
    played: Path, exported: Path, tmp_path: Path
) -> None:
    last_week = tmp_path / "casse.json"
    last_week.write_text("l'export de la semaine dernière", encoding="utf-8")
    result = gm(played, "export", "-o", str(last_week), code=InputError.exit_code)
    assert result.stderr == (
        f"Error: {str(last_week)!r} exists; give --force to replace it, or choose another"
        " name [export/exists]\n"
    )
    assert last_week.read_text(encoding="utf-8") == "l'export de la semaine dernière"
    gm(played, "export", "-o", str(last_week), "--force")
    assert last_week.read_bytes() == exported.read_bytes()
    assert [p.name for p in tmp_path.iterdir()] == ["casse.json"]  # no temporary file left


def test_an_export_to_a_name_too_long_is_refused_clearly(played: Path, tmp_path: Path) -> None:
    result = gm(played, "export", "-o", str(tmp_path / ("x" * 300)), code=InputError.exit_code)
    assert result.stderr.endswith(": File name too long [export/unwritable]\n")


def test_an_export_to_a_device_writes_through_it(played: Path) -> None:
    import stat

    gm(played, "export", "-o", "/dev/null")
    assert stat.S_ISCHR(Path("/dev/null").stat().st_mode)  # still the device, not a file


def test_a_round_trip_keeps_every_hash(
    db: str, played: Path, exported: Path, tmp_path: Path
) -> None:
    b = db
    result = gm(b, "import", str(exported))
    assert f"Campaign {SLUG!r} imported (243 events, 26 posts) and selected." in result.stderr
    assert gm(b, "verify").stdout == f"{SLUG}: 243 events and 26 posts verify.\n"
    assert gm(b, "export", SLUG, "-o", "-").stdout_bytes == exported.read_bytes()
    assert status(b) == status(played)
    assert gm(b, "history", "--json").stdout == gm(played, "history", "--json").stdout


def test_an_export_keeps_what_rendered_each_post(
    db: str, played: Path, exported: Path, tmp_path: Path
) -> None:
    document = json.loads(exported.read_text(encoding="utf-8"))
    assert all(p["rendered_by"].startswith("gm ") for p in document["posts"])
    # an export of a gm before schema revision 0003 has no rendered_by: it imports
    older = rewrite(
        exported,
        tmp_path / "older.json",
        lambda d: [p.pop("rendered_by") for p in d["posts"]],
    )
    gm(db, "import", str(older))
    assert gm(db, "verify").stdout == f"{SLUG}: 243 events and 26 posts verify.\n"
    assert [r[0] for r in Raw(db).execute("SELECT DISTINCT rendered_by FROM posts")] == [None]


def test_importing_twice_is_refused(db: str, exported: Path, tmp_path: Path) -> None:
    b = db
    gm(b, "import", str(exported))
    result = gm(b, "import", str(exported), code=CampaignError.exit_code)
    assert "[campaign/exists]" in result.stderr
    assert "--slug NEW" in result.stderr
    assert campaigns(b) == [SLUG]


def test_import_under_another_slug(db: str, played: Path, exported: Path, tmp_path: Path) -> None:
    b = db
    gm(b, "import", str(exported))
    gm(b, "import", str(exported), "--slug", "le-casse-bis")
    assert campaigns(b) == ["le-casse-bis", SLUG]
    assert gm(b, "-c", "le-casse-bis", "verify").stdout == (
        "le-casse-bis: 243 events and 26 posts verify.\n"
    )
    assert status(b)["campaign"] == "le-casse-bis"  # the import is current
    copy = json.loads(gm(b, "export", "le-casse-bis", "-o", "-").stdout)
    original = json.loads(exported.read_text(encoding="utf-8"))
    assert copy["events"] == original["events"]
    assert copy["posts"] == original["posts"]
    gm(b, "import", str(exported), "--slug", "Pas Un Slug", code=InputError.exit_code)


def test_a_changed_order_is_refused_naming_its_seq(db: str, exported: Path, tmp_path: Path) -> None:
    seq = 0

    def change_order(document: dict[str, Any]) -> None:
        nonlocal seq
        event = next(e for e in document["events"] if e["kind"] == "magot.order-set")
        assert '"option":"click"' in event["payload"]
        event["payload"] = event["payload"].replace('"option":"click"', '"option":"bang"')
        seq = event["seq"]

    tampered = rewrite(exported, tmp_path / "t.json", change_order)
    b = db
    result = gm(b, "import", str(tampered), code=EXIT_INTEGRITY)
    assert f"does not verify: seq {seq}: hash mismatch" in result.stderr
    assert "nothing was imported [import/integrity]" in result.stderr
    assert campaigns(b) == []


def test_an_edited_post_is_refused_naming_it(db: str, exported: Path, tmp_path: Path) -> None:
    def edit_post(document: dict[str, Any]) -> None:
        post = document["posts"][3]
        post["body"] = post["body"].replace("touché", "raté", 1)

    tampered = rewrite(exported, tmp_path / "t.json", edit_post)
    b = db
    result = gm(b, "import", str(tampered), code=EXIT_INTEGRITY)
    assert "does not verify: post 4: body does not match its hash" in result.stderr
    assert campaigns(b) == []


def test_a_removed_event_is_refused(db: str, exported: Path, tmp_path: Path) -> None:
    tampered = rewrite(exported, tmp_path / "t.json", lambda d: d["events"].pop(39))
    result = gm(db, "import", str(tampered), code=EXIT_INTEGRITY)
    assert "seq 41: gap in the sequence, seq 40 missing" in result.stderr


@pytest.mark.parametrize(
    ("content", "code", "message"),
    [
        ("pas du json", "import/not-json", "is not a gm export: not JSON"),
        ('{"format": "autre", "version": 1}', "import/format", "its format is 'autre'"),
        ("[1, 2]", "import/format", "its format is None, not 'gm-campaign'"),
        ('{"format": "gm-campaign", "version": 2}', "import/version", "of version 2"),
        (
            '{"format": "gm-campaign", "version": 1, "campaign": {}, "events": [], "posts": []}',
            "import/invalid",
            "campaign has no 'slug'",
        ),
    ],
)
def test_a_file_that_is_not_an_export_is_refused(
    db: str, tmp_path: Path, content: str, code: str, message: str
) -> None:
    path = tmp_path / "f.json"
    path.write_text(content, encoding="utf-8")
    result = gm(db, "import", str(path), code=InputError.exit_code)
    assert message in result.stderr
    assert f"[{code}]" in result.stderr


def test_a_wrongly_typed_field_is_refused(db: str, exported: Path, tmp_path: Path) -> None:
    tampered = rewrite(exported, tmp_path / "t.json", lambda d: d["events"][2].update(seq="3"))
    result = gm(db, "import", str(tampered), code=InputError.exit_code)
    assert "event #3: 'seq' has the wrong type [import/invalid]" in result.stderr


def test_a_missing_file_is_not_found(db: str, tmp_path: Path) -> None:
    result = gm(db, "import", str(tmp_path / "nope.json"), code=EXIT_NOT_FOUND)
    assert "[import/file-not-found]" in result.stderr


def test_import_reads_standard_input(db: str, exported: Path, tmp_path: Path) -> None:
    b = db
    result = CliRunner().invoke(
        cli, ["--db", str(b), "import", "-"], input=exported.read_text(encoding="utf-8")
    )
    assert result.exit_code == 0, result.output
    assert gm(b, "export", SLUG, "-o", "-").stdout_bytes == exported.read_bytes()


def test_a_backup_is_a_gm_database_and_is_never_overwritten(played: Path, tmp_path: Path) -> None:
    copy = tmp_path / "backup.db"
    result = gm(played, "backup", str(copy))
    assert f"to {copy}." in result.stderr
    assert gm(copy, "verify").stdout == f"{SLUG}: 243 events and 26 posts verify.\n"
    before = copy.read_bytes()
    result = gm(played, "backup", str(copy), code=EXIT_STORE)
    assert "[store/backup-exists]" in result.stderr
    assert copy.read_bytes() == before


def test_backup_of_postgresql_suggests_pg_dump(tmp_path: Path) -> None:
    result = gm(
        "postgresql+psycopg://nobody@/nowhere", "backup", str(tmp_path / "b.db"), code=EXIT_STORE
    )
    assert "pg_dump" in result.stderr
    assert "[store/backup-unsupported]" in result.stderr
    assert not (tmp_path / "b.db").exists()


@pytest.fixture
def pg_url(pg_server: PgServer | None) -> Iterator[str]:
    """A fresh PostgreSQL database, or skip."""
    if pg_server is None:
        pytest.skip(f"PostgreSQL tests need {PG_ENV}")
    url = pg_server.create()
    yield url
    pg_server.drop(url)


def test_sqlite_to_postgresql_and_back_is_byte_identical(
    played: Path, exported: Path, pg_url: str, tmp_path: Path
) -> None:
    gm(pg_url, "import", str(exported))
    assert gm(pg_url, "verify").stdout == f"{SLUG}: 243 events and 26 posts verify.\n"
    assert gm(pg_url, "export", SLUG, "-o", "-").stdout_bytes == exported.read_bytes()
    assert status(pg_url) == status(played)
    # and back to SQLite
    again = tmp_path / "pg.json"
    gm(pg_url, "export", SLUG, "-o", str(again))
    c = tmp_path / "c.db"
    gm(c, "import", str(again))
    assert gm(c, "export", SLUG, "-o", "-").stdout_bytes == exported.read_bytes()
    result = gm(pg_url, "import", str(exported), code=CampaignError.exit_code)
    assert "[campaign/exists]" in result.stderr
