"""Rendering a campaign's posts and private replies from views.

Templates receive views, never state: ``view`` is the game's public view (or
one player's view for private replies), ``campaign`` the platform's public
facts (title, fortune commitment, chain head, the players' words and every
draw's stream; the seed only once the game is over), ``deadline`` the current
phase's deadline if any, and the secrets a post publishes. Posts are stored
as Markdown, their canonical form; other formats are derived when printed.
Every stored post goes through ``publish``, which commits its text into the
hash chain.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import gm
from gm.core import dice
from gm.core.campaign import ChanceDrawn, PostPublished
from gm.core.dice import DiceRolled
from gm.core.fortune import label_for, purpose_by_seat
from gm.core.protocol import GM, PostRef
from gm.service import proving
from gm.service.deciding import to_record
from gm.service.loading import Campaign, decode, extend
from gm.service.secrets import post_secrets

if TYPE_CHECKING:
    from gm.render import Renderer
    from gm.store.draft import Sink
    from gm.store.records import StoredEvent, StoredPost


_BLANK_RUNS = re.compile(r"\n{3,}")


def tidy(markdown: str) -> str:
    """One blank line between blocks, one newline at the end: templates can
    then separate blocks generously without minding Jinja's whitespace rules."""
    return _BLANK_RUNS.sub("\n\n", markdown).strip("\n") + "\n"


@functools.cache
def renderer(game_id: str, lang: str, override: Path | None) -> Renderer:
    from gm import games
    from gm.render import Renderer

    return Renderer(game_id, lang, override, games.load(game_id).filters)


def rendered_by(campaign: Campaign, kind: str, override: Path | None) -> str:
    """What renders the campaign's ``kind`` posts today: ``gm <version>
    sha256:<fingerprint of the templates>`` (stored with each post for ``gm
    verify``). Bump gm's version when a change of code changes a post."""
    lang = campaign.meta.settings["lang"]
    fingerprint = renderer(campaign.game.id, lang, override).fingerprint(kind)
    return f"gm {gm.__version__} {fingerprint}"


def publish(
    w: Sink,
    campaign: Campaign,
    posts: Sequence[tuple[PostRef, str]],
    override: Path | None,
    batch: int | None = None,
) -> tuple[Campaign, list[StoredPost]]:
    """Archive ``posts`` (each rendered from ``campaign`` as it stands) and
    commit their exact text into the hash chain, one ``PostPublished`` event
    each, in the command's append ``batch`` (a new one if None). From
    protocol 4, each post ends with its proof block (``gm.service.proving``),
    in the text the chain commits to. Every stored post goes through here.
    Returns the campaign after those events."""
    stored = []
    opened: list[tuple[int, ...]] = []
    last = w.last_post(campaign.slug) if posts and proving.proves(campaign) else None
    since = last.at_seq if last is not None else 0
    number = last.number if last is not None else 0
    before: set[int] = set()
    for i, (ref, body) in enumerate(posts):
        if proving.proves(campaign):
            number += 1
            last_one = i == len(posts) - 1
            proof = proving.proof_of(campaign, ref, number, since, before, last_one)
            body += proving.section(campaign, proof, override)
            since = campaign.seq
            opened.append(tuple(o.seq for o in proof.opened))
            before.update(opened[-1])
        else:
            opened.append(())
        made = rendered_by(campaign, ref.kind, override)
        stored.append(w.add_post(campaign.slug, ref.kind, ref.at, campaign.seq, body, made))
    if not stored:
        return campaign, stored
    events = [
        to_record(PostPublished(p.number, p.kind, p.at, p.hash, seqs), GM)
        for p, seqs in zip(stored, opened, strict=True)
    ]
    appended = w.append(campaign.slug, events, campaign.seq, batch=batch)
    return extend(campaign, appended), stored


