"""The shogi evaluation: every tunable weight in one place, the tables built from them, and a reference.

Material (pieces in hand worth ``HAND_BONUS_PERCENT`` more than on the board,
after the original write-up's +30%) plus piece-square tables from Sente's
side (Gote's use the mirrored square). Values are in centi-pawns-ish units
(a pawn on the board is ``PIECE_VALUES[PAWN]``).
"""

from __future__ import annotations

import numpy as np

from .board import (
    BISHOP,
    BLACK_BIT,
    DRAGON,
    GOLD,
    HORSE,
    KING,
    KNIGHT,
    LANCE,
    PAWN,
    PRO_KNIGHT,
    PRO_LANCE,
    PRO_PAWN,
    PRO_SILVER,
    ROOK,
    SILVER,
    Geometry,
)

# -- the weights --------------------------------------------------------------
PIECE_VALUES = {
    PAWN: 90, LANCE: 315, KNIGHT: 405, SILVER: 495, GOLD: 540, BISHOP: 855, ROOK: 990, KING: 0,
    PRO_PAWN: 540, PRO_LANCE: 540, PRO_KNIGHT: 540, PRO_SILVER: 540, HORSE: 945, DRAGON: 1395,
}
HAND_BONUS_PERCENT = 30
#: Piece-square terms (from Sente's side; ``rank`` 0 is the far end, ``centre`` is 0 on the middle file).
PAWN_ADVANCE = 4  # per rank advanced from the pawn's start
SILVER_GOLD_CENTRE = 6  # silvers and golds: minus per file away from the centre
SILVER_GOLD_ADVANCE = 3  # silvers: per rank up to the middle
KING_HOME = 12  # the king: minus per rank away from the home rank
KING_EDGE = 8  # the king: plus on the two outer files on each side (castle corners)
PROMOTED_CENTRE = 4  # tokin and other gold-movers of promotion: minus per file from the centre
DRAGON_HORSE_CENTRE = 3


def piece_values() -> np.ndarray:
    """Board values by type (index 0..15)."""
    v = np.zeros(16, dtype=np.int64)
    for t, x in PIECE_VALUES.items():
        v[t] = x
    return v


def hand_values() -> np.ndarray:
    """Values of pieces in hand by kind (1..7), with the hand bonus."""
    v = np.zeros(8, dtype=np.int64)
    for t in range(1, 8):
        v[t] = PIECE_VALUES[t] * (100 + HAND_BONUS_PERCENT) // 100
    return v


def piece_square_table(g: Geometry) -> np.ndarray:
    """``pst[t, sq]`` from Sente's side for squares ``sq`` of ``g`` (Gote uses ``N - 1 - sq``)."""
    pst = np.zeros((16, g.N), dtype=np.int64)
    mid = g.files // 2
    for sq in range(g.N):
        r, c = divmod(sq, g.files)
        from_home = g.ranks - 1 - r
        centre = abs(c - mid)
        pst[PAWN, sq] = PAWN_ADVANCE * max(0, from_home - (2 if g.files == 9 else 1))
        pst[SILVER, sq] = -SILVER_GOLD_CENTRE * centre + SILVER_GOLD_ADVANCE * min(from_home, g.ranks // 2)
        pst[GOLD, sq] = -SILVER_GOLD_CENTRE * centre
        for t in (PRO_PAWN, PRO_LANCE, PRO_KNIGHT, PRO_SILVER):
            pst[t, sq] = -PROMOTED_CENTRE * centre
        for t in (HORSE, DRAGON):
            pst[t, sq] = -DRAGON_HORSE_CENTRE * centre
        pst[KING, sq] = -KING_HOME * from_home + (KING_EDGE if centre >= mid - 1 else 0)
    return pst


def evaluate_reference(g: Geometry, board: np.ndarray, hands: np.ndarray, color: int) -> int:
    """The evaluation from ``color``'s side, in plain Python (the kernel's oracle)."""
    values, handv, pst = piece_values(), hand_values(), piece_square_table(g)
    score = [0, 0]
    for sq in range(g.N):
        v = int(board[g.sq2p[sq]])
        if not v:
            continue
        t = v & 15
        c = 0 if v & BLACK_BIT else 1
        score[c] += int(values[t]) + int(pst[t, sq if c == 0 else g.N - 1 - sq])
    for c in (0, 1):
        score[c] += sum(int(handv[t]) * int(hands[c, t]) for t in range(1, 8))
    return score[color] - score[1 - color]
