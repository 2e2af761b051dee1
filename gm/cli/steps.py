"""The games' own steps as commands (``gm draw``, ``gm reveal``, ``gm resolve``…).

Built from each game's ``StepSpec`` data, so adding a game never edits the
command line. Each step is built when it runs for the current campaign's
game (``PerGame``): its options and its help are that game's only, so Click
refuses another game's option as any unknown one. With no campaign, the
command every game with that step shares: its help says what it does in
each. Two games declaring one step's parameter differently, or a step
named like one of gm's own commands, is an error when the command line is
built (``StepClash``), never a silent choice.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import click

from gm import games
from gm.cli.context import (
    Ctx,
    PerGame,
    echo_posts,
    echo_private,
    echo_reply,
    format_option,
    note,
    preview_option,
)
from gm.errors import InputError
from gm.games.manifest import GameInfo, ParamSpec, StepSpec

if TYPE_CHECKING:
    from gm.service.actions import Post
    from gm.service.loading import Campaign

DEADLINE_HELP = (
    "When the players must answer (campaign time zone): '2026-12-03 20:00',"
    " '03/12/2026 20:00', '3/12 20h', 'jeudi 20h', or a delay: '+48h', '+2j'."
)


FORCE = "force"
FORCE_HELP = (
    "If players are awaited, apply the rules' default for each of them first"
    " (as 'gm default PLAYER' does, one command each), then run the step."
)


def _param(spec: ParamSpec) -> click.Parameter:
    if spec.kind == "argument":
        return click.Argument(
            [spec.name],
            required=spec.required,
            nargs=-1 if spec.multiple else 1,
            metavar=spec.metavar,
        )
    flag = f"--{spec.name.replace('_', '-')}"
    if spec.kind == "flag":
        return click.Option([flag, spec.name], is_flag=True, help=spec.help)
    return click.Option(
        [flag, spec.name],
        required=spec.required,
        multiple=spec.multiple,
        metavar=spec.metavar,
        help=spec.help,
    )


def _callback(name: str, owners: dict[str, StepSpec]) -> Callable[..., None]:
    @click.pass_obj
    def run(
        ctx: Ctx, preview: bool, fmt: str | None, deadline: str | None = None, **values: Any
    ) -> None:
        from gm.service import actions

        slug = ctx.slug()
        info = ctx.env.store.campaign(slug)
        spec = owners.get(info.game)
        if spec is None:
            raise InputError(
                f"'gm {name}' is not a step of {info.game} campaigns", code="input/no-step"
            )
        known = {p.name for p in spec.params}
        # a step the game gives no --force of its own: the platform's (defaults first)
        force = bool(values.pop(FORCE, False)) if FORCE not in known else False
        extra = [k for k, v in values.items() if k not in known and v not in (None, False, ())]
        if extra:
            raise InputError(
                f"'gm {name}' takes no --{extra[0].replace('_', '-')} for {info.game} campaigns",
                code="input/option",
            )
        mine = {k: v for k, v in values.items() if k in known}
        result = actions.step(
            ctx.env, slug, name, mine, deadline=deadline, preview=preview, force=force
        )
        fmt, tables = ctx.style(slug, fmt)
        for applied in result.defaults:  # printed as 'gm default PLAYER' prints them
            if applied.reply and applied.to:
                echo_reply(applied.campaign, applied.to, applied.reply, fmt, tables)
            echo_posts(applied.posts, fmt, tables, applied.campaign, applied.to)
            note(f"Applied the rules' default for {applied.to} (event {applied.campaign.seq}).")
        if result.reply and result.to:  # a player's choice, recorded by the MJ
            echo_reply(result.campaign, result.to, result.reply, fmt, tables)
        echo_posts(result.posts, fmt, tables, result.campaign)
        campaign = result.campaign
        if not preview:
            echo_dealt(ctx, campaign, result.posts, fmt, tables)
        awaiting = campaign.table.named(campaign.game.waiting_for(campaign.state))
        status = "Preview, nothing recorded." if preview else f"Done (event {campaign.seq})."
        if awaiting:
            status += f" Awaiting: {', '.join(awaiting)}."
        note(f"{status} Next: {campaign.table.relabel(campaign.game.next_step(campaign.state))}")

    return run


def echo_dealt(ctx: Ctx, campaign: Campaign, posts: Sequence[Post], fmt: str, tables: str) -> None:
    """After a post that tells every player they received something in
    private (``PostKind.deals``: a hand, a deal), each player's status, as
    private messages, so that the MJ sends them without asking for each."""
    info = campaign.game.info
    if not any((spec := info.post_kind(p.ref.kind)) is not None and spec.deals for p in posts):
        return
    from gm.service import publishing

    for seat in campaign.meta.seats:
        name = campaign.meta.name(seat)
        body = publishing.private_status(ctx.env, campaign.slug, name)
        echo_private(campaign.meta.title, campaign.slug, name, body, fmt, tables, "message")


def _gist(help_text: str) -> str:
    """The head of a step's help, up to its first clause: « Fire the shots »."""
    return re.split(r"[,;:.(]| once ", help_text, maxsplit=1)[0].strip()


