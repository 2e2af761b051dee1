"""Rebuild a campaign from its log: the platform meta and the game state.

State is the fold of the log. Platform events (``gm.*``) fold into ``Meta``;
game events fold through the game's ``evolve``. Nothing is cached between
commands: the log is the source of truth, and folding a long campaign is
fast (see ``bench/``).

``gm undo`` appends ``EventsVoided``: from that event on, the fold skips the
voided events (platform and game events alike). They stay in ``records`` (and
the chain); ``Campaign.voided`` names them. A fold of a log prefix that ends
before the undo still sees them, which is how ``gm verify`` re-renders a post
made before an undo.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from gm import games
from gm.core.campaign import PLATFORM_EVENTS, CampaignCreated, EventsVoided, Meta, evolve_meta
from gm.core.canonical import seal
from gm.core.codec import EventCodec
from gm.core.protocol import Event, Game
from gm.errors import ChainIntegrityError
from gm.store.log import StoredEvent


@functools.cache
def codec_for(game_id: str) -> EventCodec:
    """The codec that knows the platform's events and one game's events."""
    return EventCodec([*PLATFORM_EVENTS, *games.load(game_id).events])


@dataclass(frozen=True)
class Campaign:
    """A campaign as of one point of its log."""

    slug: str
    game: Game
    meta: Meta
    state: Any
    seq: int
    head: str | None
    records: tuple[StoredEvent, ...]
    """Every event of the log, voided ones included."""
    voided: frozenset[int] = frozenset()
    """The seqs of the events that ``EventsVoided`` events of ``records`` void."""
    chance: frozenset[int] = frozenset()
    """The seqs of the events that drew from the fortune (``Event.drew_chance``)."""

    @property
    def draws(self) -> int:
        """How many fortune draws the campaign has made: the next one reads
        the stream ``draw/<draws + 1>``. Counting draws, not events, means no
        other event (a setting, a refused order, an undo) can shift the
        stream a draw reads, so the MJ cannot fish for luck with previews."""
        return len(self.chance - self.voided)

    @property
    def live(self) -> tuple[StoredEvent, ...]:
        """The records that count: ``records`` without the voided ones."""
        return tuple(r for r in self.records if r.seq not in self.voided)

    def replay(self, events: Iterable[Event]) -> Any:
        """The game state after applying ``events`` (platform events are skipped)."""
        state = self.state
        for event in events:
            if not event.kind.startswith("gm."):
                state = self.game.evolve(state, event)
        return state


def orders_in_force(campaign: Campaign, round_: int) -> dict[str, StoredEvent]:
    """Each player's sealed order in force for ``round_``: their latest sealed
    event of that round not followed by one that unseals it (a withdrawal)."""
    codec = codec_for(campaign.game.id)
    current: dict[str, StoredEvent] = {}
    for record in campaign.live:
        if record.kind.startswith("gm.") or record.payload.get("round") != round_:
            continue
        cls = codec.type_of(record.kind)
        player = record.payload.get("player")
        if cls.sealed and isinstance(player, str):
            current[player] = record
        elif cls.unseals and isinstance(player, str):
            current.pop(player, None)
    return current


def record_seal(record: StoredEvent) -> str:
    """The published commitment to a sealed event (``gm.core.canonical.seal``)."""
    return seal(record.kind, record.payload, record.salt)


def decode(game_id: str, record: StoredEvent) -> Event:
    return codec_for(game_id).decode(record.kind, record.payload)


def fold(slug: str, game_id: str, records: Sequence[StoredEvent]) -> Campaign:
    """Fold stored events into a ``Campaign``.

    :raises ChainIntegrityError: if the log does not start with the campaign's creation.
    """
    if not records or records[0].kind != CampaignCreated.kind:
        raise ChainIntegrityError(f"campaign {slug!r}: the log does not start with its creation")
    return _fold_onto(slug, games.load(game_id), None, None, (), records, voided_by(records))


def extend(campaign: Campaign, records: Sequence[StoredEvent]) -> Campaign:
    """The campaign after newly appended ``records``, without refolding its past."""
    if not records:
        return campaign
    fresh = voided_by(records)
    if fresh:  # an undo changes the past: fold again from the start
        everything = (*campaign.records, *records)
        return _fold_onto(
            campaign.slug, campaign.game, None, None, (), everything, voided_by(everything)
        )
    return _fold_onto(
        campaign.slug,
        campaign.game,
        campaign.meta,
        campaign.state,
        campaign.records,
        records,
        campaign.voided,
        campaign.chance,
    )


def voided_by(records: Sequence[StoredEvent]) -> frozenset[int]:
    """The seqs that the ``EventsVoided`` events among ``records`` void."""
    out: set[int] = set()
    for record in records:
        if record.kind == EventsVoided.kind:
            out.update(range(record.payload["first_seq"], record.payload["last_seq"] + 1))
    return frozenset(out)


def _fold_onto(
    slug: str,
    game: Game,
    meta: Meta | None,
    state: Any,
    past: tuple[StoredEvent, ...],
    records: Sequence[StoredEvent],
    voided: frozenset[int],
    chance: frozenset[int] = frozenset(),
) -> Campaign:
    codec = codec_for(game.id)
    drawn = set(chance)
    for record in records:
        event = codec.decode(record.kind, record.payload)
        if event.drew_chance():
            drawn.add(record.seq)
        if record.seq in voided:
            continue
        if record.kind.startswith("gm."):
            meta = evolve_meta(meta, event)
            if isinstance(event, CampaignCreated):
                state = game.initial_state(event.players, event.options)
        else:
            state = game.evolve(state, event)
    assert meta is not None  # the first record is CampaignCreated
    last = records[-1]
    return Campaign(
        slug, game, meta, state, last.seq, last.hash, (*past, *records), voided, frozenset(drawn)
    )
