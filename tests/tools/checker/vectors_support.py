"""The recorded corpus of the checker's calls, shared by the Node and browser replays.

``GM_CHECK_VECTORS_REPLAY=DIR`` names a corpus recorded earlier
(``GM_CHECK_VECTORS=DIR pytest tests/tools``: CI's step 1 records it).
Without it, ``corpus()`` records one for this session by running the tools
tests in a subprocess, once (a few minutes), and says so.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from functools import cache
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[3]
CHECKER = ROOT / "tools" / "checker"
ATTACK_FILES = ("tests/tools/test_gm_check_attacks.py", "tests/tools/test_gm_check_colt.py")
"""The tests that tamper with posts: each of their calls that fails in
Python (exit 1) must fail in JavaScript too."""


def load(folder: Path) -> list[dict[str, Any]]:
    path = folder / "vectors.jsonl"
    if not path.exists():
        return []
    with path.open(encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


@cache
def corpus(tmp: str) -> tuple[Path, str]:
    """The corpus's folder and a sentence saying where it came from."""
    given = os.environ.get("GM_CHECK_VECTORS_REPLAY")
    if given:
        return Path(given), f"replaying the corpus recorded in {given} (GM_CHECK_VECTORS_REPLAY)"
    folder = Path(tmp) / "vectors"
    env = {**os.environ, "GM_CHECK_VECTORS": str(folder)}
    env.pop("GM_CHECK_TOOL", None)
    env.pop("PYTEST_ADDOPTS", None)  # one process: CI's « -n 2 » is for the suite around it
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "tests/tools",
            "-q",
            "-p",
            "no:cacheprovider",
            "-x",
            "--ignore=tests/tools/checker",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise AssertionError(
            f"recording the vectors: pytest tests/tools failed:\n{done.stdout[-3000:]}"
        )
    return folder, (
        f"no GM_CHECK_VECTORS_REPLAY: recorded {len(load(folder))} vectors by running"
        f" `pytest tests/tools` with GM_CHECK_VECTORS={folder}"
    )


def same(vector: dict[str, Any], result: dict[str, Any]) -> bool:
    return (result.get("code"), result.get("stdout")) == (vector["code"], vector["stdout"])


def describe_mismatch(vector: dict[str, Any], result: dict[str, Any]) -> str:
    """What differs, shortly: the exit codes, then the first differing line."""
    out = [f"{vector['test']}: {' '.join(vector['args'])[:160]}"]
    if result.get("code") != vector["code"]:
        out.append(f"  exit code: Python {vector['code']}, JavaScript {result.get('code')}")
    want, got = vector["stdout"], result.get("stdout") or []
    for i in range(max(len(want), len(got))):
        a = want[i] if i < len(want) else "<none>"
        b = got[i] if i < len(got) else "<none>"
        if a != b:
            out.append(f"  line {i + 1}: Python     {a[:300]}")
            out.append(f"  line {i + 1}: JavaScript {b[:300]}")
            break
    if result.get("stderr"):
        out.append(f"  stderr: {' | '.join(result['stderr'])[:300]}")
    return "\n".join(out)


def attacks(vectors: list[dict[str, Any]]) -> list[int]:
    """Indexes of the vectors of the attack tests that fail in Python."""
    return [
        i for i, v in enumerate(vectors) if v["test"].startswith(ATTACK_FILES) and v["code"] == 1
    ]
