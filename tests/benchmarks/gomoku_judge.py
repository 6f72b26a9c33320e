"""Where was each lost game decided? Rapfi judges our moves, our engine its choice (run by hand, not a test).

    python tests/benchmarks/gomoku_judge.py OUT.jsonl RUN_DIR... [--engine mtdf] [--nodes 200000]
        [--rapfi PATH] [--rapfi-nodes 200000]

For every game of the arena records (``gamesuite match ... --fresh-engines --save RUN_DIR``) that our
engine lost to a Gomocup brain, a fresh Rapfi process (``INFO MAX_NODE --rapfi-nodes``; fresh per
position because Rapfi ponders after it answers) judges each position from the opening on, until it
proves the loss (a mate against us in two positions running): its eval (from our side; a mate is
+-30000) and its move. For each of our moves, *after* is the lower of Rapfi's evals after it and after
the opponent's reply (the reply position is judged a ply deeper, so an attack Rapfi only sees once it
has started still counts against our move).

- The *decisive* move is the first of ours whose *after* is -600 or worse (a mate included).
- The *culprit* is, of our moves up to the decisive one, the one that lost most against Rapfi's own
  choice (its eval before our move less *after*; a move that is Rapfi's own choice loses nothing).

The culprit is classified: ``own win missed`` (Rapfi saw a forced win for us before it), ``Rapfi's
own choice`` (no move of ours differs from Rapfi's up to the decisive one: the game slipped by
Rapfi's horizon, not by a choice it would change), ``tactical, VCT`` (Rapfi proves a forced win for
the opponent after it, and our own solver finds the opponent's VCT there, 12 threats within 1,000,000
nodes), ``tactical, beyond VCT`` (Rapfi proves the win, our solver does not: the attack needs moves a
VCT of fours and threes does not make, or more than its budget), ``positional`` (a drop to -600 or
below without a proven win).

At the culprit our engine (``--engine`` at ``--nodes``) is replayed as in the arena, one fresh engine
per game (``new_game``, a depth-1 warm-up, each of our moves searched; ``replayed`` says whether it
chose the recorded move), and with its table from that search it then searches the position after our
move and after Rapfi's choice (the opponent to move): ``value_after_ours`` and ``value_after_rapfi``
(from our side, ``M-n`` a mate against us) say whether, once each move is played and searched, our
engine rates Rapfi's choice better (a fault of the root's search: horizon or width) or ours (a fault
of the evaluation, or both lost). ``rank_rapfi`` is the rank of Rapfi's move in the root's static order
(the root searches the first ``wide`` = 20). Also recorded: both moves' cell classes (``own/opp``: the
strongest shape the stone makes for us and the one it takes from the opponent) and the classes of the
opponent's next four moves.

Writes one JSON line per lost game and prints the counts by class.
"""

from __future__ import annotations

import argparse
import collections
import glob
import json
from typing import Any

from gomoku_losses import GAME, MATE, RAPFI, rapfi, static_order  # this directory: the scripts run from it

from gamesuite.core.limits import Limits
from gamesuite.games.gomoku.engine import GomokuEngine, _Searcher

#: the engine's cell classes (``kernels.C_NONE`` ...), short names
CLASSES = ("none", "low", "F2", "B3", "F3", "F3F3", "B4", "B4F3", "F4", "five")
THREATS = {"F3", "F3F3", "B4", "B4F3", "F4", "five"}


def cell_classes(moves: list[str], cell: str, side: int) -> str:
    """``own/opp``: the class a stone of ``side`` on ``cell`` makes, and the opponent's class there."""
    st = GAME.state_from_text(" ".join(moves))
    _, _, cb, cw, _ = _Searcher(GomokuEngine(GAME, hash=1), st, 0).pos.cell_info(GAME.parse_cell(cell))
    c = (cb, cw)
    return f"{CLASSES[c[side]]}/{CLASSES[c[1 - side]]}"


def engine(spec: str) -> GomokuEngine:
    """Our engine from a spec such as ``mtdf,top=12`` (options as integers)."""
    algo, *opts = spec.split(",")
    options: dict[str, Any] = {k: int(v) for k, v in (o.split("=") for o in opts)}
    return GomokuEngine(GAME, algo=algo, **options)


def value(res: Any, pov: int) -> int | str:
    """A search result's score from ``pov``'s side: units, or ``M+n`` / ``M-n`` for a mate."""
    s = res.score
    v = s.value if s.pov == pov else -s.value
    return f"M{v:+d}" if s.kind == "mate" else int(v)


def classify(rec: dict) -> str:
    """The class of a game's culprit move (see the module docstring)."""
    if rec.get("culprit") is None:
        return "no decisive move"
    if rec["before"] >= MATE:
        return "own win missed"
    if rec["same"]:
        return "Rapfi's own choice"
    if rec["after"] <= -MATE:
        return "tactical, VCT" if rec["opp_vct"] else "tactical, beyond VCT"
    return "positional"


