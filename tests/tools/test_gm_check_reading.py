"""How tools/gm_check.py reads what it is given: older posts, the seed,
undone posts, the grammar it prints, and any input at all.

* Posts of campaigns played before the 128-bit seals (8 hex digits, Fistful
  payloads by turn, draws labelled ``draw/<n>``) are read, checked as far as
  they can be, and reported: « sceau court (32 bits) : pas une preuve », exit
  3, never 0; a change to them is still a mismatch.
* The seed is checked as printed, byte for byte; a seed printed escaped
  (``la\\_graine``) is said to be, and is not « everything checked ».
* A post the MJ undid (``gm chronicle`` marks it obsolete) is not checked,
  and a seal that changed after it was published is said.
* Whatever the input, the checker answers 0, 1, 2 or 3 and never a traceback.
"""

from __future__ import annotations

import json
import re
import secrets
from pathlib import Path

import pytest
from gmcheck_support import Files, check, plain_spaces, run_tool
from hypothesis import given, settings
from hypothesis import strategies as st
from support import Gm

from gm.core import canonical

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def files(tmp_path: Path) -> Files:
    return Files(tmp_path)


@pytest.fixture(scope="module")
def fistful(tmp_path_factory: pytest.TempPathFactory) -> Gm:
    gm = Gm(str(tmp_path_factory.mktemp("lecture-fistful") / "gm.db"))
    gm("play", str(ROOT / "campaigns" / "exemple-fistful.toml"), "--keep")
    gm("post", "disclosure")
    return gm


def old_card_seal(turn: int, player: str, card: str, salt: str) -> str:
    payload = {"round": turn, "player": player, "card": card}
    return canonical.short(canonical.seal("fistful.card-played", payload, salt), 8)


def test_an_older_fistful_duel_post_is_read_and_its_short_seals_reported(
    fistful: Gm, files: Files
) -> None:
    """A duel post as gm wrote it before 0.2: the turn in its footer, the
    payload ``{round, player, card}``, 8-digit seals."""
    post = plain_spaces(fistful("post", "duel", "1.1").stdout)  # as an older gm wrote it
    turn = next(
        e["payload"]["round"] for e in fistful.history() if e["kind"] == "fistful.duel-resolved"
    )
    salts = {p: secrets.token_hex(16) for p in ("Django", "Sartana")}
    cards = dict(re.findall(r"\*\*(\w+)\*\* (?:joue )?(?:le|la) \*\*(\d|Dynamite) ", post))
    entries = " · ".join(
        f"{p} `{old_card_seal(turn, p, cards[p].lower(), s)}` (sel `{s}`)" for p, s in salts.items()
    )
    old = re.sub(r"^Sceaux ouverts : .*$", f"Sceaux ouverts : {entries}", post, flags=re.M)
    old = old.replace("· manche 1, duel 1_", f"· tour {turn}_")
    code, out = check("post", files(old))
    assert code == 3, out
    assert "sceau court (32 bits) : pas une preuve" in out
    assert "[avant gm 0.2 / before gm 0.2]" in out
    changed = old.replace(f"**Django** joue le **{cards['Django']} ", "**Django** joue le **1 ")
    assert changed != old
    assert check("post", files(changed))[0] == 1


