"""Rebuild a campaign from its log: the platform meta, the game state, the secrets.

State is the fold of the log. Platform events (``gm.*``) fold into ``Meta``;
game events fold through the game's ``evolve``; sealed events fold into the
secrets in force (``Campaign.secrets``). The log is the source of truth.

One process may run many commands on a campaign (``gm play`` runs a whole
game): ``latest`` keeps, per ``Store`` object, the last campaign this
process folded or committed, and hands it back only if the log's last seq
and hash, read in the caller's transaction, are still its own; anything
else (another process or ``Store`` appended, a rollback, a new campaign
under the slug) starts from the campaign's snapshot (``gm.service.snapshots``:
its fold at one event, kept beside the log) and folds the events after it,
or folds the log from its first event when it has none that stands for its
log. A command that appended hands its result to ``remember`` once
committed, so the next one starts from it (``extend`` folds only the new
records, ``advance`` takes what the command already folded, and an undo
among them refolds everything). ``gm verify`` (``gm.service.audit``)
always folds from scratch.

``gm undo`` appends ``EventsVoided``: from that event on, the fold skips the
voided events (platform and game events alike). They stay in ``records`` (and
the chain); ``Campaign.voided`` names them. A fold of a log prefix that ends
before the undo still sees them, which is how ``gm verify`` re-renders a post
made before an undo.

Players are seats throughout (``gm.core.protocol.Seat``): a rename or a
replacement changes the roster in ``Meta`` and nothing else. A log written
before protocol 3 recorded, after such a change, the name of that moment
where the seat belongs; the fold keeps the map from those names to seats as
the roster events go by (``Meta.legacy_seats``) and decodes every event
through it, and reads the records' actor and audience through it too
(``Campaign.actor_of``, ``Campaign.audience_of``). The stored bytes are
never rewritten.

A log that does not fold (a payload that does not fit its kind, an unknown
kind, an undo of events that do not precede it) raises
``ChainIntegrityError`` naming the seq, never a traceback: an imported file
is checked the same way before anything is written.
"""

from __future__ import annotations

import functools
import weakref
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import TYPE_CHECKING, Any

from gm import games
from gm.core.campaign import (
    PLATFORM_EVENTS,
    CampaignCreated,
    ChanceDrawn,
    DeadlineSet,
    DiceRolled,
    EntropyAdded,
    EventsVoided,
    FortuneSealed,
    GenderSet,
    Meta,
    SeatsAdopted,
    SettingChanged,
    evolve_meta,
)
from gm.core.codec import CommandCodec, EventCodec, PayloadError
from gm.core.platform import PLATFORM_COMMANDS
from gm.core.protocol import Event, Game, SecretKey, Table
from gm.core.roster import ROSTER_EVENTS, PlayerReplaced, evolve_roster
from gm.errors import ChainIntegrityError, GMError
from gm.service.timeline import Index, Keyer, Log
from gm.store.records import CampaignInfo, Snapshot, StoredEvent, damaged

if TYPE_CHECKING:
    from gm.service.env import Env
    from gm.store.log import Reader, Store


@functools.cache
def codec_for(game_id: str) -> EventCodec:
    """The codec that knows the platform's events and one game's events."""
    return EventCodec([*PLATFORM_EVENTS, *ROSTER_EVENTS, *games.load(game_id).events])


@functools.cache
def commands_for(game_id: str) -> CommandCodec:
    """The codec that knows the platform's commands and one game's commands."""
    return CommandCodec([*PLATFORM_COMMANDS, *games.load(game_id).commands])


_META_EVENTS: tuple[type[Event], ...] = (
    CampaignCreated,
    FortuneSealed,
    DeadlineSet,
    SettingChanged,
    DiceRolled,
    EventsVoided,
    EntropyAdded,
    ChanceDrawn,
    GenderSet,
    SeatsAdopted,
    *ROSTER_EVENTS,
)
FOLDED_KINDS: frozenset[str] = frozenset(e.kind for e in _META_EVENTS)
"""The platform's kinds that change the meta when folded (``evolve_meta``,
``evolve_roster``, an undo); the platform's other kinds fold into nothing."""


