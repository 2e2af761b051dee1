"""What every command shares: the global options, the environment, output helpers."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from gm.errors import InputError
from gm.games.manifest import post_name
from gm.writer import write_file as write_file
from gm.writer import write_stdout

if TYPE_CHECKING:
    from gm.service.actions import Post
    from gm.service.env import Env
    from gm.service.loading import Campaign


class _Formats(click.Choice[str]):
    """``--format``'s choices: the forum presets (``gm.render.presets``), the
    closed set of the campaign setting ``format`` in ``gm.core.settings``,
    read when an option is parsed or its help shown, never when ``gm --help``
    lists the commands: the command line is built without the core."""

    def __init__(self) -> None:
        super().__init__((), case_sensitive=True)

    @property
    def choices(self) -> tuple[str, ...]:
        from gm.core.settings import SETTINGS

        return SETTINGS["format"]

    @choices.setter
    def choices(self, value: Any) -> None:
        """Click's ``__init__`` sets them; these are the settings'."""


format_option = click.option(
    "--format",
    "fmt",
    type=_Formats(),
    default=None,
    help="The forum or markup: phpbb, forumactif, discourse, reddit, or markdown, bbcode"
    " (phpBB's tags only), html (default: the campaign's setting, markdown unless changed).",
)
preview_option = click.option(
    "--preview",
    is_flag=True,
    help="Show what would be posted; record nothing (refused for a command that"
    " draws from the fortune: a draw is shown once, when it is made).",
)
json_option = click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")


@dataclass
class Ctx:
    db: str | None
    campaign: str | None
    templates: str | None
    pm_dir: str | None = None
    """Where private replies are written (``--pm-dir``); None: standard error."""
    printed: bool = False
    """Whether the command has printed a post on standard output (the next
    one is set apart by a blank line)."""
    chosen: str | None = None
    """The campaign this command acts on, once known: every note names it,
    so an MJ running two tables sees which one a command went to."""

    @cached_property
    def env(self) -> Env:
        from gm.service.env import Env

        return Env(db=self.db, templates=Path(self.templates) if self.templates else None)

    def close(self) -> None:
        """Release the database connections, if a command opened any. A
        process exits anyway, but an in-process caller (tests, scripts
        calling ``cli``) must not leave a PostgreSQL session behind."""
        env = self.__dict__.get("env")
        store = env.__dict__.get("store") if env is not None else None
        if store is not None:
            for line in store.notes:  # what the store did the MJ should know
                click.secho(line, err=True, fg="cyan")
            store.notes.clear()
            store.close()

    def slug(self) -> str:
        from gm.service import campaigns

        self.chosen = campaigns.current(self.env, self.campaign)
        return self.chosen

    def current_game(self) -> str | None:
        """The game of the campaign a command would act on, or None when there
        is none (no database yet, no current campaign, a database that cannot
        be read): what a per-game command is built for. Never creates the
        default database just to answer."""
        from gm.errors import GMError

        try:
            from gm.store.db import resolve_url, sqlite_path

            path = sqlite_path(resolve_url(self.db))
            if path is not None and not path.exists():
                return None
            return self.env.store.campaign(self.slug()).game
        except GMError:
            return None

    def style(self, slug: str, fmt: str | None) -> tuple[str, str]:
        """The forum preset and table mode for ``slug``: the ``--format`` option
        (a preset sets everything: its own tables), else the campaign's settings."""
        if fmt is not None:
            return fmt, "auto"
        from gm.service import campaigns

        settings = campaigns.settings_of(self.env, slug)
        return settings["format"], settings["tables"]


pass_ctx = click.make_pass_decorator(Ctx)


