"""Creating, listing, selecting and inspecting campaigns.

A campaign's configuration lives in its first events (``CampaignCreated``,
``FortuneSealed``); the campaigns table only indexes slugs for lookups. The
current campaign is a setting of the database, so every terminal of the MJ
agrees on it.
"""

from __future__ import annotations

import re
import secrets
import unicodedata
from collections.abc import Mapping, Sequence
from itertools import count
from typing import TYPE_CHECKING, Any

from gm import games
from gm.core import fortune
from gm.core import gender as genders
from gm.core.campaign import (
    DEFAULT_SETTINGS,
    PROTOCOL,
    SETTINGS,
    CampaignCreated,
    FortuneSealed,
    GenderSet,
    SettingChanged,
)
from gm.core.names import MAX_SLUG, check_name, nfc, numbered_slug, slugify
from gm.core.protocol import GM, PostRef
from gm.errors import CampaignError, GMError, InputError, NotFoundError, quote_choices, quoted
from gm.reader import BOARD, MAX_DEPTH, read_text, toml_depth
from gm.service import clock
from gm.service.env import Env
from gm.service.loading import Campaign, extend, fold, load, load_all

if TYPE_CHECKING:
    from gm.service.actions import Result
    from gm.store.records import CampaignInfo

CURRENT = "current-campaign"
"""The settings key of an MJ's current campaign is ``current-campaign:<login>``;
the bare key is what gm wrote before each MJ had their own (still read)."""


def current_key(env: Env) -> str:
    return f"{CURRENT}:{env.mj}"


def current_slug(env: Env) -> str | None:
    """The slug ``gm use`` last chose for this MJ, if any."""
    return env.store.get_setting(current_key(env)) or env.store.get_setting(CURRENT)


MAX_TITLE = 200
_SLUG = re.compile(rf"^[a-z0-9][a-z0-9-]{{0,{MAX_SLUG - 1}}}$")


def check_players(game_id: str, names: Sequence[str]) -> tuple[str, ...]:
    """Normalise and validate the seated players: the platform's one rule for
    names (``gm.core.names.check_name``), then the game's seat count.

    :raises InputError: a name that breaks the rule, two names that collide
        once case and accents are ignored, a wrong count.
    """
    game = games.load(game_id)
    players: list[str] = []
    for name in names:
        players.append(check_name(name, players, code="campaign/players"))
    if not game.min_players <= len(players) <= game.max_players:
        raise InputError(
            f"{game.title} needs {games.info(game_id).seats}, got {len(players)}",
            code="campaign/players",
        )
    return tuple(players)


def check_settings(settings: Mapping[str, str]) -> dict[str, str]:
    out = {}
    for key, value in settings.items():
        if key == "tz":
            clock.zone(value)
        elif key == "turn-deadline":
            value = "" if value.strip().lower() in ("off", "") else clock.check_delay(value)
        elif key not in SETTINGS:
            valid = quote_choices(sorted([*SETTINGS, "tz", "turn-deadline"]))
            raise InputError(f"unknown setting {key!r} (settings: {valid})", code="input/setting")
        elif value not in SETTINGS[key]:
            raise InputError(
                f"{key} cannot be {value!r} (valid: {quote_choices(SETTINGS[key])})",
                code="input/setting",
            )
        out[key] = value
    return out


MAX_SEED = 200
_SEED = re.compile(r"^[\w'.-]+(?: [\w'.-]+)*$")


def check_seed(seed: str) -> str:
    """The MJ's seed for the fortune, normalised: letters, digits, ``' . - _``
    and single inner spaces, so that the final post prints the exact text to
    check in every forum format (nothing in it is read as markup).

    :raises InputError: ``campaign/seed``, saying what is allowed.
    """
    clean = nfc(seed)
    if not (0 < len(clean) <= MAX_SEED and _SEED.match(clean)) or any(
        unicodedata.category(c) in ("Cf", "Cc", "Co", "Cn") for c in clean
    ):
        raise InputError(
            f"the seed {seed[:30]!r} must be 1 to {MAX_SEED} letters or digits (' . - _ and"
            " single spaces allowed inside), e.g. 'la-graine-secrète'",
            code="campaign/seed",
        )
    return clean


def read_option_file(option: str, value: str) -> str:
    """The text of the file ``value`` names for ``option`` (``gm.reader``:
    a regular file, at most ``BOARD.limit`` bytes, UTF-8, not empty).

    :raises NotFoundError: ``campaign/option-file``: no such file.
    :raises InputError: ``campaign/option-file``: it cannot be read, is too
        large, not UTF-8 or empty.
    """
    params = {"option": option, "path": value}
    try:
        text = read_text(value, BOARD)
    except GMError as err:  # the reader's message, under the option's code
        raise type(err)(
            f"the file for the option {option}: {err.message}",
            code="campaign/option-file",
            params=params,
        ) from None
    if not text.strip():
        raise InputError(
            f"the file {quoted(value, 200)} for the option {option} is empty;"
            " give a file with the option's content",
            code="campaign/option-file",
            params=params,
        )
    # An option file is TOML (Rattlesnake City's board): its depth is bounded
    # here, before the game's parser, which recurses on it, ever sees it.
    if toml_depth(text) > MAX_DEPTH:
        raise InputError(
            f"the file {quoted(value, 200)} for the option {option} nests too deeply: gm reads"
            f" files nested at most {MAX_DEPTH} levels (arrays, tables, dotted keys)",
            code="campaign/option-file",
            params=params,
        )
    return text


