"""The player's checks (``gm check-post``): the stand-alone checker, run by gm.

Players get ``tools/gm_check.py``, one file that needs only the Python
standard library (it never imports gm), so that checking a game never
depends on trusting the MJ's copy of gm. ``gm check-post`` runs that very
file, shipped inside the package as ``gm/tools/gm_check.py``, rather than a
second implementation that could drift; the tests compare the script's
seals, commitments and draws with gm's own (``gm.core.canonical``,
``gm.core.fortune``) on fixed vectors.
"""

from __future__ import annotations

import functools
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import gm


@functools.cache
def tool() -> ModuleType:
    """The stand-alone checker module, from the installed package or the source tree."""
    package = Path(gm.__file__).parent
    for path in (package / "tools" / "gm_check.py", package.parent / "tools" / "gm_check.py"):
        if path.exists():
            spec = importlib.util.spec_from_file_location("gm_check", path)
            assert spec is not None and spec.loader is not None
            module = importlib.util.module_from_spec(spec)
            # registered before it runs, as an import would: its dataclasses look it up
            sys.modules[spec.name] = module
            try:
                spec.loader.exec_module(module)
            except BaseException:
                del sys.modules[spec.name]
                raise
            return module
    raise FileNotFoundError("tools/gm_check.py is missing from this installation of gm")


def run(argv: list[str] | None = None) -> int:
    """Run the checker's command line (``thread``, ``post``, ``seed``, ``seal``,
    ``label``, ``draws``); its exit code (0, 1, 2 or 3: see the script)."""
    code: int = tool().run(argv)
    return code
