"""``gm chronicle``: every public post in order, in French, in the forum's format,
cut into parts that each fit in one forum post; nothing private."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from gm.check import main as check
from gm.cli import cli
from gm.store import Store

ROOT = Path(__file__).resolve().parents[2]
PLAYERS = "fab,marco,lulu,tom"
SECRET = "clic clic clic, sur marco, motdepasse-secret"


def run(db: str, *args: str, code: int = 0) -> str:
    result = CliRunner().invoke(cli, ["--db", db, *args])
    assert result.exit_code == code, (result.stdout, result.stderr, result.exception)
    return result.stdout


def test_chronicle_has_every_post_in_order_and_the_verification_data(
    db: str, tmp_path: Path
) -> None:
    run(db, "new", "magot", "--title", "Le casse", "--players", PLAYERS, "--seed", "xyzzy-seed")
    run(db, "draw", "--bills", "20000,10000,5000,5000,5000")
    run(db, "order", "fab", SECRET)
    run(db, "order", "tom", "n'importe quoi du tout", code=1)
    run(db, "reveal", "--force")
    out = tmp_path / "chronique.md"
    run(db, "chronicle", "-o", str(out))
    text = out.read_text(encoding="utf-8")
    with Store(str(db)) as store:
        posts = store.posts("le-casse")
        head = store.head("le-casse")
    assert len(posts) == 3
    positions = [text.index(post.body.rstrip("\n")) for post in posts]
    assert positions == sorted(positions)
    assert [line for line in text.splitlines() if line.startswith("## Message")] == [
        "## Message 1 — ouverture",
        "## Message 2 — mise · tour 1",
        "## Message 3 — révélation · tour 1",
    ]
    assert all(post.hash in text for post in posts)
    assert "\n## Vérification\n" in text and str(head) in text
    assert "- Graine : gardée secrète jusqu'à la fin de la partie." in text
    assert "xyzzy-seed" not in text
    assert "motdepasse-secret" not in text and "n'importe quoi" not in text
    assert not re.search(r"\b(Post|Verification|Seed|after event)\b", text)
    html = run(db, "chronicle", "--format", "html")
    assert "<h2>Message 1 — ouverture</h2>" in html and "<h2>Vérification</h2>" in html
    bbcode = run(db, "chronicle", "--format", "bbcode")
    assert "[size=120][b]Message 2 — mise · tour 1[/b][/size]" in bbcode
    assert "[size=120][b]Vérification[/b][/size]" in bbcode
    # the archive written last time is kept unless the MJ says otherwise
    run(db, "chronicle", "-o", str(out), code=2)
    assert out.read_text(encoding="utf-8") == text
    run(db, "chronicle", "-o", str(out), "--force", "--format", "html")
    assert "<h2>" in out.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("fmt", "suffix"), [("markdown", "md"), ("bbcode", "txt"), ("html", "html")]
)
def test_a_long_chronicle_is_cut_into_posts_under_the_limit(
    db: str, tmp_path: Path, fmt: str, suffix: str
) -> None:
    run(db, "play", str(ROOT / "campaigns" / "exemple-magot.toml"), "--keep")
    run(db, "post", "disclosure")
    whole = run(db, "chronicle", "--format", fmt, "--limit", "0")
    limit = 8_000
    assert len(whole) > 3 * limit
    out = tmp_path / f"casse.{suffix}"
    result = CliRunner().invoke(
        cli, ["--db", db, "chronicle", "--format", fmt, "--limit", str(limit), "-o", str(out)]
    )
    assert result.exit_code == 0, result.stderr
    paths = sorted(tmp_path.glob(f"casse-*.{suffix}"), key=lambda p: int(p.stem.split("-")[1]))
    total = len(paths)
    assert total >= 4 and not out.exists()
    assert result.stderr.startswith(f"Wrote {total} parts, one post each: ")
    parts = [p.read_text(encoding="utf-8") for p in paths]
    for n, part in enumerate(parts, start=1):
        assert len(part) <= limit
        assert f"Archive de « Le casse du siècle » — partie {n} sur {total}" in part
        if fmt == "bbcode":  # every tag a part opens, it closes
            for tag in ("b", "code", "list", "table", "quote", "size"):
                opened = len(re.findall(rf"\[{tag}(?:=[^\]]*)?\]", part))
                assert opened == part.count(f"[/{tag}]"), (n, tag)
        if fmt == "html":
            for tag in ("table", "ul", "pre", "p", "h2"):
                assert part.count(f"<{tag}>") == part.count(f"</{tag}>"), (n, tag)
    # cut between posts or between a post's blocks: nothing lost, nothing repeated
    with Store(str(db)) as store:
        posts = store.posts("le-casse-du-siecle")
    joined = "\n".join(parts)
    for post in posts:
        assert joined.count(post.hash) == 1
    # parts cut between posts (the disclosure alone is more than 8,000
    # characters): the players' checker reads them back as one thread, in any order
    for path in paths:
        path.unlink()
    run(db, "chronicle", "--format", fmt, "--limit", "60000", "-o", str(out))
    paths = sorted(tmp_path.glob(f"casse-*.{suffix}"))
    assert len(paths) >= 2
    code, report = check([*map(str, reversed(paths))], "")
    assert code == 0, report


def test_a_limit_too_small_is_refused(db: str) -> None:
    run(db, "new", "magot", "--title", "Le casse", "--players", PLAYERS, "--seed", "x")
    result = CliRunner().invoke(cli, ["--db", db, "chronicle", "--limit", "500"])
    assert result.exit_code == 2
    assert result.stderr == (
        "Error: a post limit of 500 characters is too small (at least 1,000; phpBB's default"
        " is 60,000) [chronicle/limit]\n"
    )


def test_a_finished_game_s_chronicle_holds_its_disclosure_and_checks_whole(
    tmp_path: Path,
) -> None:
    """Le Magot's disclosure is asked for (gm post disclosure); a chronicle of
    the finished game without it could not be checked to the end (exit 3):
    gm chronicle publishes it, says so, and the whole archive checks (exit 0).
    A chronicle refused for its file publishes nothing."""
    db = str(tmp_path / "gm.db")
    runner = CliRunner()
    played = runner.invoke(cli, ["--db", db, "play", str(ROOT / "campaigns" / "exemple-magot.toml"), "--keep"])
    assert played.exit_code == 0, played.stderr
    (tmp_path / "pris.md").write_text("à garder", encoding="utf-8")
    refused = runner.invoke(
        cli, ["--db", db, "chronicle", "-o", str(tmp_path / "pris.md"), "--limit", "0"]
    )
    assert refused.exit_code == 2 and "[chronicle/exists]" in refused.stderr
    with Store(db) as store:
        assert "disclosure" not in {p.kind for p in store.posts("le-casse-du-siecle")}
    done = runner.invoke(
        cli, ["--db", db, "chronicle", "-o", str(tmp_path / "fil.md"), "--limit", "0"]
    )
    assert done.exit_code == 0, done.stderr
    assert done.stderr.startswith(
        "[le-casse-du-siecle] Published post 27, disclosure, that the finished game owes its"
        " players: it is in the chronicle; paste it in the thread too (gm post disclosure).\n"
    )
    text = (tmp_path / "fil.md").read_text(encoding="utf-8")
    assert "## Message 27 — dévoilement" in text
    code, report = check([str(tmp_path / "fil.md")], "")
    assert code == 0, report
    again = runner.invoke(cli, ["--db", db, "chronicle", "-o", str(tmp_path / "fil2.md")])
    assert "Published" not in again.stderr  # owed once: now it is stored
