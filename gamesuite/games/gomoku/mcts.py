"""UCT for gomoku in numba: the array tree of ``gamesuite.search.mcts_kernels``, random playouts
under the game's rule (freestyle, standard, renju), candidate moves near the stones.

- **Win test.** A move wins when a line through it is exactly five long, or
  longer than five under freestyle (and for white under renju): the rule of
  ``renju.wins_ref``.
- **Tree moves.** A node's children are the empty cells within ``radius``
  (Chebyshev distance, default 2) of a stone, all empty cells with
  ``radius=0``; the empty board's only child is the centre. Under renju a node
  where black moves leaves out black's forbidden points (the rules' own
  kernel), so the tree only plays legal moves; when no cell near the stones is
  legal, every legal cell is a child; when none is, the node is a draw.
- **Playouts** are uniformly random over *all* empty cells. Under renju a
  random black move that is forbidden is put aside and another is drawn (so
  playouts are legal games too; a black player with nothing legal draws);
  this costs a forbidden-point test per black playout move (the full test only
  where enough black stones are near), which is why renju simulations are
  slower (``gamesuite bench mcts`` shows every rule).
- **Tactics** (option ``tactics``, off by default): a tree node whose side can
  make five has that move as its only child, else the blocks of the
  opponent's fives as its only children; playouts make a five next to the
  mover's last move, else block one next to the opponent's, before moving at
  random. About ten times slower per simulation.

:func:`reference_run` is the same search in plain Python (the same random
numbers, the same tree); the tests compare the two.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np
from numba import njit

from ...core.errors import InvalidOptionError
from ...core.options import Option, memory_option
from ...core.registry import register_engine
from ...search.mcts import register_heuristic
from ...search.mcts_kernels import (
    ARRAY_MCTS_OPTIONS,
    COLUMNS,
    COUNT,
    FIRST,
    MAXDEPTH,
    MOVE,
    SIMS,
    USED,
    ArrayMCTS,
    N,
    ReferenceRandom,
    W,
    _below,
    _select,
    new_random,
)
from .engine import Position
from .kernels import CI_VB, CI_VW
from .renju import _DC, _DR, DIRS, _is_forbidden, _run_length, is_forbidden_ref, run_cells_ref, run_length_ref, wins_ref
from .rules import RENJU, Gomoku, GomokuState

__all__ = ["GomokuMCTS", "playouts", "playouts_board", "reference_playout", "reference_run", "run", "run_board"]


# -- kernels --------------------------------------------------------------------


@njit(cache=True, nogil=True)
def _wins(work, size, rule, m) -> bool:
    """Whether the stone just placed on ``m`` wins under ``rule`` (0 freestyle, 1 standard, 2 renju)."""
    exact = rule == 1 or (rule == 2 and work[m] == 1)
    for d in range(4):
        n = _run_length(work, size, m, d)
        if n == 5 or (n > 5 and not exact):
            return True
    return False


@njit(cache=True, nogil=True)
def _forbidden(work, size, m) -> bool:
    """Renju: whether black may not play on the empty cell ``m``, with a cheap look first.

    A forbidden point needs a line through it with three other black stones
    within five cells (an overline, a four) or two lines with two (two threes);
    only then does the rules' full test run.
    """
    r0 = m // size
    c0 = m % size
    pairs = 0
    for d in range(4):
        dr = _DR[d]
        dc = _DC[d]
        n = 0
        for k in range(-5, 6):
            if k == 0:
                continue
            r = r0 + k * dr
            c = c0 + k * dc
            if 0 <= r < size and 0 <= c < size and work[r * size + c] == 1:
                n += 1
        if n >= 3:
            return _is_forbidden(work, size, np.int64(m), np.int64(0))
        if n >= 2:
            pairs += 1
    if pairs >= 2:
        return _is_forbidden(work, size, np.int64(m), np.int64(0))
    return False


@njit(cache=True, nogil=True)
def _five_at(work, size, rule, q, colour, d) -> bool:
    """Whether ``colour`` on the empty cell ``q`` makes a winning line along ``d``."""
    work[q] = colour
    n = _run_length(work, size, q, d)
    work[q] = 0
    exact = rule == 1 or (rule == 2 and colour == 1)
    return n == 5 or (n > 5 and not exact)


@njit(cache=True, nogil=True)
def _urgent(work, size, rule, stone, mine, opp) -> int:
    """A cell on a line through ``stone``'s last move ``mine`` where it makes five, else one on a line
    through the opponent's last move ``opp`` where the opponent would (a block ``stone`` may play); -1."""
    for who in range(2):
        colour = stone if who == 0 else 3 - stone
        src = mine if who == 0 else opp
        if src < 0:
            continue
        r0 = src // size
        c0 = src % size
        for d in range(4):
            dr = _DR[d]
            dc = _DC[d]
            for k in range(-4, 5):
                r = r0 + k * dr
                c = c0 + k * dc
                if k == 0 or not (0 <= r < size and 0 <= c < size):
                    continue
                q = r * size + c
                if work[q] != 0 or not _five_at(work, size, rule, q, colour, d):
                    continue
                if who == 1 and rule == 2 and stone == 1 and _forbidden(work, size, q):
                    continue
                return q
    return -1


