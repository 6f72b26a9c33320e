"""UCT for m,n,k games in numba: an array tree, random playouts, a stop flag.

The tree is one ``int32`` array with a row per node (``N`` visits, ``W`` summed
results of the player who moved into the node counted 2 win / 1 draw / 0 loss,
``FIRST`` child row or -1, ``COUNT`` children, ``MOVE`` into the node); the
children of a node are consecutive rows, one per empty cell. Nothing but numpy
arrays and scalars enters a kernel, and every random number comes from a
xorshift64* state in a ``uint64`` array, so :func:`reference_run` (plain Python)
reproduces a kernel run exactly.

The module also registers the network encoder of m,n,k boards (own stones,
the opponent's, ones) and a heuristic for PUCT's priors (open lines).

The board is the flat ``int8`` board of the rules (0 empty, 1 X, 2 O; move =
row * width + col), so a gomoku version needs only its own win test in place of
``_is_win``.
"""

from __future__ import annotations

import math
import time
from typing import Callable, Sequence

import numpy as np
from numba import njit

from ...core.errors import InvalidOptionError
from ...core.info import InfoCallback, SearchInfo, SearchResult
from ...core.limits import Limits
from ...core.registry import register_engine
from ...core.score import Score
from ...search.driver import StopWatch, next_search_id
from ...search.mcts import register_heuristic
from ...search.network import register_encoder, stone_planes
from ...search.timeman import allocate
from .kernels import _is_win
from .rules import TicTacToe, TicTacToeState, is_win_at

# node columns
N, W, FIRST, COUNT, MOVE = range(5)
COLUMNS = 5
# stats slots
USED, SIMS, MAXDEPTH = range(3)
STATS = 3

_MASK = (1 << 64) - 1
_MULT = 0x2545F4914F6CDD1D


# -- random numbers -------------------------------------------------------------


@njit(cache=True, nogil=True)
def _next_random(rng) -> np.uint64:
    """xorshift64*: advance ``rng[0]`` and return the next 64-bit number."""
    x = rng[0]
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    rng[0] = x
    return x * np.uint64(0x2545F4914F6CDD1D)


@njit(cache=True, nogil=True)
def _below(rng, n) -> int:
    """A random integer in ``0 .. n-1``."""
    return np.int64((_next_random(rng) >> np.uint64(33)) % np.uint64(n))


class ReferenceRandom:
    """The xorshift64* generator of the kernels, in plain Python."""

    def __init__(self, seed: int) -> None:
        self.x = seed & _MASK

    def next(self) -> int:
        x = self.x
        x ^= x >> 12
        x ^= (x << 25) & _MASK
        x ^= x >> 27
        self.x = x
        return (x * _MULT) & _MASK

    def below(self, n: int) -> int:
        return (self.next() >> 33) % n


def new_random(seed: int) -> np.ndarray:
    """A generator state for the kernels (a zero seed is replaced: xorshift needs a non-zero state)."""
    return np.array([seed & _MASK or 0x9E3779B97F4A7C15], dtype=np.uint64)


# -- kernels --------------------------------------------------------------------


@njit(cache=True, nogil=True)
def _playout(work, width, height, k, stone, empties, rng) -> int:
    """Play random moves on ``work`` (changed) from ``stone`` to move; the winning stone or 0."""
    cnt = 0
    for i in range(work.shape[0]):
        if work[i] == 0:
            empties[cnt] = i
            cnt += 1
    while cnt > 0:
        r = _below(rng, cnt)
        m = empties[r]
        cnt -= 1
        empties[r] = empties[cnt]
        work[m] = stone
        if _is_win(work, width, height, k, m):
            return stone
        stone = 3 - stone
    return 0


@njit(cache=True, nogil=True)
def _playouts(board, width, height, k, stone, count, rng, stop, results) -> int:
    """``count`` random playouts from ``board``; ``results[w]`` counts wins of stone ``w`` (0: draw)."""
    work = np.empty_like(board)
    empties = np.empty(board.shape[0], dtype=np.int32)
    done = 0
    for s in range(count):
        if (s & 63) == 0 and stop[0] != 0:
            break
        work[:] = board
        results[_playout(work, width, height, k, stone, empties, rng)] += 1
        done += 1
    return done


