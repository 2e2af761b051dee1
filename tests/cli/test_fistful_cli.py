"""Fistful of Gold run by an MJ from the command line alone.

Every test drives ``gm`` in-process (Click's ``CliRunner``) on a fresh
database from the ``db`` fixture, with a fixed seed, and checks exactly what
the MJ sees: the posts and replies on stdout, the ``Error: … [code]`` line and
the notes on stderr, the exit code. Rulings ``R-n`` are those of
``gm/games/fistful/rules.md``.

Posts end with the fingerprint of the log's head (32 hex digits) and where the
game is (« manche 1, duel 2 »), and replies and duel posts carry seals (32 hex
digits) and salts: ``Gm`` re-derives them from ``gm history --json`` right after
the command, so whole texts can still be compared exactly. A secret is named by
its key, as the players call it: ``("setup", player)``, ``("card", manche, duel,
player)``, ``("end", manche, player)``.
"""

from __future__ import annotations

import hashlib
import json
import re
import tomllib
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
import support
from click.testing import Result
from support import private, typeset

from gm.render.filters import datetime_fr

SEED = "graine du duel"
TITLE = "Duel au soleil"
SLUG = "duel-au-soleil"
# A deadline a month ahead (gm refuses one more than a year away), at 20:00 in the
# campaigns' default time zone, and how French posts write it.
_AT = (datetime.now(ZoneInfo("Europe/Paris")) + timedelta(days=30)).replace(
    hour=20, minute=0, second=0, microsecond=0
)
DEADLINE = _AT.strftime("%Y-%m-%d %H:%M")
DEADLINE_FR = str(datetime_fr(_AT))
SCENARIOS = Path(__file__).parents[1] / "scenarios"


SECRETS = {
    "setup": ("fistful.setup-discarded", ()),
    "card": ("fistful.card-played", ("manche", "duel")),
    "end": ("fistful.end-chosen", ("manche",)),
}
"""A secret's family: its event kind and the payload fields of its key (then the player)."""


class Gm(support.Gm):
    def secret(self, *key: str | int) -> dict[str, Any]:
        """The sealed choice in force for ``key`` (``"card", 1, 2, "ana"``), from the log."""
        family, *at, player = key
        kind, fields = SECRETS[str(family)]
        rows = [
            e
            for e in self.history()
            if e["kind"] == kind
            and not e["voided"]
            and e["payload"]["player"] == player
            and [e["payload"][f] for f in fields] == at
        ]
        assert rows, key
        assert rows[-1]["payload"]["_v"] == 2  # a version-2 payload, keyed as players say
        return rows[-1]

    def seal_of(self, *key: str | int) -> str:
        """The seal of that choice as posts print it (32 hex digits), recomputed as
        a player would: SHA-256 of the canonical ``{kind, payload, salt}``."""
        row = self.secret(*key)
        text = json.dumps(
            {"kind": row["kind"], "payload": row["payload"], "salt": row["salt"]},
            sort_keys=True,
            separators=(",", ":"),
            ensure_ascii=False,
        )
        digest = hashlib.sha256(text.encode()).hexdigest()
        assert row["seal"] == f"sha256:{digest}"
        return digest[:32]

    def seal_line(self, *key: str | int) -> str:
        return (
            f"Sceau de ton choix : `{self.seal_of(*key)}` — garde-le : il sera publié,"
            " preuve que ton choix n'a pas changé.\n"
        )

    def opened_line(self, *keys: tuple[str | int, ...]) -> str:
        """The « Sceaux ouverts » line of a post that shows these choices whole."""
        entries = [
            f"{key[-1]} `{self.seal_of(*key)}` (sel `{self.secret(*key)['salt']}`)" for key in keys
        ]
        return typeset("Sceaux ouverts : " + " · ".join(entries) + "\n")

    def footer_line(self, where: str | None = None) -> str:
        """The fingerprint line of the posts a command just made: the head of the
        log they were rendered on, i.e. before their own ``gm.post-published``."""
        head = [e for e in self.history() if e["kind"] != "gm.post-published"][-1]
        digits = head["hash"].removeprefix("sha256:")
        return f"_Empreinte du registre : `{digits[:32]}`{f' · {where}' if where else ''}_"


@pytest.fixture
def gm(db: str) -> Gm:
    return Gm(db)


