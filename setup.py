"""Packaging glue that pyproject.toml cannot express: ship the top-level
``templates/`` folder inside the installed package as ``gm/templates``, the
documentation ``docs/`` as ``gm/docs`` (``gm rules``), the players'
stand-alone checker ``tools/gm_check.py`` as ``gm/tools`` (run by ``gm
check-post``) with the sources of its web page ``tools/checker/`` (built by
``gm checker``) and of the page that runs gm's Python, ``tools/pyodide/``
(``gm checker --python``), and the games' data files (Rattlesnake City's default board,
``gm/games/rattlesnake/board.toml``)."""

from setuptools import find_packages, setup

setup(
    packages=[*find_packages(include=["gm", "gm.*"]), "gm.templates", "gm.tools", "gm.docs"],
    package_dir={"gm.templates": "templates", "gm.tools": "tools", "gm.docs": "docs"},
    package_data={
        "gm.templates": ["**/*.j2", "**/*.md"],
        "gm.docs": ["*.md", "**/*.md", "**/*.toml"],
        "gm.store": ["migrations/*.ini", "migrations/*.mako"],
        "gm.tools": ["checker/*", "pyodide/*"],
        "gm.games.rattlesnake": ["*.toml"],
    },
)
