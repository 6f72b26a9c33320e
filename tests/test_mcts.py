"""The generic MCTS: convergence to minimax / max^n, PUCT vs UCT, virtual loss, tree reuse, limits."""

import random

import numpy as np
import pytest

from gamesuite.core import InvalidOptionError, Limits, load_game, make_engine, new_stop_flag
from gamesuite.core.state import CHANCE
from gamesuite.search.mcts import MCTS, MCTSConfig, Node, make_uct, random_playout
from gamesuite.search.reference import maxn, minimax, optimal_moves, solve_all
from tests.chance_trees import ChanceTreeGame
from tests.trees import TreeGame

TTT = load_game("tictactoe")
VALUES = solve_all(TTT.new_state())


def _positions(count, min_plies, max_plies, seed):
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        s = TTT.new_state()
        for _ in range(rng.randint(min_plies, max_plies)):
            s.play(rng.choice(s.legal_moves()))
            if s.is_terminal():
                break
        if not s.is_terminal() and s.to_text() not in {p.to_text() for p in out}:
            out.append(s)
    return out


def _sign(v):
    return 0 if v == 0 else (1 if v > 0 else -1)


def _move_value(state, move):
    """The game-theoretic result (1, 0, -1) of ``move`` for the side to move."""
    me = state.current_player
    state.play(move)
    v = VALUES[state.key]
    state.undo()
    return _sign(v) * (1 if me == 0 else -1)


def _mean(tree, move, player):
    i = tree.root.index(move)
    return tree.root.w[i, player] / tree.root.n[i]


@pytest.mark.parametrize("algorithm", ["uct", "puct"])
def test_mcts_converges_to_the_minimax_value_on_tictactoe(algorithm):
    for k, state in enumerate(_positions(12, 3, 6, seed=7)):
        value, best = optimal_moves(state, VALUES)
        tree = MCTS(TTT, config=MCTSConfig(algorithm=algorithm, seed=k, noise=0))
        r = tree.search(state, Limits(nodes=2500))
        # the move keeps the game-theoretic result (MCTS does not prefer the fastest win)
        assert _move_value(state, r.best_move) == _sign(value), (state.to_text(), r.best_move, best)
        assert abs(_mean(tree, r.best_move, state.current_player) - _sign(value)) < 0.3, state.to_text()


def test_uct_error_shrinks_with_more_simulations():
    state = TTT.state_from_text("x...o.x..")  # a draw with best play
    errors = []
    for sims in (100, 800, 6400):
        tree = MCTS(TTT, config=MCTSConfig(algorithm="uct", seed=3))
        r = tree.search(state, Limits(nodes=sims))
        errors.append(abs(_mean(tree, r.best_move, state.current_player)))
    assert errors[2] < errors[1] < errors[0] and errors[2] < 0.05


def test_uct_finds_the_minimax_move_on_random_trees():
    checked = 0
    for seed in range(20):
        game = TreeGame(branching=3, depth=4, seed=seed)
        state = game.new_state()
        vals = {}
        for m in state.legal_moves():
            state.play(m)
            vals[m] = minimax(state, pov=0, ply=1)
            state.undo()
        best = max(vals.values())
        tree = MCTS(game, config=MCTSConfig(algorithm="uct", seed=seed))
        r = tree.search(state, Limits(nodes=1000))
        assert _sign(vals[r.best_move]) == _sign(best), (seed, vals, r.best_move)
        checked += 1
    assert checked == 20


@pytest.mark.parametrize("chance", ["sample", "expand"])
@pytest.mark.parametrize("players", [1, 3, 4])
def test_mcts_matches_maxn_with_chance_and_many_players(players, chance):
    compared = 0
    for seed in range(12):
        game = ChanceTreeGame(players=players, branching=2, depth=3, seed=seed)
        state = game.new_state()
        child = {}
        for m in state.legal_moves():
            state.play(m)
            child[m] = maxn(state, 3)
            state.undo()
        a, b = (child[m][0] for m in (0, 1))
        if abs(a - b) < 0.25:
            continue  # too close to tell apart reliably at this budget
        tree = MCTS(game, config=MCTSConfig(algorithm="uct", chance=chance, seed=seed))
        r = tree.search(state, Limits(nodes=2000))
        assert child[r.best_move][0] == max(a, b), (seed, child, tree.root_stats())
        assert len(r.score.values) == players
        compared += 1
    assert compared >= 3


def test_chance_expand_visits_outcomes_in_proportion():
    game = ChanceTreeGame(players=2, branching=1, depth=2, seed=1)
    tree = MCTS(game, config=MCTSConfig(algorithm="uct", chance="expand", seed=0))
    tree.search(game.new_state(), Limits(nodes=1001))
    die = tree.root.children[0]
    assert die.player == CHANCE
    share = die.n / die.n.sum()
    assert np.allclose(share, die.priors, atol=0.01)


