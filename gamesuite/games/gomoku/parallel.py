"""MTD(f)'s null-window passes shared by several threads (the engine's ``threads`` option).

A null-window pass asks one question of the root: does some move reach
``beta``? Inside such a window no move's result narrows the window of the
next, so the moves of a node can be searched at the same time, each by its
own thread with its own copy of the position and ordering tables, all sharing
the transposition table.

The split follows the first-move path ("young brothers wait"): a node's first
move is searched first, by splitting the node below it while
``MIN_SPLIT_DEPTH`` plies or more are left, else by one thread; then, unless
it reached ``beta``, the node's other moves are shared among the threads. A
move that reaches ``beta`` stops the moves still running. The forced reply to
a five is followed, and a node's tree VCT tried, before its moves are shared.
``kernels._split_open`` opens a node as ``_search`` would and
``kernels._split_move`` searches one of its moves; with one worker the
passes search exactly ``_search``'s tree. Wider windows, shallow depths and
nodes the kernels answer themselves (a five or a four on the board) are
searched by one thread.

The threads write the table without locks: a slot written by two threads at
once can pair one position's key with another's value. As in other engines
that share a table this way, such an entry is rare and costs at most a wrong
bound somewhere in the tree; one thread (``threads=1``, the default) never
meets it. Several threads' searches are not repeatable.
"""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor, wait
from typing import TYPE_CHECKING

import numpy as np

from ...core.score import WIN
from ...search.tt import LOWER, UPPER, tt_store
from . import kernels as K

if TYPE_CHECKING:
    from .engine import Position, _Searcher

#: Shallower passes are cheap: one thread searches them.
MIN_SPLIT_DEPTH = 4


class _Worker:
    """One thread's copy of the position and search arrays."""

    def __init__(self, pos: Position) -> None:
        self.pos = pos.clone()
        self.arrays = self.pos.arrays()
        # its own ordering tables, copied from the search's before each shared node (shared ones
        # would bounce between the cores' caches at every cut)
        self.hist = np.zeros((2, pos.N), dtype=np.int64)
        self.killers = np.full((K.MAXPLY, 2), -1, dtype=np.int64)
        self.mv = np.zeros((K.MAXPLY, pos.N), dtype=np.int64)
        self.ms = np.zeros((K.MAXPLY, pos.N), dtype=np.int64)
        self.pv = np.zeros((K.MAXPLY, K.MAXPLY), dtype=np.int64)
        self.stop = np.zeros(1, dtype=np.uint8)

    def move(self, tt: np.ndarray, vt: np.ndarray, age: int, depth: int, ply: int, beta: int, y: int,
             red: int) -> int:
        """The value of ``y`` at ``ply`` in the window (beta - 1, beta), its line in ``pv[ply + 1]``."""
        return int(K._split_move(*self.arrays, self.hist, self.killers, self.mv, self.ms, self.pv, tt, vt,
                                 np.int64(age), self.stop, np.int64(depth), np.int64(ply), np.int64(beta - 1),
                                 np.int64(beta), np.int64(y), np.int64(red)))

    def line(self, ply: int) -> list[int]:
        """The line this worker found from ``ply`` on (padded cells)."""
        return [int(y) for y in self.pv[ply, ply:self.pos.g[K.PVL + ply]]]


