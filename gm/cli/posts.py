"""Commands that print posts and private messages again: post, pm."""

from __future__ import annotations

import inspect

import click

from gm.cli.context import Ctx, echo_post, format_option, note, pass_ctx


@click.command()
@click.argument("kind", required=False)
@click.option("--round", "-r", "round_", type=int, help="The round of the post.")
@format_option
@pass_ctx
def post(ctx: Ctx, kind: str | None, round_: int | None, fmt: str | None) -> None:
    """Print a post again: the latest one, or the latest of KIND (and round).

    KIND is a post kind of the campaign's game (listed below). A stored post
    is printed exactly as it was recorded; the end-of-game disclosure is
    rendered the first time you ask.

    \b
    Example:
      gm post                      # the latest post
      gm post results --round 3
      gm post disclosure --format bbcode
    """
    from gm.service import publishing

    slug = ctx.slug()
    stored = publishing.find_post(ctx.env, slug, kind, round_)
    fmt, tables = ctx.style(slug, fmt)
    echo_post(stored.body, fmt, tables)
    where = f", round {stored.round}" if stored.round is not None else ""
    note(f"Post {stored.number}: {stored.kind}{where} · {stored.hash[:15]}…")


@click.command()
@click.argument("player")
@format_option
@pass_ctx
def pm(ctx: Ctx, player: str, fmt: str | None) -> None:
    """Print PLAYER's private status: what they hold, their order, their wounds.

    \b
    Example:
      gm pm fab
    """
    from gm.service import publishing

    slug = ctx.slug()
    body = publishing.private_status(ctx.env, slug, player)
    fmt, tables = ctx.style(slug, fmt)
    echo_post(body, fmt, tables)


def register(group: click.Group) -> None:
    from gm import games

    kinds = [f"  {g.id}: {', '.join(g.post_kinds)}" for g in games.all_info() if g.post_kinds]
    if kinds:  # from the manifests: no game's rules are imported for --help
        base = inspect.cleandoc(post.help or "")
        post.help = f"{base}\n\n\b\nPost kinds:\n" + "\n".join(kinds)
    for command in (post, pm):
        group.add_command(command)