def new(gm: Gm, *extra: str) -> Result:
    return gm("new", "fistful", "--title", TITLE, "--players", "ana,bob", "--seed", SEED, *extra)


def started(gm: Gm, ana: str = "1 et 2", bob: str = "la dynamite et le 8") -> None:
    """A new campaign, both setup discards in and the first duel open (with a deadline)."""
    new(gm)
    gm("order", "ana", ana)
    gm("order", "bob", bob)
    gm("start", "--deadline", DEADLINE)


def duel(gm: Gm, ana: str, bob: str) -> Result:
    gm("order", "ana", ana)
    gm("order", "bob", bob)
    return gm("reveal")


# --- opening and setup --------------------------------------------------------------


def test_new_prints_the_opening_post(gm: Gm) -> None:
    result = new(gm, "-o", "length=long")
    commitment = hashlib.sha256(SEED.encode()).hexdigest()
    assert result.stdout == (
        typeset(
            f"# Fistful of Gold — « {TITLE} »\n"
            "\n"
            "Deux duellistes face à face, un jeu de cartes chacun, et de l'or sur la table. Partie longue :"
            " le premier à gagner **3 manches** l'emporte.\n"
            "\n"
            "**Duellistes** : ana (jeu rouge) · bob (jeu vert)\n"
            "\n"
            "**Pour commencer** — envoyez-moi en MP **2 cartes à défausser**, face cachée (par"
            " exemple « 1 et 2 ») : il vous en restera 7.\n"
            "\n"
            "**Règles en bref** — chaque jeu compte les cartes revolver de 1 à 8 et une Dynamite."
            " À chaque duel, chacun m'envoie une carte en MP ; je les révèle ensemble.\n"
            "\n"
            "- Même carte : personne ne gagne, 2 or vont au pot des égalités.\n"
            "- Écart de 3 ou moins : la plus forte carte gagne l'écart en or ; de 4 ou plus : la"
            " plus faible.\n"
            "- La Dynamite bat les cartes de 1 à 4 et perd contre celles de 5 à 8 : 3 or.\n"
            "- Interdit de jouer la carte juste au-dessus de celle du duel précédent (après un 3,"
            " pas de 4).\n"
            "- Le premier 6 de la manche rafle le pot des égalités, et les suivantes. 7 vert : +1"
            " or par duel gagné ensuite. 8 vert : reprendre une carte de sa pile retirée, et en"
            " défausser 2 en fin de manche. 7 rouge : au 3e duel ou après, la manche s'arrête."
            " 8 rouge contre un 1 : il gagne 3 or.\n"
            "\n"
            "La première manche compte 6 duels, chaque manche suivante un de moins. Le plus riche"
            " en or la gagne et prend une étoile de shérif ; à égalité, un ultime duel les"
            " départage.\n"
            "\n"
            f"**Sceau du hasard** : `sha256:{commitment}` — ce jeu ne tire rien au hasard ; la"
            " graine, révélée à la fin, prouve que le registre est bien celui du début.\n"
            "\n"
            f"{gm.footer_line()}\n"
        )
    ) + gm.proof()
    assert result.stderr == (
        "── post 1: opening ──\n"
        f"Campaign '{SLUG}' created and selected. Next: gm order (setup: waiting for ana's"
        " setup discards, bob's setup discards)\n"
    )
    assert gm("list").stdout == f"* {SLUG}  fistful  setup  awaiting ana, bob  -  {TITLE}\n"


def test_colors_and_length_options(gm: Gm) -> None:
    result = new(gm, "-o", "colors=ana=vert")
    assert typeset("**Duellistes** : ana (jeu vert) · bob (jeu rouge)\n") in result.stdout
    assert typeset("Partie courte : le premier à gagner **2 manches** l'emporte.") in result.stdout
    players = gm.status()["players"]
    assert [(p["name"], p["color"]) for p in players] == [("ana", "green"), ("bob", "red")]


@pytest.mark.parametrize(
    ("option", "error"),
    [
        (
            "length=moyenne",
            "Error: option length='moyenne' is not valid: short (first to 2 manches won) or"
            " long (first to 3) [fistful/bad-length]\n",
        ),
        (
            "colors=ana=bleu",
            "Error: option colors='ana=bleu' is not valid: 'bleu' is not a deck (red or"
            " green); write e.g. colors=ana=green,bob=red [fistful/bad-colors]\n",
        ),
    ],
)
def test_bad_options_are_refused(gm: Gm, option: str, error: str) -> None:
    result = gm("new", "fistful", "-t", "Autre", "-p", "ana,bob", "-o", option, code=2)
    assert result.stderr == error


