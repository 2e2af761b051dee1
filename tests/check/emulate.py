"""A stand-in for the producer side of the proof, until gm's posts carry their blocks.

It takes a campaign played by gm (its log and its archived posts) and
publishes it as protocol 3 would: every record re-hashed with
``gm.core.proof.envelope_hash``, a ``gm.command-decided`` public when the
events it decided are, every post rendered again from the re-hashed log
(so its footer shows the protocol-3 chain head) and followed by its proof
block: the records since the previous post, the private records the post
opens (the secrets its game's ``shown`` opens, with their whole history and
the commands that sealed them; at the end, every private record but the
submissions' texts, and the seed), and each ``gm.post-published`` digest
over the post's new text. ``Emulated.render`` is the checker's renderer
for such a thread: gm's render of a post plus the block the producer gave
it (the block itself the checker verifies against the chain).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from gm.core import proof as proofs
from gm.core.campaign import (
    CommandDecided,
    FortuneSealed,
    PostPublished,
    SubmissionReceived,
    SubmissionRejected,
)
from gm.core.canonical import canonical_json, digest
from gm.core.protocol import PUBLIC, PostRef
from gm.render.presets import to_forum
from gm.service.env import Env
from gm.service.loading import Campaign, codec_for, extend, fold
from gm.service.posts import render_public
from gm.store.records import StoredEvent

BLOCK_INTRO = "Preuve pour les vérificateurs (à ignorer) :"


@dataclass
class Published:
    number: int
    kind: str
    at: tuple[int, ...]
    at_seq: int
    markdown: str


@dataclass
class Emulated:
    game_id: str
    records: list[StoredEvent]
    posts: list[Published]
    blocks: dict[int, str] = field(default_factory=dict)
    templates: object = None

    def render(self, campaign: Campaign, ref: PostRef, proof: proofs.Proof) -> str:
        body = render_public(campaign, ref, campaign.head, self.templates)  # type: ignore[arg-type]
        return body + self.blocks.get(proof.number, "")

    def thread(self, preset: str = "markdown") -> str:
        return (
            "\n\n".join(to_forum(p.markdown, preset, "auto").rstrip("\n") for p in self.posts)
            + "\n"
        )

    def texts(self, preset: str = "markdown") -> list[str]:
        return [to_forum(p.markdown, preset, "auto") for p in self.posts]


def block_section(proof: proofs.Proof) -> str:
    lines = proofs.encode(proof).split("\n")
    return f"\n{BLOCK_INTRO}\n\n" + "\n".join("    " + line for line in lines) + "\n"


def _public_commands(records: list[StoredEvent]) -> set[int]:
    """The seqs of the commands whose events are all public."""
    out = set()
    for i, record in enumerate(records):
        if record.kind != CommandDecided.kind:
            continue
        j = i + 1
        public = True
        while (
            j < len(records)
            and records[j].kind not in (CommandDecided.kind,)
            and (not records[j].kind.startswith("gm.") or records[j].kind == "gm.chance-drawn")
        ):
            public = public and records[j].audience == PUBLIC
            j += 1
        if public:
            out.add(record.seq)
    return out


def emulate(env: Env, slug: str, templates: object = None) -> Emulated:
    """The campaign ``slug`` published as protocol 3 would (one pass over its log)."""
    store = env.store
    game_id = store.campaign(slug).game
    records = list(store.events(slug))
    stored_posts = store.posts(slug)
    public = _public_commands(records)
    codec = codec_for(game_id)
    emulated = Emulated(game_id, [], [], templates=templates)
    opened: set[int] = set()
    digests: dict[int, str] = {}
    rehashed: list[StoredEvent] = []
    keys: dict[int, object] = {}
    campaign: Campaign | None = None
    prev_at = 0
    for post in stored_posts:
        # a post's gm.post-published record comes after it: its digest is known
        _rehash_to(rehashed, records, post.at_seq, public, digests)
        campaign = (
            fold(slug, game_id, rehashed[: post.at_seq])
            if campaign is None
            else extend(campaign, rehashed[len(campaign.records) : post.at_seq])
        )
        ref = PostRef(post.kind, post.at)
        opens = _openings(campaign, ref, codec, opened, keys)
        opened |= opens
        entries = [
            proofs.Entry(
                seq=record.seq,
                kind=record.kind,
                actor=record.actor,
                audience=record.audience,
                recorded_at=record.recorded_at,
                body=record.body,
                source=record.source,
                payload=record.payload if record.audience == PUBLIC else None,
                salt=record.salt if record.audience == PUBLIC else None,
            )
            for record in rehashed[prev_at : post.at_seq]
        ]
        proof = proofs.Proof(
            campaign=rehashed[0].hash,
            number=post.number,
            kind=post.kind,
            at=tuple(post.at),
            at_seq=post.at_seq,
            records=tuple(entries),
            opened=tuple(
                proofs.Opening(r.seq, r.payload, r.salt)
                for r in rehashed[: post.at_seq]
                if r.seq in opens
            ),
        )
        section = block_section(proof)
        emulated.blocks[post.number] = section
        body = render_public(campaign, ref, campaign.head, templates) + section  # type: ignore[arg-type]
        digests[post.number] = digest(body)
        emulated.posts.append(Published(post.number, post.kind, tuple(post.at), post.at_seq, body))
        prev_at = post.at_seq
    _rehash_to(rehashed, records, len(records), public, digests)
    emulated.records = rehashed
    return emulated


def _rehash_to(
    rehashed: list[StoredEvent],
    records: list[StoredEvent],
    upto: int,
    public: set[int],
    digests: dict[int, str],
) -> None:
    """Extend ``rehashed`` (protocol 3's chain) to the first ``upto`` records."""
    prev = rehashed[-1].hash if rehashed else None
    for record in records[len(rehashed) : upto]:
        if record.kind == PostPublished.kind and record.payload["number"] in digests:
            payload = {**record.payload, "digest": digests[record.payload["number"]]}
            record = dataclasses.replace(
                record, payload=payload, payload_json=canonical_json(payload)
            )
        audience = PUBLIC if record.seq in public else record.audience
        body = proofs.body_of(record.kind, record.payload, record.salt)
        record = dataclasses.replace(
            record,
            audience=audience,
            prev_hash=prev,
            hash=proofs.envelope_hash(
                prev_hash=prev,
                seq=record.seq,
                kind=record.kind,
                actor=record.actor,
                audience=audience,
                body=body,
                source=record.source,
                recorded_at=record.recorded_at,
            ),
        )
        rehashed.append(record)
        prev = record.hash


def _openings(
    campaign: Campaign, ref: PostRef, codec: object, opened: set[int], keys: dict[int, object]
) -> set[int]:
    records = campaign.records
    shown = campaign.game.shown(campaign.state, ref)
    out: set[int] = set()
    wanted = set(shown.opened)
    batches = set()
    for record in records:
        if record.audience == PUBLIC or record.seq in opened:
            continue
        if record.kind.startswith("gm."):
            continue
        if record.seq not in keys:
            event = codec.decode(record.kind, record.payload)  # type: ignore[attr-defined]
            keys[record.seq] = event.secret_key() if event.sealed else None
        if keys[record.seq] is not None and keys[record.seq] in wanted:
            out.add(record.seq)
            batches.add(record.batch)
    for record in records:
        if (
            record.kind == CommandDecided.kind
            and record.batch in batches
            and record.audience != PUBLIC
        ):
            out.add(record.seq)
    if shown.disclose_all and campaign.over:
        for record in records:
            if record.audience == PUBLIC:
                continue
            if record.kind in (
                SubmissionReceived.kind,
                SubmissionRejected.kind,
                FortuneSealed.kind,
            ):
                continue
            out.add(record.seq)
    if campaign.over:
        for record in records:
            if record.kind == FortuneSealed.kind:
                out.add(record.seq)
    return out - opened
