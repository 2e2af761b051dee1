"""A cheating MJ who rewrites the archive and recomputes every hash is still
caught (issue « Proofs that hold against a cheating MJ », items 3, 4 and 6):
``gm verify`` and ``gm import`` check the seed against its commitment, fold
every event, decide every recorded command again with the fortune, and hold
each post to the text the log committed when it was made. A doctored file
is refused with a clear error naming the event, never a traceback, and
nothing is written."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from support import Raw, rechain

from gm.cli import cli
from gm.core.canonical import canonical_json
from gm.core.fortune import commitment
from gm.errors import EXIT_INTEGRITY

ROOT = Path(__file__).resolve().parents[2]
SLUG = "le-casse-du-siecle"


def gm(db: Path | str, *args: str, code: int = 0) -> Result:
    result = CliRunner().invoke(cli, ["--db", str(db), *args])
    assert result.exit_code == code, (result.output, result.exception)
    assert "Traceback" not in result.output
    return result


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    folder = tmp_path_factory.mktemp("played")
    db = folder / "a.db"
    gm(db, "play", str(ROOT / "campaigns" / "exemple-magot.toml"), "--keep")
    gm(db, "post", "disclosure")
    gm(db, "export", SLUG, "-o", str(folder / "x.json"))
    document: dict[str, Any] = json.loads((folder / "x.json").read_text(encoding="utf-8"))
    return document


def edited(exported: dict[str, Any], change: Callable[[dict[str, Any]], None]) -> str:
    document = json.loads(json.dumps(exported))
    change(document)
    return json.dumps(rechain(document), ensure_ascii=False)


def refused(db: str, text: str, tmp_path: Path) -> str:
    path = tmp_path / "doctored.json"
    path.write_text(text, encoding="utf-8")
    result = gm(db, "import", str(path), code=EXIT_INTEGRITY)
    assert "nothing was imported [import/integrity]" in result.stderr
    assert gm(db, "list").stdout == ""  # nothing written
    return result.stderr


def payload(event: dict[str, Any]) -> dict[str, Any]:
    value: dict[str, Any] = json.loads(event["payload"])
    return value


def set_payload(event: dict[str, Any], value: Any) -> None:
    event["payload"] = canonical_json(value)


def first(document: dict[str, Any], kind: str) -> dict[str, Any]:
    return next(e for e in document["events"] if e["kind"] == kind)


def test_the_untouched_export_imports(db: str, exported: dict[str, Any], tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    path.write_text(edited(exported, lambda d: None), encoding="utf-8")
    gm(db, "import", str(path))
    assert gm(db, "verify").stdout.endswith("verify.\n")


def test_other_bills_with_every_hash_recomputed_are_found(
    db: str, exported: dict[str, Any], tmp_path: Path
) -> None:
    def richer(document: dict[str, Any]) -> None:
        drawn = first(document, "magot.loot-drawn")
        set_payload(drawn, {**payload(drawn), "bills": [20000] * 5})

    error = refused(db, edited(exported, richer), tmp_path)
    assert "the log holds magot.loot-drawn" in error
    assert "deciding the command of seq" in error


def test_another_seed_is_found_against_the_commitment(
    db: str, exported: dict[str, Any], tmp_path: Path
) -> None:
    def reseeded(document: dict[str, Any]) -> None:
        set_payload(first(document, "gm.fortune-sealed"), {"seed": "une-autre-graine"})

    error = refused(db, edited(exported, reseeded), tmp_path)
    assert "the seed's SHA-256 is not the commitment of seq 1" in error


def test_another_seed_and_its_commitment_are_found_in_the_committed_posts(
    db: str, exported: dict[str, Any], tmp_path: Path
) -> None:
    def reseeded(document: dict[str, Any]) -> None:
        set_payload(first(document, "gm.fortune-sealed"), {"seed": "une-autre-graine"})
        created = first(document, "gm.campaign-created")
        set_payload(created, {**payload(created), "commitment": commitment("une-autre-graine")})

    error = refused(db, edited(exported, reseeded), tmp_path)
    # The draws no longer come out the same, and the opening post no longer renders as published.
    assert "deciding the command of seq" in error or "post 1 (opening)" in error


def test_an_edited_post_with_its_digest_rewritten_is_found(
    db: str, exported: dict[str, Any], tmp_path: Path
) -> None:
    def lie(document: dict[str, Any]) -> None:
        post = document["posts"][-1]  # the disclosure: no later post's footer depends on it
        post["body"] = post["body"].replace("BANG", "CLIC", 1)
        committed = [e for e in document["events"] if e["kind"] == "gm.post-published"][-1]
        digest = "sha256:" + __import__("hashlib").sha256(post["body"].encode()).hexdigest()
        set_payload(committed, {**payload(committed), "digest": digest})

    error = refused(db, edited(exported, lie), tmp_path)
    assert "post 27 (disclosure): differs from a fresh render of the log" in error


def test_a_game_event_no_command_decided_is_found(
    db: str, exported: dict[str, Any], tmp_path: Path
) -> None:
    def inserted(document: dict[str, Any]) -> None:
        events = document["events"]
        at = events.index(first(document, "magot.loot-drawn"))
        extra = dict(events[at + 1])  # the chance drawn record, as a template
        extra.update(kind="magot.folded", audience="fab")
        set_payload(extra, {"player": "fab", "round": 1})
        events.insert(at + 2, extra)
        for post in document["posts"]:
            post["at_seq"] += 1 if post["at_seq"] >= at + 2 else 0

    error = refused(db, edited(exported, inserted), tmp_path)
    assert "(magot.folded): no recorded command decided this event" in error


def test_commands_stripped_from_the_log_are_found(
    db: str, exported: dict[str, Any], tmp_path: Path
) -> None:
    def stripped(document: dict[str, Any]) -> None:
        document["events"] = [e for e in document["events"] if e["kind"] != "gm.command-decided"]

    error = refused(db, edited(exported, stripped), tmp_path)
    assert "no recorded command decided this event" in error or "post" in error


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (lambda d: d["events"][0].update(payload="[]"), "payload"),
        (lambda d: d["events"][1].update(payload='{"seed": 12}'), "seq 2"),
        (
            lambda d: d["events"].append({**d["events"][-1], "kind": "magot.weather-changed"}),
            "magot.weather-changed",
        ),
        (
            lambda d: d["events"].append(
                {
                    **d["events"][-1],
                    "kind": "gm.events-voided",
                    "payload": '{"first_seq":3,"last_seq":99999999999,"reason":""}',
                }
            ),
            "voids events 3 to 99999999999",
        ),
        (
            lambda d: d["posts"][0].update(address="1.x"),
            "not a post address",
        ),
    ],
    ids=[
        "a list for a payload",
        "a seed of the wrong type",
        "an unknown kind",
        "a huge undo",
        "a bad address",
    ],
)
def test_a_doctored_file_is_refused_clearly_and_writes_nothing(
    db: str,
    exported: dict[str, Any],
    tmp_path: Path,
    change: Callable[[dict[str, Any]], None],
    said: str,
) -> None:
    path = tmp_path / "doctored.json"
    path.write_text(edited(exported, change), encoding="utf-8")
    result = CliRunner().invoke(cli, ["--db", db, "import", str(path)])
    assert result.exit_code in (2, EXIT_INTEGRITY), result.output
    assert said in result.stderr and result.stderr.startswith("Error: ")
    assert ("Traceback" not in result.output and result.exception is None) or isinstance(
        result.exception, SystemExit
    )
    assert gm(db, "list").stdout == ""


def test_a_database_doctored_in_place_gives_clear_errors(db: str, tmp_path: Path) -> None:
    gm(db, "play", str(ROOT / "campaigns" / "exemple-magot.toml"), "--keep")
    last = Raw(db).execute("SELECT max(seq) FROM events")[0][0]
    Raw(db).tamper(
        "INSERT INTO events (campaign_id, seq, kind, actor, audience, payload, salt, source,"
        " recorded_at, prev_hash, hash) SELECT campaign_id, seq + 1, 'gm.events-voided', actor,"
        ' audience, \'{"first_seq":3,"last_seq":99999999999,"reason":""}\', salt, source,'
        f" recorded_at, hash, hash FROM events WHERE seq = {last}"
    )
    for command in (["status"], ["post"], ["verify"], ["order", "fab", "x"]):
        result = CliRunner().invoke(cli, ["--db", db, *command])
        assert result.exit_code in (3, 4, EXIT_INTEGRITY), (command, result.output)
        assert "Traceback" not in result.output
        assert result.exception is None or isinstance(result.exception, SystemExit)
        assert "Error:" in result.output
