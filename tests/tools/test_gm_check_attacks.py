"""Posts edited by a dishonest MJ: tools/gm_check.py must never accept them.

Each attack edits honest posts of a real game (Le Magot: the four-player
game where round 1 has a live shot, a disabled order, a held one and a fold;
Fistful of Gold: the README's long duel and the red-seven scenario), in
Markdown and in BBCode, and checks them as a player would, with the posts
they depend on. The checker must exit 1 (a mismatch) and say what and where;
an attack that only removes what a check needs must exit 3 (« not fully
checked »), never 0.

Every attack here was accepted (exit 0) or misread by the checker of b948d7b:
``GM_CHECK_TOOL=/tmp/old_gm_check.py pytest tests/tools/test_gm_check_attacks.py``
(with ``git show b948d7b:tools/gm_check.py > /tmp/old_gm_check.py``) fails them
all. Honest posts of random games pass in tests/tools/test_gm_check_thread.py.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from gmcheck_support import Files, bbcode, check, plain_spaces
from support import Gm

from gm.core import canonical, fortune
from gm.service.env import Env

ROOT = Path(__file__).resolve().parents[2]
FORMATS = ["markdown", "bbcode"]
HEX32 = r"[0-9a-f]{32}"


class Posts:
    """The stored posts of a played game, in any format."""

    def __init__(self, db: str) -> None:
        env = Env(db=db)
        slug = env.store.campaigns()[-1].slug
        self.gm = Gm(db)
        self.posts: dict[tuple[str, tuple[int, ...]], str] = {}
        for post in env.store.posts(slug):
            at = tuple(post.at) or (
                (1 + sum(k == "roll" for k, _ in self.posts),) if post.kind == "roll" else ()
            )
            # The attacks below are written with plain spaces: the MJ's editor types
            # them, and the checker reads a no-break space as a space (honest posts,
            # French spacing and all, pass in test_gm_check_thread.py).
            self.posts[(post.kind, at)] = plain_spaces(post.body)
        self.history = self.gm.history()

    def __call__(self, kind: str, *at: int, fmt: str = "markdown") -> str:
        body = self.posts[(kind, tuple(at))]
        return body if fmt == "markdown" else bbcode(body)

    def salt(self, kind: str, player: str, **keys: int) -> str:
        events = [
            e
            for e in self.history
            if e["kind"] == kind
            and e["payload"]["player"] == player
            and all(e["payload"].get(k) == v for k, v in keys.items())
        ]
        return str(events[-1]["salt"])


@pytest.fixture(scope="module")
def magot(tmp_path_factory: pytest.TempPathFactory) -> Posts:
    gm = Gm(str(tmp_path_factory.mktemp("attaques-magot") / "gm.db"))
    gm(
        "new",
        "magot",
        "-t",
        "Attaques",
        "-p",
        "fab,marco:m,lulu,tom",
        "--seed",
        "graine des attaques",
        "-o",
        "rounds=2",
    )
    gm("order", "fab", "graine : pomme")
    gm("order", "marco", "graine : Poire 2")
    for orders, fold in [
        ({"fab": "marco BBB", "marco": "fab BANG", "lulu": "tom clic", "tom": "lulu bang"}, "tom"),
        (
            {"fab": "lulu clic", "marco": "tom bang", "lulu": "marco bang", "tom": "fab clic"},
            "lulu",
        ),
    ]:
        gm("draw")
        for player, text in orders.items():
            gm("order", player, text)
        gm("reveal")
        gm("roll", "2d6+1", "--reason", "le coffre")
        gm("fold", fold)
        gm("resolve")
    gm("post", "disclosure")
    return Posts(gm.db)


@pytest.fixture(scope="module")
def fistful(tmp_path_factory: pytest.TempPathFactory) -> Posts:
    gm = Gm(str(tmp_path_factory.mktemp("attaques-fistful") / "gm.db"))
    gm("play", str(ROOT / "campaigns" / "exemple-fistful.toml"), "--keep")
    gm("post", "disclosure")
    return Posts(gm.db)


@pytest.fixture(scope="module")
def seven(tmp_path_factory: pytest.TempPathFactory) -> Posts:
    gm = Gm(str(tmp_path_factory.mktemp("attaques-sept") / "gm.db"))
    gm("play", str(ROOT / "tests" / "scenarios" / "fistful-red-seven-choices.toml"), "--keep")
    gm("post", "disclosure")
    return Posts(gm.db)


@pytest.fixture
def files(tmp_path: Path) -> Files:
    return Files(tmp_path)


# --- editing posts in either format --------------------------------------------------


def b(text: str, fmt: str) -> str:
    return f"**{text}**" if fmt == "markdown" else f"[b]{text}[/b]"


def item(text: str, fmt: str) -> str:
    return f"- {text}" if fmt == "markdown" else f"[*]{text}"


def hidden(line: str, fmt: str) -> str:
    """``line`` where a reader cannot see it."""
    return f"<!--\n{line}\n-->" if fmt == "markdown" else f"[color=transparent]{line}[/color]"


def replace_line(text: str, find: str, *new: str) -> str:
    """Replace the one line holding ``find`` by ``new`` lines (none: delete it)."""
    lines = text.split("\n")
    found = [i for i, line in enumerate(lines) if find in line]
    assert len(found) == 1, (find, found, text)
    i = found[0]
    return "\n".join(lines[:i] + list(new) + lines[i + 1 :])


def line_of(text: str, find: str) -> str:
    found = [line for line in text.split("\n") if find in line]
    assert len(found) == 1, (find, text)
    return found[0]


def drop_entry(text: str, player: str, within: str = "") -> str:
    """Remove ``player``'s « NAME seal (sel salt) » entry from its line (the
    one line holding ``within``, if given)."""
    entry = rf"{re.escape(player)} `?{HEX32}`? \(sel `?[0-9a-f]+`?\)"
    lines = text.split("\n")
    count = 0
    for i, line in enumerate(lines):
        if within in line:
            lines[i], n = re.subn(rf"(?<=: ){entry} · | · {entry}(?=\s*$| ·)", "", line)
            count += n
    assert count == 1, (player, within, text)
    return "\n".join(lines)


def expect(code: int, out: str, status: int, *says: str) -> None:
    assert code == status, out
    for what in says:
        assert re.search(what, out), (what, out)


# --- Le Magot: the results ---------------------------------------------------------------


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_salt_entry_deleted_then_its_shot_edited_fails(
    magot: Posts, files: Files, fmt: str
) -> None:
    post = drop_entry(magot("results", 2, fmt=fmt), "marco")
    post = post.replace("marco sur tom", "marco sur fab")
    reveal = files(magot("reveal", 2, fmt=fmt))
    expect(
        *check("post", files(post), "--reveal", reveal),
        1,
        "tir de marco sans son sceau ouvert",
        r"marco braquait tom à la révélation, pas fab",
    )


@pytest.mark.parametrize("fmt", FORMATS)
def test_the_whole_opened_seals_line_deleted_fails(magot: Posts, files: Files, fmt: str) -> None:
    post = replace_line(magot("results", 1, fmt=fmt), "Sceaux ouverts")
    post = post.replace("fab sur marco", "fab sur lulu")
    reveal = files(magot("reveal", 1, fmt=fmt))
    expect(*check("post", files(post), "--reveal", reveal), 1, "tir de fab sans son sceau ouvert")
    # even without the reveal, a shot without its opened seal is a failure
    expect(*check("post", files(post)), 1, "tir de fab sans son sceau ouvert")


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_disabled_order_turned_into_a_shot_fails(magot: Posts, files: Files, fmt: str) -> None:
    post = replace_line(
        magot("results", 1, fmt=fmt),
        "marco, sonné, ne tire pas sur fab.",
        item(f"{b('BANG', fmt)} — marco sur fab : touché !", fmt),
    )
    reveal = files(magot("reveal", 1, fmt=fmt))
    expect(
        *check("post", files(post), "--reveal", reveal),
        1,
        "tir de marco sans son sceau ouvert",
        "marco, touché par un BANG BANG BANG, ne peut pas tirer",
    )


@pytest.mark.parametrize("fmt", FORMATS)
def test_an_invented_shot_fails(magot: Posts, files: Files, fmt: str) -> None:
    text = magot("results", 1, fmt=fmt)
    shot = line_of(text, "fab sur marco")
    post = replace_line(
        text,
        "fab sur marco",
        shot,
        item(f"{b('CLIC CLIC CLIC', fmt)} — tom sur lulu : du bluff !", fmt),
    )
    reveal = files(magot("reveal", 1, fmt=fmt))
    expect(
        *check("post", files(post), "--reveal", reveal),
        1,
        "tir de tom sans son sceau ouvert",
        "deux lignes pour l'ordre de tom|tom s'est couché mais son ordre a une ligne",
    )


@pytest.mark.parametrize("fmt", FORMATS)
def test_an_invented_shot_with_a_seal_of_its_own_is_never_accepted(
    magot: Posts, files: Files, fmt: str
) -> None:
    """lulu's held order shown as a shot, with a salt and a seal made up to
    match: it holds together alone, so the reveal is what catches it."""
    salt = "0" * 32
    forged = canonical.short(
        canonical.seal(
            "magot.order-set",
            {"round": 1, "player": "lulu", "target": "fab", "option": "bang"},
            salt,
        ),
        32,
    )
    code = "`" if fmt == "markdown" else ""
    text = magot("results", 1, fmt=fmt)
    post = replace_line(
        text, "lulu braquait tom", item(f"{b('BANG', fmt)} — lulu sur fab : raté.", fmt)
    )
    post = re.sub(
        r"^(Sceaux ouverts : .*)$",
        rf"\1 · lulu {code}{forged}{code} (sel {code}{salt}{code})",
        post,
        flags=re.M,
    )
    alone = check("post", files(post))
    expect(*alone, 3, "la révélation de ce tour manque")
    reveal = files(magot("reveal", 1, fmt=fmt))
    expect(
        *check("post", files(post), "--reveal", reveal),
        1,
        f"tour 1, lulu : sceau {forged} ≠ {HEX32} publié dans la révélation du tour 1",
        "lulu braquait tom à la révélation, pas fab",
    )


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_true_shot_hidden_above_a_false_one_fails(magot: Posts, files: Files, fmt: str) -> None:
    text = magot("results", 1, fmt=fmt)
    true = line_of(text, "fab sur marco")
    post = replace_line(
        text, "fab sur marco", hidden(true, fmt), true.replace("fab sur marco", "fab sur lulu")
    )
    reveal = files(magot("reveal", 1, fmt=fmt))
    what = "HTML brut ou commentaire" if fmt == "markdown" else r"balise \[color=transparent\]"
    expect(
        *check("post", files(post), "--reveal", reveal), 1, what, "deux lignes pour l'ordre de fab"
    )


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_duplicate_shot_line_fails(magot: Posts, files: Files, fmt: str) -> None:
    """The true line first, a false one after it (« first match wins »)."""
    text = magot("results", 1, fmt=fmt)
    true = line_of(text, "fab sur marco")
    post = replace_line(text, "fab sur marco", true, true.replace("fab sur marco", "fab sur lulu"))
    reveal = files(magot("reveal", 1, fmt=fmt))
    expect(*check("post", files(post), "--reveal", reveal), 1, "deux lignes pour l'ordre de fab")


@pytest.mark.parametrize("fmt", FORMATS)
def test_an_order_of_the_reveal_left_out_of_the_results_fails(
    magot: Posts, files: Files, fmt: str
) -> None:
    post = replace_line(magot("results", 1, fmt=fmt), "lulu braquait tom")
    reveal = files(magot("reveal", 1, fmt=fmt))
    expect(
        *check("post", files(post), "--reveal", reveal),
        1,
        r"l'ordre scellé de lulu \(révélation\) n'est ni tiré, ni baissé, ni retenu, ni sonné",
    )


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_reveal_with_two_seals_for_one_player_fails(magot: Posts, files: Files, fmt: str) -> None:
    """The reveal prints fab's seal twice, the second for a forged order the
    results then open (the old checker kept the last seal it read)."""
    salt = magot.salt("magot.order-set", "fab", round=1)
    true = canonical.short(
        canonical.seal(
            "magot.order-set",
            {"round": 1, "player": "fab", "target": "marco", "option": "triple"},
            salt,
        ),
        32,
    )
    forged = canonical.short(
        canonical.seal(
            "magot.order-set",
            {"round": 1, "player": "fab", "target": "lulu", "option": "triple"},
            salt,
        ),
        32,
    )
    code = "`" if fmt == "markdown" else ""
    reveal = re.sub(
        r"^(Sceaux des ordres : .*)$",
        rf"\1 · fab {code}{forged}{code}",
        magot("reveal", 1, fmt=fmt),
        flags=re.M,
    )
    post = (
        magot("results", 1, fmt=fmt).replace("fab sur marco", "fab sur lulu").replace(true, forged)
    )
    expect(*check("post", files(post), "--reveal", files(reveal)), 1, "sceau en double pour fab")


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_reveal_with_a_seal_but_no_aim_fails(magot: Posts, files: Files, fmt: str) -> None:
    text = magot("reveal", 1, fmt=fmt)
    row = "| lulu | tom |" if fmt == "markdown" else "[tr][td]lulu[/td][td]tom[/td][/tr]"
    reveal = replace_line(text, row)
    post = files(magot("results", 1, fmt=fmt))
    expect(
        *check("post", post, "--reveal", files(reveal)),
        1,
        "sceau de lulu sans visée dans le tableau",
    )


@pytest.mark.parametrize("fmt", FORMATS)
def test_short_seals_of_an_older_post_are_no_proof(magot: Posts, files: Files, fmt: str) -> None:
    """An older post printed 8 hex digits (32 bits): read, reported, exit 3."""

    def shorten(text: str) -> str:  # every seal to 8 digits; salts and fingerprints stay
        seal = r"(?<!sel `)(?<!sel )(?<![0-9a-f])([0-9a-f]{32})(?=`? \(sel|`? ·|`?$)"
        return re.sub(seal, lambda m: m[1][:8], text, flags=re.M)

    post, reveal = shorten(magot("results", 1, fmt=fmt)), shorten(magot("reveal", 1, fmt=fmt))
    assert re.search(r"fab `?[0-9a-f]{8}`? \(sel", post)
    assert re.search(r"lulu `?[0-9a-f]{8}`?(?: ·|$)", reveal, re.M)
    expect(
        *check("post", files(post), "--reveal", files(reveal)),
        3,
        r"sceau court \(32 bits\) : pas une preuve",
    )


@pytest.mark.parametrize("fmt", FORMATS)
def test_results_without_their_reveal_are_not_fully_checked(
    magot: Posts, files: Files, fmt: str
) -> None:
    expect(
        *check("post", files(magot("results", 2, fmt=fmt))), 3, "la révélation de ce tour manque"
    )


# --- Le Magot: the disclosure --------------------------------------------------------------


def disclosure_row(shooter: str, target: str, option: str, fate: str, fmt: str) -> str:
    if fmt == "markdown":
        return f"| {shooter} | {target} | {option} | {fate} |"
    return f"[tr][td]{shooter}[/td][td]{target}[/td][td]{option}[/td][td]{fate}[/td][/tr]"


def reveals(magot: Posts, files: Files, fmt: str) -> list[str]:
    return [
        "--reveal",
        files(magot("reveal", 1, fmt=fmt)),
        "--reveal",
        files(magot("reveal", 2, fmt=fmt)),
    ]


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_disclosure_row_removed_with_its_salt_fails(magot: Posts, files: Files, fmt: str) -> None:
    text = magot("disclosure", fmt=fmt)
    post = replace_line(text, disclosure_row("lulu", "tom", "CLIC CLIC CLIC", "cible couchée", fmt))
    blocks = post.split("Tour 2")
    post = drop_entry(blocks[0], "lulu") + "Tour 2" + blocks[1]
    expect(
        *check("post", files(post), *reveals(magot, files, fmt)),
        1,
        f"tour 1, lulu : sceau {HEX32} publié dans la révélation du tour 1 .*, mais absent du dévoilement",
        "tour 1 : l'ordre de lulu, scellé à la révélation, manque",
    )


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_disclosure_row_removed_without_its_salt_fails(
    magot: Posts, files: Files, fmt: str
) -> None:
    post = replace_line(
        magot("disclosure", fmt=fmt),
        disclosure_row("lulu", "tom", "CLIC CLIC CLIC", "cible couchée", fmt),
    )
    expect(
        *check("post", files(post), *reveals(magot, files, fmt)),
        1,
        "tour 1 : sceau ouvert de lulu sans sa ligne",
    )


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_disclosure_fate_changed_fails(magot: Posts, files: Files, fmt: str) -> None:
    """marco, disabled by fab's triple, shown as having fired: the fate is not
    sealed, but the rules the disclosure shows contradict it."""
    row = disclosure_row("marco", "fab", "BANG", "sonné", fmt)
    post = replace_line(magot("disclosure", fmt=fmt), row, row.replace("sonné", "tiré"))
    expect(
        *check("post", files(post), *reveals(magot, files, fmt)),
        1,
        "marco, touché par un BANG BANG BANG, ne peut pas tirer",
    )
    results = ["--with", files(magot("results", 1, fmt=fmt))]
    expect(
        *check("post", files(post), *reveals(magot, files, fmt), *results),
        1,
        "tour 1 : le sort de l'ordre de marco ne correspond pas aux résultats",
    )


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_disclosure_row_duplicated_fails(magot: Posts, files: Files, fmt: str) -> None:
    """A false row first, then the true one (the old checker kept the last)."""
    row = disclosure_row("fab", "marco", "BANG BANG BANG", "tiré", fmt)
    post = replace_line(
        magot("disclosure", fmt=fmt),
        row,
        row.replace("| marco |", "| lulu |").replace("[td]marco[/td]", "[td]lulu[/td]"),
        row,
    )
    expect(
        *check("post", files(post), *reveals(magot, files, fmt)),
        1,
        "tour 1 : deux lignes pour l'ordre de fab",
    )


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_true_disclosure_row_hidden_under_a_false_one_fails(
    magot: Posts, files: Files, fmt: str
) -> None:
    row = disclosure_row("fab", "marco", "BANG BANG BANG", "tiré", fmt)
    false = row.replace("| marco |", "| lulu |").replace("[td]marco[/td]", "[td]lulu[/td]")
    post = replace_line(magot("disclosure", fmt=fmt), row, false, hidden(row, fmt))
    expect(
        *check("post", files(post), *reveals(magot, files, fmt)), 1, "ce qu'elle montre ou cache"
    )


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_round_removed_from_the_disclosure_fails(magot: Posts, files: Files, fmt: str) -> None:
    text = magot("disclosure", fmt=fmt)
    head, _, rest = text.partition(b("Tour 2", fmt))
    footer = rest[rest.index("Empreinte") - (1 if fmt == "markdown" else 3) :]
    post = head + footer
    expect(
        *check("post", files(post), *reveals(magot, files, fmt)),
        1,
        r"tour 2, \w+ : sceau .* mais absent du dévoilement",
    )


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_disclosure_without_the_reveals_is_not_fully_checked(
    magot: Posts, files: Files, fmt: str
) -> None:
    expect(
        *check("post", files(magot("disclosure", fmt=fmt))),
        3,
        "tour 1 : la révélation manque",
        "tour 2 : la révélation manque",
    )


# --- the seed and the draws ------------------------------------------------------------------


def test_a_final_post_without_the_opening_is_not_fully_checked(magot: Posts, files: Files) -> None:
    expect(*check("post", files(magot("final"))), 3, "graine non comparée au sceau du hasard")


def test_a_forged_seed_fails(magot: Posts, files: Files) -> None:
    post = magot("final").replace("`graine des attaques`", "`graine truquée`")
    expect(
        *check("post", files(post), "--opening", files(magot("opening"))),
        1,
        "SHA-256 de la graine « graine truquée »",
    )


def test_an_opening_with_two_commitments_fails(magot: Posts, files: Files) -> None:
    text = magot("opening")
    line = line_of(text, "Sceau du hasard")
    post = replace_line(
        text,
        "Sceau du hasard",
        line,
        "",
        line.replace(line[line.index("sha256:") + 7 : line.index("sha256:") + 11], "0000"),
    )
    expect(
        *check("post", files(magot("final")), "--opening", files(post)), 1, "deux sceaux du hasard"
    )


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_forged_label_fails(magot: Posts, files: Files, fmt: str) -> None:
    text = magot("round", 1, fmt=fmt)
    label = re.search(r"round-1/bills\+([0-9a-f]{32})", text)
    assert label is not None
    post = text.replace(
        label[1], fortune.mix([("fab", "pomme")])
    )  # marco's word left out of the mix
    expect(
        *check("post", files(post)),
        1,
        r"étiquette recalculée round-1/bills\+[0-9a-f]{32} ≠ publiée",
    )


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_word_changed_or_dropped_in_a_draw_fails(magot: Posts, files: Files, fmt: str) -> None:
    text = magot("round", 1, fmt=fmt)
    changed = text.replace("Poire 2", "Poire 3")
    expect(*check("post", files(changed)), 1, "étiquette recalculée")
    dropped = re.sub(r" · marco `?Poire 2`?", "", text)
    assert dropped != text
    expect(*check("post", files(dropped)), 1, "étiquette recalculée")


def test_a_word_dropped_from_a_later_draw_fails(magot: Posts, files: Files) -> None:
    """The MJ leaves marco's word out of round 2's draw, label and all."""
    text = magot("round", 2)
    label = re.search(r"round-2/bills\+[0-9a-f]{32}", text)
    assert label is not None
    post = re.sub(r" · marco `Poire 2`", "", text).replace(
        label[0], fortune.label_for("round-2/bills", [("fab", "pomme")])
    )
    expect(
        *check("thread", files(magot("round", 1)), files(post)),
        1,
        "la graine de marco, mêlée à la mise du tour 1, a disparu de ce tirage",
    )


def test_bills_not_drawn_from_the_seed_fail(magot: Posts, files: Files) -> None:
    text = magot("round", 1)
    bills = re.search(r"nouveaux billets : ([\d\u00a0 ·]+\d)", text)
    pot = re.search(r"Sur la table : \*\*([\d\u00a0]+\u00a0\$)\*\*", text)
    assert bills and pot
    drawn = [int(x.replace("\u00a0", "")) for x in bills[1].split(" · ")]
    swap = [20000 if x != 20000 else 10000 for x in drawn[:1]] + drawn[1:]
    total = sum(swap)
    forged = text.replace(
        bills[1], " · ".join(f"{x:,}".replace(",", "\u00a0") for x in sorted(swap, reverse=True))
    )
    forged = forged.replace(pot[1], f"{total:,}".replace(",", "\u00a0") + "\u00a0$")
    thread = [files(magot("opening")), files(forged), files(magot("final"))]
    expect(
        *check("thread", *thread), 1, r"avec la graine, le flux round-1/bills\+[0-9a-f]{32} tire"
    )
    # before the end, the bills cannot be drawn again: never 0
    expect(*check("post", files(magot("round", 1))), 3, "la graine n.est pas encore révélée")


@pytest.mark.parametrize("fmt", FORMATS)
def test_dice_not_rolled_from_the_seed_fail(magot: Posts, files: Files, fmt: str) -> None:
    text = magot("roll", 1, fmt=fmt)
    m = re.search(r": \[(\d), (\d)\] \+ 1 = (?:\*\*|\[b\])(\d+)", text)
    assert m is not None
    a = 6 if m[1] != "6" else 5
    bold = "**" if fmt == "markdown" else "[b]"
    forged = text.replace(m[0], f": [{a}, {m[2]}] + 1 = {bold}{a + int(m[2]) + 1}")
    thread = [files(magot("opening", fmt=fmt)), files(forged), files(magot("final", fmt=fmt))]
    expect(*check("thread", *thread), 1, r"avec la graine, le flux roll/1\+[0-9a-f]{32} donne")
    expect(*check("post", files(forged)), 3, "graine pas encore révélée")


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_roll_with_a_forged_label_or_a_wrong_total_fails(
    magot: Posts, files: Files, fmt: str
) -> None:
    text = magot("roll", 1, fmt=fmt)
    label = re.search(r"roll/1\+([0-9a-f]{32})", text)
    assert label is not None
    expect(*check("post", files(text.replace(label[1], "0" * 32))), 1, "étiquette recalculée")
    total = re.search(r"= (?:\*\*|\[b\])(\d+)", text)
    assert total is not None
    expect(
        *check(
            "post",
            files(text.replace(total[0], total[0].replace(total[1], str(int(total[1]) + 1)))),
        ),
        1,
        "≠ somme des dés",
    )


def test_two_rolls_on_one_stream_fail(magot: Posts, files: Files) -> None:
    """The MJ rolls again and posts both as roll/1 (fishing for a better roll)."""
    text = magot("roll", 1)
    m = re.search(r": \[(\d), (\d)\] \+ 1 = \*\*(\d+)\*\*", text)
    assert m is not None
    other = (
        text.replace(m[0], f": [{m[2]}, {m[1]}] + 1 = **{m[3]}**")
        if m[1] != m[2]
        else text.replace(m[0], ": [1, 1] + 1 = **3**")
    )
    expect(
        *check("thread", files(text), files(other)),
        1,
        "deux messages différents pour le jet roll/1",
    )


# --- Fistful of Gold -----------------------------------------------------------------------


def card_line(text: str) -> str:
    return line_of(text, " joue l")


def swap_card(line: str, player: str) -> str:
    """``line`` with ``player``'s card replaced by another."""
    m = re.search(
        rf"{re.escape(player)}(?:\*\*|\[/b\])? (?:joue )?(?:le|la) (?:\*\*|\[b\])(\d|Dynamite) ",
        line,
    )
    assert m is not None, (player, line)
    other = "1" if m[1] != "1" else "2"
    return line.replace(
        m[0],
        m[0]
        .replace(f"{m[1]} ", f"{other} ")
        .replace("Dynamite ", f"{other} ")
        .replace("la ", "le "),
    )


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_duel_salt_entry_deleted_then_its_card_changed_fails(
    fistful: Posts, files: Files, fmt: str
) -> None:
    text = fistful("duel", 1, 1, fmt=fmt)
    post = drop_entry(text, "Sartana")
    post = replace_line(post, " joue l", swap_card(card_line(post), "Sartana"))
    expect(
        *check("post", files(post)),
        1,
        r"le duel 1 de la manche 1 \(.*\) : carte de Sartana sans son sceau ouvert",
    )


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_duel_without_its_opened_seals_line_fails(fistful: Posts, files: Files, fmt: str) -> None:
    text = fistful("duel", 1, 1, fmt=fmt)
    post = replace_line(text, "Sceaux ouverts")
    post = replace_line(post, " joue l", swap_card(card_line(post), "Django"))
    expect(*check("post", files(post)), 1, "cartes montrées sans « Sceaux ouverts »")


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_true_card_line_hidden_above_a_false_one_fails(
    fistful: Posts, files: Files, fmt: str
) -> None:
    text = fistful("duel", 1, 1, fmt=fmt)
    true = card_line(text)
    post = replace_line(text, " joue l", hidden(true, fmt), swap_card(true, "Django"))
    expect(*check("post", files(post)), 1, "ce qu'elle montre ou cache", "deux lignes de cartes")


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_duplicate_card_line_fails(fistful: Posts, files: Files, fmt: str) -> None:
    text = fistful("duel", 1, 1, fmt=fmt)
    true = card_line(text)
    post = replace_line(text, " joue l", true, swap_card(true, "Django"))
    expect(*check("post", files(post)), 1, "deux lignes de cartes")


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_final_duel_card_changed_with_its_salt_removed_fails(
    seven: Posts, files: Files, fmt: str
) -> None:
    """Manche 1 of the red-seven scenario: bob's one discard, shown in the
    final duel, is opened there; hiding its salt to change the card fails."""
    text = seven("manche", 1, fmt=fmt)
    post = replace_line(text, "Sceaux ouverts")
    post = replace_line(post, " joue l", swap_card(card_line(post), "bob"))
    expect(
        *check("post", files(post)),
        1,
        r"le choix de bob \(une défausse, montrée à l'ultime duel\) n'est pas ouvert",
    )


