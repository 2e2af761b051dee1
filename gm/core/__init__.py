"""The game-agnostic, pure core: the game protocol, the event codec, canonical
hashing and the fortune (the campaign's random stream).

Nothing here touches a database, a clock, a template or the global ``random``;
``tests/test_architecture.py`` holds it to that.
"""
