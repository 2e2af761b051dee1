"""Replaying a log: fold it from its first event and decide every recorded command again.

The one walk behind ``gm verify`` (``gm.service.audit``, over the MJ's whole
log) and the players' checker (``gm.check``, over the records the posts'
proofs publish). It reads every record, checks the fortune (one seed, its
SHA-256 the creation's commitment) and the draws (a purpose drawn once,
never undone), folds the log with the games' own ``evolve``
(``gm.service.loading``), and decides every ``gm.command-decided`` again
with the game's own ``decide`` (``gm.service.deciding``) against the state
it was decided on, with the same fortune streams: what the rules give must
be exactly the events that follow it. A game event that no command decided
is a problem.

A player's log may hold records known only by their body
(``StoredEvent.known``): a private record no post has opened yet. The walk
goes as far as the records allow and says what waits, in ``pending``:

* a command whose record is sealed cannot be decided again (what follows it
  until the next command is taken as its own);
* a command that draws cannot be decided again before the seed is revealed
  (``gm.core.fortune.SeedUnknown``);
* an event the rules decided whose record is sealed is compared by its kind
  and audience only;
* a record the fold needs (a sealed game event) stops the fold
  (``stalled``): the campaign after it is not known.

``problems`` are what does not hold together; each ``Finding`` has a code,
the seq where it shows, its English sentence (what ``gm verify`` prints) and
its data (what the checker words in French for players).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from gm.core.campaign import (
    CampaignCreated,
    ChanceDrawn,
    CommandDecided,
    EventsVoided,
    FortuneSealed,
    PostPublished,
)
from gm.core.canonical import canonical_json
from gm.core.codec import PayloadError, encode, to_json
from gm.core.fortune import SeedUnknown, commitment, purpose_by_seat
from gm.errors import GMError
from gm.service import deciding
from gm.service.loading import Campaign, Unopened, decode, extend, fold, is_platform, voided_by
from gm.store.records import StoredEvent


@dataclass(frozen=True)
class Finding:
    """One thing the walk found at ``seq``: ``code`` says what (see ``Replay``),
    ``text`` says it in English, ``data`` holds its facts."""

    code: str
    seq: int
    text: str
    data: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Decision:
    """A recorded command decided again, and found to be what the log holds."""

    seq: int
    command: str
    actor: str
    purposes: tuple[str, ...]
    """The draws it made, re-derived from the seed."""
    sealed: int
    """How many of its events are sealed, so compared by kind and audience only."""
    events: int
    """How many records it covers, its own included."""


class Replay:
    """Fold ``records`` from the start, deciding every recorded command again.

    ``campaigns`` keeps the campaign as it stood after each seq in
    ``checkpoints`` (the posts' ``at_seq``), for re-rendering them;
    ``committed`` the ``gm.post-published`` records by post number.

    Codes of ``problems``: ``seeds`` (not one seed), ``seed`` (the seed is
    not the commitment), ``undone-draw``, ``drawn-twice``, ``committed-twice``,
    ``undecided`` (a game event no command decided), ``unreadable-command``,
    ``refused`` (the rules refuse a recorded command), ``differs`` (deciding
    it again gives other events). Codes of ``pending``: ``sealed-seed``,
    ``sealed-command``, ``seed-unknown``, ``sealed-result``.
    """

    def __init__(
        self, slug: str, game_id: str, records: Sequence[StoredEvent], checkpoints: set[int]
    ) -> None:
        self.slug, self.game_id, self.records = slug, game_id, records
        self.checkpoints = checkpoints
        self.campaigns: dict[int, Campaign] = {}
        self.committed: dict[int, StoredEvent] = {}
        self.problems: list[Finding] = []
        self.pending: list[Finding] = []
        self.decided: list[Decision] = []
        self.protocol = 1
        self.undecided = 0
        self.stalled: StoredEvent | None = None
        """The first record the fold needed and could not read (known by its body only)."""
        self.last: Campaign | None = None
        """The campaign as far as the fold went."""

    def problem(self, code: str, seq: int, text: str, **data: Any) -> None:
        self.problems.append(Finding(code, seq, text, data))

    def waits(self, code: str, seq: int, text: str, **data: Any) -> None:
        self.pending.append(Finding(code, seq, text, data))

    def run(self) -> None:
        """Walk the whole log.

        :raises ChainIntegrityError: a record does not read or does not fold.
        """
        records = self.records
        for record in records:  # every event must read, voided ones included
            if record.known:
                decode(self.game_id, record)
        self._check_fortune()
        self._check_draws()
        start = min(2, len(records))  # the creation and the seed
        campaign = fold(self.slug, self.game_id, records[:start])
        self.protocol = campaign.meta.protocol
        self._checkpoint(campaign)
        self.last = campaign
        i = start
        covered = False  # the records follow a command that could not be decided again
        while i < len(records):
            record = records[i]
            if record.kind == CommandDecided.kind:
                taken, covered = self._decide_again(campaign, i)
            else:
                taken = 1
                if not is_platform(record.kind) or record.kind == ChanceDrawn.kind:
                    if not covered:
                        self._undecided(record)
                else:
                    covered = False
                if record.kind == PostPublished.kind and record.known:
                    number = record.payload["number"]
                    if number in self.committed:
                        self.problem(
                            "committed-twice",
                            record.seq,
                            f"seq {record.seq}: post {number} is committed twice",
                            number=number,
                        )
                    self.committed[number] = record
            try:
                campaign = self._extend(campaign, records[i : i + taken])
            except Unopened as err:
                self.stalled = err.record
                return
            self.last = campaign
            i += taken

    def _extend(self, campaign: Campaign, run: Sequence[StoredEvent]) -> Campaign:
        for record in run:  # one at a time where a post was rendered, else together
            if record.seq in self.checkpoints or record.kind == EventsVoided.kind:
                break
        else:
            return self._checkpoint(extend(campaign, run))
        for record in run:
            campaign = self._checkpoint(extend(campaign, [record]))
        return campaign

    def _checkpoint(self, campaign: Campaign) -> Campaign:
        if campaign.seq in self.checkpoints:
            self.campaigns[campaign.seq] = campaign
        return campaign

    def _check_fortune(self) -> None:
        created = next(r for r in self.records if r.kind == CampaignCreated.kind)
        sealed = [r for r in self.records if r.kind == FortuneSealed.kind]
        if len(sealed) != 1:
            self.problem(
                "seeds",
                created.seq,
                f"the log holds {len(sealed)} seeds, not one",
                count=len(sealed),
            )
            return
        if not sealed[0].known:
            self.waits("sealed-seed", sealed[0].seq, f"seq {sealed[0].seq}: the seed is sealed")
            return
        seed = sealed[0].payload["seed"]
        if commitment(seed) != created.payload["commitment"]:
            self.problem(
                "seed",
                sealed[0].seq,
                f"seq {sealed[0].seq}: the seed's SHA-256 is not the commitment of seq"
                f" {created.seq} (sha256:{created.payload['commitment']}), which the opening"
                " post published",
                seed=seed,
                commitment=created.payload["commitment"],
            )

    def _check_draws(self) -> None:
        seen: dict[str, int] = {}
        voided = voided_by(self.records)  # refuses an undo of events not before it
        for record in self.records:
            if record.kind != ChanceDrawn.kind or not record.known:
                continue
            if record.seq in voided:
                self.problem(
                    "undone-draw",
                    record.seq,
                    f"seq {record.seq}: a draw was undone; draws are final",
                )
            for purpose in record.payload["purposes"]:
                if purpose in seen:
                    self.problem(
                        "drawn-twice",
                        record.seq,
                        f"seq {record.seq}: the fortune drew {purpose!r} again (first at seq"
                        f" {seen[purpose]}); a purpose is drawn once",
                        purpose=purpose,
                        first=seen[purpose],
                    )
                seen.setdefault(purpose, record.seq)

    def _undecided(self, record: StoredEvent) -> None:
        if self.protocol >= 2:
            self.problem(
                "undecided",
                record.seq,
                f"seq {record.seq} ({record.kind}): no recorded command decided this event",
                kind=record.kind,
            )
        else:
            self.undecided += 1

    def _legacy_purposes(self, i: int, former: Mapping[str, str]) -> dict[str, str]:
        """How the draws of the command at ``records[i]`` were named, by the
        purposes the rules ask for now: an old log (``former``: every name a
        seat had → the seat) named a renamed player's draws by their name
        then (``round-2/deck/ana-bis``), the rules now by their seat
        (``round-2/deck/ana``). Empty when no seat was ever renamed."""
        aliases: dict[str, str] = {}
        if not former:
            return aliases
        for record in self.records[i + 1 :]:
            if record.kind == CommandDecided.kind:
                break
            if record.kind == ChanceDrawn.kind and record.known:
                for purpose in record.payload["purposes"]:
                    now = purpose_by_seat(purpose, former)
                    if now != purpose:
                        aliases[now] = purpose
                break
        return aliases

    def _decide_again(self, campaign: Campaign, i: int) -> tuple[int, bool]:
        """Check the command at ``records[i]``: how many records it covers, and
        whether the records after those are still its own (it could not be
        decided again, so where it ends is not known)."""
        record = self.records[i]
        if not record.known:
            self.waits(
                "sealed-command",
                record.seq,
                f"seq {record.seq}: the command is sealed",
                audience=record.audience,
            )
            return 1, True
        seats = campaign.meta.legacy_seats
        event = decode(self.game_id, record, seats)
        assert isinstance(event, CommandDecided)
        where = f"seq {record.seq} ({event.command})"
        try:
            command = deciding.command_of(self.game_id, event, seats)
            expected = deciding.decide_one(
                campaign.game,
                campaign.meta,
                campaign.state,
                event.actor,
                command,
                {} if campaign.meta.by_seat else self._legacy_purposes(i, campaign.meta.former_names),
            )
        except (KeyError, PayloadError) as err:
            self.problem(
                "unreadable-command",
                record.seq,
                f"{where}: the recorded command cannot be read: {err.args[0]}",
                command=event.command,
                error=str(err.args[0]),
            )
            return 1, False
        except SeedUnknown as err:
            self.waits(
                "seed-unknown",
                record.seq,
                f"{where}: draws {err.purpose!r}, which needs the seed",
                command=event.command,
                actor=event.actor,
                purpose=err.purpose,
            )
            return 1, True
        except GMError as err:
            self.problem(
                "refused",
                record.seq,
                f"{where}: the rules refuse the recorded command: {err.message}",
                command=event.command,
                error=err.message,
            )
            return 1, False
        stored = self.records[i : i + len(expected)]
        sealed = 0
        purposes: tuple[str, ...] = ()
        for offset, want in enumerate(expected):
            kind, payload = encode(want)
            got = stored[offset] if offset < len(stored) else None
            if isinstance(want, ChanceDrawn):
                purposes = want.purposes
            if (
                got is not None
                and not got.known
                and got.kind == kind
                and got.audience == want.audience()
            ):
                sealed += 1
                continue
            if offset == 0 and got is not None and got.kind == kind:
                continue  # the command's own record: what was read and decided again
            # values, not bytes: the stored event decoded (upcast, an old log's
            # names of the moment read as seats) against the one decided again
            held = decode(self.game_id, got, seats) if got is not None and got.known else None
            if got is None or got.kind != kind or held != want:
                seq = got.seq if got is not None else record.seq + offset
                holds = f"{got.kind} {_shown(held)}" if got is not None else "nothing"
                self.problem(
                    "differs",
                    seq,
                    f"seq {seq}: the log holds {holds}; deciding the command of seq"
                    f" {record.seq} again (with the seed and the players' words) gives"
                    f" {kind} {_shown(want)}",
                    command=event.command,
                    decided=record.seq,
                    holds=None if got is None else (got.kind, got.payload if got.known else None),
                    gives=(kind, payload),
                )
                return max(offset, 1), False
        if sealed:
            self.waits(
                "sealed-result",
                record.seq,
                f"{where}: {sealed} of its events are sealed",
                command=event.command,
                count=sealed,
            )
        self.decided.append(
            Decision(record.seq, event.command, event.actor, purposes, sealed, len(expected))
        )
        return len(expected), False


__all__ = ["Decision", "Finding", "Replay"]


def _shown(event: object) -> str:
    """An event's value, as canonical JSON, for a difference's message."""
    return canonical_json(to_json(event))