def is_platform(kind: str) -> bool:
    """Whether an event or command kind is the platform's (``gm.…``), not the game's."""
    return kind.startswith("gm.")


@dataclass(frozen=True)
class Secret:
    """A secret in force: the sealed record, its key and its key's fields."""

    key: SecretKey
    fields: Mapping[str, Any]
    owner: str
    record: StoredEvent


@dataclass(frozen=True)
class Campaign:
    """A campaign as of one point of its log."""

    slug: str
    game: Game
    meta: Meta
    state: Any
    seq: int
    head: str | None
    log: Log = field(compare=False)
    """The log's records, voided ones included (``gm.service.timeline``):
    all in memory, or those after a snapshot, the rest read when asked."""
    voided: frozenset[int] = frozenset()
    """The seqs of the events that ``EventsVoided`` events of ``records`` void."""
    secrets: Mapping[SecretKey, Secret] = field(default_factory=dict)
    """The secrets in force, by key, in the order they were first sealed."""
    seated: Mapping[int, tuple[str, str, str | None]] = field(default_factory=dict)
    """An old log's records that hold a name of the moment as their actor,
    their audience or their payload's ``player``: seq → those three as seats."""

    @property
    def table(self) -> Table:
        """The players as the game gets them (seats, current names, genders)."""
        return self.meta.table

    def actor_of(self, record: StoredEvent) -> str:
        """The seat (or ``GM``) a record was recorded for."""
        return self.seated[record.seq][0] if record.seq in self.seated else record.actor

    def audience_of(self, record: StoredEvent) -> str:
        """Who may read a record: ``*``, ``GM`` or a seat."""
        return self.seated[record.seq][1] if record.seq in self.seated else record.audience

    def player_of(self, record: StoredEvent) -> str | None:
        """The seat a record's payload names as its ``player``, if it names one."""
        if record.seq in self.seated:
            return self.seated[record.seq][2]
        player = record.payload.get("player")
        return player if isinstance(player, str) else None

    @property
    def records(self) -> tuple[StoredEvent, ...]:
        """Every event of the log, voided ones included (a campaign rebuilt
        from a snapshot reads the ones before it from the store, once): for
        what needs the whole log, ``gm history`` or ``gm undo``. What posts
        need of it is in ``index``."""
        return self.log.all()

    def index(self) -> Index:
        """The draws, rolls, seed and unopened secrets of the whole log."""
        return self.log.index()

    @functools.cached_property
    def live(self) -> tuple[StoredEvent, ...]:
        """The records that count: ``records`` without the voided ones."""
        # Cached (a campaign never changes): every post rendered reads it.
        if not self.voided:
            return self.records
        return tuple(r for r in self.records if r.seq not in self.voided)

    @property
    def over(self) -> bool:
        return bool(self.game.is_over(self.state))

    def deadline(self) -> datetime | None:
        """The deadline of the phase the game is in, if one was set for it."""
        set_for = self.meta.deadline
        if set_for is None or set_for.phase != self.game.phase(self.state):
            return None
        return datetime.fromisoformat(set_for.at)

    def replay(self, events: Iterable[Event]) -> Any:
        """The game state after applying ``events`` (platform events are skipped)."""
        state = self.state
        for event in events:
            if not is_platform(event.kind):
                state = self.game.evolve(state, event)
        return state


def load(env: Env, slug: str) -> Campaign:
    """The campaign as its log stands now (read-only, but for its snapshot:
    when the campaign had none that stood for its log, one is written if no
    other gm is writing, without waiting)."""
    store = env.store
    with store.read() as r:
        info = r.campaign(slug)
        campaign = latest(store, r, info)
    if campaign.head is not None and snapshot_due(store, campaign):
        _keep(store, [(info, campaign)])
    return campaign


