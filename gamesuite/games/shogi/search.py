"""numba kernels of the shogi engine: evaluation, PVS alpha-beta with a transposition table, quiescence.

The references: ``evaluation.evaluate_reference`` for ``_evaluate``,
``gamesuite.search.reference.minimax`` for the search (with quiescence, null
move, reductions and extensions switched off) and a plain quiescence in the
tests for ``_qsearch``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...core.score import WIN, WIN_THRESHOLD
from ...search.tt import DEPTH, EXACT, FLAG, LOWER, MOVE, UPPER, VALUE, tt_probe, tt_store, value_from_tt
from .board import BLACK_BIT, KING, WHITE_BIT
from .kernels import _captures, _generate, _in_check, _make, _unmake

MAX_PLY = 64
# stats slots
NODES, SELDEPTH, ABORTED, NODE_LIMIT, HIST = 0, 1, 2, 3, 4
STATS = 5
# option flags
QUIESCE, NULLMOVE, LMR, EXTEND = 0, 1, 2, 3
# columns of ``pst[0]`` with the weights of the positional terms (see ``evaluation.piece_square_table``)
KS_OPEN, MOBILITY, KS_ON = 16, 17, 18


@njit(cache=True, nogil=True, _nrt=False)
def _evaluate(board, hands, kings, us, geo, sq2p, dirs, slidem, values, handv, pst) -> int:
    """Material (hand pieces with their bonus), piece-square terms, king safety and mobility, from ``us``'s side.

    ``pst[t, sq]`` is the piece-square table; its rows 0 and 15 (no piece type) hold the weights of
    king safety and mobility (see ``evaluation.piece_square_table``).
    """
    N = geo[3]
    terms = pst[0, KS_ON] != 0
    mob = pst[0, MOBILITY]
    s = 0
    for sq in range(N):
        p = sq2p[sq]
        v = board[p]
        if v == 0:
            continue
        t = v & 15
        if v & BLACK_BIT:
            s += values[t] + pst[t, sq]
        else:
            s -= values[t] + pst[t, N - 1 - sq]
        if terms and slidem[t] != 0:
            # mobility of the sliders: the empty squares along their lines
            o = 1 if v & BLACK_BIT else -1
            run = 0
            for i in range(8):
                if (slidem[t] >> i) & 1:
                    d = o * dirs[i]
                    q = p + d
                    while board[q] == 0:
                        run += 1
                        q += d
            s += o * mob * run
    for k in range(1, 8):
        s += handv[k] * (hands[0, k] - hands[1, k])
    if terms:
        s += _king_safety(board, kings[0], BLACK_BIT, WHITE_BIT, 0, geo[2], dirs, pst)
        s -= _king_safety(board, kings[1], WHITE_BIT, BLACK_BIT, 4, geo[2], dirs, pst)
    return s if us == 0 else -s


@njit(cache=True, nogil=True, _nrt=False)
def _king_safety(board, k, own, opp, fwd, W, dirs, pst) -> int:
    """King safety of the king on ``k``: defenders next to it, attackers within two squares, open lines ahead."""
    if k < 0:
        return 0
    s = 0
    for i in range(8):
        v = board[k + dirs[i]]
        if v & own:
            s += pst[0, v & 15]
    for dr in range(-2, 3):
        for dc in range(-2, 3):
            v = board[k + dr * W + dc]
            if v & opp:
                s -= pst[15, v & 15]
    # open lines toward the enemy: straight ahead and the two forward diagonals
    run = 0
    for j in (fwd, (fwd + 1) & 7, (fwd + 7) & 7):
        d = dirs[j]
        q = k + d
        while board[q] == 0:
            run += 1
            q += d
    return s - pst[0, KS_OPEN] * run


@njit(cache=True, nogil=True, _nrt=False)
def _key_after(board, hands, us, move, key, N, sq2p, zb, zh, zs):
    """The Zobrist key after ``move`` (same scheme as ``ShogiState``)."""
    ubit = BLACK_BIT if us == 0 else WHITE_BIT
    frm = move >> 8
    tp = sq2p[(move >> 1) & 127]
    key ^= zs[0]
    if frm >= N:
        kind = frm - N + 1
        n = hands[us, kind]
        return key ^ zh[us, kind, n] ^ zh[us, kind, n - 1] ^ zb[tp, ubit | kind]
    fp = sq2p[frm]
    v = board[fp]
    nv = v + 8 if (move & 1) else v
    key ^= zb[fp, v] ^ zb[tp, nv]
    cap = board[tp]
    if cap != 0:
        ct = cap & 15
        if ct > KING:
            ct -= KING
        n = hands[us, ct]
        key ^= zb[tp, cap] ^ zh[us, ct, n] ^ zh[us, ct, n + 1]
    return key


@njit(cache=True, nogil=True, _nrt=False)
def _order_score(board, m, N, sq2p, values, ttmove, killers, history, us, ply) -> int:
    if m == ttmove:
        return 1 << 40
    frm = m >> 8
    to = (m >> 1) & 127
    if frm < N:
        victim = board[sq2p[to]]
        if victim != 0:
            return (1 << 30) + values[victim & 15] * 16 - (board[sq2p[frm]] & 15)
        if m & 1:
            return 1 << 29
    if killers[ply, 0] == m:
        return 1 << 28
    if killers[ply, 1] == m:
        return (1 << 28) - 1
    return history[us, frm, to]


@njit(cache=True, nogil=True, _nrt=False)
def _pick(buf, scores, ply, x, n) -> None:
    """Move the best-scored of moves ``x..n-1`` of ``ply`` to slot ``x``."""
    bi = x
    bs = scores[ply, x]
    for y in range(x + 1, n):
        if scores[ply, y] > bs:
            bs = scores[ply, y]
            bi = y
    if bi != x:
        tm = buf[ply, x]
        buf[ply, x] = buf[ply, bi]
        buf[ply, bi] = tm
        ts = scores[ply, x]
        scores[ply, x] = scores[ply, bi]
        scores[ply, bi] = ts


@njit(cache=True, nogil=True, _nrt=False)
def _tick(ply, stop, stats) -> bool:
    """Count a node; return True when the search must stop."""
    stats[NODES] += 1
    if ply > stats[SELDEPTH]:
        stats[SELDEPTH] = ply
    if (stats[NODES] & 1023) == 0 and (stop[0] != 0 or (stats[NODE_LIMIT] > 0 and stats[NODES] >= stats[NODE_LIMIT])):
        stats[ABORTED] = 1
    return stats[ABORTED] != 0


@njit(cache=True, nogil=True, _nrt=False)
def _qsearch(board, hands, kings, us, ply, alpha, beta, geo, sq2p, p2sq, rel, pfile, dirs, stepm, slidem, tab,
             values, handv, pst, stop, stats, buf, scratch, scores) -> int:
    """Captures only (every move when in check), with stand pat; no legal move loses.

    Not in check, only captures are generated (after the stand pat), so a position without any
    legal move is recognised as lost only when in check (it practically never happens otherwise).
    """
    if _tick(ply, stop, stats):
        return 0
    N = geo[3]
    in_check = _in_check(board, kings, us, dirs, stepm, slidem, geo[2])
    if in_check:
        best = -WIN - 1
    else:
        # stand pat before generating: a side not in check practically always has a move
        best = _evaluate(board, hands, kings, us, geo, sq2p, dirs, slidem, values, handv, pst)
        if best >= beta:
            return best
        if best > alpha:
            alpha = best
    if in_check:
        cnt = _generate(board, hands, kings, us, geo, sq2p, p2sq, rel, pfile, dirs, stepm, slidem, tab, buf[ply],
                        scratch[ply])
        if cnt == 0:
            return -(WIN - ply)
    else:
        cnt = _captures(board, kings, us, geo, sq2p, p2sq, rel, dirs, stepm, slidem, tab, buf[ply], scratch[ply])
    if ply >= MAX_PLY - 2:
        return _evaluate(board, hands, kings, us, geo, sq2p, dirs, slidem, values, handv, pst)
    for x in range(cnt):
        m = buf[ply, x]
        frm = m >> 8
        victim = board[sq2p[(m >> 1) & 127]]
        sc = 0
        if frm < N and victim != 0:
            sc = values[victim & 15] * 16 - (board[sq2p[frm]] & 15) + (1 << 20)
        scores[ply, x] = sc
    for x in range(cnt):
        _pick(buf, scores, ply, x, cnt)
        m = np.int64(buf[ply, x])
        cap = _make(board, hands, kings, us, m, N, sq2p)
        v = -_qsearch(board, hands, kings, np.int64(1 - us), np.int64(ply + 1), -beta, -alpha, geo, sq2p, p2sq, rel,
                      pfile, dirs, stepm, slidem, tab, values, handv, pst, stop, stats, buf, scratch, scores)
        _unmake(board, hands, kings, us, m, cap, N, sq2p)
        if stats[ABORTED] != 0:
            return 0
        if v > best:
            best = v
            if v > alpha:
                alpha = v
                if alpha >= beta:
                    break
    return best


@njit(cache=True, nogil=True, _nrt=False)
def _negamax(board, hands, kings, us, depth, ply, alpha, beta, key, geo, sq2p, p2sq, rel, pfile, dirs, stepm, slidem,
             tab, zb, zh, zs, values, handv, pst, tt, age, stop, stats, pv, pvlen, buf, scratch, keys, killers,
             history, scores, opts) -> int:
    """PVS negamax with TT, null move, late-move reductions, check extension; quiescence at the horizon."""
    pvlen[ply] = ply
    N = geo[3]
    h = stats[HIST]
    in_check = _in_check(board, kings, us, dirs, stepm, slidem, geo[2])
    c = h + ply
    koff = keys.shape[0] // 2  # keys[koff + i]: whether the side to move was in check in position i
    keys[koff + c] = 1 if in_check else 0
    # a repetition on the path (or of the game before the root) is a draw, unless one side gave check
    # with every move since the position's first occurrence: that side loses (perpetual check)
    j = c - 2
    lo = max(0, c - 32)
    while j >= lo:
        if keys[j] == key:
            them_checked = True  # the moves into positions j + 2, j + 4, ..., c (the opponent's)
            us_checked = True  # the moves into positions j + 1, j + 3, ..., c - 1 (ours)
            for i in range(j + 1, c + 1):
                if keys[koff + i] == 0:
                    if (c - i) % 2 == 0:
                        them_checked = False
                    else:
                        us_checked = False
            if them_checked:
                return WIN - ply
            if us_checked:
                return -(WIN - ply)
            return 0
        j -= 2
    if in_check and opts[EXTEND] != 0 and ply < MAX_PLY // 2:
        depth += 1
    if depth <= 0 or ply >= MAX_PLY - 4:
        if opts[QUIESCE] != 0:
            return _qsearch(board, hands, kings, us, ply, alpha, beta, geo, sq2p, p2sq, rel, pfile, dirs, stepm,
                            slidem, tab, values, handv, pst, stop, stats, buf, scratch, scores)
        if _tick(ply, stop, stats):
            return 0
        if _generate(board, hands, kings, us, geo, sq2p, p2sq, rel, pfile, dirs, stepm, slidem, tab, buf[ply],
                     scratch[ply]) == 0:
            return -(WIN - ply)
        return _evaluate(board, hands, kings, us, geo, sq2p, dirs, slidem, values, handv, pst)
    if _tick(ply, stop, stats):
        return 0
    alpha0 = alpha
    ttmove = -1
    i = tt_probe(tt, key)
    if i >= 0:
        ttmove = tt[i, MOVE]
        if tt[i, DEPTH] >= depth:
            v = value_from_tt(tt[i, VALUE], ply)
            f = tt[i, FLAG]
            if f == EXACT or (f == LOWER and v >= beta) or (f == UPPER and v <= alpha):
                return v
    if (opts[NULLMOVE] != 0 and not in_check and depth >= 3 and abs(beta) < WIN_THRESHOLD
            and _evaluate(board, hands, kings, us, geo, sq2p, dirs, slidem, values, handv, pst) >= beta):
        nk = key ^ zs[0]
        keys[h + ply + 1] = nk
        v = -_negamax(board, hands, kings, np.int64(1 - us), np.int64(depth - 3), np.int64(ply + 1), -beta, -beta + 1,
                      nk, geo, sq2p, p2sq, rel, pfile, dirs, stepm, slidem, tab, zb, zh, zs, values, handv, pst, tt,
                      age, stop, stats, pv, pvlen, buf, scratch, keys, killers, history, scores, opts)
        if stats[ABORTED] != 0:
            return 0
        if v >= beta:
            return beta
    n = _generate(board, hands, kings, us, geo, sq2p, p2sq, rel, pfile, dirs, stepm, slidem, tab, buf[ply],
                  scratch[ply])
    if n == 0:
        return -(WIN - ply)
    for x in range(n):
        scores[ply, x] = _order_score(board, np.int64(buf[ply, x]), N, sq2p, values, ttmove, killers, history, us, ply)
    best = -WIN - 1
    bestm = -1
    for x in range(n):
        _pick(buf, scores, ply, x, n)
        m = np.int64(buf[ply, x])
        frm = m >> 8
        to = (m >> 1) & 127
        quiet = (frm >= N or board[sq2p[to]] == 0) and (m & 1) == 0
        nk = _key_after(board, hands, us, m, key, N, sq2p, zb, zh, zs)
        cap = _make(board, hands, kings, us, m, N, sq2p)
        keys[h + ply + 1] = nk
        if x == 0:
            v = -_negamax(board, hands, kings, np.int64(1 - us), np.int64(depth - 1), np.int64(ply + 1), -beta,
                          -alpha, nk, geo, sq2p, p2sq, rel, pfile, dirs, stepm, slidem, tab, zb, zh, zs, values,
                          handv, pst, tt, age, stop, stats, pv, pvlen, buf, scratch, keys, killers, history,
                          scores,
                          opts)
        else:
            r = 0
            if opts[LMR] != 0 and quiet and not in_check and depth >= 3 and x >= 4:
                r = 1 if x < 12 else 2
            v = -_negamax(board, hands, kings, np.int64(1 - us), np.int64(depth - 1 - r), np.int64(ply + 1),
                          -alpha - 1, -alpha, nk, geo, sq2p, p2sq, rel, pfile, dirs, stepm, slidem, tab, zb, zh, zs,
                          values, handv, pst, tt, age, stop, stats, pv, pvlen, buf, scratch, keys, killers,
                          history,
                          scores, opts)
            if v > alpha and (r > 0 or v < beta) and stats[ABORTED] == 0:
                v = -_negamax(board, hands, kings, np.int64(1 - us), np.int64(depth - 1), np.int64(ply + 1), -beta,
                              -alpha, nk, geo, sq2p, p2sq, rel, pfile, dirs, stepm, slidem, tab, zb, zh, zs, values,
                              handv, pst, tt, age, stop, stats, pv, pvlen, buf, scratch, keys, killers, history,
                              scores, opts)
        _unmake(board, hands, kings, us, m, cap, N, sq2p)
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
                pvlen[ply] = max(pvlen[ply + 1], ply + 1)
                if alpha >= beta:
                    if quiet:
                        if killers[ply, 0] != m:
                            killers[ply, 1] = killers[ply, 0]
                            killers[ply, 0] = m
                        if history[us, frm, to] < (1 << 26):
                            history[us, frm, to] += depth * depth
                    break
    flag = EXACT
    if best <= alpha0:
        flag = UPPER
    elif best >= beta:
        flag = LOWER
    tt_store(tt, key, depth, flag, best, bestm, ply, age)
    return best


@njit(cache=True, nogil=True, _nrt=False)
def _root(board, hands, kings, us, depth, key, excluded, lo, hi, geo, sq2p, p2sq, rel, pfile, dirs, stepm, slidem,
          tab, zb, zh, zs, values, handv, pst, tt, age, stop, stats, pv, pvlen, buf, scratch, keys, killers,
          history,
          scores, opts) -> int:
    """Search every root move not in ``excluded`` to ``depth`` in the window (``lo``, ``hi``).

    The PV is left in ``pv[0, :pvlen[0]]``; a result ``<= lo`` (no PV) or ``>= hi`` is only a bound.
    """
    N = geo[3]
    h = stats[HIST]
    pvlen[0] = 0
    n = _generate(board, hands, kings, us, geo, sq2p, p2sq, rel, pfile, dirs, stepm, slidem, tab, buf[0], scratch[0])
    ttmove = -1
    i = tt_probe(tt, key)
    if i >= 0:
        ttmove = tt[i, MOVE]
    cnt = 0
    for x in range(n):
        m = np.int64(buf[0, x])
        skip = False
        for e in range(excluded.shape[0]):
            if excluded[e] == m:
                skip = True
        if skip:
            continue
        buf[0, cnt] = m
        scores[0, cnt] = _order_score(board, m, N, sq2p, values, ttmove, killers, history, us, np.int64(0))
        cnt += 1
    best = -WIN - 1
    alpha = lo
    beta = hi
    for x in range(cnt):
        _pick(buf, scores, np.int64(0), x, cnt)
        m = np.int64(buf[0, x])
        nk = _key_after(board, hands, us, m, key, N, sq2p, zb, zh, zs)
        cap = _make(board, hands, kings, us, m, N, sq2p)
        keys[h + 1] = nk
        if x == 0:
            v = -_negamax(board, hands, kings, np.int64(1 - us), np.int64(depth - 1), np.int64(1), -beta, -alpha, nk,
                          geo, sq2p, p2sq, rel, pfile, dirs, stepm, slidem, tab, zb, zh, zs, values, handv, pst, tt,
                          age, stop, stats, pv, pvlen, buf, scratch, keys, killers, history, scores, opts)
        else:
            v = -_negamax(board, hands, kings, np.int64(1 - us), np.int64(depth - 1), np.int64(1), -alpha - 1,
                          -alpha, nk, geo, sq2p, p2sq, rel, pfile, dirs, stepm, slidem, tab, zb, zh, zs, values,
                          handv, pst, tt, age, stop, stats, pv, pvlen, buf, scratch, keys, killers, history,
                          scores,
                          opts)
            if v > alpha and v < beta and stats[ABORTED] == 0:
                v = -_negamax(board, hands, kings, np.int64(1 - us), np.int64(depth - 1), np.int64(1), -beta, -alpha,
                              nk, geo, sq2p, p2sq, rel, pfile, dirs, stepm, slidem, tab, zb, zh, zs, values, handv,
                              pst, tt, age, stop, stats, pv, pvlen, buf, scratch, keys, killers, history,
                              scores,
                              opts)
        _unmake(board, hands, kings, us, m, cap, N, sq2p)
        if stats[ABORTED] != 0:
            return best
        if v > best:
            best = v
            if v > alpha:
                alpha = v
                pv[0, 0] = m
                for q in range(1, pvlen[1]):
                    pv[0, q] = pv[1, q]
                pvlen[0] = max(pvlen[1], 1)
                if alpha >= beta:
                    break
    if pvlen[0] > 0 and lo < best < hi:
        tt_store(tt, key, depth, EXACT, best, pv[0, 0], np.int64(0), age)
    return best


@njit(cache=True, nogil=True, _nrt=False)
def _search_move(board, hands, kings, us, m, depth, key, lo, hi, geo, sq2p, p2sq, rel, pfile, dirs, stepm, slidem,
                 tab, zb, zh, zs, values, handv, pst, tt, age, stop, stats, pv, pvlen, buf, scratch, keys, killers,
                 history, scores, opts) -> int:
    """The value of root move ``m`` searched to ``depth`` in the window (``lo``, ``hi``); its line in ``pv[0]``.

    For the selective-deepening root, which searches each root move to a depth of its own. A value
    ``<= lo`` or ``>= hi`` is only a bound.
    """
    N = geo[3]
    h = stats[HIST]
    pvlen[0] = 0
    pvlen[1] = 1
    nk = _key_after(board, hands, us, m, key, N, sq2p, zb, zh, zs)
    cap = _make(board, hands, kings, us, m, N, sq2p)
    keys[h + 1] = nk
    v = -_negamax(board, hands, kings, np.int64(1 - us), np.int64(depth - 1), np.int64(1), -hi, -lo, nk, geo, sq2p,
                  p2sq, rel, pfile, dirs, stepm, slidem, tab, zb, zh, zs, values,
                  handv, pst, tt, age, stop, stats, pv, pvlen, buf, scratch, keys, killers, history, scores,
                  opts)
    _unmake(board, hands, kings, us, m, cap, N, sq2p)
    pv[0, 0] = m
    for q in range(1, pvlen[1]):
        pv[0, q] = pv[1, q]
    pvlen[0] = max(pvlen[1], 1)
    return v
