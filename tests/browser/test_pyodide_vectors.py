"""The recorded calls of the checker, replayed through the Python page's entry point.

Every call the tools tests make to ``tools/gm_check.py`` is recorded
(``GM_CHECK_VECTORS``, see tests/tools/gmcheck_support.py): its argv, its
standard input, the files it names, its exit code and stdout. Here every
attack and a sample of the others run in chromium through
``main(argv, stdin)``, their files written in Pyodide's file system at the
paths they were given and removed after: each must give the same exit code
and the same lines (a refused input's error, on standard error, follows).
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest
from pyodide_support import Browsing

from gm.service import browser_check

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools" / "checker"))
from vectors_support import attacks, corpus, load

pytestmark = pytest.mark.browser

SAMPLE = 300
BATCH = 50
ERRORS = ("ERREUR / ERROR: ", "usage: ", "gm_check: error: ")

REPLAY = f"""
import json
from pathlib import Path
from {browser_check.ENTRY_MODULE} import main

def replay(batch):
    out = []
    for vector in json.loads(batch):
        written = []
        for name, text in vector["files"].items():
            path = Path(name)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            written.append(path)
        try:
            out.append(main(vector["args"], vector["stdin"] or ""))
        finally:
            for path in written:
                path.unlink()
    return json.dumps(out)
"""


def differs(vector: dict[str, Any], code: int, text: str) -> str | None:
    """What differs from the command line's run, or None."""
    lines = text.splitlines()
    want = vector["stdout"]
    if code != vector["code"]:
        return f"exit code {code}, the command line's {vector['code']}"
    if code == 2:  # stdout, then the error that went to stderr
        rest = lines[len(want) :]
        if lines[: len(want)] != want or not rest or not rest[0].startswith(ERRORS):
            return f"lines {lines[:4]}, the command line's {want[:4]} and an error"
        return None
    if lines != want:
        first = next(
            i for i in range(max(len(lines), len(want))) if lines[i : i + 1] != want[i : i + 1]
        )
        return f"line {first + 1}: {lines[first : first + 1]}, the command line's {want[first : first + 1]}"
    return None


def test_recorded_calls_agree_through_the_entry_point(
    from_file: Browsing,
    tmp_path_factory: pytest.TempPathFactory,
    capsys: pytest.CaptureFixture[str],
) -> None:
    folder, origin = corpus(str(tmp_path_factory.getbasetemp()))
    vectors = load(folder)
    assert vectors, f"no vector recorded in {folder}"
    hostile = set(attacks(vectors))
    assert hostile, "no attack vector recorded"
    others = [i for i in range(len(vectors)) if i not in hostile]
    chosen = sorted(hostile | set(random.Random(23).sample(others, min(SAMPLE, len(others)))))
    from_file.open()
    from_file.page.evaluate("async (code) => (await gmPage.ready).runPython(code)", REPLAY)
    results: list[list[Any]] = []
    for start in range(0, len(chosen), BATCH):
        batch = [vectors[i] for i in chosen[start : start + BATCH]]
        results += json.loads(
            from_file.page.evaluate(
                "async (batch) => (await gmPage.ready).globals.get('replay')(batch)",
                json.dumps(batch),
            )
        )
    bad = []
    for i, (code, text) in zip(chosen, results, strict=True):
        problem = differs(vectors[i], code, text)
        if problem:
            bad.append(f"{vectors[i]['test']}: {' '.join(vectors[i]['args'])[:120]}: {problem}")
    with capsys.disabled():
        print(
            f"\n{origin}; through the page's entry point: {len(chosen) - len(bad)} of"
            f" {len(chosen)} agree ({len(hostile)} attacks)"
        )
    assert not bad, f"{len(bad)} of {len(chosen)} calls differ in the page:\n" + "\n".join(bad)
