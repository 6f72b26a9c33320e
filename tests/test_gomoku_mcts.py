"""The numba UCT of gomoku against its plain-Python reference and the rules; the engine's behaviour."""

import random

import numpy as np
import pytest

from gamesuite.core import InvalidOptionError, Limits, load_game, make_engine, new_stop_flag
from gamesuite.games.gomoku import mcts as M
from gamesuite.games.gomoku.rules import RENJU
from gamesuite.search import mcts_kernels as K


def setup(black: str, white: str, spec: str = "gomoku(rule=renju)"):
    """A state from lists of black and white cells (via a diagram)."""
    g = load_game(spec)
    rows = [["."] * g.width for _ in range(g.height)]
    for stones, ch in ((black, "x"), (white, "o")):
        for t in stones.split():
            r, c = divmod(g.parse_cell(t), g.width)
            rows[r][c] = ch
    return g.state_from_text("/".join("".join(r) for r in rows))


@pytest.mark.parametrize("spec,text", [
    ("gomoku(size=9)", "e5 d4 f6 e4"), ("gomoku(size=9)", ""),
    ("gomoku(size=7,rule=standard)", "d4 c3 e4"),
    ("gomoku(size=9,rule=renju)", "e5 d4 f6 e4 d6 a1"),
])
@pytest.mark.parametrize("expand_at,radius,capacity", [(1, 2, 100_000), (3, 1, 100_000), (2, 0, 300)])
@pytest.mark.parametrize("tactics", [False, True])
def test_kernel_builds_the_same_tree_as_the_reference(spec, text, expand_at, radius, capacity, tactics):
    game = load_game(spec)
    state = game.state_from_text(text)
    h = state.history
    last, prev = (h[-1] if h else -1), (h[-2] if len(h) > 1 else -1)
    for seed in (1, 99):
        nodes, stats = K.new_tree(capacity)
        assert M.run(state, nodes, stats, 0, 150, 1.4, expand_at, radius, M.new_random(seed), None, tactics) == 150
        ref = M.reference_run(list(state.board), game.size, game.rule_id, state.to_move_stone, 150, 1.4, expand_at,
                              radius, seed, capacity, tactics, last, prev)
        used = int(stats[K.USED])
        assert used == len(ref) and used <= capacity
        assert np.array_equal(nodes[:used], np.array(ref, dtype=np.int32))
        assert nodes[0, K.N] == 150 and stats[K.SIMS] == 150


@pytest.mark.parametrize("spec", ["gomoku(size=9)", "gomoku(size=9,rule=standard)", "gomoku(size=9,rule=renju)"])
@pytest.mark.parametrize("tactics", [False, True])
def test_playout_kernel_matches_the_reference_game_by_game(spec, tactics):
    game = load_game(spec)
    state = game.state_from_text("e5 d4 f6 e4 d6")
    rng = M.new_random(5)
    ref = K.ReferenceRandom(int(rng[0]))
    results = set()
    h = state.history
    for _ in range(60):
        got = M.playouts(state, 1, rng, None, tactics)
        want = M.reference_playout(list(state.board), game.size, game.rule_id, state.to_move_stone, ref, None,
                                   tactics, h[-2], h[-1])
        assert got[want] == 1
        results.add(want)
    assert {1, 2} <= results  # both sides win some random games


def test_win_test_follows_each_rule():
    for rule, black_six, white_six in ((0, True, True), (1, False, False), (2, False, True)):
        for stone, wins in ((1, black_six), (2, white_six)):
            board = np.zeros(81, dtype=np.int8)
            board[[36, 37, 38, 40, 41]] = stone
            board[39] = stone  # six in a row through 39
            assert M._wins(board, np.int64(9), np.int64(rule), np.int64(39)) == wins
            assert M.reference_wins(list(board), 9, rule, 39) == wins
            board[41] = 0  # exactly five: wins under every rule
            assert M._wins(board, np.int64(9), np.int64(rule), np.int64(39))
    rnd = random.Random(4)
    for _ in range(300):  # random boards: the kernel equals the rules' definition
        board = np.array([rnd.choice((0, 1, 1, 2, 2)) for _ in range(81)], dtype=np.int8)
        m = rnd.randrange(81)
        if board[m] == 0:
            continue
        for rule in range(3):
            assert M._wins(board, np.int64(9), np.int64(rule), np.int64(m)) == M.reference_wins(list(board), 9, rule, m)


