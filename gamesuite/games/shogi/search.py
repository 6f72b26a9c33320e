"""numba kernels of the shogi engine: PVS alpha-beta with a transposition table, quiescence, SEE, mate in 1.

The search is a fail-soft principal-variation search in the style of modern
chess and shogi engines (the techniques are the published ones: see
``docs/shogi.md``): a transposition table, mate-distance pruning, reverse
futility pruning, razoring, null move with a depth-dependent reduction,
a mate-in-one test at the node, late-move pruning, futility and SEE pruning of
late moves, ProbCut (off by default), singular extensions, check extensions, late-move reductions by a
logarithmic table adjusted by history, and a quiescence search of captures
(SEE-pruned) with a transposition table. Moves are ordered by the TT move,
captures by victim and capture history (good ones by SEE first, bad ones last),
killers, the counter move, and quiet moves by butterfly and continuation
history.

Every tunable number of the search lives in the ``prm`` array (see
``engine.search_params``) so that it can be tuned without recompiling; every
pruning is behind a switch of ``opts`` so that the tests can compare the
plain search with minimax.

References: ``evaluation.evaluate_reference`` for ``_evaluate``,
``gamesuite.search.reference.minimax`` for the search with the switches off,
a plain quiescence in the tests for ``_qsearch``, and plain-Python SEE and
mate-in-one in the tests.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...core.score import WIN, WIN_THRESHOLD
from ...search.tt import DEPTH, EXACT, FLAG, LOWER, MOVE, UPPER, VALUE, tt_prefetch, tt_probe, tt_store, value_from_tt
from .board import BISHOP, BLACK_BIT, KING, KNIGHT, PAWN, ROOK, WHITE_BIT
from .evaluation import _evaluate
from .kernels import _attacked, _captures, _generate, _in_check, _make, _unmake

MAX_PLY = 64
# stats slots
NODES, SELDEPTH, ABORTED, NODE_LIMIT, HIST, PARTIAL, ROOT_MOVES = 0, 1, 2, 3, 4, 5, 6
STATS = 7
# option switches (``opts``)
QUIESCE, NULLMOVE, LMR, EXTEND, PRUNE, MATE1, SINGULAR, PROMOTE_ONLY, Q_PAWN_PROMOTE, QUIET_PROMOTE = range(10)
ESCAPE, THREAT = 10, 11  # spare the quiet moves of a piece en prise / of the piece the null move's refutation takes
Q_CHECKS = 12  # the first quiescence ply also plays the quiet moves and drops that give check
Q_RECAPTURE = 13  # N > 0: from the quiescence ply ``qdepth == -N`` on, only the captures on the last move's square
ESCAPE_ORDER = 14  # order the quiet moves of a piece en prise first among the quiet moves (after the killers)
SEE_PROMOTIONS = 15  # a promotion that loses material by SEE is ordered with the bad captures
OPTS = 16
Q_LAST = 63  # scratch[ply, Q_LAST]: the target square of the move into a quiescence node (set by its parent)

# -- the search parameters (``prm``): tunable scalars, the SEE values, the reduction table ------------
P_RFP_DEPTH, P_RFP_MARGIN, P_RFP_IMPROVING = 0, 1, 2
P_RAZOR_DEPTH, P_RAZOR_MARGIN = 3, 4
P_NULL_DEPTH, P_NULL_BASE, P_NULL_DIV, P_NULL_EVAL = 5, 6, 7, 8
P_LMP_DEPTH, P_LMP_BASE = 9, 10
P_FUT_DEPTH, P_FUT_BASE, P_FUT_MUL = 11, 12, 13
P_SEE_QUIET, P_SEE_CAPTURE = 14, 15
P_HIST_DIV, P_HIST_PRUNE = 16, 17
P_SE_DEPTH, P_SE_MARGIN = 18, 19
P_Q_DELTA = 20
P_BONUS_MUL, P_BONUS_MAX = 21, 22
P_MATE1_DEPTH = 23
P_IIR_DEPTH = 24
P_SPARE_R = 25  # plies less reduction for a spared move (``opts[ESCAPE]``, ``opts[THREAT]``)
P_Q_MAX = 26  # N > 0: the quiescence search (not in check) tries at most N moves at a node
P_TTCAP_R = 27  # plies more reduction for a quiet move at a node whose TT move is a capture
P_PROBCUT_MARGIN, P_PROBCUT_DEPTH = 28, 29  # ProbCut: beta + margin (0: off), from this depth
P_CORR_WEIGHT = 30  # percent of the correction history added to the static evaluation (0: off)
P_SE_NEG = 31  # plies less for the TT move that is not singular where it beats beta by itself or at a cut node
P_SEEV = 32  # 16 SEE values by piece type
P_LMR = 64  # reductions: prm[P_LMR + depth * LMR_N + move_number] (both < LMR_N)
LMR_N = 64
PRM_SIZE = P_LMR + LMR_N * LMR_N

# -- the move-ordering tables (``heur``, int32) ---------------------------------------------------------
SQ = 96  # square and origin slots per table row (81 squares and 7 drop kinds fit)
PTS = 16 * SQ  # piece-to slots (type * SQ + square)
H_BUTTERFLY = 0  # [colour][from][to]
H_CAPTURE = H_BUTTERFLY + 2 * SQ * SQ  # [moving type][to][victim type]
H_COUNTER = H_CAPTURE + 16 * SQ * 16  # [colour][piece-to of the opponent's last move] -> move
H_KILLERS = H_COUNTER + 2 * PTS  # [ply][2]
CORR_BITS = 14
CORR_N = 1 << CORR_BITS  # slots per colour of the correction history
H_CORR = H_KILLERS + 2 * (MAX_PLY + 2)  # [colour][pawn and hand key slot]: mean(search - eval) * CORR_GRAIN
HEUR_SIZE = H_CORR + 2 * CORR_N
CORR_GRAIN = 16  # correction-history entries are in 1/16 of the evaluation's unit
CORR_CLAMP = 1000  # a search result counts at most this far from the evaluation
HIST_MAX = 16384  # history values stay within +-HIST_MAX (the "gravity" update)
EVAL_CACHE = 1 << 16  # slots of the evaluation cache (``_static_eval``; 1 MB)
# -- the search stack (``ss[ply, field]``) ----------------------------------------------------------------
SS_PT, SS_EVAL, SS_EXCL, SS_CHECK, SS_MOVE = 0, 1, 2, 3, 4
SS_PHK = 5  # the Zobrist key of the pawns and the hands alone (``_pawn_hand_key``; a uint64 stored as int64)
SS_FIELDS = 8
NO_EVAL = -WIN - 2
# scores of the move ordering
_TT_SCORE = 1 << 50
_GOOD_CAPTURE = 1 << 40
_PROMOTION = 1 << 39
_KILLER = 1 << 38
_ESCAPE = 1 << 37  # a quiet move of a piece en prise (``opts[ESCAPE_ORDER]``), plus its quiet score
_BAD_CAPTURE = -(1 << 40)
_SKIPPED = -(1 << 55)


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


# -- the evaluation through its cache ------------------------------------------------------------------


@njit(cache=True, nogil=True, _nrt=False)
def _static_eval(board, hands, kings, us, key, geo, sq2p, rel, pfile, dirs, slidem, ew, ec) -> int:
    """``_evaluate`` of the position whose Zobrist key is ``key``, through the cache ``ec``.

    ``ec`` (``int64 [2**k, 2]``) holds a key and its evaluation per slot (the key's low bits pick the slot,
    the newest position replaces the old one). The evaluation is a function of the position alone (board,
    hands, side to move: what the key stands for) and of the engine's fixed weights, so a hit gives the
    value ``_evaluate`` would; positions come back often (iterative deepening, re-searches, transpositions).
    """
    i = np.int64(key & np.uint64(ec.shape[0] - 1))
    k = np.int64(key)
    if ec[i, 0] == k:
        return ec[i, 1]
    v = _evaluate(board, hands, kings, us, geo, sq2p, rel, pfile, dirs, slidem, ew)
    ec[i, 0] = k
    ec[i, 1] = v
    return v


# -- the correction history ----------------------------------------------------------------------------------


@njit(cache=True, nogil=True, _nrt=False)
def _pawn_hand_key(board, hands, N, sq2p, zb, zh) -> np.int64:
    """The Zobrist key of the pawns on the board and the pieces in hand alone (the same for either side to
    move), as an int64 with the bits of the uint64 key."""
    k = np.uint64(0)
    for sq in range(N):
        p = sq2p[sq]
        v = board[p]
        if (v & 15) == PAWN:
            k ^= zb[p, v]
    for c in range(2):
        for kind in range(1, 8):
            k ^= zh[c, kind, hands[c, kind]]
    return np.int64(k)


@njit(cache=True, nogil=True, _nrt=False)
def _pawn_hand_key_after(board, hands, us, move, phk, N, sq2p, zb, zh) -> np.int64:
    """``_pawn_hand_key`` after ``move`` of ``us``, from ``phk``, the one before it (``move`` not yet made)."""
    k = np.uint64(phk)
    ubit = BLACK_BIT if us == 0 else WHITE_BIT
    frm = move >> 8
    tp = sq2p[(move >> 1) & 127]
    if frm >= N:
        kind = frm - N + 1
        n = hands[us, kind]
        k ^= zh[us, kind, n] ^ zh[us, kind, n - 1]
        if kind == PAWN:
            k ^= zb[tp, ubit | PAWN]
        return np.int64(k)
    fp = sq2p[frm]
    v = board[fp]
    if (v & 15) == PAWN:
        k ^= zb[fp, v]
        if (move & 1) == 0:
            k ^= zb[tp, v]
    cap = board[tp]
    if cap != 0:
        ct = cap & 15
        if ct == PAWN:
            k ^= zb[tp, cap]
        if ct > KING:
            ct -= KING
        n = hands[us, ct]
        k ^= zh[us, ct, n] ^ zh[us, ct, n + 1]
    return np.int64(k)


@njit(cache=True, nogil=True, _nrt=False)
def _pawn_hand_slot(phk) -> np.int64:
    """The correction-history slot (``0 <= slot < CORR_N``) of a ``_pawn_hand_key``: its top ``CORR_BITS``
    bits."""
    return np.int64(np.uint64(phk) >> np.uint64(64 - CORR_BITS))


@njit(cache=True, nogil=True, _nrt=False)
def _corr_update(heur, i, diff, depth) -> None:
    """Move ``heur[i]`` toward ``diff`` (a search result less the static evaluation; clamped to +-CORR_CLAMP),
    in units of ``1 / CORR_GRAIN``, by a weight of ``min(depth + 1, 16) / 64``: a running mean that trusts deeper
    searches more."""
    d = min(max(diff, -CORR_CLAMP), CORR_CLAMP)
    w = min(depth + 1, 16)
    e = np.int64(heur[i])
    heur[i] = e + (d * CORR_GRAIN - e) * w // 64


@njit(cache=True, nogil=True, _nrt=False)
def _corrected(heur, i, ev, weight) -> int:
    """The static evaluation ``ev`` plus ``weight`` percent of the correction-history entry ``heur[i]``."""
    return ev + np.int64(heur[i]) * weight // (CORR_GRAIN * 100)


# -- static exchange evaluation ---------------------------------------------------------------------------


@njit(cache=True, nogil=True, _nrt=False)
def _lva(board, to, cbit, s, dirs, stepm, slidem, W, prm) -> int:
    """The padded square of the least valuable piece of colour bit ``cbit`` (orientation ``s``) attacking
    ``to``, or -1. Pieces lifted off the board (cells set to 0) let the sliders behind them through."""
    best = -1
    bv = 1 << 40
    for i in range(8):
        d = s * dirs[i]
        q = to - d
        v = board[q]
        if v & cbit:
            t = v & 15
            if ((stepm[t] | slidem[t]) >> i) & 1 and prm[P_SEEV + t] < bv:
                bv = prm[P_SEEV + t]
                best = q
        elif v == 0:
            q -= d
            while board[q] == 0:
                q -= d
            v = board[q]
            if (v & cbit) and (slidem[v & 15] >> i) & 1 and prm[P_SEEV + (v & 15)] < bv:
                bv = prm[P_SEEV + (v & 15)]
                best = q
    kn = cbit | KNIGHT
    if prm[P_SEEV + KNIGHT] < bv:
        q = to + s * (2 * W + 1)
        if board[q] == kn:
            return q
        q = to + s * (2 * W - 1)
        if board[q] == kn:
            return q
    return best


@njit(cache=True, nogil=True, _nrt=False)
def _see_ge(board, m, us, threshold, N, sq2p, dirs, stepm, slidem, W, prm, scratch) -> bool:
    """Whether the static exchange on the target square of ``m`` (by ``us``) wins at least ``threshold``.

    Values are ``prm[P_SEEV + type]``; both sides capture with their least valuable attacker and may stop
    when it does not pay; a king captures only when no enemy piece attacks the square any more. Pins and
    promotions of the recapturing pieces are ignored. ``scratch[16:32]`` is work space (left as found).
    """
    frm = m >> 8
    to = sq2p[(m >> 1) & 127]
    fp = -1
    fv = 0
    if frm >= N:  # a drop captures nothing
        swap = -threshold
        if swap < 0:
            return False
        swap = prm[P_SEEV + frm - N + 1] - swap
        if swap <= 0:
            return True
    else:
        fp = sq2p[frm]
        fv = board[fp]
        cap = board[to]
        gain = prm[P_SEEV + (cap & 15)] if cap != 0 else 0
        nt = (fv & 15) + 8 if (m & 1) else fv & 15
        if m & 1:
            gain += prm[P_SEEV + nt] - prm[P_SEEV + (fv & 15)]
        swap = gain - threshold
        if swap < 0:
            return False
        swap = prm[P_SEEV + nt] - swap
        if swap <= 0:
            return True
        board[fp] = 0
    side = 1 - us
    res = 1
    nrem = 0
    while True:
        cbit = BLACK_BIT if side == 0 else WHITE_BIT
        s = 1 if side == 0 else -1
        q = _lva(board, to, cbit, s, dirs, stepm, slidem, W, prm)
        if q < 0:
            break
        res ^= 1
        t = board[q] & 15
        if t == KING:
            obit = WHITE_BIT if side == 0 else BLACK_BIT
            if _lva(board, to, obit, -s, dirs, stepm, slidem, W, prm) >= 0:
                res ^= 1
            break
        swap = prm[P_SEEV + t] - swap
        if swap < res or nrem >= 8:
            break
        scratch[16 + 2 * nrem] = q
        scratch[17 + 2 * nrem] = board[q]
        nrem += 1
        board[q] = 0
        side = 1 - side
    for x in range(nrem - 1, -1, -1):
        board[scratch[16 + 2 * x]] = scratch[17 + 2 * x]
    if fp >= 0:
        board[fp] = fv
    return res == 1


@njit(cache=True, nogil=True, _nrt=False)
def _en_prise(board, sq, us, N, sq2p, p2sq, dirs, stepm, slidem, W, prm, scratch) -> bool:
    """Whether the piece of ``us`` on square ``sq`` (a square index) is lost to a capture: the opponent's
    least valuable attacker takes it and the exchange there wins material for the opponent (SEE >= 1)."""
    them = 1 - us
    q = _lva(board, sq2p[sq], BLACK_BIT if them == 0 else WHITE_BIT, 1 if them == 0 else -1, dirs, stepm, slidem,
             W, prm)
    if q < 0:
        return False
    return _see_ge(board, np.int64(p2sq[q] * 256 + sq * 2), them, np.int64(1), N, sq2p, dirs, stepm, slidem, W,
                   prm, scratch)


@njit(cache=True, nogil=True, _nrt=False)
def _drop_unpromoted(board, row, n, N, sq2p) -> int:
    """Remove from ``row[:n]`` the moves of a pawn, bishop or rook that do not promote where they could (each is
    worth less than its promotion: the promoted piece moves as the piece did and more); return how many are left.

    The move generators write such a move right after its promotion (``m + 1``), which is how it is told apart;
    the others keep their order. The search skips these moves with ``opts[PROMOTE_ONLY]`` on (as YaneuraOu's
    search does by default).
    """
    k = 0
    prev = -1
    for x in range(n):
        m = row[x]
        if (m & 1) == 0 and prev == m + 1:
            t = board[sq2p[m >> 8]] & 15
            if t == PAWN or t == BISHOP or t == ROOK:
                prev = m
                continue
        prev = m
        row[k] = m
        k += 1
    return k


@njit(cache=True, nogil=True, _nrt=False)
def _search_moves(board, hands, kings, us, geo, sq2p, p2sq, rel, pfile, dirs, stepm, slidem, tab, out, scratch,
                  promote_only) -> int:
    """The moves the search plays from a position: the legal moves of ``us`` (``kernels._generate``, into
    ``out``), less the pawn, bishop and rook moves that could promote and do not when ``promote_only`` is set
    (``_drop_unpromoted``; the option ``unpromoted=false``); return how many.

    Dropping never empties a list (each move dropped keeps its promotion), so a count of 0 is still mate.
    """
    n = _generate(board, hands, kings, us, geo, sq2p, p2sq, rel, pfile, dirs, stepm, slidem, tab, out, scratch)
    if promote_only != 0:
        n = _drop_unpromoted(board, out, n, geo[3], sq2p)
    return n


@njit(cache=True, nogil=True, _nrt=False)
def _pawn_promotions(board, kings, us, geo, sq2p, p2sq, rel, dirs, stepm, slidem, out, n) -> int:
    """Append to ``out[n:]`` the legal pawn promotions of ``us`` that capture nothing (``us`` not in check: a
    push is illegal only when it uncovers a check); return the new count."""
    W = geo[2]
    N = geo[3]
    zone = geo[4]
    ro = us * geo[5]
    pawn = (BLACK_BIT if us == 0 else WHITE_BIT) | PAWN
    fwd = -W if us == 0 else W
    for p in range(sq2p[0], sq2p[N - 1] + 1):
        if board[p] != pawn:
            continue
        to = p + fwd
        if board[to] != 0 or rel[ro + to] >= zone:
            continue
        board[p] = 0
        board[to] = pawn + 8
        ok = not _in_check(board, kings, us, dirs, stepm, slidem, W)
        board[to] = 0
        board[p] = pawn
        if ok:
            out[n] = p2sq[p] * 256 + p2sq[to] * 2 + 1
            n += 1
    return n


@njit(cache=True, nogil=True, _nrt=False)
def _direct_check(board, m, us, kings, N, sq2p, dirs, stepm, slidem, W) -> bool:
    """Whether the piece ``m`` moves or drops (for ``us``) attacks the enemy king from its target square.

    Discovered checks are not seen; the board is not changed.
    """
    ek = kings[1 - us]
    if ek < 0:
        return False
    frm = m >> 8
    to = sq2p[(m >> 1) & 127]
    fp = -1
    if frm >= N:
        t = frm - N + 1
    else:
        fp = sq2p[frm]
        t = (board[fp] & 15) + (8 if m & 1 else 0)
    s = 1 if us == 0 else -1
    if t == KNIGHT:
        return ek == to - s * (2 * W + 1) or ek == to - s * (2 * W - 1)
    dr = ek // W - to // W
    dc = ek % W - to % W
    if not (dr == 0 or dc == 0 or dr == dc or dr == -dc):
        return False
    unit = (1 if dr > 0 else (-1 if dr < 0 else 0)) * W + (1 if dc > 0 else (-1 if dc < 0 else 0))
    for i in range(8):
        if s * dirs[i] == unit:
            if to + unit == ek:
                return ((stepm[t] | slidem[t]) >> i) & 1 == 1
            if not (slidem[t] >> i) & 1:
                return False
            q = to + unit
            while q != ek:
                if board[q] != 0 and q != fp:
                    return False
                q += unit
            return True
    return False


@njit(cache=True, nogil=True, _nrt=False)
def _gives_check(board, hands, kings, us, m, N, sq2p, dirs, stepm, slidem, W) -> bool:
    """Whether the legal move ``m`` of ``us`` checks the enemy king, directly or by discovery (the board is
    left as found)."""
    if _direct_check(board, m, us, kings, N, sq2p, dirs, stepm, slidem, W):
        return True
    frm = m >> 8
    ek = kings[1 - us]
    if frm >= N or ek < 0:
        return False  # a drop uncovers nothing
    fp = sq2p[frm]
    dr = ek // W - fp // W
    dc = ek % W - fp % W
    if not (dr == 0 or dc == 0 or dr == dc or dr == -dc):
        return False  # not on a line with the king: moving it uncovers nothing
    cap = _make(board, hands, kings, us, m, N, sq2p)
    check = _in_check(board, kings, 1 - us, dirs, stepm, slidem, W)
    _unmake(board, hands, kings, us, m, cap, N, sq2p)
    return check


@njit(cache=True, nogil=True, _nrt=False)
def _quiet_check(board, m, N, sq2p, pawn_promotions) -> bool:
    """Whether ``m``, a move of the quiescence search not in check, is one of ``_quiet_checks``' (captures
    nothing and is not a pawn promotion that ``_pawn_promotions`` added)."""
    if board[sq2p[(m >> 1) & 127]] != 0:
        return False
    frm = m >> 8
    return not (pawn_promotions != 0 and frm < N and (m & 1) and (board[sq2p[frm]] & 15) == PAWN)


@njit(cache=True, nogil=True, _nrt=False)
def _quiet_checks(board, hands, kings, us, geo, sq2p, p2sq, rel, pfile, dirs, stepm, slidem, tab, out, n, work,
                  scratch, pawn_promotions) -> int:
    """Append to ``out[n:]`` the legal moves of ``us`` that capture nothing and give check (drops included;
    with ``pawn_promotions``, less the pawn promotions, which ``_pawn_promotions`` adds); return the new count.

    ``work`` and ``scratch`` are work space (a move list and its scratch row).
    """
    N = geo[3]
    W = geo[2]
    cnt = _generate(board, hands, kings, us, geo, sq2p, p2sq, rel, pfile, dirs, stepm, slidem, tab, work, scratch)
    for x in range(cnt):
        m = np.int64(work[x])
        if _quiet_check(board, m, N, sq2p, pawn_promotions) and _gives_check(board, hands, kings, us, m, N, sq2p,
                                                                              dirs, stepm, slidem, W):
            out[n] = m
            n += 1
    return n


# -- mate in one ---------------------------------------------------------------------------------------


@njit(cache=True, nogil=True, _nrt=False)
def _safe_move(board, f, to, k, tbit, st, dirs, stepm, slidem, W) -> bool:
    """Whether moving the piece on ``f`` to ``to`` leaves the king on ``k`` unattacked by ``tbit``."""
    v = board[f]
    w = board[to]
    board[f] = 0
    board[to] = v
    safe = not _attacked(board, k, tbit, st, dirs, stepm, slidem, W)
    board[to] = w
    board[f] = v
    return safe


@njit(cache=True, nogil=True, _nrt=False)
def _reaches(board, to, k, ubit, su, tbit, st, dirs, stepm, slidem, W) -> bool:
    """Whether a piece of ours (colour bit ``ubit``, orientation ``su``), not the king on ``k``, can move to
    ``to`` without leaving the king attacked."""
    for i in range(8):
        d = su * dirs[i]
        f = to - d
        v = board[f]
        if v == 0:
            while v == 0:
                f -= d
                v = board[f]
            if not ((v & ubit) and (slidem[v & 15] >> i) & 1):
                continue
        elif not ((v & ubit) and ((stepm[v & 15] | slidem[v & 15]) >> i) & 1):
            continue
        if f != k and _safe_move(board, f, to, k, tbit, st, dirs, stepm, slidem, W):
            return True
    kn = ubit | KNIGHT
    for off in (2 * W + 1, 2 * W - 1):
        f = to + su * off
        if board[f] == kn and _safe_move(board, f, to, k, tbit, st, dirs, stepm, slidem, W):
            return True
    return False


@njit(cache=True, nogil=True, _nrt=False)
def _has_evasion(board, hands, kings, us, geo, rel, pfile, sq2p, dirs, stepm, slidem) -> bool:
    """Whether ``us`` (in check) has a legal move: a king step, a capture of the checker, an interposition.

    An interposed pawn drop is counted without the pawn-drop-mate test (it could only err toward
    "has a move", which makes a mate test miss a mate, never invent one).
    """
    W = geo[2]
    N = geo[3]
    PN = geo[5]
    k = kings[us]
    ubit = BLACK_BIT if us == 0 else WHITE_BIT
    tbit = WHITE_BIT if us == 0 else BLACK_BIT
    su = 1 if us == 0 else -1
    st = -su
    kv = board[k]
    board[k] = 0
    for i in range(8):
        to = k + dirs[i]
        v = board[to]
        if (v == 0 or (v & tbit)) and not _attacked(board, to, tbit, st, dirs, stepm, slidem, W):
            board[k] = kv
            return True
    board[k] = kv
    # the checkers
    nchk = 0
    chk = -1
    chkdir = -1
    for i in range(8):
        d = dirs[i]
        j = i if us == 0 else (i + 4) & 7
        q = k + d
        v = board[q]
        while v == 0:
            q += d
            v = board[q]
        if v & tbit:
            t = v & 15
            if (q == k + d and (stepm[t] >> j) & 1) or (slidem[t] >> j) & 1:
                nchk += 1
                chk = q
                chkdir = i if q != k + d else -1
    kn = tbit | KNIGHT
    for off in (2 * W + 1, 2 * W - 1):
        q = k + st * off
        if board[q] == kn:
            nchk += 1
            chk = q
            chkdir = -1
    if nchk != 1:
        return nchk == 0
    if _reaches(board, chk, k, ubit, su, tbit, st, dirs, stepm, slidem, W):
        return True
    if chkdir < 0:
        return False
    # interpositions on the squares between the king and a distant checker
    ro = us * PN
    pawnfiles = 0
    if hands[us, PAWN] > 0:
        for sq in range(N):
            if board[sq2p[sq]] == (ubit | PAWN):
                pawnfiles |= 1 << pfile[sq2p[sq]]
    q = k + dirs[chkdir]
    while q != chk:
        rr = rel[ro + q]
        for kind in range(1, 8):
            if hands[us, kind] == 0:
                continue
            if (kind == PAWN and (rr == 0 or (pawnfiles >> pfile[q]) & 1)) or (kind == 2 and rr == 0) or (
                    kind == KNIGHT and rr <= 1):
                continue
            return True
        if _reaches(board, q, k, ubit, su, tbit, st, dirs, stepm, slidem, W):
            return True
        q += dirs[chkdir]
    return False


@njit(cache=True, nogil=True, _nrt=False)
def _mates(board, hands, kings, us, m, contact, geo, sq2p, p2sq, rel, pfile, dirs, stepm, slidem, tab, out,
           scratch) -> bool:
    """Whether ``m`` (a move of ``us`` that gives check, perhaps illegal) is legal and leaves no reply.

    ``contact`` (or -1) is the square of a checker next to the king: unless another piece of ours protects
    it, the king takes it.
    """
    N = geo[3]
    W = geo[2]
    cap = _make(board, hands, kings, us, m, N, sq2p)
    mate = False
    ubit = BLACK_BIT if us == 0 else WHITE_BIT
    if contact >= 0 and not _attacked(board, contact, ubit, 1 if us == 0 else -1, dirs, stepm, slidem, W):
        pass  # the king takes the checker
    elif not _in_check(board, kings, us, dirs, stepm, slidem, W):
        mate = not _has_evasion(board, hands, kings, 1 - us, geo, rel, pfile, sq2p, dirs, stepm, slidem)
    _unmake(board, hands, kings, us, m, cap, N, sq2p)
    return mate


@njit(cache=True, nogil=True, _nrt=False)
def _mate1(board, hands, kings, us, geo, sq2p, p2sq, rel, pfile, dirs, stepm, slidem, tab, out, scratch) -> int:
    """A move of ``us`` (not in check) that mates at once, or -1.

    Only contact checks are tried: drops and moves onto a square next to the enemy king, or onto a
    square from which a knight checks it, by a piece that attacks the king from there (a mate by a
    distant check or a discovered one is left to the search; a pawn drop never mates, by the rules).
    ``out`` and ``scratch`` are work space for the defender's moves.
    """
    them = 1 - us
    ek = kings[them]
    if ek < 0:
        return -1
    W = geo[2]
    N = geo[3]
    zone = geo[4]
    PN = geo[5]
    ubit = BLACK_BIT if us == 0 else WHITE_BIT
    s = 1 if us == 0 else -1
    ro = us * PN
    for i in range(10):
        if i < 8:
            q = ek - s * dirs[i]  # a piece of ours moving in direction i from q reaches the king
        else:
            q = ek + s * (2 * W + 1) if i == 8 else ek + s * (2 * W - 1)
        v = board[q]
        if v & (ubit | 64):
            continue  # our own piece or a wall
        sq = p2sq[q]
        contact = q if i < 8 else -1
        # our pieces that attack q (can move there), into scratch[40:50]; for a knight's check only our
        # knights (nothing else checks from there)
        na = 0
        for j in range(8 if i < 8 else 0):
            d = s * dirs[j]
            f = q - d
            w = board[f]
            if w == 0:
                while w == 0:
                    f -= d
                    w = board[f]
                if (w & ubit) and (slidem[w & 15] >> j) & 1:
                    scratch[40 + na] = f
                    na += 1
            elif (w & ubit) and ((stepm[w & 15] | slidem[w & 15]) >> j) & 1:
                scratch[40 + na] = f
                na += 1
        for off in (2 * W + 1, 2 * W - 1):
            f = q + s * off
            if board[f] == (ubit | KNIGHT):
                scratch[40 + na] = f
                na += 1
        if i < 8 and na == 0:
            continue  # a contact check there would be unprotected (or impossible): the king takes it
        if v == 0:
            for kind in range(2, 8):
                if hands[us, kind] == 0:
                    continue
                if i < 8:
                    if not (((stepm[kind] | slidem[kind]) >> i) & 1):
                        continue
                elif kind != KNIGHT:
                    continue
                m = (N + kind - 1) * 256 + sq * 2
                if _mates(board, hands, kings, us, m, np.int64(-1), geo, sq2p, p2sq, rel, pfile, dirs, stepm, slidem,
                          tab, out, scratch):
                    return m
        # moves of those pieces to q (not the king's)
        rq = rel[ro + q]
        for a in range(na):
            f = scratch[40 + a]
            w = board[f]
            t = w & 15
            if t == KING:
                continue
            rf = rel[ro + f]
            for promote in range(2):
                if promote == 1:
                    if t > 6 or not (rf < zone or rq < zone):
                        continue
                    nt = t + 8
                else:
                    if (t == PAWN or t == 2) and rq == 0:
                        continue
                    if t == KNIGHT and rq <= 1:
                        continue
                    nt = t
                if i < 8:
                    if not (((stepm[nt] | slidem[nt]) >> i) & 1):
                        continue
                elif nt != KNIGHT:
                    continue
                m = p2sq[f] * 256 + sq * 2 + promote
                if _mates(board, hands, kings, us, m, contact, geo, sq2p, p2sq, rel, pfile, dirs, stepm, slidem, tab,
                          out, scratch):
                    return m
    return -1


# -- move ordering ----------------------------------------------------------------------------------------


@njit(cache=True, nogil=True, _nrt=False)
def _piece_to(board, m, N, sq2p, us) -> int:
    """The piece-to index of ``m`` for the history tables: moving type * SQ + target square, the square
    seen from the mover's side (so that the tables serve both colours)."""
    frm = m >> 8
    t = frm - N + 1 if frm >= N else board[sq2p[frm]] & 15
    to = (m >> 1) & 127
    return t * SQ + (to if us == 0 else N - 1 - to)


