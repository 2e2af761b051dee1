"""gm: a command-line assistant for the game master of Western games played by forum.

Importing ``gm`` has no side effects and imports nothing heavy: the command
line must start fast.
"""

__version__ = "0.4.1"
