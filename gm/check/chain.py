"""The chain: the posts in order, and the log their proofs publish, re-hashed.

Each post's proof (``gm.core.proof``) names the campaign (the hash of its
first event), the post's number and the records since the previous post
(public ones in full, private ones by their body), and opens private
records. ``build`` puts the posts in order by number and says what does not
hold: a post missing, twice, out of order in a text, from another campaign;
a record published twice differently; an opening that does not seal to the
body the chain holds. Then it recomputes every record's hash from the first
event (protocol 4: ``gm.core.proof.envelope_hash``, private records
included by their body) as far as the records go without a gap, and gives
the log as ``StoredEvent`` records, the opened ones with their content, the
others known by their body only (``StoredEvent.sealed_body``).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from gm.check.report import BAD, MISSING, Report
from gm.check.thread import Pasted
from gm.core.canonical import canonical_json
from gm.core.proof import Entry, Opening
from gm.store.records import StoredEvent

GAME = "jeu"
"""The report's section about the whole game."""


@dataclass
class Chain:
    """The thread's posts in order and the log they publish."""

    campaign: str
    """The hash of the campaign's first event."""
    posts: list[Pasted]
    """One per number, in the order of their numbers."""
    entries: dict[int, Entry] = field(default_factory=dict)
    owner: dict[int, int] = field(default_factory=dict)
    """The post whose proof published each record, by seq."""
    openings: dict[int, Opening] = field(default_factory=dict)
    opened_by: dict[int, int] = field(default_factory=dict)
    """The post that opened each private record, by seq."""
    hashes: dict[int, str] = field(default_factory=dict)
    """Each record's recomputed hash, as far as the chain goes from seq 1."""
    gap: int | None = None
    """The first seq no proof of the thread publishes, if the chain stops before its last post."""
    records: list[StoredEvent] = field(default_factory=list)
    """The log from seq 1 to the last record before ``gap``."""
    missing: list[int] = field(default_factory=list)
    """Post numbers between the first and the last one given that are not in the thread."""

    def post(self, number: int) -> Pasted | None:
        return next(
            (p for p in self.posts if p.proof is not None and p.proof.number == number), None
        )


def title(post: Pasted) -> str:
    """A post's section title: « Message 3 (results 1) — fil.md:40–72 »."""
    assert post.proof is not None
    at = ".".join(map(str, post.proof.at))
    return (
        f"Message {post.proof.number} ({post.proof.kind}{' ' + at if at else ''}) — {post.where()}"
    )


def build(posts: list[Pasted], report: Report) -> Chain | None:
    """The chain of ``posts`` (those whose proof was read); None if none was."""
    readable = [p for p in posts if p.proof is not None]
    if not readable:
        return None
    # the thread is the campaign most of its posts are of; a tie goes to the lowest post's
    campaigns = Counter(p.proof.campaign for p in readable if p.proof is not None)
    lowest = min(readable, key=lambda p: (p.proof.number if p.proof else 0, p.order))
    assert lowest.proof is not None
    top = max(campaigns.values())
    campaign = (
        lowest.proof.campaign
        if campaigns[lowest.proof.campaign] == top
        else next(c for c, n in campaigns.items() if n == top)
    )
    chain = Chain(campaign, [])
    by_number: dict[int, Pasted] = {}
    for post in sorted(readable, key=lambda p: p.order):
        assert post.proof is not None
        key = post_key(post)
        report.section(key, title(post))
        if post.proof.campaign != campaign:
            report.add(
                key,
                BAD,
                f"ce message est d'une autre partie (campagne {short(post.proof.campaign)},"
                f" le fil est celle de {short(campaign)}) : il n'en fait pas partie",
            )
            continue
        number = post.proof.number
        if number in by_number:
            twin = by_number[number]
            report.add(
                key,
                BAD,
                f"le message n° {number} est déjà en {twin.where()} : un message publié deux fois",
            )
            continue
        by_number[number] = post
    chain.posts = [by_number[n] for n in sorted(by_number)]
    _order(chain, report)
    numbers = sorted(by_number)
    chain.missing = [n for n in range(numbers[0], numbers[-1] + 1) if n not in by_number]
    for n in chain.missing:
        after = next(p for p in chain.posts if p.proof is not None and p.proof.number > n)
        report.add(
            post_key(after),
            BAD,
            f"le message n° {n} manque au fil : gm l'a numéroté, le fil passe du"
            f" n° {_before(chain, n)} au n° {after.proof.number if after.proof else '?'}",
        )
    if numbers[0] != 1:
        report.add(
            post_key(chain.posts[0]),
            MISSING,
            f"le fil commence au message n° {numbers[0]} : sans"
            + (" le message 1" if numbers[0] == 2 else f" les messages 1 à {numbers[0] - 1}")
            + ", la chaîne ne peut pas être recalculée depuis le premier événement",
        )
    _records(chain, report)
    _openings(chain, report)
    _hash(chain, report)
    return chain


def post_key(post: Pasted) -> tuple[str, int]:
    return ("post", post.order)


def short(value: str) -> str:
    return value.removeprefix("sha256:")[:16] + "…"


