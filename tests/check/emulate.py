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
from gm.service.loading import Campaign, codec_for, fold
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


def _rehash(records: list[StoredEvent], public: set[int]) -> list[StoredEvent]:
    out: list[StoredEvent] = []
    prev = None
    for record in records:
        audience = PUBLIC if record.seq in public else record.audience
        body = proofs.body_of(record.kind, record.payload, record.salt)
        new = dataclasses.replace(
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
        out.append(new)
        prev = new.hash
    return out


def emulate(env: Env, slug: str, templates: object = None) -> Emulated:
    store = env.store
    game_id = store.campaign(slug).game
    original = store.events(slug)
    stored_posts = store.posts(slug)
    public = _public_commands(original)
    records = list(original)
    codec = codec_for(game_id)
    emulated = Emulated(game_id, [], [], templates=templates)
    opened: set[int] = set()
    prev_at = 0
    digests: dict[int, str] = {}
    for post in stored_posts:
        # the posts before this one are done: their digests are final
        for i, record in enumerate(records):
            if record.kind == PostPublished.kind and record.payload["number"] in digests:
                payload = {**record.payload, "digest": digests[record.payload["number"]]}
                records[i] = dataclasses.replace(
                    record, payload=payload, payload_json=canonical_json(payload)
                )
        rehashed = _rehash(records, public)
        campaign = fold(slug, game_id, rehashed[: post.at_seq])
        ref = PostRef(post.kind, post.at)
        opens = _openings(campaign, ref, codec, opened)
        opened |= opens
        entries = []
        for record in rehashed[prev_at : post.at_seq]:
            entries.append(
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
            )
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
    for i, record in enumerate(records):
        if record.kind == PostPublished.kind and record.payload["number"] in digests:
            payload = {**record.payload, "digest": digests[record.payload["number"]]}
            records[i] = dataclasses.replace(
                record, payload=payload, payload_json=canonical_json(payload)
            )
    emulated.records = _rehash(records, public)
    emulated.game_id = game_id
    return emulated


def _openings(campaign: Campaign, ref: PostRef, codec: object, opened: set[int]) -> set[int]:
    records = campaign.records
    shown = campaign.game.shown(campaign.state, ref)
    out: set[int] = set()
    keys = set(shown.opened)
    batches = set()
    for record in records:
        if record.audience == PUBLIC or record.seq in opened:
            continue
        if record.kind.startswith("gm."):
            continue
        event = codec.decode(record.kind, record.payload)  # type: ignore[attr-defined]
        if event.sealed and event.secret_key() in keys:
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
