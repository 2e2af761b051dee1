"""Verification: everything the MJ's archive can prove, checked from scratch.

``verify`` is what the MJ runs to show that the archive is intact. It checks,
in order, and names the event (seq) or the post of every difference:

1. **The chain**: each event's hash recomputed from its stored bytes, each
   post's hash from its text, no gap in either numbering.
2. **The fortune**: the seed's SHA-256 is the commitment the opening post
   published.
3. **The log, refolded and decided again**: every event is read and folded
   from the start; every command the log recorded (``CommandDecided``) is
   decided again (``gm.service.replaying``, the walk the players' checker
   runs too) against the state it was decided on, with the same fortune
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
import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field

from gm.core.proof import Proof
from gm.core.protocol import PostRef
from gm.errors import ChainIntegrityError, GMError
from gm.service import proving
from gm.service.env import Env
from gm.service.loading import Campaign
from gm.service.posts import render_public, rendered_by
from gm.service.replaying import Replay
from gm.store.records import StoredEvent, StoredPost


@dataclass(frozen=True)
class Verdict:
    """What ``verify`` found: ``problems`` (the archive does not hold together)
    and ``notes`` (what could not be compared, and why)."""

    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    other_renders: list[int] = field(default_factory=list)
    """The numbers of the posts another gm or other templates wrote."""
    unrendered: list[str] = field(default_factory=list)
    """Posts that could not be rendered again within gm's limits (a render's
    steps, time, output or depth), each with why: not a sign of tampering,
    and not a proof of the post either."""


def verify(env: Env, slug: str) -> Verdict:
    """Everything that does not verify, each naming where; no problems when all is well."""
    store = env.store
    info = store.campaign(slug)
    problems = store.verify_chain(info.slug) + store.verify_posts(info.slug)
    if not problems and store.last_seq(info.slug) == 0:
        problems = ["the log has no events (the campaign's creation, event 1, is missing)"]
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
    walk = Replay(slug, game_id, records, {p.at_seq for p in posts})
    try:
        walk.run()
    except ChainIntegrityError as err:
        verdict.problems.extend(f.text for f in walk.problems)
        verdict.problems.append(err.message)
        return verdict
    verdict.problems.extend(f.text for f in walk.problems)
    if walk.undecided:
        verdict.notes.append(
            f"{walk.undecided} game events were recorded before gm kept the commands that"
            " decided them (protocol 1): they fold, but cannot be decided again"
        )
    _check_posts(env, walk, posts, verdict)
    return verdict


def _check_posts(env: Env, walk: Replay, posts: Sequence[StoredPost], verdict: Verdict) -> None:
    numbers = {p.number for p in posts}
    for number, promise in walk.committed.items():
        if number not in numbers:
            verdict.problems.append(
                f"seq {promise.seq}: post {number} is committed in the log but missing from"
                " the archive"
            )
    uncommitted = 0
    proved = _Proved(next_at={a.number: b.at_seq for a, b in itertools.pairwise(posts)})
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
        _rerender(
            env, walk, post, where, committed=record is not None, verdict=verdict, proved=proved
        )
    if uncommitted:
        verdict.notes.append(
            f"{uncommitted} posts were archived before gm committed each post's text into the"
            " log (protocol 1): their hashes verify, and they are rendered again below"
        )


@dataclass
class _Proved:
    """Where the previous post stood, and what the posts published with it
    opened: what the proof of the next one is made from (``gm.service.proving``)."""

    since: int = 0
    before: set[int] = field(default_factory=set)

    next_at: dict[int, int] = field(default_factory=dict)
    """The log position of the post after each one, by number."""

    def proof(self, campaign: Campaign, post: StoredPost) -> Proof:
        if post.at_seq != self.since:
            self.before = set()
        ref = PostRef(post.kind, post.at)
        # the posts of one command share their position; the last of them opens the seed
        last = self.next_at.get(post.number) != post.at_seq
        proof = proving.proof_of(campaign, ref, post.number, self.since, self.before, last)
        self.since = post.at_seq
        self.before.update(o.seq for o in proof.opened)
        return proof


def _rerender(
    env: Env,
    walk: Replay,
    post: StoredPost,
    where: str,
    *,
    committed: bool,
    verdict: Verdict,
    proved: _Proved,
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
            if proving.proves(campaign):
                fresh += proving.section(campaign, proved.proof(campaign, post), env.templates)
        except GMError as err:
            if err.code in LIMIT_CODES:  # a bound of gm's, not a finding about the post
                verdict.unrendered.append(
                    f"{where}: could not be rendered again to compare it: {err.message} [{err.code}]"
                )
                return
            fresh, failure = None, f"cannot be rendered again: {err}"
        except (KeyError, TypeError, ValueError) as err:
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


LIMIT_CODES = frozenset({"template/too-slow", "template/too-long", "template/too-deep"})
"""The errors of a render that went past one of gm's bounds (``gm.render``)."""


def _short(rendered_by: str | None) -> str:
    """« gm 0.1.0, templates 0aedb014ba13 »."""
    if rendered_by is None:
        return "no template (it is gone)"
    version, _, fingerprint = rendered_by.rpartition(" ")
    return f"{version}, templates {fingerprint.removeprefix('sha256:')[:12]}"


def _at(at: tuple[int, ...]) -> str:
    return f" {'.'.join(map(str, at))}" if at else ""


__all__ = ["Verdict", "check", "verify"]