class StepClash(Exception):
    """Two games declare one step with parameters that cannot be one option
    (a programming error of a game, raised when the command line is built)."""


def _clashes(name: str, owners: dict[str, StepSpec]) -> None:
    seen: dict[str, tuple[str, ParamSpec]] = {}
    for game_id, spec in owners.items():
        for p in spec.params:
            shape = (p.kind, p.multiple, p.required, p.metavar)
            if p.name in seen:
                other_id, other = seen[p.name]
                if (other.kind, other.multiple, other.required, other.metavar) != shape:
                    raise StepClash(
                        f"'gm {name}': {other_id} and {game_id} declare its parameter"
                        f" {p.name!r} differently ({other.kind}, multiple={other.multiple},"
                        f" required={other.required} against {p.kind}, multiple={p.multiple},"
                        f" required={p.required}): rename one"
                    )
            else:
                seen[p.name] = (game_id, p)


def build_commands(infos: Sequence[GameInfo] | None = None) -> list[click.Command]:
    """One command per step name across every registered game (or ``infos``):
    each built, when it runs, for the current campaign's game alone.

    :raises StepClash: two games declare one step's parameter differently.
    """
    by_name: dict[str, dict[str, StepSpec]] = {}
    titles: dict[str, str] = {}
    for game in games.all_info() if infos is None else infos:
        titles[game.id] = game.title
        for spec in game.steps:
            by_name.setdefault(spec.name, {})[game.id] = spec
    for name, owners in by_name.items():
        _clashes(name, owners)
    return [
        PerGame(functools.partial(_step_command, name, owners, titles))
        for name, owners in by_name.items()
    ]


def _step_command(
    name: str, owners: dict[str, StepSpec], titles: dict[str, str], game_id: str | None
) -> click.Command:
    """Step ``name`` as the campaign's game ``game_id`` has it: its options and
    its help only. For no campaign (or one whose game has no such step, which
    the command then refuses), the step of every game that has it."""
    if game_id in owners:
        owners = {game_id: owners[game_id]}
    params: dict[str, click.Parameter] = {}
    for spec in owners.values():
        for p in spec.params:
            params.setdefault(p.name, _param(p))
    extra: list[click.Parameter] = []
    if FORCE not in params:
        extra.append(click.Option([f"--{FORCE}", FORCE], is_flag=True, help=FORCE_HELP))
    else:  # a game's own --force: the others' is the platform's
        own = [g for g, s in owners.items() if any(p.name == FORCE for p in s.params)]
        if len(own) < len(owners):
            own_help = next(p.help for p in owners[own[0]].params if p.name == FORCE)
            params[FORCE] = click.Option(
                [f"--{FORCE}", FORCE],
                is_flag=True,
                help=f"{', '.join(own)}: {own_help} Other games: {FORCE_HELP}",
            )
    if any(s.deadline for s in owners.values()):
        extra.append(click.Option(["--deadline"], metavar="WHEN", help=DEADLINE_HELP))
    short_help = None
    if len(owners) == 1:
        ((only, spec),) = owners.items()
        help_text = spec.help
        if game_id is None:  # no campaign to tell whose step it is
            help_text += f"\n\n(A step of {titles[only]} campaigns.)"
    else:  # each game says what the step does in it
        help_text = "\n\n".join(
            f"{titles[g]} ({g}) — {spec.help}" for g, spec in owners.items()
        )
        short_help = " · ".join(f"{g}: {_gist(spec.help)}" for g, spec in owners.items())
    command = click.Command(
        name,
        callback=_callback(name, owners),
        params=[*params.values(), *extra],
        help=help_text,
        short_help=short_help,
    )
    preview_option(command)
    format_option(command)
    return command


def register(group: click.Group) -> None:
    for command in build_commands():
        group.add_command(command)  # the root group refuses a name taken twice
