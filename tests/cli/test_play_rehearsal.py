"""``gm play``'s rehearsal runs in a throw-away database that need not survive
a power cut, so its commits do not wait for the disk; ``gm play --keep``
writes to the MJ's own database with its durability settings."""

from __future__ import annotations

from pathlib import Path

import pytest
from support import Gm

from gm.service import scenario
from gm.service.env import Env
from gm.service.scenario import Played

GAME = Path(__file__).parents[2] / "campaigns" / "exemple-magot.toml"


def _durability(env: Env) -> str:
    """How the store the game was played in commits (see tests/store/test_db.py)."""
    with env.store.engine.connect() as conn:
        if conn.dialect.name == "sqlite":
            return f"sqlite synchronous={conn.exec_driver_sql('PRAGMA synchronous').scalar()}"
        setting, source = conn.exec_driver_sql(
            "SELECT setting, source FROM pg_settings WHERE name = 'synchronous_commit'"
        ).one()
        return "server" if source not in ("client", "session") else f"session {setting}"


@pytest.mark.durable
def test_a_rehearsal_does_not_wait_for_the_disk_but_a_kept_game_does(
    db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[str] = []
    real = scenario.play

    def spy(env: Env, path: Path) -> Played:
        played = real(env, path)
        seen.append(_durability(env))
        return played

    monkeypatch.setattr(scenario, "play", spy)
    gm = Gm(db)
    gm("play", str(GAME))
    gm("play", str(GAME), "--keep")
    kept = "server" if db.startswith("postgresql") else "sqlite synchronous=2"
    assert seen == ["sqlite synchronous=0", kept]
