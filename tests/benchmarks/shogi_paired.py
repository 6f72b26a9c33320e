"""Our score in saved arena matches, and two matches paired game by game.

    python tests/benchmarks/shogi_paired.py CANDIDATE_DIR [BASELINE_DIR]

Reads ``game-*.json`` of each directory (``gamesuite match --save``), takes our engine's result in each
(the player whose name starts with ``alphabeta``: 1 a win, 0.5 a draw, 0 a loss) and prints the score with
its 95% interval (normal). With two directories, the games of the same file name (the same opening and
colours when both matches ran with the same seed, openings and game count) are paired: the mean
difference in points with its 95% interval, and how many games each side did better in.
"""

from __future__ import annotations

import glob
import json
import math
import sys


def results(directory: str) -> dict[str, float]:
    """Our score in each game of ``directory``, by file name."""
    out = {}
    for f in sorted(glob.glob(directory + "/game-*.json")):
        r = json.load(open(f))
        i = [k for k, p in enumerate(r["players"]) if p["name"].startswith("alphabeta")][0]
        out[f.split("/")[-1]] = (r["result"]["returns"][i] + 1) / 2
    return out


def mean_interval(xs: list[float]) -> tuple[float, float]:
    """The mean and the half-width of its 95% normal interval."""
    m = sum(xs) / len(xs)
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / len(xs))
    return m, 1.96 * sd / math.sqrt(len(xs))


def main() -> None:
    a = results(sys.argv[1])
    m, h = mean_interval(list(a.values()))
    print(f"{sys.argv[1]}: {sum(a.values()):g}/{len(a)}, {100 * m:.1f}% ± {100 * h:.1f}")
    if len(sys.argv) > 2:
        b = results(sys.argv[2])
        common = sorted(set(a) & set(b))
        sb = sum(b[k] for k in common)
        sa = sum(a[k] for k in common)
        d = [a[k] - b[k] for k in common]
        m, h = mean_interval(d)
        print(f"{len(common)} paired games: {sys.argv[1]} {sa:g}, {sys.argv[2]} {sb:g}; "
              f"difference {100 * m:+.1f} ± {100 * h:.1f} points; better in {sum(x > 0 for x in d)}, "
              f"worse in {sum(x < 0 for x in d)}, the same in {sum(x == 0 for x in d)}")


if __name__ == "__main__":
    main()