@njit(cache=True, nogil=True)
def _select(nodes, node, c, rng) -> int:
    """The UCT child row of ``node``: a random unvisited child, else the best ``Q + c sqrt(ln N / n)``."""
    first = nodes[node, FIRST]
    count = nodes[node, COUNT]
    unvisited = 0
    for j in range(count):
        if nodes[first + j, N] == 0:
            unvisited += 1
    if unvisited > 0:
        r = _below(rng, unvisited)
        for j in range(count):
            if nodes[first + j, N] == 0:
                if r == 0:
                    return first + j
                r -= 1
    log_n = math.log(nodes[node, N])
    best = -1
    best_score = -1e300
    for j in range(count):
        ch = first + j
        n = nodes[ch, N]
        score = nodes[ch, W] / n - 1.0 + c * math.sqrt(log_n / n)
        if score > best_score:
            best_score = score
            best = ch
    return best


@njit(cache=True, nogil=True)
def _run(board, width, height, k, root_stone, nodes, root, stats, sims, c, expand_at, rng, stop) -> int:
    """Run up to ``sims`` UCT simulations from ``root`` (position ``board``, ``root_stone`` to move).

    Polls ``stop`` every 16 simulations; returns how many were done.
    """
    cells = board.shape[0]
    work = np.empty_like(board)
    empties = np.empty(cells, dtype=np.int32)
    path = np.empty(cells + 2, dtype=np.int64)
    root_empty = 0
    for i in range(cells):
        if board[i] == 0:
            root_empty += 1
    capacity = nodes.shape[0]
    done = 0
    for s in range(sims):
        if (s & 15) == 0 and stop[0] != 0:
            break
        work[:] = board
        node = root
        stone = root_stone
        empty = root_empty
        depth = 0
        path[0] = root
        winner = -1  # -1: not decided in the tree
        while True:
            if nodes[node, COUNT] == 0:
                if (node != root and nodes[node, N] < expand_at) or stats[USED] + empty > capacity:
                    break
                first = stats[USED]
                j = 0
                for i in range(cells):
                    if work[i] == 0:
                        row = first + j
                        nodes[row, N] = 0
                        nodes[row, W] = 0
                        nodes[row, FIRST] = -1
                        nodes[row, COUNT] = 0
                        nodes[row, MOVE] = i
                        j += 1
                nodes[node, FIRST] = first
                nodes[node, COUNT] = j
                stats[USED] = first + j
            child = _select(nodes, node, c, rng)
            m = nodes[child, MOVE]
            work[m] = stone
            empty -= 1
            depth += 1
            path[depth] = child
            node = child
            if _is_win(work, width, height, k, m):
                winner = stone
                break
            if empty == 0:
                winner = 0
                break
            stone = 3 - stone
        if winner < 0:
            winner = _playout(work, width, height, k, stone, empties, rng)
        if depth > stats[MAXDEPTH]:
            stats[MAXDEPTH] = depth
        # the node at depth d was entered by root_stone when d is odd, by the other stone when even
        for d in range(depth + 1):
            row = path[d]
            mover = root_stone if d % 2 == 1 else 3 - root_stone
            nodes[row, N] += 1
            if winner == 0:
                nodes[row, W] += 1
            elif winner == mover:
                nodes[row, W] += 2
        done += 1
    stats[SIMS] += done
    return done


# -- checked wrappers ------------------------------------------------------------


def new_tree(capacity: int) -> tuple[np.ndarray, np.ndarray]:
    """An empty tree of ``capacity`` rows with a root (row 0) and its stats array."""
    if capacity < 2:
        raise InvalidOptionError(f"the tree needs room for at least 2 nodes, not {capacity}")
    nodes = np.zeros((capacity, COLUMNS), dtype=np.int32)
    nodes[0, FIRST] = -1
    nodes[0, MOVE] = -1
    stats = np.zeros(STATS, dtype=np.int64)
    stats[USED] = 1
    return nodes, stats


def run(state: TicTacToeState, nodes: np.ndarray, stats: np.ndarray, root: int, sims: int, c: float,
        expand_at: int, rng: np.ndarray, stop: np.ndarray | None = None) -> int:
    """Run ``sims`` UCT simulations of ``state`` from tree row ``root``; return how many ran."""
    g = state.game
    if state.is_terminal():
        raise ValueError(f"cannot search the finished position {state.to_text()!r}")
    return run_board(state.board, g.width, g.height, g.k, state.to_move_stone, nodes, stats, root, sims, c,
                     expand_at, rng, stop)


