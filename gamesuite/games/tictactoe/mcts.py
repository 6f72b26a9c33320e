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
from collections.abc import Callable, Sequence

import numpy as np
from numba import njit

from ...core.errors import InvalidOptionError
from ...core.limits import Limits
from ...core.options import Option
from ...core.registry import register_engine
from ...search.mcts import register_heuristic
from ...search.mcts_kernels import (  # noqa: F401  (re-exported: the tree's layout and generator)
    ARRAY_MCTS_OPTIONS,
    COLUMNS,
    COUNT,
    FIRST,
    MAXDEPTH,
    MOVE,
    SIMS,
    STATS,
    USED,
    ArrayMCTS,
    N,
    ReferenceRandom,
    W,
    _below,
    _next_random,
    _select,
    new_random,
    new_tree,
)
from ...search.network import register_board_encoder, register_encoder, stone_planes
from .kernels import _is_win
from .rules import TicTacToe, TicTacToeState, is_win_at

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


class TicTacToeMCTS(ArrayMCTS):
    """UCT with random playouts in numba for m,n,k games; the tree is kept between moves.

    Options: ``c`` (exploration, on the [-1, 1] value scale), ``expand`` (visits
    before a leaf grows children; 0: 1 on boards up to 49 cells, else 4),
    ``memory`` (MB of tree), ``temperature``, ``reuse``, ``seed``, ``info_ms``.
    """

    def __init__(self, game: TicTacToe, c: float = 1.4, expand: int = 0, memory: float = 64,
                 temperature: float = 0.0, reuse: bool = True, seed: int | None = None, info_ms: int = 500) -> None:
        if isinstance(expand, bool) or not isinstance(expand, int) or expand < 0:
            raise InvalidOptionError(f"expand must be a non-negative integer, got {expand!r}")
        super().__init__(game, c, expand or (1 if game.cells <= 49 else 4), memory, temperature, reuse, seed,
                         info_ms)

    def _simulate(self, state: TicTacToeState, sims: int,  # type: ignore[override]
                  stop: np.ndarray | None = None) -> int:
        assert self.nodes is not None
        return run(state, self.nodes, self.stats, self.root, sims, self.c, self.expand_at, self.rng, stop)


def warm_up() -> None:
    """Compile the kernels (from the cache when it is warm)."""
    game = TicTacToe()
    TicTacToeMCTS(game, memory=0.1, seed=1).search(game.new_state(), Limits(nodes=20))
    playouts(game.new_state(), 2, new_random(1))


register_engine("tictactoe", "mcts", TicTacToeMCTS, help="UCT with random playouts in numba (array tree)",
                options={**ARRAY_MCTS_OPTIONS, "expand": Option(0, 0, 10**6, help="visits before a leaf grows "
                                                                                    "(0: by board size)")})


def _encoder(game: TicTacToe) -> Callable[[TicTacToeState], np.ndarray]:
    def encode(state: TicTacToeState) -> np.ndarray:
        return stone_planes(state.board, game.height, game.width, state.to_move_stone)

    return encode


def _board_encoder(game: TicTacToe) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
    def encode(boards: np.ndarray, stones: np.ndarray) -> np.ndarray:
        b = np.asarray(boards).reshape(len(boards), game.height, game.width)
        me = np.asarray(stones).reshape(-1, 1, 1)
        return np.stack([b == me, (b != me) & (b != 0), np.ones_like(b, dtype=bool)], axis=1).astype(np.float32)

    return encode


register_encoder("tictactoe", _encoder)  # type: ignore[arg-type]
register_board_encoder("tictactoe", _board_encoder)  # type: ignore[arg-type]


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
