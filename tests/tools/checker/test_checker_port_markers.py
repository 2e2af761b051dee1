"""The JavaScript port follows gm_check.py def by def (tools/checker/PORTING.md).

Every function, class and method of ``tools/gm_check.py`` has its
``// gm_check.py: <name>`` marker in ``tools/checker/*.js``, so a check
added in Python without its port fails here; and every marker names
something ``gm_check.py`` still has, so a port of a removed check fails too.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def python_names() -> tuple[list[str], set[str]]:
    """The defs (``Class.method`` for methods) and every name defined at module level."""
    tree = ast.parse((ROOT / "tools" / "gm_check.py").read_text(encoding="utf-8"))
    defs: list[str] = []
    known: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.ClassDef):
            defs.append(node.name)
            known.add(node.name)
            if isinstance(node, ast.ClassDef):
                for item in node.body:
                    if isinstance(item, ast.FunctionDef):
                        defs.append(f"{node.name}.{item.name}")
                        known.add(item.name)
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            known |= {t.id for t in targets if isinstance(t, ast.Name)}
    # functions nested in a def (read_source's close, run's common) have markers too
    known |= {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
    return defs, known


def markers() -> set[str]:
    text = "".join(p.read_text(encoding="utf-8") for p in (ROOT / "tools" / "checker").glob("*.js"))
    return set(re.findall(r"// gm_check\.py: ([\w.]+)", text))


def test_every_python_def_has_its_port() -> None:
    defs, _ = python_names()
    found = markers()
    missing = [d for d in defs if d not in found and d.split(".")[-1] not in found]
    assert not missing, (
        f"defs of gm_check.py without a « // gm_check.py: NAME » marker in the port: {missing}"
    )


def test_every_marker_names_something_gm_check_has() -> None:
    _, known = python_names()
    stale = sorted(m for m in markers() if m.split(".")[-1] not in known)
    assert not stale, f"markers for names gm_check.py no longer has: {stale}"
