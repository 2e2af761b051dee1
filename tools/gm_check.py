#!/usr/bin/env python3
"""gm_check: check a game run with gm (Le Magot, Fistful of Gold, Colt Express), with the Python standard library only.

This script does not import gm: it re-implements gm's published hashing
contract (see the README, « Vérifier une partie / Checking a game »), so a
player can check the MJ without trusting gm's code. ``gm check-post`` runs
this very file.

    python gm_check.py thread FILE... [--seed SEED] [--seal HEX]... [--reply FILE]... [--format F]
    python gm_check.py post FILE [--reveal FILE]... [--opening FILE] [--with FILE]...
                                 [--seed SEED] [--seal HEX]... [--reply FILE]... [--format F]
    python gm_check.py seed SEED COMMITMENT
    python gm_check.py seal KIND PAYLOAD_JSON SALT [EXPECTED]
    python gm_check.py label PURPOSE [PLAYER WORD]...
    python gm_check.py draws SEED LABEL N [COUNT]

* ``thread``: many posts at once: files holding one post each, posts pasted
  one after the other, or a whole ``gm chronicle`` (Markdown or HTML). Each
  post is recognised by its title, the posts are put in order, and every check
  the set allows is run; what cannot be checked is said, with the reason.
* ``post``: one post; the others it depends on are given with ``--reveal``,
  ``--opening`` or ``--with`` (any post) and only serve as references.
* ``seed``: is the SHA-256 of the seed's UTF-8 bytes the published commitment?
* ``seal``: the seal of a sealed event ``{kind, payload, salt}``, compared
  with EXPECTED (at least 32 hex digits) if given.
* ``label``: the label of a draw for PURPOSE with the players' words mixed in.
* ``draws``: the integers below N of the stream LABEL; N may be a comma list
  (``40,39,38``): one draw per bound, in order, from the same stream.

Posts are read as copied from the forum: Markdown, BBCode, HTML, or plain
text as a browser copies it (``--format`` forces one). They are read
strictly: markup that can hide text from a reader (HTML comments,
``[color=…]``, ``[size=0]``, spoilers, links, raw HTML, invisible
characters…) is a failure, as are a duplicate line, an unknown line where a
post states secrets, an opened seal without its line, a line without its
opened seal, or a seal of the reveal that the results do not account for.

What is checked (each « seal » compares at least 32 hex digits, all of them):

* Le Magot. Results: each live shot is sealed again from its salt, round,
  shooter, target and option and compared with the seal printed next to it
  and with the reveal's; every order of the reveal is shot, lowered (its
  shooter folded), held (its target folded) or disabled. Disclosure: every
  order of every round, likewise against each reveal. Round posts: the label
  of the draw is recomputed from the words printed with it; with the seed
  (from the final post, checked against the opening's commitment) the bills
  are drawn again from the opening's loot minus the earlier rounds' bills.
* Fistful of Gold. Duel and end-of-manche posts: each card shown in full is
  sealed again (payload ``{"_v": 2, "manche", "duel", "player", "card"}``,
  ``{"_v": 2, "manche", "player", "choice": {"discards", "final"}}``);
  disclosure: every secret choice, against the seals of the setup, duel and
  end-of-manche posts (``{"_v": 2, "player", "cards"}`` for the setup).
* Colt Express. Action posts: each face-down card turned over is sealed
  again from its salt (payload ``{"round", "turn", "player", "card"}``) and
  compared with the seal its Plan post published. Every draw line (« …
  : tirage LABEL, graines : … ») has its label recomputed from the words
  printed with it; with the seed, every draw is made again: the characters
  dealt and the cars' order (train post), the purses in the cars and each
  round's decks (shuffled again, then sealed again with the salts the final
  post discloses: ``{"holder": "gm", "purses"}``, ``{"round", "player",
  "cards"}``, against the seals published at the time), each round's card
  (among those not played yet), each choice drawn by default (R-6, among the
  choices the thread listed when the card waited) and each purse drawn
  (R-7, among the purses the final post lists for it).
* Dice (``gm roll``): the label, and with the seed every die and the total.
* Final post: the seed against the opening's commitment.

What no post can show (shares, wounds, the log's fingerprint) is ``gm
verify``'s, run by the MJ; a seal in a post is compared by its owner with
the one in their private reply (``--seal`` does it for you; ``--reply``
reads the seals of a private reply pasted whole: « Sceau de ton ordre : … »,
« Sceau de ton choix : … », « Ta carte face cachée (tour 2) est scellée : … »).

Exit codes (``--help`` says the same):

* 0: everything was checked, and everything matched;
* 1: a mismatch or a failure (a line says what and where, in French and English);
* 2: unreadable input, or a usage error;
* 3: nothing contradicted, but something could not be checked (a post it
  depends on is missing, the seed is not revealed yet, a short 8-digit seal
  from an older post, a seal not yet opened): never 0 then.

The Python functions ``check_post(report, text, reveals, opening)`` and
``check_thread(report, texts)`` fill a ``Report`` (``lines``, ``failed``,
``unchecked``, ``code``).
"""

from __future__ import annotations

import argparse
import hashlib
import hmac
import itertools
import json
import os
import re
import sys
import unicodedata
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

EXIT_OK = 0
EXIT_MISMATCH = 1
EXIT_UNREADABLE = 2
EXIT_UNCHECKED = 3

PREFIX = "sha256:"
MIN_DIGITS = 32
"""Hex digits a seal or fingerprint must have to be a proof (128 bits)."""
MIX_DIGITS = 32
"""Hex digits of the players' words' mix in a draw label."""

ORDER_KIND = "magot.order-set"
FISTFUL_CARD = "fistful.card-played"
FISTFUL_SETUP = "fistful.setup-discarded"
FISTFUL_END = "fistful.end-chosen"
COLT_CARD = "colt.card-hidden"
COLT_CARDS = {
    "Déplacement": "deplacement",
    "Changement d'étage": "etage",
    "Marshal": "marshal",
    "Tir": "tir",
    "Braquage": "braquage",
    "Coup de poing": "poing",
}
"""Colt Express's action cards as posts name them, and as their seals hold them."""
COLT_DECK = (
    ["deplacement"] * 2 + ["etage"] * 2 + ["marshal"] + ["tir"] * 2 + ["braquage"] * 2 + ["poing"]
)
"""A bandit's 10 action cards in the order gm shuffles them; each bullet received adds a ``balle``."""
COLT_CHARACTERS = ("Belle", "Cheyenne", "Django", "Doc", "Ghost", "Tuco")
COLT_ROUND_CARDS = (
    "Marshal en colère",
    "Bras pivotant",
    "Freinage",
    "Prenez tout !",
    "Rébellion des passagers",
    "Pont",
    "Tunnel",
)
COLT_STATIONS = ("La vengeance du Marshal", "Pickpocket", "Prise d'otage du conducteur")
"""Round cards 1–4 are drawn among those not played yet, in this order; round 5 among the stations."""
COLT_PURSES_PER_CAR = {1: 3, 2: 0, 3: 1, 4: 3, 5: 4, 6: 1}
COLT_PURSE_STOCK = [250] * 8 + [300, 300, 350, 350, 400, 400, 450, 450, 500, 500]
"""The 18 purses; each bandit first takes a 250 $ one, the cars' purses are drawn from the rest."""


def slug(name: str) -> str:
    """A player's name as gm writes it in a draw's purpose (``round-2/deck/ana``)."""
    folded = "".join(c for c in unicodedata.normalize("NFKD", name) if not unicodedata.combining(c))
    return re.sub(r"[^a-z0-9]+", "-", unicodedata.normalize("NFC", folded).casefold()).strip("-")


# --- the hashing contract -------------------------------------------------------


