"""Where does our engine first see that a game is lost? (run by hand, not a test)

    python tests/benchmarks/gomoku_critical.py OUT.jsonl RUN_DIR... [--engine mtdf] [--nodes 200000]

Replays every game of the arena records (``gamesuite match ... --fresh-engines --save RUN_DIR``)
that our engine lost, with one fresh engine per game searched as the arena did (``new_game``,
a depth-1 warm-up search of the start, then ``--nodes`` at each of our moves, the recorded moves
played), so each search sees the same table as in the game (``same`` says whether every search
chose the recorded move). The *first proven loss* is the first of our moves whose search returns a
mate score against us; the *critical move* is our move just before it. After the critical move the
opponent's VCT (up to ``ROOTDEF_THREATS`` threats, the ``rootdef`` check) is looked for within
5,000, 20,000 and 100,000 nodes. Writes one JSON line per lost game (every search's move, score and
depth) and prints the counts.
"""

from __future__ import annotations

import argparse
import collections
import glob
import json
import statistics
from typing import Any

import numpy as np

from gamesuite.core.limits import Limits
from gamesuite.games.gomoku.engine import GomokuEngine, _Searcher
from gamesuite.games.gomoku.rules import Gomoku
from gamesuite.search.tt import clear_table

BUDGETS = (5000, 20000, 100000)


def engine(game: Gomoku, spec: str) -> GomokuEngine:
    """Our engine from a spec such as ``mtdf,top=12`` (options as integers)."""
    algo, *opts = spec.split(",")
    options: dict[str, Any] = {k: int(v) for k, v in (o.split("=") for o in opts)}
    return GomokuEngine(game, algo=algo, **options)


def replay(path: str, spec: str, nodes: int) -> dict | None:
    """The lost game at ``path`` replayed (see the module docstring), or ``None`` if we did not lose it."""
    game = Gomoku(size=15)
    with open(path, encoding="utf-8") as fh:
        r = json.load(fh)
    ours = r["match"]["engine_index"].index(0)
    if r["result"]["returns"][ours] >= 0:
        return None
    eng = engine(game, spec)
    st = game.state_from_text(r["start"]) if r["start"] else game.new_state()
    eng.new_game()
    eng.search(st.copy(), Limits(depth=1))
    rows, states = [], []
    for mv in (m["move"] for m in r["moves"]):
        if st.current_player == ours:
            res = eng.search(st.copy(), Limits(nodes=nodes))
            sc = res.score
            assert res.best_move is not None
            rows.append({"move": mv, "got": game.format_cell(res.best_move), "kind": sc.kind,
                         "value": sc.value if sc.pov == ours else -sc.value, "depth": res.depth})
            states.append(st.copy())
        st.play(game.parse_cell(mv))
    first = next((i for i, x in enumerate(rows) if x["kind"] == "mate" and x["value"] < 0), None)
    refuted: dict[int, bool] = {}
    if first:
        flag = np.zeros(1, dtype=np.uint8)
        judge = engine(game, spec)
        for budget in BUDGETS:
            clear_table(judge.vt)
            refuted[budget] = bool(_Searcher(judge, states[first - 1], 0).refutes(
                game.parse_cell(rows[first - 1]["move"]), flag, budget))
    return {"file": path, "same": all(x["move"] == x["got"] for x in rows), "first": first,
            "refuted": refuted, "rows": rows}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out")
    ap.add_argument("runs", nargs="+")
    ap.add_argument("--engine", default="mtdf", help="our engine's spec, as in the match (without @nodes)")
    ap.add_argument("--nodes", type=int, default=200000)
    args = ap.parse_args()
    found: collections.Counter[str] = collections.Counter()
    ahead: list[int] = []
    with open(args.out, "w", encoding="utf-8") as fo:
        for d in args.runs:
            for f in sorted(glob.glob(f"{d}/game-*.json")):
                rec = replay(f, args.engine, args.nodes)
                if rec is None:
                    continue
                fo.write(json.dumps(rec) + "\n")
                fo.flush()
                found["lost"] += 1
                found["replayed the same"] += rec["same"]
                if rec["first"] is not None:
                    ahead.append(len(rec["rows"]) - rec["first"])
                for b in BUDGETS:
                    found[f"critical move refuted within {b}"] += rec["refuted"].get(b, False)
    for k, v in found.items():
        print(f"{k}: {v}")
    if ahead:
        print(f"our moves from the first proven loss to the end: mean {statistics.mean(ahead):.1f}, "
              f"median {statistics.median(ahead)}")


if __name__ == "__main__":
    main()
