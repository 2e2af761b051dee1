"""Verification: the log's hash chain, the refold, every stored post re-rendered.

``verify`` is what the MJ runs to show that the archive is intact: each
event's hash is recomputed from its stored bytes, the log is folded again
from the start (a payload that no longer decodes is a finding), and every
stored post is rendered again from the log as it stood when the post was
made, then compared byte for byte with what was stored (and published).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from gm.core.protocol import PostRef
from gm.errors import GMError
from gm.service import dice
from gm.service.env import Env
from gm.service.loading import Campaign, fold
from gm.service.posts import render_public

PLATFORM_POSTS: dict[str, Callable[[Campaign, Path | None], str]] = {
    dice.POST_KIND: dice.render_post,
}
"""Post kinds the platform renders itself (not a game's view), by their renderer."""


def verify(env: Env, slug: str) -> list[str]:
    """Everything that does not verify, each naming where; empty when all is well."""
    store = env.store
    info = store.campaign(slug)
    problems = store.verify_chain(info.slug) + store.verify_posts(info.slug)
    if problems:
        return problems  # re-rendering a broken log would only repeat the finding
    records = store.events(info.slug)
    for post in store.posts(info.slug):
        try:
            campaign = fold(info.slug, info.game, records[: post.at_seq])
            platform = PLATFORM_POSTS.get(post.kind)
            if platform is not None:
                fresh = platform(campaign, env.templates)
            else:
                fresh = render_public(
                    campaign, PostRef(post.kind, post.round), campaign.head, env.templates
                )
        except (GMError, KeyError, TypeError, ValueError) as err:
            problems.append(f"post {post.number} ({post.kind}): cannot be rendered again: {err}")
            continue
        if fresh != post.body:
            problems.append(
                f"post {post.number} ({post.kind}{_round(post.round)}): differs from a fresh"
                f" render of the log at seq {post.at_seq}"
            )
    return problems


def _round(round_: int | None) -> str:
    return f", round {round_}" if round_ is not None else ""
