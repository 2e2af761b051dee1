"""Shared test setup: Hypothesis profiles, an isolated environment for every test."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

# CI runs a fixed, bounded profile: derandomized so a red build can be
# reproduced, and capped so the suite stays well under the CI time limit.
settings.register_profile(
    "ci",
    derandomize=True,
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("dev", max_examples=100, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))


@pytest.fixture(autouse=True)
def _isolated(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> None:
    """No test reads the MJ's real database, campaign or templates."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / "data"))
    for var in ("GM_DB", "GM_CAMPAIGN", "GM_TEMPLATES"):
        monkeypatch.delenv(var, raising=False)
