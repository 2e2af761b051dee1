"""Rattlesnake City's posts and replies as a table reads them (issue 28,
items 5 and 6), each tried as the MJ would, with ``gm``: a tile named with
its article (« Lulu tire gare »), a blow's total with what the permanents
add (Slippery Joe's +1), the reshuffle of the shot deck, a deadline on a
line of its own (« F6)).Réponse »), « Tricheur avec Fab, hihi », and the
sale of a card that is no *carte divers*."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
import support
from support import Gm, typeset

from gm.games.rattlesnake.tiles import Tile
from gm.service import actions, campaigns, posts
from gm.service.env import Env

ROOT = Path(__file__).resolve().parents[2]

SCENARIO = """\
game = "rattlesnake"
title = "Le saloon"
players = ["ana:f", "bob:m", "Fab:m"]
seed = "graine du saloon"

[setup]
first = "bob"
saloons = { bob = "B1", Fab = "C1", ana = "A1" }
hands = { ana = "17, 5, Tricheur, Coyote, Slippery Joe", bob = "7, 12, Goudron, 3, Honest Jim", Fab = "20, 9, Coyote, Whisky, 1" }
bag = "banque, hôtel, gare, ranch"
shots = "2 3 1 1 2 2 1 3"
"""
"""Three players, their saloons placed: ana, who placed the last one, plays the first turn."""


@pytest.fixture
def gm(db: str, tmp_path: Path) -> Gm:
    path = tmp_path / "saloon.toml"
    path.write_text(SCENARIO, encoding="utf-8")
    g = Gm(db)
    g("play", str(path), "--keep")
    return g


def said(gm: Gm, player: str, text: str, code: int = 0) -> tuple[str, str, str]:
    """``gm order PLAYER TEXT``: the post, the private reply and the MJ's notes."""
    result = gm("order", player, text, code=code)
    return result.stdout, support.private(result), support.notes(result)


def post_words(stdout: str) -> str:
    return support.without_proof(stdout) if stdout else ""


def test_a_tile_is_named_with_its_article(db: str) -> None:
    """« Lulu tire gare »: the tile drawn, placed or destroyed is « une gare »,
    « la gare », as French says it, in the posts of the example game."""
    played = Gm(db)("play", str(ROOT / "campaigns" / "exemple-rattlesnake.toml")).stdout
    assert typeset("## Tour 1 : lulu tire une banque\n") in played
    assert typeset("**Tour 1, à lulu** : la tuile tirée est **une banque**.") in played
    assert "lulu pose la banque en E1." in played
    assert typeset("## Tour 2 : fab tire un general store\n") in played
    assert typeset("## Tour 3 : marco tire une mine\n") in played
    assert " tire banque" not in played and " tire mine" not in played


def test_every_tile_has_its_articles(tmp_path: Path) -> None:
    folder = tmp_path / "templates" / "rattlesnake" / "fr"
    folder.mkdir(parents=True)
    (folder / "probe.md.j2").write_text(
        '{% import "rattlesnake/fr/_rattlesnake.md.j2" as g %}'
        "{{ g.tile(name) }} · {{ g.tile(name, definite=true) }} · {{ g.Tile(name) }}",
        encoding="utf-8",
    )
    renderer = posts.renderer("rattlesnake", "fr", tmp_path / "templates")
    shown = {t.label: renderer.render("probe", {"name": t.label}) for t in Tile}
    assert shown["gare"] == "une gare · la gare · La gare"
    assert shown["hôtel"] == "un hôtel · l'hôtel · L'hôtel"
    assert shown["bureau du shérif"] == "un bureau du shérif · le bureau du shérif · Le bureau du shérif"
    assert shown["droite"] == "une voie droite · la voie droite · La voie droite"
    assert not [name for name, text in shown.items() if "tuile" in text]


def test_a_blow_shows_what_the_permanents_add(db: str) -> None:
    """Slippery Joe's or Ironfist Jim's +1 (R-15) was in the total, not in the
    line: « lulu tire 2 + 1 — total 4 » did not add up."""
    played = Gm(db)("play", str(ROOT / "campaigns" / "exemple-rattlesnake.toml")).stdout
    assert typeset("lulu tire 2 + 1 (Ironfist Jim +1) — total 4.") in played
    # a later blow of hers, or one without a permanent, shows only its cards
    assert typeset("marco tire 3 — total 3.") in played
    assert typeset("marco tire 2 — total 5.") in played


def test_slippery_joe_and_honest_jim_count_in_the_line(gm: Gm) -> None:
    said(gm, "ana", "A2")  # the bank, in her town
    said(gm, "ana", "coups")  # 2 and 3
    said(gm, "ana", "Slippery Joe devant ana")
    said(gm, "ana", "Honest Jim devant bob", code=1)  # not hers: refused
    said(gm, "ana", "fin")
    said(gm, "bob", "B2")
    said(gm, "bob", "coups")  # 1 and 1
    said(gm, "bob", "Honest Jim devant bob")
    post, _, _ = said(gm, "bob", "attaque ana 1 1")
    assert typeset("bob tire 1 + 1 (Honest Jim −1) — total 1.") in post
    post, _, _ = said(gm, "ana", "2")
    assert typeset("ana tire 2 (Slippery Joe +1) — total 3.") in post


