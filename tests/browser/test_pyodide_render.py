"""gm's renderer runs in the page: the archived posts of a real campaign, rendered again in Pyodide.

The campaign gm 0.2.1 recorded (``tests/fixtures/gm-0.2.1-magot.json``) is
folded here, post by post at the seq it was rendered at, and each public
post's context (``gm.service.posts.public_context``, as JSON: what crosses
into the page) is rendered in the page by ``gm.render.Renderer`` with the
game's filters from ``gm.games`` — Jinja2, MarkupSafe, gm's typography — and
must give the archived text exactly (or, for a kind reworded since, what gm
renders today: ``pyodide_support.expected_posts``); its HTML (``to_forum(…, "html")``:
Python-Markdown) must be the one CPython gives.
"""

from __future__ import annotations

import json

import pytest
from pyodide_support import RENDER, Browsing, archived_posts, expected_posts

from gm.render import to_forum
from gm.service.posts import tidy

pytestmark = pytest.mark.browser


def test_the_archived_posts_render_again_in_the_page(from_file: Browsing) -> None:
    posts = archived_posts()
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
    for (post, _), (text, html), today in zip(posts, rendered, expected_posts(posts), strict=True):
        assert tidy(text) == today, f"post {post['number']} ({post['kind']})"
        assert html == to_forum(text, "html"), f"post {post['number']} ({post['kind']})"