def normalize(value: Any) -> Any:
    if isinstance(value, str):
        return unicodedata.normalize("NFC", value)
    if isinstance(value, dict):
        return {normalize(str(k)): normalize(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [normalize(v) for v in value]
    if isinstance(value, float):
        raise TypeError("floats have no canonical form")
    return value


def canonical_json(value: Any) -> str:
    return json.dumps(normalize(value), sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def seal(kind: str, payload: Any, salt: str) -> str:
    text = canonical_json({"kind": kind, "payload": payload, "salt": salt})
    return PREFIX + hashlib.sha256(text.encode("utf-8")).hexdigest()


def commitment(seed: str) -> str:
    return PREFIX + hashlib.sha256(seed.encode("utf-8")).hexdigest()


def mix(words: Sequence[tuple[str, str]], digits: int = MIX_DIGITS) -> str:
    """The players' words as a label mixes them: the first hex digits of
    SHA-256 over the canonical JSON of ``[[player, word], …]`` (seating order)."""
    text = canonical_json([[player, word] for player, word in words])
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:digits]


def label_for(purpose: str, words: Sequence[tuple[str, str]] = ()) -> str:
    """``purpose``, or ``purpose+<mix>`` when players sent words."""
    return purpose + (f"+{mix(words)}" if words else "")


def stream(seed: str, label: str) -> Iterator[int]:
    key, block = seed.encode("utf-8"), 0
    while True:
        yield from hmac.new(key, f"{label}:{block}".encode(), hashlib.sha256).digest()
        block += 1


def draw_below(source: Iterator[int], n: int) -> int:
    if n < 1:
        raise ValueError(f"N must be at least 1, got {n}")
    if n == 1:
        return 0
    bits = (n - 1).bit_length()
    size = (bits + 7) // 8
    while True:
        value = int.from_bytes(bytes(next(source) for _ in range(size)), "big")
        value &= (1 << bits) - 1
        if value < n:
            return value


def draws(seed: str, label: str, bounds: list[int]) -> list[int]:
    source = stream(seed, label)
    return [draw_below(source, n) for n in bounds]


def shuffle(seed: str, label: str, items: Sequence[Any]) -> list[Any]:
    """gm's ``shuffle``: Fisher–Yates over the stream LABEL, for ``i`` from the
    last index down to 1, swapping item ``i`` with item ``below(i + 1)``."""
    out, source = list(items), stream(seed, label)
    for i in range(len(out) - 1, 0, -1):
        j = draw_below(source, i + 1)
        out[i], out[j] = out[j], out[i]
    return out


# --- reporting --------------------------------------------------------------------


class Report:
    """Lines to print; whether anything differed or could not be checked."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.failed = False
        self.unchecked = False
        self._seen: set[str] = set()

    def _add(self, line: str) -> None:
        if line not in self._seen:  # the same finding reached twice is said once
            self._seen.add(line)
            self.lines.append(line)

    def ok(self, fr: str, en: str) -> None:
        self._add(f"OK : {fr} / {en}")

    def bad(self, fr: str, en: str) -> None:
        self.failed = True
        self._add(f"DIFFÉRENT : {fr} / MISMATCH: {en}")

    def missing(self, fr: str, en: str) -> None:
        self.unchecked = True
        self._add(f"NON VÉRIFIÉ : {fr} / NOT CHECKED: {en}")

    def note(self, fr: str, en: str) -> None:
        self._add(f"NOTE : {fr} / {en}")

    @property
    def code(self) -> int:
        if self.failed:
            return EXIT_MISMATCH
        return EXIT_UNCHECKED if self.unchecked else EXIT_OK

    def summary(self) -> str:
        if self.failed:
            return (
                "BILAN : au moins une différence, voir DIFFÉRENT ci-dessus (code 1)"
                " / SUMMARY: at least one mismatch, see MISMATCH above (exit 1)"
            )
        if self.unchecked:
            return (
                "BILAN : rien de contredit, mais tout n'a pas pu être vérifié, voir NON VÉRIFIÉ"
                " (code 3) / SUMMARY: nothing contradicted, but not everything could be"
                " checked, see NOT CHECKED (exit 3)"
            )
        return "BILAN : tout ce qui a été vérifié concorde (code 0) / SUMMARY: everything checked matches (exit 0)"


class Unreadable(Exception):
    """The input cannot be read at all (exit 2)."""


def hex_digits(value: str) -> str:
    return value.strip().strip("`").lower().removeprefix(PREFIX)


def check_digest(report: Report, computed: str, printed: str, fr: str, en: str) -> bool:
    """Compare a recomputed digest with the digits a post printed: all of them,
    and at least ``MIN_DIGITS``; fewer (an older post) is not a proof."""
    want, full = hex_digits(printed), hex_digits(computed)
    if not re.fullmatch(r"[0-9a-f]{8,64}", want):
        report.bad(f"{fr} : « {printed} » n'est pas un sceau", f"{en}: {printed!r} is not a seal")
        return False
    if not full.startswith(want):
        report.bad(
            f"{fr} : sceau recalculé {full[: len(want)]} ≠ publié {want}",
            f"{en}: recomputed seal {full[: len(want)]} ≠ published {want}",
        )
        return False
    if len(want) < MIN_DIGITS:
        report.missing(
            f"{fr} : sceau court ({4 * len(want)} bits) : pas une preuve",
            f"{en}: short seal ({4 * len(want)} bits): not a proof",
        )
        return True
    report.ok(f"{fr} : sceau {want} retrouvé", f"{en}: seal matches")
    return True


def same_digits(a: str, b: str) -> bool:
    """Two printed digests agree on every digit both give."""
    a, b = hex_digits(a), hex_digits(b)
    n = min(len(a), len(b))
    return n > 0 and a[:n] == b[:n]


def check_seed(report: Report, seed: str, expected: str, fr: str = "", en: str = "") -> bool:
    computed = commitment(seed)
    want = hex_digits(expected)
    where_fr, where_en = (fr + " : ") if fr else "", (en + ": ") if en else ""
    if not re.fullmatch(r"[0-9a-f]{8,64}", want):
        raise Unreadable(f"{expected!r} is not a commitment (hex digits, 32 at least)")
    if not computed.removeprefix(PREFIX).startswith(want):
        report.bad(
            f"{where_fr}SHA-256 de la graine « {seed} » = {computed}, sceau publié = {expected}",
            f"{where_en}the seed's SHA-256 is {computed}, the published commitment is {expected}",
        )
        return False
    if len(want) < MIN_DIGITS:
        report.missing(
            f"{where_fr}sceau du hasard court ({4 * len(want)} bits) : pas une preuve",
            f"{where_en}short commitment ({4 * len(want)} bits): not a proof",
        )
        return True
    report.ok(
        f"{where_fr}la graine correspond au sceau {computed}",
        f"{where_en}the seed matches its commitment",
    )
    return True


def check_seal(report: Report, kind: str, payload: Any, salt: str, expected: str, who: str) -> bool:
    return check_digest(report, seal(kind, payload, salt), expected, who, who)


# --- reading posts: markup -----------------------------------------------------------


@dataclass
class Line:
    """A line as a reader sees it: its text, the code spans in it (ranges of
    ``text``, when the markup has them), its table cells if it is a row."""

    no: int
    text: str
    codes: tuple[tuple[int, int], ...] = ()
    cells: tuple[str, ...] | None = None

    def code_texts(self) -> list[str]:
        return [self.text[a:b] for a, b in self.codes]


Problem = tuple[int, str, str]  # (line number, French, English)

_ASCII_PUNCT = set("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
_ENTITY = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")
_MD_LINK = re.compile(r"\[[^\]\n]*\][(\[]")
_TAGLIKE = re.compile(r"\[(/?)([A-Za-z*][A-Za-z0-9*]*)(?:=([^\]\n]*))?\]")
_INVISIBLE_OK = {"\t"}


def _hidden(what_fr: str, what_en: str) -> tuple[str, str]:
    return (
        f"{what_fr} : ce qu'elle montre ou cache, le vérificateur ne peut pas le montrer au lecteur",
        f"{what_en}: the checker cannot show the reader what it shows or hides",
    )


def _md_inline(s: str, no: int, problems: list[Problem]) -> tuple[str, tuple[tuple[int, int], ...]]:
    """A line of Markdown as displayed: escapes resolved, emphasis dropped, code
    spans kept verbatim (their ranges returned); markup that can hide or
    change text is a problem."""
    out: list[str] = []
    size = 0
    codes: list[tuple[int, int]] = []
    i, n = 0, len(s)
    while i < n:
        c = s[i]
        if c == "\\" and i + 1 < n and s[i + 1] in _ASCII_PUNCT:
            out.append(s[i + 1])
            size += 1
            i += 2
            continue
        if c == "`":
            j = i
            while j < n and s[j] == "`":
                j += 1
            run, k, close = j - i, j, -1
            while k < n:
                if s[k] == "`":
                    m = k
                    while m < n and s[m] == "`":
                        m += 1
                    if m - k == run:
                        close = k
                        break
                    k = m
                else:
                    k += 1
            if close < 0:
                out.append("`" * run)
                size += run
                i = j
                continue
            content = s[j:close]
            if len(content) >= 2 and content[0] == content[-1] == " " and content.strip(" "):
                content = content[1:-1]
            codes.append((size, size + len(content)))
            out.append(content)
            size += len(content)
            i = close + run
            continue
        if c in "*_":
            i += 1
            continue
        if c in "<>":
            problems.append(
                (no, *_hidden("HTML brut ou commentaire (« < » ou « > »)", "raw HTML or a comment"))
            )
        elif c == "&" and _ENTITY.match(s, i):
            problems.append((no, *_hidden("entité HTML", "an HTML entity")))
        elif c == "~" and s.startswith("~~", i):
            problems.append((no, *_hidden("texte barré", "struck-through text")))
        elif c == "[" and (_MD_LINK.match(s, i) or s.startswith("[^", i)):
            problems.append((no, *_hidden("lien, image ou note", "a link, image or footnote")))
        elif c == "[" and _TAGLIKE.match(s, i):
            tag = _TAGLIKE.match(s, i)
            assert tag is not None
            problems.append((no, *_hidden(f"balise {tag[0]}", f"the tag {tag[0]}")))
        out.append(c)
        size += 1
        i += 1
    return "".join(out), tuple(codes)


def _split_md_row(s: str) -> list[str]:
    """Cells of a Markdown table row: split on unescaped pipes."""
    cells, cur, i = [], [], 0
    while i < len(s):
        if s[i] == "\\" and i + 1 < len(s):
            cur.append(s[i : i + 2])
            i += 2
            continue
        if s[i] == "|":
            cells.append("".join(cur))
            cur = []
        else:
            cur.append(s[i])
        i += 1
    cells.append("".join(cur))
    if cells and not cells[0].strip():
        cells = cells[1:]
    if cells and not cells[-1].strip():
        cells = cells[:-1]
    return cells


def _markdown_lines(text: str, problems: list[Problem]) -> list[Line]:
    lines: list[Line] = []
    # An indented code block after a blank line, outside a list, is shown
    # verbatim (a diagram): its lines are read as they are. Anywhere else an
    # indented line may be code or a list's continuation: refused.
    blank, in_list, in_code = True, False, False
    for no, raw in enumerate(text.split("\n"), 1):
        stripped = raw.rstrip()
        if not stripped.strip():
            blank = True
            continue
        indented = re.match(r"(?: {4}|\t)", stripped)
        if indented and (in_code or (blank and not in_list)):
            in_code, blank = True, False
            lines.append(Line(no, stripped[indented.end() :], ()))
            continue
        in_code = False
        if indented:
            problems.append((no, *_hidden("bloc de code indenté", "an indented code block")))
        starts_item = re.match(r"\s*(?:[-*+]|\d{1,9}[.)]) +", stripped) is not None
        in_list = starts_item or (in_list and not blank)
        blank = False
        s = stripped.strip()
        if re.fullmatch(r"([-*_])(?: *\1){2,}", s) or re.fullmatch(r"=+", s):
            continue  # a thematic break or a heading's underline
        if s.startswith(">"):
            problems.append((no, *_hidden("citation", "a block quote")))
        if re.match(r"\[[^\]]+\]:", s):
            problems.append(
                (no, *_hidden("définition de lien (invisible)", "a link definition (invisible)"))
            )
        if s.startswith("|"):
            cells = _split_md_row(s)
            if all(re.fullmatch(r"\s*:?-+:?\s*", c) for c in cells):
                continue
            lines.append(
                Line(
                    no, "", (), tuple(_md_inline(c.strip(), no, problems)[0].strip() for c in cells)
                )
            )
            continue
        heading = re.match(r"#{1,6}(?: +|$)", s)
        if heading:
            s = re.sub(r" +#+ *$", "", s[heading.end() :])
        bullet = re.match(r"(?:[-*+]|\d{1,9}[.)]) +", s)
        if bullet:
            s = s[bullet.end() :]
        shown, codes = _md_inline(s, no, problems)
        lines.append(Line(no, shown, codes))
    return lines


_BB_ALLOWED: dict[str, set[str | None]] = {
    "b": {None},
    "i": {None},
    "size": {"150", "120"},
    "list": {None, "1"},
    "*": {None},
    "table": {None},
    "tr": {None},
    "th": {None},
    "td": {None},
    "code": {None},
}


def _bbcode_lines(text: str, problems: list[Problem]) -> list[Line]:
    """BBCode as a forum shows it; tags other than gm's are problems."""
    lines: list[Line] = []
    buf: list[str] = []
    cells: list[str] | None = None
    in_code = False
    no = start = 1

    def flush() -> None:
        nonlocal buf, start
        shown = "".join(buf).strip()
        if in_code and shown:
            if not re.fullmatch(r"[- ]+", shown):
                lines.append(Line(start, "", (), tuple(re.split(r" {2,}", shown))))
        elif shown:
            lines.append(Line(start, shown))
        buf = []
        start = no

    i = 0
    while i < len(text):
        c = text[i]
        if c == "\n":
            if cells is None:
                flush()
            no += 1
            if cells is None:
                start = no
            i += 1
            continue
        if c == "[" and text.startswith("\u200b", i + 1):
            buf.append("[")  # gm breaks a player's [tag] with U+200B: plain text
            i += 2
            continue
        if c == "[":
            if in_code:
                if text[i : i + 7].lower() == "[/code]":
                    flush()
                    in_code = False
                    i += 7
                    continue
                buf.append(c)
                i += 1
                continue
            tag = _TAGLIKE.match(text, i)
            if tag is not None:
                name, value = tag[2].lower(), tag[3]
                if name not in _BB_ALLOWED or (not tag[1] and value not in _BB_ALLOWED[name]):
                    problems.append((no, *_hidden(f"balise {tag[0]}", f"the tag {tag[0]}")))
                elif name == "tr":
                    if tag[1]:
                        if cells is not None:
                            lines.append(Line(start, "", (), tuple(cells)))
                        cells = None
                        start = no
                    else:
                        flush()
                        cells = []
                elif name in ("td", "th") and cells is not None:
                    if tag[1]:
                        cells.append("".join(buf).strip())
                    buf = []
                elif name in ("*", "list", "table"):
                    flush()
                elif name == "code" and not tag[1]:
                    flush()
                    in_code = True
                i = tag.end()
                continue
        buf.append(c)
        i += 1
    flush()
    return lines


class _HtmlReader(HTMLParser):
    BLOCKS = frozenset(
        [
            "p",
            "h1",
            "h2",
            "h3",
            "h4",
            "h5",
            "h6",
            "li",
            "ul",
            "ol",
            "table",
            "thead",
            "tbody",
            "hr",
            "pre",
        ]
    )
    INLINE = frozenset(["strong", "em", "code", "br", "tr", "th", "td"])

    def __init__(self, problems: list[Problem]) -> None:
        super().__init__(convert_charrefs=True)
        self.problems = problems
        self.lines: list[Line] = []
        self.buf: list[str] = []
        self.size = 0
        self.codes: list[tuple[int, int]] = []
        self.code_start: int | None = None
        self.cells: list[str] | None = None
        self.pre = 0

    def _problem(self, fr: str, en: str) -> None:
        self.problems.append((self.getpos()[0], *_hidden(fr, en)))

    def flush(self) -> None:
        shown = "".join(self.buf)
        stripped = shown.strip(" ")
        lead = len(shown) - len(shown.lstrip(" "))
        codes = tuple((max(0, a - lead), min(len(stripped), b - lead)) for a, b in self.codes)
        if stripped:
            self.lines.append(Line(self.getpos()[0], stripped, codes))
        self.buf, self.size, self.codes = [], 0, []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in self.BLOCKS | self.INLINE:
            self._problem(f"balise <{tag}>", f"the tag <{tag}>")
        for key, value in attrs:
            align = tag in ("th", "td") and key in ("align", "style")
            if not (
                align and re.fullmatch(r"(?:text-align: ?)?(?:left|right|center);?", value or "")
            ):
                self._problem(
                    f"attribut {key}=« {value} » de <{tag}>",
                    f"the attribute {key}={value!r} of <{tag}>",
                )
        if tag == "br":
            self.flush()
        elif tag == "tr":
            self.flush()
            self.cells = []
        elif tag in ("td", "th"):
            self.buf, self.size, self.codes = [], 0, []
        elif tag == "code":
            self.code_start = self.size
        elif tag in self.BLOCKS:
            self.flush()
            if tag == "pre":
                self.pre += 1

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)

    def handle_endtag(self, tag: str) -> None:
        if tag == "tr":
            if self.cells is not None:
                self.lines.append(Line(self.getpos()[0], "", (), tuple(self.cells)))
            self.cells = None
            self.buf, self.size, self.codes = [], 0, []
        elif tag in ("td", "th") and self.cells is not None:
            self.cells.append("".join(self.buf).strip(" "))
            self.buf, self.size, self.codes = [], 0, []
        elif tag == "code" and self.code_start is not None:
            self.codes.append((self.code_start, self.size))
            self.code_start = None
        elif tag in self.BLOCKS:
            if tag == "pre":
                self.pre -= 1
            self.flush()

    def handle_data(self, data: str) -> None:
        if not self.pre:
            data = re.sub(r"[ \t\n\r\f]+", " ", data)
            if self.buf and self.buf[-1].endswith(" ") and data.startswith(" "):
                data = data[1:]
            if not self.buf and self.cells is None:
                data = data.lstrip(" ")
        if self.pre and "\n" in data:
            first, *rest = data.split("\n")
            self.buf.append(first)
            for part in rest:
                self.flush()
                self.buf.append(part)
            self.size = sum(map(len, self.buf))
            return
        self.buf.append(data)
        self.size += len(data)

    def handle_comment(self, data: str) -> None:
        self._problem("commentaire HTML <!-- … -->", "an HTML comment <!-- … -->")

    def handle_decl(self, decl: str) -> None:
        self._problem("déclaration HTML", "an HTML declaration")

    def handle_pi(self, data: str) -> None:
        self._problem("instruction HTML", "an HTML processing instruction")

    def unknown_decl(self, data: str) -> None:
        self._problem("déclaration HTML", "an HTML declaration")


def _html_lines(text: str, problems: list[Problem]) -> list[Line]:
    reader = _HtmlReader(problems)
    try:
        reader.feed(text)
        reader.close()
    except AssertionError as err:  # html.parser's way of giving up on broken markup
        raise Unreadable(f"HTML that cannot be read: {err}") from None
    reader.flush()
    return reader.lines


_STYLING_TAG = re.compile(
    r"\[/?(?:color|colour|size|font|bgcolor|highlight|spoiler|hide|hidden|blur|s|strike|u|sub|sup|url|img|quote|code)\b[^\]\n]*\]",
    re.IGNORECASE,
)


def _plain_lines(text: str, problems: list[Problem]) -> list[Line]:
    """Plain text as a browser copies it (no markup at all): a styling tag in
    it is a post written for a forum that was not read as one."""
    lines = []
    for no, raw in enumerate(text.split("\n"), 1):
        if not raw.strip():
            continue
        tag = _STYLING_TAG.search(raw)
        if tag:
            problems.append((no, *_hidden(f"balise {tag[0]}", f"the tag {tag[0]}")))
        if "\t" in raw.strip():
            cells = tuple(c.strip() for c in raw.strip().split("\t"))
            lines.append(Line(no, "", (), cells))
            continue
        s = re.sub(r"^[•◦▪·*-]\s+", "", raw.strip())
        lines.append(Line(no, s))
    return lines


FORMATS = ("auto", "markdown", "bbcode", "html", "text")


def detect_format(text: str) -> str:
    """HTML, BBCode or Markdown as gm writes them (its titles and fingerprint
    lines), else plain text as a browser copies it: a player's name such as
    « Mo[b] » or « *Zoé* » does not make a copied text BBCode or Markdown."""
    if re.match(r"\s*<", text):
        return "html"
    if re.search(
        r"\[size=1[25]0\]\[b\]|\[i\]Empreinte du registre|^\[\*\]|^\[/?(?:list|table)\]",
        text,
        re.I | re.M,
    ):
        return "bbcode"
    if re.search(
        r"^_Empreinte du registre[ \u00a0]: `|^#{1,6} \S|`[0-9a-f]{8,}`|^\|.*\|$", text, re.MULTILINE
    ):
        return "markdown"
    return "text"


_SPACES = str.maketrans({"\u00a0": " ", "\u202f": " ", "\u2007": " "})


def read_lines(text: str, fmt: str = "auto") -> tuple[str, list[Line], list[Problem]]:
    """The lines of a text as a reader sees them, and what hides something."""
    text = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    # gm puts U+2060 WORD JOINER into names and players' texts where a forum would
    # make a smiley or a link of them (« :⁠D », « http:⁠//… »): it shows nothing and
    # hides nothing, and the names it is in are sealed without it.
    text = text.replace("\u2060", "")
    if fmt == "auto":
        fmt = detect_format(text)
    problems: list[Problem] = []
    if "<!--" in text and fmt != "html":
        no = text[: text.index("<!--")].count("\n") + 1
        problems.append((no, *_hidden("commentaire HTML <!-- … -->", "an HTML comment <!-- … -->")))
    reader = {"markdown": _markdown_lines, "bbcode": _bbcode_lines, "html": _html_lines}.get(
        fmt, _plain_lines
    )
    lines = reader(text, problems)
    out = []
    for line in lines:
        cells = None
        if line.cells is not None:
            cells = tuple(
                unicodedata.normalize("NFC", c.translate(_SPACES)).strip() for c in line.cells
            )
        shown = unicodedata.normalize("NFC", line.text.translate(_SPACES))
        codes = line.codes if len(shown) == len(line.text) else ()
        for ch in shown + "".join(cells or ()):
            if ch not in _INVISIBLE_OK and unicodedata.category(ch) in (
                "Cf",
                "Cc",
                "Co",
                "Zl",
                "Zp",
            ):
                name = unicodedata.name(ch, "?")
                problems.append(
                    (
                        line.no,
                        f"caractère invisible U+{ord(ch):04X} ({name})",
                        f"an invisible character U+{ord(ch):04X} ({name})",
                    )
                )
                break
        if cells is not None:
            if any(cells):  # a table without rows shows one empty row in HTML
                out.append(Line(line.no, "\t".join(cells), (), cells))
        elif re.fullmatch(r"[—\s]*", shown):
            continue  # an empty row of a table written as a list
        else:
            stripped = shown.strip()
            lead = len(shown) - len(shown.lstrip())
            codes = (
                tuple((a - lead, b - lead) for a, b in codes)
                if stripped == shown[lead : lead + len(stripped)]
                else ()
            )
            out.append(Line(line.no, stripped, codes))
    return fmt, *_without_charts(out, problems)


# The fixed-width chart at the end of a round, a manche and the game: a code
# block that repeats the standings (names, amounts, one cell per round). It is
# set aside like a thematic break; what it shows is in the post's own lines.
_CHART_TITLE = re.compile(
    r"Butin (?:après le tour \d+|final), et tour par tour"
    r"|Or de la manche \d+, et duel par duel"
    r"|Étoiles de shérif, et l'or de chaque manche"
)
_CHART_ROW = re.compile(
    r".+? (?:█+ )?(?:[−-]?\d{1,3}(?: \d{3})* \$|\d+ or|\d+ étoiles?)(?: [▁▂▃▄▅▆▇█]+)?"
)


def _without_charts(lines: list[Line], problems: list[Problem]) -> tuple[list[Line], list[Problem]]:
    """``lines`` without the charts' lines, and ``problems`` without the
    « indented code block » each of those lines raised in Markdown."""
    dropped: set[int] = set()
    in_chart = False
    for line in lines:
        shown = re.sub(r"\s+", " ", line.text).strip()
        if _CHART_TITLE.fullmatch(shown):
            in_chart = True
        elif not (in_chart and _CHART_ROW.fullmatch(shown)):
            in_chart = False
            continue
        dropped.add(id(line))
    kept = [li for li in lines if id(li) not in dropped]
    numbers = {li.no for li in lines if id(li) in dropped}
    code = _hidden("bloc de code indenté", "an indented code block")
    return kept, [p for p in problems if not (p[0] in numbers and p[1:] == code)]


# --- reading posts: what each one is ------------------------------------------------

CARD = r"(?:[1-8] (?:rouge|vert)|Dynamite (?:rouge|verte))"
SEAL = r"(?:sha256:)?([0-9a-fA-F]{8,64})"

HEADINGS: list[tuple[str, re.Pattern[str]]] = [
    ("magot-opening", re.compile(r"Le Magot — « (?P<title>.*) »")),
    ("magot-round", re.compile(r"Tour (?P<round>\d+)(?P<last> \(dernier tour\))? — la mise")),
    ("magot-reveal", re.compile(r"Tour (?P<round>\d+) — les armes sont levées")),
    ("magot-results", re.compile(r"Tour (?P<round>\d+) — ça tire")),
    ("magot-final", re.compile(r"Le Magot — fin de partie")),
    ("magot-disclosure", re.compile(r"Le Magot — tous les ordres, enfin dévoilés")),
    ("fistful-opening", re.compile(r"Fistful of Gold — « (?P<title>.*) »")),
    ("fistful-setup", re.compile(r"Mise en place — les cartes sont défaussées")),
    ("fistful-duel", re.compile(r"Manche (?P<manche>\d+) — duel (?P<duel>\d+) sur (?P<duels>\d+)")),
    ("fistful-manche", re.compile(r"Manche (?P<manche>\d+) — le compte")),
    ("fistful-final", re.compile(r"Fistful of Gold — fin du duel « (?P<title>.*) »")),
    ("fistful-disclosure", re.compile(r"Fistful of Gold — toutes les cartes, enfin dévoilées")),
    ("colt-opening", re.compile(r"Colt Express — « (?P<title>.*) »")),
    ("colt-train", re.compile(r"Colt Express — le train est en gare")),
    ("colt-round", re.compile(r"Manche (?P<round>\d+) : (?P<card>.+)")),
    ("colt-plan", re.compile(r"Manche (?P<round>\d+), Plan, tour (?P<turn>\d+) : .+")),
    (
        "colt-action",
        re.compile(r"Manche (?P<round>\d+), Action : cartes? (?P<step>\d+)(?: à \d+)? sur \d+"),
    ),
    ("colt-event", re.compile(r"Fin de la manche (?P<round>\d+) : .+")),
    ("colt-final", re.compile(r"Colt Express — terminus !")),
    ("colt-rules", re.compile(r"Colt Express — les règles en bref")),
    ("magot-rules", re.compile(r"Le Magot — les règles")),
    ("fistful-rules", re.compile(r"Fistful of Gold — les règles")),
    ("roll", re.compile(r"🎲 .*")),
    ("remind", re.compile(r".+ — on attend encore quelqu'un")),
    ("roster", re.compile(r".+ — changement à la table n° (?P<round>\d+)")),
]
FOOTER = re.compile(
    r"Empreinte du registre : (?:sha256:)?(?P<hex>[0-9a-fA-F]{4,64})(?:…[0-9a-fA-F]*)?(?: · (?P<where>.+))?"
)

NAMES_FR = {
    "magot-opening": ("l'ouverture", "the opening"),
    "magot-round": ("la mise du tour {0}", "round {0}'s draw"),
    "magot-reveal": ("la révélation du tour {0}", "round {0}'s reveal"),
    "magot-results": ("les résultats du tour {0}", "round {0}'s results"),
    "magot-final": ("la fin de partie", "the final post"),
    "magot-disclosure": ("le dévoilement", "the disclosure"),
    "fistful-opening": ("l'ouverture", "the opening"),
    "fistful-setup": ("la mise en place", "the setup post"),
    "fistful-duel": ("le duel {1} de la manche {0}", "manche {0}, duel {1}"),
    "fistful-manche": ("le compte de la manche {0}", "the end of manche {0}"),
    "fistful-final": ("la fin de partie", "the final post"),
    "fistful-disclosure": ("le dévoilement", "the disclosure"),
    "colt-opening": ("l'ouverture", "the opening"),
    "colt-train": ("le train", "the train"),
    "colt-round": ("l'ouverture de la manche {0}", "the opening of round {0}"),
    "colt-plan": ("le tour {1} du Plan de la manche {0}", "round {0}, Plan turn {1}"),
    "colt-action": ("l'Action de la manche {0}, carte {1}", "round {0}, Action step {1}"),
    "colt-event": ("la fin de la manche {0}", "the end of round {0}"),
    "colt-final": ("la fin de partie", "the final post"),
    "colt-rules": ("les règles", "the rules"),
    "magot-rules": ("les règles", "the rules"),
    "fistful-rules": ("les règles", "the rules"),
    "roll": ("le jet roll/{0}", "the roll roll/{0}"),
    "remind": ("un rappel", "a reminder"),
    "roster": ("le changement à la table n° {0}", "change at the table no. {0}"),
}


KIND_FR = {
    "opening": "ouverture",
    "round": "mise",
    "reveal": "révélation",
    "results": "résultats",
    "final": "fin de partie",
    "disclosure": "dévoilement",
    "setup": "mise en place",
    "duel": "duel",
    "manche": "compte de manche",
    "roll": "jet de dés",
    "remind": "rappel",
    "roster": "changement à la table",
    "rules": "règles",
    "train": "train",
    "plan": "Plan",
    "action": "Action",
    "event": "fin de manche",
}


@dataclass
class Post:
    source: str
    index: int
    fmt: str
    kind: str
    key: tuple[int, ...]
    heading: Line
    body: list[Line]
    footer: Line | None
    problems: list[Problem] = field(default_factory=list)
    obsolete: bool = False
    number: int | None = None
    data: dict[str, Any] = field(default_factory=dict)

    @property
    def game(self) -> str:
        return self.kind.partition("-")[0] if self.kind not in ("roll", "roster", "remind") else ""

    def name(self) -> tuple[str, str]:
        fr, en = NAMES_FR.get(self.kind, ("un message", "a post"))
        return fr.format(*self.key), en.format(*self.key)

    def at(self, line: Line | None = None) -> tuple[str, str]:
        """« les résultats du tour 2 (resultats.md:7) »."""
        fr, en = self.name()
        place = self.source + (f":{line.no}" if line is not None else "")
        return f"{fr} ({place})", f"{en} ({place})"

    def signature(self) -> str:
        return "\n".join(line.text for line in [self.heading, *self.body])


def identify(line: Line) -> tuple[str, tuple[int, ...]] | None:
    for kind, pattern in HEADINGS:
        m = pattern.fullmatch(line.text)
        if m is None:
            continue
        if kind == "roll":
            label = re.search(r"tirage (?:n° \d+ \()?(?:roll|draw)/(\d+)", line.text)
            return kind, (int(label[1]) if label else 0,)
        keys = tuple(
            int(m[g])
            for g in ("round", "manche", "duel", "turn", "step")
            if g in pattern.groupindex and m[g]
        )
        return kind, keys
    return None


# A chronicle's own lines, as gm writes them in French (« Message 5 — résultats
# · tour 2 ») and as gm 0.x wrote them in English (« Post 5 — results 2 »).
_CHRONICLE_POST = re.compile(
    r"Post (?P<n>\d+) — (?P<name>[a-z-]+(?: [\d.]+)?)(?P<obsolete> — obsolete: undone by the MJ)?"
    r"|Message (?P<fr_n>\d+) — (?P<fr_name>[^—]+?)(?P<fr_obsolete> — obsolète : annulé par le MJ)?"
)
_CHRONICLE_HASH = re.compile(
    r"sha256:[0-9a-f]{64} \((?:after event|après l'événement) \d+, [^)]*\)"
)
_CHRONICLE_TOP = re.compile(r".+ — \d+ (?:posts, \d+ events|messages?, \d+ événements)\.")
# The head of each part of a chronicle cut to fit the forum's post length.
_CHRONICLE_PART = re.compile(r"Archive de « .+ » — partie \d+ sur \d+")
_VERIFICATION = ("Verification", "Vérification")


@dataclass
class Source:
    """One input: its posts, the lines outside any post, what the chronicle says."""

    name: str
    fmt: str
    posts: list[Post]
    outside: list[Line]
    problems: list[Problem]
    chronicle: dict[str, str] = field(default_factory=dict)


def read_source(text: str, name: str, fmt: str = "auto", start: int = 0) -> Source:
    """Split an input into posts: a gm chronicle, or posts one after another
    (each starts at its title and ends with its fingerprint line)."""
    if not text.strip():
        raise Unreadable(f"{name}: empty input")
    fmt, lines, problems = read_lines(text, fmt)
    posts: list[Post] = []
    outside: list[Line] = []
    chronicle: dict[str, str] = {}
    is_chronicle = any(_CHRONICLE_PART.fullmatch(li.text) for li in lines) or (
        any(_CHRONICLE_POST.fullmatch(li.text) for li in lines)
        and any(li.text in _VERIFICATION for li in lines)
    )
    current: Post | None = None
    meta: tuple[int, bool] | None = None  # the chronicle's number and obsolete flag
    in_verification = False
    wrapper: set[int] = set()  # the chronicle's own lines (its title, headers, last section)

    def close() -> None:
        nonlocal current
        current = None

    for line in lines:
        if is_chronicle:
            m = _CHRONICLE_POST.fullmatch(line.text)
            if m:
                close()
                meta = (int(m["n"] or m["fr_n"]), bool(m["obsolete"] or m["fr_obsolete"]))
                wrapper.add(line.no)
                continue
            if _CHRONICLE_PART.fullmatch(line.text):
                wrapper.add(line.no)
                continue
            if line.text in _VERIFICATION:
                close()
                in_verification = True
            if in_verification:
                wrapper.add(line.no)
                v = re.fullmatch(
                    r"(?:Seal of fortune \(SHA-256 of the seed\):|Sceau du hasard \(SHA-256 de la"
                    r" graine\) :) (?:sha256:)?([0-9a-f]{64})",
                    line.text,
                )
                if v:
                    chronicle["commitment"] = v[1]
                v = re.fullmatch(
                    r"(?:Seed \(revealed, the game is over\):|Graine \(révélée, la partie est"
                    r" finie\) :) (.+)",
                    line.text,
                )
                if v:
                    chronicle["seed"] = v[1]
                continue
            if current is None and (
                _CHRONICLE_HASH.fullmatch(line.text)
                or _CHRONICLE_TOP.fullmatch(line.text)
                or line is lines[0]  # the campaign's title
            ):
                wrapper.add(line.no)
                continue
        found = identify(line)
        if found is not None:
            kind, key = found
            current = Post(name, start + len(posts), fmt, kind, key, line, [], None)
            if meta is not None:
                current.number, current.obsolete = meta
                meta = None
            posts.append(current)
            if kind == "roll":
                current.body.append(line)
            continue
        if current is not None and current.footer is None:
            if FOOTER.fullmatch(line.text):
                current.footer = line
                if not is_chronicle:
                    close()
            else:
                current.body.append(line)
            continue
        outside.append(line)
    # a problem belongs to the post whose lines hold it
    spans = []
    for post in posts:
        last = (
            post.footer.no if post.footer else (post.body[-1].no if post.body else post.heading.no)
        )
        spans.append((post.heading.no, last, post))
    rest: list[Problem] = []
    for problem in problems:
        if problem[0] in wrapper:
            continue
        owner = next((p for a, b, p in spans if a <= problem[0] <= b), None)
        (owner.problems if owner is not None else rest).append(problem)
    return Source(name, fmt, posts, outside, rest, chronicle)


# --- small readers ------------------------------------------------------------------


def parse_money(text: str) -> int | None:
    m = re.fullmatch(r"([−-]?)(\d{1,3}(?: \d{3})*) \$", text.strip())
    if m is None:
        return None
    value = int(m[2].replace(" ", ""))
    return -value if m[1] else value


def parse_bills(text: str) -> list[int] | None:
    text = text.strip()
    if text == "aucun":
        return []
    out = []
    for part in text.split(" · "):
        if not re.fullmatch(r"\d{1,3}(?: \d{3})*", part):
            return None
        out.append(int(part.replace(" ", "")))
    return out


def parse_names(text: str, known: Sequence[str]) -> list[str] | None:
    """« fab, marco et lulu » → names (the known ones first)."""
    text = text.strip()
    if known:
        out, pos = [], 0
        names = sorted(known, key=len, reverse=True)
        while pos < len(text):
            name = next((n for n in names if text.startswith(n, pos)), None)
            if name is None:
                break
            out.append(name)
            pos += len(name)
            if pos == len(text):
                return out
            for sep in (", ", " et "):
                if text.startswith(sep, pos):
                    pos += len(sep)
                    break
            else:
                break
    head, sep, last = text.rpartition(" et ")
    parts = [*head.split(", "), last] if sep else [text]
    return [p for p in parts] if all(parts) else None


def parse_entries(
    text: str, tail: str, known: Sequence[str]
) -> list[tuple[str, re.Match[str]]] | None:
    """« NAME TAIL · NAME TAIL … » (TAIL a regex with groups), or None."""
    tail_re = re.compile(" " + tail + r"(?= · |$)")
    generic = re.compile(r"(.+?)" + tail_re.pattern)
    names = sorted(known, key=len, reverse=True)
    out: list[tuple[str, re.Match[str]]] = []
    pos = 0
    while pos < len(text):
        got = None
        for name in names:
            if text.startswith(name, pos):
                m = tail_re.match(text, pos + len(name))
                if m:
                    got = (name, m)
                    break
        if got is None:
            m = generic.match(text, pos)
            if m is None:
                return None
            got = (m[1], tail_re.match(text, pos + len(m[1])))  # type: ignore[arg-type]
            if got[1] is None:
                return None
        out.append(got)
        pos = got[1].end()
        if pos == len(text):
            return out
        if not text.startswith(" · ", pos):
            return None
        pos += 3
    return out if out else None


def split_pair(text: str, sep: str, known: Sequence[str]) -> tuple[str, str] | None:
    """``A sep B`` where A and B are names; with known names, the split that
    gives two of them; else the only one."""
    positions = [m.start() for m in re.finditer(re.escape(sep), text)]
    splits = [(text[:p], text[p + len(sep) :]) for p in positions]
    if known:
        good = [s for s in splits if s[0] in known and s[1] in known]
        if len(good) == 1:
            return good[0]
    return splits[0] if len(splits) == 1 else None


def row_cells(line: Line, count: int) -> tuple[str, ...] | None:
    """The cells of a table row however the forum wrote the table: cells
    (Markdown, [table], [code], HTML, tabs), or « a — b » items of a list."""
    if line.cells is not None:
        return line.cells if len(line.cells) == count else None
    parts = tuple(p.strip() for p in line.text.split(" — "))  # BBCode tables as lists
    return parts if len(parts) == count and " : " not in line.text else None


def card_value(shown: str) -> str:
    return "dynamite" if shown.startswith("Dynamite") else shown.split()[0]


def card_color(shown: str) -> str:
    return "red" if shown.endswith("rouge") else "green"


def parse_draw_clause(
    line: Line, start: int, end: int, known: Sequence[str]
) -> dict[str, Any] | None:
    """« tirage LABEL, graines : fab `x` · … » (or « , tirage sans graine des
    joueurs »), from ``start`` (just after « tirage ») to ``end`` of ``line``."""
    text = line.text[start:end]
    m = re.match(r"(\S+)(?:, tirage sans graine des joueurs|, graines : (.+))$", text)
    if m is None:
        return None
    label = m[1]
    if m[2] is None:
        return {"label": label, "words": []}
    words_start = start + m.start(2)
    codes = [(a, b) for a, b in line.codes if a >= words_start and b <= end]
    words: list[tuple[str, str]] = []
    if codes:  # Markdown / HTML: each word is a code span, each name before it
        pos = words_start
        for a, b in codes:
            name = line.text[pos:a]
            if words:
                if not name.startswith(" · "):
                    return None
                name = name[3:]
            if not name.endswith(" ") or not name.strip():
                return None
            words.append((name[:-1], line.text[a:b]))
            pos = b
        if line.text[pos:end].strip():
            return None
        return {"label": label, "words": words}
    word = r"([\w'.-]+(?: [\w'.-]+)*)"
    entries = parse_entries(m[2], word, known)
    if entries is None:
        return None
    ambiguous = not known and any(" " in e[1][1] for e in entries)
    return {"label": label, "words": [(n, e[1]) for n, e in entries], "ambiguous": ambiguous}


def spread_words(words: list[tuple[str, str]]) -> list[list[tuple[str, str]]]:
    """Every reading of words printed without code spans: « Jean Paul x y »
    may be (« Jean », « Paul x y »), (« Jean Paul », « x y »)…"""
    options = []
    for name, word in words:
        text = f"{name} {word}".split(" ")
        options.append([(" ".join(text[:i]), " ".join(text[i:])) for i in range(1, len(text))])
    return [list(c) for c in itertools.islice(itertools.product(*options), 512)]


# --- the checks -----------------------------------------------------------------------

OPTION_OF = {"BANG BANG BANG": "triple", "BANG": "bang", "CLIC CLIC CLIC": "click"}
OPTION_NAME = {v: k for k, v in OPTION_OF.items()}
FATE_OF = {
    "tiré": "fired",
    "arme baissée": "lowered",
    "cible couchée": "held",
    # a stunned shooter agrees with their gender, or is « groggy » without one
    "sonné": "disabled",
    "sonnée": "disabled",
    "groggy": "disabled",
}
# « mort au tour 3 », « morte … », « hors-jeu … » in the final ranking
DEAD_AT = re.compile(r" \((?:morte?|hors-jeu) au tour \d+\)$")
SECRETISH = re.compile(
    r"\(sel |Sceaux? |^(?:BANG|CLIC)\b|, (?:sonnée?|groggy), | braquait | joue (?:le|la) "
    r"|^(?:Couchée?s?|Se couche(?:nt)?) : "
)


class Checker:
    """Every check a set of posts allows. ``focus``: the posts whose own
    content is checked (``post``); the others serve as references. With
    ``whole`` (``thread``), secrets never opened and posts missing from the
    thread count as not checked."""

    def __init__(
        self,
        report: Report,
        sources: list[Source],
        *,
        focus: set[int] | None = None,
        whole: bool = False,
        seed: str | None = None,
        seals: Sequence[str | ReplySeal] = (),
    ) -> None:
        self.r = report
        self.sources = sources
        self.whole = whole
        self.seed_arg = seed
        self.seals_arg = list(seals)
        self.posts = [p for s in sources for p in s.posts]
        self.focus = focus if focus is not None else {p.index for p in self.posts}
        self.by: dict[tuple[str, tuple[int, ...]], Post] = {}
        self.players: list[str] = []
        self.seats: dict[str, int] = {}
        """Every name a seat had (the opening's, then the changes at the
        table's), to the seat's place in the seating order."""
        self.colors: dict[str, str] = {}
        self.seed: str | None = None
        self.seed_checked = False
        self.commitments: dict[tuple[Any, ...], list[tuple[Post, Line, str]]] = {}
        self.openings: dict[tuple[Any, ...], list[tuple[Post, Line, str]]] = {}
        self.colt_draws: dict[str, tuple[Post, Line, dict[str, Any]]] = {}
        """Colt Express: each draw line read, by the purpose of its stream."""
        self.colt_asked: dict[tuple[int, int], list[str]] = {}
        """Colt Express: (round, step) → the legal choices listed when the card waited."""
        self.colt_defaults: list[tuple[Post, Line, int, int, str]] = []
        """Colt Express: each choice drawn by the fortune (R-6): round, step, choice."""

    # reporting with a place
    def bad(self, post: Post, line: Line | None, fr: str, en: str) -> None:
        wf, we = post.at(line)
        self.r.bad(f"{wf} : {fr}", f"{we}: {en}")

    def missing(self, post: Post, line: Line | None, fr: str, en: str) -> None:
        wf, we = post.at(line)
        self.r.missing(f"{wf} : {fr}", f"{we}: {en}")

    def ok(self, post: Post, fr: str, en: str) -> None:
        wf, we = post.name()
        self.r.ok(f"{wf} : {fr}", f"{we}: {en}")

    def focused(self, post: Post) -> bool:
        return post.index in self.focus

    # ------------------------------------------------------------------ driver
    def run(self) -> None:
        for source in self.sources:
            for no, fr, en in source.problems:
                self.r.bad(
                    f"{source.name}:{no} (hors message / outside a post) : {fr}",
                    f"{source.name}:{no}: {en}",
                )
            self.outside_lines(source)
        posts = [p for p in self.posts if not p.obsolete]
        for post in self.posts:
            for no, fr, en in post.problems:
                wf, we = post.name()
                self.r.bad(f"{wf} ({post.source}:{no}) : {fr}", f"{we} ({post.source}:{no}): {en}")
            if post.obsolete:
                self.missing(
                    post,
                    None,
                    "marqué obsolète (annulé par le MJ) : non vérifié, le suivant compte",
                    "marked obsolete (undone by the MJ): not checked, the next one counts",
                )
        for post in posts:
            if post.kind == "remind":
                continue  # reminders are many, alike in title, and prove nothing
            key = (post.kind, post.key)
            other = self.by.get(key)
            if other is None:
                self.by[key] = post
            elif other.signature() != post.signature():
                self.bad(
                    post,
                    post.heading,
                    f"deux messages différents pour {post.name()[0]} ({other.source})",
                    f"two different posts for {post.name()[1]} ({other.source})",
                )
        games = {p.game for p in posts if p.game}
        if len(games) > 1:
            self.r.bad(
                "des messages de deux jeux différents dans le même fil",
                "posts of two different games in one thread",
            )
        if not posts:
            raise Unreadable("no post of gm recognised (a title such as « Tour 2 — ça tire »)")
        if self.whole:
            kinds = Counter(KIND_FR.get(p.kind.partition("-")[2] or p.kind, p.kind) for p in posts)
            self.r.note(
                f"{len(posts)} messages reconnus : "
                + ", ".join(f"{k} ×{n}" for k, n in kinds.items()),
                f"{len(posts)} posts recognised",
            )
        self.read_openings()
        self.read_roster(posts)
        self.read_seed()
        for post in sorted(posts, key=lambda p: p.index):
            handler = getattr(self, "parse_" + post.kind.replace("-", "_"), None)
            if handler is not None:
                handler(post)
            self.check_footer(post)
        self.check_magot()
        self.check_fistful()
        self.check_colt()
        self.check_rolls()
        self.check_secrets()
        self.check_given_seals()
        self.check_obsolete()
        for post in posts:
            if (
                self.focused(post)
                and not self.whole
                and post.kind.endswith(("-opening", "-rules", "remind", "roster"))
            ):
                later = post.kind.endswith("-opening")
                self.r.note(
                    f"{post.name()[0]} : ce message n'énonce aucun secret"
                    + (" ; son sceau du hasard se vérifie avec la fin de partie" if later else ""),
                    f"{post.name()[1]}: this post states no secret"
                    + ("; its commitment is checked with the final post" if later else ""),
                )
        if self.whole:
            self.check_complete()

    def check_obsolete(self) -> None:
        """A post the MJ undid (the chronicle marks it) was read by the
        players: the seals it published and the one that replaced it differ
        when an order changed after it."""
        for post in self.posts:
            current = self.by.get((post.kind, post.key))
            if not post.obsolete or current is None or current is post:
                continue
            before = {
                name: m[1].lower()
                for line in post.body
                if (
                    found := re.fullmatch(
                        r"Sceaux (?:des ordres|des défausses|des choix de fin de manche) : (.+?)(?: — .*)?",
                        line.text,
                    )
                )
                for name, m in parse_entries(found[1], SEAL, self.known(post)) or []
            }
            now = current.data.get("seals", {})
            for name, digits in before.items():
                if name in now and not same_digits(digits, now[name]):
                    self.missing(
                        current,
                        None,
                        f"le sceau de {name} ({digits}) publié dans le message annulé a changé ({now[name]}) : son secret a changé après publication",
                        f"{name}'s seal ({digits}) published in the undone post changed ({now[name]}): their secret changed after it was published",
                    )

    def outside_lines(self, source: Source) -> None:
        secretish = [
            li for li in source.outside if SECRETISH.search(li.text) or FOOTER.fullmatch(li.text)
        ]
        for line in secretish:
            self.r.bad(
                f"{source.name}:{line.no} : ligne hors de tout message reconnu qui ressemble à un secret : « {line.text[:60]} »",
                f"{source.name}:{line.no}: a line outside any recognised post that looks like a secret",
            )
        rest = len(source.outside) - len(secretish)
        if rest:
            self.r.note(
                f"{source.name} : {rest} ligne(s) hors des messages de gm, ignorées",
                f"{source.name}: {rest} line(s) outside gm's posts, ignored",
            )

    def check_footer(self, post: Post) -> None:
        if post.footer is None:
            if post.kind != "roll":
                self.r.note(
                    f"{post.at()[0]} : pas de ligne « Empreinte du registre »",
                    f"{post.at()[1]}: no fingerprint line",
                )
            return
        m = FOOTER.fullmatch(post.footer.text)
        assert m is not None
        if len(m["hex"]) < MIN_DIGITS and self.focused(post):
            self.r.note(
                f"{post.at(post.footer)[0]} : empreinte du registre courte ({4 * len(m['hex'])} bits), d'une version antérieure de gm",
                f"{post.at(post.footer)[1]}: a short ledger fingerprint ({4 * len(m['hex'])} bits), from an older gm",
            )
        where = (m["where"] or "").split(" · ")[0]
        expected = {
            "magot-round": f"tour {post.key[0]}" if post.key else "",
            "magot-reveal": f"tour {post.key[0]}" if post.key else "",
            "magot-results": f"tour {post.key[0]}" if post.key else "",
            "fistful-setup": "mise en place",
            "fistful-duel": f"manche {post.key[0]}, duel {post.key[1]}"
            if len(post.key) == 2
            else "",
            "fistful-manche": f"fin de la manche {post.key[0]}" if post.key else "",
            "colt-round": f"tour {post.key[0]}" if post.key else "",
            "colt-plan": f"manche {post.key[0]}, tour {post.key[1]}" if len(post.key) == 2 else "",
            "colt-action": f"manche {post.key[0]}, carte {post.key[1]}"
            if len(post.key) == 2
            else "",
            "colt-event": f"tour {post.key[0]}" if post.key else "",
        }.get(post.kind)
        if (
            expected is None
            or where == expected
            or (re.fullmatch(r"tour \d+", where) and post.game == "fistful")
        ):
            return
        self.bad(
            post,
            post.footer,
            f"le pied dit « {where} », le titre « {expected} »",
            f"the footer says {where!r}, the title {expected!r}",
        )

    # ----------------------------------------------------------- openings and seed
    def read_openings(self) -> None:
        for kind in ("magot-opening", "fistful-opening", "colt-opening"):
            post = self.by.get((kind, ()))
            if post is None:
                continue
            data = post.data
            for line in post.body:
                t = line.text
                m = re.fullmatch(r"Sceau du hasard : (?:sha256:)?([0-9a-fA-F]+) — .*", t)
                if m:
                    if "commitment" in data:
                        self.bad(post, line, "deux sceaux du hasard", "two commitments")
                    data["commitment"] = m[1].lower()
                    data["commitment_line"] = line
                m = re.fullmatch(r"Joueurs \(dans l'ordre\) : (.+)", t)
                if m:
                    data["players"] = m[1].split(" · ")
                m = re.fullmatch(r"Bandits : (.+)", t)
                if m and kind == "colt-opening":
                    data["players"] = parse_names(m[1], []) or []
                m = re.fullmatch(r"Duellistes : (.+)", t)
                if m:
                    entries = parse_entries(m[1], r"\(deck (rouge|vert)\)", [])
                    if entries:
                        data["players"] = [n for n, _ in entries]
                        self.colors = {n: "red" if e[1] == "rouge" else "green" for n, e in entries}
                m = re.fullmatch(r"Le magot : ([\d  ]+) \$ en (\d+) billets \((.+)\)\.", t)
                if m:
                    deck: list[int] = []
                    for part in m[3].split(", "):
                        item = re.fullmatch(r"(\d+) × ([\d ]+) \$", part)
                        if item is None:
                            deck = []
                            break
                        deck += [int(item[2].replace(" ", ""))] * int(item[1])
                    if deck and len(deck) == int(m[2]) and sum(deck) == int(m[1].replace(" ", "")):
                        data["deck"] = sorted(deck, reverse=True)
                    else:
                        self.bad(
                            post,
                            line,
                            "le magot annoncé ne tombe pas juste",
                            "the announced loot does not add up",
                        )
                m = re.match(r"Règles en bref — chaque tour, (\d+) billets rejoignent la mise", t)
                if m:
                    data["per_round"] = int(m[1])
            if "commitment" not in data:
                self.bad(post, None, "pas de sceau du hasard", "no commitment")
            self.players = data.get("players", [])
            if len(set(self.players)) != len(self.players):
                self.bad(post, None, "un joueur apparaît deux fois", "a player is listed twice")

    def read_roster(self, posts: list[Post]) -> None:
        """Changes at the table (« X prend la place de Y », « Y s'appelle
        désormais X »): the newcomer sits in the seat, so their name is a
        player's, in that seat's place in the seating order."""
        self.seats = {name: i for i, name in enumerate(self.players)}
        changes = sorted((p for p in posts if p.kind == "roster"), key=lambda p: p.key)
        for post in changes:
            for line in post.body:
                m = re.fullmatch(
                    r"(?:\*\*)?(?P<new>.+?)(?:\*\*)? prend la place de (?P<old>.+?) : .*"
                    r"|(?P<old2>.+?) s'appelle désormais (?:\*\*)?(?P<new2>.+?)(?:\*\*)?\.",
                    line.text,
                )
                if m is None:
                    continue
                old, new = m["old"] or m["old2"], m["new"] or m["new2"]
                if self.players and old not in self.seats:
                    self.check_player(post, line, old)
                    continue
                self.seats[new] = self.seats.get(old, len(self.seats))

    def as_seats(self, value: Any) -> Any:
        """``value`` (a secret as a post shows it) with each player's name of
        now replaced by their seat: the name the seat had at the opening,
        which gm seals (logs of protocol 3); older logs sealed the name of the
        moment, so both forms are tried."""
        if isinstance(value, str):
            place = self.seats.get(value)
            if place is not None and place < len(self.players):
                return self.players[place]
            return value
        if isinstance(value, list):
            return [self.as_seats(v) for v in value]
        if isinstance(value, dict):
            return {self.as_seats(k): self.as_seats(v) for k, v in value.items()}
        return value

    def read_seed(self) -> None:
        final = (
            self.by.get(("magot-final", ()))
            or self.by.get(("fistful-final", ()))
            or self.by.get(("colt-final", ()))
        )
        opening = (
            self.by.get(("magot-opening", ()))
            or self.by.get(("fistful-opening", ()))
            or self.by.get(("colt-opening", ()))
        )
        printed = None
        if final is not None:
            lines = [li for li in final.body if li.text.startswith("Graine du hasard")]
            if len(lines) != 1:
                self.bad(
                    final,
                    None,
                    f"{len(lines)} lignes « Graine du hasard » (une attendue)",
                    f"{len(lines)} seed lines (one expected)",
                )
            for line in lines[:1]:
                m = re.fullmatch(
                    r"Graine du hasard : (.+?) — son empreinte SHA-256 est le sceau publié au début de la partie.*",
                    line.text,
                )
                if m is None:
                    self.bad(final, line, "ligne de la graine illisible", "unreadable seed line")
                else:
                    printed = m[1]
                    final.data["seed"] = printed
                    final.data["seed_line"] = line
            rounds = next(
                (
                    re.match(r"Après (\d+) tours?, ", li.text)
                    for li in final.body
                    if li.text.startswith("Après ")
                ),
                None,
            )
            if rounds:
                final.data["rounds"] = int(rounds[1])
        want = opening.data.get("commitment") if opening is not None else None
        chronicle = [s.chronicle for s in self.sources if s.chronicle]
        for c in chronicle:
            if want and c.get("commitment") and c["commitment"] != want:
                self.r.bad(
                    "la chronique donne un autre sceau du hasard que l'ouverture",
                    "the chronicle gives another commitment than the opening",
                )
            if printed and c.get("seed") and c["seed"] != printed:
                self.r.bad(
                    "la chronique donne une autre graine que la fin de partie",
                    "the chronicle gives another seed than the final post",
                )
        candidates = (
            [(printed, final, final.data.get("seed_line"))]
            if printed is not None and final is not None
            else []
        )
        if self.seed_arg is not None:
            candidates.append((self.seed_arg, None, None))
        for seed, post, line in candidates:
            focus = (
                post is None
                or self.focused(post)
                or (opening is not None and self.focused(opening))
            )
            if want is None:
                if focus and post is not None:
                    self.missing(
                        post,
                        line,
                        "graine non comparée au sceau du hasard (l'ouverture manque)",
                        "seed not compared with the commitment (the opening is missing)",
                    )
                elif focus:
                    self.r.missing(
                        "graine donnée (--seed) non comparée au sceau du hasard : l'ouverture manque",
                        "the --seed was not compared with the commitment: the opening is missing",
                    )
                self.seed = self.seed or seed
                continue
            report = self.r if focus else Report()
            place = post.at(line) if post is not None else ("--seed", "--seed")
            if commitment(seed).removeprefix(PREFIX).startswith(want):
                check_seed(report, seed, want, *place)
                self.seed, self.seed_checked = seed, len(want) >= MIN_DIGITS
            elif "\\" in seed and commitment(re.sub(r"\\(.)", r"\1", seed)).removeprefix(
                PREFIX
            ).startswith(want):
                fixed = re.sub(r"\\(.)", r"\1", seed)
                report.missing(
                    f"{place[0]} : la graine est imprimée échappée (« {seed} ») : c'est « {fixed} », sans les barres obliques, qui correspond au sceau ; le message ne donne pas les octets exacts à vérifier",
                    f"{place[1]}: the seed is printed escaped ({seed!r}): {fixed!r}, without the backslashes, matches the commitment; the post does not print the exact bytes",
                )
                self.seed = fixed
            else:
                check_seed(report, seed, want, *place)

    # ------------------------------------------------------------------ secrets
    def commit(self, key: tuple[Any, ...], post: Post, line: Line, digits: str) -> None:
        self.commitments.setdefault(key, []).append((post, line, digits.lower()))

    def open(self, key: tuple[Any, ...], post: Post, line: Line, digits: str) -> None:
        self.openings.setdefault(key, []).append((post, line, digits.lower()))

    def opened_entries(self, post: Post, line: Line, text: str) -> list[tuple[str, str, str]]:
        entries = parse_entries(text, SEAL + r" \(sel ([0-9a-fA-F]{8,128})\)", self.known(post))
        if entries is None:
            self.bad(
                post,
                line,
                "ligne « Sceaux ouverts » illisible",
                "unreadable « Sceaux ouverts » line",
            )
            return []
        out = [(name, m[1].lower(), m[2]) for name, m in entries]
        self.no_duplicates(post, line, [n for n, _, _ in out], "sceau ouvert", "opened seal")
        return out

    def sealed_entries(self, post: Post, line: Line, text: str) -> list[tuple[str, str]]:
        entries = parse_entries(text, SEAL, self.known(post))
        if entries is None:
            self.bad(post, line, "ligne de sceaux illisible", "unreadable line of seals")
            return []
        out = [(name, m[1].lower()) for name, m in entries]
        self.no_duplicates(post, line, [n for n, _ in out], "sceau", "seal")
        return out

    def no_duplicates(
        self, post: Post, line: Line | None, names: Iterable[Any], fr: str, en: str
    ) -> None:
        for name, count in Counter(names).items():
            if count > 1:
                self.bad(post, line, f"{fr} en double pour {name}", f"duplicate {en} for {name}")

    def known(self, post: Post) -> list[str]:
        if self.players:
            return self.players
        return post.data.get("names", [])

    def check_player(self, post: Post, line: Line, name: str) -> None:
        if self.players and name not in self.players and name not in self.seats:
            self.bad(
                post,
                line,
                f"« {name} » n'est pas un joueur de l'ouverture",
                f"{name!r} is not a player of the opening",
            )

    def check_secrets(self) -> None:
        """Openings against the commitments published before them; commitments
        never opened (``thread``); seals too short to prove anything."""
        for key, opens in self.openings.items():
            commits = self.commitments.get(key, [])
            for post, line, digits in opens:
                for cpost, cline, cdigits in commits + opens:
                    if cpost is post and cline is line:
                        continue
                    if not (self.focused(post) or self.focused(cpost)):
                        continue
                    if not same_digits(digits, cdigits):
                        self.bad(
                            post,
                            line,
                            f"{describe(key)[0]} : sceau {digits} ≠ {cdigits} publié dans {cpost.at(cline)[0]}",
                            f"{describe(key)[1]}: seal {digits} ≠ {cdigits} published in {cpost.at(cline)[1]}",
                        )
                    elif (
                        cpost is not post
                        and (cpost, cline, cdigits) in commits
                        and self.focused(post)
                    ):
                        self.r.ok(
                            f"{describe(key)[0]} : sceau ouvert dans {post.name()[0]} = sceau publié avant dans {cpost.name()[0]}",
                            f"{describe(key)[1]}: seal opened in {post.name()[1]} = seal published before in {cpost.name()[1]}",
                        )
        self.disclosure_opens_everything()
        if not self.whole:
            return
        for key, commits in self.commitments.items():
            if key in self.openings:
                continue
            post, line, digits = commits[0]
            self.missing(
                post,
                line,
                f"{describe(key)[0]} : sceau {digits} jamais ouvert dans les messages donnés (le dévoilement manque ?)",
                f"{describe(key)[1]}: seal {digits} never opened in the posts given (is the disclosure missing?)",
            )

    def disclosure_opens_everything(self) -> None:
        """The disclosure opens every secret in force: each seal another post
        published (a reveal, the setup, an end of manche) and each secret
        another post opened (a shot, a duel's card)."""
        for game in ("magot", "fistful"):
            disclosure = self.by.get((f"{game}-disclosure", ()))
            if disclosure is None or not self.focused(disclosure):
                continue
            there = {
                k for k, items in self.openings.items() if any(p is disclosure for p, _, _ in items)
            }
            before = [
                (key, items[0])
                for table in (self.commitments, self.openings)
                for key, items in table.items()
                if key not in there and any(p is not disclosure for p, _, _ in items)
            ]
            seen: set[tuple[Any, ...]] = set()
            for key, (post, line, digits) in before:
                if key in seen or post is disclosure:
                    continue
                seen.add(key)
                fr = f"{describe(key)[0]} : sceau {digits} publié dans {post.at(line)[0]}, mais absent du dévoilement"
                en = f"{describe(key)[1]}: seal {digits} published in {post.at(line)[1]}, but missing from the disclosure"
                if disclosure.data.get("older"):
                    self.missing(
                        disclosure,
                        None,
                        fr + " (peut-être parmi les choix d'avant gm 0.2)",
                        en + " (maybe among the choices before gm 0.2)",
                    )
                else:
                    self.bad(disclosure, None, fr, en)

    def check_given_seals(self) -> None:
        for given in self.seals_arg:
            if isinstance(given, ReplySeal):  # read from a private reply (--reply)
                self.check_reply_seal(given)
                continue
            want = hex_digits(given)
            if not re.fullmatch(r"[0-9a-f]{8,64}", want):
                raise Unreadable(f"--seal {given!r}: not a seal (hex digits)")
            found = [
                (key, post, line)
                for table in (self.commitments, self.openings)
                for key, items in table.items()
                for post, line, digits in items
                if same_digits(want, digits) and len(digits) >= min(len(want), MIN_DIGITS)
            ]
            if not found:
                self.r.bad(
                    f"ton sceau {want} n'apparaît dans aucun des messages donnés : si ce sont ceux du tour de ton ordre, l'ordre publié n'est pas le tien",
                    f"your seal {want} appears in none of the posts given: if they are those of your order's round, the order published is not yours",
                )
                continue
            key, post, line = found[0]
            if len(want) < MIN_DIGITS:
                self.r.missing(
                    f"ton sceau {want} est court ({4 * len(want)} bits) : pas une preuve",
                    f"your seal {want} is short: not a proof",
                )
            else:
                self.r.ok(
                    f"ton sceau {want} est celui publié pour {describe(key)[0]} dans {post.at(line)[0]}",
                    f"your seal {want} is the one published for {describe(key)[1]} in {post.at(line)[1]}",
                )

    def check_reply_seal(self, given: ReplySeal) -> None:
        """A seal of a private reply, found where gm publishes it: a Plan,
        reveal, setup or end-of-manche post, or (a Colt instruction, never
        published before) the final post's list of secrets."""
        want, fr, en = given.digits, given.what_fr, given.what_en
        src = f"{given.source}:{given.no}"
        found = [
            ((f"pour {describe(key)[0]}", f"for {describe(key)[1]}"), post, line)
            for table in (self.commitments, self.openings)
            for key, items in table.items()
            for post, line, digits in items
            if same_digits(want, digits) and len(digits) >= min(len(want), MIN_DIGITS)
        ]
        final = self.by.get(("colt-final", ()))
        if not found and given.kind == "instruction" and final is not None:
            found = [
                (("parmi les secrets de la partie", "among the game's secrets"), final, line)
                for line in final.body
                if line.text.startswith("Secrets de la partie (sceau, sel) : ")
                for digits in re.findall(r"[0-9a-fA-F]{8,64}", line.text)
                if same_digits(want, digits) and len(digits) >= min(len(want), MIN_DIGITS)
            ]
        if not found and given.kind == "instruction" and final is None:
            self.r.missing(
                f"{fr} ({src}) : sceau {want} : une consigne n'est publiée qu'avec le message final, absent ici",
                f"{en} ({src}): seal {want}: an instruction is published only with the final post, not given here",
            )
            return
        if not found:
            self.r.bad(
                f"{fr} ({src}) : sceau {want} publié dans aucun des messages donnés : si ce sont ceux de ce tour, ce que le MJ a publié n'est pas ce que tu as envoyé",
                f"{en} ({src}): seal {want} published in none of the posts given: if they are those of its round, what the MJ published is not what you sent",
            )
            return
        (what_fr, what_en), post, line = found[0]
        if len(want) < MIN_DIGITS:
            self.r.missing(
                f"{fr} ({src}) : sceau {want} court ({4 * len(want)} bits) : pas une preuve",
                f"{en} ({src}): seal {want} is short ({4 * len(want)} bits): not a proof",
            )
        else:
            self.r.ok(
                f"{fr} ({src}) : sceau {want} publié {what_fr} dans {post.at(line)[0]}, identique",
                f"{en} ({src}): seal {want} published {what_en} in {post.at(line)[1]}, identical",
            )

    # ---------------------------------------------------------------- Le Magot
    def pre_names(self, post: Post, column: int, count: int) -> None:
        names = []
        for line in post.body:
            cells = row_cells(line, count)
            if cells and cells[0] not in ("qui", "joueur", "rang"):
                names.append(DEAD_AT.sub("", cells[column]))
        post.data.setdefault("names", names)

    def parse_magot_round(self, post: Post) -> None:
        d = post.data
        d["round"] = post.key[0]
        section = True
        seen: Counter[str] = Counter()
        for line in post.body:
            t = line.text
            if not section:
                if t.startswith(("tirage ", "nouveaux billets", "Graines des joueurs")):
                    self.bad(
                        post,
                        line,
                        "ligne de tirage hors de sa place",
                        "a draw line out of its place",
                    )
                continue
            m = re.fullmatch(r"Sur la table : (.+)", t)
            if m:
                seen["pot"] += 1
                d["pot"] = parse_money(m[1])
                continue
            m = re.fullmatch(r"reste du tour (\d+) : (.+)", t)
            if m:
                seen["carried"] += 1
                d["carried"] = parse_bills(m[2])
                continue
            m = re.fullmatch(
                r"nouveaux billets : (.+?)( \(tirés à la main par le MJ\)| \(tirage n° \d+, (draw/\S+)\))?",
                t,
            )
            if m:
                seen["drawn"] += 1
                d["drawn"] = parse_bills(m[1])
                d["manual"] = bool(m[2] and "main" in m[2])
                if m[3]:
                    d["old_label"] = m[3]
                continue
            if t.startswith("tirage "):
                seen["draw"] += 1
                d["draw"] = parse_draw_clause(line, len("tirage "), len(t), self.known(post))
                d["draw_line"] = line
                if d["draw"] is None:
                    self.bad(post, line, "ligne de tirage illisible", "unreadable draw line")
                continue
            m = re.fullmatch(r"Graines des joueurs mêlées au tirage : (.+)", t)
            if m:
                seen["old_words"] += 1
                d["old_words"] = m[1]
                continue
            m = re.fullmatch(r"Il reste (\d+) billets? dans le magot \((.+)\)\.", t)
            if m:
                d["left"] = (int(m[1]), parse_money(m[2]))
                section = False
                continue
            if t == "Le magot est vide : c'est la dernière mise.":
                d["left"] = (0, 0)
                section = False
                continue
            self.bad(
                post,
                line,
                f"ligne inconnue dans le tirage : « {t[:60]} »",
                f"unknown line in the draw: {t[:60]!r}",
            )
        for what, count in seen.items():
            if count > 1:
                self.bad(post, None, f"ligne « {what} » en double", f"duplicate {what} line")
        if d.get("drawn") is None:
            self.bad(
                post,
                None,
                "pas de ligne « nouveaux billets » lisible",
                "no readable « nouveaux billets » line",
            )
        elif not d.get("manual") and "draw" not in d and "old_label" not in d:
            self.bad(
                post,
                None,
                "billets tirés par la fortune sans ligne « tirage »",
                "bills drawn by the fortune without a draw line",
            )
        if "old_label" in d and self.focused(post):
            self.missing(
                post,
                None,
                f"tirage d'avant gm 0.2 ({d['old_label']}) : son étiquette n'est pas recalculée des graines",
                f"a draw from before gm 0.2 ({d['old_label']}): its label is not recomputed from the words",
            )
        if d.get("manual") and "draw" in d:
            self.bad(
                post,
                d["draw_line"],
                "tirage à la main avec une ligne de tirage",
                "a manual draw with a draw line",
            )
        if d.get("pot") is not None and d.get("drawn") is not None:
            total = sum(d.get("carried") or []) + sum(d["drawn"])
            if total != d["pot"]:
                self.bad(
                    post,
                    None,
                    f"sur la table {d['pot']} $ ≠ report + nouveaux billets {total} $",
                    f"the pot {d['pot']} ≠ carried + new bills {total}",
                )
        if self.focused(post) and isinstance(d.get("draw"), dict):
            self.check_label(post, d["draw_line"], d["draw"], f"round-{post.key[0]}/bills")

    def check_label(self, post: Post, line: Line, draw: dict[str, Any], purpose: str) -> None:
        label: str = draw["label"]
        words = draw["words"]
        base, plus, digits = label.partition("+")
        if base != purpose:
            self.bad(
                post,
                line,
                f"le tirage lit le flux {base}, celui de ce message est {purpose}",
                f"the draw reads the stream {base}, this post's is {purpose}",
            )
            return
        for name, _ in words:
            self.check_player(post, line, name)
        self.no_duplicates(post, line, [n for n, _ in words], "graine", "word")
        if self.players and words:
            order = [n for n, _ in words]
            seated = sorted(order, key=lambda n: self.seats.get(n, len(self.seats)))
            if order != seated:
                self.bad(
                    post, line, "graines pas dans l'ordre des joueurs", "words not in seating order"
                )
        if not words:
            if plus:
                self.bad(
                    post,
                    line,
                    f"étiquette {label} avec un mélange, mais aucune graine listée",
                    f"label {label} has a mix, but no word is listed",
                )
            else:
                self.ok(
                    post,
                    f"étiquette {label} (sans graine des joueurs)",
                    f"label {label} (no players' words)",
                )
            return
        if len(digits) != MIX_DIGITS:
            self.bad(
                post,
                line,
                f"le mélange des graines a {len(digits)} chiffres hexadécimaux, {MIX_DIGITS} attendus",
                f"the words' mix has {len(digits)} hex digits, {MIX_DIGITS} expected",
            )
            return
        readings = spread_words(words) if draw.get("ambiguous") else [words]
        good = [w for w in readings if label_for(purpose, w) == label]
        if good:
            shown = " · ".join(f"{n} « {w} »" for n, w in good[0])
            self.ok(
                post,
                f"étiquette {label} recalculée des graines {shown}",
                f"label {label} recomputed from the words",
            )
            draw["words"] = good[0]
        else:
            self.bad(
                post,
                line,
                f"étiquette recalculée {label_for(purpose, words)} ≠ publiée {label}",
                f"recomputed label {label_for(purpose, words)} ≠ published {label}",
            )

    def parse_magot_reveal(self, post: Post) -> None:
        self.pre_names(post, 0, 2)
        d = post.data
        d["round"] = r = post.key[0]
        aims: dict[str, str] = {}
        seals: dict[str, str] = {}
        section, header, nobody = True, False, False
        for line in post.body:
            t = line.text
            if not section:
                if SECRETISH.search(t) or row_cells(line, 2):
                    self.bad(
                        post,
                        line,
                        f"ligne d'ordre hors de sa section : « {t[:60]} »",
                        "an order line out of its section",
                    )
                continue
            if t.startswith("Sur la table : "):
                section = False
                continue
            if t == "Personne ne braque personne. Étrange silence dans l'entrepôt.":
                nobody = True
                continue
            m = re.fullmatch(
                r"Sans ordre : (.+) — (?:(?:ils|elles) ne braquent personne|ne braque personne"
                r"|personne dans leur viseur) ce tour-ci\.",
                t,
            )
            if m:
                d["missing"] = parse_names(m[1], self.known(post)) or []
                continue
            m = re.fullmatch(r"Sceaux des ordres : (.+)", t)
            if m:
                if seals:
                    self.bad(
                        post,
                        line,
                        "ligne « Sceaux des ordres » en double",
                        "duplicate line of seals",
                    )
                for name, digits in self.sealed_entries(post, line, m[1]):
                    self.check_player(post, line, name)
                    seals[name] = digits
                    self.commit(("order", r, name), post, line, digits)
                    d.setdefault("seal_lines", {})[name] = line
                continue
            cells = row_cells(line, 2)
            if cells == ("qui", "braque"):
                if header:
                    self.bad(post, line, "en-tête de tableau en double", "duplicate table header")
                header = True
                continue
            if cells is not None and header:
                a, b = cells
                self.check_player(post, line, a)
                self.check_player(post, line, b)
                if a in aims:
                    self.bad(post, line, f"{a} braque deux fois", f"{a} aims twice")
                aims[a] = b
                continue
            self.bad(
                post,
                line,
                f"ligne inconnue dans la révélation : « {t[:60]} »",
                f"unknown line in the reveal: {t[:60]!r}",
            )
        if nobody and aims:
            self.bad(post, None, "« personne ne braque » et des visées", "« nobody aims » and aims")
        for a in aims:
            if a not in seals:
                self.bad(
                    post, None, f"{a} braque sans sceau d'ordre", f"{a} aims without an order seal"
                )
        for a in seals:
            if a not in aims:
                self.bad(
                    post,
                    None,
                    f"sceau de {a} sans visée dans le tableau",
                    f"a seal for {a} without an aim in the table",
                )
        d["aims"], d["seals"] = aims, seals
        if self.focused(post) and seals and self.focused(post):
            self.r.note(
                f"{post.name()[0]} : {len(seals)} sceaux d'ordres ; chaque joueur compare le sien à sa réponse privée",
                f"{post.name()[1]}: {len(seals)} order seals; each player compares theirs with their private reply",
            )

    def parse_magot_results(self, post: Post) -> None:
        self.pre_names(post, 0, 4)
        d = post.data
        d["round"] = r = post.key[0]
        known = self.known(post)
        folded: list[str] = []
        shots: dict[str, tuple[str, str, Line]] = {}
        disabled: dict[str, tuple[str, Line]] = {}
        held: dict[str, tuple[str, Line]] = {}
        opened: list[tuple[str, str, str, Line]] = []
        section, quiet, lines_seen = True, False, Counter()
        for line in post.body:
            t = line.text
            if section and (
                re.match(r"(?:Blessée?s?|Blessures) : ", t) or t == "Personne n'est blessé."
            ):
                section = False
                continue
            if not section:
                if SECRETISH.search(t):
                    self.bad(
                        post,
                        line,
                        f"ligne d'ordre hors de sa section : « {t[:60]} »",
                        "an order line out of its section",
                    )
                continue
            lines_seen[t] += 1
            if lines_seen[t] > 1:
                self.bad(
                    post, line, f"ligne en double : « {t[:60]} »", f"duplicate line: {t[:60]!r}"
                )
                continue
            m = re.fullmatch(
                r"(?:Couchée?s?|Se couche(?:nt)?) : (.+) — arme baissée, un point de honte"
                r"(?: chacune?| par tête)?, et l'ordre reste secret\.",
                t,
            )
            if m:
                if folded:
                    self.bad(post, line, "ligne « Couché » en double", "duplicate fold line")
                folded = parse_names(m[1], known) or []
                for name in folded:
                    self.check_player(post, line, name)
                continue
            m = re.fullmatch(
                r"(BANG BANG BANG|BANG|CLIC CLIC CLIC) — (.+) : (touché !|raté\.|du bluff !)", t
            )
            if m:
                pair = split_pair(m[2], " sur ", known)
                if pair is None:
                    self.bad(
                        post,
                        line,
                        "tir illisible (qui sur qui ?)",
                        "unreadable shot (who on whom?)",
                    )
                    continue
                a, b = pair
                if (m[1] == "CLIC CLIC CLIC") != (m[3] == "du bluff !"):
                    self.bad(
                        post,
                        line,
                        "un CLIC CLIC CLIC est du bluff, un BANG touche ou rate",
                        "a click is a bluff, a bang hits or misses",
                    )
                self.shooter(post, line, a, b, shots, disabled, held)
                shots[a] = (b, OPTION_OF[m[1]], line)
                continue
            m = re.fullmatch(r"(.+), (?:sonnée?|groggy), ne tire pas sur (.+)\.", t)
            if m:
                self.shooter(post, line, m[1], m[2], shots, disabled, held)
                disabled[m[1]] = (m[2], line)
                continue
            m = re.fullmatch(
                r"(.+) braquait (.+), qui (?:s'est couchée?|a baissé son arme) : pas de tir\.", t
            )
            if m:
                self.shooter(post, line, m[1], m[2], shots, disabled, held)
                held[m[1]] = (m[2], line)
                continue
            if t == "Pas un coup de feu.":
                quiet = True
                continue
            m = re.fullmatch(r"Sceaux ouverts : (.+)", t)
            if m:
                if opened:
                    self.bad(
                        post,
                        line,
                        "ligne « Sceaux ouverts » en double",
                        "duplicate « Sceaux ouverts » line",
                    )
                opened += [
                    (n, s, salt, line) for n, s, salt in self.opened_entries(post, line, m[1])
                ]
                continue
            self.bad(
                post,
                line,
                f"ligne inconnue parmi les tirs : « {t[:60]} »",
                f"unknown line among the shots: {t[:60]!r}",
            )
        if quiet and (shots or disabled or held):
            self.bad(post, None, "« pas un coup de feu » et des tirs", "« not a shot » and shots")
        by_name = {n: (s, salt, line) for n, s, salt, line in opened}
        for name, (_, _, line) in by_name.items():
            self.check_player(post, line, name)
            if name not in shots:
                self.bad(
                    post,
                    line,
                    f"sceau ouvert de {name} sans sa ligne de tir",
                    f"{name}'s opened seal has no shot line",
                )
        for a, (b, option, line) in shots.items():
            if a not in by_name:
                self.bad(
                    post,
                    line,
                    f"tir de {a} sans son sceau ouvert",
                    f"{a}'s shot has no opened seal",
                )
                continue
            digits, salt, oline = by_name[a]
            payload = {"round": r, "player": a, "target": b, "option": option}
            self.check_opening(post, oline, ("order", r, a), ORDER_KIND, [payload], salt, digits)
        # the rules, as the posts show them
        triples = {b for b, o, _ in shots.values() if o == "triple"}
        for a, (b, option, line) in shots.items():
            if option != "triple" and a in triples:
                self.bad(
                    post,
                    line,
                    f"{a}, touché par un BANG BANG BANG, ne peut pas tirer",
                    f"{a}, hit by a triple, cannot shoot",
                )
            if a in folded or b in folded:
                self.bad(
                    post,
                    line,
                    f"tir entre {a} et {b}, dont un s'est couché",
                    "a shot involving a player who folded",
                )
        for a, (_, line) in disabled.items():
            if a not in triples:
                self.bad(
                    post,
                    line,
                    f"{a} sonné sans BANG BANG BANG sur lui",
                    f"{a} disabled without a triple on them",
                )
        for a, (b, line) in held.items():
            if b not in folded:
                self.bad(
                    post,
                    line,
                    f"{a} retenu par {b}, qui ne s'est pas couché",
                    f"{a} held by {b}, who did not fold",
                )
        d.update(folded=folded, shots=shots, disabled=disabled, held=held, opened=by_name)

    def shooter(self, post: Post, line: Line, a: str, b: str, *tables: dict[str, Any]) -> None:
        self.check_player(post, line, a)
        self.check_player(post, line, b)
        if a == b:
            self.bad(post, line, f"{a} se vise lui-même", f"{a} aims at themself")
        if any(a in t for t in tables):
            self.bad(post, line, f"deux lignes pour l'ordre de {a}", f"two lines for {a}'s order")

    def check_opening(
        self,
        post: Post,
        line: Line,
        key: tuple[Any, ...],
        kind: str,
        payloads: list[dict[str, Any]],
        salt: str,
        digits: str,
    ) -> None:
        """Seal an opened secret again and compare with the seal printed next
        to its salt. ``payloads``: the forms the secret may have been sealed in,
        the post's own first (a Fistful post before gm 0.2 sealed
        ``{"round": turn, …}``, later ones ``{"_v": 2, …}``); each says the
        same choice, so whichever matches proves it."""
        self.open(key, post, line, digits)
        if not self.focused(post):
            return
        who = describe(key)[0] + f" ({post.name()[0]})"
        seated = [self.as_seats(p) for p in payloads]
        payloads = payloads + [p for p in seated if p not in payloads]
        for payload in payloads:
            if hex_digits(seal(kind, payload, salt)).startswith(digits):
                old = kind != ORDER_KIND and "_v" not in payload
                check_seal(
                    self.r,
                    kind,
                    payload,
                    salt,
                    digits,
                    who + (" [avant gm 0.2 / before gm 0.2]" if old else ""),
                )
                return
        check_seal(self.r, kind, payloads[0], salt, digits, who)

    def parse_magot_final(self, post: Post) -> None:
        self.pre_names(post, 1, 5)

    def parse_magot_disclosure(self, post: Post) -> None:
        known = self.known(post) or [
            c[0] for li in post.body if (c := row_cells(li, 4)) and c[0] != "qui"
        ]
        rounds: dict[int, dict[str, Any]] = {}
        current: dict[str, Any] | None = None
        for line in post.body:
            t = line.text
            m = re.fullmatch(r"Tour (\d+)", t)
            if m:
                n = int(m[1])
                if n in rounds:
                    self.bad(post, line, f"tour {n} en double", f"round {n} twice")
                current = rounds[n] = {
                    "round": n,
                    "rows": {},
                    "opened": {},
                    "header": False,
                    "line": line,
                }
                continue
            if current is None:
                self.bad(
                    post,
                    line,
                    f"ligne hors de tout tour : « {t[:60]} »",
                    f"a line outside any round: {t[:60]!r}",
                )
                continue
            cells = row_cells(line, 4)
            if cells == ("qui", "braquait", "avec", "sort"):
                if current["header"]:
                    self.bad(post, line, "en-tête de tableau en double", "duplicate table header")
                current["header"] = True
                continue
            if (
                cells is not None
                and current["header"]
                and cells[2] in OPTION_OF
                and cells[3] in FATE_OF
            ):
                a, b = cells[0], cells[1]
                self.check_player(post, line, a)
                self.check_player(post, line, b)
                if a in current["rows"]:
                    self.bad(
                        post,
                        line,
                        f"tour {current['round']} : deux lignes pour l'ordre de {a}",
                        f"round {current['round']}: two rows for {a}'s order",
                    )
                current["rows"][a] = (b, OPTION_OF[cells[2]], FATE_OF[cells[3]], line)
                continue
            m = re.fullmatch(r"Sans ordre : (.+)\.", t)
            if m:
                current["missing"] = parse_names(m[1], known) or []
                continue
            m = re.fullmatch(r"Sceaux ouverts : (.+)", t)
            if m:
                if current["opened"]:
                    self.bad(
                        post,
                        line,
                        "ligne « Sceaux ouverts » en double",
                        "duplicate « Sceaux ouverts » line",
                    )
                for n, digits, salt in self.opened_entries(post, line, m[1]):
                    if n in current["opened"]:
                        self.bad(
                            post,
                            line,
                            f"sceau ouvert en double pour {n}",
                            f"duplicate opened seal for {n}",
                        )
                    current["opened"][n] = (digits, salt, line)
                continue
            self.bad(
                post,
                line,
                f"ligne inconnue dans le dévoilement : « {t[:60]} »",
                f"unknown line in the disclosure: {t[:60]!r}",
            )
        for n, block in rounds.items():
            for a, (_, _, line) in block["opened"].items():
                self.check_player(post, line, a)
                if a not in block["rows"]:
                    self.bad(
                        post,
                        line,
                        f"tour {n} : sceau ouvert de {a} sans sa ligne",
                        f"round {n}: {a}'s opened seal has no row",
                    )
            for a, (b, option, _, line) in block["rows"].items():
                if a not in block["opened"]:
                    self.bad(
                        post,
                        line,
                        f"tour {n} : ordre de {a} sans son sceau ouvert",
                        f"round {n}: {a}'s order has no opened seal",
                    )
                    continue
                digits, salt, oline = block["opened"][a]
                payload = {"round": n, "player": a, "target": b, "option": option}
                self.check_opening(
                    post, oline, ("order", n, a), ORDER_KIND, [payload], salt, digits
                )
        for block in rounds.values():
            self.fates_hold_together(post, block)
        if rounds and sorted(rounds) != list(range(1, max(rounds) + 1)):
            self.bad(
                post,
                None,
                f"tours manquants dans le dévoilement : {sorted(set(range(1, max(rounds) + 1)) - set(rounds))}",
                "rounds missing from the disclosure",
            )
        post.data["rounds"] = rounds

    def fates_hold_together(self, post: Post, block: dict[str, Any]) -> None:
        """The rules, as one round of the disclosure shows them: a BANG BANG
        BANG disables the orders of its target that are not triples; an order
        is held when its target folded (a lowered order, or no order)."""
        n, rows = block["round"], block["rows"]
        triples = {
            b for b, option, fate, _ in rows.values() if option == "triple" and fate == "fired"
        }
        folded = {a for a, (_, _, fate, _) in rows.items() if fate == "lowered"}
        folded |= set(block.get("missing", []))
        for a, (b, option, fate, line) in rows.items():
            if fate == "fired" and option != "triple" and a in triples:
                self.bad(
                    post,
                    line,
                    f"tour {n} : {a}, touché par un BANG BANG BANG, ne peut pas tirer",
                    f"round {n}: {a}, hit by a triple, cannot shoot",
                )
            if fate == "disabled" and (a not in triples or option == "triple"):
                self.bad(
                    post,
                    line,
                    f"tour {n} : {a} sonné sans BANG BANG BANG sur lui",
                    f"round {n}: {a} disabled without a triple on them",
                )
            if fate == "held" and b not in folded:
                self.bad(
                    post,
                    line,
                    f"tour {n} : {a} retenu par {b}, qui ne s'est pas couché",
                    f"round {n}: {a} held by {b}, who did not fold",
                )
            if fate in ("fired", "disabled") and b in folded - set(block.get("missing", [])):
                self.bad(
                    post,
                    line,
                    f"tour {n} : {a} tire sur {b}, qui s'est couché",
                    f"round {n}: {a} shoots at {b}, who folded",
                )

    def check_magot(self) -> None:
        opening = self.by.get(("magot-opening", ()))
        reveals = {k[0]: p for (kind, k), p in self.by.items() if kind == "magot-reveal"}
        results = {k[0]: p for (kind, k), p in self.by.items() if kind == "magot-results"}
        rounds = {k[0]: p for (kind, k), p in self.by.items() if kind == "magot-round"}
        for r, post in results.items():
            if not self.focused(post):
                continue
            reveal = reveals.get(r)
            if reveal is None:
                self.missing(
                    post,
                    None,
                    "la révélation de ce tour manque : les sceaux ouverts ne sont pas comparés à ceux publiés avant les résultats, ni les ordres comptés",
                    "this round's reveal is missing: the opened seals are not compared with those published before the results, nor the orders counted",
                )
                continue
            self.results_against_reveal(post, reveal)
        disclosure = self.by.get(("magot-disclosure", ()))
        if disclosure is not None and self.focused(disclosure):
            for n, block in disclosure.data.get("rounds", {}).items():
                reveal = reveals.get(n)
                if reveal is None:
                    self.missing(
                        disclosure,
                        block["line"],
                        f"tour {n} : la révélation manque, ses ordres ne sont pas comparés aux sceaux publiés avant les résultats",
                        f"round {n}: the reveal is missing, its orders are not compared with the seals published before the results",
                    )
                    continue
                aims, seals = reveal.data.get("aims", {}), reveal.data.get("seals", {})
                for a in seals:
                    if a not in block["rows"]:
                        self.bad(
                            disclosure,
                            block["line"],
                            f"tour {n} : l'ordre de {a}, scellé à la révélation, manque",
                            f"round {n}: {a}'s order, sealed at the reveal, is missing",
                        )
                for a, (b, _, _, line) in block["rows"].items():
                    if a not in seals:
                        self.bad(
                            disclosure,
                            line,
                            f"tour {n} : ordre de {a} absent de la révélation",
                            f"round {n}: {a}'s order is not in the reveal",
                        )
                    elif aims.get(a) != b:
                        self.bad(
                            disclosure,
                            line,
                            f"tour {n} : {a} braquait {aims.get(a)} à la révélation, pas {b}",
                            f"round {n}: {a} aimed at {aims.get(a)} at the reveal, not {b}",
                        )
                result = results.get(n)
                if result is not None:
                    self.fates_against_results(disclosure, block, result)
        # the draws: the deck is the opening's loot, minus the bills of earlier rounds
        deck = list(opening.data.get("deck", [])) if opening is not None else None
        per_round = opening.data.get("per_round", 5) if opening is not None else 5
        last = max(rounds, default=0)
        for r in range(1, last + 1):
            post = rounds.get(r)
            if post is None:
                deck = None
                continue
            drawn = post.data.get("drawn")
            focus = self.focused(post)
            if deck is None or drawn is None:
                if focus:
                    why = [
                        (
                            "l'ouverture manque (le magot de départ)",
                            "the opening (the starting loot) is missing",
                        )
                        if opening is None
                        else (
                            "la mise d'un tour précédent manque",
                            "an earlier round's draw post is missing",
                        )
                    ]
                    if self.seed is None and not post.data.get("manual"):
                        why.append(
                            (
                                "la graine n'est pas encore révélée (la fin de partie manque)",
                                "the seed is not revealed yet (the final post is missing)",
                            )
                        )
                    self.missing(
                        post,
                        None,
                        "billets non retirés du magot : " + " ; ".join(w[0] for w in why),
                        "bills not drawn again: " + "; ".join(w[1] for w in why),
                    )
                deck = None
                continue
            count = min(per_round, len(deck))
            if post.data.get("manual"):
                if focus:
                    extra = Counter(drawn) - Counter(deck)
                    if extra or len(drawn) != count:
                        self.bad(
                            post,
                            None,
                            f"billets tirés à la main {drawn} : pas {count} billets du magot restant",
                            f"bills drawn by hand {drawn}: not {count} bills of the remaining loot",
                        )
                    else:
                        self.ok(
                            post,
                            "billets tirés à la main, bien pris dans le magot restant",
                            "bills drawn by hand, taken from the remaining loot",
                        )
                        self.r.note(
                            f"{post.name()[0]} : billets choisis par le MJ (tirés à la main), pas par le hasard",
                            f"{post.name()[1]}: bills chosen by the MJ (drawn by hand), not by chance",
                        )
                rest = list(deck)
                for bill in drawn:
                    if bill in rest:
                        rest.remove(bill)
            else:
                draw = post.data.get("draw") or {}
                label = draw.get("label") or post.data.get("old_label")
                rest = list(deck)
                if self.seed is None:
                    if focus:
                        self.missing(
                            post,
                            None,
                            "graine pas encore révélée : billets non retirés (il faut la fin de partie)",
                            "seed not revealed yet: bills not drawn again (the final post is needed)",
                        )
                    for bill in drawn:
                        if bill in rest:
                            rest.remove(bill)
                elif label:
                    source = stream(self.seed, label)
                    got = [rest.pop(draw_below(source, len(rest))) for _ in range(count)]
                    if focus:
                        self.redrawn(
                            post,
                            None,
                            label,
                            fmt_bills(got),
                            fmt_bills(drawn),
                            ("billets", "bills"),
                            verb="tire",
                        )
                    rest = sorted(rest, reverse=True)
                    if sorted(got, reverse=True) != sorted(drawn, reverse=True):
                        rest = list(deck)
                        for bill in drawn:
                            if bill in rest:
                                rest.remove(bill)
                else:
                    for bill in drawn:
                        if bill in rest:
                            rest.remove(bill)
            left = post.data.get("left")
            if focus and left is not None and left != (len(rest), sum(rest)):
                self.bad(
                    post,
                    None,
                    f"il reste {left[0]} billets ({left[1]} $) d'après le message, {len(rest)} ({sum(rest)} $) d'après le magot",
                    f"the post says {left[0]} bills ({left[1]} $) are left, the loot says {len(rest)} ({sum(rest)} $)",
                )
            deck = sorted(rest, reverse=True)
        self.words_never_vanish(sorted(rounds.items()), "round")
        if opening is not None and self.focused(opening) and opening.data.get("commitment"):
            digits = opening.data["commitment"]
            if len(digits) < MIN_DIGITS:
                self.missing(
                    opening,
                    opening.data["commitment_line"],
                    "sceau du hasard court : pas une preuve",
                    "short commitment: not a proof",
                )

    def results_against_reveal(self, post: Post, reveal: Post) -> None:
        aims, seals = reveal.data.get("aims", {}), reveal.data.get("seals", {})
        d = post.data
        folded, shots, disabled, held, opened = (
            d["folded"],
            d["shots"],
            d["disabled"],
            d["held"],
            d["opened"],
        )
        accounted = {}
        for a, (b, _, line) in shots.items():
            accounted[a] = ("shot", b, line)
        for a, (b, line) in disabled.items():
            accounted[a] = ("disabled", b, line)
        for a, (b, line) in held.items():
            accounted[a] = ("held", b, line)
        for a, (_, b, line) in accounted.items():
            if a not in seals:
                self.bad(
                    post,
                    line,
                    f"{a} n'a pas de sceau d'ordre à la révélation",
                    f"{a} has no order seal in the reveal",
                )
            elif aims.get(a) != b:
                self.bad(
                    post,
                    line,
                    f"{a} braquait {aims.get(a)} à la révélation, pas {b}",
                    f"{a} aimed at {aims.get(a)} at the reveal, not {b}",
                )
        for a in seals:
            if a in accounted or a in folded:
                continue
            self.bad(
                post,
                None,
                f"l'ordre scellé de {a} (révélation) n'est ni tiré, ni baissé, ni retenu, ni sonné dans les résultats",
                f"{a}'s sealed order (reveal) is neither shot, lowered, held nor disabled in the results",
            )
        for a in folded:
            if a in accounted:
                self.bad(
                    post,
                    None,
                    f"{a} s'est couché mais son ordre a une ligne",
                    f"{a} folded yet their order has a line",
                )
        unopened = [a for a in seals if a not in opened]
        if unopened:
            self.r.note(
                f"{post.name()[0]} : ordres restés secrets (baissés, retenus, sonnés) : {', '.join(unopened)} — ouverts au dévoilement",
                f"{post.name()[1]}: orders kept secret (lowered, held, disabled): {', '.join(unopened)} — opened by the disclosure",
            )

    def fates_against_results(self, disclosure: Post, block: dict[str, Any], result: Post) -> None:
        n = block["round"]
        d = result.data
        for a, (b, option, fate, line) in block["rows"].items():
            if fate == "fired":
                shot = d["shots"].get(a)
                ok = shot is not None and shot[0] == b and shot[1] == option
            elif fate == "lowered":
                ok = a in d["folded"]
            elif fate == "held":
                ok = a in d["held"]
            else:
                ok = a in d["disabled"]
            if not ok:
                self.bad(
                    disclosure,
                    line,
                    f"tour {n} : le sort de l'ordre de {a} ne correspond pas aux résultats",
                    f"round {n}: the fate of {a}'s order does not match the results",
                )
            opened = d["opened"].get(a)
            if opened and a in block["opened"] and block["opened"][a][1] != opened[1]:
                self.bad(
                    disclosure,
                    line,
                    f"tour {n} : le sel de {a} diffère de celui des résultats",
                    f"round {n}: {a}'s salt differs from the results'",
                )

    def redrawn(
        self,
        post: Post,
        line: Line | None,
        label: str,
        got: str,
        shown: str,
        what: tuple[str, str],
        verb: str = "donne",
        done: str = "retirés",
    ) -> None:
        """Report a chance result drawn again from the seed (stream ``label``,
        giving ``got``) against what the post shows: a difference names both;
        a match is a proof only with a seed checked against the commitment.
        Every game's re-derivation (bills, dice, Colt's train and decks) ends here."""
        if got != shown:
            self.bad(
                post,
                line,
                f"avec la graine, le flux {label} {verb} {got} ; le message montre {shown}",
                f"with the seed, the stream {label} gives {got}; the post shows {shown}",
            )
        elif not self.seed_checked:
            self.missing(
                post,
                line,
                f"{what[0]} {done} du flux {label}, mais avec une graine non comparée au sceau",
                f"{what[1]} drawn again from {label}, but with a seed not checked against the commitment",
            )
        else:
            self.ok(
                post,
                f"{what[0]} {got} {done} de la graine, flux {label}",
                f"{what[1]} {got} drawn again from the seed, stream {label}",
            )

    def words_never_vanish(self, draws_in_order: list[tuple[int, Post]], what: str) -> None:
        seen: dict[str, Post] = {}
        for _, post in draws_in_order:
            draw = post.data.get("draw")
            if not isinstance(draw, dict):
                continue
            names = list(dict.fromkeys(n for n, _ in draw["words"]))  # in the post's order
            for name, earlier in seen.items():
                if name not in names and self.focused(post):
                    self.bad(
                        post,
                        post.data.get("draw_line"),
                        f"la graine de {name}, mêlée à {earlier.name()[0]}, a disparu de ce tirage",
                        f"{name}'s word, mixed into {earlier.name()[1]}, is missing from this draw",
                    )
            for name in names:
                seen.setdefault(name, post)

    # ----------------------------------------------------------------- dice
    def parse_roll(self, post: Post) -> None:
        line = post.heading
        m = re.fullmatch(
            r"🎲 (?P<expr>\S+)(?: pour « (?P<reason>.*) »)? : (?P<terms>.+?) = (?P<total>-?\d+) — tirage (?P<draw>.+) ; vérifiable avec la graine du hasard",
            line.text,
        )
        old = re.fullmatch(
            r"🎲 (?P<expr>\S+)(?: pour « (?P<reason>.*) »)? : (?P<terms>.+?) = (?P<total>-?\d+) — tirage n° \d+ \((?P<label>draw/\S+), vérifiable avec la graine\)",
            line.text,
        )
        if m is None and old is None:
            self.bad(post, line, "ligne de jet illisible", "unreadable roll line")
            return
        m = m or old
        assert m is not None
        if m["reason"] and re.search(r"» : .+ = -?\d+ — tirage ", m["reason"]):
            self.bad(
                post,
                line,
                "raison du jet ambiguë : elle contient elle-même un résultat de jet",
                "ambiguous roll reason: it holds a roll result itself",
            )
            return
        d = post.data
        if old is not None and m is old:
            d["draw"] = {"label": old["label"], "words": [], "old": True}
        else:
            d["draw"] = parse_draw_clause(line, m.start("draw"), m.end("draw"), self.known(post))
            if d["draw"] is None:
                self.bad(post, line, "tirage illisible", "unreadable draw")
                return
        d["draw_line"] = line
        terms = parse_dice(m["expr"])
        groups = parse_groups(m["terms"])
        if terms is None or groups is None or len(terms) != len(groups):
            self.bad(
                post,
                line,
                f"dés illisibles : « {m['expr']} » et « {m['terms']} »",
                "unreadable dice",
            )
            return
        d["terms"], d["groups"], d["total"] = terms, groups, int(m["total"])
        label = d["draw"]["label"]
        base = label.partition("+")[0]
        post.key = (
            (int(base.partition("/")[2]),) if re.fullmatch(r"(?:roll|draw)/\d+", base) else (0,)
        )
        total = 0
        for term, (sign, values, kept) in zip(terms, groups, strict=True):
            if term[0] != sign:
                self.bad(
                    post,
                    line,
                    "signe d'un terme différent de l'expression",
                    "a term's sign differs from the expression",
                )
            if term[1] == "const":
                if values != [term[2]]:
                    self.bad(
                        post,
                        line,
                        f"constante {values} ≠ {term[2]}",
                        "constant differs from the expression",
                    )
                total += sign * term[2]
                continue
            _, count, sides, keep, keep_count = term
            if len(values) != count or not all(1 <= v <= sides for v in values) or kept is None:
                self.bad(
                    post,
                    line,
                    f"dés {values} : pas {count}d{sides}",
                    f"dice {values} do not fit {count}d{sides}",
                )
                continue
            want = [True] * count
            if keep:
                order = sorted(range(count), key=lambda i: values[i], reverse=keep == "h")
                want = [False] * count
                for i in order[:keep_count]:
                    want[i] = True
            if kept != want:
                self.bad(
                    post,
                    line,
                    "dés gardés/écartés mal marqués",
                    "kept and dropped dice marked wrongly",
                )
            total += sign * sum(v for v, k in zip(values, want, strict=True) if k)
        if total != d["total"]:
            self.bad(
                post,
                line,
                f"total {d['total']} ≠ somme des dés {total}",
                f"total {d['total']} ≠ sum of the dice {total}",
            )

    def check_rolls(self) -> None:
        rolls = sorted(
            (p.key[0], p)
            for (kind, _), p in self.by.items()
            if kind == "roll" and "terms" in p.data
        )
        numbers = Counter(n for n, _ in rolls)
        for n, post in rolls:
            d = post.data
            if numbers[n] > 1 and self.focused(post):
                self.bad(
                    post,
                    post.heading,
                    f"deux jets lisent le même flux roll/{n}",
                    f"two rolls read the same stream roll/{n}",
                )
            if d["draw"].get("old"):
                if self.focused(post):
                    self.missing(
                        post,
                        post.heading,
                        f"ancien format de tirage ({d['draw']['label']}) : étiquette non recalculée",
                        "old draw format: label not recomputed",
                    )
            elif self.focused(post):
                self.check_label(post, post.heading, d["draw"], f"roll/{n}")
            if not self.focused(post):
                continue
            if self.seed is None:
                self.missing(
                    post,
                    post.heading,
                    "graine pas encore révélée : dés non retirés (il faut la fin de partie)",
                    "seed not revealed yet: dice not rolled again (the final post is needed)",
                )
                continue
            source = stream(self.seed, d["draw"]["label"])
            expected = [
                [draw_below(source, t[2]) + 1 for _ in range(t[1])] if t[1] != "const" else [t[2]]
                for t in d["terms"]
            ]
            shown = [values for _, values, _ in d["groups"]]
            self.redrawn(
                post, post.heading, d["draw"]["label"], str(expected), str(shown), ("dés", "dice")
            )
        self.words_never_vanish(rolls, "roll")
        if self.whole and rolls:
            have = {n for n, _ in rolls}
            for n in range(1, max(have)):
                if n not in have:
                    self.r.missing(
                        f"le jet roll/{n} manque au fil (un jet fait mais pas publié ?)",
                        f"roll roll/{n} is missing from the thread (rolled but not posted?)",
                    )

    # ----------------------------------------------------------- Fistful of Gold
    def cards_line(self, post: Post, line: Line) -> dict[str, tuple[str, str]] | None:
        m = re.fullmatch(rf"(.+) joue (?:le|la) ({CARD}), (.+) (?:le|la) ({CARD})\.", line.text)
        if m is None:
            return None
        a, b = m[1], m[3]
        for name in (a, b):
            self.check_player(post, line, name)
        if a == b:
            self.bad(post, line, f"{a} deux fois", f"{a} twice")
        cards = {a: (card_value(m[2]), card_color(m[2])), b: (card_value(m[4]), card_color(m[4]))}
        self.check_colors(post, line, {n: [c] for n, c in cards.items()})
        return cards

    def check_colors(self, post: Post, line: Line, cards: dict[str, list[tuple[str, str]]]) -> None:
        for name, items in cards.items():
            colors = {c for _, c in items}
            expected = self.colors.get(name)
            if len(colors) > 1 or (expected and colors and colors != {expected}):
                self.bad(
                    post,
                    line,
                    f"cartes de {name} d'une autre couleur que son deck",
                    f"{name}'s cards are not of their deck's colour",
                )

    def parse_fistful_setup(self, post: Post) -> None:
        found = False
        for line in post.body:
            m = re.fullmatch(
                r"Sceaux des défausses : (.+) — ils seront ouverts à la fin de la partie\.",
                line.text,
            )
            if m:
                if found:
                    self.bad(post, line, "ligne de sceaux en double", "duplicate line of seals")
                found = True
                entries = self.sealed_entries(post, line, m[1])
                post.data["seals"] = dict(entries)
                for name, digits in entries:
                    self.check_player(post, line, name)
                    self.commit(("setup", name), post, line, digits)
                if self.players and sorted(n for n, _ in entries) != sorted(self.players):
                    self.bad(
                        post,
                        line,
                        "il faut un sceau de défausse par joueur",
                        "one setup seal per player is needed",
                    )
                continue
            if SECRETISH.search(line.text):
                self.bad(
                    post,
                    line,
                    f"ligne inconnue qui ressemble à un secret : « {line.text[:60]} »",
                    "an unknown line that looks like a secret",
                )
        if not found:
            self.bad(post, None, "pas de ligne « Sceaux des défausses »", "no line of setup seals")

    def fistful_turn(self, post: Post) -> int | None:
        """The turn an older post (before gm 0.2) printed in its footer."""
        if post.footer is None:
            return None
        m = re.search(r" · tour (\d+)", post.footer.text)
        return int(m[1]) if m else None

    def parse_colt_plan(self, post: Post) -> None:
        """A Plan turn: the seal of a card played face down (« Sceau de la
        carte face cachée de ana (tour 5) : … »)."""
        self.colt_choices(post)
        for line in post.body:
            m = re.fullmatch(
                r"Sceau de la carte face cachée de (.+) \(tour (\d+)\) : " + SEAL + r"\.",
                line.text,
            )
            if m:
                self.commit(("colt-card", post.key[0], int(m[2]), m[1]), post, line, m[3])

    def parse_colt_action(self, post: Post) -> None:
        """Action steps: each face-down card turned over, with its salt, is
        sealed again (payload ``{"round", "turn", "player", "card"}``) and
        compared with the seal its Plan post published; the choices drawn by
        the fortune (R-6) and the purses it drew (R-7) name their streams."""
        r = post.key[0]
        steps: list[int] = []
        for line in post.body:
            m = re.fullmatch(
                r"(\d+)\. .+ — « (.+?) » \(sans réponse : choix tiré au hasard\).*", line.text
            )
            if m:
                self.colt_defaults.append((post, line, r, int(m[1]), m[2]))
            m = re.match(r"(\d+)\. ", line.text)
            if m:
                steps.append(int(m[1]))
        purposes: dict[str, str] = {}
        for n in steps:
            purposes[f"Carte {n}, choix tiré au hasard"] = f"round-{r}/default/{n}"
            purposes[f"Carte {n}, bourse tirée au hasard"] = f"round-{r}/purse/{n}"
        self.colt_draw_lines(post, purposes)
        self.colt_choices(post)
        for line in post.body:
            m = re.fullmatch(
                r"Carte face cachée de (.+) \(tour (\d+)\) : (.+), sel ([0-9a-fA-F]{8,128})\.",
                line.text,
            )
            if m is None:
                continue
            code = COLT_CARDS.get(m[3])
            if code is None:
                self.bad(
                    post,
                    line,
                    f"« {m[3]} » n'est pas une carte Action",
                    f"{m[3]!r} is not an action card",
                )
                continue
            payload = {"round": post.key[0], "turn": int(m[2]), "player": m[1], "card": code}
            digits = hex_digits(seal(COLT_CARD, payload, m[4]))
            self.open(("colt-card", post.key[0], int(m[2]), m[1]), post, line, digits)

    def colt_draw_lines(self, post: Post, purposes: dict[str, str]) -> None:
        """The fortune's draw lines of a Colt post, « WHAT : tirage LABEL,
        graines : … »; ``purposes`` maps each WHAT this post may print to
        the stream it names. Each label is recomputed from the words printed."""
        for line in post.body:
            m = re.match(r"(.+?) : tirage ", line.text)
            if m is None:
                continue
            draw = parse_draw_clause(line, m.end(), len(line.text), self.known(post))
            purpose = purposes.get(m[1])
            if draw is None or purpose is None:
                self.bad(
                    post,
                    line,
                    f"ligne de tirage illisible ou inconnue : « {line.text[:60]} »",
                    f"unreadable or unknown draw line: {line.text[:60]!r}",
                )
                continue
            if purpose in self.colt_draws:
                self.bad(post, line, f"tirage {purpose} en double", f"duplicate draw {purpose}")
                continue
            self.colt_draws[purpose] = (post, line, draw)
            if self.focused(post):
                self.check_label(post, line, draw, purpose)

    def colt_name(self, player: str) -> str:
        """How gm names ``player`` in a draw's purpose: their name as a slug,
        or their seat when that slug is not unique."""
        players = self.players or [player]
        name = slug(player)
        if name and [slug(p) for p in players].count(name) == 1:
            return name
        return f"seat-{players.index(player) + 1}" if player in players else name

    def parse_colt_train(self, post: Post) -> None:
        """The train: the characters, the cars, the seal of the purses' values
        and the draws that made them (``setup/characters``, ``/cars``, ``/purses``)."""
        d = post.data
        d["characters"] = {}
        who = "|".join(COLT_CHARACTERS)
        for line in post.body:
            m = re.fullmatch(rf"(.+) joue ({who}) : .+\.", line.text)
            if m:
                d["characters"][m[1]] = m[2]
            m = re.fullmatch(
                r"Le train : la locomotive, puis \d+ wagons \(cartes ([\d, ]+), de la"
                r" locomotive vers la queue\)\..*",
                line.text,
            )
            if m:
                d["cars"] = [int(c) for c in m[1].split(", ")]
            m = re.search(r"Sceau des valeurs : " + SEAL + r"\.", line.text)
            if m:
                d["loot_seal"] = (line, m[1].lower())
        self.colt_draw_lines(
            post,
            {
                "Personnages distribués par le hasard": "setup/characters",
                "Wagons tirés au hasard": "setup/cars",
                "Bourses des wagons tirées au hasard": "setup/purses",
            },
        )

    def parse_colt_round(self, post: Post) -> None:
        """A round opens: its card, the seals of the shuffled decks, and the
        draws (``round-N/card``, ``round-N/deck/<player>``)."""
        r = post.key[0]
        m = re.fullmatch(r"Manche \d+ : (.+)", post.heading.text)
        post.data["card"] = m[1] if m else None
        post.data["decks"] = {}
        for line in post.body:
            m = re.fullmatch(r"Sceaux des pioches mélangées : (.+)", line.text)
            if m:
                post.data["decks"] = dict(self.sealed_entries(post, line, m[1]))
                post.data["decks_line"] = line
        names = list(post.data["decks"]) or self.players
        self.colt_draw_lines(
            post,
            {"Carte de la manche": f"round-{r}/card"}
            | {f"Pioche de {p}": f"round-{r}/deck/{self.colt_name(p)}" for p in names},
        )

    def colt_choices(self, post: Post) -> None:
        """A card that waits for its owner's choice, with the legal choices in
        the order gm lists them (and draws among, R-6)."""
        for line in post.body:
            m = re.fullmatch(
                r"Carte (\d+) sur \d+ : .+ — .+, à toi de choisir : (« .+ »)\.", line.text
            )
            if m:
                choices = re.findall(r"« (.+?) »(?: · |$)", m[2])
                self.colt_asked[(post.key[0], int(m[1]))] = choices

    def parse_colt_event(self, post: Post) -> None:
        """The end of a round: Pickpocket's answers and purses drawn by the fortune."""
        r = post.key[0]
        purposes: dict[str, str] = {}
        for p in self.players:
            name = self.colt_name(p)
            purposes[f"Pickpocket, réponse de {p} tirée au hasard"] = (
                f"round-{r}/default/pickpocket-{name}"
            )
            purposes[f"Pickpocket, bourse de {p} tirée au hasard"] = f"round-{r}/pickpocket/{name}"
        self.colt_draw_lines(post, purposes)

    def parse_colt_final(self, post: Post) -> None:
        """The final post discloses every secret's seal with its salt; the
        checker uses the salts to seal again what it draws from the seed."""
        salts: dict[str, str] = {}
        for line in post.body:
            if not line.text.startswith("Secrets de la partie (sceau, sel) : "):
                continue
            for m in re.finditer(
                r"(?:loot|deck|card|instruction|purse) .+? ([0-9a-fA-F]{8,64}) sel ([0-9a-fA-F]{8,128})(?: · |$)",
                line.text,
            ):
                salts[m[1].lower()] = m[2]
        post.data["salts"] = salts
        drawn: list[tuple[Line, int, str, str, list[int], int]] = []
        for line in post.body:
            m = re.fullmatch(
                r"Manche (\d+), (?:carte (\d+)|Pickpocket) \((.+)\) : parmi ([\d, ]+) → (\d+) \$",
                line.text,
            )
            if m:
                offered = [int(v) for v in m[4].split(", ")]
                drawn.append((line, int(m[1]), m[2] or "", m[3], offered, int(m[5])))
        post.data["purses"] = drawn

    def check_colt_purses(self, final: Post) -> None:
        """R-7: each purse the fortune drew, drawn again among those the
        final post lists, from the stream its Action (or end-of-round) post
        named; every purse draw of the thread must be listed there."""
        seed = self.seed
        listed: set[str] = set()
        for line, r, step, player, offered, value in final.data.get("purses", []):
            purpose = (
                f"round-{r}/purse/{step}"
                if step
                else f"round-{r}/pickpocket/{self.colt_name(player)}"
            )
            listed.add(purpose)
            found = self.colt_draws.get(purpose)
            if found is None:
                self.bad(
                    final,
                    line,
                    f"bourse tirée {purpose} sans ligne de tirage dans le fil",
                    f"purse draw {purpose} without a draw line in the thread",
                )
                continue
            if seed is None:
                continue
            label = found[2]["label"]
            again = offered[draws(seed, label, [len(offered)])[0]]
            self.redrawn(
                final,
                line,
                label,
                f"{again} $",
                f"{value} $",
                (f"bourse parmi {', '.join(map(str, offered))} :", "purse"),
                verb="tire",
                done="retirée",
            )
        for purpose, (post, line, _) in self.colt_draws.items():
            if ("/purse/" in purpose or "/pickpocket/" in purpose) and purpose not in listed:
                self.bad(
                    post,
                    line,
                    f"la fin de partie ne dit pas quelle bourse le tirage {purpose} a donnée",
                    f"the final post does not say which purse the draw {purpose} gave",
                )

    def check_colt(self) -> None:
        """With the seed, every chance result of Colt Express drawn again from
        the streams the posts name: the characters dealt, the cars' order, the
        purses in the cars and each round's decks (sealed again with the salts
        the final post discloses, against the seals published at the time),
        each round's card, and each choice the fortune made (R-6)."""
        train = self.by.get(("colt-train", ()))
        final = self.by.get(("colt-final", ()))
        salts: dict[str, str] = final.data.get("salts", {}) if final is not None else {}
        drawn_lines = self.colt_draws
        if drawn_lines and self.seed is None:
            for post, line, _ in drawn_lines.values():
                if self.focused(post):
                    self.missing(
                        post,
                        line,
                        "graine pas encore révélée : tirage non refait (il faut la fin de partie)",
                        "seed not revealed yet: draw not made again (the final post is needed)",
                    )
            return
        seed = self.seed
        if seed is None:
            return

        def drawn(purpose: str) -> tuple[Post, Line, str] | None:
            found = drawn_lines.get(purpose)
            if found is None or not self.focused(found[0]):
                return None
            return found[0], found[1], found[2]["label"]

        def salt_of(post: Post, line: Line, digits: str) -> str | None:
            salt = next((v for k, v in salts.items() if same_digits(k, digits)), None)
            if salt is None:
                self.missing(
                    post,
                    line,
                    f"sceau {digits} : sel pas encore dévoilé (il faut la fin de partie)",
                    f"seal {digits}: salt not disclosed yet (the final post is needed)",
                )
            return salt

        def sealed(kind: str, payload: Any, salt: str) -> str:
            return hex_digits(seal(kind, payload, salt))[:MIN_DIGITS]

        if train is not None:
            d = train.data
            chars: dict[str, str] = d.get("characters", {})
            cars: list[int] = d.get("cars", [])
            players = self.players or list(chars)
            n = len(players)
            got = drawn("setup/characters")
            if got is not None:
                post, line, label = got
                shown = ", ".join(f"{p} {chars.get(p)}" for p in players)
                dealt = None
                for size in range(n, 0, -1):  # the largest set of players the deal explains
                    for free in itertools.combinations(players, size):
                        left = [
                            c
                            for c in COLT_CHARACTERS
                            if c not in {chars.get(p) for p in players if p not in free}
                        ]
                        if [chars.get(p) for p in free] == shuffle(seed, label, left)[:size]:
                            dealt = free
                            break
                    if dealt:
                        break
                self.redrawn(
                    post,
                    line,
                    label,
                    shown if dealt else "une autre distribution",
                    shown,
                    ("personnages", "characters"),
                    done="redistribués",
                )
            got = drawn("setup/cars")
            if got is not None:
                post, line, label = got
                again = shuffle(seed, label, range(1, 7))[:n]
                self.redrawn(
                    post,
                    line,
                    label,
                    ", ".join(map(str, again)),
                    ", ".join(map(str, cars)),
                    ("wagons", "cars"),
                )
            got = drawn("setup/purses")
            if got is not None and "loot_seal" in d:
                post, line, label = got
                stock = list(COLT_PURSE_STOCK)
                for _ in range(n):
                    stock.remove(250)
                shuffled, start, purses = shuffle(seed, label, stock), 0, []
                for car in cars:
                    count = COLT_PURSES_PER_CAR.get(car, 0)
                    purses.append(sorted(shuffled[start : start + count]))
                    start += count
                payload = {"holder": "gm", "purses": purses}
                digits = d["loot_seal"][1]
                salt = salt_of(post, line, digits)
                if salt is not None:
                    self.redrawn(
                        post,
                        line,
                        label,
                        f"le sceau {sealed('colt.loot-placed', payload, salt)}",
                        f"le sceau {digits[:MIN_DIGITS]}",
                        ("bourses des wagons, scellées sous", "purses of the cars, sealed as"),
                        done="retirées",
                    )
        used: list[str] = []
        for r in range(1, 6):
            opening = self.by.get(("colt-round", (r,)))
            if opening is None:
                break
            card = opening.data.get("card")
            options = (
                list(COLT_STATIONS) if r == 5 else [c for c in COLT_ROUND_CARDS if c not in used]
            )
            got = drawn(f"round-{r}/card")
            if got is not None:
                post, line, label = got
                again = options[draws(seed, label, [len(options)])[0]] if options else "?"
                self.redrawn(
                    post,
                    line,
                    label,
                    again,
                    str(card),
                    ("carte de manche", "round card"),
                    done="retirée",
                )
            if card:
                used.append(card)
            for player, digits in opening.data.get("decks", {}).items():
                purpose = f"round-{r}/deck/{self.colt_name(player)}"
                if f"round-{r}/card" in drawn_lines and purpose not in drawn_lines:
                    if self.focused(opening):  # the fortune drew the round: every deck too
                        self.bad(
                            opening,
                            opening.data.get("decks_line"),
                            f"pioche de {player} scellée sans sa ligne de tirage",
                            f"{player}'s deck sealed without its draw line",
                        )
                    continue
                got = drawn(purpose)
                if got is None or not salts:
                    continue
                post, line, label = got
                salt = salt_of(post, line, digits)
                if salt is None:
                    continue
                shown = f"le sceau {digits[:MIN_DIGITS]}"
                found = None
                for balles in range(0, 50):  # the deck holds one Balle per bullet received
                    deck = shuffle(seed, label, COLT_DECK + ["balle"] * balles)
                    payload = {"cards": deck, "player": player, "round": r}
                    if same_digits(sealed("colt.deck-dealt", payload, salt), digits):
                        found = balles
                        break
                self.redrawn(
                    post,
                    line,
                    label,
                    shown if found is not None else "une pioche d'un autre sceau (0 à 49 Balle)",
                    shown,
                    (f"pioche de {player} ({found} Balle), scellée sous", f"{player}'s deck"),
                    done="retirée",
                )
        for post, line, r, step, choice in self.colt_defaults:
            got = drawn(f"round-{r}/default/{step}")
            if got is None:
                if self.focused(post):
                    self.bad(
                        post,
                        line,
                        f"carte {step} : choix tiré au hasard sans sa ligne de tirage",
                        f"card {step}: a choice drawn by the fortune without its draw line",
                    )
                continue
            _, dline, label = got
            choices = self.colt_asked.get((r, step))
            if not choices:
                self.missing(
                    post,
                    dline,
                    f"carte {step} : les choix possibles ne sont pas dans le fil (le message qui les listait manque)",
                    f"card {step}: the legal choices are not in the thread (the post that listed them is missing)",
                )
                continue
            again = choices[draws(seed, label, [len(choices)])[0]]
            self.redrawn(
                post,
                dline,
                label,
                f"« {again} »",
                f"« {choice} »",
                ("choix", "choice"),
                done="retiré",
            )
        if final is not None and self.focused(final):
            self.check_colt_purses(final)

    def parse_fistful_duel(self, post: Post) -> None:
        manche, duel = post.key[0], post.key[1]
        cards: dict[str, tuple[str, str]] | None = None
        opened: list[tuple[str, str, str]] = []
        oline: Line | None = None
        for line in post.body:
            t = line.text
            got = self.cards_line(post, line)
            if got is not None:
                if cards is not None:
                    self.bad(post, line, "deux lignes de cartes", "two card lines")
                cards = got
                continue
            m = re.fullmatch(r"Sceaux ouverts : (.+)", t)
            if m:
                if oline is not None:
                    self.bad(
                        post,
                        line,
                        "ligne « Sceaux ouverts » en double",
                        "duplicate « Sceaux ouverts » line",
                    )
                post.data["names"] = list(cards or {})
                opened += self.opened_entries(post, line, m[1])
                oline = line
                continue
            if SECRETISH.search(t):
                self.bad(
                    post,
                    line,
                    f"ligne inconnue qui montre une carte ou un sceau : « {t[:60]} »",
                    "an unknown line that shows a card or a seal",
                )
        if cards is None:
            self.bad(post, None, "pas de ligne « X joue le … » lisible", "no readable card line")
            return
        post.data["cards"] = cards
        if oline is None:
            self.bad(
                post,
                None,
                "cartes montrées sans « Sceaux ouverts »",
                "cards shown without « Sceaux ouverts »",
            )
            return
        by_name = {n: (s, salt) for n, s, salt in opened}
        turn = self.fistful_turn(post)
        for name, (card, _) in cards.items():
            if name not in by_name:
                self.bad(
                    post,
                    oline,
                    f"carte de {name} sans son sceau ouvert",
                    f"{name}'s card has no opened seal",
                )
                continue
            digits, salt = by_name[name]
            payloads = [{"_v": 2, "manche": manche, "duel": duel, "player": name, "card": card}]
            if turn is not None:
                payloads.insert(0, {"round": turn, "player": name, "card": card})
            self.check_opening(
                post, oline, ("card", manche, duel, name), FISTFUL_CARD, payloads, salt, digits
            )
        for name in by_name:
            if name not in cards:
                self.bad(
                    post,
                    oline,
                    f"sceau ouvert de {name} sans sa carte",
                    f"{name}'s opened seal has no card",
                )
        if self.focused(post):
            self.r.note(
                f"{post.name()[0]} : chaque joueur compare le sceau de sa carte à celui de sa réponse privée (--seal)",
                f"{post.name()[1]}: each player compares their card's seal with the one in their private reply (--seal)",
            )

    def parse_fistful_manche(self, post: Post) -> None:
        manche = post.key[0]
        final: dict[str, tuple[str, str]] | None = None
        counts: dict[str, int] = {}
        committed: dict[str, str] = {}
        opened: list[tuple[str, str, str]] = []
        oline = cline = None
        for line in post.body:
            t = line.text
            got = self.cards_line(post, line)
            if got is not None:
                if final is not None:
                    self.bad(post, line, "deux lignes d'ultime duel", "two final-duel lines")
                final = got
                continue
            m = re.fullmatch(r"Défausses, face cachée : (.+)\.", t)
            if m:
                entries = parse_entries(m[1], r"(\d+) cartes?", self.known(post))
                if entries is None:
                    self.bad(
                        post, line, "ligne des défausses illisible", "unreadable discards line"
                    )
                else:
                    counts = {n: int(e[1]) for n, e in entries}
                    post.data.setdefault("names", list(counts))
                continue
            m = re.fullmatch(r"Sceaux des choix de fin de manche : (.+)", t)
            if m:
                if cline is not None:
                    self.bad(post, line, "ligne de sceaux en double", "duplicate line of seals")
                cline = line
                for name, digits in self.sealed_entries(post, line, m[1]):
                    self.check_player(post, line, name)
                    committed[name] = digits
                    self.commit(("end", manche, name), post, line, digits)
                continue
            m = re.fullmatch(r"Sceaux ouverts : (.+)", t)
            if m:
                if oline is not None:
                    self.bad(
                        post,
                        line,
                        "ligne « Sceaux ouverts » en double",
                        "duplicate « Sceaux ouverts » line",
                    )
                opened += self.opened_entries(post, line, m[1])
                oline = line
                continue
            if SECRETISH.search(t) and " a repris " not in t:
                self.bad(
                    post,
                    line,
                    f"ligne inconnue qui montre une carte ou un sceau : « {t[:60]} »",
                    "an unknown line that shows a card or a seal",
                )
        post.data.update(final=final, counts=counts, committed=committed, seals=committed)
        turn = self.fistful_turn(post)
        by_name = {n: (s, salt) for n, s, salt in opened}
        for name, (digits, salt) in by_name.items():
            if name not in committed:
                self.bad(
                    post,
                    oline,
                    f"sceau ouvert de {name} sans sceau de choix",
                    f"{name}'s opened seal has no committed choice",
                )
            if final is None or name not in final or counts.get(name) != 1:
                self.bad(
                    post,
                    oline,
                    f"sel de {name} publié sans choix montré en entier (une défausse, montrée à l'ultime duel)",
                    f"{name}'s salt is published but no choice is shown whole (one discard, shown in the final duel)",
                )
                continue
            card = final[name][0]
            choice = {"discards": [card], "final": None}
            payloads = [{"_v": 2, "manche": manche, "player": name, "choice": choice}]
            if turn is not None:
                payloads.insert(0, {"round": turn, "player": name, "choice": choice})
            self.check_opening(
                post,
                oline or post.heading,
                ("end", manche, name),
                FISTFUL_END,
                payloads,
                salt,
                digits,
            )
        if final is not None:
            for name in committed:
                if counts.get(name) == 1 and name not in by_name:
                    self.bad(
                        post,
                        cline,
                        f"le choix de {name} (une défausse, montrée à l'ultime duel) n'est pas ouvert",
                        f"{name}'s choice (one discard, shown in the final duel) is not opened",
                    )

    def parse_fistful_disclosure(self, post: Post) -> None:
        known = self.known(post)
        d: dict[str, Any] = {"setup": {}, "manches": {}, "opened": [], "older": []}
        manche: dict[str, Any] | None = None
        section = True
        seen: Counter[tuple[int, str]] = Counter()
        for line in post.body:
            t = line.text
            if t.startswith("À la fin : "):
                section = False
                continue
            if not section:
                if SECRETISH.search(t) or t.startswith(("duel ", "défausses", "ultime duel")):
                    self.bad(
                        post,
                        line,
                        f"ligne de secret hors de sa section : « {t[:60]} »",
                        "a secret line out of its section",
                    )
                continue
            scope = (manche or {}).get("n", 0), t
            seen[scope] += 1
            if seen[scope] > 1:
                self.bad(
                    post, line, f"ligne en double : « {t[:60]} »", f"duplicate line: {t[:60]!r}"
                )
                continue
            m = re.fullmatch(r"Mise en place(?: \(tour 1\))? : (.+)\.", t)
            if m:
                for part in m[1].split(" ; "):
                    s = re.fullmatch(
                        rf"(.+) a défaussé (?:le|la) ({CARD}) et (?:le|la) ({CARD})", part
                    )
                    if s is None:
                        self.bad(
                            post,
                            line,
                            f"mise en place illisible : « {part[:40]} »",
                            "unreadable setup",
                        )
                        continue
                    if s[1] in d["setup"]:
                        self.bad(
                            post,
                            line,
                            f"mise en place de {s[1]} en double",
                            f"{s[1]}'s setup twice",
                        )
                    self.check_player(post, line, s[1])
                    self.check_colors(
                        post,
                        line,
                        {
                            s[1]: [
                                (card_value(s[2]), card_color(s[2])),
                                (card_value(s[3]), card_color(s[3])),
                            ]
                        },
                    )
                    d["setup"][s[1]] = ([card_value(s[2]), card_value(s[3])], line)
                continue
            m = re.fullmatch(r"Manche (\d+)", t)
            if m:
                n = int(m[1])
                if n in d["manches"]:
                    self.bad(post, line, f"manche {n} en double", f"manche {n} twice")
                manche = d["manches"][n] = {
                    "n": n,
                    "duels": {},
                    "discards": {},
                    "final": None,
                    "line": line,
                    "turns": {},
                }
                continue
            m = re.fullmatch(r"Sceaux ouverts \(([^)]*)\) : (.+)", t)
            if m:
                d["opened"].append((m[1], self.opened_entries(post, line, m[2]), line, manche))
                continue
            if manche is None:
                self.bad(
                    post,
                    line,
                    f"ligne hors de toute manche : « {t[:60]} »",
                    f"a line outside any manche: {t[:60]!r}",
                )
                continue
            m = re.fullmatch(r"duel (\d+)(?: \(tour (\d+)\))? : (.+)", t)
            if m:
                entries = parse_entries(m[3], f"({CARD})", known)
                if entries is None or len(entries) != 2:
                    self.bad(post, line, "duel illisible", "unreadable duel")
                    continue
                n = int(m[1])
                if n in manche["duels"]:
                    self.bad(post, line, f"duel {n} en double", f"duel {n} twice")
                self.no_duplicates(post, line, [e[0] for e in entries], "joueur", "player")
                self.check_colors(
                    post,
                    line,
                    {name: [(card_value(e[1]), card_color(e[1]))] for name, e in entries},
                )
                manche["duels"][n] = ({name: card_value(e[1]) for name, e in entries}, line)
                if m[2]:
                    manche["turns"][int(m[2])] = ("card", n)
                continue
            m = re.fullmatch(rf"(.+) a repris (?:le|la) {CARD} \(8 vert\)", t)
            if m:
                continue
            m = re.fullmatch(r"défausses(?: \(tour (\d+)\))? : (.+)", t)
            if m:
                entries = parse_entries(m[2], rf"({CARD}(?: et {CARD})*)( \(au choix\))?", known)
                if entries is None or manche["discards"]:
                    self.bad(
                        post,
                        line,
                        "ligne des défausses illisible ou en double",
                        "unreadable or duplicate discards line",
                    )
                    continue
                self.no_duplicates(post, line, [e[0] for e in entries], "joueur", "player")
                for name, e in entries:
                    shown = re.findall(CARD, e[1])
                    self.check_colors(
                        post, line, {name: [(card_value(c), card_color(c)) for c in shown]}
                    )
                    manche["discards"][name] = ([card_value(c) for c in shown], bool(e[2]), line)
                if m[1]:
                    manche["turns"][int(m[1])] = ("end", 0)
                continue
            m = re.fullmatch(r"ultime duel : (.+)", t)
            if m:
                entries = parse_entries(m[1], f"({CARD})", known)
                if entries is None or manche["final"] is not None:
                    self.bad(
                        post,
                        line,
                        "ultime duel illisible ou en double",
                        "unreadable or duplicate final duel",
                    )
                    continue
                manche["final"] = ({name: card_value(e[1]) for name, e in entries}, line)
                continue
            self.bad(
                post,
                line,
                f"ligne inconnue dans le dévoilement : « {t[:60]} »",
                f"unknown line in the disclosure: {t[:60]!r}",
            )
        post.data.update(d)
        self.fistful_disclosure_openings(post, d)

    def fistful_disclosure_openings(self, post: Post, d: dict[str, Any]) -> None:
        """Each secret the disclosure shows against its opened seal, and back."""
        secrets: dict[tuple[Any, ...], tuple[list[dict[str, Any]], str, Line]] = {}
        for name, (cards, line) in d["setup"].items():
            secrets[("setup", name)] = (
                [
                    {"_v": 2, "player": name, "cards": cards},
                    {"round": 1, "player": name, "cards": cards},
                ],
                FISTFUL_SETUP,
                line,
            )
        turns: dict[int, tuple[str, int, int]] = {}
        for n, manche in d["manches"].items():
            if list(manche["duels"]) != list(range(1, len(manche["duels"]) + 1)):
                self.bad(
                    post,
                    manche["line"],
                    f"manche {n} : duels pas numérotés de 1 à {len(manche['duels'])}",
                    f"manche {n}: duels not numbered from 1",
                )
            for duel, (cards, line) in manche["duels"].items():
                for name, card in cards.items():
                    secrets[("card", n, duel, name)] = (
                        [{"_v": 2, "manche": n, "duel": duel, "player": name, "card": card}],
                        FISTFUL_CARD,
                        line,
                    )
            finals = manche["final"][0] if manche["final"] else {}
            for name, (cards, chosen, line) in manche["discards"].items():
                if chosen:
                    # The final-duel card is part of the choice only when the
                    # player discards two and so chose which one to show (R-5).
                    discards, final = cards, [finals[name]] if name in finals else []
                    choice = {
                        "discards": discards,
                        "final": final[0] if final and len(discards) > 1 else None,
                    }
                    if final and final[0] not in discards:
                        self.bad(
                            post,
                            line,
                            f"manche {n} : la carte d'ultime duel de {name} n'est pas une de ses défausses",
                            f"manche {n}: {name}'s final-duel card is not one of their discards",
                        )
                    secrets[("end", n, name)] = (
                        [{"_v": 2, "manche": n, "player": name, "choice": choice}],
                        FISTFUL_END,
                        line,
                    )
            for turn, (what, duel) in manche["turns"].items():
                turns[turn] = (what, n, duel)
        if d["manches"] and sorted(d["manches"]) != list(range(1, max(d["manches"]) + 1)):
            self.bad(
                post,
                None,
                "manches manquantes dans le dévoilement",
                "manches missing from the disclosure",
            )
        opened_keys: set[tuple[Any, ...]] = set()
        older = 0
        for title, entries, line, _ in d["opened"]:
            keys: dict[str, tuple[Any, ...]] = {}
            # « tour T » alone: a disclosure written before gm 0.2; « …, tour T
            # avant gm 0.2 »: a secret sealed then, in a later disclosure
            old_turn = re.fullmatch(r"tour (\d+)", title) or re.search(
                r", tour (\d+) avant gm 0\.2$", title
            )
            place = re.sub(r", tour \d+ avant gm 0\.2$", "", title)
            if place == "mise en place" or (
                old_turn and title == f"tour {old_turn[1]}" and int(old_turn[1]) == 1
            ):
                keys = {name: ("setup", name) for name, _, _ in entries}
            elif m := re.fullmatch(r"manche (\d+), duel (\d+)", place):
                keys = {name: ("card", int(m[1]), int(m[2]), name) for name, _, _ in entries}
            elif m := re.fullmatch(r"fin de la manche (\d+)", place):
                keys = {name: ("end", int(m[1]), name) for name, _, _ in entries}
            elif old_turn and int(old_turn[1]) in turns:
                what, n, duel = turns[int(old_turn[1])]
                keys = {
                    name: ("card", n, duel, name) if what == "card" else ("end", n, name)
                    for name, _, _ in entries
                }
            elif title in (
                "choix enregistrés avant gm 0.2",
                "autres choix enregistrés avant gm 0.2",
            ):
                older += len(entries)
                post.data["older"] = older
                self.missing(
                    post,
                    line,
                    f"{title} : ni leur duel ni leur tour ne sont imprimés, ils ne peuvent pas être scellés de nouveau",
                    f"{title}: neither their duel nor their turn is printed, they cannot be sealed again",
                )
                continue
            else:
                self.bad(
                    post,
                    line,
                    f"« Sceaux ouverts ({title}) » : titre inconnu",
                    f"unknown title {title!r}",
                )
                continue
            for name, digits, salt in entries:
                key = keys[name]
                self.check_player(post, line, name)
                if key in opened_keys:
                    self.bad(
                        post,
                        line,
                        f"{describe(key)[0]} : ouvert deux fois",
                        f"{describe(key)[1]}: opened twice",
                    )
                    continue
                opened_keys.add(key)
                if key not in secrets:
                    self.bad(
                        post,
                        line,
                        f"{describe(key)[0]} : sceau ouvert sans le choix qu'il scelle",
                        f"{describe(key)[1]}: an opened seal without the choice it seals",
                    )
                    continue
                payloads, kind, _ = secrets[key]
                turn = int(old_turn[1]) if old_turn else None
                if turn is not None:  # a post written before gm 0.2: payloads by turn
                    first = dict(payloads[0])
                    for k in ("_v", "manche", "duel"):
                        first.pop(k, None)
                    payloads = [{"round": turn, **first}, *payloads]
                self.check_opening(post, line, key, kind, payloads, salt, digits)
        unopened = [k for k in secrets if k not in opened_keys]
        if older and len(unopened) == older:
            return
        if older:
            self.bad(
                post,
                None,
                f"{older} choix « avant gm 0.2 » pour {len(unopened)} choix montrés sans sceau",
                f"{older} choices « before gm 0.2 » for {len(unopened)} choices shown without a seal",
            )
        for key in unopened:
            self.bad(
                post,
                secrets[key][2],
                f"{describe(key)[0]} : montré sans son sceau ouvert",
                f"{describe(key)[1]}: shown without its opened seal",
            )

    def check_fistful(self) -> None:
        disclosure = self.by.get(("fistful-disclosure", ()))
        if disclosure is None or not self.focused(disclosure):
            return
        setup = self.by.get(("fistful-setup", ()))
        d = disclosure.data
        if d.get("setup") and setup is None:
            self.missing(
                disclosure,
                None,
                "la mise en place manque : les défausses ne sont pas comparées aux sceaux publiés au début",
                "the setup post is missing: the setup discards are not compared with the seals published at the start",
            )
        for n, manche in d.get("manches", {}).items():
            for duel, (cards, line) in manche["duels"].items():
                post = self.by.get(("fistful-duel", (n, duel)))
                if post is None:
                    self.missing(
                        disclosure,
                        line,
                        f"le message du duel {duel} de la manche {n} manque : ses cartes ne sont pas comparées à celles montrées alors",
                        f"the post of manche {n}, duel {duel} is missing: its cards are not compared with those shown then",
                    )
                    continue
                shown = {name: card for name, (card, _) in post.data.get("cards", {}).items()}
                if shown != cards:
                    self.bad(
                        disclosure,
                        line,
                        f"manche {n}, duel {duel} : cartes {cards} ≠ {shown} montrées dans le duel",
                        f"manche {n}, duel {duel}: cards {cards} ≠ {shown} shown in the duel post",
                    )
            if any(chosen for _, chosen, _ in manche["discards"].values()) or manche["final"]:
                post = self.by.get(("fistful-manche", (n,)))
                if post is None:
                    self.missing(
                        disclosure,
                        manche["line"],
                        f"le compte de la manche {n} manque : ses choix ne sont pas comparés aux sceaux publiés alors",
                        f"the end of manche {n} post is missing: its choices are not compared with the seals published then",
                    )
                    continue
                pd = post.data
                if manche["final"] and pd.get("final") is not None:
                    shown = {name: card for name, (card, _) in pd["final"].items()}
                    if shown != manche["final"][0]:
                        self.bad(
                            disclosure,
                            manche["final"][1],
                            f"manche {n} : ultime duel {manche['final'][0]} ≠ {shown} montré alors",
                            f"manche {n}: final duel {manche['final'][0]} ≠ {shown} shown then",
                        )
                for name, (cards, chosen, line) in manche["discards"].items():
                    if pd.get("counts") and pd["counts"].get(name) != len(cards):
                        self.bad(
                            disclosure,
                            line,
                            f"manche {n} : {name} défausse {len(cards)} cartes, le compte disait {pd['counts'].get(name)}",
                            f"manche {n}: {name} discards {len(cards)} cards, the manche post said {pd['counts'].get(name)}",
                        )
                    if chosen and name not in pd.get("committed", {}):
                        self.bad(
                            disclosure,
                            line,
                            f"manche {n} : choix de {name} sans sceau publié à la fin de la manche",
                            f"manche {n}: {name}'s choice has no seal published at the end of the manche",
                        )

    # ----------------------------------------------------------------- completeness
    def check_complete(self) -> None:
        """``thread``: the posts a game must have, up to where it is."""
        posts = [p for p in self.posts if not p.obsolete]
        game = next((p.game for p in posts if p.game), "")
        have = {(p.kind, p.key) for p in posts}
        missing: list[str] = []
        if game == "magot":
            final = self.by.get(("magot-final", ()))
            played = [
                p.key[0]
                for p in posts
                if p.kind in ("magot-round", "magot-reveal", "magot-results")
            ]
            top = max([final.data.get("rounds", 0) if final else 0, *played], default=0)
            for r in range(1, top + 1):
                done = r < top or final is not None
                if ("magot-round", (r,)) not in have:
                    missing.append(f"Tour {r} — la mise")
                if ("magot-reveal", (r,)) not in have and (done or ("magot-results", (r,)) in have):
                    missing.append(f"Tour {r} — les armes sont levées")
                if ("magot-results", (r,)) not in have and done:
                    missing.append(f"Tour {r} — ça tire")
        if game:
            if (f"{game}-opening", ()) not in have:
                missing.append("l'ouverture / the opening")
            if game == "fistful":
                if ("fistful-setup", ()) not in have:
                    missing.append("Mise en place")
                duels = [p.key for p in posts if p.kind == "fistful-duel"]
                for m in sorted({k[0] for k in duels}):
                    numbers = {k[1] for k in duels if k[0] == m}
                    missing += [
                        f"Manche {m} — duel {n}" for n in range(1, max(numbers)) if n not in numbers
                    ]
            if (f"{game}-final", ()) not in have:
                self.r.missing(
                    "la fin de partie manque (ou la partie n'est pas finie) : graine non révélée, tirages non refaits",
                    "the final post is missing (or the game is not over): the seed is not revealed, no draw redone",
                )
            elif (f"{game}-disclosure", ()) not in have and game != "colt":
                missing.append("le dévoilement / the disclosure")  # Colt's final post discloses
        for name in missing:
            self.r.missing(
                f"message absent du fil : {name}", f"post missing from the thread: {name}"
            )


def describe(key: tuple[Any, ...]) -> tuple[str, str]:
    kind = key[0]
    if kind == "order":
        return f"tour {key[1]}, {key[2]}", f"round {key[1]}, {key[2]}"
    if kind == "setup":
        return f"mise en place, {key[1]}", f"setup, {key[1]}"
    if kind == "colt-card":
        return (
            f"manche {key[1]}, carte face cachée du tour {key[2]}, {key[3]}",
            f"round {key[1]}, face-down card of turn {key[2]}, {key[3]}",
        )
    if kind == "card":
        return (
            f"manche {key[1]}, duel {key[2]}, {key[3]}",
            f"manche {key[1]}, duel {key[2]}, {key[3]}",
        )
    return f"fin de la manche {key[1]}, {key[2]}", f"end of manche {key[1]}, {key[2]}"


def fmt_bills(bills: Iterable[int]) -> str:
    return " · ".join(f"{b:,}".replace(",", " ") for b in sorted(bills, reverse=True)) or "aucun"


_DIE = re.compile(r"(\d*)d(\d+|%)(?:k([hl])(\d*))?")


def parse_dice(expression: str) -> list[tuple[Any, ...]] | None:
    """Terms of a canonical dice expression: (sign, count, sides, keep, keep_count)
    or (sign, "const", value)."""
    out: list[tuple[Any, ...]] = []
    found = re.findall(r"([+-]?)([^+-]+)", expression)
    if "".join(sign + token for sign, token in found) != expression or expression.startswith("+"):
        return None
    for sign, token in found:
        s = -1 if sign == "-" else 1
        if token.isdigit():
            out.append((s, "const", int(token)))
            continue
        m = _DIE.fullmatch(token.lower())
        if m is None:
            return None
        count = int(m[1]) if m[1] else 1
        sides = 100 if m[2] == "%" else int(m[2])
        keep_count = int(m[4]) if m[4] else (1 if m[3] else 0)
        out.append((s, count, sides, m[3], keep_count))
    return out or None


def parse_groups(text: str) -> list[tuple[int, list[int], list[bool] | None]] | None:
    """« [1, (1), 5, 4] - [4] + 2 » → (sign, values, kept) per term."""
    out: list[tuple[int, list[int], list[bool] | None]] = []
    pattern = re.compile(
        r"(?:(?P<first>- )|(?P<sep> [+-] ))?(?:\[(?P<dice>[^\]]*)\]|(?P<const>\d+))"
    )
    pos = 0
    while pos < len(text):
        m = pattern.match(text, pos)
        if m is None or (pos == 0 and m["sep"]) or (pos > 0 and not m["sep"]):
            return None
        sign = -1 if (m["first"] or (m["sep"] or "").strip() == "-") else 1
        if m["const"] is not None:
            out.append((sign, [int(m["const"])], None))
        else:
            values, kept = [], []
            for part in m["dice"].split(", "):
                d = re.fullmatch(r"(\()?(\d+)(\))?", part)
                if d is None or bool(d[1]) != bool(d[3]):
                    return None
                values.append(int(d[2]))
                kept.append(not d[1])
            out.append((sign, values, kept))
        pos = m.end()
    return out


# --- private replies (--reply) ------------------------------------------------------


@dataclass
class ReplySeal:
    """A seal gm sent a player in a private reply, and what it seals."""

    source: str
    no: int
    kind: str
    what_fr: str
    what_en: str
    digits: str


_REPLY_SEAL = r" : `?(?:sha256:)?([0-9a-fA-F]{8,64})(?!\w)"
REPLY_SEALS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("order", re.compile(r"Sceau de ton ordre" + _REPLY_SEAL)),
    ("choice", re.compile(r"Sceau de ton choix" + _REPLY_SEAL)),
    ("card", re.compile(r"Ta carte face cachée \(tour (\d+)\) est scellée" + _REPLY_SEAL)),
    ("instruction", re.compile(r"Ta consigne pour ta carte n° (\d+) est scellée" + _REPLY_SEAL)),
)
"""The lines of gm's private replies that give a seal (Le Magot's order,
Fistful of Gold's choice, Colt Express's face-down card and instruction), as
a player copies them: with or without the backquotes."""


