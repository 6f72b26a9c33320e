"""Texel-style fit of the gomoku evaluation's combination table to our own search's values.

    python -m gamesuite.games.gomoku.texel [DIR ...] [--selfplay N] --label-nodes N --cache FILE --out FILE

The evaluation (``kernels._evaluate``) sums, per colour, the values of the empty
cells, and a cell's value is the combination table's entry for the cell's four
direction patterns. The table is symmetric in the directions, so a cell's value
depends only on the *multiset* of its four patterns (``COMBOS``: the 1,365
multisets of four of the 12 patterns); that multiset is the feature. A position's
features are, for the side to move and for the other side, how many empty cells
have each multiset, and the evaluation is linear in the table's values::

    eval = (tempo * sum(n_me[c] * v[c]) - 16 * sum(n_opp[c] * v[c])) / 16

(before the kernel's floor division). The fit (as shogi's ``texel.py``) minimises
the cross-entropy of ``sigmoid(eval / K)`` against ``sigmoid(search / K_search)``
(``K_search`` given, ``K`` first fitted to the starting table), where
``search`` is our default engine's value of the position at ``--label-nodes``
nodes (from the side to move; a mate clipped to ``MATE_VALUE``), by Adam with an
L2 pull toward the starting values; every tenth game is held out. One table
serves both colours, as in the kernels.

Positions come from arena game records (``gamesuite match gomoku ... --save DIR``)
and/or from self-play games that this module plays (``--selfplay N``: our engine
at ``--play-nodes`` from the balanced openings of ``tests/data``, a random move
among the best cells now and then so that games differ). Only quiet positions are
used: neither side has a five point (a four on the board) and the side to move has
no open-four or double-four point. Freestyle 15x15 only (the Rapfi rung's rule);
renju is left out.

The output (``--out``) is an ``.npz`` with ``table`` (``kernels.combo_table``'s
layout: ``value | class << 16 | maybe_forbidden << 20``, the classes and flags those
of the patterns, values integers in 0..65535), ``values`` and ``combos``; the
engine plays it with ``table=FILE`` (``engine.load_table``).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations_with_replacement
from pathlib import Path

import numpy as np

from ...arena.texel import Adam, best_scale, cross_entropy, label_caches
from ...core.files import write_npz
from . import kernels as K
from . import patterns as pt

#: The multisets of four direction patterns (sorted), one row each: the features' index.
COMBOS = np.array(list(combinations_with_replacement(range(K.NPAT), 4)), dtype=np.int64)
NCOMBO = len(COMBOS)
#: A mate found by the labelling search counts as this value (the side to move's view).
MATE_VALUE = 3000.0
#: The rule fitted (freestyle) and the board.
GAME_SPEC = "gomoku(size=15,rule=freestyle)"
OPENINGS = Path(__file__).resolve().parents[3] / "tests" / "data" / "gomoku_openings_s17.txt"


def _combo_ids() -> tuple[np.ndarray, np.ndarray]:
    """(the multiset index of every full index ``((p0*12+p1)*12+p2)*12+p3``, and of every nibble index
    ``p0 | p1 << 4 | p2 << 8 | p3 << 12``; -1 where a nibble is no pattern)."""
    pos = {tuple(int(x) for x in c): i for i, c in enumerate(COMBOS)}
    full = np.zeros(K.NPAT ** 4, dtype=np.int64)
    nib = np.full(1 << 16, -1, dtype=np.int64)
    for i in range(K.NPAT ** 4):
        p = (i // K.NPAT ** 3, (i // K.NPAT ** 2) % K.NPAT, (i // K.NPAT) % K.NPAT, i % K.NPAT)
        c = pos[tuple(sorted(p))]
        full[i] = c
        nib[p[0] | p[1] << 4 | p[2] << 8 | p[3] << 12] = c
    return full, nib


FULL_ID, NIBBLE_ID = _combo_ids()
#: The full index of each multiset's sorted patterns.
COMBO_FULL = ((COMBOS[:, 0] * K.NPAT + COMBOS[:, 1]) * K.NPAT + COMBOS[:, 2]) * K.NPAT + COMBOS[:, 3]


def table_values(table: np.ndarray | None = None) -> np.ndarray:
    """The value of each multiset (``COMBOS``) in ``table`` (``kernels.combo_table``'s layout; default the
    weights' table)."""
    t = K.combo_table() if table is None else table
    return (t[COMBO_FULL].astype(np.int64) & 0xFFFF)


def combo_classes(table: np.ndarray | None = None) -> np.ndarray:
    """The class (``kernels.C_*``) of each multiset."""
    t = K.combo_table() if table is None else table
    return (t[COMBO_FULL].astype(np.int64) >> 16) & 15


def make_table(values: np.ndarray, base: np.ndarray | None = None) -> np.ndarray:
    """``base`` (default the weights' table) with every combination's value that of its multiset in ``values``
    (rounded, clipped to 0..65535); the classes and flags stay ``base``'s."""
    b = (K.combo_table() if base is None else base).astype(np.int64)
    v = np.clip(np.rint(np.asarray(values, dtype=np.float64)), 0, 0xFFFF).astype(np.int64)
    return ((b & ~0xFFFF) | v[FULL_ID]).astype(np.int32)


def save_table(path: str | Path, values: np.ndarray, base: np.ndarray | None = None) -> np.ndarray:
    """Write the table of ``values`` (``make_table``) to ``path`` as the engine's ``table=`` reads it."""
    t = make_table(values, base)
    write_npz(path, {"table": t, "values": table_values(t), "combos": COMBOS})
    return t


def position_features(pos) -> np.ndarray:  # type: ignore[no-untyped-def]
    """``int64[2, NCOMBO]``: the empty cells of each multiset for the side to move (row 0) and the other side,
    read from an ``engine.Position``'s cached patterns."""
    me = int(pos.g[K.STONES] & 1)
    y = pos.to_pad[pos.bd[pos.to_pad] == 0]
    out = np.zeros((2, NCOMBO), dtype=np.int64)
    for row, c in ((0, me), (1, 1 - me)):
        out[row] = np.bincount(NIBBLE_ID[pos.cp[y, c]], minlength=NCOMBO)
    return out


def features_ref(board: Sequence[int], size: int, rule: int, to_move_stone: int) -> np.ndarray:
    """``position_features`` in plain Python: every empty cell's patterns classified from scratch."""
    from .reference import cell_patterns_ref

    out = np.zeros((2, NCOMBO), dtype=np.int64)
    index = {tuple(int(x) for x in c): i for i, c in enumerate(COMBOS)}
    for cell in range(size * size):
        if board[cell] != 0:
            continue
        for row, colour in ((0, to_move_stone), (1, 3 - to_move_stone)):
            out[row, index[tuple(sorted(cell_patterns_ref(board, size, rule, cell, colour)))]] += 1
    return out


def linear_eval(features: np.ndarray, values: np.ndarray, tempo: int = 20) -> np.ndarray:
    """The evaluation of positions (``features``: ``[..., 2, NCOMBO]``) before the kernel's floor division, times
    16: ``tempo * mine - 16 * theirs``."""
    v = np.asarray(values, dtype=np.float64)
    return tempo * (features[..., 0, :] @ v) - 16 * (features[..., 1, :] @ v)  # (uint16 counts: float products)


def is_quiet(pos) -> bool:  # type: ignore[no-untyped-def]
    """Neither side has a five point (a four on the board), and the side to move has no open-four or double-four
    point (a win in two)."""
    me = int(pos.g[K.STONES] & 1)
    cnt = pos.cnt
    return not (cnt[0, K.C_FIVE] or cnt[1, K.C_FIVE] or cnt[me, K.C_F4])


@dataclass
class Dataset:
    """Positions as feature counts (``uint16[n, 2, NCOMBO]``: the side to move's, the other's), the search's
    value of each for the side to move, and the game each comes from."""

    x: np.ndarray
    v: np.ndarray
    game: np.ndarray

    @property
    def size(self) -> int:
        return len(self.v)

    def subset(self, rows: np.ndarray) -> Dataset:
        return Dataset(self.x[rows], self.v[rows], self.game[rows])

    @staticmethod
    def concat(parts: Sequence[Dataset]) -> Dataset:
        """One dataset of ``parts``; each part's games keep their own numbers, shifted past the last's."""
        games, shift = [], 0
        for d in parts:
            games.append(d.game + shift)
            shift += int(d.game.max()) + 1 if d.size else 0
        return Dataset(np.concatenate([d.x for d in parts]), np.concatenate([d.v for d in parts]),
                       np.concatenate(games).astype(np.int32))

    def save(self, path: str | Path) -> None:
        write_npz(path, {"x": self.x, "v": self.v, "game": self.game})

    @staticmethod
    def load(path: str | Path) -> Dataset:
        with np.load(path) as z:
            return Dataset(z["x"], z["v"], z["game"])


class Labeller:
    """Features and search values of quiet positions, by our default engine (``nodes`` a search)."""

    def __init__(self, nodes: int, hash_mb: float = 16) -> None:
        from ...core.registry import load_game
        from .engine import GomokuEngine

        self.game = load_game(GAME_SPEC)
        self.engine = GomokuEngine(self.game, hash=hash_mb)  # type: ignore[arg-type]
        self.nodes = nodes

    def label(self, state) -> tuple[np.ndarray, float] | None:  # type: ignore[no-untyped-def]
        """(features, value for the side to move) of ``state``, or ``None`` when it is not quiet or over."""
        from ...core.limits import Limits
        from .engine import Position

        if state.is_terminal():
            return None
        pos = Position(self.game, state.board)  # type: ignore[arg-type]
        if not is_quiet(pos):
            return None
        x = position_features(pos)
        self.engine.new_game()
        sc = self.engine.search(state, Limits(nodes=self.nodes)).score.for_player(state.current_player)
        value = float(sc.value) if sc.kind != "mate" else (MATE_VALUE if sc.value > 0 else -MATE_VALUE)
        return x, float(np.clip(value, -MATE_VALUE, MATE_VALUE))


def _collect(games: Sequence[Sequence[object]], labeller: Labeller, skip: int,
             log: Callable[[str], None]) -> Dataset:
    """Label the positions (states) of ``games`` from index ``skip`` of each."""
    xs, vs, gs = [], [], []
    t0 = time.time()
    for gi, states in enumerate(games):
        for s in states[skip:]:
            r = labeller.label(s)
            if r is not None:
                xs.append(r[0].astype(np.uint16))
                vs.append(r[1])
                gs.append(gi)
        if (gi + 1) % 50 == 0:
            log(f"labelled {gi + 1}/{len(games)} games, {len(vs)} positions, {time.time() - t0:.0f} s")
    x = np.stack(xs) if xs else np.zeros((0, 2, NCOMBO), dtype=np.uint16)
    return Dataset(x, np.array(vs), np.array(gs, dtype=np.int32))


def record_games(dirs: Sequence[str]) -> list[list[object]]:
    """The positions of each freestyle 15x15 game recorded under ``dirs`` (arena records), game by game."""
    from ...arena.positions import positions
    from ...core.registry import load_game

    games: dict[str, list[object]] = {}
    loaded: dict[str, object] = {}
    wanted = load_game(GAME_SPEC).spec
    for p in positions(list(dirs)):
        game = loaded.get(p.game)
        if game is None:
            game = loaded[p.game] = load_game(p.game)
        if game.spec != wanted:  # type: ignore[attr-defined]
            continue
        games.setdefault(p.source, []).append(game.state_from_text(p.text))  # type: ignore[attr-defined]
    return list(games.values())


def selfplay_games(count: int, nodes: int, seed: int = 0, randomness: float = 0.1, openings: Path = OPENINGS,
                   log: Callable[[str], None] = print) -> list[list[object]]:
    """``count`` games of our default engine (``nodes`` a move, varied by up to a quarter) from the openings file,
    colours alternating by opening; with probability ``randomness`` a move (in a quiet position) is a random one
    of the six best cells by value. Each game as its positions after the opening."""
    from ...arena.openings import load_openings
    from ...core.limits import Limits
    from ...core.registry import load_game
    from .engine import GomokuEngine, Position

    game = load_game(GAME_SPEC)
    ops = load_openings(openings, game)
    rng = random.Random(seed)
    engine = GomokuEngine(game, hash=16)  # type: ignore[arg-type]
    out: list[list[object]] = []
    t0 = time.time()
    for gi in range(count):
        state, _ = ops[gi % len(ops)].build(game)
        engine.new_game()
        states: list[object] = []
        while not state.is_terminal() and len(state.legal_moves()) > 0:  # type: ignore[attr-defined]
            states.append(state.copy())  # type: ignore[attr-defined]
            # (the position's patterns only where a random move may be played)
            pos = Position(game, state.board) if rng.random() < randomness else None  # type: ignore[arg-type, attr-defined]
            if pos is not None and is_quiet(pos):
                empty = pos.to_pad[pos.bd[pos.to_pad] == 0]
                value = pos.ci[empty, K.CI_VB] + pos.ci[empty, K.CI_VW]
                top = np.argsort(-value, kind="stable")[:6]
                move = pos.unpad(int(empty[top[rng.randrange(len(top))]]))
            else:
                n = max(1, int(nodes * rng.uniform(0.75, 1.25)))
                best = engine.search(state, Limits(nodes=n)).best_move  # type: ignore[arg-type]
                assert best is not None
                move = best
            state.play(move)  # type: ignore[attr-defined]
        out.append(states)
        if (gi + 1) % 25 == 0:
            log(f"played {gi + 1}/{count} games, {time.time() - t0:.0f} s")
    return out


def fit(train: Dataset, test: Dataset, v0: np.ndarray, k: float, search_scale: float, iterations: int = 300,
        lr: float = 2.0, l2: float = 1e-3, tempo: int = 20,
        log: Callable[[str], None] = print) -> tuple[np.ndarray, dict[str, float]]:
    """Values (``COMBOS``'s order) fitted to ``train`` from ``v0``: Adam on the cross-entropy of
    ``sigmoid(eval / k)`` against ``sigmoid(search / search_scale)`` plus ``l2`` times the
    mean squared change in hundreds. Multisets of class ``C_NONE`` (no pattern: value 0) and those no training
    position has stay put. Returns the values and the losses (``train0``, ``test0``, ``train``, ``test``)."""
    ks = search_scale
    w0 = np.asarray(v0, dtype=np.float64)
    seen = train.x.sum(axis=(0, 1), dtype=np.int64) > 0
    free = np.flatnonzero((combo_classes() != K.C_NONE) & seen)

    def design(d: Dataset) -> tuple[np.ndarray, np.ndarray]:
        # eval = a @ w[free] + c: the free values' coefficients and what the fixed values add
        a = (tempo * d.x[:, 0, free].astype(np.float64) - 16 * d.x[:, 1, free].astype(np.float64)) / 16.0
        c = linear_eval(d.x, w0, tempo) / 16.0 - a @ w0[free]
        return a, c

    atr, ctr = design(train)
    ate, cte = design(test)
    ttr = 1.0 / (1.0 + np.exp(-train.v / ks))
    tte = 1.0 / (1.0 + np.exp(-test.v / ks))
    w = w0[free].copy()
    base = w.copy()
    adam = Adam(len(w), lr)
    res = {"train0": cross_entropy((atr @ w + ctr) / k, ttr), "test0": cross_entropy((ate @ w + cte) / k, tte)}
    log(f"start: loss train {res['train0']:.5f}, held out {res['test0']:.5f} "
        f"({train.size} + {test.size} positions, {len(free)} free values)")
    for it in range(1, iterations + 1):
        p = 1.0 / (1.0 + np.exp(-(atr @ w + ctr) / k))
        grad = atr.T @ (p - ttr) / (k * train.size) + 2 * l2 * (w - base) / 1e4
        adam.step(w, grad)
        np.clip(w, 0, 0xFFFF, out=w)
        if it % 50 == 0 or it == iterations:
            log(f"iteration {it}: loss train {cross_entropy((atr @ w + ctr) / k, ttr):.5f}, "
                f"held out {cross_entropy((ate @ w + cte) / k, tte):.5f}")
    w = np.clip(np.rint(w), 0, 0xFFFF)
    res["train"] = cross_entropy((atr @ w + ctr) / k, ttr)
    res["test"] = cross_entropy((ate @ w + cte) / k, tte)
    out = w0.copy()
    out[free] = w
    return out.astype(np.int64), res


def fit_scale(data: Dataset, v0: np.ndarray, search_scale: float, tempo: int = 20) -> float:
    """The ``K`` of ``sigmoid(eval / K)`` that fits ``sigmoid(search / search_scale)`` best with the values ``v0``
    (cross-entropy; ``best_scale`` in 10..20000)."""
    e = linear_eval(data.x.astype(np.float64), v0, tempo) / 16.0
    t = 1.0 / (1.0 + np.exp(-data.v / search_scale))
    return best_scale(lambda k: cross_entropy(e / k, t), 10.0, 20000.0)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m gamesuite.games.gomoku.texel", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dirs", nargs="*", help="directories of arena game records (game-*.json)")
    ap.add_argument("--selfplay", type=int, default=0, help="also play this many self-play games (default 0)")
    ap.add_argument("--play-nodes", type=int, default=2000, help="nodes a move in self-play (default 2000)")
    ap.add_argument("--random", type=float, default=0.1, help="chance of a random move of the best six (0.1)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--openings", default=str(OPENINGS), help="the self-play openings (default: s17's 100)")
    ap.add_argument("--label-nodes", type=int, default=3000, help="nodes of the labelling search (default 3000)")
    ap.add_argument("--skip", type=int, default=0, help="positions of each game left out (default 0)")
    ap.add_argument("--cache", action="append",
                    help="keep the labelled positions in this .npz file (read it back if it exists); given more "
                    "than once, every file must exist and their positions are used together")
    ap.add_argument("--out", default="gomoku_table.npz", help="the table file to write")
    ap.add_argument("--start", help="start from this table file (default: the weights' table)")
    ap.add_argument("--iterations", type=int, default=300)
    ap.add_argument("--lr", type=float, default=2.0, help="Adam's step, in value units (default 2)")
    ap.add_argument("--l2", type=float, default=1e-3, help="pull toward the starting values (default 0.001)")
    ap.add_argument("--search-scale", type=float, default=300.0,
                    help="K_search: the target is sigmoid(search value / K_search) (default 300)")
    ap.add_argument("--scale", type=float, help="K of sigmoid(eval / K) (default: the best fit of the start)")
    ap.add_argument("--tempo", type=int, default=20, help="the engine's tempo (default 20)")
    args = ap.parse_args(argv)
    try:
        caches, read = label_caches(args.cache)
    except ValueError as e:
        print(e, file=sys.stderr)
        return 2
    if read:
        parts = [Dataset.load(c) for c in caches]
        for c, d in zip(caches, parts):
            print(f"{d.size} positions from {c}")
        data = parts[0] if len(parts) == 1 else Dataset.concat(parts)
    else:
        games = record_games(args.dirs) if args.dirs else []
        print(f"{len(games)} recorded games")
        if args.selfplay:
            games += selfplay_games(args.selfplay, args.play_nodes, args.seed, args.random, Path(args.openings))
        data = _collect(games, Labeller(args.label_nodes), args.skip, print)
        if caches:
            data.save(caches[0])
    if data.size < 100:
        print(f"only {data.size} positions: not enough to fit", file=sys.stderr)
        return 1
    held = (data.game % 10) == 9
    train, test = data.subset(np.flatnonzero(~held)), data.subset(np.flatnonzero(held))
    if args.start:
        from .engine import load_table

        base = load_table(args.start)
    else:
        base = K.combo_table()
    v0 = table_values(base)
    k = args.scale or fit_scale(train, v0, args.search_scale, args.tempo)
    print(f"K = {k:.1f} (K_search {args.search_scale:g})")
    v, res = fit(train, test, v0, k, args.search_scale, args.iterations, args.lr, args.l2, args.tempo, log=print)
    save_table(args.out, v, base)
    moved = np.flatnonzero(v != v0)
    seen = train.x.sum(axis=(0, 1), dtype=np.int64)
    change = np.abs(v - v0)[seen > 0]
    print(f"wrote {args.out}: {len(moved)} of {NCOMBO} values changed ({int((seen > 0).sum())} seen in training; "
          f"|change| median {np.median(change):.0f}, mean {change.mean():.1f}, max {change.max()}); held-out loss "
          f"{res['test0']:.5f} -> {res['test']:.5f}")
    for c in np.argsort(-seen, kind="stable")[:30]:
        names = "+".join(pt.NAMES[int(p)] for p in COMBOS[c] if p)
        print(f"  {names or 'none':28s} seen {int(seen[c]):8d}  {int(v0[c]):5d} -> {int(v[c]):5d}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