def test_tree_moves_leave_out_forbidden_points_and_stay_near_the_stones():
    s = setup("g8 h8 i10 i9", "a1 a3 a5 a7")
    i8 = s.parse_move("i8")
    assert i8 in s.forbidden_moves()
    out = np.empty(225, dtype=np.int32)
    n = M._candidates(s.board, np.int64(15), np.int64(RENJU), np.int64(1), np.int64(2), out, np.int64(0))
    got = [int(v) for v in out[:n]]
    assert got == M.reference_candidates(list(s.board), 15, RENJU, 1, 2)
    assert i8 not in got and set(got) <= set(s.legal_moves())
    assert s.parse_move("h9") in got and s.parse_move("o15") not in got
    # tactics: a five to make, else fives to block, are the only tree moves
    four = setup("h8 i8 j8 k8", "g8 a1 a2 a3", "gomoku")
    n = M._candidates(four.board, np.int64(15), np.int64(0), np.int64(1), np.int64(2), out, np.int64(1))
    assert list(out[:n]) == [four.parse_move("l8")] == M.reference_candidates(list(four.board), 15, 0, 1, 2, True)
    n = M._candidates(four.board, np.int64(15), np.int64(0), np.int64(2), np.int64(2), out, np.int64(1))
    assert list(out[:n]) == [four.parse_move("l8")]
    # for white (or another rule) the point is a tree move
    n = M._candidates(s.board, np.int64(15), np.int64(RENJU), np.int64(2), np.int64(2), out, np.int64(0))
    assert i8 in out[:n]
    n = M._candidates(np.zeros(225, dtype=np.int8), np.int64(15), np.int64(0), np.int64(1), np.int64(2), out,
                      np.int64(1))
    assert n == 1 and out[0] == 112  # the centre


@pytest.mark.parametrize("spec", ["gomoku(size=9,rule=renju)", "gomoku(size=7,rule=standard)"])
def test_reference_playouts_are_legal_games_with_the_rules_result(spec):
    # the kernel plays the reference's games (above); the rules replay them move by move
    game = load_game(spec)
    start = game.state_from_text("e5 d4 f6 e4 d6 c5" if game.size == 9 else "d4 c3 e4")
    rnd = K.ReferenceRandom(77)
    forbidden_seen = 0
    for i in range(40):
        moves = []
        h = start.history
        result = M.reference_playout(list(start.board), game.size, game.rule_id, start.to_move_stone, rnd, moves,
                                     i % 2 == 1, h[-2], h[-1])
        s = start.copy()
        for m in moves:
            forbidden_seen += len(s.forbidden_moves())
            assert s.is_legal(m), (s.to_text(), m)
            s.play(m)
        assert s.is_terminal() and s.winner == result
    if game.rule_id == RENJU:
        assert forbidden_seen > 0  # the games met forbidden points and went round them


def test_engine_wins_and_blocks():
    g = load_game("gomoku")
    win = g.state_from_text("h8 a1 i8 a2 j8 a3 k8 b15")  # black has four: l8 or g8 wins
    r = make_engine(g, "mcts,seed=1,tactics=false").search(win, Limits(nodes=3000))
    assert r.best_move in (win.parse_move("g8"), win.parse_move("l8"))
    block = g.state_from_text("h8 g8 i8 a1 j8 a2 k8")  # a closed four: white must block at l8
    r = make_engine(g, "mcts,seed=2,tactics=false").search(block, Limits(nodes=6000))
    assert r.best_move == block.parse_move("l8")
    r = make_engine(g, "mcts,seed=2,tactics=true").search(block, Limits(nodes=50))
    assert r.best_move == block.parse_move("l8")


def test_renju_engine_never_chooses_a_forbidden_point():
    s = setup("g8 h8 i10 i9", "a1 a3 a5 a7")
    forb = set(s.forbidden_moves())
    e = make_engine(s.game, "mcts,seed=3,radius=1")
    e.search(s, Limits(nodes=2000))
    moves = {m for m, _, _ in e.root_stats()}
    assert moves and not moves & forb and moves <= set(s.legal_moves())


