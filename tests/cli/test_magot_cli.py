"""Le Magot run by an MJ from the command line alone.

Every test drives ``gm`` in-process (Click's ``CliRunner``) on a fresh SQLite
file, with a fixed seed, and checks exactly what the MJ sees: the posts and
replies on stdout, the ``Error: … [code]`` line and the notes on stderr, the
exit code. Rulings ``R-n`` are those of ``gm/games/magot/rules.md``.

Posts end with the fingerprint of the log's head, whose hash covers the
recording time: ``footer`` recomputes it from ``gm history --json`` right
after the command, so whole posts can still be compared exactly.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

import pytest
import support
from click.testing import CliRunner, Result

from gm.cli import cli

PLAYERS = "fab,marco,lulu,tom"
SEED = "graine du casse"
TITLE = "Le casse du siècle"
SLUG = "le-casse-du-siecle"
BILLS = "20000,10000,5000,5000,5000"
DEADLINE = "2026-12-03 20:00"  # with the clock frozen on 2026-12-01 (conftest.py)
DEADLINE_FR = "jeudi 3 décembre 2026 à 20 h 00"
OPTION_WORD = re.compile(r"bang|clic", re.IGNORECASE)


ROOT = Path(__file__).resolve().parents[2]


def nb(text: str) -> str:
    """The expected texts below are typed with plain spaces and single newlines:
    ``typeset`` sets them as gm prints them (amounts, French spacing, hard breaks)."""
    return support.typeset(text)


POST_PUBLISHED = "gm.post-published"
DIGITS = 32  # seals and fingerprints print 128 bits


class Gm(support.Gm):
    def seal(self, player: str, round_: int) -> str:
        """The seal of ``player``'s order in force for ``round_``, recomputed as a
        player would (SHA-256 of the canonical ``{kind, payload, salt}``), as
        posts print it: its first 32 hex digits."""
        row = self.sealed(player, round_)
        text = json.dumps(
            {"kind": row["kind"], "payload": row["payload"], "salt": row["salt"]},
            sort_keys=True,
            separators=(",", ":"),
            ensure_ascii=False,
        )
        digest = hashlib.sha256(text.encode()).hexdigest()
        assert row["seal"].removeprefix("sha256:") == digest
        return digest[:DIGITS]

    def footer(
        self, round_: int | None = None, word: str = "tour", posts: int | None = None
    ) -> str:
        """The fingerprint line of a post rendered by the last command: the log's
        head before the ``gm.post-published`` events that commit to its posts
        (``posts`` of them; by default every such event at the end of the log),
        so a post never fingerprints itself. With no post at the end, the head
        as it stands (a preview, a reminder)."""
        rows = self.history()
        if posts is None:
            posts = 0
            while posts < len(rows) and rows[-1 - posts]["kind"] == POST_PUBLISHED:
                posts += 1
        assert all(r["kind"] == POST_PUBLISHED for r in rows[len(rows) - posts :])
        digits = rows[-1 - posts]["hash"].removeprefix("sha256:")
        where = f" · {word} {round_}" if round_ is not None else ""
        return f"_Empreinte du registre : `{digits[:DIGITS]}`{where}_"

    def seal_line(self, player: str, round_: int) -> str:
        return (
            f"Sceau de ton ordre : `{self.seal(player, round_)}` — garde-le : il sera publié"
            " à la révélation, preuve que ton ordre n'a pas changé.\n"
        )


@pytest.fixture
def gm(db: str, frozen_clock: object) -> Gm:
    return Gm(db)


def new(gm: Gm, *extra: str) -> Result:
    return gm("new", "magot", "--title", TITLE, "--players", PLAYERS, "--seed", SEED, *extra)


def opened(gm: Gm, *extra: str, deadline: bool = True) -> None:
    """A new campaign with round 1 open on a pot of 45 000 $."""
    new(gm, *extra)
    gm("draw", "--bills", BILLS, *(("--deadline", DEADLINE) if deadline else ()))


def play_round(gm: Gm, orders: dict[str, str], bills: str = BILLS) -> Result:
    """Draw ``bills``, send ``orders`` as free text, reveal, resolve (everyone stays)."""
    gm("draw", "--bills", bills)
    for player, text in orders.items():
        gm("order", player, text)
    gm("reveal", "--force")
    return gm("resolve")


def without(data: dict[str, Any], *keys: str) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k not in keys}


def assert_refused_and_unchanged(
    gm: Gm, args: list[str], reply: str, error: str, now: str | None = None
) -> None:
    """A refused order: exit 1, the French reply, private, on stderr (ending with ``now``,
    what the game waits for from the player, if anything), the error on
    stderr after the reply's header, the refusal logged (privately) and
    nothing else changed."""
    before = gm.status()
    pm_before = gm("pm", args[0]).stdout
    result = gm("order", *args, code=1)
    assert result.stdout == ""  # nothing public: the reply is private
    assert support.private(result) == nb(reply + (f"\n{now}\n" if now else ""))
    header = f"── private reply to {args[0]} · {TITLE} [{SLUG}] ──\n"
    assert support.notes(result) == header + error
    after = gm.status()
    assert after["events"] == before["events"] + 1
    assert without(after, "events") == without(before, "events")
    assert gm("pm", args[0]).stdout == pm_before
    last = gm.history()[-1]
    assert (last["kind"], last["audience"]) == ("gm.submission-rejected", args[0])
    assert last["payload"]["text"] == args[1]


# --- opening a campaign and a round ---------------------------------------------


def test_new_prints_the_opening_post_with_the_players_and_the_seal(gm: Gm) -> None:
    result = new(gm)
    seal = hashlib.sha256(SEED.encode("utf-8")).hexdigest()
    assert result.stdout == nb(
        "# Le Magot — « Le casse du siècle »\n"
        "\n"
        "Le fourgon est vide, le magot est sur la table, et personne n'a rangé son flingue."
        " 4 gangsters, 8 tours au plus, et pas beaucoup de balles.\n"
        "\n"
        "**Joueurs** (dans l'ordre) : fab · marco · lulu · tom\n"
        "\n"
        "**Le magot** : 425 000 $ en 40 billets"
        " (10 × 20 000 $, 15 × 10 000 $, 15 × 5 000 $).\n"
        "\n"
        "**Règles en bref** — chaque tour, 5 billets rejoignent la mise. Envoyez-moi en MP :"
        " sur qui vous braquez votre arme, et avec quoi (BANG BANG BANG ×1, BANG ×2,"
        " CLIC CLIC CLIC ×5 pour toute la partie). Je révèle qui braque qui ; vous choisissez :"
        " rester, ou vous coucher (un point de honte, −5 000 $ à la fin). BANG BANG BANG tire"
        " en premier. Trois blessures, et c'est fini pour vous. Le butin est partagé à parts"
        " égales entre ceux qui restent debout sans blessure, sans faire de monnaie.\n"
        "\n"
        f"**Sceau du hasard** : `sha256:{seal}` — l'empreinte de la graine des tirages,"
        " révélée à la fin de la partie pour que chacun puisse tout vérifier.\n"
        "\n"
        "**Vos graines** — envoyez-moi chacun, en MP ou ici, un mot de votre choix sur une"
        " ligne « graine : votre mot » (lettres et chiffres). Je les publie, et chaque tirage"
        " les mêle à la graine du hasard : comme je me suis engagé sur elle avant de les"
        " connaître, ni moi ni personne ne peut prévoir un tirage. Un tirage fait sans aucune"
        " graine des joueurs le dit.\n"
        "\n"
        f"{gm.footer()}\n"
    ) + gm.proof()
    assert SEED not in result.stdout
    assert result.stderr == (
        "── post 1: opening ──\n"
        f"Campaign '{SLUG}' created and selected. Next: gm draw (opens round 1)\n"
    )
    assert gm("list").stdout == f"* {SLUG}  magot  setup  -  -  {TITLE}\n"


def test_draw_posts_the_pot_and_the_deadline_in_french(gm: Gm) -> None:
    new(gm)
    result = gm("draw", "--bills", BILLS, "--deadline", DEADLINE)
    assert result.stdout == nb(
        "## Tour 1 — la mise\n"
        "\n"
        "Sur la table : **45 000 $**\n"
        "\n"
        "- nouveaux billets : 20 000 · 10 000 · 5 000 · 5 000 · 5 000"
        " (tirés à la main par le MJ)\n"
        "\n"
        "Il reste 35 billets dans le magot (380 000 $).\n"
        "\n"
        f"Ordres en MP avant **{DEADLINE_FR}**. Attendus : fab, marco, lulu et tom.\n"
        "\n"
        f"{gm.footer(1)}\n"
    ) + gm.proof()
    assert result.stderr == (
        "── post 2: round 1 ──\n"
        # created, fortune sealed, opening published; the draw decided, the loot
        # drawn (by hand: no chance drawn), the deadline, the round post published
        "[le-casse-du-siecle] Done (event 7). Awaiting: fab, marco, lulu, tom."
        " Next: gm order (waiting for fab, marco, lulu, tom) or gm reveal --force\n"
    )
    status = gm.status()
    assert (status["phase"], status["pot"], status["deadline"]) == (
        "round-1/orders",
        45000,
        "2026-12-03T20:00:00+01:00",
    )


# --- words for the fortune ----------------------------------------------------------


def fortune_bills(seed: str, label: str, deck: list[int]) -> list[int]:
    """The bills the fortune's stream ``label`` draws, by the published recipe
    (``gm.core.fortune``): block ``i`` is HMAC-SHA256(seed, f"{label}:{i}"); ``below(n)``
    reads ``(k + 7) // 8`` bytes big-endian, keeps the low ``k = (n - 1).bit_length()``
    bits and retries above ``n``; each bill is taken at index ``below(len(rest))``
    of the deck sorted from the largest bill down."""
    import hmac

    stream = b"".join(
        hmac.new(seed.encode(), f"{label}:{i}".encode(), hashlib.sha256).digest() for i in range(16)
    )
    rest, drawn = sorted(deck, reverse=True), []
    while len(drawn) < min(5, len(deck)):
        k = (len(rest) - 1).bit_length()
        size = (k + 7) // 8
        value, stream = int.from_bytes(stream[:size], "big") & ((1 << k) - 1), stream[size:]
        if value < len(rest):
            drawn.append(rest.pop(value))
    return drawn


def test_a_word_alone_is_acknowledged_and_the_round_post_prints_the_draw_with_it(gm: Gm) -> None:
    new(gm)
    reply = gm("order", "marco", "graine : Cadillac")
    assert support.private(reply) == (
        nb(
            "Bien reçu, marco.\n"
            "Ta graine pour le hasard : `Cadillac` — elle sera publiée et mêlée aux prochains"
            " tirages.\n"
        )
    )
    # 3 at the opening; the message and the word, no command
    assert (
        support.notes(reply) == "── private reply to marco · Le casse du siècle [le-casse-du-siecle] ──\n"
        "[le-casse-du-siecle] Recorded (event 5). Nobody else is awaited."
        " Next: gm draw (opens round 1)\n"
    )
    gm("order", "fab", "Graine : tequila")
    post = gm("draw").stdout
    # the words in seating order (fab before marco), as canonical JSON
    pairs = json.dumps([["fab", "tequila"], ["marco", "Cadillac"]], separators=(",", ":"))
    label = "round-1/bills+" + hashlib.sha256(pairs.encode()).hexdigest()[:32]
    assert nb(f"\n- tirage `{label}`, graines : fab `tequila` · marco `Cadillac`\n") in post
    (drawn,) = [e["payload"] for e in gm.history() if e["kind"] == "magot.loot-drawn"]
    deck = [20000] * 10 + [10000] * 15 + [5000] * 15
    assert drawn == {"round": 1, "bills": fortune_bills(SEED, label, deck), "manual": False}
    chance = gm.history()[-2]  # before the round post's commitment
    assert (chance["kind"], chance["payload"]) == (
        "gm.chance-drawn",
        {"purposes": ["round-1/bills"], "words": [["fab", "tequila"], ["marco", "Cadillac"]]},
    )


def test_a_draw_without_any_word_says_so(gm: Gm) -> None:
    new(gm)
    post = gm("draw").stdout
    assert "\n- tirage `round-1/bills`, **tirage sans graine des joueurs**\n" in post
    (drawn,) = [e["payload"] for e in gm.history() if e["kind"] == "magot.loot-drawn"]
    deck = [20000] * 10 + [10000] * 15 + [5000] * 15
    assert drawn["bills"] == fortune_bills(SEED, "round-1/bills", deck)
    assert (
        nb(
            f"- nouveaux billets : {' · '.join(f'{b // 1000} 000' for b in sorted(drawn['bills'], reverse=True))}\n"
        )
        in post
    )


def test_a_word_sent_with_a_choice_is_acknowledged_too(gm: Gm) -> None:
    to_the_reveal(gm)
    reply = gm("order", "lulu", "graine : jazz\nje me couche")
    assert support.private(reply) == (
        nb(
            "C'est noté, lulu : tu te couches au tour 1. Arme baissée, un point de honte, mais"
            " personne ne te tirera dessus.\n"
            "Tu peux encore changer d'avis jusqu'à la résolution.\n"
            "\n"
            "Ta graine pour le hasard : `jazz` — elle sera publiée et mêlée aux prochains tirages.\n"
        )
    )


# --- orders -----------------------------------------------------------------------


def test_an_order_gets_the_french_reply_and_the_mj_sees_who_is_awaited(gm: Gm) -> None:
    opened(gm)
    result = gm("order", "fab", "Je braque mon flingue sur marco (BANG BANG BANG)")
    assert support.private(result) == nb(
        "Ordre reçu pour le tour 1 : tu braques **marco** avec **BANG BANG BANG**.\n"
        f"Tu peux le changer jusqu'à la révélation (avant {DEADLINE_FR}).\n"
        f"{gm.seal_line('fab', 1)}"
        "\n"
        "Après ce tour, il te restera : BANG BANG BANG ×0, BANG ×2, CLIC CLIC CLIC ×5.\n"
        "Tu as 0 $, 0 blessure, 0 point de honte.\n"
    )
    assert support.notes(result) == (
        "── private reply to fab · Le casse du siècle [le-casse-du-siecle] ──\n"
        # 7 after the draw; the message, the command decided, the sealed order
        "[le-casse-du-siecle] Recorded (event 10). Awaiting: marco, lulu, tom."
        " Next: gm order (waiting for marco, lulu, tom) or gm reveal --force\n"
    )
    assert gm.status()["awaiting"] == ["marco", "lulu", "tom"]


def test_a_second_order_replaces_the_first_and_both_stay_in_the_history(gm: Gm) -> None:
    opened(gm)
    gm("order", "fab", "Je braque mon flingue sur marco (BANG BANG BANG)")
    result = gm("order", "fab", "finalement lulu, clic clic clic")
    # the reply says the new order replaced the previous one
    assert support.private(result).startswith(
        nb(
            "Nouvel ordre pour le tour 1, il remplace le précédent : tu braques **lulu** avec"
            " **CLIC CLIC CLIC**."
        )
        + "  \n"
    )
    assert nb("il te restera : BANG BANG BANG ×1, BANG ×2, CLIC CLIC CLIC ×4.") in support.private(result)
    assert gm("pm", "fab").stdout == nb(
        f"**{TITLE} — ta situation, fab** (tour 1)\n"
        "\n"
        "Tu as 0 $, 0 blessure et 0 point de honte.\n"
        "Il te reste : BANG BANG BANG ×1, BANG ×2, CLIC CLIC CLIC ×5.\n"
        "Ton ordre pour ce tour : tu braques **lulu** avec **CLIC CLIC CLIC**.\n"
    )
    orders = [e["payload"] for e in gm.history() if e["kind"] == "magot.order-set"]
    assert [(o["target"], o["option"]) for o in orders] == [
        ("marco", "triple"),
        ("lulu", "click"),
    ]
    assert gm.status()["awaiting"] == ["marco", "lulu", "tom"]


def test_an_order_without_an_option_is_refused_and_changes_nothing(gm: Gm) -> None:
    opened(gm, deadline=False)
    assert_refused_and_unchanged(
        gm,
        ["fab", "marco"],
        reply=(
            "Ordre refusé : tu braques, mais avec quoi ? Précise BANG BANG BANG, BANG ou"
            " CLIC CLIC CLIC dans « marco ».\n"
            "Il te reste : BANG BANG BANG ×1, BANG ×2, CLIC CLIC CLIC ×5.\n"
        ),
        error=(
            "Error: no option in 'marco': add BANG BANG BANG, BANG or CLIC CLIC CLIC"
            " [magot/no-option]\n"
        ),
        now="J'attends ton ordre pour le tour 1.",
    )
    assert gm.status()["awaiting"] == ["fab", "marco", "lulu", "tom"]


def test_an_unknown_name_in_the_text_is_refused_naming_the_targets(gm: Gm) -> None:
    opened(gm, deadline=False)
    assert_refused_and_unchanged(
        gm,
        ["fab", "je braque zorro, BANG"],
        reply=(
            "Ordre refusé : je ne connais personne qui s'appelle « zorro » à cette table."
            " Les cibles possibles : marco, lulu et tom.\n"
        ),
        error=(
            "Error: no player named 'zorro' in 'je braque zorro, BANG'"
            " (targets: marco, lulu, tom) [magot/unknown-player]\n"
        ),
        now="J'attends ton ordre pour le tour 1.",
    )


def test_aiming_at_oneself_is_refused(gm: Gm) -> None:
    opened(gm, deadline=False)
    assert_refused_and_unchanged(
        gm,
        ["marco", "je braque Marco, BANG"],
        reply=(
            "Ordre refusé : tu ne peux pas te braquer toi-même, marco."
            " Les cibles possibles : fab, lulu et tom.\n"
        ),
        error=(
            "Error: marco cannot aim at themself (living targets: fab, lulu, tom)"
            " (order text: 'je braque Marco, BANG') [magot/self-target]\n"
        ),
        now="J'attends ton ordre pour le tour 1.",
    )


def test_two_targets_are_refused(gm: Gm) -> None:
    opened(gm, deadline=False)
    before = gm.status()
    result = gm("order", "fab", "marco et lulu, BANG", code=1)
    assert support.private(result).startswith(
        nb("Ordre refusé : tu ne peux braquer qu'une seule personne, et je lis ")
    )
    assert support.private(result).endswith(
        nb(" dans « marco et lulu, BANG ».\n\nJ'attends ton ordre pour le tour 1.\n")
    )
    assert support.notes(result) == (
        f"── private reply to fab · {TITLE} [{SLUG}] ──\n"
        "Error: two targets in 'marco et lulu, BANG': marco and lulu; aim at one player only"
        " [magot/two-targets]\n"
    )
    assert without(gm.status(), "events") == without(before, "events")


def test_the_two_targets_reply_names_the_two_players(gm: Gm) -> None:
    opened(gm, deadline=False)
    result = gm("order", "fab", "marco et lulu, BANG", code=1)
    assert support.private(result) == nb(
        "Ordre refusé : tu ne peux braquer qu'une seule personne, et je lis marco et lulu"
        " dans « marco et lulu, BANG ».\n"
        "\n"
        "J'attends ton ordre pour le tour 1.\n"
    )


def test_two_options_are_refused(gm: Gm) -> None:
    opened(gm, deadline=False)
    assert_refused_and_unchanged(
        gm,
        ["fab", "marco BANG ou plutôt CLIC CLIC CLIC"],
        reply=(
            "Ordre refusé : une seule arme par tour, et je lis BANG et CLIC CLIC CLIC"
            " dans « marco BANG ou plutôt CLIC CLIC CLIC ».\n"
        ),
        error=(
            "Error: two different options in 'marco BANG ou plutôt CLIC CLIC CLIC'"
            " (BANG and CLIC CLIC CLIC): send only one [magot/two-options]\n"
        ),
        now="J'attends ton ordre pour le tour 1.",
    )


def test_a_spent_option_is_refused_in_a_later_round_saying_what_remains(gm: Gm) -> None:
    new(gm)
    play_round(
        gm,
        {"fab": "marco BBB", "marco": "lulu clic", "lulu": "tom clic", "tom": "lulu clic"},
    )
    gm("draw", "--bills", BILLS)
    assert_refused_and_unchanged(
        gm,
        ["fab", "Je braque mon flingue sur lulu (BANG BANG BANG)"],
        reply=(
            "Ordre refusé : tu n'as plus de BANG BANG BANG.\n"
            "Il te reste : BANG BANG BANG ×0, BANG ×2, CLIC CLIC CLIC ×5.\n"
        ),
        error=(
            "Error: option 'triple' already spent by fab (left: bang ×2, click ×5)"
            " (order text: 'Je braque mon flingue sur lulu (BANG BANG BANG)')"
            " [magot/option-spent]\n"
        ),
        now="J'attends ton ordre pour le tour 2.",
    )
    # what is left still works
    assert support.private(gm("order", "fab", "lulu BANG")).startswith(
        nb("Ordre reçu pour le tour 2 : tu braques **lulu** avec **BANG**.") + "  \n"
    )


def test_an_order_for_someone_not_at_the_table_is_not_found(gm: Gm) -> None:
    opened(gm)
    before = gm.status()
    result = gm("order", "zed", "marco BANG", code=3)
    assert result.stdout == nb("")
    assert result.stderr == (
        f"Error: no player 'zed' in '{SLUG}' (players: fab, marco, lulu, tom) [player/not-found]\n"
    )
    assert gm.status() == before


def test_explicit_options_work_like_free_text(gm: Gm) -> None:
    opened(gm)
    result = gm("order", "tom", "--target", "fab", "--option", "bang")
    assert support.private(result) == nb(
        "Ordre reçu pour le tour 1 : tu braques **fab** avec **BANG**.\n"
        f"Tu peux le changer jusqu'à la révélation (avant {DEADLINE_FR}).\n"
        f"{gm.seal_line('tom', 1)}"
        "\n"
        "Après ce tour, il te restera : BANG BANG BANG ×1, BANG ×1, CLIC CLIC CLIC ×5.\n"
        "Tu as 0 $, 0 blessure, 0 point de honte.\n"
    )
    order = gm.history()[-1]
    assert (order["kind"], order["payload"]["target"], order["payload"]["option"]) == (
        "magot.order-set",
        "fab",
        "bang",
    )


def test_remind_prints_the_public_reminder_and_a_nudge_per_missing_player(gm: Gm) -> None:
    opened(gm)
    gm("order", "fab", "marco BBB")
    gm("order", "tom", "fab bang")
    result = gm("remind")
    # the reminder is public (standard output); each nudge is private
    assert result.stdout == nb(
        f"**{TITLE} — on attend encore quelqu'un**\n"
        "\n"
        "Ordres manquants : **marco et lulu**.\n"
        f"Dernier délai : **{DEADLINE_FR}**. Passé ce délai, le MJ tranche.\n"
        "\n"
        f"{gm.footer()}\n"
    )
    for n, player in enumerate(("marco", "lulu")):
        assert support.private(result, n) == nb(
            f"{player}, il me manque ton ordre pour le tour 1, à m'envoyer avant {DEADLINE_FR}."
            " Dis-moi qui tu braques et avec quoi, par exemple « je braque fab, CLIC CLIC CLIC ».\n"
            "Il te reste : BANG BANG BANG ×1, BANG ×2, CLIC CLIC CLIC ×5.\n"
        )
    assert support.notes(result) == (
        "── public reminder ──\n"
        f"── private message to marco · {TITLE} [{SLUG}] ──\n"
        f"── private message to lulu · {TITLE} [{SLUG}] ──\n"
    )


def test_status_shows_the_phase_the_awaited_players_the_deadline_and_the_table(
    gm: Gm,
) -> None:
    opened(gm)
    gm("order", "fab", "marco BBB")
    out = gm("status").stdout.splitlines()
    assert out[:3] == [
        f"{TITLE} [{SLUG}] — magot",
        "Phase: round-1/orders",
        "Awaiting: marco, lulu, tom",
    ]
    assert out[3] == "Deadline: 2026-12-03T20:00:00+01:00 (2d 7h)"
    assert out[4:] == [
        "",
        "name   alive  wounds  shame  loot  score  rank",
        "fab     true       0      0     0      0     1",
        "marco   true       0      0     0      0     1",
        "lulu    true       0      0     0      0     1",
        "tom     true       0      0     0      0     1",
        "",
        "Next: gm order (waiting for marco, lulu, tom) or gm reveal --force",
    ]


# --- reveal, stay or fold, resolve ---------------------------------------------------

ROUND_ONE = {
    "fab": "Je braque mon flingue sur marco (BANG BANG BANG)",
    "marco": "lulu : clic clic clic",
}


def to_the_reveal(gm: Gm) -> Result:
    """Round 1 with lulu's order missing, revealed with --force."""
    opened(gm)
    for player, text in ROUND_ONE.items():
        gm("order", player, text)
    gm("order", "tom", "--target", "fab", "--option", "bang")
    return gm("reveal", "--force")


