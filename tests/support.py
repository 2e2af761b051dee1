"""Helpers shared by the tests (importable as ``support``: pytest's
``pythonpath`` includes ``tests/``).

``Raw`` talks to a database behind gm's back, as a tamperer would, on SQLite
and PostgreSQL alike; ``PgServer`` makes the throw-away PostgreSQL databases;
``Gm`` runs the command line in-process, as an MJ would; ``Table`` plays a
campaign through the service layer and keeps every private message sent;
``typeset`` sets an expected text typed the plain way as gm prints it.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
import sqlite3
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import make_url

from gm.errors import GMError
from gm.render.engine import PLATFORM, game_templates_dir, templates_dir
from gm.service.env import Env
from gm.store.db import resolve_url

REPORT: list[str] = []
"""Lines a test wants in the run's summary (numbers a reviewer asks for)."""

PG_ENV = "GM_TEST_PG_URL"
"""Names a PostgreSQL server the tests may create databases on (see conftest.py)."""

NewDb = Callable[..., str]
"""The type of the ``new_db`` fixture: ``new_db(name="gm")`` gives a fresh database."""

CloneDb = Callable[[str], str]
"""The type of the ``clone_db`` fixture: ``clone_db(db)`` gives a copy of ``db``."""

APPEND_ONLY_TRIGGERS = (
    "events_no_update",
    "events_no_delete",
    "posts_no_update",
    "posts_no_delete",
)


NB, NNB = "\u00a0", "\u202f"
_FRENCH = (
    (re.compile(r"(?<=\d) (?=\d{3}\b|\$)"), NB),  # 45 000 $
    (re.compile(r" (?=[;!?](?![\w/(]|\[(?!/)))"), NNB),  # « ?[/b] » in BBCode too
    (re.compile(r" (?=:(?![\w/\-:]))"), NB),
    (re.compile(r"(?<=«) "), NNB),
    (re.compile(r" (?=»)"), NNB),
    (re.compile(r"(?<=\bn°) "), NB),
    (re.compile(r"(?<=\d) (?=h\b)"), NB),
    (re.compile(r"(?<=\d\u00a0h) (?=\d)"), NB),
)
_STARTS_BLOCK = re.compile(r" {0,3}(?:[-*+] |\d{1,9}[.)] |#{1,6}(?: |$)|\||>)")


def shipped(name: str) -> Path:
    """The shipped template ``name`` as the renderer names it
    (``magot/fr/results.md.j2``, ``common/fr/remind.md.j2``): the file in the
    game's package or in the platform's templates."""
    owner, rest = name.split("/", 1)
    folder = templates_dir() if owner == PLATFORM else game_templates_dir(owner)
    assert folder is not None, f"no game {owner!r} ships templates"
    return folder / rest


def typeset(text: str, breaks: bool = True) -> str:
    """An expected post or reply, typed in the tests with plain spaces and one
    newline per line as a template writes it, set as gm prints it: French
    no-break spaces (U+202F before ; ! ? and inside « », U+00A0 before :, in
    amounts and in « 20 h 00 »), and two spaces ending each line a paragraph
    continues (the hard break every Markdown renderer keeps). Text in code
    spans and what players typed must not hold « : » after a space here.
    ``breaks=False`` for BBCode and HTML, where a newline is the break."""
    for pattern, space in _FRENCH:
        text = pattern.sub(space, text)
    if not breaks:
        return text
    lines = text.split("\n")
    for i, line in enumerate(lines[:-1]):
        nxt = lines[i + 1]
        heading_or_row = re.match(r"#{1,6} |\|", line)
        if line.strip() and nxt.strip() and not heading_or_row and not _STARTS_BLOCK.match(nxt):
            lines[i] = line.rstrip(" ") + "  "  # (typesetting twice changes nothing)
    return "\n".join(lines)


PROOF_INTRO = "\n\nPreuve pour les vérificateurs"
"""How a post's proof section starts (template ``common/fr/proof``)."""


