"""What every command shares: the global options, the environment, output helpers."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from gm.core.campaign import SETTINGS
from gm.core.protocol import post_name
from gm.writer import write_file as write_file
from gm.writer import write_stdout

if TYPE_CHECKING:
    from gm.service.actions import Post
    from gm.service.env import Env
    from gm.service.loading import Campaign

FORMATS = SETTINGS["format"]
"""The forum presets (``gm.render.presets``), by name."""

format_option = click.option(
    "--format",
    "fmt",
    type=click.Choice(FORMATS),
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
            store.close()

    def slug(self) -> str:
        from gm.service import campaigns

        self.chosen = campaigns.current(self.env, self.campaign)
        return self.chosen

    def style(self, slug: str, fmt: str | None) -> tuple[str, str]:
        """The forum preset and table mode for ``slug``: the ``--format`` option
        (a preset sets everything: its own tables), else the campaign's settings."""
        if fmt is not None:
            return fmt, "auto"
        from gm.service import campaigns

        settings = campaigns.settings_of(self.env, slug)
        return settings["format"], settings["tables"]


pass_ctx = click.make_pass_decorator(Ctx)


def echo_post(body: str, fmt: str, tables: str) -> None:
    from gm.service.posts import output

    click.echo(output(body, fmt, tables).rstrip("\n"))


def echo_posts(posts: tuple[Post, ...], fmt: str, tables: str) -> None:
    """Print posts on stdout, each announced on stderr (so a pipe gets posts only)."""
    for i, post in enumerate(posts):
        if i:
            click.echo()
        number = f"post {post.number}" if post.number is not None else "preview"
        click.secho(f"── {number}: {post_name(post.ref.kind, post.ref.at)} ──", err=True, dim=True)
        echo_post(post.body, fmt, tables)


def echo_reply(campaign: Campaign, player: str, body: str, fmt: str, tables: str) -> None:
    """Print a private reply on stdout, announced on stderr with the player
    (a seat, shown by its current name) and the campaign it belongs to (an
    MJ may run two tables)."""
    reply_header(campaign.meta.title, campaign.slug, campaign.meta.name(player))
    echo_post(body, fmt, tables)


def reply_header(title: str, slug: str, player: str) -> None:
    click.secho(f"── private reply to {player} · {title} [{slug}] ──", err=True, dim=True)


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
