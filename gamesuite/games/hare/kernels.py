"""numba kernels of the Hare and Hedgehog engine: the rules on a flat array, the evaluation, the searches.

A position is an ``int64`` array of ``SIZE`` slots (see the layout below); the
game's constants are another ``int64`` array (``cfg``) and the board's tables
(``kinds``, ``prevh``, and ``btab``: the lettuce squares ahead of each square, then
the solo table, see ``solo_layout``). The plain-Python references are the rules
in ``rules.py`` (move generation, moves, cards), ``naive.py`` (evaluation, max^n,
paranoid) and ``naive.solo_turns`` (the solo table); the tests compare them with
these kernels.

The kernels are compiled with ``_nrt=False`` (besides ``cache=True, nogil=True``): without numba's runtime, no
reference counting of every array view and every array passed to a helper (60% of the search's time before,
by ``perf``; docs/hare.md "Speed"). They allocate nothing: scratch lives in the caller's workspace, and rows
are copied by ``_copy``.
"""

from __future__ import annotations

import math
import sys
from typing import Any

import numpy as np
from numba import njit, types
from numba.extending import intrinsic

from . import board as B
from . import config as W

# -- position layout ----------------------------------------------------------
MAXP = 6  # pieces and players
SQ, EATS, FRESH, HMASK, CAR, LET, SKIP, PLACE = 0, 6, 12, 18, 24, 30, 36, 42
TURN, PHASE, PP, PC, NKNOWN, KNOWN = 48, 49, 50, 51, 52, 53
SIZE = KNOWN + 16

# -- game constants (cfg) ---------------------------------------------------------
C_N, C_PPP, C_NP, C_STARTCAR, C_TOURN, C_DECK = 0, 1, 2, 3, 4, 5
CFG_SIZE = C_DECK + B.N_CARDS

# phases (as in rules.py)
MOVE, DRAW, CHOOSE, OVER = 0, 1, 2, 3
LEAF = -1  # the search's mark of a child where the move finished its mover (the search stops there)
STRIDE, BACK, TAKE10, GIVE10, RESTART = 10000, 100, 1001, 1002, 1003
LAST = 64
MAXMOVES = 160

# stats slots: DEADLINE (CLOCK_MONOTONIC nanoseconds, 0 = none) is read by ``_poll`` every
# ``CLOCK_EVERY`` polls; POLLS counts the polls
NODES, ABORTED, NODE_LIMIT, SELDEPTH, DEADLINE, POLLS = 0, 1, 2, 3, 4, 5
STATS_SIZE = 6
CLOCK_EVERY = 32

# search kinds
ABSOLUTE, RELATIVE, SUM, VERSUS = 0, 1, 2, 3  # VERSUS: own minus one named opponent (two left)
NEG = -1e300

# values (see config): racing values clamped to +-RACING_CAP, finished players far above them
RACING_CAP, EARLY, PLACE_STEP, FINISHED = W.RACING_CAP, W.EARLY, W.PLACE_STEP, W.FINISHED


@njit(cache=True, nogil=True, _nrt=False)
def _copy(dst, src):
    """``dst[:] = src`` without numba's temporary copy (which needs its runtime: the kernels run without it)."""
    for i in range(dst.shape[0]):
        dst[i] = src[i]


@njit(cache=True, nogil=True, _nrt=False)
def _cost(n):
    return n * (n + 1) // 2


@njit(cache=True, nogil=True, _nrt=False)
def _occupied(st, cfg, t):
    if t <= 0 or t >= LAST:
        return False
    for j in range(cfg[C_NP]):
        if st[SQ + j] == t:
            return True
    return False


@njit(cache=True, nogil=True, _nrt=False)
def _race_position(st, cfg, j):
    s = st[SQ + j]
    r = 1
    for q in range(cfg[C_NP]):
        if q != j and (st[SQ + q] == LAST or st[SQ + q] > s):
            r += 1
    return r


@njit(cache=True, nogil=True, _nrt=False)
def _finished_players(st, cfg):
    k = 0
    for p in range(cfg[C_N]):
        if st[PLACE + p] != 0:
            k += 1
    return k


@njit(cache=True, nogil=True, _nrt=False)
def _finish_limit(st, cfg, p):
    ppp = cfg[C_PPP]
    if ppp == 2:
        for j in range(p * ppp, p * ppp + ppp):
            if st[SQ + j] == LAST:
                return 20
        return -1
    return 10 * (_finished_players(st, cfg) + 1)


@njit(cache=True, nogil=True, _nrt=False)
def _unknown_total(st, cfg):
    return _deck_total(cfg) - st[NKNOWN]


@njit(cache=True, nogil=True, _nrt=False)
def _deck_total(cfg):
    t = 0
    for c in range(B.N_CARDS):
        t += cfg[C_DECK + c]
    return t


@njit(cache=True, nogil=True, _nrt=False)
def _unknown_counts(st, cfg, out):
    """Cards that can come next, by id, into ``out``; returns their total."""
    for c in range(B.N_CARDS):
        out[c] = cfg[C_DECK + c]
    for i in range(st[NKNOWN]):
        out[st[KNOWN + i]] -= 1
    t = 0
    for c in range(B.N_CARDS):
        t += out[c]
    return t


@njit(cache=True, nogil=True, _nrt=False)
def _gen_moves(st, cfg, kinds, prevh, out):
    """The legal moves (sorted) into ``out``; returns how many (0 at chance and final nodes)."""
    ph = st[PHASE]
    if ph == OVER or ph == DRAW:
        return 0
    p = st[TURN]
    ppp = cfg[C_PPP]
    if ph == CHOOSE:
        base = STRIDE * (st[PP] % ppp)
        out[0] = base
        out[1] = base + TAKE10
        if st[CAR + p] >= 10:
            out[2] = base + GIVE10
            return 3
        return 2
    if st[SKIP + p] != 0:
        out[0] = 0
        return 1
    n = 0
    for j in range(p * ppp, p * ppp + ppp):
        if st[EATS + j] == 1 and st[SQ + j] < LAST:
            out[n] = STRIDE * (j % ppp)
            n += 1
    if n > 0:
        return n
    car = st[CAR + p]
    let = st[LET + p]
    limit = _finish_limit(st, cfg, p)
    occ = np.int64(0)  # squares 1..63 holding a piece, as bits
    for q in range(cfg[C_NP]):
        t = st[SQ + q]
        if t > 0 and t < LAST:
            occ |= np.int64(1) << t
    for j in range(p * ppp, p * ppp + ppp):
        s = st[SQ + j]
        if s == LAST:
            continue
        base = STRIDE * (j % ppp)
        k = 1
        c = 1
        while s + k <= LAST and c <= car:
            t = s + k
            if t == LAST:
                if let == 0 and (limit < 0 or car - c <= limit):
                    out[n] = base + k
                    n += 1
            elif (occ >> t) & 1 == 0 and kinds[t] != B.HEDGEHOG and (kinds[t] != B.LETTUCE or let > 0):
                out[n] = base + k
                n += 1
            k += 1
            c += k
        h = prevh[s]
        if h >= 0 and (h == 0 or (occ >> h) & 1 == 0):
            out[n] = base + BACK + (s - h)
            n += 1
        if kinds[s] == B.CARROT:
            out[n] = base + TAKE10
            n += 1
            if car >= 10:
                out[n] = base + GIVE10
                n += 1
    if n == 0:
        for j in range(p * ppp, p * ppp + ppp):
            if st[SQ + j] < LAST:
                out[n] = STRIDE * (j % ppp) + RESTART
                n += 1
    return n


@njit(cache=True, nogil=True, _nrt=False)
def _is_pos_square(k):
    return k >= B.POS156 and k <= B.POS4


