"""A player's private reply against the replayed log (``gm check --reply FILE``).

gm answers each player's order privately with the seal of the secret it
recorded and what it understood (« tu braques marco avec BANG »). The
player pastes that reply whole; the checker finds its seals (code spans of
at least 32 hex digits; in a text without code spans, BBCode or a browser's
copy, runs of them) among the records the posts' proofs publish:

* a seal no record holds means the log never held the order gm confirmed;
* a seal of a record later replaced by another secret of the same key, or
  voided by an undo, means the secret changed after the reply;
* once the record is opened (its content public), the reply is rendered
  again from the player's view of the log as it stood after the command
  (``gm.service.posts.render_private``, the template gm wrote it with) and
  compared line by line: what the reply states must be what the log holds.
  Until then the seal is all that can be compared, and the report says what
  waits.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from gm.check.checker import SLUG, Outcome
from gm.check.compare import compare
from gm.check.reading import Line, read_lines
from gm.check.report import BAD, MISSING, OK, Report
from gm.core.campaign import CommandDecided, SubmissionReceived
from gm.errors import GMError
from gm.service.loading import Campaign, codec_for, decode, fold, voided_by
from gm.store.records import StoredEvent

_HEX = re.compile(r"(?:sha256:)?([0-9a-f]{32,64})")
_BARE_HEX = re.compile(r"(?<![0-9A-Za-z:])(?:sha256:)?([0-9a-f]{32,64})(?![0-9A-Za-z])")
TEMPLATE = "order_received"
"""The template of a reply to an accepted order, in every game."""


def check_replies(outcome: Outcome, replies: Sequence[tuple[str, str]], fmt: str = "auto") -> None:
    """Add each reply's section to ``outcome.report``."""
    for name, text in replies:
        _Reply(outcome, name, text, fmt).run()


class _Reply:
    def __init__(self, outcome: Outcome, name: str, text: str, fmt: str) -> None:
        self.outcome, self.name, self.text, self.fmt = outcome, name, text, fmt
        self.key = ("reply", name)
        self.report: Report = outcome.report
        self.report.section(self.key, f"Réponse privée — {name}")

    def add(self, level: str, text: str) -> None:
        self.report.add(self.key, level, text)

    def run(self) -> None:
        used, lines, problems = read_lines(self.text, self.fmt)
        for no, what in problems:
            self.add(BAD, f"ligne {self.name}:{no} : {what}")
        seals = [(line, digits) for line in lines for digits in _seals(line)]
        if not seals:
            self.add(
                BAD,
                f"{self.name} : aucun sceau (32 chiffres hexadécimaux au moins) dans cette réponse",
            )
            return
        chain = self.outcome.chain
        records = chain.records if chain is not None else []
        for line, digits in seals:
            where = f"{self.name}:{line.no}"
            found = [r for r in records if r.body.removeprefix("sha256:").startswith(digits)]
            if not found:
                self.add(
                    BAD,
                    f"le sceau {digits} ({where}) n'est celui d'aucun événement du fil : le"
                    " registre publié ne tient pas le secret que gm t'a confirmé",
                )
                continue
            record = found[0]
            owner = chain.owner.get(record.seq) if chain is not None else None
            self.add(
                OK,
                f"le sceau {digits} ({where}) est celui de l'événement {record.seq}, publié par"
                f" le message n° {owner}",
            )
            self._kept(record, digits, records)
            self._stated(record, used, lines, records)

    def _kept(self, record: StoredEvent, digits: str, records: Sequence[StoredEvent]) -> None:
        """The secret stayed: not voided, not replaced by another of the same key."""
        if record.seq in voided_by(records):
            self.add(BAD, f"le secret au sceau {digits} a été annulé ensuite par le MJ (gm undo)")
            return
        game_id = self._game_id(records)
        if not record.known or not game_id:
            return
        codec = codec_for(game_id)
        if record.kind.startswith("gm.") or not codec.type_of(record.kind).sealed:
            return
        key = decode(game_id, record).secret_key()
        voided = voided_by(records)
        for later in records[record.seq :]:
            if later.seq in voided or later.kind != record.kind or not later.known:
                continue
            if decode(game_id, later).secret_key() == key:
                self.add(
                    BAD,
                    f"le secret au sceau {digits} a été remplacé ensuite (événement"
                    f" {later.seq}) : ce n'est plus celui que gm t'a confirmé",
                )
                return

    def _stated(
        self, record: StoredEvent, fmt: str, lines: list, records: Sequence[StoredEvent]
    ) -> None:
        """Render the reply again from the log, if its content is known, and compare."""
        if not record.known:
            opener = "un message suivant"
            self.add(
                MISSING,
                f"ce que la réponse dit de l'événement {record.seq} ne peut être comparé qu'une"
                f" fois son contenu ouvert ({opener} le fera) : seul le sceau est vérifié",
            )
            return
        first, last = _batch(records, record.seq)
        game_id = self._game_id(records)
        needed = records[:last]
        if any(not r.known and not _inert(r) for r in needed):
            self.add(
                MISSING,
                "ce que dit la réponse ne peut pas encore être comparé : des événements"
                " antérieurs sont encore scellés",
            )
            return
        try:
            before = fold(SLUG, game_id, records[: first - 1])
            after = fold(SLUG, game_id, needed)
            text = _render(before, after, records[first - 1 : last])
        except (GMError, KeyError, TypeError, ValueError) as err:
            self.add(MISSING, f"gm ne sait pas réécrire cette réponse à partir du registre ({err})")
            return
        result = compare(lines, text, fmt, after.meta.settings)
        for diff in result.differences[:8]:
            if diff.shown is None:
                self.add(
                    BAD, f"il manque à la réponse une ligne que gm écrirait : « {diff.fresh} »"
                )
            elif diff.fresh is None:
                self.add(
                    BAD,
                    f"ligne {self.name}:{diff.shown.no} : « {diff.shown.text} » — gm n'écrit pas"
                    " cette ligne d'après le registre",
                )
            else:
                self.add(
                    BAD,
                    f"ligne {self.name}:{diff.shown.no} : la réponse dit « {diff.shown.text} »,"
                    f" le registre rejoué ferait écrire « {diff.fresh} »",
                )
        if not result.differences:
            self.add(
                OK,
                "ce que dit la réponse est ce que gm écrit d'après le registre rejoué (réécrite"
                " à partir de la vue du joueur)",
            )

    def _game_id(self, records: Sequence[StoredEvent]) -> str:
        if records and records[0].known:
            return str(records[0].payload.get("game", ""))
        return ""


