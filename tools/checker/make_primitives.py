"""Write the primitive vectors of the browser checker's port: what gm_check.py gives.

    python tools/checker/make_primitives.py [OUT]   (default: tests/tools/checker/primitives.json)

Each case is one call of a gm_check.py function that takes strings and
numbers (the hashing contract, the draws, the small readers) with what it
returned, or the name of the exception it raised. The JavaScript port must
give the same for every case (tests/tools/checker/test_core_node.py runs
them all in one Node process); a test regenerates the corpus in memory and
fails when the committed file is out of date with gm_check.py.

Conventions, so that both languages read the same case:

* ``canonical_json`` is checked as the UTF-8 text it is hashed as (a lone
  surrogate is a ValueError then, as when gm_check.py seals it).
* JSON values given to ``canonical_json`` and ``seal`` are JSON *texts*
  read by ``json.loads`` (the port reads them with its ``pyJsonLoads``):
  exact big integers, floats refused, keys in their given order.
* A ``re.Match`` (``parse_entries``) is ``[group 0, group 1, …]`` and its
  end, in code points.
* Positions given to ``parse_draw_clause`` are in code points, and its
  lines hold no character beyond U+FFFF (JavaScript counts UTF-16 units).

Standard library only, gm_check.py loaded by path (as gm does).
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
OUT = ROOT / "tests" / "tools" / "checker" / "primitives.json"


def load_gm_check() -> Any:
    spec = importlib.util.spec_from_file_location(
        "gm_check_primitives", HERE.parent / "gm_check.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


SEED = "graine-de-test-0123"
WORDS = [["Ana", "pomme"], ["Élodie", "poire"], ["Jean-Paul", "été"]]

JSON_TEXTS = [
    '{"b": 1, "a": 2}',
    '{"z": {"y": [1, 2, {"x": null}], "a": true}, "A": false, "é": "é", "e\u0301": 3}',
    '{"é": 1, "e\u0301": 2}',
    '{"\uffff": 1, "\U0001f600": 2, "z": 3, "Z": 4, "\u00e9": 5, "10": 6, "9": 7, "": 8}',
    '["a\u0301", "\u212b", "\uac00", "\u1100\u1161", "ﬁ"]',
    '"quote \\" backslash \\\\ slash \\/ tab \\t newline \\n cr \\r nul \\u0000 bell \\u0007 del \\u007f"',
    '"\\u2028 \\u2029 \\u00a0 \\u202f \\ud83d\\ude00 €"',
    "12345678901234567890123",
    "-0",
    "[-1, 0, 9007199254740993, -9007199254740993]",
    "[]",
    "{}",
    '{"__proto__": {"constructor": 1}, "toString": 2}',
    "  [ 1 ,\n 2\t]  ",
    "1.0",
    "1e5",
    "NaN",
    "-Infinity",
    '{"a": [1, 2.5]}',
    '"\\ud800"',
    '{"a": 1,}',
    "[1, 2",
    "'single'",
    "01",
    "\ufeff[]",
    '"tab\tinside"',
    "",
    "true false",
]

BOUNDS = [
    1,
    2,
    3,
    7,
    10,
    40,
    100,
    255,
    256,
    257,
    1000,
    4096,
    65535,
    65536,
    65537,
    10**6,
    10**9,
    2**31,
    2**32 + 5,
]

NAMES = [
    "Élodie",
    "Jean-Paul",
    "  ana  ",
    "ÇA VA ?",
    "Straße",
    "ﬁnal",
    "Zoë_42",
    "日本",
    "Ǆemal",
    "--x--",
    "a\u0301b",
    "İstanbul",
    "ΣΊΣΥΦΟΣ",
    "",
]


def _match(m: Any) -> list[Any] | None:
    if m is None:
        return None
    return [m.group(0), *m.groups()]


def cases() -> list[dict[str, Any]]:
    g = load_gm_check()
    out: list[dict[str, Any]] = []

    def case(fn: str, args: list[Any], call: Any) -> None:
        try:
            result = call()
        except (ValueError, TypeError, IndexError, g.Unreadable) as err:
            # the Python class the port throws: json's and the codec's errors are ValueErrors
            kind = next(
                k for k in (g.Unreadable, ValueError, TypeError, IndexError) if isinstance(err, k)
            )
            out.append({"fn": fn, "args": args, "error": kind.__name__})
            return
        out.append({"fn": fn, "args": args, "result": json.loads(json.dumps(result))})

    for text in JSON_TEXTS:
        case(
            "canonical_json",
            [text],
            lambda t=text: g.canonical_json(json.loads(t)).encode("utf-8").decode("utf-8"),
        )
    for kind, text, salt in [
        (
            "magot.order-set",
            '{"round": 3, "player": "Élodie", "target": "Jean-Paul", "option": "bang"}',
            "0123456789abcdef0123456789abcdef",
        ),
        (
            "fistful.card-played",
            '{"_v": 2, "manche": 1, "duel": 2, "player": "Ana", "card": "dynamite"}',
            "s",
        ),
        ("colt.card-hidden", '{"round": 1, "turn": 2, "player": "Zoë", "card": "tir"}', "sel-été"),
        ("k", "null", ""),
        ("k", '{"n": 12345678901234567890}', "x"),
        ("k", '{"f": 0.5}', "x"),
        ("k", '"\\udc80"', "x"),
        ("Ka\u0301nd", '["e\u0301"]', "sa\u0301lt"),
    ]:
        case("seal", [kind, text, salt], lambda k=kind, t=text, s=salt: g.seal(k, json.loads(t), s))
    for seed in ["graine", "", "Élodie 🎲", "e\u0301", SEED, "a" * 100]:
        case("commitment", [seed], lambda s=seed: g.commitment(s))
    for words in [
        [],
        [["Ana", "pomme"]],
        WORDS,
        [["e\u0301", "x"], ["é", "y"]],
        [["Ana", ""]],
        [["😀", '"'], ["\\", "\u0000"]],
    ]:
        case("mix", [words], lambda w=words: g.mix([tuple(p) for p in w]))
        case(
            "label_for",
            ["round-2/bills", words],
            lambda w=words: g.label_for("round-2/bills", [tuple(p) for p in w]),
        )
    case("mix", [WORDS, 8], lambda: g.mix([tuple(p) for p in WORDS], 8))

    for seed, label in [
        (SEED, "round-1/bills"),
        ("Élodie 🎲", "été/ça+0123"),
        ("", ""),
        (SEED, "a" * 200),
    ]:
        for n in BOUNDS:
            case(
                "draws",
                [seed, label, [n] * 5],
                lambda s=seed, lab=label, b=n: g.draws(s, lab, [b] * 5),
            )
        case("draws", [seed, label, BOUNDS], lambda s=seed, lab=label: g.draws(s, lab, BOUNDS))
        case(
            "draws",
            [seed, label, [256] * 100],
            lambda s=seed, lab=label: g.draws(s, lab, [256] * 100),
        )
        case(
            "draws",
            [seed, label, list(range(40, 0, -1))],
            lambda s=seed, lab=label: g.draws(s, lab, list(range(40, 0, -1))),
        )
    case("draws", [SEED, "x", [5, 0]], lambda: g.draws(SEED, "x", [5, 0]))
    case("draws", [SEED, "x", [-3]], lambda: g.draws(SEED, "x", [-3]))
    case("draws", [SEED, "x", []], lambda: g.draws(SEED, "x", []))
    for items in [
        [],
        ["a"],
        list(range(10)),
        list(range(52)),
        g.COLT_DECK,
        list(g.COLT_CHARACTERS),
        g.COLT_PURSE_STOCK[8:],
    ]:
        for label in ["round-1/deck/ana", "train"]:
            case(
                "shuffle", [SEED, label, items], lambda lab=label, i=items: g.shuffle(SEED, lab, i)
            )

    for name in NAMES:
        case("slug", [name], lambda n=name: g.slug(n))
    for value in ["abc", "  `SHA256:ABCdef`  ", "sha256:12", "``x``", "sha256:sha256:ab", "İ"]:
        case("hex_digits", [value], lambda v=value: g.hex_digits(v))
    for a, b in [("abcd", "ABCDEF"), ("sha256:abcd", "abce"), ("", "ab"), ("`ab`", "abff")]:
        case("same_digits", [a, b], lambda x=a, y=b: g.same_digits(x, y))

    full = g.seal("k", {"a": 1}, "s")
    for printed in [
        full,
        full[7:39],
        full[7:15],
        full[7:40] + "x",
        "zz",
        "`" + full.upper() + "`",
        full[7:38] + "0",
        "abc",
    ]:
        case(
            "check_digest",
            [full, printed],
            lambda p=printed: _report(
                g, lambda r: g.check_digest(r, full, p, "le sceau", "the seal")
            ),
        )
    good = g.commitment("graine")
    for expected in [good, good[7:15], good[7:39], "sha256:" + "0" * 64, "nothex", good.upper()]:
        case(
            "check_seed",
            ["graine", expected],
            lambda e=expected: _report(g, lambda r: g.check_seed(r, "graine", e)),
        )
    case(
        "check_seed",
        ["graine", good, "ouverture", "opening"],
        lambda: _report(g, lambda r: g.check_seed(r, "graine", good, "ouverture", "opening")),
    )
    case(
        "check_seal",
        ["k", '{"a": 1}', "s", full[7:], "qui"],
        lambda: _report(g, lambda r: g.check_seal(r, "k", {"a": 1}, "s", full[7:], "qui")),
    )

    for text in [
        "1 250 $",
        " −1 250 $ ",
        "-50 $",
        "1250 $",
        "12 $",
        "1 25 $",
        "0 $",
        "١٢ $",
        "1\u00a0250 $",
        "$",
    ]:
        case("parse_money", [text], lambda t=text: g.parse_money(t))
    for text in ["aucun", " 1 000 · 50 · 250 000 ", "1000", "1 000 ·50", "", "١ ٠٠٠"]:
        case("parse_bills", [text], lambda t=text: g.parse_bills(t))
    for text, known in [
        ("fab, marco et lulu", []),
        ("Jean Paul et Ana", ["Ana", "Jean Paul"]),
        ("Jean Paul, Ana et Jean", ["Jean", "Jean Paul", "Ana"]),
        ("Ana", []),
        ("Ana et", []),
        (", Ana", []),
        ("Ana et Bob et Cléo", ["Ana", "Bob"]),
        ("😀 et Bo", ["😀", "Bo", "ab"]),
        ("", ["Ana"]),
    ]:
        case("parse_names", [text, known], lambda t=text, k=known: g.parse_names(t, k))
    for text, tail, known in [
        ("ana 3 cartes · bob 1 carte", r"(\d+) cartes?", []),
        ("Jean Paul 3 cartes · Ana 2 cartes", r"(\d+) cartes?", ["Jean Paul", "Ana"]),
        ("Jean Paul 3 cartes", r"(\d+) cartes?", []),
        ("ana (deck rouge) · bob (deck vert)", r"\(deck (rouge|vert)\)", []),
        ("ana (deck bleu)", r"\(deck (rouge|vert)\)", []),
        ("ana 3 cartes ·bob 1 carte", r"(\d+) cartes?", []),
        ("", r"(\d+)", []),
        ("Zoë 7 · Zoë 8", r"(\d+)", ["Zoë"]),
        ("a b x · c d", r"([\w'.-]+(?: [\w'.-]+)*)", []),
    ]:
        case(
            "parse_entries",
            [text, tail, known],
            lambda t=text, ta=tail, k=known: _entries(g.parse_entries(t, ta, k), t),
        )
    for text, sep, known in [
        ("Ana sur Bob", " sur ", []),
        ("Ana sur Bob sur Cléo", " sur ", ["Ana", "Bob sur Cléo"]),
        ("Ana sur Bob sur Cléo", " sur ", []),
        ("Ana", " sur ", []),
        ("aaa", "aa", []),
    ]:
        case("split_pair", [text, sep, known], lambda t=text, s=sep, k=known: g.split_pair(t, s, k))
    for text, cells, count in [
        ("a — b", None, 2),
        ("a — b : c", None, 2),
        (" a  —  b — c ", None, 3),
        ("x", ["a", "b"], 2),
        ("x", ["a", "b"], 3),
    ]:
        case(
            "row_cells",
            [text, cells, count],
            lambda t=text, c=cells, n=count: g.row_cells(
                g.Line(1, t, (), tuple(c) if c is not None else None), n
            ),
        )
    for shown in ["Dynamite rouge", "7 vert", "As rouge", " Dame  verte", "", "rouge"]:
        case("card_value", [shown], lambda s=shown: g.card_value(s))
        case("card_color", [shown], lambda s=shown: g.card_color(s))
    draw_lines = [
        ("tirage round-1/bills, graines : Ana pomme · Bob poire", [], []),
        ("tirage round-1/bills, graines : Jean Paul x y · ana z", [], []),
        ("tirage round-1/bills, graines : Jean Paul x y · ana z", [], ["Jean Paul", "ana"]),
        ("tirage round-1/bills, tirage sans graine des joueurs", [], []),
        ("tirage round-1/bills, graines : Ana pomme · Bob poire", [(37, 42), (49, 54)], []),
        ("tirage round-1/bills, graines : Ana pomme ·Bob poire", [(37, 42), (48, 53)], []),
        ("tirage round-1/bills, graines : Ana pomme · Bob poire !", [(37, 42), (49, 54)], []),
        ("tirage round-1/bills, graines : Ana pomme · Bob po?ire", [], []),
        ("tirage a b, graines : x y", [], []),
        ("tirage ", [], []),
    ]
    for text, codes, known in draw_lines:
        case(
            "parse_draw_clause",
            [text, codes, 7, len(text), known],
            lambda t=text, c=codes, k=known: g.parse_draw_clause(
                g.Line(1, t, tuple(tuple(x) for x in c)), 7, len(t), k
            ),
        )
    for words in [
        [["Jean Paul", "x y"], ["a", "b"]],
        [],
        [["a b c d e f g h i j", "k"]] * 3,
        [["a", "b"]],
    ]:
        case("spread_words", [words], lambda w=words: g.spread_words([tuple(p) for p in w]))

    for key in [
        ["order", 2, "Ana"],
        ["setup", "Bob"],
        ["colt-card", 1, 3, "Zoë"],
        ["card", 2, 1, "Ana"],
        ["end", 3, "Bob"],
    ]:
        case("describe", [key], lambda k=key: g.describe(tuple(k)))
    for bills in [[], [50, 1000, 250000], [1000000, 5], [-1500, 20]]:
        case("fmt_bills", [bills], lambda b=bills: g.fmt_bills(b))
    for expression in [
        "2d6",
        "d20+3",
        "4d6kh3",
        "2d20kl",
        "d%",
        "3d6-1d4+2",
        "-d6",
        "+d6",
        "2D6",
        "d6k",
        "2d6kx",
        "12",
        "",
        "d",
        "1d6++2",
        "²",
        "x",
        "2d6 + 1",
    ]:
        case("parse_dice", [expression], lambda e=expression: g.parse_dice(e))
    for text in [
        "[1, (1), 5, 4] - [4] + 2",
        "[3]",
        "- [2] + [4, 5]",
        "[1] + 2 - 3",
        " + [1]",
        "[1, (2]",
        "[1][2]",
        "[]",
        "7",
        "[1,2]",
        "",
    ]:
        case("parse_groups", [text], lambda t=text: g.parse_groups(t))
    return out


def _report(g: Any, fill: Any) -> dict[str, Any]:
    report = g.Report()
    value = fill(report)
    return {"value": value, "lines": report.lines, "code": report.code}


def _entries(entries: Any, text: str) -> Any:
    if entries is None:
        return None
    return [[name, _match(m), m.end()] for name, m in entries]


def text() -> str:
    return json.dumps({"cases": cases()}, ensure_ascii=False, indent=1) + "\n"


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else OUT
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text(), encoding="utf-8")
    print(f"{target}: {len(cases())} cases")
