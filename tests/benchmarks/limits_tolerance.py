"""How closely every engine keeps to a time limit and a node limit (run by hand, not a test).

    python tests/benchmarks/limits_tolerance.py [--movetime 20,100] [--nodes 50,3000] [--repeat 5] [GAME ...]

For each game and each of its engines: ``--repeat`` searches from the start
position (gomoku: after three stones) with ``movetime`` (the wall time from the call
to the answer, worst and median, against the limit) and with ``nodes`` (the nodes
reported, worst, against the limit). Each engine is built and warmed (a depth-1
search and a 500 ms one) first, so compilation is not counted. Prints ``uptime``'s load: time
figures depend on it.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

from gamesuite.core.limits import Limits
from gamesuite.core.registry import engines_for, load_game, make_engine

GAMES = ["tictactoe", "gomoku(size=15)", "shogi(variant=mini)", "shogi", "hare", "hare(players=3)"]


def _start(game):  # type: ignore[no-untyped-def]
    if game.name == "gomoku":
        return game.state_from_text("h8 h9 i8")
    return game.new_state()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("games", nargs="*", default=GAMES)
    p.add_argument("--movetime", default="20,100")
    p.add_argument("--nodes", default="50,3000")
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--skip", default="reference", help="engines to leave out (comma-separated)")
    args = p.parse_args(argv)
    movetimes = [int(x) for x in args.movetime.split(",") if x]
    nodes = [int(x) for x in args.nodes.split(",") if x]
    skip = set(args.skip.split(","))
    print(f"load average {os.getloadavg()[0]:.2f}; {args.repeat} searches each")
    for spec in args.games:
        game = load_game(spec)
        state = _start(game)
        for entry in engines_for(game):
            if entry.name in skip:
                continue
            extra = {"hash": "hash=16", "memory": "memory=64"}
            text = ",".join([entry.name] + [v for k, v in extra.items() if k in entry.options])
            engine = make_engine(game, text)
            engine.search(state, Limits(depth=1))  # compile / load the kernels (every path a timed
            engine.search(state, Limits(movetime=500))  # search takes: threat searches, deeper depths)
            cells = []
            for mt in movetimes:
                walls = []
                for _ in range(args.repeat):
                    t0 = time.perf_counter()
                    engine.search(state, Limits(movetime=mt))
                    walls.append((time.perf_counter() - t0) * 1000)
                cells.append(f"movetime {mt}: worst {max(walls):.0f} ms, median {statistics.median(walls):.0f} ms")
            for n in nodes:
                counts = []
                t0 = time.perf_counter()
                for _ in range(args.repeat):
                    fresh = make_engine(game, text)
                    counts.append(fresh.search(state, Limits(nodes=n)).nodes)
                per = (time.perf_counter() - t0) * 1000 / args.repeat
                cells.append(f"nodes {n}: worst {max(counts)} ({per:.0f} ms each)")
            print(f"{spec:22} {entry.name:10} " + "; ".join(cells), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
