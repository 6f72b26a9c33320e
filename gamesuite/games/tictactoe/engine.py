"""The m,n,k engine: the numba solver behind the common iterative-deepening driver."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ...core.info import InfoCallback, SearchResult
from ...core.limits import Limits
from ...core.options import memory_option
from ...core.registry import register_engine
from ...search.driver import DriverOptions, Iteration, iterative_deepening
from ...search.tt import clear_table, hashfull, new_table
from . import kernels
from .rules import TicTacToe, TicTacToeState


class _Searcher:
    def __init__(self, engine: TicTacToeEngine, state: TicTacToeState, node_limit: int) -> None:
        g = state.game
        self.g = g
        self.engine = engine
        self.board = state.board.copy()
        self.me = state.to_move_stone
        self.empties = int((self.board == 0).sum())
        self.key = np.uint64(state.key)
        self.stats = np.zeros(4, dtype=np.int64)
        self.stats[kernels.NODE_LIMIT] = node_limit
        size = g.cells + 2
        self.pv = np.zeros((size, size), dtype=np.int32)
        self.pvlen = np.zeros(size, dtype=np.int32)

    @property
    def nodes(self) -> int:
        return int(self.stats[kernels.NODES])

    def hashfull(self) -> int:
        return hashfull(self.engine.tt, self.engine.age)

    def iterate(self, depth: int, flag: np.ndarray, excluded: Sequence[int]) -> Iteration | None:
        g = self.g
        ex = np.zeros(g.cells, dtype=np.uint8)
        for m in excluded:
            ex[m] = 1
        self.stats[kernels.SELDEPTH] = 0
        v = kernels._root(self.board, g.width, g.height, g.k, g.windows, self.engine.order, g.zobrist,
                          self.key, self.me, self.empties, depth, ex, self.engine.tt, self.engine.age,
                          flag, self.stats, self.pv, self.pvlen)
        if self.stats[kernels.ABORTED]:
            return None
        pv = [int(m) for m in self.pv[0, : self.pvlen[0]]]
        return Iteration(int(v), pv, int(self.stats[kernels.SELDEPTH]), exact=depth >= self.empties)


class TicTacToeEngine:
    """Perfect play on 3x3 (and strong play on larger m,n,k boards).

    Options: ``hash`` (MB of transposition table).
    """

    name = "solver"

    def __init__(self, game: TicTacToe, hash: float = 8) -> None:
        self.game = game
        self.tt = new_table(hash)
        self.age = 0
        self.order = kernels.move_order(game.width, game.height, game.windows)
        warm_up()

    def new_game(self) -> None:
        clear_table(self.tt)
        self.age = 0

    def search(
        self,
        state: TicTacToeState,
        limits: Limits,
        stop: np.ndarray | None = None,
        on_info: InfoCallback | None = None,
    ) -> SearchResult:
        self.age = (self.age + 1) % 256
        searcher = _Searcher(self, state, limits.nodes or 0)
        return iterative_deepening(searcher, state, limits, stop, on_info, DriverOptions(max_depth=searcher.empties))


_warm = False


def warm_up() -> None:
    """Compile the kernels (or load them from the cache) once per process.

    Engines call it when they are built, so compilation never eats into a
    search's time budget.
    """
    global _warm
    if _warm:
        return
    game = TicTacToe()
    board = np.zeros(game.cells, dtype=np.int8)
    order = kernels.move_order(game.width, game.height, game.windows)
    stats = np.zeros(4, dtype=np.int64)
    pv = np.zeros((game.cells + 2, game.cells + 2), dtype=np.int32)
    pvlen = np.zeros(game.cells + 2, dtype=np.int32)
    kernels._root(board, game.width, game.height, game.k, game.windows, order, game.zobrist, np.uint64(0),
                  1, game.cells, 2, np.zeros(game.cells, dtype=np.uint8), new_table(0.01), 0,
                  np.zeros(1, dtype=np.uint8), stats, pv, pvlen)
    _warm = True


register_engine("tictactoe", "solver", TicTacToeEngine, help="numba alpha-beta solver with a hash table",
                default=True, options={"hash": memory_option(8)})