class PerGame(click.Command):
    """A command whose parameters and help are those of the current
    campaign's game (a game's step, ``gm order``'s fields): built when it is
    invoked, once the root group knows the database and the campaign, by
    ``build(game id or None)``; None, when no campaign is current, builds
    the command every game shares, whose help says which game does what.
    The root group's list shows this shared one, without opening anything."""

    def __init__(self, build: Any, **kwargs: Any) -> None:
        shared = build(None)
        super().__init__(
            shared.name,
            callback=shared.callback,
            params=shared.params,
            help=shared.help,
            short_help=shared.short_help,
            context_settings=shared.context_settings,
            **kwargs,
        )
        self._build = build

    def make_context(
        self,
        info_name: str | None,
        args: list[str],
        parent: click.Context | None = None,
        **extra: Any,
    ) -> click.Context:
        obj = parent.find_object(Ctx) if parent is not None else None
        game = obj.current_game() if obj is not None else None
        command: click.Command = self._build(game)
        return command.make_context(info_name, args, parent=parent, **extra)


def echo_post(body: str, fmt: str, tables: str) -> None:
    """Print a public text on standard output, a blank line after the one before."""
    from gm.service.posts import output

    obj = click.get_current_context().find_object(Ctx)
    if obj is not None:
        if obj.printed:
            click.echo()
        obj.printed = True
    click.echo(output(body, fmt, tables).rstrip("\n"))


def echo_posts(
    posts: tuple[Post, ...],
    fmt: str,
    tables: str,
    campaign: Campaign | None = None,
    actor: str | None = None,
) -> None:
    """Print posts on stdout, each announced on stderr (so a pipe gets posts only).

    In digest mode (the campaign's ``digest`` setting), posts its game
    gathers (``PostKind.gathered``) are held — archived and proved like any,
    but not printed — and printed with the next posts, as one forum message
    (``held``); ``actor`` is the seat whose message called for them. Posts
    held are always printed before any other, so the thread keeps the
    archive's order."""
    obj = click.get_current_context().find_object(Ctx)
    if obj is None or campaign is None or not posts or posts[0].number is None:
        _echo_each(posts, fmt, tables)
        return
    if _holds(campaign, posts, actor):
        key = f"{HELD}{campaign.slug}"
        if not obj.env.store.get_setting(key):
            obj.env.store.set_setting(key, str(posts[0].number))
        numbers = ", ".join(str(p.number) for p in posts)
        note(
            f"Digest: post {numbers} held, printed with the next one ('gm post --held'"
            " prints what is held now)."
        )
        return
    held = _take_held(obj, campaign, before=posts[0].number)
    if held:
        echo_digest((*held, *posts), fmt, tables)
    else:
        _echo_each(posts, fmt, tables)


def flush_held(campaign: Campaign, fmt: str, tables: str) -> bool:
    """Print the posts the campaign holds in digest mode, as one message,
    before another post (a roster notice) or when the MJ asks ('gm post
    --held'); whether there were any."""
    obj = click.get_current_context().find_object(Ctx)
    held = _take_held(obj, campaign) if obj is not None else ()
    if held:
        echo_digest(held, fmt, tables)
    return bool(held)


def _take_held(obj: Ctx, campaign: Campaign, before: int | None = None) -> tuple[Post, ...]:
    """The posts the campaign holds (archived from the first one held on,
    below post ``before``), no longer held once taken."""
    from gm.core.protocol import PostRef
    from gm.service.actions import Post as Made

    store = obj.env.store
    key = f"{HELD}{campaign.slug}"
    first = int(store.get_setting(key) or 0)
    if not first:
        return ()
    store.set_setting(key, "")
    return tuple(
        Made(PostRef(p.kind, p.at), p.body, p.number)
        for p in store.posts(campaign.slug, after=first - 1)
        if before is None or p.number < before
    )


HELD = "digest-held:"
"""The settings key of the first post a campaign holds in digest mode (the
MJ's terminal state, not the game's: nothing in the log depends on it)."""


