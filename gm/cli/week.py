"""The MJ's own corrections during a game: move a deadline (``gm deadline``),
and the table's roster (``gm replace``, ``gm rename``, ``gm nick``)."""

from __future__ import annotations

import click

from gm.cli.context import (
    Ctx,
    echo_post,
    echo_private,
    flush_held,
    format_option,
    note,
    pass_ctx,
    preview_option,
)


@click.command()
@click.argument("when", required=False)
@preview_option
@format_option
@pass_ctx
def deadline(ctx: Ctx, when: str | None, preview: bool, fmt: str | None) -> None:
    """Extend or correct the deadline of the phase in play, and print the notice to post.

    WHEN is a time as players write it ('03/12/2026 20:00', '3/12 20h',
    'jeudi 20h', 'demain 18h30', '2026-12-03 20:00') or a delay ('+48h',
    '+2j'), which counts from the current deadline: '+24h' gives one more
    day. Without WHEN, print the current deadline. 'gm undo' restores the
    previous one.

    \b
    Example:
      gm deadline +48h
      gm deadline "jeudi 20h"
      gm deadline "3/12 20h" --preview
    """
    from gm.service import campaigns, clock, deadlines

    slug = ctx.slug()
    if when is None:
        data = campaigns.status(ctx.env, slug)
        if data["deadline"]:
            click.echo(f"{data['deadline']} ({data['time_left']})")
        else:
            note("No deadline set for this phase. Set one with: gm deadline +48h")
        return
    moved = deadlines.move(ctx.env, slug, when, preview=preview)
    fmt, tables = ctx.style(slug, fmt)
    click.secho("── public notice ──", err=True, dim=True)
    echo_post(moved.notice, fmt, tables)
    was = "none" if moved.before is None else moved.before.strftime("%Y-%m-%d %H:%M")
    done = "Preview, nothing recorded." if preview else f"Done (event {moved.campaign.seq})."
    left = clock.time_left(moved.after, ctx.env.now())
    note(f"{done} Deadline {moved.after.strftime('%Y-%m-%d %H:%M')} ({left} left; was {was}).")


@click.command(name="replace")
@click.argument("old")
@click.argument("new")
@click.option(
    "--gender",
    metavar="m|f|n",
    default=None,
    help="NEW's grammatical gender (m, f, or n for none); OLD's does not carry over.",
)
@format_option
@pass_ctx
def replace_(ctx: Ctx, old: str, new: str, gender: str | None, fmt: str | None) -> None:
    """Seat NEW in OLD's place: the seat, the money, the wounds and the secrets stay.

    OLD's gender and nicknames leave with them; give NEW's with --gender.
    Prints the public notice for the thread, then NEW's private status (where
    their seat stands), to send them. Logged; 'gm undo' takes it back.

    \b
    Example:
      gm replace tom Élodie --gender f
    """
    from gm.service import roster

    slug = ctx.slug()
    changed = roster.replace_player(ctx.env, slug, old, new, gender=gender)
    fmt, tables = ctx.style(slug, fmt)
    flush_held(changed.campaign, fmt, tables)  # the thread keeps the archive's order
    click.secho("── public notice ──", err=True, dim=True)
    echo_post(changed.notice or "", fmt, tables)
    title = changed.campaign.meta.title
    echo_private(title, slug, changed.player, changed.status or "", fmt, tables, "message")
    note(f"Done (event {changed.campaign.seq}). {changed.player} sits in {old}'s seat.")


@click.command()
@click.argument("old")
@click.argument("new")
@format_option
@pass_ctx
def rename(ctx: Ctx, old: str, new: str, fmt: str | None) -> None:
    """Call the player OLD by the name NEW from now on (the same person).

    \b
    Example:
      gm rename lulu Lucienne
    """
    from gm.service import roster

    slug = ctx.slug()
    changed = roster.replace_player(ctx.env, slug, old, new, rename=True)
    fmt, tables = ctx.style(slug, fmt)
    flush_held(changed.campaign, fmt, tables)
    click.secho("── public notice ──", err=True, dim=True)
    echo_post(changed.notice or "", fmt, tables)
    note(f"Done (event {changed.campaign.seq}). {old} is now {changed.player}.")


@click.command()
@click.argument("player")
@click.argument("nickname")
@pass_ctx
def nick(ctx: Ctx, player: str, nickname: str) -> None:
    """Let NICKNAME designate PLAYER, in commands and in the players' messages.

    \b
    Example:
      gm nick Jean-Paul jp      # then: gm order jp "je braque lulu, BANG"
    """
    from gm.service import roster

    slug = ctx.slug()
    changed = roster.nickname(ctx.env, slug, player, nickname)
    note(f"Done (event {changed.campaign.seq}). {nickname!r} now means {changed.player}.")


def register(group: click.Group) -> None:
    for command in (deadline, replace_, rename, nick):
        group.add_command(command)