def load_all(env: Env) -> list[tuple[CampaignInfo, Campaign | GMError]]:
    """Every campaign as its log stands (``gm list``), or why it cannot be
    read: each from its snapshot, every snapshot and every log's last event
    read in one query each, and the events after a snapshot only where the
    log has grown since. A campaign folded from its first event (no usable
    snapshot) gets one, all in one unit of work, if nobody is writing."""
    store = env.store
    out: list[tuple[CampaignInfo, Campaign | GMError]] = []
    unused: list[tuple[str, str]] = []
    with store.read() as r:
        infos = r.campaigns()
        tips = r.tips()
        stored = r.snapshots() if store.snapshots else {}
        for info in infos:
            seq, head = tips.get(info.id, (0, None))
            try:
                campaign = _from_snapshot(
                    store, r, info, seq, head, stored.get(info.id), unused
                ) or fold(info.slug, info.game, r.events(info.slug))
            except GMError as err:
                out.append((info, err))
                continue
            out.append((info, campaign))
    if unused:
        whys = sorted({why for _, why in unused})
        shown = ", ".join(slug for slug, _ in unused[:5]) + (", …" if len(unused) > 5 else "")
        store.notes.append(
            f"The snapshots of {len(unused)} campaign(s) were not used ({shown}):"
            f" {'; '.join(whys)}. Their logs were folded from the first event, and new"
            " snapshots written (a snapshot only saves time: nothing else changes)."
        )
    written = _SNAPSHOT_AT.get(store, {})
    _keep(
        store,
        [
            (info, loaded)
            for info, loaded in out
            if isinstance(loaded, Campaign)
            and loaded.head is not None
            and written.get(info.slug) != loaded.seq
        ],
    )
    return out


def _keep(store: Store, campaigns: Sequence[tuple[CampaignInfo, Campaign]]) -> None:
    """Write the snapshots of ``campaigns`` as they are, if nobody is writing."""
    from gm.service import snapshots

    made = [(info, snap) for info, c in campaigns if (snap := snapshots.of(c)) is not None]
    if made and store.keep_snapshots(made):
        for info, snap in made:
            snapshot_written(store, info.slug, snap.seq)


_FOLDED: weakref.WeakKeyDictionary[Store, dict[str, tuple[int, Campaign]]] = (
    weakref.WeakKeyDictionary()
)
"""Per store: slug -> (campaign id, the campaign last folded or committed)."""


def latest(store: Store, r: Reader, info: CampaignInfo) -> Campaign:
    """The campaign ``info`` as its log stands in the transaction ``r``.

    The campaign this process last folded or committed for it is reused
    when the log still ends with its seq and hash, or folded on with the
    records after it when those link to its hash, read here in the same
    transaction (a writer's, under its lock, so nothing can append between
    this check and its own append); otherwise the whole log is read and
    folded, and remembered. A writer calls it before it appends anything, so
    that what it reads is committed.
    """
    seq, head = r.tip(info.slug)
    kept = _FOLDED.get(store, {}).get(info.slug)
    if kept is not None:
        campaign_id, campaign = kept
        if campaign_id == info.id and campaign.game.id == info.game:
            if campaign.seq == seq and campaign.head == head:
                return campaign
            if 0 < campaign.seq < seq:
                # Another gm appended after what this one folded (MJs at work
                # at once): fold on from there, if the new records link to it.
                newer = r.events(info.slug, after=campaign.seq)
                if newer and newer[0].prev_hash == campaign.head and newer[-1].hash == head:
                    campaign = extend(campaign, newer)
                    remember(store, info, campaign)
                    return campaign
    stored = r.snapshot(info.id) if store.snapshots else None
    campaign = _from_snapshot(store, r, info, seq, head, stored) or fold(
        info.slug, info.game, r.events(info.slug)
    )
    remember(store, info, campaign)  # read in a transaction: what it read is committed
    return campaign


