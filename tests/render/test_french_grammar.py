"""French around player names: gender agreement and elision, in every post.

Unit tests of the rule (``gm.render.grammar``), then both example games
played again with their players renamed — a name starting with a vowel
(« Ana »), an h aspiré (« Hulk »), an h muet (« Hélène »), a consonant
(« Bob »), a y before a consonant (« Yves ») and an accented consonant
(« Zoé ») — once with each player masculine, once feminine, once without a
gender. Every public post and every player's private status must agree with
each player and elide before each name, and each form must show up at least
once across the plays (so the checks cannot pass by checking nothing).
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

import pytest
from support import typeset

from gm.errors import GMError, InputError
from gm.render import Renderer
from gm.render.grammar import agreement, elides
from gm.service import actions, publishing, scenario
from gm.service.env import Env
from gm.store.log import Store

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("name", "elided"),
    [
        ("ana", True),
        ("Élodie", True),
        ("Ugo", True),
        ("œdipe", True),
        ("Yves", True),
        ("Yann", False),
        ("Hulk", False),
        ("Harry", False),
        ("Hélène", True),
        ("hugo", True),
        ("Jean-Paul", False),
        ("42", False),
        ("*Zoé*", False),
    ],
)
def test_a_name_elides_by_its_first_sound(name: str, elided: bool) -> None:
    assert elides(name) is elided


def _shown(tmp_path: Path, source: str, **context: object) -> str:
    """``source`` rendered as a post is: by a ``Renderer`` (a template of the
    override folder), so through the typography pass that removes the data marks."""
    folder = tmp_path / "templates"
    (folder / "magot" / "fr").mkdir(parents=True, exist_ok=True)
    (folder / "magot" / "fr" / "probe.md.j2").write_text(source, encoding="utf-8")
    return Renderer("magot", override=folder).render("probe", context)


def test_elide_keeps_the_capital_escapes_the_name_and_bolds_it(tmp_path: Path) -> None:
    def shown(name: str, word: str = "de", bold: bool = False) -> str:
        return _shown(
            tmp_path, "{{ name|elide(word, bold=bold) }}", name=name, word=word, bold=bold
        )

    assert shown("ana") == "d'ana"
    assert shown("bob") == "de bob"
    assert shown("as", "le") == "l'as"
    assert shown("Élodie", "De") == "D'Élodie"
    assert shown("ana", bold=True) == "d'**ana**"
    assert shown("*Ugo*") == "de \\*Ugo\\*"
    assert shown("Ugo*", "que") == "qu'Ugo\\*"
    assert _shown(tmp_path, "{{ name|de(bold=True) }}", name="Hulk") == "de **Hulk**"


def test_a_group_agrees_in_the_masculine_only_when_everyone_has_a_gender() -> None:
    genders = {"a": "f", "b": "f", "c": "m"}
    assert agreement("a", genders) == "f"
    assert agreement(["a", "b"], genders) == "f"
    assert agreement(["a", "c"], genders) == "m"
    assert agreement(["a", "d"], genders) == ""
    assert agreement("d", genders) == ""


def test_accord_in_a_template_reads_the_campaigns_genders(tmp_path: Path) -> None:
    campaign = {"genders": {"Ana": "f", "Bob": "m"}}
    source = '{{ who|accord("sonné", "sonnée", "groggy") }}'
    assert _shown(tmp_path, source, who="Ana", campaign=campaign) == "sonnée"
    assert _shown(tmp_path, source, who="Bob", campaign=campaign) == "sonné"
    assert _shown(tmp_path, source, who="Zoé", campaign=campaign) == "groggy"


# --- both games, every post, every mix of genders --------------------------------------

NAMES = ("Ana", "Hulk", "Hélène", "Bob", "Yves", "Zoé")
MAGOT = {"fab": 0, "marco": 1, "lulu": 2, "tom": 3, "Élodie": 4, "Jean-Paul": 5}
FISTFUL = {"Django": 0, "Sartana": 5}
GENDERS = ("m", "f", "")

# (masculine, feminine, neutral) phrases that name a player: {n} is the name.
AGREED = [
    ("{n}, sonné,", "{n}, sonnée,", "{n}, groggy,"),
    ("{n} (mort au tour", "{n} (morte au tour", "{n} (hors-jeu au tour"),
    ("{n} (3 — **mort**)", "{n} (3 — **morte**)", "{n} (3 — **hors-jeu**)"),
    ("| {n} | mort |", "| {n} | morte |", "| {n} | hors-jeu |"),
    ("**Couché** : {n} —", "**Couchée** : {n} —", "**Se couche** : {n} —"),
    ("{n}, qui s'est couché :", "{n}, qui s'est couchée :", "{n}, qui a baissé son arme :"),
    ("Tu es mort au tour", "Tu es morte au tour", "Tu es hors-jeu depuis le tour"),
]


def _rename(text: str, names: dict[str, int]) -> str:
    pattern = re.compile(
        r"(?<![\w-])(" + "|".join(re.escape(n) for n in names) + r")(?![\w-])", re.IGNORECASE
    )
    folded = {n.casefold(): i for n, i in names.items()}
    text = pattern.sub(lambda m: NAMES[folded[m[1].casefold()]], text)
    # a TOML bare key is ASCII: quote the accented names used as keys
    return re.sub(r"(?<=[{,] )(Hélène|Zoé)(?= = )", r'"\1"', text)


def _play(db: str, tmp: Path, game: str, names: dict[str, int], rotation: int) -> dict[str, str]:
    """The example game ``game`` with renamed players and rotated genders:
    every public post, and each player's private status, by player."""
    source = (ROOT / "campaigns" / f"exemple-{game}.toml").read_text(encoding="utf-8")
    source = re.sub(r"(\"[^\"]+):[mf]\"", r'\1"', source)  # the example's own genders out
    text = _rename(source, names)
    seated = [NAMES[i] for i in names.values()]
    genders = {n: GENDERS[(k + rotation) % 3] for k, n in enumerate(seated)}
    players = ", ".join(f'"{n}:{g}"' if g else f'"{n}"' for n, g in genders.items())
    text = re.sub(r"^players = \[.*\]$", f"players = [{players}]", text, flags=re.M)
    path = tmp / f"{game}-{rotation}.toml"
    path.write_text(text, encoding="utf-8")
    counter = itertools.count()
    env = Env(db=db, now=lambda: datetime(2026, 12, 1, 20, 0, tzinfo=UTC))
    env.__dict__["store"] = Store(
        db,
        clock=lambda: datetime(2026, 12, 1, 20, 0, tzinfo=UTC),
        salt=lambda: f"{next(counter):032x}",
    )
    played = scenario.play(env, path)
    assert played.campaign.meta.genders == {n: g for n, g in genders.items() if g}
    out = {"posts": "\n".join(p.body for p in played.posts)}
    for name in seated:
        out[name] = publishing.private_status(env, played.campaign.slug, name)
    return out | {"_genders": repr(genders)}


