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
    """Check a whole thread, a post, a seed, draws or a seal, as a player.

    Needs no campaign: it runs the stand-alone tools/gm_check.py shipped
    with gm (standard library only, never gm's code), the very file players
    download.

    \b
    Exit codes:
      0  everything checked matched
      1  a mismatch or a failure (DIFFÉRENT / MISMATCH, with where)
      2  unreadable input or usage error
      3  nothing contradicted, but something could not be checked
         (a post it depends on, the seed not yet revealed, a short seal)

    \b
    Example:
      gm chronicle -o fil.md && gm check-post thread fil.md
      gm check-post thread ouverture.md tour1.md … fin.md devoilement.md
      gm check-post post results.txt --reveal reveal.txt
      gm check-post post final.txt --opening opening.txt
      gm check-post post duel.txt --seal <the seal of your private reply>
      gm check-post thread fil.md --reply reponse-privee.txt   # its seals
      gm check-post seed SEED COMMITMENT
      gm check-post seal KIND PAYLOAD_JSON SALT [EXPECTED]
      gm check-post label round-3/bills fab tequila marco Cadillac
      gm check-post draws SEED LABEL N [COUNT]     # N may be 40,39,38,37,36
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
