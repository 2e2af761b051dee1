"""What a forum adds around a message is taken off, whatever the message."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from gm.core.quotes import strip

TEXT = st.text(alphabet=st.sampled_from(list('ab >-\n[]=/"quoteQUOTE:Re')), max_size=80)


@given(TEXT)
def test_no_quote_tag_survives_and_stripping_twice_changes_nothing(text: str) -> None:
    once = strip(text)
    assert "[quote" not in once.text.lower()
    assert "[/quote]" not in once.text.lower()
    assert strip(once.text).text == once.text


@given(st.text(alphabet=st.sampled_from(list("abc tom BANG")), min_size=1, max_size=40))
def test_a_message_without_forum_additions_is_read_as_it_is(text: str) -> None:
    assert strip(text) == type(strip(text))(text.strip(), ())


def test_nested_quotes_are_one_quote_of_the_outer_author() -> None:
    stripped = strip('[quote=lulu]a [quote="MJ"]b[/quote] c[/quote]\ntom BANG')
    assert stripped.text == "tom BANG"
    assert stripped.ignored == ("a [quote] of lulu (« a b c »)",)


def test_phpbb_quote_attributes_and_a_cut_quote() -> None:
    stripped = strip("[quote=MJ post_id=12 time=1700000000 user_id=2]lulu BBB[/quote]\ntom BANG")
    assert (stripped.text, stripped.ignored) == ("tom BANG", ("a [quote] of MJ (« lulu BBB »)",))
    cut = strip("… je braque fab …[/quote] tom BANG")
    assert (cut.text, cut.ignored) == (
        "tom BANG",
        ("a quote cut at its start (« … je braque fab … »)",),
    )


def test_a_dash_line_inside_a_message_is_not_a_signature() -> None:
    assert strip("tom -- BANG\n- lulu").text == "tom -- BANG\n- lulu"
    assert strip("tom BANG\n--\nFab").text == "tom BANG"
