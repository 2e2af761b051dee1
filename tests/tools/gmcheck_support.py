"""Helpers of the tests of tools/gm_check.py, the players' checker.

``check`` runs the stand-alone script as a player would (``python -I -S``:
gm cannot be imported there) and, unless told otherwise, ``gm check-post``
too: both must say the same. ``GM_CHECK_TOOL=/path/to/gm_check.py pytest …``
runs the tests against another copy of the script (how the attack tests were
shown to fail on the checker of b948d7b); gm is not compared then, and
``GM_CHECK_LOG=FILE`` records each test's exit codes. ``GM_CHECK_VECTORS=DIR``
appends every call to ``DIR/vectors.jsonl`` (argv, stdin, the files it names,
exit code, stdout lines): the corpus the browser checker's JavaScript port
must agree with, line for line.

``bbcode``, ``html`` and ``plain_copy`` give a post as each kind of forum
shows it (``plain_copy``: the text a browser copies from the HTML page: one
line per block, table cells separated by tabs, no bullets, no markup).

``play_random`` plays a whole game of any registered game through the
service layer, driven only by ``Game.legal_inputs`` (as the conformance
tests do), with players' words for the fortune and dice rolls thrown in at
random, and returns every post it published, the disclosure last.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import re
import subprocess
import sys
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from click.testing import CliRunner

ROOT = Path(__file__).resolve().parents[2]
TOOL = Path(os.environ.get("GM_CHECK_TOOL") or ROOT / "tools" / "gm_check.py")
OTHER_TOOL = "GM_CHECK_TOOL" in os.environ


def plain_spaces(text: str) -> str:
    """A post with the ordinary spaces gm wrote before its French spacing
    (U+202F before ; ! ? and inside « », U+00A0 before : and in « 14 h 23 »),
    keeping the no-break spaces of amounts (« 45 000 $ »): what an older gm
    printed, and what an MJ typing an edit by hand writes."""
    return re.sub("\u00a0(?!\\$|\\d{3}\\b)", " ", text.replace("\u202f", " "))


def _run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-I", "-S", str(TOOL), *args],
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=False,
    )


def run_tool(*args: str, stdin: str | None = None) -> tuple[int, str]:
    done = _run(*args, stdin=stdin)
    return done.returncode, done.stdout + done.stderr


def record_vector(folder: str, args: tuple[str, ...], stdin: str | None, code: int, stdout: str) -> None:
    """One call of the checker as a self-contained vector (``GM_CHECK_VECTORS``):
    its argv, its standard input, the text of every argument that names a
    file, its exit code and stdout lines. The JavaScript port replays them
    (tests/tools/checker/test_vectors_node.py) with no disk but the vectors."""
    files: dict[str, str] = {}
    for arg in args:
        path = Path(arg)
        with contextlib.suppress(OSError, ValueError):
            if path.is_file():
                try:
                    files[arg] = path.read_text(encoding="utf-8")
                except UnicodeDecodeError:
                    return  # bytes that are not text: no text vector can hold them
    vector = {
        "test": os.environ.get("PYTEST_CURRENT_TEST", "?").split(" ")[0],
        "args": list(args),
        "stdin": stdin,
        "files": files,
        "code": code,
        "stdout": stdout.splitlines(),
    }
    base = Path(folder) if Path(folder).is_absolute() else ROOT / folder  # tests may chdir
    base.mkdir(parents=True, exist_ok=True)
    with open(base / "vectors.jsonl", "a", encoding="utf-8") as out:
        out.write(json.dumps(vector, ensure_ascii=False) + "\n")


def check(*args: str, stdin: str | None = None, gm: bool = True) -> tuple[int, str]:
    """The checker's exit code and output; ``gm check-post`` must agree."""
    done = _run(*args, stdin=stdin)
    code, out = done.returncode, done.stdout + done.stderr
    if os.environ.get("GM_CHECK_VECTORS"):  # the calls the JavaScript port must repeat
        record_vector(os.environ["GM_CHECK_VECTORS"], args, stdin, code, done.stdout)
    if os.environ.get("GM_CHECK_LOG"):  # which test got which exit code (replaying on another tool)
        with open(os.environ["GM_CHECK_LOG"], "a", encoding="utf-8") as log:
            log.write(f"{os.environ.get('PYTEST_CURRENT_TEST', '?').split(' ')[0]}\t{code}\n")
    if gm and not OTHER_TOOL:
        from gm.cli import cli

        result = CliRunner().invoke(cli, ["check-post", *args], input=stdin)
        assert (result.exit_code, result.output) == (code, out), (result.output, out)
    return code, out


