"""Packaging glue that pyproject.toml cannot express: ship the top-level
``templates/`` folder inside the installed package as ``gm/templates``, the
documentation ``docs/`` as ``gm/docs`` (``gm rules``), the sources
of the players' checker page, ``tools/pyodide/``, as ``gm/tools`` (built by
``gm checker``, which runs gm's own Python in the browser), and the games' data files (Rattlesnake City's default board,
``gm/games/rattlesnake/board.toml``)."""

from setuptools import find_packages, setup

setup(
    packages=[*find_packages(include=["gm", "gm.*"]), "gm.templates", "gm.tools", "gm.docs"],
    package_dir={"gm.templates": "templates", "gm.tools": "tools", "gm.docs": "docs"},
    package_data={
        "gm.templates": ["**/*.j2", "**/*.md"],
        "gm.docs": ["*.md", "**/*.md", "**/*.toml"],
        "gm.store": ["migrations/*.ini", "migrations/*.mako"],
        "gm.tools": ["pyodide/*"],
        "gm.games.rattlesnake": ["*.toml"],
    },
)
