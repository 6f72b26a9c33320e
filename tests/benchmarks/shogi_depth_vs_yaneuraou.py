"""The depth (and nodes) each search reaches on the same budget: ours against a USI program, same positions.

    python tests/benchmarks/shogi_depth_vs_yaneuraou.py RECORDS_DIR [--nodes 50000] [--positions 16]
        [--usi ../shared/anchors/yaneuraou-material] [--options ,iir_depth=4] [--movetime MS]

Takes one position from each of the first ``--positions`` arena game records under RECORDS_DIR (``*/game-*.json``
or ``game-*.json``; a random ply past the tenth, seed 1, as ``shogi_nps.py`` picks them), and searches it with
``--nodes`` nodes by both: the USI program (``go nodes N``, ``Threads 1``, no book, ``USI_Hash 64``, a new game
each time) and ours from a fresh game; with ``--movetime``, each searches for that time instead (``go byoyomi``,
the time a move of a byoyomi game gets; on a quiet machine: it measures the CPU). Prints each position's depth,
selective depth, nodes and best move of the USI program and ours' depth, nodes and best move, then the means.
The USI program (YaneuraOu-material by default) is only an opponent being measured; nothing of it is imported.
"""

import argparse
import glob
import json
import os
import random
import re
import subprocess

from gamesuite.core import Limits, load_game, make_engine
from gamesuite.games.shogi.rules import ShogiState

ANCHOR = os.path.join(os.path.dirname(__file__), "..", "..", "..", "shared", "anchors", "yaneuraou-material")


class Usi:
    """A USI program driven line by line."""

    def __init__(self, path: str, options: dict[str, str]) -> None:
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.send("usi")
        self.until("usiok")
        for k, v in options.items():
            self.send(f"setoption name {k} value {v}")
        self.send("isready")
        self.until("readyok")

    def send(self, line: str) -> None:
        assert self.p.stdin is not None
        self.p.stdin.write(line + "\n")

    def until(self, token: str) -> list[str]:
        assert self.p.stdout is not None
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError(f"the USI program exited before {token!r}")
            lines.append(line.strip())
            if line.startswith(token):
                return lines

    def search(self, sfen: str, go: str) -> tuple[int, int, int, str]:
        """(depth, seldepth, nodes, best move) of ``go`` + ``go``: the last info line with a PV."""
        self.send("usinewgame")
        self.send("position sfen " + sfen)
        self.send("go " + go)
        lines = self.until("bestmove")
        last = [x for x in lines if x.startswith("info") and " depth " in x and " pv " in x][-1]
        depth = int(re.search(r" depth (\d+)", last).group(1))  # type: ignore[union-attr]
        sel = re.search(r" seldepth (\d+)", last)
        nodes = re.search(r" nodes (\d+)", last)
        return depth, int(sel.group(1)) if sel else depth, int(nodes.group(1)) if nodes else 0, lines[-1].split()[1]

    def close(self) -> None:
        self.send("quit")
        self.p.wait(timeout=10)


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
    rng = random.Random(1)
    files = sorted(glob.glob(os.path.join(args.dir, "*", "game-*.json"))
                   + glob.glob(os.path.join(args.dir, "game-*.json")))
    states: list[ShogiState] = []
    for f in files[: args.positions]:
        r = json.load(open(f))
        s = game.state_from_text(r["start"])
        moves = [m["move"] if isinstance(m, dict) else m for m in r["moves"]]
        for m in moves[: rng.randrange(10, max(11, len(moves) - 5))]:
            s.play_text(m)
        if not s.is_terminal():
            assert isinstance(s, ShogiState)
            states.append(s)
    usi = Usi(args.usi, {"Threads": "1", "BookFile": "no_book", "NetworkDelay": "0", "NetworkDelay2": "0",
                         "USI_Hash": "64"})
    engine = make_engine(game, "alphabeta" + args.options)
    engine.search(game.new_state(), Limits(depth=3))  # load the kernels
    go, limits = f"nodes {args.nodes}", Limits(nodes=args.nodes)
    if args.movetime:
        go, limits = f"btime 0 wtime 0 byoyomi {args.movetime}", Limits(movetime=args.movetime)
    theirs, ours, their_nodes, our_nodes = [], [], [], []
    for s in states:
        d, sd, n, best = usi.search(s.sfen(), go)
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
    print(f"{k} positions, {go}: USI mean depth {sum(theirs) / k:.2f}, {sum(their_nodes) / k:.0f} nodes; "
          f"ours{args.options} mean depth {sum(ours) / k:.2f}, {sum(our_nodes) / k:.0f} nodes")


if __name__ == "__main__":
    main()
