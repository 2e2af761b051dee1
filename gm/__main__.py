"""``python -m gm``: the same entry point as the ``gm`` console script."""

from gm.cli import main

main()
