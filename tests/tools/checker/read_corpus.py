"""Inputs for comparing tools/checker/read.js with gm_check.py's readers, and
gm_check.py's answers to them (tests/tools/checker/test_read_node.py).

Three kinds of inputs:

* ``game_cases``: every post of random games of every registered game
  (tests/tools/gmcheck_support.py's ``play_random``) in every form a player
  gets it (Markdown, BBCode with its three kinds of tables, HTML, a browser's
  plain copy), one post alone and the whole thread at once, plus ``gm
  chronicle`` in Markdown, BBCode and HTML, whole and cut into parts;
* ``hostile_cases``: those posts with markup that hides a line (the hiders of
  tests/tools/test_gm_check_attacks.py and more: comments, spoilers, links,
  invisible characters, entities, raw HTML, declarations, <script>…) put
  into a random line;
* ``fuzz_cases``: random texts made of the pieces every reader treats
  specially (tags, entities, brackets, backticks, pipes, odd spaces, astral
  and combining characters…), read in every format.

Each case is read by ``read_lines`` or ``read_source`` (and a few by
``detect_format`` and ``html.unescape`` alone); ``python_result`` gives the
answer as JSON, shaped as read_driver.mjs shapes read.js's.

``python tests/tools/checker/read_corpus.py --seeds N`` compares a bigger
corpus than the test does and prints the counts.
"""

from __future__ import annotations

import html
import html.entities
import importlib.util
import json
import random
import sys
import unicodedata
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "tests" / "tools"))

FORMATS = ["auto", "markdown", "bbcode", "html", "text"]


def gm_check() -> Any:
    spec = importlib.util.spec_from_file_location("gm_check_read", ROOT / "tools" / "gm_check.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["gm_check_read"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def case(
    op: str, text: str, fmt: str = "auto", name: str = "post.txt", start: int = 0
) -> dict[str, Any]:
    return {"op": op, "text": text, "fmt": fmt, "name": name, "start": start}


# --- games --------------------------------------------------------------------------


def play(seeds: range, folder: Path) -> list[tuple[str, list[str], list[tuple[str, list[str]]]]]:
    """Random games of every registered game: (game, its posts in Markdown,
    its chronicles: (format, parts))."""
    from gmcheck_support import play_random

    from gm import games
    from gm.errors import GMError
    from gm.service import chronicle

    out = []
    for game in games.ids():
        for seed in seeds:
            played = play_random(game, seed, str(folder / f"{game}-{seed}.db"))
            chronicles = []
            for fmt in ("markdown", "bbcode", "html"):
                for limit in (None, 20000):
                    try:
                        parts = chronicle.chronicle(played.env, played.slug, fmt, limit=limit)
                    except GMError:  # a block longer than the limit: not this test's concern
                        continue
                    chronicles.append((fmt, parts))
            out.append(
                (
                    game,
                    played.bodies() + side_posts(game, folder / f"{game}-{seed}-side.db"),
                    chronicles,
                )
            )
    return out


def side_posts(game: str, db: Path) -> list[str]:
    """The posts a random game does not publish: the rules, a reminder, a
    change at the table (when the game allows one then)."""
    from gm.errors import GMError
    from gm.service import campaigns, publishing, roster
    from gm.service.env import Env

    env = Env(db=str(db))
    seated = ["ana", "Élodie", "tom"] if game != "fistful" else ["ana", "Élodie"]
    slug = campaigns.create(env, game, "Côté 🎲", seated, seed="côté").campaign.slug
    out = [publishing.find_post(env, slug, "rules", None).body, publishing.remind(env, slug).public]
    try:
        notice = roster.replace_player(
            env, slug, "tom" if game != "fistful" else "ana", "Zoé"
        ).notice
    except GMError:  # Fistful of Gold's colours name the players: no replacement
        notice = None
    return out + ([notice] if notice else [])


