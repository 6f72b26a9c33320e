"""Texel tuning of the shogi evaluation: fit its weights by logistic regression to the outcomes of games, to our
own search's values of their positions, or to a mix of the two.

    python -m gamesuite.games.shogi.texel DIR [DIR ...] [--out FILE] [--iterations N] [--l2 X] ...

Reads the arena's game records (``gamesuite match ... --save DIR``: our own
games, self-play or matches; no other program's evaluation is used), takes the
positions of each game past the opening, made quiet (not in check, no capture
that wins material by SEE; a position with winning captures is replaced by the
one after them, up to four, as a quick stand-in for the quiescence search's
line) with the game's result, and fits the weights of
``evaluation.py`` so that ``sigmoid(eval / K)`` predicts the result (the
method Peter Österlund described for Texel: first the scale ``K`` that fits the
starting weights best, then the weights, here by Adam on the cross-entropy
with an L2 pull toward the starting weights, so that features seen rarely stay
near their hand-set values). Left-right mirror squares of the piece-square
tables share one weight, and so do those of the KPA tables (``evaluation.py``)
with the king on the middle file. ``--l2-kpa`` sets the pull of the KPA tables
apart; the fit turns them on when it leaves any of their weights not 0; ``--no-kpa`` leaves them out (their
features dropped) and writes the weights in the layout without them. A tenth
of the games (every tenth) is held out and its loss printed, to see over-fitting.

With ``--label-nodes N`` every position is also searched by our engine (``N`` nodes, the weights it loads)
and ``--lam`` mixes the two targets; ``--lam 0`` fits the evaluation to the search alone (its value through
``sigmoid(value / K)``, with ``--scale`` the K of the search's own scale). The shipped weights
(``shogi_eval.npz``) are two such fits in turn: ``--start default --label-nodes 10000 --lam 0 --scale 400
--l2 0.002`` on about 158,000 positions of our games against YaneuraOu (docs/shogi.md, "Seventeenth
session"), then ``--start loaded`` with the same labelling by the engine that played them, on 110,913
positions of later games, ``--l2 2e-5`` ("Nineteenth session").

The result is written to ``evaluation.WEIGHTS_FILE`` (or ``--out``), where the
engine finds it.

A ``--cache`` file holds features of one layout of the weights (``esize``); after the layout changes, keep its
labels (the costly searches) with new features::

    python -m gamesuite.games.shogi.texel DIR [DIR ...] --cache OLD.npz --refeature NEW.npz [--skip N]

which reads the positions of the records again (the same ``--skip`` as for ``OLD``), checks that they are the
cached ones, and writes ``NEW``.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ...arena.texel import Adam, best_scale, cross_entropy, label_caches
from ...core.errors import quote
from ...core.files import write_npz
from .board import SLIDE_MASK, STEP_MASK
from .evaluation import (
    E_HAND,
    E_KPA,
    E_KPA_ON,
    E_KPE,
    E_MOB,
    E_PST,
    E_SIZE,
    E_SIZE_V1,
    E_VAL,
    MAX_FEATURES,
    SQS,
    WEIGHTS_FILE,
    _features,
    kpa_index,
    load_weights,
)
from .kernels import MAX_MOVES, SCRATCH, _captures


@dataclass
class Dataset:
    """Positions as sparse feature rows (Sente's view) with the game's result for Sente (1, 0.5, 0)."""

    rowptr: np.ndarray  # (n + 1,) int64
    idx: np.ndarray  # weight indices, int32
    coef: np.ndarray  # their coefficients, float64
    y: np.ndarray  # (n,) float64
    game: np.ndarray  # (n,) int32, the game each position comes from
    v: np.ndarray  # (n,) float64, our own search's value for Sente (NaN: not searched)

    @property
    def size(self) -> int:
        return len(self.y)

    def subset(self, rows: np.ndarray) -> Dataset:
        starts, ends = self.rowptr[rows], self.rowptr[rows + 1]
        lens = ends - starts
        take = np.concatenate([np.arange(a, b) for a, b in zip(starts, ends)]) if len(rows) else np.zeros(0, int)
        return Dataset(np.concatenate([[0], np.cumsum(lens)]), self.idx[take], self.coef[take], self.y[rows],
                       self.game[rows], self.v[rows])

    def without_kpa(self) -> Dataset:
        """The same positions without their KPA features (a fit of the rest alone; the tables stay off)."""
        keep = self.idx < E_KPA
        rows = np.repeat(np.arange(self.size), np.diff(self.rowptr))
        lens = np.bincount(rows[keep], minlength=self.size)
        return Dataset(np.concatenate([[0], np.cumsum(lens)]).astype(np.int64), self.idx[keep], self.coef[keep],
                       self.y, self.game, self.v)

    @staticmethod
    def concat(parts: list[Dataset]) -> Dataset:
        """One dataset of ``parts`` in order; each part's games keep their own numbers, shifted past the last's."""
        rowptr, games = [np.zeros(1, np.int64)], []
        rows = shift = 0
        for d in parts:
            rowptr.append(d.rowptr[1:] + rows)
            rows += int(d.rowptr[-1])
            games.append(d.game + shift)
            shift += int(d.game.max()) + 1 if d.size else 0
        return Dataset(np.concatenate(rowptr), np.concatenate([d.idx for d in parts]),
                       np.concatenate([d.coef for d in parts]), np.concatenate([d.y for d in parts]),
                       np.concatenate(games).astype(np.int32), np.concatenate([d.v for d in parts]))


def save_cache(path: str | Path, data: Dataset) -> None:
    """Write ``data`` as a ``--cache`` file, with the size of the weights' layout its features index."""
    write_npz(path, {"rowptr": data.rowptr, "idx": data.idx, "coef": data.coef, "y": data.y, "game": data.game,
                     "v": data.v, "esize": np.int64(E_SIZE)}, compressed=False)


def read_cache(path: str | Path, check_layout: bool = True) -> Dataset:
    """A ``--cache`` file; ``ValueError`` when its features are of another layout than the evaluation's now
    (``check_layout=False``: read them anyway)."""
    with np.load(path) as z:
        esize = int(z["esize"]) if "esize" in z.files else E_SIZE_V1
        if check_layout and esize != E_SIZE:
            raise ValueError(f"{quote(str(path))} holds features of a layout of {esize} weights, the evaluation "
                             f"now has {E_SIZE}: make them anew, keeping the labels, with --cache {path} "
                             f"--refeature NEW.npz (and the same record directories and --skip)")
        return Dataset(z["rowptr"], z["idx"], z["coef"], z["y"], z["game"], z["v"])


def refeature(dirs: list[str], old: str | Path, new: str | Path, skip: int = 16, log=print) -> Dataset:  # type: ignore[no-untyped-def]
    """The positions of ``dirs`` with today's features and the labels (``v``) of the cache ``old``, written to
    ``new``; ``ValueError`` when the positions read are not those of ``old`` (count, results, games)."""
    was = read_cache(old, check_layout=False)
    data = load_positions(dirs, skip, label_nodes=0, log=log)
    where = f"the positions of {', '.join(quote(d) for d in dirs)} (--skip {skip}) and {quote(str(old))}"
    if data.size != was.size:
        raise ValueError(f"{where} differ: {data.size} positions against {was.size}")
    for name in ("y", "game"):
        diff = np.flatnonzero(getattr(data, name) != getattr(was, name))
        if len(diff):
            raise ValueError(f"{where} differ: {name} of position {int(diff[0])} (and {len(diff) - 1} more)")
    data.v = was.v.copy()
    save_cache(new, data)
    log(f"wrote {new}: {data.size} positions, the labels of {old}")
    return data


def _winning_capture(state, prm: np.ndarray, buf: np.ndarray, scratch: np.ndarray) -> int:  # type: ignore[no-untyped-def]
    """The capture that wins the most by SEE's reckoning (the most valuable victim among those that win), or -1."""
    from .search import P_SEEV, _see_ge

    g = state.g
    n = _captures(state.board, state.kings, np.int64(state.color), g.geo, g.sq2p, g.p2sq, g.rel, g.dirs, STEP_MASK,
                  SLIDE_MASK, g.tab, buf, scratch)
    best, best_value = -1, -1
    for x in range(n):
        m = int(buf[x])
        victim = int(prm[P_SEEV + (state.board[g.sq2p[(m >> 1) & 127]] & 15)])
        if victim > best_value and _see_ge(state.board, np.int64(m), np.int64(state.color), np.int64(1),
                                           np.int64(g.N), g.sq2p, g.dirs, STEP_MASK, SLIDE_MASK, np.int64(g.W), prm,
                                           scratch):
            best, best_value = m, victim
    return best


def quiet_position(state, prm: np.ndarray, buf: np.ndarray, scratch: np.ndarray, steps: int = 4):  # type: ignore[no-untyped-def]
    """``state`` if it is quiet (not in check, no capture that wins by SEE), else the position after up to
    ``steps`` winning captures by either side (a quick stand-in for the quiescence search's line), or None
    when that does not end in a quiet position."""
    s = state
    for _ in range(steps + 1):
        if s.in_check() or s.is_terminal():
            return None
        m = _winning_capture(s, prm, buf, scratch)
        if m < 0:
            return s
        if s is state:
            s = state.copy()
        s.play(m)
    return None


def load_positions(dirs: list[str], skip: int = 16, variant: str = "standard", label_nodes: int = 0,
                   log=print) -> Dataset:  # type: ignore[no-untyped-def]
    """The positions (from ply ``skip`` on, made quiet) of the game records under ``dirs`` with each game's
    result, read by the arena's ``positions`` (games ended by an adjudication are left out); with
    ``label_nodes``, each also with the value of our engine's search of that many nodes."""
    from ...arena.positions import positions
    from ...core.limits import Limits
    from ...core.registry import load_game
    from .engine import search_params
    from .evaluation import hand_values, piece_values

    prm = search_params(piece_values(), hand_values())
    buf = np.zeros(MAX_MOVES, dtype=np.int32)
    scratch = np.zeros(SCRATCH, dtype=np.int64)
    fidx = np.zeros(MAX_FEATURES, dtype=np.int64)
    fcoef = np.zeros(MAX_FEATURES, dtype=np.int64)
    rows: list[int] = [0]
    idx: list[np.ndarray] = []
    coef: list[np.ndarray] = []
    ys: list[float] = []
    games: list[int] = []
    sources: dict[str, int] = {}
    games_of: dict[str, object] = {}
    values: list[float] = []
    searcher = None
    t0 = time.time()
    for p in positions(dirs):
        if p.ply < skip:
            continue
        game = games_of.get(p.game)
        if game is None:
            game = games_of[p.game] = load_game(p.game)
        if game.geometry.variant != variant:  # type: ignore[attr-defined]
            continue
        if p.source not in sources:
            sources[p.source] = len(sources)
            if len(sources) % 500 == 0:
                log(f"{len(sources)} games, {len(ys)} positions, {time.time() - t0:.0f} s")
        q = quiet_position(game.state_from_text(p.text), prm, buf, scratch)  # type: ignore[attr-defined]
        if q is None:
            continue
        g = q.g
        n = _features(q.board, q.hands, q.kings, np.int64(q.color), g.geo, g.sq2p, g.rel, g.pfile, g.dirs,
                      SLIDE_MASK, fidx, fcoef)
        idx.append(fidx[:n].astype(np.int32))
        coef.append(fcoef[:n].astype(np.float64))
        rows.append(rows[-1] + n)
        sente = p.returns[0]
        ys.append((sente + 1) / 2)
        games.append(sources[p.source])
        value = float("nan")
        if label_nodes > 0:
            if searcher is None:
                from .engine import ShogiEngine

                searcher = ShogiEngine(game, hash=16, mate=0)  # type: ignore[arg-type]
            sc = searcher.search(q, Limits(nodes=label_nodes)).score.for_player(0)
            value = float(sc.value) if sc.kind != "mate" else (MATE_VALUE if sc.value > 0 else -MATE_VALUE)
        values.append(value)
    log(f"{len(sources)} games, {len(ys)} positions")
    return Dataset(np.array(rows, dtype=np.int64), np.concatenate(idx) if idx else np.zeros(0, np.int32),
                   np.concatenate(coef) if coef else np.zeros(0), np.array(ys), np.array(games, dtype=np.int32),
                   np.array(values))


#: A mate found by the labelling search counts as this value (centi-pawns, Sente's view).
MATE_VALUE = 30000.0


def tie_map(files: int) -> np.ndarray:
    """Weight index -> parameter index: mirror squares of the piece-square tables, and of the KPA tables with the
    king on the middle file, share a parameter; the worth of holding no piece and the KPA flag are fixed (-1)."""
    tie = np.arange(E_SIZE, dtype=np.int64)
    mid = files // 2
    for t in range(16):
        for sq in range(files * files):
            r, f = divmod(sq, files)
            m = files - 1 - f
            if m < f:
                tie[E_PST + t * SQS + sq] = E_PST + t * SQS + r * files + m
                for king in range(2):
                    for kr in range(files):
                        tie[kpa_index(files, king, kr, mid, t, r, f)] = kpa_index(files, king, kr, mid, t, r, m)
    for k in range(8):
        tie[E_HAND + k * 20] = -1
    tie[E_KPA_ON] = -1
    used = np.unique(tie[tie >= 0])
    pos = np.full(E_SIZE, -1, dtype=np.int64)
    pos[used] = np.arange(len(used))
    return np.where(tie >= 0, pos[np.maximum(tie, 0)], -1)


def _evals(data: Dataset, w: np.ndarray, tie: np.ndarray) -> np.ndarray:
    contrib = w[tie[data.idx]] * data.coef
    return np.add.reduceat(contrib, data.rowptr[:-1]) if data.size else np.zeros(0)


def _loss(e: np.ndarray, y: np.ndarray, k: float) -> float:
    return cross_entropy(e / k, y)


def fit_scale(data: Dataset, w: np.ndarray, tie: np.ndarray) -> float:
    """The ``K`` of ``sigmoid(eval / K)`` that fits ``w`` best (``best_scale`` in 20..5000)."""
    e = _evals(data, w, tie)
    return best_scale(lambda k: _loss(e, data.y, k), 20.0, 5000.0)


def _targets(data: Dataset, k: float, lam: float) -> np.ndarray:
    """``lam`` * the game's result + (1 - ``lam``) * sigmoid(our search's value / K) (the result alone where the
    position was not searched)."""
    if lam >= 1.0:
        return data.y
    searched = ~np.isnan(data.v)
    p = 1.0 / (1.0 + np.exp(-np.nan_to_num(data.v) / k))
    return np.where(searched, lam * data.y + (1 - lam) * p, data.y)


def fit(train: Dataset, test: Dataset, ew0: np.ndarray, files: int, iterations: int = 400, lr: float = 2.0,
        l2: float = 2e-5, scale: float | None = None, lam: float = 1.0,
        log=print, l2_kpa: float | None = None) -> tuple[np.ndarray, float]:  # type: ignore[no-untyped-def]
    """Weights that fit ``train`` (Adam on cross-entropy + ``l2`` * mean squared change, ``l2_kpa`` for the KPA
    tables, default ``l2``); ``(ew, K)``. The KPA tables are on in ``ew`` when any of their weights is not 0.

    The target is the game's result, or with ``lam`` < 1 a mix of it and our search's value (``_targets``).
    Held-out losses are printed against both the results alone and the mixed targets.
    """
    if len(ew0) == E_SIZE_V1:
        ew0 = np.concatenate([ew0, np.zeros(E_SIZE - E_SIZE_V1, dtype=ew0.dtype)])
    if ew0[E_KPA_ON] == 0:  # tables that are off count as zero (as the engine counts them)
        ew0 = ew0.copy()
        ew0[E_KPA:] = 0
    tie = tie_map(files)
    nparam = int(tie.max()) + 1
    w0 = np.zeros(nparam)
    cnt = np.zeros(nparam)
    ok = tie >= 0
    np.add.at(w0, tie[ok], ew0[ok].astype(np.float64))
    np.add.at(cnt, tie[ok], 1)
    w0 /= np.maximum(cnt, 1)
    k = scale or fit_scale(train, w0, tie)
    ty, hy = _targets(train, k, lam), _targets(test, k, lam)

    def report(label: str, w: np.ndarray) -> None:
        he = _evals(test, w, tie)
        log(f"{label}: loss train {_loss(_evals(train, w, tie), ty, k):.5f}, held out {_loss(he, hy, k):.5f} "
            f"(against the results alone {_loss(he, test.y, k):.5f})")

    log(f"K = {k:.1f}")
    report("start", w0)
    w = w0.copy()
    adam = Adam(nparam, lr)
    pidx = tie[train.idx]
    rowof = np.repeat(np.arange(train.size), np.diff(train.rowptr))
    frozen = np.zeros(nparam, dtype=bool)
    frozen[tie[E_VAL + 8]] = True  # the king has no material value
    pull = np.full(nparam, l2)
    pull[tie[E_KPA:]] = l2 if l2_kpa is None else l2_kpa
    for it in range(1, iterations + 1):
        e = _evals(train, w, tie)
        p = 1.0 / (1.0 + np.exp(-e / k))
        gi = (p - ty) / (k * train.size)
        grad: np.ndarray = np.bincount(pidx, weights=gi[rowof] * train.coef, minlength=nparam)
        grad += 2 * pull * (w - w0) / 1e4  # l2 per (100 units of change) squared
        grad[frozen] = 0
        adam.step(w, grad)
        if it % 50 == 0 or it == iterations:
            report(f"iteration {it}", w)
    ew = ew0.copy()
    ew[ok] = np.round(w[tie[ok]]).astype(np.int32)
    for kind in range(8):
        ew[E_HAND + kind * 20] = 0
    ew[E_KPA_ON] = 1 if np.any(ew[E_KPA:] != 0) else 0
    return ew, k


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m gamesuite.games.shogi.texel", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dirs", nargs="+", help="directories of arena game records (game-*.json)")
    ap.add_argument("--out", default=str(WEIGHTS_FILE), help="the weights file to write (default: the package's)")
    ap.add_argument("--iterations", type=int, default=400)
    ap.add_argument("--lr", type=float, default=2.0, help="Adam's step, in evaluation units (default 2)")
    ap.add_argument("--l2", type=float, default=2e-5,
                    help="pull toward the starting weights (default 2e-5: the lowest held-out loss of the "
                    "nineteenth session's fit; 0.002 until then)")
    ap.add_argument("--l2-kpa", type=float, help="the pull of the KPA tables (default: --l2)")
    ap.add_argument("--no-kpa", action="store_true",
                    help="leave the KPA tables out (their features dropped) and write the weights in the layout "
                    "without them (as the shipped weights are)")
    ap.add_argument("--skip", type=int, default=16, help="plies of each game left out (default 16)")
    ap.add_argument("--start", choices=("loaded", "default"), default="loaded",
                    help="start from the weights the engine loads now, or from the hand-set ones")
    ap.add_argument("--cache", action="append",
                    help="keep the positions read in this .npz file (read it back if it exists); given more than "
                    "once, every file must exist and their positions are used together")
    ap.add_argument("--scale", type=float, help="the K of sigmoid(eval / K) (default: fitted)")
    ap.add_argument("--label-nodes", type=int, default=0,
                    help="also search every position with our engine (this many nodes) for --lam")
    ap.add_argument("--lam", type=float, default=1.0,
                    help="target = lam * result + (1 - lam) * sigmoid(search value / K) (default 1: results only)")
    ap.add_argument("--refeature", metavar="NEW",
                    help="write the positions of DIRS with today's features and the labels of the one --cache "
                    "file to NEW (.npz), then stop")
    args = ap.parse_args(argv)
    from ...core.registry import load_game
    from .evaluation import default_weights
    from .rules import Shogi

    game = load_game("shogi")
    assert isinstance(game, Shogi)
    g = game.geometry
    try:
        caches, read = label_caches(args.cache)
        if args.refeature:
            if len(caches) != 1 or not read:
                raise ValueError("--refeature needs one --cache file that exists (the positions to keep labels of)")
            refeature(args.dirs, caches[0], args.refeature, args.skip)
            return 0
        parts = [read_cache(c) for c in caches] if read else []
    except ValueError as e:
        print(e, file=sys.stderr)
        return 2
    if read:
        for c, part in zip(caches, parts):
            print(f"{part.size} positions from {c}")
        data = parts[0] if len(parts) == 1 else Dataset.concat(parts)
    else:
        data = load_positions(args.dirs, args.skip, label_nodes=args.label_nodes)
        if caches:
            save_cache(caches[0], data)
    if data.size < 100:
        print(f"only {data.size} positions: not enough to tune", file=sys.stderr)
        return 1
    held = (data.game % 10) == 9
    if args.no_kpa:
        data = data.without_kpa()
    train, test = data.subset(np.flatnonzero(~held)), data.subset(np.flatnonzero(held))
    ew0 = load_weights(g) if args.start == "loaded" else default_weights(g)
    if args.no_kpa:
        ew0 = ew0.copy()
        ew0[E_KPA_ON:] = 0
    ew, k = fit(train, test, ew0, g.files, args.iterations, args.lr, args.l2, args.scale, args.lam,
                l2_kpa=args.l2_kpa)
    out = Path(args.out)
    arrays = {}
    if out.exists():
        with np.load(out) as old:
            arrays = {name: old[name] for name in old.files}
    arrays["standard"] = ew[:E_SIZE_V1] if args.no_kpa else ew
    write_npz(out, arrays)
    changed = np.flatnonzero(ew != ew0)
    print(f"wrote {out}: {len(changed)} weights changed; K = {k:.1f}")
    for name, base, n in (("values", E_VAL, 16), ("mobility", E_MOB, 16)):
        print(f"{name}: {ew[base:base + n].tolist()}")
    print(f"hand (first piece): {[int(ew[E_HAND + kind * 20 + 1]) for kind in range(1, 8)]}")
    print(f"king-relative tables: {int(np.abs(ew[E_KPE:E_MOB]).sum())} (enemy king), sum of |w|")
    print(f"KPA tables: {'on' if ew[E_KPA_ON] else 'off'}, {int(np.count_nonzero(ew[E_KPA:]))} weights not 0, "
          f"sum of |w| {int(np.abs(ew[E_KPA:]).sum())}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
