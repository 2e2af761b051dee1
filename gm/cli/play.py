"""Commands that feed a campaign: order (a player's private message), play (a scenario file), remind."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from gm import games
from gm.cli.context import (
    Ctx,
    PerGame,
    echo_json,
    echo_post,
    echo_posts,
    echo_private,
    echo_reply,
    format_option,
    note,
    pass_ctx,
    preview_option,
)
from gm.cli.steps import DEADLINE_HELP
from gm.errors import GMError, InputError
from gm.reader import MESSAGE, decode, read_stream

EDIT_HINT = "gm reads text as UTF-8 only (set your editor to save as UTF-8)"

if TYPE_CHECKING:
    from gm.service.env import Env


EDIT_END = "# ------------------------ >8 ------------------------"
EDIT_HELP = (
    "{end}\n# Paste {player}'s message above the line, as it arrived (quotes and all),\n"
    "# then save and close the editor. From the line above down, nothing is read.\n"
)


def _message(player: str, text: tuple[str, ...], edit: bool, explicit: bool) -> str | None:
    """The player's message: typed as arguments, piped or ``-`` (standard
    input), or written in the MJ's editor (``--edit``)."""
    if edit:
        if text:
            raise click.UsageError("give the message either as TEXT or with --edit, not both")
        template = EDIT_HELP.format(end=EDIT_END, player=player).encode("utf-8")
        # Bytes in and out: what the editor wrote is decoded here, as any input is.
        written = click.edit(template, require_save=True)
        if written is None:
            raise InputError(
                "no message: the editor was closed without saving", code="input/empty-order"
            )
        if len(written) > MESSAGE.limit:
            raise InputError(
                f"the message written in the editor is too long: gm reads at most"
                f" {MESSAGE.limit // 1024 // 1024} MiB there",
                code="input/too-large",
            )
        message = decode(bytes(written), "the message written in the editor", hint=EDIT_HINT)
        return message.replace("\r\n", "\n").split(EDIT_END, 1)[0].strip("\n")
    stdin = sys.stdin
    if text == ("-",) or (not text and not explicit and not stdin.isatty()):
        return read_stream(stdin, MESSAGE, "the message on standard input").strip("\n") or None
    return " ".join(text) if text else None


ORDER_HELP = """Record PLAYER's private message and print the reply to send back.

Paste the message as the player wrote it, quotes and all: gm leaves out
what the forum quoted ([quote] blocks, « > » lines, « Re: » headers, a
signature after « -- ») and says so, understands the rest, checks it
against the rules and records it (refused messages are recorded too, with
the reason, and the reply explains the refusal). A new order replaces the
previous one until the reveal. TEXT's words are never read as options
(« - je braque tom » is a message); options go before TEXT. With no TEXT
and a pipe, or TEXT '-', the message is read from standard input;
--edit opens your $EDITOR.

\b
Example:
  gm order fab "..."                 # the message, as received
  xclip -o | gm order marco          # the message as copied, several lines
  gm order marco --edit              # paste it in your editor
  gm order tom "..." --salt "pomme"  # the player's word for the fortune
  gm order lulu "..." --from https://forum.example/pm/123
"""


def _order_command(game_id: str | None) -> click.Command:
    """``gm order`` for the current campaign's game: its explicit fields and
    the wording of its players' messages; for no campaign, every game's."""
    infos = games.all_info() if game_id is None else [games.info(game_id)]
    fields: dict[str, str] = {}
    for info in infos:
        for spec in info.order_params:
            fields.setdefault(spec.name, spec.help)
    examples = []
    for info in infos:
        lines = [f"  gm order {_example(e)}" for e in info.order_examples]
        lines += [
            f"  gm order NAME --{n.replace('_', '-')} …"
            for n in (p.name for p in info.order_params)
        ]
        if lines:
            examples.append("\b\n" + f"{info.title}, as its players write:\n" + "\n".join(lines))
    params: list[click.Parameter] = [
        click.Argument(["player"]),
        click.Argument(["text"], nargs=-1, type=click.UNPROCESSED),
        click.Option(
            ["--from", "source"],
            metavar="WHERE",
            help="Where the message came from (a PM link…), kept in the log.",
        ),
        click.Option(
            ["--salt", "word"],
            metavar="WORD",
            help="The player's word for the fortune (same as a « graine : … » line in the message).",
        ),
        click.Option(
            ["--edit"],
            is_flag=True,
            help="Write the message in your $EDITOR (as 'git commit' does).",
        ),
        *(
            click.Option([f"--{name.replace('_', '-')}", name], default=None, help=help_)
            for name, help_ in fields.items()
        ),
    ]
    command = click.Command(
        "order",
        callback=_order,
        params=params,
        help="\n\n".join([ORDER_HELP.rstrip(), *examples]),
        context_settings={"ignore_unknown_options": True},
    )
    preview_option(command)
    format_option(command)
    return command


def _example(line: str) -> str:
    """« fab: je joue le 5 » as typed: fab "je joue le 5"."""
    name, _, message = line.partition(": ")
    return f'{name} "{message}"'