@njit(cache=True, nogil=True)
def _playout(work, size, rule, stone, empties, rng, tactics, mine, opp) -> int:
    """Play moves on ``work`` (changed) from ``stone`` to move; the winning stone or 0.

    Moves are uniformly random; with ``tactics`` a five next to the mover's last
    move (``mine``) is made and a five next to the opponent's (``opp``) blocked first.
    """
    cnt = 0
    for i in range(work.shape[0]):
        if work[i] == 0:
            empties[cnt] = i
            cnt += 1
    while cnt > 0:
        avail = cnt
        m = -1
        r = 0
        if tactics != 0:
            q = _urgent(work, size, rule, stone, mine, opp)
            if q >= 0:
                while empties[r] != q:
                    r += 1
                m = q
        while m < 0 and avail > 0:
            r = _below(rng, avail)
            m = empties[r]
            if rule == 2 and stone == 1 and _forbidden(work, size, m):
                empties[r] = empties[avail - 1]  # set it aside behind the cells still available
                empties[avail - 1] = m
                avail -= 1
                m = -1
            else:
                break
        if m < 0:
            return 0  # black has no legal move: a draw
        empties[r] = empties[avail - 1]
        empties[avail - 1] = empties[cnt - 1]
        cnt -= 1
        work[m] = stone
        if _wins(work, size, rule, m):
            return stone
        stone = 3 - stone
        mine = opp
        opp = m
    return 0


@njit(cache=True, nogil=True)
def _playouts(board, size, rule, stone, count, rng, stop, results, tactics, mine, opp) -> int:
    """``count`` random playouts from ``board``; ``results[w]`` counts wins of stone ``w`` (0: draw)."""
    work = np.empty_like(board)
    empties = np.empty(board.shape[0], dtype=np.int32)
    done = 0
    for s in range(count):
        if (s & 63) == 0 and stop[0] != 0:
            break
        work[:] = board
        results[_playout(work, size, rule, stone, empties, rng, tactics, mine, opp)] += 1
        done += 1
    return done


