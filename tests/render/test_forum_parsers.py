"""Every post and private reply of every game, in every forum preset, through the forums' own parsers.

Random games of each registered game (driven by ``Game.legal_inputs``, as
the conformance tests play them), at tables of ordinary names and of hostile
ones (``http://evil.com``, ``:smile:``, ``**Bob**``, ``[url=…]``, ``<img
onerror>``, ``# Titre``, ``> cit``, ``1. un``, ``@admin``, ``u/x``…), with
refused messages full of markup. Every public post, accepted and refused
reply, private status, reminder and nudge is printed with ``to_forum`` in
every preset and read by the parser of the forum it is for (``forums.py``):

* no tag the forum lacks, no unbalanced tag, no element an HTML5 parser
  builds that gm did not mean (no link, image, quote, script);
* no smiley, emoji, mention, hashtag or link made from a name or a text;
* every line break kept: Reddit's CommonMark (cmark-gfm) shows the same
  lines as Discourse (markdown-it, breaks on) and the HTML preview;
* French spacing: no ordinary space before ``: ; ! ?`` or inside « » in the
  template's words, and the no-break spaces survive every format, tables in
  a code block included.
"""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as etree
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from forums import (
    FORUMACTIF,
    PHPBB,
    REDDIT_LINK,
    WJ,
    ZWSP,
    cmark_html,
    discourse_html,
    discourse_tokens,
    elements,
    parse_html,
    visual_lines,
)

from gm import games
from gm.errors import GMError
from gm.render import PRESETS, clean_text, to_forum
from gm.service import actions, campaigns, publishing
from gm.service.env import Env

ORDINARY = ["ana", "Élodie", "Jean-Paul", "tom", "Zoé", "marco"]
HOSTILE = [
    "http://evil.com",
    ":smile:",
    "**Bob**",
    "[url=http://x]y[/url]",
    "<img src=x onerror=alert(1)>",
    "# Titre",
    "> cit",
    "1. un",
    "www.evil.fr",
    "bob@evil.fr",
    ";) max",
    "8-) joe",
    "@admin",
    "u/reddit",
    ":D",
    "- liste",
    "#regles",
    "<3 ana",
]
REFUSED = "je braque :smile: http://evil.com **x** [b]y[/b] <img src=x onerror=alert(1)> :D"

MARKDOWN_ELEMENTS = {
    "p", "h1", "h2", "h3", "strong", "em", "code", "pre", "ul", "ol", "li",
    "table", "thead", "tbody", "tr", "th", "td", "br", "hr",
}  # fmt: skip
BBCODE_ELEMENTS = {
    "strong",
    "em",
    "span",
    "ul",
    "ol",
    "li",
    "pre",
    "code",
    "br",
    "table",
    "tbody",
    "tr",
    "td",
}


@dataclass
class Texts:
    """Everything gm printed in one game, as Markdown, with the data players typed."""

    game: str
    names: list[str]
    texts: list[tuple[str, str]] = field(default_factory=list)  # (what, markdown)
    typed: list[str] = field(default_factory=list)  # names and texts players typed


def play(game_id: str, names: list[str], seed: int, db: str) -> Texts:
    rng = random.Random(f"forums/{game_id}/{seed}")
    game = games.load(game_id)
    env = Env(db=db)
    usable = list(names)
    while True:  # a game refuses names its notation would misread (« 8-) joe » at Fistful)
        players = rng.sample(usable, min(len(usable), game.max_players))
        try:
            created = campaigns.create(
                env, game_id, f"Forums {seed} :) http://x.fr", players, seed="s"
            )
            break
        except GMError as err:
            refused = err.params.get("name") if err.params else None
            assert refused in usable, err
            usable.remove(refused)
    slug = created.campaign.slug
    out = Texts(game_id, players, typed=[*players, REFUSED, f"Forums {seed} :) http://x.fr"])
    phase, in_phase = None, 0
    seen: Counter[str] = Counter()

    def private() -> None:
        for player in players:
            out.texts.append((f"pm {player}", publishing.private_status(env, slug, player)))
        reminder = publishing.remind(env, slug)
        out.texts.append(("remind", reminder.public))
        out.texts += [(f"nudge {p}", body) for p, body in reminder.nudges.items()]

    for _ in range(600):
        campaign = actions.load(env, slug)
        if game.is_over(campaign.state):
            break
        if game.phase(campaign.state) != phase:
            phase, in_phase = game.phase(campaign.state), 0
            # a long game changes phase at almost every input, and only
            # PER_KIND texts of a kind are checked: each phase's private
            # texts the first two times it comes, then one time in eight
            seen[phase] += 1
            if seen[phase] <= 2 or seen[phase] % 8 == 0:
                private()
        if rng.random() < 0.08:
            try:
                actions.submit(env, slug, rng.choice(players), REFUSED)
            except GMError as err:
                assert err.draft, err
                out.texts.append(("refused", err.draft))
        inputs = game.legal_inputs(campaign.state)
        messages = [i for i in inputs if i.step is None]
        steps = [i for i in inputs if i.step is not None]
        item = steps[-1] if steps and (in_phase > 6 or not messages) else rng.choice(messages)
        in_phase += 1
        try:
            if item.step is not None:
                actions.step(env, slug, item.step, item.values)
            else:
                out.typed.append(item.text or "")
                result = actions.submit(env, slug, item.actor, item.text)
                if result.reply:
                    out.texts.append(("reply", result.reply))
        except GMError as err:  # a name the notation reads otherwise: the refusal is a reply too
            if err.draft:
                out.texts.append(("refused", err.draft))
            elif steps:
                actions.step(env, slug, steps[-1].step or "", steps[-1].values)
    else:  # pragma: no cover
        raise AssertionError(f"{game_id}: the game did not end")
    private()
    game = games.load(game_id)
    for kind in ("disclosure", "rules"):  # on demand; Colt's final post discloses all
        if game.info.post_kind(kind) is not None:
            publishing.find_post(env, slug, kind, None)
    out.texts += [(f"post {p.number} {p.kind}", p.body) for p in env.store.posts(slug)]
    return out


