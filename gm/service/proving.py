"""What a public post proves: the proof block gm appends to it (protocol 4).

A post's proof (``gm.core.proof.Proof``) holds the records of the log
since the previous post (public ones in full, private ones by their body)
and opens the private records the post makes public:

* the secrets the post reveals (``Game.shown(...).opened``: the sealed
  events whose ``secret_key`` it names), with the private
  ``gm.command-decided`` records of their command, so that players decide
  that command again;
* at the end of the game, in the post that discloses everything
  (``shown.disclose_all``), every private record but the texts of the
  players' messages, the refusals and the seed;
* once the game is over, the seed (``gm.fortune-sealed``), so that every
  draw is derived again: in the last post of the command that ended it
  (the final post, which prints the seed), not in the results before it.

A record is opened once: ``Meta.opened`` keeps what earlier posts opened
(``PostPublished.opened``). ``publish`` (``gm.service.posts``), ``gm
verify`` and the players' checker all go through ``proof_of`` and
``section``, so the block a post carries is the one they derive.
"""

from __future__ import annotations

from collections.abc import Set
from pathlib import Path

from gm.core import proof as proofs
from gm.core.campaign import FortuneSealed, SubmissionReceived, SubmissionRejected
from gm.core.protocol import PUBLIC, PostRef
from gm.service.loading import Campaign
from gm.store.records import SEALED_FROM

NOT_DISCLOSED = frozenset({SubmissionReceived.kind, SubmissionRejected.kind, FortuneSealed.kind})
"""Private records the final disclosure keeps closed: a player's message in
their own words, a refused one, and the seed (opened on its own)."""

COMMAND = "gm.command-decided"


def proves(campaign: Campaign) -> bool:
    """Whether the campaign's posts carry a proof block (protocol 4 on)."""
    return campaign.meta.protocol >= SEALED_FROM


def openings(
    campaign: Campaign, ref: PostRef, before: Set[int] = frozenset(), last: bool = True
) -> set[int]:
    """The seqs of the private records the post ``ref`` opens, made from the
    campaign as it stands, leaving out ``before`` and ``Meta.opened``
    (``last``: the post is the last its command publishes)."""
    done = campaign.meta.opened | before
    shown = campaign.game.shown(campaign.state, ref)
    wanted = set(shown.opened)
    out: set[int] = set()
    if wanted:
        # every record sealed under a key the post reveals, voided ones too,
        # with the private commands of their batches
        index = campaign.index()
        batches: set[int | None] = set()
        for sealed in index.sealed:
            if sealed.seq not in done and sealed.key in wanted:
                out.add(sealed.seq)
                batches.add(sealed.batch)
        out.update(seq for seq, batch in index.commands if batch in batches)
    if campaign.over:
        if shown.disclose_all:
            out.update(
                r.seq
                for r in campaign.records
                if r.audience != PUBLIC and r.kind not in NOT_DISCLOSED
            )
        if last:
            out.update(campaign.index().seeds)
    return out - done


def proof_of(
    campaign: Campaign,
    ref: PostRef,
    number: int,
    since: int,
    before: Set[int] = frozenset(),
    last: bool = True,
) -> proofs.Proof:
    """The proof of post ``number`` (``ref``), made from the campaign as it
    stands: the records after seq ``since`` (the previous post's position),
    and the openings ``openings`` gives (``before``: records opened by the
    posts published with it before it; ``last``: it is the last of them)."""
    opens = openings(campaign, ref, before, last)
    entries = tuple(
        proofs.Entry(
            seq=r.seq,
            kind=r.kind,
            actor=r.actor,
            audience=r.audience,
            recorded_at=r.recorded_at,
            body=r.body,
            source=r.source,
            payload=r.payload if r.audience == PUBLIC else None,
            salt=r.salt if r.audience == PUBLIC else None,
        )
        for r in campaign.log.after(since)
    )
    return proofs.Proof(
        campaign=campaign.log.first_hash(),
        number=number,
        kind=ref.kind,
        at=tuple(ref.at),
        at_seq=campaign.seq,
        records=entries,
        opened=tuple(proofs.Opening(r.seq, r.payload, r.salt) for r in campaign.log.only(opens)),
    )


def section(campaign: Campaign, proof: proofs.Proof, override: Path | None) -> str:
    """The end of a post that carries ``proof``: a line for the readers who
    do not care, and the block (template ``common/<lang>/proof``)."""
    from gm.service.posts import renderer, tidy

    lang = campaign.meta.settings["lang"]
    text = renderer(campaign.game.id, lang, override).render(
        "proof", {"block": proofs.encode(proof)}
    )
    return "\n" + tidy(text)
