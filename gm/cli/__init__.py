"""The ``gm`` command line: a thin Click layer over ``gm.service``.

Each command parses its arguments, calls one use case, and prints. Errors
are converted once, in ``GMGroup``: a ``GMError`` becomes ``Error: … [code]``
on stderr with its exit code, never a traceback. Heavy libraries (SQLAlchemy,
Jinja, Markdown) are imported inside commands, so ``gm --help`` stays fast.
Game steps (``gm draw``, ``gm reveal``…) are built from the games' own step
specs in ``gm.cli.steps``; nothing here knows a game.
"""

from __future__ import annotations

import sys
from typing import Any

import click

from gm import __version__
from gm.cli.context import Ctx, note
from gm.errors import GMError, RegistryError, cut_quotes


class GMClickException(click.ClickException):
    """A ``GMError`` as Click prints it: ``Error: message [code]``."""

    def __init__(self, err: GMError) -> None:
        super().__init__(f"{err.message} [{err.code}]")
        self.exit_code = err.exit_code  # type: ignore[misc]  # Click reads it per instance


def _shown(value: str) -> str:
    """An argument as the MJ typed it, each byte that is not UTF-8 shown as « � »."""
    from gm.errors import quoted

    return quoted(value.encode("utf-8", "surrogateescape").decode("utf-8", "replace"))


TERMINAL = "check the encoding of your terminal or script: gm reads arguments as UTF-8"


MAX_USAGE_MESSAGE = 1000
"""Characters of a Click usage error kept (``Got unexpected extra argument (…)``)."""


def _cut_usage(message: str) -> str:
    """A usage error's message with its quoted input cut (``gm.errors.cut_quotes``),
    and at most ``MAX_USAGE_MESSAGE`` characters of it."""
    message = cut_quotes(message)
    if len(message) <= MAX_USAGE_MESSAGE:
        return message
    return f"{message[:MAX_USAGE_MESSAGE]}… ({len(message):,} characters)"


