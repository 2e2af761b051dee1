"""Player-side checks: ``gm check-post`` (the same checks as tools/gm_check.py) and
``gm checker`` (the same checks as a web page, for players without Python)."""

from __future__ import annotations

import sys

import click

from gm.cli.context import force_option, write_file
from gm.errors import InputError
from gm.writer import write_stdout


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


@click.command(
    "check",
    context_settings={"ignore_unknown_options": True, "help_option_names": []},
    add_help_option=False,
)
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
def check(args: tuple[str, ...]) -> None:
    """Check a thread as a player: the game re-decided from its posts.

    Needs no database and no campaign. Every post of gm carries its proof;
    the checker re-hashes the chain from the first event, replays the game
    with its own rules, redraws every draw once the seed is revealed, and
    renders every post again to compare it, line by line, with the pasted
    text. Run gm check --help for the options and exit codes.

    \b
    Example:
      gm check fil.md
      gm check ouverture.md tour1.md … fin.md
      gm check fil.md --reply ma-reponse.txt
      pbpaste | gm check -
    """
    from gm.check import main
    from gm.check.entry import MAX_BYTES

    # one character more than the bound at most: main refuses what is over it
    stdin = sys.stdin.read(MAX_BYTES + 1) if "-" in args else ""
    code, text = main(list(args), stdin)
    click.echo(text, nl=False)
    raise SystemExit(code)


@click.command("checker")
@click.option(
    "-o",
    "--output",
    metavar="FILE",
    help="The page's file (default: gm-verif-<version>.html; - for stdout).",
)
@click.option(
    "--python",
    "python",
    is_flag=True,
    help="The page that runs gm's own Python in the browser (Pyodide) instead of the JavaScript port.",
)
@click.option(
    "--pyodide",
    "pyodide",
    metavar="FILE",
    type=click.Path(dir_okay=False, path_type=str),
    help="With --python: the file `npm pack pyodide@<version>` wrote (default: downloaded once into gm's cache).",
)
@force_option
def checker(output: str | None, python: bool, pyodide: str | None, force: bool) -> None:
    """Write the players' checker as one web page, and print its SHA-256.

    The page checks a thread in any browser, offline, with nothing to
    install: the same checks as gm check-post (a JavaScript port of
    tools/gm_check.py, tested against it line for line). It loads nothing
    and sends nothing. Put it where your players can download it, and
    publish the file's SHA-256 beside the link (in the opening post, say):
    a player compares it with sha256sum / shasum -a 256 / certutil -hashfile
    FILE SHA256. The same gm version always writes the same bytes.

    The script's SHA-256 is the one the page shows in its header, computed
    live: it tells a damaged script, never a forged page (only the file's
    SHA-256, compared with the one you published, does).

    With --python the page runs gm's own Python checker in the browser
    (Pyodide, CPython in WebAssembly, about 8 MB, still one file that loads
    nothing): gm downloads Pyodide once from the npm registry into its cache
    folder and checks it against the hash pinned in gm; offline, give the
    file `npm pack pyodide@<version>` wrote with --pyodide.

    \b
    Example:
      gm checker                          # gm-verif-<version>.html
      gm checker -o verif.html --force
      gm checker --python                 # gm-verif-python-<version>.html
      gm chronicle -o fil.md --checker-link https://example.org/verif.html
    """
    from pathlib import Path

    from gm.service import checker_page

    if python:
        _python_checker(output, pyodide, force)
        return
    if pyodide is not None:
        raise InputError("--pyodide goes with --python", code="checker/usage")
    try:
        page = checker_page.page()
    except (OSError, checker_page.CheckerPageError) as problem:
        raise InputError(
            f"cannot build the checker page: {problem}", code="checker/sources"
        ) from problem
    if output == "-":  # the page on stdout: what is said goes to stderr
        write_stdout(page.body)
        name, to_stderr = "(stdout)", True
    else:
        name, to_stderr = output or checker_page.default_name(), False
        write_file(Path(name), page.body, force=force, command="checker")
        click.echo(f"Wrote {name} ({len(page.body):,} bytes).")
    click.echo(f"file SHA-256:   {page.sha256}  {name}", err=to_stderr)
    click.echo(f"script SHA-256: {page.script_sha256}  (the page shows it in its header)", err=to_stderr)


def _python_checker(output: str | None, pyodide: str | None, force: bool) -> None:
    from pathlib import Path

    from gm.service import browser_check

    tarball = browser_check.pyodide_tarball(Path(pyodide) if pyodide else None)
    page = browser_check.page(tarball)
    if output == "-":
        sys.stdout.buffer.write(page.body)
        sys.stdout.flush()
        name, to_stderr = "(stdout)", True
    else:
        name, to_stderr = output or browser_check.default_name(), False
        write_file(Path(name), page.body, force=force, command="checker")
        click.echo(f"Wrote {name} ({len(page.body):,} bytes).")
    click.echo(f"file SHA-256:   {page.sha256}  {name}", err=to_stderr)


def register(group: click.Group) -> None:
    group.add_command(check)
    group.add_command(check_post)
    group.add_command(checker)
