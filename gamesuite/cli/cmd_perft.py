"""``gamesuite perft``: count the leaves of the legal move tree (a move generator's test and speed figure)."""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from functools import partial

import numpy as np

from ..core.errors import InvalidOptionError
from ..core.info import new_stop_flag
from ..core.registry import load_game
from ..core.state import State
from .common import int_arg, run_interruptibly

#: Deeper than any perft that ends (shogi's depth 8 is 4 * 10**12 leaves); the fast counters keep
#: the depth in small integers.
MAX_PERFT_DEPTH = 64


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "perft", help="count the positions of the legal move tree to a depth, with the speed",
        description="Count the leaves of the legal move tree to DEPTH from a position and print the count, "
        "the time and the speed. Games with a fast counter (shogi) use it; others walk the State API. "
        "Ctrl+C stops it.",
    )
    p.add_argument("game", help="game spec, e.g. shogi or 'shogi(variant=mini)'")
    p.add_argument("--position", metavar="TEXT", help="position text (default: the start position)")
    p.add_argument("--depth", type=int_arg(1, MAX_PERFT_DEPTH), required=True, metavar="N",
                   help=f"depth in plies (1 to {MAX_PERFT_DEPTH})")
    p.add_argument("--divide", action="store_true", help="also print the count below each legal move")
    p.set_defaults(func=run)


def generic_perft(state: State, depth: int, stop: np.ndarray) -> tuple[int, bool]:
    """Perft over the State API (any game); ``(count, completed)``."""
    if stop[0]:
        return 0, False
    moves = state.legal_moves()
    if depth == 1:
        return len(moves), True
    total = 0
    for m in moves:
        state.play(m)
        n, done = generic_perft(state, depth - 1, stop)
        state.undo()
        total += n
        if not done:
            return total, False
    return total, True


def _counter(state: State) -> Callable[[State, int, np.ndarray], tuple[int, bool]]:
    fast = getattr(state, "perft", None)
    if callable(fast):
        return lambda s, d, stop: s.perft(d, stop)  # type: ignore[attr-defined]
    return generic_perft


def _speed(nodes: int, seconds: float) -> str:
    if seconds <= 0:
        return "-"
    nps = nodes / seconds
    return f"{nps / 1e6:.2f} M nodes/s" if nps >= 1e6 else f"{nps / 1e3:.1f} k nodes/s"


def run(args: argparse.Namespace) -> int:
    if args.depth < 1:
        raise InvalidOptionError(f"--depth must be at least 1, got {args.depth}")
    game = load_game(args.game)
    state = game.state_from_text(args.position) if args.position else game.new_state()
    if state.is_terminal():
        print(f"the game is over: {state.result_text()}")
        return 0
    count = _counter(state)
    count(state.copy(), 1, new_stop_flag())  # compile / load the kernels before the clock starts
    stop = new_stop_flag()
    t0, c0 = time.perf_counter(), time.process_time()
    if args.divide:
        total, done = 0, True
        for m in sorted(state.legal_moves(), key=state.format_move):
            child = state.copy()
            child.play(m)
            if args.depth == 1:
                n, ok = 1, True
            else:
                n, ok = run_interruptibly(partial(count, child, args.depth - 1, stop), stop)
            if not ok:
                done = False
                break
            print(f"{state.format_move(m)}: {n}", flush=True)
            total += n
    else:
        total, done = run_interruptibly(lambda: count(state.copy(), args.depth, stop), stop)
    elapsed, cpu = time.perf_counter() - t0, time.process_time() - c0
    if not done:
        print(f"interrupted after {elapsed:.3f} s")
        return 130
    print(f"perft {args.depth}: {total} nodes in {elapsed:.3f} s ({_speed(total, elapsed)}); "
          f"CPU {cpu:.3f} s ({_speed(total, cpu)})")
    return 0
