"""Fistful of Gold's and Colt Express's checks in the browser checker say what gm_check.py says.

tools/checker/fistful.js and colt.js port the Fistful and Colt methods of
gm_check.py's ``Checker`` (the setup, duel, end-of-manche and disclosure
posts; the Plan seals, their openings in the Action posts, every draw line
and every chance result drawn again from the seed). Random whole games
(tests/tools/gmcheck_support.py ``play_random``) are checked by both: in
every form a forum shows them, with a post missing, post by post with the
others as references; then threads a dishonest MJ edited (a card, a salt, a
seal, a car, a purse, a label, the seed…: each must fail), and threads
edited at random (a line deleted, repeated or moved, a digit, a card or a
name changed): the port must print the same lines and exit with the same
code every time.

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
GAMES = [("fistful", 1), ("colt", 1)]  # the seeds whose games allow every edit below

if shutil.which("node") is None:  # CI's browser step (GM_TEST_REQUIRE_BROWSER=1) must have it
    if os.environ.get("GM_TEST_REQUIRE_BROWSER") == "1":
        raise RuntimeError("no node: apt-get install nodejs (GM_TEST_REQUIRE_BROWSER=1)")
    pytest.skip("no node: apt-get install nodejs", allow_module_level=True)


def gm_check() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gm_check_fc", ROOT / "tools" / "gm_check.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


REFERENCE = gm_check()
Call = tuple[list[str], dict[str, str]]


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


def node(calls: list[Call]) -> list[tuple[int, str]]:
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


def agree(calls: list[Call], tmp: Path) -> list[tuple[int, str]]:
    """Both tools on every call; every disagreement is listed, with its first differing line."""
    ported = node(calls)
    expected = [python(a, f, tmp) for a, f in calls]
    bad = []
    for (args, _), want, got in zip(calls, expected, ported, strict=True):
        if got != want:
            a, b = want[1].splitlines(), got[1].splitlines()
            first = next((i for i in range(max(len(a), len(b))) if a[i : i + 1] != b[i : i + 1]), 0)
            bad.append(
                f"{' '.join(args)[:120]}: exit {want[0]} / {got[0]}\n"
                f"  Python     {(a[first : first + 1] or ['<none>'])[0][:300]}\n"
                f"  JavaScript {(b[first : first + 1] or ['<none>'])[0][:300]}"
            )
    assert not bad, f"{len(bad)} of {len(calls)} calls differ:\n" + "\n".join(bad)
    return expected


@pytest.fixture(scope="module", params=GAMES, ids=lambda p: f"{p[0]}-{p[1]}")
def played(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Played:
    game, seed = request.param
    db = tmp_path_factory.mktemp(f"port-{game}-{seed}") / "gm.db"
    return play_random(game, seed, str(db), underscore_seed=seed == 1)


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
    # gm_check.py's own limit, not the port's: a browser's plain copy of a Colt
    # thread holds the train's picture, whose rows start and end with « | », so
    # detect_format reads it as Markdown, and a player named « Mo[b] » is a tag.
    honest = [
        (args, code)
        for (args, _), (code, _) in zip(calls, results, strict=True)
        if not (played.game == "colt" and args[1] == "text.txt")
    ]
    assert all(code == 0 for _, code in honest), honest


def test_threads_with_a_post_missing_agree(played: Played, tmp_path: Path) -> None:
    posts = played.posts
    middle = [i for i, p in enumerate(posts) if p.kind not in ("opening", "final", "disclosure")]
    gone = {len(posts) - 1, next(i for i, p in enumerate(posts) if p.kind == "final")}
    gone |= set(random.Random(2).sample(middle, 3))
    calls = []
    for n in sorted(gone):
        text = "".join(p.body + "\n" for i, p in enumerate(posts) if i != n)
        calls.append((["thread", f"sans-{n}.txt"], {f"sans-{n}.txt": text}))
    under_way = "".join(p.body + "\n" for p in posts if p.kind not in ("final", "disclosure"))
    calls.append((["thread", "en-cours.txt"], {"en-cours.txt": under_way}))
    calls.append((["thread", "en-cours.txt", "--seed", played.seed], {"en-cours.txt": under_way}))
    results = agree(calls, tmp_path)
    # a Colt thread without one of its Plan posts may still check whole: only
    # the final post (the seed) and the posts a draw or a seal needs are missed
    final = next(i for i, p in enumerate(posts) if p.kind == "final")
    at = {n: code for n, (code, _) in zip(sorted(gone), results, strict=False)}
    assert at[final] == 3 and results[-2][0] == 3, results
    assert all(code in (1, 3) for code, _ in results) or played.game == "colt", results


def test_each_post_checked_alone_agrees(played: Played, tmp_path: Path) -> None:
    """``post``: one post alone, with every other one (``--with``), or with a
    random half of them; with the seed given."""
    posts = played.posts
    files = {f"m{i:03d}.txt": p.body for i, p in enumerate(posts)}
    names = list(files)
    rng = random.Random(3)
    picked = sorted(rng.sample(range(len(names)), min(12, len(names))))
    picked += [
        i for i, p in enumerate(posts) if p.kind in ("setup", "final", "disclosure", "train")
    ]
    calls = []
    for i in sorted(set(picked)):
        others = [n for n in names if n != names[i]]
        half = [n for n in others if rng.random() < 0.5]
        calls.append((["post", names[i]], files))
        calls.append((["post", names[i], *[x for n in others for x in ("--with", n)]], files))
        calls.append((["post", names[i], *[x for n in half for x in ("--with", n)]], files))
        calls.append((["post", names[i], "--seed", played.seed], files))
    agree(calls, tmp_path)


# --- a dishonest MJ's edits ----------------------------------------------------------

Edit = Callable[[list[str]], "list[str] | None"]


def edit_first(kind: str, pattern: str, change: Callable[[re.Match[str]], str]) -> Edit:
    """Change the first match of ``pattern`` in the first post titled like ``kind`` that has one."""

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


def seal_everywhere(kind: str, pattern: str) -> Edit:
    """Another seal (group 1 of ``pattern``, in the first post titled like
    ``kind``) wherever the thread prints it: the post of the time and the final
    post's list of secrets, so the salt is still found and the seal is remade."""

    def edit(bodies: list[str]) -> list[str] | None:
        for body in bodies:
            if not re.search(kind, body.splitlines()[0]):
                continue
            m = re.search(pattern, body, re.M)
            if m is None:
                continue
            digits = m[1]
            return [b.replace(digits, flip(digits[0]) + digits[1:]) for b in bodies]
        return None

    return edit


