"""The platform's own events and the campaign-level state they fold into.

Every campaign log starts with ``CampaignCreated`` (public: the game, the
players, the options, the fortune commitment) and ``FortuneSealed`` (the
seed, for the MJ's eyes only until the end). Submissions are logged whether
accepted or refused, because forum disputes are about exactly that.
Deadlines and settings are events too: the log alone rebuilds everything.

Since protocol 2 (``CampaignCreated.protocol``), the log also records what
makes it re-checkable by ``gm verify``: every command decided
(``CommandDecided``, before its events), the fortune's streams it drew
(``ChanceDrawn``, after them), and the digest of every post published
(``PostPublished``), so that a post's exact text is in the hash chain.

Since protocol 3, the log keys every player on their *seat* (the name they
had at the creation, ``CampaignCreated.seats``), whatever the roster calls
them later (``gm.core.roster``); older logs recorded, after a rename, the
name of that moment, which the fold reads back as the seat
(``Meta.legacy_seats``).

Since protocol 4, the chain commits to each record's *body* (its seal)
instead of its payload and salt (``gm.core.proof``), every public post
ends with its proof block (``gm.service.proving``), and a command whose
events are all public is public too (``CommandDecided.public``), so that
players re-decide it from the thread.

Game events are folded by the game; these are folded here into ``Meta``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from gm.core.fortune import label_for
from gm.core.protocol import GM, PUBLIC, Event, Seat, Table
from gm.core.settings import DEFAULT_SETTINGS as DEFAULT_SETTINGS  # re-exported
from gm.core.settings import SETTINGS as SETTINGS  # re-exported


@dataclass(frozen=True)
class CampaignCreated(Event):
    kind = "gm.campaign-created"
    game: str
    title: str
    players: tuple[str, ...]
    options: dict[str, Any]
    commitment: str
    """Hex SHA-256 of the seed's UTF-8 bytes, published in the opening post."""
    settings: dict[str, str] = field(default_factory=dict)
    protocol: int = 1
    """What the log records (see the module docstring); absent means 1."""
    seats: tuple[str, ...] = ()
    """The seats, in seating order: the players' names at the creation, which
    every later event keys players on (protocol 3). Absent from older logs,
    whose seats are ``players``."""


PROTOCOL = 4
"""The protocol of campaigns created by this gm: 2 added the recorded
commands and the posts' digests, 3 the seats, 4 the proof chain and the
posts' proof blocks."""


@dataclass(frozen=True)
class FortuneSealed(Event):
    kind = "gm.fortune-sealed"
    seed: str

    def audience(self) -> str:
        return GM


@dataclass(frozen=True)
class SubmissionReceived(Event):
    """A player's pasted message, accepted; the game's events follow it."""

    kind = "gm.submission-received"
    player: Seat
    text: str

    def audience(self) -> str:
        return self.player


@dataclass(frozen=True)
class SubmissionRejected(Event):
    """A player's pasted message, refused: kept, and it changes no game state."""

    kind = "gm.submission-rejected"
    player: Seat
    text: str
    code: str
    message: str

    def audience(self) -> str:
        return self.player


@dataclass(frozen=True)
class DeadlineSet(Event):
    """A deadline for the phase ``phase`` (a game phase key), as ISO 8601 with offset."""

    kind = "gm.deadline-set"
    phase: str
    at: str


@dataclass(frozen=True)
class SettingChanged(Event):
    kind = "gm.setting-changed"
    key: str
    value: str


@dataclass(frozen=True)
class GenderSet(Event):
    """A player's grammatical gender (``gm.core.gender``): ``"m"``, ``"f"``, or
    ``""`` for none (neutral wording). Public: it only changes how posts agree."""

    kind = "gm.gender-set"
    player: Seat
    gender: str


@dataclass(frozen=True)
class DiceRolled(Event):
    """The MJ rolled dice: public. ``expression`` is canonical; ``dice`` has
    every die drawn, per term (an empty tuple for a constant term)."""

    kind = "gm.dice-rolled"
    expression: str
    reason: str
    dice: tuple[tuple[int, ...], ...]
    total: int

    def drew_chance(self) -> bool:
        return True


@dataclass(frozen=True)
class EventsVoided(Event):
    """``gm undo``: the events ``first_seq``..``last_seq`` (one command) no longer count.

    Nothing is deleted: the voided events stay in the log and the chain, and
    the fold skips them from this event on. Public, like the undo itself.
    """

    kind = "gm.events-voided"
    first_seq: int
    last_seq: int
    reason: str = ""