def _check_board(board: np.ndarray, width: int, height: int, k: int, stone: int) -> None:
    if board.dtype != np.int8 or board.shape != (width * height,):
        raise ValueError(f"board must be a flat int8 array of {width}x{height} cells")
    if not (1 <= k <= max(width, height)) or stone not in (1, 2):
        raise ValueError(f"bad k={k} or stone={stone}")
    if not np.isin(board, (0, 1, 2)).all():
        raise ValueError("board cells must be 0, 1 or 2")


def run_board(board: np.ndarray, width: int, height: int, k: int, stone: int, nodes: np.ndarray,
              stats: np.ndarray, root: int, sims: int, c: float, expand_at: int, rng: np.ndarray,
              stop: np.ndarray | None = None) -> int:
    """``run`` on a bare board (any size: the benchmark uses 15x15, k=5) with ``stone`` to move."""
    _check_board(board, width, height, k, stone)
    if nodes.dtype != np.int32 or nodes.ndim != 2 or nodes.shape[1] != COLUMNS:
        raise ValueError("nodes must be an int32 array with 5 columns")
    if not 0 <= root < stats[USED] or sims < 0 or c < 0 or expand_at < 0:
        raise ValueError(f"bad arguments: root={root}, sims={sims}, c={c}, expand_at={expand_at}")
    if rng.dtype != np.uint64 or rng.shape != (1,):
        raise ValueError("rng must be a one-element uint64 array")
    stop = np.zeros(1, dtype=np.uint8) if stop is None else stop
    return int(_run(board, np.int64(width), np.int64(height), np.int64(k), np.int64(stone), nodes,
                    np.int64(root), stats, np.int64(sims), float(c), np.int64(expand_at), rng, stop))


def playouts(state: TicTacToeState, count: int, rng: np.ndarray, stop: np.ndarray | None = None) -> np.ndarray:
    """Counts of random-playout results from ``state``: ``[draws, X wins, O wins]``."""
    g = state.game
    if state.is_terminal():
        results = np.zeros(3, dtype=np.int64)
        results[state.winner] = count
        return results
    return playouts_board(state.board, g.width, g.height, g.k, state.to_move_stone, count, rng, stop)


def playouts_board(board: np.ndarray, width: int, height: int, k: int, stone: int, count: int, rng: np.ndarray,
                   stop: np.ndarray | None = None) -> np.ndarray:
    """``playouts`` on a bare board with ``stone`` to move."""
    _check_board(board, width, height, k, stone)
    if count < 0:
        raise ValueError(f"count must be non-negative, got {count}")
    results = np.zeros(3, dtype=np.int64)
    stop = np.zeros(1, dtype=np.uint8) if stop is None else stop
    _playouts(board, np.int64(width), np.int64(height), np.int64(k), np.int64(stone), np.int64(count), rng, stop,
              results)
    return results


# -- the plain-Python reference ----------------------------------------------------------


def reference_playout(board: list[int], width: int, height: int, k: int, stone: int, rnd: ReferenceRandom) -> int:
    """``_playout`` in plain Python (``board`` is changed)."""
    empties = [i for i, v in enumerate(board) if v == 0]
    while empties:
        r = rnd.below(len(empties))
        m = empties[r]
        empties[r] = empties[-1]
        empties.pop()
        board[m] = stone
        if is_win_at(board, width, height, k, m):
            return stone
        stone = 3 - stone
    return 0


