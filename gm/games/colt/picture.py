"""The train as a picture (``gm picture``), for forums that take images.

The same train as the posts' fixed-width diagram (``views.picture``), drawn
with matplotlib on the figure the platform gives: the locomotive on the
left, then the cars; each car's roof above its inside; the bandits by name
where they stand, the Marshal inside his car, and the loot lying on each
spot as counts (« 3 b · 1 j »: bourses, bijoux, coffres). It is drawn from a
public view's ``train`` only (counts, never a purse's value), so the picture
shows no more than the post it illustrates. Every word is French.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

# Colours: a wooden train, a steel locomotive, the Marshal's star.
CAR = "#b5651d"
LOCO = "#4a4a4a"
ROOF = "#8b4513"
INSIDE = "#f5deb3"
MARSHAL = "#c8102e"
LOOT = "#1f4e79"

WIDTH = 2.0
"""Width of a car, in data units (one per column, plus a gap)."""
GAP = 0.25


def _safe(text: str) -> str:
    """Names as plain text: matplotlib reads ``$…$`` as mathematics."""
    return text.replace("\\", "\\\\").replace("$", r"\$")


def _names(names: list[str]) -> str:
    """Two short names a line, so that six bandits on one spot still fit."""
    lines: list[str] = []
    for name in names:
        if lines and " · " not in lines[-1] and len(lines[-1]) + len(name) <= 16:
            lines[-1] += " · " + name
        else:
            lines.append(name)
    return "\n".join(lines)


def _loot(purses: int, jewels: int, strongboxes: int) -> str:
    parts = []
    if purses:
        parts.append(f"{purses} b")
    if jewels:
        parts.append(f"{jewels} j")
    if strongboxes:
        parts.append(f"{strongboxes} c")
    return " · ".join(parts)


def _title(view: Mapping[str, Any]) -> str:
    kind = view.get("kind")
    round_ = (view.get("round") or {}).get("number")
    if kind == "action" and view.get("steps"):
        steps = view["steps"]
        first, last = steps[0]["step"], steps[-1]["step"]
        cards = f"carte {first}" if first == last else f"cartes {first} à {last}"
        return f"Manche {round_}, Action : {cards} sur {view.get('total')}"
    if kind == "event" and round_:
        return f"Fin de la manche {round_}"
    if kind == "plan" and round_:
        return f"Manche {round_}, Plan"
    if kind == "round" and round_:
        return f"Manche {round_}"
    if kind == "final":
        return "Terminus"
    return "Le train en gare"


def draw_train(view: Mapping[str, Any], figure: Any) -> bool:
    """Draw ``view["train"]`` on ``figure`` (a matplotlib Figure); False when
    the view has no train yet (the opening, the rules)."""
    from matplotlib.patches import Circle, FancyBboxPatch, Rectangle

    train = view.get("train")
    if not isinstance(train, Mapping):
        return False
    cars = int(train["cars"])
    columns = cars + 1
    figure.set_size_inches(1.75 * columns + 0.6, 3.9)
    figure.set_dpi(100)
    ax = figure.subplots()
    ax.set_xlim(-0.2, columns * (WIDTH + GAP))
    ax.set_ylim(-1.05, 2.75)
    ax.set_aspect("auto")
    ax.axis("off")
    ax.set_title(_title(view), fontsize=13, fontweight="bold")

    who: dict[tuple[int, bool], list[str]] = {}
    for name, car, roof in train["bandits"]:
        who.setdefault((int(car), bool(roof)), []).append(_safe(str(name)))
    loot = {(int(c), bool(r)): _loot(p, j, s) for c, r, p, j, s in train["spots"]}

    ax.plot([-0.2, columns * (WIDTH + GAP)], [-0.45, -0.45], color="#555555", lw=2)  # the rails
    for column in range(columns):
        x = column * (WIDTH + GAP)
        body = LOCO if column == 0 else CAR
        # inside: the car's body, a light interior
        ax.add_patch(
            FancyBboxPatch(
                (x, 0),
                WIDTH,
                1.5,
                boxstyle="round,pad=0,rounding_size=0.08",
                facecolor=INSIDE,
                edgecolor=body,
                linewidth=3,
            )
        )
        # the roof: a band on top, where bandits stand in the open
        ax.add_patch(Rectangle((x - 0.05, 1.5), WIDTH + 0.1, 0.14, color=ROOF if column else LOCO))
        if column == 0:  # the locomotive's chimney
            ax.add_patch(Rectangle((x + 0.2, 1.64), 0.28, 0.4, color=LOCO))
        for wheel in (x + 0.4, x + WIDTH - 0.4):
            ax.add_patch(Circle((wheel, -0.22), 0.2, color="#333333"))
        if column < cars:  # the coupling to the next car
            ax.plot([x + WIDTH, x + WIDTH + GAP], [0.3, 0.3], color="#333333", lw=3)
        centre = x + WIDTH / 2
        ax.text(
            centre,
            -0.65,
            "locomotive" if column == 0 else f"wagon {column}",
            ha="center",
            va="center",
            fontsize=10,
            fontweight="bold",
        )
        # who is on the roof, and what lies there
        roof_names = who.get((column, True), [])
        ax.text(
            centre,
            2.05,
            _names(roof_names),
            ha="center",
            va="bottom",
            fontsize=10,
            fontweight="bold",
            color="#222222",
        )
        if loot.get((column, True)):
            ax.text(
                centre, 1.75, loot[(column, True)], ha="center", va="bottom", fontsize=9, color=LOOT
            )
        # who is inside (the Marshal first), and what lies there
        inside = who.get((column, False), [])
        if int(train["marshal"]) == column:
            ax.text(
                centre,
                1.3,
                "★ MARSHAL",
                ha="center",
                va="top",
                fontsize=10,
                fontweight="bold",
                color=MARSHAL,
            )
        ax.text(centre, 1.0, _names(inside), ha="center", va="top", fontsize=10, color="#222222")
        if loot.get((column, False)):
            ax.text(
                centre,
                0.12,
                loot[(column, False)],
                ha="center",
                va="bottom",
                fontsize=9,
                color=LOOT,
                fontweight="bold",
            )
    ax.text(
        0,
        -0.95,
        "b = bourse, j = bijou, c = coffre · au-dessus du wagon : le toit ; dedans : l'intérieur",
        ha="left",
        va="center",
        fontsize=8,
        color="#555555",
    )
    return True
