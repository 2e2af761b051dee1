"""Register the test game « toss » and give every test a fresh database."""

from __future__ import annotations

from collections.abc import Iterator

import click
import pytest
from platform_support import HERE, Gm


@pytest.fixture
def toss(monkeypatch: pytest.MonkeyPatch, db: str) -> Iterator[None]:
    from gm import games
    from gm.cli import cli, steps

    monkeypatch.syspath_prepend(str(HERE))
    monkeypatch.setitem(games._BUILTIN, "toss", "toss")
    added = [c for c in steps.build_commands() if c.name not in cli.commands]
    for command in added:
        cli.add_command(command)
    # The order command merges every game's explicit fields when gm.cli is
    # imported, before this test game was registered: add toss's field.
    order = cli.commands["order"]
    side = click.Option(["--side", "side"], default=None, help="pile or face")
    order.params.append(side)
    monkeypatch.setenv("GM_DB", db)
    monkeypatch.setenv("GM_TEMPLATES", str(HERE / "templates"))
    yield
    for command in added:
        cli.commands.pop(command.name or "", None)
    order.params.remove(side)


@pytest.fixture
def gm(toss: None, frozen_clock: object) -> Gm:
    return Gm()
