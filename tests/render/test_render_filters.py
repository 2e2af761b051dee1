"""The template filters: exact French output, and refusals of values they cannot format."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from gm.render import Raw
from gm.render.escape import DATA, END
from gm.render.filters import (
    FILTERS,
    FilterError,
    bills,
    date_fr,
    datetime_fr,
    diagram,
    finalize,
    fingerprint,
    literal,
    money,
    names,
    plural,
    short,
)

NB = "\u00a0"
DIGEST = "sha256:91c2" + "ab" * 28 + "07bd"


@pytest.mark.parametrize(
    ("amount", "text"),
    [
        (0, f"0{NB}$"),
        (500, f"500{NB}$"),
        (5000, f"5{NB}000{NB}$"),
        (45000, f"45{NB}000{NB}$"),
        (1234567, f"1{NB}234{NB}567{NB}$"),
        (-5000, f"\u22125{NB}000{NB}$"),
    ],
)
def test_money(amount: int, text: str) -> None:
    assert money(amount) == text
    assert isinstance(money(amount), Raw)


@pytest.mark.parametrize("value", ["45000", 4.5, True, None])
def test_money_refuses_what_is_not_a_whole_number(value: Any) -> None:
    with pytest.raises(FilterError, match="money expects a whole number"):
        money(value)


def test_bills() -> None:
    assert bills([20000, 10000, 5000]) == f"20{NB}000 · 10{NB}000 · 5{NB}000"
    assert bills([]) == "aucun"


@pytest.mark.parametrize(
    ("values", "text"),
    [
        ([], "personne"),
        (["fab"], "fab"),
        (["fab", "lulu"], "fab et lulu"),
        (["fab", "marco", "lulu"], "fab, marco et lulu"),
        (["*x*", "[b]"], r"\*x\* et \[b\]"),
        ([Raw("**fab**"), "tom"], "**fab** et tom"),
    ],
)
def test_names(values: list[str], text: str) -> None:
    assert unmarked(names(values)) == text


def test_names_are_marked_as_data_for_the_typography_pass() -> None:
    assert names(["fab", Raw("**tom**"), "lu ?"]) == f"{DATA}fab{END}, **tom** et {DATA}lu ?{END}"


def unmarked(text: str) -> str:
    return text.replace(DATA, "").replace(END, "")


@pytest.mark.parametrize(("n", "suffix"), [(0, ""), (1, ""), (2, "s"), (8, "s")])
def test_plural_is_french(n: int, suffix: str) -> None:
    assert plural(n) == suffix


def test_plural_other_endings() -> None:
    assert plural(2, "x") == "x"
    assert plural(3, "aux", "al") == "aux"
    assert plural(1, "aux", "al") == "al"


def test_short_and_fingerprint_keep_128_bits() -> None:
    assert short(DIGEST) == DIGEST[7:39] and len(short(DIGEST)) == 32
    assert short("a41f09c2e5f1aa30") == "a41f09c2e5f1aa30"
    assert fingerprint(DIGEST) == DIGEST[7:39]


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("la_graine*secrète", "`la_graine*secrète`"),
        ("a`b", "``a`b``"),
        ("`q`", "`` `q` ``"),
    ],
)
def test_literal_prints_the_exact_text_in_a_code_span(text: str, shown: str) -> None:
    assert literal(text) == shown


def test_diagram_is_an_indented_code_block() -> None:
    assert diagram("ana |##\nbob |") == f"{DATA}    ana |##\n    bob |{END}"
    with pytest.raises(FilterError):
        diagram("")


@pytest.mark.parametrize("value", ["sha1:abcd", "sha256:XYZ", "", 12, None])
def test_digest_filters_refuse_non_digests(value: Any) -> None:
    with pytest.raises(FilterError, match="expected a digest"):
        short(value)


@pytest.mark.parametrize(
    ("value", "text"),
    [
        ("2026-12-03T20:00:00+01:00", "jeudi 3 décembre 2026 à 20 h 00"),
        ("2026-08-01T09:05+02:00", "samedi 1er août 2026 à 9 h 05"),
        (dt.datetime(2027, 2, 14, 0, 30), "dimanche 14 février 2027 à 0 h 30"),
    ],
)
def test_datetime_fr(value: Any, text: str) -> None:
    assert datetime_fr(value) == text


def test_date_fr() -> None:
    assert date_fr("2026-12-03") == "3 décembre 2026"
    assert date_fr("2026-12-03T20:00:00+01:00") == "3 décembre 2026"
    assert date_fr(dt.date(2026, 1, 1)) == "1er janvier 2026"


@pytest.mark.parametrize("value", ["jeudi", "2026-13-01", 3])
def test_dates_refuse_what_is_not_iso(value: Any) -> None:
    with pytest.raises(FilterError, match="ISO 8601"):
        datetime_fr(value)


def test_finalize() -> None:
    assert finalize("*x*") == DATA + r"\*x\*" + END
    assert finalize(Raw("*x*")) == "*x*"
    assert finalize(-5) == "-5"
    assert finalize(True) == DATA + "True" + END
    with pytest.raises(FilterError, match="cannot print None"):
        finalize(None)


def test_escape_filters_give_markdown_not_html_entities() -> None:
    assert FILTERS["e"]("<b>&amp;") == DATA + r"\<b\>\&amp;" + END
    assert FILTERS["escape"](Raw("**ok**")) == "**ok**"
    assert FILTERS["safe"]("**ok**") == Raw("**ok**")
