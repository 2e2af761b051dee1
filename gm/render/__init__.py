"""Rendering of forum posts: Jinja templates to Markdown, Markdown to forum markup.

A post is rendered in two steps:

1. ``Renderer(game_id, lang, override).render(kind, context)`` runs the
   sandboxed Jinja template ``<game>/<lang>/<kind>.md.j2`` (or
   ``common/<lang>/<kind>.md.j2``) and returns **Markdown**, the canonical
   form of a post (stored, hashed, posted as is on Discourse or Reddit).
   Player-supplied text in the context is escaped for Markdown automatically
   (``gm.render.escape``); the filters for template authors are documented in
   ``gm.render.filters``.
2. ``convert(markdown, fmt, tables)`` turns it into ``"bbcode"`` (phpBB,
   Forumactif) or ``"html"`` (a preview); see ``gm.render.markup``.
   ``Renderer.render_as`` does both.

Template mistakes raise ``TemplateError`` (code ``template/error``) and a
missing template ``gm.errors.NotFoundError`` (code ``template/not-found``):
user errors, shown without a traceback. What an edited template may do is
bounded, each bound a ``TemplateError`` of its own code: it reads only files
inside its own folder (``template/outside-folder``, see ``gm.render.loader``),
writes at most ``engine.MAX_OUTPUT`` characters (``template/too-long``), runs
at most ``engine.MAX_SECONDS`` seconds (``template/too-slow``, see
``gm.render.timer``) and nests or recurses no deeper than Python allows
(``template/too-deep``). Nothing here touches the database or the command line.
"""

from gm.render.engine import Renderer, TemplateError, templates_dir
from gm.render.escape import Raw, break_bbcode_tags, clean_text, escape_markdown
from gm.render.markup import FORMATS, TABLE_MODES, convert

__all__ = [
    "FORMATS",
    "TABLE_MODES",
    "Raw",
    "Renderer",
    "TemplateError",
    "break_bbcode_tags",
    "clean_text",
    "convert",
    "escape_markdown",
    "templates_dir",
]
