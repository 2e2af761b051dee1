"""Issue 28.6: French spacing around punctuation in everything players read.

Every post and every private reply of a random game of each game
(``written``: refusals, defaults, late replies, deadlines, reminders, a
newcomer and a rename included), read as players read it: outside the proof
block, code spans and code blocks (seals, draw labels, the maps: identifiers
players copy, which ``gm.render.typography`` leaves alone), and outside what
players wrote themselves (their messages, quoted as typed). French wants:

* U+202F NARROW NO-BREAK SPACE before ; ! ? and inside « »;
* U+00A0 NO-BREAK SPACE before :, after « n° », between a number and $ or %,
  between thousands (« 20 000 »),
  around the « h » of a time (« 5 h 37 », never « 05 h 37 »);
* no space before , or . and a space after , ; : ! ? . ) » when a word
  follows (« F6).Réponse » is the slip of issue 28);
* no doubled space, and no name run into a word (« Hermineseule »).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

import pytest
from written import Written

from gm import games
from gm.render.grammar import elides

Writer = Callable[[str], Written]
NBSP, NNBSP = "\u00a0", "\u202f"
LETTER = r"A-Za-zÀ-ÖØ-öø-ÿŒœ"
RULES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("U+202F before ; ! ?", re.compile(rf"(?<![{NNBSP}!?])[;!?](?!\[)")),
    ("U+00A0 before :", re.compile(rf"(?<![{NBSP}|\-]):(?![-|]|//|\d)")),
    ("U+202F after «", re.compile(rf"«(?!{NNBSP})")),
    ("U+202F before »", re.compile(rf"(?<!{NNBSP})»")),
    ("a space before «", re.compile(rf"[{LETTER}0-9.,;:!?)]«")),
    ("no space before , .", re.compile(rf"[ {NBSP}{NNBSP}][,.](?!\.)")),
    ("a space after , ; : ! ? . ) »", re.compile(rf"[,;:!?.)»][{LETTER}«(]")),
    ("no doubled space", re.compile(rf"(?<=\S)[ {NBSP}{NNBSP}]{{2,}}(?=\S)")),
    ("U+00A0 before $ %", re.compile(rf"\d[ {NNBSP}]?[$%]")),
    ("U+00A0 between thousands", re.compile(rf"\b\d{{1,3}}[ {NNBSP}]\d{{3}}\b")),
    ("U+00A0 after n°", re.compile(rf"\b[nN]°(?!{NBSP})")),
    ("a time as « 5 h 37 »", re.compile(rf"\b\d{{1,2}}(?!{NBSP}h{NBSP}\d\d\b)\s?h\s?\d\d\b|\b0\d{NBSP}h")),
)  # fmt: skip
"""What a slip looks like, each with its name."""

CODE_SPAN = re.compile(r"(`+)(?!`)(.+?)(?<!`)\1(?!`)")
LINK_TARGET = re.compile(r"\]\([^)\s]*\)")
TABLE_RULE = re.compile(r"\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?")
QUOTED = "MESSAGE"
"""What stands for a player's own words in the text checked."""


def prose(markdown: str, quoted: tuple[str, ...] = ()) -> Iterator[tuple[int, str]]:
    """The lines of ``markdown`` in gm's own words, numbered: without the
    proof section, code blocks and spans, table rules, what players wrote
    (``quoted``, as gm quotes it: on one line, between « ») and the hard breaks."""
    for said in sorted({" ".join(q.split()) for q in quoted if q.strip()}, key=len, reverse=True):
        markdown = markdown.replace(f"«{NNBSP}{said}{NNBSP}»", f"«{NNBSP}{QUOTED}{NNBSP}»")
    markdown = markdown.split("\n\nPreuve pour les vérificateurs")[0]
    fenced = False
    for number, line in enumerate(markdown.split("\n"), 1):
        if line.startswith("```"):
            fenced = not fenced
            continue
        if fenced or line.startswith(("    ", "\t")) or TABLE_RULE.fullmatch(line.strip()):
            continue
        yield number, LINK_TARGET.sub("]", CODE_SPAN.sub("CODE", line)).strip(" ")


def slips(markdown: str, quoted: tuple[str, ...] = ()) -> list[str]:
    """Each slip of French spacing in ``markdown``: the rule, the line, the place."""
    found = []
    for number, line in prose(markdown, quoted):
        for name, rule in RULES:
            for m in rule.finditer(line):
                found.append(
                    f"{name}, line {number}: …{line[max(0, m.start() - 25) : m.end() + 25]}…"
                )
    return found


def glued(markdown: str, names: list[str], quoted: tuple[str, ...] = ()) -> list[str]:
    """Each place where a player's name runs into a word (« Hermineseule »)."""
    found = []
    for number, line in prose(markdown, quoted):
        for name in names:
            pattern = rf"(?<=[{LETTER}]){re.escape(name)}|{re.escape(name)}(?=[{LETTER}])"
            for m in re.finditer(pattern, line):
                found.append(f"line {number}: …{line[max(0, m.start() - 25) : m.end() + 25]}…")
    return found


