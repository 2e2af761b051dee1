"""The render layer's last pass: French spacing in the template's words only, hard line breaks."""

from __future__ import annotations

from pathlib import Path

import pytest

from gm.render import Renderer, to_forum
from gm.render.escape import DATA, END, WJ
from gm.render.typography import finish, french_spacing, hard_breaks

NB, NNB = "\u00a0", "\u202f"


@pytest.mark.parametrize(
    ("text", "typeset"),
    [
        ("Sceau : x", f"Sceau{NB}: x"),
        ("vraiment ? oui ! bon ; fin", f"vraiment{NNB}? oui{NNB}! bon{NNB}; fin"),
        ("« le 5 »", f"«{NNB}le 5{NNB}»"),
        ("tirage n° 3", f"tirage n°{NB}3"),
        ("à 14 h 23, sous 48 h", f"à 14{NB}h{NB}23, sous 48{NB}h"),
        ("5000 $ et 20 %", f"5000{NB}$ et 20{NB}%"),
        # Markdown syntax and addresses are not French punctuation
        ("|:-:|--:|", "|:-:|--:|"),
        ("voir http://x.fr et ![img](a)", "voir http://x.fr et ![img](a)"),
        ("**Couché** : marco", f"**Couché**{NB}: marco"),
        # code spans are copied and compared by players: never touched
        ("`a : b` ! `c ?`", f"`a : b`{NNB}! `c ?`"),
    ],
)
def test_french_spacing_in_the_templates_words(text: str, typeset: str) -> None:
    assert french_spacing(text) == typeset


def test_what_players_typed_is_left_as_typed() -> None:
    data = f"{DATA}Bob ! « x » : n° 1{END}"
    assert french_spacing(f"« {data} » : ok") == f"«{NNB}{data}{NNB}»{NB}: ok"
    # the space before the template's « : » is the template's, the name's own are not
    assert finish(f"je lis {DATA}fab :{END} !") == f"je lis fab :{NNB}!"


@pytest.mark.parametrize(
    ("text", "broken"),
    [
        ("a\nb\nc", "a  \nb  \nc"),
        ("a\n\nb", "a\n\nb"),
        ("## Titre\ntexte", "## Titre\ntexte"),
        ("texte\n- a\n- b\nsuite", "texte\n- a\n- b  \nsuite"),
        ("| a |\n|---|\n| 1 |", "| a |\n|---|\n| 1 |"),
        ("déjà  \ncassé", "déjà  \ncassé"),
        ("Sceau : `ab`\nSceau : `cd`", "Sceau : `ab`  \nSceau : `cd`"),
        ("intro\n\n    - sous\n    - liste", "intro\n\n    - sous\n    - liste"),
    ],
)
def test_hard_breaks_where_a_paragraph_goes_on(text: str, broken: str) -> None:
    assert hard_breaks(text) == broken


def test_a_diagram_is_left_exactly_as_drawn() -> None:
    drawing = f"{DATA}    ana : ##\n    bob ! #{END}"
    assert finish(f"Le score :\n\n{drawing}\n") == f"Le score{NB}:\n\n    ana : ##\n    bob ! #\n"


def test_word_joiners_leave_code_spans() -> None:
    assert finish(f"sel `{DATA}sha256:{WJ}ab{END}` et {DATA}:{WJ}D{END}") == (
        f"sel `sha256:ab` et :{WJ}D"
    )


def test_a_template_renders_french_with_ordinary_spaces(tmp_path: Path) -> None:
    (tmp_path / "demo" / "fr").mkdir(parents=True)
    (tmp_path / "demo" / "fr" / "a.md.j2").write_text(
        "Ordre refusé, {{ p }} : « {{ t }} » ?\nAvant {{ at|datetime_fr }}, tour n° {{ n }}.\n",
        encoding="utf-8",
    )
    context = {"p": "fab", "t": "x :)", "at": "2026-12-03T20:05:00+01:00", "n": 2}
    out = Renderer("demo", override=tmp_path).render("a", context)
    assert out == (
        f"Ordre refusé, fab{NB}: «{NNB}x :{WJ}){NNB}»{NNB}?  \n"
        f"Avant jeudi 3 décembre 2026 à 20{NB}h{NB}05, tour n°{NB}2.\n"
    )


@pytest.mark.parametrize("preset", ["bbcode", "phpbb", "forumactif", "html", "markdown"])
@pytest.mark.parametrize("tables", ["native", "list", "code"])
def test_no_break_spaces_survive_tables_in_every_mode(preset: str, tables: str) -> None:
    markdown = f"| joueur | butin |\n|---|--:|\n| fab | 45{NB}000{NB}$ |\n| lu{NNB}? | 0{NB}$ |\n"
    out = to_forum(markdown, preset, tables)
    assert f"45{NB}000{NB}$" in out and f"lu{NNB}?" in out and f"0{NB}$" in out
