"""Pair the games of several saved runs by opening and seats (run by hand, not a test).

    python tests/benchmarks/paired_pool.py BASE_DIR... -- CAND_DIR... [--engine N]

``gamesuite compare`` pairs two runs of one schedule by game number. A
baseline often comes in pieces (``--first-opening 33 --games 64`` and
``--first-opening 65 --games 72``) while a candidate is one run over the same
openings (``--first-opening 33 --games 136``), or the other way round: this
script pools the records of each side and pairs the games that start from the
same opening with the same engine in each seat (the records' ``start``, their
first ``match.opening_plies`` moves, and ``match.engine_index``: openings of
moves from one start position differ only in those moves). It prints the number of pairs (and how many are the
same game move for move), each side's mean score, the mean paired difference
in points with its 95% interval (normal, from the pairs' spread, as
``compare`` does), the games the candidate did better and worse in, and the
exact two-sided sign test.
"""

from __future__ import annotations

import glob
import json
import math
import sys
from math import comb


def load(dirs: list[str], engine: int) -> dict[tuple, tuple[float, list[str]]]:
    """Each game of ``dirs`` by (opening, seats): engine ``engine``'s score (1, 1/2, 0) and the moves."""
    out: dict[tuple, tuple[float, list[str]]] = {}
    for d in dirs:
        for f in glob.glob(f"{d}/game-*.json"):
            with open(f, encoding="utf-8") as fh:
                x = json.load(fh)
            seats = x["match"]["engine_index"]
            seat = seats.index(engine)
            book = tuple(m["move"] for m in x["moves"][:x["match"].get("opening_plies", 0)])
            key = (x["start"], book, tuple(seats))
            out[key] = ((x["result"]["returns"][seat] + 1) / 2, [m["move"] for m in x["moves"]])
    return out


def main() -> None:
    args = sys.argv[1:]
    engine = 1
    if "--engine" in args:
        j = args.index("--engine")
        engine = int(args[j + 1])
        del args[j:j + 2]
    if "--" not in args or args.index("--") == 0 or args.index("--") == len(args) - 1:
        sys.exit(__doc__)
    i = args.index("--")
    b, c = load(args[:i], engine - 1), load(args[i + 1:], engine - 1)
    keys = sorted(set(b) & set(c))
    if len(keys) < 2:
        sys.exit("fewer than two games in common")
    d = [c[k][0] - b[k][0] for k in keys]
    n = len(d)
    mean = sum(d) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in d) / (n - 1))
    better, worse = sum(x > 0 for x in d), sum(x < 0 for x in d)
    same = sum(b[k][1] == c[k][1] for k in keys)
    m = better + worse
    p = min(1.0, 2 * sum(comb(m, j) for j in range(min(better, worse) + 1)) / 2 ** m) if m else 1.0
    print(f"{n} pairs ({same} the same moves): baseline {100 * sum(b[k][0] for k in keys) / n:.1f}%, "
          f"candidate {100 * sum(c[k][0] for k in keys) / n:.1f}%; difference {100 * mean:+.1f} ± "
          f"{100 * 1.96 * sd / math.sqrt(n):.1f} points; better in {better}, worse in {worse}; sign test p = {p:.3f}")


if __name__ == "__main__":
    main()
