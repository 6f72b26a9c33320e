"""Five-in-a-row detection and renju forbidden points (double-three, double-four, overline).

The board is a flat array of ``size * size`` cells, row 0 at the top
(0 empty, 1 black, 2 white). Two implementations of the same rules live here:
plain Python (``*_ref``, the reference and the definition) and numba kernels
(``_like_this``) that the rules and the engine use; the tests compare them.
The kernels allocate nothing (the engine's search calls them compiled without
numba's runtime, ``_nrt=False``; see ``kernels``).

The renju definitions (RIF rules) used by both:

- *five*: exactly five black stones in a row through the new stone. A move that
  makes a five is never forbidden.
- *overline*: six or more black stones in a row through the new stone.
- *four*: a line through the new stone in which one more black stone (the
  *five point*) makes a five through the new stone. A line with two five points
  five cells apart is one *straight four*; other lines count one four per five
  point (``B.BBB.B`` made in the middle is two fours).
- *three*: a line through the new stone in which one more black stone, on a
  point that is not itself forbidden, makes a straight four through the new
  stone. A line that already holds a four is not counted as a three.
- Forbidden for black: an overline, two or more fours, or two or more threes.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numba import njit

BLACK, WHITE = 1, 2
DIRS = ((0, 1), (1, 0), (1, 1), (1, -1))
_DR = np.array([0, 1, 1, 1], dtype=np.int64)
_DC = np.array([1, 0, 1, -1], dtype=np.int64)

#: Recursion depth of the three check (each level adds one stone).
MAX_THREE_DEPTH = 4


# ---------------------------------------------------------------------------
# plain-Python reference
# ---------------------------------------------------------------------------

def run_length_ref(board: Sequence[int], size: int, idx: int, d: int) -> int:
    """Length of the run of ``board[idx]``'s colour through ``idx`` in direction ``d``."""
    p = board[idx]
    dr, dc = DIRS[d]
    r0, c0 = divmod(idx, size)
    n = 1
    for s in (1, -1):
        r, c = r0 + s * dr, c0 + s * dc
        while 0 <= r < size and 0 <= c < size and board[r * size + c] == p:
            n += 1
            r, c = r + s * dr, c + s * dc
    return n


def run_cells_ref(board: Sequence[int] | np.ndarray, size: int, idx: int, d: int) -> list[int]:
    """The cells of the run through ``idx`` in direction ``d``, in line order."""
    p = board[idx]
    dr, dc = DIRS[d]
    r0, c0 = divmod(idx, size)
    r, c = r0, c0
    while 0 <= r - dr < size and 0 <= c - dc < size and board[(r - dr) * size + c - dc] == p:
        r, c = r - dr, c - dc
    out = []
    while 0 <= r < size and 0 <= c < size and board[r * size + c] == p:
        out.append(r * size + c)
        r, c = r + dr, c + dc
    return out


def wins_ref(length: int, colour: int, rule: int) -> bool:
    """Whether a run of ``length`` stones of ``colour`` wins under ``rule`` (0 free, 1 standard, 2 renju)."""
    if rule == 0 or (rule == 2 and colour == WHITE):
        return length >= 5
    return length == 5


def _line_cells(size: int, idx: int, d: int, reach: int) -> list[tuple[int, int]]:
    """(offset, cell) of the on-board cells within ``reach`` of ``idx`` along ``d``."""
    dr, dc = DIRS[d]
    r0, c0 = divmod(idx, size)
    out = []
    for k in range(-reach, reach + 1):
        r, c = r0 + k * dr, c0 + k * dc
        if 0 <= r < size and 0 <= c < size:
            out.append((k, r * size + c))
    return out


def _five_points_ref(board: list[int], size: int, idx: int, d: int) -> list[int]:
    """Empty cells on ``d`` through ``idx`` where black makes an exact five through ``idx``."""
    out = []
    for _, q in _line_cells(size, idx, d, 4):
        if board[q] == 0:
            board[q] = BLACK
            if run_length_ref(board, size, idx, d) == 5 and q in run_cells_ref(board, size, idx, d):
                out.append(q)
            board[q] = 0
    return out