def test_three_players_are_refused(gm: Gm) -> None:
    result = gm("new", "fistful", "-t", "T", "-p", "ana,bob,cid", code=2)
    assert result.stderr == (
        "Error: Fistful of Gold needs exactly 2 players, got 3 [campaign/players]\n"
    )


def test_a_setup_discard_gets_the_french_reply_with_its_seal(gm: Gm) -> None:
    new(gm)
    result = gm("order", "bob", "je défausse la dynamite et le 8")
    assert support.private(result) == (
        typeset(
            "Défausse reçue, bob : le 8 et la Dynamite, face cachée. Tu gardes 1 · 2 · 3 · 4 · 5 ·"
            " 6 · 7. Tu peux en changer jusqu'au début du duel.\n"
            f"{gm.seal_line('setup', 'bob')}"
        )
    )
    # 1-3: the campaign, its seed, the opening post; 4-6: the message, the
    # command it carries, bob's sealed discards
    assert support.notes(result) == (
        f"── private reply to bob · {TITLE} [{SLUG}] ──\n"
        f"[{SLUG}] Recorded (event 6). Awaiting: ana. Next: gm order (setup: waiting for ana's setup"
        " discards)\n"
    )


def test_start_posts_the_seals_of_the_setup_discards(gm: Gm) -> None:
    new(gm)
    gm("order", "ana", "1 et 2")
    refused = gm("start", code=1)
    assert refused.stderr == (
        "Error: no setup discards from bob yet: each player first discards two cards face"
        " down [fistful/waiting]\n"
    )
    gm("order", "bob", "8 dynamite")
    result = gm("start", "--deadline", DEADLINE)
    assert result.stdout == (
        typeset(
            "## Mise en place — les cartes sont défaussées\n"
            "\n"
            "ana et bob ont chacun défaussé 2 cartes, face cachée : 7 cartes en main.\n"
            "\n"
            f"Sceaux des défausses : ana `{gm.seal_of('setup', 'ana')}` · bob"
            f" `{gm.seal_of('setup', 'bob')}` — ils"
            " seront ouverts à la fin de la partie.\n"
            "\n"
            f"**Manche 1** — 6 duels. **Duel 1** : vos cartes en MP avant **{DEADLINE_FR}**.\n"
            "\n"
            f"{gm.footer_line('mise en place')}\n"
        )
    ) + gm.proof()
    # ana's and bob's messages took 4-6 and 7-9 (the refused step recorded
    # nothing); gm start: the command, the duels started, the deadline, the post
    assert result.stderr == (
        "── post 2: setup ──\n"
        f"[{SLUG}] Done (event 13). Awaiting: ana, bob. Next: gm order (manche 1, duel 1 of 6: waiting"
        " for ana's card, bob's card)\n"
    )
    for card in ("1", "2", "8", "Dynamite"):
        assert f"**{card}" not in result.stdout


# --- duels ------------------------------------------------------------------------------


def test_a_card_gets_the_french_reply_with_the_card_forbidden_next(gm: Gm) -> None:
    started(gm)
    result = gm("order", "ana", "Je joue le 5")
    assert support.private(result) == (
        typeset(
            "Carte reçue pour le duel 1 de la manche 1 : **5**. Tu peux en changer jusqu'à la"
            f" révélation (avant {DEADLINE_FR}).\n"
            "Au duel suivant, tu ne pourras pas jouer le 6.\n"
            f"{gm.seal_line('card', 1, 1, 'ana')}"
            "\n"
            "Ta main : 3 · 4 · 5 · 6 · 7 · 8 · Dynamite (7 cartes).\n"
            "Ta pile retirée : 1 · 2.\n"
        )
    )
    assert support.notes(result) == (
        f"── private reply to ana · {TITLE} [{SLUG}] ──\n"
        f"[{SLUG}] Recorded (event 16). Awaiting: bob. Next: gm order (manche 1, duel 1 of 6: waiting"
        " for bob's card)\n"
    )