@njit(cache=True, nogil=True, _nrt=False)
def _position_bonus(k, r):
    if k == B.POS156:
        if r == 1 or r == 5 or r == 6:
            return 10 * r
        return 0
    if k >= B.POS2 and k <= B.POS4 and r == k - B.POS2 + 2:
        return 10 * r
    return 0


@njit(cache=True, nogil=True, _nrt=False)
def _begin_turn(st, cfg, kinds, p):
    ppp = cfg[C_PPP]
    for j in range(p * ppp, p * ppp + ppp):
        if st[FRESH + j] != 0:
            st[FRESH + j] = 0
            st[CAR + p] += _position_bonus(kinds[st[SQ + j]], _race_position(st, cfg, j))
        m = st[HMASK + j]
        if m >= 0:
            s = st[SQ + j]
            passers = 0
            for q in range(cfg[C_NP]):
                if (m >> q) & 1 and st[SQ + q] > s:
                    passers += 1
            if passers == 0:
                st[CAR + p] += 10
            else:
                st[CAR + p] -= min(st[CAR + p], 10 * passers)
            st[HMASK + j] = -1


@njit(cache=True, nogil=True, _nrt=False)
def _end_turn(st, cfg, kinds, again):
    n = cfg[C_N]
    st[PHASE] = MOVE
    st[PP] = -1
    st[PC] = 0
    racing = 0
    for q in range(n):
        if st[PLACE + q] == 0:
            racing += 1
    if racing <= 1:
        for q in range(n):
            if st[PLACE + q] == 0:
                st[PLACE + q] = n
        st[PHASE] = OVER
        st[TURN] = 0
        return
    p = st[TURN]
    if not (again and st[PLACE + p] == 0):
        p = (p + 1) % n
        while st[PLACE + p] != 0:
            p = (p + 1) % n
    st[TURN] = p
    _begin_turn(st, cfg, kinds, p)


@njit(cache=True, nogil=True, _nrt=False)
def _finish_piece(st, cfg, j):
    ppp = cfg[C_PPP]
    p = j // ppp
    for q in range(p * ppp, p * ppp + ppp):
        if st[SQ + q] != LAST:
            return
    st[PLACE + p] = _finished_players(st, cfg) + 1


@njit(cache=True, nogil=True, _nrt=False)
def _card_target_ok(st, cfg, kinds, t, p):
    if t == 0:
        return True
    if t <= 0 or t >= LAST or _occupied(st, cfg, t):
        return False
    k = kinds[t]
    return k != B.HEDGEHOG and (k != B.LETTUCE or st[LET + p] > 0)


@njit(cache=True, nogil=True, _nrt=False)
def _put(st, kinds, j, t):
    st[SQ + j] = t
    st[FRESH + j] = 1 if _is_pos_square(kinds[t]) else 0
    st[EATS + j] = 1 if kinds[t] == B.LETTUCE else 0


