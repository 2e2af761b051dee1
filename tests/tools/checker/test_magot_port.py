"""Le Magot's checks in the browser checker say what gm_check.py says.

tools/checker/magot.js ports Le Magot's methods of gm_check.py's ``Checker``
(the round's draw, the reveal, the results, the final ranking, the
disclosure, and ``check_magot`` that holds them together). Random whole
games (tests/tools/gmcheck_support.py ``play_random``) are checked by both,
as every kind of forum shows them (Markdown, BBCode, HTML, a browser's plain
copy, the chronicle), whole, with a post missing, post by post; then posts a
dishonest MJ edited (a seal, a salt, a bill, a fate, a shot, a label, the
seed…): the port must print the same lines and exit with the same code, and
an edited thread must never pass.

Python runs in this process (``gm_check.run``, stdout captured), Node once
for all the calls of a test (``run.mjs --batch``, files given as text).
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import json
import os
import random
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest
from tools.gmcheck_support import FORMS, Played, plain_spaces, play_random

from gm.service import chronicle

ROOT = Path(__file__).resolve().parents[3]
RUNNER = ROOT / "tools" / "checker" / "run.mjs"
SEEDS = (0, 2)  # seed 2's game has an underscore in its seed

if shutil.which("node") is None:  # CI's browser step (GM_TEST_REQUIRE_BROWSER=1) must have it
    if os.environ.get("GM_TEST_REQUIRE_BROWSER") == "1":
        raise RuntimeError("no node: apt-get install nodejs (GM_TEST_REQUIRE_BROWSER=1)")
    pytest.skip("no node: apt-get install nodejs", allow_module_level=True)


def gm_check() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "gm_check_reference", ROOT / "tools" / "gm_check.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


REFERENCE = gm_check()


def python(args: list[str], files: dict[str, str], tmp: Path) -> tuple[int, str]:
    """gm_check.py's exit code and stdout, the files written under ``tmp``."""
    real = []
    for a in args:
        if a in files:
            path = tmp / a
            path.write_text(files[a], encoding="utf-8")
            real.append(str(path))
        else:
            real.append(a)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = REFERENCE.run(real)
    return code, out.getvalue().replace(str(tmp) + "/", "")


def node(calls: list[tuple[list[str], dict[str, str]]]) -> list[tuple[int, str]]:
    """The port's exit code and stdout for each call, in one Node process."""
    vectors = "".join(json.dumps({"args": a, "files": f}) + "\n" for a, f in calls)
    done = subprocess.run(
        ["node", str(RUNNER), "--batch", "/dev/stdin"],
        input=vectors,
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=True,
    )
    results = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(results) == len(calls), done.stderr
    return [(r["code"], "".join(line + "\n" for line in r["stdout"])) for r in results]


def agree(calls: list[tuple[list[str], dict[str, str]]], tmp: Path) -> list[tuple[int, str]]:
    """Both tools on every call; they must print the same lines and exit alike."""
    ported = node(calls)
    expected = [python(a, f, tmp) for a, f in calls]
    for (args, _), want, got in zip(calls, expected, ported, strict=True):
        assert got == want, (args, want[1], got[1])
    return expected


