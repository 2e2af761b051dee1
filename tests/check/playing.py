"""Random legal games of every registered game, played as the conformance test plays them.

The players' checker is proved on the very games ``tests/conformance``
plays (``play_game``: inputs drawn from ``Game.legal_inputs`` alone, with
words for the fortune now and then and refused messages), then published
as protocol 3 does (``emulate``), so its tests know no game either.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]


def conformance() -> ModuleType:
    """``tests/conformance/test_games.py``, imported once under its own name."""
    name = "gm_conformance_games"
    if name not in sys.modules:
        path = ROOT / "tests" / "conformance" / "test_games.py"
        spec = importlib.util.spec_from_file_location(name, path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]
