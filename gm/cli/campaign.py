"""Commands that create, choose and inspect campaigns: new, list, use, status, set, info, games."""

from __future__ import annotations

from typing import Any

import click

from gm.cli.context import (
    Ctx,
    echo_json,
    echo_posts,
    format_option,
    json_option,
    note,
    pass_ctx,
    preview_option,
)
from gm.errors import InputError


def _options(pairs: tuple[str, ...]) -> dict[str, str]:
    out = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise InputError(f"--option takes KEY=VALUE, got {pair!r}", code="input/option")
        out[key.strip()] = value.strip()
    return out


@click.command()
@click.argument("game")
@click.option("--title", "-t", required=True, help="The campaign's title, shown in every post.")
@click.option(
    "--players",
    "-p",
    required=True,
    metavar="A,B,C",
    help=(
        "Player names in seating order, comma-separated; NAME:f or NAME:m is a player's"
        " grammatical gender, so that posts agree with them (none: wording that needs no"
        " agreement; change it later with 'gm set gender')."
    ),
)
@click.option(
    "--option",
    "-o",
    "options",
    multiple=True,
    metavar="KEY=VALUE",
    help="A game option (see 'gm games').",
)
@click.option("--seed", help="The fortune seed as a text (default: random). Revealed at the end.")
@click.option("--slug", help="The campaign's short name (default: from the title).")
@click.option("--tz", help="Time zone of deadlines (default: Europe/Paris).")
@click.option(
    "--tables",
    type=click.Choice(["auto", "native", "list", "code"]),
    help="BBCode tables: the format's choice (auto), [table], a list, or a code block.",
)
@format_option
@preview_option
@pass_ctx
def new(
    ctx: Ctx,
    game: str,
    title: str,
    players: str,
    options: tuple[str, ...],
    seed: str | None,
    slug: str | None,
    tz: str | None,
    tables: str | None,
    fmt: str | None,
    preview: bool,
) -> None:
    """Create a campaign, make it current, and print the opening post.

    \b
    Example:
      gm new magot --title "Le casse du siècle" --players fab:m,marco:m,lulu:f,tom,Élodie:f
      gm new magot -t "Partie courte" -p a,b,c -o rounds=4 -o loot=5000:10,10000:10
    """
    from gm.core.names import slugify
    from gm.service import campaigns

    settings = {k: v for k, v in (("format", fmt), ("tz", tz), ("tables", tables)) if v}
    result = campaigns.create(
        ctx.env,
        game,
        title,
        players.split(","),
        options=_options(options),
        seed=seed,
        slug=slug,
        settings=settings,
        fresh_slug=True,
        preview=preview,
    )
    meta = result.campaign.meta
    echo_posts(result.posts, meta.settings["format"], meta.settings["tables"])
    wanted = slug or slugify(meta.title) or meta.game
    if result.campaign.slug != wanted:
        note(
            f"{wanted!r} is taken: this campaign is {result.campaign.slug!r}"
            " (--slug chooses another; gm list shows them all)."
        )
    if not result.recorded:
        note(f"Preview of {result.campaign.slug!r}: nothing recorded.")
        return
    note(
        f"Campaign {result.campaign.slug!r} created and selected. Next: {result.campaign.game.next_step(result.campaign.state)}"
    )


