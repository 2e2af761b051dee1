"""What the platform needs to know of Rattlesnake City before playing it.

The game's id, players (2 to 6), its one option (``board``: another board
file, R-1), the MJ's step (``gm setup``: the first player, the hands, the
bag and the decks, drawn by the fortune or given) and the post kinds. Step
builders import the rules only when a step actually runs.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from gm.errors import InputError
from gm.games.manifest import Coordinate, GameInfo, OptionSpec, ParamSpec, PostKind, StepSpec

if TYPE_CHECKING:
    from gm.core.protocol import Command, Table


def _items(values: Any) -> list[str]:
    return [values] if isinstance(values, str) else [str(v) for v in values or ()]


def _bad(what: str, value: str, valid: str) -> InputError:
    return InputError(
        f"--{what}: cannot read {value!r} ({valid})",
        code="rattlesnake/bad-step-value",
        params={"what": what, "value": value},
    )


def _cards(text: str, what: str) -> tuple[str, ...]:
    """Action cards written as players write them (« 5, 12, Coyote ») → their keys."""
    from .cards import find_cards
    from .model import card_key

    keys = []
    for word in text.split(","):
        if not word.strip():
            continue
        found = find_cards(word)
        if len(found) != 1:
            raise _bad(what, word.strip(), "action cards: 1 to 25, or a card's name")
        keys.append(card_key(found[0]))
    return tuple(keys)


def _shots(text: str, what: str) -> tuple[int, ...]:
    words = text.replace(",", " ").split()
    if not all(w in ("1", "2", "3") for w in words):
        raise _bad(what, text, "shot cards by their cartridges: 1, 2 or 3")
    return tuple(int(w) for w in words)


def _build_setup(values: Mapping[str, Any], table: Table) -> Command:
    from .commands import SetUp
    from .tiles import find_tile

    hands = None
    if values.get("hand"):
        hands = []
        for item in _items(values.get("hand")):
            name, sep, cards = item.partition("=")
            if not sep or not name.strip():
                raise _bad("hand", item, "PLAYER=CARD, CARD, …")
            hands.append((table.seat_of(name.strip()), _cards(cards, "hand")))
    bag = []
    for word in str(values.get("bag") or "").split(","):
        if word.strip():
            tile = find_tile(word)
            if tile is None or tile.value == "saloon":
                raise _bad("bag", word.strip(), "tiles: shérif, banque, store, gare, droite…")
            bag.append(tile)
    reshuffles = []
    for item in _items(values.get("reshuffle")):
        deck, sep, cards = item.partition("=")
        deck = deck.strip()
        if not sep or deck not in ("actions", "shots"):
            raise _bad("reshuffle", item, "actions=CARD, … or shots=1 2 3 …")
        order = (
            _cards(cards, "reshuffle")
            if deck == "actions"
            else tuple(str(s) for s in _shots(cards, "reshuffle"))
        )
        reshuffles.append((deck, order))
    first = values.get("first")
    return SetUp(
        first=table.seat_of(str(first)) if first else None,
        hands=tuple(hands) if hands is not None else None,
        bag=tuple(bag),
        actions=_cards(str(values.get("actions") or ""), "actions"),
        shots=_shots(str(values.get("shots") or ""), "shots"),
        reshuffles=tuple(reshuffles),
    )


STEPS: tuple[StepSpec, ...] = (
    StepSpec(
        name="setup",
        help=(
            "Deal: the fortune draws the first player (who places the first saloon),"
            " shuffles the bag and the decks and deals five action cards to each player;"
            " a game played by hand gives them (--first, --hand, and the tops of --bag,"
            " --actions, --shots). Then each player places their saloon.\n\n"
            "Example: gm setup --deadline +48h"
        ),
        params=(
            ParamSpec("first", "A game played by hand: the first player.", metavar="PLAYER"),
            ParamSpec(
                "hand", "PLAYER=CARD, CARD, … (repeatable).", multiple=True, metavar="P=CARDS"
            ),
            ParamSpec("bag", "The top of the bag: banque, mine, gare, …", metavar="TILES"),
            ParamSpec("actions", "The top of the action deck, after the deal.", metavar="CARDS"),
            ParamSpec("shots", "The top of the shot deck: 1 2 3 1 …", metavar="SHOTS"),
            ParamSpec(
                "reshuffle",
                "The order of a deck made again from its discard pile: actions=… or"
                " shots=… (repeatable, in order).",
                multiple=True,
                metavar="DECK=CARDS",
            ),
        ),
        build=_build_setup,
        deadline=True,
    ),
)

INFO = GameInfo(
    id="rattlesnake",
    title="Rattlesnake City",
    min_players=2,
    max_players=6,
    options=(
        OptionSpec(
            "board",
            "Another board file with the structure of the default valley (R-1).",
            "",
            file=True,
        ),
    ),
    steps=STEPS,
    order_params=(),
    post_kinds=(
        PostKind("opening"),
        PostKind("rules"),
        PostKind("setup", deals=True, label="la donne"),
        PostKind("saloon", ("seat",), label="saloon"),
        PostKind("turn", ("turn",), label="tuile tirée"),
        PostKind("move", ("turn", "move"), label="coup", gathered="hand"),
        PostKind("final"),
    ),
    order_examples=(
        "fab: A2",
        "marco: coups",
        "marco: Whisky frelaté devant lulu",
        "fab: vend Punaises à marco pour 2000",
        "marco: attaque lulu 3",
        "marco: fin",
    ),
    coordinates=(
        Coordinate("turn", "tour"),
        Coordinate("move", "coup"),
        Coordinate("seat", "n°"),
    ),
)
"""Rattlesnake City: the valley, its towns and its saloons."""
