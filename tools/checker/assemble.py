"""Assemble the browser checker's one script from its source files.

The page (``gm checker``) and the Node runner (``run.mjs``) run the same
text: the files named in ``order.txt``, in that order, inside one function
scope, so a function declared in one file is seen by the others without a
module system (a page opened from ``file://`` cannot load modules). A file
not written yet is skipped, so the port can grow one file at a time.

Standard library only: ``gm`` loads this file by path, as it does
``gm_check.py``.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

HEAD = '(function (globalThis) {\n"use strict";\n'
TAIL = '})(typeof window !== "undefined" ? window : globalThis);\n'


def names(folder: Path = HERE) -> list[str]:
    order = (folder / "order.txt").read_text(encoding="utf-8").split()
    return [name for name in order if (folder / name).is_file()]


def script(folder: Path = HERE) -> str:
    """The whole script: LF line ends, no timestamp, so one gm version gives one text."""
    parts = [HEAD]
    for name in names(folder):
        text = (folder / name).read_text(encoding="utf-8").replace("\r\n", "\n")
        parts.append(f"// ===== {name} =====\n{text.rstrip()}\n")
    parts.append(TAIL)
    return "".join(parts)


if __name__ == "__main__":
    sys.stdout.write(script())
