"""Install the test game « toss » (its own distribution, ``tests/games_dist/toss``)
and give every test a fresh database."""

from __future__ import annotations

from collections.abc import Iterator

import click
import pytest
from game_dists import installed
from platform_support import Gm


@pytest.fixture
def toss(monkeypatch: pytest.MonkeyPatch, db: str) -> Iterator[None]:
    from gm import games
    from gm.cli import cli, steps

    with installed("toss"):
        assert "toss" in games.ids()  # found through its entry point
        # gm.cli made its commands when it was imported, before the game was
        # installed: add toss's steps, as gm makes them when it is installed first.
        added = [c for c in steps.build_commands() if c.name not in cli.commands]
        for command in added:
            cli.add_command(command)
        # The order command merges every game's explicit fields when gm.cli is
        # imported: add toss's field.
        order = cli.commands["order"]
        side = click.Option(["--side", "side"], default=None, help="pile or face")
        order.params.append(side)
        monkeypatch.setenv("GM_DB", db)
        yield
        for command in added:
            cli.commands.pop(command.name or "", None)
        order.params.remove(side)


@pytest.fixture
def gm(toss: None, frozen_clock: object) -> Gm:
    return Gm()
