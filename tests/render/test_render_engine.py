"""The template engine: lookup, escaping of context data, sandbox, errors, shipped templates."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import gm
from gm.errors import EXIT_NOT_FOUND, EXIT_USAGE, NotFoundError
from gm.render import Raw, Renderer, TemplateError, clean_text, templates_dir
from gm.render.engine import game_templates_dir
from gm.render.escape import ZWSP

Folder = Callable[..., Path]
HtmlText = Callable[[str], tuple[str, list[str]]]
NB = "\u00a0"
NNB = "\u202f"
WJ = "\u2060"
HEAD = "sha256:91c2" + "0" * 56 + "07bd"


def test_the_shipped_templates_live_in_their_packages() -> None:
    """The platform's in gm.render, each game's in its own package (found
    through importlib.resources); an unknown game ships none."""
    assert templates_dir() == Path(gm.__file__).parent / "render" / "templates"
    assert (templates_dir() / "fr" / "_macros.md.j2").is_file()
    magot = game_templates_dir("magot")
    assert magot == Path(gm.__file__).parent / "games" / "magot" / "templates"
    assert (magot / "fr" / "opening.md.j2").is_file()
    assert game_templates_dir("demo") is None
    assert Renderer("magot").search_path == [magot, templates_dir()]


# --- lookup --------------------------------------------------------------------------------


def test_game_template_comes_before_common(template_folder: Folder) -> None:
    folder = template_folder(**{"demo/fr/hello": "jeu\n", "common/fr/hello": "commun\n"})
    assert Renderer("demo", override=folder).render("hello", {}) == "jeu\n"
    assert Renderer("other", override=folder).render("hello", {}) == "commun\n"


def test_override_comes_before_shipped_templates(template_folder: Folder) -> None:
    folder = template_folder(**{"common/fr/order_rejected": "à ma façon, {{ player }}\n"})
    out = Renderer("nogame", override=folder).render("order_rejected", {"player": "fab"})
    assert out == "à ma façon, fab\n"


def test_missing_template_is_not_found(template_folder: Folder) -> None:
    folder = template_folder()
    with pytest.raises(NotFoundError) as caught:
        Renderer("demo", "en", override=folder).render("results", {})
    assert caught.value.code == "template/not-found"
    assert caught.value.exit_code == EXIT_NOT_FOUND
    assert str(caught.value) == (
        "no template for 'results': looked for demo/en/results.md.j2 and"
        f" common/en/results.md.j2 in {folder}, {templates_dir()}"
    )
    with pytest.raises(NotFoundError) as caught:
        Renderer("magot", "en").render("results", {})
    assert str(caught.value) == (
        "no template for 'results': looked for magot/en/results.md.j2 and"
        f" common/en/results.md.j2 in {game_templates_dir('magot')}, {templates_dir()}"
    )


@pytest.mark.parametrize("kind", ["../secret", "a/b", "", "x.md"])
def test_template_kind_must_be_a_plain_name(kind: str) -> None:
    with pytest.raises(NotFoundError, match="invalid template kind"):
        Renderer("magot").render(kind, {})


def test_missing_override_folder(tmp_path: Path) -> None:
    with pytest.raises(NotFoundError) as caught:
        Renderer("magot", override=tmp_path / "nope")
    assert caught.value.code == "template/folder-not-found"


# --- escaping of context data --------------------------------------------------------------

HOSTILE = [
    "*x*",
    "**Bob**",
    "_x_",
    "[b]x[/b]",
    "[url=http://x]Bob[/url]",
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    "|",
    "a | b",
    "{{ 7*7 }}",
    "{% if %}",
    "a\\b\\",
    "\\*",
    "ligne\nsuivante\r\n- puce",
    "# titre",
    "1. un",
    "---",
    "&amp; &#60;",
    "`",
    "![x](javascript:alert(1))",
    "[x](javascript:alert(1))",
    "<https://x.org>",
    "Jean-Paul",
]

POST = """\
## Tour 1 — {{ name }}

**{{ name }}** braque {{ name }}.

- {{ name }}