def test_reveal_with_a_missing_order_is_refused_until_forced(gm: Gm) -> None:
    opened(gm)
    for player, text in ROUND_ONE.items():
        gm("order", player, text)
    gm("order", "tom", "--target", "fab", "--option", "bang")
    before = gm.status()
    refused = gm("reveal", code=1)
    assert refused.stdout == nb("")
    assert refused.stderr == (
        "Error: no order from lulu: they would aim at nobody and spend nothing (R-3);"
        " wait, or confirm with gm reveal --force [magot/missing-orders]\n"
    )
    assert gm.status() == before

    result = gm("reveal", "--force")
    assert result.stdout == nb(
        "## Tour 1 — les armes sont levées\n"
        "\n"
        "| qui | braque |\n"
        "|---|---|\n"
        "| fab | marco |\n"
        "| marco | lulu |\n"
        "| tom | fab |\n"
        "\n"
        "Sans ordre : lulu — ne braque personne ce tour-ci.\n"
        "\n"
        f"Sceaux des ordres : fab `{gm.seal('fab', 1)}` · marco `{gm.seal('marco', 1)}`"
        f" · tom `{gm.seal('tom', 1)}`\n"
        "\n"
        "Sur la table : **45 000 $**. À vous : **on reste, ou on se couche ?** Dites-le en MP"
        " : qui ne répond pas reste.\n"
        "\n"
        f"{gm.footer(1)}\n"
    ) + gm.proof()
    assert not OPTION_WORD.search(result.stdout)
    assert result.stderr == (
        "── post 3: reveal 1 ──\n"
        # 7 after the draw, 3 per order (16); the reveal decided, done and published
        "[le-casse-du-siecle] Done (event 19). Awaiting: fab, marco, lulu, tom. Next: gm fold / gm stay, or"
        " gm resolve (undecided players stay: fab, marco, lulu, tom)\n"
    )
    assert gm.status()["phase"] == "round-1/standoff"


