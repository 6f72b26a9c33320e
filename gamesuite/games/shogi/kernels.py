"""numba kernels of shogi: legal move generation, make/unmake, perft.

The board is the padded mailbox of ``board.py`` (chosen over a flat board with
neighbour tables by measurement: see ``docs/shogi.md``). Legal moves are
generated directly: checkers and pinned pieces are found by scanning the eight
rays from the king once, so no move is made and taken back to test legality
(except the rare pawn drop that gives check, tested for pawn-drop mate).

The plain-Python reference is ``reference.py``; the tests compare the two.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .board import (
    BLACK_BIT,
    KING,
    KNIGHT,
    LANCE,
    PAWN,
    ROOK,
    SLIDE_MASK,
    STEP_MASK,
    WHITE_BIT,
    Geometry,
)

MAX_MOVES = 1024  # more than the 593 legal moves of the richest known position
MAX_PLY = 64
EVMASK = 64  # scratch[EVMASK + p]: evasion squares while in check
SCRATCH = EVMASK + 256

# stats slots of the perft kernel
NODES, ABORTED = 0, 1


@njit(cache=True, nogil=True, _nrt=False)
def _attacked(board, p, cbit, s, dirs, stepm, slidem, W) -> bool:
    """Whether padded square ``p`` is attacked by the side with colour bit ``cbit`` (orientation ``s``)."""
    for i in range(8):
        d = s * dirs[i]
        q = p - d
        v = board[q]
        if v & cbit:
            t = v & 15
            if ((stepm[t] | slidem[t]) >> i) & 1:
                return True
        elif v == 0:
            q -= d
            while board[q] == 0:
                q -= d
            v = board[q]
            if (v & cbit) and (slidem[v & 15] >> i) & 1:
                return True
    kn = cbit | KNIGHT
    if board[p + s * (2 * W + 1)] == kn or board[p + s * (2 * W - 1)] == kn:
        return True
    return False


@njit(cache=True, nogil=True, _nrt=False)
def _pawn_drop_mates(board, p, us, ek, dirs, stepm, slidem, W) -> bool:
    """Whether a pawn of ``us`` dropped on ``p`` (checking the king on ``ek``) leaves no legal reply."""
    ubit = BLACK_BIT if us == 0 else WHITE_BIT
    tbit = WHITE_BIT if us == 0 else BLACK_BIT
    su = 1 if us == 0 else -1
    st = -su
    board[p] = ubit | PAWN
    mate = True
    king = board[ek]
    # the king steps away or takes the pawn
    board[ek] = 0
    for i in range(8):
        to = ek + dirs[i]
        v = board[to]
        if (v == 0 or (v & ubit)) and not _attacked(board, to, ubit, su, dirs, stepm, slidem, W):
            mate = False
            break
    board[ek] = king
    if mate:
        # another piece takes the pawn without exposing its king
        for i in range(8):
            d = st * dirs[i]
            q = p - d
            v = board[q]
            while v == 0:
                q -= d
                v = board[q]
            if not (v & tbit):
                continue
            t = v & 15
            if t == KING:
                continue
            if q == p - d:
                if not (((stepm[t] | slidem[t]) >> i) & 1):
                    continue
            elif not ((slidem[t] >> i) & 1):
                continue
            board[q] = 0
            board[p] = v
            safe = not _attacked(board, ek, ubit, su, dirs, stepm, slidem, W)
            board[p] = ubit | PAWN
            board[q] = v
            if safe:
                mate = False
                break
        if mate:
            kn = tbit | KNIGHT
            for off in (2 * W + 1, 2 * W - 1):
                q = p + st * off
                if board[q] == kn:
                    board[q] = 0
                    board[p] = kn
                    safe = not _attacked(board, ek, ubit, su, dirs, stepm, slidem, W)
                    board[p] = ubit | PAWN
                    board[q] = kn
                    if safe:
                        mate = False
                        break
    board[p] = 0
    return mate


@njit(cache=True, nogil=True, _nrt=False)
def _generate(board, hands, kings, us, geo, sq2p, p2sq, rel, pfile, dirs, stepm, slidem, tab, out, scratch) -> int:
    """Write the legal moves of ``us`` into ``out``; return how many (unsorted).

    ``rel[c * PN + p]`` is the rank of ``p`` counted from colour ``c``'s far end, ``pfile[p]`` its column;
    ``tab`` lists the moves of each colour and type (see ``board.move_table``). ``scratch`` is an
    ``int64`` work array of ``SCRATCH`` cells, zero from ``EVMASK`` on (it is left so).
    """
    W = geo[2]
    N = geo[3]
    zone = geo[4]
    PN = geo[5]
    ubit = BLACK_BIT if us == 0 else WHITE_BIT
    tbit = WHITE_BIT if us == 0 else BLACK_BIT
    st = -1 if us == 0 else 1
    them = 1 - us
    ro = us * PN
    k = kings[us]
    n = 0
    # -- checkers and pins, from the king's eight rays --------------------
    npin = 0  # pinned squares in scratch[0:8], their lines in scratch[8:16]
    nchk = 0
    chk = -1
    chkdir = -1
    if k >= 0:
        for i in range(8):
            d = dirs[i]
            j = i if us == 0 else (i + 4) & 7  # the direction index, in their orientation, of a move toward k
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
            elif v & ubit:
                q2 = q + d
                w = board[q2]
                while w == 0:
                    q2 += d
                    w = board[q2]
                if (w & tbit) and (slidem[w & 15] >> j) & 1:
                    scratch[npin] = q
                    scratch[8 + npin] = i & 3
                    npin += 1
        kn = tbit | KNIGHT
        q = k + st * (2 * W + 1)
        if board[q] == kn:
            nchk += 1
            chk = q
            chkdir = -1
        q = k + st * (2 * W - 1)
        if board[q] == kn:
            nchk += 1
            chk = q
            chkdir = -1
        # -- king moves ---------------------------------------------------
        kv = board[k]
        board[k] = 0
        ksq = p2sq[k] * 256
        for i in range(8):
            to = k + dirs[i]
            v = board[to]
            if (v == 0 or (v & tbit)) and not _attacked(board, to, tbit, st, dirs, stepm, slidem, W):
                out[n] = ksq + p2sq[to] * 2
                n += 1
        board[k] = kv
        if nchk >= 2:
            return n
    # evasion targets (the checker and the squares between it and the king) marked in scratch[EVMASK + p]
    if nchk == 1:
        scratch[EVMASK + chk] = 1
        if chkdir >= 0:
            q = k + dirs[chkdir]
            while q != chk:
                scratch[EVMASK + q] = 1
                q += dirs[chkdir]
    # -- piece moves --------------------------------------------------------
    pawnfiles = 0
    first = sq2p[0]
    last = sq2p[N - 1]
    tb = us * 16 * 11
    for p in range(first, last + 1):
        v = board[p]
        if not (v & ubit):
            continue
        t = v & 15
        if t == KING:
            continue
        if t == PAWN:
            pawnfiles |= 1 << pfile[p]
        pin = -1
        if npin:
            for x in range(npin):
                if scratch[x] == p:
                    pin = scratch[8 + x]
        fsq = p2sq[p] * 256
        rf = rel[ro + p]
        promotable = t <= ROOK
        e0 = tb + t * 11
        for x in range(tab[e0]):
            e = tab[e0 + 1 + x]
            info = e & 15
            if pin >= 0 and (info & 7) != pin:
                continue
            d = e >> 4
            to = p + d
            while True:
                w = board[to]
                if (w == 0 or (w & tbit)) and (nchk == 0 or scratch[EVMASK + to] != 0):
                    m = fsq + p2sq[to] * 2
                    rt = rel[ro + to]
                    if promotable and (rf < zone or rt < zone):
                        out[n] = m + 1
                        n += 1
                        if not ((t <= LANCE and rt == 0) or (t == KNIGHT and rt <= 1)):
                            out[n] = m
                            n += 1
                    else:
                        out[n] = m
                        n += 1
                if w != 0 or info < 8:
                    break
                to += d
    # -- drops ----------------------------------------------------------------
    nk = 0  # kinds in hand in scratch[32:40]
    for kind in range(1, 8):
        if hands[us, kind] > 0:
            scratch[32 + nk] = kind
            nk += 1
    if nk > 0:
        ek = kings[them]
        mate_sq = ek + st * dirs[0] if ek >= 0 else -1  # where a pawn of ours would check their king
        for sq in range(N):
            p = sq2p[sq]
            if board[p] != 0 or (nchk == 1 and scratch[EVMASK + p] == 0):
                continue
            rr = rel[ro + p]
            for x in range(nk):
                kind = scratch[32 + x]
                if kind == PAWN:
                    if rr == 0 or (pawnfiles >> pfile[p]) & 1:
                        continue
                    if p == mate_sq and _pawn_drop_mates(board, p, us, ek, dirs, stepm, slidem, W):
                        continue
                elif kind == LANCE:
                    if rr == 0:
                        continue
                elif kind == KNIGHT:
                    if rr <= 1:
                        continue
                out[n] = (N + kind - 1) * 256 + sq * 2
                n += 1
    if nchk == 1:
        scratch[EVMASK + chk] = 0
        if chkdir >= 0:
            q = k + dirs[chkdir]
            while q != chk:
                scratch[EVMASK + q] = 0
                q += dirs[chkdir]
    return n


@njit(cache=True, nogil=True, _nrt=False)
def _captures(board, kings, us, geo, sq2p, p2sq, rel, dirs, stepm, slidem, tab, out, scratch) -> int:
    """Write the legal captures of ``us`` into ``out`` (``us`` must not be in check); return how many."""
    W = geo[2]
    N = geo[3]
    zone = geo[4]
    PN = geo[5]
    ubit = BLACK_BIT if us == 0 else WHITE_BIT
    tbit = WHITE_BIT if us == 0 else BLACK_BIT
    st = -1 if us == 0 else 1
    ro = us * PN
    k = kings[us]
    n = 0
    npin = 0
    if k >= 0:
        for i in range(8):
            d = dirs[i]
            j = i if us == 0 else (i + 4) & 7
            q = k + d
            v = board[q]
            while v == 0:
                q += d
                v = board[q]
            if v & ubit:
                q2 = q + d
                w = board[q2]
                while w == 0:
                    q2 += d
                    w = board[q2]
                if (w & tbit) and (slidem[w & 15] >> j) & 1:
                    scratch[npin] = q
                    scratch[8 + npin] = i & 3
                    npin += 1
        kv = board[k]
        board[k] = 0
        ksq = p2sq[k] * 256
        for i in range(8):
            to = k + dirs[i]
            if (board[to] & tbit) and not _attacked(board, to, tbit, st, dirs, stepm, slidem, W):
                out[n] = ksq + p2sq[to] * 2
                n += 1
        board[k] = kv
    first = sq2p[0]
    last = sq2p[N - 1]
    tb = us * 16 * 11
    for p in range(first, last + 1):
        v = board[p]
        if not (v & ubit):
            continue
        t = v & 15
        if t == KING:
            continue
        pin = -1
        if npin:
            for x in range(npin):
                if scratch[x] == p:
                    pin = scratch[8 + x]
        fsq = p2sq[p] * 256
        rf = rel[ro + p]
        promotable = t <= ROOK
        e0 = tb + t * 11
        for x in range(tab[e0]):
            e = tab[e0 + 1 + x]
            info = e & 15
            if pin >= 0 and (info & 7) != pin:
                continue
            d = e >> 4
            to = p + d
            w = board[to]
            if info >= 8:
                while w == 0:
                    to += d
                    w = board[to]
            if w & tbit:
                m = fsq + p2sq[to] * 2
                rt = rel[ro + to]
                if promotable and (rf < zone or rt < zone):
                    out[n] = m + 1
                    n += 1
                    if not ((t <= LANCE and rt == 0) or (t == KNIGHT and rt <= 1)):
                        out[n] = m
                        n += 1
                else:
                    out[n] = m
                    n += 1
    return n


@njit(cache=True, nogil=True, _nrt=False)
def _make(board, hands, kings, us, move, N, sq2p) -> int:
    """Play ``move`` for ``us``; return the captured cell value (0 if none)."""
    ubit = BLACK_BIT if us == 0 else WHITE_BIT
    frm = move >> 8
    tp = sq2p[(move >> 1) & 127]
    if frm >= N:
        kind = frm - N + 1
        board[tp] = ubit | kind
        hands[us, kind] -= 1
        return 0
    fp = sq2p[frm]
    v = board[fp]
    cap = board[tp]
    if cap != 0:
        ct = cap & 15
        if ct > KING:
            ct -= KING
        hands[us, ct] += 1
    board[tp] = v + 8 if (move & 1) else v
    board[fp] = 0
    if (v & 15) == KING:
        kings[us] = tp
    return cap


@njit(cache=True, nogil=True, _nrt=False)
def _unmake(board, hands, kings, us, move, cap, N, sq2p) -> None:
    """Take back ``move`` of ``us`` that captured ``cap``."""
    frm = move >> 8
    tp = sq2p[(move >> 1) & 127]
    if frm >= N:
        kind = frm - N + 1
        board[tp] = 0
        hands[us, kind] += 1
        return
    fp = sq2p[frm]
    v = board[tp]
    if move & 1:
        v -= 8
    board[fp] = v
    board[tp] = cap
    if cap != 0:
        ct = cap & 15
        if ct > KING:
            ct -= KING
        hands[us, ct] -= 1
    if (v & 15) == KING:
        kings[us] = fp


@njit(cache=True, nogil=True, _nrt=False)
def _perft(board, hands, kings, us, depth, geo, sq2p, p2sq, rel, pfile, dirs, stepm, slidem, tab, buf, scratch,
           stop, stats) -> int:
    """Leaf count of the legal move tree to ``depth`` (bulk counting at the last ply)."""
    n = _generate(board, hands, kings, us, geo, sq2p, p2sq, rel, pfile, dirs, stepm, slidem, tab, buf[depth],
                  scratch[depth])
    if depth <= 1:
        return n
    stats[NODES] += 1
    if (stats[NODES] & 1023) == 0 and stop[0] != 0:
        stats[ABORTED] = 1
    if stats[ABORTED] != 0:
        return 0
    N = geo[3]
    total = 0
    if depth == 2:
        # the last ply inline: make each move and count the replies (no recursive call)
        leaf = buf[0]
        sc = scratch[0]
        them = np.int64(1 - us)
        for i in range(n):
            m = np.int64(buf[depth, i])
            cap = _make(board, hands, kings, us, m, N, sq2p)
            total += _generate(board, hands, kings, them, geo, sq2p, p2sq, rel, pfile, dirs, stepm, slidem, tab,
                               leaf, sc)
            _unmake(board, hands, kings, us, m, cap, N, sq2p)
        return total
    for i in range(n):
        m = np.int64(buf[depth, i])
        cap = _make(board, hands, kings, us, m, N, sq2p)
        total += _perft(board, hands, kings, np.int64(1 - us), np.int64(depth - 1), geo, sq2p, p2sq, rel, pfile,
                        dirs, stepm, slidem, tab, buf, scratch, stop, stats)
        _unmake(board, hands, kings, us, m, cap, N, sq2p)
    return total


@njit(cache=True, nogil=True, _nrt=False)
def _in_check(board, kings, us, dirs, stepm, slidem, W) -> bool:
    k = kings[us]
    if k < 0:
        return False
    if us == 0:
        return _attacked(board, k, WHITE_BIT, -1, dirs, stepm, slidem, W)
    return _attacked(board, k, BLACK_BIT, 1, dirs, stepm, slidem, W)


# -- Python wrappers ----------------------------------------------------------


def _check_arrays(g: Geometry, board: np.ndarray, hands: np.ndarray, kings: np.ndarray, color: int) -> None:
    if board.dtype != np.int8 or board.shape != (g.PN,):
        raise ValueError(f"board must be int8 of shape ({g.PN},), got {board.dtype} {board.shape}")
    if hands.dtype != np.int8 or hands.shape != (2, 8):
        raise ValueError(f"hands must be int8 of shape (2, 8), got {hands.dtype} {hands.shape}")
    if kings.dtype != np.int64 or kings.shape != (2,):
        raise ValueError(f"kings must be int64 of shape (2,), got {kings.dtype} {kings.shape}")
    if color not in (0, 1):
        raise ValueError(f"color must be 0 or 1, got {color!r}")


def generate(g: Geometry, board: np.ndarray, hands: np.ndarray, kings: np.ndarray, color: int) -> np.ndarray:
    """The legal moves of ``color`` as a sorted ``int32`` array."""
    _check_arrays(g, board, hands, kings, color)
    out = np.empty(MAX_MOVES, dtype=np.int32)
    n = _generate(board, hands, kings, np.int64(color), g.geo, g.sq2p, g.p2sq, g.rel, g.pfile, g.dirs,
                  STEP_MASK, SLIDE_MASK, g.tab, out, np.zeros(SCRATCH, dtype=np.int64))
    return np.sort(out[:n])


def in_check(g: Geometry, board: np.ndarray, kings: np.ndarray, color: int) -> bool:
    """Whether ``color``'s king is attacked."""
    return bool(_in_check(board, kings, np.int64(color), g.dirs, STEP_MASK, SLIDE_MASK, np.int64(g.W)))


