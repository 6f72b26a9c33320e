"""The shogi evaluation: a linear function of features, its weights as data, the kernel and a reference.

Every term is seen from the side that owns the piece (its "view": Sente's
board as it is, Gote's turned round, so that each side plays up the board):

- material: a value per piece type on the board; for pieces in hand a value per
  kind and count (``hand[kind][n]`` is the worth of holding ``n``, so the
  first and the fifth pawn in hand need not be worth the same);
- a piece-square table per type (the king's row is the king's own table);
- two king-relative tables per type, the classic big win of shogi evaluation
  (after the KP and KPP tables of Bonanza-style engines, here only a piece
  against each king): the value of a piece at a given offset (rows, files)
  from its own king (castle shapes, defenders) and from the enemy king
  (attackers, the net round it). The board is mirrored so that the king in
  question stands on the left half, since shogi's rules are symmetric left to
  right;
- the mobility of the sliders (a weight per type times the empty squares along
  its lines) and the open lines ahead of each king (the empty squares straight
  ahead and on the two forward diagonals);
- a bonus for the side to move (the tempo);
- for each kind held in hand, a weight by the number of empty squares next to
  the enemy king (a drop's chances against an open king);
- optional absolute king-piece tables ("KPA", on when the flag word
  ``E_KPA_ON`` is not 0): a weight per king (own or enemy), the king's square
  and the piece's type and square, the board mirrored so that the king stands
  on the left half (a king on the middle file is not mirrored).

The weights live in one flat ``int32`` array (layout ``E_*`` below), made from
the hand-set values here (``default_weights``) or read from the data file
``shogi_eval.npz`` in this package, which the Texel tuner
(``gamesuite.games.shogi.texel``) writes. Values are in centi-pawn-like units
(a pawn on the board is about 90 with the hand-set values).

``_evaluate`` is the kernel, ``evaluate_reference`` the plain-Python oracle,
``_features`` lists the (weight index, coefficient) pairs of a position (the
evaluation is their dot product with the weights; the tuner fits on them).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from numba import njit

from .board import (
    BISHOP,
    BLACK_BIT,
    DIRS_RC,
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
    SLIDE_MASK,
    Geometry,
)

# -- the layout of the weight array ----------------------------------------------------------------------
SQS = 81  # squares per piece-square row (9x9; minishogi uses the first 25)
OFF = 17  # king-relative offsets: -8..8 in rows and files
E_VAL = 0  # [type] board value
E_HAND = 16  # [kind * 20 + n] worth of holding n > 0 pieces of a kind in hand
E_PST = E_HAND + 8 * 20  # [type * SQS + square in the owner's view]
E_KPO = E_PST + 16 * SQS  # [type * OFF * OFF + (dr + 8) * OFF + (df + 8)] piece against its own king
E_KPE = E_KPO + 16 * OFF * OFF  # the same against the enemy king
E_MOB = E_KPE + 16 * OFF * OFF  # [type] per empty square along a slider's lines
E_OPEN = E_MOB + 16  # per empty square ahead of the own king (three lines)
E_TEMPO = E_OPEN + 1  # for the side to move
E_HKE = E_TEMPO + 1  # [kind * 9 + empty squares next to the enemy king] a kind held in hand
E_SIZE_V1 = E_HKE + 8 * 9  # the layout before the KPA tables (older weights files)
KSQ = 45  # king squares of the left half, 9 rows x 5 files (minishogi: 5 x 3 of them)
E_KPA_ON = E_SIZE_V1  # the KPA tables count when this is not 0 (it is no feature)
E_KPA = E_KPA_ON + 1  # [((king * KSQ + king square) * 16 + type) * SQS + square], king 0 own, 1 enemy
E_SIZE = E_KPA + 2 * KSQ * 16 * SQS
#: Features of one position are at most this many (pieces four times and the KPA pair, the kings, hands,
#: mobility, lines).
MAX_FEATURES = 4 * 40 + 40 + 16 + 8 + 1 + 16 + 2 * 40

# -- the hand-set weights (the tuner's starting point and prior) --------------------------------------------
PIECE_VALUES = {
    PAWN: 90, LANCE: 315, KNIGHT: 405, SILVER: 495, GOLD: 540, BISHOP: 855, ROOK: 990, KING: 0,
    PRO_PAWN: 540, PRO_LANCE: 540, PRO_KNIGHT: 540, PRO_SILVER: 540, HORSE: 945, DRAGON: 1395,
}
HAND_BONUS_PERCENT = 30
#: Piece-square terms (from the owner's side; ``rank`` 0 is the far end, ``centre`` is 0 on the middle file).
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
#: King safety: per own piece within two squares of the enemy king, by type (the attackers).
KING_ATTACKERS = {PAWN: 4, LANCE: 10, KNIGHT: 14, SILVER: 20, GOLD: 20, BISHOP: 16, ROOK: 20, PRO_PAWN: 22,
                  PRO_LANCE: 22, PRO_KNIGHT: 22, PRO_SILVER: 22, HORSE: 30, DRAGON: 40}
#: King safety: minus per empty square on the lines ahead of the king (file and forward diagonals).
KING_OPEN_LINE = 4
#: Mobility: per empty square along the lines of a slider (lance, bishop, rook, horse, dragon).
SLIDER_MOBILITY = 2
#: The side to move's bonus.
TEMPO = 0

#: The tuned weights (written by ``texel.py``): one array per variant, ``standard`` and ``mini``.
WEIGHTS_FILE = Path(__file__).with_name("shogi_eval.npz")


def kp_index(base: int, t: int, dr: int, df: int) -> int:
    """Index of a king-relative weight: type ``t`` at ``dr`` rows and ``df`` files from the king."""
    return base + t * OFF * OFF + (dr + 8) * OFF + (df + 8)


def kpa_index(files: int, king: int, kr: int, kf: int, t: int, r: int, f: int) -> int:
    """Index of a KPA weight: type ``t`` at (``r``, ``f``) with the king (0 own, 1 enemy) at (``kr``, ``kf``),
    all in the piece owner's view on a board of ``files`` files (mirrored here when the king is on the right)."""
    if kf > files // 2:
        kf, f = files - 1 - kf, files - 1 - f
    return E_KPA + ((king * KSQ + kr * ((files + 1) // 2) + kf) * 16 + t) * SQS + r * files + f


def default_weights(g: Geometry, positional: bool = True) -> np.ndarray:
    """The hand-set weights of ``g``'s variant (``positional=False``: material and piece-square tables only)."""
    ew = np.zeros(E_SIZE, dtype=np.int32)
    for t, x in PIECE_VALUES.items():
        ew[E_VAL + t] = x
    _set_hand_values(ew, HAND_BONUS_PERCENT)
    mid = g.files // 2
    for sq in range(g.N):
        r, c = divmod(sq, g.files)
        from_home = g.ranks - 1 - r
        centre = abs(c - mid)
        row = {
            PAWN: PAWN_ADVANCE * max(0, from_home - (2 if g.files == 9 else 1)),
            SILVER: -SILVER_GOLD_CENTRE * centre + SILVER_GOLD_ADVANCE * min(from_home, g.ranks // 2),
            GOLD: -SILVER_GOLD_CENTRE * centre,
            KING: -KING_HOME * from_home + (KING_EDGE if centre >= mid - 1 else 0),
        }
        for t in (PRO_PAWN, PRO_LANCE, PRO_KNIGHT, PRO_SILVER):
            row[t] = -PROMOTED_CENTRE * centre
        for t in (HORSE, DRAGON):
            row[t] = -DRAGON_HORSE_CENTRE * centre
        for t, x in row.items():
            ew[E_PST + t * SQS + sq] = x
    if positional:
        for t, w in KING_DEFENDERS.items():
            for dr in (-1, 0, 1):
                for df in (-1, 0, 1):
                    if dr or df:
                        ew[kp_index(E_KPO, t, dr, df)] = w
        for t, w in KING_ATTACKERS.items():
            for dr in range(-2, 3):
                for df in range(-2, 3):
                    ew[kp_index(E_KPE, t, dr, df)] = w
        for t in range(1, 15):
            if SLIDE_MASK[t]:
                ew[E_MOB + t] = SLIDER_MOBILITY
        ew[E_OPEN] = -KING_OPEN_LINE
    ew[E_TEMPO] = TEMPO
    return ew


_LOADED: dict[tuple[str, str], np.ndarray] = {}


def load_weights(g: Geometry, positional: bool = True, path: str | Path | None = None) -> np.ndarray:
    """The weights of ``g``'s variant: the tuned ones from ``path`` (default ``WEIGHTS_FILE``) if it has them,
    else the hand-set ones (``path="default"``: always those); ``positional=False`` keeps only material and
    the piece-square tables. Weights of the layout before the KPA tables (``E_SIZE_V1`` values) get them
    zero and off. A ``path`` that cannot be read, or has no weights of this variant, is an
    ``InvalidOptionError``."""
    from ...core.errors import InvalidOptionError, quote
    from ...core.files import read_npz

    name = str(path) if path is not None else ""
    if (g.variant, name) not in _LOADED:
        ew = None
        file = Path(path) if path not in (None, "default") else WEIGHTS_FILE
        if path != "default" and (path is not None or file.exists()):
            data = read_npz(file, "evaluation weights")
            if g.variant in data and data[g.variant].shape in ((E_SIZE,), (E_SIZE_V1,)):
                ew = np.zeros(E_SIZE, dtype=np.int32)
                ew[:data[g.variant].shape[0]] = data[g.variant]
            if ew is None and path is not None:
                raise InvalidOptionError(f"{quote(str(file))} has no {g.variant} weights of {E_SIZE} values "
                                         f"(or {E_SIZE_V1}, the older layout)")
        _LOADED[(g.variant, name)] = ew if ew is not None else default_weights(g)
    ew = _LOADED[(g.variant, name)].copy()
    if not positional:
        ew[E_KPO:] = 0
    return ew


def piece_values(ew: np.ndarray | None = None) -> np.ndarray:
    """Board values by type (index 0..15), ``int64``."""
    v = np.zeros(16, dtype=np.int64)
    if ew is None:
        for t, x in PIECE_VALUES.items():
            v[t] = x
    else:
        v[:] = ew[E_VAL:E_VAL + 16]
    return v


def hand_values(ew: np.ndarray | None = None) -> np.ndarray:
    """The worth of the first piece in hand by kind (1..7), ``int64``."""
    v = np.zeros(8, dtype=np.int64)
    for t in range(1, 8):
        v[t] = PIECE_VALUES[t] * (100 + HAND_BONUS_PERCENT) // 100 if ew is None else ew[E_HAND + t * 20 + 1]
    return v


def with_hand_bonus(ew: np.ndarray, percent: int) -> np.ndarray:
    """A copy of the weights ``ew`` with the n-th piece of each kind in hand worth its board value times
    ``1 + percent / 100`` (``n`` of them: ``n`` times that), as the hand-set weights value them."""
    if not -100 < percent <= 200:
        raise ValueError(f"hand bonus must be a percentage in (-100, 200], got {percent!r}")
    out = ew.copy()
    _set_hand_values(out, percent)
    return out


def _set_hand_values(ew: np.ndarray, percent: int) -> None:
    """The hand table of ``ew`` from its board values: ``n`` pieces of a kind worth ``n`` times the board value
    times ``1 + percent / 100``."""
    for k in range(1, 8):
        for n in range(20):
            ew[E_HAND + k * 20 + n] = n * (int(ew[E_VAL + k]) * (100 + percent) // 100)


# -- the kernel ---------------------------------------------------------------------------------------------


@njit(cache=True, nogil=True, _nrt=False)
def _king_view(kings, c, other, files, PN, rel, pfile):
    """The king of colour ``other`` in ``c``'s view: (row, file, mirrored) or row -1 when there is none."""
    k = kings[other]
    if k < 0:
        return -1, 0, False
    r = rel[c * PN + k]
    f = pfile[k] if c == 0 else files - 1 - pfile[k]
    return r, f, f > files // 2


@njit(cache=True, nogil=True, _nrt=False)
def _kpa_base(king, kr, kf, km, files, half) -> int:
    """Where the KPA rows of a king (0 own, 1 enemy) seen at (``kr``, ``kf``, mirrored ``km``) begin."""
    if kr < 0:
        return 0
    return E_KPA + (king * KSQ + kr * half + (files - 1 - kf if km else kf)) * 16 * SQS


@njit(cache=True, nogil=True, _nrt=False)
def _empty_around(board, k, dirs) -> int:
    """The empty squares next to the square ``k`` (0 when there is no king: ``k < 0``)."""
    if k < 0:
        return 0
    n = 0
    for i in range(8):
        if board[k + dirs[i]] == 0:
            n += 1
    return n


@njit(cache=True, nogil=True, _nrt=False)
def _features(board, hands, kings, us, geo, sq2p, rel, pfile, dirs, slidem, idx, coef) -> int:
    """The features of a position (``us`` to move), from Sente's side: weight indices in ``idx`` and their
    coefficients in ``coef`` (the evaluation for Sente is the sum of ``ew[idx] * coef``, with the KPA tables on
    or zero); returns how many."""
    files = geo[0]
    N = geo[3]
    PN = geo[5]
    half = (files + 1) // 2
    idx[0] = E_TEMPO
    coef[0] = 1 if us == 0 else -1
    n = 1
    for c in range(2):
        sgn = 1 if c == 0 else -1
        kr, kf, km = _king_view(kings, c, c, files, PN, rel, pfile)
        er, ef, em = _king_view(kings, c, 1 - c, files, PN, rel, pfile)
        ka = _kpa_base(0, kr, kf, km, files, half)
        ea = _kpa_base(1, er, ef, em, files, half)
        own = BLACK_BIT if c == 0 else 32
        for sq in range(N):
            p = sq2p[sq]
            v = board[p]
            if not (v & own):
                continue
            t = v & 15
            r = rel[c * PN + p]
            f = pfile[p] if c == 0 else files - 1 - pfile[p]
            idx[n] = E_PST + t * SQS + r * files + f
            coef[n] = sgn
            n += 1
            if t == KING:
                continue
            idx[n] = E_VAL + t
            coef[n] = sgn
            n += 1
            if kr >= 0:
                df = kf - f if km else f - kf
                idx[n] = E_KPO + t * OFF * OFF + (r - kr + 8) * OFF + df + 8
                coef[n] = sgn
                n += 1
                idx[n] = ka + t * SQS + r * files + (files - 1 - f if km else f)
                coef[n] = sgn
                n += 1
            if er >= 0:
                df = ef - f if em else f - ef
                idx[n] = E_KPE + t * OFF * OFF + (r - er + 8) * OFF + df + 8
                coef[n] = sgn
                n += 1
                idx[n] = ea + t * SQS + r * files + (files - 1 - f if em else f)
                coef[n] = sgn
                n += 1
            if slidem[t] != 0:
                o = 1 if c == 0 else -1
                run = 0
                for i in range(8):
                    if (slidem[t] >> i) & 1:
                        d = o * dirs[i]
                        q = p + d
                        while board[q] == 0:
                            run += 1
                            q += d
                if run:
                    idx[n] = E_MOB + t
                    coef[n] = sgn * run
                    n += 1
        around = _empty_around(board, kings[1 - c], dirs)
        for k in range(1, 8):
            if hands[c, k]:
                idx[n] = E_HAND + k * 20 + hands[c, k]
                coef[n] = sgn
                n += 1
                if kings[1 - c] >= 0:
                    idx[n] = E_HKE + k * 9 + around
                    coef[n] = sgn
                    n += 1
        if kings[c] >= 0:
            k = kings[c]
            fwd = 0 if c == 0 else 4
            run = 0
            for j in (fwd, (fwd + 1) & 7, (fwd + 7) & 7):
                d = dirs[j]
                q = k + d
                while board[q] == 0:
                    run += 1
                    q += d
            if run:
                idx[n] = E_OPEN
                coef[n] = sgn * run
                n += 1
    return n


@njit(inline="always", _nrt=False)
def _board_terms(board, kings, geo, sq2p, rel, pfile, dirs, slidem, ew, kpa):
    """The terms of the pieces on the board, Sente's and Gote's (``kpa``: with the KPA tables; a constant,
    so that each caller's copy has only its own terms)."""
    files = geo[0]
    N = geo[3]
    PN = geo[5]
    # both colours in one pass over the board (integer sums: the same value as colour by colour)
    kr0, kf0, km0 = _king_view(kings, 0, 0, files, PN, rel, pfile)
    er0, ef0, em0 = _king_view(kings, 0, 1, files, PN, rel, pfile)
    kr1, kf1, km1 = _king_view(kings, 1, 1, files, PN, rel, pfile)
    er1, ef1, em1 = _king_view(kings, 1, 0, files, PN, rel, pfile)
    half = (files + 1) // 2
    ka0 = _kpa_base(0, kr0, kf0, km0, files, half)
    ea0 = _kpa_base(1, er0, ef0, em0, files, half)
    ka1 = _kpa_base(0, kr1, kf1, km1, files, half)
    ea1 = _kpa_base(1, er1, ef1, em1, files, half)
    sc0 = 0
    sc1 = 0
    for sq in range(N):
        p = sq2p[sq]
        v = board[p]
        if v == 0:
            continue
        t = v & 15
        if v & BLACK_BIT:
            c = 0
            o = 1
            f = pfile[p]
            kr, kf, km, er, ef, em = kr0, kf0, km0, er0, ef0, em0
            ka, ea = ka0, ea0
        else:
            c = 1
            o = -1
            f = files - 1 - pfile[p]
            kr, kf, km, er, ef, em = kr1, kf1, km1, er1, ef1, em1
            ka, ea = ka1, ea1
        r = rel[c * PN + p]
        sc = 0
        sc += ew[E_PST + t * SQS + r * files + f]
        if t != KING:
            sc += ew[E_VAL + t]
            if kr >= 0:
                df = kf - f if km else f - kf
                sc += ew[E_KPO + t * OFF * OFF + (r - kr + 8) * OFF + df + 8]
            if er >= 0:
                df = ef - f if em else f - ef
                sc += ew[E_KPE + t * OFF * OFF + (r - er + 8) * OFF + df + 8]
            if kpa:
                if kr >= 0:
                    sc += ew[ka + t * SQS + r * files + (files - 1 - f if km else f)]
                if er >= 0:
                    sc += ew[ea + t * SQS + r * files + (files - 1 - f if em else f)]
            w = ew[E_MOB + t]
            if w != 0 and slidem[t] != 0:
                run = 0
                for i in range(8):
                    if (slidem[t] >> i) & 1:
                        d = o * dirs[i]
                        q = p + d
                        while board[q] == 0:
                            run += 1
                            q += d
                sc += w * run
        if c == 0:
            sc0 += sc
        else:
            sc1 += sc
    return sc0, sc1


@njit(cache=True, nogil=True, _nrt=False)
def _evaluate(board, hands, kings, us, geo, sq2p, rel, pfile, dirs, slidem, ew) -> int:
    """The evaluation from ``us``'s side: the sum of the weights ``ew`` of the position's features (the same
    as ``_features``, without writing them down; the KPA features only when ``ew[E_KPA_ON]`` is not 0)."""
    if ew[E_KPA_ON] != 0:
        sc0, sc1 = _board_terms(board, kings, geo, sq2p, rel, pfile, dirs, slidem, ew, True)
    else:
        sc0, sc1 = _board_terms(board, kings, geo, sq2p, rel, pfile, dirs, slidem, ew, False)
    s = 0
    for c in range(2):
        sc = sc0 if c == 0 else sc1
        around = _empty_around(board, kings[1 - c], dirs)
        for k in range(1, 8):
            if hands[c, k]:
                sc += ew[E_HAND + k * 20 + hands[c, k]]
                if kings[1 - c] >= 0:
                    sc += ew[E_HKE + k * 9 + around]
        if kings[c] >= 0 and ew[E_OPEN] != 0:
            k = kings[c]
            fwd = 0 if c == 0 else 4
            run = 0
            for j in (fwd, (fwd + 1) & 7, (fwd + 7) & 7):
                d = dirs[j]
                q = k + d
                while board[q] == 0:
                    run += 1
                    q += d
            sc += ew[E_OPEN] * run
        s += sc if c == 0 else -sc
    return ew[E_TEMPO] + (s if us == 0 else -s)


# -- the plain-Python reference -----------------------------------------------------------------------------


def evaluate_reference(g: Geometry, board: np.ndarray, hands: np.ndarray, color: int, ew: np.ndarray) -> int:
    """The evaluation from ``color``'s side, in plain Python (the kernel's oracle)."""
    pieces = {}
    for sq in range(g.N):
        v = int(board[g.sq2p[sq]])
        if v:
            pieces[divmod(sq, g.files)] = (0 if v & BLACK_BIT else 1, v & 15)

    def view(c: int, r: int, f: int) -> tuple[int, int]:
        return (r, f) if c == 0 else (g.ranks - 1 - r, g.files - 1 - f)

    def inside(r: int, f: int) -> bool:
        return 0 <= r < g.ranks and 0 <= f < g.files

    def run(r: int, f: int, dr: int, df: int) -> int:
        n = 0
        r, f = r + dr, f + df
        while inside(r, f) and (r, f) not in pieces:
            n += 1
            r, f = r + dr, f + df
        return n

    kings = {col: rc for rc, (col, t) in pieces.items() if t == KING}
    score = [0, 0]
    for (r, f), (c, t) in pieces.items():
        vr, vf = view(c, r, f)
        x = int(ew[E_PST + t * SQS + vr * g.files + vf])
        if t != KING:
            x += int(ew[E_VAL + t])
            for king, (base, kc) in enumerate(((E_KPO, c), (E_KPE, 1 - c))):
                if kc in kings:
                    kr, kf = view(c, *kings[kc])
                    df = vf - kf if kf <= g.files // 2 else kf - vf
                    x += int(ew[kp_index(base, t, vr - kr, df)])
                    if ew[E_KPA_ON]:
                        x += int(ew[kpa_index(g.files, king, kr, kf, t, vr, vf)])
            sgn = 1 if c == 0 else -1
            for i, (dr, df) in enumerate(DIRS_RC):
                if (int(SLIDE_MASK[t]) >> i) & 1:
                    x += int(ew[E_MOB + t]) * run(r, f, sgn * dr, sgn * df)
        score[c] += x
    for c in (0, 1):
        score[c] += sum(int(ew[E_HAND + k * 20 + int(hands[c, k])]) for k in range(1, 8) if hands[c, k])
        if 1 - c in kings:
            r, f = kings[1 - c]
            around = sum(1 for dr in (-1, 0, 1) for df in (-1, 0, 1)
                         if (dr or df) and inside(r + dr, f + df) and (r + dr, f + df) not in pieces)
            score[c] += sum(int(ew[E_HKE + k * 9 + around]) for k in range(1, 8) if hands[c, k])
        if c in kings:
            r, f = kings[c]
            fwd = -1 if c == 0 else 1
            score[c] += int(ew[E_OPEN]) * sum(run(r, f, fwd, df) for df in (-1, 0, 1))
    return int(ew[E_TEMPO]) + score[color] - score[1 - color]


__all__ = ["E_KPA", "E_KPA_ON", "E_SIZE", "E_SIZE_V1", "MAX_FEATURES", "WEIGHTS_FILE", "default_weights",
           "evaluate_reference", "hand_values", "kpa_index", "load_weights", "piece_values", "with_hand_bonus"]
