"""Where are the games against Rapfi lost? (run by hand, not a test)

    python tests/benchmarks/gomoku_losses.py RUN_DIR... [--rapfi PATH] [--nodes 200000] [--out FILE]

Reads the arena records (``gamesuite match ... --save RUN_DIR``) of games
our engine lost to a Gomocup brain named ``...rapfi...``, and judges every
position of each such game with a fresh Rapfi process (``INFO MAX_NODE``
``--nodes``; a fresh process per position because Rapfi ponders after it
answers): its eval, best line and move. For each of our moves it compares
Rapfi's eval after our move with its eval after Rapfi's own choice there
(both with the opponent to move, from our side; a mate is +-30000).

The *critical move* of a game is the first of our moves after which Rapfi
sees a decisive disadvantage (-600 or a mate) while its own choice kept the
eval above -300; where there is none, the game was already lost when its
first decisive move came (no saving move Rapfi could name). A critical move
after which Rapfi announces a mate is *tactical*, and our own threat solver
is asked whether it sees the opponent's VCT after it (6 threats in 100,000
nodes, the engine's usual reach, and 12 threats in 1,000,000); otherwise it
is *positional*. Each critical position also gets the rank of Rapfi's move in
the root's static move order (``top`` moves are searched; a rank above it
was never searched), and our engine's move and value at 200,000 nodes.

Prints one JSON line per game and the counts of the classes; ``--out`` keeps
Rapfi's judgement of every position (JSON lines).
"""

from __future__ import annotations

import argparse
import collections
import glob
import json
import re
import sys
from pathlib import Path
from typing import NamedTuple

from gomoku_forced_wins import ask_rapfi  # this directory: the scripts run from it

from gamesuite.core.limits import Limits
from gamesuite.games.gomoku.engine import GomokuEngine, _Searcher
from gamesuite.games.gomoku.rules import Gomoku

RAPFI = "/work/shared/anchors/pbrain-rapfi"
MATE = 30000
GAME = Gomoku(size=15)
_EVAL = re.compile(r"Eval ([-+]?)(M?)\s*(\d+)")


class Answer(NamedTuple):
    """Rapfi's answer for a position: its eval for the side to move (a mate is +-MATE), the mate's plies
    (signed, None without a mate), its best line and its move."""

    ev: int
    mate: int | None
    best: str
    move: str | None


def rapfi(moves: list[str], nodes: int, path: str) -> Answer:
    """Ask a fresh Rapfi process (``INFO MAX_NODE nodes``) about the position after ``moves``."""
    p = ask_rapfi(path, [GAME.parse_cell(m) for m in moves], 15,
                  [f"INFO MAX_NODE {nodes}", "INFO timeout_turn 60000", "INFO timeout_match 0", "INFO rule 0"])
    assert p.stdout is not None
    ev, mate, best, move = 0, None, "", None
    try:
        for line in p.stdout:
            mt = _EVAL.search(line)
            if mt:
                sign = -1 if mt.group(1) == "-" else 1
                ev, mate = (sign * MATE, sign * int(mt.group(3))) if mt.group(2) else (sign * int(mt.group(3)), None)
            if "Bestline" in line:
                best = line.split("Bestline", 1)[1].strip()
            if re.fullmatch(r"\d+,\d+\s*", line):
                x, y = map(int, line.split(","))
                move = GAME.format_cell(y * 15 + x)
                break
    finally:
        p.kill()
        p.wait()
    return Answer(ev, mate, best, move)


def static_order(moves: list[str]) -> list[int]:
    """The root's candidates (cells within two of a stone) in the generator's static order."""
    st = GAME.state_from_text(" ".join(moves))
    pos = _Searcher(GomokuEngine(GAME, hash=1), st, 0).pos
    me = st.stones & 1
    scored = []
    for c in range(GAME.cells):
        r, cc = divmod(c, 15)
        if st.board[c] != 0 or not any(0 <= r + dr < 15 and 0 <= cc + dc < 15 and st.board[(r + dr) * 15 + cc + dc]
                                       for dr in range(-2, 3) for dc in range(-2, 3)):
            continue
        vb, vw, cb, cw, _ = pos.cell_info(c)
        v, k = (vb, vw), (cb, cw)
        scored.append((4 * v[me] + 3 * v[1 - me] + (k[me] ** 2 + k[1 - me] ** 2) * 64, c))
    return [c for _, c in sorted(scored, reverse=True)]