@njit(cache=True, nogil=True, _nrt=False)
def _card(st, cfg, kinds, card):
    """Carry out ``card`` for the pending piece, then end the turn (rules.HareState._card)."""
    j = st[PP]
    ppp = cfg[C_PPP]
    npc = cfg[C_NP]
    p = j // ppp
    s = st[SQ + j]
    again = False
    if card == B.GIVE10:
        behind = 0
        for q in range(npc):
            if q // ppp != p and st[SQ + q] < s:
                behind += 1
        if st[CAR + p] >= 10 * behind:
            for q in range(npc):
                if q // ppp != p and st[SQ + q] < s:
                    st[CAR + p] -= 10
                    st[CAR + q // ppp] += 10
    elif card == B.MISS_OR_AGAIN:
        behind = 0
        for q in range(npc):
            if q != j and st[SQ + q] < s:
                behind += 1
        if behind > _race_position(st, cfg, j) - 1:
            st[SKIP + p] = 1
        else:
            again = True
    elif card == B.SET65:
        st[CAR + p] = 65
    elif card == B.LETTUCE10:
        if st[LET + p] > 0:
            st[CAR + p] += 10 * st[LET + p]
        else:
            st[SKIP + p] = 1
    elif card == B.HALVE:
        st[CAR + p] = (st[CAR + p] + 1) // 2
    elif card == B.FREE_RIDE:
        st[CAR + p] += st[PC]
    elif card == B.SHUFFLE:
        for q in range(cfg[C_N]):
            if q != p and st[PLACE + q] == 0 and st[CAR + q] >= 1:
                st[CAR + q] -= 1
                st[CAR + p] += 1
    elif card == B.TAKE_GIVE:
        st[PHASE] = CHOOSE
        st[PC] = 0
        return
    elif card == B.FALL_BACK:
        best = -1
        for q in range(npc):
            if q != j and st[SQ + q] < s and st[SQ + q] > best:
                best = st[SQ + q]
        if best >= 0:
            for t in range(best - 1, -1, -1):
                if _card_target_ok(st, cfg, kinds, t, p):
                    _put(st, kinds, j, t)
                    break
    elif card == B.MOVE_UP:
        best = LAST
        for q in range(npc):
            if q != j and st[SQ + q] > s and st[SQ + q] < LAST and st[SQ + q] < best:
                best = st[SQ + q]
        if best < LAST:
            for t in range(best + 1, LAST):
                if _card_target_ok(st, cfg, kinds, t, p):
                    _put(st, kinds, j, t)
                    break
    elif card == B.MISS:
        st[SKIP + p] = 1
    elif card == B.EAT:
        if st[LET + p] > 0:
            st[LET + p] -= 1
            st[CAR + p] += 10 * _race_position(st, cfg, j)
    elif card == B.AGAIN:
        again = True
    elif card == B.NEXT_CARROT:
        for t in range(s + 1, LAST):
            if kinds[t] == B.CARROT and not _occupied(st, cfg, t):
                _put(st, kinds, j, t)
                break
    elif card == B.PREV_CARROT:
        for t in range(s - 1, 0, -1):
            if kinds[t] == B.CARROT and not _occupied(st, cfg, t):
                _put(st, kinds, j, t)
                break
    _end_turn(st, cfg, kinds, again)


@njit(cache=True, nogil=True, _nrt=False)
def _draw(st, cfg, kinds, card):
    """The chance outcome ``card`` at a pending draw (rules.HareState._draw)."""
    if card == B.SHUFFLE:
        st[NKNOWN] = 0
        for i in range(16):
            st[KNOWN + i] = 0
    else:
        st[KNOWN + st[NKNOWN]] = card
        st[NKNOWN] += 1
    st[PHASE] = MOVE
    _card(st, cfg, kinds, card)


@njit(cache=True, nogil=True, _nrt=False)
def _apply(st, cfg, kinds, prevh, move):
    """Make ``move`` (a legal move, or a card at a chance node) on ``st`` (rules.HareState.play)."""
    if st[PHASE] == DRAW:
        _draw(st, cfg, kinds, move)
        return
    p = st[TURN]
    ppp = cfg[C_PPP]
    j = p * ppp + move // STRIDE
    code = move % STRIDE
    if st[PHASE] == CHOOSE:
        if code == TAKE10:
            st[CAR + p] += 10
        elif code == GIVE10:
            st[CAR + p] -= 10
        _end_turn(st, cfg, kinds, False)
        return
    if code == 0:
        if st[SKIP + p] != 0:
            st[SKIP + p] = 0
        else:
            st[EATS + j] = 2
            st[LET + p] -= 1
            st[CAR + p] += 10 * _race_position(st, cfg, j)
        _end_turn(st, cfg, kinds, False)
    elif code <= LAST:
        c = _cost(code)
        st[CAR + p] -= c
        t = st[SQ + j] + code
        st[SQ + j] = t
        st[EATS + j] = 0
        st[FRESH + j] = 1 if _is_pos_square(kinds[t]) else 0
        if t == LAST:
            _finish_piece(st, cfg, j)
        elif kinds[t] == B.LETTUCE:
            st[EATS + j] = 1
        elif kinds[t] == B.HARE:
            if cfg[C_TOURN] != 0:
                m = 0
                for q in range(cfg[C_NP]):
                    if q // ppp != p and st[SQ + q] < t:
                        m |= 1 << q
                st[HMASK + j] = m
            elif _unknown_total(st, cfg) > 0:
                st[PHASE] = DRAW
                st[PP] = j
                st[PC] = c
                return
            else:
                card = st[KNOWN]
                nk = st[NKNOWN]
                for i in range(nk - 1):
                    st[KNOWN + i] = st[KNOWN + i + 1]
                st[KNOWN + nk - 1] = card
                st[PP] = j
                st[PC] = c
                _card(st, cfg, kinds, card)
                return
        _end_turn(st, cfg, kinds, False)
    elif code < TAKE10:
        k = code - BACK
        st[SQ + j] -= k
        st[CAR + p] += 10 * k
        st[EATS + j] = 0
        _end_turn(st, cfg, kinds, False)
    elif code == TAKE10:
        st[CAR + p] += 10
        _end_turn(st, cfg, kinds, False)
    elif code == GIVE10:
        st[CAR + p] -= 10
        _end_turn(st, cfg, kinds, False)
    else:
        h = prevh[st[SQ + j]]
        if h >= 0 and not _occupied(st, cfg, h):
            st[SQ + j] = h
        else:
            st[SQ + j] = 0
            st[CAR + p] = cfg[C_STARTCAR]
        st[EATS + j] = 0
        _end_turn(st, cfg, kinds, False)


# -- evaluation -----------------------------------------------------------------------

# -- the solo table: turns to finish alone ---------------------------------------------------------

# btab layout: [0, 65) lettuce squares ahead of each square; then a header; then the solo table, then (where the
# weights use the race term) the race term's tanh table (``race_tanh_table``: float64 bits; B_TH its offset, 0 = none,
# B_TM its turns (0..B_TM - 1), B_RS the ``racescale`` it was made for, as float64 bits)
B_P, B_LK, B_C, B_H, B_TCAP, B_TH, B_TM, B_RS, B_SOLO = 65, 66, 67, 68, 69, 70, 71, 72, 73
RACE_TM = 20  # turns the tanh table covers (a racer's turns: up to 16 in the solo table, + skips)
DUE_CODE = 4096  # _evaluate keeps a racer's turns and carrots due (under 4096) as one number: turns * DUE_CODE + due
SOLO_CMAX = 250  # carrots beyond this count as this many
SOLO_TCAP = 16  # turns counted up to this many ("16" means "16 or more")
NO_LIMIT = 1 << 30  # the first of two pieces may finish with any number of carrots


@njit(cache=True, nogil=True, _nrt=False)
def _solo_fill(kinds, prevh, pos, limit, cmax, hmax, tcap, t):
    """Fill ``t[s, c, h]``: the fewest turns a lone piece on square ``s`` with ``c`` carrots and ``h`` lettuces,
    free to move, needs to finish, capped at ``tcap``. The model: the piece keeps race position ``pos`` (so
    lettuces pay 10 x pos and position squares pay as they would) and may keep ``limit`` carrots at the
    finish; no other piece, no hare card: hare squares are not entered. Arriving on a lettuce square
    includes the eating turn. (``naive.solo_turns`` is the reference.)"""
    for s in range(64):
        for c in range(cmax + 1):
            for h in range(hmax + 1):
                t[s, c, h] = tcap
    changed = True
    while changed:
        changed = False
        for s in range(63, -1, -1):
            for h in range(hmax + 1):
                for c in range(cmax + 1):
                    best = t[s, c, h]
                    if best == 1:
                        continue
                    n = 1
                    cost = 1
                    while s + n <= LAST and cost <= c:
                        g = s + n
                        k = kinds[g]
                        if g == LAST:
                            if h == 0 and c - cost <= limit:
                                best = 1
                                break
                        elif k == B.LETTUCE:
                            if h > 0:
                                c2 = min(cmax, c - cost + 10 * pos)
                                v = 2 + t[g, c2, h - 1]
                                if v < best:
                                    best = v
                        elif k != B.HEDGEHOG and k != B.HARE:
                            c2 = min(cmax, c - cost + _position_bonus(k, pos))
                            v = 1 + t[g, c2, h]
                            if v < best:
                                best = v
                        n += 1
                        cost += n
                    hp = prevh[s]
                    if hp >= 0:
                        v = 1 + t[hp, min(cmax, c + 10 * (s - hp)), h]
                        if v < best:
                            best = v
                    if kinds[s] == B.CARROT:
                        v = 1 + t[s, min(cmax, c + 10), h]
                        if v < best:
                            best = v
                        if c >= 10:
                            v = 1 + t[s, c - 10, h]
                            if v < best:
                                best = v
                    if best < t[s, c, h]:
                        t[s, c, h] = best
                        changed = True


@njit(cache=True, nogil=True, _nrt=False)
def _solo(btab, pos, lk, s, c, h):
    """The solo table's turns for race position ``pos``, limit index ``lk``, square, carrots, lettuces."""
    C = btab[B_C]
    H = btab[B_H]
    if c >= C:
        c = C - 1
    if c < 0:
        c = 0
    if h >= H:
        h = H - 1
    i = (((pos - 1) * btab[B_LK] + lk) * 64 + s) * C * H + c * H + h
    return btab[B_SOLO + i]


@njit(cache=True, nogil=True, _nrt=False)
def _due(st, cfg, kinds, p):
    """Carrots ``p`` receives at the start of its next turn, before moving: a lettuce about to be eaten
    (10 x race position) and a position square reached on the last turn that matches the race position."""
    ppp = cfg[C_PPP]
    due = 0
    for j in range(p * ppp, p * ppp + ppp):
        s = st[SQ + j]
        if s >= LAST:
            continue
        if st[EATS + j] == 1:
            due += 10 * _race_position(st, cfg, j)
        elif st[FRESH + j] != 0:
            due += _position_bonus(kinds[s], _race_position(st, cfg, j))
    return due


@njit(cache=True, nogil=True, _nrt=False)
def _evaluate(st, cfg, kinds, btab, w, out):
    """One value per player into ``out`` (naive.evaluate is the reference)."""
    n = cfg[C_N]
    ppp = cfg[C_PPP]
    finished = 0
    for p in range(n):
        if st[PLACE + p] != 0:
            finished += 1
    # an opponent model (``w`` of 2 N_WEIGHTS + 2): the player ``w[2 N_WEIGHTS]`` (the root's mover) is valued with
    # the first block of weights, every other player with the second
    me = -1
    if w.shape[0] > W.N_WEIGHTS:
        me = int(w[2 * W.N_WEIGHTS])
    race = w[W.RACE]
    if me >= 0 and w[W.N_WEIGHTS + W.RACE] != 0.0:
        race = 1.0  # the others' weights use the race term: the turns of all
    # with the race term: every racer's solo turns and carrots due first (into ``out``, as turns * DUE_CODE + due:
    # each computed once), and the two earliest finishes, each racer's turns plus its place in the order of play
    # from the player to move over n (ties: who moves first)
    e1 = 1e300
    e2 = 1e300
    i1 = -1
    # e1 and e2 as turns and place in the order of play (the index of the tanh table, B_TH)
    t1 = 0
    j1 = 0
    t2 = 0
    j2 = 0
    if race != 0.0:
        turn = st[TURN]
        for p in range(n):
            if st[PLACE + p] != 0:
                continue
            if ppp == 1:
                # one piece each: _due and _turns written out (the same numbers; a call of either with its five
                # arrays costs as much as its work, and this loop runs in every evaluation: docs/hare.md, the
                # eighth session)
                s1 = st[SQ + p]
                if s1 >= LAST:
                    due = 0
                    t = 0
                else:
                    rp = 1
                    for q in range(cfg[C_NP]):
                        if q != p and (st[SQ + q] == LAST or st[SQ + q] > s1):
                            rp += 1
                    eating = 1 if st[EATS + p] == 1 else 0
                    if eating == 1:
                        due = 10 * rp
                    elif st[FRESH + p] != 0:
                        due = _position_bonus(kinds[s1], rp)
                    else:
                        due = 0
                    t = (st[SKIP + p] + eating
                         + _solo(btab, rp, finished, s1, st[CAR + p] + due, st[LET + p] - eating))
            else:
                due = _due(st, cfg, kinds, p)
                t = _turns(st, cfg, kinds, btab, p, finished, due)
            out[p] = t * DUE_CODE + due
            jo = (p - turn) % n
            f = t + jo / n
            if f < e1:
                e2 = e1
                t2 = t1
                j2 = j1
                e1 = f
                t1 = t
                j1 = jo
                i1 = p
            elif f < e2:
                e2 = f
                t2 = t
                j2 = jo
    for p in range(n):
        o = 0 if me < 0 or p == me else W.N_WEIGHTS
        pl = st[PLACE + p]
        if pl != 0:
            out[p] = _place_value(pl, n)
            continue
        prog = 0
        togo = 0
        ahead = 0
        second_half = False
        if race != 0.0:
            code = np.int64(out[p])
            t = code // DUE_CODE
            due = code - t * DUE_CODE
        else:
            t = -1
            due = _due(st, cfg, kinds, p)
        c = st[CAR + p] + w[o + W.DUE] * due
        let = st[LET + p]
        if ppp == 2:
            limit = 20 if (st[SQ + 2 * p] == LAST or st[SQ + 2 * p + 1] == LAST) else -1
        else:
            limit = 10 * (finished + 1)
        lim = limit if limit >= 0 else 20
        for j in range(p * ppp, p * ppp + ppp):
            if st[EATS + j] == 1:
                let -= 1  # about to eat: counted as eaten
        can_finish = False
        reach = False
        over = 1e300
        for j in range(p * ppp, p * ppp + ppp):
            s = st[SQ + j]
            prog += s
            togo += LAST - s
            if s < LAST:
                if btab[s] > ahead:
                    ahead = btab[s]
                if s >= 32:
                    second_half = True
                d = _cost(LAST - s)
                if let == 0 and d <= c:
                    reach = True
                    if c - d - lim < over:
                        over = c - d - lim
                    if limit < 0 or c - d <= limit:
                        can_finish = True
        S = -w[o + W.LETTUCE] * let - w[o + W.BEHIND] * max(0, let - ahead)
        if let > 0:
            S -= w[o + W.TIGHT] * let / (1.0 + max(0, ahead - let))
        need = w[o + W.NEED_PER_SQUARE] * togo
        excess = max(0.0, c - need - lim)
        curve = w[o + W.C1] if second_half else w[o + W.C0]
        C = curve * np.sqrt(max(0.0, min(c, need))) - w[o + W.EXCESS] * excess
        if can_finish:
            C += w[o + W.FINISHABLE]
        if reach and over > 0:
            C -= w[o + W.PERCARROT] * over
        P = 3.0 * prog
        v = w[o + W.KS] * S + w[o + W.KC] * C + w[o + W.KP] * P - w[o + W.SKIP] * st[SKIP + p]
        if race != 0.0 and w[o + W.RACE] != 0.0:
            # the earliest finish of another racer (as turns tb and place jb in the order of play)
            if p == i1:
                best = e2
                tb = t2
                jb = j2
            else:
                best = e1
                tb = t1
                jb = j1
            jo = (p - st[TURN]) % n
            tm = btab[B_TM]
            th = btab[B_TH]
            if (th > 0 and best < 1e300 and tb < tm and t < tm
                    and btab.view(np.float64)[B_RS] == w[o + W.RACESCALE]):
                # the table holds np.tanh of this very expression (the same numbers: a libm tanh cost a
                # fifth of the evaluation; docs/hare.md, ninth session)
                x = btab.view(np.float64)[th + ((tb * n + jb) * tm + t) * n + jo]
            else:
                x = np.tanh((best - (t + jo / n)) / w[o + W.RACESCALE])
            v -= w[o + W.TURNS] * t
            v += w[o + W.RACE] * (x - 2.0 * finished)
        elif w[o + W.TURNS] != 0.0:
            v -= w[o + W.TURNS] * (t if t >= 0 else _turns(st, cfg, kinds, btab, p, finished, due))
        out[p] = min(RACING_CAP, max(-RACING_CAP, v))


@njit(cache=True, nogil=True, _nrt=False)
def _turns(st, cfg, kinds, btab, p, finished, due):
    """Player ``p``'s turns to finish by the solo table (``due``: the carrots due to it next turn, ``_due``).
    With two pieces on the track, the sum for the two: the front piece home first (no carrot limit) with a
    share of the carrots in proportion to its distance, the rear one with the rest (at most 20 at the finish)
    and the lettuces (as many as it has lettuce squares ahead; the front piece the others)."""
    ppp = cfg[C_PPP]
    let = st[LET + p]
    extra = st[SKIP + p]
    j = -1
    k = -1
    for q in range(p * ppp, p * ppp + ppp):
        if st[SQ + q] < LAST:
            if st[EATS + q] == 1:
                let -= 1  # the eating turn: its payout is among the carrots due
                extra += 1
            if j < 0:
                j = q
            else:
                k = q
    if j < 0:
        return 0
    c = st[CAR + p] + due
    if k < 0:
        lk = 0 if ppp == 2 else finished
        return extra + _solo(btab, _race_position(st, cfg, j), lk, st[SQ + j], c, let)
    if st[SQ + k] > st[SQ + j]:
        j, k = k, j  # j the front piece, k the rear one
    df = LAST - st[SQ + j]
    dr = LAST - st[SQ + k]
    cf = c * df // (df + dr)
    hr = min(let, btab[st[SQ + k]])
    hf = let - hr
    return (extra + _solo(btab, _race_position(st, cfg, j), 1, st[SQ + j], cf, hf)
            + _solo(btab, _race_position(st, cfg, k), 0, st[SQ + k], c - cf, hr))


@njit(cache=True, nogil=True, _nrt=False)
def _place_value(place, n):
    """The value of a player placed ``place`` of ``n``: above every racing value, the better place the
    more; the last place below every racing value."""
    if place >= n:
        return -FINISHED
    return FINISHED + PLACE_STEP * (n - place)


@njit(cache=True, nogil=True, _nrt=False)
def _leaf(st, cfg, kinds, btab, w, mover, left, out):
    """The static values of ``st`` into ``out``; ``mover`` (the player whose move led here, -1: none)
    gets ``EARLY`` per ply ``left`` to the horizon when that move finished it (finishing earlier is
    worth more). Returns whether ``mover`` has just finished (the node is then a leaf)."""
    _evaluate(st, cfg, kinds, btab, w, out)
    if mover >= 0 and st[PLACE + mover] != 0:
        out[mover] += EARLY * left
        return True
    return False


@njit(cache=True, nogil=True, _nrt=False)
def _decision(v, p, rule, other, n):
    """How player ``p`` values the vector ``v`` under ``rule``."""
    if rule == ABSOLUTE:
        return v[p]
    if rule == VERSUS:
        return v[p] - v[other]
    if rule == RELATIVE:
        best = NEG
        for q in range(n):
            if q != p and v[q] > best:
                best = v[q]
        return v[p] - best
    s = 0.0
    for q in range(n):
        if q != p:
            s += v[q]
    return v[p] - s


# -- searches -----------------------------------------------------------------------------

@njit(cache=True, nogil=True, _nrt=False)
def _order(stack, lvl, nm, depth, pov, rule, other, sign, cfg, kinds, prevh, btab, w, moves, scores, order,
           cvals, cphase, stats):
    """Order the moves at ``lvl`` by ``sign`` times ``pov``'s static value of each child (stable, best first).

    Each child's values (``_leaf`` with ``depth - 1`` plies left) and phase are kept in ``cvals[lvl, i]`` and
    ``cphase[lvl, i]``; the phase is ``LEAF`` where the move finished its mover. Every child counts as a node:
    once the node limit is reached the search is aborted (``stats[ABORTED]``) and the ordering left unfinished
    (every caller returns at once), so that a node limit holds within a few nodes however many moves a node has.
    """
    n = cfg[C_N]
    mover = stack[lvl, TURN]
    for i in range(nm):
        if stats[NODE_LIMIT] > 0 and stats[NODES] >= stats[NODE_LIMIT]:
            stats[ABORTED] = 1
            return
        _copy(stack[lvl + 1], stack[lvl])
        _apply(stack[lvl + 1], cfg, kinds, prevh, moves[lvl, i])
        if _leaf(stack[lvl + 1], cfg, kinds, btab, w, mover, depth - 1, cvals[lvl, i]):
            cphase[lvl, i] = LEAF
        else:
            cphase[lvl, i] = stack[lvl + 1, PHASE]
        stats[NODES] += 1
        scores[lvl, i] = sign * _decision(cvals[lvl, i], pov, rule, other, n)
        order[lvl, i] = i
    for i in range(1, nm):
        k = order[lvl, i]
        sc = scores[lvl, k]
        q = i - 1
        while q >= 0 and scores[lvl, order[lvl, q]] < sc:
            order[lvl, q + 1] = order[lvl, q]
            q -= 1
        order[lvl, q + 1] = k


#: Whether the kernels read the clock themselves (``_clock_ns``): on Linux, where ``clock_gettime`` of
#: ``CLOCK_MONOTONIC`` is the clock of ``time.monotonic_ns``. Elsewhere a deadline is the caller's to
#: turn into the stop flag (a watcher thread).
KERNEL_CLOCK = sys.platform.startswith("linux")

if KERNEL_CLOCK:
    from llvmlite import ir  # type: ignore[import-untyped]
    from numba.core import cgutils

    @intrinsic
    def _clock_ns(typingctx: Any) -> Any:
        """``time.monotonic_ns()`` inside a kernel: libc's ``clock_gettime(CLOCK_MONOTONIC)``, called by
        name (so the kernels that use it stay cacheable); a few tens of nanoseconds through the vDSO."""

        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            i64, i32 = ir.IntType(64), ir.IntType(32)
            ts_type = ir.LiteralStructType([i64, i64])  # struct timespec on 64-bit Linux
            ts = cgutils.alloca_once(builder, ts_type)
            fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(i32, [i32, ts_type.as_pointer()]),
                                                "clock_gettime")
            builder.call(fn, [ir.Constant(i32, 1), ts])  # CLOCK_MONOTONIC
            sec = builder.load(cgutils.gep_inbounds(builder, ts, 0, 0))
            nsec = builder.load(cgutils.gep_inbounds(builder, ts, 0, 1))
            return builder.add(builder.mul(sec, ir.Constant(i64, 1_000_000_000)), nsec)

        return types.int64(), codegen
