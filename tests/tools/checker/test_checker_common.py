"""The JavaScript port's common checks (tools/checker/checker.js) say what gm_check.py says.

The parts of ``class Checker`` every game shares: openings, the seed and
its commitment, dice rolls (``gm roll``) and their labels, reminders,
changes at the table, footers, given seals (``--seal``), posts missing from
a thread. One random game of Le Magot (rolls and players' words thrown in),
a reminder and a change at the table are cut into threads of those posts
alone, then tampered with line by line (a die changed, a total, a sign, a
kept die, the words of a label, a roll posted twice or missing, a seed
changed, an unknown seal…). Each call runs ``python tools/gm_check.py`` and
``node tools/checker/run.mjs`` (all of them in one Node process): the exit
code and every stdout line must be the same, and each tampered thread must
get the verdict the case names from gm_check.py (so no case is vacuous).

Without ``node`` on PATH this test skips, unless GM_TEST_REQUIRE_BROWSER=1.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from gmcheck_support import FORMS, play_random

ROOT = Path(__file__).resolve().parents[3]
TOOL = ROOT / "tools" / "gm_check.py"
RUNNER = ROOT / "tools" / "checker" / "run.mjs"


@dataclass
class Case:
    name: str
    texts: list[str]
    args: list[str | int]  # an int: the path of texts[i]
    code: int | None = None  # gm_check.py's expected exit code, when the case is a test of it
    says: str = ""  # a line gm_check.py must print (regex)


@pytest.fixture(scope="module")
def node() -> str:
    found = shutil.which("node")
    if found is None:
        if os.environ.get("GM_TEST_REQUIRE_BROWSER") == "1":
            pytest.fail("no node: apt-get install nodejs (GM_TEST_REQUIRE_BROWSER=1)")
        pytest.skip("no node: apt-get install nodejs (the JavaScript port cannot run here)")
    return found


def game_posts(tmp: Path) -> tuple[dict[str, list[str]], str]:
    """The posts of one random Le Magot game, by kind, and its seed."""
    played = play_random("magot", 0, str(tmp / "gm.db"))
    by: dict[str, list[str]] = {}
    for post in played.posts:
        by.setdefault(post.kind, []).append(post.body)
    return by, played.seed


def roster_posts(tmp: Path) -> list[str]:
    """A renaming and a replacement, as gm publishes them."""
    from gm.service import campaigns, roster
    from gm.service.env import Env

    env = Env(db=str(tmp / "roster.db"))
    created = campaigns.create(env, "magot", "Relève", ["ana", "bob", "tom"], seed="s")
    slug = created.campaign.slug
    first = roster.replace_player(env, slug, "ana", "Zoé").notice
    second = roster.replace_player(env, slug, "bob", "Bobby", rename=True).notice
    assert first and second
    opening = next(p.body for p in env.store.posts(slug) if p.kind == "opening")
    return [opening, first, second]


def cases(tmp: Path) -> list[Case]:
    by, seed = game_posts(tmp)
    opening, final, rolls = by["opening"][0], by["final"][0], by["roll"]
    assert len(rolls) >= 3, "the random game must roll dice"
    out: list[Case] = []
    common = [opening, *rolls, final]
    for form, convert in FORMS.items():
        out.append(
            Case(f"common-{form}", ["".join(convert(t) + "\n" for t in common)], ["thread", 0])
        )
    out.append(
        Case("files-seed", [opening, *rolls], ["thread", *range(1 + len(rolls)), "--seed", seed])
    )
    out.append(
        Case(
            "files-bad-seed",
            [opening, *rolls],
            ["thread", *range(1 + len(rolls)), "--seed", seed + "x"],
            1,
        )
    )
    out.append(Case("files-no-seed", [opening, *rolls], ["thread", *range(1 + len(rolls))], 3))
    out.append(Case("rolls-alone", ["\n".join(rolls)], ["thread", 0, "--seed", seed], 3))
    out.append(Case("final-alone", [final], ["thread", 0], 3))
    out.append(Case("opening-post", [opening], ["post", 0], 0))
    out.append(Case("final-post", [final, opening], ["post", 0, "--opening", 1]))
    for i, roll in enumerate(rolls[:3]):
        out.append(
            Case(f"roll{i}-post", [roll, opening], ["post", 0, "--opening", 1, "--seed", seed])
        )
        out.append(
            Case(f"roll{i}-post-unrevealed", [roll, opening], ["post", 0, "--opening", 1], 3)
        )
    wrong = seed[:-1] + ("a" if seed[-1] != "a" else "b")
    out.append(Case("seed-changed", [opening, final.replace(seed, wrong)], ["thread", 0, 1], 1))
    out.append(
        Case(
            "seed-escaped",
            [
                opening,
                final.replace(f"`{seed}`", "`\\" + seed.replace(".", "\\.") + "`"),
            ],
            ["thread", 0, 1],
            None,
            "la graine est imprimée échappée",
        )
    )
    # a reminder and changes at the table: the posts of no game
    reminder = "**Vérif 0 — on attend encore quelqu'un**\n\nDernier appel : vos choix en MP.\n"
    out.append(Case("reminder", [opening, reminder], ["thread", 0, 1]))
    out.append(
        Case(
            "two-reminders",
            [opening + "\n" + reminder + "\n" + reminder.replace("Dernier", "Ultime")],
            ["thread", 0],
        )
    )
    r_opening, *changes = roster_posts(tmp)
    out.append(Case("roster", ["\n".join([r_opening, *changes])], ["thread", 0], 3))
    out.append(Case("roster-post", [changes[0], r_opening], ["post", 0, "--opening", 1]))
    out.append(
        Case(
            "roster-stranger",
            [r_opening, changes[0].replace("de ana", "de lulu")],
            ["thread", 0, 1],
            1,
            "n'est pas un joueur",
        )
    )
    # footers: a place that is not the title's, a short fingerprint, none;
    # lines outside any post, one of them looking like a secret
    first = by["round"][0]
    out.append(
        Case(
            "footer-elsewhere",
            [opening, re.sub(r"· tour \d+_", "· tour 99_", first)],
            ["thread", 0, 1],
            1,
            "le pied dit « tour 99 »",
        )
    )
    out.append(
        Case(
            "footer-short",
            [re.sub(r"`([0-9a-f]{16})[0-9a-f]+`", r"`\1`", first), opening],
            ["post", 0, "--opening", 1],
            None,
            "empreinte du registre courte",
        )
    )
    out.append(
        Case(
            "footer-none",
            [opening, re.sub(r"_Empreinte du registre.*", "", first)],
            ["thread", 0, 1],
            None,
            "pas de ligne « Empreinte du registre »",
        )
    )
    out.append(
        Case(
            "outside",
            [
                "Salut tout le monde !\n\nSceaux des ordres : ana `0123456789abcdef` (sel 0a0b0c0d)\n\n"
                + opening
                + "\nMerci.\n"
            ],
            ["thread", 0],
            1,
            "ressemble à un secret",
        )
    )
    # given seals
    digits = re.findall(r"\b[0-9a-f]{32}\b", "\n".join(common))
    full = "".join(
        t + "\n" for t in by["opening"] + by["round"][:1] + by["reveal"][:1] + by["results"][:1]
    )
    seals = re.findall(r"\b[0-9a-f]{32}\b", full)
    out.append(
        Case(
            "given-seals",
            [full],
            [
                "thread",
                0,
                *[a for s in seals[:3] for a in ("--seal", s)],
                "--seal",
                "abcdef12",
                "--seal",
                "0" * 32,
            ],
        )
    )
    out.append(Case("given-seal-bad", [full], ["thread", 0, "--seal", "xyz"], 2))
    assert digits
    # tampered rolls, each in a thread with the opening and the final post
    roll = (
        next(r for r in rolls if "graines" in r) if any("graines" in r for r in rolls) else rolls[0]
    )
    others = [r for r in rolls if r is not roll]

    def tamper(
        name: str, old: str, new: str, code: int | None = 1, says: str = "", count: int = 1
    ) -> None:
        changed = re.sub(old, new, roll, count=count)
        assert changed != roll, (name, roll)
        out.append(
            Case(f"tamper-{name}", [opening, changed, final], ["thread", 0, 1, 2], code, says)
        )

    tamper("die", r"\[(\d+)", lambda m: f"[{int(m[1]) + 200}", says=r"dés \[.*\] : pas \d*d")  # type: ignore[arg-type]
    tamper("total", r"\*\*(-?\d+)\*\* —", lambda m: f"**{int(m[1]) + 1}** —", says="somme des dés")  # type: ignore[arg-type]
    tamper("label-stream", r"`roll/(\d+)", "`roll/99", says="")
    tamper(
        "mix-short", r"(`roll/\d+\+[0-9a-f]{30})[0-9a-f]{2}`", r"\1`", says="chiffres hexadécimaux"
    )
    tamper("reason", r"\*\*[\xa0 ]:", "** pour « a » : [1] = 1 — tirage x » :", says="ambiguë")
    tamper("unreadable", r" = \*\*", " ≈ **", says="illisible")
    tamper("no-draw", r"— tirage .*[\u202f ];", "— tirage ;", says="")
    tamper(
        "old-format",
        r"— tirage .*[\u202f ]; vérifiable avec la graine du hasard",
        "— tirage n° 7 (draw/7, vérifiable avec la graine)",
        code=None,
    )
    if "graines" in roll:
        tamper("word-changed", r"(graines[\xa0 ]: [^`]*`)[^`]", r"\1Q", says="étiquette recalculée")
        tamper(
            "stranger", r"graines[\xa0 ]: [^`]*`", "graines : lulu `", says="n'est pas un joueur"
        )
        tamper(
            "no-words",
            r", graines[\xa0 ]: .*[\u202f ];",
            ", tirage sans graine des joueurs ;",
            says="aucune graine",
        )
    out.append(
        Case(
            "roll-twice",
            [
                opening,
                roll,
                re.sub(r"\[(\d+)", lambda m: f"[{int(m[1]) % 3 + 1}", roll, count=1),
                final,
            ],
            ["thread", 0, 1, 2, 3],
            1,
        )
    )
    if len(others) >= 2:
        out.append(
            Case(
                "roll-missing",
                [opening, *rolls[:1], *rolls[2:], final],
                ["thread", 0, 1, *range(2, len(rolls)), len(rolls)],
                3,
            )
        )
    # the same number read twice with different draws
    relabelled = re.sub(r"roll/(\d+)", "roll/1", others[0]) if others else roll
    out.append(Case("same-stream", [opening, roll, relabelled, final], ["thread", 0, 1, 2, 3]))
    # a constant and kept dice as the expression says, or not
    out.append(
        Case(
            "dice-kinds",
            [
                opening,
                *[
                    "🎲 **2d6kh1+3** : [4, (2)] + 3 = **7** — tirage `roll/1`, **tirage sans graine des joueurs** ; vérifiable avec la graine du hasard\n",
                    "🎲 **2d6kh1+3** : [(4), 2] + 4 = **6** — tirage `roll/2`, **tirage sans graine des joueurs** ; vérifiable avec la graine du hasard\n",
                    "🎲 **d6-2** : [4] + 2 = **6** — tirage `roll/3`, **tirage sans graine des joueurs** ; vérifiable avec la graine du hasard\n",
                    "🎲 **3d6kl2** : [1, (1), 1] = **2** — tirage `roll/4`, **tirage sans graine des joueurs** ; vérifiable avec la graine du hasard\n",
                    "🎲 **2d6** : [1, 2, 3] = **6** — tirage `roll/5`, **tirage sans graine des joueurs** ; vérifiable avec la graine du hasard\n",
                    "🎲 **2d6** : [1] = **1** — tirage `roll/6+0123`, **tirage sans graine des joueurs** ; vérifiable avec la graine du hasard\n",
                ],
                final,
            ],
            ["thread", *range(8)],
            1,
        )
    )
    return out


def test_the_common_checks_agree_with_gm_check(node: str, tmp_path: Path) -> None:
    todo = cases(tmp_path)
    vectors, expected = [], []
    for n, case in enumerate(todo):
        paths = []
        for i, text in enumerate(case.texts):
            path = tmp_path / f"{n:03d}-{case.name}-{i}.txt"
            path.write_text(text, encoding="utf-8")
            paths.append(str(path))
        args = [paths[a] if isinstance(a, int) else a for a in case.args]
        done = subprocess.run(
            [sys.executable, "-I", "-S", str(TOOL), *args],
            capture_output=True,
            text=True,
            encoding="utf-8",
            check=False,
        )
        expected.append((done.returncode, done.stdout.splitlines()))
        vectors.append(
            {"args": args, "files": {p: Path(p).read_text(encoding="utf-8") for p in paths}}
        )
        if case.code is not None:
            assert done.returncode == case.code, (case.name, done.stdout[-2000:])
        if case.says:
            assert re.search(case.says, done.stdout), (case.name, done.stdout[-2000:])
    batch = tmp_path / "batch.jsonl"
    batch.write_text(
        "".join(json.dumps(v, ensure_ascii=False) + "\n" for v in vectors), encoding="utf-8"
    )
    run = subprocess.run(
        [node, str(RUNNER), "--batch", str(batch)],
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=False,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    results = [json.loads(line) for line in run.stdout.splitlines() if line.strip()]
    assert len(results) == len(todo)
    differ = [
        f"{case.name}: Python {want[0]}, JavaScript {got['code']}\n  "
        + "\n  ".join(
            f"{a!r}\n  {b!r}"
            for a, b in zip(want[1] + ["<none>"], got["stdout"] + ["<none>"], strict=False)
            if a != b
        )[:1500]
        for case, want, got in zip(todo, expected, results, strict=True)
        if (got["code"], got["stdout"]) != want
    ]
    assert not differ, f"{len(differ)} of {len(todo)} calls differ:\n" + "\n".join(differ)