@dataclass(frozen=True)
class EntropyAdded(Event):
    """A player's word for the fortune (« graine : … »), public: from the next
    draw on, every draw mixes in the words of all players (see
    ``gm.core.fortune.mix``), so that neither the MJ, who committed to the
    seed before any word was sent, nor any player alone controls the draws."""

    kind = "gm.entropy-added"
    player: Seat
    word: str
    typed: bool = False
    """The MJ typed it for the player (``--salt``) rather than pasting it
    with their message: the player's reply says so, so they can object."""


@dataclass(frozen=True)
class CommandDecided(Event):
    """A command the rules accepted; its events follow it in the same append.

    ``gm verify`` decides it again against the state it was decided on, with
    the same fortune streams, and compares the events: so neither a result of
    chance nor any other consequence can be changed afterwards unnoticed.
    Private to its actor (a player's order is their secret), or the MJ's.
    """

    kind = "gm.command-decided"
    actor: Seat
    """The seat of the player whose command it is, or ``GM``."""
    command: str
    args: dict[str, Any]
    public: bool = False
    """Whether every event it decided is public (protocol 4): the command is
    then public too, and the post that publishes its events lets players
    decide it again. False in older logs, and for a command with a secret."""

    def audience(self) -> str:
        return PUBLIC if self.public else self.actor


@dataclass(frozen=True)
class ChanceDrawn(Event):
    """The fortune streams the command before drew, public: each purpose,
    and the players' words mixed into them (see ``gm.core.fortune``), as
    ``(name, word)`` pairs in seating order with each player's name *at the
    moment of the draw*: what the post of the draw prints, and what players
    re-derive the label from."""

    kind = "gm.chance-drawn"
    purposes: tuple[str, ...]
    words: tuple[tuple[str, str], ...]

    def labels(self) -> tuple[str, ...]:
        return tuple(label_for(p, self.words) for p in self.purposes)


@dataclass(frozen=True)
class DefaultApplied(Event):
    """The MJ applied the rules' default for ``player``'s missing input
    (``gm default``); the command decided for them follows."""

    kind = "gm.default-applied"
    player: Seat


@dataclass(frozen=True)
class PostPublished(Event):
    """A public post was archived: its number, kind, coordinates and the
    digest of its exact text, which the hash chain thereby commits to."""

    kind = "gm.post-published"
    number: int
    post: str
    at: tuple[int, ...]
    digest: str
    opened: tuple[int, ...] = ()
    """The private records the post's proof opened (protocol 4), by seq: a
    later post does not open them again."""


@dataclass(frozen=True)
class SeatsAdopted(Event):
    """From this event on, an old log (protocol 2 or before) records players
    by seat, as protocol 3 does: gm appends it, once, before the first event
    it writes into such a log, so that the names of the moment its earlier
    events hold (``Meta.legacy_seats``) are never confused with seats."""

    kind = "gm.seats-adopted"


PLATFORM_EVENTS: tuple[type[Event], ...] = (
    CampaignCreated,
    FortuneSealed,
    SubmissionReceived,
    SubmissionRejected,
    DeadlineSet,
    SettingChanged,
    DiceRolled,
    EventsVoided,
    EntropyAdded,
    CommandDecided,
    ChanceDrawn,
    DefaultApplied,
    PostPublished,
    GenderSet,
    SeatsAdopted,
)


