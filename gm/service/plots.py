"""``gm chart`` and ``gm picture``: images of a game's public posts.

``gm chart`` draws the standings and the money over the rounds; ``gm
picture`` draws a post's public view the way its game pictures it
(``GameDef.picture``: Colt Express draws the train).

For forums that take pictures. The data is the ``chart`` of a public view
(the same rows the posts' fixed-width chart draws: ``gm.render.charts``), so
the picture shows exactly what the post says. Drawing needs matplotlib,
which is an optional extra (``pip install 'gm-forum[charts]'``): gm runs
without it, and this module imports it only when asked for a picture. The
file is PNG or SVG, chosen by its suffix.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from gm.core.protocol import PostRef
from gm.errors import InputError, NotFoundError
from gm.render.escape import clean_text
from gm.service.env import Env
from gm.service.loading import fold, load

EXTRA = "charts"
IMAGE_FORMATS = ("png", "svg")


@dataclass(frozen=True)
class Labels:
    """The French words of one chart: titles and axis names."""

    lines: str
    axis: str
    bars: str
    unit: str
    """What the lines count (the bars may count something else: stars)."""


DEFAULT = Labels("Par tour", "tour", "Classement", "")
"""For a view whose chart brings no ``chart_labels`` of its own."""


@dataclass(frozen=True)
class Drawn:
    ref: PostRef
    image: bytes


def chart_rows(
    env: Env, slug: str, first: int | None
) -> tuple[PostRef, list[dict[str, Any]], Labels]:
    """The chart of the latest stored post that has one (at ``first``, its
    first coordinate: a round, a manche, if given)."""
    campaign = load(env, slug)
    for post in reversed(env.store.posts(campaign.slug)):
        if first is not None and (not post.at or post.at[0] != first):
            continue
        ref = PostRef(post.kind, post.at)
        try:
            view = campaign.game.public_view(campaign.state, ref, campaign.table)
        except Exception:  # a post the game no longer renders (a roll, the rules)
            continue
        if isinstance(view.get("chart"), list) and view["chart"]:
            words = view.get("chart_labels")
            labels = Labels(**words) if isinstance(words, Mapping) else DEFAULT
            return ref, list(view["chart"]), labels
    where = f" for {first}" if first is not None else ""
    raise NotFoundError(
        f"no post with a chart{where} in {campaign.slug!r} yet (the end of a round or a manche,"
        " or the final post, has one)",
        code="chart/not-found",
    )


def draw(env: Env, slug: str, fmt: str, first: int | None = None) -> Drawn:
    """The chart as PNG or SVG bytes.

    :raises InputError: ``chart/format`` (not png or svg) or ``chart/extra``
        (matplotlib is not installed: the message names the extra).
    """
    if fmt not in IMAGE_FORMATS:
        raise InputError(
            f"a chart is written as {' or '.join(IMAGE_FORMATS)}, not {fmt!r}"
            " (name the file chart.png or chart.svg)",
            code="chart/format",
        )
    ref, rows, labels = chart_rows(env, slug, first)
    Figure = _matplotlib("chart", "the posts' text charts need nothing")
    figure = Figure(figsize=(9, 3.6), dpi=100, layout="constrained")
    lines, bars = figure.subplots(1, 2, width_ratios=(3, 2))
    names = [clean_text(str(r["name"])) for r in rows]
    # one colour per player, the same in both panels
    colors = [f"C{i % 10}" for i in range(len(rows))]
    _lines(lines, names, [list(r.get("history") or ()) for r in rows], labels, ref, colors)
    _bars(bars, names, [int(r["value"]) for r in rows], labels, colors)
    return Drawn(ref, _save(figure, fmt))


def _matplotlib(what: str, without: str) -> Any:
    """matplotlib's ``Figure``, or a clear error naming the extra that brings it."""
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise InputError(
            f"drawing an image needs matplotlib, in gm's optional '{EXTRA}' extra:"
            f" pip install 'gm-forum[{EXTRA}]' ({without})",
            code=f"{what}/extra",
        ) from None
    return Figure


