"""Plain-Python references of the engine's evaluation, for the tests.

``cell_patterns_ref`` classifies the four lines through an empty cell with
``patterns.classify_ref``; ``combine_ref`` turns them into the cell's value,
class and maybe-forbidden flag; ``evaluate_ref`` sums every empty cell from
scratch. The numba kernels keep the same numbers incrementally.
"""

from __future__ import annotations

from collections.abc import Sequence

from . import kernels as K
from . import patterns as pt
from .renju import DIRS


def _exact(rule: int, colour: int) -> bool:
    return rule == 1 or (rule == 2 and colour == 1)


def cell_patterns_ref(board: Sequence[int], size: int, rule: int, cell: int, colour: int) -> list[int]:
    """The pattern ``colour`` (1 black, 2 white) makes on the empty ``cell`` in each direction."""
    r0, c0 = divmod(cell, size)
    out = []
    for dr, dc in DIRS:
        line = []
        for k in range(-5, 6):
            r, c = r0 + k * dr, c0 + k * dc
            if k == 0:
                line.append(pt.L_OWN)
            elif not (0 <= r < size and 0 <= c < size):
                line.append(pt.L_BLOCKED)
            else:
                v = board[r * size + c]
                line.append(pt.L_EMPTY if v == 0 else pt.L_OWN if v == colour else pt.L_BLOCKED)
        out.append(pt.classify_ref(line, _exact(rule, colour)))
    return out


def combine_ref(pats: Sequence[int], weights: Sequence[int] | None = None) -> tuple[int, int, int]:
    """(value, class, maybe-forbidden) of a cell from its four patterns (``weights`` as ``K.WEIGHTS``)."""
    w = [int(x) for x in (K.WEIGHTS if weights is None else weights)]
    val = sum(w[p] for p in pats)
    n5 = sum(p == pt.FIVE for p in pats)
    nol = sum(p == pt.OL for p in pats)
    ndf = sum(p == pt.DF4 for p in pats)
    nopen = sum(p in (pt.F4, pt.DF4) for p in pats)
    n4 = sum(p in (pt.B4, pt.F4, pt.DF4) for p in pats)
    n3 = sum(p == pt.F3 for p in pats)
    nb3 = sum(p == pt.B3 for p in pats)
    n2 = sum(p == pt.F2 for p in pats)
    if n5:
        cls = K.C_FIVE
    elif nopen or n4 >= 2:
        cls = K.C_F4
        if not nopen:
            val += w[K.NPAT]
    elif n4 == 1:
        cls = K.C_B4F3 if n3 else K.C_B4
    elif n3 >= 2:
        cls = K.C_F3F3
    elif n3 == 1:
        cls = K.C_F3
    elif nb3 or n2 >= 2:
        cls = K.C_B3
    elif n2 == 1:
        cls = K.C_F2
    else:
        cls = K.C_LOW if val > 0 else K.C_NONE
    val += {K.C_B4F3: w[K.NPAT + 1], K.C_F3F3: w[K.NPAT + 2]}.get(cls, 0)
    mf = int(not n5 and (nol > 0 or ndf > 0 or n4 >= 2 or n3 >= 2))
    return val, cls, mf


def cell_info_ref(board: Sequence[int], size: int, rule: int, cell: int,
                  weights: Sequence[int] | None = None) -> tuple[int, int, int, int, int]:
    """(value black, value white, class black, class white, maybe-forbidden) as the kernels keep it."""
    vb, cb, mf = combine_ref(cell_patterns_ref(board, size, rule, cell, 1), weights)
    vw, cw, _ = combine_ref(cell_patterns_ref(board, size, rule, cell, 2), weights)
    return vb, vw, cb, cw, (mf if rule == 2 else 0)


def totals_ref(board: Sequence[int], size: int, rule: int, weights: Sequence[int] | None = None) -> tuple[int, int]:
    """Sum of the cell values of every empty cell, for black and for white."""
    tb = tw = 0
    for i in range(size * size):
        if board[i] == 0:
            vb, vw, *_ = cell_info_ref(board, size, rule, i, weights)
            tb += vb
            tw += vw
    return tb, tw


def evaluate_ref(board: Sequence[int], size: int, rule: int, weights: Sequence[int] | None = None,
                 tempo: int = 20) -> int:
    """The static value for the side to move (black when the stone counts are equal): its cell values'
    total weighted ``tempo`` sixteenths (20: 5:4), less the other side's."""
    tb, tw = totals_ref(board, size, rule, weights)
    stones = sum(1 for v in board if v)
    mine, theirs = (tb, tw) if stones % 2 == 0 else (tw, tb)
    return (tempo * mine - 16 * theirs) // 16


