"""``gm play``: run a whole game written down in a scenario file.

The format is a contract (``docs/scenarios.md``). Every order goes through
the same path as ``gm order`` and every step through the same path as the
MJ's commands, so a scenario is an end-to-end test of the real thing. An
input the rules refuse stops the play with that error, prefixed with where
it happened in the file.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from gm import games
from gm.core.gender import split_player
from gm.core.names import nfc, slugify
from gm.core.protocol import ScenarioStep, Table
from gm.core.scenarios import COMMON_KEYS
from gm.errors import GMError, InputError
from gm.reader import SCENARIO, load_toml, read_text
from gm.service import actions, campaigns
from gm.service.actions import Post
from gm.service.env import Env
from gm.service.loading import Campaign


@dataclass(frozen=True)
class Played:
    campaign: Campaign
    posts: tuple[Post, ...]


def read(path: Path) -> dict[str, Any]:
    """Parse a scenario file.

    :raises NotFoundError: the file does not exist.
    :raises InputError: it is not a regular file, too large (``gm.reader``), not
        UTF-8, not valid TOML, nested too deeply, or a common key is wrong.
    """
    text = read_text(path, SCENARIO)
    document = load_toml(
        text,
        SCENARIO,
        path.name,
        lambda err: InputError(f"{path.name}: not valid TOML: {err}", code="scenario/syntax"),
    )
    for key, kind in (("game", str), ("title", str), ("seed", str)):
        if key in document and not isinstance(document[key], kind):
            raise InputError(f"{path.name}: '{key}' must be a string", code="scenario/invalid")
    if "game" not in document:
        raise InputError(
            f"{path.name}: missing 'game' (one of: {', '.join(games.ids())})",
            code="scenario/invalid",
        )
    players = document.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise InputError(f"{path.name}: 'players' must be a list of names", code="scenario/invalid")
    for key in ("options", "settings", "words"):
        if key in document and not isinstance(document[key], Mapping):
            raise InputError(f"{path.name}: '[{key}]' must be a table", code="scenario/invalid")
    words = document.get("words", {})
    if not all(isinstance(w, str) for w in words.values()):
        raise InputError(
            f"{path.name}: 'words' must be a table of player = \"word\"", code="scenario/invalid"
        )
    return document


def play(env: Env, path: Path) -> Played:
    """Create a campaign from the file and play every input in it."""
    document = read(path)
    game = games.load(document["game"])
    specific = {k: v for k, v in document.items() if k not in COMMON_KEYS}
    # the file's names are the seats to be: « Calamity Jane : Tir » is read against them
    seats = [nfc(split_player(raw)[0]) for raw in document["players"]]
    steps = game.scenario(specific, Table.of(seats))
    title = document.get("title") or path.stem
    created = campaigns.create(
        env,
        game.id,
        title,
        document["players"],
        options=_with_files(game.options, document.get("options", {}), path.parent),
        seed=document.get("seed"),
        slug=slugify(title) or game.id,
        settings={k: str(v) for k, v in document.get("settings", {}).items()},
        fresh_slug=True,
    )
    campaign = created.campaign
    posts = list(created.posts)
    words = [
        ScenarioStep("words", actor=player, text=f"graine : {word}")
        for player, word in document.get("words", {}).items()
    ]
    for item in (*words, *steps):
        if item.when is not None and not item.when(campaign.state):
            continue
        if item.actor_of is not None:
            item = replace(item, actor=campaign.meta.name(item.actor_of(campaign.state)))
        result = _feed(env, campaign.slug, item)
        campaign = result.campaign
        posts.extend(result.posts)
    return Played(campaign, tuple(posts))


def play_and_keep(env: Env, path: Path) -> Played:
    """``gm play --keep``: play the file, and store the campaign in ``env``'s
    database (under its next free slug, made current) only if every input
    of the file played: all or nothing.

    The game is played in a throw-away database first; its rows are then
    copied verbatim into ``env``'s in one transaction (the slug is in no
    hash), so a scenario that fails half-way, or a kill at any moment,
    leaves the MJ's database as it was.
    """
    import tempfile
    from dataclasses import replace as changed

    from gm.service.campaigns import current_key
    from gm.service.loading import load
    from gm.store.transfer import read_copy, restore

    with tempfile.TemporaryDirectory(prefix="gm-keep-") as folder:
        rehearsal = changed(env, db=str(Path(folder) / "keep.db"), durable=False, snapshots=False)
        try:
            played = play(rehearsal, path)
            copy = read_copy(rehearsal.store, played.campaign.slug)
        finally:
            store = rehearsal.__dict__.get("store")
            if store is not None:
                store.close()
    with env.store.write() as w:
        slug = w.free_slug(copy.campaign.slug)
        restore(w, copy, slug)
        w.set_setting(current_key(env), slug)
    return Played(load(env, slug), played.posts)


def _with_files(specs: Any, options: Mapping[str, Any], folder: Path) -> dict[str, Any]:
    """The options, with a relative file an option names (``OptionSpec.file``)
    taken from the scenario's own folder rather than the working directory."""
    out = dict(options)
    for spec in specs:
        value = out.get(spec.name)
        if spec.file and isinstance(value, str) and value and not Path(value).is_absolute():
            out[spec.name] = str(folder / value)
    return out


def _feed(env: Env, slug: str, item: ScenarioStep) -> actions.Result:
    try:
        if item.step is not None:
            return actions.step(env, slug, item.step, item.values)
        return actions.submit(
            env, slug, item.actor, item.text or "", source=f"scenario: {item.where}"
        )
    except GMError as err:
        who = f", {item.actor}" if item.step is None else f", gm {item.step}"
        if item.step is not None and isinstance(item.values.get("player"), str):
            who += f" {item.values['player']}"  # gm fold marco
        err.message = f"{item.where}{who}: {err.message}"
        err.args = (err.message,)
        raise
