"""A USI engine's verdict on our moves in saved arena games, and the depth our search reaches.

    python tests/benchmarks/shogi_oracle.py judge GAME.json [--nodes 200000] [--usi PATH]
    python tests/benchmarks/shogi_oracle.py depth DIR [--nodes 100000] [--positions 20] [--options ,singular=false ...]

``judge``: the USI program (by default YaneuraOu-material from ``../shared/anchors``, one thread, no book)
searches every position of the game from its opening on with ``go nodes``; for each move of ours it prints
the program's score before the move and after it (both from our side, centipawns) and their difference,
marking drops of 150 or more with ``<<<``, beside the program's preferred move and its expected reply.
The program is a referee here: nothing of it is copied or imported.

``depth``: the mean completed depth and selective depth of our engine at ``--nodes`` nodes, for each option
string, on positions from the game records of DIR (one random ply past the tenth per record, seed 1, as
``shogi_nps.py`` picks them), each searched from a fresh game.
"""

from __future__ import annotations

import argparse
import glob
import json
import subprocess

from shogi_nps import positions_from_records  # (a sibling script: run from this folder's path)

from gamesuite.core import Limits, load_game, make_engine

ANCHOR = "/work/shared/anchors/yaneuraou-material"


class Usi:
    """A USI program searching positions given by their moves from the start position."""

    def __init__(self, path: str) -> None:
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        for c in ("usi", "setoption name Threads value 1", "setoption name BookFile value no_book",
                  "setoption name USI_Hash value 64", "isready"):
            self._send(c)
        while self._line() != "readyok":
            pass
        self._send("usinewgame")

    def _send(self, text: str) -> None:
        assert self.p.stdin is not None
        self.p.stdin.write(text + "\n")

    def _line(self) -> str:
        assert self.p.stdout is not None
        return self.p.stdout.readline().strip()

    def go(self, start: str, moves: list[str], nodes: int) -> tuple[int | None, str, list[str]]:
        """The last score (centipawns for the side to move, a mate as +-30000), the best move and the PV."""
        pos = "startpos" if start == "startpos" else "sfen " + start
        self._send(f"position {pos} moves {' '.join(moves)}" if moves else f"position {pos}")
        self._send(f"go nodes {nodes}")
        score: int | None = None
        pv: list[str] = []
        while True:
            t = self._line().split()
            if t and t[0] == "info" and "score" in t:
                kind, v = t[t.index("score") + 1], int(t[t.index("score") + 2])
                score = v if kind == "cp" else (30000 if v > 0 else -30000)
                pv = t[t.index("pv") + 1:] if "pv" in t else pv
            if t and t[0] == "bestmove":
                return score, t[1], pv

    def close(self) -> None:
        self._send("quit")
        self.p.wait()


def judge(path: str, nodes: int, usi: str) -> None:
    r = json.load(open(path))
    ours = [i for i, p in enumerate(r["players"]) if p["name"].startswith("alphabeta")][0]
    moves = [m["move"] if isinstance(m, dict) else m for m in r["moves"]]
    start = r["start"]
    if start.startswith("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"):
        start = "startpos"
    program = Usi(usi)
    res = [program.go(start, moves[:i], nodes) for i in range(len(moves) + 1)]
    program.close()
    for i in range(r["match"].get("opening_plies", 0), len(moves)):
        if i % 2 != ours:
            continue
        before, after = res[i][0], res[i + 1][0]
        if before is None or after is None:
            continue
        d = -after - before
        mark = " <<<" if d <= -150 else ""
        print(f"ply {i + 1:3d} ours {moves[i]:6s} best {res[i][1]:6s} before {before:6d} after {-after:6d} "
              f"diff {d:6d} reply {' '.join(res[i + 1][2][:6])}{mark}")


def depth(directory: str, nodes: int, count: int, options: list[str]) -> None:
    game = load_game("shogi")
    states = positions_from_records(game, sorted(glob.glob(directory + "/game-*.json"))[:count])
    for opts in options:
        ds, sel = [], []
        for s in states:
            e = make_engine(game, "alphabeta" + opts)
            e.new_game()
            infos: list = []
            e.search(s, Limits(nodes=nodes), on_info=infos.append)
            done = [i for i in infos if i.depth]
            ds.append(done[-1].depth)
            sel.append(done[-1].seldepth or 0)
        print(f"{opts or 'default':36s} depth {sum(ds) / len(ds):.2f} seldepth {sum(sel) / len(sel):.2f} "
              f"({len(ds)} positions)", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("what", choices=["judge", "depth"])
    ap.add_argument("path")
    ap.add_argument("--nodes", type=int)
    ap.add_argument("--usi", default=ANCHOR)
    ap.add_argument("--positions", type=int, default=20)
    ap.add_argument("--options", nargs="*", default=[""])
    args = ap.parse_args()
    if args.what == "judge":
        judge(args.path, args.nodes or 200_000, args.usi)
    else:
        depth(args.path, args.nodes or 100_000, args.positions, args.options)


if __name__ == "__main__":
    main()