def reference_run(board: Sequence[int], width: int, height: int, k: int, root_stone: int, sims: int, c: float,
                  expand_at: int, seed: int, capacity: int = 1 << 20) -> list[list[int]]:
    """``_run`` from a fresh tree in plain Python: the rows ``[N, W, FIRST, COUNT, MOVE]`` it builds."""
    rnd = ReferenceRandom(int(new_random(seed)[0]))
    rows: list[list[int]] = [[0, 0, -1, 0, -1]]
    cells = len(board)

    def select(node: int) -> int:
        first, count = rows[node][FIRST], rows[node][COUNT]
        kids = range(first, first + count)
        unvisited = [ch for ch in kids if rows[ch][N] == 0]
        if unvisited:
            return unvisited[rnd.below(len(unvisited))]
        log_n = math.log(rows[node][N])
        best, best_score = -1, -1e300
        for ch in kids:
            n = rows[ch][N]
            score = rows[ch][W] / n - 1.0 + c * math.sqrt(log_n / n)
            if score > best_score:
                best, best_score = ch, score
        return best

    for _ in range(sims):
        work = list(board)
        node, stone, path, winner = 0, root_stone, [0], -1
        while True:
            if rows[node][COUNT] == 0:
                empty = work.count(0)
                if (node != 0 and rows[node][N] < expand_at) or len(rows) + empty > capacity:
                    break
                rows[node][FIRST] = len(rows)
                rows[node][COUNT] = empty
                rows.extend([0, 0, -1, 0, i] for i in range(cells) if work[i] == 0)
            node = select(node)
            m = rows[node][MOVE]
            work[m] = stone
            path.append(node)
            if is_win_at(work, width, height, k, m):
                winner = stone
                break
            if 0 not in work:
                winner = 0
                break
            stone = 3 - stone
        if winner < 0:
            winner = reference_playout(work, width, height, k, stone, rnd)
        for d, row in enumerate(path):
            mover = root_stone if d % 2 == 1 else 3 - root_stone
            rows[row][N] += 1
            rows[row][W] += 1 if winner == 0 else (2 if winner == mover else 0)
    return rows


# -- the engine ------------------------------------------------------------------