def test_fold_can_be_changed_until_the_resolution(gm: Gm) -> None:
    to_the_reveal(gm)
    gm("fold", "marco")
    assert gm("pm", "marco").stdout.endswith("Tu as choisi de te coucher.\n")
    gm("stay", "marco")
    assert gm("pm", "marco").stdout.endswith("Tu restes, sauf si tu me dis que tu te couches.\n")
    result = gm("fold", "marco")
    # the MJ recorded marco's choice: the reply to send him, as for a message
    assert support.private(result) == nb(
        "C'est noté, marco : tu te couches au tour 1. Arme baissée, un point de honte,"
        " mais personne ne te tirera dessus.\n"
        "Tu peux encore changer d'avis jusqu'à la résolution.\n"
    )
    # 19 at the reveal, then each choice is a command decided and its event; the
    # whole table stays awaited until the resolution: a fold must not show
    assert support.notes(result).startswith(
        "── private reply to marco · Le casse du siècle [le-casse-du-siecle] ──\n"
        "[le-casse-du-siecle] Done (event 25). Awaiting: fab, marco, lulu, tom."
    )
    assert gm("pm", "marco").stdout.endswith("Tu as choisi de te coucher.\n")
    choices = [
        (e["kind"], e["payload"]["player"])
        for e in gm.history()
        if e["kind"] in ("magot.folded", "magot.stayed")
    ]
    assert choices == [
        ("magot.folded", "marco"),
        ("magot.stayed", "marco"),
        ("magot.folded", "marco"),
    ]
    assert nb("**Se couche** : marco") in gm("resolve").stdout


