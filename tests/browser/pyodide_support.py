"""The Python checker page (``gm checker``) in a real browser: Playwright driving Debian's chromium.

The page is built once per session from the pinned Pyodide tarball
(``browser_check.pyodide_tarball()``: gm's cache, or downloaded once from
the npm registry) and opened from its ``file://`` URL, as a player opens
the file they downloaded, or from ``http://127.0.0.1:<port>`` (a static
server in the test), as from the MJ's host. Without chromium, Playwright
(the ``browser`` extra) or Pyodide the tests skip and say why;
``GM_TEST_REQUIRE_BROWSER=1`` (CI's step 4) makes that an error.

Every page is opened through ``Browsing``: every request is recorded (and
any but the page's own is aborted), every Content-Security-Policy violation
and every JavaScript error or console error too, and the test fails at its
end if there was any. ``GM_TEST_SCREENSHOTS=DIR`` saves
``DIR/pyodide-<name>.png`` when a test calls ``shot``.
"""

from __future__ import annotations

import functools
import http.server
import json
import os
import shutil
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from check.forum import Forum, forum
from support import Gm

from gm.core.protocol import PostRef
from gm.service import browser_check
from gm.service.env import Env
from gm.service.loading import fold
from gm.service.posts import ROLL, ROSTER, public_context
from gm.store.records import StoredEvent

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "fixtures" / "gm-0.2.1-magot.json"
NO_BROWSER = "no browser: apt-get install chromium; pip install -e '.[browser]'"
CHROMIUM_ARGS = [
    "--no-sandbox",  # root, in a container
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
READY = 180_000
"""Milliseconds Pyodide may take to start (a few seconds on a quiet machine)."""

# Recorded before any script of the page runs (an init script is not under its CSP).
WATCH = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__violations.push(`${e.effectiveDirective} ${e.blockedURI}`);
});
"""


def unavailable(why: str) -> None:
    if os.environ.get("GM_TEST_REQUIRE_BROWSER") == "1":
        pytest.fail(f"{NO_BROWSER} ({why}; GM_TEST_REQUIRE_BROWSER=1 makes this an error)")
    pytest.skip(f"{NO_BROWSER} ({why})")


RENDER = """
# Defines render_all(cases): [[kind, context JSON], …] -> JSON [[Markdown, HTML], …].
import json
from gm import games
from gm.render import Renderer, to_forum

def render_all(cases):
    renderer = Renderer("magot", "fr", None, games.load("magot").filters)
    out = []
    for kind, context in json.loads(cases):
        text = renderer.render(kind, json.loads(context))
        out.append([text, to_forum(text, "html")])
    return json.dumps(out)
