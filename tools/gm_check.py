#!/usr/bin/env python3
"""gm_check: check a game run with gm (Le Magot, Fistful of Gold), with the Python standard library only.

This script does not import gm: it re-implements gm's published hashing
contract (see the README, « Vérifier une partie / Checking a game »), so a
player can check the MJ without trusting gm's code. ``gm check-post`` runs the
same checks through gm's own functions; the tests compare the two.

    python tools/gm_check.py seed SEED COMMITMENT
    python tools/gm_check.py draws SEED LABEL N [COUNT]
    python tools/gm_check.py seal KIND PAYLOAD_JSON SALT [EXPECTED]
    python tools/gm_check.py post FILE [--reveal FILE]... [--opening FILE]

* ``seed``: is the SHA-256 of the seed's UTF-8 bytes the published sceau?
* ``draws``: the integers below N of the stream LABEL (``draw/<n>``, the n-th draw);
  N may be a comma list (``40,39,38``): one draw per bound, in order, from
  the same stream, as the bills of a round are drawn.
* ``seal``: the seal of a sealed event ``{kind, payload, salt}``; compared
  with EXPECTED (full ``sha256:…`` or the 8 hex digits of a post) if given.
* ``post``: a post as copied from the forum (Markdown, BBCode or plain text).
  What can be checked from posts alone, and only that: in a results post or
  the disclosure, each order published with its salt (« Sceaux ouverts »)
  is sealed again from the round, shooter, target and option printed in the
  post, and compared with the seal printed next to the salt and, with
  ``--reveal``, with the seal of the reveal post of that round (published
  before anyone could see the results). In the final post, with
  ``--opening``, the revealed seed is checked against the opening's sceau.
  The posts' other content (shares, wounds, the ledger fingerprint) needs
  the log: that is ``gm verify``, run by the MJ.
  Fistful of Gold: in a duel post, each card shown is sealed again with its
  published salt and compared with the seal printed next to it, the one each
  player received in their private reply when the MJ recorded the card; in
  the end-of-manche post, the discard its final duel shows in full. In
  the disclosure (``gm post disclosure``, after the game), the same for every
  sealed choice of the game: the setup discards, every duel's card, the
  end-of-manche discards and final-duel cards.

Exit code: 0 when everything checked matches, 1 on a mismatch (a line says
what differs, in French and English), 2 when the input cannot be read.
"""

from __future__ import annotations

import argparse
import hashlib
import hmac
import json
import os
import re
import sys
import unicodedata
from collections.abc import Iterator
from pathlib import Path
from typing import Any

PREFIX = "sha256:"
ORDER_KIND = "magot.order-set"
OPTIONS = {"BANG BANG BANG": "triple", "BANG": "bang", "CLIC CLIC CLIC": "click"}
FISTFUL_CARD = "fistful.card-played"
FISTFUL_SETUP = "fistful.setup-discarded"
FISTFUL_END = "fistful.end-chosen"


# --- the hashing contract -------------------------------------------------------


def normalize(value: Any) -> Any:
    if isinstance(value, str):
        return unicodedata.normalize("NFC", value)
    if isinstance(value, dict):
        return {normalize(str(k)): normalize(v) for k, v in value.items()}
    if isinstance(value, list):
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


# --- reporting --------------------------------------------------------------------