def expected_results(gm: Gm, proved: bool = True) -> str:
    """The results post of round 1 (``proved``: as published, with its proof)."""
    return (
        nb(
            "## Tour 1 — ça tire\n"
            "\n"
            "**Se couche** : marco — arme baissée, un point de honte, et l'ordre reste secret.\n"
            "\n"
            "- **BANG** — tom sur fab : touché !\n"
            "- fab braquait marco, qui a baissé son arme : pas de tir.\n"
            "\n"
            f"{gm.opened(1, 'tom')}"
            "\n"
            "**Blessures** : fab (1).\n"
            "\n"
            "**Partage** : 2 parts de **20 000 $**.\n"
            "\n"
            "- lulu : 20 000\n"
            "- tom : 10 000 · 5 000 · 5 000\n"
            "\n"
            "Restent sur la table pour le tour suivant : 5 000 (5 000 $).\n"
            "\n"
            "| rang | joueur | butin | blessures | honte | score |\n"
            "|:-:|---|--:|:-:|:-:|--:|\n"
            "| 1 | lulu | 20 000 $ | 0 | 0 | 20 000 $ |\n"
            "| 1 | tom | 20 000 $ | 0 | 0 | 20 000 $ |\n"
            "| 3 | fab | 0 $ | 1 | 0 | 0 $ |\n"
            "| 4 | marco | 0 $ | 0 | 1 | −5 000 $ |\n"
            "\n"
            "_Classement au score (le butin, moins 5 000 $ par point de honte) ; à score égal,"
            " le moins de honte, puis le plus de blessures._\n"
            "\n"
        )
        + (  # the chart keeps plain spaces: it is a code block, aligned by columns
            "    Butin après le tour 1, et tour par tour\n"
            "    lulu           ████████████████████  20 000 $  █\n"
            "    tom            ████████████████████  20 000 $  █\n"
            "    fab                                       0 $  ▁\n"
            "    marco                                     0 $  ▁\n"
            "\n"
        )
        + nb(f"{gm.footer(1)}\n")
        + (gm.proof(kind="results") if proved else "")
    )