def game_cases(
    played: list[tuple[str, list[str], list[tuple[str, list[str]]]]],
) -> Iterator[dict[str, Any]]:
    from gmcheck_support import FORMS

    for game, bodies, chronicles in played:
        for form, convert in FORMS.items():
            texts = [convert(body) for body in bodies]
            for i, text in enumerate(texts):
                fmt = "auto" if i % 3 else form.split("-")[0]
                yield case("lines", text, fmt)
                yield case("source", text, "auto", f"{game}-{i}.txt", i)
            yield case("source", "".join(t + "\n" for t in texts), "auto", f"{game}-{form}.txt")
        for fmt, parts in chronicles:
            for i, part in enumerate(parts):
                yield case("source", part, "auto", f"chronique-{i}.{fmt}", 10 * i)
                yield case("lines", part, "auto")


# --- hostile markup -----------------------------------------------------------------

HIDERS: list[Callable[[str], str]] = [
    lambda line: f"<!-- {line} -->",
    lambda line: f"<!--\n{line}\n-->",
    lambda line: f'<span style="display:none">{line}</span>',
    lambda line: f"<details>{line}</details>",
    lambda line: f"<details><summary>x</summary>{line}</details>",
    lambda line: f'<p style="color:transparent">{line}</p>',
    lambda line: f'<span hidden="">{line}</span>',
    lambda line: f"<p class=hidden>{line}</p>",
    lambda line: f"<td align='right'>{line}</td>",
    lambda line: f'<td style="text-align: center;">{line}</td>',
    lambda line: f"<script>{line}</script>",
    lambda line: f"<style>p {{}}</style>{line}",
    lambda line: f"<!doctype html>{line}",
    lambda line: f"<![CDATA[{line}]]>",
    lambda line: f"<![if !x]>{line}<![endif]>",
    lambda line: f"<?php {line} ?>",
    lambda line: f"<!x {line}>",
    lambda line: f"</ {line}>",
    lambda line: f"<br/>{line}<hr />",
    lambda line: f"<pre>{line}\n  {line}</pre>",
    lambda line: f"<code>{line}</code>",
    lambda line: f'[//]: # "{line}"',
    lambda line: f"[x]: {line}",
    lambda line: f"> {line}",
    lambda line: f"    {line}",
    lambda line: f"[spoiler]{line}[/spoiler]",
    lambda line: f"~~{line}~~",
    lambda line: f"[color=transparent]{line}[/color]",
    lambda line: f"[color=#ffffff]{line}[/color]",
    lambda line: f"[size=1]{line}[/size]",
    lambda line: f"[size=0]{line}[/size]",
    lambda line: f"[hide]{line}[/hide]",
    lambda line: f"[url=https://x.invalid]{line}[/url]",
    lambda line: f"[s]{line}[/s]",
    lambda line: f"[Sé]{line}",
    lambda line: f"[code]{line}[/CODE]",
    lambda line: f"[a]({line})",
    lambda line: f"{line}[^1]",
    lambda line: f"`{line}`` `x`",
    lambda line: line.replace(" ", "\u200b", 1),
    lambda line: line.replace(" ", "\u202e", 1),
    lambda line: line.replace(" ", "\u2028", 1),
    lambda line: line.replace(" ", "\u00ad", 1),
    lambda line: line.replace(" ", "\U000e0041", 1),
    lambda line: line.replace(" ", "\ue000", 1),
    lambda line: line.replace(" ", "\x07", 1),
    lambda line: line.replace(" ", " &#97; ", 1),
    lambda line: line.replace(" ", " &#x200B; ", 1),
    lambda line: line.replace(" ", " &nbsp;&notin;&amp &#128;&#xD800; ", 1),
    lambda line: line.replace(" ", "\u2060", 1),
    lambda line: line.replace(" ", " 🎲\ufa6c\U0002f800e\u0301 ", 1),
    lambda line: line.replace("e", "e\u0301"),
    lambda line: line + "\r\n",
    lambda line: "\ufeff" + line,
]


