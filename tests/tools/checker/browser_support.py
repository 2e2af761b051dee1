"""A real browser for the checker page's tests: Playwright driving Debian's chromium.

The tests open the page built by ``gm checker`` from its ``file://`` URL,
as a player opens the file they downloaded. Never ``playwright install``:
the browser is the system's ``chromium`` (``apt-get install chromium``), and
Playwright for Python comes with the ``browser`` extra (``pip install -e
'.[browser]'``). Without either the tests skip and say why;
``GM_TEST_REQUIRE_BROWSER=1`` (CI's step 4) makes that an error instead.

Every page is opened through ``Browsing``: every request the page makes is
routed, and any request but the page's own file is aborted and recorded; a
test fails if there was one (or one the browser began and its CSP did not
refuse), or if the page raised a JavaScript error.
``GM_TEST_SCREENSHOTS=DIR`` saves ``DIR/checker-<name>.png`` when a test
calls ``shot``.
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from gm.service import checker_page

# tests/tools: gmcheck_support (random games, the tool's path) for the page's tests
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

NO_BROWSER = "no browser: apt-get install chromium; pip install -e '.[browser]'"


def _unavailable(why: str) -> None:
    if os.environ.get("GM_TEST_REQUIRE_BROWSER") == "1":
        pytest.fail(f"{NO_BROWSER} ({why}; GM_TEST_REQUIRE_BROWSER=1 makes this an error)")
    pytest.skip(f"{NO_BROWSER} ({why})")


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    try:
        from playwright.sync_api import Error, sync_playwright
    except ImportError:
        _unavailable("playwright is not installed")
    executable = shutil.which("chromium")
    if executable is None:
        _unavailable("no chromium on PATH")
    with sync_playwright() as playwright:
        try:
            launched = playwright.chromium.launch(executable_path=executable)
        except Error as err:
            _unavailable(f"chromium does not start: {str(err).splitlines()[0]}")
        yield launched
        launched.close()


@dataclass
class Built:
    path: Path
    page: checker_page.Page

    @property
    def url(self) -> str:
        return self.path.resolve().as_uri()


@pytest.fixture(scope="session")
def built(tmp_path_factory: pytest.TempPathFactory) -> Built:
    page = checker_page.page()
    path = tmp_path_factory.mktemp("page") / checker_page.default_name()
    path.write_bytes(page.body)
    return Built(path, page)


@dataclass
class Browsing:
    """One page of the checker in a fresh browser context, its requests watched."""

    page: Any
    url: str
    foreign: list[str] = field(default_factory=list)
    """Requests that reached the network stage (routed, then aborted)."""
    asked: list[str] = field(default_factory=list)
    """Every request the page began but its own file's, even one its CSP refused."""
    refused: list[str] = field(default_factory=list)
    """Requests the CSP refused before any network stage."""
    errors: list[str] = field(default_factory=list)

    def open(self, hash_: str = "") -> None:
        self.page.goto(self.url + hash_)
        # Selectors, not wait_for_function: the page's CSP forbids the eval it uses.
        self.page.wait_for_selector("#digest-value:text-matches('^[0-9a-f]{64}$')")

    def verdict(self) -> tuple[str, str, str]:
        """(word, help, summary) once the check is done."""
        self.page.wait_for_selector("#result:not([hidden])")
        self.page.wait_for_selector("#check:not([disabled])")
        return (
            self.page.text_content("#verdict-word") or "",
            self.page.text_content("#verdict-help") or "",
            self.page.text_content("#summary") or "",
        )

    def items(self, selector: str) -> list[tuple[str, str]]:
        """(class, text without its kind) of each line of a result list."""
        items: list[tuple[str, str]] = self.page.eval_on_selector_all(
            f"{selector} li",
            "els => els.map(e => [e.className, e.lastChild.textContent])",
        )
        return [(k, t) for k, t in items]

    def paste(
        self, texts: list[str], *, reply: str = "", seed: str = "", fmt: str = "auto"
    ) -> None:
        """Each text in its own box (« + un autre message » for each after the first)."""
        for _ in range(len(texts) - self.page.locator(".post-text").count()):
            self.page.click("#add")
        for box, text in zip(self.page.locator(".post-text").all(), texts, strict=False):
            box.fill(text)
        self.page.fill("#reply", reply)
        self.page.fill("#seed", seed)
        self.page.select_option("#format", fmt)

    def check(self) -> tuple[str, str, str]:
        self.page.click("#check")
        return self.verdict()

    def shot(self, name: str) -> None:
        folder = os.environ.get("GM_TEST_SCREENSHOTS")
        if folder:
            Path(folder).mkdir(parents=True, exist_ok=True)
            # the window as the player sees it after « Vérifier »: the verdict at the top
            if self.page.is_visible("#result"):
                self.page.locator("#result").evaluate("e => e.scrollIntoView()")
            self.page.screenshot(path=str(Path(folder) / f"checker-{name}.png"))


def browse(browser: Any, built: Built, *, offline: bool = False) -> Iterator[Browsing]:
    context = browser.new_context(offline=offline, viewport={"width": 1000, "height": 900})
    page = context.new_page()
    watched = Browsing(page, built.url)

    def route(r: Any) -> None:
        if r.request.url.split("#")[0] == built.url:
            r.continue_()
        else:
            watched.foreign.append(r.request.url)
            r.abort()

    def asked(request: Any) -> None:
        if request.url.split("#")[0] != built.url:
            watched.asked.append(request.url)

    def failed(request: Any) -> None:
        if request.failure == "csp":
            watched.refused.append(request.url)

    context.route("**/*", route)
    page.on("request", asked)
    page.on("requestfailed", failed)
    page.on("pageerror", lambda err: watched.errors.append(str(err)))
    try:
        yield watched
        page.wait_for_timeout(100)  # the last requests' outcomes
    finally:
        context.close()
    left = sorted({*watched.foreign, *(u for u in watched.asked if u not in watched.refused)})
    assert not left, f"the page made requests: {left}"
    assert not watched.errors, f"JavaScript errors in the page: {watched.errors}"


@pytest.fixture
def browsing(browser: Any, built: Built) -> Iterator[Browsing]:
    yield from browse(browser, built)


@pytest.fixture
def offline_browsing(browser: Any, built: Built) -> Iterator[Browsing]:
    yield from browse(browser, built, offline=True)