class TicTacToeMCTS:
    """UCT with random playouts in numba for m,n,k games; the tree is kept between moves.

    Options: ``c`` (exploration, on the [-1, 1] value scale), ``expand`` (visits
    before a leaf grows children; 0: 1 on boards up to 49 cells, else 4),
    ``memory`` (MB of tree), ``temperature``, ``reuse``, ``seed``, ``info_ms``.
    """

    name = "mcts"

    def __init__(self, game: TicTacToe, c: float = 1.4, expand: int = 0, memory: float = 64,
                 temperature: float = 0.0, reuse: bool = True, seed: int | None = None, info_ms: int = 500) -> None:
        for label, v, lo in (("c", c, 0), ("memory", memory, 0.001), ("temperature", temperature, 0)):
            if not isinstance(v, (int, float)) or v < lo:
                raise InvalidOptionError(f"{label} must be a number >= {lo}, got {v!r}")
        if not isinstance(expand, int) or expand < 0:
            raise InvalidOptionError(f"expand must be a non-negative integer, got {expand!r}")
        if not isinstance(info_ms, int) or info_ms < 1:
            raise InvalidOptionError(f"info_ms must be a positive integer, got {info_ms!r}")
        self.game = game
        self.c = float(c)
        self.expand_at = expand or (1 if game.cells <= 49 else 4)
        self.capacity = max(game.cells + 2, int(memory * 1024 * 1024) // (4 * COLUMNS))
        self.temperature = float(temperature)
        self.reuse = bool(reuse)
        self.info_ms = info_ms
        self.rng = new_random(int(np.random.SeedSequence(seed).generate_state(1, np.uint64)[0]) if seed is None
                              else int(seed))
        self._pick = np.random.default_rng(seed)
        self.nodes: np.ndarray | None = None
        self.stats = np.zeros(STATS, dtype=np.int64)
        self.root = 0
        self.root_state: TicTacToeState | None = None

    def new_game(self) -> None:
        self.nodes = None
        self.root_state = None

    # -- the root --------------------------------------------------------------
    def child_row(self, node: int, move: int) -> int:
        """The row of ``move``'s child of ``node`` (-1 when not expanded)."""
        assert self.nodes is not None
        first, count = self.nodes[node, FIRST], self.nodes[node, COUNT]
        for row in range(first, first + count):
            if self.nodes[row, MOVE] == move:
                return row
        return -1

    def set_root(self, state: TicTacToeState) -> bool:
        """Make ``state`` the root, keeping the subtree when it follows from the last root."""
        if self.reuse and self.nodes is not None and self.root_state is not None:
            old, new = self.root_state.history, state.history
            if len(new) >= len(old) and new[: len(old)] == old:
                probe = self.root_state.copy()
                node = self.root
                for m in new[len(old):]:
                    node = self.child_row(node, m)
                    if node < 0:
                        break
                    probe.play(m)
                if node >= 0 and probe.key == state.key and self.stats[USED] < 0.9 * self.capacity:
                    self.root = node
                    self.root_state = state.copy()
                    return True
        if self.nodes is None:
            self.nodes, self.stats = new_tree(self.capacity)
        else:
            self.nodes[0] = (0, 0, -1, 0, -1)
            self.stats[:] = 0
            self.stats[USED] = 1
        self.root = 0
        self.root_state = state.copy()
        return False

    # -- reading the tree --------------------------------------------------------
    def _children(self, node: int) -> range:
        assert self.nodes is not None
        first = int(self.nodes[node, FIRST])
        return range(first, first + int(self.nodes[node, COUNT])) if first >= 0 else range(0)

    def _best_child(self, node: int) -> int:
        assert self.nodes is not None
        best, key = -1, None
        for row in self._children(node):
            n, w = int(self.nodes[row, N]), int(self.nodes[row, W])
            kk = (n, w / n if n else -1.0, -int(self.nodes[row, MOVE]))
            if key is None or kk > key:
                best, key = row, kk
        return best

    def principal_variation(self, node: int) -> list[int]:
        assert self.nodes is not None
        pv = []
        while node >= 0 and self.nodes[node, COUNT] > 0 and len(pv) < self.game.cells:
            node = self._best_child(node)
            if self.nodes[node, N] == 0:
                break
            pv.append(int(self.nodes[node, MOVE]))
        return pv

    def _pv_reaches(self, state: TicTacToeState, depth: int) -> bool:
        """Whether the principal variation is ``depth`` plies long or ends the game."""
        pv = self.principal_variation(self.root)
        if len(pv) >= depth:
            return True
        s = state.copy()
        for m in pv:
            s.play(m)
        return s.is_terminal()

    def root_stats(self) -> list[tuple[int, int, float]]:
        """``(move, visits, mean result in [-1, 1] for the side to move)``, most visited first."""
        assert self.nodes is not None
        out = []
        for row in self._children(self.root):
            n, w = int(self.nodes[row, N]), int(self.nodes[row, W])
            out.append((int(self.nodes[row, MOVE]), n, w / n - 1.0 if n else 0.0))
        return sorted(out, key=lambda t: (-t[1], t[0]))

    def _choose(self) -> int:
        stats = self.root_stats()
        if self.temperature <= 1e-6:
            return stats[0][0]
        visits = np.array([n for _, n, _ in stats], dtype=np.float64)
        logits = np.log(np.maximum(visits, 1e-12)) / self.temperature
        p = np.exp(logits - logits.max())
        p[visits == 0] = 0
        return stats[int(self._pick.choice(len(stats), p=p / p.sum()))][0]

    def _infos(self, sid: int, pov: int, multipv: int, t0: float, done: int) -> list[SearchInfo]:
        assert self.nodes is not None
        elapsed = time.perf_counter() - t0
        rows = sorted(self._children(self.root), key=lambda r: (-int(self.nodes[r, N]), int(self.nodes[r, MOVE])))
        out = []
        for rank, row in enumerate(rows[: max(1, multipv)]):
            n = int(self.nodes[row, N])
            if n == 0 and rank > 0:
                break
            pv = [int(self.nodes[row, MOVE])] + self.principal_variation(row)
            rate = int(self.nodes[row, W]) / (2 * n) if n else 0.5
            out.append(SearchInfo(
                search_id=sid, depth=len(pv), seldepth=max(int(self.stats[MAXDEPTH]), len(pv)),
                score=Score.winrate(rate, pov), pv=tuple(pv), nodes=int(self.nodes[self.root, N]),
                nps=int(done / elapsed) if elapsed > 0 else 0, time_ms=int(elapsed * 1000), multipv=rank + 1,
                hashfull=int(1000 * self.stats[USED] / self.capacity), text=f"visits {n}"))
        return out

    # -- the search ----------------------------------------------------------------
    def search(self, state: TicTacToeState, limits: Limits, stop: np.ndarray | None = None,
               on_info: InfoCallback | None = None) -> SearchResult:
        """Search ``state`` until a limit or ``stop`` (``limits.nodes`` counts simulations of this
        search; ``limits.depth`` ends it once the principal variation is that long or ends the game)."""
        sid = next_search_id()
        pov = state.current_player
        if state.is_terminal():
            r = state.returns()
            return SearchResult(None, Score.draw(0) if r[0] == 0 else Score.winrate((r[0] + 1) / 2, 0))
        self.set_root(state)
        assert self.nodes is not None
        budget = allocate(limits, pov)
        t0 = time.perf_counter()
        last_info = t0
        done = 0
        chunk = 256
        self.stats[MAXDEPTH] = 0
        with StopWatch(stop, None if limits.infinite else budget.hard_ms) as watch:
            while not watch.flag[0]:
                want = chunk if limits.nodes is None else min(chunk, limits.nodes - done)
                if want <= 0:
                    break
                t1 = time.perf_counter()
                done += run(state, self.nodes, self.stats, self.root, want, self.c, self.expand_at, self.rng,
                            watch.flag)
                now = time.perf_counter()
                # aim at chunks of about 20 ms, so that soft limits and reports stay timely
                chunk = int(min(max(chunk * 0.02 / max(now - t1, 1e-6), 16), 1 << 20))
                if budget.soft_ms is not None and not limits.infinite and (now - t0) * 1000 >= budget.soft_ms:
                    break
                if limits.depth is not None and self._pv_reaches(state, limits.depth):
                    break
                if on_info is not None and (now - last_info) * 1000 >= self.info_ms:
                    last_info = now
                    for info in self._infos(sid, pov, limits.multipv, t0, done):
                        on_info(info)
        if self.nodes[self.root, COUNT] == 0:  # stopped before the first simulation
            run(state, self.nodes, self.stats, self.root, 1, self.c, self.expand_at, self.rng)
            done += 1
        lines = self._infos(sid, pov, limits.multipv, t0, done)
        if on_info is not None:
            for info in lines:
                on_info(info)
        move = self._choose()
        row = self.child_row(self.root, move)
        n = int(self.nodes[row, N])
        pv = tuple([move] + self.principal_variation(row))
        return SearchResult(
            best_move=move, score=Score.winrate(int(self.nodes[row, W]) / (2 * n) if n else 0.5, pov), pv=pv,
            depth=len(pv), nodes=int(self.nodes[self.root, N]), time_ms=int((time.perf_counter() - t0) * 1000),
            ponder=pv[1] if len(pv) > 1 else None, lines=tuple(lines))


def warm_up() -> None:
    """Compile the kernels (from the cache when it is warm)."""
    game = TicTacToe()
    TicTacToeMCTS(game, memory=0.1, seed=1).search(game.new_state(), Limits(nodes=20))
    playouts(game.new_state(), 2, new_random(1))


register_engine("tictactoe", "mcts", TicTacToeMCTS, help="UCT with random playouts in numba (array tree)",
                options={"c": 1.4, "expand": 0, "memory": 64, "temperature": 0.0, "reuse": True, "seed": None,
                         "info_ms": 500})


def _encoder(game: TicTacToe) -> Callable[[TicTacToeState], np.ndarray]:
    def encode(state: TicTacToeState) -> np.ndarray:
        return stone_planes(state.board, game.height, game.width, state.to_move_stone)

    return encode


register_encoder("tictactoe", _encoder)  # type: ignore[arg-type]


def heuristic_weights(board: np.ndarray, windows: np.ndarray, me: int) -> np.ndarray:
    """Move weights for PUCT priors: every line still open for a side adds ``4 ** stones`` (twice that
    for the side to move) to its empty cells, so wins and blocks stand out."""
    b = board[windows]
    mine = (b == me).sum(axis=1)
    theirs = ((b != me) & (b != 0)).sum(axis=1)
    score = np.where(theirs == 0, 2.0 * 4.0 ** mine, 0.0) + np.where(mine == 0, 4.0 ** theirs, 0.0)
    weights = np.zeros(board.shape[0])
    np.add.at(weights, windows.ravel(), np.repeat(score, windows.shape[1]))
    return weights


def _heuristic(game: TicTacToe) -> Callable[[TicTacToeState], tuple[np.ndarray, None]]:
    def weigh(state: TicTacToeState) -> tuple[np.ndarray, None]:
        w = heuristic_weights(state.board, game.windows, state.to_move_stone)
        return w[state.legal_moves()], None  # the value: a random playout

    return weigh


register_heuristic("tictactoe", _heuristic)  # type: ignore[arg-type]
