"""numba kernels of the ``alphabeta`` engine: principal variation search over threat-aware moves.

The board, its incremental patterns and the threat searches (VCF, VCT) are
``kernels``'; this module adds the search the default engine uses:

- **Threat-aware moves.** The opponent's five point leaves only the block (the
  caller's preamble plays it without using depth); the opponent's open three
  (an open-four point) leaves only the real defences: the opponent's four
  points (the cells that stop the open four, the far ends of split threes
  included) and our own fours. Otherwise every empty cell within two of a
  stone, ordered by the table move, killers, a policy score from both sides'
  cell classes and values, and the history heuristic. There is no fixed cut
  of the list: late moves are reduced (LMR, log-based by depth and move
  number) and, near the leaves, pruned by their count (move-count pruning)
  when they neither make nor stop a three.
- **Evaluation** (``_evaluate``): the cell values of both sides (each cell's
  value comes from the combination table of its four line patterns, built
  from the weights in ``eval_weights.json``), weighted for the side to move
  and the opponent, plus per-class counts of both sides' empty cells and a
  few threat terms (what the side to move can cash next move against what the
  opponent threatens). The weights live in ``g`` from ``X0`` on.
- **Quiescence** at the leaves: the side to move's fours only (each answered
  by its forced block), up to ``g[X0 + S_QFOURS]`` of them, with the static
  value as the stand-pat; a 4-3 point at a leaf runs the VCF of ``kernels``.
- **Pruning**: reverse futility (a static value far above beta at one to
  three plies left, the side to move not threatened) and move-count pruning.

Values follow ``gamesuite.core.score.WIN``. The searches are checked against
plain minimax (``pure`` mode searches every cell with no threat rules,
reductions or pruning).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from ...core.score import WIN
from ...search.tt import DEPTH, EXACT, FLAG, LOWER, MOVE, UPPER, VALUE, tt_prefetch, tt_probe, tt_store, value_from_tt
from .kernels import (
    ABORT,
    C_B4,
    C_B4F3,
    C_F3,
    C_F3F3,
    C_F4,
    C_FIVE,
    CI_CB,
    CI_MF,
    CI_VB,
    CNT,
    KEY,
    MAXPLY,
    NCLASS,
    NODE_LIMIT,
    NODES,
    NPAT,
    P_LEAFVCF,
    P_P,
    P_PURE,
    P_RULE,
    P_SIZE,
    P_TREEVCT,
    P_TREEVCTN,
    PAD,
    PCN,
    PVL,
    RENJU,
    SELDEPTH,
    STONES,
    TOT_B,
    TREE_VCT_SALT,
    VNODES,
    _find_class,
    _forbidden_at,
    _has_free_f4,
    _pick,
    _place,
    _remove,
    _store_line,
    _threatens,
    _tree_vct,
    _vcf,
)
from .patterns import NAMES as PATTERN_NAMES

#: Salt of the threat-table entries that remember a deep VCT tried at a PV node of ply 1.
BIG_VCT_SALT = np.int64(0x1F83D9ABFB41BD6B)
#: Zobrist key of a null move (the side to move changes with no stone placed; nothing else tells it apart).
NULL_KEY = np.int64(0x6A09E667F3BCC909)
#: First slot of the engine's own weights and parameters in ``g`` (after the kernels' slots).
X0 = PVL + MAXPLY
# evaluation: per-pattern weights of the side to move's empty cells' direction patterns (X0 + E_PME + pattern)
# and of the opponent's (X0 + E_POP + pattern), per-class weights of the side to move's empty cells
# (X0 + E_ME + class) and of the opponent's (X0 + E_OP + class), the weights of the two cell-value totals
# (sixteenths), threat terms, and the scale of the sum (sixteenths)
E_PME = 0
E_POP = NPAT
E_ME = 2 * NPAT
E_OP = E_ME + NCLASS
E_TOTME = E_OP + NCLASS
E_TOTOP = E_TOTME + 1
E_WIN43 = E_TOTOP + 1  # the side to move has a 4-3 point and the opponent no open three
E_WIN33 = E_WIN43 + 1  # a 3-3 point, the opponent without four points
E_DEF3 = E_WIN33 + 1  # the opponent has an open three (an open-four point) and the side to move no four
E_OP43 = E_DEF3 + 1  # the opponent has a 4-3 or 3-3 point (a double threat next move)
E_SCALE = E_OP43 + 1
NEVAL = E_SCALE + 1
# search parameters
S_LMR = NEVAL  # LMR on/off (1/0)
S_LMRBASE = S_LMR + 1  # reduction = (base + ln(depth) * ln(moves) * 100 / div) // 100
S_LMRDIV = S_LMRBASE + 1
S_LMP = S_LMRDIV + 1  # move-count pruning up to this many plies left (0 off)
S_LMPBASE = S_LMP + 1  # moves kept at one ply left (then + S_LMPSTEP * depth^2)
S_LMPSTEP = S_LMPBASE + 1
S_RFP = S_LMPSTEP + 1  # reverse futility up to this many plies left (0 off)
S_RFPMARGIN = S_RFP + 1  # margin per ply
S_QFOURS = S_RFPMARGIN + 1  # fours the quiescence may chain (0: static value, plus the 4-3 VCF)
S_EXT3 = S_QFOURS + 1  # answering an open three: 1 = no depth used
S_LMPCLS = S_EXT3 + 1  # move-count pruning spares moves whose class (ours or the opponent's) is at least this
S_LMRDEPTH = S_LMPCLS + 1  # LMR from this many plies left
S_TREEVCTD = S_LMRDEPTH + 1  # the tree's VCT only with at least this many plies left
S_LMPMAX = S_TREEVCTD + 1  # move-count pruning keeps at most this many moves (PV nodes half as many more)
S_NMP = S_LMPMAX + 1  # null-move pruning from this many plies left (0 off)
S_NMPR = S_NMP + 1  # its reduction (plies, besides the move's own)
S_VCT1N = S_NMPR + 1  # the node budget of the VCT at ply 1 (the opponent's, after each root move)
S_NULLVCF = S_VCT1N + 1  # fours of the opponent's VCF "if we passed" that restricts our moves to its squares (0 off)
NPARAM = S_NULLVCF + 1
S_LASTNULL = NPARAM  # (state, not a parameter: the ply of the last null move on the current line)
NX = S_LASTNULL + 1

CLASS_NAMES = ("none", "low", "f2", "b3", "f3", "f3f3", "b4", "b4f3", "f4", "five")
EVAL_NAMES = (tuple(f"pme_{n}" for n in PATTERN_NAMES) + tuple(f"pop_{n}" for n in PATTERN_NAMES)
              + tuple(f"me_{n}" for n in CLASS_NAMES)
              + tuple(f"op_{n}" for n in CLASS_NAMES)
              + ("tot_me", "tot_op", "win43", "win33", "def3", "op43", "scale"))
SEARCH_NAMES = ("lmr", "lmrbase", "lmrdiv", "lmp", "lmpbase", "lmpstep", "rfp", "rfpmargin", "qfours", "ext3",
                "lmpcls", "lmrdepth", "treevctdepth", "lmpmax", "nmp", "nmpr", "vct1nodes", "nullvcf")


@njit(cache=True, nogil=True, _nrt=False)
def _evaluate(g, me) -> int:
    """Static value for the side to move ``me`` (0 black, 1 white) from the weights at ``g[X0:]``."""
    op = 1 - me
    cm = CNT + me * NCLASS
    co = CNT + op * NCLASS
    v = (g[X0 + E_TOTME] * g[TOT_B + me] - g[X0 + E_TOTOP] * g[TOT_B + op]) // 16
    pm = PCN + me * NPAT
    po = PCN + op * NPAT
    for p in range(1, NPAT - 1):
        v += g[X0 + E_PME + p] * g[pm + p] - g[X0 + E_POP + p] * g[po + p]
    for c in range(2, NCLASS - 1):
        v += g[X0 + E_ME + c] * g[cm + c] - g[X0 + E_OP + c] * g[co + c]
    if g[co + C_F4] > 0:
        if g[cm + C_B4] + g[cm + C_B4F3] == 0:
            v -= g[X0 + E_DEF3]
    else:
        if g[cm + C_B4F3] > 0:
            v += g[X0 + E_WIN43]
        elif g[cm + C_F3F3] > 0 and g[co + C_B4] + g[co + C_B4F3] == 0:
            v += g[X0 + E_WIN33]
    if g[co + C_B4F3] + g[co + C_F3F3] > 0:
        v -= g[X0 + E_OP43]
    return v * g[X0 + E_SCALE] // 16


@njit(cache=True, nogil=True, _nrt=False)
def _qs(bd, ub, keys, cp, ci, g, near, pat, cmb, zob, un, mv, ms, pv, vt, stop, ply, alpha, beta, left) -> int:
    """Quiescence over the side to move's fours (each answered by its block), the static value as stand-pat."""
    g[NODES] += 1
    if ply > g[SELDEPTH]:
        g[SELDEPTH] = ply
    g[PVL + ply] = ply
    # the node limit at every node (a node-limited search stops at it exactly), the stop flag every 1024
    if (g[NODE_LIMIT] > 0 and g[NODES] >= g[NODE_LIMIT]) or ((g[NODES] & 1023) == 0 and stop[0] != 0):
        g[ABORT] = 1
    if g[ABORT] != 0:
        return 0
    me = g[STONES] & 1
    op = 1 - me
    renju_black = g[P_RULE] == RENJU and me == 0
    if g[STONES] >= g[P_SIZE] * g[P_SIZE]:
        return 0
    if g[CNT + me * NCLASS + C_FIVE] > 0:
        return WIN - ply - 1
    if g[CNT + op * NCLASS + C_FIVE] >= 2:
        return -(WIN - ply - 2)
    if g[CNT + op * NCLASS + C_FIVE] == 1:
        b = _find_class(bd, ci, g, op, C_FIVE)
        if renju_black and ci[b, CI_MF] != 0 and _forbidden_at(ub, g, b):
            return -(WIN - ply - 2)
        if ply >= MAXPLY - 8:
            return _evaluate(g, me)
        _place(bd, ub, keys, cp, ci, g, near, pat, cmb, zob, un, b, me + 1)
        v = -_qs(bd, ub, keys, cp, ci, g, near, pat, cmb, zob, un, mv, ms, pv, vt, stop, ply + 1, -beta, -alpha, left)
        _remove(bd, ub, keys, cp, ci, g, near, pat, cmb, zob, un, b)
        pv[ply, ply] = b
        for q in range(ply + 1, g[PVL + ply + 1]):
            pv[ply, q] = pv[ply + 1, q]
        g[PVL + ply] = max(g[PVL + ply + 1], ply + 1)
        return v
    if g[CNT + me * NCLASS + C_F4] > 0 and (not renju_black or _has_free_f4(bd, ub, ci, g, me)):
        return WIN - ply - 3
    if ply >= MAXPLY - 8:
        return _evaluate(g, me)
    if g[P_LEAFVCF] > 0 and g[CNT + me * NCLASS + C_B4F3] > 0:
        used = g[VNODES]
        v = _vcf(bd, ub, keys, cp, ci, g, near, pat, cmb, zob, un, mv, ms, pv, vt, stop, ply, g[P_LEAFVCF])
        if g[NODE_LIMIT] > 0:
            g[NODE_LIMIT] -= g[VNODES] - used  # a node limit counts the threat search's nodes too
        if v > 0:
            return v
    best = _evaluate(g, me)
    if best >= beta or left <= 0 or g[CNT + me * NCLASS + C_B4] + g[CNT + me * NCLASS + C_B4F3] == 0:
        return best
    if best > alpha:
        alpha = best
    P = g[P_P]
    size = g[P_SIZE]
    n = 0
    for r in range(size):
        base = (r + PAD) * P + PAD
        for c in range(size):
            y = base + c
            if bd[y] == 0 and ci[y, CI_CB + me] >= C_B4:
                mv[ply, n] = y
                ms[ply, n] = ci[y, CI_CB + me] * 4096 + ci[y, CI_VB + me] + ci[y, CI_VB + op]
                n += 1
    for j in range(n):
        y = _pick(mv, ms, ply, j, n)
        if renju_black and ci[y, CI_MF] != 0 and _forbidden_at(ub, g, y):
            continue
        _place(bd, ub, keys, cp, ci, g, near, pat, cmb, zob, un, y, me + 1)
        v = -_qs(bd, ub, keys, cp, ci, g, near, pat, cmb, zob, un, mv, ms, pv, vt, stop, ply + 1, -beta, -alpha,
                 left - 1)
        _remove(bd, ub, keys, cp, ci, g, near, pat, cmb, zob, un, y)
        if g[ABORT] != 0:
            return 0
        if v > best:
            best = v
            if v > alpha:
                alpha = v
                pv[ply, ply] = y
                for q in range(ply + 1, g[PVL + ply + 1]):
                    pv[ply, q] = pv[ply + 1, q]
                g[PVL + ply] = max(g[PVL + ply + 1], ply + 1)
                if v >= beta:
                    break
    return best


