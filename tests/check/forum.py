"""A campaign's thread as the forum holds it: the posts gm published, each
ending with its proof block (protocol 4), and the checker's renderer for it.

``forum`` reads a campaign played by gm from its store: its log and its
archived posts, whose stored text is what the MJ pasted. ``Forum.render``
is ``gm.check.checker.render`` with the campaign's templates folder (the
test game's, or None for gm's own).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from gm.core import proof as proofs
from gm.core.protocol import PostRef
from gm.render.presets import to_forum
from gm.service import proving
from gm.service.env import Env
from gm.service.loading import Campaign
from gm.service.posts import render_public
from gm.store.records import StoredEvent

BLOCK_INTRO = "Preuve pour les vérificateurs (à ignorer)"
"""How the line before every post's proof block starts (template
``common/fr/proof``; the typography pass puts a no-break space before its colon)."""


@dataclass
class Published:
    number: int
    kind: str
    at: tuple[int, ...]
    at_seq: int
    markdown: str
    """The post as stored and pasted: its text, then its proof block."""


@dataclass
class Forum:
    game_id: str
    records: list[StoredEvent]
    posts: list[Published]
    templates: Path | None = None

    def render(self, campaign: Campaign, ref: PostRef, proof: proofs.Proof) -> str:
        body = render_public(campaign, ref, campaign.head, self.templates)
        return body + proving.section(campaign, proof, self.templates)

    @property
    def blocks(self) -> dict[int, str]:
        """Each post's proof section (from the line before its block), by number."""
        return {p.number: p.markdown[p.markdown.rindex("\n" + BLOCK_INTRO) :] for p in self.posts}

    def thread(self, preset: str = "markdown") -> str:
        return (
            "\n\n".join(to_forum(p.markdown, preset, "auto").rstrip("\n") for p in self.posts)
            + "\n"
        )

    def texts(self, preset: str = "markdown") -> list[str]:
        return [to_forum(p.markdown, preset, "auto") for p in self.posts]


def forum(env: Env, slug: str, templates: Path | None = None) -> Forum:
    """The thread of campaign ``slug`` as gm published it."""
    store = env.store
    posts = [
        Published(p.number, p.kind, tuple(p.at), p.at_seq, p.body) for p in store.posts(slug)
    ]
    return Forum(store.campaign(slug).game, list(store.events(slug)), posts, templates)
