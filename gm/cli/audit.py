"""Commands that show and mend the record: history, verify, undo, chronicle."""

from __future__ import annotations

import json

import click

from gm.cli.context import (
    STDOUT,
    Ctx,
    echo_json,
    echo_post,
    force_option,
    format_option,
    json_option,
    note,
    pass_ctx,
    write_file,
)
from gm.errors import GMError, InputError
from gm.games.manifest import post_name
from gm.writer import check_target


@click.command()
@click.argument("where", required=False, metavar="[WHERE]")
@click.option(
    "--as",
    "viewer",
    metavar="PLAYER",
    help="Only what PLAYER may see (default: everything, the MJ's view).",
)
@click.option(
    "--round",
    "-r",
    "round_",
    type=int,
    help="Only events of this round, or of the game's first count (same as WHERE's first number).",
)
@click.option(
    "--at",
    "at",
    multiple=True,
    metavar="NAME=N",
    help="Only events where the game's count NAME was N (repeatable): --at duel=3.",
)
@click.option("--player", "-p", metavar="NAME", help="Only events by or about player NAME.")
@json_option
@pass_ctx
def history(
    ctx: Ctx,
    where: str | None,
    viewer: str | None,
    round_: int | None,
    at: tuple[str, ...],
    player: str | None,
    as_json: bool,
) -> None:
    """Show the campaign's log: every input, draw and decision, in order.

    WHERE keeps the events of one place in the game, in the numbers the game
    counts in, outermost first, joined by dots, as 'gm post' takes them: 2
    for round 2 (a manche in Fistful of Gold), 2.3 for manche 2, duel 3
    ('gm games' lists each game's counts); --at NAME=N names one.

    With --as PLAYER (and no --json), the player's own archive in French,
    in the campaign's format, ready to forward: their messages, refused ones
    included, their words for the fortune and the seals of their secrets.

    \b
    Example:
      gm history
      gm history --as fab          # fab's archive, in French, to send them
      gm history --as fab --json   # every event fab may see
      gm history --player fab 2    # what fab sent and what concerned fab, round 2
      gm history 2.3               # manche 2, duel 3 (Fistful of Gold)
      gm history --at duel=3       # every manche's third duel
      gm history --json

    Events voided by 'gm undo' are shown, marked [voided].
    """
    from gm.core.protocol import GM
    from gm.service import history as timeline

    filtered = where is not None or round_ is not None or bool(at)
    if viewer is not None and not as_json and not filtered and player is None:
        slug = ctx.slug()
        fmt, tables = ctx.style(slug, None)
        echo_post(timeline.player_archive(ctx.env, slug, viewer), fmt, tables)
        return
    slug = ctx.slug()
    wanted = _places(ctx, slug, where, round_, at)
    rows = timeline.timeline(ctx.env, slug, viewer or GM, player)
    rows = [r for r in rows if all(r.get(k) == n for k, n in wanted.items())]
    if as_json:
        echo_json(rows)
        return
    for row in rows:
        when = row["recorded_at"][:16].replace("T", " ")
        payload = json.dumps(row["payload"], ensure_ascii=False, separators=(", ", ": "))
        if len(payload) > 160:
            payload = payload[:157] + "…"
        source = f"  (from {row['source']})" if row["source"] else ""
        who = row["actor"] if row["audience"] == "*" else f"{row['actor']} → {row['audience']}"
        voided = "  [voided]" if row["voided"] else ""
        click.echo(f"{row['seq']:>5}  {when}  {who:<16} {row['kind']}{source}{voided}")
        click.echo(f"       {payload}")
        if row["seal"]:
            click.echo(f"       seal {row['seal']}  salt {row['salt']}")