@njit(cache=True, nogil=True, _nrt=False)
def _cont_index(offset, prev_pt, pt) -> int:
    """Index into the continuation history of a move ``pt`` after a move ``prev_pt`` made ``offset`` plies
    earlier (1: the opponent's last move, 2: our own); each seen from its own mover's side."""
    return ((offset - 1) * PTS + prev_pt) * PTS + pt


@njit(cache=True, nogil=True, _nrt=False)
def _quiet_score(us, m, pt, heur, cont, p1, p2) -> int:
    frm = m >> 8
    to = (m >> 1) & 127
    s = heur[H_BUTTERFLY + (us * SQ + frm) * SQ + to]
    if p1 >= 0:
        s += cont[_cont_index(1, p1, pt)]
    if p2 >= 0:
        s += cont[_cont_index(2, p2, pt)]
    return s


@njit(cache=True, nogil=True, _nrt=False)
def _loud_promotion(board, m, sq2p, quiet_promotions) -> bool:
    """Whether ``m`` (a move that captures nothing) is ordered and searched as a promotion: before the killers,
    and neither pruned nor reduced as a quiet move. Every promotion, or with ``quiet_promotions`` only a pawn's
    (the others are then quiet moves, as in YaneuraOu's move picker)."""
    if (m & 1) == 0:
        return False
    return quiet_promotions == 0 or (board[sq2p[m >> 8]] & 15) == PAWN