class Report:
    """Lines to print, and whether anything differed."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.failed = False

    def ok(self, fr: str, en: str) -> None:
        self.lines.append(f"OK : {fr} / {en}")

    def bad(self, fr: str, en: str) -> None:
        self.failed = True
        self.lines.append(f"DIFFÉRENT : {fr} / MISMATCH: {en}")

    def note(self, fr: str, en: str) -> None:
        self.lines.append(f"NOTE : {fr} / {en}")


def _hex(value: str) -> str:
    return value.strip().strip("`").lower().removeprefix(PREFIX)


def same_digest(computed: str, expected: str) -> bool:
    """``expected`` is the full digest or its first hex digits (8 at least)."""
    want = _hex(expected)
    return len(want) >= 8 and _hex(computed).startswith(want)


def check_seed(report: Report, seed: str, expected: str) -> None:
    computed = commitment(seed)
    if same_digest(computed, expected):
        report.ok(f"la graine correspond au sceau {computed}", "the seed matches its commitment")
    else:
        report.bad(
            f"SHA-256 de la graine = {computed}, sceau publié = {expected}",
            f"the seed's SHA-256 is {computed}, the published commitment is {expected}",
        )


def check_seal(report: Report, kind: str, payload: Any, salt: str, expected: str, who: str) -> None:
    computed = seal(kind, payload, salt)
    if same_digest(computed, expected):
        report.ok(f"{who} : sceau {_hex(computed)[:8]} retrouvé", f"{who}: seal matches")
    else:
        report.bad(
            f"{who} : sceau recalculé {_hex(computed)[:8]} ≠ publié {_hex(expected)[:8]}",
            f"{who}: recomputed seal {_hex(computed)[:8]} ≠ published {_hex(expected)[:8]}",
        )


# --- reading posts ------------------------------------------------------------------

_BB_CELL = re.compile(r"\[/t[dh]\]", re.IGNORECASE)
_BB_ROW = re.compile(r"\[tr\]", re.IGNORECASE)
_BB_TAG = re.compile(r"\[/?[a-z*]+(?:=[^\]]*)?\]", re.IGNORECASE)
_HTML_CELL = re.compile(r"</t[dh]>", re.IGNORECASE)
_HTML_ROW = re.compile(r"<tr\b[^>]*>", re.IGNORECASE)
_HTML_TAG = re.compile(r"</?[a-z][a-z0-9]*\b[^>]*>", re.IGNORECASE)
_ESCAPED = re.compile(r"\\([\\`*_{}\[\]()#+\-.!|<>~])")
_HEX = r"([0-9a-fA-F]{8,64})"
_OPENED_ENTRY = re.compile(r"^(.+?)\s+(?:sha256:)?" + _HEX + r"\s*\(sel\s+([0-9a-fA-F]+)\)$")
_SHOT = re.compile(r"^[-*•]?\s*(BANG BANG BANG|CLIC CLIC CLIC|BANG)\s+—\s+(.+)$")
_ROUND = re.compile(r"Tour\s+(\d+)")


def plain(text: str) -> list[str]:
    """The post's lines without markup: Markdown, BBCode or HTML as pasted."""
    text = text.replace("\u200b", "").replace("\r\n", "\n")
    text = _BB_ROW.sub("|", _BB_CELL.sub(" |", text))
    text = _HTML_ROW.sub("|", _HTML_CELL.sub(" |", text))
    text = _HTML_TAG.sub("", _BB_TAG.sub("", text))
    text = text.replace("**", "").replace("`", "")
    text = _ESCAPED.sub(r"\1", text)
    text = unicodedata.normalize("NFC", text)
    return [line.strip() for line in text.split("\n")]


def opened_entries(line: str) -> list[tuple[str, str, str]] | None:
    """``(player, seal, salt)`` of a « Sceaux ouverts : … » line, else None."""
    if not line.startswith("Sceaux ouverts"):
        return None
    entries = []
    for part in line.partition(":")[2].split(" · "):
        match = _OPENED_ENTRY.match(part.strip())
        if match:
            entries.append((match[1].strip(), match[2].lower(), match[3].lower()))
    return entries


def reveal_seals(lines: list[str]) -> tuple[int | None, dict[str, str]]:
    """The round of a reveal post and its « Sceaux des ordres »: player → seal."""
    round_ = None
    seals: dict[str, str] = {}
    for line in lines:
        if round_ is None and "les armes sont levées" in line:
            found = _ROUND.search(line)
            round_ = int(found[1]) if found else None
        if line.startswith("Sceaux des ordres"):
            for part in line.partition(":")[2].split(" · "):
                name, _, digits = part.strip().rpartition(" ")
                if name and re.fullmatch(_HEX, digits):
                    seals[name.strip()] = digits.lower()
    return round_, seals


def kind_of(lines: list[str]) -> str:
    joined = "\n".join(lines)
    if any(_DUEL_HEADING.fullmatch(line) for line in lines):
        return "fistful-duel"
    if any(_MANCHE_HEADING.fullmatch(line) for line in lines):
        return "fistful-manche"
    if "toutes les cartes, enfin dévoilées" in joined:
        return "fistful-disclosure"
    if "ça tire" in joined:
        return "results"
    if "enfin dévoilés" in joined:
        return "disclosure"
    if "les armes sont levées" in joined:
        return "reveal"
    if "Graine du hasard" in joined:
        return "final"
    if "Sceau du hasard" in joined:
        return "opening"
    return "unknown"


