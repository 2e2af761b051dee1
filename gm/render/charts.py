"""Fixed-width charts for forum posts: bars for the standings, a sparkline for
the money over the rounds.

A chart is lines of text for a code block (the ``diagram`` filter), which
every format keeps as it is (Markdown's indented block, BBCode's ``[code]``,
HTML's ``<pre>``), so it needs no image and reads the same on every forum.
The template filter ``chart`` takes rows ``{"name", "value", "history"}``:

    Butin après le tour 3
    fab        ████████████████████  25 000 $  ▁▄▄█
    Élodie     ████████              10 000 $  ▁▁▄▄
    tom                                   0 $  ▁▁▁▁

The bar is ``value`` scaled to the largest one (``BAR_WIDTH`` cells at most);
the sparkline, one cell per round, is ``history`` scaled to its largest value
over every row (``▁`` for nothing, ``█`` for the most). Names are cleaned
(one line, no control characters) and cut at ``NAME_WIDTH`` columns, counting
wide characters (CJK, emoji) as two, so the columns stay aligned.

The image version of the same data, for forums that take pictures, is
``gm.service.plots`` (the optional ``charts`` extra).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping
from typing import Any

from gm.render.escape import clean_text
from gm.render.filters import FilterError

__all__ = ["BAR_WIDTH", "NAME_WIDTH", "chart"]

BAR_WIDTH = 20
NAME_WIDTH = 14
_LEVELS = "▁▂▃▄▅▆▇█"
_UNITS = ("money", "or", "étoiles", "")


def _width(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def _fit(name: str) -> str:
    """The name cut to ``NAME_WIDTH`` columns (« … » marks a cut), padded to it."""
    name = clean_text(name)
    if _width(name) > NAME_WIDTH:
        out = ""
        for c in name:
            if _width(out + c) > NAME_WIDTH - 1:
                break
            out += c
        name = out + "…"
    return name + " " * (NAME_WIDTH - _width(name))


def _amount(value: int, unit: str) -> str:
    if unit == "money":
        sign = "-" if value < 0 else ""
        return f"{sign}{abs(value):,}".replace(",", " ") + " $"
    if unit == "étoiles":  # French: 0 and 1 are singular
        return f"{value} étoile{'s' if value > 1 else ''}"
    return f"{value} {unit}".rstrip()


def _int(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise FilterError(f"chart: {what} must be a whole number, got {value!r}")
    return value


def chart(rows: Iterable[Mapping[str, Any]], unit: str = "", title: str = "") -> str:
    """The chart of ``rows`` as lines of text (to pass to ``diagram``).

    ``unit``: ``money`` (« 25 000 $ »), ``or``, ``étoiles`` or nothing.
    Plain text, not Markdown: printed without ``diagram`` it is escaped.
    """
    if unit not in _UNITS:
        raise FilterError(f"chart: unknown unit {unit!r} (units: money, or, étoiles)")
    table = []
    for row in rows:
        if not isinstance(row, Mapping) or "name" not in row or "value" not in row:
            raise FilterError(f"chart: each row needs a name and a value, got {row!r}")
        history = [_int(v, "history") for v in row.get("history") or ()]
        table.append((str(row["name"]), _int(row["value"], "value"), history))
    if not table:
        raise FilterError("chart: no rows to draw")
    top = max(max(v for _, v, _ in table), 1)
    peak = max((max(h) for _, _, h in table if h), default=0)
    amounts = [_amount(v, unit) for _, v, _ in table]
    wide = max(len(a) for a in amounts)
    lines = [clean_text(title)] if title else []
    for (name, value, history), amount in zip(table, amounts, strict=True):
        cells = round(BAR_WIDTH * value / top) if value > 0 else 0
        bar = "█" * cells + " " * (BAR_WIDTH - cells)
        line = f"{_fit(name)} {bar}  {amount.rjust(wide)}"
        if history:
            spark = "".join(
                _LEVELS[round((len(_LEVELS) - 1) * max(v, 0) / peak)] if peak > 0 else _LEVELS[0]
                for v in history
            )
            line += f"  {spark}"
        lines.append(line.rstrip())
    return "\n".join(lines)


FILTERS = {"chart": chart}
