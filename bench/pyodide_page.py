"""The Python checker page (``gm checker``): its size, and how long a player waits.

Measures, on this machine:

* the page's size in bytes, and gzipped (``gzip -9``: what a static host
  sends), with what it is made of (Pyodide's tarball, the zip of gm's
  Python, the rest), and the time to build it;
* in chromium (Debian's, through Playwright: the ``browser`` extra), from
  the page's ``file://`` URL in a fresh browser context each run: the time
  from opening the page to Pyodide ready (« Vérifier » enabled), and the
  time from « Vérifier » to the verdict on a whole example thread — the
  chronicle of ``campaigns/exemple-<game>.toml`` played by ``gm play`` —
  and, for comparison, ``python -m gm check -`` (the same checker) on the same
  file (a fresh process each run);

medians (and min–max) of several runs. Never a test: timings depend on the
machine. Run:

    python bench/pyodide_page.py [--runs 5] [--games magot,colt]
"""

from __future__ import annotations

import argparse
import gzip
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from click.testing import CliRunner

from gm.cli import cli
from gm.service import browser_check

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def thread(game: str, folder: Path) -> str:
    """The chronicle of the example game, as a player downloads it."""
    db, out = folder / f"{game}.db", folder / f"{game}.md"
    for args in (
        ["play", str(ROOT / "campaigns" / f"exemple-{game}.toml"), "--keep"],
        ["chronicle", "--limit", "0", "-o", str(out)],
    ):
        result = CliRunner().invoke(cli, ["--db", str(db), *args])
        if result.exit_code != 0:
            raise SystemExit(f"gm {' '.join(args)}: {result.output}")
    return out.read_text(encoding="utf-8")


def block(body: bytes, name: str) -> int:
    found = re.search(rb'<script type="[^"]+" id="' + name.encode() + rb'">([^<]*)</script>', body)
    return len(found[1]) if found else 0


def spread(values: list[float]) -> str:
    return f"{statistics.median(values):.2f} s (min {min(values):.2f}, max {max(values):.2f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--games", default="magot,colt")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    tarball = browser_check.pyodide_tarball()
    started = time.perf_counter()
    page = browser_check.page(tarball)
    built = time.perf_counter() - started
    body = page.body
    packed = gzip.compress(body, compresslevel=9, mtime=0)
    print(f"page: {len(body):,} bytes, {len(packed):,} gzipped; built in {built:.2f} s")
    print(f"  Pyodide {browser_check.PYODIDE_VERSION} tarball (base64): {block(body, 'pyodide'):,}")
    print(
        f"  gm's Python, zipped ({len(page.python_zip):,}), gzipped, base64: {block(body, 'python'):,}"
    )
    rest = len(body) - block(body, "pyodide") - block(body, "python")
    print(f"  the rest (HTML, style, script, words): {rest:,}")

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        path = folder / browser_check.default_name()
        path.write_bytes(body)
        threads = {g: thread(g, folder) for g in args.games.split(",")}
        ready: list[float] = []
        verdicts: dict[str, list[float]] = {g: [] for g in threads}
        python: dict[str, list[float]] = {g: [] for g in threads}
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=shutil.which("chromium"), args=CHROMIUM_ARGS
            )
            for _ in range(args.runs):
                context = browser.new_context(offline=True)
                tab = context.new_page()
                started = time.perf_counter()
                tab.goto(path.as_uri())
                tab.wait_for_selector("#check:not([disabled])", timeout=300_000)
                ready.append(time.perf_counter() - started)
                for game, text in threads.items():
                    # a paste: fill() types long texts too slowly for a chronicle
                    tab.eval_on_selector("#thread", "(e, t) => { e.value = t; }", text)
                    started = time.perf_counter()
                    tab.click("#check")
                    tab.wait_for_selector("#status:text-is('Vérification terminée.')")
                    verdicts[game].append(time.perf_counter() - started)
                    tab.evaluate("() => { document.getElementById('status').textContent = ''; }")
                    started = time.perf_counter()
                    subprocess.run(
                        [
                            sys.executable,
                            "-I",
                            "-m",
                            "gm",
                            "check",
                            "-",
                        ],
                        input=text,
                        capture_output=True,
                        text=True,
                        encoding="utf-8",
                        check=False,
                    )
                    python[game].append(time.perf_counter() - started)
                context.close()
            browser.close()
    print(f"{args.runs} runs in chromium, from file://:")
    print(f"  opening the page to Pyodide ready: {spread(ready)}")
    for game, text in threads.items():
        print(
            f"  « Vérifier » to the verdict, exemple-{game} ({len(text):,} characters):"
            f" {spread(verdicts[game])}; gm check: {spread(python[game])}"
        )


if __name__ == "__main__":
    main()
