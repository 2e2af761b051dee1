"""Packaging glue that pyproject.toml cannot express: ship the sources of the
players' checker page, ``tools/pyodide/``, inside the installed package as
``gm/tools`` (built by ``gm checker``, which runs gm's own Python in the
browser), and the package data: the platform's templates
(``gm/render/templates``) and, for every game under ``gm/games/``, what its
package holds besides code: its templates, its rules page and its data files
(``templates/<lang>/*.md.j2``, ``rules.md``, Rattlesnake City's ``board.toml``)."""

from setuptools import find_packages, setup

PACKAGES = find_packages(include=["gm", "gm.*"])
GAME_DATA = ["rules.md", "templates/**/*.j2", "*.toml"]
"""A game package's files that are not Python (docs/architecture.md, « Adding a game »)."""
GAMES = [p for p in PACKAGES if p.startswith("gm.games.") and p.count(".") == 2]

setup(
    packages=[*PACKAGES, "gm.tools"],
    package_dir={"gm.tools": "tools"},
    package_data={
        "gm.render": ["templates/**/*.j2"],
        **dict.fromkeys(GAMES, GAME_DATA),
        "gm.store": ["migrations/*.ini", "migrations/*.mako"],
        "gm.tools": ["pyodide/*"],
    },
)