def hostile_cases(
    played: list[tuple[str, list[str], list[tuple[str, list[str]]]]],
    rng: random.Random,
    per_post: int = 4,
) -> Iterator[dict[str, Any]]:
    from gmcheck_support import FORMS

    for _, bodies, _ in played:
        for n, body in enumerate(bodies):
            for form in ("markdown", "bbcode", "html", "text"):
                text = FORMS[form](body)
                lines = text.split("\n")
                for hider in rng.sample(HIDERS, per_post):
                    at = rng.randrange(len(lines))
                    changed = "\n".join([*lines[:at], hider(lines[at]), *lines[at:]])
                    yield case("lines", changed, rng.choice(["auto", form]))
                    yield case("source", changed, "auto", "hostile.txt", n)


# --- random texts -------------------------------------------------------------------

PIECES = [
    *"<>&;=/'\"[]`*_~|\\#-+.!:)( ",
    "&amp;",
    "&amp",
    "&#",
    "&#x",
    "&#97;",
    "&#x1F3B2;",
    "&notin",
    "&notit;",
    "&#0;",
    "&#128;",
    "&#xD800;",
    "&#1114112;",
    "&#65",
    "&AMP",
    "&fjlig;",
    "&NotNestedGreaterGreater;",
    "<!--",
    "-->",
    "--",
    "<!",
    "<![CDATA[",
    "]]>",
    "<![if x]>",
    "<![endif]>",
    "<?",
    "?>",
    "<!doctype html>",
    "<!DOCTYPE",
    "<p>",
    "</p>",
    "<br>",
    "<br/>",
    "<hr />",
    "<code>",
    "</code>",
    "<pre>",
    "</pre>",
    "<table>",
    "<tr>",
    "</tr>",
    "<td>",
    "</td>",
    "<th>",
    "</th>",
    '<th align="right">',
    "<td style='text-align: left'>",
    "<script>",
    "</script>",
    "</SCRİPT>",
    "<style>",
    "</ style>",
    "<span hidden>",
    "</span>",
    "<a href=x>",
    "<img src=a/>",
    "</>",
    "</ x>",
    "< ",
    "<a\n b=c>",
    "<P CLASS=\"x\" id='y' z>",
    "<b =x>",
    "<li>",
    "</li>",
    "<ul>",
    "<strong>",
    "</strong>",
    "<em>",
    "<h2>",
    "</h2>",
    "<x/y>",
    "<aΣ>",
    "<bİ x=İ>",
    "<A HREF=X>",
    "<td ALIGN=Right>",
    "<p\u3000x>",
    "<a b='>'>",
    "[b]",
    "[/b]",
    "[i]",
    "[code]",
    "[/code]",
    "[tr]",
    "[/tr]",
    "[td]",
    "[/td]",
    "[th]",
    "[*]",
    "[list]",
    "[/list]",
    "[list=1]",
    "[table]",
    "[size=150]",
    "[size=120]",
    "[color=red]",
    "[\u200b",
    "[url]",
    "[Sé]",
    "[s]",
    "[ſ]",
    "[İmg]",
    "[quote=x]",
    "``",
    "```",
    "**",
    "~~",
    "| ",
    " |",
    "|---|",
    "| :-: |",
    "\\|",
    "\\*",
    "## ",
    "# ",
    "    ",
    "\t",
    "\n",
    "\n",
    "\n\n",
    "\r\n",
    "\r",
    "  ",
    "\u00a0",
    "\u202f",
    "\u2007",
    "\u200b",
    "\u2060",
    "\u2028",
    "\u2029",
    "\u202e",
    "\ufeff",
    "\x85",
    "\x0b",
    "\x0c",
    "\u3000",
    "\x00",
    "\U000e0041",
    "\ue000",
    "🎲",
    "é",
    "e\u0301",
    "\ufa6c",
    "\U0002f800",
    "x",
    "ab",
    "fab",
    "12",
    "٣",
    "- ",
    "* ",
    "1. ",
    "2) ",
    "> ",
    "[x]: ",
    "[^1]",
    "[a](b)",
    "***",
    "===",
    "—",
    "🎲 tirage roll/7",
    "Tour 1 — ça tire",
    "Tour ٢ — la mise",
    "Empreinte du registre : sha256:0123abcd",
    "_Empreinte du registre : `",
    "`0123abcd9`",
    "Le Magot — « x »",
    "Message 3 — résultats",
    "Vérification",
    "İ",
    "ı",
    "K",
]