def test_engine_registration_reuse_stop_and_bad_input():
    g = load_game("gomoku(size=9)")
    assert isinstance(make_engine(g, "mcts"), M.GomokuMCTS)
    for bad in ("mcts,radius=-1", "mcts,expand=0", "mcts,c=-1", "mcts,memory=0", "mcts,tactics=2"):
        with pytest.raises(InvalidOptionError):
            make_engine(g, bad)
    engine = make_engine(g, "mcts,seed=2,memory=16")
    state = g.state_from_text("e5")
    r = engine.search(state, Limits(nodes=3000))
    child = engine.child_row(engine.root, r.best_move)
    reply = engine.principal_variation(child)[0]
    grand = engine.child_row(child, reply)
    kept = engine.nodes[grand].copy()
    state.play(r.best_move)
    state.play(reply)
    assert engine.set_root(state) and engine.root == grand
    assert np.array_equal(engine.nodes[grand], kept)
    assert engine.search(state, Limits(nodes=500)).nodes == kept[K.N] + 500
    # the stop flag ends an infinite search
    stop = new_stop_flag()
    infos = []

    def on_info(info):
        infos.append(info)
        if len(infos) == 2:
            stop[0] = 1

    e2 = make_engine(g, "mcts,seed=0,info_ms=20,memory=8")
    r = e2.search(g.new_state(), Limits(infinite=True), stop, on_info)
    assert r.best_move == 40 and len(infos) >= 3  # the centre: the empty board's only tree move
    nodes, stats = K.new_tree(100)
    with pytest.raises(ValueError):
        M.run(g.state_from_text("a1 a2 b1 b2 c1 c2 d1 d2 e1"), nodes, stats, 0, 10, 1.4, 1, 2, M.new_random(1))
    with pytest.raises(ValueError):
        M.run_board(np.zeros(81, dtype=np.int64), 9, 0, 1, nodes, stats, 0, 10, 1.4, 1, 2, M.new_random(1))
    with pytest.raises(ValueError):
        M.run_board(np.zeros(81, dtype=np.int8), 9, 3, 1, nodes, stats, 0, 10, 1.4, 1, 2, M.new_random(1))


def test_quick_forbidden_look_agrees_with_the_rules():
    from gamesuite.games.gomoku.renju import is_forbidden_ref

    rnd = random.Random(8)
    found = 0
    for _ in range(60):
        board = np.zeros(81, dtype=np.int8)
        for cell in rnd.sample(range(81), rnd.randint(6, 30)):
            board[cell] = rnd.choice((1, 1, 1, 2))
        for m in np.flatnonzero(board == 0):
            want = is_forbidden_ref([int(v) for v in board], 9, int(m))
            assert M._forbidden(board, np.int64(9), np.int64(m)) == want
            found += want
    assert found > 20


def test_bench_measures_the_gomoku_kernel(capsys):
    from gamesuite.bench import mcts as bench

    assert bench.main(["--sims", "200", "--repeat", "1"]) == 0
    out = capsys.readouterr().out
    for rule in ("freestyle", "standard", "renju"):
        assert f"gomoku 15x15 {rule}: UCT simulations (gomoku:mcts)" in out
    assert "renju: stop latency" in out and "m,n,k 15x15 k=5" in out


def test_heuristic_priors_point_at_wins_and_blocks():
    g = load_game("gomoku")
    win = g.state_from_text("h8 g8 i8 a1 j8 a2 k8 b15")  # black: l8 makes five
    w = M.heuristic_weights(win)
    legal = win.legal_moves()
    assert len(w) == len(legal) and (w >= 1).all()
    assert legal[int(np.argmax(w))] == win.parse_move("l8")
    block = g.state_from_text("h8 g8 i8 a1 j8 a2 k8")  # white: l8 blocks the four
    w = M.heuristic_weights(block)
    assert block.legal_moves()[int(np.argmax(w))] == block.parse_move("l8")
    quiet = M.heuristic_weights(g.state_from_text("h8"))
    assert quiet.max() > quiet.min()  # cells next to the stone stand out
    engine = make_engine(g, "puct,evaluator=heuristic,noise=0,seed=0")
    assert engine.search(block, Limits(nodes=60)).best_move == block.parse_move("l8")


def test_engine_keeps_to_searchmoves_and_the_tree_stays_true():
    g = load_game("gomoku")
    win = g.state_from_text("h8 a1 i8 a2 j8 a3 k8 b15")  # black has four: l8 or g8 wins
    wins = {win.parse_move("g8"), win.parse_move("l8")}
    e = make_engine(g, "mcts,seed=1")
    allowed = (win.parse_move("h9"), win.parse_move("i9"), win.parse_move("c3"))
    infos = []
    r = e.search(win, Limits(nodes=3000, searchmoves=allowed), on_info=infos.append)
    assert r.best_move in allowed[:2]  # c3 is too far from the stones to be in the tree
    assert all(i.pv[0] in allowed for i in infos)
    # the simulations stayed off the other moves (but for the one that grew the root's children)
    assert sum(n for m, n, _ in e.root_stats() if m not in allowed) <= 1
    # the moves held back keep their true visits: the next search (the same root, the tree reused,
    # the restricted search's visits with it) finds the win
    r = e.search(win, Limits(nodes=20000))
    stats = e.root_stats()
    assert max(n for _, n, _ in stats) < 1 << 20
    assert r.best_move in wins
    # an allowed move outside the tree is played unsearched; none legal is an error
    far = win.parse_move("o15")
    assert make_engine(g, "mcts,seed=1").search(win, Limits(nodes=200, searchmoves=(far,))).best_move == far
    with pytest.raises(InvalidOptionError):
        e.search(win, Limits(nodes=10, searchmoves=(win.parse_move("h8"),)))
