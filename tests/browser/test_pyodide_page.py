"""The Python checker page (``gm checker``) in chromium, against ``gm check``.

The page runs the players' checker itself (``gm.check.main(argv, stdin)``)
in Pyodide: on a played game of Le Magot published by gm
(each post with its proof block: ``tests/check/forum.py``), whole,
edited and cut short, it says the same lines with the same exit code as
``gm check -`` (the same function, called here in-process), from
``file://`` (the browser offline) and from ``http://127.0.0.1``: the whole
replay, every post rendered again and compared, runs in the page. The
player's way — paste, « Vérifier », the verdict first, then each line as
printed — is checked too. Every test watches that no request leaves the
page, that its CSP is never violated and that no JavaScript error is raised
(pyodide_support.py); one shows the CSP at work, refusing an image injected
into the page.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from check.forum import Forum
from pyodide_support import Browsing, Built, played_thread

from gm.check import main

pytestmark = pytest.mark.browser

VERDICTS = {0: "OK", 1: "DIFFÉRENT", 2: "ILLISIBLE", 3: "NON VÉRIFIÉ"}


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Forum:
    return played_thread(tmp_path_factory.mktemp("pyodide-game"))


def threads(game: Forum) -> list[str]:
    """The whole thread, one with a name changed, and one without its end."""
    whole = game.thread()
    edited = whole.replace("fab sur marco", "fab sur lulu", 1)
    assert edited != whole
    short = "\n\n".join(p.markdown for p in game.posts if p.kind not in ("final", "disclosure"))
    return [whole, edited, short]


def test_the_page_from_a_file_says_what_gm_check_says(
    from_file: Browsing, played: Forum
) -> None:
    from_file.open()
    for text in threads(played):
        assert from_file.run(["-"], text) == main(["-"], text)


def test_the_page_from_a_static_host_says_what_gm_check_says(
    from_http: Browsing, played: Forum
) -> None:
    from_http.open()
    text = threads(played)[1]
    assert from_http.run(["-"], text) == main(["-"], text)


def test_a_player_pastes_a_thread_and_reads_the_verdict_first(
    from_file: Browsing, played: Forum
) -> None:
    text = threads(played)[1]
    code, out = main(["-"], text)
    from_file.open()
    assert from_file.page.text_content("#status") == "Prêt."
    from_file.check(text)
    word, _help, summary = from_file.verdict()
    assert (word, summary) == (VERDICTS[code], out.splitlines()[-1])
    lines = from_file.lines()
    assert [t for _, t in lines] == out.splitlines()
    assert [t for k, t in lines if k == "bad"] == [
        line for line in out.splitlines() if line.strip().startswith("DIFFÉRENT : ")
    ]
    assert lines[-1][0] == "summary"
    # the verdict comes before the report
    assert from_file.page.evaluate(
        "() => !!(document.getElementById('verdict').compareDocumentPosition("
        "document.getElementById('lines')) & Node.DOCUMENT_POSITION_FOLLOWING)"
    )
    from_file.shot("verdict")


def test_unreadable_text_says_the_command_lines_error(from_file: Browsing) -> None:
    text = "bonjour, ceci n'est pas un message de gm"
    code, out = main(["-"], text)
    assert code == 2 and out.startswith("ERREUR : entrée standard : aucun message de gm")
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
    from_file: Browsing, played: Forum, tmp_path: Path
) -> None:
    text = played.thread()
    path = tmp_path / "fil.md"
    path.write_text(text, encoding="utf-8")
    from_file.open()
    from_file.page.set_input_files("#file", str(path))
    from_file.page.wait_for_selector("#status:text-is('Fichier chargé : fil.md')")
    assert from_file.page.input_value("#thread") == text
    from_file.page.click("#check")
    from_file.page.wait_for_selector("#status:text-is('Vérification terminée.')")
    assert from_file.verdict()[0] == VERDICTS[main(["-"], text)[0]]


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


@pytest.mark.parametrize("game", ["fistful", "colt"])
def test_the_page_says_what_gm_check_says_on_every_example_game(
    from_file: Browsing, tmp_path: Path, game: str
) -> None:
    """One checker, two doors, for each game of the examples (Le Magot's is
    above): the whole thread of ``campaigns/exemple-<game>.toml`` as gm
    published it, with the posts a finished game owes (the disclosure),
    checked in the page and by gm check: exit 0, the same lines."""
    from check.forum import forum

    from gm.service import publishing, scenario
    from gm.service.env import Env

    env = Env(db=str(tmp_path / "gm.db"))
    root = Path(__file__).resolve().parents[2]
    played = scenario.play(env, root / "campaigns" / f"exemple-{game}.toml")
    publishing.publish_owed(env, played.campaign.slug)  # the disclosure, as the chronicle does
    text = forum(env, played.campaign.slug).thread()
    code, out = main(["-"], text)
    assert code == 0, out
    from_file.open()
    assert from_file.run(["-"], text) == (code, out)


def test_the_page_says_what_gm_check_says_on_a_random_rattlesnake_game(
    from_file: Browsing, tmp_path: Path
) -> None:
    """Rattlesnake City has no example campaign yet: a random legal game,
    160 inputs long (its seed still sealed: nothing contradicted, exit 3)."""
    from check.forum import forum
    from check.playing import play

    played = play("rattlesnake", 0, f"sqlite:///{tmp_path / 'gm.db'}", None, 160)
    text = forum(played.env, played.slug).thread()
    code, out = main(["-"], text)
    assert code == 3 and "DIFFÉRENT" not in out, out
    from_file.open()
    assert from_file.run(["-"], text) == (code, out)
