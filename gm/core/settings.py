"""The campaign settings gm knows and their closed sets of values, for the
core (``gm.core.campaign``): they live in ``gm.manifest``, which the command
line's options read without importing the core (``gm --help`` stays light)."""

from __future__ import annotations

from gm.manifest import DEFAULT_SETTINGS as DEFAULT_SETTINGS
from gm.manifest import SETTINGS as SETTINGS
