"""Make the shogi opening set of the arena (``tests/data/shogi_openings.txt``). Run by hand.

    python tests/benchmarks/shogi_make_openings.py [--count 600] [--seed 1] [--out FILE]

Each opening starts from the start position. Its first move is drawn from
the usual first moves of Sente (7g7f, 2g2f, 5g5f, 6g6f, 5i6h, 5i4h, 3i4h, 7i6h,
1g1f, 9g9f, 4i5h, 6i5h ...), then each further ply from the moves that our
engine's multi-PV search (depth 3) scores within ``--margin`` of its best,
uniformly, for 6 to 11 plies in all. An opening is kept when a depth-6 search
scores it within ``--balance`` of even and its line has not been drawn before.
The set is therefore "our engine thinks these are reasonable and balanced":
no other program judged them.
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path

from gamesuite.core import load_game
from gamesuite.core.limits import Limits
from gamesuite.games.shogi.engine import ShogiEngine

FIRST = ("7g7f", "2g2f", "5g5f", "6g6f", "5i6h", "5i4h", "3i4h", "7i6h", "1g1f", "9g9f", "4i5h", "6i5h",
         "7g7f", "2g2f", "7g7f", "2g2f", "3g3f", "6i7h", "4i4h", "2h6h")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--count", type=int, default=600)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--margin", type=int, default=40, help="moves within this many points of the best (default 40)")
    ap.add_argument("--balance", type=int, default=150, help="keep openings scored within this of even")
    ap.add_argument("--out", default=str(Path(__file__).parents[1] / "data" / "shogi_openings.txt"))
    args = ap.parse_args()
    rng = random.Random(args.seed)
    game = load_game("shogi")
    eng = ShogiEngine(game, hash=16, mate=0)
    seen: set[str] = set()
    lines: list[str] = []
    t0 = time.time()
    while len(lines) < args.count:
        s = game.new_state()
        moves = [rng.choice(FIRST)]
        s.play_text(moves[0])
        plies = rng.randint(6, 11)
        while len(moves) < plies:
            r = eng.search(s, Limits(depth=3, multipv=6))
            best = r.lines[0].score.for_player(s.color).value
            ok = [ln.pv[0] for ln in r.lines
                  if ln.score.kind == "eval" and ln.score.for_player(s.color).value >= best - args.margin]
            if not ok:
                break
            m = rng.choice(ok)
            moves.append(s.format_move(m))
            s.play(m)
        if len(moves) < plies or s.is_terminal():
            continue
        text = "startpos moves " + " ".join(moves)
        if text in seen:
            continue
        seen.add(text)
        r = eng.search(s, Limits(depth=6))
        if r.score.kind != "eval" or abs(r.score.for_player(0).value) > args.balance:
            continue
        lines.append(text)
        if len(lines) % 50 == 0:
            print(f"{len(lines)} openings, {time.time() - t0:.0f} s", flush=True)
    head = ("# Opening positions for shogi matches (gamesuite match shogi --openings FILE), made by\n"
            f"# tests/benchmarks/shogi_make_openings.py --count {args.count} --seed {args.seed} "
            f"--margin {args.margin} --balance {args.balance}\n")
    Path(args.out).write_text(head + "\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {len(lines)} openings to {args.out}")


if __name__ == "__main__":
    main()