def campaign_context(campaign: Campaign, head: str | None) -> dict[str, Any]:
    """The platform's public facts about a campaign, for every template."""
    meta = campaign.meta
    return {
        "title": meta.title,
        "slug": campaign.slug,
        "game": campaign.game.id,
        "game_title": campaign.game.title,
        # players by their current names: what posts print and agree with
        "players": list(meta.players),
        "genders": {meta.name(s): meta.genders[s] for s in meta.seats if s in meta.genders},
        "commitment": "sha256:" + meta.commitment,
        "seed": meta.seed if campaign.over else None,
        "chain_head": head,
        "seq": campaign.seq,
        "words": [
            {"player": meta.name(s), "word": w, "typed": s in meta.typed} for s, w in meta.words
        ],
        "draws": draws_context(campaign),
    }


def draws_context(campaign: Campaign) -> dict[str, dict[str, Any]]:
    """Every draw of the campaign by purpose: ``{label, words, mixed}``, so a
    post can name the stream its draw read and the words mixed into it (or
    say that none was: « tirage sans graine des joueurs »)."""
    out: dict[str, dict[str, Any]] = {}
    former = campaign.meta.former_names
    voided = campaign.voided
    for draw in campaign.index().draws:
        if draw.seq in voided:
            continue
        words = [{"player": p, "word": w} for p, w in draw.words]
        for purpose in draw.purposes:
            drawn = {
                "label": label_for(purpose, draw.words),
                "words": words,
                "mixed": bool(words),
            }
            out[purpose] = drawn
            # an old log named a renamed player's draw after their name then;
            # the views name it after the seat
            out.setdefault(purpose_by_seat(purpose, former), drawn)
    return out


def deadline_context(campaign: Campaign) -> dict[str, Any] | None:
    """The deadline of the phase the game is in, if the MJ set one."""
    if campaign.deadline() is None:
        return None
    assert campaign.meta.deadline is not None
    return {"at": campaign.meta.deadline.at, "tz": campaign.meta.settings["tz"]}


ROLL = "roll"
"""The platform's own post: a dice roll (``gm roll``, template ``common/<lang>/roll``)."""

ROSTER = "roster"
"""The platform's own post: a change at the table (``gm replace``, ``gm rename``;
template ``common/<lang>/roster``), rendered from the campaign's last one."""


def render_public(campaign: Campaign, ref: PostRef, head: str | None, override: Path | None) -> str:
    """Render the public post ``ref`` of the campaign as it stands, in Markdown.

    Besides the view, a post gets the secrets it publishes (``seals``,
    ``opened``, ``disclosed``: see ``gm.service.secrets``). A roll is the
    platform's post, rendered from the campaign's last roll.
    """
    if ref.kind == ROLL:
        return _render_roll(campaign, override)
    if ref.kind == ROSTER:
        return _render_roster(campaign, override)
    context = public_context(campaign, ref, head)
    lang = campaign.meta.settings["lang"]
    return tidy(renderer(campaign.game.id, lang, override).render(ref.kind, context))


def public_context(campaign: Campaign, ref: PostRef, head: str | None) -> dict[str, Any]:
    """Everything a public template receives for the post ``ref``: all that an
    edited template could ever print (the conformance tests search it)."""
    view = campaign.game.public_view(campaign.state, ref, campaign.table)
    return {
        "post": {"kind": ref.kind, "at": list(ref.at)},
        "view": view,
        "campaign": campaign_context(campaign, head),
        "deadline": deadline_context(campaign),
        **post_secrets(campaign, ref),
    }


def render_private(
    campaign: Campaign,
    kind: str,
    player: str,
    override: Path | None,
    extra: dict[str, Any] | None = None,
) -> str:
    """Render a private reply for the seat ``player`` from their own view only."""
    context = {
        "player": campaign.meta.name(player),
        "view": campaign.game.player_view(campaign.state, player, campaign.table),
        "campaign": campaign_context(campaign, campaign.head),
        "deadline": deadline_context(campaign),
        **(extra or {}),
    }
    lang = campaign.meta.settings["lang"]
    return tidy(renderer(campaign.game.id, lang, override).render(kind, context))