def random_text(rng: random.Random) -> str:
    return "".join(rng.choice(PIECES) for _ in range(rng.randint(1, 40)))


def fuzz_cases(count: int, rng: random.Random) -> Iterator[dict[str, Any]]:
    for i in range(count):
        text = random_text(rng)
        fmt = FORMATS[i % len(FORMATS)]
        yield case("lines", text, fmt)
        if i % 4 == 0:
            yield case("source", text, fmt, "fuzz.txt", i)
        if i % 8 == 0:
            yield case("detect", text)
            yield case("unescape", text)


# Texts that once set the port apart from Python, or could: code spans with
# astral characters (offsets are code points in Python, UTF-16 units in
# JavaScript), a <code> left open across a line break, a code span ending in
# a line's leading spaces (a negative offset), NFC changing lengths, what
# makes Python's html.parser raise, a charref too long for int().
EDGES = [
    "<p>🎲 <code>x<br>ab🎲cd</code></p>",
    "<pre><code> </code> 🎲</pre>",
    "<pre><code> </code>\u00a0x🎲</pre>",
    "<p>🎲🎲 <code>ab</p><p>🎲x🎲y</code></p>",
    "tirage `🎲a` · `b🎲` x\u00a0`\ufa6c`",
    "<p>\ufa6c<code>\ufa6c🎲</code>x</p>",
    "<p>x<code>\U0002f800y</code>z</p>",
    "<p>\U0002f800<code>y</code></p>",
    "<p>a</p><![foo b",
    "<p>a</p><![x]> b",
    "<![",
    "<p>&#" + "0" * 4301 + "65;</p>",
    "<p>&#" + "1" * 4300 + ";</p>",
    "<p>&#x" + "1" * 5000 + ";</p>",
    "<script>a &amp; <b></script><p>x</p>",
    "<script>never closed <p>x</p>",
    "<p>a\u2028b</p>\n|a\u2029|b|\n[b]x\u2028[/b]",
    "Tour 1 — ça tire\u2028\nEmpreinte du registre : 0123abcd",
    "[Sİze=150][B]x\n[İ]Empreinte du registre",
    "[sıze=150][b]x",
    "x [İmg]y[/img] [ſ]z [sé]w",
]


def edge_cases() -> Iterator[dict[str, Any]]:
    yield case("entities", "")  # html.entities.html5 as read.js decodes its table
    yield case("invisible", "")  # unicodedata's invisible characters and their names
    for text in EDGES:
        for fmt in FORMATS:
            yield case("lines", text, fmt)
            yield case("source", text, fmt, "edge.txt", 1)


# --- gm_check.py's answers ----------------------------------------------------------


