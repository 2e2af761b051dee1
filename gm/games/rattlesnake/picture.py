"""The valley as a picture (``gm picture``), for forums that take images.

The same valley as the posts' fixed-width map (``views.valley``), drawn with
matplotlib on the figure the platform gives, from a public view's
``valley`` only (``views.valley_data``): so the picture shows no more than
the post it illustrates. Each cell is a square coloured by its zone (town
building cell, station, prairie, mine), labelled with its name and, once
built, its tile's code and, in a blue disc, the number of the player it pays
(the owner of the nearest saloon, R-4), as the text map writes « Bq3 »; the
numbers are spelled out under the map (« 1 ana · 2 bob »), each town is
named with its owner; the railway is drawn between its ends. Every word is
French.

The board data place towns and cells but not the railway's junctions: a
junction is drawn at the mean of the station cells of the towns it links
to (directly or through other junctions), and a link's slots evenly along
the segment between its two ends, a damaged slot dashed in red, a printed
or repaired one solid.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

ZONES: dict[str, str] = {
    "building": "#f3d9a4",
    "station": "#c9b8a6",
    "prairie": "#b6d7a8",
    "mine": "#a8a8a8",
}
"""Cell colours by zone (``Spot.zone``); a built cell is drawn darker."""
BUILT = "#e0a458"
RAIL = "#3b2f2f"
DAMAGED = "#c8102e"
OWNER = "#1f4e79"
LEGEND_WIDTH = 18
"""A valley narrower than this many cells prints the tiles' codes on two lines."""

LEGEND = (
    ("Sa", "saloon"),
    ("Sh", "shérif"),
    ("Bq", "banque"),
    ("St", "store"),
    ("Ho", "hôtel"),
    ("Mf", "maréchal"),
    ("Eg", "église"),
    ("Ec", "école"),
    ("Ci", "cimetière"),
    ("Rn", "ranch"),
    ("Mi", "mine"),
    ("Gr", "gare"),
)


def _safe(text: str) -> str:
    """Names as plain text: matplotlib reads ``$…$`` as mathematics."""
    return text.replace("\\", "\\\\").replace("$", r"\$")


def _zone(cell: Mapping[str, Any]) -> str:
    zone = str(cell.get("zone") or "")
    for key in ZONES:
        if key in zone:
            return key
    return "building"


def _title(view: Mapping[str, Any]) -> str:
    turn = view.get("turn") or {}
    if view.get("winners") is not None and "standings" in view:
        return "La vallée de Rattlesnake — fin de la partie"
    if isinstance(turn, Mapping) and turn.get("number"):
        return f"La vallée de Rattlesnake — tour {turn['number']}"
    return "La vallée de Rattlesnake"


def owner_numbers(valley: Mapping[str, Any]) -> dict[str, int]:
    """Each player's number, as the text map numbers a built cell's owner:
    their place in the order of the table, from 1."""
    return {str(p): i for i, p in enumerate(valley.get("players") or (), start=1)}


def junction_places(valley: Mapping[str, Any]) -> dict[str, tuple[float, float]]:
    """Where each end of a rail link is drawn: a town at the centre of its
    station cell, a junction at the mean of the towns it reaches (through
    other junctions too, nearest first), so that the drawing needs no
    coordinates the board file does not give."""
    towns = {t["id"] for t in valley["towns"]}
    stations: dict[str, tuple[float, float]] = {}
    for cell in valley["cells"]:
        if _zone(cell) == "station" and cell.get("area") in towns:
            stations[str(cell["area"])] = (cell["x"] + 0.5, cell["y"] + 0.5)
    links: dict[str, set[str]] = {}
    for slot in valley["slots"]:
        a, b = (str(x) for x in slot["between"])
        links.setdefault(a, set()).add(b)
        links.setdefault(b, set()).add(a)
    places = dict(stations)
    for end in sorted(links):
        if end in places:
            continue
        # the towns nearest in the link graph, found breadth first
        seen, frontier = {end}, {end}
        found: list[tuple[float, float]] = []
        while frontier and not found:
            step = {n for f in frontier for n in links.get(f, ()) if n not in seen}
            seen |= step
            found = [stations[n] for n in sorted(step) if n in stations]
            frontier = step
        if found:
            places[end] = (
                sum(x for x, _ in found) / len(found),
                sum(y for _, y in found) / len(found),
            )
    return places


