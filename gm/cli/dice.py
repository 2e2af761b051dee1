"""Dice of fortune: roll."""

from __future__ import annotations

import click

from gm.cli.context import Ctx, echo_posts, format_option, note, pass_ctx


@click.command()
@click.argument("expression", nargs=-1, required=True, metavar="EXPR")
@click.option(
    "--reason",
    "-r",
    metavar="TEXT",
    help="What the roll is for, shown in the post (one line, at most 200 characters).",
)
@format_option
@pass_ctx
def roll(ctx: Ctx, expression: tuple[str, ...], reason: str | None, fmt: str | None) -> None:
    """Roll dice from the campaign's fortune and print the line to post.

    EXPR uses the usual notation: d6, 2d6+1, 1d100 (or d%), 4d6kh3 (keep
    the 3 highest), 2d20kl1 (keep the lowest), d20+d4-1. At most 100 dice
    per term and 200 in all, 2 to 1000 sides, 10 terms, numbers up to
    10000. When a word of EXPR starts with a minus (d20 -1), put -- first.

    The roll is a public event of the log. The post names its stream:
    the campaign's N-th roll reads roll/N (with the players' words mixed
    in), so anyone can re-derive the dice once the final post reveals the
    seed (see the README). Rolling is refused once the game is over. A
    roll has no preview: dice are seen once, when they count.

    \b
    Example:
      gm roll 2d6+1 --reason "l'attaque du fourgon"
      gm roll 4d6kh3
      gm roll 3d6 + 2
      gm roll -- d20 -1
    """
    from gm.service import dice

    slug = ctx.slug()
    result = dice.roll(ctx.env, slug, " ".join(expression), reason)
    fmt, tables = ctx.style(slug, fmt)
    echo_posts((result.post,), fmt, tables, result.campaign)
    note(f"Done (event {result.campaign.seq}). {result.roll.expression} = {result.roll.total}.")


def register(group: click.Group) -> None:
    group.add_command(roll)
