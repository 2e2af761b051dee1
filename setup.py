"""Packaging glue that pyproject.toml cannot express: ship the top-level
``templates/`` folder inside the installed package as ``gm/templates``."""

from setuptools import find_packages, setup

setup(
    packages=[*find_packages(include=["gm", "gm.*"]), "gm.templates"],
    package_dir={"gm.templates": "templates"},
    package_data={
        "gm.templates": ["**/*.j2", "**/*.md"],
        "gm.store": ["migrations/*.ini", "migrations/*.mako"],
    },
)