def without_proof(text: str) -> str:
    """A printed post without the proof section it ends with (protocol 4):
    what a preview of it shows. :raises AssertionError: it has none."""
    assert PROOF_INTRO in text, f"no proof section in:\n{text}"
    return text[: text.rindex(PROOF_INTRO) + 1]


PRIVATE_HEADER = "── private "
"""How the line before a private reply or message starts (on stderr)."""


def _private_spans(stderr: str) -> list[tuple[int, int]]:
    """Where the private texts are in ``stderr``: (header line, end) indexes of
    lines; a text runs to the next note of its campaign, error or header."""
    lines = stderr.split("\n")
    spans = []
    i = 0
    while i < len(lines):
        if lines[i].startswith(PRIVATE_HEADER):
            slug = lines[i].rsplit("[", 1)[-1].split("]", 1)[0]
            j = i + 1
            while j < len(lines) and not lines[j].startswith(
                (f"[{slug}] ", "Error:", "── ", "Usage:")
            ):
                j += 1
            spans.append((i, j))
            i = j
        else:
            i += 1
    return spans


def private(result: Any, index: int = -1) -> str:
    """The private reply (or message) a command printed: on standard error
    after its header line, never on standard output (the last one by default)."""
    lines = result.stderr.split("\n")
    spans = _private_spans(result.stderr)
    assert spans, f"no private text in:\n{result.stderr}"
    i, j = spans[index]
    return "\n".join(lines[i + 1 : j]).rstrip("\n") + "\n"


def notes(result: Any) -> str:
    """What a command said on standard error, its private texts left out
    (their header lines kept): the notes and errors for the MJ."""
    lines = result.stderr.split("\n")
    for i, j in reversed(_private_spans(result.stderr)):
        del lines[i + 1 : j]
    text = "\n".join(lines)
    return text + "\n" if result.stderr.endswith("\n") and not text.endswith("\n") else text


def post_parts(body: str) -> tuple[str, str]:
    """A stored post's words (without its proof section) and its proof, as
    JSON: what it publishes besides its words (the base64 read decoded, as a
    checker reads it). A post of an older protocol has no proof: ``""``."""
    from gm.core import proof as proofs

    if PROOF_INTRO not in body:
        return body, ""
    found = proofs.find(body)
    proof = json.dumps(proofs.decode(found[-1][1]).to_json(), ensure_ascii=False)
    return body[: body.rindex(PROOF_INTRO) + 1], proof


def rechain(document: dict[str, Any]) -> dict[str, Any]:
    """Recompute every hash of an export document after an edit, as a careful
    cheat would, so that only what the hashes cannot see is left to catch it."""
    from gm.store.records import link_hash, sealed_chain

    prev = None
    first = document["events"][0]
    sealed = sealed_chain(first["kind"], json.loads(first["payload"]))
    for seq, event in enumerate(document["events"], start=1):
        event["seq"], event["prev_hash"] = seq, prev
        event["hash"] = link_hash(
            sealed=sealed,
            prev_hash=prev,
            seq=seq,
            kind=event["kind"],
            actor=event["actor"],
            audience=event["audience"],
            payload=json.loads(event["payload"]),
            salt=event["salt"],
            source=event["source"],
            recorded_at=event["recorded_at"],
        )
        prev = event["hash"]
    for post in document["posts"]:
        post["hash"] = "sha256:" + hashlib.sha256(post["body"].encode()).hexdigest()
    return document