@pytest.fixture(scope="module", params=SEEDS, ids=lambda s: f"magot-{s}")
def played(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Played:
    seed = request.param
    db = tmp_path_factory.mktemp(f"port-magot-{seed}") / "gm.db"
    return play_random("magot", seed, str(db), underscore_seed=seed == 2)


def joined(bodies: list[str], form: str = "markdown") -> str:
    return "".join(FORMS[form](b) + "\n" for b in bodies)


def test_honest_threads_agree_in_every_form(played: Played, tmp_path: Path) -> None:
    bodies = played.bodies()
    calls = [(["thread", f"{form}.txt"], {f"{form}.txt": joined(bodies, form)}) for form in FORMS]
    for fmt in ("markdown", "html"):
        text = chronicle.chronicle(played.env, played.slug, fmt)[0]
        calls.append((["thread", f"chronicle.{fmt}"], {f"chronicle.{fmt}": text}))
    files = {f"m{i:03d}.txt": b for i, b in enumerate(bodies)}
    names = list(files)
    random.Random(1).shuffle(names)
    calls.append((["thread", *names], files))
    results = agree(calls, tmp_path)
    assert all(code == 0 for code, _ in results), results


def test_threads_with_a_post_missing_agree(played: Played, tmp_path: Path) -> None:
    posts = played.posts
    rounds = [i for i, p in enumerate(posts) if p.kind in ("round", "reveal", "results")]
    gone = {len(posts) - 1, next(i for i, p in enumerate(posts) if p.kind == "final")}
    gone |= set(random.Random(2).sample(rounds, 4))
    calls = []
    for n in sorted(gone):
        text = "".join(p.body + "\n" for i, p in enumerate(posts) if i != n)
        calls.append((["thread", f"sans-{n}.txt"], {f"sans-{n}.txt": text}))
    under_way = "".join(p.body + "\n" for p in posts if p.kind not in ("final", "disclosure"))
    calls.append((["thread", "en-cours.txt"], {"en-cours.txt": under_way}))
    results = agree(calls, tmp_path)
    assert all(code == 3 for code, _ in results), results


def test_each_post_checked_alone_agrees(played: Played, tmp_path: Path) -> None:
    """``post``: one post, the others as references (``--with``, ``--reveal``,
    ``--opening``), or none; with the seed given, and a player's own seal."""
    posts = played.posts
    files = {f"m{i:03d}.txt": p.body for i, p in enumerate(posts)}
    names = list(files)
    of = {(p.kind, tuple(p.at)): names[i] for i, p in enumerate(posts)}
    opening = ["--opening", of[("opening", ())]]
    calls = []
    for i, post in enumerate(posts):
        if post.kind not in ("round", "reveal", "results", "final", "disclosure", "opening"):
            continue
        others = [x for n in names if n != names[i] for x in ("--with", n)]
        calls.append((["post", names[i]], files))
        calls.append((["post", names[i], *others], files))
        calls.append((["post", names[i], *opening, "--seed", played.seed], files))
        if post.kind == "results":
            reveal = of.get(("reveal", tuple(post.at)))
            calls.append((["post", names[i], *(["--reveal", reveal] if reveal else [])], files))
        if post.kind == "disclosure":
            reveals = [x for (k, _), n in of.items() if k == "reveal" for x in ("--reveal", n)]
            calls.append((["post", names[i], *reveals, *opening], files))
            seal = re.search(r"Sceaux ouverts : [^`]*`([0-9a-f]{32})`", post.body)
            if seal:
                for given in (seal[1], seal[1][:8], "0" * 32):
                    calls.append((["post", names[i], *reveals, "--seal", given], files))
    agree(calls, tmp_path)


# --- a dishonest MJ's edits ----------------------------------------------------------

Edit = Callable[[list[str]], "list[str] | None"]


def edit_first(kind: str, pattern: str, change: Callable[[re.Match[str]], str]) -> Edit:
    """Change the first match of ``pattern`` in the first post titled like ``kind``."""

    def edit(bodies: list[str]) -> list[str] | None:
        for i, body in enumerate(bodies):
            if not re.search(kind, body.splitlines()[0]):
                continue
            m = re.search(pattern, body, re.M)
            if m is None:
                continue
            out = list(bodies)
            out[i] = body[: m.start()] + change(m) + body[m.end() :]
            return out
        return None

    return edit


def flip(digit: str) -> str:
    return "0" if digit != "0" else "1"


def drop_post(kind: str) -> Edit:
    """Remove the reveal of a round whose results open a seal."""

    def edit(bodies: list[str]) -> list[str] | None:
        for body in bodies:
            m = re.match(r"## Tour (\d+) — ça tire", body)
            if m and "Sceaux ouverts" in body:
                head = f"## Tour {m[1]} — {kind}"
                return [b for b in bodies if not b.startswith(head)]
        return None

    return edit


EDITS: dict[str, tuple[Edit, int]] = {
    # (edit, the exit code gm_check.py gives)
    "results: an opened seal's line deleted": (
        edit_first("ça tire", r"^Sceaux ouverts : .*\n", lambda m: ""),
        1,
    ),
    "reveal: a digit of an order's seal": (
        edit_first("les armes", r"(Sceaux des ordres : [^`]*`)(.)", lambda m: m[1] + flip(m[2])),
        1,
    ),
    "results: a digit of a salt": (
        edit_first("ça tire", r"(\(sel `)(.)", lambda m: m[1] + flip(m[2])),
        1,
    ),
    "results: a shot line twice": (
        edit_first("ça tire", r"^- \*\*(?:BANG|CLIC).*\n", lambda m: m[0] + m[0]),
        1,
    ),
    "results: a bluff made a hit": (
        edit_first("ça tire", r"du bluff !", lambda m: "touché !"),
        1,
    ),
    "results: a shot at oneself": (
        edit_first(
            "ça tire", r"(\*\* — )(.+?) sur (.+?) :", lambda m: f"{m[1]}{m[2]} sur {m[2]} :"
        ),
        1,
    ),
    "round: a bill changed": (
        edit_first(
            "la mise",
            r"(nouveaux billets : )(\d+)",
            lambda m: m[1] + ("5" if m[2] != "5" else "10"),
        ),
        1,
    ),
    "round: the bills left": (
        edit_first("la mise", r"Il reste (\d+)", lambda m: f"Il reste {int(m[1]) + 1}"),
        1,
    ),
    "round: a digit of the label's mix": (
        edit_first("la mise", r"(tirage `round-\d+/bills\+)(.)", lambda m: m[1] + flip(m[2])),
        1,
    ),
    "final: the seed": (
        edit_first(
            "— fin de partie$", r"(Graine du hasard\*\* : `)(.)", lambda m: m[1] + flip(m[2])
        ),
        1,
    ),
    "disclosure: a fate": (
        edit_first(
            "enfin dévoilés$", r"\| (tiré|arme baissée|cible couchée) \|$", lambda m: "| sonné |"
        ),
        1,
    ),
    "disclosure: a row dropped": (
        edit_first(
            "enfin dévoilés$", r"^\| (?!qui \|)(?!---).* \| (?:BANG|CLIC).*\n", lambda m: ""
        ),
        1,
    ),
    "disclosure: a target": (
        edit_first(
            "enfin dévoilés$",
            r"^\| (?!qui \|)([^|]+) \| ([^|]+) \|",
            lambda m: f"| {m[1]} | {m[1]} |",
        ),
        1,
    ),
    "disclosure: a round's title": (
        edit_first(
            "enfin dévoilés$",
            r"^### Tour 1$|^Tour 1$|^\*\*Tour 1\*\*$",
            lambda m: m[0].replace("1", "9"),
        ),
        1,
    ),
    "a reveal missing": (drop_post("les armes sont levées"), 3),
}


ALWAYS = {
    "round: a bill changed",
    "round: the bills left",
    "final: the seed",
    "disclosure: a round's title",
    "disclosure: a target",
}
"""Edits every game allows (the others need a shot, a bluff, a label with words…)."""


def test_edited_threads_agree_and_fail(played: Played, tmp_path: Path) -> None:
    bodies = [plain_spaces(b) for b in played.bodies()]
    calls, codes = [], []
    for name, (edit, code) in EDITS.items():
        edited = edit(bodies)
        if edited is None:  # this game has no such line (no shot, no bluff…)
            continue
        for form in ("markdown", "bbcode"):
            calls.append((["thread", "fil.txt"], {"fil.txt": joined(edited, form)}))
            codes.append((name, form, code))
    results = agree(calls, tmp_path)
    for (name, form, code), (got, out) in zip(codes, results, strict=True):
        assert got == code, (name, form, out)
    applied = {name for name, _, _ in codes}
    assert not ALWAYS - applied, ALWAYS - applied
    assert len(applied) >= 10, applied


# --- bills drawn by hand, and an older gm's draw -----------------------------------------


@pytest.fixture(scope="module")
def by_hand(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """A three-round game whose rounds 1 and 3 are drawn by hand (R-2)."""
    from support import Gm

    from gm.service.env import Env

    db = str(tmp_path_factory.mktemp("port-magot-main") / "gm.db")
    gm = Gm(db)
    gm(
        "new",
        "magot",
        "-t",
        "A la main",
        "-p",
        "fab,marco:m,lulu:f",
        "--seed",
        "sel_de main",
        "-o",
        "rounds=3",
    )
    gm("order", "lulu", "graine : Poire 2")
    orders = [
        {"fab": "marco BBB", "marco": "lulu bang", "lulu": "fab clic"},
        {"fab": "lulu clic", "marco": "fab bang", "lulu": "marco bang"},
        {"fab": "marco bang", "marco": "lulu clic", "lulu": "fab BBB"},
    ]
    for n, round_orders in enumerate(orders, 1):
        gm("draw", *(["--bills", "20000,10000,10000,5000,5000"] if n != 2 else []))
        for player, text in round_orders.items():
            gm("order", player, text)
        gm("reveal")
        if n == 2:
            gm("fold", "lulu")
        gm("resolve")
    gm("post", "disclosure")
    env = Env(db=db)
    slug = env.store.campaigns()[-1].slug
    return [plain_spaces(p.body) for p in env.store.posts(slug)]


HAND_EDITS: dict[str, tuple[Edit, int]] = {
    "a bill the loot never had": (
        edit_first(
            "Tour 1 — la mise",
            r"nouveaux billets : 20(.)000",
            lambda m: f"nouveaux billets : 50{m[1]}000",
        ),
        1,
    ),
    "a bill left out": (
        edit_first(
            r"Tour 3\b.*— la mise", r"(nouveaux billets : [^(\n]*?) · 5.000", lambda m: m[1]
        ),
        1,
    ),
    "a draw line beside bills drawn by hand": (
        edit_first(
            "Tour 1 — la mise",
            r"^- nouveaux billets : .*\n",
            lambda m: m[0] + "- tirage `round-1/bills`, **tirage sans graine des joueurs**\n",
        ),
        1,
    ),
    "a fortune's draw without its draw line": (
        edit_first("Tour 2 — la mise", r"^- tirage .*\n", lambda m: ""),
        1,
    ),
    "a fortune's draw as an older gm printed it": (
        edit_first(
            "Tour 2 — la mise",
            r"^- tirage .*\n",
            lambda m: "Graines des joueurs mêlées au tirage : lulu `Poire 2`\n",
        ),
        1,
    ),
}


def test_bills_drawn_by_hand_agree(by_hand: list[str], tmp_path: Path) -> None:
    assert sum("(tirés à la main par le MJ)" in b for b in by_hand) == 2
    calls = [(["thread", f"{form}.txt"], {f"{form}.txt": joined(by_hand, form)}) for form in FORMS]
    calls.append((["thread", "sans-ouverture.txt"], {"sans-ouverture.txt": joined(by_hand[1:])}))
    codes = [None] * len(calls)
    for name, (edit, code) in HAND_EDITS.items():
        edited = edit(by_hand)
        assert edited is not None, name
        calls.append((["thread", "fil.txt"], {"fil.txt": joined(edited)}))
        codes.append(code)
    results = agree(calls, tmp_path)
    assert [c for c, _ in results[: len(FORMS)]] == [0] * len(FORMS)
    assert "billets tirés à la main, bien pris dans le magot restant" in results[0][1]
    for want, (got, out) in zip(codes, results, strict=True):
        assert want is None or got == want, out
