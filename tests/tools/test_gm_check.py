"""tools/gm_check.py, the players' stand-alone checker, agrees with gm.

The script runs as a subprocess of the plain interpreter without ``site``
(``-I -S``): gm is not importable there, so the standard library is all it
has. Its seals, commitments, labels and draws are gm's own
(``gm.core.canonical``, ``gm.core.fortune``) on fixed vectors, and its output
is ``gm check-post``'s. A seal of fewer than 32 hex digits (an older post's 8)
is no proof: exit 3, never 0.
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
CARD = {"_v": 2, "manche": 2, "duel": 3, "player": "Django", "card": "dynamite"}
CARD_SEAL = canonical.seal("fistful.card-played", CARD, SALT)
WORDS = [("fab", "tequila"), ("Élodie", "Chicago 1929"), ("l'As", "x_y.z-1")]
VECTORS = [
    ["seed", "graine du casse", "sha256:" + fortune.commitment("graine du casse")],
    ["seed", "graine du casse", fortune.commitment("graine du casse")[:8]],
    ["seed", "graine du casse", fortune.commitment("autre graine")],
    ["draws", "graine", "draw/1", "6", "10"],
    ["draws", "la-graine-secrète", "round-5/bills", "40,39,38,37,36"],
    ["draws", "graine", "roll/57+" + fortune.mix(WORDS), "1000", "3"],
    ["seal", "magot.order-set", json.dumps(PAYLOAD), SALT],
    ["seal", "magot.order-set", json.dumps(PAYLOAD), SALT, SEAL],
    ["seal", "magot.order-set", json.dumps(PAYLOAD), SALT, canonical.short(SEAL, 8)],
    ["seal", "magot.order-set", json.dumps(PAYLOAD), SALT[::-1], canonical.short(SEAL, 8)],
    ["seal", "magot.order-set", json.dumps(PAYLOAD), SALT, canonical.short(SEAL, 32)],
    ["seal", "fistful.card-played", json.dumps(CARD), SALT, canonical.short(CARD_SEAL, 32)],
    ["seal", "fistful.card-played", json.dumps(CARD), SALT, canonical.short(SEAL, 32)],
    ["label", "round-3/bills", *[x for pair in WORDS for x in pair]],
    ["label", "roll/2"],
]


@pytest.mark.parametrize("args", VECTORS, ids=lambda a: " ".join(a)[:40])
def test_the_tool_and_gm_agree_on_fixed_vectors(args: list[str]) -> None:
    assert tool(*args) == gm_check(*args)


def test_the_vectors_are_what_gm_computes() -> None:
    assert tool(*VECTORS[0]) == (0, tool(*VECTORS[0])[1])
    assert tool(*VECTORS[1])[0] == 3  # 8 digits: 32 bits, no proof
    assert "sceau du hasard court (32 bits) : pas une preuve" in tool(*VECTORS[1])[1]
    assert tool(*VECTORS[2])[0] == 1
    assert "DIFFÉRENT" in tool(*VECTORS[2])[1] and "MISMATCH" in tool(*VECTORS[2])[1]
    assert tool(*VECTORS[3]) == (0, "[2, 5, 3, 3, 4, 2, 0, 4, 4, 3]\n")  # the README's
    draws = fortune.Fortune("la-graine-secrète", "round-5/bills")
    expected = [draws.below(n) for n in (40, 39, 38, 37, 36)]
    assert json.loads(tool(*VECTORS[4])[1]) == expected
    mixed = fortune.Fortune("graine", fortune.label_for("roll/57", WORDS))
    assert json.loads(tool(*VECTORS[5])[1]) == [mixed.below(1000) for _ in range(3)]
    assert tool(*VECTORS[6]) == (0, SEAL + "\n")
    assert [tool(*v)[0] for v in VECTORS[7:13]] == [0, 3, 1, 0, 0, 1]
    assert "sceau court (32 bits) : pas une preuve" in tool(*VECTORS[8])[1]
    assert tool(*VECTORS[13]) == (0, fortune.label_for("round-3/bills", WORDS) + "\n")
    assert tool(*VECTORS[14]) == (0, "roll/2\n")


def test_a_seal_is_compared_on_every_digit_given() -> None:
    """32 digits at least, and all of them: a seal right on its first 31
    digits and wrong on the 32nd is a mismatch."""
    full = SEAL.removeprefix("sha256:")
    wrong = full[:31] + ("0" if full[31] != "0" else "1")
    code, out = tool("seal", "magot.order-set", json.dumps(PAYLOAD), SALT, wrong)
    assert code == 1 and f"≠ publié {wrong}" in out
    longer = full[:40] + ("0" if full[40] != "0" else "1") + full[41:]
    assert tool("seal", "magot.order-set", json.dumps(PAYLOAD), SALT, longer)[0] == 1
    assert tool("seal", "magot.order-set", json.dumps(PAYLOAD), SALT, full)[0] == 0


def test_a_mismatch_names_both_seals_in_french_and_english() -> None:
    code, out = tool(*VECTORS[9])
    # An old 8-digit seal: the recomputed one is shown at the same length.
    wrong = canonical.short(canonical.seal("magot.order-set", PAYLOAD, SALT[::-1]), 8)
    assert code == 1
    assert f"sceau recalculé {wrong} ≠ publié {canonical.short(SEAL, 8)}" in out
    assert f"recomputed seal {wrong} ≠ published {canonical.short(SEAL, 8)}" in out


def test_unreadable_input_exits_2(tmp_path: Path) -> None:
    assert tool("seal", "k", "{not json", "s")[0] == 2
    assert tool("post", "/nonexistent/post.txt")[0] == 2
    assert tool("seed", "graine", "pas-un-sceau")[0] == 2
    assert tool("label", "roll/1", "fab")[0] == 2
    empty = tmp_path / "vide.txt"
    empty.write_text("", encoding="utf-8")
    assert tool("post", str(empty))[0] == 2
    empty.write_text("Bonjour, rien d'un message de gm ici.\n", encoding="utf-8")
    assert tool("post", str(empty))[0] == 2
    assert tool("thread", str(empty))[0] == 2


def test_the_exit_codes_are_in_the_help() -> None:
    for args in (["--help"], ["post", "--help"], ["thread", "--help"]):
        code, out = tool(*args)
        assert code == 0
        for line in (
            "0  everything checked matched",
            "1  a mismatch",
            "2  unreadable input",
            "3  nothing contradicted",
        ):
            assert line in out, (args, out)
    doc = ast.get_docstring(ast.parse(TOOL.read_text(encoding="utf-8"))) or ""
    assert "Exit codes" in doc and "3: nothing contradicted" in doc