def analyse(path: str, spec: str, nodes: int, rapfi_path: str, rapfi_nodes: int) -> dict | None:
    """The judged record of the game at ``path``, or ``None`` if our engine did not lose it."""
    with open(path, encoding="utf-8") as fh:
        r = json.load(fh)
    ours = r["match"]["engine_index"].index(0)
    if r["result"]["returns"][ours] >= 0:
        return None
    start = r["start"].split()
    moves = start + [m["move"] for m in r["moves"]]
    judged: dict[int, tuple[int, int | None, str | None]] = {}
    for k in range(len(start), len(moves)):
        ev, mate, _, mv = rapfi(moves[:k], rapfi_nodes, rapfi_path)
        s = 1 if k % 2 == ours else -1
        judged[k] = (s * ev, None if mate is None else s * mate, mv)
        if judged[k][0] <= -MATE and judged.get(k - 1, (0,))[0] <= -MATE:
            break
    ourk = [k for k in judged if k % 2 == ours and k + 1 in judged]
    after = {k: min(judged[k + 1][0], judged[k + 2][0]) if k + 2 in judged else judged[k + 1][0] for k in ourk}
    rec: dict[str, Any] = {"file": path, "ours": "BW"[ours], "plies": len(moves),
                           "evals": {k: judged[k][0] for k in judged}}
    decisive = next((k for k in ourk if after[k] <= -600), None)
    if decisive is None:
        rec["class"] = classify(rec)
        return rec
    lost = {j: judged[j][0] - after[j] if judged[j][2] != moves[j] else -1 for j in ourk if j <= decisive}
    k = max(lost, key=lambda j: (lost[j], -j))
    rmove = judged[k][2] or moves[k]
    order = static_order(moves[:k])
    rec.update(decisive=decisive, culprit=k, before=judged[k][0], after=after[k], mate_after=judged[k + 1][1],
               our_move=moves[k], rapfi_move=rmove, same=rmove == moves[k],
               our_classes=cell_classes(moves[:k], moves[k], ours),
               rapfi_classes=cell_classes(moves[:k], rmove, ours),
               opp_next=[cell_classes(moves[:j], moves[j], 1 - ours) for j in range(k + 1, min(k + 9, len(moves)), 2)],
               rank_rapfi=order.index(GAME.parse_cell(rmove)) + 1 if GAME.parse_cell(rmove) in order else -1)
    eng = engine(spec)
    st = GAME.state_from_text(r["start"]) if r["start"] else GAME.new_state()
    eng.new_game()
    eng.search(st.copy(), Limits(depth=1))
    for j in range(len(start), k + 1):
        if j % 2 == ours:
            res = eng.search(st.copy(), Limits(nodes=nodes))
            if j == k:
                rec.update(engine_move=GAME.format_cell(res.best_move), engine_value=value(res, ours))
                break
        st.play(GAME.parse_cell(moves[j]))
    rec["replayed"] = rec.get("engine_move") == moves[k]
    for tag, mv in (("value_after_ours", moves[k]), ("value_after_rapfi", rmove)):
        s2 = st.copy()
        s2.play(GAME.parse_cell(mv))
        rec[tag] = value(eng.search(s2, Limits(nodes=nodes)), ours)
    pv = GomokuEngine(GAME, hash=16).solve_vct(GAME.state_from_text(" ".join(moves[:k + 1])), threats=12,
                                               budget=1_000_000)
    rec["opp_vct"] = None if pv is None else len(pv)
    rec["class"] = classify(rec)
    return rec


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out")
    ap.add_argument("runs", nargs="+")
    ap.add_argument("--engine", default="mtdf", help="our engine's spec, as in the match (without @nodes)")
    ap.add_argument("--nodes", type=int, default=200_000)
    ap.add_argument("--rapfi", default=RAPFI)
    ap.add_argument("--rapfi-nodes", type=int, default=200_000)
    args = ap.parse_args()
    counts: collections.Counter[str] = collections.Counter()
    with open(args.out, "w", encoding="utf-8") as fo:
        for d in args.runs:
            for f in sorted(glob.glob(f"{d}/game-*.json")):
                rec = analyse(f, args.engine, args.nodes, args.rapfi, args.rapfi_nodes)
                if rec is None:
                    continue
                fo.write(json.dumps(rec) + "\n")
                fo.flush()
                counts[rec["class"]] += 1
                print(f, rec["class"], rec.get("our_move"), rec.get("rapfi_move"), flush=True)
    for name, n in counts.most_common():
        print(f"{n:4d}  {name}")


if __name__ == "__main__":
    main()
