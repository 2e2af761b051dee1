"""The campaign settings gm knows and their closed sets of values: data
only, imported by the command line's options without the rest of the core
(``gm --help`` stays light)."""

from __future__ import annotations

SETTINGS: dict[str, tuple[str, ...]] = {
    "format": ("markdown", "bbcode", "html", "phpbb", "forumactif", "discourse", "reddit"),
    "lang": ("fr",),
    "tables": ("auto", "native", "list", "code"),
    "digest": ("off", "on"),
}
"""Campaign settings with a closed set of values. ``format`` is a forum
preset (``gm.render.presets``: the format, the tables and the tags a forum
takes); ``tables`` is ``auto`` (the preset's choice) or a mode the MJ chose;
``digest`` ``on`` prints the posts a game gathers (``PostKind.gathered``)
with the next one, as one forum message.
``tz`` (an IANA time zone)
and ``turn-deadline`` (a delay such as ``+24h``: the deadline set each time a
move passes the turn; empty for none) are settings too, checked by the
service, which owns the clock."""

DEFAULT_SETTINGS: dict[str, str] = {
    "format": "markdown",
    "lang": "fr",
    "tables": "auto",
    "digest": "off",
    "tz": "Europe/Paris",
    "turn-deadline": "",
}