def test_an_older_fistful_disclosure_is_read_by_turn(fistful: Gm, files: Files) -> None:
    """The disclosure of gm before 0.2 named its secrets by turn (« duel 2
    (tour 3) », « Sceaux ouverts (tour 3) »); rebuilt here from the log."""
    history = fistful.history()
    text = plain_spaces(fistful("post", "disclosure").stdout)
    duel_turns = {
        (e["payload"]["manche"], e["payload"]["duel"]): e["payload"]["round"]
        for e in history
        if e["kind"] == "fistful.duel-resolved"
    }
    end_turns = {
        e["payload"]["result"]["manche"]: e["payload"]["round"]
        for e in history
        if e["kind"] == "fistful.manche-ended"
    }
    in_force = {}
    for e in history:
        if e["salt"] and e["kind"].startswith("fistful.") and e.get("seal"):
            p = e["payload"]
            key = (e["kind"], p.get("manche"), p.get("duel"), p["player"])
            in_force[key] = e
    lines, manche = [], 0
    for line in text.split("\n"):
        m = re.match(r"^\*\*Manche (\d+)\*\*$", line)
        if m:
            manche = int(m[1])
        d = re.match(r"^- duel (\d+) : ", line)
        if d:
            line = line.replace(
                f"duel {d[1]} : ", f"duel {d[1]} (tour {duel_turns[(manche, int(d[1]))]}) : "
            )
        if line.startswith("- défausses : "):
            line = line.replace("défausses : ", f"défausses (tour {end_turns[manche]}) : ")
        if line.startswith("**Mise en place** : "):
            line = line.replace("**Mise en place** : ", "**Mise en place** (tour 1) : ")
        if line.startswith("Sceaux ouverts ("):
            title = line[len("Sceaux ouverts (") : line.index(")")]
            entries = []
            for name, _, salt in re.findall(r"(\S+) `([0-9a-f]{32})` \(sel `([0-9a-f]+)`\)", line):
                if title == "mise en place":
                    kind, turn = "fistful.setup-discarded", 1
                    e = in_force[(kind, None, None, name)]
                    payload = {"round": 1, "player": name, "cards": e["payload"]["cards"]}
                elif title.startswith("fin de la manche"):
                    kind, turn = "fistful.end-chosen", end_turns[manche]
                    e = in_force[(kind, manche, None, name)]
                    payload = {"round": turn, "player": name, "choice": e["payload"]["choice"]}
                else:
                    duel = int(title.rpartition(" ")[2])
                    kind, turn = "fistful.card-played", duel_turns[(manche, duel)]
                    e = in_force[(kind, manche, duel, name)]
                    payload = {"round": turn, "player": name, "card": e["payload"]["card"]}
                short = canonical.short(canonical.seal(kind, payload, salt), 8)
                entries.append(f"{name} `{short}` (sel `{salt}`)")
            line = f"Sceaux ouverts (tour {turn}) : " + " · ".join(entries)
        lines.append(line)
    old = "\n".join(lines)
    code, out = check("post", files(old))
    assert code == 3, out
    assert "sceau court (32 bits) : pas une preuve" in out
    assert not re.search(r"^DIFFÉRENT", out, re.M), out
    assert len(re.findall(r"^NON VÉRIFIÉ : .*sceau court", out, re.M)) == len(in_force)
    changed = old.replace(
        "Django **3 rouge** · Sartana **4 vert**", "Django **2 rouge** · Sartana **4 vert**", 1
    )
    assert changed != old
    assert check("post", files(changed))[0] == 1


def test_a_disclosure_of_a_game_begun_before_gm_0_2_is_checked(
    tmp_path: Path, files: Files
) -> None:
    """A game whose secrets gm 0.1 sealed (payloads by turn), disclosed by
    today's gm: each old secret is listed under its duel or end of manche
    with its turn (« manche 1, duel 3, tour 4 avant gm 0.2 »), and the
    checker seals each one again with its version-1 payload. The log is the
    one tests/games/fistful/test_fistful_old_logs.py writes by hand."""
    import sys

    sys.path.insert(0, str(ROOT / "tests" / "games" / "fistful"))
    import test_fistful_old_logs as old_logs

    from gm.service import publishing
    from gm.service.env import Env

    _, document, inputs = old_logs.play("fistful-red-seven-choices.toml")
    env = Env(db=str(tmp_path / "vieux.db"))
    slug = old_logs.store_old_log(env, document, inputs)
    text = publishing.find_post(env, slug, "disclosure", None).body
    assert "tour 4 avant gm 0.2" in text
    code, out = check("post", files(text))
    assert code == 3, out  # the setup, duel and manche posts are not given
    assert not re.search(r"^DIFFÉRENT", out, re.M), out
    assert (
        len(re.findall(r"^OK : .* \[avant gm 0\.2 / before gm 0\.2\]", out, re.M)) == 2 + 2 * 11 + 4
    )
    salt = re.search(r"\(sel `([0-9a-f]{32})`\)", text)
    assert salt is not None
    changed = text.replace(salt[1], salt[1][::-1], 1)
    assert check("post", files(changed))[0] == 1


