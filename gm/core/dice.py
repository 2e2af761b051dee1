"""Dice of fortune: a small exact parser for dice expressions, and the roll.

Notation (case is ignored, spaces are allowed around ``+`` and ``-``):

* ``NdS``: N dice of S sides (``d6`` is ``1d6``; ``d%`` is ``d100``);
* ``NdSkhK`` / ``NdSklK``: keep the K highest / lowest of the N dice
  (``4d6kh3``; ``2d20kh`` is ``2d20kh1``); among equal dice, the earlier is kept;
* a whole number (``3``);
* terms joined by ``+`` or ``-`` (``2d6+1``, ``d20+d4-1``, ``3d6 + 2``); the
  first term has no sign.

Limits: at most ``MAX_DICE_PER_TERM`` dice per term and ``MAX_DICE`` in all,
``MIN_SIDES`` to ``MAX_SIDES`` sides, constants up to ``MAX_CONSTANT``,
``MAX_TERMS`` terms and ``MAX_LENGTH`` characters. A bad expression raises
``InputError`` with code ``dice/syntax`` (cannot be read) or ``dice/limit``
(read, but outside the limits), quoting the expression and the bad part.

How a roll draws (the README shows how to re-derive one): the dice are
rolled in expression order, terms left to right and within a term one die
after the other; each die is ``draws.below(sides) + 1``, one value of the
stream ``roll/<n>`` (the campaign's n-th roll, see ``gm.core.fortune``). Constants draw nothing; kept and dropped dice are all
drawn. The event records every die, so the log never draws again:
``from_event`` rebuilds the roll, kept dice included, from the event alone.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from gm.core.campaign import DiceRolled
from gm.core.protocol import Chance
from gm.errors import InputError

MAX_LENGTH = 100
MAX_TERMS = 10
MAX_DICE_PER_TERM = 100
MAX_DICE = 200
MIN_SIDES = 2
MAX_SIDES = 1000
MAX_CONSTANT = 10_000

SYNTAX = "dice/syntax"
LIMIT = "dice/limit"

_TOKEN = re.compile(r"[+-]|[^\s+-]+")
_NUMBER = re.compile(r"[0-9]+")
_DIE = re.compile(r"([0-9]*)d([0-9]+|%)(?:k([hl])([0-9]*))?")
_DIE_PART = re.compile(r"([0-9]*)d([0-9]+|%)")


@dataclass(frozen=True)
class Dice:
    """``count`` dice of ``sides`` sides, keeping ``keep_count`` of the highest
    (``keep="h"``) or lowest (``keep="l"``), or all of them (``keep=None``)."""

    count: int
    sides: int
    keep: Literal["h", "l"] | None = None
    keep_count: int = 0
    sign: int = 1

    def __str__(self) -> str:
        count = str(self.count) if self.count > 1 else ""
        keep = f"k{self.keep}{self.keep_count}" if self.keep else ""
        return f"{count}d{self.sides}{keep}"


@dataclass(frozen=True)
class Constant:
    """A whole number added (``sign=1``) or subtracted (``sign=-1``)."""

    value: int
    sign: int = 1

    def __str__(self) -> str:
        return str(self.value)


Term = Dice | Constant


@dataclass(frozen=True)
class Expression:
    """A parsed dice expression; ``str()`` is its canonical form (``2d6+1``)."""

    terms: tuple[Term, ...]

    def __str__(self) -> str:
        out = []
        for i, term in enumerate(self.terms):
            if term.sign < 0:
                out.append("-")
            elif i:
                out.append("+")
            out.append(str(term))
        return "".join(out)

    @property
    def dice_count(self) -> int:
        """How many dice the expression rolls (dropped ones included)."""
        return sum(t.count for t in self.terms if isinstance(t, Dice))


@dataclass(frozen=True)
class TermRoll:
    """One term as rolled: every die in the order drawn, whether each is kept,
    and the term's signed contribution to the total."""

    term: Term
    dice: tuple[int, ...]
    kept: tuple[bool, ...]
    value: int


@dataclass(frozen=True)
class Roll:
    """A rolled expression: each term's dice and the total."""

    expression: Expression
    terms: tuple[TermRoll, ...]
    total: int

    @property
    def dice(self) -> tuple[tuple[int, ...], ...]:
        """Every die, per term (empty for a constant): what ``DiceRolled`` records."""
        return tuple(t.dice for t in self.terms)

    @property
    def kept(self) -> tuple[tuple[int, ...], ...]:
        """The kept dice, per term, in the order drawn."""
        return tuple(tuple(d for d, k in zip(t.dice, t.kept, strict=True) if k) for t in self.terms)


def _syntax(message: str) -> InputError:
    return InputError(message, code=SYNTAX)


def _limit(message: str) -> InputError:
    return InputError(message, code=LIMIT)


def parse(text: str) -> Expression:
    """Parse a dice expression.

    :raises InputError: ``dice/syntax`` or ``dice/limit``, naming the bad part.
    """
    if len(text) > MAX_LENGTH:
        raise _limit(
            f"the dice expression is {len(text)} characters long; the limit is {MAX_LENGTH}"
        )
    return _parse(text)