class Raw:
    """Direct driver access to the database, bypassing gm (autocommit)."""

    def __init__(self, url: str) -> None:
        self.url = make_url(resolve_url(url))  # a --db value: a path or a URL
        self.dialect = self.url.get_backend_name()

    def _connect(self) -> Any:
        if self.dialect == "sqlite":
            conn = sqlite3.connect(self.url.database or "", isolation_level=None)
            return conn
        import psycopg

        conninfo = self.url.set(drivername="postgresql").render_as_string(hide_password=False)
        return psycopg.connect(conninfo, autocommit=True)

    def execute(self, sql: str) -> list[tuple[Any, ...]]:
        """Run one statement (no parameters: write literals) and fetch its rows."""
        conn = self._connect()
        try:
            cur = conn.execute(sql)
            return list(cur.fetchall()) if cur.description else []
        finally:
            conn.close()

    def integrity(self) -> str:
        """``ok``, or what the database's own consistency check found: SQLite's
        ``PRAGMA integrity_check``; on PostgreSQL, amcheck over every B-tree
        index of gm's tables (table and index agree, index ordered)."""
        if self.dialect == "sqlite":
            return str(self.execute("PRAGMA integrity_check")[0][0])
        self.execute("CREATE EXTENSION IF NOT EXISTS amcheck")
        indexes = self.execute(
            "SELECT c.relname FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid "
            "JOIN pg_am a ON a.oid = c.relam JOIN pg_namespace n ON n.oid = c.relnamespace "
            "WHERE a.amname = 'btree' AND n.nspname = 'public'"
        )
        for (name,) in indexes:
            self.execute(f"SELECT bt_index_check('{name}'::regclass, true)")
        return "ok"

    def tamper(self, sql: str) -> None:
        """Run ``sql`` with the append-only triggers out of the way, as a cheater would."""
        if self.dialect == "sqlite":
            for trigger in APPEND_ONLY_TRIGGERS:
                self.execute(f"DROP TRIGGER IF EXISTS {trigger}")
            self.execute(sql)
        else:
            for table in ("events", "posts"):
                self.execute(f"ALTER TABLE {table} DISABLE TRIGGER USER")
            self.execute(sql)
            for table in ("events", "posts"):
                self.execute(f"ALTER TABLE {table} ENABLE TRIGGER USER")


class PgServer:
    """Creates and drops the throw-away databases of one test session."""

    def __init__(self, admin_url: str) -> None:
        from sqlalchemy import create_engine, make_url

        self._url = make_url(admin_url)
        self._engine = create_engine(admin_url, isolation_level="AUTOCOMMIT")
        self.created: list[str] = []

    def create(self, template: str | None = None) -> str:
        """A new database (empty, or a copy of ``template``'s database); its URL."""
        name = f"gm_test_{uuid.uuid4().hex[:12]}"
        sql = f'CREATE DATABASE "{name}"'
        if template is not None:
            from sqlalchemy import make_url

            sql += f' TEMPLATE "{make_url(template).database}"'
        with self._engine.connect() as conn:
            conn.exec_driver_sql(sql)
        self.created.append(name)
        return self._url.set(database=name).render_as_string(hide_password=False)

    def drop(self, url: str) -> None:
        from sqlalchemy import make_url

        name = make_url(url).database
        with self._engine.connect() as conn:
            conn.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    def close(self) -> None:
        self._engine.dispose()


