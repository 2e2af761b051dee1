"""Forum presets: one name that sets everything a forum needs, and ``to_forum``.

An MJ knows their forum, not its markup. A preset names a forum (or a
markup, for the forums not listed) and sets at once the output format, how
tables are written and which BBCode table tags are used:

============  ========  ========  ==============================================
preset        format    tables    for
============  ========  ========  ==============================================
markdown      markdown  native    any CommonMark forum (the canonical form)
discourse     markdown  native    Discourse (markdown-it, GFM tables, linkify)
reddit        markdown  native    Reddit (CommonMark, GFM tables)
bbcode        bbcode    list      any BBCode forum: phpBB 3.3's default tags only
phpbb         bbcode    list      phpBB 3.3 (no ``[table]``, ``[s]``, ``[hr]``…)
forumactif    bbcode    native    Forumactif: ``[table][tr][td]``, headers bold
html          html      native    a preview in a browser
============  ========  ========  ==============================================

The default BBCode (``bbcode``, ``phpbb``) uses only tags of phpBB 3.3's
default set (``b i u quote code list * url img size color email``; gm writes
``b i size list * code``, and ``url``/``img`` for a template's own links).
Forumactif has more (``table tr td``, ``center``, ``hr``, ``strike``,
``spoiler``); its preset uses ``[table][tr][td]`` only, with header cells
written ``[td][b]…[/b][/td]``, as ``[th]`` is not in its documented set.

The campaign setting ``format`` holds a preset's name; the setting
``tables`` is ``auto`` (the preset's choice) unless the MJ chose a mode.

``to_forum(markdown, preset, tables)`` is the one function that turns a
post or a private reply (Markdown from a template: every name and player
text already escaped, smileys and links defused, French spacing and hard
line breaks done, see ``gm.render.typography``) into what the MJ pastes.
Everything gm prints for a forum or a player goes through it.
"""

from __future__ import annotations

from dataclasses import dataclass

from gm.errors import InputError

__all__ = ["AUTO", "PRESETS", "Preset", "preset", "to_forum"]

AUTO = "auto"
"""The ``tables`` setting that defers to the preset."""


@dataclass(frozen=True)
class Preset:
    name: str
    format: str
    """``markdown``, ``bbcode`` or ``html`` (``gm.render.markup.FORMATS``)."""
    tables: str
    """How tables are written in BBCode (``gm.render.markup.TABLE_MODES``)."""
    forum: str
    """The forums it is for, as the README and ``--help`` say it."""
    header_cell: str = "th"
    """The BBCode tag of a table's header cells in ``native`` mode: ``th``, or
    ``td`` (the cell's text in bold) where the forum has no ``[th]``."""


PRESETS: dict[str, Preset] = {
    p.name: p
    for p in (
        Preset("markdown", "markdown", "native", "any CommonMark forum"),
        Preset("bbcode", "bbcode", "list", "any BBCode forum (phpBB 3.3's tags only)"),
        Preset("html", "html", "native", "a preview in a browser"),
        Preset("phpbb", "bbcode", "list", "phpBB 3.3"),
        Preset("forumactif", "bbcode", "native", "Forumactif", header_cell="td"),
        Preset("discourse", "markdown", "native", "Discourse"),
        Preset("reddit", "markdown", "native", "Reddit"),
    )
}
"""Every preset, by name, in the order help texts list them."""


def preset(name: str) -> Preset:
    """The preset called ``name``.

    :raises InputError: ``render/format``, naming the valid presets.
    """
    found = PRESETS.get(name)
    if found is None:
        raise InputError(
            f"unknown format {name!r}; valid: {', '.join(PRESETS)}", code="render/format"
        )
    return found


def to_forum(markdown_text: str, name: str = "markdown", tables: str = AUTO) -> str:
    """A post or private reply, stored or rendered as Markdown, as the forum of
    preset ``name`` wants it pasted; ``tables`` overrides the preset's table
    mode unless it is ``auto``."""
    from gm.render.markup import convert

    chosen = preset(name)
    mode = chosen.tables if tables == AUTO else tables
    return convert(markdown_text, chosen.format, mode, header_cell=chosen.header_cell)