def _from_snapshot(
    store: Store,
    r: Reader,
    info: CampaignInfo,
    seq: int,
    head: str | None,
    stored: Snapshot | None,
    unused: list[tuple[str, str]] | None = None,
) -> Campaign | None:
    """The campaign from its snapshot ``stored`` and the records after it,
    or None when it has none that stands for its log (see
    ``gm.service.snapshots``: a stale or damaged one is a note for the MJ,
    or goes to ``unused`` as ``(slug, why)``, and is written again once the
    campaign is folded)."""
    from gm.service import snapshots

    snapshot_written(store, info.slug, 0)  # until one is read
    if stored is None:
        return None
    why = snapshots.problem(stored, info.game, seq, head)
    newer: list[StoredEvent] = []
    if why is None and stored.seq < seq:
        newer = r.events(info.slug, after=stored.seq)
        if not newer or newer[0].prev_hash != stored.head or newer[-1].hash != head:
            why = "the log no longer goes through the event it was made at"
    if why is None:
        slug = info.slug
        try:
            campaign = snapshots.campaign_from(
                stored,
                slug,
                info.game,
                lambda after, upto: store.events(slug, upto=upto, after=after),
            )
        except snapshots.SnapshotError as err:
            why = f"it does not read back ({err.args[0]})"
        else:
            snapshot_written(store, slug, stored.seq)
            return extend(campaign, newer)
    if unused is not None:
        unused.append((info.slug, str(why)))
    else:
        store.notes.append(
            f"[{info.slug}] The snapshot of the campaign at event {stored.seq} was not used:"
            f" {why}. Folded the log from its first event instead, and a new one is"
            " written (a snapshot only saves time: nothing else changes)."
        )
    return None


_SNAPSHOT_AT: weakref.WeakKeyDictionary[Store, dict[str, int]] = weakref.WeakKeyDictionary()
"""Per store: slug -> the seq of the campaign's latest snapshot this process
read or wrote (0: none that stands for its log)."""


def snapshot_due(store: Store, campaign: Campaign) -> bool:
    """Whether a command that commits ``campaign`` should write its snapshot:
    its log has grown by ``snapshots.EVERY`` events since the last one."""
    from gm.service.snapshots import EVERY

    if not store.snapshots:
        return False
    last = _SNAPSHOT_AT.get(store, {}).get(campaign.slug, 0)
    return campaign.seq - last >= EVERY or campaign.seq < last


def snapshot_written(store: Store, slug: str, seq: int) -> None:
    """Note that the snapshot of ``slug`` at ``seq`` is stored (0: none is)."""
    _SNAPSHOT_AT.setdefault(store, {})[slug] = seq


def remember(store: Store, info: CampaignInfo, campaign: Campaign) -> None:
    """Keep ``campaign`` for the next ``latest`` on this store; call it only
    with a campaign whose records are all committed."""
    _FOLDED.setdefault(store, {})[info.slug] = (info.id, campaign)


def forget(store: Store) -> None:
    """Drop what ``latest`` kept for ``store`` (the next command folds from scratch)."""
    _FOLDED.pop(store, None)
    _SNAPSHOT_AT.pop(store, None)


def decode(game_id: str, record: StoredEvent, seats: Mapping[str, str] | None = None) -> Event:
    """The event a record holds; ``seats``: an old log's map from the names of
    the moment to seats (``Meta.legacy_seats``), through which its players are read.

    :raises ChainIntegrityError: the record's kind is unknown or its payload does not fit.
    """
    try:
        return codec_for(game_id).decode(record.kind, record.payload, seats)
    except (KeyError, PayloadError) as err:
        raise ChainIntegrityError(
            f"event {record.seq} ({record.kind}) cannot be read: {err.args[0]}",
            params={"seq": record.seq},
        ) from None


