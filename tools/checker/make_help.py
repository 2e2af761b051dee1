"""Write gm_check.py's ``--help`` texts into api.js (its ``const HELP = {…};``).

    python tools/checker/make_help.py

The port prints argparse's help as gm_check.py does (CPython 3.11, 80
columns); when gm_check.py's options or their help change, run this, then
tests/tools/checker/test_core_node.py compares both again. Standard library only.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
TOOL = HERE.parent / "gm_check.py"
API = HERE / "api.js"
COMMANDS = ("thread", "post", "seed", "seal", "label", "draws")


def help_texts() -> dict[str, str]:
    """`--help`'s stdout per parser ("" for gm_check itself), 80 columns wide."""
    env = dict(os.environ, COLUMNS="80")
    out = {}
    for key, args in [("", ["--help"]), *((c, [c, "--help"]) for c in COMMANDS)]:
        done = subprocess.run(
            [sys.executable, "-I", "-S", str(TOOL), *args],
            capture_output=True,
            text=True,
            encoding="utf-8",
            env=env,
            check=True,
        )
        out[key] = done.stdout
    return out


def main() -> int:
    body = (
        "{\n"
        + "".join(
            f"  {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)},\n"
            for k, v in help_texts().items()
        )
        + "}"
    )
    text = API.read_text(encoding="utf-8")
    new, count = re.subn(
        r"const HELP = \{\n.*?\n\};", lambda _: f"const HELP = {body};", text, flags=re.S
    )
    if count != 1:
        print(f"{API}: no `const HELP = {{…}};` block", file=sys.stderr)
        return 1
    API.write_text(new, encoding="utf-8")
    print(f"{API}: help texts {'updated' if new != text else 'already up to date'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
