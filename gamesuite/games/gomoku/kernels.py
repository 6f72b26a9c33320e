"""numba kernels of the gomoku engine: incremental patterns, alpha-beta (negamax / PVS / MTD(f)), VCF and VCT.

The board is padded with ``PAD`` cells of wall (3) on every side: a board cell
``(r, c)`` is the padded index ``(r + PAD) * P + c + PAD`` with ``P = size + 2 * PAD``.
For every padded cell and direction ``keys[y, d]`` packs the ternary indices of
the line of ten neighbours as black sees it (low 32 bits) and as white sees it
(high 32 bits; ``patterns.ternary_tables``); ``cp[y, colour]`` caches the pattern
that colour would make there in each direction, one nibble a direction, which
indexes the combination table directly (``combo_nibbles``); ``ci`` holds, per
colour, the cell's *value* (for ordering and evaluation) and *class* (its
strongest threat, ``C_*`` below); ``cnt`` counts empty cells per colour and class,
and ``g[TOT_B]``/``g[TOT_W]`` sum the values. ``_place`` updates all of it for the
40 cells within five of the move: there is never a full-board rescan per node.
It writes what it changes into an undo frame (``un[stones before the move]``), so
``_remove``, which always takes back the last stone placed, only reverses the keys
and copies the old patterns, values, classes and counts back.

Colour indices inside the kernels are 0 (black) and 1 (white); stones on the
board are 1 and 2. The side to move is black when the stone count is even.

The plain-Python references are ``reference.py`` (cell patterns, values and the
evaluation from scratch) and ``gamesuite.search.reference`` (plain alpha-beta,
which the searches equal in ``pure`` mode); the tests compare them with these
kernels. VCF/VCT results are checked by replaying their lines with the rules.

The kernels are compiled with ``_nrt=False`` (besides ``cache=True, nogil=True``):
they allocate nothing, and without numba's runtime every call no longer takes and
drops a reference on each of its array arguments, which cost about a third of the
search time (the same trees search about 1.5 times as many nodes per second).
Callees inherit the setting, so every kernel the search calls (``renju._is_forbidden``,
``search.tt``) must be allocation-free too.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...core.score import WIN
from ...search.tt import DEPTH, EXACT, FLAG, LOWER, MOVE, UPPER, VALUE, tt_prefetch, tt_probe, tt_store, value_from_tt
from . import patterns as pt
from .renju import _is_forbidden

PAD = 5
MAXPLY = 128
NPAT = 12
POW3 = np.array([3**j for j in range(10)], dtype=np.int64)
#: ``keys[y, d]`` packs the ternary line index black sees (low 32 bits) and white sees (high 32 bits);
#: a stone adds ``3**j`` times these (1 for its own colour, 2 for the other).
KEY_MUL_B = np.int64(1 + (2 << 32))
KEY_MUL_W = np.int64(2 + (1 << 32))
KEY_MASK = np.int64(0xFFFFFFFF)

# cell classes (per colour): the strongest threat a stone there makes
C_NONE, C_LOW, C_F2, C_B3, C_F3, C_F3F3, C_B4, C_B4F3, C_F4, C_FIVE = range(10)
NCLASS = 10

# ci columns
CI_VB, CI_VW, CI_CB, CI_CW, CI_MF = range(5)

# undo frame slots (``un[stones before the move]``): the stone's cell, its ci row, the class counts,
# the totals, how many cells changed, then two slots per changed cell
U_X, U_N = 0, 1
U_CI = 2
U_CNT = U_CI + 5
U_TOT = U_CNT + 2 * NCLASS
U_REC = U_TOT + 2
U_SIZE = U_REC + 2 * 40

# g (globals) slots
TOT_B, TOT_W, KEY, STONES, NODES, SELDEPTH, ABORT, NODE_LIMIT, VNODES, LVNODES, VTNODES, VT_LIMIT, VT_OUT = range(13)
G_SIZE = 16

# parameters, in g after the counters (one array fewer in every call)
(P_P, P_SIZE, P_RULE, P_TOP, P_ALGO, P_D0, P_D1, P_D2, P_D3, P_PURE, P_LEAFVCF, P_VCFDEPTH, P_LMR, P_TREEVCT,
 P_TREEVCTT, P_TREEVCTN, P_TAPER, P_TOPMIN, P_TAPERFROM, P_WIDE, P_WIDEPLY,
 P_TEMPO, P_VCT3, P_VCT3MAX) = range(G_SIZE, G_SIZE + 24)
PRM_SIZE = 24
#: then the count of empty cells by colour and class (``g[CNT + colour * NCLASS + class]``) and the
#: principal variation's length at each ply (``g[PVL + ply]``)
CNT = G_SIZE + PRM_SIZE
NCOUNT = 2 * NCLASS
PVL = CNT + NCOUNT

G_ALL = PVL + MAXPLY

ALGO_NEGAMAX, ALGO_PVS, ALGO_MTDF = 0, 1, 2
RENJU = 2

#: Value of one direction's pattern for the cell value (index: patterns.NONE .. patterns.OL), then the
#: bonuses of a double four, a 4-3 and a 3-3 cell (see ``combo_table``): the weights tuned by SPSA in
#: self-play (docs/gomoku.md, "Tuning the evaluation weights"); the engine's ``weights=classic`` preset
#: keeps the hand-set ones they started from.
WEIGHTS = np.array([0, 1, 4, 8, 21, 24, 110, 151, 906, 500, 3000, 0, 600, 481, 174], dtype=np.int64)
#: The engine option that sets each of ``WEIGHTS`` (``w_f3=90``); ``none`` has no option (always 0).
WEIGHT_NAMES = ("none", "b1", "f1", "b2", "f2", "b3", "f3", "b4", "f4", "df4", "five", "overline", "44", "43", "33")


@njit(cache=True, nogil=True, _nrt=False)
def _combine(p0, p1, p2, p3, wts, out) -> None:
    """Value, class and maybe-forbidden flag of a cell from its four patterns (into ``out[0:3]``)."""
    n5 = 0  # lines that make five
    nol = 0  # overlines
    n4 = 0  # lines with a four (B4, F4 or DF4)
    nopen = 0  # lines with two five points (F4 or DF4)
    ndf = 0  # lines with two separate fours (DF4)
    n3 = 0
    nb3 = 0
    n2 = 0
    val = wts[p0] + wts[p1] + wts[p2] + wts[p3]
    for k in range(4):
        p = p0 if k == 0 else (p1 if k == 1 else (p2 if k == 2 else p3))
        if p == pt.FIVE:
            n5 += 1
        elif p == pt.OL:
            nol += 1
        elif p == pt.DF4:
            ndf += 1
            nopen += 1
            n4 += 1
        elif p == pt.F4:
            nopen += 1
            n4 += 1
        elif p == pt.B4:
            n4 += 1
        elif p == pt.F3:
            n3 += 1
        elif p == pt.B3:
            nb3 += 1
        elif p == pt.F2:
            n2 += 1
    if n5 > 0:
        cls = C_FIVE
    elif nopen > 0 or n4 >= 2:
        cls = C_F4
        if nopen == 0:
            val += wts[NPAT]
    elif n4 == 1 and n3 >= 1:
        cls = C_B4F3
        val += wts[NPAT + 1]
    elif n4 == 1:
        cls = C_B4
    elif n3 >= 2:
        cls = C_F3F3
        val += wts[NPAT + 2]
    elif n3 == 1:
        cls = C_F3
    elif nb3 > 0 or n2 >= 2:
        cls = C_B3
    elif n2 == 1:
        cls = C_F2
    elif val > 0:
        cls = C_LOW
    else:
        cls = C_NONE
    out[0] = val
    out[1] = cls
    # for black under renju: an overline, a double four or a double three may be forbidden
    out[2] = 1 if n5 == 0 and (nol > 0 or ndf > 0 or n4 >= 2 or n3 >= 2) else 0


@njit(cache=True, nogil=True)
def _build_combos(wts, out) -> None:
    """``out[i]`` packs (value, class, maybe-forbidden) for every index ``i = ((p0*12+p1)*12+p2)*12+p3``."""
    tmp = np.empty(3, dtype=np.int64)
    for i in range(NPAT ** 4):
        _combine(np.int64(i // (NPAT ** 3)), np.int64((i // (NPAT ** 2)) % NPAT), np.int64((i // NPAT) % NPAT),
                 np.int64(i % NPAT), wts, tmp)
        out[i] = tmp[0] | (tmp[1] << 16) | (tmp[2] << 20)


def combo_nibbles(cmb: np.ndarray) -> np.ndarray:
    """``combo_table`` indexed by the four patterns as nibbles, ``p0 | p1 << 4 | p2 << 8 | p3 << 12``
    (the kernels' ``cp`` keeps each colour's four patterns so), zero where a nibble is no pattern."""
    out = np.zeros(1 << 16, dtype=np.int32)
    p = np.arange(NPAT)
    p0, p1, p2, p3 = np.meshgrid(p, p, p, p, indexing="ij")
    out[(p0 | p1 << 4 | p2 << 8 | p3 << 12).ravel()] = cmb[(((p0 * NPAT + p1) * NPAT + p2) * NPAT + p3).ravel()]
    return out


def combo_table(weights: np.ndarray | None = None) -> np.ndarray:
    """Every combination of four direction patterns: ``value | class << 16 | maybe_forbidden << 20``.

    ``weights``: the value of each pattern (``NPAT``) and the three class bonuses, as ``WEIGHTS``
    (the default); a cell's value must stay below 2**16.
    """
    w = WEIGHTS if weights is None else np.asarray(weights, dtype=np.int64)
    if w.shape != WEIGHTS.shape or w.min() < 0 or 4 * int(w[:NPAT].max()) + int(w[NPAT:].max()) >= 1 << 16:
        raise ValueError(f"combination weights must be {WEIGHTS.shape[0]} non-negative values with a cell value "
                         f"below 65536, got {list(w)!r}")
    out = np.zeros(NPAT ** 4, dtype=np.int32)
    _build_combos(w, out)
    return out


@njit(cache=True, nogil=True, inline="always")
def _refresh(y, ci, cp, g, cmb, rule) -> None:
    """Recompute cell ``y``'s value/class from its cached patterns (``y`` is empty and counted)."""
    for c in range(2):
        e = cmb[cp[y, c]]
        val = e & 0xFFFF
        cls = (e >> 16) & 15
        g[CNT + c * NCLASS + ci[y, CI_CB + c]] -= 1
        g[CNT + c * NCLASS + cls] += 1
        g[TOT_B + c] += val - ci[y, CI_VB + c]
        ci[y, CI_VB + c] = val
        ci[y, CI_CB + c] = cls
        if c == 0:
            ci[y, CI_MF] = (e >> 20) & 1 if rule == RENJU else 0