def test_puct_with_uniform_priors_picks_the_uct_move_in_simple_positions():
    simple = ["xx.oo....",  # X wins at c3
              "xx..o....",  # O must block at c3
              "o.x.x....",  # O must block at a1
              "xo.xo....",  # X wins at a1
              "x.o.x.o..",  # X wins... (diagonal threat, O to move must block)
              ]
    for k, text in enumerate(simple):
        state = TTT.state_from_text(text)
        _, best = optimal_moves(state, VALUES)
        uct = MCTS(TTT, config=MCTSConfig(algorithm="uct", seed=k)).search(state, Limits(nodes=800))
        puct = MCTS(TTT, config=MCTSConfig(algorithm="puct", seed=k, noise=0)).search(state, Limits(nodes=800))
        assert uct.best_move == puct.best_move, text
        assert uct.best_move in best and len(best) == 1


def _check_counts(tree, trace):
    """Every edge's visits equal the backed-up simulations through it; no virtual visit is left."""
    through: dict[tuple[int, int], int] = {}
    sums: dict[tuple[int, int], np.ndarray] = {}
    for path, value in trace:
        for node, i in path:
            through[(id(node), i)] = through.get((id(node), i), 0) + 1
            sums[(id(node), i)] = sums.get((id(node), i), 0) + value
    for node in tree.root.walk():
        assert not node.vn.any(), "a virtual visit was left behind"
        for i in range(len(node.moves)):
            assert node.n[i] == through.get((id(node), i), 0)
            if node.n[i]:
                assert np.allclose(node.w[i], sums[(id(node), i)])
            child = node.children[i]
            if child is not None and child.expanded and child.terminal is None:
                below = int(child.n.sum())
                # a decision node was evaluated once, then every visit went on to a child
                assert node.n[i] == below + (0 if child.player == CHANCE else 1)
    assert tree.root_n == len(trace) == int(tree.root.n.sum()) + 1


@pytest.mark.parametrize("algorithm", ["uct", "puct"])
@pytest.mark.parametrize("batch", [1, 8, 32])
def test_virtual_loss_leaves_no_visit_count_changed_after_a_batch(algorithm, batch):
    tree = MCTS(TTT, config=MCTSConfig(algorithm=algorithm, batch=batch, seed=batch))
    tree.trace = []
    tree.set_root(TTT.state_from_text("x...o...."))
    total = 0
    for _ in range(40):
        before = tree.root_n
        got = tree.run_batch()
        assert 1 <= got <= batch
        total += got
        assert tree.root_n == before + got
        _check_counts(tree, tree.trace)
    assert total > 40 or batch == 1


def test_virtual_loss_spreads_a_batch_over_distinct_leaves():
    tree = MCTS(TTT, config=MCTSConfig(algorithm="puct", batch=8, seed=0, noise=0))
    tree.set_root(TTT.new_state())
    assert tree.run_batch() == 1  # the root itself is the only leaf
    assert tree.run_batch() == 8  # then 8 different children
    assert sorted(tree.root.n) == [0] + [1] * 8


def test_virtual_loss_with_chance_and_three_players():
    game = ChanceTreeGame(players=3, branching=3, depth=4, seed=5)
    tree = MCTS(game, config=MCTSConfig(algorithm="puct", batch=8, seed=1, chance="expand"))
    tree.trace = []
    tree.set_root(game.new_state())
    for _ in range(30):
        tree.run_batch()
    _check_counts(tree, tree.trace)


def _stats(node):
    return [(m, int(node.n[i]), node.w[i].tolist()) for i, m in enumerate(node.moves)]


def test_tree_reuse_keeps_the_subtree_statistics():
    engine = make_engine(TTT, "puct,seed=4,noise=0")
    state = TTT.new_state()
    r = engine.search(state, Limits(nodes=2000))
    tree = engine.tree
    i = tree.root.index(r.best_move)
    child = tree.root.children[i]
    reply = child.moves[tree.best_index(child, child.player)]
    grandchild = child.children[child.index(reply)]
    kept = _stats(grandchild)
    kept_n = int(child.n[child.index(reply)])
    kept_w = child.w[child.index(reply)].copy()
    state.play(r.best_move)
    state.play(reply)
    assert tree.set_root(state)
    assert tree.root is grandchild
    assert _stats(tree.root) == kept and tree.root_n == kept_n and np.allclose(tree.root_w, kept_w)
    r2 = engine.search(state, Limits(nodes=300))
    assert r2.nodes == kept_n + 300  # the search carried on from the kept statistics
    assert tree.root is grandchild


def test_tree_reuse_refuses_unrelated_positions():
    tree = MCTS(TTT, config=MCTSConfig(algorithm="uct", seed=0))
    tree.search(TTT.new_state(), Limits(nodes=300))
    assert not tree.set_root(TTT.state_from_text("x...o...."))  # same moves count, no history link
    assert tree.root_n == 0
    off = MCTS(TTT, config=MCTSConfig(algorithm="uct", seed=0, reuse=False))
    s = TTT.new_state()
    off.search(s, Limits(nodes=300))
    s.play(4)
    assert not off.set_root(s)