def fistful_thread(posts: Posts, files: Files, fmt: str) -> list[str]:
    return [
        files(body if fmt == "markdown" else bbcode(body))
        for (kind, _), body in posts.posts.items()
        if kind != "disclosure"
    ]


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_duel_removed_from_the_fistful_disclosure_fails(
    fistful: Posts, files: Files, fmt: str
) -> None:
    text = fistful("disclosure", fmt=fmt)
    post = replace_line(text, "duel 2 : Django " + b("6 rouge", fmt))
    post = replace_line(post, "Sceaux ouverts (manche 1, duel 2)")
    expect(*check("post", files(post)), 1, "manche 1 : duels pas numérotés de 1 à 5")
    # the last duel of a manche: the duel post, given, shows it was played
    last = replace_line(replace_line(text, "duel 6 : Django"), "Sceaux ouverts (manche 1, duel 6)")
    expect(
        *check("thread", *fistful_thread(fistful, files, fmt), files(last)),
        1,
        r"manche 1, duel 6, Django : sceau [0-9a-f]{32} publié dans le duel 6 de la manche 1 .*, mais absent du dévoilement",
    )


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_fistful_disclosure_line_duplicated_fails(fistful: Posts, files: Files, fmt: str) -> None:
    text = fistful("disclosure", fmt=fmt)
    true = line_of(text, "duel 3 : Django " + b("5 rouge", fmt))
    post = replace_line(text, true, true.replace("5 rouge", "2 rouge"), true)
    expect(*check("post", files(post)), 1, "duel 3 en double")


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_chosen_discard_shown_without_its_salt_fails(
    fistful: Posts, files: Files, fmt: str
) -> None:
    text = fistful("disclosure", fmt=fmt)
    post = replace_line(text, "Sceaux ouverts (fin de la manche 1)")
    post = post.replace(
        "Sartana **1 vert** et **5 vert** (au choix)", "Sartana **2 vert** et **5 vert** (au choix)"
    )
    post = post.replace(
        "Sartana [b]1 vert[/b] et [b]5 vert[/b] (au choix)",
        "Sartana [b]2 vert[/b] et [b]5 vert[/b] (au choix)",
    )
    expect(
        *check("post", files(post)), 1, "fin de la manche 1, Sartana : montré sans son sceau ouvert"
    )
    expect(
        *check("thread", *fistful_thread(fistful, files, fmt), files(post)),
        1,
        r"fin de la manche 1, Sartana : sceau [0-9a-f]{32} publié dans le compte de la manche 1 .*, mais absent du dévoilement",
    )


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_setup_discard_changed_with_its_salt_removed_fails(
    fistful: Posts, files: Files, fmt: str
) -> None:
    text = fistful("disclosure", fmt=fmt)
    post = drop_entry(text, "Django", "(mise en place)")
    post = post.replace(
        "le **1 rouge** et le **2 rouge**", "le **3 rouge** et le **2 rouge**"
    ).replace("le [b]1 rouge[/b] et le [b]2 rouge[/b]", "le [b]3 rouge[/b] et le [b]2 rouge[/b]")
    expect(*check("post", files(post)), 1, "mise en place, Django : montré sans son sceau ouvert")


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_fistful_disclosure_alone_is_not_fully_checked(
    fistful: Posts, files: Files, fmt: str
) -> None:
    expect(
        *check("post", files(fistful("disclosure", fmt=fmt))),
        3,
        "la mise en place manque",
        "le message du duel 1 de la manche 1 manque",
    )
    expect(
        *check(
            "thread", *fistful_thread(fistful, files, fmt), files(fistful("disclosure", fmt=fmt))
        ),
        0,
    )


