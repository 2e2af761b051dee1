"""Games from other distributions, installed for the tests that play them.

``tests/games_dist/<name>/`` is a distribution as a third party would publish
one: a package, its data, and a ``pyproject.toml`` that registers the game in
the entry point group ``gm.games``. ``installed(name)`` makes it installed
for as long as a test needs it, the way pip leaves a distribution for
``importlib.metadata``: its metadata folder (``gm_toss.egg-info``, with its
``entry_points.txt``), built by setuptools from its own ``pyproject.toml``,
and its package, both on ``sys.path``. gm then finds the game through the
entry point, as it would a game installed with ``pip install``; nothing in
gm or in its registry names it.

The metadata is built once per process into a temporary folder (pip itself
would write into the test environment, which other runs share); it needs
only setuptools, which building gm needs anyway, and no network.
"""

from __future__ import annotations

import atexit
import functools
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

DISTS = Path(__file__).resolve().parent / "games_dist"


@functools.cache
def metadata(name: str) -> Path:
    """The folder holding the metadata of ``games_dist/<name>``, as setuptools builds it."""
    out = Path(tempfile.mkdtemp(prefix=f"gm-dist-{name}-"))
    atexit.register(shutil.rmtree, out, ignore_errors=True)
    build = "from setuptools import setup; setup()"
    done = subprocess.run(
        [sys.executable, "-c", build, "-q", "egg_info", "--egg-base", str(out)],
        cwd=DISTS / name,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert list(out.glob("*.egg-info/entry_points.txt")), f"{name} declares no entry point"
    return out


@contextmanager
def installed(name: str) -> Iterator[None]:
    """``games_dist/<name>`` installed while inside: its metadata and its package on ``sys.path``."""
    entries = [str(metadata(name)), str(DISTS / name)]
    sys.path[:0] = entries
    try:
        yield
    finally:
        for entry in entries:
            sys.path.remove(entry)
