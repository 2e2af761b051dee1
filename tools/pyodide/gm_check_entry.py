"""The browser page's entry point into today's checker, ``tools/gm_check.py``.

The page (``gm checker --python``, built by ``gm.service.browser_check``)
calls one function, ``main(argv, stdin) -> (exit code, text)``: the text
is what ``python gm_check.py ARGV < STDIN`` prints, its standard output and
its standard error in the order they were written, as a terminal shows
them. This adapter runs ``gm_check.run`` behind that contract until the
checker that replays the rules with gm's own packages takes its place (the
builder's ``ENTRY_MODULE`` names whichever module the page calls).
"""

from __future__ import annotations

import contextlib
import io
import sys

import gm_check


def main(argv: list[str], stdin: str) -> tuple[int, str]:
    """Run ``gm_check`` on ``argv`` with ``stdin`` as its standard input."""
    out = io.StringIO()
    saved = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            try:
                code = gm_check.run(list(argv))
            except SystemExit as exit_:  # argparse: a usage error, or --help
                code = 0 if exit_.code is None else exit_.code if isinstance(exit_.code, int) else 2
    finally:
        sys.stdin = saved
    return code, out.getvalue()
