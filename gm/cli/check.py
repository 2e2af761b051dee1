"""Player-side checks: ``gm check`` (the game re-decided from its posts, by
``gm.check``) and ``gm checker`` (the same Python as a web page, for players
without Python)."""

from __future__ import annotations

import sys

import click

from gm.cli.context import force_option, write_file


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
    "--pyodide",
    "pyodide",
    metavar="FILE",
    type=click.Path(dir_okay=False, path_type=str),
    help="The file `npm pack pyodide@<version>` wrote (default: downloaded once into gm's cache).",
)
@force_option
def checker(output: str | None, pyodide: str | None, force: bool) -> None:
    """Write the players' checker as one web page, and print its SHA-256.

    The page runs gm check itself in the browser: gm's own Python (its
    rules, its templates, gm.check), in Pyodide (CPython in WebAssembly,
    about 8 MB), offline, with nothing to install. It loads nothing and
    sends nothing. gm downloads Pyodide once from the npm registry into its
    cache folder and checks it against the hash pinned in gm; offline, give
    the file `npm pack pyodide@<version>` wrote with --pyodide.

    Put the page where your players can download it, and publish the file's
    SHA-256 beside the link (in the opening post, say): a player compares
    it with sha256sum / shasum -a 256 / certutil -hashfile FILE SHA256. The
    same gm version always writes the same bytes.

    \b
    Example:
      gm checker                          # gm-verif-<version>.html
      gm checker -o verif.html --force
      gm checker --pyodide pyodide-0.29.5.tgz
      gm chronicle -o fil.md --checker-link https://example.org/verif.html
    """
    from pathlib import Path

    from gm.service import browser_check

    tarball = browser_check.pyodide_tarball(Path(pyodide) if pyodide else None)
    page = browser_check.page(tarball)
    if output == "-":  # the page on stdout: what is said goes to stderr
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
    group.add_command(checker)