@njit(cache=True, nogil=True, _nrt=False)
def _score_moves(board, buf, scores, ply, start, n, us, ttmove, N, sq2p, dirs, stepm, slidem, W, prm, heur, cont,
                 ss, scratch, use_see, quiet_promotions, later, p2sq, escape_order) -> None:
    """Order scores of the moves ``buf[ply, start:n]`` into ``scores[ply, start:n]``.

    With ``use_see`` (1, or 2: ``see_mode``) the captures that lose material by SEE are ordered last, with
    the bad captures, and with 2 the promotions (those ordered before the killers) that do too; with
    ``later`` as well, every capture and promotion is scored as a good one here, and the search checks each
    by SEE when it comes up (``_next_move``), which gives the same order without the SEE of the moves never
    reached.

    With ``escape_order`` a quiet move of a piece other than a pawn or the king that stands en prise
    (``_en_prise``: the opponent's least valuable attacker wins material there) comes after the killers and
    before the other quiet moves, so that late-move pruning does not drop the retreat of an attacked rook.
    """
    p1 = ss[ply - 1, SS_PT] if ply >= 1 else -1
    p2 = ss[ply - 2, SS_PT] if ply >= 2 else -1
    k0 = heur[H_KILLERS + 2 * ply]
    k1 = heur[H_KILLERS + 2 * ply + 1]
    cm = heur[H_COUNTER + us * PTS + p1] if p1 >= 0 else -1
    # the squares checked for ``escape_order`` (-1: none yet) and their answers: a piece has many moves
    e0 = e1 = e2 = e3 = np.int64(-1)
    a0 = a1 = a2 = a3 = False
    for x in range(start, n):
        m = np.int64(buf[ply, x])
        if m == ttmove:
            scores[ply, x] = _TT_SCORE
            continue
        frm = m >> 8
        to = (m >> 1) & 127
        victim = board[sq2p[to]] if frm < N else 0
        if victim != 0:
            t = board[sq2p[frm]] & 15
            vt = victim & 15
            sc = prm[P_SEEV + vt] * 16 + heur[H_CAPTURE + (t * SQ + to) * 16 + vt]
            if not use_see or later or _see_ge(board, m, us, np.int64(0), N, sq2p, dirs, stepm, slidem, W, prm,
                                               scratch):
                scores[ply, x] = _GOOD_CAPTURE + sc
            else:
                scores[ply, x] = _BAD_CAPTURE + sc
        elif _loud_promotion(board, m, sq2p, quiet_promotions):
            sc = prm[P_SEEV + (board[sq2p[frm]] & 15) + 8]
            if use_see < 2 or later or _see_ge(board, m, us, np.int64(0), N, sq2p, dirs, stepm, slidem, W, prm,
                                               scratch):
                scores[ply, x] = _PROMOTION + sc
            else:
                scores[ply, x] = _BAD_CAPTURE + sc
        elif m == k0:
            scores[ply, x] = _KILLER + 2
        elif m == k1:
            scores[ply, x] = _KILLER + 1
        elif m == cm:
            scores[ply, x] = _KILLER
        else:
            scores[ply, x] = _quiet_score(us, m, _piece_to(board, m, N, sq2p, us), heur, cont, p1, p2)
            if escape_order != 0 and frm < N and (board[sq2p[frm]] & 15) != PAWN and (board[sq2p[frm]] & 15) != KING:
                if frm == e0:
                    att = a0
                elif frm == e1:
                    att = a1
                elif frm == e2:
                    att = a2
                elif frm == e3:
                    att = a3
                else:
                    att = _en_prise(board, frm, us, N, sq2p, p2sq, dirs, stepm, slidem, W, prm, scratch)
                    if e0 < 0:
                        e0, a0 = frm, att
                    elif e1 < 0:
                        e1, a1 = frm, att
                    elif e2 < 0:
                        e2, a2 = frm, att
                    elif e3 < 0:
                        e3, a3 = frm, att
                if att:
                    scores[ply, x] += _ESCAPE


