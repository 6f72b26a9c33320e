"""The depth (and nodes) each search reaches on the same budget: ours against a USI program, same positions.

    python tests/benchmarks/shogi_depth_vs_yaneuraou.py RECORDS_DIR [--nodes 50000] [--positions 16]
        [--usi ../shared/anchors/yaneuraou-material] [--options ,iir_depth=4] [--movetime MS]

Takes one position from each of the first ``--positions`` arena game records under RECORDS_DIR (``*/game-*.json``
or ``game-*.json``; a random ply past the tenth, seed 1, as ``shogi_nps.py`` picks them), and searches it with
``--nodes`` nodes by both: the USI program (through the arena's ``UsiEngine``: ``go nodes N``, ``Threads 1``, no
book, ``USI_Hash 64``, a new game each time) and ours from a fresh game; with ``--movetime``, each searches for that
time instead (the arena sends it as ``byoyomi``, the time a move of a byoyomi game gets; on a quiet machine: it
measures the CPU). Prints each position's depth,
selective depth, nodes and best move of the USI program and ours' depth, nodes and best move, then the means.
The USI program (YaneuraOu-material by default) is only an opponent being measured; nothing of it is imported.
"""

import argparse
import glob
import os

from shogi_nps import positions_from_records  # (a sibling script: run from this folder's path)

from gamesuite.arena.external import UsiEngine
from gamesuite.core import Limits, SearchInfo, load_game, make_engine

ANCHOR = os.path.join(os.path.dirname(__file__), "..", "..", "..", "shared", "anchors", "yaneuraou-material")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dir")
    ap.add_argument("--nodes", type=int, default=50_000)
    ap.add_argument("--positions", type=int, default=16)
    ap.add_argument("--usi", default=ANCHOR)
    ap.add_argument("--options", default="", help="appended to 'alphabeta', e.g. ',iir_depth=4'")
    ap.add_argument("--movetime", type=int, default=0, help="ms a search (byoyomi) instead of --nodes")
    args = ap.parse_args()
    game = load_game("shogi")
    files = sorted(glob.glob(os.path.join(args.dir, "*", "game-*.json"))
                   + glob.glob(os.path.join(args.dir, "game-*.json")))
    states = positions_from_records(game, files[: args.positions])
    usi = UsiEngine(game, f"usi:{args.usi},Threads=1,BookFile=no_book,NetworkDelay=0,NetworkDelay2=0,USI_Hash=64")
    engine = make_engine(game, "alphabeta" + args.options)
    engine.search(game.new_state(), Limits(depth=3))  # load the kernels
    limits = Limits(movetime=args.movetime) if args.movetime else Limits(nodes=args.nodes)
    budget = f"{args.movetime} ms" if args.movetime else f"{args.nodes} nodes"
    theirs, ours, their_nodes, our_nodes = [], [], [], []
    for s in states:
        infos: list[SearchInfo] = []
        usi.new_game()
        u = usi.search(s, limits, on_info=infos.append)
        d, n, sd = u.depth, u.nodes, max((i.seldepth for i in infos), default=u.depth)
        best = s.format_move(u.best_move) if u.best_move is not None else "-"
        engine.new_game()
        r = engine.search(s, limits)
        theirs.append(d)
        ours.append(r.depth)
        their_nodes.append(n)
        our_nodes.append(r.nodes)
        mine = s.format_move(r.best_move) if r.best_move is not None else "-"
        print(f"USI depth {d:2d} seldepth {sd:2d} {n:8d} nodes {best:8s}  ours depth {r.depth:2d} {r.nodes:8d} nodes"
              f" {mine}")
    usi.close()
    k = len(states)
    print(f"{k} positions, {budget} each: USI mean depth {sum(theirs) / k:.2f}, {sum(their_nodes) / k:.0f} nodes; "
          f"ours{args.options} mean depth {sum(ours) / k:.2f}, {sum(our_nodes) / k:.0f} nodes")


if __name__ == "__main__":
    main()