def test_reveal_posts_the_duel(gm: Gm) -> None:
    started(gm)
    gm("order", "ana", "je joue le 5")
    gm("order", "ana", "le 3")  # a new card replaces the first
    gm("order", "bob", "6")
    result = gm("reveal", "--deadline", DEADLINE)
    assert result.stdout == (
        typeset(
            "## Manche 1 — duel 1 sur 6\n"
            "\n"
            "**ana** joue le **3 rouge**, **bob** le **6 vert**.\n"
            "\n"
            "**bob** gagne **3 or** — écart de 3 : à 3 ou moins, la plus forte carte l'emporte.\n"
            "\n"
            "- Premier 6 de la manche : **bob** prend les égalités (le pot est vide) et prendra"
            " chaque égalité à venir de la manche.\n"
            "\n"
            "**Or de la manche** : ana 0 · bob 3. Égalités : à **bob** jusqu'à la fin de la"
            " manche.\n"
            "\n"
            f"{gm.opened_line(('card', 1, 1, 'ana'), ('card', 1, 1, 'bob'))}"
            "\n"
            f"**Duel 2** : vos cartes en MP avant **{DEADLINE_FR}**. ana ne peut pas jouer le 4."
            " bob ne peut pas jouer le 7.\n"
            "\n"
            f"{gm.footer_line('manche 1, duel 1')}\n"
        )
    ) + gm.proof()
    assert result.stderr.startswith(f"── post 3: duel 1.1 ──\n[{SLUG}] Done (event ")
    assert result.stderr.endswith(
        "Awaiting: ana, bob. Next: gm order (manche 1, duel 2 of 6: waiting for ana's card,"
        " bob's card)\n"
    )
    assert gm("post").stdout == result.stdout
    assert gm("post", "duel", "1.1").stdout == result.stdout
    assert gm("post", "duel", "1").stdout == result.stdout  # the latest duel of manche 1


def test_the_log_records_each_command_before_its_events_and_each_post(gm: Gm) -> None:
    """What ``gm verify`` decides again: each command the rules accepted (private
    to whoever sent it, public when all it decided is), then its events; then one digest per post it made.
    Fistful draws nothing: no ``gm.chance-drawn`` ever."""
    started(gm, bob="1 2")
    duel(gm, "5", "8")
    gm("order", "bob", "je reprends le 1 et je joue le 1")
    log = gm.history()
    assert [(e["kind"], e["audience"]) for e in log] == [
        ("gm.campaign-created", "*"),
        ("gm.fortune-sealed", "gm"),
        ("gm.post-published", "*"),  # the opening
        ("gm.submission-received", "ana"),
        ("gm.command-decided", "ana"),
        ("fistful.setup-discarded", "ana"),
        ("gm.submission-received", "bob"),
        ("gm.command-decided", "bob"),
        ("fistful.setup-discarded", "bob"),
        ("gm.command-decided", "*"),  # gm start --deadline
        ("fistful.duels-started", "*"),
        ("gm.deadline-set", "*"),
        ("gm.post-published", "*"),  # the setup
        ("gm.submission-received", "ana"),
        ("gm.command-decided", "ana"),
        ("fistful.card-played", "ana"),
        ("gm.submission-received", "bob"),
        ("gm.command-decided", "bob"),
        ("fistful.card-played", "bob"),
        ("gm.command-decided", "*"),  # gm reveal
        ("fistful.duel-resolved", "*"),
        ("gm.post-published", "*"),  # duel 1.1
        ("gm.submission-received", "bob"),
        ("gm.command-decided", "*"),  # two commands in one message: the pick,
        ("fistful.card-picked", "*"),
        ("gm.command-decided", "bob"),  # then the card
        ("fistful.card-played", "bob"),
    ]
    posts = [e["payload"] for e in log if e["kind"] == "gm.post-published"]
    assert [(p["number"], p["post"], p["at"]) for p in posts] == [
        (1, "opening", []),
        (2, "setup", []),
        (3, "duel", [1, 1]),
    ]
    assert (
        posts[2]["digest"]
        == "sha256:" + hashlib.sha256((gm("post", "duel", "1.1").stdout).encode()).hexdigest()
    )
    assert gm("verify").exit_code == 0


