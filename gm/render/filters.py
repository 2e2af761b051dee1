"""The Jinja filters of gm templates, and the escaping rule they live under.

For template authors
====================

Templates write Markdown. Every ``{{ expression }}`` is escaped for Markdown
when its value is text: a player called ``*Bob*`` shows up as ``*Bob*``, not
in italics, and ``[b]`` or ``<script>`` typed by a player stays plain text in
every output format. Integers are printed as they are. Printing ``None`` is an
error (test optional values with ``{% if … %}``), as is printing an undefined
variable.

Markup therefore belongs in the template, around the expression::

    **{{ player }}** braque {{ target }}        ✔ bold name
    {{ "**" ~ player ~ "**" }}                  ✘ prints the stars literally

Macros, ``{% set %}…{% endset %}`` blocks and the filters below produce
Markdown that is printed as it is (they escape their own inputs).

Filters (all produce French text):

``money``
    An integer number of dollars: ``45000|money`` → ``45 000 $``, ``-5000|money``
    → ``−5 000 $`` (U+2212 minus). Thousands are separated, and the ``$``
    attached, by U+00A0 NO-BREAK SPACE: the amount never breaks across lines
    and keeps its width in a monospace table.
``bills``
    A sequence of bill values: ``[20000, 10000, 5000]|bills`` →
    ``20 000 · 10 000 · 5 000`` (same separator as ``money``); empty → ``aucun``.
``names``
    A sequence of names, escaped and joined the French way: ``fab, marco et
    lulu``; one name alone; empty → ``personne``.
``plural``
    ``{{ n }} blessure{{ n|plural }}`` → ``s`` when ``n`` > 1 (in French, 0 and 1
    are singular). Other endings: ``n|plural("x")``, ``n|plural("aux", "al")``.
``short``
    A digest ``sha256:<hex>`` (or bare hex) → its first 32 hex digits (128
    bits: what players compare must not be grindable on a laptop).
``fingerprint``
    The chain head in a post's footer: the same 32 hex digits.
``diagram``
    A fixed-width drawing (a train, a map, a scoreboard: lines of text) as a
    code block, which every format keeps as it is: Markdown's indented block,
    BBCode's ``[code]``, HTML's ``<pre>``. Put it after a blank line.
``literal``
    A text printed exactly, byte for byte, in a code span (a seed, a word for
    the fortune): ``la_graine*x`` → ```la_graine*x```; no Markdown inside it
    is read, so what a player copies is what was hashed.
``datetime_fr``
    An ISO 8601 date-time (string or ``datetime``) → ``jeudi 3 décembre 2026 à
    20 h 00``, in the time zone the value is written in (no conversion); the
    first of the month is ``1er``.
``date_fr``
    The same, date only: ``3 décembre 2026`` (a ``date`` is accepted too).
``join``
    Jinja's ``join``, escaping each item (not the separator): ``{{ cells|join(" | ") }}``;
    ``attribute=`` works as in Jinja.
``e`` / ``escape``
    Escape for Markdown (never HTML entities); already-formatted values are
    left alone.
``raw`` / ``safe``
    Print a value as Markdown, unescaped. Only for text the MJ wrote: never
    for anything a player typed.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Iterable
from typing import Any

from jinja2 import Environment, pass_environment
from jinja2.filters import make_attrgetter

from gm.render.escape import Raw, escape_markdown, mark_data

__all__ = ["FILTERS", "finalize", "to_markdown"]

NBSP = "\u00a0"
MINUS = "\u2212"

_DAYS = ("lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche")
_MONTHS = (
    "janvier",
    "février",
    "mars",
    "avril",
    "mai",
    "juin",
    "juillet",
    "août",
    "septembre",
    "octobre",
    "novembre",
    "décembre",
)
_DIGEST = re.compile(r"(?:sha256:)?([0-9a-f]{8,64})")


class FilterError(ValueError):
    """A filter was given a value it cannot format (a template mistake)."""


def to_markdown(value: Any) -> Raw:
    """Markdown for one value: ``Raw`` as is, integers as digits, other text escaped.

    Escaped text is marked as data (``gm.render.escape.mark_data``) for the
    typography pass, which leaves it as typed and removes the marks.
    """
    if isinstance(value, Raw):
        return value
    if value is None:
        raise FilterError("cannot print None; test optional values with {% if … %} first")
    if isinstance(value, int) and not isinstance(value, bool):
        return Raw(str(value))
    return mark_data(escape_markdown(str(value)))


def finalize(value: Any) -> Raw:
    """Jinja's ``finalize`` hook: what every ``{{ … }}`` prints."""
    return to_markdown(value)


