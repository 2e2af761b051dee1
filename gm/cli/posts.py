"""Commands that print posts and private messages again (post, pm) and draw
them as images (chart, picture)."""

from __future__ import annotations

import inspect

import click

from gm.cli.context import (
    STDOUT,
    Ctx,
    echo_post,
    flush_held,
    force_option,
    format_option,
    note,
    pass_ctx,
    write_output,
)
from gm.games.manifest import post_name


@click.command()
@click.argument("kind", required=False)
@click.argument("at", required=False, metavar="[WHERE]")
@click.option(
    "--round",
    "--manche",
    "-r",
    "round_",
    type=int,
    help="The post's round, or its manche (same as WHERE's first number).",
)
@click.option(
    "--held",
    is_flag=True,
    help="Digest mode: print the posts held for the next message now, as one message.",
)
@format_option
@pass_ctx
def post(
    ctx: Ctx, kind: str | None, at: str | None, round_: int | None, held: bool, fmt: str | None
) -> None:
    """Print a post again: the latest one, or the latest of KIND (at WHERE).

    KIND is a post kind of the campaign's game (listed below, with the
    numbers that tell its posts apart). WHERE gives those numbers joined by
    dots: 3 for round 3, 2.3 for manche 2, duel 3 (2 alone: the latest of
    manche 2). A stored post is printed exactly as it was recorded; the
    end-of-game disclosure and the rules are rendered the first time you ask.

    \b
    Example:
      gm post                      # the latest post
      gm post results 3            # or: gm post results --round 3
      gm post duel 2.3
      gm post manche 2             # or: gm post manche --manche 2
      gm post disclosure --format bbcode
      gm post rules                # the rules, in French, for the thread
      gm post --held               # digest mode: what is held, now
    """
    from gm.service import publishing
    from gm.store.records import parse_address

    if held:
        if kind is not None or at is not None or round_ is not None:
            raise click.UsageError("--held prints what is held: give no KIND or WHERE with it")
        slug = ctx.slug()
        fmt, tables = ctx.style(slug, fmt)
        if not flush_held(publishing.load(ctx.env, slug), fmt, tables):
            note("Nothing is held: every post was printed.")
        return

    if at is not None and round_ is not None:
        raise click.UsageError("give the post's place once: WHERE or --round/--manche, not both")
    where: tuple[int, ...] | None = (round_,) if round_ is not None else None
    if at is not None:
        try:
            where = parse_address(at)
        except ValueError as err:
            raise click.BadParameter(str(err), param_hint="WHERE") from None
    slug = ctx.slug()
    stored = publishing.find_post(ctx.env, slug, kind, where)
    fmt, tables = ctx.style(slug, fmt)
    echo_post(stored.body, fmt, tables)
    note(f"Post {stored.number}: {post_name(stored.kind, stored.at)} · {stored.hash[:15]}…")


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


@click.command()
@click.option(
    "-o",
    "--output",
    required=True,
    type=click.Path(dir_okay=False),
    help="The image file: FILE.png or FILE.svg ('-': standard output, as PNG).",
)
@click.option(
    "--round",
    "--manche",
    "-r",
    "round_",
    type=int,
    help="The chart at the end of this round or manche (default: the latest).",
)
@force_option
@pass_ctx
def chart(ctx: Ctx, output: str, round_: int | None, force: bool) -> None:
    """Draw the standings and the money over the rounds as an image, for forums
    that take pictures.

    The same data as the text chart at the end of each round (a manche in
    Fistful of Gold) and in the final post. Needs matplotlib, in gm's optional
    extra: pip install 'gm-forum[charts]'.

    \b
    Example:
      gm chart -o butin.png
      gm chart --round 3 -o tour3.svg
    """
    from gm.service import plots

    drawn = plots.draw(ctx.env, ctx.slug(), _image_format(output), round_)
    where = write_output(output, drawn.image, force=force, command="chart")
    note(f"Wrote {where}: the chart of {post_name(drawn.ref.kind, drawn.ref.at)}.")


@click.command()
@click.argument("kind", required=False)
@click.argument("at", required=False, metavar="[WHERE]")
@click.option(
    "-o",
    "--output",
    required=True,
    type=click.Path(dir_okay=False),
    help="The image file: FILE.png or FILE.svg ('-': standard output, as PNG).",
)
@force_option
@pass_ctx
def picture(ctx: Ctx, kind: str | None, at: str | None, output: str, force: bool) -> None:
    """Draw a post as a picture, for forums that take images: the latest post
    that has one, or the latest of KIND (at WHERE, as for gm post).

    The game draws what the post shows, from the post's public view only (in
    Colt Express: the train, its roofs and insides, the bandits, the Marshal
    and the loot counts, like the post's text diagram). Needs matplotlib, in
    gm's optional extra: pip install 'gm-forum[charts]'.

    \b
    Example:
      gm picture -o train.png
      gm picture action 2.5 -o manche2-carte5.svg
    """
    from gm.service import plots
    from gm.store.records import parse_address

    where: tuple[int, ...] | None = None
    if at is not None:
        try:
            where = parse_address(at)
        except ValueError as err:
            raise click.BadParameter(str(err), param_hint="WHERE") from None
    drawn = plots.picture(ctx.env, ctx.slug(), _image_format(output), kind, where)
    written = write_output(output, drawn.image, force=force, command="picture")
    note(f"Wrote {written}: the picture of {post_name(drawn.ref.kind, drawn.ref.at)}.")


def _image_format(output: str) -> str:
    """The image format ``-o`` asks for: its suffix (png, svg), PNG on standard output."""
    from pathlib import Path

    return "png" if output == STDOUT else Path(output).suffix.lstrip(".").lower()


def register(group: click.Group) -> None:
    from gm import games

    kinds = [
        f"  {g.id}: "
        + ", ".join(k.name + "".join(f" {c.upper()}" for c in k.coords) for k in g.post_kinds)
        for g in games.all_info()
        if g.post_kinds
    ]
    if kinds:  # from the manifests: no game's rules are imported for --help
        base = inspect.cleandoc(post.help or "")
        post.help = f"{base}\n\n\b\nPost kinds:\n" + "\n".join(kinds)
    for command in (post, pm, chart, picture):
        group.add_command(command)
