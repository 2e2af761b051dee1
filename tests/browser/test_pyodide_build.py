"""Building the Python checker page (``gm checker``, ``gm.service.browser_check``).

Without a browser: the zip of the page's Python holds what it needs and
nothing of gm's database or command line, is the same bytes each time, and
runs alone in a CPython that sees nothing else (``python -I -S``, the zip
unpacked on its path: no site-packages, the pure-Python MarkupSafe), where
the entry point (``gm.check.main``) says what ``gm check`` says, a whole
check of a played thread gives the same report, and the renderer gives the
archived posts again. Pyodide is refused when it is not the pinned
tarball, offline gm says the remedy, and neither writes a page. Marked
``browser`` (they need Pyodide's tarball, from gm's cache or the npm
registry): the page is the same bytes from the builder and the command,
carries the tarball byte for byte, and its CSP is exactly its scripts'
hashes, ``'wasm-unsafe-eval'`` and its style's hash — without
``'wasm-unsafe-eval'`` Python cannot start, which the player is told.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import re
import subprocess
import sys
import time
import zipfile
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from game_dists import installed
from pyodide_support import RENDER, Built, archived_posts, browse, expected_posts, played_thread

import gm
from gm import games
from gm.check import main as check_main
from gm.check.checker import check_thread
from gm.cli import cli
from gm.render import budget
from gm.service import browser_check
from gm.service.posts import tidy


def invoke(*args: str, code: int = 0) -> str:
    result = CliRunner().invoke(cli, list(args))
    assert result.exit_code == code, (result.output, result.exception)
    return result.output


@pytest.fixture
def no_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty user cache folder, and a registry that cannot be reached."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(browser_check, "REGISTRY_URL", "http://127.0.0.1:9/pyodide.tgz")
    return tmp_path / "cache" / "gm" / f"pyodide-{browser_check.PYODIDE_VERSION}.tgz"


def test_offline_gm_says_where_pyodide_comes_from_and_writes_nothing(
    no_cache: Path, tmp_path: Path
) -> None:
    assert browser_check.cache_path() == no_cache
    out = invoke("checker", "-o", str(tmp_path / "page.html"), code=2)
    version = browser_check.PYODIDE_VERSION
    assert re.fullmatch(
        rf"Error: cannot download pyodide {re.escape(version)} from"
        r" http://127\.0\.0\.1:9/pyodide\.tgz \(.+\): connect to the network once"
        rf" \(gm keeps the file in {re.escape(str(no_cache))}\), or run `npm pack"
        rf" pyodide@{re.escape(version)}` where there is a network and give its file:"
        rf" gm checker --pyodide pyodide-{re.escape(version)}\.tgz \[checker/pyodide\]\n",
        out,
    ), out
    assert not (tmp_path / "page.html").exists()
    assert not no_cache.exists()


def test_a_cached_file_that_is_not_pyodide_is_not_used(no_cache: Path) -> None:
    no_cache.parent.mkdir(parents=True)
    no_cache.write_bytes(b"not pyodide")
    with pytest.raises(browser_check.BrowserCheckError) as caught:
        browser_check.pyodide_tarball()
    assert caught.value.code == "checker/pyodide"  # downloaded again (and offline here)
    assert no_cache.read_bytes() == b"not pyodide"


def test_a_given_file_that_is_not_the_pinned_pyodide_is_refused(tmp_path: Path) -> None:
    fake = tmp_path / f"pyodide-{browser_check.PYODIDE_VERSION}.tgz"
    fake.write_bytes(b"\x1f\x8b not the registry's file")
    wrong = "sha512-" + base64.b64encode(hashlib.sha512(fake.read_bytes()).digest()).decode()
    out = invoke(
        "checker", "--pyodide", str(fake), "-o", str(tmp_path / "p.html"), code=2
    )
    assert out == (
        f"Error: {fake} is not pyodide {browser_check.PYODIDE_VERSION} as the npm registry"
        f" publishes it: its integrity is {wrong}, not {browser_check.PYODIDE_INTEGRITY}"
        " [checker/pyodide-integrity]\n"
    )
    out = invoke("checker", "--pyodide", str(tmp_path / "none.tgz"), code=2)
    assert (
        out
        == f"Error: cannot read '{tmp_path / 'none.tgz'}': No such file or directory [checker/pyodide]\n"
    )
    assert not (tmp_path / "p.html").exists()


def test_the_python_zip_holds_what_the_page_runs_and_no_more() -> None:
    first = browser_check.python_zip()
    assert browser_check.python_zip() == first
    names = zipfile.ZipFile(io.BytesIO(first)).namelist()
    assert names == sorted(names)
    for name in (
        "gm/__init__.py",
        "gm/errors.py",
        "gm/paths.py",
        "gm/core/protocol.py",
        "gm/games/rattlesnake/board.toml",
        "gm/render/engine.py",
        "gm/games/magot/templates/fr/opening.md.j2",
        "gm/render/templates/fr/_macros.md.j2",
        "jinja2/sandbox.py",
        "markupsafe/_native.py",
        "markdown/extensions/tables.py",
        "gm/check/entry.py",
        "gm/service/replaying.py",
        "gm/store/records.py",
    ):
        assert name in names, name
    metadata = {n.split("/", 1)[1] for n in names if ".dist-info/" in n}
    assert "entry_points.txt" in metadata  # Markdown finds « tables » by its entry point
    assert any(n.endswith("-info/licenses/LICENSE.txt") for n in names if n.startswith("jinja2"))
    tops = {n.split("/")[0] for n in names if "/" in n}
    assert {t for t in tops if not t.endswith(".dist-info")} == {
        "gm",
        "jinja2",
        "markupsafe",
        "markdown",
    }
    assert {n.split("/")[1] for n in names if n.startswith("gm/") and n.count("/") > 1} == {
        "check",
        "core",
        "games",
        "render",
        "service",
        "store",
    }
    # every game's templates, none of the rules pages (a check never prints them)
    for game_id in games.ids():
        assert f"gm/games/{game_id}/templates/fr/opening.md.j2" in names, game_id
        assert f"gm/games/{game_id}/rules.md" not in names, game_id
    # of the service and the store, only what a check runs: no database, no command line
    assert {n for n in names if n.startswith(("gm/service/", "gm/store/"))} == {
        f"gm/{f}" for f in browser_check.GM_FILES if "/" in f
    }
    assert not [n for n in names if re.search(r"\.(so|pyd|c|pyc)$|__pycache__", n)]


def test_the_python_zip_registers_every_game_and_packs_those_of_other_distributions() -> None:
    """The page finds the games as the command line does: by their entry
    points, one metadata folder per distribution that registers some."""
    with installed("toss"):
        archive = zipfile.ZipFile(io.BytesIO(browser_check.python_zip()))
    names = archive.namelist()
    assert {"gm_toss/__init__.py", "gm_toss/templates/fr/opening.md.j2"} <= set(names)
    registered = {
        n: archive.read(n).decode() for n in names if n.endswith(".dist-info/entry_points.txt")
    }
    assert registered["gm_toss.dist-info/entry_points.txt"] == "[gm.games]\ntoss = gm_toss\n"
    ours = registered["gm_forum.dist-info/entry_points.txt"]
    assert ours == "[gm.games]\n" + "".join(f"{g} = gm.games.{g}\n" for g in games.ids())


def test_the_python_zip_runs_alone_and_says_what_the_command_line_says(tmp_path: Path) -> None:
    """The page's Python, alone: ``gm.check.main`` answers as ``gm check`` does,
    a whole check of a played thread gives the same report, and the renderer
    gives the archived posts again (as gm renders them today: ``expected_posts``)."""
    zipfile.ZipFile(io.BytesIO(browser_check.python_zip())).extractall(tmp_path / "py")
    posts = archived_posts()
    on_forum = played_thread(tmp_path)
    program = (
        "import json, sys\n"
        f"sys.path.insert(0, {str(tmp_path / 'py')!r})\n"
        f"{RENDER}\n"
        f"from {browser_check.ENTRY_MODULE} import main\n"
        "from gm.check.checker import check_thread\n"
        "import markupsafe\n"
        "task = json.load(sys.stdin)\n"
        "report = check_thread([('fil.md', task['thread'])]).report\n"
        "print(json.dumps([[main(*c) for c in task['calls']], [report.code, report.text()],"
        " json.loads(render_all(task['cases'])),"
        " markupsafe.Markup.__module__, sorted({m.split('.')[0] for m in sys.modules})]))\n"
    )
    calls = [["-"], "pas un message de gm\n"], [["--help"], ""], [["--format", "xml", "-"], ""]
    task = {
        "calls": calls,
        "thread": on_forum.thread(),
        "cases": json.dumps([[p["kind"], c] for p, c in posts]),
    }
    done = subprocess.run(
        [sys.executable, "-I", "-S", "-c", program],
        input=json.dumps(task),
        capture_output=True,
        text=True,
        encoding="utf-8",
        cwd=tmp_path,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    answers, report, rendered, markup, modules = json.loads(done.stdout)
    assert [tuple(a) for a in answers] == [check_main(*c) for c in calls]
    here = check_thread([("fil.md", on_forum.thread())]).report
    assert report == [here.code, here.text()] and here.code == 0, report[1]
    assert [tidy(text) for text, _ in rendered] == expected_posts(posts)
    assert markup == "markupsafe"  # its C speedups are not there: the pure-Python Markup
    assert not {"sqlalchemy", "sqlmodel", "click", "platformdirs"} & set(modules)




def test_the_render_budget_reads_the_process_clock_where_threads_have_none(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Pyodide has no thread clock: a render is then bounded by the process's
    # processor time, never left without a limit, never a crash.
    def missing() -> float:
        raise OSError("thread_time is not supported here")

    monkeypatch.setattr(time, "thread_time", missing)
    assert budget._cpu_clock() is time.process_time


@pytest.mark.browser
def test_the_page_is_the_same_bytes_from_the_builder_and_the_command(
    tarball: bytes, built: Built, tmp_path: Path
) -> None:
    assert browser_check.page(tarball).body == built.page.body
    given = tmp_path / f"pyodide-{browser_check.PYODIDE_VERSION}.tgz"  # what `npm pack` writes
    given.write_bytes(tarball)
    out = invoke(
        "checker",
        "--pyodide",
        str(given),
        "-o",
        str(tmp_path / "page.html"),
    )
    body = (tmp_path / "page.html").read_bytes()
    assert body == built.page.body
    assert out == (
        f"Wrote {tmp_path / 'page.html'} ({len(body):,} bytes).\n"
        f"file SHA-256:   {hashlib.sha256(body).hexdigest()}  {tmp_path / 'page.html'}\n"
    )
    assert b"\r" not in body
    assert f'<meta name="generator" content="gm {gm.__version__}">'.encode() in body


def _block(body: str, name: str) -> str:
    found = re.search(rf'<script type="[^"]+" id="{name}">([^<]*)</script>', body)
    assert found is not None, name
    return found[1]


@pytest.mark.browser
def test_the_page_carries_the_registrys_tarball_and_allows_only_its_own_scripts(
    tarball: bytes, built: Built
) -> None:
    body = built.page.body.decode("utf-8")
    assert base64.b64decode(_block(body, "pyodide")) == tarball
    config = json.loads(_block(body, "config"))
    assert config["entry"] == browser_check.ENTRY_MODULE
    import tarfile

    with tarfile.open(fileobj=io.BytesIO(tarball)) as tar:
        scripts = [
            tar.extractfile(f"package/{n}").read()  # type: ignore[union-attr]
            for n in config["pyodide"]["scripts"]
        ]
    inline = re.findall(r"<script>(.*?)</script>", body, re.S)
    assert len(inline) == 1  # the page's own; Pyodide's two are added from the tarball
    style = re.findall(r"<style>(.*?)</style>", body, re.S)
    assert len(style) == 1

    def sha(data: bytes) -> str:
        return "'sha256-" + base64.b64encode(hashlib.sha256(data).digest()).decode() + "'"

    csp = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', body)
    assert csp is not None
    assert csp[1] == (
        f"default-src 'none'; script-src {' '.join(sha(s) for s in [*scripts, inline[0].encode()])}"
        f" 'wasm-unsafe-eval'; style-src {sha(style[0].encode())}; base-uri 'none'; form-action 'none'"
    )
    # nothing in the page names a place to load from
    assert not re.search(r"""(src|href)=["'](?!#)""", body)