@njit(cache=True, nogil=True)
def _candidates(work, size, rule, stone, radius, out, tactics) -> int:
    """The tree moves of ``work`` with ``stone`` to move into ``out`` (ascending); how many.

    With ``tactics``, only the first move that makes five when there is one, else
    only the moves that block a five of the opponent when there are any.
    """
    cells = size * size
    stones = 0
    for i in range(cells):
        if work[i] != 0:
            stones += 1
    if stones == 0:
        out[0] = (size // 2) * size + size // 2
        return 1
    check = rule == 2 and stone == 1
    n = 0
    if radius > 0:
        for i in range(cells):
            if work[i] != 0:
                continue
            r0 = i // size
            c0 = i % size
            near = False
            for r in range(max(0, r0 - radius), min(size, r0 + radius + 1)):
                for c in range(max(0, c0 - radius), min(size, c0 + radius + 1)):
                    if work[r * size + c] != 0:
                        near = True
                        break
                if near:
                    break
            if near and not (check and _forbidden(work, size, i)):
                out[n] = i
                n += 1
    if n == 0:
        for i in range(cells):
            if work[i] == 0 and not (check and _forbidden(work, size, i)):
                out[n] = i
                n += 1
    if tactics != 0:
        for j in range(n):
            if _wins_at(work, size, rule, out[j], stone):
                out[0] = out[j]
                return 1
        blocks = 0
        for j in range(n):
            if _wins_at(work, size, rule, out[j], 3 - stone):
                out[blocks] = out[j]
                blocks += 1
        if blocks > 0:
            return blocks
    return n


@njit(cache=True, nogil=True)
def _wins_at(work, size, rule, q, colour) -> bool:
    """Whether ``colour`` on the empty cell ``q`` wins."""
    work[q] = colour
    w = _wins(work, size, rule, q)
    work[q] = 0
    return w


@njit(cache=True, nogil=True)
def _run(board, size, rule, root_stone, radius, nodes, root, stats, sims, c, expand_at, rng, stop, tactics,
         last, prev) -> int:
    """Run up to ``sims`` UCT simulations from ``root`` (position ``board``, ``root_stone`` to move; ``last``
    and ``prev`` the last two moves that led there, -1 when unknown, for the playouts' ``tactics``).

    Polls ``stop`` every 16 simulations; returns how many were done.
    """
    cells = board.shape[0]
    work = np.empty_like(board)
    empties = np.empty(cells, dtype=np.int32)
    cand = np.empty(cells, dtype=np.int32)
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
                if node != root and nodes[node, N] < expand_at:
                    break
                n = _candidates(work, size, rule, stone, radius, cand, tactics)
                if n == 0:
                    winner = 0  # nothing legal: a draw
                    break
                if stats[USED] + n > capacity:
                    break
                first = stats[USED]
                for j in range(n):
                    row = first + j
                    nodes[row, N] = 0
                    nodes[row, W] = 0
                    nodes[row, FIRST] = -1
                    nodes[row, COUNT] = 0
                    nodes[row, MOVE] = cand[j]
                nodes[node, FIRST] = first
                nodes[node, COUNT] = n
                stats[USED] = first + n
            child = _select(nodes, node, c, rng)
            m = nodes[child, MOVE]
            work[m] = stone
            empty -= 1
            depth += 1
            path[depth] = child
            node = child
            if _wins(work, size, rule, m):
                winner = stone
                break
            if empty == 0:
                winner = 0
                break
            stone = 3 - stone
        if winner < 0:
            opp = nodes[path[depth], MOVE] if depth >= 1 else last
            mine = nodes[path[depth - 1], MOVE] if depth >= 2 else (last if depth == 1 else prev)
            winner = _playout(work, size, rule, stone, empties, rng, tactics, np.int64(mine), np.int64(opp))
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


def _check_board(board: np.ndarray, size: int, rule: int, stone: int) -> None:
    if not isinstance(size, (int, np.integer)) or not 5 <= size <= 26:
        raise ValueError(f"size must be 5 .. 26, got {size!r}")
    if board.dtype != np.int8 or board.shape != (size * size,):
        raise ValueError(f"board must be a flat int8 array of {size}x{size} cells")
    if rule not in (0, 1, 2) or stone not in (1, 2):
        raise ValueError(f"bad rule={rule} or stone={stone}")
    if not np.isin(board, (0, 1, 2)).all():
        raise ValueError("board cells must be 0, 1 or 2")


def run(state: GomokuState, nodes: np.ndarray, stats: np.ndarray, root: int, sims: int, c: float, expand_at: int,
        radius: int, rng: np.ndarray, stop: np.ndarray | None = None, tactics: bool = False) -> int:
    """Run ``sims`` UCT simulations of ``state`` from tree row ``root``; return how many ran."""
    if state.is_terminal():
        raise ValueError(f"cannot search the finished position {state.to_text()!r}")
    g = state.game
    h = state.history
    return run_board(state.board, g.size, g.rule_id, state.to_move_stone, nodes, stats, root, sims, c, expand_at,
                     radius, rng, stop, tactics, h[-1] if h else -1, h[-2] if len(h) > 1 else -1)


def run_board(board: np.ndarray, size: int, rule: int, stone: int, nodes: np.ndarray, stats: np.ndarray, root: int,
              sims: int, c: float, expand_at: int, radius: int, rng: np.ndarray, stop: np.ndarray | None = None,
              tactics: bool = False, last: int = -1, prev: int = -1) -> int:
    """``run`` on a bare board (``rule``: 0 freestyle, 1 standard, 2 renju) with ``stone`` to move; ``last``
    and ``prev`` are the cells of the last two moves (-1: unknown), used by ``tactics``."""
    _check_board(board, size, rule, stone)
    if nodes.dtype != np.int32 or nodes.ndim != 2 or nodes.shape[1] != COLUMNS:
        raise ValueError("nodes must be an int32 array with 5 columns")
    if not 0 <= root < stats[USED] or sims < 0 or c < 0 or expand_at < 0 or radius < 0:
        raise ValueError(f"bad arguments: root={root}, sims={sims}, c={c}, expand_at={expand_at}, radius={radius}")
    if rng.dtype != np.uint64 or rng.shape != (1,):
        raise ValueError("rng must be a one-element uint64 array")
    _check_last(board, last, prev)
    stop = np.zeros(1, dtype=np.uint8) if stop is None else stop
    return int(_run(board, np.int64(size), np.int64(rule), np.int64(stone), np.int64(radius), nodes,
                    np.int64(root), stats, np.int64(sims), float(c), np.int64(expand_at), rng, stop,
                    np.int64(1 if tactics else 0), np.int64(last), np.int64(prev)))


def playouts(state: GomokuState, count: int, rng: np.ndarray, stop: np.ndarray | None = None,
             tactics: bool = False) -> np.ndarray:
    """Counts of random-playout results from ``state``: ``[draws, black wins, white wins]``."""
    if state.is_terminal():
        results = np.zeros(3, dtype=np.int64)
        results[state.winner] = count
        return results
    g = state.game
    h = state.history
    return playouts_board(state.board, g.size, g.rule_id, state.to_move_stone, count, rng, stop, tactics,
                          h[-1] if h else -1, h[-2] if len(h) > 1 else -1)


def _check_last(board: np.ndarray, last: int, prev: int) -> None:
    for label, cell, want in (("last", last, "a stone"), ("prev", prev, "a stone")):
        if cell != -1 and not (0 <= cell < board.shape[0] and board[cell] != 0):
            raise ValueError(f"{label}={cell} must be -1 or the cell of {want}")


def playouts_board(board: np.ndarray, size: int, rule: int, stone: int, count: int, rng: np.ndarray,
                   stop: np.ndarray | None = None, tactics: bool = False, last: int = -1,
                   prev: int = -1) -> np.ndarray:
    """``playouts`` on a bare board with ``stone`` to move (``last``, ``prev``: as for ``run_board``)."""
    _check_board(board, size, rule, stone)
    if count < 0:
        raise ValueError(f"count must be non-negative, got {count}")
    if rng.dtype != np.uint64 or rng.shape != (1,):
        raise ValueError("rng must be a one-element uint64 array")
    _check_last(board, last, prev)
    results = np.zeros(3, dtype=np.int64)
    stop = np.zeros(1, dtype=np.uint8) if stop is None else stop
    _playouts(board, np.int64(size), np.int64(rule), np.int64(stone), np.int64(count), rng, stop, results,
              np.int64(1 if tactics else 0), np.int64(last), np.int64(prev))
    return results


# -- the plain-Python reference ----------------------------------------------------------


def reference_wins(board: Sequence[int], size: int, rule: int, m: int) -> bool:
    """``_wins`` in plain Python, from the rules' definitions."""
    return any(wins_ref(run_length_ref(board, size, m, d), board[m], rule) for d in range(4))


def reference_urgent(board: list[int], size: int, rule: int, stone: int, mine: int, opp: int) -> int:
    """``_urgent`` in plain Python, from the rules' definitions."""
    for colour, src in ((stone, mine), (3 - stone, opp)):
        if src < 0:
            continue
        r0, c0 = divmod(src, size)
        for dr, dc in DIRS:
            for k in range(-4, 5):
                r, c = r0 + k * dr, c0 + k * dc
                if k == 0 or not (0 <= r < size and 0 <= c < size) or board[r * size + c] != 0:
                    continue
                q = r * size + c
                board[q] = colour
                five = wins_ref(len(run_cells_ref(board, size, q, DIRS.index((dr, dc)))), colour, rule)
                board[q] = 0
                if not five:
                    continue
                if colour != stone and rule == RENJU and stone == 1 and is_forbidden_ref(board, size, q):
                    continue
                return q
    return -1


def reference_playout(board: list[int], size: int, rule: int, stone: int, rnd: ReferenceRandom,
                      moves: list[int] | None = None, tactics: bool = False, mine: int = -1, opp: int = -1) -> int:
    """``_playout`` in plain Python, step by step on the same cell list (``board`` is changed; the moves
    played are appended to ``moves`` when given)."""
    empties = [i for i, v in enumerate(board) if v == 0]
    cnt = len(empties)
    while cnt > 0:
        avail, m, r = cnt, -1, 0
        if tactics:
            q = reference_urgent(board, size, rule, stone, mine, opp)
            if q >= 0:
                r, m = empties.index(q), q
        while m < 0 and avail > 0:
            r = rnd.below(avail)
            m = empties[r]
            if rule == RENJU and stone == 1 and is_forbidden_ref(board, size, m):
                empties[r], empties[avail - 1] = empties[avail - 1], m
                avail -= 1
                m = -1
            else:
                break
        if m < 0:
            return 0
        empties[r] = empties[avail - 1]
        empties[avail - 1] = empties[cnt - 1]
        cnt -= 1
        board[m] = stone
        if moves is not None:
            moves.append(m)
        if reference_wins(board, size, rule, m):
            return stone
        stone = 3 - stone
        mine, opp = opp, m
    return 0


def reference_candidates(board: Sequence[int], size: int, rule: int, stone: int, radius: int,
                         tactics: bool = False) -> list[int]:
    """``_candidates`` in plain Python."""
    if not any(board):
        return [(size // 2) * size + size // 2]
    b = [int(v) for v in board]

    def ok(i: int) -> bool:
        return not (rule == RENJU and stone == 1 and is_forbidden_ref(b, size, i))

    def near(i: int) -> bool:
        r0, c0 = divmod(i, size)
        return any(b[r * size + c] for r in range(max(0, r0 - radius), min(size, r0 + radius + 1))
                   for c in range(max(0, c0 - radius), min(size, c0 + radius + 1)))

    out = [i for i in range(size * size) if b[i] == 0 and near(i) and ok(i)] if radius > 0 else []
    out = out or [i for i in range(size * size) if b[i] == 0 and ok(i)]
    if tactics:

        def wins(q: int, colour: int) -> bool:
            b[q] = colour
            w = reference_wins(b, size, rule, q)
            b[q] = 0
            return w

        five = [q for q in out if wins(q, stone)]
        if five:
            return five[:1]
        return [q for q in out if wins(q, 3 - stone)] or out
    return out


def reference_run(board: Sequence[int], size: int, rule: int, root_stone: int, sims: int, c: float, expand_at: int,
                  radius: int, seed: int, capacity: int = 1 << 20, tactics: bool = False, last: int = -1,
                  prev: int = -1) -> list[list[int]]:
    """``_run`` from a fresh tree in plain Python: the rows ``[N, W, FIRST, COUNT, MOVE]`` it builds."""
    rnd = ReferenceRandom(int(new_random(seed)[0]))
    rows: list[list[int]] = [[0, 0, -1, 0, -1]]

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
        work = [int(v) for v in board]
        node, stone, path, winner = 0, root_stone, [0], -1
        while True:
            if rows[node][COUNT] == 0:
                if node != 0 and rows[node][N] < expand_at:
                    break
                cand = reference_candidates(work, size, rule, stone, radius, tactics)
                if not cand:
                    winner = 0
                    break
                if len(rows) + len(cand) > capacity:
                    break
                rows[node][FIRST] = len(rows)
                rows[node][COUNT] = len(cand)
                rows.extend([0, 0, -1, 0, i] for i in cand)
            node = select(node)
            m = rows[node][MOVE]
            work[m] = stone
            path.append(node)
            if reference_wins(work, size, rule, m):
                winner = stone
                break
            if 0 not in work:
                winner = 0
                break
            stone = 3 - stone
        if winner < 0:
            played = [last, prev][::-1] + [rows[row][MOVE] for row in path[1:]]
            winner = reference_playout(work, size, rule, stone, rnd, None, tactics, played[-2], played[-1])
        for d, row in enumerate(path):
            mover = root_stone if d % 2 == 1 else 3 - root_stone
            rows[row][N] += 1
            rows[row][W] += 1 if winner == 0 else (2 if winner == mover else 0)
    return rows


# -- the engine ------------------------------------------------------------------


class GomokuMCTS(ArrayMCTS):
    """UCT with random playouts in numba for gomoku (every rule); the tree is kept between moves.

    Options: ``c`` (exploration, on the [-1, 1] value scale), ``expand`` (visits
    before a leaf grows children), ``radius`` (tree moves within this distance of
    a stone; 0: every empty cell), ``tactics`` (make and block fives first, in
    the tree and the playouts), ``memory`` (MB of tree), ``temperature``,
    ``reuse``, ``seed``, ``info_ms``.
    """

    def __init__(self, game: Gomoku, c: float = 1.4, expand: int = 4, radius: int = 2, tactics: bool = False,
                 memory: float = 128, temperature: float = 0.0, reuse: bool = True, seed: int | None = None,
                 info_ms: int = 500) -> None:
        if isinstance(expand, bool) or not isinstance(expand, int) or expand < 1:
            raise InvalidOptionError(f"expand must be a positive integer, got {expand!r}")
        if isinstance(radius, bool) or not isinstance(radius, int) or not 0 <= radius <= game.size:
            raise InvalidOptionError(f"radius must be an integer in 0 .. {game.size}, got {radius!r}")
        if not isinstance(tactics, bool):
            raise InvalidOptionError(f"tactics must be true or false, got {tactics!r}")
        super().__init__(game, c, expand, memory, temperature, reuse, seed, info_ms)
        self.radius = radius
        self.tactics = tactics

    def _simulate(self, state: GomokuState, sims: int,  # type: ignore[override]
                  stop: np.ndarray | None = None) -> int:
        assert self.nodes is not None
        return run(state, self.nodes, self.stats, self.root, sims, self.c, self.expand_at, self.radius, self.rng,
                   stop, self.tactics)


register_engine("gomoku", "mcts", GomokuMCTS, help="UCT with random playouts in numba (array tree, moves near stones)",
                options={**ARRAY_MCTS_OPTIONS, "memory": memory_option(128, "MB of tree"),
                         "expand": Option(4, 1, 10**6, help="visits before a leaf grows children"),
                         "radius": Option(2, 0, 26, help="tree moves within this distance of a stone (0: all)"),
                         "tactics": Option(False, help="make and block fives first")})


def heuristic_weights(state: GomokuState) -> np.ndarray:
    """Threat scores of the legal moves, for PUCT's priors: the alpha-beta engine's cell values (the
    patterns a stone there makes in its four lines) for the side to move, plus 0.8 times the
    opponent's (a block), plus 1 so that quiet cells keep a little weight."""
    game = state.game
    pos = Position(game, state.board)
    mine, theirs = (CI_VB, CI_VW) if state.to_move_stone == 1 else (CI_VW, CI_VB)
    moves = np.array(state.legal_moves(), dtype=np.int64)
    info = pos.ci[pos.to_pad[moves]]
    return 1.0 + info[:, mine].astype(np.float64) + 0.8 * info[:, theirs]


def _heuristic(game: Gomoku) -> Callable[[GomokuState], tuple[np.ndarray, None]]:
    def weigh(state: GomokuState) -> tuple[np.ndarray, None]:
        return heuristic_weights(state), None  # the value: a random playout

    return weigh


register_heuristic("gomoku", _heuristic)  # type: ignore[arg-type]


def warm_up() -> None:
    """Compile the kernels (from the cache when it is warm)."""
    from ...core.limits import Limits

    for rule in ("freestyle", "renju"):
        game = Gomoku(size=9, rule=rule)
        state = game.state_from_text("e5 d4 f6")
        GomokuMCTS(game, memory=0.1, seed=1).search(state, Limits(nodes=20))
        playouts(state, 2, new_random(1))
        playouts(state, 2, new_random(1), tactics=True)