def shot_for(lines: list[str], player: str) -> tuple[str, str] | None:
    for line in lines:
        match = _SHOT.match(line)
        if match and match[2].startswith(player + " sur "):
            target = match[2][len(player) + len(" sur ") :].rpartition(" : ")[0]
            return target.strip(), OPTIONS[match[1]]
    return None


def table_rows(lines: list[str]) -> list[list[str]]:
    rows = []
    for line in lines:
        if "|" in line:
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
        elif "\t" in line:
            cells = [c.strip() for c in line.split("\t")]
        else:
            continue
        if len(cells) >= 3 and not set("".join(cells)) <= set("-: "):
            rows.append(cells)
    return rows


def check_opened(
    report: Report,
    round_: int,
    entries: list[tuple[str, str, str]],
    orders: dict[str, tuple[str, str]],
    reveals: dict[int, dict[str, str]],
) -> None:
    for player, printed, salt in entries:
        who = f"tour {round_}, {player}"
        if player not in orders:
            report.bad(
                f"{who} : sel publié mais pas d'ordre lisible dans le message",
                f"round {round_}, {player}: a salt without a readable order in the post",
            )
            continue
        target, option = orders[player]
        payload = {"round": round_, "player": player, "target": target, "option": option}
        check_seal(report, ORDER_KIND, payload, salt, printed, who + " (ce message / this post)")
        if round_ in reveals:
            revealed = reveals[round_].get(player)
            if revealed is None:
                report.bad(
                    f"{who} : aucun sceau dans la révélation",
                    f"round {round_}, {player}: no seal in the reveal post",
                )
            else:
                check_seal(
                    report, ORDER_KIND, payload, salt, revealed, who + " (révélation / reveal)"
                )


def check_post(
    report: Report, text: str, reveal_texts: list[str], opening_text: str | None
) -> None:
    lines = plain(text)
    kind = kind_of(lines)
    reveals: dict[int, dict[str, str]] = {}
    for reveal in reveal_texts:
        round_, seals = reveal_seals(plain(reveal))
        if round_ is None or not seals:
            report.bad(
                "le message --reveal n'est pas une révélation avec des sceaux",
                "the --reveal post is not a reveal post with seals",
            )
            continue
        reveals[round_] = seals
    if kind == "results":
        found = next((_ROUND.search(line) for line in lines if "ça tire" in line), None)
        if found is None:
            report.bad("numéro de tour introuvable", "cannot find the round number")
            return
        round_ = int(found[1])
        entries = next((e for line in lines if (e := opened_entries(line)) is not None), [])
        orders = {p: o for p, _, _ in entries if (o := shot_for(lines, p)) is not None}
        if not entries:
            report.note("aucun sel publié dans ce message", "no salt published in this post")
        if reveals and round_ not in reveals:
            report.bad(
                f"la révélation donnée n'est pas celle du tour {round_}",
                f"the reveal post given is not round {round_}'s",
            )
        check_opened(report, round_, entries, orders, reveals)
    elif kind == "disclosure":
        current: int | None = None
        block: list[str] = []
        count = 0

        def flush() -> None:
            nonlocal count
            if current is None:
                return
            rows = {r[0]: (r[1], r[2]) for r in table_rows(block)}
            orders = {p: (t, OPTIONS[o]) for p, (t, o) in rows.items() if o in OPTIONS}
            for line in block:
                entries = opened_entries(line)
                if entries is not None:
                    count += len(entries)
                    check_opened(report, current, entries, orders, reveals)

        for line in lines:
            heading = re.fullmatch(r"Tour\s+(\d+)", line)
            if heading:
                flush()
                current, block = int(heading[1]), []
            else:
                block.append(line)
        flush()
        if not count:
            report.note("aucun sel publié dans ce message", "no salt published in this post")
    elif kind == "final":
        seed = next(
            (
                line.partition(":")[2].rpartition(" — ")[0].strip()
                for line in lines
                if line.startswith("Graine du hasard")
            ),
            "",
        )
        if opening_text is None:
            report.note(
                f"graine révélée : {seed} ; donnez --opening pour la comparer au sceau",
                "give --opening to check it against the commitment",
            )
            return
        published = next(
            (
                re.search(r"sha256:[0-9a-fA-F]{64}", line)
                for line in plain(opening_text)
                if line.startswith("Sceau du hasard")
            ),
            None,
        )
        if published is None:
            report.bad("pas de sceau dans l'ouverture", "no commitment in the opening post")
            return
        check_seed(report, seed, published[0])
    elif kind in ("fistful-duel", "fistful-manche"):
        check_fistful_cards(report, lines, final_duel=kind == "fistful-manche")
    elif kind == "fistful-disclosure":
        check_fistful_disclosure(report, lines)
    elif kind == "reveal":
        round_, seals = reveal_seals(lines)
        report.note(
            f"révélation du tour {round_} : {len(seals)} sceaux, à comparer aux sels publiés"
            " plus tard (--reveal)",
            "a reveal post: give it with --reveal when checking the results or the disclosure",
        )
    else:
        report.note(
            "rien à vérifier dans ce message sans le registre (gm verify)",
            "nothing to check in this post without the log (gm verify)",
        )


