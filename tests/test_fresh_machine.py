"""The README's test command passes on a fresh machine: without psycopg and
without a PostgreSQL server, the tests that need them skip and say why; and
CI's PostgreSQL pass (``GM_TEST_REQUIRE_POSTGRESQL=1``) refuses to run
without them rather than skip (``.ci/run``)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from support import PG_ENV

ROOT = Path(__file__).resolve().parents[1]

# Run pytest as if psycopg were not installed: None in sys.modules makes
# every "import psycopg" raise ImportError.
WITHOUT_PSYCOPG = (
    "import sys; sys.modules['psycopg'] = None; import pytest; sys.exit(pytest.main(sys.argv[1:]))"
)


def pytest_run(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {
        k: v
        for k, v in os.environ.items()
        if k not in (PG_ENV, "GM_TEST_REQUIRE_POSTGRESQL", "PYTEST_ADDOPTS")
    }
    return subprocess.run(
        [sys.executable, "-c", WITHOUT_PSYCOPG, "-p", "no:cacheprovider", "-rs", *args],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
    )


def test_the_tests_of_postgresql_skip_without_psycopg_or_a_server() -> None:
    """Every test marked postgresql, run where neither exists: each passes or
    skips with its reason, none fails. (The rest of the suite never needs
    them: .ci/run runs it all in a virtualenv without psycopg.)"""
    run = pytest_run("-m", "postgresql")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "needs psycopg, PostgreSQL's driver" in run.stdout
    assert f"PostgreSQL tests need {PG_ENV}" in run.stdout


def test_ci_postgresql_pass_refuses_to_skip() -> None:
    run = pytest_run("-m", "postgresql", GM_TEST_REQUIRE_POSTGRESQL="1")
    assert run.returncode == 4, run.stdout + run.stderr  # pytest's usage error
    assert f"needs a PostgreSQL server: set {PG_ENV}" in run.stderr
    run = pytest_run(
        "-m",
        "postgresql",
        GM_TEST_REQUIRE_POSTGRESQL="1",
        **{PG_ENV: "postgresql+psycopg://gm@127.0.0.1:1/postgres"},
    )
    assert run.returncode == 4, run.stdout + run.stderr
    assert "needs psycopg: pip install -e '.[postgresql]'" in run.stderr