def perft(g: Geometry, board: np.ndarray, hands: np.ndarray, kings: np.ndarray, color: int, depth: int,
          stop: np.ndarray | None = None) -> tuple[int, bool]:
    """``(leaf count to depth, completed)``; the arrays are left as they were.

    The last ply is counted without generating the moves (``leafcount.py``).
    """
    from .leafcount import perft as counting_perft  # (leafcount builds on this module)

    return counting_perft(g, board, hands, kings, color, depth, stop)


def perft_mailbox(g: Geometry, board: np.ndarray, hands: np.ndarray, kings: np.ndarray, color: int, depth: int,
          stop: np.ndarray | None = None) -> tuple[int, bool]:
    """``perft`` on the mailbox alone (every ply generated): the oracle of the counting perft in the tests."""
    _check_arrays(g, board, hands, kings, color)
    if not 1 <= depth < MAX_PLY:
        raise ValueError(f"perft depth must be in 1..{MAX_PLY - 1}, got {depth}")
    buf = np.empty((depth + 1, MAX_MOVES), dtype=np.int32)
    stats = np.zeros(2, dtype=np.int64)
    scratch = np.zeros((depth + 1, SCRATCH), dtype=np.int64)
    flag = stop if stop is not None else np.zeros(1, dtype=np.uint8)
    count = _perft(board, hands, kings, np.int64(color), np.int64(depth), g.geo, g.sq2p, g.p2sq, g.rel, g.pfile,
                   g.dirs, STEP_MASK, SLIDE_MASK, g.tab, buf, scratch, flag, stats)
    return int(count), not stats[ABORTED]


def make(g: Geometry, board: np.ndarray, hands: np.ndarray, kings: np.ndarray, color: int, move: int) -> int:
    """Play a legal ``move`` on the arrays; return the captured cell (for ``unmake``)."""
    return int(_make(board, hands, kings, np.int64(color), np.int64(move), np.int64(g.N), g.sq2p))


def unmake(g: Geometry, board: np.ndarray, hands: np.ndarray, kings: np.ndarray, color: int, move: int,
           cap: int) -> None:
    _unmake(board, hands, kings, np.int64(color), np.int64(move), np.int64(cap), np.int64(g.N), g.sq2p)


__all__ = ["MAX_MOVES", "SCRATCH", "generate", "in_check", "make", "perft", "perft_mailbox", "unmake"]