def _fours_in_line_ref(board: list[int], size: int, idx: int, d: int) -> int:
    pts = _five_points_ref(board, size, idx, d)
    if len(pts) == 2 and _distance(size, pts[0], pts[1]) == 5:
        return 1
    return len(pts)


def _distance(size: int, a: int, b: int) -> int:
    ra, ca = divmod(a, size)
    rb, cb = divmod(b, size)
    return max(abs(ra - rb), abs(ca - cb))


def _is_straight_four_ref(board: list[int], size: int, idx: int, d: int) -> bool:
    """Whether the black run through ``idx`` on ``d`` is four long with a five point at each end."""
    run = run_cells_ref(board, size, idx, d)
    if len(run) != 4:
        return False
    pts = _five_points_ref(board, size, idx, d)
    return len(pts) == 2 and _distance(size, pts[0], pts[1]) == 5


def _is_three_ref(board: list[int], size: int, idx: int, d: int, depth: int) -> bool:
    for _, q in _line_cells(size, idx, d, 4):
        if board[q] != 0:
            continue
        board[q] = BLACK
        straight = _is_straight_four_ref(board, size, idx, d)
        board[q] = 0
        if straight and not is_forbidden_ref(board, size, q, depth + 1):
            return True
    return False


def is_forbidden_ref(board: list[int], size: int, idx: int, depth: int = 0) -> bool:
    """Whether black may not play on the empty cell ``idx`` under renju (reference)."""
    if board[idx] != 0:
        return False
    board[idx] = BLACK
    try:
        lengths = [run_length_ref(board, size, idx, d) for d in range(4)]
        if 5 in lengths:
            return False
        if any(n >= 6 for n in lengths):
            return True
        fours = [_fours_in_line_ref(board, size, idx, d) for d in range(4)]
        if sum(fours) >= 2:
            return True
        if depth >= MAX_THREE_DEPTH:
            return False
        threes = 0
        for d in range(4):
            if fours[d] == 0 and _is_three_ref(board, size, idx, d, depth):
                threes += 1
        return threes >= 2
    finally:
        board[idx] = 0


def forbidden_points_ref(board: Sequence[int], size: int) -> list[int]:
    """Every empty cell forbidden to black (reference, slow)."""
    b = [int(v) for v in board]
    return [i for i in range(size * size) if b[i] == 0 and is_forbidden_ref(b, size, i)]


# ---------------------------------------------------------------------------
# numba kernels
# ---------------------------------------------------------------------------

@njit(cache=True, nogil=True, _nrt=False)
def _run_length(board, size, idx, d) -> int:
    p = board[idx]
    dr = _DR[d]
    dc = _DC[d]
    r0 = idx // size
    c0 = idx % size
    n = 1
    r = r0 + dr
    c = c0 + dc
    while 0 <= r < size and 0 <= c < size and board[r * size + c] == p:
        n += 1
        r += dr
        c += dc
    r = r0 - dr
    c = c0 - dc
    while 0 <= r < size and 0 <= c < size and board[r * size + c] == p:
        n += 1
        r -= dr
        c -= dc
    return n


@njit(cache=True, nogil=True, _nrt=False)
def _five_points(board, size, idx, d) -> tuple[int, int, int]:
    """Black's exact-five points through ``idx`` on ``d``: (how many, the first, the second; -1 if none)."""
    dr = _DR[d]
    dc = _DC[d]
    r0 = idx // size
    c0 = idx % size
    n = 0
    first = -1
    second = -1
    for k in range(-4, 5):
        r = r0 + k * dr
        c = c0 + k * dc
        if not (0 <= r < size and 0 <= c < size):
            continue
        q = r * size + c
        if board[q] != 0:
            continue
        # q joins idx's run only if every cell between them is black
        ok = True
        step = 1 if k > 0 else -1
        for j in range(step, k, step):
            if board[(r0 + j * dr) * size + c0 + j * dc] != BLACK:
                ok = False
                break
        if not ok:
            continue
        board[q] = BLACK
        if _run_length(board, size, idx, d) == 5:
            if n == 0:
                first = q
            elif n == 1:
                second = q
            n += 1
        board[q] = 0
    return n, first, second


