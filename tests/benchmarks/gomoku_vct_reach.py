"""How far does a VCT solver reach per node? (run by hand, not a test; docs/gomoku.md, "Eleventh session").

The positions are those after our culprit move in the default's lost games that Rapfi judged (the tenth
session's ``gomoku_judge.py``): the opponent to move, with a forced win by Rapfi's judgement. Two sets:
``vct`` (our threat-count solver finds the win with 12 threats within 1,000,000 nodes) and ``beyond``
(it does not). ``--build`` makes the position file (``tests/data/gomoku_vct_reach.txt``: set, source,
ply, the moves) from the judge files and the game records they name; without it the file is read and
the engine's VCT solver (with the engine options ``--options``) is run once per position with the
largest budget; a search with a smaller budget is the same search cut short (the deepening solver's
slices do not depend on the budget), so a win found after ``n`` nodes is found within every budget of
at least ``n``. (The eleventh session measured a df-pn solver here too, commit 03a27cd, since removed.)

    python tests/benchmarks/gomoku_vct_reach.py --build judge-33.jsonl judge-s16.jsonl
    python tests/benchmarks/gomoku_vct_reach.py --budget 100000
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import numpy as np

from gamesuite.core.registry import load_game
from gamesuite.games.gomoku.engine import GomokuEngine, _Searcher

GAME = load_game("gomoku")
DATA = Path(__file__).resolve().parents[1] / "data" / "gomoku_vct_reach.txt"
MATE = 30000
BUDGETS = (1000, 5000, 25000, 100000, 1000000)


def position_class(rec: dict) -> str | None:
    """``vct`` / ``beyond`` for a tactical culprit (as the tenth session's table), else ``None``."""
    if rec.get("dec") is None or rec["before"] >= MATE or rec["same"] or rec["after2"] > -MATE:
        return None
    return "vct" if rec["vct12"] else "beyond"


def build(judge_files: list[str], out: Path) -> int:
    """Write the position file from the judge files; how many positions."""
    lines = []
    for f in judge_files:
        for line in open(f, encoding="utf-8"):
            rec = json.loads(line)
            cls = position_class(rec)
            if cls is None:
                continue
            with open(rec["file"], encoding="utf-8") as fh:
                r = json.load(fh)
            moves = r["start"].split() + [m["move"] for m in r["moves"]]
            k = rec["crit"]
            assert moves[k] == rec["our_move"], (rec["file"], k)
            src = "/".join(rec["file"].split("/")[-2:])
            lines.append(f"{cls}\t{src}\t{k}\t{' '.join(moves[:k + 1])}")
    out.write_text("# set\tgame record\tply of our culprit move\tthe moves to it (the opponent to move)\n"
                   + "\n".join(lines) + "\n", encoding="utf-8")
    return len(lines)


def solve(spec: dict, text: str, budget: int, threats: int = 12) -> tuple[list[int] | None, int]:
    """(the win's line or ``None``, nodes used) of one VCT search for the side to move."""
    engine = GomokuEngine(GAME, hash=64, **spec)
    s = GAME.state_from_text(text)
    se = _Searcher(engine, s, 0)
    it = se.run_vct(np.zeros(1, dtype=np.uint8), threats, budget)
    return (None if it is None else it.pv), se.vct_nodes


def solver_spec(options: str) -> dict:
    """Engine options from ``name=value,...`` (integers)."""
    out = {}
    for item in filter(None, options.split(",")):
        name, _, value = item.partition("=")
        out[name.strip()] = int(value)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", nargs="+", metavar="JUDGE", help="make the position file from these judge files")
    ap.add_argument("--positions", default=str(DATA))
    ap.add_argument("--options", default="", help="engine options of the solver, name=value,... (default: none)")
    ap.add_argument("--budget", type=int, default=100000)
    ap.add_argument("--threats", type=int, default=12, help="the most threats")
    ap.add_argument("--sets", default="vct,beyond", help="comma-separated: vct, beyond")
    ap.add_argument("--out", help="one JSON line per position and solver")
    a = ap.parse_args()
    if a.build:
        print(build(a.build, Path(a.positions)), "positions")
        return
    rows = [ln.rstrip("\n").split("\t") for ln in open(a.positions, encoding="utf-8") if not ln.startswith("#")]
    out = open(a.out, "w", encoding="utf-8") if a.out else None
    budgets = [b for b in BUDGETS if b <= a.budget]
    name = a.options or "vct"
    for st in a.sets.split(","):
        found = []
        t = time.perf_counter()
        pos = [r for r in rows if r[0] == st]
        for cls, src, k, text in pos:
            pv, nodes = solve(solver_spec(a.options), text, a.budget, a.threats)
            found.append(nodes if pv else None)
            if out:
                out.write(json.dumps({"solver": name, "set": cls, "src": src, "ply": int(k),
                                      "nodes": nodes, "found": pv is not None,
                                      "len": len(pv) if pv else None}) + "\n")
                out.flush()
        hits = sorted(n for n in found if n is not None)
        within = "  ".join(f"{b // 1000}k: {sum(n <= b for n in hits):3d}" for b in budgets)
        med = statistics.median(hits) if hits else None
        print(f"{name:9s} {st:7s} {len(pos):3d} positions  {within}  median nodes of the wins found: {med}"
              f"  ({time.perf_counter() - t:.0f} s)")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
