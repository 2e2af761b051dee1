"""``gm chronicle``: the campaign's public story, ready to paste as the thread's archive.

Every stored post in order, each under a small French header (« Message 5 —
résultats · tour 2 », its hash), then what anyone needs to check it (the
« Vérification »: the fortune's commitment, the seed once the game is over,
the chain head). Only stored posts go in, and they are public by
construction; private submissions and replies never do. A post made
obsolete by ``gm undo`` stays (it was published) and says so.

The chronicle is made of *sections* (the title, one per post, the
verification), each written in Markdown and converted on its own to the
forum's format, so a section's markup is always whole. Forums limit a post's
length (phpBB: 60,000 characters by default), so the sections are packed
into as few *parts* as fit under the limit, each part a post of its own that
starts with « Archive de « titre » — partie 2 sur 3 ». A section that alone
exceeds the limit is cut between its Markdown blocks (paragraphs, lists,
tables, code blocks), never inside one.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from gm import games
from gm.core.campaign import EventsVoided
from gm.core.protocol import GameInfo
from gm.errors import InputError
from gm.render.escape import escape_markdown
from gm.service.env import Env
from gm.service.loading import fold
from gm.service.posts import ROLL, ROSTER, output

PHPBB_LIMIT = 60_000
"""Characters in a post on a stock phpBB 3.3 (``max_post_chars``)."""

MIN_LIMIT = 1_000
"""No forum allows less; below it a part could not hold a header and a block."""

PLATFORM_LABELS = {
    "opening": "ouverture",
    "rules": "règles",
    "final": "fin de partie",
    "disclosure": "dévoilement",
    ROLL: "jet de dés",
    ROSTER: "changement à la table",
}
"""The posts every game may make, as players call them; a game's own posts
are labelled by the game (``PostKind.label``)."""


def post_label(game_id: str, kind: str, at: Sequence[int]) -> str:
    """« résultats · tour 2 », « duel · manche 2, duel 3 », « ouverture »:
    the words the game declares for its posts and its coordinates."""
    info = games.info(game_id)
    spec = info.post_kind(kind)
    name = (spec.label if spec is not None else "") or PLATFORM_LABELS.get(kind, kind)
    if not at:
        return name
    coords = spec.coords if spec is not None and len(spec.coords) == len(at) else ()
    if coords:
        where = ", ".join(
            f"{_coordinate_label(info, c)} {n}" for c, n in zip(coords, at, strict=True)
        )
    else:
        where = "n° " + ".".join(map(str, at))
    return f"{name} · {where}"


def _coordinate_label(info: GameInfo, name: str) -> str:
    coordinate = info.coordinate(name)
    return coordinate.label if coordinate is not None else name


def sections(env: Env, slug: str, checker_link: str | None = None) -> list[str]:
    """The chronicle's sections, in Markdown: the title, one per post, the
    verification (with where to get the checker page, if ``checker_link``)."""
    store = env.store
    info = store.campaign(slug)
    records = store.events(info.slug)
    campaign = fold(info.slug, info.game, records)
    posts = store.posts(info.slug)
    undos = [
        (r.payload["first_seq"], r.seq) for r in records if r.kind == EventsVoided.kind
    ]  # a post rendered between a voided event and its undo is obsolete
    title = escape_markdown(campaign.meta.title)
    players = ", ".join(escape_markdown(p) for p in campaign.meta.players)
    out = [
        f"# {title}\n\n*{escape_markdown(campaign.game.title)} — {players} —"
        f" {len(posts)} message{'s' if len(posts) > 1 else ''},"
        f" {campaign.seq} événements.*\n"
    ]
    for post in posts:
        obsolete = any(first <= post.at_seq < at for first, at in undos)
        note = " — *obsolète : annulé par le MJ*" if obsolete else ""
        label = post_label(campaign.game.id, post.kind, post.at)
        out.append(
            f"---\n\n## Message {post.number} — {escape_markdown(label)}{note}\n\n"
            f"`{post.hash}` (après l'événement {post.at_seq}, {post.created_at[:16].replace('T', ' ')})\n\n"
            f"{post.body.rstrip()}\n"
        )
    meta = campaign.meta
    lines = [
        "---",
        "",
        "## Vérification",
        "",
        f"- Sceau du hasard (SHA-256 de la graine) : `{meta.commitment}`",
    ]
    if campaign.over and meta.seed is not None:
        lines.append(f"- Graine (révélée, la partie est finie) : `{meta.seed}`")
    else:
        lines.append("- Graine : gardée secrète jusqu'à la fin de la partie.")
    lines += [
        f"- Tête du registre : événement {campaign.seq}, `{campaign.head}`",
        "- L'empreinte sous chaque message est le SHA-256 de son texte (UTF-8).",
    ]
    if checker_link is not None:
        lines.append(
            f"- Vérifier sans Python : {checker_link} (la page de `gm checker` : comparez"
            " son SHA-256 avec celui que le MJ publie)"
        )
    lines += [
        "",
        "Pour vérifier : le SHA-256 de la graine doit être le sceau du hasard ; chaque"
        " tirage se refait à partir de la graine ; chaque sceau publié se recalcule avec"
        " son sel. Le vérificateur des joueurs fait tout cela sur ce fichier.",
        "",
    ]
    out.append("\n".join(lines))
    return out


def chronicle(
    env: Env,
    slug: str,
    fmt: str = "markdown",
    tables: str = "native",
    limit: int | None = None,
    checker_link: str | None = None,
) -> list[str]:
    """The chronicle of ``slug`` in ``fmt``, as the posts to paste: one part,
    or several of at most ``limit`` characters each.

    :raises InputError: a limit below ``MIN_LIMIT``, or a single Markdown
        block (a table, a code block) longer than the limit.
    """
    if limit is not None and limit < MIN_LIMIT:
        raise InputError(
            f"a post limit of {limit} characters is too small (at least {MIN_LIMIT:,};"
            f" phpBB's default is {PHPBB_LIMIT:,})",
            code="chronicle/limit",
        )
    title = escape_markdown(env.store.campaign(slug).title)
    if checker_link is not None and not _LINK.fullmatch(checker_link):
        raise InputError(
            f"--checker-link {checker_link!r} is not a web address: give the http(s):// URL"
            " where the players get the checker page (gm checker -o FILE)",
            code="chronicle/checker-link",
        )
    written = sections(env, slug, checker_link)
    converted = [output(section, fmt, tables) for section in written]
    if limit is None or sum(len(c) + 2 for c in converted) <= limit:
        return ["\n\n".join(c.rstrip("\n") for c in converted) + "\n"]
    # Room for the part's header, « Archive de « … » — partie 12 sur 12 »:
    header_room = len(output(_header(title, 99, 99), fmt, tables)) + 2
    room = limit - header_room
    pieces: list[str] = []
    for markdown, done in zip(written, converted, strict=True):
        pieces += [done] if len(done) < room else _cut(markdown, fmt, tables, room)
    groups: list[list[str]] = [[]]
    for piece in pieces:
        used = sum(len(p) + 2 for p in groups[-1])
        if groups[-1] and used + len(piece) + 2 > room:
            groups.append([])
        groups[-1].append(piece)
    total = len(groups)
    return [
        "\n\n".join(
            [output(_header(title, n, total), fmt, tables).rstrip("\n")]
            + [p.rstrip("\n") for p in group]
        )
        + "\n"
        for n, group in enumerate(groups, start=1)
    ]


_LINK = re.compile(r"https?://[A-Za-z0-9.-]+(?::\d+)?(?:/[A-Za-z0-9._~/%+=&?#-]*)?")
"""A web address as the chronicle prints it: nothing a forum would read as markup."""


def _header(title: str, n: int, total: int) -> str:
    return f"**Archive de « {title} » — partie {n} sur {total}**\n"


def _cut(markdown: str, fmt: str, tables: str, room: int) -> list[str]:
    """A section too long for one part, cut between its Markdown blocks.

    Blocks are separated by a blank line (``gm.service.posts.tidy`` writes
    them so); a code block's empty lines keep their indentation, so they never
    look like a separator.
    """
    blocks = markdown.rstrip("\n").split("\n\n")
    out: list[str] = []
    current: list[str] = []
    for block in blocks:
        candidate = "\n\n".join([*current, block])
        if current and len(output(candidate + "\n", fmt, tables)) >= room:
            out.append(output("\n\n".join(current) + "\n", fmt, tables))
            current = [block]
        else:
            current.append(block)
        if len(output(block + "\n", fmt, tables)) >= room:
            raise InputError(
                f"one block of the chronicle is longer than the post limit ({room:,} characters"
                " once the part's header is counted): raise --limit",
                code="chronicle/limit",
            )
    if current:
        out.append(output("\n\n".join(current) + "\n", fmt, tables))
    return out
