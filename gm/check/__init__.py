"""gm.check: the players' checker — the game re-decided from its published thread.

A player who has the forum thread, and gm installed from the public package
(no database, no campaign), checks the MJ: every post carries a proof block
(``gm.core.proof``) of the records since the previous post; the checker
re-hashes the chain from the first event, folds the records with the game's
own rules, decides every recorded command again, re-derives every draw once
the seed is revealed, renders every post again with gm's own templates and
compares it with the pasted text, line by line. Modules:

* ``reading``: the strict reader (Markdown, BBCode, HTML, a browser's text;
  hidden markup is a failure);
* ``thread``: the posts of the input, found by their proof blocks;
* ``chain``: the posts in order, the log they publish, re-hashed;
* ``compare``: a pasted post against gm's render of it;
* ``checker``: the replay and the report of each post;
* ``replies``: a player's private reply against the replayed log;
* ``report``: the report (French: players read it) and the exit codes;
* ``entry``: ``main``, the one entry both doors call (``gm check`` and the
  checker's web page, under Pyodide).

The package imports neither SQLAlchemy, SQLModel nor Click, and nothing of
the store but its record types (``tests/test_architecture.py``).
"""

from __future__ import annotations


def main(argv: list[str], stdin: str) -> tuple[int, str]:
    """Check the thread the arguments name: (exit code, report text).

    ``argv`` as on the command line (``FILE... [--reply FILE]... [--format
    F]``, ``-`` for ``stdin``). Exit codes: 0 all verified, 1 a mismatch or a
    failure, 2 unreadable input or usage, 3 nothing contradicted but
    something could not be verified.
    """
    from gm.check.entry import main as run

    return run(argv, stdin)


__all__ = ["main"]