def test_an_older_round_post_is_read(tmp_path: Path, files: Files) -> None:
    """Round posts before gm 0.2 named the draw ``draw/<n>``: the bills are
    drawn again from it, the label cannot be recomputed (exit 3)."""
    gm = Gm(str(tmp_path / "gm.db"))
    gm(
        "new",
        "magot",
        "-t",
        "Ancien",
        "-p",
        "fab,marco,lulu",
        "--seed",
        "vieille graine",
        "-o",
        "rounds=1",
    )
    gm("draw")
    for player, text in {"fab": "marco clic", "marco": "lulu clic", "lulu": "fab clic"}.items():
        gm("order", player, text)
    gm("reveal")
    gm("resolve")
    opening, final = gm("post", "opening").stdout, gm("post", "final").stdout
    new = plain_spaces(gm("post", "round", "--round", "1").stdout)  # as an older gm wrote it
    # the same bills, as the old stream draw/1 drew them
    from gm.core.fortune import Fortune

    deck = sorted([20000] * 10 + [10000] * 15 + [5000] * 15, reverse=True)
    draw = Fortune("vieille graine", "draw/1")
    bills = sorted((deck.pop(draw.below(len(deck))) for _ in range(5)), reverse=True)
    shown = " · ".join(f"{b:,}".replace(",", "\u00a0") for b in bills)
    old = re.sub(
        r"^- nouveaux billets : .*$",
        f"- nouveaux billets : {shown} (tirage n° 1, `draw/1`)",
        new,
        flags=re.M,
    )
    old = re.sub(r"^- tirage .*\n", "", old, flags=re.M)
    old = re.sub(
        r"Sur la table : \*\*.*\*\*",
        "Sur la table : **" + f"{sum(bills):,}".replace(",", "\u00a0") + "\u00a0$**",
        old,
    )
    old = re.sub(
        r"Il reste 35 billets dans le magot \(.*\)",
        "Il reste 35 billets dans le magot ("
        + f"{sum(deck):,}".replace(",", "\u00a0")
        + "\u00a0$)",
        old,
    )
    code, out = check("thread", files(opening), files(old), files(final))
    assert code == 3, out
    assert "tirage d'avant gm 0.2 (draw/1) : son étiquette n'est pas recalculée" in out
    assert re.search(
        r"^OK : la mise du tour 1 : billets .* retirés de la graine, flux draw/1", out, re.M
    ), out


# --- the seed --------------------------------------------------------------------------


@pytest.mark.parametrize("seed", ["la-graine-secrète", "l'a_gr.ai-ne x", "x_y_z", "Ça 2 fois_"])
def test_the_seed_is_checked_as_printed(tmp_path: Path, files: Files, seed: str) -> None:
    gm = Gm(str(tmp_path / "gm.db"))
    gm("new", "magot", "-t", "Graine", "-p", "fab,marco,lulu", "--seed", seed, "-o", "rounds=1")
    gm("draw")
    for player, text in {"fab": "marco clic", "marco": "lulu clic", "lulu": "fab clic"}.items():
        gm("order", player, text)
    gm("reveal")
    gm("resolve")
    opening = files(gm("post", "opening").stdout)
    for fmt in ("markdown", "bbcode", "html"):  # Le Magot's final post prints it byte for byte
        final = gm("post", "final", "--format", fmt).stdout
        code, out = check("post", files(final), "--opening", opening)
        assert code == 0, out
    # printed escaped (as before the literal filter), it is said, and not « all checked »
    escaped = re.sub(r"([_*\\`])", r"\\\1", seed)
    if escaped != seed:
        final = gm("post", "final").stdout.replace(f"`{seed}`", f"`{escaped}`")
        code, out = check("post", files(final), "--opening", opening)
        assert code == 3 and "la graine est imprimée échappée" in out, out
    # printed exactly, in a code span, it is checked exactly
    exact = re.sub(
        r"\*\*Graine du hasard\*\* : `.*?` —",
        f"**Graine du hasard** : `{seed}` —",
        gm("post", "final").stdout,
    )
    code, out = check("post", files(exact), "--opening", opening)
    assert code == 0, out
    one_off = exact.replace(f"`{seed}`", f"`{seed}.`")
    assert check("post", files(one_off), "--opening", opening)[0] == 1


