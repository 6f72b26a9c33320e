"""The shogi evaluation: every tunable weight in one place, the tables built from them, and a reference.

Material (pieces in hand worth ``HAND_BONUS_PERCENT`` more than on the board,
after the original write-up's +30%) plus piece-square tables from Sente's
side (Gote's use the mirrored square), and (``positional=True``) king safety
(the castle: own pieces next to the king; enemy pieces within two squares of
it; open lines straight ahead of it and on its forward diagonals) and the
mobility of the sliders (empty squares along their lines). Values are in
centi-pawns-ish units (a pawn on the board is ``PIECE_VALUES[PAWN]``).
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
#: King safety: per own piece next to the king, by type (the castle's defenders).
KING_DEFENDERS = {GOLD: 24, SILVER: 18, PRO_PAWN: 14, PRO_LANCE: 14, PRO_KNIGHT: 14, PRO_SILVER: 14,
                  KNIGHT: 6, LANCE: 6, PAWN: 8, BISHOP: 4, ROOK: 0, HORSE: 20, DRAGON: 10}
#: King safety: minus per enemy piece within two squares of the king, by type.
KING_ATTACKERS = {PAWN: 4, LANCE: 10, KNIGHT: 14, SILVER: 20, GOLD: 20, BISHOP: 16, ROOK: 20, PRO_PAWN: 22,
                  PRO_LANCE: 22, PRO_KNIGHT: 22, PRO_SILVER: 22, HORSE: 30, DRAGON: 40}
#: King safety: minus per empty square on the lines ahead of the king (file and forward diagonals).
KING_OPEN_LINE = 4
#: Mobility: per empty square along the lines of a slider (lance, bishop, rook, horse, dragon).
SLIDER_MOBILITY = 2


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


def piece_square_table(g: Geometry, positional: bool = True) -> np.ndarray:
    """``pst[t, sq]`` from Sente's side for squares ``sq`` of ``g`` (Gote uses ``N - 1 - sq``).

    Rows 0 and 15 belong to no piece type; they carry the positional weights for the kernel:
    ``pst[0, t]`` defender and ``pst[15, t]`` attacker weight of type ``t``, ``pst[0, 16]`` the
    open-line weight, ``pst[0, 17]`` the mobility weight, ``pst[0, 18]`` 1 when these terms are on.
    """
    from .search import KS_ON, KS_OPEN, MOBILITY

    pst = np.zeros((16, g.N), dtype=np.int64)
    if positional:
        for t, w in KING_DEFENDERS.items():
            pst[0, t] = w
        for t, w in KING_ATTACKERS.items():
            pst[15, t] = w
        pst[0, KS_OPEN] = KING_OPEN_LINE
        pst[0, MOBILITY] = SLIDER_MOBILITY
        pst[0, KS_ON] = 1
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


_TABLES: dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}


def _tables(g: Geometry) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The value tables of ``g`` (built once: the reference is called very often)."""
    if g.variant not in _TABLES:
        _TABLES[g.variant] = (piece_values(), hand_values(), piece_square_table(g))
    return _TABLES[g.variant]


def evaluate_reference(g: Geometry, board: np.ndarray, hands: np.ndarray, color: int,
                       positional: bool = True) -> int:
    """The evaluation from ``color``'s side, in plain Python (the kernel's oracle)."""
    from .board import DIRS_RC, SLIDE_MASK

    values, handv, pst = _tables(g)
    pieces = {}
    for sq in range(g.N):
        v = int(board[g.sq2p[sq]])
        if v:
            pieces[divmod(sq, g.files)] = (0 if v & BLACK_BIT else 1, v & 15)
    score = [0, 0]
    for (r, c), (col, t) in pieces.items():
        sq = r * g.files + c
        score[col] += int(values[t]) + int(pst[t, sq if col == 0 else g.N - 1 - sq])
    for c in (0, 1):
        score[c] += sum(int(handv[t]) * int(hands[c, t]) for t in range(1, 8))
    if positional:
        def inside(r: int, c: int) -> bool:
            return 0 <= r < g.ranks and 0 <= c < g.files

        def run(r: int, c: int, dr: int, dc: int) -> int:
            n = 0
            r, c = r + dr, c + dc
            while inside(r, c) and (r, c) not in pieces:
                n += 1
                r, c = r + dr, c + dc
            return n

        for (r, c), (col, t) in pieces.items():
            sgn = 1 if col == 0 else -1
            for i, (dr, dc) in enumerate(DIRS_RC):
                if (int(SLIDE_MASK[t]) >> i) & 1:
                    score[col] += SLIDER_MOBILITY * run(r, c, sgn * dr, sgn * dc)
        for (r, c), (col, t) in pieces.items():
            if t != KING:
                continue
            ks = 0
            for (r2, c2), (col2, t2) in pieces.items():
                if max(abs(r2 - r), abs(c2 - c)) == 1 and col2 == col:
                    ks += KING_DEFENDERS.get(t2, 0)
                if max(abs(r2 - r), abs(c2 - c)) <= 2 and col2 != col:
                    ks -= KING_ATTACKERS.get(t2, 0)
            fwd = -1 if col == 0 else 1
            ks -= KING_OPEN_LINE * sum(run(r, c, fwd, dc) for dc in (-1, 0, 1))
            score[col] += ks
    return score[color] - score[1 - color]
