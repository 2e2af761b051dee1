"""Run gm_check.py and its JavaScript port on the same arguments; say whether they agree.

    python tools/checker/compare.py ARGS...

runs ``python tools/gm_check.py ARGS...`` and ``node tools/checker/run.mjs
ARGS...`` (standard input, when an argument is ``-``, is read once and given
to both), then prints « same » or the differences: exit codes, and a unified
diff of standard output (standard error is shown, not compared: argparse's
and the port's usage messages may be worded differently). Exit code 0 when
stdout and exit code agree, 1 otherwise. A development tool: standard
library only.
"""

from __future__ import annotations

import difflib
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
TOOL = HERE.parent / "gm_check.py"
RUNNER = HERE / "run.mjs"


def run_both(
    args: list[str], stdin: str | None = None
) -> tuple[subprocess.CompletedProcess[str], ...]:
    """Python's then Node's completed process, on the same argv and input."""
    env = dict(os.environ, COLUMNS="80")  # argparse's help is laid out for 80 columns in the port
    common = {"input": stdin, "capture_output": True, "text": True, "encoding": "utf-8", "env": env}
    python = subprocess.run([sys.executable, "-I", "-S", str(TOOL), *args], check=False, **common)  # type: ignore[call-overload]
    node = subprocess.run(["node", str(RUNNER), *args], check=False, **common)  # type: ignore[call-overload]
    return python, node


def differences(
    python: subprocess.CompletedProcess[str], node: subprocess.CompletedProcess[str]
) -> list[str]:
    """What differs in stdout or exit code, as lines to print (none when they agree)."""
    out: list[str] = []
    if python.returncode != node.returncode:
        out.append(f"exit code: python {python.returncode}, node {node.returncode}")
    if python.stdout != node.stdout:
        out += difflib.unified_diff(
            python.stdout.splitlines(),
            node.stdout.splitlines(),
            "gm_check.py",
            "run.mjs",
            lineterm="",
        )
    return out


def main(argv: list[str]) -> int:
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__)
        return 0 if argv else 2
    stdin = sys.stdin.read() if "-" in argv else None
    python, node = run_both(argv, stdin)
    diff = differences(python, node)
    if not diff:
        print(f"same: exit code {python.returncode}, {len(python.stdout.splitlines())} lines")
        return 0
    print("\n".join(diff))
    for name, done in (("gm_check.py", python), ("run.mjs", node)):
        if done.stderr:
            print(f"--- {name} stderr:\n{done.stderr.rstrip()}")
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
