"""``gm checker``: the players' checker as one web page, and its two digests.

The page is written whole (default ``gm-verif-<version>.html``, ``-o -`` for
stdout), the same gm always writes the same bytes, and the command prints the
file's SHA-256 (what players compare with ``sha256sum``) and the script's
(what the page shows in its header, and what its CSP allows). The page loads
nothing: its CSP is ``default-src 'none'`` with the script and the style
allowed by their hash only, and nothing in it points outside. It stays small:
a player must be able to read it. ``gm chronicle --checker-link URL`` adds
where to get it, with its SHA-256, to the verification, and only then.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

import gm
from gm.cli import cli
from gm.service import checker_page
from gm.service.check import run as check_post

RAW_BUDGET = 350_000
GZIP_BUDGET = 90_000


def invoke(*args: str, code: int = 0) -> tuple[bytes, str]:
    runner = CliRunner()
    result = runner.invoke(cli, list(args))
    assert result.exit_code == code, (result.output, result.exception)
    return result.stdout_bytes, result.stderr


def digests(body: bytes) -> tuple[str, str]:
    script = re.search(rb"<script>(.*)</script>", body, re.S)
    assert script is not None
    return hashlib.sha256(body).hexdigest(), hashlib.sha256(script[1]).hexdigest()


def test_gm_checker_writes_the_page_and_prints_both_digests(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    out, _ = invoke("checker")
    name = f"gm-verif-{gm.__version__}.html"
    body = (tmp_path / name).read_bytes()
    file_sha, script_sha = digests(body)
    assert out.decode() == (
        f"Wrote {name} ({len(body):,} bytes).\n"
        f"file SHA-256:   {file_sha}  {name}\n"
        f"script SHA-256: {script_sha}  (the page shows it in its header)\n"
    )
    # an existing page is kept unless --force
    _, err = invoke("checker", code=2)
    assert f"'{name}' exists; give --force to replace it" in err
    invoke("checker", "-o", "autre.html")
    assert (tmp_path / "autre.html").read_bytes() == body
    invoke("checker", "-o", "autre.html", "--force")


def test_the_same_gm_builds_the_same_bytes(tmp_path: Path) -> None:
    first = checker_page.build()
    assert checker_page.build() == first
    out, err = invoke("checker", "-o", "-")
    assert out == first
    file_sha, script_sha = digests(first)
    assert err == (
        f"file SHA-256:   {file_sha}  (stdout)\n"
        f"script SHA-256: {script_sha}  (the page shows it in its header)\n"
    )
    assert b"\r" not in first


def test_the_page_allows_its_own_script_and_style_only_and_points_nowhere() -> None:
    page = checker_page.page()
    text = page.body.decode("utf-8")
    csp = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]+)">', text)
    assert csp is not None
    style = re.search(r"<style>(.*)</style>", text, re.S)
    assert style is not None

    def b64(s: str) -> str:
        return base64.b64encode(hashlib.sha256(s.encode()).digest()).decode()

    assert csp[1] == (
        f"default-src 'none'; script-src 'sha256-{b64(page.script)}';"
        f" style-src 'sha256-{b64(style[1])}'; base-uri 'none'; form-action 'none'"
    )
    assert text.index("Content-Security-Policy") < text.index("<style>") < text.index("<script>")
    assert text.count("<script") == 1 and text[: text.index("<script>")].count("<style") == 1
    assert hashlib.sha256(page.script.encode()).hexdigest() == page.script_sha256
    # nothing that could load: no URL, no src or href but the in-page language toggle
    assert not re.search(r"https?://|//[a-z0-9.-]+\.[a-z]{2,}/", text, re.I)
    assert re.findall(r"\b(?:src|href)=\"([^\"]*)\"", text) == ["#en"]
    assert not re.search(r"\bstyle=\"", text)  # the CSP would refuse an inline style
    assert f'gm <span id="version">{gm.__version__}</span>' in text
    assert '<html lang="fr">' in text and "<title>gm — vérifier le MJ</title>" in text


def test_the_page_stays_small_enough_to_read() -> None:
    body = checker_page.build()
    packed = len(gzip.compress(body, mtime=0))
    print(f"\nchecker page: {len(body):,} bytes raw, {packed:,} bytes gzip")
    assert len(body) <= RAW_BUDGET, f"{len(body):,} bytes > {RAW_BUDGET:,}"
    assert packed <= GZIP_BUDGET, f"{packed:,} gzip bytes > {GZIP_BUDGET:,}"


def copy_sources(to: Path, extra_ui: str) -> None:
    for item in checker_page.folder().iterdir():
        if item.is_file():
            (to / item.name).write_bytes(item.read_bytes())
    ui = to / "ui.js"
    ui.write_text(ui.read_text(encoding="utf-8") + extra_ui, encoding="utf-8")


def test_what_would_end_the_script_early_is_written_as_an_escape(tmp_path: Path) -> None:
    """« </script » ends a script, « <!-- » then « <script » keeps it open
    past its end: their « < » is written \\u003c, the same character to
    JavaScript, so the page holds one whole script however the port is written."""
    copy_sources(tmp_path, '\nconst x = ["</script><p>", "<!--", "<SCRIPT>", /<!--/u];\n')
    page = checker_page.page(tmp_path)
    assert (
        'const x = ["\\u003c/script><p>", "\\u003c!--", "\\u003cSCRIPT>", /\\u003c!--/u];'
        in page.script
    )
    text = page.body.decode().lower()
    assert text.count("<script") == 1 and text.count("</script") == 1 and "<!--" not in text
    node = shutil.which("node")
    if node:  # the same values for JavaScript
        (line,) = [li for li in page.script.splitlines() if li.startswith("const x = ")]
        show = "console.log(JSON.stringify([...x.slice(0, 3), x[3].source]));"
        done = subprocess.run([node, "-e", line + show], capture_output=True, text=True, check=True)
        assert json.loads(done.stdout) == ["</script><p>", "<!--", "<SCRIPT>", "\\u003c!--"]


def run(db: str, *args: str, code: int = 0) -> str:
    result = CliRunner().invoke(cli, ["--db", db, *args])
    assert result.exit_code == code, (result.output, result.exception)
    return result.output


def test_the_chronicle_links_the_page_only_when_asked(db: str, tmp_path: Path) -> None:
    run(db, "new", "magot", "--title", "Le casse", "--players", "fab,marco,lulu", "--seed", "s-1")
    run(db, "draw", "--bills", "20000,10000,5000,5000,5000")
    plain = run(db, "chronicle")
    assert "Vérifier sans Python" not in plain
    url = "https://example.org/jeux/gm-verif-0.2.1.html"
    linked = run(db, "chronicle", "--checker-link", url)
    sha = checker_page.page().sha256
    line = f"- Vérifier sans Python : {url} (SHA-256 du fichier : `{sha}`)"
    assert line in linked.splitlines()
    assert linked.replace(line + "\n", "") == plain
    # the players' checker reads the chronicle with the link as before
    for name, text in (("sans.md", plain), ("avec.md", linked)):
        (tmp_path / name).write_text(text, encoding="utf-8")
    assert check_post(["thread", str(tmp_path / "avec.md")]) == check_post(
        ["thread", str(tmp_path / "sans.md")]
    )
    out = run(db, "chronicle", "--checker-link", "javascript:alert(1)", code=2)
    assert "--checker-link 'javascript:alert(1)' is not a web address" in out
