"""The numba UCT of m,n,k games against its plain-Python reference, the generic MCTS and minimax."""

import random
from fractions import Fraction

import numpy as np
import pytest

from gamesuite.core import InvalidOptionError, Limits, load_game, make_engine, new_stop_flag
from gamesuite.games.tictactoe import mcts as M
from gamesuite.search.mcts import MCTS, MCTSConfig
from gamesuite.search.reference import optimal_moves, solve_all

TTT = load_game("tictactoe")
VALUES = solve_all(TTT.new_state())


def test_random_numbers_match_the_reference():
    rng = M.new_random(42)
    ref = M.ReferenceRandom(int(rng[0]))
    for n in (1, 2, 3, 7, 225, 1000, 2**31):
        for _ in range(50):
            assert M._below(rng, n) == ref.below(n)


@pytest.mark.parametrize("spec,text", [("tictactoe", "........."), ("tictactoe", "x...o...."),
                                       ("tictactoe(m=4,n=4,k=3)", "................"),
                                       ("tictactoe(m=5,n=4,k=4)", "x" + "." * 18 + "o")])
@pytest.mark.parametrize("expand_at,capacity", [(1, 100_000), (3, 100_000), (1, 60)])
def test_kernel_builds_the_same_tree_as_the_reference(spec, text, expand_at, capacity):
    game = load_game(spec)
    state = game.state_from_text(text)
    for seed in (1, 99):
        nodes, stats = M.new_tree(capacity)
        rng = M.new_random(seed)
        assert M.run(state, nodes, stats, 0, 400, 1.4, expand_at, rng) == 400
        ref = M.reference_run(list(state.board), game.width, game.height, game.k, state.to_move_stone, 400, 1.4,
                              expand_at, seed, capacity)
        used = int(stats[M.USED])
        assert used == len(ref) and used <= capacity
        assert np.array_equal(nodes[:used], np.array(ref, dtype=np.int32))
        assert nodes[0, M.N] == 400 and stats[M.SIMS] == 400


def test_playout_kernel_matches_the_reference_game_by_game():
    game = load_game("tictactoe(m=5,n=5,k=4)")
    state = game.state_from_text("x...." + "." * 15 + "....o")
    rng = M.new_random(5)
    ref = M.ReferenceRandom(int(rng[0]))
    for _ in range(200):
        got = M.playouts(state, 1, rng)
        want = M.reference_playout(list(state.board), 5, 5, 4, state.to_move_stone, ref)
        assert got[want] == 1


def _exact_random_play(state):
    """Probabilities of [draw, X win, O win] under uniformly random play."""
    if state.is_terminal():
        out = [Fraction(0)] * 3
        out[state.winner] = Fraction(1)
        return out
    moves = state.legal_moves()
    total = [Fraction(0)] * 3
    for m in moves:
        state.play(m)
        for i, p in enumerate(_exact_random_play(state)):
            total[i] += p / len(moves)
        state.undo()
    return total


def test_playout_frequencies_match_exact_random_play():
    state = TTT.state_from_text("x........")
    exact = [float(p) for p in _exact_random_play(state)]
    counts = M.playouts(state, 40_000, M.new_random(3))
    assert counts.sum() == 40_000
    assert np.allclose(counts / 40_000, exact, atol=0.01)


def _move_result(state, move):
    me = state.current_player
    state.play(move)
    v = VALUES[state.key]
    state.undo()
    v = 0 if v == 0 else (1 if v > 0 else -1)
    return v if me == 0 else -v


def test_kernel_engine_keeps_the_minimax_result():
    rng = random.Random(11)
    checked = 0
    while checked < 25:
        s = TTT.new_state()
        for _ in range(rng.randint(0, 6)):
            s.play(rng.choice(s.legal_moves()))
            if s.is_terminal():
                break
        if s.is_terminal():
            continue
        value, _ = optimal_moves(s, VALUES)
        r = make_engine(TTT, f"mcts,seed={checked}").search(s, Limits(nodes=20_000))
        assert _move_result(s, r.best_move) == (0 if value == 0 else (1 if value > 0 else -1)), s.to_text()
        checked += 1


def test_kernel_and_generic_mcts_agree():
    for k, text in enumerate(["xx.oo....", "xx..o....", "o.x.x....", "x...o.x..", "....x...."]):
        state = TTT.state_from_text(text)
        fast = make_engine(TTT, f"mcts,seed={k}")
        r_fast = fast.search(state, Limits(nodes=4000))
        slow = MCTS(TTT, config=MCTSConfig(algorithm="uct", seed=k))
        r_slow = slow.search(state, Limits(nodes=4000))
        assert _move_result(state, r_fast.best_move) == _move_result(state, r_slow.best_move)
        # the same algorithm: the values of the chosen moves agree closely
        assert abs(r_fast.score.value - r_slow.score.value) < 0.1, text