@njit(cache=True, nogil=True, _nrt=False)
def _gen(bd, ci, near, g, hist, killers, me, ply, ttmove, mv, ms, mode) -> int:
    """Candidate moves of ``me`` at ``ply`` into ``mv[ply]`` with ordering scores in ``ms[ply]``; how many.

    ``mode`` 0: the empty cells within two of a stone; 1: every empty cell (pure mode, fallbacks);
    2: the defences against the opponent's open three (its four points) and our own fours.
    """
    P = g[P_P]
    size = g[P_SIZE]
    op = 1 - me
    n = 0
    k0 = killers[ply, 0]
    k1 = killers[ply, 1]
    for r in range(size):
        base = (r + PAD) * P + PAD
        for c in range(size):
            y = base + c
            if bd[y] != 0:
                continue
            if mode != 1 and near[y] == 0:
                continue
            cm = ci[y, CI_CB + me]
            co = ci[y, CI_CB + op]
            if mode == 2 and cm < C_B4 and co < C_B4:
                continue
            s = 4 * ci[y, CI_VB + me] + 3 * ci[y, CI_VB + op] + (cm * cm + co * co) * 64
            if y == ttmove:
                s += 1 << 28
            elif y == k0:
                s += 1 << 20
            elif y == k1:
                s += 1 << 19
            s += hist[me, y] >> 4
            mv[ply, n] = y
            ms[ply, n] = s
            n += 1
    return n


