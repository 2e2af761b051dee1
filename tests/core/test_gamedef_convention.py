"""``GameDef.from_modules``: a game's definition from the standard names of
its standard modules, the game module first, keyword arguments last."""

from __future__ import annotations

import dataclasses
import types

import pytest

from gm.core.protocol import GIVEN_ONLY, GameDef
from gm.games.magot import commands, events, game, notation, rules, views


def magot(namespace: dict[str, object] | None = None, **overrides: object) -> GameDef:
    own = dict(vars(game)) if namespace is None else namespace
    return GameDef.from_modules(
        game.INFO,
        own,
        rules=rules,
        notation=notation,
        views=views,
        events=events,
        commands=commands,
        **overrides,
    )


def test_the_convention_gives_the_games_own_definition() -> None:
    built = magot()
    for spec in dataclasses.fields(GameDef):
        assert getattr(built, spec.name) == getattr(game.GAME, spec.name), spec.name


def test_the_game_module_comes_first_and_keywords_last() -> None:
    # game.parse wraps notation.parse (which returns one command, not a tuple)
    assert magot().parse is game.parse and game.parse is not notation.parse
    assert magot().phase is rules.phase_key  # its conventional name in rules
    assert magot(parse=notation.parse).parse is notation.parse


def test_a_missing_field_or_an_unknown_keyword_is_refused() -> None:
    own = {k: v for k, v in vars(game).items() if k != "awaiting"}
    with pytest.raises(TypeError, match=r"^magot: no awaiting in its game module$"):
        magot(own)
    partial = types.ModuleType("views")
    partial.public_view = views.public_view  # type: ignore[attr-defined]
    partial.player_view = views.player_view  # type: ignore[attr-defined]
    with pytest.raises(TypeError, match=r"^magot: no summary in its game module or its views"):
        GameDef.from_modules(
            game.INFO,
            vars(game),
            rules=rules,
            notation=notation,
            views=partial,
            events=events,
            commands=commands,
        )
    with pytest.raises(TypeError, match=r"^magot: a GameDef has no field 'speed'$"):
        magot(speed=1)


def test_optional_fields_keep_their_defaults_and_some_are_only_given() -> None:
    own = dict(vars(game)) | {"picture": len, "filters": {"x": len}}
    built = magot(own)
    assert built.picture is None and dict(built.filters) == {}  # never looked up
    assert {"filters", "picture"} == GIVEN_ONLY
    assert magot(unread=None).unread is None
