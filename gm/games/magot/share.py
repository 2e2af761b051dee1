"""R-6: sharing the pot in equal parts of whole bills, exactly.

The MJ hands out the largest total that splits into one equal part of whole
bills per sharer; among the splits that hand out that total, the bills that
stay are the fewest, and among those the largest. Greedy dealing is wrong
(5 000 + 4 000 + 3 000 + 3 000 + 3 000 + 2 000 splits into two parts of
10 000, which first-fit decreasing misses), so the solver is exact, for any
bill values.

The pot is handled as a multiset of denominations (a count per value, in
units of their gcd); a part is a count vector. For each part value ``S``, from
the largest possible down (a value whose leftover no sub-multiset can make is
skipped, from a subset-sum bitset, and so is one that some bound proves
unshareable: bills too big to fit, too little change, or the relaxation below):

0. *relaxation*: with ``x_p >= 0`` parts of each count vector ``p`` worth
   ``S`` (only the extreme ones in the two smallest denominations: the others
   are their convex combinations), can ``sum(x) = k`` and
   ``sum(x_p * p) <= counts`` hold in fractions? A small simplex (floats)
   answers; when it says no, its duals are weights per denomination such that
   every part weighs more than a ``k``-th of the pot, and that inequality is
   checked in exact integers before ``S`` is skipped. So it never skips a
   shareable ``S`` (a rounding error only loses a shortcut), never changes
   the split found, and proves most unshareable ``S`` in a fraction of a
   millisecond where steps 1 and 2 would take ten (near-equal or coprime
   bill values: 19 000 / 21 000 / 23 000 / 25 000);
1. *search*: leftovers worth ``total - k·S`` are enumerated in R-6's order
   (fewest bills, then largest bills) and the first whose complement
   partitions exactly into ``k`` parts wins. The partition is a depth-first
   search whose next part always holds one bill of the largest value left
   (some part must, so no solution is lost and permuted parts are never
   tried), parts greedy from the largest bills, failed remainders memoised,
   and a residue bound (what the larger bills cannot make, smaller bills
   must) cutting most dead ends. This finds the answer in a few
   milliseconds when there is one, but proving that none exists can take
   exponentially long;
2. so, with at most ``PROGRAMME_MAX_DENOMINATIONS`` distinct values, the
   search has a budget of nodes (deterministic, not a clock), and past it
   an exact dynamic programme decides ``S``: parts are added one at
   a time, the state being the counts used so far. The two smallest
   denominations are solved in closed form per part (the counts of the
   second smallest that complete a part form an arithmetic progression), so
   the state keeps the other counts as dictionary keys and rows of a bitset
   whose columns count the second smallest; states that can no longer reach
   the final leftover are pruned by layer. It returns the best handed
   vector by the same order, and the parts by walking the layers back.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction

Vector = tuple[int, ...]

SEARCH_BUDGET = 150
"""Search nodes spent on one part value before the exact programme takes over."""

RELAXATION_MAX_PARTS = 400
"""Above this many count vectors worth one part value, the linear relaxation
is skipped (it only prunes part values; the search and programme decide)."""

PROGRAMME_MAX_DENOMINATIONS = 4
"""Above this many distinct bill values, the programme's state space (one
dimension per value but two) grows faster than the search's: the search then
runs without a budget. Measured: pots of up to 45 bills of up to 8 values stay
near 0.1 s; only many bills (200) of many values (6+) get slow, a pot the game
never builds."""


@dataclass(frozen=True)
class Split:
    """The share of a pot: one part per sharer (equal values) and the carry."""

    parts: tuple[tuple[int, ...], ...]
    carry: tuple[int, ...]

    @property
    def each(self) -> int:
        """The value each sharer receives (0 without sharers)."""
        return sum(self.parts[0]) if self.parts else 0


def split_pot(pot: Sequence[int], sharers: int) -> Split:
    """Share ``pot`` among ``sharers`` players by R-6.

    Parts are returned largest bills first, to be handed out in seating
    order; bills within a part and the carry are sorted largest first.

    >>> split_pot([20000, 10000, 10000, 5000], 2)
    Split(parts=((20000,), (10000, 10000)), carry=(5000,))
    >>> split_pot([5000, 4000, 3000, 3000, 3000, 2000], 2).each
    10000
    >>> split_pot([20000, 5000], 0)
    Split(parts=(), carry=(20000, 5000))
    """
    if sharers < 0:
        raise ValueError(f"sharers must be >= 0, got {sharers}")
    if any(bill <= 0 for bill in pot):
        raise ValueError(f"bills must be positive, got {sorted(pot)}")
    bills = tuple(sorted(pot, reverse=True))
    if sharers == 0:
        return Split(parts=(), carry=bills)
    if not bills:
        return Split(parts=((),) * sharers, carry=())

    values = tuple(sorted(set(bills), reverse=True))
    counts = tuple(bills.count(v) for v in values)
    unit = math.gcd(*values)
    units = tuple(v // unit for v in values)
    total = sum(u * c for u, c in zip(units, counts, strict=True))

    reachable = _subset_sums(units, counts)
    for leftover_value in range(total + 1):
        if not (reachable >> leftover_value) & 1 or (total - leftover_value) % sharers:
            continue
        part_value = (total - leftover_value) // sharers
        if part_value == 0:
            break
        # a part holds at most ``part_value // u`` bills of value ``u``: the
        # rest of them must stay, and be worth no more than the leftover
        forced = sum(
            u * max(0, c - sharers * (part_value // u)) for u, c in zip(units, counts, strict=True)
        )
        if forced > leftover_value or _short_of_change(units, counts, sharers, part_value):
            continue
        if _relaxation_refutes(units, counts, sharers, part_value):
            continue
        found = _best_split(units, counts, sharers, part_value)
        if found is not None:
            leftover, parts = found
            as_bills = sorted((_to_bills(values, p) for p in parts), reverse=True)
            return Split(parts=tuple(as_bills), carry=_to_bills(values, leftover))
    return Split(parts=((),) * sharers, carry=bills)


def _relaxation_refutes(units: Vector, counts: Vector, sharers: int, value: int) -> bool:
    """Whether no fractional choice of parts worth ``value`` fits in the pot.

    With ``x_p >= 0`` parts of each count vector ``p`` worth ``value``, the
    relaxation asks ``sum(x) = sharers`` and ``sum(x_p * p) <= counts``. If it
    is infeasible, Farkas gives weights ``w >= 0`` per denomination with
    ``sharers * min(w·p) > w·counts``: every part weighs at least the
    minimum, the pot cannot afford ``sharers`` of them. The weights come from
    a floating-point simplex, but they are only a candidate: the inequality
    is checked in exact integers, so a rounding error can only fail to
    refute, never refute wrongly.
    """
    if len(units) == 1:
        return False
    parts = _part_extremes(units, counts, value, RELAXATION_MAX_PARTS)
    if parts is None:
        return False
    if not parts:
        return True
    weights = _farkas_weights(parts, counts, sharers)
    if weights is None:
        return False
    for bound in (1000, 10**6):
        # the dual of a small simplex basis is a rational of small denominator
        exact = [Fraction(w).limit_denominator(bound) for w in weights]
        scale = math.lcm(*(f.denominator for f in exact))
        whole = [int(f * scale) for f in exact]
        lightest = min(sum(w * n for w, n in zip(whole, p, strict=True)) for p in parts)
        if sharers * lightest > sum(w * c for w, c in zip(whole, counts, strict=True)):
            return True
    return False


def _part_extremes(units: Vector, counts: Vector, value: int, most: int) -> list[Vector] | None:
    """The count vectors worth ``value`` within ``counts`` that are extreme in
    the two smallest denominations, or None past ``most`` of them.

    With the other counts fixed, the counts ``x`` of the second smallest that
    complete a part form an arithmetic progression, and the smallest's count
    falls as ``x`` rises: every part is a convex combination of the first and
    last of its progression, so those two are all a linear relaxation needs
    (and a linear weight is least at one of them).
    """
    *head, big, small = units
    cap_x, cap_y = counts[-2], counts[-1]
    g = math.gcd(big, small)
    step = small // g
    inverse = pow(big // g, -1, step) if step > 1 else 0
    found: list[Vector] = []

    def build(i: int, remaining: int, prefix: Vector) -> bool:
        if i == len(head):
            if remaining % g:
                return True
            phase = (remaining // g) * inverse % step if step > 1 else 0
            least = max(0, -(-(remaining - cap_y * small) // big))
            first = least + (phase - least) % step
            high = min(cap_x, remaining // big)
            last = high - (high - phase) % step
            if first <= last:
                found.append((*prefix, first, (remaining - first * big) // small))
            if first < last:
                found.append((*prefix, last, (remaining - last * big) // small))
            return len(found) <= most
        for a in range(min(counts[i], remaining // head[i]), -1, -1):
            if not build(i + 1, remaining - a * head[i], (*prefix, a)):
                return False
        return True

    return found if build(0, value, ()) else None


_EPSILON = 1e-9
_DANTZIG_PIVOTS = 20


def _farkas_weights(parts: list[Vector], counts: Vector, sharers: int) -> list[float] | None:
    """Phase 1 of the simplex (Bland's rule) on the relaxation; at an optimum
    that still needs its artificial variable, the duals of the count rows.

    Rows: ``sum_p x_p * p[i] + slack_i = counts[i]`` per denomination, then
    ``sum_p x_p + artificial = sharers``; the artificial is minimised. None
    when the relaxation is feasible (or the simplex does not settle).
    """
    size, many = len(counts), len(parts)
    artificial = many + size
    table = [
        [float(p[i]) for p in parts]
        + [1.0 if j == i else 0.0 for j in range(size)]
        + [0.0, float(counts[i])]
        for i in range(size)
    ]
    table.append([1.0] * many + [0.0] * size + [1.0, float(sharers)])
    basis = [*range(many, artificial), artificial]
    for pivots in range(50 * (size + 1)):
        if artificial not in basis:
            return None
        costs = table[basis.index(artificial)]
        if costs[-1] <= _EPSILON:
            return None
        # the reduced cost of column j is -costs[j]: enter the most negative
        # (Dantzig), or past a few pivots the first one (Bland: no cycling)
        if pivots < _DANTZIG_PIVOTS:
            enter = max(range(artificial), key=costs.__getitem__)
            if costs[enter] <= _EPSILON:
                enter = -1
        else:
            enter = next((j for j in range(artificial) if costs[j] > _EPSILON), -1)
        if enter < 0:
            return [max(0.0, -costs[many + i]) for i in range(size)]
        leave, best = -1, math.inf
        for r, row in enumerate(table):
            if row[enter] > _EPSILON:
                ratio = row[-1] / row[enter]
                if ratio < best - _EPSILON or (
                    ratio <= best + _EPSILON and leave >= 0 and basis[r] < basis[leave]
                ):
                    leave, best = r, min(best, ratio)
        pivot_row = [x / table[leave][enter] for x in table[leave]]
        table[leave] = pivot_row
        for r, row in enumerate(table):
            factor = row[enter]
            if r != leave and factor:
                table[r] = [a - factor * b for a, b in zip(row, pivot_row, strict=True)]
        basis[leave] = enter
    return None


def _short_of_change(units: Vector, counts: Vector, sharers: int, value: int) -> bool:
    """Whether even the whole pot's smaller bills cannot complete every part.

    A part's bills smaller than ``units[i]`` must make a value congruent to
    ``value`` modulo the gcd of the larger ones; the least such value, times
    the number of parts, must not exceed what the smaller bills are worth.
    """
    floor = _residue_floor(units, value)
    large = 0
    for i in range(1, len(units)):
        large = math.gcd(large, units[i - 1])
        small = sum(u * c for u, c in zip(units[i:], counts[i:], strict=True))
        if small < sharers * floor(i, large):
            return True
    return False


def _to_bills(values: Vector, counts: Vector) -> tuple[int, ...]:
    return tuple(v for v, c in zip(values, counts, strict=True) for _ in range(c))


def _subset_sums(units: Vector, counts: Vector) -> int:
    """A bitset: bit ``s`` is set if some sub-multiset sums to ``s`` units."""
    reach = 1
    for u, c in zip(units, counts, strict=True):
        # binary splitting of the bounded count: O(log c) shifts
        chunk = 1
        while c > 0:
            take = min(chunk, c)
            reach |= reach << (u * take)
            c -= take
            chunk *= 2
    return reach


def _better(a: Vector, b: Vector) -> bool:
    """Is handed vector ``a`` preferred to ``b`` (same value)? More bills handed
    out, then the leftover with the largest bills (= ``a`` smaller from the top)."""
    return (-sum(a), a) < (-sum(b), b)


class _OutOfBudget(Exception):
    pass


def _best_split(
    units: Vector, counts: Vector, sharers: int, value: int
) -> tuple[Vector, list[Vector]] | None:
    """The preferred (leftover, parts) with parts of ``value`` units, or None."""
    leftover_value = sum(u * c for u, c in zip(units, counts, strict=True)) - sharers * value
    if len(units) == 1:
        each, remainder = divmod(value, units[0])
        if remainder or each * sharers > counts[0]:
            return None
        return (counts[0] - each * sharers,), [(each,)] * sharers
    failed: set[Vector] = set()  # remainders with no exact partition: valid for any leftover
    floor = _residue_floor(units, value)
    unbounded = len(units) > PROGRAMME_MAX_DENOMINATIONS
    budget = [math.inf if unbounded else SEARCH_BUDGET]  # a list: the search spends it
    try:
        for leftover in _leftovers(units, counts, leftover_value):
            handed = tuple(c - x for c, x in zip(counts, leftover, strict=True))
            parts = _partition(units, handed, sharers, value, failed, floor, budget)
            if parts is not None:
                return leftover, parts
        return None
    except _OutOfBudget:
        return _exact(units, counts, sharers, value)


def _leftovers(units: Vector, counts: Vector, value: int) -> Iterator[Vector]:
    """Count vectors worth ``value`` units, fewest bills first, then largest bills first."""
    if value == 0:
        yield tuple(0 for _ in units)
        return
    most = min(sum(counts), value // units[-1])
    least = -(-value // units[0])
    for size in range(least, most + 1):
        yield from _fixed_size(units, counts, 0, size, value, ())


def _fixed_size(
    units: Vector, counts: Vector, i: int, size: int, value: int, prefix: Vector
) -> Iterator[Vector]:
    if i == len(units) - 1:
        if size * units[i] == value and size <= counts[i]:
            yield (*prefix, size)
        return
    u = units[i]
    rest_max = units[i + 1]
    rest_min = units[-1]
    rest_count = sum(counts[i + 1 :])
    for x in range(min(counts[i], size, value // u), -1, -1):
        n, v = size - x, value - x * u
        if n > rest_count or not n * rest_min <= v <= n * rest_max:
            continue
        yield from _fixed_size(units, counts, i + 1, n, v, (*prefix, x))


def _partition(
    units: Vector,
    handed: Vector,
    parts: int,
    value: int,
    failed: set[Vector],
    floor: Callable[[int, int], int],
    budget: list[float],
) -> list[Vector] | None:
    """Split the multiset ``handed`` exactly into ``parts`` parts of ``value`` units."""

    def hopeless(rest: Vector, left: int) -> bool:
        present = [i for i, c in enumerate(rest) if c]
        bills = sum(rest)
        most, least = units[present[0]], units[present[-1]]
        if not left * -(-value // most) <= bills <= left * (value // least):
            return True
        # Each part's value in the smaller bills must make up what the larger
        # bills cannot: a residue modulo the larger bills' gcd.
        large = 0
        for n, i in enumerate(present[1:], start=1):
            large = math.gcd(large, units[present[n - 1]])
            small = sum(rest[j] * units[j] for j in present[n:])
            if small < left * floor(i, large):
                return True
        return False

    def solve(rest: Vector, left: int) -> list[Vector] | None:
        budget[0] -= 1
        if budget[0] < 0:
            raise _OutOfBudget
        if left == 1:
            return [rest]  # what remains is worth exactly ``value``
        if rest in failed:
            return None
        if hopeless(rest, left):
            failed.add(rest)
            return None
        first = next(i for i, c in enumerate(rest) if c)
        for part in _parts(units, rest, value, first):
            found = solve(tuple(r - p for r, p in zip(rest, part, strict=True)), left - 1)
            if found is not None:
                return [part, *found]
        failed.add(rest)
        return None

    if parts == 1:
        return [handed]
    return solve(handed, parts)


def _residue_floor(units: Vector, value: int) -> Callable[[int, int], int]:
    """``floor(i, g)``: the least value, at most ``value`` and congruent to it
    modulo ``g``, that bills ``units[i:]`` can make in any number."""
    cache: dict[tuple[int, int], int] = {}
    mask = (1 << (value + 1)) - 1

    def floor(i: int, g: int) -> int:
        key = (i, g)
        if key not in cache:
            makeable = 1
            for u in units[i:]:
                step = u  # unbounded coin: shifts by u, 2u, 4u... close the set
                while step <= value:
                    makeable = (makeable | makeable << step) & mask
                    step *= 2
            cache[key] = next(
                (x for x in range(value % g, value + 1, g) if (makeable >> x) & 1), value + 1
            )
        return cache[key]

    return floor


def _parts(units: Vector, rest: Vector, value: int, first: int) -> Iterator[Vector]:
    """Parts worth ``value`` taken from ``rest``, holding a bill of index ``first``."""
    size = len(units)
    capacity = [0] * (size + 1)
    for i in range(size - 1, -1, -1):
        capacity[i] = capacity[i + 1] + rest[i] * units[i]

    def build(i: int, remaining: int, prefix: Vector) -> Iterator[Vector]:
        if remaining == 0:
            yield prefix + (0,) * (size - i)
            return
        if i == size or capacity[i] < remaining:
            return
        u = units[i]
        if i == size - 1:
            if remaining % u == 0 and remaining // u <= rest[i]:
                yield (*prefix, remaining // u)
            return
        low = 1 if i == first else 0
        for x in range(min(rest[i], remaining // u), low - 1, -1):
            yield from build(i + 1, remaining - x * u, (*prefix, x))

    yield from build(first, value, (0,) * first)


@dataclass(frozen=True)
class _Move:
    """One part, as the programme sees it: the counts of the ``head``
    denominations, then a progression of counts of the second smallest."""

    head: Vector
    need: int  # what the two smallest denominations must make
    low: int  # least count of the second smallest
    steps: int  # how many counts: low, low + step, ...


def _exact(
    units: Vector, counts: Vector, sharers: int, value: int
) -> tuple[Vector, list[Vector]] | None:
    """The dynamic programme of step 2, for two denominations or more."""
    *head, big, small = units
    heads = len(head)
    cap_x, cap_y = counts[-2], counts[-1]
    g = math.gcd(big, small)
    step = small // g
    inverse = pow(big // g, -1, step) if step > 1 else 0
    leftover_value = sum(u * c for u, c in zip(units, counts, strict=True)) - sharers * value

    moves: list[_Move] = []

    def enumerate_heads(i: int, remaining: int, prefix: Vector) -> None:
        if i == heads:
            if remaining % g:
                return
            low = (remaining // g) * inverse % step if step > 1 else 0
            high = min(remaining // big, cap_x)
            if low <= high:
                moves.append(_Move(prefix, remaining, low, (high - low) // step + 1))
            return
        for a in range(min(counts[i], remaining // head[i]), -1, -1):
            enumerate_heads(i + 1, remaining - a * head[i], (*prefix, a))

    enumerate_heads(0, value, ())
    if not moves:
        return None

    # Layout: dictionary key = counts of head[:-1]; bitset row = count of
    # head[-1] (0 without a head); column = count of the second smallest.
    width = cap_x + 1 + max(m.low + (m.steps - 1) * step for m in moves)
    rows = counts[heads - 1] + 1 if heads else 1
    row_bits = (1 << (cap_x + 1)) - 1

    def lower_bounds(layer: int) -> Vector:
        # a count reaching the end must leave at most leftover_value // u
        # bills of its kind, and each later part adds at most value // u
        return tuple(
            c - leftover_value // u - (sharers - layer) * (value // u)
            for u, c in zip(units, counts, strict=True)
        )

    def layer_mask(low: Vector) -> int:
        mask = 0
        first_row = max(0, low[heads - 1]) if heads else 0
        first_col = max(0, low[-2])
        cols = row_bits & ~((1 << first_col) - 1)
        for r in range(first_row, rows):
            mask |= cols << (r * width)
        return mask

    def split_head(vector: Vector) -> tuple[Vector, int]:
        return (vector[:-1], vector[-1]) if heads else ((), 0)

    moves_split = [(m, *split_head(m.head)) for m in moves]
    # Moves grouped by their key step; each keeps the shift of its first
    # column, its ladder rung and the shift that completes its progression:
    # with rung j = the doubling of the bits over 2**j columns, a
    # progression of ``steps`` columns is rung j | rung j shifted by
    # ``steps - 2**j`` columns, where 2**j <= steps < 2**(j+1).
    groups: dict[Vector, list[tuple[int, int, int]]] = {}
    for move, key_step, row_step in moves_split:
        rung = move.steps.bit_length() - 1
        groups.setdefault(key_step, []).append(
            (row_step * width + move.low, rung, (move.steps - (1 << rung)) * step)
        )
    rungs = max(m.steps for m in moves).bit_length()
    key_caps = counts[: max(0, heads - 1)]
    layers: list[dict[Vector, int]] = [{tuple(0 for _ in key_caps): 1}]
    for layer in range(1, sharers + 1):
        low = lower_bounds(layer)
        mask = layer_mask(low)
        key_low = low[: len(key_caps)]
        current: dict[Vector, int] = {}
        for key, bits in layers[-1].items():
            ladder = [bits]
            for j in range(1, rungs):
                ladder.append(ladder[-1] | ladder[-1] << (step << (j - 1)))
            for key_step, group in groups.items():
                new_key = tuple(a + b for a, b in zip(key, key_step, strict=True))
                if any(
                    not lo <= k <= c for k, lo, c in zip(new_key, key_low, key_caps, strict=True)
                ):
                    continue
                spread = 0
                for base, rung, tail in group:
                    ladder_bits = ladder[rung]
                    spread |= (ladder_bits | ladder_bits << tail) << base
                spread &= mask
                if spread:
                    current[new_key] = current.get(new_key, 0) | spread
        if not current:
            return None
        layers.append(current)

    def handed_at(key: Vector, position: int) -> Vector | None:
        row, col = divmod(position, width)
        head_counts = (*key, row) if heads else ()
        rest = sharers * value - sum(a * u for a, u in zip(head_counts, head, strict=True))
        y, remainder = divmod(rest - col * big, small)
        if remainder or not 0 <= y <= cap_y:
            return None
        return (*head_counts, col, y)

    best: tuple[Vector, Vector, int] | None = None
    for key, bits in layers[-1].items():
        while bits:
            lowest = bits & -bits
            bits ^= lowest
            position = lowest.bit_length() - 1
            handed = handed_at(key, position)
            if handed is not None and (best is None or _better(handed, best[0])):
                best = (handed, key, position)
    if best is None:
        return None

    handed, key, position = best
    parts: list[Vector] = []
    for layer in range(sharers, 0, -1):
        previous = layers[layer - 1]
        row, col = divmod(position, width)
        for move, key_step, row_step in moves_split:
            prev_key = tuple(a - b for a, b in zip(key, key_step, strict=True))
            prev_row = row - row_step
            if prev_key not in previous or prev_row < 0:
                continue
            bits = previous[prev_key]
            x = next(
                (
                    x
                    for x in range(move.low, move.low + move.steps * step, step)
                    if x <= col and (bits >> (prev_row * width + col - x)) & 1
                ),
                None,
            )
            if x is not None:
                parts.append((*move.head, x, (move.need - x * big) // small))
                key, position = prev_key, prev_row * width + col - x
                break
        else:
            raise AssertionError("the layers lost a path they recorded")
    leftover = tuple(c - h for c, h in zip(counts, handed, strict=True))
    return leftover, parts
