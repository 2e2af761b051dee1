"""The browser checker's core (tools/checker/core.js, api.js) gives gm_check.py's results.

Two kinds of vectors, both run on the port in one Node process each:

* primitives.json, written by tools/checker/make_primitives.py from
  gm_check.py: the hashing contract (canonical JSON, seals, commitments,
  mixes, labels), the draws and shuffles, the digest checks and the small
  readers, on awkward inputs (accents in both normal forms, key order by
  code point, big integers, floats, lone surrogates, every bound size of a
  draw). A test fails when the committed corpus is not what gm_check.py
  gives today.
* command lines of the subcommands that need no post (``seed``, ``seal``,
  ``label``, ``draws``), ``--help`` and usage errors: ``node run.mjs`` must
  print the same stdout and exit with the same code as ``python
  gm_check.py`` (stderr is argparse's wording, not compared).

Without ``node`` on PATH these tests skip, saying so.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[3]
CHECKER = ROOT / "tools" / "checker"
HERE = Path(__file__).resolve().parent
CORPUS = HERE / "primitives.json"
DRIVER = HERE / "primitives_driver.mjs"
TOOL = ROOT / "tools" / "gm_check.py"


def _load(name: str, path: Path) -> Any:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def node() -> str:
    found = shutil.which("node")
    if found is None:
        pytest.skip(
            "node is not on PATH: the JavaScript port of gm_check.py cannot run here (install Node.js 20+)"
        )
    return found


@pytest.fixture(scope="module")
def script(tmp_path_factory: pytest.TempPathFactory) -> Path:
    assemble = _load("checker_assemble", CHECKER / "assemble.py")
    path = tmp_path_factory.mktemp("checker") / "gm-check.js"
    path.write_text(assemble.script(), encoding="utf-8")
    return path


def test_the_committed_corpus_is_what_gm_check_gives_today() -> None:
    make = _load("checker_make_primitives", CHECKER / "make_primitives.py")
    assert CORPUS.read_text(encoding="utf-8") == make.text(), (
        "tests/tools/checker/primitives.json is out of date: run python tools/checker/make_primitives.py"
    )


def test_the_corpus_covers_every_primitive() -> None:
    cases = json.loads(CORPUS.read_text(encoding="utf-8"))["cases"]
    counts: dict[str, int] = {}
    for case in cases:
        counts[case["fn"]] = counts.get(case["fn"], 0) + 1
    for fn in ("canonical_json", "seal", "commitment", "mix", "label_for", "draws", "shuffle", "slug",
               "parse_money", "parse_bills", "parse_names", "parse_entries", "split_pair", "row_cells",
               "card_value", "card_color", "parse_draw_clause", "spread_words", "describe", "fmt_bills",
               "parse_dice", "parse_groups", "check_digest", "check_seed", "check_seal", "hex_digits",
               "same_digits"):  # fmt: skip
        assert counts.get(fn, 0) >= 1, fn
    bounds = {n for case in cases if case["fn"] == "draws" for n in case["args"][2]}
    assert {1, 2, 255, 256, 257, 65536, 10**9} <= bounds
    assert any(
        "error" in case for case in cases if case["fn"] == "canonical_json"
    )  # floats, bad JSON
    assert len(cases) >= 300


def test_the_port_gives_gm_checks_result_for_every_primitive(node: str, script: Path) -> None:
    cases = json.loads(CORPUS.read_text(encoding="utf-8"))["cases"]
    done = subprocess.run(
        [node, str(DRIVER), str(script), str(CORPUS)],
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=False,
    )
    assert done.returncode == 0, done.stderr
    got = json.loads(done.stdout)
    assert len(got) == len(cases)
    differ = []
    for case, result in zip(cases, got, strict=True):
        want = {"result": case["result"]} if "result" in case else {"error": case["error"]}
        if result != want:
            differ.append(
                f"{case['fn']}{tuple(case['args'])!r}: gm_check.py {want!r}, port {result!r}"[:600]
            )
    assert not differ, f"{len(differ)} of {len(cases)} primitives differ:\n" + "\n".join(differ)


SEAL_HEX = "sha256:3b2b0a6dd0d0ef2b6b69d3c0c4bbd4a4cd21e7bdd4da94ff43b5c8f1a3c7c7c9"

COMMAND_LINES: list[list[str]] = [
    # help, on stdout with code 0
    ["--help"],
    ["-h"],
    ["--he"],
    ["thread", "--help"],
    ["post", "-h"],
    ["seed", "--help"],
    ["seal", "--hel"],
    ["label", "--help"],
    ["draws", "-h"],
    ["draws", "s", "l", "--help"],
    ["--bogus", "-h", "thread"],
    ["thread", "f", "--seed", "x", "--help"],
    # seed
    ["seed", "graine", "9712315c8f2f00925b0aa029a4fc764c82a19fa8004721121928868c19fbfeca"],
    ["seed", "graine", "sha256:9712315C8F2F00925B0AA029A4FC764C82A19FA8004721121928868C19FBFECA"],
    ["seed", "graine", "`9712315c`"],
    ["seed", "graine", "9712315c8f2f00925b0aa029a4fc764d"],
    ["seed", "graine", "not hex"],
    ["seed", "Élodie 🎲", "sha256:" + "0" * 64],
    ["seed", "", "e3b0c44298fc1c149afbf4c8996fb924"],
    # seal
    [
        "seal",
        "magot.order-set",
        '{"round": 3, "player": "Élodie", "target": "Jean-Paul", "option": "bang"}',
        "0123456789abcdef0123456789abcdef",
    ],
    ["seal", "k", '{"b": [1, "é"], "a": "x"}', "s"],
    [
        "seal",
        "k",
        '{"b": [1, "é"], "a": "x"}',
        "s",
        "d8207742ac9f9f0f019e57e55e9ebfea23c22c23a8b35814a11a660d8760af8d",
    ],
    ["seal", "k", '{"b": [1, "é"], "a": "x"}', "s", "d8207742"],
    ["seal", "k", '{"b": [1, "é"], "a": "x"}', "s", SEAL_HEX],
    ["seal", "k", '{"b": [1, "é"], "a": "x"}', "s", "zz"],
    ["seal", "k", "12345678901234567890", "s"],
    ["seal", "k", "-1", "s"],
    ["seal", "k", '{"a": -1}', "s"],
    ["seal", "k", "1.0", "s"],
    ["seal", "k", "NaN", "s"],
    ["seal", "k", '"\\ud800"', "s"],
    ["seal", "k", '"\\ud83d\\ude00"', "s"],
    ["seal", "k", "[1,", "s"],
    ["seal", "k", "x", "s"],
    ["seal", "k", '{"a": 1, "a": 2}', "s"],
    # label
    ["label", "round-2/bills"],
    ["label", "round-2/bills", "Ana", "pomme", "Élodie", "poire"],
    ["label", "roll/2", "Ana"],
    ["label", "p", "--", "-x", "y"],
    # draws
    ["draws", "graine", "round-1/bills", "40,39,38"],
    ["draws", "graine", "round-1/bills", "6", "10"],
    ["draws", "graine", "lab", "65536", "4"],
    ["draws", "graine", "lab", "1"],
    ["draws", "graine", "lab", "99999999999999999999", "3"],
    ["draws", "graine", "lab", "5", "-3"],
    ["draws", "graine", "lab", "5", "0"],
    ["draws", "graine", "lab", " 7", "+2"],
    ["draws", "graine", "lab", "1_000"],
    ["draws", "graine", "lab", "5", "--", "2"],
    ["draws", "", "", "256", "3"],
    ["draws", "graine", "lab", "0"],
    ["draws", "graine", "lab", "-5"],
    ["draws", "graine", "lab", "5,x"],
    ["draws", "graine", "lab", ""],
    ["draws", "graine", "lab", "5", "x"],
    ["draws", "graine", "lab", "5", "3", "extra"],
    ["draws", "graine", "lab", "9" * 4300, "2"],  # Python's int() converts 4300 digits at most
    ["draws", "graine", "lab", "9" * 4301],
    ["seal", "k", "9" * 4300, "s"],
    ["seal", "k", "9" * 4301, "s"],
    # usage errors: code 2, nothing on stdout
    [],
    ["bogus"],
    ["-x"],
    ["thread"],
    ["post"],
    ["post", "a", "b"],
    ["seed", "graine"],
    ["seal", "k", "1"],
    ["draws", "s", "l"],
    ["thread", "--se", "x", "f"],
    ["thread", "--seed"],
    ["thread", "f", "--format", "bogus"],
    ["thread", "f", "--format=bogus"],
    ["draws", "--seed", "1", "s", "l", "5"],
    ["--seed", "x", "thread", "f"],
    # files that cannot be read: ERREUR on stderr, code 2
    ["thread", "/nonexistent/a.txt"],
    ["post", "/nonexistent/a.txt", "--reveal", "/nonexistent/b.txt"],
]


def _python(args: list[str]) -> tuple[int, str]:
    done = subprocess.run(
        [sys.executable, "-I", "-S", str(TOOL), *args],
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=dict(os.environ, COLUMNS="80"),
        check=False,
    )
    return done.returncode, done.stdout


@pytest.fixture(scope="module")
def port_runs(node: str, tmp_path_factory: pytest.TempPathFactory) -> list[tuple[int, str]]:
    """Every command line of COMMAND_LINES run by the port, in one Node process (run.mjs --batch)."""
    vectors = tmp_path_factory.mktemp("batch") / "vectors.jsonl"
    vectors.write_text(
        "".join(json.dumps({"args": a}) + "\n" for a in COMMAND_LINES), encoding="utf-8"
    )
    done = subprocess.run(
        [node, str(CHECKER / "run.mjs"), "--batch", str(vectors)],
        capture_output=True, text=True, encoding="utf-8", check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    results = [json.loads(line) for line in done.stdout.splitlines()]
    return [(r["code"], "".join(line + "\n" for line in r["stdout"])) for r in results]


@pytest.mark.parametrize(
    "index", range(len(COMMAND_LINES)), ids=[" ".join(a)[:60] or "(none)" for a in COMMAND_LINES]
)
def test_the_port_answers_a_command_line_as_gm_check_does(
    index: int, port_runs: list[tuple[int, str]]
) -> None:
    args = COMMAND_LINES[index]
    if sys.version_info[:2] != (3, 11) and any(a.startswith(("-h", "--h")) for a in args):
        pytest.skip(
            "the port prints the help of CPython 3.11's argparse; its layout changes with the version"
        )
    assert port_runs[index] == _python(args)


def test_usage_errors_exit_2_with_nothing_on_stdout(port_runs: list[tuple[int, str]]) -> None:
    for args in (
        [],
        ["bogus"],
        ["thread"],
        ["seed", "graine"],
        ["draws", "graine", "lab", "5", "x"],
        ["thread", "--se", "x", "f"],
    ):
        assert port_runs[COMMAND_LINES.index(args)] == (2, "")


def test_the_draws_and_labels_are_gm_checks_known_values(port_runs: list[tuple[int, str]]) -> None:
    """Pinned values, so a change on both sides at once is seen too."""
    assert port_runs[COMMAND_LINES.index(["draws", "graine", "round-1/bills", "40,39,38"])] == (
        0,
        "[37, 35, 1]\n",
    )
    assert (
        port_runs[
            COMMAND_LINES.index(["label", "round-2/bills", "Ana", "pomme", "Élodie", "poire"])
        ][0]
        == 0
    )
    assert port_runs[COMMAND_LINES.index(["draws", "graine", "lab", "5", "-3"])] == (0, "[]\n")


def test_compare_py_says_when_both_tools_agree(node: str) -> None:
    done = subprocess.run(
        [
            sys.executable,
            str(CHECKER / "compare.py"),
            "draws",
            "graine",
            "round-1/bills",
            "40,39,38",
        ],
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=False,
    )
    assert (done.returncode, done.stdout) == (0, "same: exit code 0, 1 lines\n")


def test_compare_py_shows_a_difference() -> None:
    compare = _load("checker_compare", CHECKER / "compare.py")
    python = subprocess.CompletedProcess([], 1, "OK : a / a\nBILAN\n", "")
    node = subprocess.CompletedProcess([], 0, "OK : a / a\nBILAN 2\n", "")
    assert compare.differences(python, node) == [
        "exit code: python 1, node 0",
        "--- gm_check.py",
        "+++ run.mjs",
        "@@ -1,2 +1,2 @@",
        " OK : a / a",
        "-BILAN",
        "+BILAN 2",
    ]
    assert compare.differences(python, python) == []