def test_advance_makes_the_chosen_child_the_root():
    tree = MCTS(TTT, config=MCTSConfig(algorithm="puct", seed=2, noise=0))
    tree.search(TTT.new_state(), Limits(nodes=500))
    move = tree.choose()
    child = tree.root.children[tree.root.index(move)]
    tree.advance(move)
    assert tree.root is child and tree.root_state.history == [move]


def test_temperature_samples_by_visit_counts():
    tree = MCTS(TTT, config=MCTSConfig(algorithm="uct", seed=9))
    tree.search(TTT.new_state(), Limits(nodes=900))
    counts = {m: 0 for m in tree.root.moves}
    for _ in range(3000):
        counts[tree.choose(temperature=1.0)] += 1
    dist = tree.visit_distribution()
    for m, c in counts.items():
        assert abs(c / 3000 - dist[m]) < 0.04
    top = max(dist, key=dist.get)
    assert all(tree.choose(temperature=0) == top for _ in range(5))


def test_dirichlet_noise_changes_root_priors_only_when_asked():
    quiet = MCTS(TTT, config=MCTSConfig(algorithm="puct", seed=1, noise=0))
    quiet.search(TTT.new_state(), Limits(nodes=50))
    assert quiet._noise is None
    noisy = MCTS(TTT, config=MCTSConfig(algorithm="puct", seed=1, noise=0.25, dirichlet_alpha=0.03))
    noisy.search(TTT.new_state(), Limits(nodes=50))
    assert noisy._noise is not None and abs(noisy._noise.sum() - 1) < 1e-9
    assert np.sort(noisy._noise)[-3:].sum() > 0.9  # alpha 0.03 concentrates the noise on few moves


def test_search_reports_info_and_respects_the_stop_flag():
    game = ChanceTreeGame(players=2, branching=5, depth=8)
    engine = make_uct(game, seed=0, info_ms=20)  # the generic engine
    infos = []
    stop = new_stop_flag()

    def on_info(info):
        infos.append(info)
        if len(infos) == 3:
            stop[0] = 1  # like a user pressing stop while the reports come in

    r = engine.search(game.new_state(), Limits(infinite=True), stop, on_info)
    assert stop[0] == 1 and r.best_move in game.new_state().legal_moves()
    assert len(infos) >= 4 and infos[-1].nodes == r.nodes  # the periodic ones and the final one
    assert infos[-1].pv[0] == r.best_move and infos[-1].score.kind == "winrate"
    assert all(a.nodes <= b.nodes for a, b in zip(infos, infos[1:]))


def test_multipv_and_movetime():
    infos = []
    r = make_engine(TTT, "puct,seed=0,noise=0").search(TTT.new_state(), Limits(movetime=150, multipv=3),
                                                       on_info=infos.append)
    last = infos[-3:]
    assert [i.multipv for i in last] == [1, 2, 3] and len({i.pv[0] for i in last}) == 3
    assert r.best_move == last[0].pv[0] and r.nodes > 0


def test_terminal_root_and_bad_options():
    over = TTT.state_from_text("xxxoo....")
    assert make_uct(TTT).search(over, Limits(nodes=10)).best_move is None
    assert make_engine(TTT, "mcts").search(over, Limits(nodes=10)).best_move is None  # the numba one
    game = ChanceTreeGame()
    for spec in ("mcts,batch=0", "mcts,chance=maybe", "puct,noise=2", "puct,evaluator=magic",
                 "mcts,noise=0.1", "puct,evaluator=heuristic", "puct,evaluator=net"):
        with pytest.raises(InvalidOptionError):
            make_engine(game, spec)


def test_random_playout_reaches_the_end():
    rng = np.random.default_rng(0)
    for _ in range(20):
        s = TTT.new_state()
        r = random_playout(s, rng)
        assert s.is_terminal() and list(r) == s.returns()
    game = ChanceTreeGame(players=4, depth=3)
    s = game.new_state()
    assert len(random_playout(s, rng)) == 4 and s.is_terminal()


def test_node_walk_and_index():
    n = Node(0)
    n.expand([3, 5], np.array([0.5, 0.5]), 2)
    assert n.index(5) == 1 and n.index(4) == -1 and n.walk() == [n]


def test_a_depth_limit_ends_the_search_once_the_pv_is_that_long():
    for spec in ("puct,seed=0,noise=0", "mcts,seed=0"):
        engine = make_engine(load_game("tictactoe(m=5,n=5,k=4)"), spec)
        r = engine.search(load_game("tictactoe(m=5,n=5,k=4)").new_state(), Limits(depth=3))
        assert len(r.pv) >= 3 and r.nodes > 0


def test_a_search_stopped_at_once_still_gives_a_legal_move():
    flag = new_stop_flag()
    flag[0] = 1
    for spec in ("mcts", "puct,noise=0"):
        for limits, stop in ((Limits(nodes=0), None), (Limits(infinite=True), flag)):
            game = ChanceTreeGame(players=2, branching=3)
            r = make_engine(game, spec).search(game.new_state(), limits, stop)
            assert r.best_move in (0, 1, 2)