@dataclass(frozen=True)
class Meta:
    """What the platform knows of a campaign, apart from the game state.

    Players are keyed by seat everywhere; ``names`` is the roster (seat →
    current name, a seat absent being called by itself), and ``table`` what
    games get of it."""

    game: str
    title: str
    seats: tuple[Seat, ...]
    options: dict[str, Any]
    commitment: str
    settings: dict[str, str]
    seed: str | None = None
    deadline: DeadlineSet | None = None
    words: tuple[tuple[Seat, str], ...] = ()
    """Players' words for the fortune, (seat, word), in seating order."""
    typed: frozenset[Seat] = frozenset()
    """The seats whose latest word the MJ typed for them."""
    protocol: int = 1
    drawn: frozenset[str] = frozenset()
    """Every purpose the fortune drew (a purpose is drawn once)."""
    rolls: int = 0
    """How many dice rolls were made: the next one draws ``roll/<rolls + 1>``."""
    genders: dict[Seat, str] = field(default_factory=dict)
    """Grammatical genders by seat (``"m"`` or ``"f"``); a seat absent has none."""
    nicknames: tuple[tuple[str, Seat], ...] = ()
    """(nickname, seat): other names the MJ gave players (``gm nick``)."""
    names: dict[Seat, str] = field(default_factory=dict)
    """The roster: each seat's current name, when it is not the seat itself."""
    changes: tuple[tuple[str, str, str], ...] = ()
    """The roster's changes so far: (``"renamed"`` or ``"replaced"``, the name
    before, the name after), for the public notice of the last one."""
    arrived: dict[Seat, int] = field(default_factory=dict)
    """The seq of each replaced seat's latest replacement: the newcomer's own
    records start there (they do not read the private ones before it)."""
    by_seat: bool = False
    """Whether the log records players by seat from here on: protocol 3, or
    an older log after ``SeatsAdopted``."""
    opened: frozenset[int] = frozenset()
    """The private records the posts' proofs have opened so far, by seq."""

    def name(self, seat: str) -> str:
        """The current name of ``seat`` (``GM`` or anything else as it is)."""
        return self.names.get(Seat(seat), seat)

    @property
    def players(self) -> tuple[str, ...]:
        """The players' current names, in seating order."""
        return tuple(self.name(s) for s in self.seats)

    @property
    def table(self) -> Table:
        """The players as games get them: seats, current names, genders."""
        return Table(self.seats, {s: self.name(s) for s in self.seats}, dict(self.genders))

    def mixed_words(self) -> tuple[tuple[str, str], ...]:
        """The words for the fortune as a draw mixes them: (current name,
        word), in seating order (see ``ChanceDrawn``)."""
        return tuple((self.name(s), w) for s, w in self.words)

    @property
    def former_names(self) -> dict[str, str]:
        """Every name a seat had besides its own, to the seat, in a log of
        protocol 2 or before (whose draws were named after the players' names
        of the moment: ``gm.core.fortune.purpose_by_seat``). Empty for
        protocol 3, whose logs name seats only."""
        if self.protocol >= 3:
            return {}
        now = {s: s for s in self.seats}  # seat → its name as the changes go by
        former: dict[str, str] = {}
        for _, before, after in self.changes:
            seat = next((s for s, n in now.items() if n == before), None)
            if seat is not None:
                now[seat] = after
                if after != seat:
                    former[after] = seat
        return former

    @property
    def legacy_seats(self) -> dict[str, str]:
        """How to read an old log's players (protocol 2 or before): the map
        from each renamed seat's current name to the seat, which is what that
        log recorded from the rename on instead of the seat. Empty for
        protocol 3, after ``SeatsAdopted``, or when nobody was renamed."""
        if self.by_seat or not self.names:
            return {}
        return {name: seat for seat, name in self.names.items() if name != seat}


def evolve_meta(meta: Meta | None, event: Event) -> Meta | None:
    """Fold one platform event into the campaign meta."""
    match event:
        case CampaignCreated():
            return Meta(
                game=event.game,
                title=event.title,
                seats=tuple(Seat(s) for s in (event.seats or event.players)),
                options=dict(event.options),
                commitment=event.commitment,
                settings={**DEFAULT_SETTINGS, **event.settings},
                protocol=event.protocol,
                by_seat=event.protocol >= 3,
            )
        case SeatsAdopted() if meta is not None:
            return replace(meta, by_seat=True)
        case FortuneSealed() if meta is not None:
            return replace(meta, seed=event.seed)
        case DeadlineSet() if meta is not None:
            return replace(meta, deadline=event)
        case SettingChanged() if meta is not None:
            return replace(meta, settings={**meta.settings, event.key: event.value})
        case EntropyAdded() if meta is not None:
            words = dict(meta.words)
            words[event.player] = event.word  # a player's new word replaces their old one
            seated = tuple((s, words[s]) for s in meta.seats if s in words)
            typed = meta.typed - {event.player} | ({event.player} if event.typed else set())
            return replace(meta, words=seated, typed=frozenset(typed))
        case ChanceDrawn() if meta is not None:
            return replace(meta, drawn=meta.drawn | set(event.purposes))
        case DiceRolled() if meta is not None:
            return replace(meta, rolls=meta.rolls + 1)
        case PostPublished() if meta is not None and event.opened:
            return replace(meta, opened=meta.opened | set(event.opened))
        case GenderSet() if meta is not None:
            genders = {s: g for s, g in meta.genders.items() if s != event.player}
            if event.gender:
                genders[event.player] = event.gender
            return replace(meta, genders=genders)
    return meta


def visible_to(audience: str, viewer: str | None) -> bool:
    """Whether ``viewer`` (a seat, ``GM``, or None for the public) may read an event."""
    if audience == PUBLIC or viewer == GM:
        return True
    return viewer is not None and audience == viewer
