"""Line patterns: what a stone placed on an empty cell makes along one direction.

A cell's neighbourhood along one direction is the five cells on each side. Its
*key* packs those ten cells in two bits each (0 empty, 1 black, 2 white,
3 off the board), nearest-left first: bits ``2j`` of ``j = 0..4`` hold the
cells at offsets -5..-1 and ``j = 5..9`` the cells at +1..+5. ``pattern_table``
maps every key, for each colour, to the pattern the colour makes by placing a
stone on the centre:

====== =======================================================================
FIVE   five in a row (exactly five where the rule says so)
OL     six or more where only exactly five wins (an overline)
DF4    two five points on the line that do not form one straight four
F4     an open (straight) four: two five points five cells apart
B4     a four: one five point
F3     an open three: some further stone makes F4 (or DF4)
B3     a closed three: some further stone makes B4
F2/B2  likewise one step earlier (F3 / B3); F1/B1 one step before that
====== =======================================================================

``classify_ref`` is the plain-Python definition; ``_build_table`` computes the
same thing for every key with dynamic programming; the tests compare them.
"""

from __future__ import annotations

from functools import cache

import numpy as np
from numba import njit

NONE, B1, F1, B2, F2, B3, F3, B4, F4, DF4, FIVE, OL = range(12)
NAMES = ("none", "B1", "F1", "B2", "F2", "B3", "F3", "B4", "F4", "DF4", "five", "overline")
#: What a pattern becomes one stone earlier (F4 -> F3, B4 -> B3, ...).
_DEMOTE = np.array([NONE, NONE, NONE, B1, F1, B2, F2, B3, F3, F3, NONE, NONE], dtype=np.int64)
KEY_BITS = 20
NEIGHBOURS = 10

# line cells for the classification: 0 empty, 1 own, 2 blocked (opponent or edge)
L_EMPTY, L_OWN, L_BLOCKED = 0, 1, 2


def _run_ref(line: list[int]) -> int:
    n = 1
    i = 6
    while i < 11 and line[i] == L_OWN:
        n += 1
        i += 1
    i = 4
    while i >= 0 and line[i] == L_OWN:
        n += 1
        i -= 1
    return n


@cache
def _classify_tuple(line: tuple[int, ...], exact: bool) -> int:
    cells = list(line)
    n = _run_ref(cells)
    if n >= 5:
        return FIVE if (n == 5 or not exact) else OL
    points = []
    for q in range(1, 10):
        if q == 5 or cells[q] != L_EMPTY:
            continue
        cells[q] = L_OWN
        m = _run_ref(cells)
        cells[q] = L_EMPTY
        if m == 5 or (m > 5 and not exact):
            points.append(q)
    if len(points) >= 2:
        return F4 if len(points) == 2 and points[1] - points[0] == 5 else DF4
    if len(points) == 1:
        return B4
    best = NONE
    for q in range(1, 10):
        if q == 5 or cells[q] != L_EMPTY:
            continue
        cells[q] = L_OWN
        best = max(best, int(_DEMOTE[_classify_tuple(tuple(cells), exact)]))
        cells[q] = L_EMPTY
    return best


def classify_ref(line: list[int], exact: bool) -> int:
    """The pattern of an 11-cell line (``line[5]`` is the new own stone; 0 empty, 1 own, 2 blocked)."""
    if len(line) != 11 or line[5] != L_OWN or any(v not in (0, 1, 2) for v in line):
        raise ValueError(f"a line is 11 cells of 0, 1, 2 with line[5] == 1, got {line!r}")
    return _classify_tuple(tuple(line), exact)


def key_to_line(key: int, colour: int) -> list[int]:
    """The 11-cell line (as ``classify_ref`` reads it) of ``key`` seen by ``colour`` (1 or 2)."""
    out = []
    for j in range(NEIGHBOURS):
        v = (key >> (2 * j)) & 3
        out.append(L_EMPTY if v == 0 else L_OWN if v == colour else L_BLOCKED)
    return out[:5] + [L_OWN] + out[5:]


@njit(cache=True, nogil=True)
def _run(line) -> int:
    n = 1
    i = 6
    while i < 11 and line[i] == 1:
        n += 1
        i += 1
    i = 4
    while i >= 0 and line[i] == 1:
        n += 1
        i -= 1
    return n