@click.command(name="list")
@json_option
@pass_ctx
def list_(ctx: Ctx, as_json: bool) -> None:
    """The campaigns in the database, as a dashboard: * marks the current one.

    Each line: the campaign, its game, its phase, who is awaited and the
    time left before the deadline, and its title.

    \b
    Example:
      gm list
      gm list --json
    """
    from gm.service import campaigns

    rows = campaigns.dashboard(ctx.env)
    if as_json:
        echo_json(rows)
        return
    if not rows:
        note("No campaign yet. Create one with: gm new magot --title T --players a,b,c")
        return
    cells = []
    for row in rows:
        if "problem" in row:
            state, waiting, left = "unreadable", row["problem"], ""
        else:
            state = "finished" if row["finished"] else row["phase"]
            waiting = ("awaiting " + ", ".join(row["awaiting"])) if row["awaiting"] else "-"
            left = f"{row['time_left']} left" if row["time_left"] else "-"
            if left.startswith("overdue"):
                left = row["time_left"]
        cells.append(
            [
                "*" if row["current"] else " ",
                row["slug"],
                row["game"],
                state,
                waiting,
                left,
                row["title"],
            ]
        )
    widths = [max(len(c[i]) for c in cells) for i in range(len(cells[0]) - 1)]
    for line in cells:
        padded = [c.ljust(w) for c, w in zip(line[:-1], widths, strict=True)]
        click.echo(f"{padded[0]} " + "  ".join([*padded[1:], line[-1]]))


@click.command()
@click.argument("slug")
@pass_ctx
def use(ctx: Ctx, slug: str) -> None:
    """Make SLUG the current campaign.

    \b
    Example:
      gm use le-casse-du-siecle
    """
    from gm.service import campaigns

    info = campaigns.use(ctx.env, slug)
    note(f"Current campaign: {info.slug} ({info.game}) {info.title}")


@click.command()
@json_option
@pass_ctx
def status(ctx: Ctx, as_json: bool) -> None:
    """Where the game stands: phase, who is awaited, the deadline, the scores.

    --json prints the summary of the scenario contract (docs/scenarios.md),
    with the phase, the awaited players and the deadline added.

    \b
    Example:
      gm status
      gm status --json
    """
    from gm.service import campaigns

    data = campaigns.status(ctx.env, ctx.slug())
    if as_json:
        echo_json(data)
        return
    click.echo(f"{data['title']} [{data['campaign']}] — {data['game']}")
    click.echo(f"Phase: {data['phase']}{' (finished)' if data.get('finished') else ''}")
    if data["awaiting"]:
        click.echo(f"Awaiting: {', '.join(data['awaiting'])}")
    if data["deadline"]:
        click.echo(f"Deadline: {data['deadline']} ({data['time_left']})")
    if data.get("winners"):
        click.echo(f"Winners: {', '.join(data['winners'])}")
    players = data.get("players") or []
    if players and isinstance(players[0], dict):
        click.echo("")
        _table(players)
    click.echo("")
    click.echo(f"Next: {data['next']}")


def _table(rows: list[dict[str, object]]) -> None:
    """Print summary rows as aligned columns: names left, values right."""
    keys = list(rows[0])
    cells = [
        [str(r[k]).lower() if isinstance(r[k], bool) else str(r[k]) for k in keys] for r in rows
    ]
    widths = [max(len(k), *(len(c[i]) for c in cells)) for i, k in enumerate(keys)]
    click.echo(
        "  ".join(
            k.ljust(w) if i == 0 else k.rjust(w)
            for i, (k, w) in enumerate(zip(keys, widths, strict=True))
        )
    )
    for row in cells:
        click.echo(
            "  ".join(
                c.ljust(w) if i == 0 else c.rjust(w)
                for i, (c, w) in enumerate(zip(row, widths, strict=True))
            )
        )


