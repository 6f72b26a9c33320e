"""Which board representation for the shogi kernels? A measurement, run by hand.

Counts the pseudo-legal board moves of the same positions (sampled from random
games), and tests every square for attack by Gote (the test behind king moves
and pawn-drop mate), with two layouts and the same loop shapes:

- padded mailbox: the board with wall cells around it (one column each side,
  two rows above and below), a move is ``p + offset`` and a wall stops it;
- flat board with neighbour tables: 81 cells, ``nbr[sq, d]`` gives the next
  square in direction ``d`` or -1 off the board.

    python tests/benchmarks/shogi_representation.py [--positions 2000] [--repeat 50]

The kernels here are throwaway measurement code, not part of gamesuite.
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np
from numba import njit

from gamesuite.core import load_game
from gamesuite.games.shogi.board import DIRS_RC, KNIGHT, KNIGHT_RC, SLIDE_MASK, STEP_MASK


@njit(cache=True)
def _count_padded(boards, sq2p, tab, reps):
    total = 0
    for _ in range(reps):
        for b in range(boards.shape[0]):
            board = boards[b]
            for p in range(sq2p[0], sq2p[sq2p.shape[0] - 1] + 1):  # wall cells fail the colour test
                v = board[p]
                if not (v & 16):
                    continue
                t = v & 15
                e0 = t * 11
                for x in range(tab[e0]):
                    e = tab[e0 + 1 + x]
                    d = e >> 4
                    to = p + d
                    while True:
                        w = board[to]
                        if w == 0 or (w & 32):
                            total += 1
                        if w != 0 or (e & 8) == 0:
                            break
                        to += d
    return total


@njit(cache=True)
def _count_flat(boards, nbr, kinds, reps):
    total = 0
    for _ in range(reps):
        for b in range(boards.shape[0]):
            board = boards[b]
            for s in range(board.shape[0]):
                v = board[s]
                if not (v & 16):
                    continue
                t = v & 15
                e0 = t * 11
                for x in range(kinds[e0]):
                    e = kinds[e0 + 1 + x]
                    d = e >> 4
                    to = nbr[s, d]
                    while to >= 0:
                        w = board[to]
                        if w == 0 or (w & 32):
                            total += 1
                        if w != 0 or (e & 8) == 0:
                            break
                        to = nbr[to, d]
    return total


@njit(cache=True)
def _attacked_padded(boards, sq2p, dirs, attack_mask, slide_mask, W, reps):
    """How many squares Gote attacks, summed over the positions (the king-safety test of the generator)."""
    total = 0
    for _ in range(reps):
        for b in range(boards.shape[0]):
            board = boards[b]
            for s in range(sq2p.shape[0]):
                p = sq2p[s]
                hit = False
                for i in range(8):
                    d = -dirs[i]
                    q = p - d
                    v = board[q]
                    if v & 32:
                        if (attack_mask[v & 15] >> i) & 1:
                            hit = True
                            break
                    elif v == 0:
                        q -= d
                        while board[q] == 0:
                            q -= d
                        v = board[q]
                        if (v & 32) and (slide_mask[v & 15] >> i) & 1:
                            hit = True
                            break
                if not hit and (board[p - (2 * W + 1)] == 35 or board[p - (2 * W - 1)] == 35):
                    hit = True
                total += hit
    return total


@njit(cache=True)
def _attacked_flat(boards, nbr, attack_mask, slide_mask, reps):
    total = 0
    for _ in range(reps):
        for b in range(boards.shape[0]):
            board = boards[b]
            for s in range(board.shape[0]):
                hit = False
                for i in range(8):
                    q = nbr[s, i]  # Gote moves by -d, so its attacker sits at +d (Sente's direction i)
                    if q < 0:
                        continue
                    v = board[q]
                    if v & 32:
                        if (attack_mask[v & 15] >> i) & 1:
                            hit = True
                            break
                    elif v == 0:
                        q = nbr[q, i]
                        while q >= 0 and board[q] == 0:
                            q = nbr[q, i]
                        if q >= 0 and (board[q] & 32) and (slide_mask[board[q] & 15] >> i) & 1:
                            hit = True
                            break
                if not hit:
                    for j in (8, 9):
                        q = nbr[s, j]
                        if q >= 0 and board[q] == 35:
                            hit = True
                total += hit
    return total


def _tables(g):
    """Sente's move table for both layouts (direction numbers 0..9 for the flat one)."""
    tab = np.zeros(16 * 11, dtype=np.int64)
    kinds = np.zeros(16 * 11, dtype=np.int64)
    for t in range(1, 15):
        entries_p, entries_f = [], []
        for i, (dr, dc) in enumerate(DIRS_RC):
            slide = 8 if (int(SLIDE_MASK[t]) >> i) & 1 else 0
            if slide or (int(STEP_MASK[t]) >> i) & 1:
                entries_p.append(((dr * g.W + dc) << 4) | slide)
                entries_f.append((i << 4) | slide)
        if t == KNIGHT:
            for j, (dr, dc) in enumerate(KNIGHT_RC):
                entries_p.append((dr * g.W + dc) << 4)
                entries_f.append((8 + j) << 4)
        tab[t * 11] = kinds[t * 11] = len(entries_p)
        tab[t * 11 + 1: t * 11 + 1 + len(entries_p)] = entries_p
        kinds[t * 11 + 1: t * 11 + 1 + len(entries_f)] = entries_f
    nbr = np.full((g.N, 10), -1, dtype=np.int64)
    for s in range(g.N):
        r, c = divmod(s, g.files)
        for i, (dr, dc) in enumerate(list(DIRS_RC) + list(KNIGHT_RC)):
            if 0 <= r + dr < g.ranks and 0 <= c + dc < g.files:
                nbr[s, i] = (r + dr) * g.files + c + dc
    return tab, kinds, nbr


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--positions", type=int, default=2000)
    ap.add_argument("--repeat", type=int, default=400)
    args = ap.parse_args()
    game = load_game("shogi")
    rng = random.Random(1)
    padded, flat = [], []
    while len(padded) < args.positions:
        s = game.new_state()
        for _ in range(rng.randrange(0, 80)):
            if s.is_terminal():
                break
            s.play(rng.choice(s.legal_moves()))
        if s.color != 0:
            continue  # the kernels count Sente's moves
        padded.append(s.board.copy())
        flat.append(s.board[s.g.sq2p].copy())
    pb, fb = np.array(padded), np.array(flat)
    g = game.new_state().g
    tab, kinds, nbr = _tables(g)
    a = _count_padded(pb, g.sq2p, tab, 1)
    b = _count_flat(fb, nbr, kinds, 1)
    assert a == b, (a, b)
    attack = (STEP_MASK | SLIDE_MASK).astype(np.int64)
    slide = SLIDE_MASK.astype(np.int64)
    # a Gote piece attacking s sits one Sente-step (or a Sente knight's jump) away from s
    nbr_k = nbr
    c = _attacked_padded(pb, g.sq2p, g.dirs, attack, slide, g.W, 1)
    dd = _attacked_flat(fb, nbr_k, attack, slide, 1)
    assert c == dd, (c, dd)
    for name, fn, n in (
            ("padded mailbox", lambda: _count_padded(pb, g.sq2p, tab, args.repeat), a),
            ("flat + neighbour table", lambda: _count_flat(fb, nbr, kinds, args.repeat), a),
            ("padded: attack test", lambda: _attacked_padded(pb, g.sq2p, g.dirs, attack, slide, g.W, args.repeat // 4),
             len(padded) * 81),
            ("flat: attack test", lambda: _attacked_flat(fb, nbr_k, attack, slide, args.repeat // 4),
             len(padded) * 81)):
        best = float("inf")
        for _ in range(5):
            t = time.process_time()
            fn()
            best = min(best, time.process_time() - t)
        reps = args.repeat if "attack" not in name else args.repeat // 4
        unit = "pseudo-moves" if "attack" not in name else "squares tested"
        print(f"{name:<24} {best:7.3f} s CPU  {n * reps / best / 1e6:7.1f} M {unit}/s")


if __name__ == "__main__":
    main()
