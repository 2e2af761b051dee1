"""``gm_check.py`` reads Colt Express threads: a whole game played by hand
(tests/scenarios/colt-doc-five-rounds.toml), in every form a player gets
it, is fully checked: the seed against the opening's commitment and every
face-down card, sealed again from the salt its Action post prints, against
the seal its Plan post published. A card changed in an Action post, or a
seal changed in a Plan post, is a mismatch.

Games played with the fortune (random games through the service layer,
players' words sent at random moments) are checked too: every draw the
posts name (characters, cars, the purses in the cars, each round's card and
decks, the R-6 defaults, the R-7 purses disclosed by the final post) is
drawn again from the seed and the words listed, and a tampered post (another
car order, another deck or loot sealed, another purse value in the final
post, a forged label, another default choice or round card) fails, naming it.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from gmcheck_support import FORMS, Files, Played, check, play_random
from support import typeset

from gm.cli import cli
from gm.core.canonical import seal
from gm.service import chronicle
from gm.service.env import Env

SCENARIO = Path(__file__).parents[1] / "scenarios" / "colt-doc-five-rounds.toml"
SLUG = "cinq-manches-jusqu-a-tombstone"


@pytest.fixture(scope="module")
def bodies(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    db = str(tmp_path_factory.mktemp("colt-check") / "gm.db")
    result = CliRunner().invoke(cli, ["--db", db, "play", str(SCENARIO), "--keep"])
    assert result.exit_code == 0, result.output
    env = Env(db=db)
    return [p.body for p in env.store.posts(SLUG)] + chronicle.chronicle(env, SLUG)[:1]


@pytest.fixture
def files(tmp_path: Path) -> Files:
    return Files(tmp_path)


@pytest.mark.parametrize("form", [*FORMS, "chronicle"])
def test_an_honest_colt_thread_is_fully_checked(bodies: list[str], files: Files, form: str) -> None:
    text = (
        bodies[-1] if form == "chronicle" else "".join(FORMS[form](b) + "\n" for b in bodies[:-1])
    )
    code, out = check("thread", files(text))
    assert code == 0, out
    assert "la graine correspond au sceau" in out
    # bob's face-down Tir (round 1, turn 2) and ana's face-down Déplacement (round 3, turn 5)
    assert re.search(r"^OK : manche 1, carte face cachée du tour 2, bob : sceau ouvert", out, re.M)
    assert re.search(r"^OK : manche 3, carte face cachée du tour 5, ana : sceau ouvert", out, re.M)


def test_a_face_down_card_changed_after_the_fact_is_caught(bodies: list[str], files: Files) -> None:
    posts = bodies[:-1]
    changed = [
        b.replace(
            typeset("Carte face cachée de bob (tour 2) : Tir,"),
            typeset("Carte face cachée de bob (tour 2) : Braquage,"),
        )
        for b in posts
    ]
    assert changed != posts
    code, out = check("thread", files("\n".join(changed)))
    assert code == 1, out
    assert "manche 1, carte face cachée du tour 2, bob : sceau" in out


def test_a_plan_seal_changed_is_caught(bodies: list[str], files: Files) -> None:
    posts = bodies[:-1]
    # gm prints a no-break space before « : » (the render pass)
    pattern = re.compile(r"(Sceau de la carte face cachée de bob \(tour 2\)\u00a0: `)([0-9a-f])")
    changed = [pattern.sub(lambda m: m[1] + ("0" if m[2] != "0" else "1"), b) for b in posts]
    assert changed != posts
    code, out = check("thread", files("\n".join(changed)))
    assert code == 1, out
    assert "manche 1, carte face cachée du tour 2, bob : sceau" in out


# --- games played with the fortune ----------------------------------------------------


@pytest.fixture(scope="module")
def fortune(tmp_path_factory: pytest.TempPathFactory) -> Played:
    """A random 6-player game with players' words, R-6 defaults and R-7 purse draws."""
    return play_random("colt", 1, str(tmp_path_factory.mktemp("colt-fortune") / "gm.db"))


def joined(bodies: list[str]) -> str:
    return "".join(b + "\n" for b in bodies)


def ok_lines(out: str, pattern: str) -> list[str]:
    return re.findall(rf"^OK : .*{pattern}.*$", out, re.M)