else:

    @njit(cache=True, nogil=True, _nrt=False)
    def _clock_ns():  # type: ignore[no-untyped-def]
        """No clock in the kernels here: a deadline never fires inside them."""
        return np.int64(0)


@njit(cache=True, nogil=True, _nrt=False)
def _now_ns():
    """The kernels' clock, for the tests to compare with ``time.monotonic_ns``."""
    return _clock_ns()


@njit(cache=True, nogil=True, _nrt=False)
def _poll(stop, stats):
    """Whether to give up: the stop flag (read at every node, so that a deadline is met within
    microseconds of work), the node limit, or the deadline ``stats[DEADLINE]`` (the clock read every
    ``CLOCK_EVERY`` polls, about every 10 microseconds of search: the search stops on time by itself,
    with no other thread to wake up first, which on a loaded machine can take a long time)."""
    if stop[0] != 0 or (stats[NODE_LIMIT] > 0 and stats[NODES] >= stats[NODE_LIMIT]):
        stats[ABORTED] = 1
    elif stats[DEADLINE] > 0:
        stats[POLLS] += 1
        if stats[POLLS] % CLOCK_EVERY == 1 and _clock_ns() >= stats[DEADLINE]:
            stats[ABORTED] = 1
    return stats[ABORTED] != 0


