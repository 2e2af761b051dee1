"""Export a campaign to one JSON file, import it into another database.

The file (``format`` ``gm-campaign``, ``version`` 1) holds the campaign's
rows exactly as stored, so an imported copy keeps every hash::

    {
     "format": "gm-campaign",
     "version": 1,
     "campaign": {"slug", "game", "title", "created_at"},
     "events": [{"seq", "kind", "actor", "audience",
                 "payload",          # the canonical JSON *text*, as stored and hashed
                 "salt", "source", "recorded_at", "prev_hash", "hash",
                 "batch"},           # not hashed: which command (absent before gm 0.2)
                …],
     "posts": [{"number", "kind", "round", "at_seq", "body", "hash", "created_at",
                "rendered_by", "address"}, …]
    }

Settings need no section: they are events of the log. ``dump`` writes the
one canonical text of a document (sorted keys, UTF-8, one-space indent, a
final newline), so export → import → export gives the same bytes. Import
checks everything ``gm verify`` checks (the hash chain, every post's hash,
the seed against its commitment, the refold, every command decided again,
every post against the text the log committed) before writing anything.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from gm import games
from gm.core.campaign import CampaignCreated
from gm.errors import CampaignError, ChainIntegrityError, InputError, quoted
from gm.reader import EXPORT, has_surrogate, json_value, load_json, read_text
from gm.service.campaigns import MAX_TITLE, current_key
from gm.service.env import Env
from gm.store.records import CampaignInfo, StoredEvent, StoredPost
from gm.store.transfer import CampaignCopy, problems, read_copy, restore

FORMAT = "gm-campaign"
VERSION = 1
_SLUG = re.compile(r"^[a-z0-9][a-z0-9-]{0,62}$")  # as in gm.service.campaigns

_CAMPAIGN_FIELDS: dict[str, Any] = {
    "slug": str,
    "game": str,
    "title": str,
    "created_at": str,
}
_EVENT_FIELDS: dict[str, Any] = {
    "seq": int,
    "kind": str,
    "actor": str,
    "audience": str,
    "payload": str,
    "salt": str,
    "source": (str, None),
    "recorded_at": str,
    "prev_hash": (str, None),
    "hash": str,
}
_POST_FIELDS: dict[str, Any] = {
    "number": int,
    "kind": str,
    "round": (int, None),
    "at_seq": int,
    "body": str,
    "hash": str,
    "created_at": str,
}
_OPTIONAL_EVENT_FIELDS: dict[str, Any] = {
    "batch": (int, None),  # bookkeeping, not hashed: absent from exports before gm 0.2
}
_OPTIONAL_POST_FIELDS: dict[str, Any] = {
    "rendered_by": (str, None),  # absent from exports of gm before migration 0003
    "address": (str, None),  # absent from exports of gm before migration 0004
}


def export_campaign(env: Env, slug: str) -> dict[str, Any]:
    """Campaign ``slug`` as an export document (see the module docstring).

    :raises NotFoundError: ``campaign/not-found``.
    """
    copy = read_copy(env.store, slug)
    info = copy.campaign
    return {
        "format": FORMAT,
        "version": VERSION,
        "campaign": {
            "slug": info.slug,
            "game": info.game,
            "title": info.title,
            "created_at": info.created_at,
        },
        "events": [
            {name: getattr(ev, _attr(name)) for name in (*_EVENT_FIELDS, *_OPTIONAL_EVENT_FIELDS)}
            for ev in copy.events
        ],
        "posts": [
            {name: getattr(post, name) for name in (*_POST_FIELDS, *_OPTIONAL_POST_FIELDS)}
            for post in copy.posts
        ],
    }


def _attr(field: str) -> str:
    return "payload_json" if field == "payload" else field


def dump(document: Mapping[str, Any]) -> str:
    """The canonical text of an export document: the same document, the same bytes."""
    return json.dumps(document, ensure_ascii=False, indent=1, sort_keys=True) + "\n"


def import_campaign(env: Env, source: Path | str, slug: str | None = None) -> CampaignInfo:
    """Import an export document into ``env``'s database and make it the current campaign.

    ``source`` is the file (a ``Path``) or the document's text (a ``str``).
    ``slug`` imports it under another slug (the slug is in no hash).

    :raises NotFoundError: ``import/file-not-found``.
    :raises InputError: not JSON, not a gm export, another version, a bad field or slug.
    :raises ChainIntegrityError: ``import/integrity``: the chain or a post does not
        verify (nothing is written).
    :raises CampaignError: ``campaign/exists``: the slug is taken (try ``slug``).
    """
    origin = str(source) if isinstance(source, Path) else "the document"
    text = _read(source) if isinstance(source, Path) else source
    document = parse(text, origin)
    copy = CampaignCopy(
        campaign=CampaignInfo(0, **_fields(document["campaign"], _CAMPAIGN_FIELDS, "campaign")),
        events=tuple(_event(item, i) for i, item in enumerate(document["events"], start=1)),
        posts=tuple(_post(item, i) for i, item in enumerate(document["posts"], start=1)),
    )
    target = slug if slug is not None else copy.campaign.slug
    if not _SLUG.match(target):
        raise InputError(
            f"invalid campaign slug {target!r}: use lowercase letters, digits and dashes"
            + ("" if slug is not None else "; import it with --slug NEW"),
            code="campaign/slug",
        )
    if not problems(copy):
        _check_creation(copy)
        _check_log(env, copy)
    try:
        with env.store.write() as w:
            info = restore(w, copy, target)
            w.set_setting(current_key(env), info.slug)
    except CampaignError as err:
        if err.code != "campaign/exists":
            raise
        raise CampaignError(
            f"a campaign {target!r} already exists in {env.store.where}; nothing was imported."
            " Import it under another slug with --slug NEW",
            code=err.code,
            params=err.params,
        ) from err
    return info


def _read(path: Path) -> str:
    return read_text(path, EXPORT)


def parse(text: str, origin: str = "the document") -> dict[str, Any]:
    """Check the envelope of an export document and return it.

    :raises InputError: not JSON (``import/not-json``), nested too deeply
        (``import/too-deep``), a string no database can hold
        (``import/invalid``), not a gm export (``import/format``), another
        version (``import/version``).
    """
    shown = quoted(origin, 200)
    document = load_json(
        text,
        EXPORT,
        shown,
        lambda err: InputError(
            f"{shown} is not a gm export: not JSON ({err})", code="import/not-json"
        ),
    )
    _check_strings(document, shown)
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        found = document.get("format") if isinstance(document, dict) else None
        raise InputError(
            f"{shown} is not a gm export: its format is {quoted(found)}, not {FORMAT!r}"
            " (make one with 'gm export')",
            code="import/format",
        )
    if document.get("version") != VERSION:
        raise InputError(
            f"{shown} is a gm export of version {quoted(document.get('version'))}; this gm "
            f"reads version {VERSION} only",
            code="import/version",
        )
    for key, kind in (("campaign", dict), ("events", list), ("posts", list)):
        if not isinstance(document.get(key), kind):
            raise InputError(
                f"{shown}: {key!r} is missing or not a JSON {'object' if kind is dict else 'array'}",
                code="import/invalid",
            )
    return document


def _check_strings(document: Any, shown: str) -> None:
    """No string of the document holds a NUL byte (PostgreSQL cannot store
    it, SQLite cuts text at it in places) or a lone surrogate (no database
    can encode it): JSON can write both as escapes."""
    todo: list[tuple[Any, str]] = [(document, "")]
    while todo:
        item, where = todo.pop()
        if isinstance(item, dict):
            todo.extend((v, f"{where}.{k}" if where else str(k)) for k, v in item.items())
            todo.extend((k, f"{where} (a key)") for k in item)
        elif isinstance(item, list):
            todo.extend((v, f"{where}[{i}]") for i, v in enumerate(item))
        elif isinstance(item, str) and ("\x00" in item or has_surrogate(item)):
            what = "a NUL byte" if "\x00" in item else "a lone surrogate (\\ud800-\\udfff)"
            raise InputError(
                f"{shown}: {where} holds {what}, which no text may hold; nothing was imported",
                code="import/invalid",
            )


def _fields(
    item: Any, spec: Mapping[str, Any], where: str, optional: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    if not isinstance(item, dict):
        raise InputError(f"{where} is not a JSON object", code="import/invalid")
    out = {}
    for name, expected in {**spec, **(optional or {})}.items():
        if name not in item:
            if optional is not None and name in optional:
                continue
            raise InputError(f"{where} has no {name!r}", code="import/invalid")
        value = item[name]
        allowed = expected if isinstance(expected, tuple) else (expected,)
        if not any(
            value is None if t is None else isinstance(value, t) and not isinstance(value, bool)
            for t in allowed
        ):
            raise InputError(f"{where}: {name!r} has the wrong type", code="import/invalid")
        out[name] = value
    return out


def _event(item: Any, index: int) -> StoredEvent:
    values = _fields(item, _EVENT_FIELDS, f"event #{index}", _OPTIONAL_EVENT_FIELDS)
    return StoredEvent(payload_json=values.pop("payload"), payload={}, **values)


def _post(item: Any, index: int) -> StoredPost:
    post = StoredPost(**_fields(item, _POST_FIELDS, f"post #{index}", _OPTIONAL_POST_FIELDS))
    try:
        post.at  # noqa: B018  (reads the address)
    except ValueError as err:
        raise InputError(f"post #{index}: {err}", code="import/invalid") from None
    return post


def _check_log(env: Env, copy: CampaignCopy) -> None:
    """What ``gm verify`` checks beyond the hashes, before anything is written:
    every event reads and folds, every recorded command decides again to the
    same events (the fortune included), every post is the one committed.

    :raises ChainIntegrityError: ``import/integrity``, naming the first problem.
    """
    from gm.service import audit

    events = []
    for event in copy.events:
        try:
            payload = json_value(event.payload_json)
        except ValueError:
            payload = None
        if not isinstance(payload, dict):
            found = [f"seq {event.seq}: its payload is not a JSON object"]
            break
        events.append(replace(event, payload=payload))
    else:
        found = audit.check(
            env, copy.campaign.slug, copy.campaign.game, events, copy.posts
        ).problems
    if found:
        more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
        raise ChainIntegrityError(
            f"campaign {copy.campaign.slug!r} does not verify: {found[0]}{more};"
            " nothing was imported",
            code="import/integrity",
            params={"slug": copy.campaign.slug, "problems": found},
        )


def _check_creation(copy: CampaignCopy) -> None:
    """The log starts with the campaign's creation, for a game this gm knows."""
    events = copy.events
    game = copy.campaign.game
    if not events or events[0].kind != CampaignCreated.kind:
        raise ChainIntegrityError(
            f"campaign {copy.campaign.slug!r}: the log does not start with its creation;"
            " nothing was imported",
            code="import/integrity",
        )
    try:
        created = json_value(events[0].payload_json)
    except ValueError:
        created = None
    if not isinstance(created, dict):
        raise ChainIntegrityError(
            f"campaign {copy.campaign.slug!r}: event 1 (its creation) has no readable payload;"
            " nothing was imported",
            code="import/integrity",
        )
    logged = created.get("game")
    if logged != game:
        raise ChainIntegrityError(
            f"campaign {copy.campaign.slug!r} says game {quoted(game)} but its log was created"
            f" for {quoted(logged)}; nothing was imported",
            code="import/integrity",
        )
    games.load(game)  # NotFoundError naming the known games
    _check_row(copy, created.get("title"))