| qui | braque |
|---|---|
| {{ name }} | fab |
"""


@pytest.fixture
def post_renderer(template_folder: Folder) -> Renderer:
    return Renderer("demo", override=template_folder(**{"demo/fr/post": POST}))


@pytest.mark.parametrize("name", HOSTILE)
def test_hostile_name_is_literal_in_html(
    post_renderer: Renderer, html_text: HtmlText, name: str
) -> None:
    visible, tags = html_text(post_renderer.render_as("post", {"name": name}, "html"))
    v = clean_text(name)
    assert visible == " ".join(f"Tour 1 — {v} {v} braque {v}. {v} qui braque {v} fab".split())
    assert tags == [
        *("h2", "p", "strong", "ul", "li", "table", "thead", "tr", "th", "th"),
        *("tbody", "tr", "td", "td"),
    ]


@pytest.mark.parametrize("name", HOSTILE)
def test_hostile_name_is_literal_in_bbcode(post_renderer: Renderer, name: str) -> None:
    bbcode = post_renderer.render_as("post", {"name": name}, "bbcode", "native")
    v = clean_text(name)
    assert bbcode.replace(ZWSP, "").replace(WJ, "") == (
        f"[size=120][b]Tour 1 — {v}[/b][/size]\n\n[b]{v}[/b] braque {v}.\n\n"
        f"[list]\n[*]{v}\n[/list]\n\n"
        f"[table]\n[tr][th]qui[/th][th]braque[/th][/tr]\n[tr][td]{v}[/td][td]fab[/td][/tr]\n"
        "[/table]\n"
    )
    tags = re.findall(r"\[/?[A-Za-z*]+", bbcode)
    assert tags == re.findall(
        r"\[/?[A-Za-z*]+", post_renderer.render_as("post", {"name": "fab"}, "bbcode", "native")
    )


@pytest.mark.parametrize("name", HOSTILE)
def test_hostile_name_in_markdown_is_escaped_not_executed(
    post_renderer: Renderer, name: str
) -> None:
    markdown = post_renderer.render("post", {"name": name})
    assert "49" not in markdown
    assert markdown.count("\n") == POST.count("\n")  # no line added by data


def test_template_syntax_in_data_is_printed(post_renderer: Renderer) -> None:
    out = post_renderer.render("post", {"name": "{{ 7*7 }} {% if %}"})
    assert out.startswith("## Tour 1 — {{ 7\\*7 }} {% if %}\n")


def test_markup_belongs_in_the_template(template_folder: Folder) -> None:
    folder = template_folder(
        **{
            "demo/fr/a": '**{{ name }}** {{ "**" ~ name ~ "**" }} {{ name|e }} {{ n }}\n',
            "demo/fr/b": "{% set bold %}**{{ name }}**{% endset %}{{ bold }} {{ bold|upper }}\n",
        }
    )
    renderer = Renderer("demo", override=folder)
    assert (
        renderer.render("a", {"name": "*x*", "n": -3}) == r"**\*x\*** \*\*\*x\*\*\* \*x\* -3" + "\n"
    )
    # A {% set %} block is template output (kept); a filter that returns plain text is escaped.
    assert renderer.render("b", {"name": "x"}) == r"**x** \*\*X\*\*" + "\n"


def test_output_is_nfc_and_plain_str(template_folder: Folder) -> None:
    folder = template_folder(**{"demo/fr/a": "E\u0301lodie {{ x }}\n"})
    out = Renderer("demo", override=folder).render("a", {"x": Raw("ok")})
    assert out == "Élodie ok\n"
    assert type(out) is str


# --- template errors -----------------------------------------------------------------------


def _error(folder: Path, kind: str, context: dict[str, Any] | None = None) -> TemplateError:
    with pytest.raises(TemplateError) as caught:
        Renderer("demo", override=folder).render(kind, context or {})
    assert caught.value.code == "template/error"
    assert caught.value.exit_code == EXIT_USAGE
    return caught.value


def test_syntax_error_names_file_and_line(template_folder: Folder) -> None:
    folder = template_folder(**{"demo/fr/a": "ligne 1\n{% if %}\n"})
    error = _error(folder, "a")
    assert (
        str(error)
        == f"{folder}/demo/fr/a.md.j2, line 2: Expected an expression, got 'end of statement block'"
    )


def test_undefined_variable_is_named(template_folder: Folder) -> None:
    folder = template_folder(**{"demo/fr/a": "ligne 1\n\n{{ campaign.name }}\n"})
    assert str(_error(folder, "a")) == f"{folder}/demo/fr/a.md.j2, line 3: 'campaign' is undefined"


def test_missing_key_is_named(template_folder: Folder) -> None:
    folder = template_folder(**{"demo/fr/a": "{{ campaign.name }}\n"})
    error = _error(folder, "a", {"campaign": {}})
    assert str(error) == f"{folder}/demo/fr/a.md.j2, line 1: 'dict object' has no attribute 'name'"


def test_sandbox_refuses_dunder_access(template_folder: Folder) -> None:
    folder = template_folder(**{"demo/fr/a": "{{ ''.__class__.__mro__ }}\n"})
    assert str(_error(folder, "a")) == (
        f"{folder}/demo/fr/a.md.j2, line 1:"
        " access to attribute '__class__' of 'str' object is unsafe."
    )


def test_filter_errors_are_template_errors(template_folder: Folder) -> None:
    folder = template_folder(**{"demo/fr/a": "\n{{ 'beaucoup'|money }}\n"})
    assert str(_error(folder, "a")) == (
        f"{folder}/demo/fr/a.md.j2, line 2: money expects a whole number, got 'beaucoup'"
    )


def test_python_errors_in_template_code_are_template_errors(template_folder: Folder) -> None:
    folder = template_folder(**{"demo/fr/a": "{{ 1 // n }}\n", "demo/fr/b": "{{ x }}\n"})
    assert str(_error(folder, "a", {"n": 0})) == (
        f"{folder}/demo/fr/a.md.j2, line 1: ZeroDivisionError: integer division or modulo by zero"
    )
    assert "cannot print None" in str(_error(folder, "b", {"x": None}))


def test_error_inside_a_macro_names_the_macro_file(template_folder: Folder) -> None:
    folder = template_folder(
        **{
            "demo/fr/a": '{% import "demo/fr/_m.md.j2" as m %}\n{{ m.f() }}\n',
            "demo/fr/_m": "{% macro f() %}\n{{ nope }}\n{% endmacro %}\n",
        }
    )
    assert str(_error(folder, "a")) == f"{folder}/demo/fr/_m.md.j2, line 2: 'nope' is undefined"


def test_missing_include_is_a_template_error(template_folder: Folder) -> None:
    folder = template_folder(**{"demo/fr/a": '{% include "demo/fr/gone.md.j2" %}\n'})
    assert str(_error(folder, "a")).startswith(
        f"{folder}/demo/fr/a.md.j2, line 1: template 'demo/fr/gone.md.j2' not found (looked in "
    )


def test_template_that_is_not_utf8(template_folder: Folder) -> None:
    folder = template_folder()
    (folder / "demo" / "fr").mkdir(parents=True)
    (folder / "demo" / "fr" / "a.md.j2").write_bytes("é".encode("latin-1"))
    message = str(_error(folder, "a"))
    assert "a.md.j2 is not valid UTF-8: byte 0xE9 at byte 1 is not part of a UTF-8 character" in message


# --- shipped templates ---------------------------------------------------------------------

MACROS = """\
{% import "common/fr/_macros.md.j2" as m %}
{{ m.table(["joueur", "butin", "blessures"], rows, "lr") }}