class Files:
    """Posts written to files, as a player saves them."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.count = 0

    def __call__(self, text: str, name: str = "post") -> str:
        self.count += 1
        path = self.folder / f"{self.count:03d}-{name}.txt"
        path.write_text(text, encoding="utf-8")
        return str(path)


def bbcode(markdown: str, tables: str = "native") -> str:
    from gm.render.markup import convert

    return convert(markdown, "bbcode", tables)


def html(markdown: str) -> str:
    from gm.render.markup import convert

    return convert(markdown, "html")


class _BrowserCopy(HTMLParser):
    BLOCKS = frozenset(
        ["p", "h1", "h2", "h3", "h4", "h5", "h6", "li", "ul", "ol", "table", "tr", "hr", "pre"]
    )

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []
        self.cell = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.BLOCKS or tag == "br":
            self.out.append("\n")
        if tag == "tr":
            self.cell = 0
        if tag in ("td", "th"):
            if self.cell:
                self.out.append("\t")
            self.cell += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in self.BLOCKS:
            self.out.append("\n")

    def handle_data(self, data: str) -> None:
        self.out.append(re.sub(r"[ \t\n\r\f]+", " ", data))


def plain_copy(markdown: str) -> str:
    """What a browser copies from the post shown as HTML."""
    parser = _BrowserCopy()
    parser.feed(html(markdown))
    text = "".join(parser.out)
    lines = [line.strip(" ") for line in text.split("\n")]
    return "\n".join(line for line in lines if line) + "\n"


FORMS = {
    "markdown": lambda t: t,
    "bbcode": bbcode,
    "bbcode-list": lambda t: bbcode(t, "list"),
    "bbcode-code": lambda t: bbcode(t, "code"),
    "html": html,
    "text": plain_copy,
}
"""Every way a post reaches the checker."""


# --- random games ----------------------------------------------------------------

NAMES = ["ana", "bob", "Élodie", "Jean Paul", "l'As", "B_b", "*Zoé*", "tom", "Mo[b]"]
WORD_CHARS = "abcdefghijklmnopqrstuvwxyzéèàçABCXYZ0123456789'.-_"
DICE = ["2d6+1", "d20", "4d6kh3-d4+2", "3d8kl1", "d%", "10-d4", "2d10+d6-3", "7"]
REASONS = ["", "l'attaque du fourgon", "*piège* [b]x[/b] ok : 3 = 4"]


def random_text(rng: random.Random, chars: str, size: int) -> str:
    """Letters and the like, with single inner spaces: a seed or a word."""
    words = ["".join(rng.choice(chars) for _ in range(rng.randint(1, 8))) for _ in range(size)]
    return " ".join(words)


@dataclass
class Played:
    game: str
    env: Any
    slug: str
    seed: str
    posts: list[Any] = field(default_factory=list)
    rolls: int = 0
    words: int = 0
    replies: list[tuple[str, str]] = field(default_factory=list)
    """Every private reply gm sent, in order: (player, text)."""

    def bodies(self) -> list[str]:
        return [p.body for p in self.posts]

    def history(self) -> list[Any]:
        return list(self.env.store.events(self.slug))


def play_random(game_id: str, seed: int, db: str, *, underscore_seed: bool = False) -> Played:
    """A whole random game, then its disclosure. ``underscore_seed``: the
    seed may hold « _ » (which the final post must print exactly)."""
    from gm import games
    from gm.errors import GMError, NotFoundError
    from gm.service import actions, campaigns, dice, publishing
    from gm.service.env import Env

    rng = random.Random(f"gm-check/{game_id}/{seed}")
    game = games.load(game_id)
    players = rng.sample(NAMES, rng.randint(game.min_players, min(game.max_players, 6)))
    chars = "abcdefghijklmnopqrstuvwxyzéç0123456789'.-" + ("_" if underscore_seed else "")
    secret = random_text(rng, chars, rng.randint(1, 3))
    env = Env(db=db)
    # Each player masculine, feminine or without a gender: every agreement is read.
    seated = [name + rng.choice(("", ":m", ":f")) for name in players]
    created = campaigns.create(env, game_id, f"Vérif {seed}", seated, seed=secret)
    played = Played(game_id, env, created.campaign.slug, secret)
    phase, in_phase, patience = None, 0, rng.randint(2, 10)
    for _ in range(3000):
        campaign = actions.load(env, played.slug)
        if game.is_over(campaign.state):
            break
        if rng.random() < 0.06:
            word = random_text(rng, WORD_CHARS, rng.randint(1, 2))
            actions.submit(env, played.slug, rng.choice(players), text=f"graine : {word}")
            played.words += 1
        if rng.random() < 0.04:
            dice.roll(env, played.slug, rng.choice(DICE), rng.choice(REASONS))
            played.rolls += 1
        now = game.phase(campaign.state)
        if now != phase:
            phase, in_phase, patience = now, 0, rng.randint(2, 10)
        inputs = game.legal_inputs(campaign.state)
        messages = [i for i in inputs if i.step is None]
        steps = [i for i in inputs if i.step is not None]
        if steps and (in_phase >= patience or not messages):
            item = steps[-1]
        elif steps and rng.random() < 0.3:
            item = rng.choice(steps)
        else:
            item = rng.choice(messages)
        try:
            if item.step is not None:
                done = actions.step(env, played.slug, item.step, item.values)
            else:
                done = actions.submit(env, played.slug, item.actor, item.text)
            if done.reply:
                played.replies.append((done.to or item.actor or "", done.reply))
        except GMError as err:  # pragma: no cover - a legal input must pass
            raise AssertionError(f"{game_id}: legal input {item} refused: {err}") from err
        in_phase += 1
    else:  # pragma: no cover
        raise AssertionError(f"{game_id}: the game did not end")
    # a game whose final post discloses every secret (Colt Express) has no disclosure post
    with contextlib.suppress(NotFoundError):
        publishing.find_post(env, played.slug, "disclosure", None)
    played.posts = list(env.store.posts(played.slug))
    return played
