"""A plain-Python shogi move generator: slow and obvious, the oracle of the numba kernels.

It works on its own representation (a dict from ``(row, col)`` to ``(color,
type)``) and tests legality the naive way: make the move, see whether the own
king is attacked; a pawn drop that checks is illegal when the opponent then
has no legal move at all.
"""

from __future__ import annotations

from .board import (
    DIRS_RC,
    KING,
    KNIGHT,
    KNIGHT_RC,
    LANCE,
    PAWN,
    PROMOTED,
    ROOK,
    SLIDE_MASK,
    STEP_MASK,
    Geometry,
    encode_drop,
    encode_move,
    unpromoted,
)

Pos = dict[tuple[int, int], tuple[int, int]]


def _vectors(color: int, t: int) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """(steps, slides) of a piece as (drow, dcol), from ``color``'s side."""
    sgn = 1 if color == 0 else -1
    steps = [(sgn * dr, sgn * dc) for i, (dr, dc) in enumerate(DIRS_RC) if (int(STEP_MASK[t]) >> i) & 1]
    slides = [(sgn * dr, sgn * dc) for i, (dr, dc) in enumerate(DIRS_RC) if (int(SLIDE_MASK[t]) >> i) & 1]
    if t == KNIGHT:
        steps += [(sgn * dr, sgn * dc) for dr, dc in KNIGHT_RC]
    return steps, slides


class RefPosition:
    """A position for the reference generator."""

    def __init__(self, g: Geometry, pieces: Pos, hands: list[list[int]], color: int) -> None:
        self.g = g
        self.pieces = dict(pieces)
        self.hands = [list(h) for h in hands]
        self.color = color

    @classmethod
    def from_arrays(cls, g: Geometry, board, hands, color: int) -> RefPosition:  # type: ignore[no-untyped-def]
        pieces: Pos = {}
        for sq in range(g.N):
            v = int(board[g.sq2p[sq]])
            if v:
                pieces[divmod(sq, g.files)] = (0 if v & 16 else 1, v & 15)
        return cls(g, pieces, [[int(x) for x in hands[c]] for c in (0, 1)], color)

    def on_board(self, r: int, c: int) -> bool:
        return 0 <= r < self.g.ranks and 0 <= c < self.g.files

    def rel_rank(self, color: int, r: int) -> int:
        """Rank counted from ``color``'s far end (0 = the last rank)."""
        return r if color == 0 else self.g.ranks - 1 - r

    def targets(self, r: int, c: int) -> list[tuple[int, int]]:
        """Squares the piece on (r, c) attacks (or could move to, if not own)."""
        color, t = self.pieces[(r, c)]
        steps, slides = _vectors(color, t)
        out = []
        for dr, dc in steps:
            if self.on_board(r + dr, c + dc):
                out.append((r + dr, c + dc))
        for dr, dc in slides:
            rr, cc = r + dr, c + dc
            while self.on_board(rr, cc):
                out.append((rr, cc))
                if (rr, cc) in self.pieces:
                    break
                rr, cc = rr + dr, cc + dc
        return out

    def attacked(self, square: tuple[int, int], by: int) -> bool:
        return any(col == by and square in self.targets(*rc) for rc, (col, _t) in list(self.pieces.items()))

    def king(self, color: int) -> tuple[int, int] | None:
        for rc, (col, t) in self.pieces.items():
            if col == color and t == KING:
                return rc
        return None

    def in_check(self, color: int) -> bool:
        k = self.king(color)
        return k is not None and self.attacked(k, 1 - color)

    def _dead_end(self, color: int, t: int, r: int) -> bool:
        """Whether an unpromoted piece of type ``t`` would never move again on row ``r``."""
        rr = self.rel_rank(color, r)
        return (t in (PAWN, LANCE) and rr == 0) or (t == KNIGHT and rr <= 1)

    def pseudo_moves(self) -> list[tuple[int, int, int, int]]:
        """(move, kind, from-or-None encoded, ...) pseudo-legal moves as (move, fr, to, promo-or-drop-kind)."""
        g, us = self.g, self.color
        out = []
        for (r, c), (col, t) in list(self.pieces.items()):
            if col != us:
                continue
            for tr, tc in self.targets(r, c):
                other = self.pieces.get((tr, tc))
                if other is not None and other[0] == us:
                    continue
                in_zone = self.rel_rank(us, r) < g.zone or self.rel_rank(us, tr) < g.zone
                if t <= ROOK and in_zone:
                    out.append((encode_move(g.sq(r, c), g.sq(tr, tc), True), g.sq(r, c), g.sq(tr, tc), 1))
                if not self._dead_end(us, t, tr):
                    out.append((encode_move(g.sq(r, c), g.sq(tr, tc), False), g.sq(r, c), g.sq(tr, tc), 0))
        for kind in range(1, 8):
            if self.hands[us][kind] == 0:
                continue
            for r in range(g.ranks):
                for c in range(g.files):
                    if (r, c) in self.pieces or self._dead_end(us, kind, r):
                        continue
                    if kind == PAWN and any(self.pieces.get((rr, c)) == (us, PAWN) for rr in range(g.ranks)):
                        continue  # nifu
                    out.append((encode_drop(g.N, kind, g.sq(r, c)), -kind, g.sq(r, c), 0))
        return out

    def make(self, fr: int, to: int, promo: int) -> tuple:
        """Play a pseudo-move; return what ``unmake`` needs."""
        us, g = self.color, self.g
        tr = divmod(to, g.files)
        if fr < 0:
            self.pieces[tr] = (us, -fr)
            self.hands[us][-fr] -= 1
            undo: tuple[object, ...] = ("drop", fr, to)
        else:
            f = divmod(fr, g.files)
            col, t = self.pieces.pop(f)
            cap = self.pieces.get(tr)
            if cap is not None:
                self.hands[us][unpromoted(cap[1])] += 1
            self.pieces[tr] = (col, t + PROMOTED if promo else t)
            undo = ("move", f, tr, (col, t), cap)
        self.color = 1 - us
        return undo

    def unmake(self, undo: tuple) -> None:
        self.color = 1 - self.color
        us, g = self.color, self.g
        if undo[0] == "drop":
            _, fr, to = undo
            del self.pieces[divmod(to, g.files)]
            self.hands[us][-fr] += 1
        else:
            _, f, tr, piece, cap = undo
            del self.pieces[tr]
            self.pieces[f] = piece
            if cap is not None:
                self.pieces[tr] = cap
                self.hands[us][unpromoted(cap[1])] -= 1

    def legal_moves(self) -> list[int]:
        """Every legal move, sorted."""
        us = self.color
        out = []
        for move, fr, to, promo in self.pseudo_moves():
            undo = self.make(fr, to, promo)
            ok = not self.in_check(us)
            if ok and fr == -PAWN and self.in_check(1 - us) and not self._has_legal_reply():
                ok = False  # uchifuzume: mate by a pawn drop
            self.unmake(undo)
            if ok:
                out.append(move)
        return sorted(out)

    def _has_legal_reply(self) -> bool:
        them = self.color
        for _move, fr, to, promo in self.pseudo_moves():
            undo = self.make(fr, to, promo)
            ok = not self.in_check(them)
            self.unmake(undo)
            if ok:
                return True
        return False

    def perft(self, depth: int) -> int:
        if depth == 0:
            return 1
        moves = {m: (fr, to, promo) for m, fr, to, promo in self.pseudo_moves()}
        total = 0
        for m in self.legal_moves():
            undo = self.make(*moves[m])
            total += self.perft(depth - 1)
            self.unmake(undo)
        return total
