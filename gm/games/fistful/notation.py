"""Private messages to commands: what a player's free text asks for, in this phase.

``words.scan`` finds the cards and what each run of them is for; here the
cards no verb marks are read as what the player is expected to send now:

* during the setup, the two discards (« 1 et 2 », « 1 2 », « je défausse la
  dynamite et le 8 ») ;
* during a duel, the card played (« je joue le 5 », « 5 », « la dynamite »),
  with, after a green 8, the pick in the same message or alone (« je
  reprends le 3 et je joue le 5 »: two commands, the pick first ; « je
  reprends le 3 ») ;
* at the end of a manche, the discards when the player may choose them (a
  red-7 end: « 4 », « je défausse 4 et 5 »), else the final-duel card (R-5:
  « je révèle le 5 »), else the pick (« je reprends le 3 »); at that moment
  « je joue le 5 » means the final-duel card too.

Refused here, before the rules: nothing recognisable (``fistful/no-card``),
a number that is no card (``fistful/not-a-card``), the wrong number of cards
for one card (``fistful/card-count``), a purpose that does not fit the phase
(``fistful/not-now``). The rules refuse the rest (not in hand, forbidden…).
``format_*`` write the canonical texts ``legal_inputs`` sends, which
``parse`` reads back.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from gm.core import rules as core_rules
from gm.core.protocol import Command, Table
from gm.errors import InputError, OrderSyntaxError, PhaseError

from .cards import Card, labels
from .commands import ChooseEnd, DiscardAtSetup, PickCard, PlayCard
from .model import Phase, State
from .phases import find_player, open_choices, phase_key
from .words import Part, Reading, scan

EXAMPLES = {
    Phase.SETUP: "« 1 et 2 » (your two setup discards)",
    Phase.DUEL: "« je joue le 5 » or « dynamite »",
    Phase.END: "« je défausse le 4 » or « je révèle le 5 »",
}

_PURPOSE = {
    Part.PLAY: "a card to play",
    Part.PICK: "a green-8 pick",
    Part.DISCARD: "a discard",
    Part.FINAL: "a final-duel card",
}

_OPEN_PART = {"discard": Part.DISCARD, "final": Part.FINAL, "pick": Part.PICK}


def default_part(state: State, player: str) -> Part:
    """What unmarked cards stand for, for ``player``, in the current phase."""
    if state.phase is Phase.SETUP:
        return Part.DISCARD
    if state.phase is Phase.DUEL:
        return Part.PLAY
    open_ = open_choices(state, player)
    return _OPEN_PART[open_[0]] if open_ else Part.DISCARD


def parse(state: State, actor: str, text: str, table: Table | None = None) -> tuple[Command, ...]:
    """The commands a player's pasted message stands for, in the current phase:
    one, or a green-8 pick and then what else the message sends. A message
    names cards only, never a player: ``table`` is not needed.

    >>> from gm.games.fistful.rules import initial_state
    >>> state = initial_state(["ana", "bob"], {})
    >>> parse(state, "ana", "1 et 2")
    (DiscardAtSetup(player='ana', cards=(<Card.ONE: '1'>, <Card.TWO: '2'>)),)
    >>> parse(state, "bob", "je défausse la Dynamite et le 8")[0].cards
    (<Card.DYNAMITE: 'dynamite'>, <Card.EIGHT: '8'>)
    """
    name = find_player(state, actor)
    if state.phase is Phase.OVER:
        raise core_rules.nothing_more_to_send(name, text)
    reading = scan(text)
    if reading.not_cards:
        word = reading.not_cards[0]
        raise OrderSyntaxError(
            f"{word!r} is not a card in {text!r}: the cards are 1 to 8 and the Dynamite",
            code="fistful/not-a-card",
            params={"player": name, "text": text, "word": word},
        )
    parts = _resolve_parts(state, name, reading)
    if not parts:
        raise OrderSyntaxError(
            f"no card in {text!r}: write the card, e.g. {EXAMPLES[state.phase]}",
            code="fistful/no-card",
            params={"player": name, "text": text, "phase": str(state.phase)},
        )
    return _commands(state, name, parts, text)


def _resolve_parts(state: State, name: str, reading: Reading) -> dict[Part, tuple[Card, ...]]:
    """Merge unmarked and loosely marked cards into what they mean now."""
    default = default_part(state, name)
    picking = "pick" in open_choices(state, name) or _picked_now(state, name)
    out: dict[Part, list[Card]] = {}
    for part, cards in reading.parts.items():
        if part is Part.UNMARKED:
            part = default
        elif part is Part.TAKE:
            part = Part.PICK if picking else default
        elif part is Part.PLAY and state.phase is Phase.END:
            part = Part.FINAL  # at the end of a manche, the only card played is the final one
        out.setdefault(part, []).extend(cards)
    return {part: tuple(cards) for part, cards in out.items()}


def _picked_now(state: State, name: str) -> bool:
    """Whether ``name`` made a green-8 pick in this turn (a re-sent message repeats it)."""
    if not state.history:
        return False
    return any(k.player == name and k.turn == state.turn for k in state.current.picks)


def _not_now(state: State, name: str, part: Part, text: str) -> PhaseError:
    return PhaseError(
        f"{_PURPOSE[part]} is not expected now ({phase_key(state)}) in {text!r}:"
        f" write e.g. {EXAMPLES[state.phase]}",
        code="fistful/not-now",
        params={
            "player": name,
            "text": text,
            "what": str(part),
            "phase": str(state.phase),
            "phase_key": phase_key(state),
            "manche": state.manche,
            "duel": state.duel,
        },
    )


def _one(name: str, cards: tuple[Card, ...], what: str, text: str) -> Card:
    if len(cards) != 1:
        raise OrderSyntaxError(
            f"{what} is one card, got {len(cards)} in {text!r} ({labels(cards)})",
            code="fistful/card-count",
            params={
                "player": name,
                "text": text,
                "what": what,
                "expected": 1,
                "got": len(cards),
                "cards": [str(c) for c in cards],
            },
        )
    return cards[0]


def _commands(
    state: State, name: str, parts: dict[Part, tuple[Card, ...]], text: str
) -> tuple[Command, ...]:
    allowed = {
        Phase.SETUP: {Part.DISCARD},
        Phase.DUEL: {Part.PLAY, Part.PICK},
        Phase.END: {Part.DISCARD, Part.FINAL, Part.PICK},
    }[state.phase]
    for part in parts:
        if part not in allowed:
            raise _not_now(state, name, part, text)
    if state.phase is Phase.SETUP:
        return (DiscardAtSetup(name, parts[Part.DISCARD]),)
    pick: tuple[Command, ...] = ()
    if Part.PICK in parts:
        pick = (PickCard(name, _one(name, parts[Part.PICK], "the green-8 pick", text)),)
    if state.phase is Phase.DUEL:
        if Part.PLAY not in parts:
            return pick
        return (*pick, PlayCard(name, _one(name, parts[Part.PLAY], "the duel card", text)))
    final = (
        _one(name, parts[Part.FINAL], "the final-duel card", text) if Part.FINAL in parts else None
    )
    if Part.DISCARD not in parts and final is None:
        return pick
    return (*pick, ChooseEnd(name, parts.get(Part.DISCARD), final))


# --- explicit fields (gm order ana --card 5) -------------------------------------

FIELDS = ("card", "pick", "discard", "final")


def _field_cards(key: str, value: Any) -> tuple[Card, ...]:
    reading = scan(str(value))
    cards = tuple(c for cs in reading.parts.values() for c in cs)
    if reading.not_cards or not cards:
        raise InputError(
            f"--{key} {value!r} is not a card: write 1 to 8 or dynamite"
            + (" (several separated by spaces for --discard)" if key == "discard" else ""),
            code="fistful/bad-card",
            params={"field": key, "value": str(value)},
        )
    if key != "discard" and len(cards) != 1:
        raise InputError(
            f"--{key} takes one card, got {len(cards)} in {value!r}",
            code="fistful/bad-card",
            params={"field": key, "value": str(value)},
        )
    return cards


def from_params(
    state: State, actor: str, values: Mapping[str, Any], table: Table | None = None
) -> tuple[Command, ...]:
    """A player's commands from explicit fields: ``--card``, ``--pick``, ``--discard``,
    ``--final`` (a pick first, as in a message)."""
    name = find_player(state, actor)
    given = {k: v for k, v in values.items() if v not in (None, "")}
    unknown = sorted(set(given) - set(FIELDS))
    if unknown:
        raise InputError(
            f"fistful orders take no --{unknown[0]} (fields: --card, --pick, --discard, --final)",
            code="fistful/bad-field",
            params={"field": unknown[0]},
        )
    if not given:
        raise InputError(
            "no field given: --card, --pick, --discard or --final", code="fistful/bad-field"
        )
    parts = {
        {"card": Part.PLAY, "pick": Part.PICK, "discard": Part.DISCARD, "final": Part.FINAL}[
            key
        ]: _field_cards(key, value)
        for key, value in given.items()
    }
    if state.phase is Phase.END and Part.PLAY in parts:
        parts[Part.FINAL] = parts.pop(Part.PLAY)
    if state.phase is Phase.OVER:
        raise core_rules.nothing_more_to_send(name)
    shown = " ".join(f"--{k} {v}" for k, v in given.items())
    return _commands(state, name, parts, shown)


# --- canonical texts -----------------------------------------------------------


def format_card(card: Card) -> str:
    """« 5 », « dynamite »: a card as ``parse`` reads it alone."""
    return str(card)


def format_cards(cards: Iterable[Card]) -> str:
    """« 1 2 », « 8 dynamite »."""
    return " ".join(format_card(c) for c in cards)


def format_pick(card: Card) -> str:
    """« je reprends le 3 »."""
    return f"je reprends {_article(card)}"


def format_discard(cards: Iterable[Card]) -> str:
    """« je défausse 4 5 »."""
    return f"je défausse {format_cards(cards)}"


def format_final(card: Card) -> str:
    """« je révèle le 5 »."""
    return f"je révèle {_article(card)}"


def _article(card: Card) -> str:
    return "la dynamite" if card is Card.DYNAMITE else f"le {card}"