@pytest.mark.browser
def test_without_wasm_unsafe_eval_python_cannot_start_and_the_player_is_told(
    browser: Any, built: Built, tmp_path: Path
) -> None:
    strict = tmp_path / "strict.html"
    strict.write_bytes(built.page.body.replace(b" 'wasm-unsafe-eval'", b"", 1))
    for watched in browse(browser, strict.resolve().as_uri(), offline=True):
        watched.page.goto(watched.url)
        watched.page.wait_for_selector(
            "#status:text-matches('^Python n.a pas pu démarrer dans ce navigateur : ')",
            timeout=60_000,
        )
        assert watched.page.is_disabled("#check")
        refused = sorted(set(watched.violations()))
        assert refused == ["script-src wasm-eval"] or refused == ["script-src-elem wasm-eval"], (
            refused
        )
        watched.refusals = refused
        watched.errors.clear()  # Pyodide says on the console that it could not start
        watched.shot("no-wasm")


def test_the_checker_the_tests_compare_with_is_the_one_in_the_zip() -> None:
    names = zipfile.ZipFile(io.BytesIO(browser_check.python_zip()))
    package = Path(gm.__file__).parent / "check"
    for path in sorted(package.glob("*.py")):
        assert names.read(f"gm/check/{path.name}") == path.read_bytes()
