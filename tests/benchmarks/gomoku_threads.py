"""Time to a depth with one thread and with several, over many gomoku middle games (run by hand, not a test).

    python tests/benchmarks/gomoku_threads.py [--positions 24] [--depth 10] [--reps 3] [--seed 7]
                                              [--specs "mtdf,top=10;mtdf,top=10,threads=2"]

The positions are the bench's three middle games and ``--positions`` more of 30
stones: four random stones near the centre, then 26 moves of the default engine
against itself (depth 4, or 2 one time in three), keeping only games still open
at depth 6. Each engine searches each position ``--reps`` times from an empty
table; the median wall time per position is printed, then per engine the sum
and geometric mean of those medians, the nodes and the process CPU time.
A search of several threads is not repeatable (the threads race for the shared
table), so look at the totals over many positions, not at one position.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import time

from gamesuite.bench.gomoku import MIDDLE_GAMES
from gamesuite.core.limits import Limits
from gamesuite.core.registry import load_game, make_engine
from gamesuite.games.gomoku.engine import warm_up


def positions(game, count: int, seed: int) -> list[str]:  # type: ignore[no-untyped-def]
    rng = random.Random(seed)
    engine = make_engine(game, "mtdf,top=10")
    out: list[str] = []
    while len(out) < count:
        state = game.state_from_text("h8")
        for _ in range(3):
            near = [m for m in state.legal_moves() if abs(m // 15 - 7) <= 2 and abs(m % 15 - 7) <= 2]
            state.play(rng.choice(near))
        for _ in range(26):
            if state.is_terminal():
                break
            state.play(engine.search(state, Limits(depth=4 if rng.random() < 0.7 else 2)).best_move)
        if state.is_terminal():
            continue
        if engine.search(state, Limits(depth=6)).score.is_mate:
            continue
        out.append(state.to_text())
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--positions", type=int, default=24)
    p.add_argument("--depth", type=int, default=10)
    p.add_argument("--reps", type=int, default=3)
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--specs", default="mtdf,top=10;mtdf,top=10,threads=2")
    args = p.parse_args()
    game = load_game("gomoku")
    warm_up()
    texts = MIDDLE_GAMES + positions(game, args.positions, args.seed)
    specs = args.specs.split(";")
    engines = [make_engine(game, s) for s in specs]
    walls: dict[str, list[float]] = {s: [] for s in specs}
    nodes = dict.fromkeys(specs, 0)
    cpu = dict.fromkeys(specs, 0.0)
    for i, text in enumerate(texts):
        state = game.state_from_text(text)
        row = []
        for spec, engine in zip(specs, engines):
            engine.search(state, Limits(depth=4))  # the threads started, the kernels loaded
            times = []
            for _ in range(args.reps):
                engine.new_game()
                t, c = time.perf_counter(), time.process_time()
                r = engine.search(state, Limits(depth=args.depth, movetime=5000))
                times.append((time.perf_counter() - t) * 1000)
                cpu[spec] += time.process_time() - c
                nodes[spec] += r.nodes
            walls[spec].append(statistics.median(times))
            row.append(f"{walls[spec][-1]:7.1f} ms (depth {r.depth}, {r.score.text()})")
        print(f"{i:2d}  " + " | ".join(row), flush=True)
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for spec in specs:
        w = walls[spec]
        geo = math.exp(sum(math.log(max(x, 1e-3)) for x in w) / len(w))
        print(f"{spec:32s} sum of medians {sum(w):7.0f} ms  geometric mean {geo:6.1f} ms  "
              f"nodes {nodes[spec]}  CPU {cpu[spec]:.1f} s  bench games {' / '.join(f'{x:.0f}' for x in w[:3])} ms")


if __name__ == "__main__":
    main()