_TIMESTAMP = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ")
_CREATION_SLACK = timedelta(minutes=1)
"""How much earlier than its first event a campaign's row may say it was made
(gm takes both times in one transaction: they differ by a tick of the clock)."""


def _moment(value: str, where: str) -> datetime:
    try:
        if not _TIMESTAMP.fullmatch(value):
            raise ValueError
        return datetime.strptime(value, "%Y-%m-%dT%H:%M:%SZ")
    except ValueError:
        raise InputError(
            f"{where} is {quoted(value)}, not a time as gm writes it (2026-12-01T20:15:00Z);"
            " nothing was imported",
            code="import/invalid",
        ) from None


def _check_row(copy: CampaignCopy, logged_title: object) -> None:
    """What the campaign's row and the posts' rows say beyond the hashes
    agrees with the log: the title it was created with, the time it was
    created (not hashed, so an edit there would pass every other check)."""
    info = copy.campaign
    if not 1 <= len(info.title) <= MAX_TITLE:
        raise InputError(
            f"campaign {info.slug!r}: its title has {len(info.title):,} characters; a title has"
            f" 1 to {MAX_TITLE}; nothing was imported",
            code="import/invalid",
        )
    if info.title != logged_title:
        raise ChainIntegrityError(
            f"campaign {info.slug!r}: its title {quoted(info.title)} is not the one its log"
            f" was created with ({quoted(logged_title)}); nothing was imported",
            code="import/integrity",
        )
    created = _moment(info.created_at, "the campaign's created_at")
    first = _moment(copy.events[0].recorded_at, "event 1's recorded_at")
    if not first - _CREATION_SLACK <= created <= first:
        raise ChainIntegrityError(
            f"campaign {info.slug!r}: created_at {info.created_at} is not the time of its"
            f" creation, event 1 at {copy.events[0].recorded_at}; nothing was imported",
            code="import/integrity",
        )
    for post in copy.posts:
        if _moment(post.created_at, f"post {post.number}'s created_at") < created:
            raise ChainIntegrityError(
                f"campaign {info.slug!r}: post {post.number} says it was made at"
                f" {post.created_at}, before the campaign ({info.created_at}); nothing was"
                " imported",
                code="import/integrity",
            )