def draw_valley(view: Mapping[str, Any], figure: Any) -> bool:
    """Draw ``view["valley"]`` on ``figure`` (a matplotlib Figure); False when
    the view has no valley (the rules post)."""
    from matplotlib.patches import Rectangle

    valley = view.get("valley")
    if not isinstance(valley, Mapping):
        return False
    width, height = int(valley["width"]), int(valley["height"])
    scale = 0.55
    figure.set_size_inches(max(6.0, width * scale + 0.5), height * scale + 2.0)
    figure.set_dpi(100)
    ax = figure.subplots()
    ax.set_xlim(-0.3, width + 0.3)
    ax.set_ylim(height + 2.0, -0.9)  # y down, as in the board file; room for the legend
    ax.set_aspect("equal")
    ax.axis("off")
    ax.set_title(_title(view), fontsize=13, fontweight="bold")
    ax.add_patch(Rectangle((0, 0), width, height, facecolor="#fbf3e4", edgecolor="#8b6f47"))

    # the railway, drawn over the cells it crosses
    places = junction_places(valley)
    by_link: dict[tuple[str, str], list[Mapping[str, Any]]] = {}
    for slot in valley["slots"]:
        a, b = (str(x) for x in slot["between"])
        by_link.setdefault((a, b), []).append(slot)
    for (a, b), slots in by_link.items():
        if a not in places or b not in places:
            continue
        (x0, y0), (x1, y1) = places[a], places[b]
        n = len(slots)
        for i, slot in enumerate(slots):
            f0, f1 = i / n, (i + 1) / n
            xs = [x0 + (x1 - x0) * f0, x0 + (x1 - x0) * f1]
            ys = [y0 + (y1 - y0) * f0, y0 + (y1 - y0) * f1]
            sound = bool(slot.get("printed")) or bool(slot.get("repaired"))
            ax.plot(
                xs,
                ys,
                color=RAIL if sound else DAMAGED,
                linestyle="-" if sound else (0, (3, 2)),
                linewidth=3 if sound else 2,
                solid_capstyle="butt",
                zorder=5,
            )
            ax.text(
                (xs[0] + xs[1]) / 2,
                (ys[0] + ys[1]) / 2,
                str(slot["id"]),
                fontsize=6,
                ha="center",
                va="center",
                color=RAIL if sound else DAMAGED,
                bbox={"boxstyle": "round,pad=0.1", "fc": "white", "ec": "none", "alpha": 0.8},
                zorder=6,
            )
    for name, (x, y) in places.items():
        if name not in {t["id"] for t in valley["towns"]}:  # a junction
            ax.plot([x], [y], marker="o", color=RAIL, markersize=5, zorder=6)

    # the cells; a built one with its tile's code and the number of the player it pays
    numbers = owner_numbers(valley)
    for cell in valley["cells"]:
        x, y = float(cell["x"]), float(cell["y"])
        zone = _zone(cell)
        built = cell.get("code")
        ax.add_patch(
            Rectangle(
                (x + 0.04, y + 0.04),
                0.92,
                0.92,
                facecolor=BUILT if built and zone == "building" else ZONES[zone],
                edgecolor="#5b4636",
                linewidth=1.6 if built else 0.6,
                zorder=3,
            )
        )
        ax.text(
            x + 0.08, y + 0.1, str(cell["name"]), fontsize=5.5, va="top", color="#3b2f2f", zorder=4
        )
        if built:
            ax.text(
                x + 0.5,
                y + 0.6,
                str(built),
                fontsize=9,
                fontweight="bold",
                ha="center",
                va="center",
                zorder=4,
            )
            number = numbers.get(str(cell.get("owner")))
            if number is not None:  # whom it pays, as the text map says it (« Bq3 »)
                ax.text(
                    x + 0.8,
                    y + 0.22,
                    str(number),
                    fontsize=6.5,
                    fontweight="bold",
                    ha="center",
                    va="center",
                    color="white",
                    bbox={"boxstyle": "circle,pad=0.18", "fc": OWNER, "ec": "none"},
                    zorder=8,  # above the railway where it crosses the cell
                )

    # the towns: name and owner above their cells
    spans: dict[str, list[tuple[float, float]]] = {}
    for cell in valley["cells"]:
        if cell.get("area") is not None and _zone(cell) == "building":
            spans.setdefault(str(cell["area"]), []).append((cell["x"], cell["y"]))
    for town in valley["towns"]:
        cells = spans.get(str(town["id"]))
        if not cells:
            continue
        left = min(x for x, _ in cells)
        right = max(x for x, _ in cells) + 1
        top = min(y for _, y in cells)
        bottom = max(y for _, y in cells) + 1
        station = places.get(str(town["id"]))
        above = station is None or station[1] > top  # the label where the station is not
        owner = town.get("owner")
        label = f"{town['id']} · {_safe(str(town['name']))}"
        label += f"\n{_safe(str(owner))}" if owner else "\n(libre)"
        ax.text(
            (left + right) / 2,
            top - 0.08 if above else bottom + 0.08,
            label,
            fontsize=7.5,
            ha="center",
            va="bottom" if above else "top",
            color=OWNER if owner else "#6b6b6b",
            fontweight="bold" if owner else "normal",
            # readable even where a crowded board leaves no free row above the town
            bbox={"boxstyle": "round,pad=0.15", "fc": "white", "ec": "none", "alpha": 0.75},
            zorder=7,
        )

    # under the map: the codes (on two lines where the valley is narrow), the
    # players' numbers, the railway
    codes = ["   ".join(f"{code} {word}" for code, word in LEGEND)]
    if width < LEGEND_WIDTH:
        half = len(LEGEND) // 2
        codes = ["   ".join(f"{c} {w}" for c, w in part) for part in (LEGEND[:half], LEGEND[half:])]
    players = " · ".join(f"{n} {_safe(name)}" for name, n in numbers.items())
    lines = [
        *((line, "black") for line in codes),
        (f"Numéros des joueurs (à qui rapporte une case bâtie) : {players}", OWNER),
        ("voie : trait plein = en état · tirets rouges = endommagée", "#444444"),
    ]
    for i, (line, colour) in enumerate(lines):
        ax.text(
            width / 2,
            height + 0.6 + 0.45 * i,
            line,
            fontsize=7,
            ha="center",
            va="center",
            color=colour,
        )
    ax.set_ylim(height + 0.6 + 0.45 * len(lines), -0.9)
    return True
