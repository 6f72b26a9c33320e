"""Tic-tac-toe: rules, notation, the numba kernels against the references, perfect play."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from gamesuite.core import IllegalMoveError, InvalidMoveError, InvalidPositionError, Limits, load_game
from gamesuite.core.score import WIN
from gamesuite.games.tictactoe import kernels
from gamesuite.games.tictactoe.engine import TicTacToeEngine
from gamesuite.games.tictactoe.rules import is_win_at
from gamesuite.search.reference import ReferenceEngine, minimax, optimal_moves, solve_all


def test_notation():
    s = load_game("tictactoe").new_state()
    assert s.parse_move("a1") == 6
    assert s.parse_move("b2") == 4
    assert s.parse_move("C3") == 2
    assert [s.format_move(m) for m in (0, 4, 8)] == ["a3", "b2", "c1"]
    for bad in ("d1", "a4", "a0", "11", "", "aa"):
        with pytest.raises(InvalidMoveError) as e:
            s.parse_move(bad)
        assert repr(bad) in str(e.value)


def test_play_and_win():
    s = load_game("tictactoe").new_state()
    for t in ("a1", "a2", "b1", "b2"):
        s.play_text(t)
    assert not s.is_terminal() and s.current_player == 0
    s.play_text("c1")
    assert s.is_terminal() and s.returns() == [1.0, -1.0] and s.result_text() == "X wins"
    assert s.to_text() == "...oo.xxx"
    with pytest.raises(IllegalMoveError, match="over"):
        s.play_text("c3")
    s.undo()
    assert not s.is_terminal()
    with pytest.raises(IllegalMoveError, match="taken"):
        s.play_text("a1")


def test_position_text_round_trip_and_side_to_move():
    g = load_game("tictactoe")
    s = g.state_from_text("x.o/.x./...")
    assert s.to_text() == "x.o.x...." and s.current_player == 1
    assert g.state_from_text(s.to_text()).key == s.key


@pytest.mark.parametrize("text", ["xx.......", "x", "xxxxoooo.", "abc......", "xxx.oo.oo", "ooo.xx.xx"])
def test_bad_positions_quote_the_input(text):
    with pytest.raises(InvalidPositionError) as e:
        load_game("tictactoe").state_from_text(text)
    assert repr(text) in str(e.value)


@given(st.lists(st.integers(0, 2), min_size=16, max_size=16), st.integers(0, 15), st.integers(3, 4))
def test_win_kernel_matches_reference(cells, idx, k):
    board = np.array(cells, dtype=np.int8)
    assert kernels._is_win(board, 4, 4, k, idx) == is_win_at(cells, 4, 4, k, idx)


@given(st.lists(st.integers(0, 2), min_size=9, max_size=9), st.integers(1, 2))
def test_evaluation_kernel_matches_reference(cells, me):
    g = load_game("tictactoe")
    expected = 0
    for w in g.windows:
        mine = sum(cells[i] == me for i in w)
        theirs = sum(cells[i] not in (0, me) for i in w)
        expected += mine * mine if theirs == 0 else -theirs * theirs if mine == 0 else 0
    assert kernels._evaluate(np.array(cells, dtype=np.int8), g.windows, me) == expected


def _reachable(state, seen, out):
    if state.key in seen:
        return
    seen.add(state.key)
    if state.is_terminal():
        return
    out.append(state.copy())
    for m in state.legal_moves():
        state.play(m)
        _reachable(state, seen, out)
        state.undo()


def test_engine_is_optimal_from_every_reachable_position():
    game = load_game("tictactoe")
    root = game.new_state()
    values = solve_all(root)
    positions: list = []
    _reachable(root, set(), positions)
    assert len(positions) == 4520
    engine = TicTacToeEngine(game, hash=1)
    for s in positions:
        value, best_moves = optimal_moves(s, values)
        r = engine.search(s, Limits())
        assert r.best_move in best_moves, s.to_text()
        if value == 0:
            assert r.score.kind == "draw", s.to_text()
        else:
            assert r.score.kind == "mate" and r.score.value == np.sign(value) * (WIN - abs(value)), s.to_text()


def test_empty_board_is_a_draw_and_value_matches_plain_minimax():
    game = load_game("tictactoe")
    s = game.new_state()
    r = TicTacToeEngine(game).search(s, Limits())
    assert r.score.kind == "draw" and minimax(s) == 0
    assert len(r.pv) == 9


def test_fastest_win_and_slowest_loss():
    g = load_game("tictactoe")
    # x to move can win at once on c3 (also a longer win exists elsewhere)
    s = g.state_from_text("xx.oo....")
    r = TicTacToeEngine(g).search(s, Limits())
    assert s.format_move(r.best_move) == "c3" and r.score.text() == "win in 1"
    # o to move is lost whatever it does (x has two threats): it still blocks one
    s = g.state_from_text("x.x.o.x.o")
    r = TicTacToeEngine(g).search(s, Limits())
    assert r.score.kind == "mate" and r.score.value < 0
    assert s.format_move(r.best_move) in ("b3", "a2")


def test_larger_board_agrees_with_reference_search():
    g = load_game("tictactoe(m=4,n=4,k=3)")
    s = g.state_from_text("x.o.x..o........")
    engine = TicTacToeEngine(g)
    for depth in (1, 2, 3, 4):
        r = engine.search(s, Limits(depth=depth))
        ref = ReferenceEngine(g, evaluate=_open_lines).search(s, Limits(depth=depth))
        assert r.score == ref.score, depth


def _open_lines(state, pov):
    me = 1 + pov
    return int(kernels._evaluate(state.board, state.game.windows, me)) if not state.is_terminal() else 0