@pytest.mark.parametrize("form", ["markdown", "bbcode", "html", "chronicle"])
def test_every_draw_of_a_fortune_game_is_drawn_again(
    fortune: Played, files: Files, form: str
) -> None:
    bodies = fortune.bodies()
    text = (
        chronicle.chronicle(fortune.env, fortune.slug)[0]
        if form == "chronicle"
        else "".join(FORMS[form](b) + "\n" for b in bodies)
    )
    code, out = check("thread", files(text))
    assert code == 0, out
    assert not re.search(r"^(DIFFÉRENT|NON VÉRIFIÉ)", out, re.M), out
    purposes = {
        purpose
        for e in fortune.history()
        if e.kind == "gm.chance-drawn"
        for purpose in e.payload["purposes"]
        if not purpose.startswith("roll/")
    }
    # every Colt draw's label recomputed from the words printed with it
    for purpose in purposes:
        assert ok_lines(out, rf"étiquette {re.escape(purpose)}(?:\+[0-9a-f]{{32}})? "), purpose
    assert ok_lines(out, "personnages .* redistribués de la graine, flux setup/characters")
    assert ok_lines(out, "wagons [0-9, ]+ retirés de la graine, flux setup/cars")
    assert ok_lines(out, "bourses des wagons, scellées sous le sceau [0-9a-f]{32} retirées")
    assert len(ok_lines(out, "carte de manche .* retirée de la graine")) == 5
    decks = [p for p in purposes if "/deck/" in p]
    assert len(ok_lines(out, "pioche de .* retirée de la graine")) == len(decks) == 30
    defaults = [p for p in purposes if "/default/" in p and "pickpocket" not in p]
    assert defaults and len(ok_lines(out, "choix « .* » retiré de la graine")) == len(defaults)
    purses = [p for p in purposes if "/purse/" in p or "/pickpocket/" in p]
    assert purses and len(ok_lines(out, r"bourse parmi [0-9, ]+ : \d+ \$ retirée")) == len(purses)


def tampered(bodies: list[str], old: str, new: str) -> list[str]:
    changed = [b.replace(old, new) for b in bodies]
    assert changed != bodies, old
    return changed


def expect_mismatch(files: Files, bodies: list[str], pattern: str) -> str:
    code, out = check("thread", files(joined(bodies)))
    assert code == 1, out
    assert re.search(rf"^DIFFÉRENT : .*{pattern}", out, re.M), out
    return out


def test_another_car_order_is_caught(fortune: Played, files: Files) -> None:
    bodies = fortune.bodies()
    train = next(b for b in bodies if "le train est en gare" in b)
    cars = re.search(r"\(cartes ([\d, ]+), de la locomotive", train)
    assert cars
    order = cars[1].split(", ")
    swapped = ", ".join([order[1], order[0], *order[2:]])
    changed = tampered(bodies, f"(cartes {cars[1]},", f"(cartes {swapped},")
    expect_mismatch(
        files, changed, rf"le train .*setup/cars.* donne {cars[1]} ; le message montre {swapped}"
    )


def reseal(bodies: list[str], kind: str, old_digits: str, payload: object) -> list[str]:
    """The MJ sealed another secret: its seal in the post of the time and its
    (seal, salt) in the final post both replaced, consistently."""
    salt = "0f" * 16
    new = seal(kind, payload, salt).removeprefix("sha256:")[:32]
    final = bodies[-1]
    entry = re.search(rf"`{old_digits}` sel `([0-9a-f]+)`", final)
    assert entry, old_digits
    changed = tampered(bodies, f"`{old_digits}`", f"`{new}`")
    return tampered(changed, f"`{new}` sel `{entry[1]}`", f"`{new}` sel `{salt}`")


def test_another_deck_is_caught(fortune: Played, files: Files) -> None:
    bodies = fortune.bodies()
    first = next(b for b in bodies if b.startswith(typeset("# Manche 1 :")))
    m = re.search(r"Sceaux des pioches mélangées\u00a0: ([^`·]+?) `([0-9a-f]{32})`", first)
    assert m
    deck = ["deplacement", "deplacement", "etage", "etage", "marshal", "tir", "tir"]
    deck += ["braquage", "braquage", "poing"]  # the sorted deck: not what the fortune shuffled
    changed = reseal(bodies, "colt.deck-dealt", m[2], {"cards": deck, "player": m[1], "round": 1})
    expect_mismatch(files, changed, r"round-1/deck/\S+ donne une pioche d'un autre sceau")