@njit(cache=True, nogil=True, _nrt=False)
def _chance_children(stack, lvl, cfg, kinds, cst, group, reps, counts):
    """Build the child of every card that can come next into ``cst[lvl]``; cards with identical
    children share a group. Returns (number of groups, total count); ``group[c]`` is card c's
    group (-1 if it cannot come), ``reps[g]`` a card of group g."""
    total = _unknown_counts(stack[lvl], cfg, counts)
    ng = 0
    for c in range(B.N_CARDS):
        group[c] = -1
        if counts[c] == 0:
            continue
        _copy(cst[lvl, c], stack[lvl])
        _draw(cst[lvl, c], cfg, kinds, np.int64(c))
        for g in range(ng):
            same = True
            r = reps[g]
            for i in range(SIZE):
                if cst[lvl, r, i] != cst[lvl, c, i]:
                    same = False
                    break
            if same:
                group[c] = g
                break
        if group[c] < 0:
            reps[ng] = c
            group[c] = ng
            ng += 1
    return ng, total


@njit(cache=True, nogil=True, _nrt=False)
def _maxn(stack, lvl, depth, ply, cfg, kinds, prevh, btab, w, widths, rule, ordering, cfull,
          moves, scores, order, cvals, cphase, cst, gvals, vals, stats, stop, pv, pvlen):
    """Max^n to ``depth`` plies; the value vector lands in ``vals[lvl]`` (naive.maxn is the reference).

    A hare card drawn ``cfull`` or more plies below the root is not branched on: the card that looks worst
    for the drawer at a glance is searched alone (the write-up's shortcut; ``cfull = 0``: everywhere)."""
    st = stack[lvl]
    n = cfg[C_N]
    stats[NODES] += 1
    pvlen[lvl] = 0
    if lvl > stats[SELDEPTH]:
        stats[SELDEPTH] = lvl
    if _poll(stop, stats):
        return
    ph = st[PHASE]
    if ph == OVER or (depth <= 0 and ph != DRAW):
        _evaluate(st, cfg, kinds, btab, w, vals[lvl])
        return
    if ph == DRAW:
        # a chance node generates no moves: its rows of ``moves``, ``order`` and ``cphase`` hold the card counts,
        # groups and representatives (the kernels allocate nothing: ``_nrt=False``)
        counts = moves[lvl, :B.N_CARDS]
        group = order[lvl, :B.N_CARDS]
        reps = cphase[lvl, :B.N_CARDS]
        ng, total = _chance_children(stack, lvl, cfg, kinds, cst, group, reps, counts)
        drawer = st[PP] // cfg[C_PPP]
        if ply >= cfull:
            # the original's shortcut: assume the card that looks worst for the drawer, search only that one
            bestg = 0
            best = 1e300
            for g in range(ng):
                _evaluate(cst[lvl, reps[g]], cfg, kinds, btab, w, gvals[lvl, g])
                stats[NODES] += 1
                d = _decision(gvals[lvl, g], drawer, rule, -1, n)
                if d < best:
                    best = d
                    bestg = g
            _copy(stack[lvl + 1], cst[lvl, reps[bestg]])
            _maxn(stack, lvl + np.int64(1), depth, ply, cfg, kinds, prevh, btab, w, widths, rule, ordering,
                  cfull, moves, scores, order, cvals, cphase, cst, gvals, vals, stats, stop, pv, pvlen)
            _copy(vals[lvl], vals[lvl + 1])
            return
        for g in range(ng):
            _copy(stack[lvl + 1], cst[lvl, reps[g]])
            _maxn(stack, lvl + np.int64(1), depth, ply, cfg, kinds, prevh, btab, w, widths, rule, ordering,
                  cfull, moves, scores, order, cvals, cphase, cst, gvals, vals, stats, stop, pv, pvlen)
            if stats[ABORTED] != 0:
                return
            _copy(gvals[lvl, g], vals[lvl + 1])
        for q in range(n):
            vals[lvl, q] = 0.0
        for c in range(B.N_CARDS):
            g = group[c]
            if g >= 0:
                pr = counts[c] / total
                for q in range(n):
                    vals[lvl, q] += pr * gvals[lvl, g, q]
        risk = w[W.RISK]
        # an opponent model that assumes the worst card (``w[2 N_WEIGHTS + 1]``): another player drawing values
        # the draw by the outcome worst for it, as it would choose (its own component); the rest the expectation
        mcards = (w.shape[0] > 2 * W.N_WEIGHTS + 1 and w[2 * W.N_WEIGHTS + 1] != 0.0
                  and drawer != int(w[2 * W.N_WEIGHTS]))
        if risk != 0.0 or mcards:
            # the outcome worst for the drawer (the first such group)
            bestg = 0
            best = 1e300
            for g in range(ng):
                d = _decision(gvals[lvl, g], drawer, rule, -1, n)
                if d < best:
                    best = d
                    bestg = g
            if risk != 0.0:
                for q in range(n):
                    vals[lvl, q] = (1.0 - risk) * vals[lvl, q] + risk * gvals[lvl, bestg, q]
            if mcards:
                vals[lvl, drawer] = gvals[lvl, bestg, drawer]
        return
    p = st[TURN]
    nm = _gen_moves(st, cfg, kinds, prevh, moves[lvl])
    if ordering:
        _order(stack, lvl, nm, depth, p, rule, np.int64(-1), 1.0, cfg, kinds, prevh, btab, w, moves, scores,
               order, cvals, cphase, stats)
        if stats[ABORTED] != 0:
            return
    else:
        for i in range(nm):
            order[lvl, i] = i
    wd = widths[min(ply, widths.shape[0] - 1)]
    k = nm if wd == 0 else min(nm, wd)
    best = NEG
    for ii in range(k):
        idx = order[lvl, ii]
        m = moves[lvl, idx]
        if ordering and (depth == 1 or cphase[lvl, idx] == LEAF) and cphase[lvl, idx] != DRAW:
            # a leaf already built and scored by the ordering
            _copy(vals[lvl + 1], cvals[lvl, idx])
            pvlen[lvl + 1] = 0
        else:
            _copy(stack[lvl + 1], stack[lvl])
            _apply(stack[lvl + 1], cfg, kinds, prevh, m)
            if stack[lvl + 1, PLACE + p] != 0:
                # the move finished its mover: the search stops here
                stats[NODES] += 1
                _leaf(stack[lvl + 1], cfg, kinds, btab, w, p, depth - 1, vals[lvl + 1])
                pvlen[lvl + 1] = 0
            else:
                _maxn(stack, lvl + np.int64(1), depth - np.int64(1), ply + np.int64(1), cfg, kinds, prevh,
                      btab, w, widths, rule, ordering, cfull, moves, scores, order, cvals, cphase, cst, gvals,
                      vals, stats, stop, pv, pvlen)
                if stats[ABORTED] != 0:
                    return
        d = _decision(vals[lvl + 1], p, rule, -1, n)
        if d > best:
            best = d
            _copy(vals[lvl], vals[lvl + 1])
            pv[lvl, 0] = m
            ln = pvlen[lvl + 1]
            for q in range(ln):
                pv[lvl, q + 1] = pv[lvl + 1, q]
            pvlen[lvl] = ln + 1