@njit(cache=True, nogil=True, _nrt=False)
def _lines(bd, keys, cp, ci, g, pat, cmb, un, f, rule, x, cs) -> int:
    """Add a stone of colour ``cs`` at ``x`` to the lines of the 40 cells within five of it, refreshing
    the empty cells whose patterns change; each such cell's old patterns and value go to the undo
    frame ``un[f]`` (from ``U_REC``, two slots a cell). Returns how many cells were recorded."""
    other = 1 - cs
    mul = KEY_MUL_B if cs == 0 else KEY_MUL_W
    nrec = 0
    dt0 = 0
    dt1 = 0
    for d in range(4):
        off = g[P_D0 + d]
        for side in range(2):
            for k in range(1, 6):
                if side == 0:
                    y = x - k * off
                    delta = POW3[k + 4]
                else:
                    y = x + k * off
                    delta = POW3[5 - k]
                kk = keys[y, d] + delta * mul
                keys[y, d] = kk
                if bd[y] != 0 or (k == 5 and rule == 0):
                    continue  # (under freestyle the fifth neighbour never changes a pattern)
                a = np.int64(pat[cs, (kk >> (32 * cs)) & KEY_MASK])
                b = np.int64(pat[other, (kk >> (32 * other)) & KEY_MASK])
                sh = 4 * d
                pa = cp[y, cs]
                pb = cp[y, other]
                oa = (pa >> sh) & 15
                ob = (pb >> sh) & 15
                if a == oa and b == ob:
                    continue
                old0 = ci[y, CI_VB]
                old1 = ci[y, CI_VW]
                ocb = ci[y, CI_CB]
                ocw = ci[y, CI_CW]
                r = U_REC + 2 * nrec
                un[f, r] = y | (cp[y, 0] << 12) | (cp[y, 1] << 28) | (ocb << 44) | (ocw << 48) | (ci[y, CI_MF] << 52)
                un[f, r + 1] = old0 | (old1 << 24)
                nrec += 1
                cp[y, cs] = (pa & ~(15 << sh)) | (a << sh)
                cp[y, other] = (pb & ~(15 << sh)) | (b << sh)
                # (each colour's value and class, only where that colour's pattern changed)
                if (a != oa and cs == 0) or (b != ob and cs == 1):
                    e = cmb[cp[y, 0]]
                    val = e & 0xFFFF
                    cls = (e >> 16) & 15
                    if cls != ocb:
                        g[CNT + ocb] -= 1
                        g[CNT + cls] += 1
                        ci[y, CI_CB] = cls
                    dt0 += val - old0
                    ci[y, CI_VB] = val
                    ci[y, CI_MF] = (e >> 20) & 1 if rule == RENJU else 0
                if (a != oa and cs == 1) or (b != ob and cs == 0):
                    e = cmb[cp[y, 1]]
                    val = e & 0xFFFF
                    cls = (e >> 16) & 15
                    if cls != ocw:
                        g[CNT + NCLASS + ocw] -= 1
                        g[CNT + NCLASS + cls] += 1
                        ci[y, CI_CW] = cls
                    dt1 += val - old1
                    ci[y, CI_VW] = val
    g[TOT_B] += dt0
    g[TOT_W] += dt1
    return nrec