class GMGroup(click.Group):
    """The root group: converts every ``GMError`` once, keeps commands in help order."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except click.UsageError as err:  # Click's own message may echo an argument whole
            err.message = _cut_usage(err.message)  # type: ignore[misc]  # Final for typing only
            raise
        except GMError as err:
            if err.draft:
                click.echo(err.draft.rstrip("\n"))
            for line in err.notes:
                note(line)
            raise GMClickException(err) from err

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        # The one check of every argument, before any command sees it: the
        # root group receives the whole command line.
        from gm.reader import os_text

        for n, arg in enumerate(args, start=1):
            # A shell cannot pass a NUL byte (argv holds C strings), but a caller
            # of cli() can, and os functions raise ValueError on it deep inside.
            if "\x00" in arg:
                raise click.UsageError(f"argument {n} contains a NUL byte (\\x00)", ctx)
            try:
                os_text(arg, f"argument {n} ({_shown(arg)})", TERMINAL)
            except GMError as err:
                raise GMClickException(err) from None
        try:
            return super().parse_args(ctx, args)
        except click.UsageError as err:
            err.message = _cut_usage(err.message)  # type: ignore[misc]  # Final for typing only
            raise

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(self.commands)

    def add_command(self, cmd: click.Command, name: str | None = None) -> None:
        # a game's step named like another command would replace it silently
        name = name or cmd.name
        if name in self.commands:
            from gm.cli.steps import StepClash

            raise StepClash(f"two commands are named 'gm {name}' (a game's step and another)")
        super().add_command(cmd, name)


@click.group(cls=GMGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--db",
    envvar="GM_DB",
    metavar="PATH|URL",
    help="Database: a SQLite file path or a SQLAlchemy URL (postgresql+psycopg://…). "
    "Default: gm.db in your user data folder (see 'gm info'). Env: GM_DB.",
)
@click.option(
    "-c",
    "--campaign",
    envvar="GM_CAMPAIGN",
    metavar="SLUG",
    help="The campaign to act on (default: the current one, see 'gm use'). Env: GM_CAMPAIGN.",
)
@click.option(
    "--templates",
    envvar="GM_TEMPLATES",
    type=click.Path(file_okay=False, path_type=str),
    help="A folder of templates that override the shipped ones. Env: GM_TEMPLATES.",
)
@click.option(
    "--pm-dir",
    "pm_dir",
    envvar="GM_PM_DIR",
    type=click.Path(file_okay=False, path_type=str),
    help="Write each private reply to a file of this folder (<campaign>-<player>.md,"
    " the latest reply) instead of the terminal's standard error. Env: GM_PM_DIR.",
)
@click.version_option(__version__, "--version", prog_name="gm")
@click.pass_context
def cli(
    ctx: click.Context,
    db: str | None,
    campaign: str | None,
    templates: str | None,
    pm_dir: str | None,
) -> None:
    """gm — the game master's assistant for Western games played by forum.

    Paste your players' private messages, let gm check them against the rules,
    resolve the round and write the forum post. Every input and every draw is
    kept in a hash-chained log, so anyone can check the game was fair.

    Standard output carries only what is public (the posts: pipe it to your
    clipboard); private replies go to standard error, or to files with
    --pm-dir, so that a hand is never pasted into the thread.

    \b
    A round of Le Magot:
      gm new magot --title "Le casse" --players fab,marco,lulu,tom
      gm draw --deadline +48h          # post the pot
      gm order fab "je braque marco, BANG"
      gm reveal                        # post who aims at whom
      gm fold marco                    # those who fold
      gm resolve                       # post the shots and the share

    \b
    A duel of Fistful of Gold:
      gm new fistful --title "Le duel" --players ana,bob
      gm order ana "je défausse le 1 et le 2"   # both players, then:
      gm start                         # post the seals of the discards
      gm order ana "je joue le 5"      # both cards, then:
      gm reveal                        # post the duel
      gm resolve                       # post the end of the manche
    """
    from gm.reader import os_text

    if _REGISTRY_ERROR is not None:
        raise GMClickException(_REGISTRY_ERROR)

    try:  # an environment variable is decoded as an argument is (the options are checked)
        for value, name in (
            (db, "--db (or GM_DB)"),
            (campaign, "-c (or GM_CAMPAIGN)"),
            (templates, "--templates (or GM_TEMPLATES)"),
            (pm_dir, "--pm-dir (or GM_PM_DIR)"),
        ):
            if value is not None:
                os_text(value, f"{name} {_shown(value)}", TERMINAL)
    except GMError as err:
        raise GMClickException(err) from None
    ctx.obj = Ctx(db=db, campaign=campaign, templates=templates, pm_dir=pm_dir)
    ctx.call_on_close(ctx.obj.close)


def main() -> None:
    """The console script's entry point."""
    from gm.errors import OutputError
    from gm.writer import guard_stdout

    guard_stdout()  # a write error on stdout: one line and exit code 4, not a traceback
    if _REGISTRY_ERROR is not None:  # even gm --help: the commands it lists are wrong
        click.echo(f"Error: {_REGISTRY_ERROR.message} [{_REGISTRY_ERROR.code}]", err=True)
        sys.exit(_REGISTRY_ERROR.exit_code)
    code: int | str | None = 0
    try:
        cli(prog_name="gm")
    except BrokenPipeError:
        # ``gm play … | head``: the reader left; stop quietly, as Unix tools do.
        sys.stderr.close()
        sys.exit(1)
    except SystemExit as done:
        code = done.code
    try:  # what is still buffered: its error, if any, is the command's
        sys.stdout.flush()
    except BrokenPipeError:
        sys.stderr.close()
        sys.exit(1)
    except OutputError as err:
        click.echo(f"Error: {err.message} [{err.code}]", err=True)
        code = err.exit_code
    sys.exit(code)


# Registering commands imports only Click and the pure game packages.
_REGISTRY_ERROR: RegistryError | None = None
"""Why the installed games cannot be listed (two distributions register one
id): every command then says so, ``main`` before anything else."""

try:  # the commands depend on the games: their steps, their order fields
    from gm.cli import audit, campaign, check, dice, play, posts, steps, transfer, week

    for module in (campaign, play, steps, week, posts, audit, transfer, dice, check):
        module.register(cli)
except RegistryError as err:
    _REGISTRY_ERROR = err