# --- Fistful of Gold ----------------------------------------------------------------
#
# A card is stored by its value, "1" … "8" or "dynamite"; posts show it with
# its deck's colour: « 5 rouge », « Dynamite verte ». The sealed payloads are
#   fistful.card-played      {"round": T, "player": P, "card": C}
#   fistful.setup-discarded  {"round": 1, "player": P, "cards": [C, C]}
#   fistful.end-chosen       {"round": T, "player": P,
#                             "choice": {"discards": [C…], "final": C or null}}
# where T is the turn (« tour ») printed next to it.

_DUEL_HEADING = re.compile(r"#*\s*Manche\s+\d+\s+—\s+duel\s+\d+\s+sur\s+\d+")
_MANCHE_HEADING = re.compile(r"#*\s*Manche\s+\d+\s+—\s+le compte")
_CARD = r"(\d|Dynamite)\s+(?:rouge|verte?)"
_TURN = re.compile(r"·\s*tour\s+(\d+)")
_BULLET = re.compile(r"^(?:[-*•]|\d+\.)\s+")


def card_value(shown: str) -> str:
    return "dynamite" if shown == "Dynamite" else shown


def cards_of(text: str, player: str) -> list[str]:
    """The cards ``text`` shows after ``player``'s name: « P 3 rouge », « P joue
    le 3 rouge », « P Dynamite verte et 5 vert »."""
    found = re.search(
        r"(?:^|[:·,;]\s*)"
        + re.escape(player)
        + r"\s+(?:joue\s+|a\s+défaussé\s+)?(?:(?:le|la)\s+)?"
        + _CARD
        + r"((?:\s+et\s+(?:(?:le|la)\s+)?"
        + _CARD
        + r")*)",
        text,
    )
    if found is None:
        return []
    more = re.findall(_CARD, found[2] or "")
    return [card_value(found[1]), *(card_value(c) for c in more)]


_SHOWN = re.compile(r"^.+\s+joue\s+(?:le|la)\s+" + _CARD + r",\s")


def shown_cards_line(lines: list[str]) -> str:
    """The line that shows a duel's two cards: « ana joue le 6 vert, bob le 8 rouge. »"""
    return next((line for line in lines if _SHOWN.match(line)), "")


def check_fistful_cards(report: Report, lines: list[str], *, final_duel: bool) -> None:
    """A duel post opens both cards it shows; an end-of-manche post
    (``final_duel``) opens the choices its final duel shows in full: a
    player who discards one card, the one revealed there."""
    turn = next((int(m[1]) for line in lines if (m := _TURN.search(line))), None)
    entries = next((e for line in lines if (e := opened_entries(line)) is not None), [])
    if turn is None:
        report.bad("numéro de tour introuvable", "cannot find the turn number")
        return
    if not entries:
        if final_duel:
            report.note(
                "aucun sel publié dans ce message : les choix restent scellés jusqu'au dévoilement",
                "no salt published in this post: the choices stay sealed until the disclosure",
            )
        else:
            report.note("aucun sel publié dans ce message", "no salt published in this post")
        return
    shown = shown_cards_line(lines)
    for player, printed, salt in entries:
        cards = cards_of(shown, player)
        who = f"tour {turn}, {player}"
        if len(cards) != 1:
            card = "carte d'ultime duel" if final_duel else "carte"
            report.bad(
                f"{who} : sel publié mais pas de {card} lisible dans le message",
                f"turn {turn}, {player}: a salt without a readable card in the post",
            )
            continue
        if final_duel:
            choice = {"discards": cards, "final": None}
            payload = {"round": turn, "player": player, "choice": choice}
            check_seal(report, FISTFUL_END, payload, salt, printed, who)
        else:
            payload = {"round": turn, "player": player, "card": cards[0]}
            check_seal(report, FISTFUL_CARD, payload, salt, printed, who)
    if not final_duel:
        report.note(
            "chaque joueur compare aussi ce sceau à celui de sa réponse privée",
            "each player also compares their seal with the one in their private reply",
        )


