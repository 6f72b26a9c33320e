"""Arena throughput: games and moves per second for a fixed-depth m,n,k match, serial and in processes."""

from __future__ import annotations

import argparse
import os
import time

from ..arena.game import MatchLimits
from ..arena.match import Tally, make_executor, run_games, schedule
from ..arena.openings import builtin_openings
from ..arena.spec import parse_engine_spec
from ..core.registry import load_game


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="gamesuite bench arena", description=__doc__)
    p.add_argument("--games", type=int, default=20, help="games per run (default 20)")
    p.add_argument("--game", default="tictactoe(m=7,n=7,k=5)", help="game spec (default tictactoe(m=7,n=7,k=5))")
    p.add_argument("--depth", type=int, default=4, help="search depth per move (default 4)")
    p.add_argument("--concurrency", type=int, nargs="*", default=[1, 2],
                   help="process counts to try (default 1 2; 1 plays in this process)")
    args = p.parse_args(argv)
    game = load_game(args.game)
    specs = [parse_engine_spec("solver,hash=1"), parse_engine_spec("solver,hash=1")]
    tasks = schedule(game, specs, args.games, builtin_openings(game, args.games, seed=1), MatchLimits(depth=args.depth))
    run_games(tasks[:2])  # load the kernels of this process
    print(f"{args.game}, solver vs solver, depth {args.depth}, {args.games} games; {os.cpu_count()} cores, "
          f"load average {os.getloadavg()[0]:.2f}")
    print(f"{'processes':>10}{'seconds':>10}{'games/s':>10}{'moves/s':>10}  W/D/L")
    for k in args.concurrency:
        ex = make_executor(k)
        t = time.perf_counter()
        try:
            recs = run_games(tasks, ex)
        finally:
            ex.close()
        dt = time.perf_counter() - t
        moves = sum(r.plies for r in recs)
        w, d, l = Tally(["a", "b"]).add_all(recs).total(0)
        print(f"{k:>10}{dt:>10.2f}{len(recs) / dt:>10.1f}{moves / dt:>10.0f}  {w}/{d}/{l}")
    return 0
