"""``gm play``'s rehearsal runs in a throw-away database that need not survive
a power cut, so its commits do not wait for the disk; ``gm play --keep``
plays there too, then copies the game into the MJ's own database with its
durability settings."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from support import Gm

from gm.service import scenario
from gm.service.env import Env
from gm.service.scenario import Played
from gm.store import transfer
from gm.store.log import Writer
from gm.store.records import CampaignInfo
from gm.store.transfer import CampaignCopy

GAME = Path(__file__).parents[2] / "campaigns" / "exemple-magot.toml"


def _durability(conn: Any) -> str:
    """How a connection commits (see tests/store/test_db.py)."""
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
    # Both are played in a throw-away database; --keep then copies the game
    # into the MJ's, which keeps its durability settings.
    played: list[str] = []
    kept: list[str] = []
    real_play, real_restore = scenario.play, transfer.restore

    def play(env: Env, path: Path) -> Played:
        result = real_play(env, path)
        with env.store.engine.connect() as conn:
            played.append(_durability(conn))
        return result

    def restore(writer: Writer, copy: CampaignCopy, slug: str | None = None) -> CampaignInfo:
        kept.append(_durability(writer._conn))
        return real_restore(writer, copy, slug)

    monkeypatch.setattr(scenario, "play", play)
    monkeypatch.setattr(transfer, "restore", restore)
    gm = Gm(db)
    gm("play", str(GAME))
    gm("play", str(GAME), "--keep")
    assert played == ["sqlite synchronous=0", "sqlite synchronous=0"]
    assert kept == ["server" if db.startswith("postgresql") else "sqlite synchronous=2"]