def test_reveal_waits_for_both_cards(gm: Gm) -> None:
    started(gm)
    gm("order", "ana", "5")
    result = gm("reveal", code=1)
    assert result.stderr == (
        "Error: duel 1 of manche 1 cannot be revealed yet: waiting for bob's card"
        " [fistful/waiting]\n"
    )
    assert gm("reveal", "--preview", "--force", code=2).stderr == (
        "Error: 'gm reveal --force --preview' cannot show the 1 default(s) it would apply"
        " first (for bob): preview 'gm default PLAYER', or run it without --preview"
        " [input/force-preview]\n"
    )
    assert gm("draw", code=2).stderr == (
        "Error: 'gm draw' is not a step of fistful campaigns [input/no-step]\n"
    )
    assert gm("resolve", code=1).stderr == (
        "Error: ending the manche is not possible now (manche-1/duel-1); next: gm order"
        " (manche 1, duel 1 of 6: waiting for bob's card) [fistful/not-now]\n"
    )


DUEL_2 = "J'attends de toi : ta carte pour le duel 2."


def assert_refused_and_unchanged(
    gm: Gm, args: list[str], reply: str, error: str, now: str = DUEL_2
) -> None:
    """A refused message: exit 1, the French reply (private, on stderr), ending with what
    the game waits for from the player now (``now``), the error on stderr after
    the reply's header, the refusal logged privately, and nothing else changed."""
    before = gm.status()
    result = gm("order", *args, code=1)
    assert result.stdout == ""  # nothing public: the reply is private
    assert support.private(result) == typeset(f"{reply}\n{now}\n")
    assert support.notes(result) == f"── private reply to {args[0]} · {TITLE} [{SLUG}] ──\n{error}"
    after = gm.status()
    assert after["events"] == before["events"] + 1
    assert {k: v for k, v in after.items() if k != "events"} == {
        k: v for k, v in before.items() if k != "events"
    }
    last = gm.history()[-1]
    assert (last["kind"], last["audience"]) == ("gm.submission-rejected", args[0])


def test_a_forbidden_card_is_refused_saying_why(gm: Gm) -> None:
    started(gm)
    duel(gm, "3", "5")
    assert_refused_and_unchanged(
        gm,
        ["ana", "je joue le 4"],
        "Refusé : tu ne peux pas jouer le 4 à ce duel, tu as joué le 3 au duel précédent."
        " Tu peux jouer : 5 · 6 · 7 · 8 · Dynamite.\n",
        "Error: the 4 is forbidden for ana this duel: ana played the 3 in the previous duel"
        " (playable: 5, 6, 7, 8, Dynamite) [fistful/forbidden]\n",
    )


@pytest.mark.parametrize(
    ("text", "reply", "error"),
    [
        (
            "la dynamite",
            "Refusé : la Dynamite n'est pas dans ta main, elle est dans ta pile retirée. Ta"
            " main : 1 · 2 · 3 · 4 · 6 · 7.\n",
            "Error: the Dynamite is not in bob's hand: the Dynamite is in bob's removed pile"
            " (hand: 1, 2, 3, 4, 6, 7) [fistful/not-in-hand]\n",
        ),
        (
            "je rejoue le 5",
            "Refusé : le 5 n'est pas dans ta main, tu l'as déjà joué dans cette manche. Ta"
            " main : 1 · 2 · 3 · 4 · 6 · 7.\n",
            "Error: the 5 is not in bob's hand: bob already played the 5 this manche (hand: 1,"
            " 2, 3, 4, 6, 7) [fistful/not-in-hand]\n",
        ),
        (
            "le 9",
            "Refusé : « 9 » n'est pas une carte. Les cartes vont de 1 à 8, plus la Dynamite.\n",
            "Error: '9' is not a card in 'le 9': the cards are 1 to 8 and the Dynamite"
            " [fistful/not-a-card]\n",
        ),
        (
            "bof",
            "Je n'ai pas compris « bof », bob : je n'y vois aucune carte. Écris-la simplement,"
            " par exemple « je joue le 5 », « 5 » ou « la dynamite ».\n",
            "Error: no card in 'bof': write the card, e.g. « je joue le 5 » or « dynamite »"
            " [fistful/no-card]\n",
        ),
        (
            "1 et 2",
            "Refusé : il me faut une seule carte, et j'en lis 2 dans « 1 et 2 ».\n",
            "Error: the duel card is one card, got 2 in '1 et 2' (1, 2) [fistful/card-count]\n",
        ),
        (
            "je défausse le 1",
            "Refusé : ce n'est pas le moment : on joue le duel 2 de la manche 1, envoie-moi ta"
            " carte.\n",
            "Error: a discard is not expected now (manche-1/duel-2) in 'je défausse le 1':"
            " write e.g. « je joue le 5 » or « dynamite » [fistful/not-now]\n",
        ),
    ],
)
def test_refused_messages(gm: Gm, text: str, reply: str, error: str) -> None:
    started(gm)
    duel(gm, "3", "5")
    assert_refused_and_unchanged(gm, ["bob", text], reply, error)


