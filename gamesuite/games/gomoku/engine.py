"""The gomoku engine: the numba kernels behind the common iterative-deepening driver.

Engines (``gamesuite games`` lists them): ``mtdf`` (the default), ``pvs`` and
``negamax``, each with the options

- ``top``: search only the ``top`` best-ordered moves at every node (0: all
  candidates; default 10 for ``mtdf``, 0 otherwise). Nodes that must answer a
  four or an open three always search every defence.
- ``hash``: transposition table size in MB (default 64).
- ``vcf``: how many fours the root's threat search may chain (default 40; 0 off).
- ``leafvcf``: fours a leaf's threat search may chain (default 3; 0 off).
- ``vct``: threats (fours and open threes) a VCT may chain (default 6; 0 off: no VCT
  at the root nor in the tree).
- ``vctnodes``: the root VCT's first slice of nodes (default 4000; 0: no root VCT);
  later slices double while the root VCT has used at most a third of the search's nodes.
- ``treevct``: the deepest ply at which a VCT runs inside the tree (default 2; 0 off),
  within ``treevctnodes`` nodes per position (default 1000).
- ``vct3``: at ply 1 of the tree, where the side to move has no four point but an open-three point
  and the other side no open three, a VCT within ``vct3`` nodes (an attack that starts with a new
  three; once per position and search; default 0: off, the tree's VCT needing a three on the board).
  ``vct3max``: these VCTs run only while the tree's VCTs of the search have used fewer than
  ``vct3max`` nodes, and take no more than what is left of it (default 0: no cap).
- ``step``: iterative deepening by 1 or 2 plies (default 2 for ``mtdf``, 1 otherwise).
- ``grain``: MTD(f) stops once the value is known within this many units (default 16).
- ``lmr``: late move reduction: quiet moves from this index on are searched one ply
  shallower first (default 2; 0 off).
- ``taper``, ``topmin``, ``taperfrom``: from ply ``taperfrom`` on, search ``taper`` moves
  fewer per ply than ``top``, down to ``topmin`` (default 0: off); not where a four or an
  open three is answered, nor where the opponent has a 4-3 or 3-3 point.
- ``accept``: one-sided MTD(f) (default 0: off): each depth's first pass tests the last
  value less ``accept`` and the depth ends at its first fail-high, keeping a move that holds
  that lower bound without seeking an upper bound (cheaper, but it does not look for better
  moves, so it can miss a win the exact search finds); ``acceptfrom``: only from this depth
  on (default 0: every depth), the shallower depths finding the value exactly.
- ``threads``: threads that share MTD(f)'s null-window passes from depth 4 on (default 1;
  see ``parallel``); the other algorithms search with one.
- ``wide``, ``wideply``: at the root and the plies below it up to ``wideply`` (1: the root only),
  search the ``wide`` best-ordered moves instead of ``top`` (default 20 and 1 for ``mtdf``: the root
  searches 20; 0 and 0, off, for the others).
- ``tempo``: the evaluation weighs the side to move's cell values ``tempo`` sixteenths against the
  other side's sixteen (default 20, the 5:4 of the docs; 0-64).
- ``pure``: plain alpha-beta over every empty cell with no threat rules, reductions or
  grain (for tests).
- ``weights``: the evaluation weights' preset (``WEIGHT_PRESETS``; default ``spsa``, ``K.WEIGHTS``);
  ``w_b1`` ... ``w_overline``, ``w_44``, ``w_43``, ``w_33`` change one weight of it (``K.WEIGHT_NAMES``):
  the value a direction's pattern adds to a cell's value, and the bonuses of a double-four, 4-3 and 3-3
  cell. A cell's value orders the moves and its total is the evaluation, so a weight changes both.
- ``table``: a fitted combination table (an ``.npz`` that ``texel.py`` writes; ``load_table``) instead of the
  one the weights build: a cell's value for every combination of its four patterns (default ``""``: none).
  It replaces ``weights`` and the ``w_*`` options, which cannot be given with it.
"""

from __future__ import annotations

import os
import time
import weakref
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import cast

import numpy as np

from ...core.errors import IllegalMoveError, InvalidOptionError, quote
from ...core.files import read_npz
from ...core.info import InfoCallback, SearchInfo, SearchResult
from ...core.limits import Limits
from ...core.options import Option
from ...core.registry import register_engine
from ...core.score import WIN, WIN_THRESHOLD, Score
from ...search.driver import DriverOptions, Iteration, Searcher, iterative_deepening, next_search_id
from ...search.tt import clear_table, hashfull, new_table
from . import kernels as K
from .parallel import MIN_SPLIT_DEPTH, SplitSearch
from .patterns import ternary_tables
from .rules import Gomoku, GomokuState