@njit(cache=True, nogil=True, _nrt=False)
def _paranoid(stack, lvl, depth, ply, alpha, beta, root, other, cfg, kinds, prevh, btab, w, widths,
              rule, ordering, cfull, prune, moves, scores, order, cvals, cphase, cst, gvals, stats, stop, pv, pvlen,
              hint, hintlen, onpv):
    """Paranoid search (alpha-beta when ``prune``): ``root`` maximises its decision value, every other
    player minimises it; expectation (or the worst card for the drawer) at chance nodes. Along the line
    ``hint[:hintlen]`` (the last iteration's principal variation; ``onpv`` (1/0): this node is on it) the
    hinted move is searched first."""
    st = stack[lvl]
    n = cfg[C_N]
    stats[NODES] += 1
    pvlen[lvl] = 0
    if lvl > stats[SELDEPTH]:
        stats[SELDEPTH] = lvl
    if _poll(stop, stats):
        return 0.0
    ph = st[PHASE]
    if ph == OVER or (depth <= 0 and ph != DRAW):
        leaf = gvals[lvl, 0]
        _evaluate(st, cfg, kinds, btab, w, leaf)
        return _decision(leaf, root, rule, other, n)
    if ph == DRAW:
        # a chance node generates no moves: its rows of ``moves``, ``order`` and ``cphase`` hold the card counts,
        # groups and representatives (the kernels allocate nothing: ``_nrt=False``)
        counts = moves[lvl, :B.N_CARDS]
        group = order[lvl, :B.N_CARDS]
        reps = cphase[lvl, :B.N_CARDS]
        ng, total = _chance_children(stack, lvl, cfg, kinds, cst, group, reps, counts)
        drawer = st[PP] // cfg[C_PPP]
        if ply >= cfull:
            # the original's shortcut: the card that looks worst for the drawer, searched alone
            bestg = 0
            best = 1e300
            for g in range(ng):
                _evaluate(cst[lvl, reps[g]], cfg, kinds, btab, w, gvals[lvl, g])
                stats[NODES] += 1
                d = _decision(gvals[lvl, g], root, rule, other, n)
                if drawer != root:
                    d = -d
                if d < best:
                    best = d
                    bestg = g
            _copy(stack[lvl + 1], cst[lvl, reps[bestg]])
            return _paranoid(stack, lvl + np.int64(1), depth, ply, alpha, beta, root, other, cfg, kinds, prevh,
                             btab, w, widths, rule, ordering, cfull, prune, moves, scores, order, cvals,
                             cphase, cst, gvals, stats, stop, pv, pvlen, hint, hintlen, np.int64(0))
        for g in range(ng):
            _copy(stack[lvl + 1], cst[lvl, reps[g]])
            v = _paranoid(stack, lvl + np.int64(1), depth, ply, -1e300, 1e300, root, other, cfg, kinds, prevh,
                          btab, w, widths, rule, ordering, cfull, prune, moves, scores, order, cvals, cphase,
                          cst, gvals, stats, stop, pv, pvlen, hint, hintlen, np.int64(0))
            if stats[ABORTED] != 0:
                return 0.0
            gvals[lvl, g, 0] = v
        acc = 0.0
        for c in range(B.N_CARDS):
            g = group[c]
            if g >= 0:
                acc += counts[c] / total * gvals[lvl, g, 0]
        return acc
    p = st[TURN]
    nm = _gen_moves(st, cfg, kinds, prevh, moves[lvl])
    sign = 1.0 if p == root else -1.0
    if ordering:
        _order(stack, lvl, nm, depth, root, rule, other, sign, cfg, kinds, prevh, btab, w, moves, scores,
               order, cvals, cphase, stats)
        if stats[ABORTED] != 0:
            return 0.0
    else:
        for i in range(nm):
            order[lvl, i] = i
    wd = widths[min(ply, widths.shape[0] - 1)]
    k = nm if wd == 0 else min(nm, wd)
    if onpv != 0 and ply < hintlen:
        for ii in range(k):
            if moves[lvl, order[lvl, ii]] == hint[ply]:
                idx = order[lvl, ii]
                for q in range(ii, 0, -1):
                    order[lvl, q] = order[lvl, q - 1]
                order[lvl, 0] = idx
                break
    maximise = p == root
    best = -1e300 if maximise else 1e300
    for ii in range(k):
        idx = order[lvl, ii]
        m = moves[lvl, idx]
        if ordering and (depth == 1 or cphase[lvl, idx] == LEAF) and cphase[lvl, idx] != DRAW:
            v = sign * scores[lvl, idx]  # a leaf already built and scored by the ordering
            pvlen[lvl + 1] = 0
        else:
            _copy(stack[lvl + 1], stack[lvl])
            _apply(stack[lvl + 1], cfg, kinds, prevh, m)
            if stack[lvl + 1, PLACE + p] != 0:
                # the move finished its mover: the search stops here
                stats[NODES] += 1
                leaf = gvals[lvl + 1, 0]
                _leaf(stack[lvl + 1], cfg, kinds, btab, w, p, depth - 1, leaf)
                v = _decision(leaf, root, rule, other, n)
                pvlen[lvl + 1] = 0
            else:
                child_on = np.int64(0)
                if onpv != 0 and ply < hintlen and m == hint[ply]:
                    child_on = np.int64(1)
                v = _paranoid(stack, lvl + np.int64(1), depth - np.int64(1), ply + np.int64(1), alpha, beta, root,
                              other, cfg, kinds, prevh, btab, w, widths, rule, ordering, cfull, prune, moves,
                              scores, order, cvals, cphase, cst, gvals, stats, stop, pv, pvlen, hint, hintlen,
                              child_on)
                if stats[ABORTED] != 0:
                    return 0.0
        if (maximise and v > best) or (not maximise and v < best):
            best = v
            pv[lvl, 0] = m
            ln = pvlen[lvl + 1]
            for q in range(ln):
                pv[lvl, q + 1] = pv[lvl + 1, q]
            pvlen[lvl] = ln + 1
        if prune:
            if maximise:
                if v > alpha:
                    alpha = v
            elif v < beta:
                beta = v
            if alpha >= beta:
                break
    return best