@njit(cache=True, nogil=True, _nrt=False)
def _see_mode(opts) -> int:
    """The ordering's use of SEE (``_score_moves``' ``use_see``): 0 none (pruning off), 1 the captures, 2 the
    captures and the promotions (``opts[SEE_PROMOTIONS]``)."""
    if opts[PRUNE] == 0:
        return 0
    return 2 if opts[SEE_PROMOTIONS] != 0 else 1


@njit(cache=True, nogil=True, _nrt=False)
def _next_move(board, buf, scores, ply, x, n, us, use_see, N, sq2p, dirs, stepm, slidem, W, prm, scratch) -> None:
    """Move the best-scored of moves ``x..n-1`` of ``ply`` to slot ``x``, as ``_pick``, after
    ``_score_moves(..., later=True)``: a capture or a promotion scored as good that loses material by SEE is
    given a bad capture's score and put back where it was (the order is then the one of scoring it so at
    once); a promotion only with ``use_see`` 2 (``opts[SEE_PROMOTIONS]``). Before the quiet moves, a losing
    promotion counts toward late-move pruning: a few of them can use up its count at shallow depths, so
    that no quiet move is searched (measured in the arena and not better, so off by default)."""
    bi = _pick(buf, scores, ply, x, n)
    # (a good capture's score: _GOOD_CAPTURE plus its own, which its history can make negative; a promotion's:
    # _PROMOTION plus its promoted piece's value)
    lowest = _PROMOTION if use_see >= 2 else _GOOD_CAPTURE - (1 << 32)
    while use_see and lowest <= scores[ply, x] < _TT_SCORE:
        if _see_ge(board, np.int64(buf[ply, x]), us, np.int64(0), N, sq2p, dirs, stepm, slidem, W, prm, scratch):
            return
        if scores[ply, x] >= _GOOD_CAPTURE - (1 << 32):
            scores[ply, x] += _BAD_CAPTURE - _GOOD_CAPTURE
        else:
            scores[ply, x] += _BAD_CAPTURE - _PROMOTION
        _swap(buf, scores, ply, x, bi)
        bi = _pick(buf, scores, ply, x, n)


@njit(cache=True, nogil=True, _nrt=False)
def _drop_late_quiets(board, buf, scores, ply, start, n, excluded, N, sq2p, quiet_promotions) -> tuple[int, int]:
    """Late-move pruning has begun to prune the quiet moves of ``ply``, and every quiet move left would be
    pruned too: drop them from ``buf[ply, start:n]``, keeping the other moves (the bad captures) in the order
    ``_pick`` would give them, first to last from ``start``. Return how many quiet moves were dropped (the
    excluded move not counted) and how many moves were kept, or (-1, 0) (nothing changed) when two of the
    kept moves have equal scores: their order depends on where the quiet moves were."""
    # the kept moves, sorted by insertion into the slots beyond n (ties: give up)
    q = 0
    c = 0
    for x in range(start, n):
        m = np.int64(buf[ply, x])
        frm = m >> 8
        if not ((frm < N and board[sq2p[(m >> 1) & 127]] != 0) or _loud_promotion(board, m, sq2p,
                                                                                   quiet_promotions)):
            if m != excluded:
                q += 1
            continue
        sc = scores[ply, x]
        if n + c >= buf.shape[1]:
            return -1, 0
        y = c
        while y > 0 and scores[ply, n + y - 1] < sc:
            scores[ply, n + y] = scores[ply, n + y - 1]
            buf[ply, n + y] = buf[ply, n + y - 1]
            y -= 1
        if y > 0 and scores[ply, n + y - 1] == sc:
            return -1, 0
        scores[ply, n + y] = sc
        buf[ply, n + y] = m
        c += 1
    for y in range(c):
        buf[ply, start + y] = buf[ply, n + y]
        scores[ply, start + y] = scores[ply, n + y]
    return q, c


@njit(cache=True, nogil=True, _nrt=False)
def _tt_first(buf, scores, ply, n, ttmove) -> int:
    """Put ``ttmove`` first among ``buf[ply, :n]`` if it is there; return how many moves are placed (0 or 1).

    The others are scored only if the TT move does not cut the node off."""
    if ttmove < 0:
        return 0
    for x in range(n):
        if buf[ply, x] == ttmove:
            buf[ply, x] = buf[ply, 0]
            buf[ply, 0] = ttmove
            scores[ply, 0] = _TT_SCORE
            return 1
    return 0