def test_resolve_preview_prints_the_results_and_records_nothing(gm: Gm) -> None:
    reveal = to_the_reveal(gm).stdout
    gm("fold", "marco")
    before = gm.status()
    history = gm.history()
    preview = gm("resolve", "--preview")
    # the preview ends with the head as it stands: the footer of the log now
    # (and no proof: nothing is published)
    assert preview.stdout == expected_results(gm, proved=False)
    assert preview.stderr == (
        "── preview: results 1 ──\n[le-casse-du-siecle] Preview, nothing recorded. Next: gm draw (opens round 2)\n"
    )
    assert gm.status() == before
    assert gm.history() == history
    assert gm("post").stdout == reveal
    assert gm("post", "results", "--round", "1", code=3).stderr == (
        f"Error: no results for round 1 in '{SLUG}' (stored: opening, reveal 1, round 1)"
        " [post/not-found]\n"
    )


def test_resolve_posts_the_results_and_post_reprints_them_exactly(gm: Gm) -> None:
    to_the_reveal(gm)
    gm("fold", "marco")
    result = gm("resolve")
    assert result.stdout == expected_results(gm)
    assert not re.search(r"CLIC", result.stdout)  # marco's lowered bluff stays secret
    assert "BANG BANG BANG" not in result.stdout  # fab's held triple too
    assert result.stderr == (
        # 19 at the reveal, 21 after the fold; the resolution decided, done, published
        "── post 4: results 1 ──\n[le-casse-du-siecle] Done (event 24). Next: gm draw (opens round 2)\n"
    )
    gm("draw", "--bills", BILLS)  # later posts do not change the stored one
    again = gm("post", "results", "--round", "1")
    assert again.stdout == result.stdout
    assert again.stderr.startswith(f"[{SLUG}] Post 4: results 1 · sha256:")
    assert gm("post", "results", "1").stdout == result.stdout
    status = gm.status()
    players = {p["name"]: (p["loot"], p["wounds"], p["shame"]) for p in status["players"]}
    assert players == {
        "fab": (0, 1, 0),
        "marco": (0, 0, 1),
        "lulu": (20000, 0, 0),
        "tom": (20000, 0, 0),
    }
    # every locked order spends its option, fired or not
    assert nb("Il te reste : BANG BANG BANG ×0, BANG ×2") in gm("pm", "fab").stdout
    assert nb("CLIC CLIC CLIC ×4") in gm("pm", "marco").stdout
    assert nb("BANG BANG BANG ×1, BANG ×2, CLIC CLIC CLIC ×5") in gm("pm", "lulu").stdout


TABLES = {
    # phpBB 3.3 has no [table]: the default BBCode writes a table as a list
    "bbcode": (
        "[b]qui — braque[/b]\n[list]\n[*]fab — marco\n[*]marco — lulu\n[*]tom — fab\n[/list]\n"
    ),
    # Forumactif has [table][tr][td] (no [th]: headers in bold)
    "forumactif": (
        "[table]\n"
        "[tr][td][b]qui[/b][/td][td][b]braque[/b][/td][/tr]\n"
        "[tr][td]fab[/td][td]marco[/td][/tr]\n"
        "[tr][td]marco[/td][td]lulu[/td][/tr]\n"
        "[tr][td]tom[/td][td]fab[/td][/tr]\n"
        "[/table]\n"
    ),
}


