"""The campaign's log as a timeline, in full (the MJ) or as one player may see it."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from typing import Any

from gm import games
from gm.core.campaign import visible_to
from gm.core.protocol import GM, Seat
from gm.service.clock import zone
from gm.service.env import Env
from gm.service.loading import Campaign, codec_for, is_platform, load
from gm.service.players import resolve_player
from gm.service.secrets import seal_of
from gm.store.records import StoredEvent


def timeline(
    env: Env, slug: str, viewer: str = GM, player: str | None = None
) -> list[dict[str, Any]]:
    """Every event ``viewer`` (a player's name, or ``GM``) may read, oldest
    first. The MJ sees everything.

    ``player``: only the events by or about that player (its actor, or the
    ``player`` of its payload). Events voided by ``gm undo`` are included,
    with ``"voided": true``. Each row says where the log was in each number
    the game counts in (``GameInfo.coordinates``: Le Magot's ``round``,
    Fistful of Gold's ``manche`` and ``duel``; ``None`` before the first). Players are
    shown by their current names (``actor``, ``audience``); the payload is
    as stored.
    """
    campaign = load(env, slug)
    seat = GM if viewer == GM else resolve_player(campaign, viewer)
    about = resolve_player(campaign, player) if player is not None else None
    return [row for *_, row in _rows(campaign, seat, about)]


def _rows(
    campaign: Campaign, seat: str, about: str | None
) -> Iterator[tuple[StoredEvent, str, str, dict[str, Any]]]:
    """The rows of ``timeline`` the seat ``seat`` (or ``GM``) may read, each
    with its record's actor and audience as seats."""
    codec = codec_for(campaign.game.id)
    name = campaign.meta.name
    # A newcomer does not read the private records of the person they replaced.
    since = campaign.meta.arrived.get(Seat(seat), 0) if seat != GM else 0
    # An event that does not say where it is (a pasted message, a word for
    # the fortune) belongs where the log was when it was recorded, in each
    # of the numbers the game counts in (its coordinates, outermost first).
    names = [c.name for c in games.info(campaign.game.id).coordinates]
    where: dict[str, Any] = dict.fromkeys(names)
    for record in campaign.records:
        payload = record.payload
        for i, key in enumerate(names):
            value = payload.get(key)
            if isinstance(value, int) and not isinstance(value, bool) and value != where[key]:
                where[key] = value
                # a new round starts with no turn yet, a new manche with no duel
                where |= dict.fromkeys(k for k in names[i + 1 :] if k not in payload)
        actor, audience = campaign.actor_of(record), campaign.audience_of(record)
        if not visible_to(audience, seat) or (audience == seat and record.seq < since):
            continue
        if about is not None and about not in (actor, campaign.player_of(record)):
            continue
        row = {
            "seq": record.seq,
            "recorded_at": record.recorded_at,
            "kind": record.kind,
            "actor": name(actor),
            "audience": name(audience),
            "source": record.source,
            "payload": record.payload,
            "salt": record.salt,
            "prev_hash": record.prev_hash,
            "hash": record.hash,
            "voided": record.seq in campaign.voided,
            # one command's events share it: the seq of its first event
            "batch": record.batch,
            # where the log was, in each of the game's coordinates
            **where,
            # The full seal of a secret (posts show its first 32 digits).
            "seal": seal_of(record)
            if not is_platform(record.kind) and codec.type_of(record.kind).sealed
            else None,
        }
        yield record, actor, audience, row


def player_archive(env: Env, slug: str, player: str, fmt: str | None = None) -> str:
    """A player's own archive, in French, as Markdown for the campaign's
    format (``gm history --as PLAYER``): every message they sent (accepted
    or refused), their words for the fortune, the seals of their secrets and
    what the MJ recorded for them, each with its date and round, and what
    ``gm undo`` voided. The MJ can forward it as it is."""
    from gm.service.posts import render_common

    campaign = load(env, slug)
    seat = resolve_player(campaign, player)
    since = campaign.meta.arrived.get(Seat(seat), 0)
    codec = codec_for(campaign.game.id)
    coordinates = games.info(campaign.game.id).coordinates
    tz = zone(campaign.meta.settings["tz"])
    entries: list[dict[str, Any]] = []
    for record, actor, audience, row in _rows(campaign, seat, None):
        kind, payload = row["kind"], row["payload"]
        at = datetime.fromisoformat(row["recorded_at"].replace("Z", "+00:00")).astimezone(tz)
        where = [{"label": c.label, "value": row[c.name]} for c in coordinates if row[c.name]]
        base = {"at": at.isoformat(), "where": where, "voided": row["voided"]}
        mine = audience == seat
        theirs = row["seq"] >= since and campaign.player_of(record) == seat
        if kind == "gm.submission-received" and mine:
            entries.append({**base, "what": "message", "text": payload["text"]})
        elif kind == "gm.submission-rejected" and mine:
            entries.append({**base, "what": "refused", "text": payload["text"]})
        elif kind == "gm.entropy-added" and theirs:
            entries.append({**base, "what": "word", "text": payload["word"]})
        elif kind == "gm.default-applied" and theirs:
            entries.append({**base, "what": "default"})
        elif row["seal"] and mine:
            entries.append({**base, "what": "sealed", "seal": row["seal"]})
        elif not is_platform(kind) and codec.type_of(kind).unseals and mine and actor != seat:
            entries.append({**base, "what": "withdrawn"})
    name = campaign.meta.name(seat)
    return render_common(campaign, "history", env.templates, player=name, entries=entries)
