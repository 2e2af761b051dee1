"""``gm verify``: a clean archive verifies; a tampered event or an edited post
is found, named, and makes the command fail with exit code 5. A post that
another gm or other templates wrote is told apart from an edited one: each
post records what rendered it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from support import Raw, shipped

from gm.cli import cli

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def db(db: str) -> str:
    """The example game, played into the test's database."""
    result = CliRunner().invoke(
        cli, ["--db", db, "play", str(ROOT / "campaigns" / "exemple-magot.toml"), "--keep"]
    )
    assert result.exit_code == 0, result.output
    return db


def verify(db: str, code: int, *options: str) -> str:
    result = CliRunner().invoke(cli, ["--db", db, *options, "verify"])
    assert result.exit_code == code, result.output
    return result.output


def edit_post(db: str, number: int, old: str, new: str, rendered_by: str = "rendered_by") -> None:
    """Change post ``number``'s body and hash together, as a careful cheat would."""
    import hashlib

    ((body,),) = Raw(db).execute(f"SELECT body FROM posts WHERE number = {number}")
    edited = body.replace(old, new, 1)
    assert edited != body
    new_hash = "sha256:" + hashlib.sha256(edited.encode()).hexdigest()
    tamper(
        db,
        f"UPDATE posts SET body = '{edited.replace(chr(39), chr(39) * 2)}', hash = '{new_hash}',"
        f" rendered_by = {rendered_by} WHERE number = {number}",
    )


def other_templates(tmp_path: Path, name: str, old: str, new: str) -> Path:
    """A --templates folder where the shipped ``name`` says ``new`` for ``old``,
    as an upgrade of gm or an MJ's own wording would."""
    source = shipped(name).read_text(encoding="utf-8")
    assert old in source
    target = tmp_path / "gabarits" / name
    target.parent.mkdir(parents=True)
    target.write_text(source.replace(old, new), encoding="utf-8")
    return tmp_path / "gabarits"


def tamper(db: str, sql: str) -> None:
    # A dishonest MJ with the database: triggers out of the way, then edit.
    Raw(db).tamper(sql)


def test_a_played_campaign_verifies(db: str) -> None:
    assert verify(db, 0) == "le-casse-du-siecle: 243 events and 26 posts verify.\n"


def seq_of(db: str, kind: str, nth: int = 0) -> int:
    rows = Raw(db).execute(f"SELECT seq FROM events WHERE kind = '{kind}' ORDER BY seq")
    return int(rows[nth][0])


def test_a_changed_order_is_found(db: str) -> None:
    seq = seq_of(db, "magot.order-set")
    tamper(
        db,
        'UPDATE events SET payload = replace(payload, \'"option":"click"\', \'"option":"bang"\')'
        f" WHERE seq = {seq}",
    )
    output = verify(db, 5)
    assert output.startswith(f"seq {seq}: ")
    assert "Error: 'le-casse-du-siecle' does not verify" in output
    assert "[verify/mismatch]" in output


def test_a_deleted_event_is_found(db: str) -> None:
    tamper(db, "DELETE FROM events WHERE seq = 40")
    assert "seq 41: gap in the sequence, seq 40 missing" in verify(db, 5)


def test_a_post_edited_with_its_hash_is_found_against_the_text_the_log_committed(
    db: str,
) -> None:
    edit_post(db, 4, "touché", "raté")
    output = verify(db, 5)
    assert "post 4 (results 1): its text is not the one the log committed to at seq" in output
    assert "it was edited" in output


def test_an_edited_post_is_a_mismatch_whatever_it_claims_rendered_it(db: str) -> None:
    # The post's text is in the chain: claiming another gm or other templates
    # wrote it (which used to turn the difference into a note) changes nothing.
    edit_post(db, 4, "touché", "raté", rendered_by="'gm 0.0.1 sha256:" + "0" * 64 + "'")
    output = verify(db, 5)
    assert "post 4 (results 1): its text is not the one the log committed to" in output


def test_every_post_records_the_gm_and_the_templates_that_wrote_it(db: str) -> None:
    from gm import __version__

    rows = Raw(db).execute("SELECT kind, rendered_by FROM posts ORDER BY number")
    assert len(rows) == 26
    by_kind: dict[str, set[str]] = {}
    for kind, rendered_by in rows:
        assert re.fullmatch(rf"gm {re.escape(__version__)} sha256:[0-9a-f]{{64}}", rendered_by)
        by_kind.setdefault(kind, set()).add(rendered_by)
    assert all(len(v) == 1 for v in by_kind.values())  # same kind, same templates
    assert len({next(iter(v)) for v in by_kind.values()}) == len(by_kind)


def test_posts_written_with_other_templates_are_noted_not_failed(db: str, tmp_path: Path) -> None:
    # The wording of the results changed since (an upgrade, the MJ's folder):
    # the results posts can no longer be compared, and verify says so, but
    # their hashes and places in the log still verify.
    folder = other_templates(tmp_path, "magot/fr/results.md.j2", "ça tire", "ça canarde")
    result = CliRunner().invoke(cli, ["--db", db, "--templates", str(folder), "verify"])
    assert result.exit_code == 0, result.output
    rounds = len(Raw(db).execute("SELECT 1 FROM posts WHERE kind = 'results'"))
    assert result.stdout == (
        f"le-casse-du-siecle: 243 events and 26 posts verify; {rounds} posts written by"
        " another gm or other templates cannot be compared word for word.\n"
    )
    notes = result.stderr.splitlines()
    assert len(notes) == rounds
    assert re.fullmatch(
        r"\[le-casse-du-siecle\] Note: post 4 \(results 1\): written by gm \S+, templates [0-9a-f]{12}, not by"
        r" today's gm \S+, templates [0-9a-f]{12}; its text is the one committed, its"
        r" wording cannot be compared \(if a --templates folder wrote it, give that folder\)",
        notes[0],
    )


def test_posts_written_with_a_templates_folder_verify_with_it(tmp_path: Path) -> None:
    db = str(tmp_path / "gm.db")
    folder = other_templates(tmp_path, "magot/fr/opening.md.j2", "Sceau du hasard", "Sceau")
    run = CliRunner().invoke
    created = run(
        cli, ["--db", db, "--templates", str(folder), "new", "magot", "-t", "T", "-p", "a,b,c"]
    )
    assert created.exit_code == 0 and "**Sceau**\u00a0:" in created.stdout
    assert verify(db, 0, "--templates", str(folder)) == "t: 3 events and 1 posts verify.\n"
    assert "1 post written by another gm or other templates" in verify(db, 0)


def test_a_changed_salt_is_found(db: str) -> None:
    seq = seq_of(db, "magot.order-set", 3)
    tamper(db, f"UPDATE events SET salt = '00000000000000000000000000000000' WHERE seq = {seq}")
    assert verify(db, 5).startswith(f"seq {seq}: ")
