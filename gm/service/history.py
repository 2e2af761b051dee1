"""The campaign's log as a timeline, in full (the MJ) or as one player may see it."""

from __future__ import annotations

from typing import Any

from gm.core.campaign import visible_to
from gm.core.protocol import GM
from gm.service.actions import resolve_player
from gm.service.env import Env
from gm.service.loading import codec_for, is_platform, load
from gm.service.secrets import seal_of


def timeline(
    env: Env, slug: str, viewer: str = GM, player: str | None = None
) -> list[dict[str, Any]]:
    """Every event ``viewer`` may read, oldest first. The MJ sees everything.

    ``player``: only the events by or about that player (its actor, or the
    ``player`` of its payload). Events voided by ``gm undo`` are included,
    with ``"voided": true``. Each row says the round, manche and duel the log
    was in (``None`` for a game that does not count in them).
    """
    campaign = load(env, slug)
    if viewer != GM:
        viewer = resolve_player(campaign, viewer)
    about = resolve_player(campaign, player) if player is not None else None
    codec = codec_for(campaign.game.id)
    out = []
    # An event without a round (a pasted message, a word for the fortune)
    # belongs to the round the log was in when it was recorded; so with the
    # manche and the duel of a game that counts in them (Fistful of Gold).
    where: dict[str, Any] = {"round": None, "manche": None, "duel": None}
    for record in campaign.records:
        payload = record.payload
        if "manche" in payload and payload["manche"] != where["manche"]:
            where["duel"] = None  # a new manche starts with no duel yet
        where |= {k: payload[k] for k in where if isinstance(payload.get(k), int)}
        if not visible_to(record.audience, viewer):
            continue
        if about is not None and about not in (record.actor, record.payload.get("player")):
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
                "voided": record.seq in campaign.voided,
                # one command's events share it: the seq of its first event
                "batch": record.batch,
                "round": where["round"],
                "manche": where["manche"],
                "duel": where["duel"],
                # The full seal of a secret (posts show its first 32 digits).
                "seal": seal_of(record)
                if not is_platform(record.kind) and codec.type_of(record.kind).sealed
                else None,
            }
        )
    return out
