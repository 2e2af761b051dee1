"""The one place that publishes seals and salts.

A secret (a sealed event: an order, a face-down card) is published in three
steps, each decided by the game's ``shown(state, post)`` for a public post:

* its **seal** (a commitment: SHA-256 over its kind, payload and salt, see
  ``gm.core.canonical.seal``), when the secrets are locked, before anything
  about them is public;
* its **salt**, when a post shows its content in full (``opened``): anyone can
  then seal the content printed in the post again and compare;
* every secret in force with its salt in the end-of-game disclosure
  (``disclose_all``), and only once the game is over.

The salt of a secret whose content stays hidden is never published, or
anyone could find its content by trying every possibility against its seal.
Templates receive the entries built here (``seals``, ``opened``,
``disclosed``): plain dicts with the secret's family, its key fields (e.g.
``round`` and ``player``), its owner as ``player`` (by their current name:
the payload sealed keys them on their seat), its full ``seal``, the
``version`` of its stored payload and, when opened, its ``salt``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from gm.core.protocol import PostRef
from gm.service.loading import Campaign, Secret, codec_for
from gm.store.records import StoredEvent


def seal_of(record: StoredEvent) -> str:
    """The published commitment to a sealed record (``gm.core.canonical.seal``):
    its body, which a record known only from a post's proof carries."""
    return record.body


def entry(secret: Secret, name: Callable[[str], str], *, salt: bool = False) -> dict[str, Any]:
    """A secret as templates print it (see the module docstring); ``name``
    gives a seat's current name."""
    out: dict[str, Any] = {
        "secret": secret.key[0],
        **secret.fields,
        "player": name(secret.owner),
        "seal": seal_of(secret.record),
        # the payload's schema version as stored: an old secret re-seals with
        # its old payload (see Event.version)
        "version": secret.record.payload.get("_v", 1),
    }
    if salt:
        out["salt"] = secret.record.salt
    return out


def post_secrets(campaign: Campaign, ref: PostRef) -> dict[str, list[dict[str, Any]]]:
    """What the public post ``ref`` publishes: ``seals``, ``opened``, ``disclosed``."""
    shown = campaign.game.shown(campaign.state, ref)
    secrets = campaign.secrets

    def present(keys: Iterable[Any]) -> list[Secret]:
        return [secrets[key] for key in keys if key in secrets]

    disclosed: list[Secret] = []
    if shown.disclose_all and campaign.over:
        disclosed = sorted(secrets.values(), key=lambda s: s.record.seq)
    name = campaign.meta.name
    return {
        "seals": [entry(s, name) for s in present(shown.sealed)],
        "opened": [entry(s, name, salt=True) for s in present(shown.opened)],
        "disclosed": [entry(s, name, salt=True) for s in disclosed],
    }


def sealed_in(campaign: Campaign, records: Sequence[StoredEvent]) -> list[dict[str, Any]]:
    """The seals of the secrets ``records`` (just appended to ``campaign``)
    recorded, for the owner's private reply."""
    codec = codec_for(campaign.game.id)
    out = []
    for record in records:
        if record.kind.startswith("gm.") or not codec.type_of(record.kind).sealed:
            continue
        event = codec.decode(record.kind, record.payload)
        fields = {name: getattr(event, name) for name in event.secret_fields}
        if "player" in fields:
            fields["player"] = campaign.meta.name(fields["player"])
        out.append({"secret": event.secret_key()[0], **fields, "seal": seal_of(record)})
    return out


def replaced_in(before: Campaign, records: Sequence[StoredEvent]) -> bool:
    """Whether ``records`` sealed a secret where one was already in force in
    ``before`` (a player's new order replacing their previous one)."""
    codec = codec_for(before.game.id)
    for record in records:
        if record.kind.startswith("gm.") or not codec.type_of(record.kind).sealed:
            continue
        if codec.decode(record.kind, record.payload).secret_key() in before.secrets:
            return True
    return False