def test_explicit_fields(gm: Gm) -> None:
    started(gm)
    result = gm("order", "ana", "--card", "dynamite")
    assert support.private(result).startswith(
        typeset("Carte reçue pour le duel 1 de la manche 1 : **Dynamite**.")
    )
    assert gm("order", "ana", "--card", "9", code=2).stderr == (
        "Error: --card '9' is not a card: write 1 to 8 or dynamite [fistful/bad-card]\n"
    )
    # another game's field is no option of a Fistful order (nothing recorded)
    before = len(gm.history())
    refused = gm("order", "ana", "--target", "bob", code=2).stderr
    assert refused.endswith(
        "Error: no such option: --target (Fistful of Gold orders take --card, --pick,"
        " --discard, --final; options go before TEXT)\n"
    )
    assert len(gm.history()) == before
    assert gm("order", "zed", "5", code=3).stderr == (
        f"Error: no player 'zed' in '{SLUG}' (players: ana, bob) [player/not-found]\n"
    )


def test_the_green_8_pick_is_awaited_and_shown(gm: Gm) -> None:
    started(gm, bob="1 2")
    result = duel(gm, "5", "8")
    assert (
        typeset(
            "- Le 8 vert de **bob** : une carte de sa pile retirée revient dans sa main (choix à"
            " m'envoyer en MP, montré à tous), et 2 cartes à défausser en fin de manche.\n"
        )
    ) in result.stdout
    assert (
        typeset("bob, dis-moi aussi quelle carte tu reprends avec ton 8 vert.\n") in result.stdout
    )
    assert result.stderr.endswith(
        "Next: gm order (manche 1, duel 2 of 6: waiting for ana's card, bob's card, bob's"
        " green-8 pick)\n"
    )
    reply = private(gm("order", "bob", "je reprends le 2 et je joue le 2"))
    assert reply.startswith(
        typeset(
            "Tu reprends le 2 de ta pile retirée grâce à ton 8 vert : il est montré à ana.\n"
            "Carte reçue pour le duel 2 de la manche 1 : **2**."
        )
    )
    assert typeset("Ta pile retirée : 1.") in reply
    gm("order", "ana", "3")
    post = gm("reveal").stdout
    assert post.startswith(
        "## Manche 1 — duel 2 sur 6\n"
        "\n"
        "bob a repris le **2 vert** de sa pile retirée grâce à son 8 vert.\n"
        "\n"
        "**ana** joue le **3 rouge**, **bob** le **2 vert**.\n"
    )


# --- status, pm, remind ---------------------------------------------------------------------


def test_status_says_what_is_awaited(gm: Gm) -> None:
    started(gm)
    duel(gm, "3", "5")
    gm("order", "ana", "5")
    result = gm("status")
    assert result.stdout == (
        f"{TITLE} [{SLUG}] — fistful\n"
        "Phase: manche-1/duel-2\n"
        "Awaiting: bob\n"
        "\n"
        "name  color  stars  gold  hand  removed\n"
        "ana     red      0     0     6        2\n"
        "bob   green      0     2     6        2\n"
        "\n"
        "Next: gm order (manche 1, duel 2 of 6: waiting for bob's card)\n"
    )
    status = gm.status()
    assert status["finished"] is False and status["winners"] == []
    assert status["stars"] == {"ana": 0, "bob": 0}
    assert status["manches"] == [
        {
            "number": 1,
            "gold": {"ana": 0, "bob": 2},
            "tie_pot": 0,
            "winner": None,
            "duels": [
                {
                    "cards": {"ana": "3", "bob": "5"},
                    "winner": "bob",
                    "gold": 2,
                    "reason": "higher",
                    "bonus": 0,
                    "tie": False,
                    "claimed": None,
                    "powers": [],
                }
            ],
            "final_duel": None,
            "finished": False,
            "ended_by": None,
            "cards": 7,
        }
    ]
    assert "5" not in json.dumps(status["players"])  # no card of any hand


