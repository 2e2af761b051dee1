"""Commands that move and safeguard campaigns: export, import, backup."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from gm.cli.context import Ctx, force_option, note, pass_ctx, write_file


@click.command(name="export")
@click.argument("slug", required=False)
@click.option(
    "--output",
    "-o",
    type=click.Path(dir_okay=False, writable=True, allow_dash=True, path_type=Path),
    help="Write to FILE ('-': standard output; default: SLUG.json in this folder).",
)
@force_option
@pass_ctx
def export_(ctx: Ctx, slug: str | None, output: Path | None, force: bool) -> None:
    """Write a campaign (log, posts, settings) as one JSON file.

    Every event is kept exactly as stored, with its salt, time and hash, so
    'gm import' can restore it into another database with every hash intact.
    SLUG defaults to the current campaign; the file, to SLUG.json in the
    current folder (kept if it exists, unless --force).

    \b
    Example:
      gm export                    # le-casse-du-siecle.json
      gm export le-casse-du-siecle -o casse.json
      gm export -o - | gzip > casse.json.gz
    """
    from gm.service import transfer

    chosen = slug or ctx.slug()
    text = transfer.dump(transfer.export_campaign(ctx.env, chosen))
    if output is not None and str(output) == "-":
        click.echo(text, nl=False)
        return
    output = output if output is not None else Path(f"{ctx.env.store.campaign(chosen).slug}.json")
    write_file(output, text, force=force, command="export")
    note(f"Exported to {output}.")


@click.command(name="import")
@click.argument("file", metavar="FILE")
@click.option("--slug", help="Import under another slug (the slug is in no hash).")
@pass_ctx
def import_(ctx: Ctx, file: str, slug: str | None) -> None:
    """Restore a campaign exported with 'gm export', and make it current.

    The hash chain and every post are checked before anything is written: a
    file that does not verify is refused, naming the first bad seq or post.
    FILE '-' reads standard input.

    \b
    Example:
      gm --db autre.db import casse.json
      gm import casse.json --slug le-casse-bis
    """
    from gm.reader import EXPORT, read_stream
    from gm.service import transfer

    source: Path | str = (
        read_stream(sys.stdin, EXPORT, "the export on standard input") if file == "-" else Path(file)
    )
    info = transfer.import_campaign(ctx.env, source, slug)
    events = ctx.env.store.last_seq(info.slug)
    posts = len(ctx.env.store.posts(info.slug))
    note(f"Campaign {info.slug!r} imported ({events} events, {posts} posts) and selected.")


@click.command()
@click.argument("path", type=click.Path(dir_okay=False, path_type=Path))
@pass_ctx
def backup(ctx: Ctx, path: Path) -> None:
    """Copy the whole SQLite database to the new file PATH.

    Uses SQLite's online backup API, safe while another gm writes, and never
    overwrites a file. A PostgreSQL database is backed up with pg_dump.

    \b
    Example:
      gm backup ~/sauvegardes/gm-2025-01-31.db
      gm --db backup.db verify      # the copy is a gm database
    """
    target = ctx.env.store.backup(path)
    note(f"Backed up {ctx.env.store.where} to {target}.")


def register(group: click.Group) -> None:
    group.add_command(export_)
    group.add_command(import_)
    group.add_command(backup)
