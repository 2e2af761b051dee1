"""The fortune: fixed seed → fixed draws, no modulo bias, and agreement with
the stand-alone snippet published in the README."""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gm.core.fortune import Fortune, FortuneDraws, commitment, label_for, mix
from gm.errors import GMError

README = Path(__file__).resolve().parents[2] / "README.md"


def test_fixed_seed_gives_fixed_draws() -> None:
    # Test vectors: changing the construction must fail here loudly, because
    # players re-derive published draws with the README's snippet.
    f = Fortune("graine", "draw/1")
    assert [f.below(6) for _ in range(10)] == [2, 5, 3, 3, 4, 2, 0, 4, 4, 3]
    assert Fortune("graine", "draw/1").shuffle(list(range(10))) == [1, 6, 8, 9, 7, 0, 2, 4, 3, 5]
    f = Fortune("la-graine-secrète", "draw/12")
    assert [f.below(40) for _ in range(5)] == [16, 3, 37, 31, 4]


def test_labels_give_independent_streams() -> None:
    a = Fortune("s", label_for("round-1/bills")).below(1000)
    b = Fortune("s", label_for("round-2/bills")).below(1000)
    assert label_for("round-17/bills") == "round-17/bills"
    assert a != b


def test_a_label_names_its_purpose_and_mixes_the_players_words() -> None:
    words = (("fab", "pomme"), ("lulu", "poire"))
    digest = hashlib.sha256(b'[["fab","pomme"],["lulu","poire"]]').hexdigest()
    assert mix(words) == digest[:32]
    assert label_for("roll/2", words) == f"roll/2+{digest[:32]}"


def test_a_purpose_is_drawn_once_and_must_look_like_one() -> None:
    draws = FortuneDraws("s", drawn={"round-1/bills"})
    with pytest.raises(GMError) as again:
        draws.stream("round-1/bills")
    assert again.value.code == "fortune/drawn"
    draws.stream("round-2/bills")
    with pytest.raises(GMError):
        draws.stream("round-2/bills")  # twice in one command
    with pytest.raises(ValueError):
        draws.stream("Round 3")
    assert draws.opened == ["round-2/bills"]


def test_commitment_is_sha256_of_the_seed_bytes() -> None:
    import hashlib

    assert (
        commitment("la-graine-secrète") == hashlib.sha256("la-graine-secrète".encode()).hexdigest()
    )


def test_below_one_draws_nothing_and_zero_is_refused() -> None:
    f = Fortune("s", "draw/1")
    assert f.below(1) == 0
    with pytest.raises(ValueError):
        f.below(0)


def test_d6_frequencies_are_uniform() -> None:
    """Chi-square over 60,000 d6 with a fixed seed: deterministic, far from the 5 % cut (11.07)."""
    f = Fortune("chi2", "draw/1")
    counts = Counter(f.below(6) for _ in range(60_000))
    expected = 10_000
    chi2 = sum((counts[i] - expected) ** 2 / expected for i in range(6))
    assert chi2 < 11.07


@given(st.integers(min_value=1, max_value=10**12), st.text(max_size=20))
def test_below_stays_in_range(n: int, seed: str) -> None:
    assert 0 <= Fortune(seed, "draw/1").below(n) < n


@given(st.lists(st.integers(), max_size=30), st.text(max_size=10))
def test_shuffle_is_a_permutation(items: list[int], seed: str) -> None:
    assert sorted(Fortune(seed, "draw/3").shuffle(items)) == sorted(items)


def test_readme_snippet_agrees_with_gm() -> None:
    """The snippet players run must give the same draws as gm itself."""
    text = README.read_text(encoding="utf-8")
    match = re.search(r"<!-- fortune-snippet -->\s*```python\n(.*?)```", text, re.S)
    assert match, "README must contain the fortune snippet"
    namespace: dict[str, object] = {}
    exec(match.group(1), namespace)
    below, shuffle = namespace["below"], namespace["shuffle"]
    for seed, label, n in [
        ("graine", "draw/1", 6),
        ("la-graine-secrète", "draw/12", 40),
        ("x", "draw/3", 100_000),
    ]:
        f = Fortune(seed, label)
        assert [f.below(n) for _ in range(20)] == below(seed, label, n, 20)  # type: ignore[operator]
    assert shuffle("graine", "draw/1", list(range(10))) == [1, 6, 8, 9, 7, 0, 2, 4, 3, 5]  # type: ignore[operator]


def test_the_readme_label_with_words_is_gms() -> None:
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    label = label_for("round-1/bills", (("fab", "pomme"), ("marco", "Poire")))
    assert f"`{label}`" in readme
    assert f"[{Fortune('graine', 'round-1/bills').below(40)}]: the first bill of round 1" in readme
