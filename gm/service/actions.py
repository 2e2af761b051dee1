"""Commands on a campaign: players' submissions and the MJ's game steps.

One code path for everything that changes a campaign (``_run``): inside one
write transaction (BEGIN IMMEDIATE on SQLite), read the log, fold it, let the
game decide, append the events, render and store the posts the game asks
for. Either all of it is recorded or nothing is. A refused player
submission is still logged (``SubmissionRejected``), because forum disputes
are about exactly that, but it changes no game state. ``preview`` runs the
same path and records nothing.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from gm.core import fortune
from gm.core.campaign import (
    DeadlineSet,
    EntropyAdded,
    SubmissionReceived,
    SubmissionRejected,
    evolve_meta,
)
from gm.core.codec import to_json
from gm.core.names import find_name, nfc
from gm.core.protocol import GM, Command, Event, PostRef, StepSpec
from gm.errors import GMError, InputError, NotFoundError, quote_choices
from gm.service import clock
from gm.service.env import Env
from gm.service.loading import Campaign, codec_for, extend, fold, record_seal
from gm.service.posts import archive, render_common, render_private, render_public
from gm.store.log import NewEvent, StoredEvent


@dataclass(frozen=True)
class Post:
    """A rendered public post (Markdown) and where it sits in the log."""

    ref: PostRef
    body: str
    number: int | None = None
    """Its number in the campaign's archive; None for a preview."""


@dataclass(frozen=True)
class Result:
    """What a command did: the campaign after it, its posts and reply."""

    campaign: Campaign
    events: tuple[StoredEvent, ...] = ()
    posts: tuple[Post, ...] = ()
    reply: str | None = None
    recorded: bool = True
    notes: tuple[str, ...] = field(default_factory=tuple)


def new_event(event: Event, actor: str, source: str | None = None) -> NewEvent:
    return NewEvent(
        kind=event.kind,
        actor=actor,
        audience=event.audience(),
        payload=to_json(event),
        source=source,
    )


def load(env: Env, slug: str) -> Campaign:
    """The campaign as its log stands now (read-only)."""
    info = env.store.campaign(slug)
    return fold(info.slug, info.game, env.store.events(info.slug))


def resolve_player(campaign: Campaign, name: str) -> str:
    """The seated player ``name`` designates (case and accents ignored).

    :raises NotFoundError: naming the campaign's players.
    """
    found = find_name(campaign.meta.players, name)
    if found is not None:
        return found
    raise NotFoundError(
        f"no player {name!r} in {campaign.slug!r} (players: {quote_choices(campaign.meta.players)})",
        code="player/not-found",
    )


_WORD_LINE = re.compile(r"^[ \t]*graine[ \t]*:[ \t]*(.*?)[ \t]*$", re.I | re.M)
MAX_WORD = 100


def split_word(text: str) -> tuple[str | None, str]:
    """A player's word for the fortune (a « graine : … » line) and the rest of
    their message, which is the order the game reads."""
    match = _WORD_LINE.search(text)
    if match is None:
        return None, text
    return match.group(1), (text[: match.start()] + text[match.end() :]).strip()


def check_word(word: str) -> str:
    """A player's word, normalised; refused when empty, too long or with control characters."""
    clean = nfc(word)
    if not clean or len(clean) > MAX_WORD or any(ord(c) < 32 for c in clean):
        raise InputError(
            f"the fortune word {word[:30]!r} must be 1 to {MAX_WORD} printable characters",
            code="input/word",
        )
    return clean


def submit(
    env: Env,
    slug: str,
    player: str,
    text: str | None = None,
    params: Mapping[str, Any] | None = None,
    source: str | None = None,
    preview: bool = False,
    word: str | None = None,
) -> Result:
    """Record a player's private message (free text, or explicit ``params``).

    A « graine : … » line in the text (or ``word``) is the player's word for
    the fortune, mixed into every later draw. Returns the French reply to
    send back. A refused message is logged and raises its error, with the
    French reply in ``error.draft``.
    """
    order_text = text
    if text is not None:
        found, order_text = split_word(text)
        word = word if word is not None else found
    if word is not None:
        word = check_word(word)
    if text is not None and len(text) > MAX_ORDER_TEXT:
        raise InputError(
            f"the order text is {len(text)} characters long; the limit is {MAX_ORDER_TEXT}",
            code="input/too-long",
        )

    def make(campaign: Campaign, actor: str) -> Command:
        if params:
            return campaign.game.order_from_params(campaign.state, actor, params)
        if order_text is None or not order_text.strip():
            raise InputError(
                "no order given: paste the player's message, or use the explicit options",
                code="input/empty-order",
            )
        return campaign.game.parse(campaign.state, actor, order_text)

    shown = text if text is not None else " ".join(f"--{k} {v}" for k, v in (params or {}).items())
    return _run(
        env, slug, player, make, submission=shown, source=source, preview=preview, word=word
    )


MAX_ORDER_TEXT = 4000
"""A private message longer than this is not an order: refuse before parsing."""


