"""The entry points installed distributions declare: how gm finds its games.

A game registers in the entry point group ``gm.games`` of its distribution
(``[project.entry-points."gm.games"]`` in its ``pyproject.toml``, ``magot =
"gm.games.magot"``), so a game installed from another distribution is found
as gm's own are. This module reads those declarations the way
``importlib.metadata.entry_points(group=...)`` does, from the same files: the
``entry_points.txt`` of every ``*.dist-info`` and ``*.egg-info`` folder on
``sys.path``, a distribution found twice (an editable install and a source
tree's metadata) counted once, where it is first on the path.

It does not import ``importlib.metadata``: that costs 25 to 35 ms (it brings
the ``email`` package, to read metadata gm does not need), a fifth of what
``gm --help`` and ``gm games`` may take (``bench/startup.py``), and both list
every game. ``tests/platform/test_game_package.py`` checks that both ways
read the same entry points.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterable, Iterator
from typing import NamedTuple

GAMES = "gm.games"
"""The group games register in."""

_METADATA = (".dist-info", ".egg-info")


class EntryPoint(NamedTuple):
    """One ``name = value`` line of a group, and who declared it (a named
    tuple: a frozen dataclass costs ``gm --help`` a millisecond more to define)."""

    name: str
    value: str
    distribution: str
    """The distribution's normalised name (``gm_forum``), as its folder names it."""
    folder: str
    """Its metadata folder: where to look when two of them disagree."""

    @property
    def module(self) -> str:
        """The module of ``module:attr [extras]``."""
        return self.value.split(":", 1)[0].strip()

    @property
    def attr(self) -> str | None:
        """The attribute of ``module:attr``, or None."""
        _, colon, attr = self.value.partition(":")
        return attr.split("[", 1)[0].strip() or None if colon else None


def normalized(name: str) -> str:
    """A distribution name as importlib.metadata compares them (PEP 503, with ``_``)."""
    return re.sub(r"[-_.]+", "_", name).lower()


def _metadata_folders(entry: str) -> Iterator[tuple[str, str]]:
    """``(normalised name, folder)`` of each distribution's metadata in one
    ``sys.path`` entry, in the order the folder lists them."""
    try:
        names = os.listdir(entry or ".")
    except OSError:  # a zip on the path, a folder gone: no metadata folders in it
        return
    for name in names:
        low = name.lower()
        if low.endswith(_METADATA):
            dist = low.rpartition(".")[0].partition("-")[0]
            yield normalized(dist), os.path.join(entry or ".", name)


def _parse(text: str, group: str) -> Iterator[tuple[str, str]]:
    """The ``name = value`` pairs of ``[group]`` in an ``entry_points.txt``."""
    section = None
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1].strip()
        elif section == group and "=" in line:
            name, value = line.split("=", 1)
            yield name.strip(), value.strip()


def entry_points(group: str, path: Iterable[str] | None = None) -> tuple[EntryPoint, ...]:
    """The entry points of ``group`` declared by the distributions on ``path``
    (``sys.path``), each distribution once."""
    seen: set[str] = set()
    found: list[EntryPoint] = []
    for entry in sys.path if path is None else path:
        for dist, folder in _metadata_folders(entry):
            if dist in seen:
                continue
            seen.add(dist)
            try:
                with open(os.path.join(folder, "entry_points.txt"), encoding="utf-8") as file:
                    text = file.read()
            except OSError:  # no entry points (most distributions), or not a folder
                continue
            found += (EntryPoint(n, v, dist, folder) for n, v in _parse(text, group))
    return tuple(found)
