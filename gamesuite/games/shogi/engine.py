"""The shogi engine: numba PVS alpha-beta (``search.py``) behind the common iterative-deepening driver."""

from __future__ import annotations

from typing import Sequence

import numpy as np

from ...core.info import InfoCallback, SearchResult
from ...core.limits import Limits
from ...core.registry import register_engine
from ...core.score import WIN, WIN_THRESHOLD
from ...search.driver import DriverOptions, Iteration, iterative_deepening
from ...search.tt import clear_table, hashfull, new_table
from . import search as S
from .board import SLIDE_MASK, STEP_MASK
from .evaluation import hand_values, piece_square_table, piece_values
from .kernels import MAX_MOVES, SCRATCH
from .rules import Shogi, ShogiState

_HISTORY_BEFORE_ROOT = 32
#: Half-width of the aspiration window around the previous iteration's value (a pawn is 90).
ASPIRATION = 60


class _Searcher:
    """One search of one position: the arrays the kernels work on."""

    def __init__(self, engine: "ShogiEngine", state: ShogiState, node_limit: int) -> None:
        self.engine = engine
        self.g = state.g
        self.board = state.board.copy()
        self.hands = state.hands.copy()
        self.kings = state.kings.copy()
        self.us = np.int64(state.color)
        self.key = np.uint64(state.key)
        self.stats = np.zeros(S.STATS, dtype=np.int64)
        self.stats[S.NODE_LIMIT] = node_limit
        before = state._keys[-1 - _HISTORY_BEFORE_ROOT:-1]
        self.keys = np.zeros(len(before) + S.MAX_PLY + 2, dtype=np.uint64)
        self.keys[: len(before)] = np.array(before, dtype=np.uint64) if before else self.keys[:0]
        self.keys[len(before)] = self.key
        self.stats[S.HIST] = len(before)
        size = S.MAX_PLY + 1
        self.pv = np.zeros((size, size), dtype=np.int64)
        self.pvlen = np.zeros(size, dtype=np.int64)
        self.buf = np.zeros((size, MAX_MOVES), dtype=np.int32)
        self.scores = np.zeros((size, MAX_MOVES), dtype=np.int64)
        self.scratch = np.zeros((size, SCRATCH), dtype=np.int64)
        self.killers = np.full((size, 2), -1, dtype=np.int64)
        self.last_value: int | None = None

    @property
    def nodes(self) -> int:
        return int(self.stats[S.NODES])

    def hashfull(self) -> int:
        return hashfull(self.engine.tt, self.engine.age)

    def iterate(self, depth: int, flag: np.ndarray, excluded: Sequence[int]) -> Iteration | None:
        e = self.engine
        self.stats[S.SELDEPTH] = 0
        ex = np.array(list(excluded), dtype=np.int64)
        full = (-WIN - 1, WIN + 1)
        window = full
        prev = self.last_value
        if e.aspiration and not excluded and depth >= 4 and prev is not None and abs(prev) < WIN_THRESHOLD:
            window = (prev - ASPIRATION, prev + ASPIRATION)
        v = self._root(depth, flag, ex, window)
        if v is not None and window != full and not window[0] < v < window[1]:
            v = self._root(depth, flag, ex, full)  # outside the window: search again with a full one
        if v is None:
            return None
        if not excluded:
            self.last_value = v
        pv = [int(m) for m in self.pv[0, : self.pvlen[0]]]
        return Iteration(int(v), pv, int(self.stats[S.SELDEPTH]))

    def _root(self, depth: int, flag: np.ndarray, ex: np.ndarray, window: tuple[int, int]) -> int | None:
        e, g = self.engine, self.g
        v = S._root(self.board, self.hands, self.kings, self.us, np.int64(depth), self.key, ex,
                    np.int64(window[0]), np.int64(window[1]), g.geo, g.sq2p, g.p2sq, g.rel, g.pfile, g.dirs,
                    STEP_MASK, SLIDE_MASK, g.tab, g.zob_board, g.zob_hand, e.zs, e.values, e.handv, e.pst, e.tt,
                    np.int64(e.age), flag, self.stats, self.pv, self.pvlen, self.buf, self.scratch, self.keys,
                    self.killers, e.history, self.scores, e.opts)
        return None if self.stats[S.ABORTED] else int(v)


class ShogiEngine:
    """Alpha-beta for shogi and minishogi.

    PVS with a transposition table, iterative deepening (the common driver),
    quiescence on captures, null-move pruning, late-move reductions, check
    extension, killer and history ordering. Evaluation: material with hand
    pieces worth 30% more, piece-square tables (weights in ``evaluation.py``).

    Options: ``hash`` (MB), and ``quiesce``, ``nullmove``, ``lmr``,
    ``extensions``, ``aspiration`` (on by default; all off gives plain
    fixed-depth alpha-beta).
    """

    name = "alphabeta"

    def __init__(self, game: Shogi, hash: float = 16, quiesce: bool = True, nullmove: bool = True,
                 lmr: bool = True, extensions: bool = True, aspiration: bool = True) -> None:
        self.game = game
        g = game.geometry
        self.tt = new_table(hash)
        self.age = 0
        self.values = piece_values()
        self.handv = hand_values()
        self.pst = piece_square_table(g)
        self.zs = np.array([g.zob_side], dtype=np.uint64)
        self.aspiration = bool(aspiration)
        self.opts = np.array([bool(quiesce), bool(nullmove), bool(lmr), bool(extensions)], dtype=np.int64)
        self.history = np.zeros((2, 96, 96), dtype=np.int64)

    def new_game(self) -> None:
        clear_table(self.tt)
        self.history[:] = 0
        self.age = 0

    def search(
        self,
        state: ShogiState,
        limits: Limits,
        stop: np.ndarray | None = None,
        on_info: InfoCallback | None = None,
    ) -> SearchResult:
        self.age = (self.age + 1) % 256
        self.history //= 8
        searcher = _Searcher(self, state, limits.nodes or 0)
        return iterative_deepening(searcher, state, limits, stop, on_info, DriverOptions(max_depth=S.MAX_PLY // 2 - 2))


def warm_up() -> None:
    """Compile the kernels (from the cache when it is warm)."""
    game = Shogi(variant="mini")
    ShogiEngine(game, hash=0.1).search(game.new_state(), Limits(depth=2))


register_engine("shogi", "alphabeta", ShogiEngine,
                help="numba PVS alpha-beta: TT, quiescence, null move, LMR, killers/history; material+PST",
                default=True, options={"hash": 16, "quiesce": True, "nullmove": True, "lmr": True,
                                       "extensions": True, "aspiration": True})
