"""The table's roster during a game: replacements, renames and nicknames.

A player who disappears is replaced (``PlayerReplaced``): the newcomer takes
the seat, with its money, wounds, options and secrets. A player may also be
renamed (``PlayerRenamed``: the same person, another name), and given
nicknames (``NicknameSet``: « jp » for « Jean-Paul »), which ``gm order``
and every command naming a player accept. All three are public platform
events of the log, folded here into the campaign's ``Meta``; the game state
is renamed by ``rename_in``, a pure walk over the game's frozen dataclasses
(or by the game's own ``GameDef.rename``), so that no game needs to know.

Names live in the game state as plain strings (a player's name, a target,
an owner); ``rename_in`` replaces every string equal to the old name,
leaving enumerations alone (an option ``bang`` is an ``Enum``, never a name).
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, replace
from enum import Enum
from typing import Any

from gm.core.campaign import Meta
from gm.core.names import fold
from gm.core.protocol import Event


@dataclass(frozen=True)
class PlayerReplaced(Event):
    """``new`` takes ``old``'s seat: money, wounds, options and secrets stay."""

    kind = "gm.player-replaced"
    old: str
    new: str


@dataclass(frozen=True)
class PlayerRenamed(Event):
    """The player ``old`` is called ``new`` from now on (the same person)."""

    kind = "gm.player-renamed"
    old: str
    new: str


@dataclass(frozen=True)
class NicknameSet(Event):
    """``nickname`` designates ``player`` wherever a player is named."""

    kind = "gm.nickname-set"
    player: str
    nickname: str


ROSTER_EVENTS: tuple[type[Event], ...] = (PlayerReplaced, PlayerRenamed, NicknameSet)


def rename_in(value: Any, old: str, new: str) -> Any:
    """``value`` with every string equal to ``old`` replaced by ``new``:
    through frozen dataclasses, tuples, lists, sets and dict keys and values.

    >>> rename_in({"fab": ("fab", "lulu")}, "fab", "jp")
    {'jp': ('jp', 'lulu')}
    """
    if isinstance(value, Enum):
        return value
    if isinstance(value, str):
        return new if value == old else value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        changes = {
            f.name: rename_in(getattr(value, f.name), old, new)
            for f in dataclasses.fields(value)
            if f.init
        }
        return replace(value, **changes)
    if isinstance(value, tuple):
        return tuple(rename_in(v, old, new) for v in value)
    if isinstance(value, list):
        return [rename_in(v, old, new) for v in value]
    if isinstance(value, frozenset):
        return frozenset(rename_in(v, old, new) for v in value)
    if isinstance(value, set):
        return {rename_in(v, old, new) for v in value}
    if isinstance(value, dict):
        return {rename_in(k, old, new): rename_in(v, old, new) for k, v in value.items()}
    return value


def evolve_roster(meta: Meta, event: Event) -> Meta:
    """Fold a roster event into the campaign's meta."""
    match event:
        case PlayerReplaced() | PlayerRenamed():
            players = tuple(event.new if p == event.old else p for p in meta.players)
            words = tuple((event.new if p == event.old else p, w) for p, w in meta.words)
            typed = frozenset(event.new if p == event.old else p for p in meta.typed)
            nicknames = tuple(
                (nick, event.new if p == event.old else p)
                for nick, p in meta.nicknames
                # a replaced player's nicknames were theirs, not the newcomer's
                if not (isinstance(event, PlayerReplaced) and p == event.old)
            )
            # A renamed player keeps their grammatical gender; a newcomer's is
            # their own (none until the MJ sets it).
            genders = {
                (event.new if p == event.old else p): g
                for p, g in meta.genders.items()
                if not (isinstance(event, PlayerReplaced) and p == event.old)
            }
            return replace(
                meta,
                players=players,
                words=words,
                typed=typed,
                nicknames=nicknames,
                genders=genders,
            )
        case NicknameSet():
            kept = tuple((n, p) for n, p in meta.nicknames if fold(n) != fold(event.nickname))
            return replace(meta, nicknames=(*kept, (event.nickname, event.player)))
    return meta


def expand_nicknames(text: str, nicknames: tuple[tuple[str, str], ...]) -> str:
    """``text`` with each nickname, as a whole word, replaced by the player's name
    (« je braque jp » → « je braque Jean-Paul »), case ignored.

    >>> expand_nicknames("je braque JP, bang", (("jp", "Jean-Paul"),))
    'je braque Jean-Paul, bang'
    """
    for nickname, player in nicknames:
        pattern = rf"(?<!\w){re.escape(nickname)}(?!\w)"
        text = re.sub(pattern, player.replace("\\", "\\\\"), text, flags=re.IGNORECASE)
    return text
