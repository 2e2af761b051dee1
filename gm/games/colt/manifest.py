"""What the platform needs to know of Colt Express before playing it.

The game's id, players (3 to 6, R-2), the MJ's steps (``gm setup``: the
train, the characters and the purses, given or drawn by the fortune; ``gm
round``: the next round's card and decks) and the post kinds. Step builders
import the commands only when a step actually runs.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from gm.errors import InputError
from gm.games.manifest import Coordinate, GameInfo, ParamSpec, PostKind, StepSpec

if TYPE_CHECKING:
    from gm.core.protocol import Command, Table


def _pairs(values: Any, what: str) -> list[tuple[str, str]]:
    """``("ana=Belle", "bob=Django")`` (or one comma-separated string) as pairs."""
    items = [values] if isinstance(values, str) else list(values or ())
    out = []
    for item in items:
        for part in str(item).split(",") if what == "character" else [str(item)]:
            name, sep, value = part.partition("=")
            if not sep or not name.strip() or not value.strip():
                raise InputError(
                    f"--{what} takes PLAYER=VALUE (e.g. ana=Belle), got {part!r}",
                    code="colt/bad-step-value",
                    params={"what": what, "value": part},
                )
            out.append((name.strip(), value.strip()))
    return out


def _numbers(text: str, what: str) -> tuple[int, ...]:
    words = text.replace(",", " ").split()
    if not all(w.isdigit() for w in words):
        raise InputError(
            f"--{what} takes numbers, got {text!r}",
            code="colt/bad-step-value",
            params={"what": what, "value": text},
        )
    return tuple(int(w) for w in words)


def _build_setup(values: Mapping[str, Any], table: Table) -> Command:
    from .commands import SetUp

    cars = values.get("cars")
    purses = values.get("purses")
    return SetUp(
        characters=tuple(
            (table.seat_of(name), character)
            for name, character in _pairs(values.get("character"), "character")
        ),
        cars=_numbers(str(cars), "cars") if cars else None,
        purses=(
            tuple(_numbers(car, "purses") for car in str(purses).split("/")) if purses else None
        ),
    )


def _build_round(values: Mapping[str, Any], table: Table) -> Command:
    from .commands import OpenRound
    from .notation import card_of

    decks = values.get("deck")
    built = None
    if decks:
        built = []
        for name, text in _pairs(decks, "deck"):
            cards = []
            for word in text.split(","):
                card = card_of(word)
                if card is None:
                    raise InputError(
                        f"not a card of a bandit's deck: {word.strip()!r} (Déplacement,"
                        " Changement d'étage, Marshal, Tir, Braquage, Coup de poing, Balle)",
                        code="colt/bad-step-value",
                        params={"what": "deck", "value": word.strip()},
                    )
                cards.append(card)
            built.append((table.seat_of(name), tuple(cards)))
    card = values.get("card")
    return OpenRound(card=str(card) if card else None, decks=tuple(built) if built else None)


STEPS: tuple[StepSpec, ...] = (
    StepSpec(
        name="setup",
        help=(
            "Place the train: each player's character (--character ana=Belle, or dealt by"
            " the fortune), the cars from the locomotive back (--cars 4,1,3, or drawn, R-3)"
            " and, for a game played by hand only, each car's purses (--purses"
            " '250 300 450/250 350 500/300'). Posts the train.\n\n"
            "Example: gm setup --character ana=Belle --character bob=Django"
        ),
        params=(
            ParamSpec("character", "PLAYER=CHARACTER (repeatable).", multiple=True, metavar="P=C"),
            ParamSpec("cars", "The printed cars, locomotive first: 4,1,3.", metavar="CARS"),
            ParamSpec(
                "purses",
                "Each car's purses, cars separated by '/': a game played by hand.",
                metavar="VALUES",
            ),
        ),
        build=_build_setup,
    ),
    StepSpec(
        name="round",
        help=(
            "Open the next round: the fortune draws its card and shuffles every deck, and"
            " the first player's Plan turn opens (a game played by hand gives --card and"
            " every --deck).\n\nExample: gm round --deadline +24h"
        ),
        params=(
            ParamSpec("card", "A game played by hand: the round card.", metavar="CARD"),
            ParamSpec(
                "deck",
                "A game played by hand: PLAYER=CARD, CARD, … top first (repeatable).",
                multiple=True,
                metavar="P=CARDS",
            ),
        ),
        build=_build_round,
        deadline=True,
    ),
)

INFO = GameInfo(
    id="colt",
    title="Colt Express",
    min_players=3,
    max_players=6,
    options=(),
    steps=STEPS,
    order_params=(),
    post_kinds=(
        PostKind("opening"),
        PostKind("rules"),
        PostKind("train", label="le train"),
        PostKind("round", ("round",), deals=True, label="début de manche"),
        PostKind("plan", ("round", "turn"), label="plan", gathered="next"),
        PostKind("action", ("round", "step"), label="action"),
        PostKind("event", ("round",), label="fin de manche"),
        PostKind("final"),
    ),
    order_examples=(
        "ana: je joue Déplacement",
        "bob: je pioche",
        "cleo: Braquage face cachée",
        "cleo: le bijou",
    ),
    coordinates=(
        Coordinate("round", "manche"),
        Coordinate("turn", "tour"),
        Coordinate("step", "action"),
    ),
)
"""Colt Express: bandits rob a train, programming their actions card by card."""
