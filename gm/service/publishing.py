"""Posts on demand: re-print a stored post, a player's private status,
reminders before a deadline.

A stored post is printed as it was recorded (that is what was published). A
kind that was never stored (the end-of-game disclosure, say) is rendered
from the current state, then stored, since the MJ is about to publish it.
"""

from __future__ import annotations

from dataclasses import dataclass

from gm.core.protocol import PostRef, post_name
from gm.errors import NotFoundError, quote_choices
from gm.service import pipeline
from gm.service.env import Env
from gm.service.loading import Campaign, load
from gm.service.pipeline import Worked
from gm.service.players import resolve_player
from gm.service.posts import publish, render_common, render_private, render_public
from gm.store.draft import Sink
from gm.store.log import StoredPost
from gm.store.records import CampaignInfo


def find_post(env: Env, slug: str, kind: str | None, at: tuple[int, ...] | None) -> StoredPost:
    """The latest stored post of that kind (and at those coordinates, or
    starting with them: ``(2,)`` matches « manche 2, duel 3 »); the latest
    post if no kind.

    When nothing of that kind is stored yet, render it from the current state
    and publish it.

    :raises NotFoundError: no such post.
    """
    posts = env.store.posts(slug)
    matching = [
        p
        for p in posts
        if (kind is None or p.kind == kind) and (at is None or p.at[: len(at)] == at)
    ]
    if matching:
        return matching[-1]
    if kind is None or at is not None:
        kinds = [post_name(p.kind, p.at) for p in sorted(posts, key=lambda p: (p.kind, p.at))]
        where = _where(env, slug, kind, at or ())
        raise NotFoundError(
            f"no {kind or 'post'}{where} in {slug!r} (stored: {quote_choices(kinds)})",
            code="post/not-found",
        )
    return _render_and_publish(env, slug, PostRef(kind))


def publish_owed(env: Env, slug: str) -> list[StoredPost]:
    """The posts a finished game owes its players and the MJ has not asked
    for yet (``PostKind.owed_at_end``: Le Magot's disclosure), rendered and
    published now, in the game's order; none while the game goes on."""
    campaign = load(env, slug)
    if not campaign.over:
        return []
    stored = {p.kind for p in env.store.posts(slug)}
    owed = [k.name for k in campaign.game.info.post_kinds if k.owed_at_end]
    return [_render_and_publish(env, slug, PostRef(kind)) for kind in owed if kind not in stored]


def _where(env: Env, slug: str, kind: str | None, at: tuple[int, ...]) -> str:
    """« for round 3 », « for manche 2, duel 3 »: the coordinates by their names."""
    if not at:
        return ""
    from gm import games

    spec = games.info(env.store.campaign(slug).game).post_kind(kind or "")
    names = spec.coords if spec is not None else ()
    if len(names) < len(at):
        return f" at {'.'.join(map(str, at))}"
    return " for " + ", ".join(f"{n} {v}" for n, v in zip(names, at, strict=False))


def _render_and_publish(env: Env, slug: str, ref: PostRef) -> StoredPost:
    def work(w: Sink, info: CampaignInfo, campaign: Campaign) -> Worked[StoredPost]:
        body = render_public(campaign, ref, campaign.head, env.templates)
        after, rows = publish(w, campaign, [(ref, body)], env.templates)
        return Worked(rows[0], after)

    return pipeline.run(env.store, slug, work)


def private_status(env: Env, slug: str, player: str) -> str:
    """The private message that tells ``player`` where they stand."""
    campaign = load(env, slug)
    return render_private(campaign, "pm", resolve_player(campaign, player), env.templates)


@dataclass(frozen=True)
class Reminder:
    public: str
    nudges: dict[str, str]
    """Each awaited player's nudge, by their current name."""


def remind(env: Env, slug: str) -> Reminder:
    """The public reminder of missing orders and one private nudge per awaited player."""
    campaign = load(env, slug)
    name = campaign.meta.name
    awaited = list(campaign.game.waiting_for(campaign.state))
    expected = [
        {"player": name(a.player), "how": a.how, "what": a.what}
        for a in campaign.game.awaiting(campaign.state)
    ]
    due = campaign.deadline()
    public = render_common(
        campaign,
        "remind",
        env.templates,
        awaiting=[name(s) for s in awaited],
        expected=expected,
        passed=due is not None and due <= env.now(),
    )
    nudges = {
        name(seat): render_private(campaign, "nudge", seat, env.templates) for seat in awaited
    }
    return Reminder(public, nudges)