def _places(
    ctx: Ctx, slug: str, where: str | None, round_: int | None, at: tuple[str, ...]
) -> dict[str, int]:
    """The coordinates ``gm history`` keeps, by name, from WHERE, --round and --at."""
    from gm import games
    from gm.errors import quoted

    info = games.info(ctx.env.store.campaign(slug).game)
    names = [c.name for c in info.coordinates]
    counts = (
        f"{info.title} counts in: {', '.join(names)}"
        if names
        else f"{info.title} counts in nothing"
    )
    if where is not None and round_ is not None:
        raise click.UsageError("give the place once: WHERE or --round, not both")
    wanted: dict[str, int] = {}
    numbers = where.split(".") if where is not None else [] if round_ is None else [str(round_)]
    if len(numbers) > len(names) or not all(n.isdigit() and n.isascii() for n in numbers):
        raise click.UsageError(
            f"WHERE {quoted(where or '')} is not numbers joined by dots, at most one per count"
            f" ({counts})"
        )
    wanted.update(zip(names, map(int, numbers), strict=False))
    for item in at:
        name, sep, number = item.partition("=")
        if not sep or name.strip() not in names or not number.strip().isdigit():
            raise click.UsageError(
                f"--at takes NAME=N, not {quoted(item)}: NAME one of the game's counts ({counts})"
            )
        wanted[name.strip()] = int(number)
    return wanted


@click.command()
@pass_ctx
def verify(ctx: Ctx) -> None:
    """Check the campaign's archive: hash chain, log, and every stored post.

    Recomputes each event's hash, folds the log again, and renders every
    stored post again from the log as it stood, comparing it with what was
    recorded. Prints what differs and exits with code 5 on any mismatch.
    A post that another gm or other templates wrote (an upgrade, a --templates
    folder not given now) is listed in a note: its hash and place in the log
    verify, but its wording cannot be compared.

    \b
    Example:
      gm verify
      gm -c le-casse-du-siecle verify
    """
    from gm.errors import ChainIntegrityError
    from gm.service import audit

    slug = ctx.slug()
    verdict = audit.verify(ctx.env, slug)
    problems = verdict.problems
    for line in verdict.notes:
        note(f"Note: {line}")
    if problems:
        for line in problems:
            click.echo(line)
        raise ChainIntegrityError(
            f"{slug!r} does not verify: {len(problems)} problem{'s' if len(problems) > 1 else ''}"
            f" (first: {problems[0]})",
            code="verify/mismatch",
        )
    if verdict.unrendered:
        for line in verdict.unrendered:
            click.echo(line)
        count = len(verdict.unrendered)
        raise GMError(
            f"{slug!r}: nothing found that does not verify, but {count} post"
            f"{'s' if count > 1 else ''} could not be rendered again within gm's limits, so"
            f" {'they were' if count > 1 else 'it was'} not compared (first:"
            f" {verdict.unrendered[0]})",
            code="verify/limit",
        )
    events = ctx.env.store.last_seq(slug)
    posts = len(ctx.env.store.posts(slug))
    if verdict.other_renders:
        count = len(verdict.other_renders)
        click.echo(
            f"{slug}: {events} events and {posts} posts verify; {count} post"
            f"{'s' if count > 1 else ''} written by another gm or other templates"
            " cannot be compared word for word."
        )
        return
    click.echo(f"{slug}: {events} events and {posts} posts verify.")


@click.command()
@click.option("--preview", is_flag=True, help="Show what would be undone; record nothing.")
@click.option("--reason", default="", metavar="TEXT", help="Why, kept in the log.")
@pass_ctx
def undo(ctx: Ctx, preview: bool, reason: str) -> None:
    """Void the last command's events (nothing is deleted).

    Appends one public event that voids the events of the last command that
    changed something; the state is folded without them from then on. Run
    again, it walks further back. Refused submissions and the campaign's
    creation are never undone, and there is no redo: run the command again.
    Posts already stored stay archived; those the undo makes obsolete are
    listed (post them again, or say so on the forum).

    \b
    Example:
      gm undo --preview      # what would be undone
      gm undo --reason "mauvais joueur"
    """
    from gm.service import undo as service

    slug = ctx.slug()
    done = service.undo(ctx.env, slug, reason, preview=preview)
    verb = "Would void" if preview else "Voided"
    first, last = done.voided[0].seq, done.voided[-1].seq
    click.echo(f"{verb} events {first}–{last} of {slug}:")
    for record in done.voided:
        click.echo(f"  {record.seq:>5}  {record.kind:<28} by {record.actor}")
    if done.obsolete:
        click.echo("Posts now obsolete:")
        for post in done.obsolete:
            click.echo(f"  post {post.number} ({post_name(post.kind, post.at)})")
    else:
        click.echo("No stored post is made obsolete.")
    if preview:
        click.echo("(preview: nothing was recorded)")