def reply_seals(name: str, text: str) -> list[ReplySeal]:
    """The seals of a private reply, in its order; none is an error (exit 2)."""
    out = []
    for line in read_lines(text)[1]:
        for kind, pattern in REPLY_SEALS:
            for m in pattern.finditer(line.text):
                if kind == "order":
                    fr, en = "ton ordre", "your order"
                elif kind == "choice":
                    fr, en = "ton choix", "your choice"
                elif kind == "card":
                    fr, en = f"ta carte face cachée du tour {m[1]}", f"your face-down card of turn {m[1]}"
                else:
                    fr, en = f"ta consigne pour ta carte n° {m[1]}", f"your instruction for your card no. {m[1]}"
                out.append(ReplySeal(name, line.no, kind, fr, en, m[m.lastindex or 1].lower()))
    if not out:
        raise Unreadable(
            f"{name} : aucun sceau dans cette réponse privée (gm écrit « Sceau de ton ordre : … »,"
            " « Sceau de ton choix : … » ou « … est scellée : … ») / no seal in this private reply"
            " (gm writes « Sceau de ton ordre : … », « Sceau de ton choix : … » or « … est scellée : … »)"
        )
    return out


# --- entry points ---------------------------------------------------------------------


def join_parts(texts: Sequence[tuple[str, str]], fmt: str) -> list[tuple[str, str]]:
    """The parts of a chronicle cut to fit the forum (« Archive de « … » —
    partie 2 sur 3 »), given in any order, put back together as one text:
    a post too long for one part goes on in the next. Other texts stay."""
    parts: dict[int, tuple[str, str]] = {}
    out: list[tuple[str, str]] = []
    for name, text in texts:
        try:
            lines = read_lines(text, fmt)[1]
        except Unreadable:
            lines = []
        m = (
            re.fullmatch(r"Archive de « .+ » — partie (\d+) sur \d+", lines[0].text)
            if lines
            else None
        )
        if m is None or int(m[1]) in parts:
            out.append((name, text))
        else:
            parts[int(m[1])] = (name, text)
    if parts:
        ordered = [parts[n] for n in sorted(parts)]
        out.insert(0, (" + ".join(n for n, _ in ordered), "\n\n".join(t for _, t in ordered)))
    return out