def _seals(line: Line) -> list[str]:
    """The seals a line of a reply shows: its code spans of hex digits, or, in
    a text without code spans (BBCode, a browser's copy), its runs of them."""
    codes = line.code_texts()
    if codes:
        return [m.group(1) for code in codes for m in [_HEX.fullmatch(code.strip())] if m]
    return [m.group(1) for m in _BARE_HEX.finditer(line.text)]


def _inert(record: StoredEvent) -> bool:
    from gm.service.loading import FOLDED_KINDS

    return record.kind.startswith("gm.") and record.kind not in FOLDED_KINDS


def _batch(records: Sequence[StoredEvent], seq: int) -> tuple[int, int]:
    """The first and last seq of the append that recorded ``seq``: a player's
    message starts with its submission, an MJ's command with itself; it ends
    before the next one, a post or a deadline."""
    i = seq - 1
    while i > 0 and records[i].kind != CommandDecided.kind:
        i -= 1
    actor = records[i].actor
    while i > 0:
        prev = records[i - 1]
        if prev.kind == SubmissionReceived.kind:
            i -= 1
            break
        if prev.kind == CommandDecided.kind and prev.actor != actor:
            break
        if prev.kind.startswith("gm.") and prev.kind not in (
            CommandDecided.kind,
            "gm.entropy-added",
            "gm.chance-drawn",
            "gm.default-applied",
        ):
            break
        i -= 1
    j = seq
    while j < len(records):
        nxt = records[j]
        if nxt.kind == CommandDecided.kind and nxt.actor != actor:
            break
        if nxt.kind.startswith("gm.") and nxt.kind not in (CommandDecided.kind, "gm.chance-drawn"):
            break
        j += 1
    return records[i].seq, records[j - 1].seq


def _render(before: Campaign, after: Campaign, batch: Sequence[StoredEvent]) -> str:
    from gm.core.protocol import GM
    from gm.service.posts import order_received

    command = next(r for r in batch if r.kind == CommandDecided.kind)
    player = command.audience if command.audience != GM else command.payload.get("actor", GM)
    sealed = [r for r in batch if not r.kind.startswith("gm.")]
    owner = sealed[-1].audience if sealed else player
    return order_received(before, after, owner, batch, None)


__all__ = ["check_replies"]