# Hostile tables rotate through every hostile name (Fistful seats two at a time).
GAMES = [
    (g, table, seed)
    for g in games.ids()
    for table, seeds in (("ordinary", (0,)), ("hostile", (0, 1, 2)))
    for seed in seeds
]


@pytest.fixture(scope="module", params=GAMES, ids=lambda p: f"{p[0]}-{p[1]}-{p[2]}")
def played(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Texts:
    game_id, table, seed = request.param
    names = ORDINARY if table == "ordinary" else HOSTILE[seed * 6 :] + HOSTILE[: seed * 6]
    return play(game_id, names, seed, str(tmp_path_factory.mktemp("forums") / "gm.db"))


# --- what each forum shows ----------------------------------------------------------------


def prose(html: str) -> str:
    """The text outside code, as parsed, word joiners kept (they are what
    stops a forum's emoji and link rules)."""
    doc = parse_html(html)
    parts: list[str] = []

    def walk(el: etree.Element) -> None:
        if el.tag in ("code", "pre"):
            return
        parts.append(el.text or "")
        for child in el:
            walk(child)
            parts.append(child.tail or "")

    walk(doc)
    return "".join(parts)


_SPACE_BEFORE = re.compile(r"(?<=\S) [:;!?»]|« ")


def french_problems(html: str, typed: list[str]) -> list[str]:
    """Ordinary spaces where French typesetting wants a no-break one, in the
    template's words (what players typed is theirs, and left as typed)."""
    text = prose(html).replace(WJ, "").replace(ZWSP, "")
    for data in sorted({clean_text(t) for t in typed if t}, key=len, reverse=True):
        text = text.replace(data, "¤")
    return [text[max(0, m.start() - 30) : m.end() + 10] for m in _SPACE_BEFORE.finditer(text)]


def unexpected(found: list[etree.Element], allowed: set[str]) -> list[str]:
    bad = [f"<{el.tag}>" for el in found if el.tag not in allowed]
    for el in found:
        for key, value in el.attrib.items():
            if not (el.tag in ("th", "td") and key in ("align", "style") and "script" not in value):
                bad.append(f"<{el.tag} {key}={value!r}>")
    return bad


def check(what: str, markdown: str, preset: str, typed: list[str]) -> list[str]:
    """Everything wrong with ``markdown`` printed for ``preset`` and pasted there."""
    out = to_forum(markdown, preset)
    fmt = PRESETS[preset].format
    problems: list[str] = []
    if fmt == "markdown":
        discourse, reddit = discourse_html(out), cmark_html(out)
        for forum, html in (("Discourse", discourse), ("cmark-gfm", reddit)):
            problems += [f"{forum}: {e}" for e in unexpected(elements(html)[0], MARKDOWN_ELEMENTS)]
        problems += [f"Discourse: {t!r}" for t in discourse_tokens(prose(discourse))]
        problems += [f"Reddit: {m[0]!r}" for m in REDDIT_LINK.finditer(prose(reddit))]
        # Discourse's typographer curls apostrophes: that is no lost line
        lines_d = [line.replace("\u2019", "'") for line in visual_lines(discourse)]
        lines_r, lines_p = visual_lines(reddit), visual_lines(to_forum(markdown, "html"))
        if not lines_r == lines_d == lines_p:
            problems.append(f"lines differ: cmark-gfm {lines_r} / Discourse {lines_d}")
        problems += [f"French spacing: {s!r}" for s in french_problems(discourse, typed)]
    elif fmt == "bbcode":
        forum = FORUMACTIF if preset == "forumactif" else PHPBB
        problems += [f"{forum.name}: {p}" for p in forum.problems(out)]
        html = forum.html(out)
        problems += [f"{forum.name}: {e}" for e in unexpected(elements(html)[0], BBCODE_ELEMENTS)]
        problems += [f"French spacing: {s!r}" for s in french_problems(html, typed)]
    else:
        problems += [f"HTML: {e}" for e in unexpected(elements(out)[0], MARKDOWN_ELEMENTS)]
        problems += [f"French spacing: {s!r}" for s in french_problems(out, typed)]
    return [f"{what} [{preset}]: {p}" for p in problems]


PER_KIND = 12
"""Texts checked per kind of text (a post kind, a reply...): a long game
(Rattlesnake City posts after every move) is sampled, every kind kept."""


def sampled(texts: list[tuple[str, str]]) -> dict[str, str]:
    """Each distinct text once (markdown → what), at most ``PER_KIND`` of each
    kind, spread over the game: the first, the last and evenly between."""
    distinct = {md: what for what, md in reversed(texts)}  # a text repeated is checked once
    kinds: dict[str, list[str]] = {}
    for md, what in distinct.items():
        words = what.split()
        kinds.setdefault(" ".join(words[:1] + words[2:3]), []).append(md)
    out: dict[str, str] = {}
    for mds in kinds.values():
        step = max(1, -(-len(mds) // PER_KIND))
        for md in {*mds[::step], mds[-1]}:
            out[md] = distinct[md]
    return out


@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_text_pastes_as_meant(played: Texts, preset: str) -> None:
    distinct = sampled(played.texts)
    problems = [p for md, what in distinct.items() for p in check(what, md, preset, played.typed)]
    assert not problems, "\n".join(problems[:20])


def test_every_post_kind_and_private_reply_was_printed(played: Texts) -> None:
    kinds = {what.split()[2] for what, _ in played.texts if what.startswith("post ")}
    assert {k.name for k in games.info(played.game).post_kinds} <= kinds
    assert {"reply", "remind"} <= {what.split()[0] for what, _ in played.texts}


@pytest.mark.parametrize("preset", list(PRESETS))
def test_names_show_literally(played: Texts, preset: str) -> None:
    """The opening post lists every player: each shows as typed, in every forum."""
    opening = next(md for what, md in played.texts if what.endswith(" opening"))
    out = to_forum(opening, preset)
    fmt = PRESETS[preset].format
    if fmt == "markdown":
        shown = [elements(discourse_html(out))[1], elements(cmark_html(out))[1]]
    elif fmt == "bbcode":
        forum = FORUMACTIF if preset == "forumactif" else PHPBB
        shown = [elements(forum.html(out))[1].replace(ZWSP, "")]
    else:
        shown = [elements(out)[1]]
    for text in shown:
        for name in played.names:
            assert " ".join(name.split()) in text, (name, text)


# --- the characters themselves ------------------------------------------------------------

NB, NNB = "\u00a0", "\u202f"


@pytest.mark.parametrize("preset", list(PRESETS))
@pytest.mark.parametrize("tables", ["auto", "native", "list", "code"])
def test_no_break_spaces_survive_every_format_and_table_mode(
    played: Texts, preset: str, tables: str
) -> None:
    opening = next(md for what, md in played.texts if what.endswith(" opening"))
    final = next(md for what, md in played.texts if what.endswith(" final"))
    for text in (to_forum(opening, preset, tables), to_forum(final, preset, tables)):
        assert f"{NB}:" in text
    if played.game == "magot":  # its tables hold amounts: « 0 $ » in a code block too
        results = next(md for what, md in played.texts if what.endswith(" results"))
        assert re.search(rf"\d{NB}\$", to_forum(results, preset, tables))


def test_the_default_bbcode_has_no_table_tag(played: Texts) -> None:
    tables = {md for _, md in played.texts if "\n|" in md}
    assert tables  # every game has a post with a table
    for md in tables:
        for preset in ("bbcode", "phpbb"):
            assert "[table]" not in to_forum(md, preset)
        assert "[table]" in to_forum(md, "forumactif")


@pytest.mark.parametrize("preset", ["markdown", "phpbb", "forumactif", "html"])
def test_the_players_checker_reads_the_whole_thread(
    played: Texts, preset: str, tmp_path: Path
) -> None:
    """gm check reads every post as the forum shows it, word joiners,
    no-break spaces and all, and finds everything consistent (a game cut
    short has its seed still sealed: nothing contradicted, exit 3)."""
    from gm.check import main

    files = []
    for n, (_, markdown) in enumerate(t for t in played.texts if t[0].startswith("post ")):
        path = tmp_path / f"{n:03}.txt"
        path.write_text(to_forum(markdown, preset), encoding="utf-8")
        files.append(str(path))
    code, report = main(files, "")
    assert code in (0, 3) and "DIFFÉRENT" not in report, report[-3000:]