class Gm:
    """Run ``gm --db <db> …`` in-process, as the MJ would; check the exit code."""

    def __init__(self, db: str) -> None:
        from click.testing import CliRunner

        self.db = db
        self.runner = CliRunner()

    def __call__(self, *args: str, code: int = 0, input: str | None = None) -> Any:
        """``input``: what the command reads on standard input (a pasted message)."""
        from gm.cli import cli

        result = self.runner.invoke(cli, ["--db", self.db, *args], input=input)
        assert result.exit_code == code, (result.stdout, result.stderr, result.exception)
        return result

    def json(self, *args: str) -> Any:
        return json.loads(self(*args, "--json").stdout)

    def status(self) -> dict[str, Any]:
        return dict(self.json("status"))

    def history(self, *args: str) -> list[dict[str, Any]]:
        return list(self.json("history", *args))

    def sealed(self, player: str, round_: int) -> dict[str, Any]:
        """``player``'s sealed order in force for ``round_``, from the log (MJ side)."""
        rows = [
            e
            for e in self.history()
            if e["seal"] and e["payload"]["player"] == player and e["payload"]["round"] == round_
        ]
        return rows[-1]

    def seal(self, player: str, round_: int) -> str:
        """The short seal of that order, recomputed as a player would: SHA-256 of
        the canonical ``{kind, payload, salt}``; it must be the one gm shows."""
        row = self.sealed(player, round_)
        text = json.dumps(
            {"kind": row["kind"], "payload": row["payload"], "salt": row["salt"]},
            sort_keys=True,
            separators=(",", ":"),
            ensure_ascii=False,
        )
        digest = hashlib.sha256(text.encode()).hexdigest()
        assert row["seal"].endswith(digest)
        return digest[:32]

    def opened(self, round_: int, *players: str) -> str:
        """The « Sceaux ouverts » line of a post that shows these players' orders."""
        entries = [
            f"{p} `{self.seal(p, round_)}` (sel `{self.sealed(p, round_)['salt']}`)"
            for p in players
        ]
        return "Sceaux ouverts : " + " · ".join(entries) + "\n"

    def proof(self, fmt: str = "markdown", kind: str | None = None) -> str:
        """How the post the last command published (the last ``kind`` post)
        ends after its footer, as printed in ``fmt``: a blank line, then its
        proof section (protocol 4: the line for the readers who do not care
        and the block), read from the post as stored. Expected posts end
        ``f"{footer}\n" + gm.proof()``; the block itself is checked by the
        players' checker (tests/check)."""
        from gm.render.presets import to_forum
        from gm.service.campaigns import current
        from gm.service.env import Env

        env = Env(db=self.db)
        posts = [p for p in env.store.posts(current(env, None)) if kind in (None, p.kind)]
        assert posts, f"no {kind or ''} post is stored"
        printed = to_forum(posts[-1].body, fmt, "auto")
        return printed[printed.rindex(PROOF_INTRO) + 1 :]

    def footer(self, round_: int | None = None, word: str = "tour") -> str:
        """The fingerprint line of the post the last command published: the
        chain head after its events (the events that commit the posts come after)."""
        events = self.history()
        last = events[-1]["batch"]
        while events[-1]["kind"] == "gm.post-published" and events[-1]["batch"] == last:
            events.pop()  # its own digest comes after the post's footer
        digits = events[-1]["hash"].removeprefix("sha256:")
        where = f" · {word} {round_}" if round_ is not None else ""
        return f"_Empreinte du registre : `{digits[:32]}`{where}_"


@dataclass
class Table:
    """A campaign a test plays through the service layer, as the CLI would,
    and everything private that was sent in it (to search public posts for)."""

    rng: random.Random
    env: Env
    slug: str
    seed: str
    markers: list[str] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)

    @property
    def state(self) -> Any:
        from gm.service import actions

        return actions.load(self.env, self.slug).state

    def marker(self) -> str:
        """A unique word to put in a private message: it must never reach a post."""
        marker = f"zorglub{self.rng.randrange(10**6):06d}"
        self.markers.append(marker)
        return marker

    def send(self, player: str, text: str) -> GMError | None:
        """Paste ``text`` as ``player``'s private message; the refusal, if any."""
        from gm.service import actions

        self.texts.append(text)
        try:
            actions.submit(self.env, self.slug, player, text=text)
        except GMError as error:
            return error
        return None

    def step(self, name: str, **values: Any) -> None:
        from gm.service import actions

        actions.step(self.env, self.slug, name, values)


COLT_DECK = "Déplacement, Tir, Braquage, étage, Marshal, poing, Déplacement, étage, Tir, Braquage"
"""A Colt Express deck in a fixed order, for a game played by hand."""