def python_result(checker: Any, c: dict[str, Any]) -> dict[str, Any]:
    def line(li: Any) -> Any:
        if li is None:
            return None
        return {
            "no": li.no,
            "text": li.text,
            "codes": [list(code) for code in li.codes],
            "code_texts": li.code_texts(),
            "cells": None if li.cells is None else list(li.cells),
        }

    def post(p: Any) -> dict[str, Any]:
        return {
            "source": p.source,
            "index": p.index,
            "fmt": p.fmt,
            "kind": p.kind,
            "key": list(p.key),
            "heading": line(p.heading),
            "body": [line(li) for li in p.body],
            "footer": line(p.footer),
            "problems": [list(pb) for pb in p.problems],
            "obsolete": p.obsolete,
            "number": p.number,
            "game": p.game,
            "name": list(p.name()),
            "at": list(p.at()),
            "at_heading": list(p.at(p.heading)),
            "signature": p.signature(),
        }

    try:
        if c["op"] == "lines":
            fmt, lines, problems = checker.read_lines(c["text"], c["fmt"])
            out: Any = {
                "fmt": fmt,
                "lines": [line(li) for li in lines],
                "problems": [list(p) for p in problems],
            }
        elif c["op"] == "source":
            s = checker.read_source(c["text"], c["name"], c["fmt"], c["start"])
            out = {
                "name": s.name,
                "fmt": s.fmt,
                "posts": [post(p) for p in s.posts],
                "outside": [line(li) for li in s.outside],
                "problems": [list(p) for p in s.problems],
                "chronicle": dict(s.chronicle),
            }
        elif c["op"] == "detect":
            out = checker.detect_format(c["text"])
        elif c["op"] == "unescape":
            out = html.unescape(c["text"])
        elif c["op"] == "entities":
            out = dict(html.entities.html5)
        elif c["op"] == "invisible":
            ranges: list[list[int]] = []
            for code in range(0x110000):
                if unicodedata.category(chr(code)) in ("Cf", "Cc", "Co", "Zl", "Zp"):
                    if ranges and ranges[-1][1] == code - 1:
                        ranges[-1][1] = code
                    else:
                        ranges.append([code, code])
            names = {
                str(code): unicodedata.name(chr(code))
                for a, b in ranges
                for code in range(a, b + 1)
                if unicodedata.name(chr(code), "")
            }
            out = {"ranges": ranges, "names": names}
        else:
            raise AssertionError(c["op"])
    except (checker.Unreadable, ValueError, AssertionError) as err:
        return {"error": [type(err).__name__, str(err)]}
    return {"ok": out}


def write_cases(cases: list[dict[str, Any]], path: Path) -> None:
    path.write_text(
        "".join(json.dumps(c, ensure_ascii=False) + "\n" for c in cases), encoding="utf-8"
    )


def node_results(cases_path: Path, node: str = "node") -> list[dict[str, Any]]:
    import subprocess

    done = subprocess.run(
        [node, str(Path(__file__).with_name("read_driver.mjs")), str(cases_path)],
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=False,
    )
    if done.returncode:
        raise AssertionError(f"read_driver.mjs failed ({done.returncode}):\n{done.stderr}")
    return [json.loads(line) for line in done.stdout.split("\n") if line]


def differences(cases: list[dict[str, Any]], py: list[Any], js: list[Any]) -> list[str]:
    assert len(py) == len(js), (len(py), len(js))
    out = []
    for c, a, b in zip(cases, py, js, strict=True):
        if a != b:
            out.append(
                f"{c['op']} {c['fmt']} {c['text'][:300]!r}\n  python: {json.dumps(a, ensure_ascii=False)[:1500]}\n  node:   {json.dumps(b, ensure_ascii=False)[:1500]}"
            )
    return out


def main() -> int:
    import argparse
    import tempfile
    import time

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", type=int, default=2)
    parser.add_argument("--fuzz", type=int, default=20000)
    parser.add_argument("--random", type=int, default=1, help="the random generator's seed")
    args = parser.parse_args()
    checker = gm_check()
    rng = random.Random(args.random)
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.time()
        played = play(range(args.seeds), Path(tmp))
        groups = {
            "games": list(game_cases(played)),
            "hostile": list(hostile_cases(played, rng)),
            "edges": list(edge_cases()),
            "fuzz": list(fuzz_cases(args.fuzz, rng)),
        }
        print(f"corpus built in {time.time() - t0:.0f} s", file=sys.stderr)
        cases = [c for group in groups.values() for c in group]
        t0 = time.time()
        py = [python_result(checker, c) for c in cases]
        print(f"python: {time.time() - t0:.1f} s", file=sys.stderr)
        path = Path(tmp) / "cases.jsonl"
        write_cases(cases, path)
        t0 = time.time()
        js = node_results(path)
        print(f"node: {time.time() - t0:.1f} s", file=sys.stderr)
    diffs = differences(cases, py, js)
    for group, items in groups.items():
        ops: dict[str, int] = {}
        for c in items:
            ops[c["op"]] = ops.get(c["op"], 0) + 1
        print(f"{group}: {len(items)} cases {ops}")
    errors = sum(1 for r in py if "error" in r)
    print(f"compared {len(cases)} cases ({errors} where Python raised), {len(diffs)} differ")
    for d in diffs[:20]:
        print(d)
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main())
