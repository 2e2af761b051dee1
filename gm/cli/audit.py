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


def register(group: click.Group) -> None:
    group.add_command(history)