def step(
    env: Env,
    slug: str,
    name: str,
    values: Mapping[str, Any],
    deadline: str | None = None,
    preview: bool = False,
) -> Result:
    """Run the MJ's game step ``name`` (``draw``, ``reveal``…) with its parameters."""

    def make(campaign: Campaign, actor: str) -> Command:
        spec = find_step(campaign, name)
        if deadline is not None and not spec.deadline:
            raise InputError(f"'gm {name}' takes no --deadline", code="input/deadline")
        return spec.build(values)

    return _run(env, slug, GM, make, deadline=deadline, preview=preview)


def find_step(campaign: Campaign, name: str) -> StepSpec:
    for spec in campaign.game.steps:
        if spec.name == name:
            return spec
    names = [s.name for s in campaign.game.steps]
    raise InputError(
        f"{campaign.game.id} has no step {name!r} (its steps: {quote_choices(names)})",
        code="input/no-step",
    )


def _run(
    env: Env,
    slug: str,
    actor: str,
    make: Callable[[Campaign, str], Command],
    *,
    submission: str | None = None,
    source: str | None = None,
    deadline: str | None = None,
    preview: bool = False,
    word: str | None = None,
) -> Result:
    store = env.store
    info = store.campaign(slug)
    refusal: GMError | None = None
    with store.write(info.slug) as w:
        campaign = fold(info.slug, info.game, w.events(info.slug))
        if actor != GM:
            actor = resolve_player(campaign, actor)
        label = fortune.label_for(campaign.draws + 1, campaign.meta.words)
        draws = fortune.Fortune(campaign.meta.seed or "", label)
        try:
            command = make(campaign, actor)
            events = campaign.game.decide(campaign.state, actor, command, draws)
        except GMError as err:
            if submission is None or isinstance(err, InputError):
                raise
            refusal = err
            err.draft = render_common(
                campaign,
                "order_rejected",
                env.templates,
                player=actor,
                text=submission,
                error={"code": err.code, "message": err.message, "params": err.params},
            )
            if not preview:
                rejected = SubmissionRejected(actor, submission, err.code, err.message)
                w.append(info.slug, [new_event(rejected, actor, source)], campaign.seq)
        if refusal is None:
            if word is not None:
                events = [EntropyAdded(actor, word), *events]
            result = _apply(env, w, campaign, actor, events, submission, source, deadline, preview)
    if refusal is not None:
        raise refusal
    return result


def _apply(
    env: Env,
    w: Any,
    campaign: Campaign,
    actor: str,
    events: Sequence[Event],
    submission: str | None,
    source: str | None,
    deadline: str | None,
    preview: bool,
) -> Result:
    """Record a decided command's events, then render and store its posts."""
    recorded: list[Event] = []
    if submission is not None:
        recorded.append(SubmissionReceived(actor, submission))
    recorded.extend(events)
    after_state = campaign.replay(events)
    if deadline is not None:
        tz = campaign.meta.settings["tz"]
        at = clock.parse_deadline(deadline, env.now(), tz)
        recorded.append(DeadlineSet(campaign.game.phase(after_state), at.isoformat()))
    refs = campaign.game.posts_after(campaign.state, events, after_state)

    if preview:
        # Fold the would-be events without storing them: the posts show the
        # state after the command, with the chain head as it stands.
        projected = _project(campaign, recorded, actor)
        posts = tuple(
            Post(ref, render_public(projected, ref, campaign.head, env.templates)) for ref in refs
        )
        reply = _reply(env, projected, actor, submission, None)
        return Result(projected, (), posts, reply, recorded=False)

    stored = w.append(campaign.slug, [new_event(e, actor, source) for e in recorded], campaign.seq)
    after = extend(campaign, stored)
    stored_posts = []
    for ref in refs:
        body = render_public(after, ref, after.head, env.templates)
        row = archive(w, after, ref, body, env.templates)
        stored_posts.append(Post(ref, body, row.number))
    reply = _reply(env, after, actor, submission, stored)
    return Result(after, tuple(stored), tuple(stored_posts), reply)


def _reply(
    env: Env,
    campaign: Campaign,
    actor: str,
    submission: str | None,
    stored: Sequence[StoredEvent] | None,
) -> str | None:
    """The private reply to a submission, with the seal of the order it recorded."""
    if submission is None:
        return None
    sealed = [r for r in stored or () if codec_for(campaign.game.id).type_of(r.kind).sealed]
    seal = record_seal(sealed[-1]) if sealed else None
    return render_private(campaign, "order_received", actor, env.templates, {"seal": seal})


def _project(campaign: Campaign, events: Sequence[Event], actor: str) -> Campaign:
    """The campaign as it would be after ``events``, for previews (nothing stored)."""
    meta = campaign.meta
    for event in events:
        if event.kind.startswith("gm."):
            meta = evolve_meta(meta, event) or meta
    # The would-be seqs of the events, so that the preview counts its draws.
    drawn = {campaign.seq + 1 + i for i, event in enumerate(events) if event.drew_chance()}
    return replace(
        campaign, meta=meta, state=campaign.replay(events), chance=campaign.chance | drawn
    )