@pytest.mark.parametrize("preset", ["bbcode", "phpbb", "forumactif"])
def test_the_reveal_post_in_bbcode(gm: Gm, preset: str) -> None:
    to_the_reveal(gm)
    head = gm.footer(1).strip("_").removeprefix("Empreinte du registre : ").replace("`", "")
    gm("resolve")
    result = gm("post", "reveal", "--round", "1", "--format", preset)
    table = TABLES["forumactif" if preset == "forumactif" else "bbcode"]
    assert result.stdout == support.typeset(
        "[size=120][b]Tour 1 — les armes sont levées[/b][/size]\n"
        "\n"
        f"{table}"
        "\n"
        "Sans ordre : lulu — ne braque personne ce tour-ci.\n"
        "\n"
        f"Sceaux des ordres : fab {gm.seal('fab', 1)} · marco {gm.seal('marco', 1)}"
        f" · tom {gm.seal('tom', 1)}\n"
        "\n"
        "Sur la table : [b]45 000 $[/b]. À vous : [b]on reste, ou on se couche ?[/b]"
        " Dites-le en MP : qui ne répond pas reste.\n"
        "\n"
        f"[i]Empreinte du registre : {head}[/i]\n",
        breaks=False,
    ) + gm.proof(preset, kind="reveal")
    assert "**" not in result.stdout and "|" not in result.stdout


def test_history_as_a_player_shows_only_their_own_secrets(gm: Gm) -> None:
    to_the_reveal(gm)
    mine = gm.history("--as", "fab")
    kinds = [(e["kind"], e["actor"]) for e in mine]
    assert ("gm.submission-received", "fab") in kinds
    assert ("magot.order-set", "fab") in kinds
    assert ("magot.order-set", "marco") not in kinds
    assert ("magot.order-set", "tom") not in kinds
    assert ("gm.fortune-sealed", "gm") not in kinds
    assert all(e["audience"] in ("*", "fab") for e in mine)
    assert [e["payload"]["option"] for e in mine if e["kind"] == "magot.order-set"] == ["triple"]
    text = json.dumps(mine, ensure_ascii=False)
    assert "clic clic clic" not in text and SEED not in text
    # each command's record is its actor's: fab's own, not marco's; the MJ's
    # only when all it decided is public (the draw), never one with a secret
    assert ("gm.command-decided", "fab") in kinds
    assert ("gm.command-decided", "marco") not in kinds
    mj = [e for e in mine if (e["kind"], e["actor"]) == ("gm.command-decided", "gm")]
    assert mj and all(e["audience"] == "*" for e in mj)
    full = [(e["kind"], e["actor"]) for e in gm.history()]
    assert ("magot.order-set", "marco") in full and ("gm.fortune-sealed", "gm") in full
    assert ("gm.command-decided", "marco") in full and ("gm.command-decided", "gm") in full


def test_history_as_a_player_hides_another_players_pending_fold(gm: Gm) -> None:
    """A fold or a stay is its player's until the results show it: ``gm history
    --as fab`` must not show marco's pending fold, whether the MJ recorded it
    or marco sent it, nor lulu's stay; each player sees their own choice."""
    to_the_reveal(gm)
    posts = gm("post").stderr
    gm("fold", "marco")
    gm("order", "marco", "je me couche")
    gm("order", "lulu", "j'en ai une paire")
    choices = ("magot.folded", "magot.stayed")
    for viewer in ("fab", "tom"):
        seen = gm.history("--as", viewer)
        assert not [e for e in seen if e["kind"] in choices], viewer
        assert all(e["audience"] in ("*", viewer) for e in seen)
        text = json.dumps(seen, ensure_ascii=False)
        assert "couche" not in text and "paire" not in text
    marco = gm.history("--as", "marco")
    assert [e["kind"] for e in marco if e["kind"] in choices] == ["magot.folded"] * 2
    lulu = gm.history("--as", "lulu")
    assert [e["kind"] for e in lulu if e["kind"] in choices] == ["magot.stayed"]
    assert gm("post").stderr == posts  # a choice makes no post: the reveal is still the latest

    # the results make the fold public, in the post and in everyone's history
    results = gm("resolve").stdout
    assert nb("**Se couche** : marco") in results
    resolved = [e for e in gm.history("--as", "fab") if e["kind"] == "magot.round-resolved"]
    assert resolved[0]["payload"]["resolution"]["folded"] == ["marco"]


# --- the end of the game -----------------------------------------------------------


def test_no_disclosure_nor_final_post_before_the_end(gm: Gm) -> None:
    to_the_reveal(gm)
    early = gm("post", "disclosure", code=1)
    assert early.stdout == nb("")
    assert early.stderr == (
        "Error: the orders are disclosed only when the game is over"
        " (now at 'round-1/standoff') [magot/disclosure-early]\n"
    )
    final = gm("post", "final", code=3)
    assert final.stderr == (
        "Error: no final post yet: the game is at 'round-1/standoff' [magot/no-such-post]\n"
    )