def colt_by_hand(gm: Gm) -> None:
    """« Le train », a Colt Express game set up by hand: ana (Belle), bob
    (Django) and cleo (Tuco), three cars, given purses, round 1 on a Tunnel
    card with every deck in ``COLT_DECK``'s order."""
    gm("new", "colt", "--title", "Le train", "--players", "ana,bob,cleo", "--seed", "graine")
    gm(
        "setup",
        "--character", "ana=Belle", "--character", "bob=Django", "--character", "cleo=Tuco",
        "--cars", "4,1,3", "--purses", "250 300 450/250 350 500/300",
    )  # fmt: skip
    gm(
        "round", "--card", "Tunnel",
        *(f for p in ("ana", "bob", "cleo") for f in ("--deck", f"{p}={COLT_DECK}")),
    )  # fmt: skip


SILENT_ELSEWHERE = ("magot/default-at-reveal", "magot/nothing-due")
"""Le Magot's missing order is R-3's, at the reveal; a stay is recorded once
(the stay-or-fold awaits everyone, so as not to tell who folded)."""


def play_with_a_silent_player(
    db: str,
    game_id: str,
    players: list[str],
    *,
    seed: str,
    options: dict[str, str] | None = None,
    replace: tuple[int, str] | None = None,
    limit: int = 3000,
) -> tuple[Env, str, int]:
    """A whole game of ``game_id`` where the last player never writes and the
    MJ applies the rules' default for them, the others playing the game's
    own legal inputs (a generator seeded by ``seed``); with ``replace`` =
    (after how many inputs, newcomer), the first player leaves for the
    newcomer mid-game. Every awaited choice must have a default the rules
    accept. Returns the Env, the slug and the defaults applied."""
    from gm import games
    from gm.core.protocol import GM
    from gm.service import actions, campaigns, deciding, roster

    rng = random.Random(seed)
    env = Env(db=db)
    game = games.load(game_id)
    silent = players[-1]
    created = campaigns.create(env, game_id, "Muet", players, seed="s", options=options or {})
    slug = created.campaign.slug
    defaults, played = 0, 0
    spoke: dict[tuple[str, str], int] = {}  # (phase, player): messages sent there
    for _ in range(limit):
        campaign = actions.load(env, slug)
        state, table = campaign.state, campaign.table
        if game.is_over(state):
            return env, slug, defaults
        if replace is not None and played == replace[0]:
            roster.replace_player(env, slug, table.name(players[0]), replace[1], gender="f")
            played += 1
            continue
        phase = game.phase(state)
        waiting = game.waiting_for(state)
        for player in waiting:  # every awaited choice has a default the rules accept
            assert game.default_for is not None
            try:
                due = game.default_for(state, player)
            except GMError as err:
                assert err.code in SILENT_ELSEWHERE, (player, phase, err)
                continue
            deciding.decide(game, campaign.meta, state, GM, [due])
        inputs = game.legal_inputs(state, table)
        # Le Magot awaits every living player at the stay-or-fold (secrecy):
        # a few messages each, then the MJ moves on
        speaking = [
            i
            for i in inputs
            if i.step is None
            and table.seat_named(i.actor) in waiting
            and table.seat_named(i.actor) != silent
            and spoke.get((phase, i.actor), 0) < 3
        ]
        played += 1
        if speaking:
            item = rng.choice(speaking)
            spoke[phase, item.actor] = spoke.get((phase, item.actor), 0) + 1
            actions.submit(env, slug, item.actor, item.text or "")
            continue
        if silent in waiting:
            try:
                actions.default(env, slug, table.name(silent))
                defaults += 1
                continue
            except GMError as err:
                assert err.code in SILENT_ELSEWHERE, err
        steps = [i for i in inputs if i.step is not None]
        assert steps, (game.next_step(state), inputs)
        item = rng.choice(steps)
        actions.step(env, slug, item.step or "", item.values)
    raise AssertionError(f"{game_id}: not over after {limit} inputs")