def check_fistful_disclosure(report: Report, lines: list[str]) -> None:
    lines = [_BULLET.sub("", line) for line in lines]
    played: dict[int, str] = {}  # turn → the line that shows what was played then
    ends: dict[int, tuple[str, str]] = {}  # end turn → (discards line, final duel line)
    setup = ""
    end_turn: int | None = None
    for line in lines:
        if line.startswith("Mise en place"):
            setup = line
        elif match := re.match(r"duel\s+\d+\s+\(tour\s+(\d+)\)\s*:", line):
            played[int(match[1])] = line
        elif match := re.match(r"défausses\s+\(tour\s+(\d+)\)\s*:", line):
            end_turn = int(match[1])
            ends[end_turn] = (line, "")
        elif line.startswith("ultime duel") and end_turn is not None:
            ends[end_turn] = (ends[end_turn][0], line)
    count = 0
    for line in lines:
        match = re.match(r"Sceaux ouverts\s+\(tour\s+(\d+)\)", line)
        if match is None:
            continue
        turn = int(match[1])
        for player, printed, salt in opened_entries(line) or []:
            count += 1
            who = f"tour {turn}, {player}"
            payload: dict[str, Any] | None = None
            if turn == 1 and setup:
                cards = cards_of(setup, player)
                if len(cards) == 2:
                    payload = {"round": 1, "player": player, "cards": cards}
                kind = FISTFUL_SETUP
            elif turn in played:
                cards = cards_of(played[turn], player)
                if len(cards) == 1:
                    payload = {"round": turn, "player": player, "card": cards[0]}
                kind = FISTFUL_CARD
            elif turn in ends:
                discards_line, final_line = ends[turn]
                discards = cards_of(discards_line, player)
                final = cards_of(final_line, player) if final_line else []
                # The final-duel card is part of the choice only when the
                # player discards two and so chose which one to show.
                choice = {
                    "discards": discards,
                    "final": final[0] if final and len(discards) > 1 else None,
                }
                if discards:
                    payload = {"round": turn, "player": player, "choice": choice}
                kind = FISTFUL_END
            if payload is None:
                report.bad(
                    f"{who} : sel publié mais pas de choix lisible dans le message",
                    f"turn {turn}, {player}: a salt without a readable choice in the post",
                )
                continue
            check_seal(report, kind, payload, salt, printed, who)
    if not count:
        report.note("aucun sel publié dans ce message", "no salt published in this post")


# --- command line -----------------------------------------------------------------


def _read(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    return Path(path).read_text(encoding="utf-8")


def run(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="gm_check", description=__doc__.split("\n\n")[0] if __doc__ else None
    )
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("seed", help="does the seed match the opening's sceau?")
    p.add_argument("seed")
    p.add_argument("commitment")
    p = sub.add_parser("draws", help="integers below N of the stream LABEL")
    p.add_argument("seed")
    p.add_argument("label")
    p.add_argument("n", help="a bound, or bounds separated by commas (40,39,38)")
    p.add_argument("count", nargs="?", type=int, default=1)
    p = sub.add_parser("seal", help="the seal of {kind, payload, salt}")
    p.add_argument("kind")
    p.add_argument("payload", help="the payload as JSON")
    p.add_argument("salt")
    p.add_argument("expected", nargs="?")
    p = sub.add_parser("post", help="check a post copied from the forum")
    p.add_argument("file", help="a file, or - for standard input")
    p.add_argument("--reveal", action="append", default=[], metavar="FILE")
    p.add_argument("--opening", metavar="FILE")
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
        elif args.command == "seal":
            payload = json.loads(args.payload)
            if args.expected is None:
                print(seal(args.kind, payload, args.salt))
                return 0
            check_seal(report, args.kind, payload, args.salt, args.expected, args.kind)
        else:
            opening = _read(args.opening) if args.opening else None
            check_post(report, _read(args.file), [_read(r) for r in args.reveal], opening)
    except (OSError, ValueError, TypeError) as err:
        print(f"ERREUR / ERROR: {err}", file=sys.stderr)
        return 2
    for line in report.lines:
        print(line)
    return 1 if report.failed else 0


if __name__ == "__main__":
    try:
        sys.exit(run())
    except BrokenPipeError:  # `… | head`: the reader left; say nothing more
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(1)
