"""Rendering of forum posts: Jinja templates to Markdown, Markdown to forum markup.

A post is rendered in two steps:

1. ``Renderer(game_id, lang, override).render(kind, context)`` runs the
   sandboxed Jinja template ``<game>/<lang>/<kind>.md.j2`` (or
   ``common/<lang>/<kind>.md.j2``) and returns **Markdown**, the canonical
   form of a post (stored, hashed, posted as is on Discourse or Reddit).
   Player-supplied text in the context is escaped for Markdown automatically
   (``gm.render.escape``); the filters for template authors are documented in
   ``gm.render.filters``.
   The template's own French text gets no-break spaces and its lines hard
   breaks (``gm.render.typography``); names and players' texts are escaped
   and their smileys and links defused (``gm.render.escape``).
2. ``to_forum(markdown, preset, tables)`` turns it into what a forum wants
   pasted: a preset names the forum (``phpbb``, ``forumactif``,
   ``discourse``, ``reddit``) or the markup (``markdown``, ``bbcode``,
   ``html``), see ``gm.render.presets``; ``convert`` (``gm.render.markup``)
   does the conversion. Every post and private reply gm prints goes through
   ``to_forum``. ``Renderer.render_as`` does both.

Template mistakes raise ``TemplateError`` (code ``template/error``) and a
missing template ``gm.errors.NotFoundError`` (code ``template/not-found``):
user errors, shown without a traceback. What an edited template may do is
bounded, each bound a ``TemplateError`` of its own code: it reads only files
inside its own folder (``template/outside-folder``, see ``gm.render.loader``),
writes at most ``engine.MAX_OUTPUT`` characters (``template/too-long``), takes
at most ``budget.MAX_STEPS`` loop turns and calls and ``budget.MAX_CPU_SECONDS``
of processor time (``template/too-slow``, see ``gm.render.budget``: the work,
not the wall clock) and nests or recurses no deeper than Python allows
(``template/too-deep``). Nothing here touches the database or the command line.
"""

from gm.render.engine import Renderer, TemplateError, templates_dir
from gm.render.escape import Raw, break_bbcode_tags, clean_text, defuse, escape_markdown
from gm.render.markup import FORMATS, TABLE_MODES, convert
from gm.render.presets import AUTO, PRESETS, Preset, preset, to_forum

__all__ = [
    "AUTO",
    "FORMATS",
    "PRESETS",
    "TABLE_MODES",
    "Preset",
    "Raw",
    "Renderer",
    "TemplateError",
    "break_bbcode_tags",
    "clean_text",
    "convert",
    "defuse",
    "escape_markdown",
    "preset",
    "templates_dir",
    "to_forum",
]
