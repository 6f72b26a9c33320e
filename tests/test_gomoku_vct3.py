"""The tree's VCT from a new three (``vct3``): where it runs (``kernels._tree_vct_budget`` against the
plain-Python ``reference.tree_vct_budget_ref``), and that it lets the search see an opponent's attack that
starts with a new three one ply after the root, which the default's tree does not."""

from __future__ import annotations

import numpy as np
import pytest

from gamesuite.core import load_game
from gamesuite.core.limits import Limits
from gamesuite.games.gomoku import kernels as K
from gamesuite.games.gomoku.engine import GomokuEngine, Position
from gamesuite.games.gomoku.reference import tree_vct_budget_ref
from tests.gomoku_lines import attacker_wins_after
from tests.test_gomoku_vct import random_positions


@pytest.mark.parametrize("seed", [3, 4])
def test_where_the_tree_vct_runs_matches_the_reference(seed):
    positions = random_positions(9, 12, seed)
    seen = set()
    for s in positions:
        pos = Position(s.game, s.board, treevct=2, treevctnodes=1000)
        me = int(pos.g[K.STONES] & 1)
        for vct3, vct3max, used in ((0, 0, 0), (5000, 0, 0), (5000, 0, 9000), (5000, 8000, 1000),
                                    (5000, 8000, 4000), (5000, 8000, 9000)):
            pos.g[K.P_VCT3], pos.g[K.P_VCT3MAX], pos.g[K.LVNODES] = vct3, vct3max, used
            for ply in (1, 2, 3):
                got = int(K._tree_vct_budget(pos.g, np.int64(me), np.int64(1 - me), np.int64(ply)))
                assert got == tree_vct_budget_ref(list(s.board), 9, 0, ply, 2, 1000, vct3, vct3max, used), \
                    (s.to_text(), ply, vct3, vct3max, used)
                seen.add(got)
    assert seen == {0, 1000, 4000, 5000}  # the sample holds each case


# a root of the eighth session's lost games (def33, game 7): after k7 the opponent wins by a VCT that
# starts with a new three; the default's tree at depth 4 rates k7 as even
ROOT, CULPRIT = "k5 i7 e10 i8 i5 h7", "k7"


def test_vct3_sees_the_opponents_attack_from_a_new_three():
    g = load_game("gomoku")
    s = g.state_from_text(ROOT)
    k7 = s.parse_move(CULPRIT)
    plain = GomokuEngine(g, hash=4).search(s, Limits(depth=4, searchmoves=(k7,)))
    assert plain.score.kind == "eval"
    r = GomokuEngine(g, hash=4, vct3=10000).search(s, Limits(depth=4, searchmoves=(k7,)))
    assert r.score.kind == "mate" and r.score.value < 0 and r.pv[0] == k7
    after = s.copy()
    after.play(k7)
    assert attacker_wins_after(after, list(r.pv[1:]), after.current_player)


def test_vct3_off_is_the_default_tree():
    g = load_game("gomoku")
    s = g.state_from_text(ROOT)
    a = GomokuEngine(g, hash=4).search(s, Limits(depth=6))
    b = GomokuEngine(g, hash=4, vct3=0).search(s, Limits(depth=6))
    c = GomokuEngine(g, hash=4, vct3=10000).search(s, Limits(depth=6))
    assert (a.nodes, a.best_move, a.score) == (b.nodes, b.best_move, b.score)
    assert c.nodes != a.nodes  # the option does change the tree here
    d = GomokuEngine(g, hash=4, vct3=10000, vct3max=1).search(s, Limits(depth=6))
    assert d.nodes < c.nodes  # a cap the default's own tree VCTs reach at once leaves little of it
