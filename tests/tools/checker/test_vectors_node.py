"""The JavaScript port says what gm_check.py says, on every recorded call.

Every call the tools tests make to ``gm_check.py`` (recorded with
``GM_CHECK_VECTORS``, see tests/tools/gmcheck_support.py) is replayed in one
Node process (``node tools/checker/run.mjs --batch``): the exit code and
every stdout line must be the same. Every mismatch is listed, not the first.
The calls of the attack tests that fail in Python (exit 1) must fail in
JavaScript too. A corpus with no vector at all is a failure: nothing would
have been compared.

While a corpus is being recorded (``GM_CHECK_VECTORS`` set, CI's step 1)
this test skips: it replays that corpus in a later step. Without ``node``
it skips, unless ``GM_TEST_REQUIRE_BROWSER=1`` (CI's step 4) makes that an
error.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from vectors_support import ATTACK_FILES, ROOT, attacks, corpus, describe_mismatch, load, same


@pytest.fixture(scope="module")
def node() -> str:
    found = shutil.which("node")
    if found is None:
        if os.environ.get("GM_TEST_REQUIRE_BROWSER") == "1":
            pytest.fail("no node: apt-get install nodejs (GM_TEST_REQUIRE_BROWSER=1)")
        pytest.skip("no node: apt-get install nodejs")
    return found


def test_the_port_agrees_with_every_recorded_call(
    node: str, tmp_path_factory: pytest.TempPathFactory, capsys: pytest.CaptureFixture[str]
) -> None:
    if os.environ.get("GM_CHECK_VECTORS"):
        pytest.skip("recording vectors (GM_CHECK_VECTORS): they are replayed in a later step")
    folder, origin = corpus(str(tmp_path_factory.getbasetemp()))
    with capsys.disabled():
        print(f"\n{origin}")
    vectors = load(folder)
    assert vectors, f"no vector recorded in {folder}: nothing would be compared"
    done = subprocess.run(
        [
            node,
            str(ROOT / "tools" / "checker" / "run.mjs"),
            "--batch",
            str(Path(folder) / "vectors.jsonl"),
        ],
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=False,
    )
    assert done.returncode == 0, f"run.mjs --batch failed:\n{done.stderr[-3000:]}"
    results = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    assert len(results) == len(vectors), (len(results), len(vectors))
    bad = [describe_mismatch(v, r) for v, r in zip(vectors, results, strict=True) if not same(v, r)]
    with capsys.disabled():
        print(f"{len(vectors) - len(bad)} of {len(vectors)} vectors agree")
    assert not bad, f"{len(bad)} of {len(vectors)} vectors differ:\n" + "\n".join(bad)
    hostile = attacks(vectors)
    assert hostile, f"no vector of {', '.join(ATTACK_FILES)} fails in Python: were they recorded?"
    escaped = [vectors[i]["test"] for i in hostile if results[i].get("code") != 1]
    assert not escaped, f"attacks that JavaScript does not catch (exit ≠ 1): {escaped}"