_KEYS: dict[tuple[str, str, str], SecretKey | None] = {}
"""Each private record's secret key (None: not a secret), by its game, kind
and payload text: decoded once per process."""


@functools.cache
def keyer(game_id: str) -> Keyer:
    """The secret key a private record of ``game_id`` seals, or None: what
    ``gm.service.timeline`` indexes, so that a post finds the records it
    opens without walking the log."""

    def key_of(record: StoredEvent) -> SecretKey | None:
        key = (game_id, record.kind, record.payload_json)
        if key not in _KEYS:
            if len(_KEYS) > 200_000:  # a long-lived process (tests, a server) stays bounded
                _KEYS.clear()
            event = decode(game_id, record)
            _KEYS[key] = event.secret_key() if event.sealed else None
        return _KEYS[key]

    return key_of


def _no_creation(slug: str, records: Sequence[StoredEvent]) -> ChainIntegrityError:
    what = "it has no events" if not records else "it does not start with the campaign's creation"
    return damaged(slug, "its log", what)


def fold(slug: str, game_id: str, records: Sequence[StoredEvent]) -> Campaign:
    """Fold stored events into a ``Campaign``.

    :raises ChainIntegrityError: the log does not start with the campaign's
        creation, or an event does not fold (naming its seq).
    """
    if not records or records[0].kind != CampaignCreated.kind:
        raise _no_creation(slug, records)
    return _fold_onto(
        slug, games.load(game_id), None, None, None, records, voided_by(records), {}, {}
    )


def extend(campaign: Campaign, records: Sequence[StoredEvent]) -> Campaign:
    """The campaign after newly appended ``records``, without refolding its past."""
    if not records:
        return campaign
    fresh = voided_by(records)
    if fresh:  # an undo changes the past: fold again from the start
        everything = (*campaign.records, *records)
        return _fold_onto(
            campaign.slug,
            campaign.game,
            None,
            None,
            None,
            everything,
            voided_by(everything),
            {},
            {},
        )
    return _fold_onto(
        campaign.slug,
        campaign.game,
        campaign.meta,
        campaign.state,
        campaign.log,
        records,
        campaign.voided,
        dict(campaign.secrets),
        dict(campaign.seated),
    )


def advance(
    campaign: Campaign,
    records: Sequence[StoredEvent],
    events: Sequence[Event],
    meta: Meta,
    state: Any,
) -> Campaign:
    """``extend(campaign, records)`` for records a command has just appended,
    whose ``events`` the command already folded into ``meta`` and ``state``
    while deciding them: each event is evolved once. Anything but a plain
    command's events (an old log's seats, a roster change, an undo) is
    extended the long way."""
    if (
        len(records) != len(events)
        or not campaign.meta.by_seat
        or any(
            r.kind != e.kind or isinstance(e, _REFOLDED)
            for r, e in zip(records, events, strict=True)
        )
    ):
        return extend(campaign, records)
    secrets = dict(campaign.secrets)
    for record, event in zip(records, events, strict=True):
        _keep_secret(secrets, event, record)
    last = records[-1]
    return Campaign(
        campaign.slug,
        campaign.game,
        meta,
        state,
        last.seq,
        last.hash,
        campaign.log.extend(records),
        campaign.voided,
        secrets,
        campaign.seated,
    )


def _keep_secret(secrets: dict[SecretKey, Secret], event: Event, record: StoredEvent) -> None:
    """The secrets in force after a game's ``event`` (its ``record``): a sealed
    one in force under its key, an unsealing one out."""
    if event.sealed:
        key = event.secret_key()
        secrets.pop(key, None)  # a replaced secret goes last, as it was sealed last
        fields = {name: getattr(event, name) for name in event.secret_fields}
        secrets[key] = Secret(key, fields, event.owner(), record)
    elif event.unseals:
        secrets.pop(event.secret_key(), None)


_REFOLDED: tuple[type[Event], ...] = (CampaignCreated, EventsVoided, SeatsAdopted, *ROSTER_EVENTS)
"""Events ``advance`` leaves to ``extend``: they change more than the meta
(the state's seats, the past, the roster)."""