def test_pm_shows_the_hand_the_forbidden_card_and_the_removed_pile(gm: Gm) -> None:
    started(gm)
    duel(gm, "3", "5")
    assert gm("pm", "ana").stdout == (
        typeset(
            f"**{TITLE} — ta situation, ana** (jeu rouge, manche 1, duel 2 sur 6)\n"
            "\n"
            "Interdit à ce duel : le 4 (tu as joué le 3 au duel précédent).\n"
            "\n"
            "Il me faut encore : ta carte pour le duel 2.\n"
            "\n"
            "Ta main : 4 · 5 · 6 · 7 · 8 · Dynamite (6 cartes).\n"
            "Ta pile retirée : 1 · 2.\n"
            "Jouées cette manche : 3.\n"
            "\n"
            "Or de la manche : toi 0, bob 2.\n"
            "\n"
            "Étoiles : toi 0, bob 0 (2 pour gagner).\n"
        )
    )


def test_remind_names_the_late_player_and_nudges_them(gm: Gm) -> None:
    started(gm)
    gm("order", "ana", "5")
    result = gm("remind")
    assert typeset("Ordres manquants : **bob**.") in result.stdout
    assert (
        typeset(
            f"bob, je t'attends avant {DEADLINE_FR}.\nIl me faut encore : ta carte pour le duel 1.\n"
        )
    ) in support.private(result)
    public = result.stdout  # the public reminder: no card of anyone's hand
    assert "je t'attends" not in public
    assert not re.search(r"\*\*([1-8]|Dynamite) (rouge|verte?)\*\*", public)
    assert "Ta main" not in public


# --- whole games ------------------------------------------------------------------------------


def play_file(gm: Gm, name: str, *extra: str) -> list[Result]:
    """Play a scenario file the way an MJ would, command by command: the discards,
    ``gm start``, then per duel the cards, ``gm reveal``, the pick, discards and
    final card, and ``gm resolve`` whenever ``gm status`` says the manche is over."""
    document = tomllib.loads((SCENARIOS / name).read_text(encoding="utf-8"))
    options = [f"-o{k}={v}" for k, v in document.get("options", {}).items() if k == "length"]
    colors = document.get("options", {}).get("colors")
    if colors:
        options.append("-ocolors=" + ",".join(f"{p}={c}" for p, c in colors.items()))
    players = ",".join(document["players"])
    title, seed = document["title"], document["seed"]
    gm("new", "fistful", "-t", title, "-p", players, "--seed", seed, *options, *extra)
    outputs = []
    for player, text in document["setup"]["discards"].items():
        gm("order", player, text)
    outputs.append(gm("start"))
    for entry in document["duels"]:
        for player, text in entry["cards"].items():
            gm("order", player, text)
        outputs.append(gm("reveal"))
        for player, text in entry.get("pick", {}).items():
            gm("order", player, text if "reprends" in text else f"je reprends {text}")
        for player, text in entry.get("discard", {}).items():
            gm("order", player, text)
        for player, text in entry.get("final", {}).items():
            gm("order", player, f"je révèle {text}")
        if gm.status()["phase"].endswith("/end"):
            assert (
                outputs[-1]
                .stderr.splitlines()[-1]
                .split("Next: ")[1]
                .startswith(("gm resolve", "gm order"))
            )
            outputs.append(gm("resolve"))
    return outputs


def contract(summary: dict[str, Any]) -> dict[str, Any]:
    keys = ("number", "gold", "tie_pot", "winner")

    def one(d: dict[str, Any] | None) -> dict[str, Any] | None:
        return None if d is None else {k: d[k] for k in ("cards", "winner", "gold")}

    return {
        **{k: summary[k] for k in ("game", "finished", "winners", "stars")},
        "manches": [
            {
                **{k: m[k] for k in keys},
                "duels": [one(d) for d in m["duels"]],
                "final_duel": one(m["final_duel"]),
            }
            for m in summary["manches"]
        ],
    }