def check_thread(
    report: Report,
    texts: Sequence[tuple[str, str]],
    *,
    seed: str | None = None,
    seals: Sequence[str | ReplySeal] = (),
    fmt: str = "auto",
) -> None:
    """Check many posts at once (``texts``: (name, text) pairs)."""
    sources = []
    start = 0
    for name, text in join_parts(texts, fmt):
        source = read_source(text, name, fmt, start)
        start += len(source.posts)
        sources.append(source)
    Checker(report, sources, whole=True, seed=seed, seals=seals).run()


def check_post(
    report: Report,
    text: str,
    reveal_texts: Sequence[str] = (),
    opening_text: str | None = None,
    *,
    context: Sequence[tuple[str, str]] = (),
    seed: str | None = None,
    seals: Sequence[str | ReplySeal] = (),
    fmt: str = "auto",
    name: str = "message",
) -> None:
    """Check one post; the others only serve as references."""
    main = read_source(text, name, fmt)
    if len(main.posts) > 1:
        report.bad(
            f"{name} : {len(main.posts)} messages dans ce fichier, un seul attendu (« thread » en vérifie plusieurs)",
            f"{name}: {len(main.posts)} posts in this file, one expected (« thread » checks many)",
        )
    sources = [main]
    start = 1
    refs: list[tuple[str, str, str | None]] = [
        (f"--reveal {i + 1}", t, "magot-reveal") for i, t in enumerate(reveal_texts)
    ]
    if opening_text is not None:
        refs.append(("--opening", opening_text, "opening"))
    refs += [(n, t, None) for n, t in context]
    for ref_name, ref_text, expected in refs:
        source = read_source(ref_text, ref_name, fmt, start)
        start += len(source.posts)
        for post in source.posts:
            if expected and not post.kind.endswith(expected):
                report.bad(
                    f"le message {ref_name} n'est pas {'une révélation' if expected == 'magot-reveal' else 'une ouverture'}",
                    f"the {ref_name} post is not {'a reveal' if expected == 'magot-reveal' else 'an opening'}",
                )
        sources.append(source)
    focus = {p.index for p in main.posts[:1]}
    Checker(report, sources, focus=focus, seed=seed, seals=seals).run()