@njit(cache=True, nogil=True, _nrt=False)
def _perft(stack, lvl, depth, cfg, kinds, prevh, moves, stats):
    """Count the positions built ``depth`` plies deep (chance outcomes count as nodes too)."""
    st = stack[lvl]
    if depth <= 0 or st[PHASE] == OVER:
        return np.int64(1)
    total = np.int64(0)
    if st[PHASE] == DRAW:
        counts = moves[lvl, :B.N_CARDS]  # a chance node generates no moves: its row holds the card counts
        _unknown_counts(st, cfg, counts)
        for c in range(B.N_CARDS):
            if counts[c] > 0:
                _copy(stack[lvl + 1], st)
                _draw(stack[lvl + 1], cfg, kinds, np.int64(c))
                total += _perft(stack, lvl + np.int64(1), depth, cfg, kinds, prevh, moves, stats)
        return total
    nm = _gen_moves(st, cfg, kinds, prevh, moves[lvl])
    for i in range(nm):
        _copy(stack[lvl + 1], st)
        _apply(stack[lvl + 1], cfg, kinds, prevh, moves[lvl, i])
        total += _perft(stack, lvl + np.int64(1), depth - np.int64(1), cfg, kinds, prevh, moves, stats)
    return total


@njit(cache=True, nogil=True, _nrt=False)
def _build_and_score(st, cfg, kinds, prevh, btab, w, rounds, moves, child, tmp):
    """Benchmark loop: ``rounds`` times, build every child of ``st`` and score it; returns the count."""
    count = 0
    for _ in range(rounds):
        nm = _gen_moves(st, cfg, kinds, prevh, moves)
        for i in range(nm):
            _copy(child, st)
            _apply(child, cfg, kinds, prevh, moves[i])
            _evaluate(child, cfg, kinds, btab, w, tmp)
            count += 1
    return count


# -- Python side: packing positions and checked wrappers ---------------------------------

def game_config(game) -> np.ndarray:  # type: ignore[no-untyped-def]
    """The ``cfg`` array of a ``HareGame``."""
    cfg = np.zeros(CFG_SIZE, dtype=np.int64)
    cfg[C_N], cfg[C_PPP], cfg[C_NP] = game.n, game.ppp, game.npieces
    cfg[C_STARTCAR] = game.start_carrots
    cfg[C_TOURN] = 1 if game.tournament else 0
    cfg[C_DECK:C_DECK + B.N_CARDS] = game.deck
    return cfg


def lettuce_ahead_table(kinds: np.ndarray) -> np.ndarray:
    """For each square, how many lettuce squares lie strictly ahead."""
    out = np.zeros(len(kinds), dtype=np.int64)
    for s in range(len(kinds)):
        out[s] = int(sum(1 for t in range(s + 1, len(kinds)) if kinds[t] == B.LETTUCE))
    return out


def solo_layout(game) -> tuple[int, int, int, int]:  # type: ignore[no-untyped-def]
    """The solo table's dimensions for ``game``: race positions, limit indices, carrots (0..cmax), lettuces.

    One table per race position (1..pieces) and carrot limit at the finish (10 x the place for one piece
    each: one per number of players already home; for two pieces each 20 for the second piece home, and
    no limit for the first)."""
    lk = 2 if game.ppp == 2 else game.n
    return game.npieces, lk, SOLO_CMAX + 1, game.start_lettuces + 1


def race_tanh_table(n: int, racescale: float, tm: int = RACE_TM) -> np.ndarray:
    """The race term's ``tanh`` for every pair of racers' turns below ``tm`` and places in the order of play:
    entry ``((tb * n + jb) * tm + t) * n + jo`` is ``tanh(((tb + jb / n) - (t + jo / n)) / racescale)``, the
    expression ``_evaluate`` computes (the same floating-point operations, and libm's ``tanh`` as numba's)."""
    out = np.empty(tm * n * tm * n, dtype=np.float64)
    for tb in range(tm):
        for jb in range(n):
            best = tb + jb / n
            for t in range(tm):
                for jo in range(n):
                    out[((tb * n + jb) * tm + t) * n + jo] = math.tanh((best - (t + jo / n)) / racescale)
    return out


