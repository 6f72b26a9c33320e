"""Counting the legal moves of a shogi position without writing them: the last ply of perft.

The mailbox of ``board.py`` stays the representation; next to it perft keeps
one occupancy bitboard per colour (two ``uint64`` words: the files 0..6 of a
9x9 board in the first, 8 and 9 in the second, each file a run of ``ranks``
bits; a 5x5 board fits in the first word). With it a step piece's legal moves
are counted with two table look-ups and popcounts instead of probing each
target square: ``popcount(targets & ~own) + popcount(targets & ~own & double)``
where ``double`` marks the targets with both a promoting and a non-promoting
move. Drops are counted the same way from the empty squares (minus the last
ranks and the files with an own pawn), with the pawn-drop-mate test only on
the square in front of the enemy king. Sliders, pinned pieces and the king
(whose targets are tested against the attack map) go square by square on the
mailbox; a position in check is handed to the full generator.

``_count`` is checked against ``kernels._generate`` and the plain-Python
reference by the tests, and perft with it against the published figures.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.cpython.unsafe.numbers import trailing_zeros
from numba.extending import intrinsic

from .board import (
    BISHOP,
    BLACK_BIT,
    DRAGON,
    HORSE,
    KING,
    KNIGHT,
    LANCE,
    PAWN,
    ROOK,
    SLIDE_MASK,
    STEP_MASK,
    WALL,
    WHITE_BIT,
    Geometry,
)
from .kernels import (
    ABORTED,
    MAX_MOVES,
    MAX_PLY,
    NODES,
    SCRATCH,
    _check_arrays,
    _generate,
    _make,
    _pawn_drop_mates,
    _unmake,
)

# rows of ``masks``: the board; for each colour the last rank, the last two ranks, the zone without the last rank
M_BOARD, M_LAST1, M_LAST2, M_PAWN2 = 0, 1, 3, 5


@intrinsic
def _popcount(typingctx, x):  # type: ignore[no-untyped-def]
    """Number of set bits of a ``uint64`` (LLVM ``ctpop``: one instruction)."""
    if not (isinstance(x, types.Integer) and x.bitwidth == 64 and not x.signed):
        return None
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        return builder.ctpop(args[0])

    return sig, codegen


#: bitboard slots per colour: ``bb[colour, slot, word]``
B_OCC, B_PAWN, B_LANCE, B_DIAG, B_ORTH = 0, 1, 2, 3, 4
NSLOTS = 5
#: the slot of each type besides ``B_OCC`` (0 = none): pawns, lances, bishop and horse, rook and dragon
SLOT_OF = np.zeros(16, dtype=np.int64)
SLOT_OF[PAWN] = B_PAWN
SLOT_OF[LANCE] = B_LANCE
SLOT_OF[BISHOP] = SLOT_OF[HORSE] = B_DIAG
SLOT_OF[ROOK] = SLOT_OF[DRAGON] = B_ORTH


class CountTables:
    """The bitboard tables of one geometry (see ``count_tables``)."""

    def __init__(self, g: Geometry) -> None:
        files, ranks, N, PN = g.files, g.ranks, g.N, g.PN
        #: bit index (0..127, word = index >> 6) of each square: file by file, so that a ray's bit
        #: indices are monotonic and a pawn's step is a shift by one
        self.sq2b = np.array([(c * ranks + r) if c < 7 else 64 + (c - 7) * ranks + r
                              for r in range(ranks) for c in range(files)], dtype=np.int64)
        #: padded index of each bit index (-1 where no square)
        self.b2p = np.full(128, -1, dtype=np.int64)
        #: word and one-bit mask of each padded index (mask 0 on walls)
        self.p2w = np.zeros(PN, dtype=np.int64)
        self.p2m = np.zeros(PN, dtype=np.uint64)
        self.p2b = np.full(PN, -1, dtype=np.int64)
        for sq in range(N):
            b = int(self.sq2b[sq])
            p = int(g.sq2p[sq])
            self.b2p[b] = p
            self.p2w[p] = b >> 6
            self.p2m[p] = np.uint64(1) << np.uint64(b & 63)
            self.p2b[p] = b
        self.masks = np.zeros((8, 2), dtype=np.uint64)
        self.filemask = np.zeros((files, 2), dtype=np.uint64)
        for sq in range(N):
            r, c = divmod(sq, files)
            p = int(g.sq2p[sq])
            w, m = self.p2w[p], self.p2m[p]
            self.masks[M_BOARD, w] |= m
            self.filemask[c, w] |= m
            for col in (0, 1):
                rr = int(g.relrank[col, p])
                if rr == 0:
                    self.masks[M_LAST1 + col, w] |= m
                if rr <= 1:
                    self.masks[M_LAST2 + col, w] |= m
                if 0 < rr < g.zone:
                    self.masks[M_PAWN2 + col, w] |= m
        # targets of the step moves of each (colour, type, from bit), and those with two moves (promote or not)
        self.mov = np.zeros((2, 16, 128, 2), dtype=np.uint64)
        self.dbl = np.zeros((2, 16, 128, 2), dtype=np.uint64)
        zone = g.zone
        for col in (0, 1):
            for t in range(1, 15):
                e0 = (col * 16 + t) * 11
                for sq in range(N):
                    p = int(g.sq2p[sq])
                    b = int(self.sq2b[sq])
                    rf = int(g.relrank[col, p])
                    for x in range(int(g.tab[e0])):
                        e = int(g.tab[e0 + 1 + x])
                        if e & 8:
                            continue  # slides are walked on the mailbox
                        to = p + (e >> 4)
                        if g.empty_board[to] == WALL:
                            continue
                        w, m = self.p2w[to], self.p2m[to]
                        self.mov[col, t, b, w] |= m
                        rt = int(g.relrank[col, to])
                        forced = (t <= LANCE and rt == 0) or (t == KNIGHT and rt <= 1)
                        if t <= ROOK and (rf < zone or rt < zone) and not forced:
                            self.dbl[col, t, b, w] |= m
        # the squares of each ray (Sente's direction i) from each bit, the square itself excluded;
        # ``rays[8, b]`` is the union of the eight
        self.rays = np.zeros((9, 128, 2), dtype=np.uint64)
        for sq in range(N):
            b = int(self.sq2b[sq])
            for i in range(8):
                q = int(g.sq2p[sq]) + int(g.dirs[i])
                while g.empty_board[q] != WALL:
                    self.rays[i, b, self.p2w[q]] |= self.p2m[q]
                    self.rays[8, b, self.p2w[q]] |= self.p2m[q]
                    q += int(g.dirs[i])


_TABLES: dict[str, CountTables] = {}


def count_tables(g: Geometry) -> CountTables:
    """The (cached) bitboard tables of a geometry."""
    if g.variant not in _TABLES:
        _TABLES[g.variant] = CountTables(g)
    return _TABLES[g.variant]


@njit(cache=True, nogil=True, _nrt=False)
def _fill_bitboards(board, sq2p, p2w, p2m, slot_of, bb) -> None:
    """Fill ``bb[colour, slot, word]`` from the mailbox."""
    bb[:, :, :] = 0
    for sq in range(sq2p.shape[0]):
        p = sq2p[sq]
        v = board[p]
        if v == 0:
            continue
        c = 0 if v & BLACK_BIT else 1
        bb[c, B_OCC, p2w[p]] |= p2m[p]
        s = slot_of[v & 15]
        if s:
            bb[c, s, p2w[p]] |= p2m[p]


@njit(cache=True, nogil=True, _nrt=False)
def _toggle(bb, slot_of, us, fp, tp, t0, t1, cap, p2w, p2m) -> None:
    """Flip the bits of a move of ``us`` from ``fp`` (-1 for a drop) to ``tp``, type ``t0`` before and ``t1`` after,
    capturing the cell ``cap``: the same call makes and unmakes."""
    tw = p2w[tp]
    tm = p2m[tp]
    bb[us, B_OCC, tw] ^= tm
    s = slot_of[t1]
    if s:
        bb[us, s, tw] ^= tm
    if fp >= 0:
        fw = p2w[fp]
        fm = p2m[fp]
        bb[us, B_OCC, fw] ^= fm
        s = slot_of[t0]
        if s:
            bb[us, s, fw] ^= fm
        if cap != 0:
            bb[1 - us, B_OCC, tw] ^= tm
            s = slot_of[cap & 15]
            if s:
                bb[1 - us, s, tw] ^= tm


@njit(cache=True, nogil=True, _nrt=False)
def _bmake(board, hands, kings, bb, slot_of, us, move, N, sq2p, p2w, p2m) -> int:
    """``kernels._make`` that also keeps the bitboards; returns the captured cell."""
    frm = move >> 8
    tp = sq2p[(move >> 1) & 127]
    if frm >= N:
        t0 = frm - N + 1
        fp = -1
    else:
        fp = sq2p[frm]
        t0 = board[fp] & 15
    cap = _make(board, hands, kings, us, move, N, sq2p)
    _toggle(bb, slot_of, us, fp, tp, t0, t0 + 8 * (move & 1), cap, p2w, p2m)
    return cap


@njit(cache=True, nogil=True, _nrt=False)
def _bunmake(board, hands, kings, bb, slot_of, us, move, cap, N, sq2p, p2w, p2m) -> None:
    """Take back ``_bmake``."""
    frm = move >> 8
    tp = sq2p[(move >> 1) & 127]
    t1 = board[tp] & 15
    fp = -1 if frm >= N else sq2p[frm]
    _toggle(bb, slot_of, us, fp, tp, t1 - 8 * (move & 1), t1, cap, p2w, p2m)
    _unmake(board, hands, kings, us, move, cap, N, sq2p)


@njit(cache=True, nogil=True, _nrt=False)
def _count_replies(board, hands, kings, bb, us, moves, row, nmoves, geo, sq2p, p2sq, rel, pfile, dirs, stepm, slidem,
                   tab, b2p, p2w, p2m, p2b, masks, filemask, mov, dbl, rays, slot_of, out, sc) -> int:
    """The sum over the moves ``moves[row, :nmoves]`` of ``us`` of the number of legal replies; with ``nmoves < 0``,
    the number of legal moves of ``us`` itself. ``bb`` must match ``board``; ``out`` and ``sc`` are a move buffer
    and a scratch row as for ``kernels._generate`` (used for positions in check).

    One flat function on purpose: numba pays reference-count operations on the arrays of every call of a
    kernel, which would cost more than the counting; the rare cases (check, pawn-drop mate) call out.
    """
    W = geo[2]
    N = geo[3]
    zone = geo[4]
    PN = geo[5]
    one64 = np.uint64(1)
    total = np.int64(0)
    nloop = nmoves if nmoves >= 0 else 1
    mbit = BLACK_BIT if us == 0 else WHITE_BIT
    c = us if nmoves < 0 else 1 - us  # the side whose moves are counted
    ubit = BLACK_BIT if c == 0 else WHITE_BIT
    tbit = WHITE_BIT if c == 0 else BLACK_BIT
    st = -1 if c == 0 else 1
    them = 1 - c
    ro = c * PN
    fwd = 0 if c == 0 else 4  # the direction from our king in which an enemy lance stands
    kn = tbit | KNIGHT
    tb = c * 16 * 11
    for mi in range(nloop):
        # -- make the move (mailbox and bitboards) ----------------------------------
        fp = -1
        tp = 0
        v = 0
        cap = 0
        kind = 0
        t0 = 0
        t1 = 0
        move = np.int64(0)
        if nmoves >= 0:
            move = np.int64(moves[row, mi])
            frm = move >> 8
            tp = sq2p[(move >> 1) & 127]
            tw = p2w[tp]
            tm = p2m[tp]
            if frm >= N:
                kind = frm - N + 1
                board[tp] = mbit | kind
                hands[us, kind] -= 1
                t0 = kind
                t1 = kind
            else:
                fp = sq2p[frm]
                v = board[fp]
                cap = board[tp]
                t0 = v & 15
                t1 = t0 + 8 * (move & 1)
                board[tp] = v + 8 * (move & 1)
                board[fp] = 0
                if t0 == KING:
                    kings[us] = tp
                fw = p2w[fp]
                fm = p2m[fp]
                bb[us, B_OCC, fw] ^= fm
                s0 = slot_of[t0]
                if s0:
                    bb[us, s0, fw] ^= fm
                if cap != 0:
                    ct = cap & 15
                    bb[1 - us, B_OCC, tw] ^= tm
                    s0 = slot_of[ct]
                    if s0:
                        bb[1 - us, s0, tw] ^= tm
                    hands[us, ct - 8 if ct > KING else ct] += 1
            bb[us, B_OCC, tw] ^= tm
            s1 = slot_of[t1]
            if s1:
                bb[us, s1, tw] ^= tm
        # -- count the legal moves of c ----------------------------------------------
        k = kings[c]
        incheck = k < 0  # (no king: leave it to the generator)
        if not incheck:
            for i in range(8):
                w = board[k + dirs[i]]
                if w & tbit:
                    j = i if c == 0 else (i + 4) & 7
                    if ((stepm[w & 15] | slidem[w & 15]) >> j) & 1:
                        incheck = True
                        break
            if board[k + st * (2 * W + 1)] == kn or board[k + st * (2 * W - 1)] == kn:
                incheck = True
        kb = p2b[k] if k >= 0 else 0
        dg0 = bb[them, B_DIAG, 0]
        dg1 = bb[them, B_DIAG, 1]
        or0 = bb[them, B_ORTH, 0]
        or1 = bb[them, B_ORTH, 1]
        ln0 = bb[them, B_LANCE, 0]
        ln1 = bb[them, B_LANCE, 1]
        sl0 = dg0 | or0 | ln0
        sl1 = dg1 | or1 | ln1
        npin = 0
        pin0 = np.uint64(0)
        pin1 = np.uint64(0)
        # distant checks and pins, on the rays where an enemy slider stands
        if not incheck and ((rays[8, kb, 0] & sl0) != 0 or (rays[8, kb, 1] & sl1) != 0):
            for i in range(8):
                if i & 1:
                    e0 = dg0
                    e1 = dg1
                elif i == fwd:
                    e0 = or0 | ln0
                    e1 = or1 | ln1
                else:
                    e0 = or0
                    e1 = or1
                if (rays[i, kb, 0] & e0) == 0 and (rays[i, kb, 1] & e1) == 0:
                    continue
                d = dirs[i]
                j = i if c == 0 else (i + 4) & 7
                q = k + d
                w = board[q]
                while w == 0:
                    q += d
                    w = board[q]
                if w & tbit:
                    if (slidem[w & 15] >> j) & 1:
                        incheck = True
                        break
                elif w & ubit:
                    q2 = q + d
                    w2 = board[q2]
                    while w2 == 0:
                        q2 += d
                        w2 = board[q2]
                    if (w2 & tbit) and (slidem[w2 & 15] >> j) & 1:
                        sc[npin] = q
                        sc[8 + npin] = i & 3
                        npin += 1
                        if p2w[q] == 0:
                            pin0 |= p2m[q]
                        else:
                            pin1 |= p2m[q]
        if incheck:
            total += _generate(board, hands, kings, c, geo, sq2p, p2sq, rel, pfile, dirs, stepm, slidem, tab, out, sc)
        else:
            n = np.uint64(0)
            own0 = bb[c, B_OCC, 0]
            own1 = bb[c, B_OCC, 1]
            free0 = masks[M_BOARD, 0] & ~own0
            free1 = masks[M_BOARD, 1] & ~own1
            # king moves: each target tested with the king lifted
            a0 = mov[c, KING, kb, 0] & free0
            a1 = mov[c, KING, kb, 1] & free1
            kv = board[k]
            board[k] = 0
            while a0 or a1:
                if a0:
                    b = np.int64(trailing_zeros(a0))
                    a0 &= a0 - one64
                else:
                    b = 64 + np.int64(trailing_zeros(a1))
                    a1 &= a1 - one64
                to = b2p[b]
                attacked = board[to + st * (2 * W + 1)] == kn or board[to + st * (2 * W - 1)] == kn
                if not attacked:
                    for i in range(8):
                        w = board[to - st * dirs[i]]
                        if (w & tbit) and ((stepm[w & 15] | slidem[w & 15]) >> i) & 1:
                            attacked = True
                            break
                if not attacked and ((rays[8, b, 0] & sl0) != 0 or (rays[8, b, 1] & sl1) != 0):
                    for i in range(8):
                        if i & 1:
                            e0 = dg0
                            e1 = dg1
                        elif i == fwd:
                            e0 = or0 | ln0
                            e1 = or1 | ln1
                        else:
                            e0 = or0
                            e1 = or1
                        if (rays[i, b, 0] & e0) == 0 and (rays[i, b, 1] & e1) == 0:
                            continue
                        d = dirs[i]
                        j = i if c == 0 else (i + 4) & 7
                        q = to + d
                        w = board[q]
                        while w == 0:
                            q += d
                            w = board[q]
                        if (w & tbit) and (slidem[w & 15] >> j) & 1:
                            attacked = True
                            break
                if not attacked:
                    n += one64
            board[k] = kv
            # pawns, all at once (not the pinned ones)
            pw0 = bb[c, B_PAWN, 0]
            pw1 = bb[c, B_PAWN, 1]
            q0 = pw0 & ~(pin0 | masks[M_LAST1 + c, 0])
            q1 = pw1 & ~(pin1 | masks[M_LAST1 + c, 1])
            if c == 0:
                q0 = (q0 >> one64) & free0
                q1 = (q1 >> one64) & free1
            else:
                q0 = (q0 << one64) & free0
                q1 = (q1 << one64) & free1
            n += (_popcount(q0) + _popcount(q1) + _popcount(q0 & masks[M_PAWN2 + c, 0])
                  + _popcount(q1 & masks[M_PAWN2 + c, 1]))
            # the other pieces: steps by table, slides and pinned pieces on the mailbox
            kw = p2w[k]
            km = p2m[k]
            for word in range(2):
                if word == 0:
                    x = own0 & ~(pw0 & ~pin0)
                    pins = pin0
                else:
                    x = own1 & ~(pw1 & ~pin1)
                    pins = pin1
                if kw == word:
                    x &= ~km
                while x:
                    bit1 = x & (~x + one64)
                    b = word * 64 + np.int64(trailing_zeros(x))
                    x ^= bit1
                    p = b2p[b]
                    t = board[p] & 15
                    pinned = (pins & bit1) != 0
                    if not pinned and slidem[t] == 0:
                        m0 = mov[c, t, b, 0] & free0
                        m1 = mov[c, t, b, 1] & free1
                        n += (_popcount(m0) + _popcount(m1) + _popcount(m0 & dbl[c, t, b, 0])
                              + _popcount(m1 & dbl[c, t, b, 1]))
                        continue
                    pin = -1
                    if pinned:
                        for y in range(npin):
                            if sc[y] == p:
                                pin = sc[8 + y]
                    rf = rel[ro + p]
                    promotable = t <= ROOK
                    e0i = tb + t * 11
                    for xx in range(tab[e0i]):
                        e = tab[e0i + 1 + xx]
                        info = e & 15
                        if pin >= 0 and (info & 7) != pin:
                            continue
                        d = e >> 4
                        to = p + d
                        while True:
                            w = board[to]
                            if w == 0 or (w & tbit):
                                rt = rel[ro + to]
                                if promotable and (rf < zone or rt < zone) and not (
                                        (t <= LANCE and rt == 0) or (t == KNIGHT and rt <= 1)):
                                    n += np.uint64(2)
                                else:
                                    n += one64
                            if w != 0 or info < 8:
                                break
                            to += d
            # drops
            if (hands[c, 1] | hands[c, 2] | hands[c, 3] | hands[c, 4] | hands[c, 5] | hands[c, 6] | hands[c, 7]) != 0:
                e0 = masks[M_BOARD, 0] & ~(own0 | bb[them, B_OCC, 0])
                e1 = masks[M_BOARD, 1] & ~(own1 | bb[them, B_OCC, 1])
                empties = _popcount(e0) + _popcount(e1)
                for hk in range(1, 8):
                    if hands[c, hk] <= 0:
                        continue
                    if hk == PAWN:
                        f0 = masks[M_LAST1 + c, 0]
                        f1 = masks[M_LAST1 + c, 1]
                        for word in range(2):  # the files of our pawns (nifu)
                            x = pw0 if word == 0 else pw1
                            while x:
                                f = pfile[b2p[word * 64 + np.int64(trailing_zeros(x))]]
                                x &= x - one64
                                f0 |= filemask[f, 0]
                                f1 |= filemask[f, 1]
                        d0 = e0 & ~f0
                        d1 = e1 & ~f1
                        n += _popcount(d0) + _popcount(d1)
                        ek = kings[them]
                        if ek >= 0:
                            ms = ek + st * dirs[0]  # where a pawn of ours would give check
                            mb = p2b[ms]
                            if mb >= 0:
                                dd = d0 if mb < 64 else d1
                                if (dd & p2m[ms]) != 0 and _pawn_drop_mates(board, ms, c, ek, dirs, stepm, slidem, W):
                                    n -= one64
                    elif hk == LANCE:
                        n += _popcount(e0 & ~masks[M_LAST1 + c, 0]) + _popcount(e1 & ~masks[M_LAST1 + c, 1])
                    elif hk == KNIGHT:
                        n += _popcount(e0 & ~masks[M_LAST2 + c, 0]) + _popcount(e1 & ~masks[M_LAST2 + c, 1])
                    else:
                        n += empties
            total += np.int64(n)
        # -- unmake -------------------------------------------------------------------
        if nmoves >= 0:
            tw = p2w[tp]
            tm = p2m[tp]
            bb[us, B_OCC, tw] ^= tm
            s1 = slot_of[t1]
            if s1:
                bb[us, s1, tw] ^= tm
            if fp < 0:
                board[tp] = 0
                hands[us, kind] += 1
            else:
                board[fp] = v
                board[tp] = cap
                if t0 == KING:
                    kings[us] = fp
                fw = p2w[fp]
                fm = p2m[fp]
                bb[us, B_OCC, fw] ^= fm
                s0 = slot_of[t0]
                if s0:
                    bb[us, s0, fw] ^= fm
                if cap != 0:
                    ct = cap & 15
                    bb[1 - us, B_OCC, tw] ^= tm
                    s0 = slot_of[ct]
                    if s0:
                        bb[1 - us, s0, tw] ^= tm
                    hands[us, ct - 8 if ct > KING else ct] -= 1
    return int(total)


@njit(cache=True, nogil=True, _nrt=False)
def _perft_count(board, hands, kings, bb, us, depth, geo, sq2p, p2sq, rel, pfile, dirs, stepm, slidem, tab, b2p,
                 p2w, p2m, p2b, masks, filemask, mov, dbl, rays, slot_of, buf, scratch, stop, stats) -> int:
    """Leaf count of the legal move tree to ``depth``; the last ply is counted by ``_count_replies``."""
    if depth <= 1:
        return _count_replies(board, hands, kings, bb, us, buf, 0, -1, geo, sq2p, p2sq, rel, pfile, dirs, stepm,
                              slidem, tab, b2p, p2w, p2m, p2b, masks, filemask, mov, dbl, rays, slot_of, buf[0],
                              scratch[0])
    n = _generate(board, hands, kings, us, geo, sq2p, p2sq, rel, pfile, dirs, stepm, slidem, tab, buf[depth],
                  scratch[depth])
    stats[NODES] += 1
    if (stats[NODES] & 1023) == 0 and stop[0] != 0:
        stats[ABORTED] = 1
    if stats[ABORTED] != 0:
        return 0
    if depth == 2:
        return _count_replies(board, hands, kings, bb, us, buf, depth, n, geo, sq2p, p2sq, rel, pfile, dirs, stepm,
                              slidem, tab, b2p, p2w, p2m, p2b, masks, filemask, mov, dbl, rays, slot_of, buf[0],
                              scratch[0])
    N = geo[3]
    total = 0
    them = np.int64(1 - us)
    for i in range(n):
        m = np.int64(buf[depth, i])
        cap = _bmake(board, hands, kings, bb, slot_of, us, m, N, sq2p, p2w, p2m)
        total += _perft_count(board, hands, kings, bb, them, np.int64(depth - 1), geo, sq2p, p2sq, rel, pfile, dirs,
                              stepm, slidem, tab, b2p, p2w, p2m, p2b, masks, filemask, mov, dbl, rays, slot_of, buf,
                              scratch, stop, stats)
        _bunmake(board, hands, kings, bb, slot_of, us, m, cap, N, sq2p, p2w, p2m)
        if stats[ABORTED] != 0:
            return 0
    return total


# -- Python wrappers ----------------------------------------------------------


def bitboards(g: Geometry, board: np.ndarray) -> np.ndarray:
    """The bitboards ``bb[colour, slot, word]`` of a mailbox board."""
    ct = count_tables(g)
    bb = np.zeros((2, NSLOTS, 2), dtype=np.uint64)
    _fill_bitboards(board, g.sq2p, ct.p2w, ct.p2m, SLOT_OF, bb)
    return bb


def count_moves(g: Geometry, board: np.ndarray, hands: np.ndarray, kings: np.ndarray, color: int) -> int:
    """The number of legal moves of ``color`` (what ``len(kernels.generate(...))`` would be)."""
    _check_arrays(g, board, hands, kings, color)
    ct = count_tables(g)
    out = np.empty(MAX_MOVES, dtype=np.int32)
    return int(_count_replies(board, hands, kings, bitboards(g, board), np.int64(color), np.zeros((1, 1), np.int32),
                              np.int64(0), np.int64(-1), g.geo, g.sq2p, g.p2sq, g.rel, g.pfile, g.dirs, STEP_MASK,
                              SLIDE_MASK, g.tab, ct.b2p, ct.p2w, ct.p2m, ct.p2b, ct.masks, ct.filemask, ct.mov, ct.dbl,
                              ct.rays, SLOT_OF, out, np.zeros(SCRATCH, dtype=np.int64)))


def perft(g: Geometry, board: np.ndarray, hands: np.ndarray, kings: np.ndarray, color: int, depth: int,
          stop: np.ndarray | None = None) -> tuple[int, bool]:
    """``(leaf count to depth, completed)`` with the counting kernel at the last ply; the arrays are restored."""
    _check_arrays(g, board, hands, kings, color)
    if not 1 <= depth < MAX_PLY:
        raise ValueError(f"perft depth must be in 1..{MAX_PLY - 1}, got {depth}")
    ct = count_tables(g)
    buf = np.empty((depth + 1, MAX_MOVES), dtype=np.int32)
    stats = np.zeros(2, dtype=np.int64)
    scratch = np.zeros((depth + 1, SCRATCH), dtype=np.int64)
    flag = stop if stop is not None else np.zeros(1, dtype=np.uint8)
    count = _perft_count(board, hands, kings, bitboards(g, board), np.int64(color), np.int64(depth), g.geo, g.sq2p,
                         g.p2sq, g.rel, g.pfile, g.dirs, STEP_MASK, SLIDE_MASK, g.tab, ct.b2p, ct.p2w, ct.p2m, ct.p2b,
                         ct.masks, ct.filemask, ct.mov, ct.dbl, ct.rays, SLOT_OF, buf, scratch, flag, stats)
    return int(count), not stats[ABORTED]


__all__ = ["CountTables", "bitboards", "count_moves", "count_tables", "perft"]