def test_a_reshuffle_of_the_shot_deck_is_printed_with_its_draw(db: str) -> None:
    """When the shot deck runs out, its discard pile is shuffled into a new
    one: a draw of the fortune, which the post names like every other."""
    env = Env(db=db)
    slug = campaigns.create(env, "rattlesnake", "R", ["ana:f", "bob:m"], seed="r").campaign.slug
    rng = random.Random(1)

    def liking(text: str | None) -> int:  # draw shots, attack banks: the deck runs out
        if text is None:
            return 0  # the MJ's steps (a default) only when nothing else is left
        return {"coups": 5, "fin": 1}.get(text, 4 if text.startswith("attaque") else 2)

    campaign = actions.load(env, slug)
    while not any(r.kind == "rattlesnake.deck-reshuffled" for r in campaign.records):
        assert not campaign.over
        inputs = campaign.game.legal_inputs(campaign.state, campaign.table)
        best = max(liking(i.text) for i in inputs)
        item = rng.choice([i for i in inputs if liking(i.text) == best])
        if item.step:
            actions.step(env, slug, item.step, item.values)
        else:
            actions.submit(env, slug, item.actor or "", item.text or "")
        campaign = actions.load(env, slug)
    last = env.store.posts(slug)[-1].body
    line = (
        "La pioche des cartes coups est vide : sa défausse est mélangée et devient la"
        " nouvelle pioche (tirage `reshuffle-1/shots`, **tirage sans graine des joueurs**)."
    )
    assert typeset(line) in last
    # the bank's owner draws after the attack: that draw is said too, after the reshuffle
    assert typeset("bob, dont la banque a été attaquée, pioche deux cartes coups.") in last
    assert last.index("La pioche des cartes coups") < last.index("dont la banque")


def test_the_deadline_is_on_a_line_of_its_own(db: str) -> None:
    """« F6)).Réponse »: the deadline ran into the list of cells."""
    gm = Gm(db)
    gm("new", "rattlesnake", "-t", "Délais", "-p", "ana:f,bob:m", "--seed", "s")
    gm("set", "turn-deadline", "+24h")
    gm("setup")
    first = gm.status()["awaiting"][0]
    post = post_words(gm("order", first, "A1" if first == "ana" else "B1").stdout)
    # the cells' list ends its line (with the hard break), the deadline starts the next
    assert re.search(
        r"une case libre d'une ville sans saloon \(([A-F]\d, )+F6\)\.  \n"
        r"Réponse attendue avant \w+ \d+ décembre 2026 à \d{1,2}\xa0h\xa0\d\d\.\n",
        post.replace("\xa0:", " :"),
    ), post
    assert ").Réponse" not in post


def test_tricheur_avec_fab_hihi_is_read_and_the_extra_word_told_to_the_mj(gm: Gm) -> None:
    for player, text in (
        ("ana", "A2"),
        ("ana", "coups"),
        ("ana", "poker Fab 1000"),
        ("Fab", "je reste"),
        ("ana", "cartes"),
        ("ana", "le 17"),
        ("Fab", "le 20"),
    ):
        said(gm, player, text)
    post, reply, notes = said(gm, "ana", "Tricheur avec Fab, hihi")
    assert typeset("ana joue un Tricheur : sa carte s'échange avec celle de Fab !") in post
    assert reply.startswith("Noté, ana.")
    assert "Not read in ana's message: « hihi »." in notes
    # a greeting alone is no order; an unknown word before any order is still refused
    _, reply, _ = said(gm, "bob", "Salut MJ", code=1)
    assert reply.startswith(typeset("Je n'ai pas compris « Salut MJ »"))


def test_a_sale_of_a_card_that_is_no_carte_divers_says_why_and_what_is_valid(gm: Gm) -> None:
    said(gm, "ana", "A2")
    said(gm, "ana", "coups")
    _, reply, _ = said(gm, "ana", "vends Tricheur à bob pour 2000", code=1)
    assert reply == typeset(
        "Refusé : Tricheur n'est pas une carte divers : seules les cartes divers se vendent et"
        " s'achètent ; les cartes jeu, Tricheur, Joueur professionnel, Coyote à foie jaune et"
        " Goudron & Plumes servent au poker. Tes cartes divers : Slippery Joe."
        " Par exemple : « vends Slippery Joe à bob pour 2000 ».\n"
    )
    _, reply, _ = said(gm, "ana", "vends le 17 à bob pour 2000", code=1)
    assert reply.startswith(typeset("Refusé : le 17 n'est pas une carte divers :"))
    # a buyer is told why, never what the seller holds
    _, reply, _ = said(gm, "ana", "achète Coyote à Fab pour 1000", code=1)
    assert "Tes cartes divers" not in reply and "Whisky" not in reply
    assert reply.endswith(typeset("Par exemple : « achète Dynamitero à bob pour 2000 ».\n"))