@njit(cache=True, nogil=True, _nrt=False)
def _pseudo_legal(board, hands, us, m, N, sq2p) -> bool:
    """Whether ``m`` could be a move of ``us`` here: a drop of a kind ``us`` holds onto an empty square, or a
    move of a piece of ``us`` onto a square without one (a TT move is a legal move of the position with
    its key; this keeps the board whole should another position share the key)."""
    frm = m >> 8
    to = (m >> 1) & 127
    if m < 0 or to >= N or frm >= N + 7:
        return False
    ubit = BLACK_BIT if us == 0 else WHITE_BIT
    if frm >= N:
        return hands[us, frm - N + 1] > 0 and board[sq2p[to]] == 0
    return (board[sq2p[frm]] & ubit) != 0 and (board[sq2p[to]] & ubit) == 0


@njit(cache=True, nogil=True, _nrt=False)
def _pick(buf, scores, ply, x, n) -> int:
    """Move the best-scored of moves ``x..n-1`` of ``ply`` to slot ``x`` (by swapping it with the move there);
    return the slot it came from."""
    bi = x
    bs = scores[ply, x]
    for y in range(x + 1, n):
        if scores[ply, y] > bs:
            bs = scores[ply, y]
            bi = y
    _swap(buf, scores, ply, x, bi)
    return bi


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def _swap(buf, scores, ply, a, b) -> None:
    """Exchange moves ``a`` and ``b`` of ``ply`` (with their scores); nothing when they are the same slot."""
    if a != b:
        tm = buf[ply, a]
        buf[ply, a] = buf[ply, b]
        buf[ply, b] = tm
        ts = scores[ply, a]
        scores[ply, a] = scores[ply, b]
        scores[ply, b] = ts


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def _gravity(table, i, bonus) -> None:
    """Add ``bonus`` to ``table[i]``, pulled toward zero so that it stays within +-HIST_MAX.

    Inlined by numba where it is called: not a kernel of its own compiled twice (for the int32 and the
    int16 tables)."""
    v = table[i]
    b = bonus if bonus > 0 else -bonus
    table[i] = v + bonus - v * b // HIST_MAX


@njit(cache=True, nogil=True, _nrt=False)
def _update_quiet(us, m, pt, bonus, heur, cont, p1, p2) -> None:
    frm = m >> 8
    to = (m >> 1) & 127
    _gravity(heur, H_BUTTERFLY + (us * SQ + frm) * SQ + to, bonus)
    if p1 >= 0:
        _gravity(cont, _cont_index(1, p1, pt), bonus)
    if p2 >= 0:
        _gravity(cont, _cont_index(2, p2, pt), bonus)


@njit(cache=True, nogil=True, _nrt=False)
def _update_histories(board, buf, scores, ply, x, us, depth, N, sq2p, prm, heur, cont, ss, quiet_promotions) -> None:
    """After move ``x`` of ``ply`` caused a cutoff: reward it, penalise the moves of its kind tried before it,
    and remember it as a killer and counter move when it is quiet."""
    bonus = min(prm[P_BONUS_MUL] * depth * depth, prm[P_BONUS_MAX])
    p1 = ss[ply - 1, SS_PT] if ply >= 1 else -1
    p2 = ss[ply - 2, SS_PT] if ply >= 2 else -1
    best = np.int64(buf[ply, x])
    bfrm = best >> 8
    bto = (best >> 1) & 127
    bvictim = board[sq2p[bto]] if bfrm < N else 0
    if bvictim == 0 and not _loud_promotion(board, best, sq2p, quiet_promotions):
        _update_quiet(us, best, _piece_to(board, best, N, sq2p, us), bonus, heur, cont, p1, p2)
        for y in range(x):
            m = np.int64(buf[ply, y])
            frm = m >> 8
            if scores[ply, y] == _SKIPPED or (frm < N and board[sq2p[(m >> 1) & 127]] != 0) or \
                    _loud_promotion(board, m, sq2p, quiet_promotions):
                continue
            _update_quiet(us, m, _piece_to(board, m, N, sq2p, us), -bonus, heur, cont, p1, p2)
        k = H_KILLERS + 2 * ply
        if heur[k] != best:
            heur[k + 1] = heur[k]
            heur[k] = best
        if p1 >= 0:
            heur[H_COUNTER + us * PTS + p1] = best
    elif bvictim != 0:
        t = board[sq2p[bfrm]] & 15
        _gravity(heur, H_CAPTURE + (t * SQ + bto) * 16 + (bvictim & 15), bonus)
    # captures tried before the best move did not cut: penalise them
    for y in range(x):
        m = np.int64(buf[ply, y])
        frm = m >> 8
        if frm >= N or scores[ply, y] == _SKIPPED:
            continue
        to = (m >> 1) & 127
        victim = board[sq2p[to]]
        if victim != 0:
            t = board[sq2p[frm]] & 15
            _gravity(heur, H_CAPTURE + (t * SQ + to) * 16 + (victim & 15), -bonus)


@njit(cache=True, nogil=True, _nrt=False)
def _tick(ply, stop, stats) -> bool:
    """Count a node; return True when the search must stop."""
    stats[NODES] += 1
    if ply > stats[SELDEPTH]:
        stats[SELDEPTH] = ply
    if stats[NODE_LIMIT] > 0 and stats[NODES] > stats[NODE_LIMIT]:
        stats[ABORTED] = 1
    elif (stats[NODES] & 255) == 0 and stop[0] != 0:
        stats[ABORTED] = 1
    return stats[ABORTED] != 0


@njit(cache=True, nogil=True, _nrt=False)
def _repetition(keys, key, c, ply) -> int:
    """The value of a repetition of ``key`` (position ``c`` of ``keys``) on the path or in the game, or 1
    (no repetition: 1 is never returned as a repetition value).

    A draw (0), unless one side gave check with every move since the first occurrence: that side loses.
    """
    koff = keys.shape[0] // 2  # keys[koff + i]: whether the side to move was in check in position i
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
    return 1


@njit(cache=True, nogil=True, _nrt=False)
def _qsearch(board, hands, kings, us, ply, qdepth, alpha, beta, key, geo, sq2p, p2sq, rel, pfile, dirs, stepm, slidem,
             tab, zb, zh, zs, ew, ec, tt, age, stop, stats, buf, scratch, scores, prm, opts) -> int:
    """Captures only (every move when in check; with ``opts[Q_PAWN_PROMOTE]`` also the pawn promotions that
    capture nothing, after the captures; with ``opts[Q_CHECKS]``, at the first ply (``qdepth`` 0) also the
    moves and drops that capture nothing and give check, last; with ``opts[Q_RECAPTURE]`` = N > 0, from
    ``qdepth`` -N on only the captures on the square of the move into the node), with stand pat; no legal
    move loses.

    Not in check, only captures are generated (after the stand pat), so a position without any
    legal move is recognised as lost only when in check (it practically never happens otherwise).
    With ``opts[PRUNE]``: a transposition table, and captures that lose material by SEE or cannot
    raise the value to alpha (delta pruning) are skipped; so are the checks that lose material by SEE;
    with ``prm[P_Q_MAX]`` = N > 0, not in check, only the first N moves in order are tried.
    """
    if _tick(ply, stop, stats):
        return 0
    N = geo[3]
    W = geo[2]
    prune = opts[PRUNE] != 0
    in_check = _in_check(board, kings, us, dirs, stepm, slidem, W)
    if ply >= MAX_PLY - 2:
        return _static_eval(board, hands, kings, us, key, geo, sq2p, rel, pfile, dirs, slidem, ew, ec)
    ttmove = -1
    alpha0 = alpha
    i = -1
    if prune:
        i = tt_probe(tt, key)
        if i >= 0:
            ttmove = tt[i, MOVE]
            v = value_from_tt(tt[i, VALUE], ply)
            f = tt[i, FLAG]
            if f == EXACT or (f == LOWER and v >= beta) or (f == UPPER and v <= alpha):
                return v
    stand = NO_EVAL
    if in_check:
        best = -WIN - 1
    else:
        # stand pat before generating: a side not in check practically always has a move
        if qdepth == 0 and opts[MATE1] != 0 and prm[P_MATE1_DEPTH] <= 0:
            m1 = _mate1(board, hands, kings, us, geo, sq2p, p2sq, rel, pfile, dirs, stepm, slidem, tab, buf[ply + 1],
                        scratch[ply + 1])
            if m1 >= 0:
                return WIN - ply - 1
        stand = _static_eval(board, hands, kings, us, key, geo, sq2p, rel, pfile, dirs, slidem, ew, ec)
        best = stand
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
        if opts[Q_PAWN_PROMOTE] != 0:
            cnt = _pawn_promotions(board, kings, us, geo, sq2p, p2sq, rel, dirs, stepm, slidem, buf[ply], cnt)
        if qdepth == 0 and opts[Q_CHECKS] != 0:
            cnt = _quiet_checks(board, hands, kings, us, geo, sq2p, p2sq, rel, pfile, dirs, stepm, slidem, tab,
                                buf[ply], cnt, buf[ply + 1], scratch[ply + 1], opts[Q_PAWN_PROMOTE])
        if opts[Q_RECAPTURE] > 0 and qdepth <= -opts[Q_RECAPTURE]:
            last = scratch[ply, Q_LAST]
            k = 0
            for x in range(cnt):
                if (buf[ply, x] >> 1) & 127 == last:
                    buf[ply, k] = buf[ply, x]
                    k += 1
            cnt = k
    if opts[PROMOTE_ONLY] != 0:
        cnt = _drop_unpromoted(board, buf[ply], cnt, N, sq2p)
    for x in range(cnt):
        m = buf[ply, x]
        frm = m >> 8
        victim = board[sq2p[(m >> 1) & 127]]
        sc = 0
        if m == ttmove:
            sc = 1 << 30
        elif frm < N and victim != 0:
            sc = prm[P_SEEV + (victim & 15)] * 16 - (board[sq2p[frm]] & 15) + (1 << 20)
        elif qdepth == 0 and opts[Q_CHECKS] != 0 and not in_check and _quiet_check(board, m, N, sq2p,
                                                                                   opts[Q_PAWN_PROMOTE]):
            sc = -1  # the checks after the pawn promotions
        scores[ply, x] = sc
    bestm = np.int64(-1)
    qmax = prm[P_Q_MAX] if prune and not in_check and prm[P_Q_MAX] > 0 else cnt
    for x in range(cnt):
        if x >= qmax:
            break  # the first moves in order were tried (``prm[P_Q_MAX]``)
        _pick(buf, scores, ply, x, cnt)
        m = np.int64(buf[ply, x])
        if prune and not in_check and qdepth == 0 and opts[Q_CHECKS] != 0 \
                and _quiet_check(board, m, N, sq2p, opts[Q_PAWN_PROMOTE]):
            if not _see_ge(board, m, us, np.int64(0), N, sq2p, dirs, stepm, slidem, W, prm, scratch[ply]):
                continue  # a check is not delta-pruned: its worth is the threat
        elif prune and not in_check:
            frm = m >> 8
            victim = board[sq2p[(m >> 1) & 127]]
            gain = prm[P_SEEV + (victim & 15)]
            if (m & 1) and frm < N:
                t = board[sq2p[frm]] & 15
                gain += prm[P_SEEV + t + 8] - prm[P_SEEV + t]
            if stand + gain + prm[P_Q_DELTA] <= alpha:
                continue
            if not _see_ge(board, m, us, np.int64(0), N, sq2p, dirs, stepm, slidem, W, prm, scratch[ply]):
                continue
        nk = _key_after(board, hands, us, m, key, N, sq2p, zb, zh, zs)
        tt_prefetch(tt, nk)  # the child's slots, while the move is made
        tt_prefetch(ec, nk)
        cap = _make(board, hands, kings, us, m, N, sq2p)
        if opts[Q_RECAPTURE] > 0:
            scratch[ply + 1, Q_LAST] = (m >> 1) & 127
        v = -_qsearch(board, hands, kings, np.int64(1 - us), np.int64(ply + 1), np.int64(qdepth - 1), -beta, -alpha,
                      nk, geo, sq2p, p2sq,
                      rel, pfile, dirs, stepm, slidem, tab, zb, zh, zs, ew, ec, tt, age, stop, stats, buf,
                      scratch, scores, prm, opts)
        _unmake(board, hands, kings, us, m, cap, N, sq2p)
        if stats[ABORTED] != 0:
            return 0
        if v > best:
            best = v
            if v > alpha:
                bestm = m
                alpha = v
                if alpha >= beta:
                    break
    if prune and (i < 0 or tt[i, DEPTH] <= 0):  # never over a deeper entry of the same position
        flag = LOWER if best >= beta else (EXACT if best > alpha0 else UPPER)
        tt_store(tt, key, np.int64(0), flag, best, bestm, ply, age)
    return best


