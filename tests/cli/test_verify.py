"""``gm verify``: a clean archive verifies; a tampered event or an edited post
is found, named, and makes the command fail with exit code 5."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from support import Raw

from gm.cli import cli

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def db(db: str) -> str:
    """The example game, played into the test's database."""
    result = CliRunner().invoke(
        cli, ["--db", db, "play", str(ROOT / "campaigns" / "exemple-magot.toml")]
    )
    assert result.exit_code == 0, result.output
    return db


def verify(db: str, code: int) -> str:
    result = CliRunner().invoke(cli, ["--db", db, "verify"])
    assert result.exit_code == code, result.output
    return result.output


def tamper(db: str, sql: str) -> None:
    # A dishonest MJ with the database: triggers out of the way, then edit.
    Raw(db).tamper(sql)


def test_a_played_campaign_verifies(db: str) -> None:
    assert verify(db, 0) == "le-casse-du-siecle: 120 events and 26 posts verify.\n"


def test_a_changed_order_is_found(db: str) -> None:
    tamper(
        db,
        'UPDATE events SET payload = replace(payload, \'"option":"click"\', \'"option":"bang"\')'
        " WHERE seq = 5",
    )
    output = verify(db, 5)
    assert output.startswith("seq 5: ")
    assert "Error: 'le-casse-du-siecle' does not verify" in output
    assert "[verify/mismatch]" in output


def test_a_deleted_event_is_found(db: str) -> None:
    tamper(db, "DELETE FROM events WHERE seq = 40")
    assert "seq 41: gap in the sequence, seq 40 missing" in verify(db, 5)


def test_a_post_edited_with_its_hash_is_found_by_rendering_again(db: str) -> None:
    import hashlib

    ((body,),) = Raw(db).execute("SELECT body FROM posts WHERE number = 4")
    edited = body.replace("touché", "raté", 1)
    assert edited != body
    new_hash = "sha256:" + hashlib.sha256(edited.encode()).hexdigest()
    tamper(
        db,
        f"UPDATE posts SET body = '{edited.replace(chr(39), chr(39) * 2)}', hash = '{new_hash}' WHERE number = 4",
    )
    assert "post 4 (results, round 1): differs from a fresh render of the log at seq" in verify(
        db, 5
    )


def test_a_changed_salt_is_found(db: str) -> None:
    tamper(db, "UPDATE events SET salt = '00000000000000000000000000000000' WHERE seq = 9")
    assert verify(db, 5).startswith("seq 9: ")