@njit(cache=True, nogil=True, _nrt=False)
def _lmr(depth, moves, g) -> int:
    """Plies a late move is first searched shallower: ``(base + ln(depth) ln(moves) 100 / div) // 100``."""
    return np.int64((g[X0 + S_LMRBASE] + math.log(depth) * math.log(moves) * 100.0 / g[X0 + S_LMRDIV]) // 100)


@njit(cache=True, nogil=True, _nrt=False)
def _search(bd, ub, keys, cp, ci, g, near, pat, cmb, zob, un, hist, killers, mv, ms, pv,
            tt, vt, age, stop, depth, ply, alpha, beta) -> int:
    """Principal variation search from the side to move's view (fail-soft)."""
    g[NODES] += 1
    if ply > g[SELDEPTH]:
        g[SELDEPTH] = ply
    g[PVL + ply] = ply
    # the node limit at every node (a node-limited search stops at it exactly), the stop flag every 1024
    if (g[NODE_LIMIT] > 0 and g[NODES] >= g[NODE_LIMIT]) or ((g[NODES] & 1023) == 0 and stop[0] != 0):
        g[ABORT] = 1
    if g[ABORT] != 0:
        return 0
    me = g[STONES] & 1
    op = 1 - me
    size = g[P_SIZE]
    pure = g[P_PURE] != 0
    renju_black = g[P_RULE] == RENJU and me == 0
    if g[STONES] >= size * size:
        return 0
    pvnode = beta - alpha > 1
    if not pure:
        if g[CNT + me * NCLASS + C_FIVE] > 0:
            return WIN - ply - 1
        if g[CNT + op * NCLASS + C_FIVE] >= 2:
            return -(WIN - ply - 2)
        forced = -1
        if g[CNT + op * NCLASS + C_FIVE] == 1:
            forced = _find_class(bd, ci, g, op, C_FIVE)
            if renju_black and ci[forced, CI_MF] != 0 and _forbidden_at(ub, g, forced):
                return -(WIN - ply - 2)
        elif g[CNT + me * NCLASS + C_F4] > 0 and (not renju_black or _has_free_f4(bd, ub, ci, g, me)):
            return WIN - ply - 3
        if ply >= MAXPLY - 8:
            return _evaluate(g, me)
        # mate distance: nothing here can beat a win already found nearer the root
        if alpha >= WIN - ply - 1:
            return alpha
        if beta <= -(WIN - ply - 2):
            return beta
        if forced >= 0:
            _place(bd, ub, keys, cp, ci, g, near, pat, cmb, zob, un, forced, me + 1)
            v = -_search(bd, ub, keys, cp, ci, g, near, pat, cmb, zob, un, hist, killers, mv, ms, pv,
                         tt, vt, age, stop, depth, ply + 1, -beta, -alpha)
            _remove(bd, ub, keys, cp, ci, g, near, pat, cmb, zob, un, forced)
            pv[ply, ply] = forced
            for q in range(ply + 1, g[PVL + ply + 1]):
                pv[ply, q] = pv[ply + 1, q]
            g[PVL + ply] = max(g[PVL + ply + 1], ply + 1)
            return v
        if depth <= 0:
            if g[X0 + S_QFOURS] == 0:  # the static value, or the 4-3 point's VCF (as the quiescence would)
                if g[P_LEAFVCF] > 0 and g[CNT + me * NCLASS + C_B4F3] > 0:
                    used = g[VNODES]
                    v = _vcf(bd, ub, keys, cp, ci, g, near, pat, cmb, zob, un, mv, ms, pv, vt, stop, ply,
                             g[P_LEAFVCF])
                    if g[NODE_LIMIT] > 0:
                        g[NODE_LIMIT] -= g[VNODES] - used
                    if v > 0:
                        return v
                return _evaluate(g, me)
            g[NODES] -= 1  # the quiescence counts this node
            return _qs(bd, ub, keys, cp, ci, g, near, pat, cmb, zob, un, mv, ms, pv, vt, stop, ply, alpha, beta,
                       g[X0 + S_QFOURS])
    elif depth <= 0:
        return _evaluate(g, me)
    alpha0 = alpha
    key = np.uint64(g[KEY])
    ttmove = -1
    if not pure and ply <= g[P_TREEVCT] and depth >= g[X0 + S_TREEVCTD] and g[CNT + op * NCLASS + C_F4] == 0:
        # VCT near the root, once per position and search (an attempt is remembered in the threat table).
        # At a PV node of ply 1 (the opponent's reply to a root move that is or may become the best) a
        # deeper one with a budget of its own, started from open threes too: it is what keeps a root move
        # that allows a long VCT from being played.
        big = ply == 1 and pvnode
        threats = g[CNT + me * NCLASS + C_B4] + g[CNT + me * NCLASS + C_B4F3]
        if big:
            threats += g[CNT + me * NCLASS + C_F3] + g[CNT + me * NCLASS + C_F3F3]
        tk = np.uint64(g[KEY] ^ (BIG_VCT_SALT if big else TREE_VCT_SALT))
        if threats > 0 and tt_probe(vt, tk) < 0:
            budget = g[P_TREEVCTN]
            if big:
                g[P_TREEVCTN] = g[X0 + S_VCT1N]
            v = _tree_vct(bd, ub, keys, cp, ci, g, near, pat, cmb, zob, un, mv, ms, pv, vt, stop, ply)
            g[P_TREEVCTN] = budget
            tt_store(vt, tk, np.int64(0), UPPER, v, np.int64(-1), ply, np.int64(0))
            if g[ABORT] != 0:
                return 0
            if v > 0:
                _store_line(bd, ub, keys, cp, ci, g, near, pat, cmb, zob, un, pv, tt, age, ply, v)
                return v
    i = tt_probe(tt, key)
    if i >= 0:
        ttmove = tt[i, MOVE]
        if tt[i, DEPTH] >= depth and not pvnode:
            v = value_from_tt(tt[i, VALUE], ply)
            f = tt[i, FLAG]
            if f == EXACT or (f == LOWER and v >= beta) or (f == UPPER and v <= alpha):
                if ttmove >= 0:
                    pv[ply, ply] = ttmove
                    g[PVL + ply] = ply + 1
                return v
    threatened = not pure and _threatens(bd, ub, ci, g, op)
    static = 0
    if not pure and not threatened and not pvnode:
        static = _evaluate(g, me)
        if depth <= g[X0 + S_RFP] and static - g[X0 + S_RFPMARGIN] * depth >= beta \
                and beta > -WIN + 20000 and beta < WIN - 20000:
            return static
        if g[X0 + S_NMP] > 0 and depth >= g[X0 + S_NMP] and static >= beta and g[X0 + S_LASTNULL] != ply - 1 \
                and beta > -WIN + 20000 and beta < WIN - 20000 and g[CNT + op * NCLASS + C_B4F3] == 0:
            # null move: even if the opponent moves twice, beta holds (an extra stone never hurts in gomoku)
            last = g[X0 + S_LASTNULL]
            g[X0 + S_LASTNULL] = ply
            g[STONES] += 1
            g[KEY] ^= NULL_KEY
            v = -_search(bd, ub, keys, cp, ci, g, near, pat, cmb, zob, un, hist, killers, mv, ms, pv,
                         tt, vt, age, stop, depth - 1 - g[X0 + S_NMPR], ply + 1, -beta, -beta + 1)
            g[KEY] ^= NULL_KEY
            g[STONES] -= 1
            g[X0 + S_LASTNULL] = last
            if g[ABORT] != 0:
                return 0
            if v >= beta:
                return beta
    mode = 1 if pure else (2 if threatened else 0)
    n = _gen(bd, ci, near, g, hist, killers, me, ply, ttmove, mv, ms, mode)
    restricted = False
    if not pure and not threatened and g[X0 + S_NULLVCF] > 0 \
            and g[CNT + op * NCLASS + C_B4] + g[CNT + op * NCLASS + C_B4F3] > 0:
        # Would the opponent win by fours if we passed? Then only our own fours and the squares of that
        # VCF (its fours and their blocks) can stop it: the other moves are not searched.
        used = g[VNODES]
        g[STONES] += 1
        g[KEY] ^= NULL_KEY
        v = _vcf(bd, ub, keys, cp, ci, g, near, pat, cmb, zob, un, mv, ms, pv, vt, stop, ply + 1,
                 g[X0 + S_NULLVCF])
        g[KEY] ^= NULL_KEY
        g[STONES] -= 1
        if g[NODE_LIMIT] > 0:
            g[NODE_LIMIT] -= g[VNODES] - used
        if g[ABORT] != 0:
            return 0
        if v > 0:
            restricted = True
            m = 0
            for j in range(n):
                y = mv[ply, j]
                keep = ci[y, CI_CB + me] >= C_B4
                if not keep:
                    for q in range(ply + 1, g[PVL + ply + 1]):
                        if pv[ply + 1, q] == y:
                            keep = True
                            break
                if keep:
                    mv[ply, m] = y
                    ms[ply, m] = ms[ply, j]
                    m += 1
            n = m
            if n == 0:
                return -v  # nothing stops it
    best = -WIN - 1
    bestm = -1
    searched = 0
    lmr = not pure and g[X0 + S_LMR] != 0
    lmp = 0
    if not pure and not threatened and not restricted and depth <= g[X0 + S_LMP]:
        # move-count pruning: base + step * depth moves (half as many more at PV nodes), at most lmpmax
        lmp = min(g[X0 + S_LMPBASE] + g[X0 + S_LMPSTEP] * depth, g[X0 + S_LMPMAX])
        if pvnode:
            lmp += lmp // 2
    sub = 1
    if threatened and g[X0 + S_EXT3] != 0:
        sub = 0 if ply < 2 * depth + 4 else 1  # answering an open three uses no depth (not forever)
    for j in range(n):
        y = _pick(mv, ms, ply, j, n)
        if renju_black and ci[y, CI_MF] != 0 and _forbidden_at(ub, g, y):
            continue
        quiet = ci[y, CI_CB + me] < C_F3 and ci[y, CI_CB + op] < C_F3
        if lmp > 0 and searched >= lmp and best > -WIN + 20000 and ci[y, CI_CB + me] < g[X0 + S_LMPCLS] \
                and ci[y, CI_CB + op] < g[X0 + S_LMPCLS]:
            continue
        if pure and ci[y, CI_CB + me] == C_FIVE:
            v = WIN - ply - 1
            g[PVL + ply + 1] = ply + 1
        else:
            red = 0
            if lmr and depth >= g[X0 + S_LMRDEPTH] and searched >= 2 and not threatened:
                red = _lmr(depth, searched, g)
                if not quiet:
                    red -= 1
                if pvnode:
                    red -= 1
                if red > depth - 2:
                    red = depth - 2
                if red < 0:
                    red = 0
            if depth >= 2:
                tt_prefetch(tt, np.uint64(g[KEY] ^ zob[me, y]))
            _place(bd, ub, keys, cp, ci, g, near, pat, cmb, zob, un, y, me + 1)
            if searched == 0:
                v = -_search(bd, ub, keys, cp, ci, g, near, pat, cmb, zob, un, hist, killers, mv, ms, pv,
                             tt, vt, age, stop, depth - sub, ply + 1, -beta, -alpha)
            else:
                v = -_search(bd, ub, keys, cp, ci, g, near, pat, cmb, zob, un, hist, killers, mv, ms, pv,
                             tt, vt, age, stop, depth - sub - red, ply + 1, -alpha - 1, -alpha)
                if red > 0 and v > alpha:
                    v = -_search(bd, ub, keys, cp, ci, g, near, pat, cmb, zob, un, hist, killers, mv, ms, pv,
                                 tt, vt, age, stop, depth - sub, ply + 1, -alpha - 1, -alpha)
                if pvnode and alpha < v < beta:
                    v = -_search(bd, ub, keys, cp, ci, g, near, pat, cmb, zob, un, hist, killers, mv, ms, pv,
                                 tt, vt, age, stop, depth - sub, ply + 1, -beta, -alpha)
            _remove(bd, ub, keys, cp, ci, g, near, pat, cmb, zob, un, y)
        searched += 1
        if g[ABORT] != 0:
            return 0
        if v > best:
            best = v
            bestm = y
            if v > alpha:
                alpha = v
                pv[ply, ply] = y
                for q in range(ply + 1, g[PVL + ply + 1]):
                    pv[ply, q] = pv[ply + 1, q]
                g[PVL + ply] = max(g[PVL + ply + 1], ply + 1)
                if alpha >= beta:
                    if killers[ply, 0] != y:
                        killers[ply, 1] = killers[ply, 0]
                        killers[ply, 0] = y
                    hist[me, y] += depth * depth
                    break
    if searched == 0:
        return 0 if pure else _evaluate(g, me)
    flag = EXACT
    if best <= alpha0:
        flag = UPPER
    elif best >= beta:
        flag = LOWER
    tt_store(tt, key, depth, flag, best, bestm, ply, age)
    return best


@njit(cache=True, nogil=True, _nrt=False)
def _root(bd, ub, keys, cp, ci, g, near, pat, cmb, zob, un, hist, killers, mv, ms, pv,
          tt, vt, age, stop, depth, alpha, beta, excluded, prefer) -> int:
    """Search the root to ``depth`` within (alpha, beta), skipping ``excluded`` cells; PV in ``pv[0]``.

    ``prefer`` (the previous best move) is searched first, the others with a null window first.
    """
    g[NODES] += 1
    me = g[STONES] & 1
    op = 1 - me
    pure = g[P_PURE] != 0
    renju_black = g[P_RULE] == RENJU and me == 0
    g[PVL] = 0
    threatened = not pure and _threatens(bd, ub, ci, g, op)
    n = 0
    for mode in range(2):
        if mode == 0 and not pure:
            n = _gen(bd, ci, near, g, hist, killers, me, np.int64(0), prefer, mv, ms,
                     np.int64(2) if threatened else np.int64(0))
            if g[CNT + op * NCLASS + C_FIVE] == 1:
                f = _find_class(bd, ci, g, op, C_FIVE)
                m = 0
                for j in range(n):
                    y = mv[0, j]
                    if y == f or ci[y, CI_CB + me] == C_FIVE:
                        mv[0, m] = y
                        ms[0, m] = ms[0, j]
                        m += 1
                n = m
        elif mode == 1:
            n = _gen(bd, ci, near, g, hist, killers, me, np.int64(0), prefer, mv, ms, np.int64(1))
        usable = 0
        for j in range(n):
            y = mv[0, j]
            if excluded[y] == 0 and not (renju_black and ci[y, CI_MF] != 0 and _forbidden_at(ub, g, y)):
                mv[0, usable] = y
                ms[0, usable] = ms[0, j]
                usable += 1
        n = usable
        if n > 0:
            break
    if n == 0:
        return -WIN - 1
    best = -WIN - 1
    a = alpha
    for j in range(n):
        y = _pick(mv, ms, np.int64(0), j, n)
        if ci[y, CI_CB + me] == C_FIVE:
            v = WIN - 1
            g[PVL + 1] = 1
        else:
            _place(bd, ub, keys, cp, ci, g, near, pat, cmb, zob, un, y, me + 1)
            if j == 0:
                v = -_search(bd, ub, keys, cp, ci, g, near, pat, cmb, zob, un, hist, killers, mv, ms, pv,
                             tt, vt, age, stop, depth - 1, np.int64(1), -beta, -a)
            else:
                v = -_search(bd, ub, keys, cp, ci, g, near, pat, cmb, zob, un, hist, killers, mv, ms, pv,
                             tt, vt, age, stop, depth - 1, np.int64(1), -a - 1, -a)
                if a < v < beta:
                    v = -_search(bd, ub, keys, cp, ci, g, near, pat, cmb, zob, un, hist, killers, mv, ms, pv,
                                 tt, vt, age, stop, depth - 1, np.int64(1), -beta, -a)
            _remove(bd, ub, keys, cp, ci, g, near, pat, cmb, zob, un, y)
        if g[ABORT] != 0:
            return best
        if v > best:
            best = v
            pv[0, 0] = y
            for q in range(1, g[PVL + 1]):
                pv[0, q] = pv[1, q]
            g[PVL] = max(g[PVL + 1], 1)
            if v > a:
                a = v
                if a >= beta:
                    break
    if g[PVL] > 0:
        flag = EXACT
        if best <= alpha:
            flag = UPPER
        elif best >= beta:
            flag = LOWER
        tt_store(tt, np.uint64(g[KEY]), depth, flag, best, pv[0, 0], np.int64(0), age)
    return best
