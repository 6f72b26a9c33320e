"""Tic-tac-toe: time to solve the empty board (and a few m,n,k boards) with the numba solver."""

from __future__ import annotations

import argparse
import statistics
import time

from ..core.limits import Limits
from ..core.registry import load_game
from ..games.tictactoe.engine import TicTacToeEngine
from ..games.tictactoe.rules import TicTacToe


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="gamesuite bench tictactoe", description=__doc__)
    p.add_argument("--repeat", type=int, default=20, help="solves per board (default 20)")
    args = p.parse_args(argv)
    print(f"{'board':<28}{'value':>10}{'nodes':>10}{'median ms':>12}{'best ms':>10}{'knodes/s':>10}")
    for spec, depth in (("tictactoe", None), ("tictactoe(m=4,n=4,k=4)", None), ("tictactoe(m=5,n=5,k=4)", 8)):
        game = load_game(spec)
        assert isinstance(game, TicTacToe)
        engine = TicTacToeEngine(game, hash=16)
        state = game.new_state()
        engine.search(state, Limits(depth=2))  # compile / load the cache
        times, result = [], None
        for _ in range(args.repeat if depth is None or spec == "tictactoe" else max(1, args.repeat // 10)):
            engine.new_game()  # every solve starts from an empty hash table
            t = time.perf_counter()
            result = engine.search(state, Limits(depth=depth))
            times.append((time.perf_counter() - t) * 1000)
        assert result is not None
        label = spec + (f" d{depth}" if depth else "")
        med = statistics.median(times)
        print(f"{label:<28}{result.score.text():>10}{result.nodes:>10}{med:>12.2f}{min(times):>10.2f}"
              f"{result.nodes / med:>10.0f}")
    return 0