def flip(digit: str) -> str:
    return "0" if digit != "0" else "1"


def other_card(m: re.Match[str]) -> str:
    """Another card of the same colour (groups: the value, then « rouge »/« vert »…)."""
    value = "2" if m[1] != "2" else "3"
    return value + (" rouge" if "rouge" in m[2] else " vert")


FISTFUL_EDITS: dict[str, Edit] = {
    "duel: a card shown": edit_first(
        r"duel \d+ sur",
        r"joue (?:le|la) \*\*([1-8]|Dynamite)( (?:rouge|vert|verte))\*\*",
        lambda m: m[0].replace(m[1] + m[2], other_card(m)),
    ),
    "duel: a digit of a salt": edit_first(
        r"duel \d+ sur", r"(\(sel `)(.)", lambda m: m[1] + flip(m[2])
    ),
    "duel: the opened seals deleted": edit_first(
        r"duel \d+ sur", r"^Sceaux ouverts : .*\n", lambda m: ""
    ),
    "setup: a digit of a seal": edit_first(
        "Mise en place", r"(Sceaux des défausses : [^`]*`)(.)", lambda m: m[1] + flip(m[2])
    ),
    "end of manche: a digit of a seal": edit_first(
        "le compte", r"(Sceaux des choix de fin de manche : [^`]*`)(.)", lambda m: m[1] + flip(m[2])
    ),
    "disclosure: a duel's card": edit_first(
        "enfin dévoilées",
        r"^- duel 2 : .*?\*\*([1-8]|Dynamite)( (?:rouge|vert|verte))\*\*",
        lambda m: m[0].replace(m[1] + m[2], other_card(m)),
    ),
    "disclosure: a setup discard": edit_first(
        "enfin dévoilées",
        r"a défaussé (?:le|la) \*\*([1-8]|Dynamite)( (?:rouge|vert|verte))\*\*",
        lambda m: m[0].replace(m[1] + m[2], other_card(m)),
    ),
    "disclosure: an opened seal's line deleted": edit_first(
        "enfin dévoilées", r"^Sceaux ouverts \(manche 1, duel 1\) : .*\n", lambda m: ""
    ),
    "disclosure: a manche's title": edit_first(
        "enfin dévoilées", r"^\*\*Manche 2\*\*$", lambda m: "**Manche 7**"
    ),
    "final: the seed": edit_first(
        "fin du duel", r"(Graine du hasard\*\* : `)(.)", lambda m: m[1] + flip(m[2])
    ),
}

COLT_EDITS: dict[str, Edit] = {
    "plan: a digit of a face-down card's seal": edit_first(
        "Plan, tour", r"(Sceau de la carte face cachée de .* : `)(.)", lambda m: m[1] + flip(m[2])
    ),
    "action: a face-down card turned over as another": edit_first(
        "Action : carte",
        r"(Carte face cachée de .*\(tour \d+\) : )(Déplacement|Changement d'étage|Marshal|Tir|Braquage|Coup de poing),",
        lambda m: m[1] + ("Tir" if m[2] != "Tir" else "Braquage") + ",",
    ),
    "train: the cars' order": edit_first(
        "le train est en gare",
        r"\(cartes (\d), (\d)",
        lambda m: f"(cartes {m[2]}, {m[1]}",
    ),
    "train: the purses' seal": seal_everywhere(
        "le train est en gare", r"Sceau des valeurs : `([0-9a-f]{32})`"
    ),
    "round: a deck's seal": seal_everywhere(
        r"^#+ Manche \d : ", r"Sceaux des pioches mélangées : [^`]*`([0-9a-f]{32})`"
    ),
    "round: a deck's draw line deleted": edit_first(
        r"^#+ Manche \d : ", r"^- Pioche de .*\n", lambda m: ""
    ),
    "final: a purse drawn": edit_first(
        "terminus", r"(parmi [\d, ]+ → )(\d+)", lambda m: m[1] + str(int(m[2]) + 50)
    ),
    "final: a digit of a salt": edit_first(
        "terminus", r"(loot gm `[0-9a-f]+` sel `)(.)", lambda m: m[1] + flip(m[2])
    ),
    "final: the seed": edit_first(
        "terminus", r"(Graine du hasard\*\* : `)(.)", lambda m: m[1] + flip(m[2])
    ),
    "a draw's label": edit_first(
        r"^#+ Manche \d : ", r"(tirage `round-\d/card)", lambda m: m[1].replace("card", "cards")
    ),
}