@njit(cache=True, nogil=True)
def _state_index(line) -> int:
    idx = 0
    mul = 1
    for i in range(11):
        if i == 5:
            continue
        idx += line[i] * mul
        mul *= 3
    return idx


@njit(cache=True, nogil=True)
def _build_memo(order, exact, memo) -> None:
    """Fill ``memo`` (3**10 entries) in ``order`` (states with more own stones first)."""
    line = np.zeros(11, dtype=np.int64)
    for t in range(order.shape[0]):
        s = order[t]
        x = s
        for i in range(11):
            if i == 5:
                line[i] = 1
                continue
            line[i] = x % 3
            x //= 3
        n = _run(line)
        if n >= 5:
            memo[s] = FIVE if (n == 5 or not exact) else OL
            continue
        npts = 0
        first = -1
        second = -1
        for q in range(1, 10):
            if q == 5 or line[q] != 0:
                continue
            line[q] = 1
            m = _run(line)
            line[q] = 0
            if m == 5 or (m > 5 and not exact):
                if npts == 0:
                    first = q
                elif npts == 1:
                    second = q
                npts += 1
        if npts >= 2:
            memo[s] = F4 if (npts == 2 and second - first == 5) else DF4
            continue
        if npts == 1:
            memo[s] = B4
            continue
        best = 0
        for q in range(1, 10):
            if q == 5 or line[q] != 0:
                continue
            line[q] = 1
            v = _DEMOTE[memo[_state_index(line)]]
            line[q] = 0
            if v > best:
                best = v
        memo[s] = best


@njit(cache=True, nogil=True)
def _table_from_memo(memo, colour, out) -> None:
    for key in range(1 << KEY_BITS):
        idx = 0
        mul = 1
        for j in range(NEIGHBOURS):
            v = (key >> (2 * j)) & 3
            d = 0 if v == 0 else (1 if v == colour else 2)
            idx += d * mul
            mul *= 3
        out[key] = memo[idx]


_TABLES: dict[int, np.ndarray] = {}
_MEMOS: dict[bool, np.ndarray] = {}


def _memo(exact: bool) -> np.ndarray:
    if exact not in _MEMOS:
        states = 3**NEIGHBOURS
        x = np.arange(states)
        owns = np.zeros(states, dtype=np.int64)
        for _ in range(NEIGHBOURS):
            owns += (x % 3) == 1
            x //= 3
        order = np.argsort(-owns, kind="stable").astype(np.int64)
        memo = np.zeros(states, dtype=np.uint8)
        _build_memo(order, exact, memo)
        _MEMOS[exact] = memo
    return _MEMOS[exact]


def ternary_tables(rule: int) -> np.ndarray:
    """``uint8[2, 3**10]``: the pattern black (row 0) / white (row 1) makes, by ternary line index.

    The index of a line is ``sum(3**j * v_j)`` over the ten neighbours ``j`` (ordered as in the
    keys: offsets -5..-1, then +1..+5) with ``v`` 0 empty, 1 own, 2 blocked (opponent or edge).
    """
    if rule not in (0, 1, 2):
        raise ValueError(f"rule must be 0, 1 or 2, got {rule!r}")
    t = np.zeros((2, 3**NEIGHBOURS), dtype=np.uint8)
    t[0] = _memo(rule in (1, 2))
    t[1] = _memo(rule == 1)
    return t


def line_index(line: list[int]) -> int:
    """The ternary index of an 11-cell line (``line[5]`` is the centre and is left out)."""
    return sum(v * 3**j for j, v in enumerate(line[:5] + line[6:]))


def pattern_table(rule: int) -> np.ndarray:
    """``uint8[2, 2**20]``: the pattern black (row 0) and white (row 1) make, by packed key.

    ``rule``: 0 freestyle (five or more wins), 1 standard (exactly five),
    2 renju (exactly five for black, five or more for white).
    """
    if rule not in (0, 1, 2):
        raise ValueError(f"rule must be 0, 1 or 2, got {rule!r}")
    if rule in _TABLES:
        return _TABLES[rule]
    t = np.zeros((2, 1 << KEY_BITS), dtype=np.uint8)
    _table_from_memo(_memo(rule in (1, 2)), 1, t[0])
    _table_from_memo(_memo(rule == 1), 2, t[1])
    _TABLES[rule] = t
    return t
