"""What rendered a post (``Renderer.fingerprint``): the template and every
template it names, by name and source, whether or not the renderer already
compiled them (it reuses what compiling them found, never a stale source)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from gm.render import Renderer

Folder = Callable[..., Path]

POST = '{% import "demo/fr/_m.md.j2" as m %}{{ m.hi(name) }} {% include "demo/fr/part.md.j2" %}\n'


def test_a_rendered_template_has_the_fingerprint_of_one_never_rendered(
    template_folder: Folder,
) -> None:
    folder = template_folder(
        **{
            "demo/fr/post": POST,
            "demo/fr/_m": "{% macro hi(n) %}Salut {{ n }}{% endmacro %}",
            "demo/fr/part": "la suite",
        }
    )
    rendered = Renderer("demo", override=folder)
    assert rendered.render("post", {"name": "lulu"}) == "Salut lulu la suite"
    assert rendered.fingerprint("post") == Renderer("demo", override=folder).fingerprint("post")


def test_a_template_edited_after_it_was_compiled_counts_as_edited(
    template_folder: Folder,
) -> None:
    folder = template_folder(
        **{
            "demo/fr/post": POST,
            "demo/fr/_m": "{% macro hi(n) %}Salut {{ n }}{% endmacro %}",
            "demo/fr/part": "la suite",
        }
    )
    before = Renderer("demo", override=folder).fingerprint("post")
    renderer = Renderer("demo", override=folder)
    renderer.render("post", {"name": "lulu"})
    part = folder / "demo" / "fr" / "part.md.j2"
    part.write_text('la fin {% include "demo/fr/extra.md.j2" %}', encoding="utf-8")
    (folder / "demo" / "fr" / "extra.md.j2").write_text("!", encoding="utf-8")
    os.utime(part, (1, 1))
    after = renderer.fingerprint("post")
    assert after != before
    assert after == Renderer("demo", override=folder).fingerprint("post")