def test_a_game_played_to_the_end_reveals_the_seed_and_discloses_every_order(
    gm: Gm,
) -> None:
    new(gm, "-o", "rounds=2")
    first = play_round(
        gm,
        {
            "fab": "marco BBB",
            "marco": "fab BANG",
            "lulu": "tom clic",
            "tom": "fab clic",
        },
    )
    assert SEED not in first.stdout
    gm("draw", "--bills", "20000,20000,10000,10000,5000")
    gm("order", "fab", "lulu clic")
    gm("order", "marco", "tom bang")
    gm("order", "lulu", "marco bang")
    gm("order", "tom", "lulu bang")
    gm("reveal")
    gm("fold", "lulu")
    last = gm("resolve")
    assert last.stderr == (
        "── post 7: results 2 ──\n"
        "── post 8: final ──\n"
        # 3 at the opening; 21 events a round: draw 3, orders 4 × 3, reveal 3, resolve 3;
        # round 2 adds lulu's fold (2), the end of the game and the final post (2)
        "[le-casse-du-siecle] Done (event 49). Next: game over: gm post final (then gm post disclosure)\n"
    )
    results, final = last.stdout.split("\n\n# Le Magot — fin de partie\n")
    assert nb("- **BANG** — marco sur tom : touché !") in results
    assert nb("- fab braquait lulu, qui a baissé son arme : pas de tir.") in results
    assert nb("- tom braquait lulu, qui a baissé son arme : pas de tir.") in results
    assert (
        nb("Restent sur la table, perdus pour tout le monde : 10 000 · 5 000 (15 000 $).\n")
        in results
    )
    assert SEED not in results
    assert final == nb(
        "\n"
        "Après 2 tours, **fab** repart avec le plus gros sac : **45 000 $**.\n"
        "\n"
        "| rang | joueur | butin | honte | score |\n"
        "|:-:|---|--:|:-:|--:|\n"
        "| 1 | fab | 45 000 $ | 0 | 45 000 $ |\n"
        "| 2 | marco | 40 000 $ | 0 | 40 000 $ |\n"
        "| 3 | tom | 5 000 $ | 0 | 5 000 $ |\n"
        "| 4 | lulu | 5 000 $ | 1 | 0 $ |\n"
        "\n"
    ) + (
        "    Butin final, et tour par tour\n"
        "    fab            ████████████████████  45 000 $  ▂█\n"
        "    marco          ██████████████████    40 000 $  ▁▇\n"
        "    tom            ██                     5 000 $  ▂▂\n"
        "    lulu           ██                     5 000 $  ▂▂\n"
    ) + nb(
        "\n"
        "Perdus sur la table : 10 000 · 5 000 (15 000 $).\n"
        "\n"
        f"**Graine du hasard** : `{SEED}` — son empreinte SHA-256 est le sceau publié au début"
        " de la partie ; avec elle, chacun peut refaire chaque tirage et vérifier"
        " qu'aucun n'a été arrangé.\n"
        "\n"
        f"{gm.footer()}\n"
    ) + gm.proof()
    assert hashlib.sha256(SEED.encode()).hexdigest() in gm("post", "opening").stdout

    disclosure = gm("post", "disclosure")
    assert disclosure.stdout == (
        nb(
            "# Le Magot — tous les ordres, enfin dévoilés\n"
            "\n"
            "**Tour 1**\n"
            "\n"
            "| qui | braquait | avec | sort |\n"
            "|---|---|---|---|\n"
            "| fab | marco | BANG BANG BANG | tiré |\n"
            "| marco | fab | BANG | groggy |\n"
            "| lulu | tom | CLIC CLIC CLIC | tiré |\n"
            "| tom | fab | CLIC CLIC CLIC | tiré |\n"
            "\n"
            f"{gm.opened(1, 'fab', 'marco', 'lulu', 'tom')}"
            "\n"
            "**Tour 2**\n"
            "\n"
            "| qui | braquait | avec | sort |\n"
            "|---|---|---|---|\n"
            "| fab | lulu | CLIC CLIC CLIC | cible couchée |\n"
            "| marco | tom | BANG | tiré |\n"
            "| lulu | marco | BANG | arme baissée |\n"
            "| tom | lulu | BANG | cible couchée |\n"
            "\n"
            f"{gm.opened(2, 'fab', 'marco', 'lulu', 'tom')}"
            "\n"
            # rendered on demand after the final post: the head is the final post's
            # commitment, and only its own commitment follows
            f"{gm.footer(posts=1)}\n"
        ) + gm.proof()
    )
    assert disclosure.stderr.startswith(f"[{SLUG}] Post 9: disclosure · sha256:")

    status = gm.status()
    assert (status["phase"], status["finished"], status["winners"]) == ("over", True, ["fab"])
    deck = sum(int(value) * count for value, count in status["deck"].items())
    loot = sum(p["loot"] for p in status["players"])
    assert (loot, status["pot"], deck) == (95000, 15000, 315000)  # 425 000 $ in all
    before = gm.status()
    refused = gm("draw", code=1)
    assert refused.stdout == nb("")
    assert refused.stderr == (
        "Error: the game is over (round 2); magot.draw-loot is no longer possible"
        " [phase/game-over]\n"
    )
    for args in (["reveal", "--force"], ["resolve"], ["fold", "fab"]):
        assert gm(*args, code=1).stderr.endswith("[phase/game-over]\n")
    late = gm("order", "fab", "tom BANG", code=1)
    assert support.private(late) == nb(
        "Ordre refusé : la partie est terminée, plus personne ne tire.\n"
    )
    assert support.notes(late) == (
        f"── private reply to fab · {TITLE} [{SLUG}] ──\n"
        "Error: the game is over: nothing more to send (got 'tom BANG' from fab)"
        " [phase/game-over]\n"
    )
    assert without(gm.status(), "events") == without(before, "events")


def test_the_final_post_prints_the_seed_exactly_as_hashed(gm: Gm) -> None:
    """The seed is printed byte for byte in a code span: a « _ » in it is not
    escaped for Markdown (« la\\_graine » would not hash to the commitment)."""
    seed = "la_graine_du_casse"
    gm("new", "magot", "-t", TITLE, "-p", PLAYERS, "--seed", seed, "-o", "rounds=1")
    gm("draw")
    gm("reveal", "--force")
    final = gm("resolve").stdout.split("\n\n# Le Magot — fin de partie\n")[1]
    (printed,) = re.findall(r"\*\*Graine du hasard\*\*\u00a0: `([^`]*)` — ", final)
    assert printed == seed
    commitment = hashlib.sha256(printed.encode("utf-8")).hexdigest()
    assert nb(f"`sha256:{commitment}`") in gm("post", "opening").stdout


# --- the source's shooting examples ------------------------------------------------


def test_fab_stays_under_one_triple_and_two_bangs_and_dies_in_one_round(gm: Gm) -> None:
    new(gm)
    result = play_round(
        gm,
        {
            "fab": "marco CLIC CLIC CLIC",
            "marco": "Je braque mon flingue sur fab (BANG BANG BANG)",
            "lulu": "fab BANG",
            "tom": "Fab bang",
        },
    )
    assert (
        nb(
            "- **BANG BANG BANG** — marco sur fab : touché !\n"
            "- **BANG** — lulu sur fab : touché !\n"
            "- **BANG** — tom sur fab : touché !\n"
            "- fab, groggy, ne tire pas sur marco.\n"
            "\n"
            f"{gm.opened(1, 'marco', 'lulu', 'tom')}"
            "\n"
            "**Blessures** : fab (3 — **hors-jeu**).\n"
        )
    ) in result.stdout
    assert "CLIC" not in result.stdout  # fab's disabled bluff stays secret
    assert nb("| fab | 0 $ | hors-jeu | 0 |") in result.stdout
    fab = next(p for p in gm.status()["players"] if p["name"] == "fab")
    assert (fab["alive"], fab["wounds"]) == (False, 3)

    # a dead player is out: no more orders from him, none at him
    gm("draw", "--bills", BILLS)
    assert gm.status()["awaiting"] == ["marco", "lulu", "tom"]
    assert_refused_and_unchanged(
        gm,
        ["marco", "fab BANG"],
        reply=(
            "Ordre refusé : fab est déjà hors jeu, on ne tire pas sur un cadavre."
            " Les cibles possibles : lulu et tom.\n"
        ),
        error=(
            "Error: fab is dead and cannot be aimed at (living targets: lulu, tom)"
            " (order text: 'fab BANG') [magot/dead-target]\n"
        ),
        now="J'attends ton ordre pour le tour 2.",
    )
    assert_refused_and_unchanged(
        gm,
        ["fab", "marco clic"],
        reply="Ordre refusé : tu es hors jeu, fab, et les morts ne tirent plus.\n",
        error=(
            "Error: fab is dead (round 1) and sends no more orders"
            " (order text: 'marco clic') [magot/dead-player]\n"
        ),
    )