# --- what was undone --------------------------------------------------------------------


def test_a_post_undone_by_the_mj_is_not_checked_and_a_changed_seal_is_said(
    tmp_path: Path, files: Files
) -> None:
    gm = Gm(str(tmp_path / "gm.db"))
    gm("new", "magot", "-t", "Annulé", "-p", "fab,marco,lulu", "--seed", "graine", "-o", "rounds=1")
    gm("draw")
    for player, text in {"fab": "marco clic", "marco": "lulu clic", "lulu": "fab clic"}.items():
        gm("order", player, text)
    gm("reveal")
    gm("undo")
    gm("order", "fab", "lulu bang")  # an order changed after the reveal was posted
    gm("reveal")
    gm("resolve")
    gm("post", "disclosure")
    code, out = check("thread", files(gm("chronicle").stdout))
    assert code == 3, out
    assert "marqué obsolète (annulé par le MJ)" in out
    assert re.search(
        r"le sceau de fab \([0-9a-f]{32}\) publié dans le message annulé a changé", out
    )
    assert not re.search(r"^DIFFÉRENT", out, re.M)


# --- any input ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> str:
    gm = Gm(str(tmp_path_factory.mktemp("lecture-magot") / "gm.db"))
    gm("play", str(ROOT / "campaigns" / "exemple-magot.toml"), "--keep")
    gm("post", "disclosure")
    return str(gm("chronicle").stdout)


@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_any_edit_of_a_thread_gets_an_answer_never_a_traceback(
    sample: str, data: st.DataObject, tmp_path_factory: pytest.TempPathFactory
) -> None:
    text = sample
    for _ in range(data.draw(st.integers(1, 4))):
        at = data.draw(st.integers(0, len(text)))
        cut = data.draw(st.integers(0, 40))
        insert = data.draw(
            st.sampled_from(
                [
                    "",
                    "\n",
                    "`",
                    "**",
                    "[b]",
                    "<!--",
                    "-->",
                    "|",
                    " · ",
                    "\u200b",
                    "(sel ",
                    "Tour 1 — ça tire\n",
                    "Sceaux ouverts : ",
                    "0" * 32,
                ]
            )
        )
        text = text[:at] + insert + text[at + cut :]
    path = tmp_path_factory.mktemp("edit") / "fil.md"
    path.write_text(text, encoding="utf-8")
    code, out = run_tool("thread", str(path))
    assert code in (0, 1, 2, 3), out
    assert "Traceback" not in out, out


@settings(max_examples=15, deadline=None)
@given(
    text=st.text(max_size=300), fmt=st.sampled_from(["auto", "markdown", "bbcode", "html", "text"])
)
def test_any_text_gets_an_answer_never_a_traceback(
    text: str, fmt: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    path = tmp_path_factory.mktemp("texte") / "t.txt"
    path.write_bytes(text.encode("utf-8", "replace"))  # lone surrogates become « ? »
    for command in ("post", "thread"):
        code, out = run_tool(command, str(path), "--format", fmt)
        assert code in (1, 2, 3) or (code == 0 and text.strip()), out
        assert "Traceback" not in out, out


def test_the_payloads_printed_in_the_fistful_disclosure_are_the_checked_ones(fistful: Gm) -> None:
    """The disclosure tells players the payload's form: the checker uses it."""
    text = fistful("post", "disclosure").stdout
    assert '"payload": {"_v": 2, "manche": …, "duel": …, "player": …' in text
    event = next(e for e in fistful.history() if e["kind"] == "fistful.card-played")
    assert set(event["payload"]) == {"_v", "manche", "duel", "player", "card"}
    assert json.loads(json.dumps(event["payload"]))["_v"] == 2


def test_html_the_parser_gives_up_on_is_unreadable_not_a_traceback(tmp_path: Path) -> None:
    """« <![x]> » makes Python's HTML parser give up (an AssertionError): the
    player gets exit 2 and a sentence, never a traceback."""
    post = tmp_path / "post.html"
    post.write_text("<p>Tour 1 — ça tire <![x]> fin</p>\n", encoding="utf-8")
    code, out = check("thread", str(post), "--format", "html")
    assert code == 2
    assert "Traceback" not in out
