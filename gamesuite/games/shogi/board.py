"""Shogi pieces, board geometry and Zobrist tables shared by the rules, the kernels and the reference.

Squares: ``sq = row * files + col`` with row 0 the top rank (``a``, Gote's side)
and col 0 the leftmost file from Sente's side (file 9 on 9x9, file 5 on 5x5).
The kernels work on a *padded mailbox*: one wall column on each side and two
wall rows above and below (so that a knight's jump never leaves the array),
``p = (row + 2) * W + col + 1`` with ``W = files + 2``.

Board cells hold ``0`` (empty), ``BLACK | type`` (Sente), ``WHITE | type``
(Gote) or ``WALL``. Types: P L N S B R G K = 1..8, promoted ``+8`` (+P=9 ...
+R=14). Hands are ``hands[color, kind]`` for kinds 1..7 (P L N S B R G).

Moves are integers ``from * 256 + to * 2 + promote``; a drop has
``from = N + kind - 1`` (``N`` = number of squares), so moves of one position
sort board moves first (by origin square), drops last.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

PAWN, LANCE, KNIGHT, SILVER, BISHOP, ROOK, GOLD, KING = 1, 2, 3, 4, 5, 6, 7, 8
PROMOTED = 8
PRO_PAWN, PRO_LANCE, PRO_KNIGHT, PRO_SILVER, HORSE, DRAGON = 9, 10, 11, 12, 13, 14
BLACK_BIT, WHITE_BIT, WALL = 16, 32, 64
COLOR_BITS = (BLACK_BIT, WHITE_BIT)
SENTE, GOTE = 0, 1

#: SFEN letters of the unpromoted types (index = type).
LETTERS = " PLNSBRGK"
#: Hand kinds in the conventional SFEN order (rook first, pawn last).
HAND_ORDER = (ROOK, BISHOP, GOLD, SILVER, KNIGHT, LANCE, PAWN)
#: Points for the entering-king declaration (rook and bishop 5, the rest 1).
IMPASSE_POINTS = (0, 1, 1, 1, 1, 5, 5, 1, 0, 1, 1, 1, 1, 5, 5)

# The eight directions in Sente's orientation (row, col): N NE E SE S SW W NW.
DIRS_RC = ((-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1))
N_, NE, E_, SE, S_, SW, W_, NW = range(8)
KNIGHT_RC = ((-2, -1), (-2, 1))


def _mask(*dirs: int) -> int:
    m = 0
    for d in dirs:
        m |= 1 << d
    return m


GOLD_DIRS = (N_, NE, E_, S_, W_, NW)
#: Step directions of each type (bit i = direction i), Sente's orientation.
STEP_MASK = np.zeros(16, dtype=np.int64)
#: Sliding directions of each type.
SLIDE_MASK = np.zeros(16, dtype=np.int64)
STEP_MASK[PAWN] = _mask(N_)
STEP_MASK[SILVER] = _mask(N_, NE, SE, SW, NW)
for _t in (GOLD, PRO_PAWN, PRO_LANCE, PRO_KNIGHT, PRO_SILVER):
    STEP_MASK[_t] = _mask(*GOLD_DIRS)
STEP_MASK[KING] = _mask(*range(8))
STEP_MASK[HORSE] = _mask(N_, E_, S_, W_)
STEP_MASK[DRAGON] = _mask(NE, SE, SW, NW)
SLIDE_MASK[LANCE] = _mask(N_)
SLIDE_MASK[BISHOP] = SLIDE_MASK[HORSE] = _mask(NE, SE, SW, NW)
SLIDE_MASK[ROOK] = SLIDE_MASK[DRAGON] = _mask(N_, E_, S_, W_)

#: Pieces of each kind in a full set (both sides together) per variant.
FULL_SET = {
    "standard": {PAWN: 18, LANCE: 4, KNIGHT: 4, SILVER: 4, GOLD: 4, BISHOP: 2, ROOK: 2},
    "mini": {PAWN: 2, LANCE: 0, KNIGHT: 0, SILVER: 2, GOLD: 2, BISHOP: 2, ROOK: 2},
}


def piece_type(v: int) -> int:
    return v & 15


def piece_color(v: int) -> int:
    """0 for Sente, 1 for Gote (``v`` must be a piece)."""
    return 0 if v & BLACK_BIT else 1


def unpromoted(t: int) -> int:
    return t - PROMOTED if t > PROMOTED else t


@dataclass(frozen=True, eq=False)
class Geometry:
    """Board size, promotion zone and the lookup tables the kernels need."""

    variant: str
    files: int
    ranks: int
    zone: int
    W: int
    PN: int
    N: int
    sq2p: np.ndarray  # (N,) padded index of each square
    p2sq: np.ndarray  # (PN,) square of each padded index, -1 on walls
    relrank: np.ndarray  # (2, PN) rank counted from each side's far end (0 = last rank), -1 on walls
    dirs: np.ndarray  # (8,) padded offsets of the directions (Sente's orientation)
    geo: np.ndarray  # (8,) int64 scalars for the kernels: files, ranks, W, N, zone, PN, -, -
    zob_board: np.ndarray  # (PN, 64) uint64
    zob_hand: np.ndarray  # (2, 8, 20) uint64
    zob_side: int
    empty_board: np.ndarray  # (PN,) int8 with walls
    rel: np.ndarray  # (2 * PN,) relrank flattened: rel[c * PN + p]
    pfile: np.ndarray  # (PN,) column of each padded index (0 on walls)
    tab: np.ndarray  # (2 * 16 * 11,) move table, see ``move_table``

    def sq(self, row: int, col: int) -> int:
        return row * self.files + col

    def square_name(self, sq: int) -> str:
        """USI name of a square: file digit then rank letter (``7g``)."""
        row, col = divmod(sq, self.files)
        return f"{self.files - col}{chr(ord('a') + row)}"


def make_geometry(variant: str) -> Geometry:
    files = ranks = 9 if variant == "standard" else 5
    zone = 3 if variant == "standard" else 1
    W = files + 2
    H = ranks + 4
    PN = W * H
    N = files * ranks
    sq2p = np.array([(r + 2) * W + c + 1 for r in range(ranks) for c in range(files)], dtype=np.int64)
    p2sq = np.full(PN, -1, dtype=np.int64)
    p2sq[sq2p] = np.arange(N)
    relrank = np.full((2, PN), -1, dtype=np.int64)
    for s, p in enumerate(sq2p):
        r = s // files
        relrank[0, p] = r
        relrank[1, p] = ranks - 1 - r
    dirs = np.array([dr * W + dc for dr, dc in DIRS_RC], dtype=np.int64)
    geo = np.array([files, ranks, W, N, zone, PN, 0, 0], dtype=np.int64)
    rng = np.random.default_rng(0x5406 + files)
    zob_board = rng.integers(1, 2**63 - 1, size=(PN, 64), dtype=np.int64).astype(np.uint64)
    zob_board[:, 0] = 0
    zob_hand = rng.integers(1, 2**63 - 1, size=(2, 8, 20), dtype=np.int64).astype(np.uint64)
    zob_hand[:, :, 0] = 0
    zob_side = int(rng.integers(1, 2**63 - 1, dtype=np.int64))
    empty = np.full(PN, WALL, dtype=np.int8)
    empty[sq2p] = 0
    pfile = np.zeros(PN, dtype=np.int64)
    pfile[sq2p] = np.arange(N) % files
    return Geometry(variant, files, ranks, zone, W, PN, N, sq2p, p2sq, relrank, dirs, geo,
                    zob_board, zob_hand, zob_side, empty, relrank.ravel().copy(), pfile, move_table(W))


def move_table(W: int) -> np.ndarray:
    """The moves of each colour ``c`` and type ``t`` for a board of padded width ``W``.

    ``tab[(c * 16 + t) * 11]`` is the number of entries; entry ``x`` at ``+ 1 + x`` is
    ``offset << 4 | line | 8 * slides`` where ``line`` (0..3) is the line of the move, for the pin
    test, and 7 for a knight's jump.
    """
    dirs = [dr * W + dc for dr, dc in DIRS_RC]
    tab = np.zeros(2 * 16 * 11, dtype=np.int64)
    for c in (0, 1):
        sgn = 1 if c == 0 else -1
        for t in range(1, 15):
            entries = []
            for i in range(8):
                line = (i if c == 0 else (i + 4) & 7) & 3
                if (int(SLIDE_MASK[t]) >> i) & 1:
                    entries.append((sgn * dirs[i], line | 8))
                elif (int(STEP_MASK[t]) >> i) & 1:
                    entries.append((sgn * dirs[i], line))
            if t == KNIGHT:
                entries += [(sgn * (dr * W + dc), 7) for dr, dc in KNIGHT_RC]
            e0 = (c * 16 + t) * 11
            tab[e0] = len(entries)
            for x, (off, info) in enumerate(entries):
                tab[e0 + 1 + x] = (off << 4) | info
    return tab


_GEOMETRIES: dict[str, Geometry] = {}


def geometry(variant: str) -> Geometry:
    """The (cached) geometry of ``"standard"`` or ``"mini"``."""
    if variant not in _GEOMETRIES:
        _GEOMETRIES[variant] = make_geometry(variant)
    return _GEOMETRIES[variant]


def encode_move(frm: int, to: int, promote: bool = False) -> int:
    return frm * 256 + to * 2 + int(promote)


def encode_drop(n_squares: int, kind: int, to: int) -> int:
    return (n_squares + kind - 1) * 256 + to * 2


def decode_move(move: int) -> tuple[int, int, bool]:
    """``(from, to, promote)``; ``from >= N`` is a drop of kind ``from - N + 1``."""
    return move >> 8, (move >> 1) & 127, bool(move & 1)
