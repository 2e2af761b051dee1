"""How many forum messages a game takes, with and without digest mode.

Plays seeded legal games with the command line (``gm order`` for each
player's message, the MJ's steps), once as they are and once after ``gm set
digest on``, in throw-away SQLite files, and counts the commands that print
something on standard output: each is one message the MJ pastes (the posts
held at the end are one more, ``gm post --held``). The posts archived are
the same either way. Run:

    python bench/digest.py [--players 4]

Measured on the 2-CPU machine (2026-12-03, four players, seeded games):

    game           posts  messages  with digest
    rattlesnake      438       384          215
    colt             108        97           21

Only the games that gather posts are played: Le Magot and Fistful of Gold
declare no ``PostKind.gathered`` (each of their posts is one a player
answers), so digest mode prints theirs as it always did.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
from pathlib import Path

from click.testing import CliRunner

NAMES = ["ana", "bob", "cyd", "dan", "eve", "fay"]


def play(db: str, game_id: str, players: list[str], digest: bool) -> tuple[int, int]:
    """(posts archived, messages printed) for one seeded game."""
    from gm import games
    from gm.cli import cli
    from gm.service import actions
    from gm.service.env import Env

    runner = CliRunner()

    def gm(*args: str) -> str:
        done = runner.invoke(cli, ["--db", db, *args])
        if done.exit_code != 0:
            raise SystemExit(f"gm {' '.join(args)}: {done.output}")
        return done.stdout

    rng = random.Random(f"digest/{game_id}")
    gm("new", game_id, "-t", "Digest", "-p", ",".join(players), "--seed", "s")
    if digest:
        gm("set", "digest", "on")
    env = Env(db=db)
    game = games.load(game_id)
    messages = 0
    for _ in range(3000):
        campaign = actions.load(env, "digest")
        if game.is_over(campaign.state):
            break
        inputs = [
            i
            for i in game.legal_inputs(campaign.state, campaign.table)
            if i.step is None or not i.values
        ]
        said = [i for i in inputs if i.step is None]
        item = rng.choice(said or inputs)
        out = gm("order", item.actor, item.text or "") if item.step is None else gm(item.step)
        messages += bool(out.strip())
    messages += bool(gm("post", "--held").strip())
    return len(env.store.posts("digest")), messages


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args(argv)
    from gm import games

    print(f"{'game':<14}{'posts':>6}{'messages':>10}{'with digest':>13}")
    gathering = [i.id for i in games.all_info() if any(k.gathered for k in i.post_kinds)]
    for game_id in gathering:
        info = games.info(game_id)
        count = max(info.min_players, min(args.players, info.max_players))
        players = NAMES[:count]
        with tempfile.TemporaryDirectory() as tmp:
            posts, plain = play(str(Path(tmp) / "plain.db"), game_id, players, False)
            _, digested = play(str(Path(tmp) / "digest.db"), game_id, players, True)
        print(f"{game_id:<14}{posts:>6}{plain:>10}{digested:>13}")


if __name__ == "__main__":
    main(sys.argv[1:])