def opponent_vct(moves: list[str], threats: int, budget: int) -> int | None:
    """Plies of the side to move's VCT that our solver finds, or None."""
    pv = GomokuEngine(GAME, hash=16).solve_vct(GAME.state_from_text(" ".join(moves)), threats=threats,
                                                budget=budget)
    return None if pv is None else len(pv)


def analyse(path: str, rapfi_path: str, nodes: int, out) -> dict | None:  # type: ignore[no-untyped-def]
    g = json.loads(Path(path).read_text())
    names = [p["name"] for p in g["players"]]
    ours = next(i for i, n in enumerate(names) if "rapfi" not in n)
    if g["result"]["returns"][ours] >= 0:
        return None
    moves = g["start"].split() + [m["move"] for m in g["moves"]]
    judged = {}
    for k in range(len(g["start"].split()), len(moves)):
        ev, _, best, move = rapfi(moves[:k], nodes, rapfi_path)
        judged[k] = (ev if k % 2 == ours else -ev, best, move)  # from our side
    rows = []  # (ply, eval after our move, eval after Rapfi's choice)
    for k in sorted(judged):
        if k % 2 != ours or k + 1 not in judged:
            continue
        after = judged[k + 1][0]
        alt = after if judged[k][2] == moves[k] else rapfi(moves[:k] + [judged[k][2]], nodes, rapfi_path).ev * -1
        rows.append((k, after, alt))
    if out is not None:
        out.write(json.dumps({"file": path, "ours": ours, "moves": moves, "judged": judged, "rows": rows}) + "\n")
    crit = next(((k, a, b) for k, a, b in rows if a <= -600 and b > -300), None)
    rec: dict = {"game": path, "ours": "BW"[ours], "plies": len(moves)}
    if crit is None:
        rec["class"] = "already lost"
        return rec
    k, after, alt = crit
    order = static_order(moves[:k])
    rmove = judged[k][2] or moves[k]
    rank = order.index(GAME.parse_cell(rmove)) + 1 if GAME.parse_cell(rmove) in order else -1
    res = GomokuEngine(GAME).search(GAME.state_from_text(" ".join(moves[:k])), Limits(nodes=200_000))
    rec.update(ply=k, our_move=moves[k], after=after, rapfi_move=rmove, after_rapfi_move=alt, rank=rank,
               engine_move=GAME.format_cell(res.best_move), engine_score=str(res.score))
    if after > -MATE:
        rec["class"] = "positional"
    elif opponent_vct(moves[:k + 1], 6, 100_000):
        rec["class"] = "tactical, VCT within 6 threats"
    elif opponent_vct(moves[:k + 1], 12, 1_000_000):
        rec["class"] = "tactical, VCT within 12 threats"
    else:
        rec["class"] = "tactical, beyond our VCT"
    return rec


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dirs", nargs="+")
    ap.add_argument("--rapfi", default=RAPFI)
    ap.add_argument("--nodes", type=int, default=200_000)
    ap.add_argument("--out")
    a = ap.parse_args(argv)
    out = open(a.out, "w") if a.out else None
    counts: collections.Counter[str] = collections.Counter()
    ranks: collections.Counter[str] = collections.Counter()
    for d in a.dirs:
        for f in sorted(glob.glob(f"{d}/game-*.json")):
            rec = analyse(f, a.rapfi, a.nodes, out)
            if rec is None:
                continue
            print(json.dumps(rec), flush=True)
            counts[rec["class"]] += 1
            if "rank" in rec:
                ranks["Rapfi's move beyond the root's 10" if not 0 < rec["rank"] <= 10 else "within 10"] += 1
    for name, n in counts.most_common():
        print(f"{n:4d}  {name}")
    print(dict(ranks))
    if out is not None:
        out.close()


if __name__ == "__main__":
    sys.exit(main())