def test_engine_is_registered_for_tictactoe_only():
    assert isinstance(make_engine(TTT, "mcts"), M.TicTacToeMCTS)
    other = load_game("tictactoe(m=4,n=4,k=3)")
    assert isinstance(make_engine(other, "mcts"), M.TicTacToeMCTS)
    with pytest.raises(InvalidOptionError):
        make_engine(TTT, "mcts,expand=-1")
    with pytest.raises(InvalidOptionError):
        make_engine(TTT, "mcts,batch=8")


def test_tree_reuse_in_the_array_tree():
    engine = make_engine(TTT, "mcts,seed=2")
    state = TTT.new_state()
    r = engine.search(state, Limits(nodes=3000))
    child = engine.child_row(engine.root, r.best_move)
    reply = engine.principal_variation(child)[0]
    grand = engine.child_row(child, reply)
    kept = engine.nodes[grand].copy()
    state.play(r.best_move)
    state.play(reply)
    assert engine.set_root(state) and engine.root == grand
    assert np.array_equal(engine.nodes[grand], kept)
    r2 = engine.search(state, Limits(nodes=500))
    assert r2.nodes == kept[M.N] + 500
    assert not engine.set_root(TTT.state_from_text("x...o....")) and engine.root == 0


def test_stop_flag_info_and_bad_input():
    game = load_game("tictactoe(m=10,n=10,k=5)")
    engine = make_engine(game, "mcts,seed=0,info_ms=30,memory=8")
    stop = new_stop_flag()
    infos = []

    def on_info(info):
        infos.append(info)
        if len(infos) == 3:
            stop[0] = 1

    r = engine.search(game.new_state(), Limits(infinite=True), stop, on_info)
    assert r.best_move in game.new_state().legal_moves()
    assert len(infos) >= 4 and infos[-1].pv[0] == r.best_move and infos[-1].nodes == r.nodes
    assert all(a.nodes <= b.nodes for a, b in zip(infos, infos[1:]))
    nodes, stats = M.new_tree(100)
    with pytest.raises(ValueError):
        M.run(TTT.state_from_text("xxxoo...."), nodes, stats, 0, 10, 1.4, 1, M.new_random(1))
    with pytest.raises(ValueError):
        M.run_board(np.zeros(9, dtype=np.int64), 3, 3, 3, 1, nodes, stats, 0, 10, 1.4, 1, M.new_random(1))
    with pytest.raises(ValueError):
        M.run(TTT.new_state(), nodes, stats, 5, 10, 1.4, 1, M.new_random(1))
    # a stop flag already set: the kernel does nothing, the engine still answers
    flag = np.ones(1, dtype=np.uint8)
    assert M.run(TTT.new_state(), nodes, stats, 0, 100, 1.4, 1, M.new_random(1), flag) == 0
    assert make_engine(TTT, "mcts").search(TTT.new_state(), Limits(nodes=10), flag).best_move is not None


def test_heuristic_priors_point_at_wins_and_blocks():
    s = TTT.state_from_text("xx.oo....")  # X to move: c3 wins, a2 (row of o) would block
    w = M.heuristic_weights(s.board, TTT.windows, s.to_move_stone)
    legal = s.legal_moves()
    assert max(legal, key=lambda m: w[m]) == 2
    assert w[5] > w[8] and w[5] > w[6]  # the block outweighs quiet cells
    engine = make_engine(TTT, "puct,evaluator=heuristic,noise=0,seed=0")
    assert engine.search(s, Limits(nodes=200)).best_move == 2
    s2 = TTT.state_from_text("xx..o....")  # O must block at c3
    assert engine.search(s2, Limits(nodes=200)).best_move == 2


def test_zero_nodes_still_gives_a_legal_move():
    r = make_engine(TTT, "mcts").search(TTT.state_from_text("x...o...."), Limits(nodes=0))
    assert r.best_move in TTT.state_from_text("x...o....").legal_moves()


def test_bench_runs_and_names_what_it_measures(capsys):
    from gamesuite.bench import mcts as bench

    assert bench.main(["--sims", "300", "--repeat", "1"]) == 0
    out = capsys.readouterr().out
    assert "15x15 k=5 (freestyle gomoku rules): UCT simulations" in out and "stop latency" in out


def test_searchmoves_restrict_the_choice_and_keep_minimax_among_them():
    s = TTT.new_state()
    for m in (0, 4, 8):  # X in two opposite corners, O in the centre: O must take an edge
        s.play(m)
    allowed = (2, 6, 1)  # two losing corners and a drawing edge
    assert [_move_result(s, m) for m in allowed] == [-1, -1, 0]
    e = make_engine(TTT, "mcts,seed=5")
    r = e.search(s, Limits(nodes=4000, searchmoves=allowed))
    assert r.best_move == 1
    r = make_engine(TTT, "mcts,seed=5").search(s, Limits(nodes=4000, searchmoves=(2, 6)))
    assert r.best_move in (2, 6)
    with pytest.raises(InvalidOptionError):
        e.search(s, Limits(nodes=10, searchmoves=(4,)))
