"""tools/gm_check.py, the players' stand-alone checker, agrees with gm.

The script runs as a subprocess of the plain interpreter without ``site``
(``-I -S``): gm is not importable there, so the standard library is all it
has. Its output must be the same as ``gm check-post``'s on fixed vectors.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from gm.cli import cli
from gm.core import canonical, fortune

TOOL = Path(__file__).resolve().parents[2] / "tools" / "gm_check.py"
PAYLOAD = {"option": "bang", "player": "Élodie", "round": 3, "target": "Jean-Paul"}
SALT = "0123456789abcdef0123456789abcdef"


def tool(*args: str) -> tuple[int, str]:
    done = subprocess.run(
        [sys.executable, "-I", "-S", str(TOOL), *args],
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=False,
    )
    return done.returncode, done.stdout


def gm_check(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["check-post", *args])
    return result.exit_code, result.stdout


def test_the_tool_imports_only_the_standard_library() -> None:
    tree = ast.parse(TOOL.read_text(encoding="utf-8"))
    names = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    names |= {n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert all(name.split(".")[0] in sys.stdlib_module_names for name in names - {"__future__"})
    assert tool("seed", "x", "0" * 64)[0] == 1  # it runs where gm cannot be imported


SEAL = canonical.seal("magot.order-set", PAYLOAD, SALT)
VECTORS = [
    ["seed", "graine du casse", "sha256:" + fortune.commitment("graine du casse")],
    ["seed", "graine du casse", fortune.commitment("graine du casse")[:8]],
    ["seed", "graine du casse", fortune.commitment("autre graine")],
    ["draws", "graine", "draw/1", "6", "10"],
    ["draws", "la-graine-secrète", "draw/5", "40,39,38,37,36"],
    ["draws", "graine", "draw/57", "1000", "3"],
    ["seal", "magot.order-set", json.dumps(PAYLOAD), SALT],
    ["seal", "magot.order-set", json.dumps(PAYLOAD), SALT, SEAL],
    ["seal", "magot.order-set", json.dumps(PAYLOAD), SALT, canonical.short(SEAL)],
    ["seal", "magot.order-set", json.dumps(PAYLOAD), SALT[::-1], canonical.short(SEAL)],
]


@pytest.mark.parametrize("args", VECTORS, ids=lambda a: " ".join(a)[:40])
def test_the_tool_and_gm_agree_on_fixed_vectors(args: list[str]) -> None:
    assert tool(*args) == gm_check(*args)


def test_the_vectors_are_what_gm_computes() -> None:
    assert tool(*VECTORS[0]) == (0, tool(*VECTORS[0])[1])
    assert tool(*VECTORS[2])[0] == 1
    assert "DIFFÉRENT" in tool(*VECTORS[2])[1] and "MISMATCH" in tool(*VECTORS[2])[1]
    assert tool(*VECTORS[3]) == (0, "[2, 5, 3, 3, 4, 2, 0, 4, 4, 3]\n")  # the README's
    draws = fortune.Fortune("la-graine-secrète", "draw/5")
    expected = [draws.below(n) for n in (40, 39, 38, 37, 36)]
    assert json.loads(tool(*VECTORS[4])[1]) == expected
    assert tool(*VECTORS[6]) == (0, SEAL + "\n")
    assert [tool(*v)[0] for v in VECTORS[7:]] == [0, 0, 1]


def test_a_mismatch_names_both_seals_in_french_and_english() -> None:
    code, out = tool(*VECTORS[9])
    wrong = canonical.short(canonical.seal("magot.order-set", PAYLOAD, SALT[::-1]))
    assert code == 1
    assert f"sceau recalculé {wrong} ≠ publié {canonical.short(SEAL)}" in out
    assert f"recomputed seal {wrong} ≠ published {canonical.short(SEAL)}" in out


def test_unreadable_input_exits_2() -> None:
    assert tool("seal", "k", "{not json", "s")[0] == 2
    assert tool("post", "/nonexistent/post.txt")[0] == 2
