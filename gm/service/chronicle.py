"""``gm chronicle``: the campaign's public story as one document, for the archive.

Every stored post in order (each under a small header: its number, kind,
round and hash), then what anyone needs to check it: the fortune's
commitment, the seed once the game is over, the chain head. Only stored posts
go in, and they are public by construction; private submissions and replies
never do. A post made obsolete by ``gm undo`` stays (it was published) and
says so.
"""

from __future__ import annotations

from gm.core.campaign import EventsVoided
from gm.core.protocol import post_name
from gm.render.escape import escape_markdown
from gm.service.env import Env
from gm.service.loading import fold

FORMATS = ("markdown", "html")


def chronicle(env: Env, slug: str, fmt: str = "markdown") -> str:
    """The chronicle of ``slug`` as Markdown, or HTML converted from it."""
    store = env.store
    info = store.campaign(slug)
    records = store.events(info.slug)
    campaign = fold(info.slug, info.game, records)
    posts = store.posts(info.slug)
    undos = [
        (r.payload["first_seq"], r.seq) for r in records if r.kind == EventsVoided.kind
    ]  # a post rendered between a voided event and its undo is obsolete
    title = escape_markdown(campaign.meta.title)
    players = ", ".join(escape_markdown(p) for p in campaign.meta.players)
    lines = [f"# {title}", ""]
    lines.append(f"*{campaign.game.id} — {players} — {len(posts)} posts, {campaign.seq} events.*")
    lines.append("")
    for post in posts:
        obsolete = any(first <= post.at_seq < at for first, at in undos)
        note = " — *obsolete: undone by the MJ*" if obsolete else ""
        lines += [
            "---",
            "",
            f"## Post {post.number} — {post_name(post.kind, post.at)}{note}",
            "",
            f"`{post.hash}` (after event {post.at_seq}, {post.created_at})",
            "",
            post.body.rstrip("\n"),
            "",
        ]
    over = campaign.game.is_over(campaign.state)
    lines += [
        "---",
        "",
        "## Verification",
        "",
        f"* Seal of fortune (SHA-256 of the seed): `{campaign.meta.commitment}`",
    ]
    if over and campaign.meta.seed is not None:
        lines.append(f"* Seed (revealed, the game is over): `{campaign.meta.seed}`")
    else:
        lines.append("* Seed: kept secret until the game is over.")
    lines += [
        f"* Chain head: event {campaign.seq}, `{campaign.head}`",
        "* Each post's hash above is the SHA-256 of its text (UTF-8).",
        "",
        "To check: the seed's SHA-256 must equal the seal; every draw can be "
        "re-derived from the seed (README, “The fortune: how every draw is made, and "
        "how to check it”); sealed orders match their published seals (README, “Sealed "
        "orders: proving no order was changed”); and `gm verify` on the MJ's archive "
        "recomputes the chain up to the head above and renders every post again.",
        "",
    ]
    text = "\n".join(lines)
    if fmt == "html":
        from gm.render.markup import convert

        return convert(text, "html")
    return text