def test_edited_threads_agree_and_fail(played: Played, tmp_path: Path) -> None:
    bodies = [plain_spaces(b) for b in played.bodies()]
    edits = FISTFUL_EDITS if played.game == "fistful" else COLT_EDITS
    calls, names = [], []
    for name, edit in edits.items():
        edited = edit(bodies)
        if edited is None:  # this game has no such line
            continue
        for form in ("markdown", "bbcode", "html"):
            calls.append((["thread", "fil.txt"], {"fil.txt": joined(edited, form)}))
            names.append((name, form))
    results = agree(calls, tmp_path)
    for (name, form), (code, out) in zip(names, results, strict=True):
        assert code == 1, (name, form, out)
    assert len({n for n, _ in names}) >= len(edits) - 2, names


# --- edits at random ----------------------------------------------------------------

CARD = re.compile(r"(?:[1-8] (?:rouge|vert)|Dynamite (?:rouge|verte))")
WORDS = [
    "Déplacement", "Changement d'étage", "Marshal", "Tir", "Braquage", "Coup de poing",
    "Belle", "Cheyenne", "Django", "Doc", "Ghost", "Tuco", "Pont", "Tunnel", "Pickpocket",
]  # fmt: skip


def mutate(lines: list[str], names: list[str], rng: random.Random) -> None:
    """One random edit of a thread's Markdown lines."""
    i = rng.randrange(len(lines))
    line = lines[i]
    kind = rng.choice(["del", "dup", "move", "digit", "hex", "card", "name", "word", "number"])
    if kind == "del":
        del lines[i]
    elif kind == "dup":
        lines.insert(i, line)
    elif kind == "move":
        del lines[i]
        lines.insert(rng.randrange(len(lines) + 1), line)
    elif kind in ("digit", "hex"):
        spots = [m.start() for m in re.finditer(r"\d" if kind == "digit" else r"[0-9a-f]", line)]
        if spots:
            p = rng.choice(spots)
            lines[i] = (
                line[:p]
                + rng.choice("0123456789abcdef"[: 10 if kind == "digit" else 16])
                + line[p + 1 :]
            )
    elif kind == "card":
        found = list(CARD.finditer(line))
        if found:
            m = rng.choice(found)
            new = rng.choice(
                [f"{rng.randint(1, 8)} rouge", f"{rng.randint(1, 8)} vert", "Dynamite verte"]
            )
            lines[i] = line[: m.start()] + new + line[m.end() :]
    elif kind == "name":
        present = [n for n in names if n in line]
        if present:
            lines[i] = line.replace(rng.choice(present), rng.choice([*names, "zed"]), 1)
    elif kind == "word":
        present = [w for w in WORDS if w in line]
        if present:
            lines[i] = line.replace(rng.choice(present), rng.choice(WORDS), 1)
    else:
        lines[i] = re.sub(
            r"(Manche|manche|duel|tour|carte) (\d+)",
            lambda m: f"{m[1]} {int(m[2]) + rng.choice([-1, 1])}",
            line,
            count=1,
        )


def test_threads_edited_at_random_agree(played: Played, tmp_path: Path) -> None:
    text = joined(played.bodies())
    # the players' names as Markdown escapes them
    names = [re.sub(r"([\\`*_\[\]])", r"\\\1", n) for n in _players(played)]
    rng = random.Random(f"mutants/{played.game}/{played.slug}")
    calls = []
    while len(calls) < 25:
        lines = text.split("\n")
        for _ in range(rng.choice([1, 1, 2, 3])):
            mutate(lines, names, rng)
        mutant = "\n".join(lines)
        if mutant == text:
            continue
        form = rng.choice(["markdown", "markdown", "bbcode", "html", "text"])
        calls.append((["thread", "fil.txt"], {"fil.txt": FORMS[form](mutant)}))
    results = agree(calls, tmp_path)
    assert sum(code == 1 for code, _ in results) >= 6, [c for c, _ in results]


def _players(played: Played) -> list[str]:
    from gm.service import actions

    return list(actions.load(played.env, played.slug).meta.players)
