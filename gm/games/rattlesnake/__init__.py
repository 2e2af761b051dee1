"""Rattlesnake City: saloon owners rebuild a ruined valley, town by town.

A pure rules package (``docs/rules/rattlesnake.md``). So far it holds the
foundations the engine is written against: ``board`` (the valley as data,
R-1, R-2, R-11: loading and checking a board file, cell names, distances,
rail networks), ``tiles`` (the tiles, the bag of R-3, where each may go:
R-6, R-13), ``cards`` (the action and shot cards of R-3) and ``income``
(who each building pays, the income track, every legal place of a tile with
the income it would give: R-4, R-5, R-14). The default board is the package
file ``board.toml``. The game is not registered yet: nothing here is
imported by ``gm --help``.
"""
