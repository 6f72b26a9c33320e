"""Run by hand: the numba MCTS against the alpha-beta solver at equal time on an m,n,k board.

    python tests/benchmarks/mcts_match.py --game 'tictactoe(m=10,n=10,k=5)' --pairs 4 --movetime 300

Each pair of games starts from the same random opening (``--opening`` plies)
with colours swapped. Prints every result and the score of MCTS.
"""

from __future__ import annotations

import argparse
import os
import random
import time

from gamesuite.core import Limits, load_game, make_engine


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--game", default="tictactoe(m=10,n=10,k=5)")
    p.add_argument("--mcts", default="mcts", help="engine spec of the MCTS side")
    p.add_argument("--alphabeta", default="solver", help="engine spec of the alpha-beta side")
    p.add_argument("--pairs", type=int, default=4)
    p.add_argument("--movetime", type=int, default=300)
    p.add_argument("--opening", type=int, default=2)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    game = load_game(args.game)
    rng = random.Random(args.seed)
    limits = Limits(movetime=args.movetime)
    print(f"{game.spec}, {args.movetime} ms a move, load {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    score = 0.0
    games = 0
    for pair in range(args.pairs):
        opening = []
        s = game.new_state()
        for _ in range(args.opening):
            m = rng.choice(s.legal_moves())
            opening.append(m)
            s.play(m)
        for mcts_side in (0, 1):
            engines = {mcts_side: make_engine(game, args.mcts), 1 - mcts_side: make_engine(game, args.alphabeta)}
            s = game.new_state()
            for m in opening:
                s.play(m)
            t0 = time.perf_counter()
            while not s.is_terminal():
                s.play(engines[s.current_player].search(s, limits).best_move)
            r = s.returns()[mcts_side]
            score += (r + 1) / 2
            games += 1
            print(f"pair {pair + 1}, MCTS plays {game.player_name(mcts_side)}: "
                  f"{'win' if r > 0 else 'loss' if r < 0 else 'draw'} for MCTS in {len(s.history)} plies "
                  f"({time.perf_counter() - t0:.0f} s)", flush=True)
    print(f"MCTS scored {score}/{games}; load {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
