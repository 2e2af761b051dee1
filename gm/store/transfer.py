"""Moving a campaign between databases verbatim (``gm export``, ``gm import``).

A ``CampaignCopy`` is a campaign's rows exactly as stored: every event with
its payload text, salt, source, timestamp and hashes, every post with its
body and hash. ``read_copy`` takes one from a database; ``restore`` checks it
(the hash chain, each post's hash and numbering) and only then writes it,
verbatim, into another: same seqs, same salts, same timestamps, no
re-hashing, so the copy verifies exactly as the original did. The slug is
not part of any hash, so a copy may be restored under another slug.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from gm.core.canonical import digest
from gm.errors import ChainIntegrityError
from gm.store.records import CampaignInfo, StoredEvent, StoredPost, chain_problems

if TYPE_CHECKING:
    from gm.store.log import Store, Writer


@dataclass(frozen=True)
class CampaignCopy:
    """A campaign's rows as stored; ``campaign.id`` means nothing outside its database."""

    campaign: CampaignInfo
    events: tuple[StoredEvent, ...]
    posts: tuple[StoredPost, ...]


def read_copy(store: Store, slug: str) -> CampaignCopy:
    """Campaign ``slug`` with all its events and posts, from one consistent snapshot.

    Payloads are not decoded: ``payload_json`` is the text as stored (a broken
    log is copied as it is; ``problems`` says what is wrong with it).

    :raises NotFoundError: ``campaign/not-found``.
    """
    with store.read() as r:
        info = r.campaign(slug)
        events = r._load(info.slug, None, decode=False)
        posts = r.posts(info.slug)
    return CampaignCopy(info, tuple(events), tuple(posts))


def post_problems(posts: tuple[StoredPost, ...], last_seq: int) -> list[str]:
    """Check posts' numbering, hashes and log positions; empty means they verify."""
    problems = []
    expected = 1
    for post in posts:
        if post.number != expected:
            problems.append(f"post {post.number}: gap in numbering, expected {expected}")
        if digest(post.body) != post.hash:
            problems.append(f"post {post.number}: body does not match its hash {post.hash}")
        if not 0 <= post.at_seq <= last_seq:
            problems.append(
                f"post {post.number}: made at seq {post.at_seq}, not in the log (0..{last_seq})"
            )
        expected = post.number + 1
    return problems


def problems(copy: CampaignCopy) -> list[str]:
    """Everything in ``copy`` that does not verify, each naming its seq or post."""
    last_seq = copy.events[-1].seq if copy.events else 0
    return chain_problems(copy.events) + post_problems(copy.posts, last_seq)


def restore(writer: Writer, copy: CampaignCopy, slug: str | None = None) -> CampaignInfo:
    """Write ``copy`` verbatim in ``writer``'s unit of work, as ``slug`` if given.

    The copy is checked first; nothing is written unless it all verifies.

    :raises ChainIntegrityError: ``import/integrity``, naming the first problem.
    :raises CampaignError: ``campaign/exists`` when the slug is taken.
    """
    found = problems(copy)
    if found:
        more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
        raise ChainIntegrityError(
            f"campaign {copy.campaign.slug!r} does not verify: {found[0]}{more}; "
            "nothing was imported",
            code="import/integrity",
            params={"slug": copy.campaign.slug, "problems": found},
        )
    target = replace(copy.campaign, slug=slug) if slug is not None else copy.campaign
    return writer.restore(target, copy.events, copy.posts)