@njit(cache=True, nogil=True, _nrt=False)
def _fours_in_line(board, size, idx, d) -> int:
    n, a, b = _five_points(board, size, idx, d)
    if n == 2:
        if max(abs(a // size - b // size), abs(a % size - b % size)) == 5:
            return 1
    return n


@njit(cache=True, nogil=True, _nrt=False)
def _is_forbidden(board, size, idx, depth) -> bool:
    """Whether black may not play on the empty cell ``idx`` (renju); ``board`` is restored."""
    if board[idx] != 0:
        return False
    board[idx] = BLACK
    result = False
    five = False
    over = False
    for d in range(4):
        n = _run_length(board, size, idx, d)
        if n == 5:
            five = True
        elif n >= 6:
            over = True
    if five:
        board[idx] = 0
        return False
    if over:
        board[idx] = 0
        return True
    with_four = 0  # bit d: direction d holds a four
    total = 0
    for d in range(4):
        f = _fours_in_line(board, size, idx, d)
        if f != 0:
            with_four |= 1 << d
        total += f
    if total >= 2:
        result = True
    elif depth < MAX_THREE_DEPTH:
        threes = 0
        r0 = idx // size
        c0 = idx % size
        for d in range(4):
            if (with_four >> d) & 1:
                continue
            dr = _DR[d]
            dc = _DC[d]
            found = False
            for k in range(-4, 5):
                r = r0 + k * dr
                c = c0 + k * dc
                if not (0 <= r < size and 0 <= c < size):
                    continue
                q = r * size + c
                if board[q] != 0:
                    continue
                board[q] = BLACK
                straight = False
                if _run_length(board, size, idx, d) == 4:
                    m, a, b = _five_points(board, size, idx, d)
                    if m == 2:
                        straight = max(abs(a // size - b // size), abs(a % size - b % size)) == 5
                board[q] = 0
                if straight and not _is_forbidden(board, size, np.int64(q), np.int64(depth + 1)):
                    found = True
                    break
            if found:
                threes += 1
        result = threes >= 2
    board[idx] = 0
    return result


@njit(cache=True, nogil=True, _nrt=False)
def _forbidden_mask(board, size, out) -> int:
    """Mark in ``out`` every empty cell forbidden to black; returns how many."""
    n = 0
    for i in range(size * size):
        out[i] = 0
        if board[i] == 0 and _is_forbidden(board, size, np.int64(i), np.int64(0)):
            out[i] = 1
            n += 1
    return n


def forbidden_points(board: np.ndarray, size: int) -> list[int]:
    """Every empty cell forbidden to black under renju (numba kernel)."""
    if board.dtype != np.int8 or board.shape != (size * size,):
        raise ValueError(f"board must be an int8 array of {size * size} cells")
    out = np.zeros(size * size, dtype=np.uint8)
    _forbidden_mask(board, np.int64(size), out)
    return [int(i) for i in np.flatnonzero(out)]


def is_forbidden(board: np.ndarray, size: int, idx: int) -> bool:
    """Whether black may not play on ``idx`` under renju (numba kernel)."""
    if board.dtype != np.int8 or board.shape != (size * size,):
        raise ValueError(f"board must be an int8 array of {size * size} cells")
    if not 0 <= idx < size * size:
        raise ValueError(f"cell {idx} is off the {size}x{size} board")
    return bool(_is_forbidden(board, np.int64(size), np.int64(idx), np.int64(0)))
