"""The shogi engine: numba PVS alpha-beta (``search.py``) behind the common iterative-deepening driver."""

from __future__ import annotations

import dataclasses
import time
from typing import Sequence

import numpy as np

from ...core.errors import InvalidOptionError
from ...core.info import InfoCallback, SearchInfo, SearchResult
from ...core.limits import Limits
from ...core.options import Option, memory_option
from ...core.registry import register_engine
from ...core.score import WIN, WIN_THRESHOLD, Score
from ...search.driver import DriverOptions, Iteration, StopWatch, iterative_deepening, next_search_id
from ...search.timeman import allocate
from ...search.tt import clear_table, hashfull, new_table
from . import search as S
from .board import SLIDE_MASK, STEP_MASK
from .evaluation import hand_values, piece_square_table, piece_values
from .kernels import MAX_MOVES, SCRATCH
from .mate import MateResult, MateTable, find_mate
from .rules import Shogi, ShogiState

_HISTORY_BEFORE_ROOT = 32
#: Half-width of the aspiration window around the previous iteration's value (a pawn is 90).
ASPIRATION = 60
#: Selective deepening: every root move is searched to at least the target depth minus this.
SELECTIVE_GAP = 2
#: The root mate search may use at most this share of the move's hard time limit.
MATE_TIME_SHARE = 0.1


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
        # the keys of the positions before the root and on the search path, then (from the middle on)
        # whether the side to move was in check in each of them (for perpetual check)
        self.keys = np.zeros(2 * (len(before) + S.MAX_PLY + 2), dtype=np.uint64)
        self.keys[: len(before)] = np.array(before, dtype=np.uint64) if before else self.keys[:0]
        self.keys[len(before)] = self.key
        half = len(self.keys) // 2
        self.keys[half: half + len(before) + 1] = [int(c) for c in state._checks[-1 - len(before):]]
        self.stats[S.HIST] = len(before)
        size = S.MAX_PLY + 1
        self.pv = np.zeros((size, size), dtype=np.int64)
        self.pvlen = np.zeros(size, dtype=np.int64)
        self.buf = np.zeros((size, MAX_MOVES), dtype=np.int32)
        self.scores = np.zeros((size, MAX_MOVES), dtype=np.int64)
        self.scratch = np.zeros((size, SCRATCH), dtype=np.int64)
        self.killers = np.full((size, 2), -1, dtype=np.int64)
        self.last_value: int | None = None
        # selective deepening: each root move's (depth, value, line)
        self.root_moves = state.legal_moves()
        self.sel: dict[int, tuple[int, int, list[int]]] = {m: (0, 0, [m]) for m in self.root_moves}

    @property
    def nodes(self) -> int:
        return int(self.stats[S.NODES])

    def hashfull(self) -> int:
        return hashfull(self.engine.tt, self.engine.age)

    def iterate(self, depth: int, flag: np.ndarray, excluded: Sequence[int]) -> Iteration | None:
        e = self.engine
        if e.root == "selective":
            return self._selective(depth, flag, excluded)
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

    def _selective(self, depth: int, flag: np.ndarray, excluded: Sequence[int]) -> Iteration | None:
        """Selective deepening (the original write-up's root strategy), to ``depth`` plies at most.

        Every root move is searched to depth 1; then the best move (by its last value) is deepened one
        ply at a time, each move keeping its own depth, value and line, until the best move has
        reached ``depth`` (it is settled) and every move has reached ``depth - SELECTIVE_GAP``.
        The transposition table carries the shallow results into the deeper searches' move order.
        """
        e = self.engine
        moves = [m for m in self.root_moves if m not in excluded]
        if not moves:
            return None
        lowest = max(1, depth - SELECTIVE_GAP)
        while True:
            fresh = [m for m in moves if self.sel[m][0] == 0]
            if fresh:
                target = fresh[0]
            else:
                best = max(moves, key=lambda m: (self.sel[m][1], self.sel[m][0]))
                if self.sel[best][0] < depth:
                    target = best
                else:
                    lagging = [m for m in moves if self.sel[m][0] < lowest]
                    if not lagging:
                        break
                    target = max(lagging, key=lambda m: (self.sel[m][1], -self.sel[m][0]))
            d, prev = self.sel[target][0] + 1, self.sel[target][1]
            window = (-WIN - 1, WIN + 1)
            if e.aspiration and d >= 3 and abs(prev) < WIN_THRESHOLD:
                window = (prev - ASPIRATION, prev + ASPIRATION)
            v = self._search_move(target, d, window, flag)
            if v is not None and not window[0] < v < window[1] and window[0] > -WIN - 1:
                v = self._search_move(target, d, (-WIN - 1, WIN + 1), flag)  # outside: again, full window
            if v is None:
                return None
            self.sel[target] = (d, v, [int(x) for x in self.pv[0, : self.pvlen[0]]])
        best = max(moves, key=lambda m: (self.sel[m][1], self.sel[m][0]))
        d, v, pv = self.sel[best]
        return Iteration(int(v), pv, int(self.stats[S.SELDEPTH]))

    def _search_move(self, move: int, depth: int, window: tuple[int, int], flag: np.ndarray) -> int | None:
        e, g = self.engine, self.g
        self.stats[S.SELDEPTH] = max(self.stats[S.SELDEPTH], 0)
        v = S._search_move(self.board, self.hands, self.kings, self.us, np.int64(move), np.int64(depth), self.key,
                           np.int64(window[0]), np.int64(window[1]), g.geo, g.sq2p, g.p2sq, g.rel, g.pfile,
                           g.dirs, STEP_MASK, SLIDE_MASK, g.tab, g.zob_board, g.zob_hand, e.zs, e.values, e.handv,
                           e.pst, e.tt, np.int64(e.age), flag, self.stats,
                           self.pv, self.pvlen, self.buf, self.scratch, self.keys, self.killers,
                           e.history, self.scores, e.opts)
        return None if self.stats[S.ABORTED] else int(v)

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

    Before the alpha-beta search, a df-pn mate search (``mate.py``) of at
    most ``mate`` nodes (0: none) looks for a mate by checks at the root; a
    mate found is reported as a mate score with its line, unless the
    alpha-beta search (then limited to fewer plies) finds a shorter one.

    Options: ``hash`` (MB), ``mate`` (root mate-search nodes), ``positional``
    (king safety and mobility in the evaluation; off: material and
    piece-square tables only), ``root`` (``pvs``: every root move to the
    iteration's depth; ``selective``: the original write-up's selective
    deepening, see ``_Searcher._selective``), and
    ``quiesce``, ``nullmove``, ``lmr``, ``extensions``, ``aspiration`` (on by
    default; all off gives plain fixed-depth alpha-beta).
    """

    name = "alphabeta"

    def __init__(self, game: Shogi, hash: float = 16, quiesce: bool = True, nullmove: bool = True,
                 lmr: bool = True, extensions: bool = True, aspiration: bool = True, mate: int = 20000,
                 positional: bool = True, root: str = "pvs") -> None:
        self.game = game
        g = game.geometry
        if int(mate) < 0:
            raise InvalidOptionError(f"option mate must be a node count >= 0, got {mate!r}")
        self.mate_nodes = int(mate)
        if root not in ("pvs", "selective"):
            raise InvalidOptionError(f"option root must be pvs or selective, got {root!r}")
        self.root = root
        self.mate_table = MateTable(max(1.0, hash / 4))
        self.last_mate: MateResult | None = None
        self.tt = new_table(hash)
        self.age = 0
        self.values = piece_values()
        self.handv = hand_values()
        self.pst = piece_square_table(g, bool(positional))
        self.zs = np.array([g.zob_side], dtype=np.uint64)
        self.aspiration = bool(aspiration)
        self.opts = np.array([bool(quiesce), bool(nullmove), bool(lmr), bool(extensions)], dtype=np.int64)
        self.history = np.zeros((2, 96, 96), dtype=np.int64)

    def new_game(self) -> None:
        clear_table(self.tt)
        self.mate_table.clear()
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
        t0 = time.perf_counter()
        hard = allocate(limits, state.color).hard_ms
        with StopWatch(stop, None if hard is None else MATE_TIME_SHARE * hard) as watch:
            mate = self.root_mate(state, watch.flag)
        limits = _less_time(limits, state.color, (time.perf_counter() - t0) * 1000)
        max_depth = S.MAX_PLY // 2 - 2
        if mate is not None:
            max_depth = len(mate.pv) - 1  # only a shorter mate (by any moves) could do better
            if max_depth < 1 or (limits.multipv <= 1 and max_depth <= 2):
                return self._mate_result(state, mate, 0, t0, on_info)
        searcher = _Searcher(self, state, limits.nodes or 0)
        r = iterative_deepening(searcher, state, limits, stop, on_info, DriverOptions(max_depth=max_depth))
        if mate is None or (r.score.kind == "mate" and 0 < r.score.for_player(state.color).value < len(mate.pv)):
            return r
        return self._mate_result(state, mate, searcher.nodes, t0, on_info, r)

    def root_mate(self, state: ShogiState, stop: np.ndarray | None = None) -> MateResult | None:
        """A mate by checks for the side to move found within the ``mate`` node budget, else None."""
        if self.mate_nodes <= 0 or state.is_terminal():
            return None
        r = find_mate(state, nodes=self.mate_nodes, stop=stop, table=self.mate_table)
        self.last_mate = r
        return r if r.status == "mate" and r.pv else None

    def _mate_result(self, state: ShogiState, mate: MateResult, nodes: int, t0: float,
                     on_info: InfoCallback | None, searched: SearchResult | None = None) -> SearchResult:
        pov = state.color
        ms = int((time.perf_counter() - t0) * 1000)
        total = nodes + mate.nodes
        score = Score.mate(len(mate.pv), pov)
        info = SearchInfo(next_search_id(), len(mate.pv), len(mate.pv), score, mate.pv, total,
                          int(total * 1000 / ms) if ms > 0 else 0, ms, 1, 0, "mate found")
        if on_info is not None:
            on_info(info)
        lines = (info,) + (searched.lines[1:] if searched is not None else ())
        return SearchResult(mate.pv[0], score, mate.pv, len(mate.pv), total, ms,
                            mate.pv[1] if len(mate.pv) > 1 else None, lines)


def _less_time(limits: Limits, pov: int, spent_ms: float) -> Limits:
    """``limits`` with ``spent_ms`` taken off the move time or the clock of ``pov``."""
    spent = int(spent_ms)
    if spent <= 0:
        return limits
    if limits.movetime is not None:
        return dataclasses.replace(limits, movetime=max(1, limits.movetime - spent))
    if limits.time_left is not None and 0 <= pov < len(limits.time_left):
        left = list(limits.time_left)
        left[pov] = max(1, left[pov] - spent)
        return dataclasses.replace(limits, time_left=tuple(left))
    return limits


def warm_up(engine: ShogiEngine | None = None) -> None:
    """Compile the kernels (from the cache when it is warm): those of ``engine``'s root search, or of both."""
    game = Shogi(variant="mini")
    for root in ("pvs", "selective") if engine is None else (engine.root,):
        ShogiEngine(game, hash=0.1, root=root).search(game.new_state(), Limits(depth=2))


register_engine("shogi", "alphabeta", ShogiEngine,
                help="numba PVS alpha-beta: TT, quiescence, null move, LMR, killers/history, root df-pn mate "
                     "search; material, PST, king safety, mobility",
                default=True, options={"hash": memory_option(16), "mate": Option(20000, 0, 10**9, help="root mate search nodes"),
                                       "positional": Option(True), "root": Option("pvs", choices=("pvs", "selective")),
                                       "quiesce": Option(True), "nullmove": Option(True), "lmr": Option(True),
                                       "extensions": Option(True), "aspiration": Option(True)})