# --- the check itself -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ("(A1, F5, F6).Réponse attendue avant jeudi.", "a space after , ; : ! ? . ) »"),
        ("Interdit à ce duel\u00a0: **2**.Interdit", "a space after , ; : ! ? . ) »"),
        ("vraiment ?", "U+202F before ; ! ?"),
        ("touché!", "U+202F before ; ! ?"),
        ("Sceau : `abc`", "U+00A0 before :"),
        ("« Coyote\u202f»", "U+202F after «"),
        ("\u00ab\u202fCoyote »", "U+202F before »"),
        ("Réponds«\u202fCoyote\u202f»", "a space before «"),
        ("Ta main , vide", "no space before , ."),
        ("plus de carte  à résoudre", "no doubled space"),
        ("tu as 5\u00a0000 $", "U+00A0 before $ %"),
        ("tu as 5 000\u00a0$", "U+00A0 between thousands"),
        ("carte n° 3", "U+00A0 after n°"),
        ("avant jeudi à 20 h 00", "a time as « 5 h 37 »"),
        ("avant jeudi à 05\u00a0h\u00a037", "a time as « 5 h 37 »"),
    ],
)
def test_the_check_finds_each_slip(text: str, rule: str) -> None:
    assert [s for s in slips(text) if s.startswith(rule)], slips(text)


def test_the_check_leaves_french_and_what_is_not_prose_alone() -> None:
    good = (
        "## Tour 3\u00a0: Anouk tire une gare\n"
        "\n"
        "Réponse attendue avant jeudi 3 décembre 2026 à 5\u00a0h\u00a037.  \n"
        "«\u202fje reste\u202f», ou «\u202fCoyote\u202f»\u202f? Touché\u202f! Le 2,5 et 3.14\u202f; 1\u00a0000\u00a0$.\n"
        "Sceau\u00a0: `a1:b2 ; c , d` (sel `x`).\n"
        "\n"
        "| joueur | butin |\n"
        "|---|--:|\n"
        "\n"
        "    A4  A5 ;  :B\n"
        "\n"
        "n°\u00a02 · ![image](https://exemple.fr/x?y)\n"
        "\n"
        "Preuve pour les vérificateurs (à ignorer) :\n"
    )
    assert slips(good) == []
    assert slips("ton message «\u202fTir : sur Anouk\u202f»", quoted=("Tir :  sur\nAnouk",)) == []
    assert slips("(deux cartes coups) : vraiment?", quoted=("coups",)) != []
    assert glued("Partage\u00a0: Anouk seule, d'Anouk", ["Anouk"]) == []
    assert glued("Partage\u00a0: Anoukseule", ["Anouk"]) != []


# --- every game -----------------------------------------------------------------------


@pytest.mark.parametrize("game_id", games.ids())
def test_every_post_and_reply_is_spaced_in_french(written: Writer, game_id: str) -> None:
    game = written(game_id)
    quoted = tuple(game.sent)
    found = [f"{t.where}: {s}" for t in game.texts for s in slips(t.markdown, quoted)]
    assert not found, "\n".join(found)


@pytest.mark.parametrize("game_id", games.ids())
def test_no_name_runs_into_a_word(written: Writer, game_id: str) -> None:
    game = written(game_id)
    quoted = tuple(game.sent)
    found = [f"{t.where}: {s}" for t in game.texts for s in glued(t.markdown, game.players, quoted)]
    assert not found, "\n".join(found)


@pytest.mark.parametrize("game_id", games.ids())
def test_the_game_read_holds_what_goes_wrong_too(written: Writer, game_id: str) -> None:
    """The checks above read refusals, defaults, deadlines (some past), a
    newcomer and a rename, not only a smooth game's posts."""
    game = written(game_id)
    kinds = {t.where.split(" (")[0].split(" to ")[0].split(" of ")[0] for t in game.texts}
    assert {"refusal", "reply", "status", "archive", "reminder", "default's reply"} <= kinds
    assert any(t.where.endswith("(roster)") for t in game.texts)
    assert any("avant" in t.markdown and "\u00a0h\u00a0" in t.markdown for t in game.texts)


@pytest.mark.parametrize("game_id", games.ids())
def test_every_name_elides_where_french_elides(written: Writer, game_id: str) -> None:
    """« Pioche de Ana », « Au tour de Ana » (issue 28.6): before a name that
    starts with a vowel sound, « de », « que », « le », « la » elide (« d'Anouk »),
    and only there (« de Barnabé », never « d'Barnabé »)."""
    game = written(game_id)
    quoted = tuple(game.sent)
    found = []
    for name in game.players:
        if elides(name):
            wrong = rf"\b(?:[Dd]e|[Qq]ue|[Ll][ea]) \**{re.escape(name)}\b"
        else:
            wrong = rf"\b(?:[DdLl]|[Qq]u)'\**{re.escape(name)}\b"
        for t in game.texts:
            for number, line in prose(t.markdown, quoted):
                found += [f"{t.where}, line {number}: {m[0]}" for m in re.finditer(wrong, line)]
    assert not found, "\n".join(found)
    assert any(elides(n) for n in game.players) and not all(elides(n) for n in game.players)


DEADLINE = re.compile(
    r"(?:avant|délai du|échéance est déplacée\s?: )\s\**(?:lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche)"
    rf" \d{{1,2}}(?:er)? \w+ \d{{4}} à (\d{{1,2}}){NBSP}h{NBSP}(\d\d)"
)


@pytest.mark.parametrize("game_id", games.ids())
def test_deadlines_fall_on_the_quarters(written: Writer, game_id: str) -> None:
    """« Deadlines at 5 h 37 » (issue 28.6): the written games' deadlines are
    all delays (``+24h``, ``+48h``, ``+36h``) typed at odd minutes; players
    read them on a quarter of an hour, in French (« à 5 h 45 »)."""
    found = [
        (t.where, m[0]) for t in written(game_id).texts for m in DEADLINE.finditer(t.markdown)
    ]
    assert found
    assert not [f for f in found if f[1][-2:] not in ("00", "15", "30", "45")], found
