"""Player-side checks: ``gm check-post`` (the same checks as tools/gm_check.py)."""

from __future__ import annotations

import sys

import click


@click.command(
    "check-post",
    context_settings={"ignore_unknown_options": True, "help_option_names": []},
    add_help_option=False,
)
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
def check_post(args: tuple[str, ...]) -> None:
    """Check a seed, draws, a seal or a post copied from the forum, as a player.

    Needs no campaign: the same checks as the stand-alone tools/gm_check.py,
    through gm's own hashing functions (exit 0: all matches, 1: a mismatch).

    \b
    Example:
      gm check-post seed SEED COMMITMENT
      gm check-post draws SEED LABEL N [COUNT]     # N may be 40,39,38,37,36
      gm check-post seal KIND PAYLOAD_JSON SALT [EXPECTED]
      gm check-post post results.txt --reveal reveal.txt
      gm check-post post final.txt --opening opening.txt
      gm check-post post duel.txt                   # Fistful of Gold
    """
    if not args or args[0] in ("-h", "--help"):
        ctx = click.get_current_context()
        click.echo(ctx.get_help())
        ctx.exit(0)
    from gm.service.check import run

    try:
        code = run(list(args))
    except SystemExit as exit_:  # argparse: usage errors and -h
        code = exit_.code if isinstance(exit_.code, int) else 2
    sys.stdout.flush()
    raise SystemExit(code)


def register(group: click.Group) -> None:
    group.add_command(check_post)
