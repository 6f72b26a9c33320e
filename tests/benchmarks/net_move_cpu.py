"""CPU seconds a move of node-limited engines over positions from saved gomoku games (run by hand, not a test).

    python tests/benchmarks/net_move_cpu.py runs/matches/48x4-vs-32x3 "mtdf@1000000" "puct@1000" \\
        "puct,net=runs/nets/48x4-gen0.npz@570"

Turns node limits into time: the positions are plies 8, 14 and 20 of the first
``--games`` records (``game-*.json``) that a ``gamesuite match --save DIR``
wrote; each ``SPEC@NODES`` searches each position once from a fresh game and
the mean process CPU time a move is printed (the engines are single-threaded,
so CPU time is the time a quiet core would take, whatever the machine's load).
``gamesuite bench mcts --net A --net B --cpu-time`` gives the simulations per
second of ``gomoku:puct`` from one position; this is the check over real
positions, the threat guard included.
"""

from __future__ import annotations

import argparse
import glob
import json
import time

from gamesuite.core.limits import Limits
from gamesuite.core.registry import load_game, make_engine


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("records", help="a folder of saved games (game-*.json)")
    p.add_argument("specs", nargs="+", help="engine specs with their node limit, SPEC@NODES")
    p.add_argument("--game", default="gomoku")
    p.add_argument("--games", type=int, default=6, help="records to take positions from (default 6)")
    args = p.parse_args()
    game = load_game(args.game)
    positions = []
    for path in sorted(glob.glob(f"{args.records}/game-*.json"))[:args.games]:
        moves = json.loads(open(path).read())["moves"]
        positions += [" ".join(moves[:ply]) for ply in (8, 14, 20) if ply < len(moves) - 4]
    print(f"{len(positions)} positions")
    for spec_nodes in args.specs:
        spec, nodes = spec_nodes.rsplit("@", 1)
        engine = make_engine(game, spec)
        engine.search(game.state_from_text(positions[0]), Limits(nodes=16))
        total = 0.0
        for text in positions:
            engine.new_game()
            t = time.process_time()
            engine.search(game.state_from_text(text), Limits(nodes=int(nodes)))
            total += time.process_time() - t
        print(f"{spec}@{nodes}: {total / len(positions):.3f} CPU s a move")


if __name__ == "__main__":
    main()
