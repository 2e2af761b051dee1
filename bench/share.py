"""R-6 share solver benchmark: 200 bills of 4 denominations among 20 sharers.

Budget (issue #3): under 50 ms. The pots are drawn from a fixed seed (Python's
``random`` is fine here: this is a benchmark, not a game draw), for several
sets of 4 denominations, from the game's own to deliberately awkward ones;
each pot is solved several times and the median and worst times are printed.

    python bench/share.py [--pots 40] [--repeat 5]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

from gm.games.magot.share import split_pot

DENOMINATIONS = {
    "5k/10k/20k/50k": (5000, 10000, 20000, 50000),
    "1k/5k/10k/100k": (1000, 5000, 10000, 100000),
    "2k/3k/7k/11k": (2000, 3000, 7000, 11000),
    "19k/21k/23k/25k": (19000, 21000, 23000, 25000),
    # awkward sets: coprime, near-equal, a large gcd, far apart
    "7k/11k/13k/17k": (7000, 11000, 13000, 17000),
    "3k/5k/7k/9k": (3000, 5000, 7000, 9000),
    "10k/15k/21k/35k": (10000, 15000, 21000, 35000),
    "11k/13k/15k/17k": (11000, 13000, 15000, 17000),
    "29k/31k/37k/41k": (29000, 31000, 37000, 41000),
    "97k/98k/99k/100k": (97000, 98000, 99000, 100000),
    "12k/18k/30k/42k": (12000, 18000, 30000, 42000),
    "2k/3k/97k/101k": (2000, 3000, 97000, 101000),
    "5k/7k/101k/103k": (5000, 7000, 101000, 103000),
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pots", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    rng = random.Random(2026)
    ok = True
    for label, values in DENOMINATIONS.items():
        times = []
        for _ in range(args.pots):
            pot = [rng.choice(values) for _ in range(200)]
            for _ in range(args.repeat):
                start = time.perf_counter()
                split = split_pot(pot, 20)
                times.append(time.perf_counter() - start)
            assert sum(map(sum, split.parts)) + sum(split.carry) == sum(pot)
        median, worst = statistics.median(times), max(times)
        ok &= median < 0.050
        print(
            f"{label:<16} median {median * 1000:7.2f} ms  worst {worst * 1000:7.2f} ms"
            f"  ({len(times)} solves)"
        )
    print("median under 50 ms for every set" if ok else "BUDGET EXCEEDED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