class SplitSearch:
    """The threads of one search, with copies of its root position."""

    def __init__(self, searcher: _Searcher, pool: ThreadPoolExecutor, threads: int) -> None:
        self.s = searcher
        self.pool = pool
        self.workers = [_Worker(searcher.pos) for _ in range(threads)]
        self._partial = -WIN - 1  # the root's best value so far in a pass

    def run_pass(self, depth: int, beta: int, flag: np.ndarray, ex: np.ndarray) -> int | None:
        """The root's value tested against ``beta`` (fail-soft, as ``kernels._root``), its line in the
        searcher's ``pv[0]``; ``None`` where this pass is better left to the one-thread kernel (the
        caller sends only passes of ``MIN_SPLIT_DEPTH`` plies or more)."""
        s = self.s
        pos = s.pos
        g = pos.g
        n, limit = K._root_moves(pos.bd, pos.ub, pos.ci, g, pos.near, s.hist, s.killers, s.mv, s.ms, ex,
                                 np.int64(s.best))
        if n == 0:
            return None
        order = [int(K._pick(s.mv, s.ms, np.int64(0), np.int64(j), np.int64(n))) for j in range(min(n, limit))]
        me = int(g[K.STONES] & 1)
        if any(pos.ci[y, K.CI_CB + me] == K.C_FIVE for y in order):
            return None
        g[K.NODES] += 1
        g[K.PVL] = 0
        best, line = self._moves([], order, [0] * len(order), depth, beta, flag)
        if line:
            s.pv[0, :len(line)] = line
            g[K.PVL] = len(line)
        if best is None:
            g[K.ABORT] = 1
            return -WIN - 1 if not line else int(self._partial)
        tt_store(s.engine.tt, np.uint64(g[K.KEY]), np.int64(depth), np.int64(LOWER if best >= beta else UPPER),
                 np.int64(best), np.int64(line[0]), np.int64(0), np.int64(s.engine.age))
        return best

    def _node(self, path: list[int], depth: int, beta: int, flag: np.ndarray) -> tuple[int | None, list[int]]:
        """The value (``None`` when stopped) of the node after ``path`` (played on the searcher's position)
        for its side to move in the window (beta - 1, beta), as ``kernels._search`` finds it, and its
        line when it reaches ``beta``."""
        s = self.s
        e = s.engine
        pos = s.pos
        g = pos.g
        ply = len(path)
        arrays = pos.arrays()
        status, value, count = K._split_open(*arrays, s.hist, s.killers, s.mv, s.ms, s.pv, e.tt, e.vt,
                                             np.int64(e.age), flag, np.int64(depth), np.int64(ply),
                                             np.int64(beta - 1), np.int64(beta))
        if g[K.ABORT]:
            return None, []
        if status == 0:
            v = int(K._search(*arrays, s.hist, s.killers, s.mv, s.ms, s.pv, e.tt, e.vt, np.int64(e.age),
                              flag, np.int64(depth), np.int64(ply), np.int64(beta - 1), np.int64(beta)))
            if g[K.ABORT]:
                return None, []
            return v, [int(y) for y in s.pv[ply, ply:g[K.PVL + ply]]]
        if status == 2:
            return int(value), [int(y) for y in s.pv[ply, ply:g[K.PVL + ply]]]
        if status == 3:  # the one reply to a five, at the same depth
            K._place(*arrays, np.int64(value), np.int64(1 + (g[K.STONES] & 1)))
            try:
                reply, ln = self._node(path + [int(value)], depth, -beta + 1, flag)
            finally:
                K._remove(*arrays, np.int64(value))
            return (None, []) if reply is None else (-reply, [int(value)] + ln)
        if count == 0:  # no move to try (as ``_search``: the static value, nothing stored)
            return (0 if g[K.P_PURE] else int(K._evaluate(g, np.int64(g[K.STONES] & 1)))), []
        moves = [int(y) for y in s.mv[ply, :count]]
        reds = [int(r) for r in s.ms[ply, :count]]
        key = np.uint64(g[K.KEY])
        best, line = self._moves(path, moves, reds, depth, beta, flag)
        if best is None:
            return None, []
        me = int(g[K.STONES] & 1)
        bestm = line[0] if line else -1
        if best >= beta:
            k = s.killers
            if k[ply, 0] != bestm:
                k[ply, 1] = k[ply, 0]
                k[ply, 0] = bestm
            s.hist[me, bestm] += depth * depth
        tt_store(e.tt, key, np.int64(depth), np.int64(LOWER if best >= beta else UPPER), np.int64(best),
                 np.int64(bestm), np.int64(ply), np.int64(e.age))
        return best, (line if best >= beta else [])

    def _moves(self, path: list[int], moves: list[int], reds: list[int], depth: int, beta: int,
               flag: np.ndarray) -> tuple[int | None, list[int]]:
        """Search ``moves`` of the node after ``path``: the first alone (splitting below it while the
        depth allows), then the others shared. The best value (``None`` when stopped) and its line
        (the best move first; at the root, also below ``beta``)."""
        s = self.s
        pos = s.pos
        g = pos.g
        ply = len(path)
        arrays = pos.arrays()
        m1 = moves[0]
        five = pos.ci[m1, K.CI_CB + (g[K.STONES] & 1)] == K.C_FIVE  # (only possible without threat rules)
        if depth - 1 >= MIN_SPLIT_DEPTH and not five:
            K._place(*arrays, np.int64(m1), np.int64(1 + (g[K.STONES] & 1)))
            try:
                v, ln = self._node(path + [m1], depth - 1, -beta + 1, flag)
            finally:
                K._remove(*arrays, np.int64(m1))
            if v is None:
                return None, []
            v = -v
        else:
            v = int(K._split_move(*arrays, s.hist, s.killers, s.mv, s.ms, s.pv, s.engine.tt, s.engine.vt,
                                  np.int64(s.engine.age), flag, np.int64(depth), np.int64(ply), np.int64(beta - 1),
                                  np.int64(beta), np.int64(m1), np.int64(reds[0])))
            if g[K.ABORT]:
                return None, []
            ln = [int(y) for y in s.pv[ply + 1, ply + 1:g[K.PVL + ply + 1]]]
        best, line = v, [m1] + ln
        if ply == 0:
            self._partial = best
        if best < beta and len(moves) > 1:
            tasks = list(zip(moves[1:], reds[1:]))
            results = self._share(path, tasks, depth, beta, flag)
            if results is None:
                return None, line if ply == 0 else []
            for i, (v, ln) in sorted(results.items()):
                if v > best:
                    best, line = v, [moves[1 + i]] + ln
        return best, line

    def _share(self, path: list[int], tasks: list[tuple[int, int]], depth: int, beta: int,
               flag: np.ndarray) -> dict[int, tuple[int, list[int]]] | None:
        """Search ``tasks`` (move, reduction) of the node after ``path`` in the window (beta - 1, beta) on
        every thread; ``None`` when the search was stopped. Once a move reaches ``beta`` the tasks
        still running are stopped and left out."""
        e = self.s.engine
        ply = len(path)
        lock = threading.Lock()
        state: dict = {"next": 0, "done": False}
        results: dict[int, tuple[int, list[int]]] = {}

        def work(w: _Worker) -> None:
            g = w.pos.g
            for y in path:
                K._place(*w.arrays, np.int64(y), np.int64(1 + (g[K.STONES] & 1)))
            try:
                while True:
                    with lock:
                        i = state["next"]
                        if state["done"] or i >= len(tasks):
                            return
                        state["next"] = i + 1
                    y, red = tasks[i]
                    v = w.move(e.tt, e.vt, e.age, depth, ply, beta, y, red)
                    if g[K.ABORT]:
                        return
                    with lock:
                        results[i] = (v, w.line(ply + 1))
                        if v >= beta and not state["done"]:
                            state["done"] = True
                            state["by"] = w
                            for other in self.workers:
                                other.stop[0] = 1
            finally:
                for y in reversed(path):
                    K._remove(*w.arrays, np.int64(y))

        limit = self.s.node_limit
        if limit > 0:  # the search's node limit, the nodes left shared evenly
            left = max(1, (limit - self.s.nodes) // len(self.workers))
        for w in self.workers:
            w.stop[0] = 0
            w.pos.g[K.ABORT] = 0
            w.pos.g[K.SELDEPTH] = 0
            if limit > 0:
                w.pos.g[K.NODE_LIMIT] = w.pos.g[K.NODES] + left
            w.hist[:] = self.s.hist  # the node's ordering as the search left it
            w.killers[:] = self.s.killers
        hist0 = self.s.hist.copy()
        counts = [self._counts(w) for w in self.workers]
        futures = [self.pool.submit(work, w) for w in self.workers]
        stopped = False
        while True:
            _, pending = wait(futures, timeout=0.002)
            if not pending:
                break
            if flag[0] and not stopped:
                stopped = True
                for w in self.workers:
                    w.stop[0] = 1
        for f in futures:
            f.result()  # an error in a thread is raised here
        self._add_counts(counts)
        # what the threads learnt for the ordering: every thread's history, the killers of the
        # thread that answered the node (of the first, when none did)
        for w in self.workers:
            self.s.hist += w.hist - hist0
        self.s.killers[:] = state.get("by", self.workers[0]).killers
        for w in self.workers:
            w.pos.g[K.ABORT] = 0
        if flag[0] or (not state["done"] and len(results) < len(tasks)):
            self.s.pos.g[K.ABORT] = 1  # stopped (or a thread's node limit) before the node was answered
            return None
        return results

    @staticmethod
    def _counts(w: _Worker) -> tuple[int, int, int]:
        g = w.pos.g
        return int(g[K.NODES]), int(g[K.VNODES]), int(g[K.LVNODES])

    def _add_counts(self, before: list[tuple[int, int, int]]) -> None:
        g = self.s.pos.g
        for w, (n, vn, lv) in zip(self.workers, before):
            wg = w.pos.g
            g[K.NODES] += wg[K.NODES] - n
            g[K.VNODES] += wg[K.VNODES] - vn
            g[K.LVNODES] += wg[K.LVNODES] - lv
            g[K.SELDEPTH] = max(g[K.SELDEPTH], wg[K.SELDEPTH])