def _save(figure: Any, fmt: str) -> bytes:
    from matplotlib import rc_context

    out = io.BytesIO()
    # No date, and SVG ids from a fixed salt: the same game draws the same bytes.
    metadata = {"Date": None} if fmt == "svg" else {"Software": None}
    with rc_context({"svg.hashsalt": "gm", "svg.fonttype": "none"}):
        figure.savefig(out, format=fmt, metadata=metadata)
    return out.getvalue()


def picture(
    env: Env, slug: str, fmt: str, kind: str | None = None, at: tuple[int, ...] | None = None
) -> Drawn:
    """The picture of the latest stored post its game can draw (of ``kind``,
    at or starting with ``at``, if given), as PNG or SVG bytes. The game
    draws from the post's public view only (``GameDef.picture``), as the
    game stood when the post was made (the log folded up to the post).

    :raises InputError: ``picture/format``, ``picture/none`` (the game draws
        no picture), ``picture/extra`` (matplotlib is not installed).
    :raises NotFoundError: ``picture/not-found`` (no such post to draw).
    """
    if fmt not in IMAGE_FORMATS:
        raise InputError(
            f"a picture is written as {' or '.join(IMAGE_FORMATS)}, not {fmt!r}"
            " (name the file train.png or train.svg)",
            code="picture/format",
        )
    campaign = load(env, slug)
    game = campaign.game
    if game.picture is None:
        raise InputError(
            f"{game.title} draws no picture of its posts (gm chart draws the standings)",
            code="picture/none",
            params={"game": game.id},
        )
    Figure = _matplotlib("picture", "the posts' text diagrams need nothing")
    for post in reversed(env.store.posts(campaign.slug)):
        if (kind is not None and post.kind != kind) or (
            at is not None and post.at[: len(at)] != at
        ):
            continue
        ref = PostRef(post.kind, post.at)
        # the game as it stood when the post was made: the picture shows what the post showed
        then = fold(campaign.slug, game.id, [r for r in campaign.records if r.seq <= post.at_seq])
        try:
            view = game.public_view(then.state, ref, then.table)
        except NotFoundError:  # a post the game does not render (a roll, a reminder)
            continue
        figure = Figure(layout="constrained")
        if game.picture(view, figure):
            return Drawn(ref, _save(figure, fmt))
    what = f"no {kind or 'post'}" + (f" at {'.'.join(map(str, at))}" if at else "")
    raise NotFoundError(
        f"{what} with a picture in {campaign.slug!r} yet (a post that shows the game's board has one)",
        code="picture/not-found",
    )


def _lines(
    ax: Any,
    names: Sequence[str],
    series: Sequence[Sequence[int]],
    labels: Labels,
    ref: PostRef,
    colors: Sequence[str],
) -> None:
    from matplotlib.ticker import MaxNLocator

    ax.set_title(labels.lines)
    for name, values, color in zip(names, series, colors, strict=True):
        if values:
            ax.plot(range(1, len(values) + 1), values, marker="o", label=name, color=color)
    longest = max((len(v) for v in series), default=0)
    ax.set_xticks(range(1, longest + 1))
    ax.set_xlabel(labels.axis)
    ax.set_ylabel(labels.unit)
    ax.grid(alpha=0.3)
    ax.yaxis.set_major_locator(MaxNLocator(nbins=6, integer=True))
    ax.yaxis.set_major_formatter(_grouped)
    ax.legend(fontsize="small", loc="best")


def _bars(
    ax: Any, names: Sequence[str], values: Sequence[int], labels: Labels, colors: Sequence[str]
) -> None:
    ax.set_title(labels.bars)
    positions = range(len(names))
    ax.barh(positions, values, color=list(colors), height=0.6)
    ax.set_yticks(list(positions), labels=list(names))
    ax.invert_yaxis()  # the first row (the leader) on top, as in the posts
    ax.set_xticks([])  # each bar says its value
    for side in ("top", "right", "bottom"):
        ax.spines[side].set_visible(False)
    for y, value in zip(positions, values, strict=True):
        ax.annotate(
            _grouped(value, None),
            (value, y),
            xytext=(3, 0),
            textcoords="offset points",
            va="center",
            fontsize="small",
        )
    ax.margins(x=0.25)


def _grouped(value: float, _pos: Any) -> str:
    """« 25 000 »: thousands grouped the French way."""
    return f"{int(value):,}".replace(",", " ")