Sceaux : {{ m.seals(seals) }}

{{ m.footer(campaign) }}
{{ m.footer(campaign, round=3, date="2026-12-03T20:00:00+01:00") }}
"""


def test_macros(template_folder: Folder) -> None:
    from gm.render.filters import money

    folder = template_folder(**{"demo/fr/a": MACROS})
    context = {
        "rows": [["tom", money(120000), 0], ["lu|lu", money(-5000), 3]],
        "seals": [("fab", "sha256:" + "a41f09c2" * 8), ("*marco*", "77d0e513" * 8)],
        "campaign": {"chain_head": HEAD},
    }
    assert Renderer("demo", override=folder).render("a", context) == (
        "| joueur | butin | blessures |\n"
        "|---|--:|---|\n"
        f"| tom | 120{NB}000{NB}$ | 0 |\n"
        f"| lu\\|lu | \u22125{NB}000{NB}$ | 3 |\n"
        "\n"
        f"Sceaux{NB}: fab `{'a41f09c2' * 4}` · \\*marco\\* `{'77d0e513' * 4}`\n"
        "\n"
        f"_Empreinte du registre{NB}: `{HEAD[7:39]}`_  \n"
        f"_Empreinte du registre{NB}: `{HEAD[7:39]}` · tour 3 · 3 décembre 2026_\n"
    )


def test_the_footer_prints_128_bits_of_the_chain_head_and_where_the_post_is(
    template_folder: Folder,
) -> None:
    folder = template_folder(
        **{
            "demo/fr/a": '{% import "common/fr/_macros.md.j2" as m %}\n'
            '{{ m.footer(campaign, where="manche 2, duel 3") }}\n'
        }
    )
    out = Renderer("demo", override=folder).render("a", {"campaign": {"chain_head": HEAD}})
    assert out == f"_Empreinte du registre{NB}: `{HEAD[7:39]}` · manche 2, duel 3_\n"
    html = Renderer("demo", override=folder).render_as(
        "a", {"campaign": {"chain_head": HEAD}}, "html"
    )
    assert html == (
        f"<p><em>Empreinte du registre{NB}: <code>{HEAD[7:39]}</code> · manche 2, duel 3</em></p>\n"
    )


REMAINING = {"triple": 1, "bang": 0, "click": 4}


@pytest.mark.parametrize(
    ("code", "params", "reply"),
    [
        (
            "order/syntax",
            {},
            "Ordre refusé, fab : je n'ai pas compris « braque \\*lulu\\* ». Écris-moi qui tu"
            " braques et avec quoi, par exemple : « je braque lulu, BANG ».",
        ),
        (
            "magot/no-target",
            {"targets": ["lulu", "tom"]},
            "Ordre refusé : je ne vois pas qui tu braques dans « braque \\*lulu\\* »."
            " Les cibles possibles : lulu et tom.",
        ),
        (
            "magot/no-target",
            {},
            "Ordre refusé : je ne vois pas qui tu braques dans « braque \\*lulu\\* ».",
        ),
        (
            "magot/two-targets",
            {"names": ["lulu", "tom"]},
            "Ordre refusé : tu ne peux braquer qu'une seule personne, et je lis lulu et tom"
            " dans « braque \\*lulu\\* ».",
        ),
        (
            "magot/unknown-player",
            {"name": "bob", "targets": ["lulu"]},
            "Ordre refusé : je ne connais personne qui s'appelle « bob » à cette table."
            " Les cibles possibles : lulu.",
        ),
        (
            "magot/dead-target",
            {"target": "marco"},
            "Ordre refusé : marco est déjà hors jeu, on ne tire pas sur un cadavre.",
        ),
        ("magot/self-target", {}, "Ordre refusé : tu ne peux pas te braquer toi-même, fab."),
        (
            "magot/no-option",
            {"remaining": REMAINING},
            "Ordre refusé : tu braques, mais avec quoi ? Précise BANG BANG BANG, BANG ou"
            " CLIC CLIC CLIC dans « braque \\*lulu\\* ».\n"
            "Il te reste : BANG BANG BANG ×1, BANG ×0, CLIC CLIC CLIC ×4.",
        ),
        (
            "magot/two-options",
            {"options": ["triple", "click"]},
            "Ordre refusé : une seule arme par tour, et je lis BANG BANG BANG et CLIC CLIC CLIC"
            " dans « braque \\*lulu\\* ».",
        ),
        (
            "magot/option-spent",
            {"option": "bang", "remaining": REMAINING},
            "Ordre refusé : tu n'as plus de BANG.\n"
            "Il te reste : BANG BANG BANG ×1, BANG ×0, CLIC CLIC CLIC ×4.",
        ),
        (
            "magot/dead-player",
            {},
            "Ordre refusé : tu es hors jeu, fab, et les morts ne tirent plus.",
        ),
        (
            "phase/wrong",
            {},
            "Ordre refusé : ce n'est pas le moment d'envoyer un ordre."
            " Attends l'ouverture du prochain tour.",
        ),
        ("phase/game-over", {}, "Ordre refusé : la partie est terminée, plus personne ne tire."),
        ("order/ambiguous", {}, "Ordre refusé : 'lulu' or 'lucien'?"),
    ],
)
def test_order_rejected(code: str, params: dict[str, Any], reply: str) -> None:
    context = {
        "player": "fab",
        "campaign": {"players": ["fab", "lulu"], "genders": {}},  # as render_common gives it
        "text": "braque *lulu*",
        "error": {"code": code, "message": "'lulu' or 'lucien'?", "params": params},
    }
    assert Renderer("magot").render("order_rejected", context) == french(reply) + "\n"


def french(text: str) -> str:
    """The replies above as French typesetting writes them: no-break spaces
    before « : », « ? » and inside « », and a hard break at each line's end."""
    for plain, typeset in (
        (" :", NB + ":"),
        (" ?", NNB + "?"),
        ("« ", "«" + NNB),
        (" »", NNB + "»"),
    ):
        text = text.replace(plain, typeset)
    return text.replace("\n", "  \n")


def test_order_rejected_escapes_what_the_player_sent(html_text: HtmlText) -> None:
    context = {
        "player": "**fab**",
        "campaign": {"players": ["**fab**", "lulu"], "genders": {}},
        "text": "<script>alert(1)</script> [b]lulu[/b]",
        "error": {"code": "order/syntax", "message": "", "params": {}},
    }
    visible, tags = html_text(Renderer("magot").render_as("order_rejected", context, "html"))
    assert tags == ["p"]
    assert visible.startswith(
        "Ordre refusé, **fab** : je n'ai pas compris « <script>alert(1)</script> [b]lulu[/b] »"
    )  # the no-break spaces count as spaces in the visible text


# --- import hygiene ------------------------------------------------------------------------


def test_importing_gm_render_stays_light() -> None:
    code = (
        "import sys, gm.render\n"
        "heavy = sorted(m for m in sys.modules if m.split('.')[0] in"
        " ('sqlalchemy', 'sqlmodel', 'click', 'markdown'))\n"
        "print(heavy)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout == "[]\n"
