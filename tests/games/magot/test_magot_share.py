"""R-6's exact share, against the ruling's examples and a brute-force reference."""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gm.games.magot import share
from gm.games.magot.share import Split, split_pot


def reference(pot: Sequence[int], sharers: int) -> tuple[int, tuple[int, ...]]:
    """The best (total handed out, bills that stay) by trying every assignment."""
    bills = sorted(pot, reverse=True)
    best: tuple[int, int, tuple[int, ...]] | None = None
    for assignment in itertools.product(range(sharers + 1), repeat=len(bills)):
        parts: list[list[int]] = [[] for _ in range(sharers)]
        stays: list[int] = []
        for bill, where in zip(bills, assignment, strict=True):
            (stays if where == sharers else parts[where]).append(bill)
        if len({sum(p) for p in parts}) > 1:
            continue
        # largest total, then fewest bills staying, then the largest ones
        key = (sum(bills) - sum(stays), -len(stays), tuple(sorted(stays, reverse=True)))
        if best is None or key > best:
            best = key
    assert best is not None
    return best[0], best[2]


def check_split(pot: Sequence[int], sharers: int, split: Split) -> None:
    assert len(split.parts) == sharers
    assert len({sum(p) for p in split.parts}) <= 1
    handed = [b for part in split.parts for b in part]
    assert sorted(handed + list(split.carry)) == sorted(pot)
    assert list(split.carry) == sorted(split.carry, reverse=True)


def test_r6_ruling_example_20000_each_and_5000_stays() -> None:
    """R-6: "pot 20 000 + 10 000 + 10 000 + 5 000 with two sharers: each receives
    20 000 $, 5 000 $ stays"."""
    split = split_pot([20000, 10000, 10000, 5000], 2)
    assert split.each == 20000 and split.carry == (5000,)
    assert split.parts == ((20000,), (10000, 10000))


def test_r6_exact_where_first_fit_decreasing_fails() -> None:
    """R-6 is exact: 5 000 + 4 000 + 3 000 + 3 000 + 3 000 + 2 000 makes two parts
    of 10 000 (5+3+2 and 4+3+3), which dealing largest-first misses."""
    pot = [5000, 4000, 3000, 3000, 3000, 2000]
    split = split_pot(pot, 2)
    check_split(pot, 2, split)
    assert split.each == 10000 and split.carry == ()


def test_r6_no_sharer_everything_stays_and_empty_pot() -> None:
    """R-6: "With no sharer, the whole pot stays"."""
    assert split_pot([5000, 20000], 0) == Split(parts=(), carry=(20000, 5000))
    assert split_pot([], 3) == Split(parts=((), (), ()), carry=())
    assert split_pot([5000], 2) == Split(parts=((), ()), carry=(5000,))


def test_r6_fewest_bills_stay_then_the_largest() -> None:
    """R-6: "Among the splits that hand out that largest total, the bills that
    stay are the fewest possible, and among those the largest possible"."""
    # 6 000 each: either 5 000 stays (6 | 4+1+1) or 4 000 + 1 000 (6 | 5+1)
    assert split_pot([6000, 5000, 4000, 1000, 1000], 2).carry == (5000,)
    # 7 000 each, two bills stay either way: 7 000 + 4 000 rather than 6 000 + 5 000
    pot = [7000, 7000, 6000, 5000, 4000, 2000, 1000]
    assert reference(pot, 3) == (21000, (7000, 4000))
    split = split_pot(pot, 3)
    check_split(pot, 3, split)
    assert split.each == 7000 and split.carry == (7000, 4000)


def test_r6_large_default_pot_is_shared() -> None:
    pot = [5000] * 60 + [10000] * 70 + [20000] * 50 + [50000] * 20
    split = split_pot(pot, 20)
    check_split(pot, 20, split)
    assert split.each * 20 + sum(split.carry) == sum(pot)
    assert split.each == sum(pot) // 20  # 3 750 000 / 20, reachable


def test_r6_infeasible_top_values_are_proved_by_the_exact_programme() -> None:
    """A pot where the search runs out of budget and the programme decides."""
    pot = [100000] * 52 + [50000] * 48 + [2000] * 50 + [1000] * 50
    split = split_pot(pot, 20)
    check_split(pot, 20, split)
    # the 2 000s and 1 000s (150 000) cannot make every part's change
    assert split.each * 20 <= sum(pot)


bills = st.lists(st.sampled_from([1, 2, 3, 4, 5, 7, 10, 20]), max_size=7)


@settings(max_examples=300, deadline=None)
@given(pot=bills, sharers=st.integers(1, 3))
def test_r6_matches_the_brute_force_reference(pot: list[int], sharers: int) -> None:
    split = split_pot(pot, sharers)
    check_split(pot, sharers, split)
    assert (split.each * sharers, split.carry) == reference(pot, sharers)


