"""The campaign's log as a timeline, in full (the MJ) or as one player may see it."""

from __future__ import annotations

from typing import Any

from gm.core.campaign import visible_to
from gm.core.protocol import GM
from gm.service.actions import load, resolve_player
from gm.service.env import Env


def timeline(env: Env, slug: str, viewer: str = GM) -> list[dict[str, Any]]:
    """Every event ``viewer`` may read, oldest first. The MJ sees everything."""
    campaign = load(env, slug)
    if viewer != GM:
        viewer = resolve_player(campaign, viewer)
    out = []
    for record in campaign.records:
        if not visible_to(record.audience, viewer):
            continue
        out.append(
            {
                "seq": record.seq,
                "recorded_at": record.recorded_at,
                "kind": record.kind,
                "actor": record.actor,
                "audience": record.audience,
                "source": record.source,
                "payload": record.payload,
                "salt": record.salt,
                "prev_hash": record.prev_hash,
                "hash": record.hash,
            }
        )
    return out