@njit(cache=True, nogil=True, _nrt=False)
def _negamax(board, hands, kings, us, depth, ply, alpha, beta, key, cutnode, geo, sq2p, p2sq, rel, pfile, dirs,
             stepm, slidem, tab, zb, zh, zs, ew, ec, tt, age, stop, stats, pv, pvlen, buf, scratch, keys,
             scores, prm, heur, cont, ss, opts) -> int:
    """PVS negamax (fail-soft) with the pruning, extensions and reductions listed in the module docstring."""
    pvlen[ply] = ply
    N = geo[3]
    W = geo[2]
    h = stats[HIST]
    if ply == 0:
        ss[0, SS_PHK] = _pawn_hand_key(board, hands, N, sq2p, zb, zh)
    if ply == 0 and stats[ROOT_MOVES] > 0:
        # the root: every move of ``buf[0, :stats[ROOT_MOVES]]`` (put there by the caller, in the order of
        # ``_generate``) to ``depth`` in the window (alpha, beta). The PV is left in ``pv[0, :pvlen[0]]``; a
        # result <= alpha (no PV) or >= beta is only a bound. (Part of this kernel rather than a kernel that
        # calls it, which would compile for about as long again.)
        cnt = stats[ROOT_MOVES]
        stats[ROOT_MOVES] = 0
        ttmove = -1
        i = tt_probe(tt, key)
        if i >= 0:
            ttmove = tt[i, MOVE]
        in_check = _in_check(board, kings, us, dirs, stepm, slidem, W)
        keys[keys.shape[0] // 2 + h] = 1 if in_check else 0
        ss[0, SS_EXCL] = -1
        ss[1, SS_EXCL] = -1
        ss[0, SS_EVAL] = NO_EVAL
        ss[0, SS_CHECK] = 1 if in_check else 0
        _score_moves(board, buf, scores, np.int64(0), np.int64(0), cnt, us, ttmove, N, sq2p, dirs, stepm, slidem,
                     W, prm, heur, cont, ss, scratch[0], _see_mode(opts), opts[QUIET_PROMOTE], False, p2sq,
                     opts[ESCAPE_ORDER])
        best = -WIN - 1
        lo = alpha
        hi = beta
        lmr_row = P_LMR + min(depth, LMR_N - 1) * LMR_N
        for x in range(cnt):
            _pick(buf, scores, np.int64(0), x, cnt)
            m = np.int64(buf[0, x])
            frm = m >> 8
            quiet = (frm >= N or board[sq2p[(m >> 1) & 127]] == 0) and not _loud_promotion(board, m, sq2p,
                                                                                            opts[QUIET_PROMOTE])
            pt = _piece_to(board, m, N, sq2p, us)
            nk = _key_after(board, hands, us, m, key, N, sq2p, zb, zh, zs)
            tt_prefetch(tt, nk)  # the child's slots, while the move is made
            tt_prefetch(ec, nk)
            ss[1, SS_PHK] = _pawn_hand_key_after(board, hands, us, m, ss[0, SS_PHK], N, sq2p, zb, zh)
            cap = _make(board, hands, kings, us, m, N, sq2p)
            gives_check = _in_check(board, kings, 1 - us, dirs, stepm, slidem, W)
            keys[h + 1] = nk
            ss[0, SS_PT] = pt
            ss[0, SS_MOVE] = m
            # as at the other nodes, the searches of a move through one call: the first move with the full
            # window, the others with a null window (reduced when late and quiet), again unreduced if that
            # beat alpha, and with the full window if that fell inside it
            r = 0
            stage = 3
            sd, sa, sb, sc = depth - 1, -beta, -alpha, 0
            if x > 0:
                if opts[LMR] != 0 and opts[PRUNE] != 0 and depth >= 3 and x >= 3 and quiet and not gives_check \
                        and not in_check:
                    r = max(0, prm[lmr_row + min(x, LMR_N - 1)] - 1)
                    r = min(r, depth - 2)
                stage = 1
                sd, sa, sb, sc = depth - 1 - r, -alpha - 1, -alpha, 1
            while True:
                v = -_negamax(board, hands, kings, np.int64(1 - us), np.int64(sd), np.int64(1), np.int64(sa),
                              np.int64(sb), nk, np.int64(sc), geo, sq2p, p2sq, rel, pfile, dirs, stepm, slidem, tab,
                              zb, zh, zs, ew, ec, tt, age, stop, stats, pv, pvlen, buf, scratch, keys, scores, prm,
                              heur, cont, ss, opts)
                if stats[ABORTED] != 0 or stage == 3:
                    break
                if stage == 1:
                    stage = 2
                    if v > alpha and r > 0:
                        sd, sa, sb, sc = depth - 1, -alpha - 1, -alpha, 1
                        continue
                stage = 3
                if not (v > alpha and v < beta):
                    break
                sd, sa, sb, sc = depth - 1, -beta, -alpha, 0
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
    pvnode = 1 if beta - alpha > 1 else 0
    excluded = ss[ply, SS_EXCL]
    in_check = _in_check(board, kings, us, dirs, stepm, slidem, W)
    ss[ply, SS_CHECK] = 1 if in_check else 0
    c = h + ply
    koff = keys.shape[0] // 2
    keys[koff + c] = 1 if in_check else 0
    if excluded < 0:
        rep = _repetition(keys, key, c, ply)
        if rep != 1:
            return rep
    if depth <= 0 or ply >= MAX_PLY - 4:
        if opts[QUIESCE] != 0:
            return _qsearch(board, hands, kings, us, ply, np.int64(0), alpha, beta, key, geo, sq2p, p2sq, rel, pfile,
                            dirs, stepm, slidem, tab, zb, zh, zs, ew, ec, tt, age, stop, stats, buf, scratch, scores,
                            prm, opts)
        if _tick(ply, stop, stats):
            return 0
        if _generate(board, hands, kings, us, geo, sq2p, p2sq, rel, pfile, dirs, stepm, slidem, tab, buf[ply],
                     scratch[ply]) == 0:
            return -(WIN - ply)
        return _static_eval(board, hands, kings, us, key, geo, sq2p, rel, pfile, dirs, slidem, ew, ec)
    if _tick(ply, stop, stats):
        return 0
    prune = opts[PRUNE] != 0
    see_mode = _see_mode(opts)
    if prune:
        # mate-distance pruning
        lo = -(WIN - ply)
        hi = WIN - ply - 1
        if alpha < lo:
            alpha = lo
        if beta > hi:
            beta = hi
        if alpha >= beta:
            return alpha
    alpha0 = alpha
    ttmove = -1
    ttv = 0
    ttd = -1
    ttf = -1
    i = tt_probe(tt, key) if excluded < 0 else -1
    if i >= 0:
        ttmove = tt[i, MOVE]
        ttd = tt[i, DEPTH]
        ttf = tt[i, FLAG]
        ttv = value_from_tt(tt[i, VALUE], ply)
        if ttd >= depth and (not pvnode or not prune):
            if ttf == EXACT or (ttf == LOWER and ttv >= beta) or (ttf == UPPER and ttv <= alpha):
                return ttv
    if opts[MATE1] != 0 and not in_check and excluded < 0 and depth >= prm[P_MATE1_DEPTH]:
        m1 = _mate1(board, hands, kings, us, geo, sq2p, p2sq, rel, pfile, dirs, stepm, slidem, tab, buf[ply + 1],
                    scratch[ply + 1])
        if m1 >= 0:
            v = WIN - ply - 1
            pv[ply, ply] = m1
            pvlen[ply] = ply + 1
            tt_store(tt, key, np.int64(MAX_PLY), EXACT, v, m1, ply, age)
            return v
    # a capture as the TT move: the quiet moves are reduced more (``prm[P_TTCAP_R]``)
    ttcap = 1 if prm[P_TTCAP_R] > 0 and ttmove >= 0 and (ttmove >> 8) < N and board[sq2p[(ttmove >> 1) & 127]] != 0 \
        else 0
    # the static evaluation and whether it improves on ours two plies ago
    ev = NO_EVAL
    raw = NO_EVAL
    improving = 0
    corr = -1  # the correction-history slot (``prm[P_CORR_WEIGHT]``)
    if not in_check:
        ev = _static_eval(board, hands, kings, us, key, geo, sq2p, rel, pfile, dirs, slidem, ew, ec)
        raw = ev
        if prm[P_CORR_WEIGHT] > 0 and excluded < 0:
            corr = H_CORR + us * CORR_N + _pawn_hand_slot(ss[ply, SS_PHK])
            ev = _corrected(heur, corr, ev, prm[P_CORR_WEIGHT])
        if ply >= 2 and ss[ply - 2, SS_EVAL] != NO_EVAL and ev > ss[ply - 2, SS_EVAL]:
            improving = 1
    ss[ply, SS_EVAL] = ev
    ss[ply + 1, SS_EXCL] = -1
    if prune and not in_check and not pvnode and excluded < 0 and abs(beta) < WIN_THRESHOLD:
        # reverse futility: far above beta at a shallow depth
        if depth <= prm[P_RFP_DEPTH] and ev - prm[P_RFP_MARGIN] * depth + prm[P_RFP_IMPROVING] * improving >= beta:
            return ev
        # razoring: far below alpha at a shallow depth, and captures do not help
        if depth <= prm[P_RAZOR_DEPTH] and ev + prm[P_RAZOR_MARGIN] * depth < alpha:
            v = _qsearch(board, hands, kings, us, ply, np.int64(0), alpha, alpha + 1, key, geo, sq2p, p2sq, rel,
                         pfile, dirs, stepm, slidem, tab, zb, zh, zs, ew, ec, tt, age, stop, stats, buf, scratch,
                         scores, prm, opts)
            if stats[ABORTED] != 0:
                return 0
            if v <= alpha:
                return v
    threat = -1  # the square of ours the null move's refutation captures on (``opts[THREAT]``)
    if (opts[NULLMOVE] != 0 and not in_check and not pvnode and excluded < 0 and depth >= prm[P_NULL_DEPTH]
            and abs(beta) < WIN_THRESHOLD and ev >= beta and (ply == 0 or ss[ply - 1, SS_PT] >= 0)):
        r = prm[P_NULL_BASE] + depth // prm[P_NULL_DIV] + min(3, (ev - beta) // prm[P_NULL_EVAL])
        nk = key ^ zs[0]
        keys[h + ply + 1] = nk
        ss[ply, SS_PT] = -1
        ss[ply, SS_MOVE] = 0
        ss[ply + 1, SS_PHK] = ss[ply, SS_PHK]
        v = -_negamax(board, hands, kings, np.int64(1 - us), np.int64(depth - r), np.int64(ply + 1), -beta,
                      -beta + 1, nk, np.int64(1 - cutnode), geo, sq2p, p2sq, rel, pfile, dirs, stepm, slidem, tab, zb,
                      zh, zs, ew, ec, tt, age, stop, stats, pv, pvlen, buf, scratch, keys, scores, prm,
                      heur, cont, ss, opts)
        if stats[ABORTED] != 0:
            return 0
        if v >= beta:
            return beta if v >= WIN_THRESHOLD else v
        if opts[THREAT] != 0:
            ti = tt_probe(tt, nk)
            if ti >= 0 and tt[ti, MOVE] > 0:
                tsq = (tt[ti, MOVE] >> 1) & 127
                if board[sq2p[tsq]] & (BLACK_BIT if us == 0 else WHITE_BIT):
                    threat = tsq
    # ProbCut: a capture that clears beta + margin by quiescence and by a search 4 plies shallower cuts at once
    pcbeta = beta + prm[P_PROBCUT_MARGIN]
    if (prm[P_PROBCUT_MARGIN] > 0 and prune and not in_check and not pvnode and excluded < 0
            and depth >= prm[P_PROBCUT_DEPTH] and abs(beta) < WIN_THRESHOLD and pcbeta < WIN_THRESHOLD
            and not (ttd >= depth - 3 and ttv < pcbeta)):
        n = _captures(board, kings, us, geo, sq2p, p2sq, rel, dirs, stepm, slidem, tab, buf[ply], scratch[ply])
        if opts[PROMOTE_ONLY] != 0:
            n = _drop_unpromoted(board, buf[ply], n, N, sq2p)
        for x in range(n):
            m = buf[ply, x]
            scores[ply, x] = _TT_SCORE if m == ttmove else prm[P_SEEV + (board[sq2p[(m >> 1) & 127]] & 15)] * 16 - (
                board[sq2p[m >> 8]] & 15)
        for x in range(n):
            _pick(buf, scores, ply, x, n)
            m = np.int64(buf[ply, x])
            if not _see_ge(board, m, us, np.int64(pcbeta - ev), N, sq2p, dirs, stepm, slidem, W, prm, scratch[ply]):
                continue
            nk = _key_after(board, hands, us, m, key, N, sq2p, zb, zh, zs)
            pt = _piece_to(board, m, N, sq2p, us)
            ss[ply + 1, SS_PHK] = _pawn_hand_key_after(board, hands, us, m, ss[ply, SS_PHK], N, sq2p, zb, zh)
            cap = _make(board, hands, kings, us, m, N, sq2p)
            keys[h + ply + 1] = nk
            ss[ply, SS_PT] = pt
            ss[ply, SS_MOVE] = m
            v = -_qsearch(board, hands, kings, np.int64(1 - us), np.int64(ply + 1), np.int64(0), -pcbeta,
                          -pcbeta + 1, nk, geo, sq2p, p2sq, rel, pfile, dirs, stepm, slidem, tab, zb, zh, zs, ew, ec,
                          tt, age, stop, stats, buf, scratch, scores, prm, opts)
            if v >= pcbeta and stats[ABORTED] == 0:
                v = -_negamax(board, hands, kings, np.int64(1 - us), np.int64(depth - 4), np.int64(ply + 1), -pcbeta,
                              -pcbeta + 1, nk, np.int64(1 - cutnode), geo, sq2p, p2sq, rel, pfile, dirs, stepm, slidem,
                              tab, zb, zh, zs, ew, ec, tt, age, stop, stats, pv, pvlen, buf, scratch, keys, scores,
                              prm, heur, cont, ss, opts)
            _unmake(board, hands, kings, us, m, cap, N, sq2p)
            if stats[ABORTED] != 0:
                return 0
            if v >= pcbeta:
                tt_store(tt, key, np.int64(depth - 3), LOWER, v, m, ply, age)
                return v - prm[P_PROBCUT_MARGIN] if v < WIN_THRESHOLD else v
    if prune and ttmove < 0 and excluded < 0 and prm[P_IIR_DEPTH] > 0 and depth >= prm[P_IIR_DEPTH] and (
            pvnode or cutnode):
        depth -= 1  # internal iterative reduction: no move from an earlier search to trust
    # the TT move is searched before the others are generated (a cutoff by it saves generating them); they
    # are generated when it did not cut, and put in the order the generator-first search had them in
    lazy = ttmove >= 0 and _pseudo_legal(board, hands, us, np.int64(ttmove), N, sq2p)
    if lazy:
        buf[ply, 0] = ttmove
        scores[ply, 0] = _TT_SCORE
        n = 1
        placed = 1
    else:
        n = _search_moves(board, hands, kings, us, geo, sq2p, p2sq, rel, pfile, dirs, stepm, slidem, tab, buf[ply],
                          scratch[ply], opts[PROMOTE_ONLY])
        if n == 0:
            return -(WIN - ply)
        placed = _tt_first(buf, scores, ply, n, ttmove)
    p1 = ss[ply - 1, SS_PT] if ply >= 1 else -1
    p2 = ss[ply - 2, SS_PT] if ply >= 2 else -1
    best = -WIN - 1
    bestm = np.int64(-1)
    searched = 0
    mc = 0  # moves considered (searched or pruned)
    lmr_row = P_LMR + min(depth, LMR_N - 1) * LMR_N
    x = -1
    while True:
        x += 1
        if x >= n:
            if not lazy:
                break
            lazy = False
            n = _search_moves(board, hands, kings, us, geo, sq2p, p2sq, rel, pfile, dirs, stepm, slidem, tab,
                              buf[ply], scratch[ply], opts[PROMOTE_ONLY])
            placed = _tt_first(buf, scores, ply, n, ttmove)
            if placed == 0:
                x = 0  # (only a TT move of another position with the same key is not among them)
            if x >= n:
                break
        if x == placed:
            _score_moves(board, buf, scores, ply, np.int64(x), n, us, ttmove, N, sq2p, dirs, stepm, slidem, W, prm,
                         heur, cont, ss, scratch[ply], see_mode, opts[QUIET_PROMOTE], True, p2sq, opts[ESCAPE_ORDER])
        if x >= placed:
            _next_move(board, buf, scores, ply, np.int64(x), n, us, see_mode, N, sq2p, dirs, stepm, slidem, W, prm,
                       scratch[ply])
        m = np.int64(buf[ply, x])
        if m == excluded:
            scores[ply, x] = _SKIPPED
            continue
        mc += 1
        frm = m >> 8
        to = (m >> 1) & 127
        capture = frm < N and board[sq2p[to]] != 0
        quiet = not capture and not _loud_promotion(board, m, sq2p, opts[QUIET_PROMOTE])
        pt = _piece_to(board, m, N, sq2p, us)
        hist = 0  # a quiet move's history (read after late-move pruning, which does not need it)
        # a quiet move that takes a piece out of a threat: neither pruned nor reduced as much
        spare = quiet and frm < N and searched > 0 and (
            (threat >= 0 and frm == threat)
            or (opts[ESCAPE] != 0 and _en_prise(board, frm, us, N, sq2p, p2sq, dirs, stepm, slidem, W, prm,
                                                scratch[ply])))
        # the shallow-depth pruning of late moves (only once a move has been searched and none mates us)
        if prune and searched > 0 and best > -WIN_THRESHOLD and alpha < WIN_THRESHOLD:
            lmr_depth = max(0, depth - 1 - prm[lmr_row + min(mc, LMR_N - 1)])
            if spare:
                hist = _quiet_score(us, m, pt, heur, cont, p1, p2)
            elif quiet:
                if depth <= prm[P_LMP_DEPTH] and not in_check and \
                        mc > (prm[P_LMP_BASE] + depth * depth) // (2 - improving):
                    scores[ply, x] = _SKIPPED
                    if threat < 0 and opts[ESCAPE] == 0:
                        # every quiet move after this one is pruned so too (nothing is searched in between to
                        # change alpha): drop them at once rather than pick each one to prune it
                        q, c = _drop_late_quiets(board, buf, scores, ply, np.int64(x + 1), n, excluded, N, sq2p,
                                                 opts[QUIET_PROMOTE])
                        if q >= 0:
                            mc += q
                            n = x + 1 + c
                    continue
                hist = _quiet_score(us, m, pt, heur, cont, p1, p2)
                if lmr_depth <= 6 and (
                        (not in_check and lmr_depth <= prm[P_FUT_DEPTH]
                         and ev + prm[P_FUT_BASE] + prm[P_FUT_MUL] * lmr_depth <= alpha)
                        or (lmr_depth <= 3 and hist < -prm[P_HIST_PRUNE] * depth)
                        or not _see_ge(board, m, us, np.int64(-prm[P_SEE_QUIET] * lmr_depth * lmr_depth), N, sq2p,
                                       dirs, stepm, slidem, W, prm, scratch[ply])):
                    # a check is not pruned so
                    if not _direct_check(board, m, us, kings, N, sq2p, dirs, stepm, slidem, W):
                        scores[ply, x] = _SKIPPED
                        continue
            elif depth <= 6 and not _see_ge(board, m, us, np.int64(-prm[P_SEE_CAPTURE] * depth), N, sq2p, dirs,
                                            stepm, slidem, W, prm, scratch[ply]):
                scores[ply, x] = _SKIPPED
                continue
        elif quiet:
            hist = _quiet_score(us, m, pt, heur, cont, p1, p2)
        # extensions
        ext = 0
        if (opts[SINGULAR] != 0 and m == ttmove and excluded < 0 and ply > 0 and depth >= prm[P_SE_DEPTH]
                and ttd >= depth - 3 and (ttf == LOWER or ttf == EXACT) and abs(ttv) < WIN_THRESHOLD):
            sbeta = ttv - prm[P_SE_MARGIN] * depth // 8
            ss[ply, SS_EXCL] = m
            v = _negamax(board, hands, kings, us, np.int64((depth - 1) // 2), ply, np.int64(sbeta - 1), sbeta, key,
                         cutnode, geo, sq2p, p2sq, rel, pfile, dirs, stepm, slidem, tab, zb, zh, zs, ew, ec,
                          tt, age, stop, stats, pv, pvlen, buf, scratch, keys, scores, prm, heur, cont, ss, opts)
            ss[ply, SS_EXCL] = -1
            if stats[ABORTED] != 0:
                return 0
            # the excluded search used this ply's move buffer: generate and order again
            n = _search_moves(board, hands, kings, us, geo, sq2p, p2sq, rel, pfile, dirs, stepm, slidem, tab,
                              buf[ply], scratch[ply], opts[PROMOTE_ONLY])
            placed = _tt_first(buf, scores, ply, n, ttmove)  # (it is there: it was found there before)
            lazy = False
            if v < sbeta:
                ext = 1
            elif sbeta >= beta:
                return sbeta  # multi-cut: another move also beats beta
            elif ttv >= beta or cutnode:
                # a negative extension (0 plies by default): another move comes close, so the TT move goes shallower
                ext = -prm[P_SE_NEG]
        nk = _key_after(board, hands, us, m, key, N, sq2p, zb, zh, zs)
        tt_prefetch(tt, nk)  # the child's slots, while the move is made
        tt_prefetch(ec, nk)
        ss[ply + 1, SS_PHK] = _pawn_hand_key_after(board, hands, us, m, ss[ply, SS_PHK], N, sq2p, zb, zh)
        cap = _make(board, hands, kings, us, m, N, sq2p)
        gives_check = _in_check(board, kings, 1 - us, dirs, stepm, slidem, W)
        if ext == 0 and gives_check and opts[EXTEND] != 0 and ply < MAX_PLY // 2 and (
                not prune or depth >= 3):
            ext = 1
        keys[h + ply + 1] = nk
        ss[ply, SS_PT] = pt
        ss[ply, SS_MOVE] = m
        new_depth = depth - 1 + ext
        searched += 1
        # the searches of the move, all through one call (numba types each call of a kernel to itself by
        # typing the whole kernel again: fewer calls, a shorter cold compile): the first move with the full
        # window; the others with a null window, reduced (LMR), again unreduced if that beat alpha, and again
        # with the full window at a PV node if that fell inside it
        r = 0
        stage = 3  # 1: the reduced search runs, 2: the unreduced null-window one, 3: the last one
        sd, sa, sb, sc = new_depth, -beta, -alpha, 0 if pvnode else 1 - cutnode
        if searched > 1:
            if opts[LMR] != 0 and depth >= 2 and searched > 1 + pvnode and (quiet or cutnode):
                r = prm[lmr_row + min(mc, LMR_N - 1)]
                if not prune:  # the old fixed reductions, for the plain search with only LMR on
                    r = 0 if searched < 5 or not quiet or in_check else (1 if searched < 13 else 2)
                else:
                    r += cutnode - pvnode + (1 - improving)
                    if gives_check:
                        r -= 1
                    if quiet:
                        r -= hist // prm[P_HIST_DIV]
                        r += prm[P_TTCAP_R] * ttcap
                    else:
                        r -= 1
                    if spare:
                        r -= prm[P_SPARE_R]
                    if r < 0:
                        r = 0
                    if r > new_depth - 1:
                        r = max(0, new_depth - 1)
            stage = 1
            sd, sa, sb, sc = new_depth - r, -alpha - 1, -alpha, 1
        while True:
            v = -_negamax(board, hands, kings, np.int64(1 - us), np.int64(sd), np.int64(ply + 1), np.int64(sa),
                          np.int64(sb), nk, np.int64(sc), geo, sq2p, p2sq, rel, pfile, dirs, stepm, slidem, tab, zb,
                          zh, zs, ew, ec, tt, age, stop, stats, pv, pvlen, buf, scratch, keys, scores, prm, heur, cont,
                          ss, opts)
            if stats[ABORTED] != 0 or stage == 3:
                break
            if stage == 1:
                stage = 2
                if v > alpha and r > 0:
                    sd, sa, sb, sc = new_depth, -alpha - 1, -alpha, 1 - cutnode
                    continue
            stage = 3
            if not (pvnode and v > alpha and v < beta):
                break
            sd, sa, sb, sc = new_depth, -beta, -alpha, 0
        _unmake(board, hands, kings, us, m, cap, N, sq2p)
        if stats[ABORTED] != 0:
            return 0
        if v > best:
            best = v
            if v > alpha:
                bestm = m
                alpha = v
                pv[ply, ply] = m
                for q in range(ply + 1, pvlen[ply + 1]):
                    pv[ply, q] = pv[ply + 1, q]
                pvlen[ply] = max(pvlen[ply + 1], ply + 1)
                if alpha >= beta:
                    _update_histories(board, buf, scores, ply, np.int64(x), us, depth, N, sq2p, prm, heur, cont, ss,
                                      opts[QUIET_PROMOTE])
                    break
    if searched == 0:
        # every move was excluded (a singular search): fail low
        return alpha if excluded >= 0 else best
    if excluded < 0:
        flag = EXACT
        if best <= alpha0:
            flag = UPPER
        elif best >= beta:
            flag = LOWER
        tt_store(tt, key, depth, flag, best, bestm, ply, age)
        # the correction history learns from a result that says more than the evaluation did: not a capture's,
        # not a lower bound under it, not an upper bound over it
        if corr >= 0 and abs(best) < WIN_THRESHOLD and not (
                bestm >= 0 and (bestm >> 8) < N and board[sq2p[(bestm >> 1) & 127]] != 0) and not (
                flag == LOWER and best <= ev) and not (flag == UPPER and best >= ev):
            _corr_update(heur, corr, best - raw, depth)
    return best


@njit(cache=True, nogil=True, _nrt=False)
def _search_move(board, hands, kings, us, m, depth, key, lo, hi, geo, sq2p, p2sq, rel, pfile, dirs, stepm, slidem,
                 tab, zb, zh, zs, ew, ec, tt, age, stop, stats, pv, pvlen, buf, scratch, keys, scores, prm,
                 heur, cont, ss, opts) -> int:
    """The value of root move ``m`` searched to ``depth`` in the window (``lo``, ``hi``); its line in ``pv[0]``.

    For the selective-deepening root, which searches each root move to a depth of its own. A value
    ``<= lo`` or ``>= hi`` is only a bound.
    """
    N = geo[3]
    h = stats[HIST]
    pvlen[0] = 0
    pvlen[1] = 1
    ss[0, SS_EXCL] = -1
    ss[1, SS_EXCL] = -1
    ss[0, SS_EVAL] = NO_EVAL
    ss[0, SS_PT] = _piece_to(board, m, N, sq2p, us)
    nk = _key_after(board, hands, us, m, key, N, sq2p, zb, zh, zs)
    tt_prefetch(tt, nk)  # the child's slots, while the move is made
    tt_prefetch(ec, nk)
    ss[0, SS_PHK] = _pawn_hand_key(board, hands, N, sq2p, zb, zh)
    ss[1, SS_PHK] = _pawn_hand_key_after(board, hands, us, m, ss[0, SS_PHK], N, sq2p, zb, zh)
    cap = _make(board, hands, kings, us, m, N, sq2p)
    keys[h + 1] = nk
    v = -_negamax(board, hands, kings, np.int64(1 - us), np.int64(depth - 1), np.int64(1), -hi, -lo, nk, np.int64(0),
                  geo, sq2p, p2sq, rel, pfile, dirs, stepm, slidem, tab, zb, zh, zs, ew, ec, tt, age,
                  stop, stats, pv, pvlen, buf, scratch, keys, scores, prm, heur, cont, ss, opts)
    _unmake(board, hands, kings, us, m, cap, N, sq2p)
    pv[0, 0] = m
    for q in range(1, pvlen[1]):
        pv[0, q] = pv[1, q]
    pvlen[0] = max(pvlen[1], 1)
    return v