def test_a_full_short_game_from_the_command_line(gm: Gm) -> None:
    outputs = play_file(gm, "fistful-short-table.toml")
    expected = json.loads((SCENARIOS / "fistful-short-table.expected.json").read_text())
    assert contract(gm.status()) == expected
    last = outputs[-1]
    # posts: opening, setup, 6 duels, manche 1, 5 duels, manche 2, final
    assert last.stderr.splitlines()[:2] == [
        "── post 15: manche 2 ──",
        "── post 16: final ──",
    ]
    assert "**Ultime duel**" not in last.stdout
    assert (
        typeset(
            "**Or après 5 duels** : ana 7 · bob 7 — égalité ! Ultime duel, avec une des cartes"
            " défaussées :\n"
            "\n"
            "**ana** joue le **4 rouge**, **bob** le **3 vert**.\n"
            "\n"
            "**ana** gagne **1 or** — écart de 1 : à 3 ou moins, la plus forte carte l'emporte.\n"
            "\n"
            "**Or final** : ana 8 · bob 7.\n"
        )
    ) in last.stdout
    final = last.stdout.split("# Fistful of Gold — fin du duel")[1]
    assert final.startswith(
        typeset(
            " « Table de résolution »\n"
            "\n"
            "**ana** gagne la partie avec 2 étoiles de shérif, en 2 manches.\n"
        )
    )
    assert typeset("**Graine du hasard** : `table`") in final
    assert gm.status()["next"] == "game over: gm post final (then gm post disclosure)"
    disclosure = gm("post", "disclosure").stdout
    assert disclosure.startswith(
        typeset(
            "# Fistful of Gold — toutes les cartes, enfin dévoilées\n"
            "\n"
            "**Mise en place** : ana a défaussé le **2 rouge** et la **Dynamite rouge** ;"
            " bob a défaussé le **7 vert** et le **8 vert**.\n"
        )
    )

    assert gm("verify").exit_code == 0
    assert gm("order", "ana", "5", code=1).stderr.endswith(
        "Error: the game is over: nothing more to send (got '5' from ana) [phase/game-over]\n"
    )


def test_a_long_game_from_the_command_line(gm: Gm) -> None:
    outputs = play_file(gm, "fistful-long-duel.toml")
    expected = json.loads((SCENARIOS / "fistful-long-duel.expected.json").read_text())
    assert contract(gm.status()) == expected
    kinds = [line for o in outputs for line in o.stderr.splitlines() if line.startswith("──")]
    assert sum("duel" in k for k in kinds) == 16
    assert sum("manche" in k for k in kinds) == 4
    assert kinds[-1] == "── post 23: final ──"
    # manche 1 needed bob's final-duel card: its seal is in the manche post, not its salt
    manche = gm("post", "manche", "1").stdout
    assert gm("post", "manche", "--round", "1").stdout == manche
    assert (
        typeset(f"Sceaux des choix de fin de manche : bob `{gm.seal_of('end', 1, 'bob')}`\n")
        in manche
    )
    assert gm.secret("end", 1, "bob")["salt"] not in manche
    assert gm("verify").exit_code == 0


def test_a_red_7_game_with_choices_from_the_command_line(gm: Gm) -> None:
    play_file(gm, "fistful-red-seven-choices.toml")
    expected = json.loads((SCENARIOS / "fistful-red-seven-choices.expected.json").read_text())
    assert contract(gm.status()) == expected
    manche = gm("post", "manche", "1").stdout
    # bob discarded one card and the final duel showed it: his choice is opened
    assert gm.opened_line(("end", 1, "bob")) in manche
    assert gm.secret("end", 1, "ana")["salt"] not in manche  # ana's other discard stays secret


def test_the_disclosure_waits_for_the_end(gm: Gm) -> None:
    started(gm)
    assert gm("post", "disclosure", code=1).stderr == (
        "Error: the cards are disclosed only when the game is over (now at"
        " 'manche-1/duel-1') [fistful/disclosure-early]\n"
    )


def test_games_lists_fistful(gm: Gm) -> None:
    out = gm("games").stdout
    assert (
        "fistful — Fistful of Gold (exactly 2 players)\n"
        "  --option length=…  short (first to 2 manches won) or long (first to 3)."
        " (default: short)\n"
        "  --option colors=…  Who takes which deck, e.g. ana=green,bob=red."
        " (default: first player red)\n"
        "  steps: gm start, gm reveal, gm resolve\n"
    ) in out