def _parse(text: str) -> Expression:
    tokens = _TOKEN.findall(text)
    if not tokens:
        raise _syntax("no dice expression: write one like 2d6+1, d20 or 4d6kh3")
    terms: list[Term] = []
    sign = 1
    previous: str | None = None
    for token in tokens:
        operator = token in ("+", "-")
        expecting_term = previous is None or previous in ("+", "-")
        if expecting_term and operator:
            if previous is None:
                raise _syntax(
                    f"{text!r} starts with {token!r}: start with dice or a number, like 2d6 or 3"
                )
            raise _syntax(
                f"cannot read {previous + token!r} in {text!r}:"
                " put one term between two signs, like 2d6+1"
            )
        if not expecting_term and not operator:
            raise _syntax(
                f"expected + or - between {previous!r} and {token!r} in {text!r},"
                " like 2d6+1 or d20-1"
            )
        if operator:
            sign = 1 if token == "+" else -1
        else:
            terms.append(_term(token, sign, text))
        previous = token
    if previous in ("+", "-"):
        raise _syntax(f"{text!r} ends with {previous!r}: add a term after it, like 2d6+1")
    if len(terms) > MAX_TERMS:
        raise _limit(f"{text!r} has {len(terms)} terms: at most {MAX_TERMS}")
    expression = Expression(tuple(terms))
    if expression.dice_count > MAX_DICE:
        raise _limit(f"{text!r} rolls {expression.dice_count} dice: at most {MAX_DICE} in all")
    return expression


def _term(token: str, sign: int, text: str) -> Term:
    low = token.lower()
    if _NUMBER.fullmatch(low):
        value = int(low)
        if value > MAX_CONSTANT:
            raise _limit(f"the number {token!r} in {text!r} is too big: at most {MAX_CONSTANT}")
        return Constant(value, sign)
    match = _DIE.fullmatch(low)
    if match is None:
        raise _syntax(_unreadable(token, low, text))
    count = int(match[1]) if match[1] else 1
    sides = 100 if match[2] == "%" else int(match[2])
    if not 1 <= count <= MAX_DICE_PER_TERM:
        raise _limit(
            f"cannot roll {token!r} in {text!r}: a term rolls 1 to {MAX_DICE_PER_TERM} dice"
        )
    if not MIN_SIDES <= sides <= MAX_SIDES:
        raise _limit(
            f"cannot roll {token!r} in {text!r}: dice have {MIN_SIDES} to {MAX_SIDES} sides"
        )
    if match[3] is None:
        return Dice(count, sides, sign=sign)
    keep: Literal["h", "l"] = "h" if match[3] == "h" else "l"
    keep_count = int(match[4]) if match[4] else 1
    if not 1 <= keep_count <= count:
        raise _limit(
            f"cannot keep {keep_count} of the {count} dice of {token!r} in {text!r}:"
            f" keep 1 to {count}"
        )
    return Dice(count, sides, keep, keep_count, sign)


def _unreadable(token: str, low: str, text: str) -> str:
    where = f"cannot read {token!r} in {text!r}"
    if "k" in low and _DIE_PART.fullmatch(low.partition("k")[0]):
        return f"{where}: keep the highest or lowest dice with khK or klK, like 4d6kh3"
    if "d" in low:
        return f"{where}: a die is NdS, like 2d6, d20 or d%"
    return f"{where}: a term is dice like 2d6 or a whole number like 3, joined by + or -"


def evaluate(expression: Expression, dice: Sequence[Sequence[int]]) -> Roll:
    """The roll of ``expression`` given every die drawn, per term.

    :raises ValueError: the dice do not fit the expression (a damaged log).
    """
    if len(dice) != len(expression.terms):
        raise ValueError(f"{len(dice)} groups of dice for {len(expression.terms)} terms")
    rolled = []
    for term, values in zip(expression.terms, dice, strict=True):
        group = tuple(values)
        if isinstance(term, Constant):
            if group:
                raise ValueError(f"the constant {term} has dice {list(group)}")
            rolled.append(TermRoll(term, (), (), term.sign * term.value))
            continue
        if len(group) != term.count or not all(1 <= v <= term.sides for v in group):
            raise ValueError(f"dice {list(group)} do not fit {term}")
        kept = [True] * len(group)
        if term.keep is not None:
            # sorted() is stable, reverse=True too: among equal dice the earlier is kept.
            order = sorted(range(len(group)), key=lambda i: group[i], reverse=term.keep == "h")
            kept = [False] * len(group)
            for i in order[: term.keep_count]:
                kept[i] = True
        value = sum(v for v, k in zip(group, kept, strict=True) if k)
        rolled.append(TermRoll(term, group, tuple(kept), term.sign * value))
    return Roll(expression, tuple(rolled), sum(t.value for t in rolled))


def roll(expression: Expression | str, draws: Chance) -> Roll:
    """Roll ``expression``: each die is ``draws.below(sides) + 1``, in expression order."""
    if isinstance(expression, str):
        expression = parse(expression)
    dice = [
        tuple(draws.below(t.sides) + 1 for _ in range(t.count)) if isinstance(t, Dice) else ()
        for t in expression.terms
    ]
    return evaluate(expression, dice)


def rolled(result: Roll, reason: str) -> DiceRolled:
    """The event that records ``result``."""
    return DiceRolled(str(result.expression), reason, result.dice, result.total)


def from_event(event: DiceRolled) -> Roll:
    """The roll an event recorded, rebuilt without drawing.

    :raises ValueError: the event does not hold together (a damaged log).
    """
    try:
        expression = _parse(event.expression)
    except InputError as err:
        raise ValueError(f"recorded dice expression: {err}") from err
    result = evaluate(expression, event.dice)
    if result.total != event.total:
        raise ValueError(f"recorded total {event.total} for dice totalling {result.total}")
    return result