#: The most threads the ``threads`` option takes.
MAX_THREADS = max(64, os.cpu_count() or 1)

ALGORITHMS = {"negamax": K.ALGO_NEGAMAX, "pvs": K.ALGO_PVS, "mtdf": K.ALGO_MTDF}
#: The largest evaluation weight an option takes (a cell's value, four patterns and a bonus, stays below 2**16).
WEIGHT_MAX = 8000
#: Named sets of evaluation weights (``weights=NAME``), each as changes to ``K.WEIGHTS``; the ``w_*``
#: options change a preset's values further.
WEIGHT_PRESETS: dict[str, dict[str, int]] = {
    # K.WEIGHTS, the default: SPSA by self-play, 576 pairs at 30,000 nodes a move (docs/gomoku.md,
    # "Tuning the evaluation weights")
    "spsa": {},
    # the hand-set weights the tuning started from (the default before the fourth session)
    "classic": {"f2": 20, "b3": 26, "f3": 80, "b4": 90, "f4": 500, "43": 400, "33": 250},
}


_TERNARY: dict[int, np.ndarray] = {}
_COMBOS: dict[tuple[int, ...], np.ndarray] = {}
_TABLES: dict[str, np.ndarray] = {}


def _tables(rule: int) -> np.ndarray:
    if rule not in _TERNARY:
        _TERNARY[rule] = ternary_tables(rule)
    return _TERNARY[rule]


def _combos(weights: np.ndarray | None = None) -> np.ndarray:
    """The kernels' combination table for ``weights`` (``K.WEIGHTS`` by default), built once per set."""
    key = tuple(int(w) for w in (K.WEIGHTS if weights is None else weights))
    if key not in _COMBOS:
        _COMBOS[key] = K.combo_nibbles(K.combo_table(np.array(key, dtype=np.int64)))
    return _COMBOS[key]


def load_table(path: str | Path) -> np.ndarray:
    """The combination table (``K.combo_table``'s layout, ``int32[NPAT**4]``) saved in the ``.npz`` file ``path``
    (its array ``table``), checked: every value in 0..65535, and every class and maybe-forbidden flag that of
    ``K.combo_table()`` (they follow from the patterns, not from the values). ``InvalidOptionError`` quoting
    ``path`` when it cannot be read or is not such a table."""
    name = str(path)
    if name not in _TABLES:
        data = read_npz(name, "a combination table from")
        if "table" not in data:
            raise InvalidOptionError(f"{quote(name)} has no array 'table' (a combination table)")
        t = np.asarray(data["table"])
        ref = K.combo_table()
        if t.shape != ref.shape or t.dtype.kind not in "iu":
            raise InvalidOptionError(f"the combination table in {quote(name)} must be {ref.shape[0]} integers, "
                                     f"got {t.dtype} {t.shape}")
        t = t.astype(np.int64)
        if t.min() < 0 or (t >> 21).any() or ((t >> 16) != (ref.astype(np.int64) >> 16)).any():
            raise InvalidOptionError(f"the combination table in {quote(name)} is not a table of this engine: values "
                                     "must be 0..65535 with the classes and flags of the patterns")
        _TABLES[name] = t.astype(np.int32)
    return _TABLES[name]


def evaluation_weights(weights: Mapping[str, int] | None = None, preset: str = "spsa") -> np.ndarray:
    """``K.WEIGHTS`` (or a preset of ``WEIGHT_PRESETS``) with the values named in ``weights`` (keys of
    ``K.WEIGHT_NAMES`` but ``none``) in their places."""
    if preset not in WEIGHT_PRESETS:
        raise InvalidOptionError(f"weights preset must be one of {', '.join(WEIGHT_PRESETS)}, got {preset!r}")
    w = K.WEIGHTS.copy()
    for name, v in {**WEIGHT_PRESETS[preset], **(weights or {})}.items():
        if name not in K.WEIGHT_NAMES[1:]:
            raise InvalidOptionError(f"no evaluation weight {name!r}; the weights are {', '.join(K.WEIGHT_NAMES[1:])}")
        if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= WEIGHT_MAX:
            raise InvalidOptionError(f"evaluation weight {name} must be an integer from 0 to {WEIGHT_MAX}, got {v!r}")
        w[K.WEIGHT_NAMES.index(name)] = v
    _combos(w)  # builds (once) the table the engine will use, which checks the range of a cell's value
    return w


