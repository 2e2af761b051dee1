"""gm's renderer runs in the page: the archived posts of a real campaign, rendered again in Pyodide.

The campaign gm 0.2.1 recorded (``tests/fixtures/gm-0.2.1-magot.json``) is
folded here, post by post at the seq it was rendered at, and each public
post's context (``gm.service.posts.public_context``, as JSON: what crosses
into the page) is rendered in the page by ``gm.render.Renderer`` with the
game's filters from ``gm.games`` — Jinja2, MarkupSafe, gm's typography — and
must give the archived text exactly; its HTML (``to_forum(…, "html")``:
Python-Markdown) must be the one CPython gives.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from pyodide_support import Browsing

from gm.core.protocol import PostRef
from gm.render import to_forum
from gm.service.loading import fold
from gm.service.posts import ROLL, ROSTER, public_context, tidy
from gm.store.records import StoredEvent

pytestmark = pytest.mark.browser

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "gm-0.2.1-magot.json"

RENDER = """
import json
from gm import games
from gm.render import Renderer, to_forum

def render_all(cases):
    renderer = Renderer("magot", "fr", None, games.load("magot").filters)
    out = []
    for kind, context in json.loads(cases):
        text = renderer.render(kind, json.loads(context))
        out.append([text, to_forum(text, "html")])
    return json.dumps(out)
"""


def cases() -> list[tuple[dict[str, Any], str]]:
    """(archived post, its context as JSON) for each public post of the campaign."""
    data = json.loads(FIXTURE.read_text(encoding="utf-8"))
    records = [
        StoredEvent(
            seq=e["seq"],
            kind=e["kind"],
            actor=e["actor"],
            audience=e["audience"],
            payload=json.loads(e["payload"]),
            payload_json=e["payload"],
            salt=e["salt"],
            source=e["source"],
            recorded_at=e["recorded_at"],
            prev_hash=e["prev_hash"],
            hash=e["hash"],
            batch=e.get("batch"),
        )
        for e in data["events"]
    ]
    out = []
    for post in data["posts"]:
        if post["kind"] in (ROLL, ROSTER):  # the platform's posts: no template context
            continue
        then = fold(data["campaign"]["slug"], "magot", [r for r in records if r.seq <= post["at_seq"]])
        ref = PostRef(post["kind"], () if post["round"] is None else (post["round"],))
        out.append((post, json.dumps(public_context(then, ref, then.head))))
    return out


def test_the_archived_posts_render_again_in_the_page(from_file: Browsing) -> None:
    posts = cases()
    assert {p["kind"] for p, _ in posts} == {"opening", "round", "reveal", "results"}
    from_file.open()
    rendered = json.loads(
        from_file.page.evaluate(
            """async ([code, cases]) => {
                const py = await gmPage.ready;
                py.runPython(code);
                return py.globals.get("render_all")(cases);
            }""",
            [RENDER, json.dumps([[p["kind"], c] for p, c in posts])],
        )
    )
    assert len(rendered) == len(posts)
    for (post, _), (text, html) in zip(posts, rendered, strict=True):
        assert tidy(text) == post["body"], f"post {post['number']} ({post['kind']})"
        assert html == to_forum(text, "html"), f"post {post['number']} ({post['kind']})"
