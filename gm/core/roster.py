"""The table's roster during a game: replacements, renames and nicknames.

A player's *seat* never changes (``gm.core.protocol.Seat``); the roster maps
each seat to its current name. A player who disappears is replaced
(``PlayerReplaced``): the newcomer takes the seat, with its money, wounds,
options and secrets, but not the old person's gender or nicknames. A player
may also be renamed (``PlayerRenamed``: the same person, another name), and
given nicknames (``NicknameSet``: « jp » for « Jean-Paul »), which ``gm
order`` and every command naming a player accept. All three are public
platform events of the log, folded here into the campaign's ``Meta`` only:
the game state, its events and its secrets key on seats and are never
touched by a change of name.

``old`` names the seat: in a log of protocol 3 it *is* the seat; an older
log recorded the name of that moment, which the fold reads back as the seat
(``Meta.legacy_seats``), like every other ``Seat`` field.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from gm.core.campaign import Meta
from gm.core.names import fold
from gm.core.protocol import Event, Seat


@dataclass(frozen=True)
class PlayerReplaced(Event):
    """``new`` takes the seat ``old``: money, wounds, options and secrets stay."""

    kind = "gm.player-replaced"
    old: Seat
    new: str


@dataclass(frozen=True)
class PlayerRenamed(Event):
    """The player of the seat ``old`` is called ``new`` from now on (the same person)."""

    kind = "gm.player-renamed"
    old: Seat
    new: str


@dataclass(frozen=True)
class NicknameSet(Event):
    """``nickname`` designates the seat ``player`` wherever a player is named."""

    kind = "gm.nickname-set"
    player: Seat
    nickname: str


ROSTER_EVENTS: tuple[type[Event], ...] = (PlayerReplaced, PlayerRenamed, NicknameSet)


def evolve_roster(meta: Meta, event: Event) -> Meta:
    """Fold a roster event into the campaign's meta (the roster only)."""
    match event:
        case PlayerReplaced() | PlayerRenamed():
            seat = event.old
            names = {s: n for s, n in meta.names.items() if s != seat}
            if event.new != seat:
                names[seat] = event.new
            change = ("replaced" if isinstance(event, PlayerReplaced) else "renamed",)
            changes = (*meta.changes, (*change, meta.name(seat), event.new))
            if isinstance(event, PlayerRenamed):
                # the same person: their gender and nicknames stay theirs
                return replace(meta, names=names, changes=changes)
            return replace(
                meta,
                names=names,
                changes=changes,
                nicknames=tuple((n, s) for n, s in meta.nicknames if s != seat),
                genders={s: g for s, g in meta.genders.items() if s != seat},
            )
        case NicknameSet():
            kept = tuple((n, p) for n, p in meta.nicknames if fold(n) != fold(event.nickname))
            return replace(meta, nicknames=(*kept, (event.nickname, event.player)))
    return meta


def expand_nicknames(text: str, nicknames: tuple[tuple[str, str], ...]) -> str:
    """``text`` with each nickname, as a whole word, replaced by the player's
    current name (« je braque jp » → « je braque Jean-Paul »), case ignored.

    >>> expand_nicknames("je braque JP, bang", (("jp", "Jean-Paul"),))
    'je braque Jean-Paul, bang'
    """
    for nickname, player in nicknames:
        pattern = rf"(?<!\w){re.escape(nickname)}(?!\w)"
        text = re.sub(pattern, player.replace("\\", "\\\\"), text, flags=re.IGNORECASE)
    return text