def _before(chain: Chain, n: int) -> str:
    lower = [p.proof.number for p in chain.posts if p.proof is not None and p.proof.number < n]
    return str(max(lower)) if lower else "?"


def _order(chain: Chain, report: Report) -> None:
    """Posts of one text must come in the order of their numbers (the forum's order)."""
    last: dict[str, Pasted] = {}
    for post in sorted(chain.posts, key=lambda p: p.order):
        assert post.proof is not None
        before = last.get(post.source)
        if (
            before is not None
            and before.proof is not None
            and before.proof.number > post.proof.number
        ):
            report.add(
                post_key(post),
                BAD,
                f"le message n° {post.proof.number} vient après le n° {before.proof.number}"
                f" ({before.where()}) : les messages ne sont pas dans l'ordre où gm les a"
                " publiés",
            )
        last[post.source] = post


def _records(chain: Chain, report: Report) -> None:
    for post in chain.posts:
        assert post.proof is not None
        key = post_key(post)
        seqs = [e.seq for e in post.proof.records]
        if seqs and seqs != list(range(seqs[0], seqs[0] + len(seqs))):
            report.add(
                key, BAD, f"sa preuve publie des événements qui ne se suivent pas ({_span(seqs)})"
            )
        if seqs and seqs[-1] != post.proof.at_seq:
            report.add(
                key,
                BAD,
                f"sa preuve s'arrête à l'événement {seqs[-1]}, mais le message dit montrer le"
                f" registre à l'événement {post.proof.at_seq}",
            )
        for entry in post.proof.records:
            known = chain.entries.get(entry.seq)
            if known is None:
                chain.entries[entry.seq] = entry
                chain.owner[entry.seq] = post.proof.number
            elif _envelope(known) != _envelope(entry):
                report.add(
                    key,
                    BAD,
                    f"l'événement {entry.seq} n'est pas celui que le message n°"
                    f" {chain.owner[entry.seq]} a publié : le registre a été réécrit",
                )


def _openings(chain: Chain, report: Report) -> None:
    for post in chain.posts:
        assert post.proof is not None
        key = post_key(post)
        for opening in post.proof.opened:
            entry = chain.entries.get(opening.seq)
            if entry is None:
                report.add(
                    key,
                    BAD,
                    f"il ouvre l'événement {opening.seq}, qu'aucun message du fil ne publie",
                )
                continue
            if opening.seq > post.proof.at_seq:
                report.add(
                    key,
                    BAD,
                    f"il ouvre l'événement {opening.seq}, postérieur au registre qu'il montre"
                    f" (événement {post.proof.at_seq})",
                )
            if not opening.seals_to(entry):
                report.add(
                    key,
                    BAD,
                    f"l'événement {opening.seq} ({entry.kind}) qu'il ouvre ne correspond pas à"
                    f" son sceau publié par le message n° {chain.owner[opening.seq]} : le"
                    " contenu dévoilé n'est pas celui qui avait été scellé",
                )
                continue
            if opening.seq not in chain.openings:
                chain.openings[opening.seq] = opening
                chain.opened_by[opening.seq] = post.proof.number


def _hash(chain: Chain, report: Report) -> None:
    prev: str | None = None
    seq = 1
    while seq in chain.entries:
        entry = chain.entries[seq]
        current = entry.hash(prev)
        chain.hashes[seq] = current
        payload, salt = entry.payload, entry.salt
        opening = chain.openings.get(seq)
        if payload is None and opening is not None:
            payload, salt = opening.payload, opening.salt
        known = payload is not None and salt is not None
        chain.records.append(
            StoredEvent(
                seq=seq,
                kind=entry.kind,
                actor=entry.actor,
                audience=entry.audience,
                payload=payload if known and payload is not None else {},
                payload_json=canonical_json(payload) if known else "",
                salt=salt if known and salt is not None else "",
                source=entry.source,
                recorded_at=entry.recorded_at,
                prev_hash=prev,
                hash=current,
                sealed_body=None if known else entry.body,
            )
        )
        prev = current
        seq += 1
    last = max(chain.entries, default=0)
    if seq <= last:
        chain.gap = seq
        holder = next(
            (p for p in chain.posts if p.proof is not None and p.proof.at_seq >= seq), None
        )
        if holder is not None:
            report.add(
                post_key(holder),
                MISSING,
                f"aucun message du fil ne publie l'événement {seq} : la chaîne ne peut pas être"
                f" recalculée au-delà de l'événement {seq - 1}",
            )
    if 1 in chain.hashes and chain.hashes[1] != chain.campaign:
        report.section(GAME, "La partie")
        report.add(
            GAME,
            BAD,
            f"le premier événement recalculé a pour empreinte {short(chain.hashes[1])}, pas"
            f" {short(chain.campaign)}, l'identité de campagne que les preuves déclarent",
        )


def _envelope(entry: Entry) -> tuple[object, ...]:
    return (entry.kind, entry.actor, entry.audience, entry.recorded_at, entry.body, entry.source)


def _span(seqs: list[int]) -> str:
    return ", ".join(map(str, seqs[:6])) + ("…" if len(seqs) > 6 else "")