def _int(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise FilterError(f"{what} expects a whole number, got {value!r}")
    return value


def _grouped(amount: int) -> str:
    return f"{amount:,}".replace(",", NBSP)


def money(value: Any) -> Raw:
    """``45000`` → ``45 000 $``; ``-5000`` → ``−5 000 $``."""
    amount = _int(value, "money")
    sign = MINUS if amount < 0 else ""
    return Raw(f"{sign}{_grouped(abs(amount))}{NBSP}$")


def bills(values: Iterable[Any]) -> Raw:
    """``[20000, 10000]`` → ``20 000 · 10 000``; empty → ``aucun``."""
    parts = [_grouped(_int(v, "bills")) for v in values]
    return Raw(" · ".join(parts) if parts else "aucun")


def names(values: Iterable[Any]) -> Raw:
    """``["fab", "marco", "lulu"]`` → ``fab, marco et lulu``; empty → ``personne``."""
    items = [to_markdown(v) for v in values]
    if not items:
        return Raw("personne")
    if len(items) == 1:
        return items[0]
    return Raw(", ".join(items[:-1]) + " et " + items[-1])


def plural(value: Any, suffix: str = "s", singular: str = "") -> Raw:
    """``suffix`` when ``value`` > 1 (French: 0 and 1 are singular), else ``singular``.

    The endings are the template's own words: escaped, not marked as data."""
    return escape_markdown(suffix if _int(value, "plural") > 1 else singular)


def _hex(value: Any) -> str:
    match = _DIGEST.fullmatch(str(value)) if isinstance(value, str) else None
    if match is None:
        raise FilterError(f"expected a digest like 'sha256:<hex>', got {value!r}")
    return match.group(1)


SHORT_DIGITS = 32
"""Hex digits of a digest that posts print and players compare: 128 bits."""


def short(value: Any) -> Raw:
    """``sha256:a41f09c2…`` → its first ``SHORT_DIGITS`` hex digits."""
    return Raw(_hex(value)[:SHORT_DIGITS])


def fingerprint(value: Any) -> Raw:
    """The chain head as a post's footer prints it: ``SHORT_DIGITS`` hex digits."""
    return short(value)


def diagram(value: Any) -> Raw:
    """Lines of text as an indented (code) block: no markup inside is read."""
    if not isinstance(value, str) or not value.strip("\n"):
        raise FilterError(f"diagram draws lines of text, got {value!r}")
    lines = value.strip("\n").split("\n")
    # Marked as data: the typography pass leaves a drawing exactly as drawn.
    return mark_data("\n".join("    " + line.rstrip() for line in lines))


def literal(value: Any) -> Raw:
    """``value`` as a CommonMark code span: printed exactly, nothing in it read as markup."""
    if not isinstance(value, str) or "\n" in value or not value.strip():
        raise FilterError(f"literal prints one non-blank line of text, got {value!r}")
    longest = max((len(m) for m in re.findall(r"`+", value)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if value.startswith("`") or value.endswith("`") else ""
    return Raw(f"{fence}{pad}{value}{pad}{fence}")


def _datetime(value: Any) -> dt.datetime:
    if isinstance(value, dt.datetime):
        return value
    if isinstance(value, str):
        try:
            return dt.datetime.fromisoformat(value)
        except ValueError:
            pass
    raise FilterError(
        f"expected an ISO 8601 date-time like '2026-12-03T20:00+01:00', got {value!r}"
    )


def _day_month_year(day: dt.date) -> str:
    number = "1er" if day.day == 1 else str(day.day)
    return f"{number} {_MONTHS[day.month - 1]} {day.year}"


def datetime_fr(value: Any) -> Raw:
    """``2026-12-03T20:00:00+01:00`` → ``jeudi 3 décembre 2026 à 20 h 00``."""
    moment = _datetime(value)
    return Raw(
        f"{_DAYS[moment.weekday()]} {_day_month_year(moment)} à {moment.hour} h {moment.minute:02d}"
    )


def date_fr(value: Any) -> Raw:
    """``2026-12-03`` (or a date-time) → ``3 décembre 2026``."""
    if isinstance(value, dt.date) and not isinstance(value, dt.datetime):
        return Raw(_day_month_year(value))
    if isinstance(value, str) and len(value) == 10:
        try:
            return Raw(_day_month_year(dt.date.fromisoformat(value)))
        except ValueError:
            pass
    return Raw(_day_month_year(_datetime(value)))


@pass_environment
def join(
    environment: Environment, values: Iterable[Any], separator: str = "", attribute: Any = None
) -> Raw:
    """Jinja's ``join`` for Markdown: items escaped, the template's separator kept."""
    if attribute is not None:
        values = map(make_attrgetter(environment, attribute), values)
    return Raw(str(separator).join(to_markdown(v) for v in values))


def raw(value: Any) -> Raw:
    """Mark text written by the MJ as Markdown to print unescaped."""
    return Raw(str(value))


FILTERS: dict[str, Callable[..., Raw]] = {
    "money": money,
    "bills": bills,
    "names": names,
    "plural": plural,
    "short": short,
    "fingerprint": fingerprint,
    "literal": literal,
    "diagram": diagram,
    "datetime_fr": datetime_fr,
    "date_fr": date_fr,
    "join": join,
    "e": to_markdown,
    "escape": to_markdown,
    "raw": raw,
    "safe": raw,
}