@settings(max_examples=200, deadline=None)
@given(pot=bills, sharers=st.integers(1, 3))
def test_r6_the_exact_programme_alone_matches_the_reference(pot: list[int], sharers: int) -> None:
    """With no search budget every part value goes to the dynamic programme."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(share, "SEARCH_BUDGET", 0)
        split = split_pot(pot, sharers)
    check_split(pot, sharers, split)
    assert (split.each * sharers, split.carry) == reference(pot, sharers)


@settings(max_examples=60, deadline=None)
@given(
    values=st.lists(st.integers(1, 30), min_size=1, max_size=5, unique=True),
    data=st.data(),
    sharers=st.integers(0, 20),
)
def test_r6_parts_are_equal_and_money_is_kept(
    values: list[int], data: st.DataObject, sharers: int
) -> None:
    pot = data.draw(st.lists(st.sampled_from(values), max_size=60))
    split = split_pot([v * 1000 for v in pot], sharers)
    check_split([v * 1000 for v in pot], sharers, split)


@settings(max_examples=80, deadline=None)
@given(
    values=st.lists(st.integers(1, 12), min_size=2, max_size=4, unique=True),
    data=st.data(),
    sharers=st.integers(1, 6),
)
def test_r6_search_and_programme_agree_on_larger_pots(
    values: list[int], data: st.DataObject, sharers: int
) -> None:
    """The two exact methods, each alone, on pots too big for brute force."""
    pot = data.draw(st.lists(st.sampled_from(values), max_size=30))
    results = []
    for budget in (0, math.inf):
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(share, "SEARCH_BUDGET", budget)
            split = split_pot(pot, sharers)
        check_split(pot, sharers, split)
        results.append((split.each, split.carry))
    assert results[0] == results[1]


def shareable(pot: Sequence[int], sharers: int) -> set[int]:
    """Brute force: every ``each`` such that ``sharers`` disjoint parts of
    ``each`` can be taken from ``pot``."""
    found = set()
    for assignment in itertools.product(range(sharers + 1), repeat=len(pot)):
        sums = [0] * (sharers + 1)
        for bill, where in zip(pot, assignment, strict=True):
            sums[where] += bill
        if len(set(sums[:sharers])) == 1:
            found.add(sums[0])
    return found


def units_and_counts(pot: Sequence[int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    values = sorted(set(pot), reverse=True)
    return tuple(values), tuple(pot.count(v) for v in values)


@settings(max_examples=300, deadline=None)
@given(
    pot=st.lists(st.sampled_from([1, 2, 3, 4, 5, 7, 10, 20]), min_size=1, max_size=7),
    sharers=st.integers(1, 3),
)
def test_r6_the_relaxation_only_refutes_part_values_brute_force_cannot_share(
    pot: list[int], sharers: int
) -> None:
    """The linear relaxation prunes a part value only when no split makes it."""
    units, counts = units_and_counts(pot)
    possible = shareable(pot, sharers)
    for each in range(1, sum(pot) // sharers + 1):
        if share._relaxation_refutes(units, counts, sharers, each):
            assert each not in possible, (each, "refuted but shareable")


@settings(max_examples=150, deadline=None)
@given(
    values=st.lists(st.integers(1, 40), min_size=2, max_size=5, unique=True),
    data=st.data(),
    sharers=st.integers(1, 8),
)
def test_r6_the_relaxation_only_refutes_part_values_the_programme_cannot_share(
    values: list[int], data: st.DataObject, sharers: int
) -> None:
    """The same on pots too big for brute force, the exact programme deciding."""
    pot = data.draw(st.lists(st.sampled_from(values), min_size=1, max_size=40))
    units, counts = units_and_counts(pot)
    if len(units) == 1:
        return
    for each in range(1, sum(pot) // sharers + 1):
        if share._relaxation_refutes(units, counts, sharers, each):
            assert share._exact(units, counts, sharers, each) is None, each


@settings(max_examples=80, deadline=None)
@given(
    values=st.lists(st.integers(1, 30), min_size=2, max_size=4, unique=True),
    data=st.data(),
    sharers=st.integers(1, 12),
)
def test_r6_the_relaxation_changes_no_split(
    values: list[int], data: st.DataObject, sharers: int
) -> None:
    """Pruning is only a shortcut: without it, the very same split (parts included)."""
    pot = data.draw(st.lists(st.sampled_from(values), max_size=60))
    with_relaxation = split_pot(pot, sharers)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(share, "_relaxation_refutes", lambda *_: False)
        without = split_pot(pot, sharers)
    assert with_relaxation == without


def test_r6_the_relaxation_refutes_what_counting_bills_cannot() -> None:
    """19 000 / 21 000 / 23 000 / 25 000, the whole pot in 20 parts of 221 000:
    a part has 9 bills (at least seven 25 000s) or 11; ten of each are needed,
    so seventy 25 000s, and there are 52. The weights (25 000s + 3.5 x bills)
    prove it without a search."""
    units, counts = (25, 23, 21, 19), (52, 54, 46, 48)
    assert sum(u * c for u, c in zip(units, counts, strict=True)) == 20 * 221
    assert share._relaxation_refutes(units, counts, 20, 221)
    assert share._exact(units, counts, 20, 221) is None
    assert not share._relaxation_refutes(units, counts, 20, 201)
