"""Shared by the gomoku tests: positions with a known VCT, and a check that a claimed winning line wins."""

from __future__ import annotations

from gamesuite.core import make_engine

#: Positions where the side to move wins by a VCT of 7 or more plies (and has no VCF).
VCT_POSITIONS = ["h8 j8 e9 i11 h5 k7 h6 h7 g7 i5", "h8 i11 f9 g8 e10 i6 f11 g9"]


def attacker_wins_after(state, line, attacker):  # type: ignore[no-untyped-def]
    """Replay ``line``: the attacker has won, or is to move with a VCF, or faces a defender who
    cannot stop two five points."""
    s = state.copy()
    for m in line:
        assert s.is_legal(m) and not s.is_terminal()
        s.play(m)
    if s.is_terminal():
        return s.returns()[attacker] == 1
    if s.current_player == attacker:
        return make_engine(s.game, "mtdf").solve_vcf(s) is not None
    fives = 0
    for c in s.legal_moves():
        t = s.copy()
        t._count += 1  # the attacker to move again
        t.play(c)
        fives += t.winner == attacker + 1
    return fives >= 2
