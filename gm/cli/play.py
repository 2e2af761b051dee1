"""Commands that feed a campaign: order (a player's private message), play (a scenario file), remind."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import click

from gm import games
from gm.cli.context import (
    Ctx,
    echo_json,
    echo_post,
    echo_posts,
    format_option,
    note,
    pass_ctx,
    preview_option,
)
from gm.cli.steps import DEADLINE_HELP
from gm.errors import GMError


def _with_order_fields(command: Callable[..., None]) -> Callable[..., None]:
    """Add every game's explicit order fields (``--target``, ``--option``…), merged by name."""
    seen: dict[str, str] = {}
    for game in games.all_info():
        for spec in game.order_params:
            seen.setdefault(spec.name, spec.help)
    for name, help_ in reversed(seen.items()):
        command = click.option(f"--{name.replace('_', '-')}", name, default=None, help=help_)(
            command
        )
    return command


@click.command()
@click.argument("player")
@click.argument("text", nargs=-1)
@click.option(
    "--from",
    "source",
    metavar="WHERE",
    help="Where the message came from (a PM link…), kept in the log.",
)
@click.option(
    "--salt",
    "word",
    metavar="WORD",
    help="The player's word for the fortune (same as a « graine : … » line in the message).",
)
@_with_order_fields
@preview_option
@format_option
@pass_ctx
def order(
    ctx: Ctx,
    player: str,
    text: tuple[str, ...],
    source: str | None,
    word: str | None,
    preview: bool,
    fmt: str | None,
    **fields: str | None,
) -> None:
    """Record PLAYER's private message and print the reply to send back.

    Paste the message as the player wrote it; gm understands it, checks it
    against the rules and records it (refused messages are recorded too, with
    the reason, and the reply explains the refusal). A new order replaces the
    previous one until the reveal.

    \b
    Example:
      gm order fab "Je braque mon flingue sur marco (BANG BANG BANG)"
      gm order lulu "fab BBB" --from https://forum.example/pm/123
      gm order tom "lulu clic" --salt "pomme"   # the player's word for the fortune
      gm order tom --target fab --option bang
    """
    from gm.service import actions

    slug = ctx.slug()
    params = {k: v for k, v in fields.items() if v is not None}
    joined = " ".join(text) if text else None
    if params and joined:
        raise click.UsageError("give either the message text or explicit fields, not both")
    try:
        result = actions.submit(
            ctx.env,
            slug,
            player,
            text=joined,
            params=params or None,
            source=source,
            preview=preview,
            word=word,
        )
    except GMError as err:
        if err.draft:  # the refusal's reply goes to the player like any other
            from gm.service.posts import output

            err.draft = output(err.draft, *ctx.style(slug, fmt))
        raise
    fmt, tables = ctx.style(slug, fmt)
    if result.reply:
        echo_post(result.reply, fmt, tables)
    if result.posts:  # a public move (a player's turn) calls for a post to publish
        click.echo()
        echo_posts(result.posts, fmt, tables)
    state = result.campaign.state
    awaiting = result.campaign.game.waiting_for(state)
    done = "Preview, nothing recorded." if preview else f"Recorded (event {result.campaign.seq})."
    waiting = f" Awaiting: {', '.join(awaiting)}." if awaiting else " Nobody else is awaited."
    note(done + waiting + f" Next: {result.campaign.game.next_step(state)}")


@click.command()
@click.argument("scenario", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--json", "as_json", is_flag=True, help="Print the JSON summary instead of the posts."
)
@format_option
@pass_ctx
def play(ctx: Ctx, scenario: Path, as_json: bool, fmt: str | None) -> None:
    """Play a whole game from a scenario file and print its posts.

    The file (TOML, see campaigns/README.md) lists the players and, round
    after round, what each one sent; every order goes through the same
    checks as 'gm order'. The new campaign becomes the current one.

    \b
    Example:
      gm play campaigns/exemple-magot.toml
      gm play campaigns/exemple-magot.toml --json
    """
    from gm.service import scenario as scenarios

    played = scenarios.play(ctx.env, scenario)
    campaign = played.campaign
    if as_json:
        from gm.service import campaigns

        echo_json(campaigns.status(ctx.env, campaign.slug))
        return
    settings = campaign.meta.settings
    style = (fmt, "auto") if fmt else (settings["format"], settings["tables"])
    echo_posts(played.posts, *style)
    note(f"Campaign {campaign.slug!r} played and selected ({campaign.seq} events).")


@click.command()
@format_option
@pass_ctx
def remind(ctx: Ctx, fmt: str | None) -> None:
    """Print the public reminder of missing orders, then a private nudge for each late player.

    \b
    Example:
      gm remind
    """
    from gm.service import publishing

    slug = ctx.slug()
    reminder = publishing.remind(ctx.env, slug)
    fmt, tables = ctx.style(slug, fmt)
    click.secho("── public reminder ──", err=True, dim=True)
    echo_post(reminder.public, fmt, tables)
    for player, body in reminder.nudges.items():
        click.echo()
        click.secho(f"── private message to {player} ──", err=True, dim=True)
        echo_post(body, fmt, tables)


@click.command(name="default")
@click.argument("player")
@click.option("--deadline", metavar="WHEN", help=DEADLINE_HELP)
@preview_option
@format_option
@pass_ctx
def default_(ctx: Ctx, player: str, deadline: str | None, preview: bool, fmt: str | None) -> None:
    """Apply the rules' default for PLAYER's missing input, and post what it did.

    For a player who did not answer in time, where the game's rules say what
    happens then (drawn by the fortune when they say so). The log records
    that it was a default; the player's next message can no longer replace it.

    \b
    Example:
      gm default bob
      gm default bob --preview
    """
    from gm.service import actions

    slug = ctx.slug()
    result = actions.default(ctx.env, slug, player, deadline=deadline, preview=preview)
    fmt, tables = ctx.style(slug, fmt)
    echo_posts(result.posts, fmt, tables)
    campaign = result.campaign
    awaiting = campaign.game.waiting_for(campaign.state)
    done = "Preview, nothing recorded." if preview else f"Done (event {campaign.seq})."
    waiting = f" Awaiting: {', '.join(awaiting)}." if awaiting else ""
    note(f"{done}{waiting} Next: {campaign.game.next_step(campaign.state)}")


def register(group: click.Group) -> None:
    for command in (order, play, remind, default_):
        group.add_command(command)
