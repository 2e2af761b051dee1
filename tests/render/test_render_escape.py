"""Escaping of player text: exact Markdown escapes, BBCode tag breaking, properties."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gm.render import Raw, break_bbcode_tags, clean_text, convert, escape_markdown
from gm.render.escape import ZWSP


@pytest.mark.parametrize(
    ("text", "escaped"),
    [
        ("fab", "fab"),
        ("Jean-Paul", "Jean-Paul"),
        ("l'As de pique (le vrai)", "l'As de pique (le vrai)"),
        ("fab & lulu", "fab & lulu"),
        ("3.14", "3.14"),
        ("Bob!", "Bob!"),
        ("*x*", r"\*x\*"),
        ("**Bob**", r"\*\*Bob\*\*"),
        ("_x_", r"\_x\_"),
        ("`code`", r"\`code\`"),
        ("[b]x[/b]", r"\[b\]x\[/b\]"),
        ("[url=http://x]Bob[/url]", "\\[url=http:\u2060//x\\]Bob\\[/url\\]"),
        ("<script>alert(1)</script>", r"\<script\>alert(1)\</script\>"),
        ("a|b", r"a\|b"),
        ("~~x~~", r"\~\~x\~\~"),
        ("^x", r"\^x"),
        ("a\\b", r"a\\b"),
        ("&amp;", r"\&amp;"),
        ("&#38;", r"\&#38;"),
        ("![x](y)", r"\!\[x\](y)"),
        ("# titre", r"\# titre"),
        ("#1", "\\#\u20601"),
        ("- x", r"\- x"),
        ("+ x", r"\+ x"),
        ("---", r"\---"),
        ("===", r"\==="),
        ("1. fab", r"1\. fab"),
        ("12) fab", r"12\) fab"),
        ("1.", r"1\."),
        ("> x", r"\> x"),
        ("fab ##", r"fab \#\#"),
        ("#", r"\#"),
        ("a#b", "a#b"),
        ("{{ 7*7 }}", r"{{ 7\*7 }}"),
        ("{% if %}", "{% if %}"),
        ("ligne 1\nligne 2", "ligne 1 ligne 2"),
        ("  a \t\r\n  b  ", "a b"),
        ("\n- x", r"\- x"),
        ("a\x00b\x02c\x03", "abc"),
        ("E\u0301lodie", "Élodie"),
        ("", ""),
        # a forum's own text rules: U+2060 WORD JOINER where a smiley, an emoji,
        # a link, a mention or a hashtag would start
        (":D ;) :smile: 8-)", ":\u2060D ;\u2060) :\u2060smile: 8\u2060-)"),
        ("www.evil.com", "www\u2060.\u2060evil.\u2060com"),
        ("bob@evil.fr", "bob@\u2060evil.\u2060fr"),
        ("@admin #regles <3", "@\u2060admin #\u2060regles \\<\u20603"),
        ("u/bob r/forum (c)", "u\u2060/bob r\u2060/forum (\u2060c)"),
        ("a : b, a#b, 14:30", "a : b, a#b, 14:\u206030"),
        ("\ue000fab\ue001", "fab"),
    ],
)
def test_escape_markdown_exact(text: str, escaped: str) -> None:
    result = escape_markdown(text)
    assert result == escaped
    assert isinstance(result, Raw)


def test_clean_text_normalizes_and_flattens() -> None:
    assert clean_text("E\u0301lodie\u2028\u00e0\tla\u0085ligne ") == "Élodie à la ligne"


def test_raw_is_a_str_marker() -> None:
    value = Raw("**x**")
    assert value == "**x**"
    assert repr(value) == "Raw('**x**')"


@pytest.mark.parametrize(
    ("text", "broken"),
    [
        ("[b]x[/b]", f"[{ZWSP}b]x[{ZWSP}/b]"),
        ("[url=http://x]Bob[/url]", f"[{ZWSP}url=http://x]Bob[{ZWSP}/url]"),
        ("[*]", f"[{ZWSP}*]"),
        ("[B]", f"[{ZWSP}B]"),
        ("[1] [ b] [] [", "[1] [ b] [] ["),
    ],
)
def test_break_bbcode_tags(text: str, broken: str) -> None:
    assert break_bbcode_tags(text) == broken


# --- properties ----------------------------------------------------------------------------

# Markup-heavy text: Hypothesis's own characters, plus every ASCII punctuation often.
_TEXT = st.text(
    st.one_of(
        st.characters(),
        st.sampled_from(list("\\`*_[]<>|~^&#;!+-=.)(:/ \n\t0123456789abBx")),
    ),
    max_size=40,
)
_TAG = re.compile(r"\[/?[A-Za-z*]")


def _expected_visible(text: str) -> str:
    """What a reader must see for player text: NFC, one line, blanks collapsed
    (the word joiners gm adds are invisible: compared without them)."""
    flat = "".join(
        " " if ch in "\t\n\v\f\r\x1c\x1d\x1e\x85\u2028\u2029" else ch
        for ch in text
        if ch in "\t\n\v\f\r\x1c\x1d\x1e\x85"
        or (unicodedata.category(ch) != "Cc" and ch not in "\ue000\ue001\u2060")
    )
    return " ".join(unicodedata.normalize("NFC", flat).split())


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_TEXT)
def test_escaped_text_renders_literally_in_html(
    html_text: Callable[[str], tuple[str, list[str]]], text: str
) -> None:
    escaped = escape_markdown(text)
    expected = _expected_visible(text)
    for line, visible_around in (
        ("{}", "{}"),
        ("Tu braques {} avec BANG.", "Tu braques {} avec BANG."),
        ("- {}", "{}"),
        ("## Tour 3 — {}", "Tour 3 — {}"),
    ):
        visible, tags = html_text(convert(line.format(escaped), "html"))
        assert visible == " ".join(visible_around.format(expected).split())
        assert set(tags) <= {"p", "ul", "li", "h2"}
    if clean_text(text):  # an empty value between ** would not be bold anyway
        visible, tags = html_text(convert(f"**{escaped}**", "html"))
        assert (visible, tags) == (expected, ["p", "strong"])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_TEXT)
def test_escaped_text_makes_no_bbcode_tag(text: str) -> None:
    bbcode = convert(f"Tu braques **{escape_markdown(text)}** avec BANG.\n", "bbcode")
    expected = _expected_visible(text)
    if clean_text(text):
        assert bbcode.endswith("\n")
        # Undo the tag breaking on both sides (the text may hold its own "[" + U+200B).
        visible = " ".join(bbcode.replace("[" + ZWSP, "[").replace("\u2060", "").split())
        wanted = f"Tu braques [b]{expected}[/b] avec BANG.".replace("[" + ZWSP, "[")
        assert visible == " ".join(wanted.split())
        assert _TAG.findall(bbcode) == ["[b", "[/b"]
    else:
        assert _TAG.findall(bbcode) == []