def test_a_fistful_card_against_the_players_private_seal(fistful: Posts, files: Files) -> None:
    """--seal: the seal of a player's private reply must be the one published."""
    text = fistful("duel", 1, 1)
    mine = re.search(rf"Django `({HEX32})`", text)
    assert mine is not None
    expect(
        *check("post", files(text), "--seal", mine[1]),
        0,
        f"ton sceau {mine[1]} est celui publié pour manche 1, duel 1, Django",
    )
    forged = replace_line(text, " joue l", swap_card(card_line(text), "Django"))
    salt = fistful.salt("fistful.card-played", "Django", manche=1, duel=1)
    card = re.search(r"Django\*\* joue le \*\*(\d)", forged)
    assert card is not None
    resealed = canonical.short(
        canonical.seal(
            "fistful.card-played",
            {"_v": 2, "manche": 1, "duel": 1, "player": "Django", "card": card[1]},
            salt,
        ),
        32,
    )
    forged = forged.replace(mine[1], resealed)
    expect(*check("post", files(forged)), 0)  # it holds together: only Django's reply tells
    expect(
        *check("post", files(forged), "--seal", mine[1]),
        1,
        f"ton sceau {mine[1]} n'apparaît dans aucun des messages donnés",
    )


# --- markup that hides text -------------------------------------------------------------------