def read_file_options(specs: Sequence[Any], options: Mapping[str, Any]) -> dict[str, Any]:
    """The options, each one naming a file (``OptionSpec.file``) replaced by
    the file's text: games never read the disk, and the campaign keeps what
    the game takes from the text, so a replay never reads it again. A
    relative path is read from the working directory (``gm play`` makes it
    relative to the scenario file first)."""
    out = dict(options)
    for spec in specs:
        value = out.get(spec.name)
        if not spec.file or not isinstance(value, str) or not value:
            continue
        out[spec.name] = read_option_file(spec.name, value)
    return out


def create(
    env: Env,
    game_id: str,
    title: str,
    players: Sequence[str],
    options: Mapping[str, Any] | None = None,
    seed: str | None = None,
    slug: str | None = None,
    settings: Mapping[str, str] | None = None,
    fresh_slug: bool = False,
    preview: bool = False,
) -> Result:
    """Create a campaign, make it current, and render its opening post.

    ``preview`` checks everything and renders the opening post from the
    would-be log, writing nothing (its fingerprint is that of the preview).
    """
    # Imported here: gm status and gm list need none of the writing path.
    from gm.service.actions import Post, Result
    from gm.service.deciding import to_record, would_be
    from gm.service.posts import publish, render_public

    game = games.load(game_id)
    named = [genders.split_player(raw) for raw in players]
    title = nfc(title)
    if not title or len(title) > MAX_TITLE:
        raise InputError(f"a title needs 1 to {MAX_TITLE} characters", code="campaign/title")
    seated = check_players(game.id, [name for name, _ in named])
    configured = game.configure(seated, read_file_options(game.options, options or {}))
    checked = check_settings(settings or {})
    slug = slug if slug is not None else (slugify(title) or game.id)
    if not _SLUG.match(slug):
        raise InputError(
            f"invalid campaign slug {slug!r}: use lowercase letters, digits and dashes",
            code="campaign/slug",
        )
    seed = check_seed(seed) if seed is not None else secrets.token_hex(16)
    created = CampaignCreated(
        game=game.id,
        title=title,
        players=seated,
        seats=seated,  # a seat is its player's name at the creation, for good
        options=configured,
        commitment=fortune.commitment(seed),
        settings=checked,
        protocol=PROTOCOL,
    )
    opening = [to_record(created, GM), to_record(FortuneSealed(seed), GM)]
    # Genders come right after the creation, before the opening post renders.
    opening += [
        to_record(GenderSet(player, given), GM)
        for player, (_, given) in zip(seated, named, strict=True)
        if given
    ]
    ref = PostRef("opening")
    if preview:
        taken = {c.slug for c in env.store.campaigns()}
        if fresh_slug:
            slug = next(s for n in count(1) if (s := numbered_slug(slug, n)) not in taken)
        if slug in taken:
            raise CampaignError(
                f"campaign {slug!r} already exists; choose another --slug", code="campaign/exists"
            )
        campaign = fold(slug, game.id, would_be(None, opening, env))
        body = render_public(campaign, ref, campaign.head, env.templates)
        return Result(campaign, (), (Post(ref, body),), recorded=False)
    with env.store.write() as w:
        # The next free slug is chosen under the write lock: MJs who create
        # campaigns of one title at once each get their own.
        if fresh_slug:
            slug = w.free_slug(slug)
        w.create_campaign(slug, game.id, title)
        stored = w.append(slug, opening, 0)
        campaign = fold(slug, game.id, stored)
        body = render_public(campaign, ref, campaign.head, env.templates)
        campaign, rows = publish(w, campaign, [(ref, body)], env.templates, batch=1)
        w.set_setting(current_key(env), slug)
    return Result(campaign, tuple(stored), (Post(ref, rows[0].body, rows[0].number),))


def current(env: Env, given: str | None) -> str:
    """The campaign a command applies to: ``given`` (``-c``/``GM_CAMPAIGN``), else the current one.

    :raises NotFoundError: when neither exists, saying how to choose one.
    """
    if given:
        return env.store.campaign(given).slug
    slug = current_slug(env)
    if slug is None:
        raise NotFoundError(
            "no current campaign: create one with 'gm new', or choose one with 'gm use SLUG'",
            code="campaign/none",
        )
    return env.store.campaign(slug).slug