def test_a_triple_against_a_bang_wounds_only_the_bang(gm: Gm) -> None:
    new(gm)
    result = play_round(
        gm,
        {"fab": "marco BBB", "marco": "fab BANG", "lulu": "tom clic", "tom": "lulu clic"},
    )
    assert (
        nb(
            "- **BANG BANG BANG** — fab sur marco : touché !\n"
            "- **CLIC CLIC CLIC** — lulu sur tom : du bluff !\n"
            "- **CLIC CLIC CLIC** — tom sur lulu : du bluff !\n"
            "- marco, groggy, ne tire pas sur fab.\n"
            "\n"
            f"{gm.opened(1, 'fab', 'lulu', 'tom')}"
            "\n"
            "**Blessures** : marco (1).\n"
        )
    ) in result.stdout
    assert "**BANG** —" not in result.stdout  # marco's disabled BANG stays secret
    wounds = {p["name"]: p["wounds"] for p in gm.status()["players"]}
    assert wounds == {"fab": 0, "marco": 1, "lulu": 0, "tom": 0}


def test_two_triples_at_each_other_wound_both(gm: Gm) -> None:
    new(gm)
    result = play_round(
        gm,
        {
            "fab": "marco BBB",
            "marco": "fab BANG BANG BANG",
            "lulu": "tom clic",
            "tom": "lulu clic",
        },
    )
    assert (
        nb(
            "- **BANG BANG BANG** — fab sur marco : touché !\n"
            "- **BANG BANG BANG** — marco sur fab : touché !\n"
        )
    ) in result.stdout
    assert "sonné" not in result.stdout and "groggy" not in result.stdout
    assert nb("**Blessures** : fab (1), marco (1).\n") in result.stdout
    assert nb("**Partage** : 2 parts de **20 000 $**.\n") in result.stdout


def test_two_bangs_at_each_other_wound_both(gm: Gm) -> None:
    new(gm)
    result = play_round(
        gm,
        {"fab": "marco bang", "marco": "fab BANG", "lulu": "tom clic", "tom": "lulu clic"},
    )
    assert (
        nb("- **BANG** — fab sur marco : touché !\n- **BANG** — marco sur fab : touché !\n")
    ) in result.stdout
    assert nb("**Blessures** : fab (1), marco (1).\n") in result.stdout


def test_order_seals_are_published_at_the_reveal_and_can_be_checked(db: str) -> None:
    """Each player's reply carries the seal of their order; the reveal post lists
    the seals of the orders in force (a replaced order's seal is not shown),
    and each seal is the SHA-256 of the order's kind, payload and salt, printed
    as its first 32 hex digits (128 bits: not grindable)."""
    run = CliRunner().invoke
    assert (
        run(
            cli, ["--db", db, "new", "magot", "-t", "Sceaux", "-p", "fab,marco,lulu", "--seed", "x"]
        ).exit_code
        == 0
    )
    assert run(cli, ["--db", db, "draw"]).exit_code == 0
    replies: list[tuple[str, str]] = []
    for player, text in [
        ("fab", "marco bang"),
        ("marco", "fab clic"),
        ("lulu", "fab clic"),
        ("lulu", "marco clic"),
    ]:
        result = run(cli, ["--db", db, "order", player, text])
        assert result.exit_code == 0
        (seal,) = re.findall(r"Sceau de ton ordre\u00a0: `([0-9a-f]*)`", support.private(result))
        assert len(seal) == 32
        replies.append((player, seal))
    reveal = run(cli, ["--db", db, "reveal"]).stdout
    in_force = dict(replies)  # lulu's second order replaced her first
    line = (
        f"Sceaux des ordres : fab `{in_force['fab']}` · marco `{in_force['marco']}`"
        f" · lulu `{in_force['lulu']}`\n"
    )
    assert nb(line) in reveal
    assert replies[2][1] not in reveal
    events = json.loads(run(cli, ["--db", db, "history", "--json"]).stdout)
    orders = [e for e in events if e["kind"] == "magot.order-set"]
    # A player re-derives their seal from the order and the salt published later.
    resealed = []
    for event in orders:
        text = json.dumps(
            {"kind": event["kind"], "payload": event["payload"], "salt": event["salt"]},
            sort_keys=True,
            separators=(",", ":"),
            ensure_ascii=False,
        )
        digest = hashlib.sha256(text.encode()).hexdigest()
        assert event["seal"] == "sha256:" + digest
        resealed.append((event["payload"]["player"], digest[:32]))
    assert resealed == replies


def test_the_standings_show_the_rank_and_the_score_that_sort_them(db: str) -> None:
    """Issue 28.5: the standings after each round were sorted by score (R-8)
    but showed only the loot, so a richer player listed below a poorer one
    looked like a mistake. Every results post of the example game now shows
    each row's rank and score, and says what sorts them: the score is the
    loot less 5 000 $ a point of shame, the living come first by score, then
    fewer shame points, then more wounds, and the rank follows it."""
    gm = support.Gm(db)
    posts = gm("play", str(ROOT / "campaigns" / "exemple-magot.toml")).stdout
    tables = re.findall(
        r"\| rang \| joueur \| butin \| blessures \| honte \| score \|\n\|:-:\|---\|--:\|:-:\|:-:\|--:\|\n"
        r"((?:\|.*\|\n)+)\n_Classement au score \(le butin, moins 5 000 \$ par point de honte\)"
        r" ; à score égal, le moins de honte, puis le plus de blessures"
        r"(?: ; les morts après les vivants)?\._",
        posts.replace("\u00a0", " ").replace("\u202f", " "),
    )
    assert len(tables) == 8  # one per round
    loot_out_of_order = False
    for table in tables:
        rows = [
            [cell.strip() for cell in line.strip("|").split("|")] for line in table.splitlines()
        ]
        money = [
            [int(cell.replace(" ", "").replace("$", "").replace("−", "-")) for cell in (r[2], r[5])]
            for r in rows
        ]
        alive = [r[0] != "—" for r in rows]
        for (loot, score), row in zip(money, rows, strict=True):
            assert score == loot - 5000 * int(row[4]), row
        # the living first, by score, then fewer shame points, then more wounds
        keys = [
            (a, s, -int(r[4]), 3 if r[3] in ("mort", "morte", "hors-jeu") else int(r[3]))
            for a, (_, s), r in zip(alive, money, rows, strict=True)
        ]
        assert keys == sorted(keys, reverse=True), table
        ranks = [int(r[0]) for r in rows if r[0] != "—"]
        assert ranks == sorted(ranks) and ranks[0] == 1
        loot_out_of_order |= [m[0] for m in money] != sorted((m[0] for m in money), reverse=True)
    # a table where the loot alone would not explain the order (the point of the score)
    assert loot_out_of_order