@pass_ctx
def _order(
    ctx: Ctx,
    player: str,
    text: tuple[str, ...],
    source: str | None,
    word: str | None,
    edit: bool,
    preview: bool,
    fmt: str | None,
    **fields: str | None,
) -> None:
    from gm.service import actions

    slug = ctx.slug()
    if text and re.fullmatch(r"--[a-z][a-z0-9-]*(=.*)?", text[0]):
        # TEXT takes what follows PLAYER as it is (« - je braque tom »), but
        # an option of another game's orders is a mistake, not a message
        info = games.info(ctx.env.store.campaign(slug).game)
        taken = ", ".join(f"--{p.name.replace('_', '-')}" for p in info.order_params)
        raise click.UsageError(
            f"no such option: {text[0].split('=')[0]} ({info.title} orders take"
            f" {taken or 'no explicit field: paste the message'}; options go before TEXT)"
        )
    params = {k: v for k, v in fields.items() if v is not None}
    joined = _message(player, text, edit, bool(params))
    if params and joined:
        raise click.UsageError("give either the message text or explicit fields, not both")
    fmt, tables = ctx.style(slug, fmt)
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
        if err.draft:  # the refusal to send: a private reply like any other
            title = ctx.env.store.campaign(slug).title
            echo_private(title, slug, player, err.draft, fmt, tables)
            err.draft = None
        raise
    if result.reply:
        echo_reply(result.campaign, result.to or player, result.reply, fmt, tables)
    for line in result.notes:
        note(line)
    if result.posts:  # a public move (a player's turn) calls for a post to publish
        echo_posts(result.posts, fmt, tables, result.campaign, result.to)
    state = result.campaign.state
    awaiting = result.campaign.table.named(result.campaign.game.waiting_for(state))
    done = "Preview, nothing recorded." if preview else f"Recorded (event {result.campaign.seq})."
    waiting = f" Awaiting: {', '.join(awaiting)}." if awaiting else " Nobody else is awaited."
    note(
        done
        + waiting
        + f" Next: {result.campaign.table.relabel(result.campaign.game.next_step(state))}"
    )


@click.command()
@click.argument("scenario", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--json", "as_json", is_flag=True, help="Print the JSON summary instead of the posts."
)
@click.option(
    "--keep",
    is_flag=True,
    help="Store the campaign in your database and make it current (default: a rehearsal"
    " in a throw-away database, which leaves yours untouched).",
)
@format_option
@pass_ctx
def play(ctx: Ctx, scenario: Path, as_json: bool, keep: bool, fmt: str | None) -> None:
    """Play a whole game from a scenario file and print its posts.

    The file (TOML, see campaigns/README.md) lists the players and, round
    after round, what each one sent; every order goes through the same
    checks as 'gm order'. By default this is a rehearsal: it runs in a
    throw-away database, so your campaigns, your list and your current
    campaign stay as they were. With --keep, the campaign is stored in your
    database (under the next free slug) and becomes the current one, once
    the whole file has played: a file that fails half-way stores nothing.

    \b
    Example:
      gm play campaigns/exemple-magot.toml
      gm play campaigns/exemple-magot.toml --json
      gm play campaigns/exemple-magot.toml --keep   # then gm verify, gm post…
    """
    import tempfile

    from gm.service.env import Env

    if keep:
        _play(ctx.env, scenario, as_json, fmt, kept=True)
        return
    with tempfile.TemporaryDirectory(prefix="gm-rehearsal-") as folder:
        # A throw-away file: commits need not wait for the disk (--keep keeps
        # the durability settings of the MJ's own database).
        env = Env(
            db=str(Path(folder) / "rehearsal.db"),
            templates=ctx.env.templates,
            durable=False,
            snapshots=False,
        )
        try:
            _play(env, scenario, as_json, fmt, kept=False)
        finally:
            store = env.__dict__.get("store")
            if store is not None:
                store.close()


def _play(env: Env, scenario: Path, as_json: bool, fmt: str | None, *, kept: bool) -> None:
    from gm.service import campaigns
    from gm.service import scenario as scenarios

    played = scenarios.play_and_keep(env, scenario) if kept else scenarios.play(env, scenario)
    campaign = played.campaign
    if as_json:
        echo_json(campaigns.status(env, campaign.slug))
        return
    settings = campaign.meta.settings
    style = (fmt, "auto") if fmt else (settings["format"], settings["tables"])
    echo_posts(played.posts, *style)
    if kept:
        note(f"Campaign {campaign.slug!r} played and selected ({campaign.seq} events).")
    else:
        note(
            f"Rehearsal of {campaign.slug!r} played ({campaign.seq} events) in a throw-away"
            " database: nothing was kept (gm play --keep stores it in yours)."
        )


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
    title = ctx.env.store.campaign(slug).title
    for player, body in reminder.nudges.items():
        echo_private(title, slug, player, body, fmt, tables, "message")


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
    that it was a default. Where the players' choices are collected together
    and a step locks them, the player's own message still replaces it until
    that step, as it would any choice; on a turn, the turn has passed. A
    step's --force applies every default that step waits for.

    \b
    Example:
      gm default bob
      gm default bob --preview
    """
    from gm.service import actions

    slug = ctx.slug()
    result = actions.default(ctx.env, slug, player, deadline=deadline, preview=preview)
    fmt, tables = ctx.style(slug, fmt)
    if result.reply and result.to:
        echo_reply(result.campaign, result.to, result.reply, fmt, tables)
    echo_posts(result.posts, fmt, tables, result.campaign, result.to)
    campaign = result.campaign
    awaiting = campaign.table.named(campaign.game.waiting_for(campaign.state))
    done = "Preview, nothing recorded." if preview else f"Done (event {campaign.seq})."
    waiting = f" Awaiting: {', '.join(awaiting)}." if awaiting else ""
    note(f"{done}{waiting} Next: {campaign.table.relabel(campaign.game.next_step(campaign.state))}")


def register(group: click.Group) -> None:
    for command in (PerGame(_order_command), play, remind, default_):
        group.add_command(command)