def _read(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    try:
        return Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError as err:
        raise Unreadable(f"{path}: not UTF-8 text ({err.reason})") from err


EPILOG = """\
exit codes / codes de sortie:
  0  everything checked matched / tout ce qui a été vérifié concorde
  1  a mismatch or a failure / une différence ou un échec (DIFFÉRENT / MISMATCH)
  2  unreadable input or usage error / entrée illisible ou erreur d'usage
  3  nothing contradicted, but something could not be checked: a post it
     depends on is missing, the seed is not revealed yet, a short seal, a
     seal not yet opened (NON VÉRIFIÉ / NOT CHECKED) — never 0 then
"""


def run(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="gm_check",
        description=__doc__.split("\n\n")[0] if __doc__ else None,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(dest="command", required=True)

    def common(p: argparse.ArgumentParser) -> None:
        p.add_argument(
            "--seed", help="the seed, if no final post is given (checked against the opening)"
        )
        p.add_argument(
            "--seal",
            action="append",
            default=[],
            metavar="HEX",
            help="a seal from your private reply: it must be the one published",
        )
        p.add_argument(
            "--reply",
            action="append",
            default=[],
            metavar="FILE",
            help="a private reply gm sent you: each seal in it must be the one published",
        )
        p.add_argument(
            "--format", choices=FORMATS, default="auto", help="how the posts were copied"
        )

    p = sub.add_parser(
        "thread",
        help="check many posts, or a whole gm chronicle",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("files", nargs="+", metavar="FILE", help="files (- for standard input)")
    common(p)
    p = sub.add_parser(
        "post",
        help="check one post copied from the forum",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("file", help="a file, or - for standard input")
    p.add_argument("--reveal", action="append", default=[], metavar="FILE")
    p.add_argument("--opening", metavar="FILE")
    p.add_argument(
        "--with",
        dest="context",
        action="append",
        default=[],
        metavar="FILE",
        help="any other post this one depends on",
    )
    common(p)
    p = sub.add_parser(
        "seed",
        help="does the seed match the opening's commitment?",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("seed")
    p.add_argument("commitment")
    p = sub.add_parser(
        "seal",
        help="the seal of {kind, payload, salt}",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("kind")
    p.add_argument("payload", help="the payload as JSON")
    p.add_argument("salt")
    p.add_argument("expected", nargs="?", help="the seal to compare with (32 hex digits at least)")
    p = sub.add_parser("label", help="the label of a draw: PURPOSE and the players' words")
    p.add_argument("purpose", help="round-3/bills, roll/2…")
    p.add_argument(
        "words",
        nargs="*",
        metavar="PLAYER WORD",
        help="each player then their word, in seating order",
    )
    p = sub.add_parser("draws", help="integers below N of the stream LABEL")
    p.add_argument("seed")
    p.add_argument("label")
    p.add_argument("n", help="a bound, or bounds separated by commas (40,39,38)")
    p.add_argument("count", nargs="?", type=int, default=1)
    args = parser.parse_args(argv)

    report = Report()
    try:
        if args.command == "seed":
            check_seed(report, args.seed, args.commitment)
        elif args.command == "draws":
            bounds = [int(b) for b in args.n.split(",")]
            if len(bounds) == 1:
                bounds *= args.count
            print(json.dumps(draws(args.seed, args.label, bounds)))
            return 0
        elif args.command == "label":
            if len(args.words) % 2:
                raise Unreadable("give each player then their word: PLAYER WORD PLAYER WORD …")
            pairs = list(zip(args.words[::2], args.words[1::2], strict=True))
            print(label_for(args.purpose, pairs))
            return 0
        elif args.command == "seal":
            payload = json.loads(args.payload)
            if args.expected is None:
                print(seal(args.kind, payload, args.salt))
                return 0
            check_seal(report, args.kind, payload, args.salt, args.expected, args.kind)
        elif args.command == "post":
            replies = [s for r in args.reply for s in reply_seals(r, _read(r))]
            opening = _read(args.opening) if args.opening else None
            check_post(
                report,
                _read(args.file),
                [_read(r) for r in args.reveal],
                opening,
                context=[(c, _read(c)) for c in args.context],
                seed=args.seed,
                seals=[*args.seal, *replies],
                fmt=args.format,
                name=args.file,
            )
        else:
            replies = [s for r in args.reply for s in reply_seals(r, _read(r))]
            check_thread(
                report,
                [(f, _read(f)) for f in args.files],
                seed=args.seed,
                seals=[*args.seal, *replies],
                fmt=args.format,
            )
    except (OSError, ValueError, TypeError, Unreadable) as err:
        print(f"ERREUR / ERROR: {err}", file=sys.stderr)
        return EXIT_UNREADABLE
    for line in report.lines:
        print(line)
    if args.command in ("post", "thread"):
        print(report.summary())
    return report.code


if __name__ == "__main__":
    try:
        sys.exit(run())
    except BrokenPipeError:  # `… | head`: the reader left; say nothing more
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(1)
