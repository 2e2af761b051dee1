"""Verification: the log's hash chain, the refold, every stored post re-rendered.

``verify`` is what the MJ runs to show that the archive is intact: each
event's hash is recomputed from its stored bytes, the log is folded again
from the start (a payload that no longer decodes is a finding), and every
stored post is rendered again from the log as it stood when the post was
made, then compared byte for byte with what was stored (and published).

A post records what rendered it (gm's version and its templates'
fingerprint). One that differs from today's rendering is a problem when
today's gm and templates are those that wrote it; otherwise it is a note:
an upgrade or another --templates folder explains it, and the post's hash
and place in the log still verify.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from gm.core.protocol import PostRef
from gm.errors import GMError
from gm.service import dice
from gm.service.env import Env
from gm.service.loading import Campaign, fold
from gm.service.posts import render_public, rendered_by

PLATFORM_POSTS: dict[str, Callable[[Campaign, Path | None], str]] = {
    dice.POST_KIND: dice.render_post,
}
"""Post kinds the platform renders itself (not a game's view), by their renderer."""


@dataclass(frozen=True)
class Verdict:
    """What ``verify`` found: ``problems`` (the archive does not hold together)
    and ``notes`` (posts that an older gm or other templates wrote, which
    cannot be compared with today's rendering)."""

    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def verify(env: Env, slug: str) -> Verdict:
    """Everything that does not verify, each naming where; no problems when all is well."""
    store = env.store
    info = store.campaign(slug)
    problems = store.verify_chain(info.slug) + store.verify_posts(info.slug)
    if problems:
        return Verdict(problems)  # re-rendering a broken log would only repeat the finding
    verdict = Verdict()
    records = store.events(info.slug)
    for post in store.posts(info.slug):
        where = f"post {post.number} ({post.kind}{_round(post.round)})"
        today = None  # what would render the post today, if anything can
        try:
            campaign = fold(info.slug, info.game, records[: post.at_seq])
            with contextlib.suppress(GMError):  # no such template: the render says so
                today = rendered_by(campaign, post.kind, env.templates)
            platform = PLATFORM_POSTS.get(post.kind)
            if platform is not None:
                fresh = platform(campaign, env.templates)
            else:
                fresh = render_public(
                    campaign, PostRef(post.kind, post.round), campaign.head, env.templates
                )
        except (GMError, KeyError, TypeError, ValueError) as err:
            fresh, failure = None, f"cannot be rendered again: {err}"
        else:
            failure = f"differs from a fresh render of the log at seq {post.at_seq}"
        if fresh == post.body:
            continue
        if post.rendered_by is not None and post.rendered_by != today:
            # Not a tampering sign: the post's hash and place in the log
            # verified above; only its wording cannot be re-derived here.
            verdict.notes.append(
                f"{where}: written by {_short(post.rendered_by)}, not by today's"
                f" {_short(today)}; its hash and place in the log verify, its wording"
                " cannot be compared (if a --templates folder wrote it, give that folder)"
            )
        elif post.rendered_by is None:
            verdict.problems.append(
                f"{where}: {failure} (archived before gm recorded what rendered each post:"
                " if gm or its templates changed since, that explains it)"
            )
        else:
            verdict.problems.append(f"{where}: {failure}")
    return verdict


def _short(rendered_by: str | None) -> str:
    """« gm 0.1.0, templates 0aedb014ba13 »."""
    if rendered_by is None:
        return "no template (it is gone)"
    version, _, fingerprint = rendered_by.rpartition(" ")
    return f"{version}, templates {fingerprint.removeprefix('sha256:')[:12]}"


def _round(round_: int | None) -> str:
    return f", round {round_}" if round_ is not None else ""