def order_received(
    before: Campaign,
    after: Campaign,
    player: str,
    batch: Sequence[StoredEvent],
    override: Path | None,
) -> str:
    """The private reply to ``player`` (a seat) for what one command recorded (the
    template ``order_received``): the seals of the secrets it sealed,
    whether one replaced a secret they had sent before (``replaced``),
    whether the MJ recorded it for them (``by_mj``: gm fold, gm stay;
    ``default``: the rules' default), and whether it came after the
    deadline then in force (``late``: it still counts until the MJ moves
    on). Everything comes from the log, so the players' checker writes the
    same reply again (``gm.check.replies``)."""
    from gm.core.campaign import CommandDecided, DefaultApplied
    from gm.service.secrets import replaced_in, sealed_in

    seals = sealed_in(after, batch)
    due = before.deadline()
    late = due is not None and _utc(batch[0].recorded_at) > due
    return render_private(
        after,
        "order_received",
        player,
        override,
        {
            "seal": seals[-1]["seal"] if seals else None,
            "seals": seals,
            "replaced": replaced_in(before, batch),
            "by_mj": any(r.kind == CommandDecided.kind and r.actor == GM for r in batch),
            "default": any(r.kind == DefaultApplied.kind for r in batch),
            "late": late,
        },
    )


def _utc(stamp: str) -> datetime:
    return datetime.fromisoformat(stamp.replace("Z", "+00:00"))


def render_common(campaign: Campaign, kind: str, override: Path | None, **extra: Any) -> str:
    """Render a template that needs no game view (reminders, refusals)."""
    context = {
        "campaign": campaign_context(campaign, campaign.head),
        "deadline": deadline_context(campaign),
        **extra,
    }
    lang = campaign.meta.settings["lang"]
    return tidy(renderer(campaign.game.id, lang, override).render(kind, context))


def _render_roster(campaign: Campaign, override: Path | None) -> str:
    """The notice of the campaign's last change at the table, numbered among them.

    :raises ValueError: no change at the table.
    """
    changes = campaign.meta.changes
    if not changes:
        raise ValueError("the campaign has no change at the table")
    change, old, new = changes[-1]
    return render_common(
        campaign, ROSTER, override, change=change, old=old, new=new, number=len(changes)
    )


def _render_roll(campaign: Campaign, override: Path | None) -> str:
    """The post of the campaign's last dice roll, from its events alone.

    :raises ValueError: no roll, or one that does not hold together.
    """
    record = last_roll(campaign)
    if record is None:
        raise ValueError("the campaign has no dice roll")
    event = decode(campaign.game.id, record)
    assert isinstance(event, DiceRolled)
    # its draw is the next live record: the same command recorded both
    after = next((r for r in campaign.log.after(record.seq) if r.seq not in campaign.voided), None)
    if after is not None and after.kind == ChanceDrawn.kind:
        label = label_for(after.payload["purposes"][0], after.payload["words"])
        words = [{"player": p, "word": w} for p, w in after.payload["words"]]
    else:  # a roll of a protocol-1 log read the campaign's n-th draw
        live = campaign.live
        at = live.index(record)
        drawn = sum(1 for r in live[: at + 1] if decode(campaign.game.id, r).drew_chance())
        label, words = f"draw/{drawn}", []
    result = dice.from_event(event)
    terms = [
        {
            "sign": t.term.sign,
            "constant": t.term.value if isinstance(t.term, dice.Constant) else None,
            "dice": [{"value": v, "kept": k} for v, k in zip(t.dice, t.kept, strict=True)],
        }
        for t in result.terms
    ]
    context = {
        "expression": event.expression,
        "reason": event.reason,
        "terms": terms,
        "total": result.total,
        "label": label,
        "words": words,
    }
    return render_common(campaign, ROLL, override, roll=context)


def last_roll(campaign: Campaign) -> StoredEvent | None:
    """The record of the campaign's last dice roll not undone, if any."""
    rolls = [seq for seq in campaign.index().rolls if seq not in campaign.voided]
    return campaign.log.only(rolls[-1:])[0] if rolls else None


def output(body: str, fmt: str, tables: str) -> str:
    """A stored Markdown post or a private reply as the forum of preset ``fmt``
    wants it (``gm.render.presets.to_forum``, which every printed text goes
    through); ``tables`` is the campaign's setting (``auto``: the preset's)."""
    from gm.render.presets import to_forum

    return to_forum(body, fmt, tables)