@click.command(name="set")
@click.argument(
    "key",
    type=click.Choice(["format", "tables", "tz", "lang", "turn-deadline", "digest", "gender"]),
)
@click.argument("value")
@click.argument("gender", required=False, metavar="[GENDER]")
@pass_ctx
def set_(ctx: Ctx, key: str, value: str, gender: str | None) -> None:
    """Change a campaign setting: format, tables, tz, lang, turn-deadline, digest, or a gender.

    format is the forum: phpbb, forumactif, discourse, reddit, or a markup
    (markdown, bbcode with phpBB's tags only, html); it sets the tables
    too (tables goes back to auto). tables: auto (the format's choice),
    native ([table]), list or code. turn-deadline is the delay given each
    time a move passes the turn to another player (games played turn by
    turn): '+24h', or 'off'.

    gender PLAYER GENDER sets how posts agree with a player: m (« sonné »),
    f (« sonnée ») or n (none: wording that needs no agreement, « groggy »).
    Posts already published stay as they are.

    \b
    Example:
      gm set format phpbb        # or forumactif, discourse, reddit
      gm set tables code         # tables as a monospace block
      gm set tz America/Montreal
      gm set turn-deadline +24h
      gm set digest on           # one message per turn instead of 4-5
      gm set gender Élodie f
    """
    from gm.service import campaigns

    slug = ctx.slug()
    if key == "gender":
        if gender is None:
            raise click.UsageError("gm set gender takes a player and a gender: m, f or n")
        result = campaigns.set_gender(ctx.env, slug, value, gender)
        meta = result.campaign.meta
        seat = result.campaign.table.seat_named(value)
        player = meta.name(seat) if seat is not None else value
        shown = meta.genders.get(seat, "n") if seat is not None else "n"
        note(f"gender of {player} = {shown}" + ("" if result.recorded else " (unchanged)"))
        return
    if gender is not None:
        raise click.UsageError(f"gm set {key} takes one value, got {value!r} and {gender!r}")
    result = campaigns.change_setting(ctx.env, slug, key, value)
    settings = result.campaign.meta.settings
    also = f", tables = {settings['tables']}" if key == "format" else ""
    note(
        f"{key} = {settings[key] or 'off'}{also}"
        + ("" if result.recorded else " (unchanged)")
    )


@click.command()
@pass_ctx
def info(ctx: Ctx) -> None:
    """Where the database is, and what gm knows.

    \b
    Example:
      gm info
    """
    from gm import __version__, games
    from gm.service import campaigns
    from gm.store.db import display_url, resolve_url

    click.echo(f"gm {__version__}")
    click.echo(f"database: {display_url(resolve_url(ctx.db))}")
    listing = campaigns.listing(ctx.env)
    chosen = next((c["slug"] for c in listing if c["current"]), None)
    click.echo(f"campaigns: {len(listing)}")
    click.echo(f"current campaign of {ctx.env.mj}: {chosen or '(none)'}")
    click.echo(f"games: {', '.join(games.ids())}")
    click.echo(f"templates override: {ctx.templates or '(none)'}")


@click.command(name="games")
@json_option
def games_(as_json: bool) -> None:
    """List the games gm can run: options, steps, what they count in, posts.

    \b
    Example:
      gm games
    """
    from gm import games

    infos = games.all_info()
    rows: list[dict[str, Any]] = [
        {
            "id": g.id,
            "title": g.title,
            "players": [g.min_players, g.max_players],
            "options": {o.name: {"default": o.default, "help": o.help} for o in g.options},
            "steps": [s.name for s in g.steps],
            "counts": [c.name for c in g.coordinates],
            "posts": [k.name for k in g.post_kinds],
        }
        for g in infos
    ]
    if as_json:
        echo_json(rows)
        return
    for row, g in zip(rows, infos, strict=True):
        click.echo(f"{row['id']} — {row['title']} ({g.seats})")
        for name, opt in row["options"].items():
            click.echo(f"  --option {name}=…  {opt['help']} (default: {opt['default']})")
        click.echo(f"  steps: {', '.join('gm ' + s for s in row['steps'])}")
        if row["counts"]:
            # what 'gm post KIND WHERE' and 'gm history WHERE' take
            click.echo(f"  counts in: {'.'.join(row['counts'])}")
        click.echo(f"  posts: {', '.join(row['posts'])}")


@click.command(name="rules")
@click.argument("game")
def rules_(game: str) -> None:
    """Print the rules of GAME as gm applies them (English, with the rulings R-n).

    For the forum thread, 'gm post rules' prints them in French, for the
    current campaign's options.

    \b
    Example:
      gm rules magot
      gm post rules
    """
    from gm import games
    from gm.rulebook import rules_text

    click.echo(rules_text(games.info(game).id), nl=False)


def register(group: click.Group) -> None:
    for command in (rules_, new, list_, use, status, set_, info, games_):
        group.add_command(command)
