"""The VCT solver (``kernels._vct``, by threat count) against the plain-Python reference ``reference.vct_ref``
and the rules: the same proven / disproven results on random small positions, every proof's line legal and
winning. (The eleventh session's df-pn solver passed the same tests; it was removed after the arena, see
docs/gomoku.md.)"""

from __future__ import annotations

import random

import numpy as np
import pytest

from gamesuite.core import load_game
from gamesuite.games.gomoku import kernels as K
from gamesuite.games.gomoku.engine import GomokuEngine, _Searcher
from gamesuite.games.gomoku.reference import cell_info_ref, vct_ref
from tests.gomoku_lines import VCT_POSITIONS, attacker_wins_after


def run_vct(state, left: int, **options):
    """(the line or ``None``, whether the search finished) of one VCT of at most ``left`` threats."""
    se = _Searcher(GomokuEngine(state.game, hash=4, **options), state, 0)
    it = se.run_vct(np.zeros(1, dtype=np.uint8), left, 2_000_000)
    return (None if it is None else list(it.pv)), (it is not None or se.vct_complete)


def random_positions(size: int, count: int, seed: int):
    """Positions of 8-16 stones played near each other (no five, no one-move win for either side)."""
    g = load_game(f"gomoku(size={size})")
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        s = g.new_state()
        n = rng.randrange(8, 17)
        for _ in range(n):
            cells = [c for c in s.legal_moves() if any(
                s.board[c + dr * size + dc] for dr in (-1, 0, 1) for dc in (-1, 0, 1)
                if 0 <= c // size + dr < size and 0 <= c % size + dc < size)] or list(s.legal_moves())
            s.play(rng.choice(cells))
            if s.is_terminal():
                break
        if s.is_terminal():
            continue
        b = list(s.board)
        if any(cell_info_ref(b, size, 0, i)[2 + k] == K.C_FIVE for i in range(size * size) if b[i] == 0
               for k in (0, 1)):
            continue
        out.append(s)
    return out


@pytest.mark.parametrize("seed", [1, 2])
def test_the_solver_agrees_with_the_reference(seed):
    positions = random_positions(9, 12, seed)
    proven = 0
    for s in positions:
        for left in (2, 3):
            ref = vct_ref(list(s.board), 9, 0, left)
            line, done = run_vct(s, left)
            assert done and (line is not None) == ref, (s.to_text(), left)
            if line is not None:
                assert attacker_wins_after(s, line, s.current_player), (s.to_text(), line)
            proven += ref
    assert proven >= 2  # the sample holds wins as well as failures


@pytest.mark.parametrize("text", VCT_POSITIONS)
def test_the_solver_finds_the_known_vcts_and_they_hold(text):
    g = load_game("gomoku")
    s = g.state_from_text(text)
    line = GomokuEngine(g).solve_vct(s, threats=12, budget=200_000)
    assert line and len(line) >= 7 and attacker_wins_after(s, line, s.current_player)


def test_the_solver_claims_nothing_when_the_defender_is_free():
    g = load_game("gomoku")
    s = g.state_from_text("h8 a1 i9 a15")
    assert GomokuEngine(g).solve_vct(s, threats=12) is None
