"""Packaging glue that pyproject.toml cannot express: ship the top-level
``templates/`` folder inside the installed package as ``gm/templates``, and
the players' stand-alone checker ``tools/gm_check.py`` as ``gm/tools`` (run
by ``gm check-post``)."""

from setuptools import find_packages, setup

setup(
    packages=[*find_packages(include=["gm", "gm.*"]), "gm.templates", "gm.tools"],
    package_dir={"gm.templates": "templates", "gm.tools": "tools"},
    package_data={
        "gm.templates": ["**/*.j2", "**/*.md"],
        "gm.store": ["migrations/*.ini", "migrations/*.mako"],
    },
)