@click.command()
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False),
    help="Write to FILE (default, or '-': standard output); several parts go to FILE-1, FILE-2….",
)
@format_option
@click.option(
    "--limit",
    type=int,
    default=60_000,
    show_default=True,
    help="Characters a post may have on the forum: longer, the chronicle is cut into"
    " parts (0: never cut). phpBB 60000, Discourse 32000, Reddit 40000.",
)
@click.option(
    "--checker-link",
    metavar="URL",
    help="Where the players get the checker page (gm checker): adds « Vérifier sans"
    " Python : URL » and the page's SHA-256 to the verification.",
)
@force_option
@pass_ctx
def chronicle(
    ctx: Ctx,
    output: str | None,
    fmt: str | None,
    limit: int,
    checker_link: str | None,
    force: bool,
) -> None:
    """Write the campaign's public story for the forum's archive, in French.

    Every stored public post in order, each under its number, what it is
    (« Message 5 — résultats · tour 2 ») and its hash, then the verification
    data: the seal of fortune, the seed once the game is over, the chain
    head. Never a private message. In the campaign's format unless --format
    says otherwise; cut into parts that each fit in one forum post, between
    posts or between a post's paragraphs, never inside its markup.

    \b
    Example:
      gm chronicle -o casse.md
      gm chronicle --format bbcode -o casse.txt      # casse-1.txt, casse-2.txt… if long
      gm chronicle --format html -o casse.html --limit 0
      gm chronicle -o casse.md --checker-link https://example.org/gm-verif-0.4.1.html
    """
    from pathlib import Path

    from gm.service import chronicle as service
    from gm.service import publishing

    slug = ctx.slug()
    fmt, tables = ctx.style(slug, fmt)

    def written() -> tuple[list[str], list[Path]]:
        """The parts, and their files (none: standard output); refused
        before anything is published if a file could not be written."""
        parts = service.chronicle(ctx.env, slug, fmt, tables, limit or None, checker_link)
        if output is None or output == STDOUT:
            return parts, []
        path = Path(output)
        if len(parts) == 1:
            check_target(path, force=force, command="chronicle")
            return parts, [path]
        paths = [path.with_name(f"{path.stem}-{n}{path.suffix}") for n in range(1, len(parts) + 1)]
        taken = [p for p in paths if p.exists()] if not force else []
        if taken:  # before writing any part: a chronicle is written whole or not at all
            raise InputError(
                f"{str(taken[0])!r} exists; give --force to replace it, or choose another name",
                code="chronicle/exists",
            )
        for target in paths:
            check_target(target, force=force, command="chronicle")
        return parts, paths

    parts, paths = written()
    # The archive is the whole thread: a post the finished game owes (Le
    # Magot's disclosure) is published now if the MJ has not asked for it.
    owed = publishing.publish_owed(ctx.env, slug)
    for post in owed:
        note(
            f"Published post {post.number}, {post_name(post.kind, post.at)}, that the"
            " finished game owes its players: it is in the chronicle; paste it in the"
            f" thread too (gm post {post.kind})."
        )
    if owed:
        parts, paths = written()
    if not paths:
        click.echo("\n".join(parts), nl=False)
        if len(parts) > 1:
            note(f"{len(parts)} parts, each one post of at most {limit:,} characters.")
        return
    for target, part in zip(paths, parts, strict=True):
        write_file(target, part, force=force, command="chronicle")
    if len(parts) == 1:
        click.echo(f"Wrote {output}.", err=True)
        return
    click.echo(
        f"Wrote {len(parts)} parts, one post each: {', '.join(str(p) for p in paths)}.", err=True
    )


def register(group: click.Group) -> None:
    group.add_command(history)
    group.add_command(verify)
    group.add_command(undo)
    group.add_command(chronicle)
