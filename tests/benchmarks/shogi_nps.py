"""CPU nodes/s of the shogi engine in positions from our games (the conversion for equal-time node matches).

    python tests/benchmarks/shogi_nps.py DIR [--nodes 100000] [--positions 40] [--options ,mate1=false]

Takes one position from each of the first ``--positions`` arena game records in DIR (``game-*.json``,
a random ply past the tenth, seed 1), searches each with ``--nodes`` nodes from a fresh game, and prints the
nodes and the process CPU time. Run it with another checkout's Python (and no PYTHONPATH) to measure that
checkout's engine on the same positions.
"""

import argparse
import glob
import json
import random
import time

from gamesuite.core import Game, Limits, load_game, make_engine
from gamesuite.games.shogi.rules import ShogiState


def positions_from_records(game: Game, files: list[str]) -> list[ShogiState]:
    """One position from each arena game record of ``files``: a random ply past the tenth (seed 1), not the end."""
    rng = random.Random(1)
    states = []
    for f in files:
        r = json.load(open(f))
        s = game.state_from_text(r["start"])
        moves = [m["move"] if isinstance(m, dict) else m for m in r["moves"]]  # record format 2: {"move": ...}
        for m in moves[: rng.randrange(10, max(11, len(moves) - 5))]:
            s.play_text(m)
        if not s.is_terminal():
            assert isinstance(s, ShogiState)
            states.append(s)
    return states


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dir")
    ap.add_argument("--nodes", type=int, default=100_000)
    ap.add_argument("--positions", type=int, default=40)
    ap.add_argument("--options", default="", help="appended to 'alphabeta', e.g. ',prune=false'")
    args = ap.parse_args()
    game = load_game("shogi")
    states = positions_from_records(game, sorted(glob.glob(args.dir + "/game-*.json"))[: args.positions])
    engine = make_engine(game, "alphabeta" + args.options)
    engine.search(game.new_state(), Limits(depth=3))  # load the kernels
    nodes, cpu = 0, 0.0
    for s in states:
        engine.new_game()
        c = time.process_time()
        nodes += engine.search(s, Limits(nodes=args.nodes)).nodes
        cpu += time.process_time() - c
    print(f"{len(states)} positions, {nodes} nodes, {cpu:.2f} s CPU, {nodes / cpu / 1000:.0f} k nodes/s")


if __name__ == "__main__":
    main()
