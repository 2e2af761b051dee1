"""The browser checker reads posts as gm_check.py does (tools/checker/read.js).

``read_lines`` and ``read_source`` of gm_check.py and their ports
``readLines`` and ``readSource`` must give the same lines (texts, code spans
as the strings they cover and as code-point offsets, table cells, line
numbers), the same problems word for word, the same posts (kind, key, title,
body, fingerprint line, names), the same chronicle data, or raise the same
error, on (read_corpus.py):

* every post of a random game of each registered game in every form a
  player gets it (Markdown, three kinds of BBCode tables, HTML, a browser's
  plain copy), alone and as a whole thread, and ``gm chronicle`` in
  Markdown, BBCode and HTML, whole and cut into parts;
* those posts with markup that hides a line put into them (comments, raw
  HTML, spoilers, links, invisible characters, entities, declarations…);
* texts that set Python and JavaScript apart (astral characters in code
  spans, NFC, Python's html.parser raising) and random texts made of the
  pieces the readers treat specially, read in every format.

All the cases run in one Node process (read_driver.mjs). Without ``node`` on
PATH the comparison skips, saying so (fails with GM_TEST_REQUIRE_BROWSER=1). ``python
tests/tools/checker/read_corpus.py --seeds N`` compares a bigger corpus.
"""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import read_corpus  # noqa: E402

NODE = shutil.which("node")


@pytest.fixture(scope="module")
def compared(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    if NODE is None:
        if os.environ.get("GM_TEST_REQUIRE_BROWSER") == "1":
            pytest.fail("no node: apt-get install nodejs (GM_TEST_REQUIRE_BROWSER=1)")
        pytest.skip("node is not on PATH: the JavaScript port of the readers cannot be run")
    folder = tmp_path_factory.mktemp("read-node")
    checker = read_corpus.gm_check()
    rng = random.Random("read.js")
    played = read_corpus.play(range(1), folder)
    groups = {
        "games": list(read_corpus.game_cases(played)),
        "hostile": list(read_corpus.hostile_cases(played, rng, per_post=1)),
        "edges": list(read_corpus.edge_cases()),
        "fuzz": list(read_corpus.fuzz_cases(1000, rng)),
    }
    cases = [c for group in groups.values() for c in group]
    py = [read_corpus.python_result(checker, c) for c in cases]
    path = folder / "cases.jsonl"
    read_corpus.write_cases(cases, path)
    js = read_corpus.node_results(path, NODE)
    return {"groups": groups, "cases": cases, "py": py, "js": js, "played": played}


def test_the_port_reads_every_case_as_gm_check_does(compared: dict[str, Any]) -> None:
    diffs = read_corpus.differences(compared["cases"], compared["py"], compared["js"])
    assert not diffs, f"{len(diffs)} of {len(compared['cases'])} cases differ:\n" + "\n".join(
        diffs[:10]
    )


def test_the_corpus_is_not_vacuous(compared: dict[str, Any]) -> None:
    """Every game, every post kind, every format, problems, code spans and
    errors are compared, not only easy texts."""
    from gm import games

    played = compared["played"]
    assert {game for game, _, _ in played} == set(games.ids())
    assert all(chronicles for _, _, chronicles in played)
    results = [
        r["ok"]
        for r, c in zip(compared["py"], compared["cases"], strict=True)
        if "ok" in r and c["op"] == "source"
    ]
    kinds = {post["kind"] for r in results for post in r["posts"]}
    assert {kind for kind, _ in read_corpus.gm_check().HEADINGS} == kinds
    assert any(r["chronicle"] for r in results)
    lines = [
        r["ok"]
        for r, c in zip(compared["py"], compared["cases"], strict=True)
        if "ok" in r and c["op"] == "lines"
    ]
    assert {r["fmt"] for r in lines} == {"markdown", "bbcode", "html", "text"}
    assert sum(len(r["problems"]) for r in lines) > 1000
    assert sum(len(li["codes"]) for r in lines for li in r["lines"]) > 1000
    assert any("🎲" in text for r in lines for li in r["lines"] for text in li["code_texts"])
    errors = {r["error"][0] for r in compared["py"] if "error" in r}
    assert {"ValueError", "Unreadable"} <= errors, errors
    assert len(compared["cases"]) > 5000


def test_the_tables_in_read_js_are_python_s() -> None:
    """The entity and invisible-character tables are generated from Python's
    standard library (read_tables.py), not edited by hand."""
    done = subprocess.run(
        [sys.executable, str(HERE / "read_tables.py")], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