def _spaced(text: str) -> str:
    """``text`` with gm's French no-break spaces read as plain spaces."""
    return text.replace("\u00a0", " ").replace("\u202f", " ")


def test_every_post_agrees_with_each_player_and_elides(db: str, tmp_path: Path) -> None:
    seen: Counter[str] = Counter()
    for game, names in (("magot", MAGOT), ("fistful", FISTFUL)):
        for rotation in range(3):
            texts = _play(db, tmp_path, game, names, rotation)
            genders = eval(texts.pop("_genders"))
            everything = "\n".join(texts.values())
            for name, gender in genders.items():
                mine = "\n".join([texts["posts"], texts[name]])
                for forms in AGREED:
                    right = forms[GENDERS.index(gender)]
                    for other in forms:
                        if other == right:
                            continue
                        # a wrong form is wrong however it is spaced
                        shown = other.format(n=name)
                        if other.startswith("Tu es"):
                            assert shown not in _spaced(texts[name]), (game, name, gender, shown)
                        else:
                            assert shown not in _spaced(mine), (game, name, gender, shown)
                    # the right one, as gm sets it (« Couché\u00a0: »)
                    printed = typeset(right).format(n=name)
                    if printed in (texts[name] if right.startswith("Tu es") else mine):
                        seen[right] += 1
                # elision: « d'Ana », « de Hulk »; never « de Ana » nor « d'Hulk »
                spaced = _spaced(everything)
                for word, short in (("de", "d'"), ("Le 7 vert de", "Le 7 vert d'")):
                    if elides(name):
                        assert f"{word} {name}" not in spaced
                        assert f"{word} **{name}**" not in spaced
                    else:
                        assert f"{short}{name}" not in spaced
                        assert f"{short}**{name}**" not in spaced
                for hit in re.findall(rf"\bd'\**{re.escape(name)}\b", everything):
                    seen["elided " + name] += 1 if hit else 0
                for hit in re.findall(rf"\bde \**{re.escape(name)}\b", everything):
                    seen["kept " + name] += 1 if hit else 0
    # every agreement checked was met at least once in each form, and both
    # kinds of names were seen after « de »
    for forms in AGREED[:2] + AGREED[4:6]:
        for form in forms:
            assert seen[form], form
    assert any(seen[f"elided {n}"] for n in NAMES if elides(n))
    assert any(seen[f"kept {n}"] for n in NAMES if not elides(n))


def test_examples_in_replies_name_the_tables_own_players(db: str) -> None:
    env = Env(db=db)
    from gm.service import campaigns

    campaigns.create(env, "magot", "Exemples", ["Ana", "Bob:m", "Zoé:f"], seed="x")
    campaign = actions.load(env, "exemples")
    actions.step(env, campaign.slug, "draw", {})
    from gm.service.posts import render_common

    refused = render_common(
        actions.load(env, campaign.slug),
        "order_rejected",
        None,
        player="Ana",
        text="???",
        error={"code": "order/syntax", "message": "", "params": {}},
    )
    assert typeset("« je braque Bob, BANG »") in refused
    nudges = publishing.remind(env, campaign.slug).nudges
    assert typeset("« je braque Bob, CLIC CLIC CLIC »") in nudges["Ana"]
    assert typeset("« je braque Ana, CLIC CLIC CLIC »") in nudges["Bob"]
    assert "fab" not in "".join(nudges.values())


def test_a_gender_is_set_later_and_checked(db: str) -> None:
    from gm.service import campaigns

    env = Env(db=db)
    campaigns.create(env, "magot", "Genres", ["Ana", "Bob", "Zoé"], seed="x")
    result = campaigns.set_gender(env, "genres", "zoe", "f")
    assert result.recorded and result.campaign.meta.genders == {"Zoé": "f"}
    assert not campaigns.set_gender(env, "genres", "Zoé", "féminin").recorded
    result = campaigns.set_gender(env, "genres", "Zoé", "n")
    assert result.campaign.meta.genders == {}
    with pytest.raises(InputError, match="unknown gender 'x'"):
        campaigns.set_gender(env, "genres", "Zoé", "x")
    with pytest.raises(GMError, match="no player named 'Max'"):
        campaigns.set_gender(env, "genres", "Max", "m")
