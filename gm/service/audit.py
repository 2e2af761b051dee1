"""Verification: everything the MJ's archive can prove, checked from scratch.

``verify`` is what the MJ runs to show that the archive is intact. It checks,
in order, and names the event (seq) or the post of every difference:

1. **The chain**: each event's hash recomputed from its stored bytes, each
   post's hash from its text, no gap in either numbering.
2. **The fortune**: the seed's SHA-256 is the commitment the opening post
   published.
3. **The log, refolded and decided again**: every event is read and folded
   from the start; every command the log recorded (``CommandDecided``) is
   decided again against the state it was decided on, with the same fortune
   streams (the seed, the purpose, the players' words then), and what the
   rules give must be exactly the events that follow it, chance results
   (bills, dice, shuffles, deals) included. The comparison is between
   values: the stored events *decoded* (upcast to today's versions, an old
   log's names of the moment read as seats) against the events decided
   again, never today's re-encoding against the stored bytes, so that an
   event or a command that evolved (a field added with a default, a new
   version with its upcaster) still verifies. A game event that no command
   decided is a problem; so is a purpose drawn twice, or an undo of a draw.
4. **The posts**: each archived post's text is the one the log committed to
   (``PostPublished``, written when it was made), and it renders again, byte
   for byte, from the log as it stood then.

A post records what rendered it (gm's version and its templates'
fingerprint). One whose committed text differs from today's rendering is a
*note* when another gm or other templates wrote it (its text is still the
one committed); a post whose text is not the committed one is always a
problem. Logs written before protocol 2 (``CampaignCreated.protocol``) kept
neither commands nor post digests: what they lack is a note, not a problem.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from gm.core.campaign import (
    CampaignCreated,
    ChanceDrawn,
    CommandDecided,
    EventsVoided,
    FortuneSealed,
    PostPublished,
)
from gm.core.canonical import canonical_json
from gm.core.codec import PayloadError, to_json
from gm.core.fortune import commitment, purpose_by_seat
from gm.core.protocol import PostRef
from gm.errors import ChainIntegrityError, GMError
from gm.service import deciding
from gm.service.env import Env
from gm.service.loading import Campaign, decode, extend, fold, is_platform, voided_by
from gm.service.posts import render_public, rendered_by
from gm.store.records import StoredEvent, StoredPost


@dataclass(frozen=True)
class Verdict:
    """What ``verify`` found: ``problems`` (the archive does not hold together)
    and ``notes`` (what could not be compared, and why)."""

    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    other_renders: list[int] = field(default_factory=list)
    """The numbers of the posts another gm or other templates wrote."""


def verify(env: Env, slug: str) -> Verdict:
    """Everything that does not verify, each naming where; no problems when all is well."""
    store = env.store
    info = store.campaign(slug)
    problems = store.verify_chain(info.slug) + store.verify_posts(info.slug)
    if problems:
        return Verdict(problems)  # re-deciding a broken log would only repeat the finding
    return check(env, info.slug, info.game, store.events(info.slug), store.posts(info.slug))


def check(
    env: Env,
    slug: str,
    game_id: str,
    records: Sequence[StoredEvent],
    posts: Sequence[StoredPost],
) -> Verdict:
    """Steps 2–4 of the module docstring over a log and its posts (whose
    chain and hashes were checked): ``gm verify`` and ``gm import`` both run it."""
    verdict = Verdict()
    try:
        walk = _Walk(slug, game_id, records, {p.at_seq for p in posts}, verdict)
        walk.run()
    except ChainIntegrityError as err:
        verdict.problems.append(err.message)
        return verdict
    _check_posts(env, walk, posts, verdict)
    return verdict


class _Walk:
    """Fold a log from the start, deciding every recorded command again.

    ``campaigns`` keeps the campaign as it stood after each seq in
    ``checkpoints`` (the posts' ``at_seq``), for re-rendering them.
    """

    def __init__(
        self,
        slug: str,
        game_id: str,
        records: Sequence[StoredEvent],
        checkpoints: set[int],
        verdict: Verdict,
    ) -> None:
        self.slug, self.game_id, self.records = slug, game_id, records
        self.checkpoints = checkpoints
        self.verdict = verdict
        self.campaigns: dict[int, Campaign] = {}
        self.committed: dict[int, StoredEvent] = {}
        """``PostPublished`` records by post number."""
        self.protocol = 1
        self.undecided = 0

    def problem(self, text: str) -> None:
        self.verdict.problems.append(text)

    def run(self) -> None:
        records = self.records
        for record in records:  # every event must read, voided ones included
            decode(self.game_id, record)
        self._check_fortune()
        self._check_draws()
        start = min(2, len(records))  # the creation and the seed
        campaign = fold(self.slug, self.game_id, records[:start])
        self.protocol = campaign.meta.protocol
        self._checkpoint(campaign)
        i = start
        while i < len(records):
            record = records[i]
            if record.kind == CommandDecided.kind:
                taken = self._decide_again(campaign, i)
            else:
                taken = 1
                if not is_platform(record.kind) or record.kind == ChanceDrawn.kind:
                    self._undecided(record)
                if record.kind == PostPublished.kind:
                    if record.payload["number"] in self.committed:
                        self.problem(
                            f"seq {record.seq}: post {record.payload['number']} is committed twice"
                        )
                    self.committed[record.payload["number"]] = record
            campaign = self._extend(campaign, records[i : i + taken])
            i += taken
        if self.undecided:
            self.verdict.notes.append(
                f"{self.undecided} game events were recorded before gm kept the commands that"
                " decided them (protocol 1): they fold, but cannot be decided again"
            )

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
            self.problem(f"the log holds {len(sealed)} seeds, not one")
            return
        if commitment(sealed[0].payload["seed"]) != created.payload["commitment"]:
            self.problem(
                f"seq {sealed[0].seq}: the seed's SHA-256 is not the commitment of seq"
                f" {created.seq} (sha256:{created.payload['commitment']}), which the opening"
                " post published"
            )

    def _check_draws(self) -> None:
        seen: dict[str, int] = {}
        voided = voided_by(self.records)  # refuses an undo of events not before it
        for record in self.records:
            if record.kind != ChanceDrawn.kind:
                continue
            if record.seq in voided:
                self.problem(f"seq {record.seq}: a draw was undone; draws are final")
            for purpose in record.payload["purposes"]:
                if purpose in seen:
                    self.problem(
                        f"seq {record.seq}: the fortune drew {purpose!r} again (first at seq"
                        f" {seen[purpose]}); a purpose is drawn once"
                    )
                seen.setdefault(purpose, record.seq)

    def _undecided(self, record: StoredEvent) -> None:
        if self.protocol >= 2:
            self.problem(
                f"seq {record.seq} ({record.kind}): no recorded command decided this event"
            )
        else:
            self.undecided += 1

    def _decide_again(self, campaign: Campaign, i: int) -> int:
        """Check the command at ``records[i]``; how many records it covers."""
        record = self.records[i]
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
            self.problem(f"{where}: the recorded command cannot be read: {err.args[0]}")
            return 1
        except GMError as err:
            self.problem(f"{where}: the rules refuse the recorded command: {err.message}")
            return 1
        stored = self.records[i : i + len(expected)]
        # expected[0] is the command's own record, which is what was read
        for offset, want in enumerate(expected[1:], start=1):
            got = stored[offset] if offset < len(stored) else None
            held = decode(self.game_id, got, seats) if got is not None else None
            if got is None or held is None or got.kind != want.kind or held != want:
                seq = got.seq if got is not None else record.seq + offset
                holds = f"{got.kind} {_shown(held)}" if got is not None else "nothing"
                self.problem(
                    f"seq {seq}: the log holds {holds}; deciding the command of seq"
                    f" {record.seq} again (with the seed and the players' words) gives"
                    f" {want.kind} {_shown(want)}"
                )
                return max(offset, 1)
        return len(expected)


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
            if record.kind == ChanceDrawn.kind:
                for purpose in record.payload["purposes"]:
                    now = purpose_by_seat(purpose, former)
                    if now != purpose:
                        aliases[now] = purpose
                break
        return aliases


def _shown(event: object) -> str:
    """An event's value, as canonical JSON, for a difference's message."""
    return canonical_json(to_json(event))


def _check_posts(env: Env, walk: _Walk, posts: Sequence[StoredPost], verdict: Verdict) -> None:
    numbers = {p.number for p in posts}
    for number, promise in walk.committed.items():
        if number not in numbers:
            verdict.problems.append(
                f"seq {promise.seq}: post {number} is committed in the log but missing from"
                " the archive"
            )
    uncommitted = 0
    for post in posts:
        where = f"post {post.number} ({post.kind}{_at(post.at)})"
        record = walk.committed.get(post.number)
        if record is None:
            if walk.protocol >= 2:
                verdict.problems.append(f"{where}: not committed in the log when it was made")
                continue
            uncommitted += 1
        else:
            promised = record.payload
            if promised["digest"] != post.hash:
                verdict.problems.append(
                    f"{where}: its text is not the one the log committed to at seq"
                    f" {record.seq} ({promised['digest']}): it was edited"
                )
                continue
            if promised["post"] != post.kind or tuple(promised["at"]) != post.at:
                verdict.problems.append(
                    f"{where}: the log committed it at seq {record.seq} as"
                    f" {promised['post']}{_at(tuple(promised['at']))}"
                )
                continue
            if record.seq <= post.at_seq:
                verdict.problems.append(
                    f"{where}: committed at seq {record.seq}, before the log it shows"
                )
                continue
        _rerender(env, walk, post, where, committed=record is not None, verdict=verdict)
    if uncommitted:
        verdict.notes.append(
            f"{uncommitted} posts were archived before gm committed each post's text into the"
            " log (protocol 1): their hashes verify, and they are rendered again below"
        )


def _rerender(
    env: Env, walk: _Walk, post: StoredPost, where: str, *, committed: bool, verdict: Verdict
) -> None:
    campaign = walk.campaigns.get(post.at_seq)
    today = None  # what would render the post today, if anything can
    if campaign is None:
        fresh, failure = None, f"refers to seq {post.at_seq}, which is not in the log"
    else:
        try:
            with contextlib.suppress(GMError):  # no such template: the render says so
                today = rendered_by(campaign, post.kind, env.templates)
            fresh = render_public(
                campaign, PostRef(post.kind, post.at), campaign.head, env.templates
            )
        except (GMError, KeyError, TypeError, ValueError) as err:
            fresh, failure = None, f"cannot be rendered again: {err}"
        else:
            failure = f"differs from a fresh render of the log at seq {post.at_seq}"
    if fresh == post.body:
        return
    if post.rendered_by is not None and post.rendered_by != today:
        # Not a tampering sign: the post's text is the one committed (or, in
        # an old log, its hash verifies); only its wording cannot be re-derived.
        verdict.other_renders.append(post.number)
        verdict.notes.append(
            f"{where}: written by {_short(post.rendered_by)}, not by today's"
            f" {_short(today)}; its text is the one {'committed' if committed else 'archived'},"
            " its wording cannot be compared (if a --templates folder wrote it, give that folder)"
        )
    elif post.rendered_by is None:
        verdict.problems.append(
            f"{where}: {failure} (archived before gm recorded what rendered each post:"
            " if gm or its templates changed since, that explains it)"
        )
    else:
        verdict.problems.append(f"{where}: {failure}")


def _short(rendered_by: str | None) -> str:
    """« gm 0.1.0, templates 0aedb014ba13 »."""
    if rendered_by is None:
        return "no template (it is gone)"
    version, _, fingerprint = rendered_by.rpartition(" ")
    return f"{version}, templates {fingerprint.removeprefix('sha256:')[:12]}"


def _at(at: tuple[int, ...]) -> str:
    return f" {'.'.join(map(str, at))}" if at else ""


__all__ = ["Verdict", "check", "verify"]