def tree_vct_budget_ref(board: Sequence[int], size: int, rule: int, ply: int, treevct: int, treevctnodes: int,
                        vct3: int, vct3max: int = 0, used: int = 0) -> int:
    """The nodes of the tree's VCT for the side to move at ``ply`` (0: none), as ``kernels._tree_vct_budget``
    decides from the cells' classes (``cell_info_ref``): ``treevctnodes`` at plies 1..``treevct`` where the
    side to move has a four point and the opponent no open-four point; ``vct3`` at ply 1 where it has no
    four point but an open-three point (and the opponent no open-four point), with ``vct3max`` > 0 at most
    ``vct3max`` less ``used`` (the nodes the tree's VCTs have used), not below 0."""
    me = 0 if sum(1 for v in board if v) % 2 == 0 else 1
    mine: set[int] = set()
    theirs: set[int] = set()
    for i in range(size * size):
        if board[i] == 0:
            info = cell_info_ref(board, size, rule, i)
            mine.add(info[2 + me])
            theirs.add(info[3 - me])
    if ply > treevct or K.C_F4 in theirs:
        return 0
    if mine & {K.C_B4, K.C_B4F3}:
        return treevctnodes
    if ply == 1 and vct3 > 0 and mine & {K.C_F3, K.C_F3F3}:
        return max(min(vct3, vct3max - used), 0) if vct3max > 0 else vct3
    return 0


def vct_ref(board: Sequence[int], size: int, rule: int, left: int, dependency: bool = False) -> bool:
    """Whether the side to move (black when the stone counts are equal) wins by continuous threats
    with at most ``left`` threats, by the rules of ``kernels._vct`` and ``kernels._df_children``, searched
    exhaustively from the cells' classes (``cell_info_ref``; freestyle and standard only).

    The attacker plays a five, else blocks the defender's single five point, else wins with an open-four
    point, else (a threat spent) plays a cell of class three or better (a double threat or a four with
    one threat left); ``dependency``: below the root only threes on a line within four cells of one of
    its last two moves. The defender loses to two five points, blocks a single one, and answers an open
    three by any cell that is a four point of the attacker or of its own; with no threat it is free.
    """
    if rule == 2:
        raise ValueError("vct_ref does not know the renju restrictions")
    b = list(board)
    attacker = 1 if sum(1 for v in b if v) % 2 == 0 else 2
    memo: dict = {}

    def classes() -> dict[int, tuple[int, int]]:
        out = {}
        for i in range(size * size):
            if b[i] == 0:
                _, _, cb, cw, _ = cell_info_ref(b, size, rule, i)
                out[i] = (cb, cw)
        return out

    def cls_of(cl: dict, i: int, colour: int) -> int:
        return cl[i][colour - 1]

    def aligned(y: int, x: int) -> bool:
        dr, dc = y // size - x // size, y % size - x % size
        return max(abs(dr), abs(dc)) <= 4 and (dr == 0 or dc == 0 or abs(dr) == abs(dc))

    def attack(left: int, hist: tuple[int, ...]) -> bool:
        key = (tuple(b), left, hist[-2:] if dependency else (), True)
        if key in memo:
            return memo[key]
        me, op = attacker, 3 - attacker
        cl = classes()
        fives_me = [i for i in cl if cls_of(cl, i, me) == K.C_FIVE]
        fives_op = [i for i in cl if cls_of(cl, i, op) == K.C_FIVE]
        if fives_me:
            res = True
        elif len(fives_op) >= 2:
            res = False
        elif fives_op:
            b[fives_op[0]] = me
            res = defend(left, hist + (fives_op[0],))
            b[fives_op[0]] = 0
        elif any(cls_of(cl, i, me) == K.C_F4 for i in cl):
            res = True
        elif left == 0:
            res = False
        else:
            least = K.C_F3F3 if left == 1 else K.C_F3
            last = hist[-2:] if dependency else ()
            res = False
            for i in cl:
                c = cls_of(cl, i, me)
                if c < least:
                    continue
                if last and c < K.C_B4 and not any(aligned(i, x) for x in last):
                    continue
                b[i] = me
                res = defend(left - 1, hist + (i,))
                b[i] = 0
                if res:
                    break
        memo[key] = res
        return res

    def defend(left: int, hist: tuple[int, ...]) -> bool:
        key = (tuple(b), left, hist[-2:] if dependency else (), False)
        if key in memo:
            return memo[key]
        me, op = 3 - attacker, attacker
        cl = classes()
        fives_op = [i for i in cl if cls_of(cl, i, op) == K.C_FIVE]
        if any(cls_of(cl, i, me) == K.C_FIVE for i in cl):
            res = False
        elif len(fives_op) >= 2:
            res = True
        elif fives_op:
            b[fives_op[0]] = me
            res = attack(left, hist)
            b[fives_op[0]] = 0
        elif not any(cls_of(cl, i, op) == K.C_F4 for i in cl):
            res = False
        else:
            res = True
            for i in cl:
                if cls_of(cl, i, op) >= K.C_B4 or cls_of(cl, i, me) >= K.C_B4:
                    b[i] = me
                    res = attack(left, hist)
                    b[i] = 0
                    if not res:
                        break
        memo[key] = res
        return res

    return attack(left, ())
