"""A USI engine's verdict on our moves in saved arena games, and the depth our search reaches.

    python tests/benchmarks/shogi_oracle.py judge GAME.json [--nodes 200000] [--usi PATH]
    python tests/benchmarks/shogi_oracle.py depth DIR [--nodes 100000] [--positions 20] [--options ,singular=false ...]

``judge``: the USI program (by default YaneuraOu-material from ``../shared/anchors``, one thread, no book)
searches every position of the game from its opening on with ``go nodes`` (the arena's ``UsiEngine``); for
each move of ours it prints the program's score before the move and after it (both from our side, centipawns)
and their difference, marking drops of 150 or more with ``<<<``, beside the program's preferred move and its
expected reply. The program is a referee here: nothing of it is copied or imported.

``depth``: the mean completed depth and selective depth of our engine at ``--nodes`` nodes, for each option
string, on positions from the game records of DIR (one random ply past the tenth per record, seed 1, as
``shogi_nps.py`` picks them), each searched from a fresh game.
"""

from __future__ import annotations

import argparse
import glob
import json
import os

from shogi_nps import positions_from_records  # (a sibling script: run from this folder's path)

from gamesuite.arena.external import UsiEngine
from gamesuite.core import Limits, load_game, make_engine
from gamesuite.core.score import Score

ANCHOR = os.path.join(os.path.dirname(__file__), "..", "..", "..", "shared", "anchors", "yaneuraou-material")


def _centipawns(score: Score, player: int) -> int:
    """``score`` for ``player`` in centipawns, a mate as +-30000."""
    mine = score.for_player(player)
    if mine.is_mate:
        return 30000 if mine.value > 0 else -30000
    return int(mine.value)


def judge(path: str, nodes: int, usi: str) -> None:
    game = load_game("shogi")
    r = json.load(open(path))
    ours = [i for i, p in enumerate(r["players"]) if p["name"].startswith("alphabeta")][0]
    moves = [m["move"] if isinstance(m, dict) else m for m in r["moves"]]
    program = UsiEngine(game, f"usi:{usi},Threads=1,BookFile=no_book,NetworkDelay=0,NetworkDelay2=0,USI_Hash=64")
    program.new_game()
    s = game.state_from_text(r["start"])
    res: list[tuple[int, str, list[str]]] = []  # (score for the side to move, best move, PV) at each ply
    for i in range(len(moves) + 1):
        if s.is_terminal():
            break
        out = program.search(s, Limits(nodes=nodes))
        line, t = [], s.copy()
        for m in out.pv[:6]:
            line.append(t.format_move(m))
            t.play(m)
        res.append((_centipawns(out.score, s.current_player),
                    s.format_move(out.best_move) if out.best_move is not None else "-", line))
        if i < len(moves):
            s.play_text(moves[i])
    program.close()
    for i in range(r["match"].get("opening_plies", 0), len(res) - 1):
        if i % 2 != ours:
            continue
        before, after = res[i][0], res[i + 1][0]
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
