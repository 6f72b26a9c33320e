"""numba kernels of the m,n,k solver: negamax alpha-beta with a transposition table.

The plain-Python references are ``rules.is_win_at`` (for ``_is_win``) and
``gamesuite.search.reference`` (for the search); the tests compare them.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...core.score import WIN
from ...search.tt import DEPTH, EXACT, FLAG, LOWER, MOVE, UPPER, VALUE, tt_probe, tt_store, value_from_tt

# stats slots
NODES, SELDEPTH, ABORTED, NODE_LIMIT = 0, 1, 2, 3


@njit(cache=True, nogil=True)
def _is_win(board, width, height, k, idx) -> bool:
    p = board[idx]
    if p == 0:
        return False
    r0 = idx // width
    c0 = idx % width
    for d in range(4):
        dr = 0 if d == 0 else 1
        dc = 1 if d == 0 else (0 if d == 1 else (1 if d == 2 else -1))
        run = 1
        r, c = r0 + dr, c0 + dc
        while 0 <= r < height and 0 <= c < width and board[r * width + c] == p:
            run += 1
            r += dr
            c += dc
        r, c = r0 - dr, c0 - dc
        while 0 <= r < height and 0 <= c < width and board[r * width + c] == p:
            run += 1
            r -= dr
            c -= dc
        if run >= k:
            return True
    return False


@njit(cache=True, nogil=True)
def _evaluate(board, windows, me) -> int:
    """Open windows: own stones squared minus the opponent's (small, never a win score)."""
    v = 0
    for w in range(windows.shape[0]):
        mine = 0
        theirs = 0
        for j in range(windows.shape[1]):
            s = board[windows[w, j]]
            if s == me:
                mine += 1
            elif s != 0:
                theirs += 1
        if theirs == 0:
            v += mine * mine
        elif mine == 0:
            v -= theirs * theirs
    return v


@njit(cache=True, nogil=True)
def _negamax(board, width, height, k, windows, order, zob, key, me, empties, last, depth, ply,
             alpha, beta, tt, age, stop, stats, pv, pvlen) -> int:
    stats[NODES] += 1
    if ply > stats[SELDEPTH]:
        stats[SELDEPTH] = ply
    pvlen[ply] = ply
    # the node limit at every node (a node-limited search stops at it exactly), the stop flag every 1024
    if (stats[NODE_LIMIT] > 0 and stats[NODES] >= stats[NODE_LIMIT]) or ((stats[NODES] & 1023) == 0 and stop[0] != 0):
        stats[ABORTED] = 1
    if stats[ABORTED] != 0:
        return 0
    if last >= 0 and _is_win(board, width, height, k, last):
        return -(WIN - ply)
    if empties == 0:
        return 0
    if depth <= 0:
        return _evaluate(board, windows, me)
    alpha0 = alpha
    ttmove = np.int64(-1)
    i = tt_probe(tt, key)
    if i >= 0:
        ttmove = tt[i, MOVE]
        if tt[i, DEPTH] >= depth:
            v = value_from_tt(tt[i, VALUE], ply)
            f = tt[i, FLAG]
            if f == EXACT or (f == LOWER and v >= beta) or (f == UPPER and v <= alpha):
                pvlen[ply] = ply
                return v
    best = -WIN - 1
    bestm = np.int64(-1)
    n = order.shape[0]
    for j in range(-1, n):
        if j < 0:
            m = ttmove
            if m < 0:
                continue
        else:
            m = np.int64(order[j])
            if m == ttmove:
                continue
        if board[m] != 0:
            continue
        board[m] = me
        v = -_negamax(board, width, height, k, windows, order, zob, key ^ zob[me - 1, m], 3 - me,
                      empties - 1, m, depth - 1, ply + 1, -beta, -alpha, tt, age, stop, stats, pv, pvlen)
        board[m] = 0
        if stats[ABORTED] != 0:
            return 0
        if v > best:
            best = v
            bestm = m
            if v > alpha:
                alpha = v
                pv[ply, ply] = m
                for q in range(ply + 1, pvlen[ply + 1]):
                    pv[ply, q] = pv[ply + 1, q]
                pvlen[ply] = pvlen[ply + 1]
                if alpha >= beta:
                    break
    flag = EXACT
    if best <= alpha0:
        flag = UPPER
    elif best >= beta:
        flag = LOWER
    tt_store(tt, key, depth, flag, best, bestm, ply, age)
    return best


@njit(cache=True, nogil=True)
def _root(board, width, height, k, windows, order, zob, key, me, empties, depth, excluded,
          tt, age, stop, stats, pv, pvlen) -> int:
    """Search every root move not in ``excluded`` to ``depth``; the PV is in ``pv[0]``."""
    best = -WIN - 1
    alpha = -WIN - 1
    pvlen[0] = 0
    for j in range(order.shape[0]):
        m = np.int64(order[j])  # the recursive kernel's argument types must match exactly (numba #6713)
        if board[m] != 0 or excluded[m] != 0:
            continue
        board[m] = me
        v = -_negamax(board, width, height, k, windows, order, zob, key ^ zob[me - 1, m], 3 - me,
                      empties - 1, m, depth - 1, np.int64(1), -WIN - 1, -alpha, tt, age, stop, stats, pv, pvlen)
        board[m] = 0
        if stats[ABORTED] != 0:
            return best
        if v > best:
            best = v
            alpha = v
            pv[0, 0] = m
            for q in range(1, pvlen[1]):
                pv[0, q] = pv[1, q]
            pvlen[0] = max(pvlen[1], 1)
    return best


def move_order(width: int, height: int, windows: np.ndarray) -> np.ndarray:
    """Cells by how many winning lines pass through them (centre first)."""
    counts = np.bincount(windows.ravel(), minlength=width * height)
    return np.argsort(-counts, kind="stable").astype(np.int32)