class Position:
    """The kernels' arrays for one position (built from a ``GomokuState``)."""

    def __init__(self, game: Gomoku, board: np.ndarray, top: int = 0, algo: int = 0, pure: bool = False,
                 leafvcf: int = 0, lmr: int = 0, treevct: int = -1, treevctthreats: int = 0,
                 treevctnodes: int = 0, taper: int = 0, topmin: int = 0, taperfrom: int = 0,
                 weights: np.ndarray | None = None, tempo: int = 20, cmb: np.ndarray | None = None) -> None:
        size = game.size
        if board.dtype != np.int8 or board.shape != (size * size,):
            raise ValueError(f"board must be an int8 array of {size * size} cells")
        P = size + 2 * K.PAD
        N = P * P
        self.game = game
        self.size, self.P, self.N = size, P, N
        # counters, then the parameters (``K.P_*``), the class counts and the PV lengths
        self.g = np.zeros(K.G_ALL, dtype=np.int64)
        self.g[K.P_P] = P
        self.g[K.P_SIZE] = size
        self.g[K.P_RULE] = game.rule_id
        self.g[K.P_TOP] = top
        self.g[K.P_ALGO] = algo
        self.g[K.P_D0:K.P_D0 + 4] = (1, P, P + 1, P - 1)
        self.g[K.P_PURE] = 1 if pure else 0
        self.g[K.P_LEAFVCF] = leafvcf
        self.g[K.P_LMR] = lmr
        self.g[K.P_TREEVCT] = treevct
        self.g[K.P_TREEVCTT] = treevctthreats
        self.g[K.P_TREEVCTN] = treevctnodes
        self.g[K.P_TAPER] = taper
        self.g[K.P_TOPMIN] = topmin
        self.g[K.P_TAPERFROM] = taperfrom
        self.g[K.P_TEMPO] = tempo
        self.pat = _tables(game.rule_id)
        self.cmb = _combos(weights) if cmb is None else cmb  # (``cmb``: a table already in nibble order)
        zob = np.zeros((2, N), dtype=np.int64)
        idx = np.array([(r + K.PAD) * P + K.PAD + c for r in range(size) for c in range(size)], dtype=np.int64)
        zob[:, idx] = game.zobrist.view(np.int64)
        self.zob = zob
        self.to_pad = idx
        self.bd = np.zeros(N, dtype=np.int8)
        self.ub = np.zeros(size * size, dtype=np.int8)
        self.keys = np.zeros((N, 4), dtype=np.int64)
        self.cp = np.zeros((N, 2), dtype=np.int64)
        self.ci = np.zeros((N, 5), dtype=np.int64)
        self.cnt = self.g[K.CNT:K.CNT + 2 * K.NCLASS].reshape(2, K.NCLASS)  # a view
        self.near = np.zeros(N, dtype=np.int64)
        self.un = np.zeros((size * size + K.MAXPLY + 1, K.U_SIZE), dtype=np.int64)  # (null moves use frames too)
        K._setup(*self.arrays(), board)

    def arrays(self) -> tuple:
        return (self.bd, self.ub, self.keys, self.cp, self.ci, self.g, self.near, self.pat, self.cmb,
                self.zob, self.un)

    def clone(self) -> Position:
        """An independent copy (the read-only tables shared)."""
        c = object.__new__(Position)
        c.__dict__.update(self.__dict__)
        for name in ("g", "bd", "ub", "keys", "cp", "ci", "near", "un"):
            setattr(c, name, getattr(self, name).copy())
        c.cnt = c.g[K.CNT:K.CNT + 2 * K.NCLASS].reshape(2, K.NCLASS)
        return c

    def pad(self, move: int) -> int:
        return int(self.to_pad[move])

    def unpad(self, y: int) -> int:
        return (y // self.P - K.PAD) * self.size + y % self.P - K.PAD

    def place(self, move: int) -> None:
        """Play ``move`` (unpadded) for the side to move."""
        y = self.pad(move)
        if self.bd[y] != 0:
            raise IllegalMoveError(f"cell {move} is taken")
        stone = 1 + int(self.g[K.STONES] & 1)
        K._place(*self.arrays(), np.int64(y), np.int64(stone))

    def remove(self, move: int) -> None:
        """Take back ``move`` (unpadded), which must be the last stone placed."""
        y = self.pad(move)
        stones = int(self.g[K.STONES])
        if stones == 0 or self.un[stones - 1, K.U_X] != y or self.bd[y] == 0:
            raise IllegalMoveError(f"cell {move} is not the last stone placed")
        K._remove(*self.arrays(), np.int64(y))

    def evaluate(self) -> int:
        """The static value for the side to move."""
        return int(K._evaluate(self.g, np.int64(self.g[K.STONES] & 1)))

    def cell_info(self, move: int) -> tuple[int, int, int, int, int]:
        """(value black, value white, class black, class white, maybe-forbidden) of an empty cell."""
        return tuple(int(v) for v in self.ci[self.pad(move)])  # type: ignore[return-value]

    @property
    def key(self) -> int:
        return int(np.int64(self.g[K.KEY]).view(np.uint64))


class _Searcher:
    def __init__(self, engine: GomokuEngine, state: GomokuState, node_limit: int) -> None:
        self.engine = engine
        self.state = state
        self.pos = Position(state.game, state.board, engine.top, engine.algo_id, engine.pure, engine.leafvcf,
                            engine.lmr, engine.treevct, engine.vct,
                            engine.treevctnodes, engine.taper, engine.topmin, engine.taperfrom,
                            engine.weights, engine.tempo, engine.cmb)
        self.node_limit = node_limit  # every node counted: the threat searches' too
        self.pos.g[K.NODE_LIMIT] = node_limit
        self.pos.g[K.P_WIDE] = engine.wide
        self.pos.g[K.P_WIDEPLY] = engine.wideply
        self.pos.g[K.P_VCT3] = engine.vct3
        self.pos.g[K.P_VCT3MAX] = engine.vct3max
        self.N = self.pos.N
        self.hist = np.zeros((2, self.N), dtype=np.int64)
        self.killers = np.full((K.MAXPLY, 2), -1, dtype=np.int64)
        self.mv = np.zeros((K.MAXPLY, self.N), dtype=np.int64)
        self.ms = np.zeros((K.MAXPLY, self.N), dtype=np.int64)
        self.pv = np.zeros((K.MAXPLY, K.MAXPLY), dtype=np.int64)
        self.pvlen = self.pos.g[K.PVL:K.PVL + K.MAXPLY]  # a view
        self.guess = 0
        self.values: dict[int, int] = {}
        self.passes_by_depth: dict[int, int] = {}  # MTD(f) null-window passes per completed depth
        self.best = -1
        self.vcf_done = False
        self.vct_done = False
        self.vct_nodes = 0
        self.vct_runs = 0
        self.vct_budget = engine.vctnodes
        self.vct_complete = False
        self.vcf_win: Iteration | None = None
        self.vcf_ms = 0.0
        self._split: SplitSearch | None = None  # the threads' copies, made at the first shared pass

    @property
    def nodes(self) -> int:
        return int(self.pos.g[K.NODES] + self.pos.g[K.VNODES] + self.pos.g[K.LVNODES] + self.vct_nodes)

    def hashfull(self) -> int:
        return hashfull(self.engine.tt, self.engine.age)

    def _pv(self) -> list[int]:
        return [self.pos.unpad(int(y)) for y in self.pv[0, : self.pvlen[0]]]

    def _root(self, depth: int, alpha: int, beta: int, flag: np.ndarray, ex: np.ndarray) -> int:
        e = self.engine
        if self.node_limit > 0:  # the kernels count their alpha-beta nodes against what is left
            self.pos.g[K.NODE_LIMIT] = self.pos.g[K.NODES] + max(1, self.node_limit - self.nodes)
        if e.threads > 1 and e.algo_id == K.ALGO_MTDF and beta == alpha + 1 and depth >= MIN_SPLIT_DEPTH:
            if self._split is None:
                self._split = e._split_search(self)
            v = self._split.run_pass(depth, beta, flag, ex)
            if v is not None:
                return v
        return int(K._root(*self.pos.arrays(), self.hist, self.killers, self.mv, self.ms, self.pv,
                           e.tt, e.vt, np.int64(e.age), flag, np.int64(depth), np.int64(alpha), np.int64(beta),
                           ex, np.int64(self.best)))

    def run_vcf(self, flag: np.ndarray, fours: int) -> Iteration | None:
        """A VCF win for the side to move, or ``None``."""
        e = self.engine
        t = time.perf_counter()
        v = int(K._root_vcf(*self.pos.arrays(), self.mv, self.ms, self.pv, e.vt, flag,
                            np.int64(fours)))
        self.vcf_ms = (time.perf_counter() - t) * 1000
        if self.pos.g[K.ABORT]:
            self.pos.g[K.ABORT] = 0
            return None
        if v > 0:
            return Iteration(v, self._pv(), int(self.pvlen[0]), exact=True)
        return None

    def run_vct(self, flag: np.ndarray, threats: int, budget: int) -> Iteration | None:
        """A win by continuous threats (fours and open threes) for the side to move, or ``None``."""
        e = self.engine
        g = self.pos.g
        g[K.VTNODES] = 0
        g[K.VT_LIMIT] = budget
        g[K.VT_OUT] = 0
        self.vct_complete = False
        for left in range(1, threats + 1):  # shortest wins first; a deep search may run out of budget
            v = int(K._root_vct(*self.pos.arrays(), self.mv, self.ms, self.pv, e.vt, flag,
                                np.int64(left)))
            out = g[K.ABORT] or g[K.VT_OUT]
            if out:
                break
            if left == threats and v <= 0:
                self.vct_complete = True
            if v > 0:
                self.vct_nodes += int(g[K.VTNODES])
                return Iteration(v, self._pv(), int(self.pvlen[0]), exact=True)
        self.vct_nodes += int(g[K.VTNODES])
        g[K.ABORT] = 0
        return None

    def iterate(self, depth: int, flag: np.ndarray, excluded: Sequence[int]) -> Iteration | None:
        e = self.engine
        pos = self.pos
        if not self.vcf_done:
            self.vcf_done = True
            if e.vcf > 0 and not e.pure:
                self.vcf_win = self.run_vcf(flag, e.vcf)
        elif not self.vct_done and depth >= 2:
            # After one full iteration (a short clock always has a searched move): a first slice of
            # ``vctnodes``, then slices of twice the last while the VCT has used at most a third of the
            # search's nodes, until one finishes within its budget (no VCT of ``vct`` threats).
            if self.vcf_win is not None or e.vct == 0 or e.vctnodes == 0 or e.pure or flag[0]:
                self.vct_done = True
            else:
                g = pos.g
                searched = int(g[K.NODES] + g[K.VNODES] + g[K.LVNODES])
                if self.vct_runs == 0 or self.vct_nodes + self.vct_budget <= searched // 3:
                    budget = self.vct_budget
                    if self.node_limit > 0:
                        budget = max(1, min(budget, (self.node_limit - self.nodes) // 3))
                    self.vcf_win = self.run_vct(flag, e.vct, budget)
                    self.vct_runs += 1
                    self.vct_budget *= 2
                    self.vct_done = self.vcf_win is not None or self.vct_complete
        if self.vcf_win is not None and self.vcf_win.pv and self.vcf_win.pv[0] not in excluded:
            return self.vcf_win
        ex = np.zeros(self.N, dtype=np.uint8)
        for m in excluded:
            ex[pos.pad(m)] = 1
        pos.g[K.SELDEPTH] = 0
        value, pv = self._search_root(depth, flag, ex)
        if pos.g[K.ABORT]:
            return Iteration(value, pv, int(pos.g[K.SELDEPTH]), complete=False) if pv else None
        if not pv:
            return None
        if not excluded:
            self.guess = value
            self.values[depth] = value
            self.best = pos.pad(pv[0])
        return Iteration(value, pv, int(pos.g[K.SELDEPTH]), exact=False)

    def _search_root(self, depth: int, flag: np.ndarray, ex: np.ndarray) -> tuple[int, list[int]]:
        if self.engine.algo_id == K.ALGO_MTDF:
            return self._mtdf(depth, flag, ex)
        return self._root(depth, -WIN - 1, WIN + 1, flag, ex), self._pv()

    def _mtdf(self, depth: int, flag: np.ndarray, ex: np.ndarray) -> tuple[int, list[int]]:
        grain = self.engine.grain_for_search
        g = self.values.get(depth - 2, self.values.get(depth - 1, self.guess))
        lower, upper = -WIN - 1, WIN + 1
        pv: list[int] = []
        passes = 0
        step = max(grain, 8)
        last_high = None
        accept = 0 if self.engine.pure or depth < self.engine.acceptfrom else self.engine.accept
        while upper - lower > grain:
            if lower > WIN_THRESHOLD or upper < -WIN_THRESHOLD:
                break  # a forced win (or loss) is proven; its exact length does not change the move
            if passes == 0:
                beta = g - accept if accept else g
            elif lower > -WIN and upper < WIN:
                beta = (lower + upper + 1) // 2  # bracketed: bisect
            elif last_high:
                beta = lower + step  # only a lower bound yet: gallop up
                step *= 2
            else:
                beta = upper - step + 1  # only an upper bound yet: gallop down
                step *= 2
            beta = min(max(beta, lower + 1), upper)
            v = self._root(depth, beta - 1, beta, flag, ex)
            passes += 1
            if self.pos.g[K.ABORT]:
                break
            if v < beta:
                upper = v
                last_high = False
                if not pv:
                    pv = self._pv()
            else:
                lower = v
                last_high = True
                pv = self._pv()
                self.best = self.pos.pad(pv[0]) if pv else self.best
                if accept:
                    g = v
                    break  # one-sided: a move holding this lower bound is kept, no upper bound sought
            g = v
        if lower > -WIN - 1 and not self.pos.g[K.ABORT]:
            g = lower  # the value is within the grain above the proven lower bound
        self.passes = passes
        if not ex.any():
            self.passes_by_depth[depth] = passes
        if pv and not self.pos.g[K.ABORT]:
            mate = WIN - abs(g) if abs(g) > WIN_THRESHOLD else 0
            line = self._tt_line(self.pos.pad(pv[0]), max(depth, len(pv), mate) + 4)
            if len(line) > len(pv):
                pv = line
        return g, pv

    def _tt_line(self, first: int, maxlen: int) -> list[int]:
        out = np.zeros(maxlen, dtype=np.int64)
        n = int(K._tt_line(*self.pos.arrays(), self.engine.tt, np.int64(first), np.int64(maxlen), out))
        return [self.pos.unpad(int(y)) for y in out[:n]]


class GomokuEngine:
    """Alpha-beta over threat-aware candidates with VCF at the root and the leaves, VCT at the root
    and near it.

    See the module docstring for the options.
    """

    def __init__(self, game: Gomoku, algo: str = "mtdf", top: int | None = None, hash: float = 64,
                 vcf: int = 40, leafvcf: int = 3, vct: int = 6, vctnodes: int = 4000, step: int | None = None,
                 grain: int = 16, lmr: int = 2, treevct: int = 2,
                 treevctnodes: int = 1000, taper: int = 0, topmin: int = 0, taperfrom: int = 0,
                 accept: int = 0, acceptfrom: int = 0, threads: int = 1,
                 wide: int | None = None, wideply: int | None = None, tempo: int = 20,
                 vct3: int = 0, vct3max: int = 0,
                 pure: bool = False, weights: str = "spsa", table: str = "", **weight_options: int) -> None:
        if not isinstance(game, Gomoku):
            raise InvalidOptionError(f"the gomoku engine plays gomoku, not {game.spec}")
        if algo not in ALGORITHMS:
            raise InvalidOptionError(f"algorithm must be one of {', '.join(ALGORITHMS)}, got {algo!r}")
        if top is None:
            top = 10 if algo == "mtdf" else 0
        if step is None:
            step = 2 if algo == "mtdf" else 1
        if wide is None:
            wide = 20 if algo == "mtdf" else 0
        if wideply is None:
            wideply = 1 if algo == "mtdf" else 0
        if not isinstance(step, int) or isinstance(step, bool) or step not in (1, 2):
            raise InvalidOptionError(f"option step must be 1 or 2, got {step!r}")
        for name, v in (("top", top), ("vcf", vcf), ("leafvcf", leafvcf), ("vct", vct), ("vctnodes", vctnodes),
                        ("grain", grain), ("lmr", lmr),
                        ("treevct", treevct), ("treevctnodes", treevctnodes), ("taper", taper),
                        ("topmin", topmin), ("taperfrom", taperfrom), ("accept", accept), ("acceptfrom", acceptfrom),
                        ("threads", threads), ("wide", wide), ("wideply", wideply), ("tempo", tempo),
                        ("vct3", vct3), ("vct3max", vct3max)):
            if not isinstance(v, int) or isinstance(v, bool) or v < 0:
                raise InvalidOptionError(f"option {name} must be a non-negative integer, got {v!r}")
        if not isinstance(hash, (int, float)) or isinstance(hash, bool) or not 0 < hash <= 4096:
            raise InvalidOptionError(f"option hash must be a size in MB in (0, 4096], got {hash!r}")
        unknown = [k for k in weight_options if not k.startswith("w_")]
        if unknown:
            raise InvalidOptionError(f"the gomoku engine has no option {unknown[0]!r}")
        #: the evaluation weights (``K.WEIGHTS``'s layout): the preset ``weights`` changed by the ``w_*`` options
        self.weights = evaluation_weights({k[2:]: v for k, v in weight_options.items()}, weights)
        if not isinstance(table, str):
            raise InvalidOptionError(f"option table must be a file name, got {quote(table)}")
        if table and (weight_options or weights != "spsa"):
            raise InvalidOptionError(f"option table={quote(table)} replaces the weights: give no weights, no w_*")
        #: the kernels' combination table in nibble order: the loaded ``table``'s, or ``None`` (the weights')
        self.cmb = K.combo_nibbles(load_table(table)) if table else None
        self.table = table
        self.game = game
        self.algo = algo
        self.algo_id = ALGORITHMS[algo]
        self.top = top
        self.vcf = vcf
        self.leafvcf = leafvcf
        self.vct = vct
        self.vctnodes = vctnodes
        self.step = step
        self.pure = bool(pure)
        self.grain = grain
        self.lmr = lmr
        self.treevct = treevct
        self.treevctnodes = treevctnodes
        self.vct3 = vct3
        self.vct3max = vct3max
        self.taper = taper
        self.topmin = topmin
        self.taperfrom = taperfrom
        self.accept = accept
        self.acceptfrom = acceptfrom
        self.grain_for_search = 0 if self.pure else grain  # pure: until the bounds meet
        if not 1 <= threads <= MAX_THREADS:
            raise InvalidOptionError(f"option threads must be from 1 to {MAX_THREADS}, got {threads!r}")
        self.threads = threads
        self.wide = wide
        self.wideply = wideply
        self.tempo = tempo
        self._pool: ThreadPoolExecutor | None = None
        self.name = algo + (f",top={top}" if top else "")
        self.tt = new_table(hash)
        self.vt = new_table(max(1.0, hash / 8))
        self.age = 0
        #: MTD(f) null-window passes per depth of the last search (for the benchmark)
        self.last_passes: dict[int, int] = {}

    def _split_search(self, searcher: _Searcher) -> SplitSearch:
        """The threads that share ``searcher``'s null-window passes."""
        if self._pool is None:
            self._pool = ThreadPoolExecutor(self.threads, thread_name_prefix="gomoku-search")
            weakref.finalize(self, self._pool.shutdown, wait=False)  # the idle threads end with the engine
        return SplitSearch(searcher, self._pool, self.threads)

    def new_game(self) -> None:
        clear_table(self.tt)
        clear_table(self.vt)
        self.age = 0

    def search(
        self,
        state: GomokuState,
        limits: Limits,
        stop: np.ndarray | None = None,
        on_info: InfoCallback | None = None,
    ) -> SearchResult:
        if state.game != self.game:
            raise InvalidOptionError(f"this engine plays {self.game.spec}, not {state.game.spec}")
        return self._search(state, limits, stop, on_info)

    def _search(self, state: GomokuState, limits: Limits, stop: np.ndarray | None,
                on_info: InfoCallback | None) -> SearchResult:
        self.age = (self.age + 1) % 256
        clear_table(self.vt)  # VCF failures depend on the search budget; keep them per search
        searcher = _Searcher(self, state, limits.nodes or 0)
        self.last_passes = searcher.passes_by_depth
        if state.stones == 0 and not self.pure and not state.is_terminal():
            return self._opening(state, limits, on_info)
        empties = self.game.cells - state.stones
        max_depth = min(K.MAXPLY - 8, empties)
        start = min(self.step, max_depth)
        if self.step == 2 and limits.depth is not None and limits.depth % 2 == 1:
            start = 1  # an odd depth asked for: deepen through the odd depths to reach it
        # (``nodes`` is a read-only property here; the driver only reads it)
        return iterative_deepening(cast(Searcher, searcher), state, limits, stop, on_info,
                                   DriverOptions(max_depth=max_depth, start_depth=start, step=self.step))

    def _opening(self, state: GomokuState, limits: Limits, on_info: InfoCallback | None) -> SearchResult:
        g = self.game
        centre = (g.height // 2) * g.width + g.width // 2
        score = Score.eval(0, state.current_player)
        info = SearchInfo(next_search_id(), 1, 1, score, (centre,), 1, 0, 0, text="opening: the centre")
        if on_info is not None:
            on_info(info)
        return SearchResult(centre, score, (centre,), 1, 1, 0, lines=(info,))

    def solve_vct(self, state: GomokuState, threats: int = 8, budget: int = 1_000_000,
                  stop: np.ndarray | None = None) -> list[int] | None:
        """A victory by continuous threats (fours and open threes) for the side to move, or ``None``."""
        s = _Searcher(self, state, 0)
        flag = stop if stop is not None else np.zeros(1, dtype=np.uint8)
        clear_table(self.vt)
        it = s.run_vct(flag, threats, budget)
        return None if it is None else it.pv

    def solve_vcf(self, state: GomokuState, fours: int = 60, stop: np.ndarray | None = None) -> list[int] | None:
        """A victory by continuous fours for the side to move (its moves), or ``None``."""
        s = _Searcher(self, state, 0)
        flag = stop if stop is not None else np.zeros(1, dtype=np.uint8)
        clear_table(self.vt)
        it = s.run_vcf(flag, fours)
        return None if it is None else it.pv


def _factory(algo: str):  # type: ignore[no-untyped-def]
    def make(game: Gomoku, **options) -> GomokuEngine:  # type: ignore[no-untyped-def]
        return GomokuEngine(game, algo=algo, **options)

    return make


_WEIGHT_HELP = {**{n: f"a line where a stone makes {n.upper() if n[0] in 'bfd' else 'a ' + n}" for n in K.WEIGHT_NAMES},
                "44": "a cell's bonus for a double four", "43": "a cell's bonus for a four-three",
                "33": "a cell's bonus for a double three"}
_OPTIONS = {"top": Option(10, 0, 1000, help="moves searched per node (0: all)"),
            "hash": Option(64, 0.01, 4096, kind=float, help="MB of transposition table"),
            "vcf": Option(40, 0, 1000, help="fours the root's threat search may chain (0: off)"),
            "leafvcf": Option(3, 0, 1000, help="fours a leaf's threat search may chain (0: off)"),
            "vct": Option(6, 0, 1000, help="threats a VCT may chain (0: off)"),
            "vctnodes": Option(4000, 0, 10**9, help="the root VCT's first slice of nodes"),
            "step": Option(1, choices=(1, 2), help="plies per iteration"),
            "grain": Option(16, 0, 10**6, help="MTD(f) stops within this many units"),
            "lmr": Option(2, 0, 1000, help="late move reduction from this move index (0: off)"),
            "treevct": Option(2, 0, K.MAXPLY, help="deepest ply of a VCT in the tree (0: off)"),
            "treevctnodes": Option(1000, 0, 10**9, help="nodes per VCT in the tree"),
            "vct3": Option(0, 0, 10**9, help="nodes of a VCT at ply 1 that starts with a new three (0: off)"),
            "vct3max": Option(0, 0, 10**9, help="the tree's VCT nodes after which `vct3` stops (0: no cap)"),
            "wide": Option(0, 0, 1000, help="moves searched per node near the root (0: top)"),
            "wideply": Option(0, 0, K.MAXPLY, help="plies from the root searched `wide` wide (0: off)"),
            "tempo": Option(20, 0, 64, help="the side to move's cell values in the evaluation, in sixteenths"),
            "taper": Option(0, 0, 1000), "topmin": Option(0, 0, 1000), "taperfrom": Option(0, 0, K.MAXPLY),
            "accept": Option(0, 0, 10**6, help="one-sided MTD(f) margin (0: off)"),
            "acceptfrom": Option(0, 0, K.MAXPLY),
            "threads": Option(1, 1, MAX_THREADS, help="threads sharing MTD(f)'s passes"),
            "pure": Option(False, help="plain alpha-beta over every empty cell (tests)"),
            "weights": Option("spsa", choices=tuple(WEIGHT_PRESETS), help="the evaluation weights' preset"),
            "table": Option("", kind=str, max_len=1000,
                            help="a fitted combination table (.npz from texel.py) instead of the weights'"),
            **{f"w_{name}": Option(int(K.WEIGHTS[i]), 0, WEIGHT_MAX, help=f"evaluation weight: {_WEIGHT_HELP[name]}")
               for i, name in enumerate(K.WEIGHT_NAMES) if i}}
register_engine("gomoku", "mtdf", _factory("mtdf"), default=True,
                options={**_OPTIONS, "step": Option(2, choices=(1, 2), help="plies per iteration"),
                         "wide": Option(20, 0, 1000, help="moves searched at the root (0: top)"),
                         "wideply": Option(1, 0, K.MAXPLY, help="plies from the root searched `wide` wide (0: off)")},
                help="MTD(f) over the 10 best-ordered moves (20 at the root), threat extensions and VCF (numba)")
register_engine("gomoku", "pvs", _factory("pvs"), options={**_OPTIONS, "top": Option(0, 0, 1000)},
                help="principal variation search (NegaScout), full width unless top=N")
register_engine("gomoku", "negamax", _factory("negamax"), options={**_OPTIONS, "top": Option(0, 0, 1000)},
                help="negamax alpha-beta, full width unless top=N")

def warm_up(engine: GomokuEngine | None = None) -> None:
    """Compile the kernels (from the cache when it is warm): what ``engine`` needs (its algorithm, its
    rule, its threads), or what any engine needs."""
    game = Gomoku(size=9)
    s = game.state_from_text("e5 f6 e6")
    for algo in ALGORITHMS if engine is None else (engine.algo,):
        GomokuEngine(game, algo=algo, hash=1).search(s, Limits(depth=3))
    if engine is not None and engine.threads > 1:  # the threads' shared passes start at MIN_SPLIT_DEPTH
        GomokuEngine(game, hash=1, threads=2).search(s, Limits(depth=MIN_SPLIT_DEPTH + 1))
    if engine is not None and engine.game["rule"] != "renju":
        return
    renju = Gomoku(size=9, rule="renju")
    r = renju.state_from_text("e5 a1 f6 a3")
    r.forbidden_moves()  # the forbidden-point kernel
    GomokuEngine(renju, algo="mtdf" if engine is None else engine.algo, hash=1).search(r, Limits(depth=2))