def voided_by(records: Sequence[StoredEvent]) -> frozenset[int]:
    """The seqs that the ``EventsVoided`` events among ``records`` void.

    :raises ChainIntegrityError: an undo that names events not before it.
    """
    out: set[int] = set()
    for record in records:
        if record.kind != EventsVoided.kind:
            continue
        first, last = record.payload.get("first_seq"), record.payload.get("last_seq")
        if not (
            isinstance(first, int) and isinstance(last, int) and 1 < first <= last < record.seq
        ):
            raise ChainIntegrityError(
                f"event {record.seq} (an undo) voids events {first!r} to {last!r}, which are"
                " not events before it",
                params={"seq": record.seq},
            )
        out.update(range(first, last + 1))
    return frozenset(out)


class Unopened(Exception):
    """The fold reached a record known only by its body (``StoredEvent.known``)
    whose content it needs: what follows cannot be folded until a post opens it."""

    def __init__(self, record: StoredEvent) -> None:
        super().__init__(f"event {record.seq} ({record.kind}) is known only by its seal")
        self.record = record


def _unknown(record: StoredEvent) -> None:
    """Step over a record whose content is not known, if the fold can.

    A platform record that folds into nothing (a submission's text, a
    command, a post's digest) changes neither the meta nor the state; an
    unknown seed leaves ``Meta.seed`` None (what is drawn from it cannot be
    decided again until it is revealed). Any other record is needed.

    :raises Unopened: the fold needs the record's content.
    """
    if record.kind == FortuneSealed.kind:
        return
    if is_platform(record.kind) and record.kind not in FOLDED_KINDS:
        return
    raise Unopened(record)


def _fold_onto(
    slug: str,
    game: Game,
    meta: Meta | None,
    state: Any,
    log: Log | None,
    records: Sequence[StoredEvent],
    voided: frozenset[int],
    secrets: dict[SecretKey, Secret],
    seated: dict[int, tuple[str, str, str | None]],
) -> Campaign:
    """Fold ``records`` onto ``meta`` and ``state``, which ``log`` made
    (None: ``records`` are the whole log)."""
    legacy = meta.legacy_seats if meta is not None else {}
    for record in records:
        if legacy and record.known:
            player = record.payload.get("player")
            player = player if isinstance(player, str) else None
            mapped = (
                legacy.get(record.actor, record.actor),
                legacy.get(record.audience, record.audience),
                None if player is None else legacy.get(player, player),
            )
            if mapped != (record.actor, record.audience, player):
                seated[record.seq] = mapped
        if record.seq in voided:
            continue
        if not record.known:
            _unknown(record)
            continue
        event = decode(game.id, record, legacy)
        try:
            if is_platform(record.kind):
                meta = evolve_meta(meta, event)
                if isinstance(event, CampaignCreated):
                    assert meta is not None
                    state = game.initial_state(meta.seats, event.options)
                elif meta is not None and isinstance(event, ROSTER_EVENTS):
                    meta = evolve_roster(meta, event)
                    if isinstance(event, PlayerReplaced):
                        meta = replace(meta, arrived={**meta.arrived, event.old: record.seq})
                    legacy = meta.legacy_seats
            else:
                state = game.evolve(state, event)
                _keep_secret(secrets, event, record)
        except ChainIntegrityError:
            raise
        except Exception as err:  # a stored event the rules cannot apply: a damaged log
            raise ChainIntegrityError(
                f"event {record.seq} ({record.kind}) does not fold: {err!r}",
                params={"seq": record.seq},
            ) from None
    if meta is None:
        raise _no_creation(slug, records)
    last = records[-1]
    log = Log.of(records, keyer(game.id)) if log is None else log.extend(records)
    return Campaign(slug, game, meta, state, last.seq, last.hash, log, voided, secrets, seated)