"""


REWORDED = frozenset({"results"})
"""Post kinds whose wording changed since gm 0.2.1 wrote the fixture (0.4.1:
Le Magot's standings show the rank and score that sort them): gm renders
them today otherwise than archived, as ``gm verify`` notes."""


def expected_posts(posts: list[tuple[dict[str, Any], str]]) -> list[str]:
    """What gm renders today for each archived post, from its context: the
    archived text itself, but for a kind reworded since (``REWORDED``)."""
    from gm import games
    from gm.render import Renderer
    from gm.service.posts import tidy

    renderer = Renderer("magot", "fr", None, games.load("magot").filters)
    out = []
    for post, context in posts:
        today = tidy(renderer.render(post["kind"], json.loads(context)))
        assert (today == post["body"]) is (post["kind"] not in REWORDED), post["number"]
        out.append(today)
    return out


def archived_posts() -> list[tuple[dict[str, Any], str]]:
    """(archived post, its context as JSON) for each public post of the campaign."""
    data = json.loads(FIXTURE.read_text(encoding="utf-8"))
    records = [
        StoredEvent(
            seq=e["seq"],
            kind=e["kind"],
            actor=e["actor"],
            audience=e["audience"],
            payload=json.loads(e["payload"]),
            payload_json=e["payload"],
            salt=e["salt"],
            source=e["source"],
            recorded_at=e["recorded_at"],
            prev_hash=e["prev_hash"],
            hash=e["hash"],
            batch=e.get("batch"),
        )
        for e in data["events"]
    ]
    out = []
    for post in data["posts"]:
        if post["kind"] in (ROLL, ROSTER):  # the platform's posts: no template context
            continue
        then = fold(
            data["campaign"]["slug"], "magot", [r for r in records if r.seq <= post["at_seq"]]
        )
        ref = PostRef(post["kind"], () if post["round"] is None else (post["round"],))
        out.append((post, json.dumps(public_context(then, ref, then.head))))
    return out


@pytest.fixture(scope="session")
def tarball() -> bytes:
    try:
        return browser_check.pyodide_tarball()
    except browser_check.BrowserCheckError as err:
        unavailable(f"no pyodide: {err}")
        raise  # pragma: no cover - unavailable() does not return


@dataclass
class Built:
    folder: Path
    page: browser_check.Page

    @property
    def path(self) -> Path:
        return self.folder / browser_check.default_name()

    @property
    def url(self) -> str:
        return self.path.resolve().as_uri()


@pytest.fixture(scope="session")
def built(tarball: bytes, tmp_path_factory: pytest.TempPathFactory) -> Built:
    folder = tmp_path_factory.mktemp("pyodide-page")
    done = Built(folder, browser_check.page(tarball))
    done.path.write_bytes(done.page.body)
    return done


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="session")
def served(built: Built) -> Iterator[str]:
    """The page's URL on a static server of 127.0.0.1 (any free port)."""
    handler = functools.partial(_Quiet, directory=str(built.folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/{built.path.name}"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    try:
        from playwright.sync_api import Error, sync_playwright
    except ImportError:
        unavailable("playwright is not installed")
    executable = shutil.which("chromium")
    if executable is None:
        unavailable("no chromium on PATH")
    with sync_playwright() as playwright:
        try:
            launched = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        except Error as err:
            unavailable(f"chromium does not start: {str(err).splitlines()[0]}")
        yield launched
        launched.close()


@dataclass
class Browsing:
    """One page in a fresh browser context, its requests, CSP and errors watched."""

    page: Any
    url: str
    requests: list[str] = field(default_factory=list)
    """Every request but the page's own document, whatever became of it."""
    errors: list[str] = field(default_factory=list)
    refusals: list[str] = field(default_factory=list)
    """Violations a test provoked on purpose (« directive URL »): not failures."""

    def open(self) -> None:
        self.page.goto(self.url)
        self.page.wait_for_selector("#check:not([disabled])", timeout=READY)

    def violations(self) -> list[str]:
        found: list[str] = self.page.evaluate("() => window.__violations")
        return found

    def run(self, argv: list[str], stdin: str) -> tuple[int, str]:
        """The entry point's ``main(argv, stdin)``, called as the page calls it."""
        got = self.page.evaluate("([a, s]) => gmPage.check(a, s)", [argv, stdin])
        return got["code"], got["text"]

    def check(self, thread: str) -> None:
        """Paste ``thread`` and press « Vérifier », as a player does."""
        self.page.fill("#thread", thread)
        self.page.click("#check")
        self.page.wait_for_selector("#status:text-is('Vérification terminée.')")

    def verdict(self) -> tuple[str, str, str]:
        """(word, help, summary) as shown."""
        return (
            self.page.text_content("#verdict-word") or "",
            self.page.text_content("#verdict-help") or "",
            self.page.text_content("#summary") or "",
        )

    def lines(self) -> list[tuple[str, str]]:
        """(class, text) of each line of the report."""
        got: list[list[str]] = self.page.eval_on_selector_all(
            "#lines li", "els => els.map(e => [e.className, e.textContent])"
        )
        return [(k, t) for k, t in got]

    def shot(self, name: str) -> None:
        folder = os.environ.get("GM_TEST_SCREENSHOTS")
        if folder:
            Path(folder).mkdir(parents=True, exist_ok=True)
            if self.page.is_visible("#result"):
                self.page.locator("#result").evaluate("e => e.scrollIntoView()")
            self.page.screenshot(path=str(Path(folder) / f"pyodide-{name}.png"))


def browse(browser: Any, url: str, *, offline: bool = False) -> Iterator[Browsing]:
    context = browser.new_context(offline=offline, viewport={"width": 1000, "height": 900})
    context.add_init_script(WATCH)
    page = context.new_page()
    watched = Browsing(page, url)

    def route(r: Any) -> None:
        if r.request.url == url:
            r.continue_()
        else:
            r.abort()

    def asked(request: Any) -> None:
        if request.url != url:
            watched.requests.append(request.url)

    def console(message: Any) -> None:
        if message.type == "error":
            watched.errors.append(f"console: {message.text}")

    context.route("**/*", route)
    page.on("request", asked)
    page.on("console", console)
    page.on("pageerror", lambda err: watched.errors.append(str(err)))
    try:
        yield watched
        page.wait_for_timeout(100)  # the last requests' outcomes
        violations = watched.violations()
    finally:
        context.close()
    provoked = {r.split(" ", 1)[1] for r in watched.refusals}
    requests = [u for u in watched.requests if u not in provoked]
    violations = [v for v in violations if v not in watched.refusals]
    errors = [
        e for e in watched.errors if not (watched.refusals and "Content Security Policy" in e)
    ]
    assert not requests, f"the page made requests: {requests}"
    assert not violations, f"the page's CSP was violated: {violations}"
    assert not errors, f"JavaScript errors in the page: {errors}"


@pytest.fixture
def from_file(browser: Any, built: Built) -> Iterator[Browsing]:
    yield from browse(browser, built.url, offline=True)


@pytest.fixture
def from_http(browser: Any, served: str) -> Iterator[Browsing]:
    yield from browse(browser, served)


def played_thread(folder: Path) -> Forum:
    """A one-round game of Le Magot, published as protocol 3 would."""
    db = str(folder / "gm.db")
    gm = Gm(db)
    gm("new", "magot", "--title", "Le casse", "--players", "fab,marco,lulu", "--seed", "graine",
       "--option", "rounds=1")  # fmt: skip
    gm("draw")
    for player, target in (("fab", "marco"), ("marco", "lulu"), ("lulu", "fab")):
        gm("order", player, f"sur {target}, clic clic clic")
    gm("reveal", "--force")
    gm("resolve")
    gm("post", "disclosure")
    return forum(Env(db=db), "le-casse")
