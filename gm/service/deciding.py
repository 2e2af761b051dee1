"""Deciding commands as the log records them, and deciding them again to check.

One function turns a command into what the log records (``decide``):
``CommandDecided`` (the command itself), the events the rules decided, and
``ChanceDrawn`` when the command drew from the fortune (the purposes, and
the players' words mixed in). Commands and ``gm verify`` both go through
it, so what verify re-derives is exactly what a command recorded: the
fortune's streams come from the seed, the purposes and the words in force,
never from a counter.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from gm.core import platform
from gm.core.campaign import ChanceDrawn, CommandDecided, Meta, SeatsAdopted, evolve_meta
from gm.core.codec import encode
from gm.core.fortune import FortuneDraws, UnrevealedDraws
from gm.core.protocol import GM, PUBLIC, Command, Draws, Event, Game
from gm.service.loading import commands_for, is_platform
from gm.store.draft import chain_batch
from gm.store.records import (
    SEALED_FROM,
    NewEvent,
    StoredEvent,
    new_salt,
    sealed_chain,
    utc_timestamp,
)

if TYPE_CHECKING:
    from gm.service.env import Env
    from gm.service.loading import Campaign


def to_record(event: Event, actor: str, source: str | None = None) -> NewEvent:
    """What the store appends for ``event``, recorded for ``actor``."""
    kind, payload = encode(event)
    return NewEvent(kind, actor, event.audience(), payload, source)


def by_seat(campaign: Campaign, records: Sequence[NewEvent]) -> list[NewEvent]:
    """``records``, after a ``SeatsAdopted`` when the campaign is an old log
    that still records players by their names of the moment: what gm writes
    keys players on seats, and the fold must know where that starts."""
    if campaign.meta.by_seat:
        return list(records)
    return [to_record(SeatsAdopted(), GM), *records]


@dataclass(frozen=True)
class Decided:
    """What a run of commands recorded, and the campaign's meta and state after it."""

    events: tuple[Event, ...]
    meta: Meta
    state: Any

    @property
    def game_events(self) -> tuple[Event, ...]:
        return tuple(e for e in self.events if not is_platform(e.kind))


def apply(game: Game, meta: Meta, state: Any, events: Sequence[Event]) -> tuple[Meta, Any]:
    """Fold ``events`` into ``meta`` and ``state``."""
    for event in events:
        if is_platform(event.kind):
            meta = evolve_meta(meta, event) or meta
        else:
            state = game.evolve(state, event)
    return meta, state


def decide_one(
    game: Game,
    meta: Meta,
    state: Any,
    actor: str,
    command: Command,
    aliases: Mapping[str, str] | None = None,
) -> list[Event]:
    """The events the log records for one command, its own record first
    (``aliases``: how an old log named the draws, see ``FortuneDraws``).

    A campaign folded without its seed (``Meta.seed`` None: a player's
    checker before the seed is revealed) decides every command that draws
    nothing; one that draws raises ``SeedUnknown``.

    :raises GMError: the rules refuse the command.
    :raises SeedUnknown: the command draws, and the seed is not known.
    """
    # the mix uses the players' names at the moment of the draw (ChanceDrawn)
    draws = FortuneDraws(meta.seed or "", meta.mixed_words(), meta.drawn, aliases)
    rules: Draws = draws if meta.seed is not None else UnrevealedDraws()
    if is_platform(command.kind):
        events = platform.decide(meta, bool(game.is_over(state)), command, rules)
    else:
        events = list(game.decide(state, actor, command, rules))
    # the command's payload carries its version, like an event's (``_v``); a
    # command whose events are all public is public with them (protocol 4),
    # so players decide it again from the thread
    public = meta.protocol >= SEALED_FROM and all(e.audience() == PUBLIC for e in events)
    decided = CommandDecided(actor, command.kind, encode(command)[1], public)
    record: list[Event] = [decided, *events]
    if draws.opened:
        record.append(ChanceDrawn(tuple(draws.opened), draws.words))
    return record


def decide(game: Game, meta: Meta, state: Any, actor: str, commands: Sequence[Command]) -> Decided:
    """Decide ``commands`` one after the other (each sees the previous one's
    events): all of them are accepted, or the first refusal is raised."""
    recorded: list[Event] = []
    for command in commands:
        events = decide_one(game, meta, state, actor, command)
        meta, state = apply(game, meta, state, events)
        recorded.extend(events)
    return Decided(tuple(recorded), meta, state)


def command_of(
    game_id: str, event: CommandDecided, seats: Mapping[str, str] | None = None
) -> Command:
    """The command a ``CommandDecided`` event records (upcast to its current
    version; ``seats``: an old log's names of the moment → seats).

    :raises KeyError: an unknown command kind.
    :raises PayloadError: arguments that do not fit it.
    """
    return commands_for(game_id).decode(event.command, event.args, seats)


def would_be(campaign: Campaign | None, records: Sequence[NewEvent], env: Env) -> list[StoredEvent]:
    """What ``records`` would become if appended after ``campaign`` (a new log
    when None), chained but stored nowhere: previews render from them."""
    seq = campaign.seq if campaign is not None else 0
    if campaign is not None:
        sealed = campaign.meta.protocol >= SEALED_FROM
    else:
        sealed = bool(records) and sealed_chain(records[0].kind, records[0].payload)
    return chain_batch(
        records,
        after=seq,
        prev_hash=campaign.head if campaign is not None else None,
        sealed=sealed,
        recorded_at=utc_timestamp(env.now()),
        salt=new_salt,
        batch=None,
    )