def board_table(game, solo: bool = True) -> np.ndarray:  # type: ignore[no-untyped-def]
    """``btab`` of ``game``: the lettuce squares ahead of each square, then the solo table (``solo``; without
    it the table is empty and only an evaluation with no ``turns`` weight may use it). The race term's tanh
    table is appended by ``with_race_table``."""
    kinds = np.asarray(game.kinds, dtype=np.int64)
    prevh = B.previous_hedgehog(kinds)
    P, LK, C, H = solo_layout(game)
    if not solo:
        out = np.zeros(B_SOLO, dtype=np.int64)
        out[:65] = lettuce_ahead_table(kinds)
        out[B_P], out[B_LK], out[B_C], out[B_H], out[B_TCAP] = P, LK, C, H, SOLO_TCAP
        return out
    out = np.zeros(B_SOLO + P * LK * 64 * C * H, dtype=np.int64)
    out[:65] = lettuce_ahead_table(kinds)
    out[B_P], out[B_LK], out[B_C], out[B_H], out[B_TCAP] = P, LK, C, H, SOLO_TCAP
    t = np.zeros((64, C, H), dtype=np.int64)
    size = 64 * C * H
    for pos in range(1, P + 1):
        for lk in range(LK):
            limit = (20 if lk == 0 else NO_LIMIT) if game.ppp == 2 else 10 * (lk + 1)
            _solo_fill(kinds, prevh, np.int64(pos), np.int64(limit), np.int64(C - 1), np.int64(H - 1),
                       np.int64(SOLO_TCAP), t)
            i = B_SOLO + ((pos - 1) * LK + lk) * size
            out[i:i + size] = t.reshape(-1)
    return out


def with_race_table(btab: np.ndarray, n: int, racescale: float) -> np.ndarray:
    """A copy of ``btab`` (without a tanh table) with the race term's tanh table for ``racescale`` (B_TH)."""
    tab = race_tanh_table(n, racescale)
    out = np.concatenate([btab, tab.view(np.int64)])
    out[B_TH] = btab.shape[0]
    out[B_TM] = RACE_TM
    out[B_RS] = np.array([racescale], dtype=np.float64).view(np.int64)[0]
    return out


_BOARD_TABLES: dict[str, np.ndarray] = {}
#: the boards with a tanh table, by game spec and racescale: at most RACE_BOARDS_KEPT (a tuning run that moves
#: ``racescale`` would otherwise keep a copy of the solo table for every scale it tried)
_RACE_BOARDS: dict[tuple[str, float], np.ndarray] = {}
RACE_BOARDS_KEPT = 8


class Tables:
    """The arrays the kernels need for one game. ``board(w)`` is the ``btab`` for the weights ``w``: with the
    solo table (built once per game spec and process, a fraction of a second) only when ``w`` uses it, and
    with the race term's tanh table for ``w``'s ``racescale`` when its first block has the race term."""

    def __init__(self, game) -> None:  # type: ignore[no-untyped-def]
        self.game = game
        self.cfg = game_config(game)
        self.kinds = np.asarray(game.kinds, dtype=np.int64)
        self.prevh = B.previous_hedgehog(self.kinds)
        self.btab = board_table(game, solo=False)

    def board(self, w: np.ndarray) -> np.ndarray:
        blocks = (0, W.N_WEIGHTS) if w.shape[0] > W.N_WEIGHTS else (0,)
        if all(w[o + W.TURNS] == 0.0 and w[o + W.RACE] == 0.0 for o in blocks):
            return self.btab
        spec = self.game.spec
        solo = _BOARD_TABLES.get(spec)
        if solo is None:
            solo = _BOARD_TABLES[spec] = board_table(self.game)
        if w[W.RACE] == 0.0 or w[W.RACESCALE] == 0.0:
            return solo
        # with the race term (the first block's): the tanh table for its scale
        key = (spec, float(w[W.RACESCALE]))
        b = _RACE_BOARDS.get(key)
        if b is None:
            while len(_RACE_BOARDS) >= RACE_BOARDS_KEPT:
                del _RACE_BOARDS[next(iter(_RACE_BOARDS))]
            b = _RACE_BOARDS[key] = with_race_table(solo, self.game.n, key[1])
        return b


def pack(state) -> np.ndarray:  # type: ignore[no-untyped-def]
    """A ``HareState`` as the kernels' ``int64`` array."""
    g = state.game
    st = np.zeros(SIZE, dtype=np.int64)
    for j in range(g.npieces):
        st[SQ + j], st[EATS + j] = state.sq[j], state.eat[j]
        st[FRESH + j], st[HMASK + j] = state.fresh[j], state.hmask[j]
    for p in range(g.n):
        st[CAR + p], st[LET + p] = state.car[p], state.let[p]
        st[SKIP + p], st[PLACE + p] = state.skip[p], state.place[p]
    st[TURN], st[PHASE], st[PP], st[PC] = state.turn, state.phase, state.pp, state.pc
    st[NKNOWN] = len(state.known)
    for i, c in enumerate(state.known):
        st[KNOWN + i] = c
    return st


def unpack(st: np.ndarray, game) -> object:  # type: ignore[no-untyped-def]
    """The ``HareState`` of a kernel array (no history)."""
    from .rules import HareState

    s = HareState(game)
    for j in range(game.npieces):
        s.sq[j], s.eat[j], s.fresh[j], s.hmask[j] = (int(st[SQ + j]), int(st[EATS + j]), int(st[FRESH + j]),
                                                     int(st[HMASK + j]))
    for p in range(game.n):
        s.car[p], s.let[p], s.skip[p], s.place[p] = (int(st[CAR + p]), int(st[LET + p]), int(st[SKIP + p]),
                                                     int(st[PLACE + p]))
    s.turn, s.phase, s.pp, s.pc = int(st[TURN]), int(st[PHASE]), int(st[PP]), int(st[PC])
    s.known = [int(c) for c in st[KNOWN:KNOWN + st[NKNOWN]]]
    return s


def _check(st: np.ndarray) -> None:
    if not isinstance(st, np.ndarray) or st.dtype != np.int64 or st.shape != (SIZE,):
        raise ValueError(f"a packed Hare and Hedgehog position is an int64 array of {SIZE}, got {st!r:.80}")


def gen_moves(st: np.ndarray, tables: Tables) -> list[int]:
    """The legal moves of a packed position (checked wrapper of ``_gen_moves``)."""
    _check(st)
    out = np.zeros(MAXMOVES, dtype=np.int64)
    n = _gen_moves(st, tables.cfg, tables.kinds, tables.prevh, out)
    return [int(m) for m in out[:n]]


def apply(st: np.ndarray, tables: Tables, move: int) -> np.ndarray:
    """A copy of ``st`` after ``move`` (a legal move, or a card at a chance node)."""
    _check(st)
    child = st.copy()
    if st[PHASE] == DRAW:
        if not 0 <= move < B.N_CARDS:
            raise ValueError(f"{move} is not a hare card")
    elif move not in gen_moves(st, tables):
        raise ValueError(f"move {move} is not legal here")
    _apply(child, tables.cfg, tables.kinds, tables.prevh, np.int64(move))
    return child


def evaluate(st: np.ndarray, tables: Tables, weights: np.ndarray) -> np.ndarray:
    """The evaluation vector of a packed position (checked wrapper of ``_evaluate``)."""
    _check(st)
    if weights.dtype != np.float64 or weights.shape not in ((W.N_WEIGHTS,), (2 * W.N_WEIGHTS + 2,)):
        raise ValueError(f"weights must be a float64 array of {W.N_WEIGHTS} (or {2 * W.N_WEIGHTS + 2} with an "
                         "opponent model: see config.model_array)")
    out = np.zeros(int(tables.cfg[C_N]), dtype=np.float64)
    _evaluate(st, tables.cfg, tables.kinds, tables.board(weights), weights, out)
    return out