def test_other_purses_in_the_cars_are_caught(fortune: Played, files: Files) -> None:
    bodies = fortune.bodies()
    m = re.search(r"Sceau des valeurs\u00a0: `([0-9a-f]{32})`", bodies[1])
    assert m
    payload = {"holder": "gm", "purses": [[500, 500, 450], [], [450], [450, 400, 400], [], []]}
    changed = reseal(bodies, "colt.loot-placed", m[1], payload)
    expect_mismatch(
        files, changed, "setup/purses.* donne le sceau [0-9a-f]{32} ; le message montre"
    )


def test_another_purse_value_in_the_final_post_is_caught(fortune: Played, files: Files) -> None:
    bodies = fortune.bodies()
    m = re.search(
        r"^- (Manche \d+, carte \d+ \(.+\)\u00a0: parmi ([\d, ]+)) → (\d+)\u00a0\$$",
        bodies[-1],
        re.M,
    )
    assert m
    other = next(v for v in m[2].split(", ") if v != m[3])
    changed = tampered(bodies, f"{m[1]} → {m[3]}\u00a0$", f"{m[1]} → {other}\u00a0$")
    expect_mismatch(
        files, changed, rf"la fin de partie .* tire {m[3]} \$ ; le message montre {other} \$"
    )


def test_a_forged_label_is_caught(fortune: Played, files: Files) -> None:
    bodies = fortune.bodies()
    m = re.search(
        r"Carte de la manche\u00a0: tirage `(round-3/card\+)([0-9a-f]{32})`", joined(bodies)
    )
    assert m
    forged = m[1] + "0" * 32
    changed = tampered(bodies, m[1] + m[2], forged)
    expect_mismatch(
        files, changed, rf"étiquette recalculée round-3/card\+{m[2]} ≠ publiée {re.escape(forged)}"
    )


def test_another_default_choice_is_caught(fortune: Played, files: Files) -> None:
    bodies = fortune.bodies()
    asked: dict[str, list[str]] = {}
    for body in bodies:  # the choices listed when the card waited, then the one drawn
        for n, choices in re.findall(
            r"\*\*Carte (\d+) sur \d+\u00a0: .+ à toi de choisir\u00a0: (.+)\.(?:  )?$", body, re.M
        ):
            asked[n] = re.findall(r"«\u202f(.+?)\u202f»", choices)
        drawn = re.search(
            r"^- \*\*(\d+)\. .+? — «\u202f(.+?)\u202f» \(sans réponse\u00a0: choix tiré au hasard\)",
            body,
            re.M,
        )
        if drawn:
            break
    assert drawn and len(asked[drawn[1]]) > 1
    other = next(c for c in asked[drawn[1]] if c != drawn[2])
    was = f"— «\u202f{drawn[2]}\u202f» (sans réponse"
    changed = tampered(bodies, was, f"— «\u202f{other}\u202f» (sans réponse")
    expect_mismatch(
        files,
        changed,
        rf"default/{drawn[1]}\S* donne « {re.escape(drawn[2])} » ; le message montre « {re.escape(other)} »",
    )


def test_another_round_card_is_caught(fortune: Played, files: Files) -> None:
    bodies = fortune.bodies()
    head = typeset("# Manche 2 : ")
    i, body = next((i, b) for i, b in enumerate(bodies) if b.startswith(head))
    card = body.split("\n", 1)[0].removeprefix(head)
    other = "Pont" if card != "Pont" else "Tunnel"
    changed = list(bodies)
    changed[i] = body.replace(f"{head}{card}", f"{head}{other}", 1)
    expect_mismatch(files, changed, f"round-2/card.* donne {card} ; le message montre {other}")


def test_draws_before_the_seed_is_revealed_are_not_checked(fortune: Played, files: Files) -> None:
    """Without the final post, nothing can be drawn again: never exit 0."""
    code, out = check("thread", files(joined(fortune.bodies()[:-1])))
    assert code == 3, out
    assert "graine pas encore révélée : tirage non refait" in out


def test_a_deck_draw_line_removed_is_caught(fortune: Played, files: Files) -> None:
    """The fortune drew round 2: each deck's draw line must be there."""
    bodies = fortune.bodies()
    i, body = next((i, b) for i, b in enumerate(bodies) if b.startswith(typeset("# Manche 2 :")))
    line = next(li for li in body.splitlines() if li.startswith("- Pioche de "))
    changed = list(bodies)
    changed[i] = body.replace(line + "\n", "", 1)
    assert changed[i] != body
    expect_mismatch(files, changed, "manche 2 .* pioche de .* scellée sans sa ligne de tirage")
