"""Perft speed of gamesuite's shogi move generator side by side with cshogi (if installed). Run by hand.

    python tests/benchmarks/perft_shogi.py [--depth 5] [--repeat 3] [--sfen SFEN]

Both count perft from the start position (or ``--sfen``) with bulk counting at the last ply
(the number of legal moves of each position one ply above the leaves).
gamesuite's perft counts that last ply without generating the moves
(``leafcount.py``); the row "gamesuite (mailbox)" is the plain generator at
every ply (``kernels.perft_mailbox``), for comparison. cshogi
is a C++ core wrapped for Python (GPL; an optional test dependency, never
imported by gamesuite): its perft here is a Python recursion over
``push``/``pop`` with ``len(board.legal_moves)`` at the last ply. Wall-clock
and process-CPU speeds are printed; on a shared machine the CPU figure is the
steadier one. The load average is printed too.
"""

from __future__ import annotations

import argparse
import os
import time

from gamesuite.core import load_game
from gamesuite.games.shogi import kernels

START = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"


def _cshogi_perft(board, depth: int) -> int:  # type: ignore[no-untyped-def]
    if depth == 1:
        return len(board.legal_moves)
    total = 0
    for m in board.legal_moves:
        board.push(m)
        total += _cshogi_perft(board, depth - 1)
        board.pop()
    return total


def _best(fn, repeat: int) -> tuple[int, float, float]:  # type: ignore[no-untyped-def]
    wall = cpu = float("inf")
    n = 0
    for _ in range(repeat):
        t, c = time.perf_counter(), time.process_time()
        n = fn()
        wall = min(wall, time.perf_counter() - t)
        cpu = min(cpu, time.process_time() - c)
    return n, wall, cpu


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--depth", type=int, default=5)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--sfen", default=START, help="the position (default: the start position)")
    args = ap.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    state = load_game("shogi").state_from_text(args.sfen)
    state.perft(2)  # compile / load the cache
    rows = [("gamesuite (numba)", *_best(lambda: state.perft(args.depth)[0], args.repeat))]
    g, board, hands, kings = state.g, state.board.copy(), state.hands.copy(), state.kings.copy()
    kernels.perft_mailbox(g, board, hands, kings, state.color, 2)
    rows.append(("gamesuite (mailbox)",
                 *_best(lambda: kernels.perft_mailbox(g, board, hands, kings, state.color, args.depth)[0],
                        args.repeat)))
    try:
        import cshogi
    except ImportError:
        print("cshogi is not installed: pip install cshogi to compare")
    else:
        cboard = cshogi.Board(state.sfen())
        rows.append(("cshogi (C++)", *_best(lambda: _cshogi_perft(cboard, args.depth), args.repeat)))
    print(f"{'program':<20}{'nodes':>12}{'best s':>9}{'M nodes/s':>11}{'CPU s':>8}{'CPU M/s':>9}")
    for name, n, wall, cpu in rows:
        print(f"{name:<20}{n:>12}{wall:>9.3f}{n / wall / 1e6:>11.2f}{cpu:>8.3f}{n / cpu / 1e6:>9.2f}")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
