"""What the platform's tests share besides fixtures (see ``conftest.py``), in a
module of its own name: ``from conftest import`` would find whichever
conftest another folder's tests loaded first."""

from __future__ import annotations

from click.testing import CliRunner, Result


class Gm:
    """Run ``gm`` in-process and keep the results."""

    def __init__(self) -> None:
        self.runner = CliRunner()

    def __call__(self, *args: str, code: int = 0) -> Result:
        from gm.cli import cli

        result = self.runner.invoke(cli, list(args))
        assert result.exit_code == code, (result.output, result.exception)
        return result
