"""Nanoseconds per call of the Hare evaluation (``kernels._evaluate``), three players, per weight set.

    python tests/benchmarks/hare_eval_ns.py [--positions 20] [--reps 300]

The states: the children and grandchildren of positions of games played on from
``tests/data/hare_openings_3p.txt`` (``hare_depth_probe.positions``). Each weight set is timed in CPU time
(``time.process_time``: a loaded machine does not inflate it), best of seven rounds, the sets interleaved.
The evaluation is most of a search node's cost (docs/hare.md, eighth session: the default's evaluation
against its nodes per second).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
from numba import njit

sys.path.insert(0, str(Path(__file__).resolve().parent))
from hare_depth_probe import positions

from gamesuite.core.registry import load_game
from gamesuite.games.hare import kernels as K
from gamesuite.games.hare.config import THREE_WEIGHTS, WRITEUP_WEIGHTS, Weights, model_array
from gamesuite.games.hare.rules import HareGame


@njit(nogil=True, _nrt=False)
def _loop(states, cfg, kinds, btab, w, out, reps):  # type: ignore[no-untyped-def]
    acc = 0.0
    for _ in range(reps):
        for i in range(states.shape[0]):
            K._evaluate(states[i], cfg, kinds, btab, w, out)
            acc += out[0]
    return acc


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--positions", type=int, default=20)
    p.add_argument("--reps", type=int, default=300)
    args = p.parse_args()
    game = load_game("hare(players=3)")
    assert isinstance(game, HareGame)
    t = K.Tables(game)
    rows = []
    for s in positions(game, args.positions):
        st = K.pack(s)
        for m in K.gen_moves(st, t):
            c = K.apply(st, t, m)
            rows.append(c)
            if c[K.PHASE] == K.MOVE:
                rows.extend(K.apply(c, t, m2) for m2 in K.gen_moves(c, t))
    states = np.array([r for r in rows if r[K.PHASE] != K.OVER])
    sets = {"the default (three, model=writeup)": model_array(THREE_WEIGHTS, WRITEUP_WEIGHTS, 0),
            "the same, race=0": model_array(THREE_WEIGHTS.replace(race=0), WRITEUP_WEIGHTS, 0),
            "the same, race=0, turns=0": model_array(THREE_WEIGHTS.replace(race=0, turns=0), WRITEUP_WEIGHTS, 0),
            "writeup": WRITEUP_WEIGHTS.array(),
            "the two-player default's weights": Weights().array()}
    out = np.zeros(6)
    best = {k: 1e300 for k in sets}
    for w in sets.values():
        _loop(states, t.cfg, t.kinds, t.board(w), w, out, 1)
    for _ in range(7):
        for k, w in sets.items():
            c0 = time.process_time()
            _loop(states, t.cfg, t.kinds, t.board(w), w, out, args.reps)
            best[k] = min(best[k], (time.process_time() - c0) / (args.reps * len(states)) * 1e9)
    print(f"{len(states)} states of hare(players=3)")
    for k, v in best.items():
        print(f"{k:40s} {v:7.1f} ns per evaluation")
    return 0


if __name__ == "__main__":
    sys.exit(main())
