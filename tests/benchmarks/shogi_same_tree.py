"""Fixed-depth searches of the shogi engine: nodes, value and best move per position (the same-tree check).

    python tests/benchmarks/shogi_same_tree.py [--depth 12] [--positions 10] [--options ,qchecks=true]
        [--save FILE | --compare FILE]

A change meant only to make the search faster must leave every count unchanged: run it before the change
with ``--save``, after it with ``--compare`` (exit status 1 on any difference). Positions: the bench's start
and middle-game positions and the first ``--positions`` of ``tests/data/shogi_openings.txt`` each played on
by the engine for 20 to 60 plies at 20,000 nodes a move, each searched from a fresh engine to ``--depth``
plies (the middle-game position two fewer) with the root mate search on (the default engine) and off.
Prints the process CPU time and nodes/s too. ``--options`` is appended to both searches' option strings (not to
the engine that plays the positions on): the time to a depth of an option.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from gamesuite.core import Limits, load_game, make_engine

OPENINGS = Path(__file__).resolve().parents[1] / "data" / "shogi_openings.txt"
MID = "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1"


def positions(count: int) -> list[str]:
    game = load_game("shogi")
    texts = ["startpos", MID]
    lines = [ln.strip() for ln in OPENINGS.read_text().splitlines() if ln.strip() and not ln.startswith("#")]
    engine = make_engine(game, "alphabeta,mate=0")
    for i, line in enumerate(lines[:count]):
        s = game.state_from_text(line)
        for _ in range(20 + i % 5 * 10):  # 20..60 plies of the engine's own play at 20,000 nodes a move
            if s.is_terminal():
                break
            move = engine.search(s, Limits(nodes=20000)).best_move
            assert move is not None  # a position that is not over has a move
            s.play(move)
        if not s.is_terminal():
            texts.append(s.to_text())
    return texts


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--depth", type=int, default=12)
    ap.add_argument("--positions", type=int, default=10)
    ap.add_argument("--options", default="", help="appended to the searches' engine strings, e.g. ',qchecks=true'")
    ap.add_argument("--save")
    ap.add_argument("--compare")
    args = ap.parse_args()
    game = load_game("shogi")
    rows = []
    nodes_all, cpu_all = 0, 0.0
    for text in positions(args.positions):
        for spec in ("alphabeta" + args.options, "alphabeta,mate=0" + args.options):
            engine = make_engine(game, spec)
            s = game.state_from_text(text)
            c = time.process_time()
            r = engine.search(s, Limits(depth=args.depth - 2 * (text == MID)))
            cpu = time.process_time() - c
            nodes_all += r.nodes
            cpu_all += cpu
            assert r.best_move is not None
            rows.append({"position": text, "spec": spec, "nodes": r.nodes, "move": s.format_move(r.best_move),
                         "score": str(r.score), "depth": r.depth})
            print(f"{r.nodes:>9} {cpu:7.2f} s {rows[-1]['move']:>6} {rows[-1]['score']:>10}  {spec:<17} {text[:60]}",
                  flush=True)
    print(f"total {nodes_all} nodes, {cpu_all:.2f} s CPU, {nodes_all / cpu_all / 1000:.0f} k nodes/s")
    if args.save:
        Path(args.save).write_text(json.dumps(rows, indent=1))
    if args.compare:
        old = json.loads(Path(args.compare).read_text())
        bad = [(a, b) for a, b in zip(old, rows) if a != b] + ([("count", len(old))] if len(old) != len(rows) else [])
        for a, b in bad:
            print("DIFFERENT:", a, "->", b)
        print("same tree" if not bad else f"{len(bad)} differences")
        return 1 if bad else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
