"""The Python checker page (``gm checker --python``) in chromium, against the command line.

The page runs ``tools/gm_check.py`` itself (through the entry point's
``main(argv, stdin)``) in Pyodide: on whole threads of Le Magot, Fistful of
Gold and Colt Express played at random (``play_random``, the threads of the
checker's tests), honest and tampered, it says the same lines with the same
exit code as ``python tools/gm_check.py thread -``, from ``file://`` (the
browser offline) and from ``http://127.0.0.1``. The player's way — paste,
« Vérifier », the verdict first, then each line as printed — is checked
too. Every test watches that no request leaves the page, that its CSP is
never violated and that no JavaScript error is raised (pyodide_support.py);
one shows the CSP at work, refusing an image injected into the page.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from pyodide_support import Browsing, Built, gm_check

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))
from gmcheck_support import Played, play_random

pytestmark = pytest.mark.browser

GAMES = ("magot", "fistful", "colt")
SEAL = re.compile(r"(?<![0-9a-f])([0-9a-f]{32,64})(?![0-9a-f])")


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Played]:
    folder = tmp_path_factory.mktemp("pyodide-games")
    return {g: play_random(g, 1, str(folder / f"{g}.db")) for g in GAMES}


def thread(game: Played) -> str:
    """The whole thread as a player pastes it: every post, one after the other."""
    return "\n\n".join(game.bodies())


def tampered(game: Played) -> str:
    """The thread with one digit of a seal changed: the first seal whose
    change the command line calls a mismatch (a chain head, say, is no seal
    a post can be checked against)."""
    text = thread(game)
    for seal in SEAL.finditer(text):
        digit = "0" if text[seal.start()] != "0" else "1"
        forged = text[: seal.start()] + digit + text[seal.start() + 1 :]
        if gm_check(["thread", "-"], forged)[0] == 1:
            return forged
    raise AssertionError(f"{game.game}: no changed seal is caught")  # pragma: no cover


def test_the_page_from_a_file_says_what_the_command_line_says(
    from_file: Browsing, played: dict[str, Played]
) -> None:
    from_file.open()
    for game in played.values():
        for text, code in ((thread(game), 0), (tampered(game), 1)):
            cli = gm_check(["thread", "-"], text)
            assert cli[0] == code, (game.game, cli)
            assert from_file.run(["thread", "-"], text) == cli, game.game


def test_the_page_from_a_static_host_says_what_the_command_line_says(
    from_http: Browsing, played: dict[str, Played]
) -> None:
    from_http.open()
    for game in played.values():
        text = tampered(game)
        assert from_http.run(["thread", "-"], text) == gm_check(["thread", "-"], text)


def test_a_player_pastes_an_honest_thread_and_reads_ok_first(
    from_file: Browsing, played: dict[str, Played]
) -> None:
    text = thread(played["magot"])
    code, out = gm_check(["thread", "-"], text)
    assert code == 0
    from_file.open()
    assert from_file.page.text_content("#status") == "Prêt."
    from_file.check(text)
    assert from_file.verdict() == (
        "OK",
        "Tout ce qui a été vérifié concorde.",
        out.splitlines()[-1],
    )
    lines = from_file.lines()
    assert [t for _, t in lines] == out.splitlines()
    assert {k for k, _ in lines[:-1]} <= {"ok", "note"}
    assert lines[-1][0] == "summary"
    # the verdict comes before the report
    assert from_file.page.evaluate(
        "() => !!(document.getElementById('verdict').compareDocumentPosition("
        "document.getElementById('lines')) & Node.DOCUMENT_POSITION_FOLLOWING)"
    )
    from_file.shot("ok")


def test_a_player_pastes_a_tampered_thread_and_reads_different(
    from_http: Browsing, played: dict[str, Played]
) -> None:
    text = tampered(played["colt"])
    code, out = gm_check(["thread", "-"], text)
    assert code == 1
    from_http.open()
    from_http.check(text)
    assert from_http.verdict() == (
        "DIFFÉRENT",
        "Au moins une différence : voir les lignes DIFFÉRENT ci-dessous.",
        out.splitlines()[-1],
    )
    lines = from_http.lines()
    assert [t for _, t in lines] == out.splitlines()
    assert [t for k, t in lines if k == "bad"] == [
        line for line in out.splitlines() if line.startswith("DIFFÉRENT : ")
    ]
    from_http.shot("different")


def test_a_thread_without_its_end_is_not_checked_and_says_why(
    from_file: Browsing, played: dict[str, Played]
) -> None:
    game = played["magot"]
    text = "\n\n".join(p.body for p in game.posts if p.kind not in ("final", "disclosure"))
    code, out = gm_check(["thread", "-"], text)
    assert code == 3
    from_file.open()
    from_file.check(text)
    word, help_, _summary = from_file.verdict()
    assert (word, help_) == ("NON VÉRIFIÉ", "Rien de contredit, mais tout n'a pas pu être vérifié.")
    assert [t for k, t in from_file.lines() if k == "missing"] == [
        line for line in out.splitlines() if line.startswith("NON VÉRIFIÉ : ")
    ]
    from_file.shot("not-checked")


def test_unreadable_text_says_the_command_lines_error(from_file: Browsing) -> None:
    text = "bonjour, ceci n'est pas un message de gm"
    code, out = gm_check(["thread", "-"], text)
    assert code == 2 and out.startswith("ERREUR / ERROR: ")
    from_file.open()
    from_file.check(text)
    assert from_file.verdict() == (
        "ILLISIBLE",
        "Le texte collé n'a pas pu être lu, ou il manque quelque chose.",
        out.rstrip("\n"),
    )
    from_file.shot("unreadable")


def test_an_empty_box_is_refused_without_running_the_checker(from_file: Browsing) -> None:
    from_file.open()
    from_file.page.click("#check")
    assert from_file.page.text_content("#status") == "Collez au moins un message."
    assert from_file.page.is_hidden("#result")


def test_a_dropped_file_fills_the_box(
    from_file: Browsing, played: dict[str, Played], tmp_path: Path
) -> None:
    text = thread(played["fistful"])
    path = tmp_path / "fil.md"
    path.write_text(text, encoding="utf-8")
    from_file.open()
    from_file.page.set_input_files("#file", str(path))
    from_file.page.wait_for_selector("#status:text-is('Fichier chargé : fil.md')")
    assert from_file.page.input_value("#thread") == text
    from_file.page.click("#check")
    from_file.page.wait_for_selector("#status:text-is('Vérification terminée.')")
    assert from_file.verdict()[0] == "OK"


def test_the_csp_refuses_what_the_page_did_not_bring(from_file: Browsing) -> None:
    from_file.open()
    # what a hostile post could never do, done from outside: an image, then a script
    from_file.page.evaluate(
        """() => {
            const img = document.createElement("img");
            img.src = "https://example.org/pixel.png";
            document.body.append(img);
            const s = document.createElement("script");
            s.textContent = "window.__ran = true";
            document.body.append(s);
        }"""
    )
    from_file.page.wait_for_timeout(200)
    refused = ["img-src https://example.org/pixel.png", "script-src-elem inline"]
    assert sorted(from_file.violations()) == refused
    assert from_file.page.evaluate("() => window.__ran === undefined")
    from_file.refusals = refused  # wanted here: the fixture's watch must not count them


def test_the_page_is_the_built_file_and_names_its_versions(
    from_file: Browsing, built: Built
) -> None:
    import gm
    from gm.service import browser_check

    from_file.open()
    assert from_file.page.text_content(".meta") == (
        f"gm {gm.__version__} · Python {browser_check.PYODIDE_PYTHON}"
        f" (Pyodide {browser_check.PYODIDE_VERSION})"
    )
    version = from_file.page.evaluate(
        "async () => (await gmPage.ready).runPython('import sys; sys.version.split()[0]')"
    )
    assert version.startswith(browser_check.PYODIDE_PYTHON + ".")
