"""Commands that show the record: history."""

from __future__ import annotations

import json

import click

from gm.cli.context import Ctx, echo_json, json_option, pass_ctx


@click.command()
@click.option(
    "--as",
    "viewer",
    metavar="PLAYER",
    help="Only what PLAYER may see (default: everything, the MJ's view).",
)
@click.option("--round", "-r", "round_", type=int, help="Only events of this round.")
@json_option
@pass_ctx
def history(ctx: Ctx, viewer: str | None, round_: int | None, as_json: bool) -> None:
    """Show the campaign's log: every input, draw and decision, in order.

    \b
    Example:
      gm history
      gm history --as fab          # what fab may see
      gm history --json
    """
    from gm.core.protocol import GM
    from gm.service import history as timeline

    rows = timeline.timeline(ctx.env, ctx.slug(), viewer or GM)
    if round_ is not None:
        rows = [r for r in rows if r["payload"].get("round") == round_]
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
        click.echo(f"{row['seq']:>5}  {when}  {who:<16} {row['kind']}{source}")
        click.echo(f"       {payload}")


@click.command()
@pass_ctx
def verify(ctx: Ctx) -> None:
    """Check the campaign's archive: hash chain, log, and every stored post.

    Recomputes each event's hash, folds the log again, and renders every
    stored post again from the log as it stood, comparing it with what was
    recorded. Prints what differs and exits with code 5 on any mismatch.
    Posts rendered with --templates must be verified with the same folder.

    \b
    Example:
      gm verify
      gm -c le-casse-du-siecle verify
    """
    from gm.errors import ChainIntegrityError
    from gm.service import audit

    slug = ctx.slug()
    problems = audit.verify(ctx.env, slug)
    if problems:
        for line in problems:
            click.echo(line)
        raise ChainIntegrityError(
            f"{slug!r} does not verify: {len(problems)} problem{'s' if len(problems) > 1 else ''}"
            f" (first: {problems[0]})",
            code="verify/mismatch",
        )
    events = ctx.env.store.last_seq(slug)
    posts = len(ctx.env.store.posts(slug))
    click.echo(f"{slug}: {events} events and {posts} posts verify.")


def register(group: click.Group) -> None:
    group.add_command(history)
    group.add_command(verify)