def use(env: Env, slug: str) -> CampaignInfo:
    info = env.store.campaign(slug)
    with env.store.write() as w:
        w.set_setting(current_key(env), info.slug)
    return info


def listing(env: Env) -> list[dict[str, Any]]:
    chosen = current_slug(env)
    return [_listed(info, chosen) for info in env.store.campaigns()]


def _listed(info: CampaignInfo, chosen: str | None) -> dict[str, Any]:
    """A campaign's row of ``gm list`` (``chosen``: the current campaign's slug)."""
    return {
        "slug": info.slug,
        "game": info.game,
        "title": info.title,
        "created_at": info.created_at,
        "current": info.slug == chosen,
    }


def status(env: Env, slug: str) -> dict[str, Any]:
    """The JSON summary of ``docs/scenarios.md`` plus where the game stands."""
    return _status(env, load(env, slug))


def _status(env: Env, campaign: Campaign) -> dict[str, Any]:
    game = campaign.game
    summary = game.summary(campaign.state, campaign.table)
    name = campaign.meta.name
    at = campaign.deadline()
    now = env.now()
    return {
        "game": summary.pop("game", game.id),
        "campaign": campaign.slug,
        **summary,
        "title": campaign.meta.title,
        "phase": game.phase(campaign.state),
        "awaiting": [name(s) for s in game.waiting_for(campaign.state)],
        "expected": [
            {"player": name(a.player), "how": a.how, "what": a.what}
            for a in game.awaiting(campaign.state)
        ],
        "deadline": at.isoformat() if at else None,
        "time_left": clock.time_left(at, now) if at else None,
        "next": campaign.table.relabel(game.next_step(campaign.state)),
        "events": campaign.seq,
    }


def dashboard(env: Env) -> list[dict[str, Any]]:
    """Every campaign with where it stands, for ``gm list``: the listing's
    rows plus the phase, who is awaited, the deadline and the time left (and
    ``over``). A campaign whose log cannot be read says so in ``problem``
    instead of hiding the others."""
    rows = []
    chosen = current_slug(env)
    for info, campaign in load_all(env):
        row = _listed(info, chosen)
        try:
            if isinstance(campaign, GMError):
                raise campaign
            data = _status(env, campaign)
        except GMError as err:
            rows.append({**row, "problem": f"{err.message} [{err.code}]"})
            continue
        campaign_over = bool(data.get("finished"))
        rows.append(
            {
                **row,
                "phase": data["phase"],
                "finished": campaign_over,
                "awaiting": data["awaiting"],
                "deadline": data["deadline"],
                "time_left": data["time_left"],
            }
        )
    return rows


def change_setting(env: Env, slug: str, key: str, value: str) -> Result:
    from gm.service.actions import Result
    from gm.service.deciding import to_record

    checked = check_settings({key: value})
    with env.store.write(slug) as w:
        info = env.store.campaign(slug)
        campaign = fold(info.slug, info.game, w.events(info.slug))
        changes = {key: checked[key]}
        if key == "format":  # a forum preset sets the tables too
            changes["tables"] = "auto"
        changes = {k: v for k, v in changes.items() if campaign.meta.settings.get(k) != v}
        if not changes:
            return Result(campaign, recorded=False)
        events = [to_record(SettingChanged(k, v), GM) for k, v in changes.items()]
        stored = w.append(info.slug, events, campaign.seq)
    return Result(extend(campaign, stored), tuple(stored))


def set_gender(env: Env, slug: str, player: str, value: str) -> Result:
    """Record ``player``'s grammatical gender (``m``, ``f``, or ``n``: none).

    Posts rendered from then on agree with it; posts already published stay
    as they were. Nothing is recorded when it is already so.

    :raises InputError: an unknown gender spelling.
    :raises NotFoundError: no such player at the table.
    """
    from gm.service.actions import Result
    from gm.service.deciding import by_seat, to_record

    wanted = genders.parse(value)
    with env.store.write(slug) as w:
        info = env.store.campaign(slug)
        campaign = fold(info.slug, info.game, w.events(info.slug))
        seated = campaign.table.seat_named(player)
        if seated is None:
            raise NotFoundError(
                f"no player named {player!r} in {info.slug!r} (players:"
                f" {quote_choices(campaign.meta.players)})",
                code="campaign/no-player",
            )
        if campaign.meta.genders.get(seated, genders.NEUTRAL) == wanted:
            return Result(campaign, recorded=False)
        records = by_seat(campaign, [to_record(GenderSet(seated, wanted), GM)])
        stored = w.append(info.slug, records, campaign.seq)
    return Result(extend(campaign, stored), tuple(stored))


def settings_of(env: Env, slug: str) -> dict[str, str]:
    return dict(load(env, slug).meta.settings)


__all__ = [
    "DEFAULT_SETTINGS",
    "change_setting",
    "create",
    "current",
    "dashboard",
    "listing",
    "status",
    "use",
]