def _holds(campaign: Campaign, posts: tuple[Post, ...], actor: str | None) -> bool:
    if campaign.meta.settings.get("digest") != "on" or campaign.game.is_over(campaign.state):
        return False
    info = campaign.game.info
    kinds = [info.post_kind(p.ref.kind) for p in posts]
    ways = {k.gathered if k is not None else "" for k in kinds}
    if ways == {"next"}:
        return True
    waiting = set(campaign.game.waiting_for(campaign.state))
    # « hand »: while the player who acted keeps the hand, nobody else needs them
    return ways <= {"next", "hand"} and actor is not None and waiting <= {actor}


def echo_digest(posts: tuple[Post, ...], fmt: str, tables: str) -> None:
    """Several posts as one forum message: announced once, set apart by a rule."""
    if len(posts) == 1:
        _echo_each(posts, fmt, tables)
        return
    names = ", ".join(f"{p.number}" for p in posts)
    click.secho(f"── posts {names}: one message (digest) ──", err=True, dim=True)
    for post in posts:  # on standard output as one paste, a blank line between posts
        echo_post(post.body, fmt, tables)


def _echo_each(posts: tuple[Post, ...], fmt: str, tables: str) -> None:
    for post in posts:
        number = f"post {post.number}" if post.number is not None else "preview"
        click.secho(f"── {number}: {post_name(post.ref.kind, post.ref.at)} ──", err=True, dim=True)
        echo_post(post.body, fmt, tables)


def echo_reply(campaign: Campaign, player: str, body: str, fmt: str, tables: str) -> None:
    """A private reply to the seat ``player`` (shown by its current name) of
    ``campaign``: see ``echo_private``."""
    echo_private(campaign.meta.title, campaign.slug, campaign.meta.name(player), body, fmt, tables)


def echo_private(
    title: str, slug: str, player: str, body: str, fmt: str, tables: str, what: str = "reply"
) -> None:
    """A private text for ``player``, never on standard output (which carries
    what is public, so that a pipe to the clipboard never holds a hand): on
    standard error under a line naming the player and the campaign (an MJ
    may run two tables), or written to ``--pm-dir``'s file for the player."""
    from gm.service.posts import output

    text = output(body, fmt, tables)
    obj = click.get_current_context().find_object(Ctx)
    folder = obj.pm_dir if obj is not None else None
    if folder is None:
        reply_header(title, slug, player, what)
        click.echo(text.rstrip("\n"), err=True)
        return
    from gm.core.names import slugify

    path = Path(folder) / f"{slug}-{slugify(player) or 'joueur'}.md"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    except OSError as err:
        raise InputError(
            f"cannot write the private {what} to {player} into {path}: {err.strerror or err}",
            code="output/pm-dir",
        ) from err
    note(f"Private {what} to {player}: {path}")


def reply_header(title: str, slug: str, player: str, what: str = "reply") -> None:
    click.secho(f"── private {what} to {player} · {title} [{slug}] ──", err=True, dim=True)


def echo_json(value: Any) -> None:
    click.echo(json.dumps(value, ensure_ascii=False, indent=2))


def note(text: str) -> None:
    """A line for the MJ on stderr: never mixed into what they copy. It
    starts with the campaign the command acted on, when there is one."""
    current = click.get_current_context(silent=True)
    obj = current.find_object(Ctx) if current is not None else None
    if obj is not None and obj.chosen and not text.startswith(f"[{obj.chosen}]"):
        text = f"[{obj.chosen}] {text}"
    click.secho(text, err=True, fg="cyan")


def force_option(f: Any) -> Any:
    return click.option("--force", is_flag=True, help="Replace FILE if it exists.")(f)


STDOUT = "-"
"""``-o -``: every command's output file can be standard output."""


def write_output(output: str | Path, data: str | bytes, *, force: bool, command: str) -> str:
    """Write ``data`` to the ``-o`` file ``output``, or to standard output for
    ``-``; how notes name where it went."""
    if str(output) == STDOUT:
        write_stdout(data)
        return "standard output"
    write_file(Path(output), data, force=force, command=command)
    return str(output)
