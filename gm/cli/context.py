"""What every command shares: the global options, the environment, output helpers."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

if TYPE_CHECKING:
    from gm.service.actions import Post
    from gm.service.env import Env

FORMATS = ("markdown", "bbcode", "html")

format_option = click.option(
    "--format",
    "fmt",
    type=click.Choice(FORMATS),
    default=None,
    help="Output markup (default: the campaign's setting, markdown unless changed).",
)
preview_option = click.option(
    "--preview", is_flag=True, help="Show what would be posted; record nothing."
)
json_option = click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")


@dataclass
class Ctx:
    db: str | None
    campaign: str | None
    templates: str | None

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

        return campaigns.current(self.env, self.campaign)

    def style(self, slug: str, fmt: str | None) -> tuple[str, str]:
        """The output format and table mode for ``slug``: the option, else the setting."""
        from gm.service import campaigns

        settings = campaigns.settings_of(self.env, slug)
        return fmt or settings["format"], settings["tables"]


pass_ctx = click.make_pass_decorator(Ctx)


def echo_post(body: str, fmt: str, tables: str) -> None:
    from gm.service.posts import output

    click.echo(output(body, fmt, tables).rstrip("\n"))


def echo_posts(posts: tuple[Post, ...], fmt: str, tables: str) -> None:
    """Print posts on stdout, each announced on stderr (so a pipe gets posts only)."""
    for i, post in enumerate(posts):
        if i:
            click.echo()
        where = f" (round {post.ref.round})" if post.ref.round is not None else ""
        number = f"post {post.number}" if post.number is not None else "preview"
        click.secho(f"── {number}: {post.ref.kind}{where} ──", err=True, dim=True)
        echo_post(post.body, fmt, tables)


def echo_json(value: Any) -> None:
    click.echo(json.dumps(value, ensure_ascii=False, indent=2))


def note(text: str) -> None:
    """A line for the MJ on stderr: never mixed into what they copy."""
    click.secho(text, err=True, fg="cyan")
