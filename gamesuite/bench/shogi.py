"""Shogi: perft speed of the numba move generator (bulk counting at the last ply).

Counts the published perft figures (start position to depth 5, the two
drop-heavy positions, minishogi) and prints, per position, the count, whether
it is the published one, the best wall-clock time of the repeats and the
speed in nodes per second by wall clock and by process CPU time (the second
is steadier on a busy machine). Then the engine's search speed: a search of
fixed time from the start position and from the middle-game position.
"""

from __future__ import annotations

import argparse
import time

from ..core.registry import load_game

CASES = (
    ("start", "shogi", "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1", 5, 19_861_490),
    ("midgame", "shogi", "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1", 3, 4_809_015),
    ("drops", "shogi", "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1", 2, 105_677),
    ("mini", "shogi(variant=mini)", "rbsgk/4p/5/P4/KGSBR b - 1", 5, 533_203),
)


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="gamesuite bench shogi", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--repeat", type=int, default=3, help="runs per position; the best is shown (default 3)")
    p.add_argument("--deep", action="store_true", help="one ply deeper everywhere (start: 547,581,517 nodes)")
    p.add_argument("--search-ms", type=int, default=3000,
                   help="milliseconds of each engine search (default 3000; 0: no search)")
    args = p.parse_args(argv)
    print(f"{'position':<10}{'depth':>6}{'nodes':>13}  {'ok':<4}{'best s':>9}{'M nodes/s':>11}{'CPU M/s':>10}")
    for label, spec, sfen, depth, expected in CASES:
        state = load_game(spec).state_from_text(sfen)
        if args.deep:
            depth += 1
            expected = {"start": 547_581_517, "midgame": 516_925_165, "drops": 53_393_368,
                        "mini": None}.get(label)  # type: ignore[assignment]
        state.perft(2)  # compile or load the kernels
        best_wall, best_cpu, count = float("inf"), float("inf"), 0
        for _ in range(max(1, args.repeat)):
            t, c = time.perf_counter(), time.process_time()
            count, _done = state.perft(depth)
            best_wall = min(best_wall, time.perf_counter() - t)
            best_cpu = min(best_cpu, time.process_time() - c)
        ok = "-" if expected is None else ("yes" if count == expected else "NO")
        print(f"{label:<10}{depth:>6}{count:>13}  {ok:<4}{best_wall:>9.3f}{count / best_wall / 1e6:>11.2f}"
              f"{count / max(best_cpu, 1e-9) / 1e6:>10.2f}", flush=True)
    if args.search_ms > 0:
        _bench_search(args.search_ms)
    return 0


def _bench_search(ms: int) -> None:
    from ..core.limits import Limits
    from ..games.shogi.engine import ShogiEngine, warm_up

    warm_up()
    print(f"\n{'search':<10}{'depth':>6}{'nodes':>13}{'s':>9}{'k nodes/s':>11}{'CPU k/s':>10}  best move")
    for label, _spec, sfen, _d, _n in CASES[:2]:
        game = load_game("shogi")
        state = game.state_from_text(sfen)
        engine = ShogiEngine(game, hash=64)
        t, c = time.perf_counter(), time.process_time()
        r = engine.search(state, Limits(movetime=ms))
        wall, cpu = time.perf_counter() - t, time.process_time() - c
        best = state.format_move(r.best_move) if r.best_move is not None else "-"
        print(f"{label:<10}{r.depth:>6}{r.nodes:>13}{wall:>9.3f}{r.nodes / wall / 1e3:>11.1f}"
              f"{r.nodes / max(cpu, 1e-9) / 1e3:>10.1f}  {best} ({r.score.text()})", flush=True)
