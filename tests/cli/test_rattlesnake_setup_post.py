"""Rattlesnake City's deal post: chance is chance, the MJ's choice is his.

Each draw of the deal (the first player, the bag, the two decks) is printed
with its stream and the players' words, so that players re-derive it once
the seed is revealed; what the MJ gives by hand (``gm setup --first``) is
printed as his choice, never as « le sort ».
"""

from __future__ import annotations

import support


def new(gm: support.Gm) -> None:
    gm("new", "rattlesnake", "--title", "Vallée", "--players", "ana,bob,cyd", "--seed", "g")


def test_the_deal_prints_each_draw_with_its_stream(db: str) -> None:
    gm = support.Gm(db)
    new(gm)
    out = gm("setup").stdout
    assert support.typeset("Le sort désigne **") in out
    for line in (
        "- Premier joueur tiré au sort : tirage `setup/first`",
        "- Sac des tuiles mélangé : tirage `setup/bag`",
        "- Pioche des cartes action mélangée : tirage `setup/actions`",
        "- Pioche des cartes coups mélangée : tirage `setup/shots`",
    ):
        assert support.typeset(line) in out
    # the seals of the deal in French: the bag, the decks, the hands
    assert support.typeset("Sceaux de la donne (ordre du sac et des pioches, mains) : sac `") in out
    assert " hand " not in out and " deck " not in out


def test_a_first_player_given_by_hand_is_the_mjs_choice(db: str) -> None:
    gm = support.Gm(db)
    new(gm)
    out = gm("setup", "--first", "bob").stdout
    assert support.typeset("Le MJ désigne **bob** : à toi de poser le premier saloon.") in out
    assert "Le sort désigne" not in out and "tirage `setup/first`" not in out
    assert support.typeset(
        "- Premier joueur choisi par le MJ : sans tirage, c'est son choix et non le hasard."
    ) in out
