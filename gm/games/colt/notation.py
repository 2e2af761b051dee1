"""Colt Express in the players' own words: a message read into commands.

What a message means depends on what the game waits for:

* **the Plan**, from the player whose turn it is: a card played (« je joue
  Tir », « Braquage face cachée ») or a draw (« je pioche »); words of a
  choice written with the card (« Tir sur Belle ») are kept as its
  instructions (R-6);
* **the Action**, from the owner of the card resolving: the choice it needs
  (« vers la locomotive, 2 wagons », « sur Belle, le bijou, vers
  l'arrière », « la bourse de 300 », « rien »), possibly naming the card
  (« Tir : sur Tuco ») and possibly conditional (« si je peux tirer sur
  Belle, je tire sur Belle, sinon sur Django »: alternatives tried in
  order);
* from any other player, during the Plan or the Action: instructions for
  one of their cards still to resolve (« pour mon Tir : sur Belle, sinon sur
  Django »);
* **Pickpocket**: « la bourse » or « rien ».

Words are matched ignoring case, accents and punctuation; words the game
does not read are ignored, but two values of one element (« vers l'avant
… vers l'arrière ») are refused, and so is a message with nothing to read.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gm.core import rules as core_rules
from gm.core.names import mentions
from gm.core.protocol import Command, Table, table_for
from gm.errors import IllegalOrderError, InputError, OrderSyntaxError

from . import rules
from .cards import LABELS, PURSE, Card
from .commands import Choose, DrawCards, Pickpocket, PlayCard
from .model import Choice, Phase, State
from .words import (
    CARD_WORDS,
    DIRECTIONS,
    DRAW_WORDS,
    HIDDEN_WORDS,
    LEVELS,
    LOOTS,
    NUMBERS,
    tokens,
)


def card_of(text: str) -> Card | None:
    """The card a deck entry names (« Tir », « Changement d'étage », « poing »)."""
    found = {CARD_WORDS[t] for t in tokens(text) if t in CARD_WORDS}
    return found.pop() if len(found) == 1 else None


def _two(element: str, values: list[Any], text: str) -> OrderSyntaxError:
    shown = ", ".join(str(v) for v in values)
    return OrderSyntaxError(
        f"two values of one {element} in {text!r} ({shown}): write one",
        code="colt/two-values",
        params={"element": element, "values": [str(v) for v in values], "text": text},
    )


def _one(element: str, values: list[Any], text: str) -> Any:
    distinct = list(dict.fromkeys(values))
    if len(distinct) > 1:
        raise _two(element, distinct, text)
    return distinct[0] if distinct else None


NAMED = "@"
"""A bandit named in a message stands among its words as one word: ``@``
and their seat (``tokens`` never makes such a word)."""

_PHRASES = tuple(tuple(tokens(label)) for label in LABELS.values() if len(tokens(label)) > 1)
"""The cards named in several words (« Coup de poing », « Changement d'étage»):
no shorter name is read inside them."""


def _phrase_at(words: Sequence[str], i: int) -> int:
    return next((len(p) for p in _PHRASES if tuple(words[i : i + len(p)]) == p), 0)


def words_of(state: State, text: str, table: Table | None = None) -> list[str]:
    """The words of ``text`` (``tokens``), each bandit it names — by their
    player's current name or their character's, the platform's matcher —
    as one word ``@seat``: the words of a name (« Marshal Dillon », « Tête
    Brûlée ») are that name, never a card, a direction or a level."""
    words = tokens(text)
    table = table_for(table, state.players)
    labels = [*table.labels, *((b.character, b.name) for b in state.bandits)]
    out: list[str] = []
    start = 0
    for m in mentions(words, labels, tokens, own=_phrase_at):
        out += [*words[start : m.start], NAMED + m.seat]
        start = m.end
    return out + words[start:]


def _targets(words: list[str]) -> list[str]:
    """The bandits named in ``words`` (``words_of``), as seats."""
    return [w.removeprefix(NAMED) for w in words if w.startswith(NAMED)]


def read_choice(words: list[str], text: str, me: str | None = None) -> Choice:
    """The elements of one alternative of a choice, in ``words`` (``words_of``).
    A bandit never aims at themself: the author's own name (a signature) is
    no target."""
    words = _whole_numbers(words)
    directions = [DIRECTIONS[w] for w in words if w in DIRECTIONS]
    levels = [LEVELS[w] for w in words if w in LEVELS]
    loots = [LOOTS[w] for w in words if w in LOOTS]
    distances: list[int] = []
    values: list[int] = []
    for i, w in enumerate(words):
        after = words[i + 1] if i + 1 < len(words) else ""
        if after in ("wagon", "wagons") and (w in NUMBERS or w.isdigit()):
            # « 4 wagons », « 0 wagon »: kept as written, for the rules to refuse (no move
            # goes that far), never dropped to let the only legal distance be taken
            distances.append(NUMBERS.get(w) or int(w))
        if w in ("bourse", "bourses"):
            rest = words[i + 1 : i + 3]
            if rest[:1] == ["de"]:
                rest = rest[1:]
            if rest and rest[0].isdigit():
                values.append(int(rest[0]))
    return Choice(
        direction=_one("direction", directions, text),
        distance=_one("distance", distances, text),
        level=_one("level", levels, text),
        target=_one("target", [t for t in _targets(words) if t != me], text),
        loot=_one("loot", loots, text),
        value=_one("purse value", values, text),
        nothing="rien" in words,
    )


def _whole_numbers(words: list[str]) -> list[str]:
    """The words with a number grouped by thousands (« 250 000 », « 1.000 ») as
    one word, as players write it: its first group is not another number."""
    out: list[str] = []
    grouped = False  # the last word is a number that may take another group
    for w in words:
        if grouped and len(w) == 3 and w.isdigit():
            out[-1] += w
        else:
            grouped = w.isdigit() and len(w) <= 3
            out.append(w)
    return out


def read_choose(
    player: str, words: list[str], text: str, card: Card | None, latest: bool
) -> Choose:
    """A choice, or conditional instructions (alternatives split at « sinon »),
    in ``words`` (``words_of``)."""
    words = [w for w in words if w not in CARD_WORDS]
    conditional = "si" in words or "sinon" in words
    parts: list[list[str]] = [[]]
    for w in words:
        if w == "sinon":
            parts.append([])
        else:
            parts[-1].append(w)
    alternatives = tuple(read_choice(part, text, player) for part in parts)
    if conditional:
        alternatives = tuple(a for a in alternatives if not a.empty) or alternatives[:1]
    return Choose(player, alternatives, card, conditional, latest)


def _card_named(words: list[str], text: str) -> Card | None:
    found = [CARD_WORDS[t] for t in words if t in CARD_WORDS]
    card: Card | None = _one("card", found, text)
    return card


def parse(state: State, actor: str, text: str, table: Table | None = None) -> tuple[Command, ...]:
    """The commands ``actor``'s message carries (see the module docstring);
    bandits are named by their players' names at ``table`` or their characters."""
    table = table_for(table, state.players)
    player = rules.find_player(state, actor)
    if state.phase is Phase.OVER:
        # as every game says it: the same refusal as a command after the end
        raise core_rules.nothing_more_to_send(player, text)
    words = words_of(state, text, table)
    if state.phase is Phase.PLAN and state.turn is not None and state.turn.player == player:
        return _plan(state, player, text, words)
    if state.phase is Phase.EVENT:
        return (_pickpocket(player, text, words),)
    playing = {"joue", "jouer"} & set(words) or any(
        w in DRAW_WORDS or w in HIDDEN_WORDS for w in words
    )
    if state.phase is Phase.PLAN and state.turn is not None and (state.scripted or playing):
        raise IllegalOrderError(
            f"it is {state.turn.player}'s turn of the Plan, not {player}'s",
            code="colt/not-your-turn",
            params={"player": player, "turn": state.turn.player, "number": state.turn.number},
        )
    if state.phase in (Phase.PLAN, Phase.ACTION):
        card = _card_named(words, text)
        return (read_choose(player, words, text, card, latest=False),)
    raise rules.not_now(state, "a player's message")


def _plan(state: State, player: str, text: str, words: list[str]) -> tuple[Command, ...]:
    draws = any(w in DRAW_WORDS for w in words)
    card = _card_named(words, text)
    hidden = any(w in HIDDEN_WORDS for w in words)
    if draws and card is not None:
        raise OrderSyntaxError(
            f"play a card or draw, not both ({text!r})",
            code="colt/play-or-draw",
            params={"text": text},
        )
    if draws:
        if hidden:
            raise OrderSyntaxError(
                "a draw is not played face down: « face cachée » goes with a card",
                code="colt/hidden-draw",
                params={"text": text},
            )
        return (DrawCards(player),)
    if card is None:
        hand = [c.label for c in state.bandit(player).hand if c is not Card.BULLET]
        raise OrderSyntaxError(
            f"no card and no draw in {text!r}: write a card of the hand"
            f" ({', '.join(dict.fromkeys(hand)) or 'none'}) or « je pioche »",
            code="colt/no-play",
            params={"text": text, "hand": list(dict.fromkeys(hand))},
        )
    commands: list[Command] = [PlayCard(player, card, hidden)]
    rest = [w for w in words if w not in CARD_WORDS and w not in HIDDEN_WORDS]
    choose = read_choose(player, rest, text, card, latest=True)
    if any(not a.empty for a in choose.alternatives):
        commands.append(choose)
    return tuple(commands)


def _pickpocket(player: str, text: str, words: list[str]) -> Pickpocket:
    choice = read_choice(words, text, player)
    if choice.loot == PURSE and not choice.nothing:
        return Pickpocket(player, True, choice.value)
    if choice.nothing and choice.loot is None:
        return Pickpocket(player, False)
    raise OrderSyntaxError(
        f"at Pickpocket, write « la bourse » or « rien » (got {text!r})",
        code="colt/pickpocket-words",
        params={"text": text},
    )


def from_params(
    state: State, actor: str, values: Mapping[str, Any], table: Table | None = None
) -> tuple[Command, ...]:
    """Colt Express reads its orders as free text only."""
    raise InputError(
        'Colt Express reads the player\'s message as text: gm order PLAYER "je joue Tir"',
        code="colt/text-only",
        params={},
    )
