"""Texel-style tuning of the alphabeta engine's evaluation from game outcomes (run by hand, not a test).

    python tests/benchmarks/gomoku_tune.py collect RUN_DIR... --out positions.npz [--skip 2]
    python tests/benchmarks/gomoku_tune.py fit positions.npz [--out weights.json] [--l2 1e-4]

``collect`` replays the game records that ``gamesuite match ... --save RUN_DIR``
wrote (our own games: self-play and arena matches; no position is labelled by
another engine) and keeps every position from ``--skip`` plies after the
opening on where neither side has a five point nor the side to move an
open-four point (those are settled by the search, not the evaluation), with
its features and the game's result for the side to move (1, 0.5, 0).

``fit`` fits the evaluation's linear form (``evaluation.py``) to those results
by logistic regression, ``P(side to move wins) = 1 / (1 + exp(-value / S))``
(``S`` = ``--scale`` evaluation units): the weights of both sides' direction
patterns (counted over the empty cells), of both sides' empty cells by class
and the threat terms (the cell values stay the classic ones: they order the
moves). It prints the log-loss of the classic evaluation (at its best scale)
and of the fit on a held-out fifth of the games, and writes the weights in
``eval_weights.json``'s shape (the cell values and search parameters copied
from the current file).
"""

from __future__ import annotations

import argparse
import glob
import json
import sys
from pathlib import Path

import numpy as np

from gamesuite.core.registry import load_game
from gamesuite.games.gomoku import absearch as A
from gamesuite.games.gomoku import kernels as K
from gamesuite.games.gomoku.engine import Position
from gamesuite.games.gomoku.evaluation import Weights, load_weights, save_weights

NP = K.NPAT


def features(pos: Position) -> np.ndarray:
    """Per colour (side to move first): pattern counts over the empty cells' four directions (12), the
    class bonus counts (double four, 4-3, 3-3), class counts (10); then the four threat indicators."""
    g = pos.g
    me = int(g[K.STONES] & 1)
    op = 1 - me
    empty = np.flatnonzero(pos.bd == 0)
    out = []
    for c in (me, op):
        cp = pos.cp[empty, c]
        nib = np.stack([(cp >> (4 * d)) & 15 for d in range(4)], axis=1)
        pc = np.bincount(nib.ravel(), minlength=16)[:NP]
        cls = pos.ci[empty, K.CI_CB + c]
        has_open = ((nib == 8) | (nib == 9)).any(axis=1)  # F4 / DF4 patterns
        df = int(((cls == K.C_F4) & ~has_open).sum())
        cc = np.array([int(g[K.CNT + c * K.NCLASS + k]) for k in range(K.NCLASS)])
        out.append(np.concatenate([pc, [df, cc[K.C_B4F3], cc[K.C_F3F3]], cc]))
    cm = out[0][NP + 3:]
    co = out[1][NP + 3:]
    t = np.zeros(4)
    if co[K.C_F4] > 0:
        t[2] = cm[K.C_B4] + cm[K.C_B4F3] == 0
    elif cm[K.C_B4F3] > 0:
        t[0] = 1
    elif cm[K.C_F3F3] > 0 and co[K.C_B4] + co[K.C_B4F3] == 0:
        t[1] = 1
    t[3] = co[K.C_B4F3] + co[K.C_F3F3] > 0
    return np.concatenate([out[0], out[1], t]).astype(np.float64)


def collect(dirs: list[str], out: str, skip: int) -> None:
    game = load_game("gomoku")
    X, y, gid = [], [], []
    files = sorted(f for d in dirs for f in glob.glob(str(Path(d) / "game-*.json")))
    for n, f in enumerate(files):
        rec = json.loads(Path(f).read_text())
        if rec.get("game") != "gomoku(size=15,rule=freestyle)" or rec.get("error") or rec["result"] == "*":
            continue
        state = game.state_from_text(rec["start"])
        moves = [state.parse_move(m) for m in rec["moves"]]
        for m in moves[: rec["opening_plies"]]:
            state.play(m)
        ret = rec["returns"]  # per seat: seat 0 black
        pos = Position(game, state.board.copy())
        for ply, m in enumerate(moves[rec["opening_plies"]:]):
            if ply >= skip:
                me = int(pos.g[K.STONES] & 1)
                cm = pos.cnt[me]
                co = pos.cnt[1 - me]
                if cm[K.C_FIVE] == 0 and co[K.C_FIVE] == 0 and cm[K.C_F4] == 0:
                    X.append(features(pos))
                    y.append((ret[me] + 1) / 2)
                    gid.append(n)
            pos.place(m)
    np.savez_compressed(out, X=np.array(X), y=np.array(y), gid=np.array(gid))
    print(f"{len(y)} positions from {len(files)} games -> {out}")


def _design(X: np.ndarray) -> tuple[np.ndarray, list[str]]:
    """The linear model's columns: pattern weights as (me - op) and (me + op) combinations are kept
    apart so that the fit can show an asymmetry; classes and threats as they are."""
    L = NP + 3 + K.NCLASS
    me, op, t = X[:, :L], X[:, L:2 * L], X[:, 2 * L:]
    cols, names = [], []
    pats = list(range(1, 10))  # B1..DF4 (a five point is never evaluated: the search settles it)
    for k in pats:
        cols.append(me[:, k])
        names.append(f"pat_me_{k}")
    for k in pats:
        cols.append(-op[:, k])
        names.append(f"pat_op_{k}")
    for c in range(2, K.NCLASS - 1):
        cols.append(me[:, NP + 3 + c])
        names.append(f"me_{c}")
        cols.append(-op[:, NP + 3 + c])
        names.append(f"op_{c}")
    for j, n in enumerate(("win43", "win33", "def3", "op43")):
        cols.append(t[:, j] * (1 if j < 2 else -1))
        names.append(n)
    if HAS:
        for c in range(2, K.NCLASS - 1):
            cols.append((me[:, NP + 3 + c] > 0).astype(float))
            names.append(f"hme_{c}")
            cols.append(-(op[:, NP + 3 + c] > 0).astype(float))
            names.append(f"hop_{c}")
    return np.stack(cols, axis=1), names


