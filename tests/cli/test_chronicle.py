"""``gm chronicle``: every public post in order, the verification data, nothing private."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from gm.cli import cli
from gm.store import Store

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
    assert len(posts) >= 3
    positions = [text.index(post.body.rstrip("\n")) for post in posts]
    assert positions == sorted(positions)
    for post in posts:
        assert f"## Post {post.number} — {post.kind}" in text and post.hash in text
    assert "## Verification" in text and str(head) in text
    assert "Seed: kept secret" in text and "xyzzy-seed" not in text
    assert "motdepasse-secret" not in text and "n'importe quoi" not in text
    html = run(db, "chronicle", "--format", "html")
    assert "<h2>" in html and "Verification" in html
    # the archive written last time is kept unless the MJ says otherwise
    run(db, "chronicle", "-o", str(out), code=2)
    assert out.read_text(encoding="utf-8") == text
    run(db, "chronicle", "-o", str(out), "--force", "--format", "html")
    assert "<h2>" in out.read_text(encoding="utf-8")