HIDERS: dict[str, list[Callable[[str], str]]] = {
    "markdown": [
        lambda line: f"<!-- {line} -->",
        lambda line: f'<span style="display:none">{line}</span>',
        lambda line: f"<details>{line}</details>",
        lambda line: f'[//]: # "{line}"',
        lambda line: f"[spoiler]{line}[/spoiler]",
        lambda line: f"~~{line}~~",
        lambda line: line.replace("fab", "f\u200bab", 1),
        lambda line: line.replace("fab", "\u202efab", 1),
        lambda line: line.replace("fab", "f&#97;b", 1),
    ],
    "bbcode": [
        lambda line: f"[color=transparent]{line}[/color]",
        lambda line: f"[color=#ffffff]{line}[/color]",
        lambda line: f"[size=1]{line}[/size]",
        lambda line: f"[size=0]{line}[/size]",
        lambda line: f"[spoiler]{line}[/spoiler]",
        lambda line: f"[hide]{line}[/hide]",
        lambda line: f"[url=https://x.invalid]{line}[/url]",
        lambda line: f"[s]{line}[/s]",
        lambda line: line.replace("fab", "f\u200bab", 1),
    ],
    "html": [
        lambda line: f"<!-- {line} -->",
        lambda line: f'<p style="color:transparent">{line}</p>',
        lambda line: f'<span hidden="">{line}</span>',
        lambda line: f"<details><summary>x</summary>{line}</details>",
        lambda line: f'<p class="hidden">{line}</p>',
    ],
    "text": [
        lambda line: f"[color=transparent]{line}[/color]",
        # (not U+2060 WORD JOINER: gm itself puts it into names, and the checker drops it)
        lambda line: line.replace("fab", "fa\u200db", 1),
    ],
}


@pytest.mark.parametrize(
    ("fmt", "hider"), [(f, i) for f, hs in HIDERS.items() for i in range(len(hs))]
)
def test_markup_that_hides_text_is_a_failure(
    magot: Posts, files: Files, fmt: str, hider: int
) -> None:
    from gmcheck_support import FORMS

    body = magot("results", 1)
    text = FORMS[fmt](body)
    shot = line_of(text, "fab sur marco")
    post = text.replace(shot, HIDERS[fmt][hider](shot) + "\n" + shot, 1)
    reveal = files(FORMS[fmt](magot("reveal", 1)))
    code, out = check("post", files(post), "--reveal", reveal)
    assert code == 1, out
    assert re.search(r"ce qu'elle montre ou cache|caractère invisible", out), out