HAS = False


def _logloss(z: np.ndarray, y: np.ndarray) -> float:
    p = 1 / (1 + np.exp(-np.clip(z, -30, 30)))
    p = np.clip(p, 1e-9, 1 - 1e-9)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def _fit_logistic(D: np.ndarray, y: np.ndarray, l2: float, iters: int = 300) -> np.ndarray:
    """Newton's method on the L2-regularized log-loss (columns standardized inside)."""
    sd = D.std(axis=0) + 1e-9
    Z = D / sd
    w = np.zeros(Z.shape[1])
    n = len(y)
    for _ in range(iters):
        p = 1 / (1 + np.exp(-np.clip(Z @ w, -30, 30)))
        grad = Z.T @ (p - y) / n + l2 * w
        H = (Z * (p * (1 - p))[:, None]).T @ Z / n + l2 * np.eye(len(w))
        step = np.linalg.solve(H, grad)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return w / sd


def _classic_value(X: np.ndarray) -> np.ndarray:
    L = NP + 3 + K.NCLASS
    w = K.WEIGHTS.astype(np.float64)
    tot = lambda s: s[:, :NP] @ w[:NP] + s[:, NP:NP + 3] @ w[NP:]  # noqa: E731
    return (5 * tot(X[:, :L]) - 4 * tot(X[:, L:2 * L])) / 4


def fit(path: str, out: str | None, l2: float, scale: float) -> None:
    data = np.load(path)
    X, y, gid = data["X"], data["y"], data["gid"]
    test = gid % 5 == 0
    print(f"{len(y)} positions, {int(test.sum())} held out; mean result for the side to move {y.mean():.3f}")
    cv = _classic_value(X)
    best = min((_logloss(cv[~test] / s, y[~test]), s) for s in (50, 100, 200, 300, 500, 800, 1200, 2000))
    print(f"classic evaluation: best scale {best[1]}, log-loss train {best[0]:.4f}, "
          f"test {_logloss(cv[test] / best[1], y[test]):.4f}")
    D, names = _design(X)
    w = _fit_logistic(D[~test], y[~test], l2)
    print(f"fit: log-loss train {_logloss(D[~test] @ w, y[~test]):.4f}, test {_logloss(D[test] @ w, y[test]):.4f}")
    npat = 9
    for r in (0.5, 0.7, 0.8, 0.9, 1.0, 1.2):
        # shared pattern weights, the opponent's counted r times: eval = w . (n_me - r n_op) + ...
        Dr = np.concatenate([D[:, :npat] + r * D[:, npat:2 * npat], D[:, 2 * npat:]], axis=1)
        wr = _fit_logistic(Dr[~test], y[~test], l2)
        print(f"  shared patterns, opponent x{r}: log-loss train {_logloss(Dr[~test] @ wr, y[~test]):.4f}, "
              f"test {_logloss(Dr[test] @ wr, y[test]):.4f}")
    pats = list(range(1, 10))
    npat = len(pats)
    u = w[:npat] * scale
    v = w[npat:2 * npat] * scale
    print("pattern weights, side to move / opponent:")
    for k, a, b in zip(pats, u, v):
        print(f"  {k:>2} {a:9.2f} {b:9.2f}")
    for n, x in zip(names[2 * npat:], w[2 * npat:] * scale):
        print(f"  {n:<8} {x:9.2f}")
    if out:
        cur = load_weights()
        ev = np.zeros(A.NEVAL, dtype=np.int64)
        for k, a, b in zip(pats, u, v):
            ev[A.E_PME + k] = int(round(a))
            ev[A.E_POP + k] = int(round(b))
        for j, c in enumerate(range(2, K.NCLASS - 1)):
            ev[A.E_ME + c] = int(round(w[2 * npat + 2 * j] * scale))
            ev[A.E_OP + c] = int(round(w[2 * npat + 1 + 2 * j] * scale))
        base = 2 * npat + 2 * (K.NCLASS - 3)
        for j, e in enumerate((A.E_WIN43, A.E_WIN33, A.E_DEF3, A.E_OP43)):
            ev[e] = int(round(w[base + j] * scale))
        ev[A.E_SCALE] = 16
        save_weights(Weights(cur.combo, ev, cur.search), out)
        print(f"weights written to {out}")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("collect")
    c.add_argument("dirs", nargs="+")
    c.add_argument("--out", required=True)
    c.add_argument("--skip", type=int, default=2)
    f = sub.add_parser("fit")
    f.add_argument("path")
    f.add_argument("--out")
    f.add_argument("--l2", type=float, default=1e-4)
    f.add_argument("--scale", type=float, default=300.0, help="evaluation units per logistic unit")
    args = ap.parse_args(argv)
    if args.cmd == "collect":
        collect(args.dirs, args.out, args.skip)
    else:
        fit(args.path, args.out, args.l2, args.scale)


if __name__ == "__main__":
    main(sys.argv[1:])