@njit(cache=True, nogil=True, _nrt=False)
def _place(bd, ub, keys, cp, ci, g, near, pat, cmb, zob, un, x, stone) -> None:
    """Put ``stone`` (1 or 2) on the empty padded cell ``x`` and update everything; what it changes is
    kept in the undo frame ``un[stones before]`` for ``_remove``."""
    P = g[P_P]
    f = g[STONES]
    bd[x] = stone
    ub[(x // P - PAD) * g[P_SIZE] + x % P - PAD] = stone
    g[KEY] ^= zob[stone - 1, x]
    g[STONES] += 1
    un[f, U_X] = x
    for j in range(5):
        un[f, U_CI + j] = ci[x, j]
    for k in range(NCOUNT):
        un[f, U_CNT + k] = g[CNT + k]
    un[f, U_TOT] = g[TOT_B]
    un[f, U_TOT + 1] = g[TOT_W]
    for c in range(2):
        g[CNT + c * NCLASS + ci[x, CI_CB + c]] -= 1
        g[TOT_B + c] -= ci[x, CI_VB + c]
        ci[x, CI_VB + c] = 0
        ci[x, CI_CB + c] = 0
    ci[x, CI_MF] = 0
    un[f, U_N] = _lines(bd, keys, cp, ci, g, pat, cmb, un, f, g[P_RULE], x, stone - 1)
    for dr in range(-2, 3):
        for dc in range(-2, 3):
            near[x + dr * P + dc] += 1


@njit(cache=True, nogil=True, _nrt=False)
def _remove(bd, ub, keys, cp, ci, g, near, pat, cmb, zob, un, x) -> None:
    """Take back the last stone placed (on the padded cell ``x``), restoring everything from its undo frame."""
    P = g[P_P]
    stone = bd[x]
    bd[x] = 0
    ub[(x // P - PAD) * g[P_SIZE] + x % P - PAD] = 0
    g[KEY] ^= zob[stone - 1, x]
    g[STONES] -= 1
    f = g[STONES]
    mul = KEY_MUL_B if stone == 1 else KEY_MUL_W
    for d in range(4):
        off = g[P_D0 + d]
        for k in range(1, 6):
            keys[x - k * off, d] -= POW3[k + 4] * mul
            keys[x + k * off, d] -= POW3[5 - k] * mul
    for j in range(un[f, U_N]):
        r0 = un[f, U_REC + 2 * j]
        r1 = un[f, U_REC + 2 * j + 1]
        y = r0 & 0xFFF
        cp[y, 0] = (r0 >> 12) & 0xFFFF
        cp[y, 1] = (r0 >> 28) & 0xFFFF
        ci[y, CI_CB] = (r0 >> 44) & 15
        ci[y, CI_CW] = (r0 >> 48) & 15
        ci[y, CI_MF] = (r0 >> 52) & 1
        ci[y, CI_VB] = r1 & 0xFFFFFF
        ci[y, CI_VW] = r1 >> 24
    for j in range(5):
        ci[x, j] = un[f, U_CI + j]
    for k in range(NCOUNT):
        g[CNT + k] = un[f, U_CNT + k]
    g[TOT_B] = un[f, U_TOT]
    g[TOT_W] = un[f, U_TOT + 1]
    for dr in range(-2, 3):
        for dc in range(-2, 3):
            near[x + dr * P + dc] -= 1


@njit(cache=True, nogil=True, _nrt=False)
def _evaluate(g, me) -> int:
    """Static value for the side to move ``me`` (0 black, 1 white): own potential (weighted ``g[P_TEMPO]``
    sixteenths, 20 by default: 5:4) minus the other's."""
    mine = g[TOT_B + me]
    theirs = g[TOT_B + 1 - me]
    return (g[P_TEMPO] * mine - 16 * theirs) // 16


@njit(cache=True, nogil=True, _nrt=False)
def _forbidden_at(ub, g, y) -> bool:
    P = g[P_P]
    size = g[P_SIZE]
    return _is_forbidden(ub, size, np.int64((y // P - PAD) * size + y % P - PAD), np.int64(0))


@njit(cache=True, nogil=True, _nrt=False)
def _find_class(bd, ci, g, colour, cls) -> int:
    """The first empty board cell whose class for ``colour`` is ``cls`` (or -1)."""
    P = g[P_P]
    size = g[P_SIZE]
    for r in range(size):
        base = (r + PAD) * P + PAD
        for c in range(size):
            y = base + c
            if bd[y] == 0 and ci[y, CI_CB + colour] == cls:
                return y
    return -1


@njit(cache=True, nogil=True, _nrt=False)
def _has_free_f4(bd, ub, ci, g, colour) -> bool:
    """Whether ``colour`` has a non-forbidden F4-class cell (forbidden matters for black in renju)."""
    P = g[P_P]
    size = g[P_SIZE]
    for r in range(size):
        base = (r + PAD) * P + PAD
        for c in range(size):
            y = base + c
            if bd[y] == 0 and ci[y, CI_CB + colour] == C_F4:
                if colour == 1 or g[P_RULE] != RENJU or ci[y, CI_MF] == 0 or not _forbidden_at(ub, g, y):
                    return True
    return False


@njit(cache=True, nogil=True, _nrt=False)
def _threatens(bd, ub, ci, g, colour) -> bool:
    """Whether ``colour`` has a playable open-four point (an open three or better to answer)."""
    if g[CNT + colour * NCLASS + C_F4] == 0:
        return False
    if colour == 0 and g[P_RULE] == RENJU:
        return _has_free_f4(bd, ub, ci, g, colour)
    return True


@njit(cache=True, nogil=True, inline="always")
def _threat_score(ci, y, me, op) -> int:
    """An empty cell's static order score for ``me``: its cell values and the squares of both sides' classes."""
    cm = ci[y, CI_CB + me]
    co = ci[y, CI_CB + op]
    return 4 * ci[y, CI_VB + me] + 3 * ci[y, CI_VB + op] + (cm * cm + co * co) * 64


@njit(cache=True, nogil=True, _nrt=False)
def _gen(bd, ci, near, g, hist, killers, me, ply, ttmove, mv, ms, mode) -> int:
    """Candidate moves of ``me`` at ``ply`` into ``mv[ply]`` with scores in ``ms[ply]``; returns how many.

    ``mode`` 0: cells within two of a stone; 1: every empty cell (pure mode and fallbacks);
    2: cells within two of a stone that defend against an open-four point of the opponent
    (its four points) or make a four of our own.
    """
    P = g[P_P]
    size = g[P_SIZE]
    op = 1 - me
    defence = mode == 2
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
            if defence and cm < C_B4 and co < C_B4:
                continue
            s = _threat_score(ci, y, me, op)
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
def _pick(mv, ms, ply, i, n) -> int:
    """Move the best-scored of ``mv[ply, i:n]`` to position ``i`` and return it."""
    b = i
    for j in range(i + 1, n):
        if ms[ply, j] > ms[ply, b]:
            b = j
    if b != i:
        t = mv[ply, i]
        mv[ply, i] = mv[ply, b]
        mv[ply, b] = t
        t = ms[ply, i]
        ms[ply, i] = ms[ply, b]
        ms[ply, b] = t
    return mv[ply, i]


@njit(cache=True, nogil=True, _nrt=False)
def _vcf(bd, ub, keys, cp, ci, g, near, pat, cmb, zob, un, mv, ms, pv, vt, stop, ply, left) -> int:
    """Victory by continuous fours for the side to move: ``WIN - plies`` or 0 when none within ``left`` fours."""
    g[VNODES] += 1
    g[PVL + ply] = ply
    if (g[VNODES] & 1023) == 0 and stop[0] != 0:
        g[ABORT] = 1
    if g[ABORT] != 0 or ply >= MAXPLY - 4:
        return 0
    me = g[STONES] & 1
    op = 1 - me
    renju_black = g[P_RULE] == RENJU and me == 0
    if g[CNT + me * NCLASS + C_FIVE] > 0:
        y = _find_class(bd, ci, g, me, C_FIVE)
        pv[ply, ply] = y
        g[PVL + ply] = ply + 1
        return WIN - ply - 1
    if g[CNT + op * NCLASS + C_FIVE] >= 2:
        return 0
    forced = -1
    if g[CNT + op * NCLASS + C_FIVE] == 1:
        forced = _find_class(bd, ci, g, op, C_FIVE)
        if ci[forced, CI_CB + me] < C_B4:
            return 0
        if renju_black and ci[forced, CI_MF] != 0 and _forbidden_at(ub, g, forced):
            return 0
    elif g[CNT + me * NCLASS + C_F4] > 0:
        if not renju_black or _has_free_f4(bd, ub, ci, g, me):
            P = g[P_P]
            size = g[P_SIZE]
            for r in range(size):
                for c in range(size):
                    y = (r + PAD) * P + PAD + c
                    if bd[y] == 0 and ci[y, CI_CB + me] == C_F4 and (
                            not renju_black or ci[y, CI_MF] == 0 or not _forbidden_at(ub, g, y)):
                        pv[ply, ply] = y
                        g[PVL + ply] = ply + 1
                        return WIN - ply - 3
    if left <= 0:
        return 0
    key = np.uint64(g[KEY])
    i = tt_probe(vt, key)
    if i >= 0 and vt[i, DEPTH] >= left:
        return 0  # only failures are stored
    n = 0
    if forced >= 0:
        mv[ply, 0] = forced
        ms[ply, 0] = 0
        n = 1
    else:
        P = g[P_P]
        size = g[P_SIZE]
        for r in range(size):
            base = (r + PAD) * P + PAD
            for c in range(size):
                y = base + c
                if bd[y] == 0 and ci[y, CI_CB + me] >= C_B4:
                    mv[ply, n] = y
                    ms[ply, n] = ci[y, CI_VB + me] + ci[y, CI_CB + me] * 1000
                    n += 1
    for j in range(n):
        y = _pick(mv, ms, ply, j, n)
        if renju_black and ci[y, CI_MF] != 0 and _forbidden_at(ub, g, y):
            continue
        _place(bd, ub, keys, cp, ci, g, near, pat, cmb, zob, un, y, me + 1)
        v = 0
        if g[CNT + op * NCLASS + C_FIVE] > 0:
            v = 0  # the defender makes five first
        elif g[CNT + me * NCLASS + C_FIVE] >= 2:
            v = WIN - ply - 3  # a double four: the line ends with it
            g[PVL + ply + 1] = ply + 1
        elif g[CNT + me * NCLASS + C_FIVE] == 1:
            b = _find_class(bd, ci, g, me, C_FIVE)
            if op == 0 and g[P_RULE] == RENJU and ci[b, CI_MF] != 0 and _forbidden_at(ub, g, b):
                v = WIN - ply - 3  # black cannot block on a forbidden point
                g[PVL + ply + 1] = ply + 1
            else:
                _place(bd, ub, keys, cp, ci, g, near, pat, cmb, zob, un, b, op + 1)
                v = _vcf(bd, ub, keys, cp, ci, g, near, pat, cmb, zob, un, mv, ms, pv, vt, stop,
                         ply + 2, left - 1)
                _remove(bd, ub, keys, cp, ci, g, near, pat, cmb, zob, un, b)
                pv[ply + 1, ply + 1] = b
                for q in range(ply + 2, g[PVL + ply + 2]):
                    pv[ply + 1, q] = pv[ply + 2, q]
                g[PVL + ply + 1] = g[PVL + ply + 2]
        _remove(bd, ub, keys, cp, ci, g, near, pat, cmb, zob, un, y)
        if g[ABORT] != 0:
            return 0
        if v > 0:
            pv[ply, ply] = y
            for q in range(ply + 1, g[PVL + ply + 1]):
                pv[ply, q] = pv[ply + 1, q]
            g[PVL + ply] = g[PVL + ply + 1]
            return v
    tt_store(vt, key, left, UPPER, 0, -1, ply, 0)
    return 0


@njit(cache=True, nogil=True, _nrt=False)
def _search(bd, ub, keys, cp, ci, g, near, pat, cmb, zob, un, hist, killers, mv, ms, pv,
            tt, vt, age, stop, depth, ply, alpha, beta) -> int:
    """Alpha-beta (fail-soft negamax; PVS when ``g[P_ALGO]`` says so) from the side to move's view."""
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
    rule = g[P_RULE]
    renju_black = rule == RENJU and me == 0
    if g[STONES] >= size * size:
        return 0
    forced = -1
    if not pure:
        if g[CNT + me * NCLASS + C_FIVE] > 0:
            return WIN - ply - 1
        if g[CNT + op * NCLASS + C_FIVE] >= 2:
            return -(WIN - ply - 2)
        if g[CNT + op * NCLASS + C_FIVE] == 1:
            forced = _find_class(bd, ci, g, op, C_FIVE)
            if renju_black and ci[forced, CI_MF] != 0 and _forbidden_at(ub, g, forced):
                return -(WIN - ply - 2)
        elif g[CNT + me * NCLASS + C_F4] > 0 and (not renju_black or _has_free_f4(bd, ub, ci, g, me)):
            return WIN - ply - 3
        if ply >= MAXPLY - 4:
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
        if not pure and g[P_LEAFVCF] > 0 and g[CNT + me * NCLASS + C_B4F3] > 0:
            v = _vcf(bd, ub, keys, cp, ci, g, near, pat, cmb, zob, un, mv, ms, pv, vt, stop,
                     ply, g[P_LEAFVCF])
            if v > 0:
                return v
        return _evaluate(g, me)
    alpha0 = alpha
    ttmove = -1
    key = np.uint64(g[KEY])
    budget = _tree_vct_budget(g, me, op, ply) if not pure and depth >= 2 else 0
    if budget > 0:
        # VCT near the root, once per position and search (an attempt is remembered in the threat table)
        tk = np.uint64(g[KEY] ^ TREE_VCT_SALT)
        if tt_probe(vt, tk) < 0:
            v = _tree_vct(bd, ub, keys, cp, ci, g, near, pat, cmb, zob, un, mv, ms, pv, vt, stop, ply, budget)
            tt_store(vt, tk, np.int64(0), UPPER, v, np.int64(-1), ply, np.int64(0))
            if g[ABORT] != 0:
                return 0
            if v > 0:
                _store_line(bd, ub, keys, cp, ci, g, near, pat, cmb, zob, un, pv, tt, age, ply, v)
                return v
    i = tt_probe(tt, key)
    if i >= 0:
        ttmove = tt[i, MOVE]
        if tt[i, DEPTH] >= depth:
            v = value_from_tt(tt[i, VALUE], ply)
            f = tt[i, FLAG]
            if f == EXACT or (f == LOWER and v >= beta) or (f == UPPER and v <= alpha):
                if ttmove >= 0:
                    pv[ply, ply] = ttmove
                    g[PVL + ply] = ply + 1
                return v
    threatened = not pure and _threatens(bd, ub, ci, g, op)
    mode = 1 if pure else (2 if threatened else 0)
    top = g[P_TOP]
    if top > 0 and g[P_TAPER] > 0 and g[CNT + op * NCLASS + C_B4F3] + g[CNT + op * NCLASS + C_F3F3] == 0:
        # a narrower search deeper in the tree: ``taper`` moves fewer per ply, down to ``topmin``
        # (not where the opponent threatens a 4-3 or a 3-3: the defence may be ordered late)
        top = max(top - g[P_TAPER] * max(ply - g[P_TAPERFROM], 0), g[P_TOPMIN])
    if top > 0 and ply < g[P_WIDEPLY] and g[P_WIDE] > top:
        top = g[P_WIDE]  # a wider search near the root (``wide``, ``wideply``)
    n = _gen(bd, ci, near, g, hist, killers, me, ply, ttmove, mv, ms, mode)
    limit = n
    if not pure and top > 0 and not threatened and n > top:
        limit = top
    best = -WIN - 1
    bestm = -1
    searched = 0
    algo = g[P_ALGO]
    lmr = 0 if pure else g[P_LMR]
    for j in range(n):
        if searched >= limit:
            break
        y = _pick(mv, ms, ply, j, n)
        if renju_black and ci[y, CI_MF] != 0 and _forbidden_at(ub, g, y):
            continue
        if pure and ci[y, CI_CB + me] == C_FIVE:
            v = WIN - ply - 1
            g[PVL + ply + 1] = ply + 1
        else:
            # late move reduction: a quiet move late in the order is searched one ply shallower first
            red = 0
            if lmr > 0 and searched >= lmr and depth >= 3 and not threatened and ci[y, CI_CB + me] < C_F3 \
                    and ci[y, CI_CB + op] < C_F3:
                red = 1
            if depth >= 2:
                tt_prefetch(tt, np.uint64(g[KEY] ^ zob[me, y]))  # the child probes it after the move
            _place(bd, ub, keys, cp, ci, g, near, pat, cmb, zob, un, y, me + 1)
            v = alpha + 1
            if red > 0:
                v = -_search(bd, ub, keys, cp, ci, g, near, pat, cmb, zob, un, hist, killers, mv, ms, pv,
                             tt, vt, age, stop, depth - 1 - red, ply + 1, -alpha - 1, -alpha)
            if v > alpha:
                if algo == ALGO_PVS and searched > 0:
                    v = -_search(bd, ub, keys, cp, ci, g, near, pat, cmb, zob, un, hist, killers, mv, ms, pv,
                                 tt, vt, age, stop, depth - 1, ply + 1, -alpha - 1, -alpha)
                    if alpha < v < beta:
                        v = -_search(bd, ub, keys, cp, ci, g, near, pat, cmb, zob, un, hist, killers, mv, ms,
                                     pv, tt, vt, age, stop, depth - 1, ply + 1, -beta, -alpha)
                else:
                    v = -_search(bd, ub, keys, cp, ci, g, near, pat, cmb, zob, un, hist, killers, mv, ms, pv,
                                 tt, vt, age, stop, depth - 1, ply + 1, -beta, -alpha)
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
def _split_open(bd, ub, keys, cp, ci, g, near, pat, cmb, zob, un, hist, killers, mv, ms, pv,
                tt, vt, age, stop, depth, ply, alpha, beta) -> tuple:
    """Open a node of ``_search`` whose moves several threads will share: ``(status, value, count)``.

    Status 0: a node to leave to ``_search`` (a five or a four on the board, the horizon, a mate
    distance bound), nothing done. Status 2: counted and answered (the table, a VCT) with ``value``,
    its line in ``pv[ply]``. Status 3: counted, the one reply to the opponent's five is ``value``,
    to be searched at the same depth. Status 1: counted, and the moves ``_search`` would try are in
    ``mv[ply, :count]`` in its order, with ``ms[ply, j]`` the plies move ``j`` is first searched
    shallower (late move reduction).

    This repeats the opening of ``_search`` line for line on purpose: ``_search``'s speed hangs on
    its machine code (docs/gomoku.md, "Node speed"), so it is not split to share it; a test keeps
    the two in step (one worker through the shared passes searches exactly ``_search``'s tree).
    """
    me = g[STONES] & 1
    op = 1 - me
    pure = g[P_PURE] != 0
    renju_black = g[P_RULE] == RENJU and me == 0
    if depth < 2 or ply >= MAXPLY - 4 or g[STONES] >= g[P_SIZE] * g[P_SIZE]:
        return 0, 0, 0
    forced = -1
    if not pure:
        if g[CNT + me * NCLASS + C_FIVE] > 0 or g[CNT + op * NCLASS + C_FIVE] >= 2:
            return 0, 0, 0
        if g[CNT + op * NCLASS + C_FIVE] == 1:
            forced = _find_class(bd, ci, g, op, C_FIVE)
            if renju_black and ci[forced, CI_MF] != 0 and _forbidden_at(ub, g, forced):
                return 0, 0, 0
        elif g[CNT + me * NCLASS + C_F4] > 0:
            return 0, 0, 0
        if alpha >= WIN - ply - 1 or beta <= -(WIN - ply - 2):
            return 0, 0, 0
    g[NODES] += 1
    if ply > g[SELDEPTH]:
        g[SELDEPTH] = ply
    g[PVL + ply] = ply
    if forced >= 0:
        return 3, forced, 0
    budget = _tree_vct_budget(g, me, op, ply) if not pure else 0
    if budget > 0:
        tk = np.uint64(g[KEY] ^ TREE_VCT_SALT)
        if tt_probe(vt, tk) < 0:
            v = _tree_vct(bd, ub, keys, cp, ci, g, near, pat, cmb, zob, un, mv, ms, pv, vt, stop, ply, budget)
            tt_store(vt, tk, np.int64(0), UPPER, v, np.int64(-1), ply, np.int64(0))
            if g[ABORT] != 0:
                return 2, 0, 0
            if v > 0:
                _store_line(bd, ub, keys, cp, ci, g, near, pat, cmb, zob, un, pv, tt, age, ply, v)
                return 2, v, 0
    ttmove = -1
    i = tt_probe(tt, np.uint64(g[KEY]))
    if i >= 0:
        ttmove = tt[i, MOVE]
        if tt[i, DEPTH] >= depth:
            v = value_from_tt(tt[i, VALUE], ply)
            f = tt[i, FLAG]
            if f == EXACT or (f == LOWER and v >= beta) or (f == UPPER and v <= alpha):
                if ttmove >= 0:
                    pv[ply, ply] = ttmove
                    g[PVL + ply] = ply + 1
                return 2, v, 0
    threatened = not pure and _threatens(bd, ub, ci, g, op)
    mode = 1 if pure else (2 if threatened else 0)
    top = g[P_TOP]
    if top > 0 and g[P_TAPER] > 0 and g[CNT + op * NCLASS + C_B4F3] + g[CNT + op * NCLASS + C_F3F3] == 0:
        top = max(top - g[P_TAPER] * max(ply - g[P_TAPERFROM], 0), g[P_TOPMIN])
    if top > 0 and ply < g[P_WIDEPLY] and g[P_WIDE] > top:
        top = g[P_WIDE]  # a wider search near the root (``wide``, ``wideply``)
    n = _gen(bd, ci, near, g, hist, killers, me, ply, ttmove, mv, ms, mode)
    limit = n
    if not pure and top > 0 and not threatened and n > top:
        limit = top
    lmr = 0 if pure else g[P_LMR]
    count = 0
    for j in range(n):
        if count >= limit:
            break
        y = _pick(mv, ms, ply, j, n)
        if renju_black and ci[y, CI_MF] != 0 and _forbidden_at(ub, g, y):
            continue
        red = 0
        if lmr > 0 and count >= lmr and depth >= 3 and not threatened and ci[y, CI_CB + me] < C_F3 \
                and ci[y, CI_CB + op] < C_F3:
            red = 1
        mv[ply, count] = y
        ms[ply, count] = red
        count += 1
    return 1, 0, count


@njit(cache=True, nogil=True, _nrt=False)
def _split_move(bd, ub, keys, cp, ci, g, near, pat, cmb, zob, un, hist, killers, mv, ms, pv,
                tt, vt, age, stop, depth, ply, alpha, beta, y, red) -> int:
    """One move of a shared node (as ``_search``'s move loop searches it within a null window
    ``beta == alpha + 1``): the value of ``y`` for the side to move at ``ply``, its line in ``pv[ply + 1]``."""
    me = g[STONES] & 1
    if g[P_PURE] != 0 and ci[y, CI_CB + me] == C_FIVE:
        g[PVL + ply + 1] = ply + 1
        return WIN - ply - 1
    _place(bd, ub, keys, cp, ci, g, near, pat, cmb, zob, un, y, me + 1)
    v = alpha + 1
    if red > 0:
        v = -_search(bd, ub, keys, cp, ci, g, near, pat, cmb, zob, un, hist, killers, mv, ms, pv,
                     tt, vt, age, stop, depth - 1 - red, ply + 1, -alpha - 1, -alpha)
    if v > alpha:
        v = -_search(bd, ub, keys, cp, ci, g, near, pat, cmb, zob, un, hist, killers, mv, ms, pv,
                     tt, vt, age, stop, depth - 1, ply + 1, -beta, -alpha)
    _remove(bd, ub, keys, cp, ci, g, near, pat, cmb, zob, un, y)
    return v


@njit(cache=True, nogil=True, _nrt=False)
def _root_moves(bd, ub, ci, g, near, hist, killers, mv, ms, excluded, prefer) -> tuple:
    """The root's candidates in ``mv[0, :n]`` (scores in ``ms[0]``, not yet sorted) and how many of
    them to search: ``(n, limit)``. ``excluded`` cells are left out, ``prefer`` is ordered first."""
    me = g[STONES] & 1
    op = 1 - me
    pure = g[P_PURE] != 0
    renju_black = g[P_RULE] == RENJU and me == 0
    ttmove = prefer
    n = 0
    threatened = not pure and _threatens(bd, ub, ci, g, op)
    for mode in range(3):
        if mode == 2:
            n = _gen(bd, ci, near, g, hist, killers, me, np.int64(0), ttmove, mv, ms, np.int64(1))
        elif mode == 0 and not pure:
            n = _gen(bd, ci, near, g, hist, killers, me, np.int64(0), ttmove, mv, ms,
                     np.int64(2) if threatened else np.int64(0))
            if not pure and g[CNT + op * NCLASS + C_FIVE] == 1:
                # only the block (or our own five, found by the generator's order) matters
                f = _find_class(bd, ci, g, op, C_FIVE)
                m = 0
                for j in range(n):
                    y = mv[0, j]
                    if y == f or ci[y, CI_CB + me] == C_FIVE:
                        mv[0, m] = y
                        ms[0, m] = ms[0, j]
                        m += 1
                n = m
        elif mode == 1 and not pure:
            n = _gen(bd, ci, near, g, hist, killers, me, np.int64(0), ttmove, mv, ms, np.int64(1))
        else:
            continue
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
    top = g[P_TOP]
    if top > 0 and g[P_WIDEPLY] > 0 and g[P_WIDE] > top:
        top = g[P_WIDE]
    limit = n
    if not pure and top > 0 and not threatened and g[CNT + op * NCLASS + C_FIVE] == 0 and n > top:
        limit = top
    return n, limit


@njit(cache=True, nogil=True, _nrt=False)
def _root(bd, ub, keys, cp, ci, g, near, pat, cmb, zob, un, hist, killers, mv, ms, pv,
          tt, vt, age, stop, depth, alpha, beta, excluded, prefer) -> int:
    """Search the root to ``depth`` within (alpha, beta), skipping ``excluded`` cells; PV in ``pv[0]``.

    ``prefer`` is searched first (the previous best move). Unlike inner nodes the root always
    searches real moves, so every result comes with a move.
    """
    g[NODES] += 1
    me = g[STONES] & 1
    g[PVL] = 0
    n, limit = _root_moves(bd, ub, ci, g, near, hist, killers, mv, ms, excluded, prefer)
    if n == 0:
        return -WIN - 1
    best = -WIN - 1
    algo = g[P_ALGO]
    a = alpha
    for j in range(n):
        if j >= limit:
            break
        y = _pick(mv, ms, np.int64(0), j, n)
        if ci[y, CI_CB + me] == C_FIVE:
            v = WIN - 1
            g[PVL + 1] = 1
        else:
            _place(bd, ub, keys, cp, ci, g, near, pat, cmb, zob, un, y, me + 1)
            if algo == ALGO_PVS and j > 0:
                v = -_search(bd, ub, keys, cp, ci, g, near, pat, cmb, zob, un, hist, killers, mv, ms, pv,
                             tt, vt, age, stop, depth - 1, np.int64(1), -a - 1, -a)
                if a < v < beta:
                    v = -_search(bd, ub, keys, cp, ci, g, near, pat, cmb, zob, un, hist, killers, mv, ms, pv,
                                 tt, vt, age, stop, depth - 1, np.int64(1), -beta, -a)
            else:
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


#: Salt that keeps VCT entries apart from VCF entries in the threat table.
VCT_SALT = np.int64(0x5A17C0FFEE123457)
#: Salt of the threat-table entries that remember a VCT tried inside the tree.
TREE_VCT_SALT = np.int64(0x3C6EF372FE94F82B)


@njit(cache=True, nogil=True, _nrt=False)
def _vct(bd, ub, keys, cp, ci, g, near, pat, cmb, zob, un, mv, ms, pv, vt, stop, ply, left,
         attacking) -> int:
    """Victory by continuous threats (fours and open threes) for the side to move; 0 when none found.

    The defender answers a four by blocking and an open three by any cell that is a four point of the
    attacker or by a four of its own; every answer must lose for the attack to count. ``attacking``
    is 1 at the attacker's nodes and 0 at the defender's (one self-recursive kernel: numba's cache
    mishandles mutual recursion).
    """
    if attacking == 0:
        # the defender's node: the attack's value if every defence loses, else 0
        g[VTNODES] += 1
        g[PVL + ply] = ply
        if g[ABORT] != 0 or g[VT_OUT] != 0 or ply >= MAXPLY - 8:
            return 0
        me = g[STONES] & 1  # the defender
        op = 1 - me  # the attacker
        if g[CNT + me * NCLASS + C_FIVE] > 0:
            return 0
        if g[CNT + op * NCLASS + C_FIVE] >= 2:
            g[PVL + ply] = ply
            return WIN - ply - 1
        defender_black_renju = g[P_RULE] == RENJU and me == 0
        n = 0
        if g[CNT + op * NCLASS + C_FIVE] == 1:
            b = _find_class(bd, ci, g, op, C_FIVE)
            if defender_black_renju and ci[b, CI_MF] != 0 and _forbidden_at(ub, g, b):
                return WIN - ply - 1
            mv[ply, 0] = b
            ms[ply, 0] = 0
            n = 1
        else:
            threat = _threatens(bd, ub, ci, g, op)
            if not threat:
                return 0  # no threat: the defender has a free move
            P = g[P_P]
            size = g[P_SIZE]
            for r in range(size):
                base = (r + PAD) * P + PAD
                for c in range(size):
                    y = base + c
                    if bd[y] == 0 and (ci[y, CI_CB + op] >= C_B4 or ci[y, CI_CB + me] >= C_B4):
                        mv[ply, n] = y
                        ms[ply, n] = ci[y, CI_CB + op] * 1000 + ci[y, CI_CB + me] * 100
                        n += 1
        worst = WIN
        bestline = 0
        for j in range(n):
            y = _pick(mv, ms, ply, j, n)
            if defender_black_renju and ci[y, CI_MF] != 0 and _forbidden_at(ub, g, y):
                continue
            _place(bd, ub, keys, cp, ci, g, near, pat, cmb, zob, un, y, me + 1)
            v = _vct(bd, ub, keys, cp, ci, g, near, pat, cmb, zob, un, mv, ms, pv, vt, stop,
                     ply + 1, left, np.int64(1))
            _remove(bd, ub, keys, cp, ci, g, near, pat, cmb, zob, un, y)
            if v <= 0 or g[ABORT] != 0 or g[VT_OUT] != 0:
                return 0
            if v < worst:
                worst = v  # the longest resistance is the line to show
                bestline = 1
                pv[ply, ply] = y
                for q in range(ply + 1, g[PVL + ply + 1]):
                    pv[ply, q] = pv[ply + 1, q]
                g[PVL + ply] = g[PVL + ply + 1]
        if bestline == 0:
            return 0
        return worst
    g[VTNODES] += 1
    g[PVL + ply] = ply
    if (g[VTNODES] & 1023) == 0 and stop[0] != 0:
        g[ABORT] = 1
    if g[VT_LIMIT] > 0 and g[VTNODES] >= g[VT_LIMIT]:
        g[VT_OUT] = 1
    if g[ABORT] != 0 or g[VT_OUT] != 0 or ply >= MAXPLY - 8:
        return 0
    me = g[STONES] & 1
    op = 1 - me
    renju_black = g[P_RULE] == RENJU and me == 0
    if g[CNT + me * NCLASS + C_FIVE] > 0:
        pv[ply, ply] = _find_class(bd, ci, g, me, C_FIVE)
        g[PVL + ply] = ply + 1
        return WIN - ply - 1
    if g[CNT + op * NCLASS + C_FIVE] >= 2:
        return 0
    if g[CNT + op * NCLASS + C_FIVE] == 1:
        b = _find_class(bd, ci, g, op, C_FIVE)
        if renju_black and ci[b, CI_MF] != 0 and _forbidden_at(ub, g, b):
            return 0
        _place(bd, ub, keys, cp, ci, g, near, pat, cmb, zob, un, b, me + 1)
        v = _vct(bd, ub, keys, cp, ci, g, near, pat, cmb, zob, un, mv, ms, pv, vt, stop,
                 ply + 1, left, np.int64(0))
        _remove(bd, ub, keys, cp, ci, g, near, pat, cmb, zob, un, b)
        if v > 0:
            pv[ply, ply] = b
            for q in range(ply + 1, g[PVL + ply + 1]):
                pv[ply, q] = pv[ply + 1, q]
            g[PVL + ply] = g[PVL + ply + 1]
        return v
    if g[CNT + me * NCLASS + C_F4] > 0 and (not renju_black or _has_free_f4(bd, ub, ci, g, me)):
        y = _find_class(bd, ci, g, me, C_F4)
        if renju_black:
            P = g[P_P]
            size = g[P_SIZE]
            for r in range(size):
                for c in range(size):
                    z = (r + PAD) * P + PAD + c
                    if bd[z] == 0 and ci[z, CI_CB] == C_F4 and (ci[z, CI_MF] == 0 or not _forbidden_at(ub, g, z)):
                        y = z
        pv[ply, ply] = y
        g[PVL + ply] = ply + 1
        return WIN - ply - 3
    if left <= 0:
        return 0
    key = np.uint64(g[KEY] ^ VCT_SALT)
    i = tt_probe(vt, key)
    if i >= 0 and vt[i, DEPTH] >= left:
        return 0
    P = g[P_P]
    size = g[P_SIZE]
    n = 0
    # with one threat left only a double threat can win (a move's new threats all run through it)
    least = C_F3F3 if left == 1 else C_F3
    for r in range(size):
        base = (r + PAD) * P + PAD
        for c in range(size):
            y = base + c
            if bd[y] == 0 and ci[y, CI_CB + me] >= least:
                mv[ply, n] = y
                ms[ply, n] = ci[y, CI_CB + me] * 100000 + ci[y, CI_VB + me] + ci[y, CI_VB + op]
                n += 1
    for j in range(n):
        y = _pick(mv, ms, ply, j, n)
        if renju_black and ci[y, CI_MF] != 0 and _forbidden_at(ub, g, y):
            continue
        _place(bd, ub, keys, cp, ci, g, near, pat, cmb, zob, un, y, me + 1)
        v = _vct(bd, ub, keys, cp, ci, g, near, pat, cmb, zob, un, mv, ms, pv, vt, stop,
                 ply + 1, left - 1, np.int64(0))
        _remove(bd, ub, keys, cp, ci, g, near, pat, cmb, zob, un, y)
        if g[ABORT] != 0 or g[VT_OUT] != 0:
            return 0
        if v > 0:
            pv[ply, ply] = y
            for q in range(ply + 1, g[PVL + ply + 1]):
                pv[ply, q] = pv[ply + 1, q]
            g[PVL + ply] = g[PVL + ply + 1]
            return v
    tt_store(vt, key, left, UPPER, 0, -1, ply, 0)
    return 0




@njit(cache=True, nogil=True, _nrt=False)
def _store_line(bd, ub, keys, cp, ci, g, near, pat, cmb, zob, un, pv, tt, age, ply, v) -> None:
    """Store the threat-search line ``pv[ply]`` (a win ``v`` for the side to move) in the transposition
    table, node by node (the attacker's value as a lower bound, the defender's as an upper one), so
    that the principal variation can be read back to its end."""
    n = g[PVL + ply] - ply
    for k in range(n):
        y = pv[ply, ply + k]
        if y < 0 or bd[y] != 0:
            n = k
            break
        if k % 2 == 0:
            tt_store(tt, np.uint64(g[KEY]), np.int64(MAXPLY), LOWER, v, y, ply + k, age)
        else:
            tt_store(tt, np.uint64(g[KEY]), np.int64(MAXPLY), UPPER, -v, y, ply + k, age)
        _place(bd, ub, keys, cp, ci, g, near, pat, cmb, zob, un, y, (g[STONES] & 1) + 1)
    for k in range(n - 1, -1, -1):
        _remove(bd, ub, keys, cp, ci, g, near, pat, cmb, zob, un, pv[ply, ply + k])


@njit(cache=True, nogil=True, _nrt=False)
def _tree_vct_budget(g, me, op, ply) -> int:
    """The nodes of the tree's VCT for the side to move ``me`` at ``ply`` (0: none runs there).

    ``g[P_TREEVCTN]`` at plies 1..``g[P_TREEVCT]`` where ``me`` has a four point (a three on the board)
    and the opponent no open-four point; with ``g[P_VCT3] > 0`` also ``g[P_VCT3]`` at ply 1 where
    ``me`` has no four point but an open-three point (an attack that starts with a new three), and with
    ``g[P_VCT3MAX] > 0`` only while the tree's VCTs of this search have used fewer than that many nodes
    (``g[LVNODES]``), at most what is left of it.
    """
    if ply > g[P_TREEVCT] or g[CNT + op * NCLASS + C_F4] != 0:
        return 0
    if g[CNT + me * NCLASS + C_B4] + g[CNT + me * NCLASS + C_B4F3] > 0:
        return g[P_TREEVCTN]
    if ply == 1 and g[P_VCT3] > 0 and g[CNT + me * NCLASS + C_F3] + g[CNT + me * NCLASS + C_F3F3] > 0:
        if g[P_VCT3MAX] > 0:
            return max(min(g[P_VCT3], g[P_VCT3MAX] - g[LVNODES]), 0)
        return g[P_VCT3]
    return 0


@njit(cache=True, nogil=True, _nrt=False)
def _tree_vct(bd, ub, keys, cp, ci, g, near, pat, cmb, zob, un, mv, ms, pv, vt, stop, ply, budget) -> int:
    """A VCT for the side to move inside the tree, within ``budget`` nodes, deepened one threat
    at a time up to ``g[P_TREEVCTT]``; the win's value (PV in ``pv[ply]``) or 0."""
    v = 0
    used = 0
    for left in range(1, g[P_TREEVCTT] + 1):
        g[VTNODES] = 0
        g[VT_LIMIT] = budget - used
        if g[NODE_LIMIT] > 0:
            g[VT_LIMIT] = min(g[VT_LIMIT], g[NODE_LIMIT] - g[NODES] - used)
        g[VT_OUT] = 0
        if g[VT_LIMIT] <= 0:
            break
        v = _vct(bd, ub, keys, cp, ci, g, near, pat, cmb, zob, un, mv, ms, pv, vt, stop, ply,
                 np.int64(left), np.int64(1))
        used += g[VTNODES]
        out = g[VT_OUT]
        g[VT_OUT] = 0
        if v > 0 or out != 0 or g[ABORT] != 0:
            break
    g[LVNODES] += used
    if g[NODE_LIMIT] > 0:
        g[NODE_LIMIT] = max(g[NODE_LIMIT] - used, 1)  # a node limit counts these nodes too
        if g[NODES] >= g[NODE_LIMIT]:
            g[ABORT] = 1
    return v if g[ABORT] == 0 else 0


@njit(cache=True, nogil=True, _nrt=False)
def _root_vct(bd, ub, keys, cp, ci, g, near, pat, cmb, zob, un, mv, ms, pv, vt, stop, left) -> int:
    """VCT from the root for the side to move (PV in ``pv[0]``)."""
    return _vct(bd, ub, keys, cp, ci, g, near, pat, cmb, zob, un, mv, ms, pv, vt, stop,
                np.int64(0), left, np.int64(1))


@njit(cache=True, nogil=True, _nrt=False)
def _root_vcf(bd, ub, keys, cp, ci, g, near, pat, cmb, zob, un, mv, ms, pv, vt, stop, left) -> int:
    """VCF from the root for the side to move (PV in ``pv[0]``)."""
    return _vcf(bd, ub, keys, cp, ci, g, near, pat, cmb, zob, un, mv, ms, pv, vt, stop,
                np.int64(0), left)


@njit(cache=True, nogil=True, _nrt=False)
def _setup(bd, ub, keys, cp, ci, g, near, pat, cmb, zob, un, board) -> None:
    """Fill the padded arrays for the empty board, then place the stones of ``board`` (unpadded)."""
    P = g[P_P]
    size = g[P_SIZE]
    bd[:] = 3
    ub[:] = 0
    keys[:, :] = 0
    cp[:, :] = 0
    ci[:, :] = 0
    g[CNT:CNT + NCOUNT] = 0
    g[:G_SIZE] = 0
    near[:] = 0
    for r in range(size):
        for c in range(size):
            bd[(r + PAD) * P + PAD + c] = 0
    for r in range(size):
        for c in range(size):
            y = (r + PAD) * P + PAD + c
            for d in range(4):
                off = g[P_D0 + d]
                k_ = np.int64(0)
                for k in range(1, 6):
                    if bd[y - k * off] == 3:
                        k_ += 2 * POW3[5 - k]
                    if bd[y + k * off] == 3:
                        k_ += 2 * POW3[k + 4]
                keys[y, d] = k_ | (k_ << 32)
                cp[y, 0] |= np.int64(pat[0, k_]) << (4 * d)
                cp[y, 1] |= np.int64(pat[1, k_]) << (4 * d)
            g[CNT + 0] += 1
            g[CNT + NCLASS + 0] += 1
            _refresh(y, ci, cp, g, cmb, g[P_RULE])
    for i in range(size * size):
        if board[i] != 0:
            r = i // size
            c = i % size
            _place(bd, ub, keys, cp, ci, g, near, pat, cmb, zob, un, np.int64((r + PAD) * P + PAD + c),
                   np.int64(board[i]))


@njit(cache=True, nogil=True, _nrt=False)
def _tt_line(bd, ub, keys, cp, ci, g, near, pat, cmb, zob, un, tt, first, maxlen, out) -> int:
    """The line of transposition-table moves after ``first`` (played, then taken back); its length."""
    n = 0
    if first < 0 or bd[first] != 0:
        return 0
    out[0] = first
    n = 1
    _place(bd, ub, keys, cp, ci, g, near, pat, cmb, zob, un, first, (g[STONES] & 1) + 1)
    while n < maxlen:
        me = g[STONES] & 1
        i = tt_probe(tt, np.uint64(g[KEY]))
        if i < 0:
            break
        m = tt[i, MOVE]
        if m < 0 or m >= bd.shape[0] or bd[m] != 0:
            break
        win = ci[m, CI_CB + me] == C_FIVE
        out[n] = m
        n += 1
        _place(bd, ub, keys, cp, ci, g, near, pat, cmb, zob, un, m, me + 1)
        if win:
            break
    for j in range(n - 1, -1, -1):
        _remove(bd, ub, keys, cp, ci, g, near, pat, cmb, zob, un, out[j])
    return n
