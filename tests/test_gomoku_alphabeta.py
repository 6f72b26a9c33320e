"""The alphabeta engine: shape evaluation against its reference, PVS against plain alpha-beta, the threat-aware
move generator against exhaustive searches, tactics."""

import json
import random

import numpy as np
import pytest

from gamesuite.core import InvalidOptionError, Limits, load_game, make_engine
from gamesuite.core.score import WIN
from gamesuite.games.gomoku import absearch as A
from gamesuite.games.gomoku import kernels as K
from gamesuite.games.gomoku.engine import GomokuEngine, Position
from gamesuite.games.gomoku.evaluation import Weights, classic_weights, load_weights, save_weights
from gamesuite.games.gomoku.reference import cell_info_ref, cell_patterns_ref, evaluate_ref, shape_evaluate_ref
from gamesuite.search.reference import alphabeta


def _random_weights(rng):
    combo = K.WEIGHTS.copy()
    combo[1:11] = [rng.randint(0, 900) for _ in range(10)]
    ev = np.array([rng.randint(-300, 300) for _ in range(A.NEVAL)], dtype=np.int64)
    ev[A.E_SCALE] = rng.randint(4, 32)
    return Weights(combo, ev, load_weights().search)


@pytest.mark.parametrize("spec", ["gomoku(size=7)", "gomoku(size=8,rule=renju)", "gomoku(size=9,rule=standard)"])
def test_shape_evaluation_matches_reference(spec):
    game = load_game(spec)
    rng = random.Random(spec)
    w = _random_weights(rng)
    state = game.new_state()
    pos = Position(game, state.board, weights=w)
    played = []
    for step in range(50):
        if played and (rng.random() < 0.3 or state.is_terminal() or len(played) > 35):
            state.undo()
            pos.remove(played.pop())
        else:
            move = rng.choice(state.legal_moves())
            state.play(move)
            pos.place(move)
            played.append(move)
        board = [int(v) for v in state.board]
        assert pos.value() == shape_evaluate_ref(board, game.size, game.rule_id, w.combo, w.eval), step
        # the direction patterns of the empty cells, counted incrementally by colour
        counts = np.zeros((2, K.NPAT), dtype=np.int64)
        for c in range(game.size ** 2):
            if board[c] == 0:
                for colour in (1, 2):
                    for p in cell_patterns_ref(board, game.size, game.rule_id, c, colour):
                        counts[colour - 1, p] += 1
        assert np.array_equal(pos.g[K.PCN:K.PCN + 2 * K.NPAT].reshape(2, K.NPAT), counts), step
        cell = rng.choice([c for c in range(game.size ** 2) if board[c] == 0])
        assert pos.cell_info(cell) == cell_info_ref(board, game.size, game.rule_id, cell, w.combo)


def test_classic_weights_are_the_classic_evaluation():
    game = load_game("gomoku(size=9)")
    rng = random.Random(3)
    state = game.new_state()
    for _ in range(25):
        state.play(rng.choice(state.legal_moves()))
        if state.is_terminal():
            break
        pos = Position(game, state.board, weights=classic_weights())
        assert pos.value() == pos.evaluate() == evaluate_ref([int(v) for v in state.board], 9, 0)


def test_weights_file_round_trip_and_errors(tmp_path):
    w = load_weights()
    p = tmp_path / "w.json"
    save_weights(w, p)
    back = load_weights(p)
    assert np.array_equal(back.combo, w.combo) and np.array_equal(back.slots(), w.slots())
    data = json.loads(p.read_text())
    data["search"]["nosuch"] = 2
    p.write_text(json.dumps(data))
    with pytest.raises(InvalidOptionError, match="nosuch"):
        load_weights(p)
    del data["search"]["nosuch"]
    data["eval"]["win43"] = 1.5
    p.write_text(json.dumps(data))
    with pytest.raises(InvalidOptionError, match="win43 must be an integer"):
        load_weights(p)
    p.write_text("not json")
    with pytest.raises(InvalidOptionError, match="not JSON"):
        load_weights(p)
    with pytest.raises(InvalidOptionError, match="cannot read"):
        load_weights(tmp_path / "missing.json")
    game = load_game("gomoku")
    with pytest.raises(InvalidOptionError, match="cannot read"):
        make_engine(game, f"alphabeta,weights={tmp_path / 'missing.json'}")
    with pytest.raises(InvalidOptionError, match="eval must be"):
        make_engine(game, "alphabeta,eval=fancy")
    with pytest.raises(InvalidOptionError, match="no option 'eval'"):
        make_engine(game, "mtdf,eval=shape")
    with pytest.raises(InvalidOptionError, match="alphabeta engine's"):
        GomokuEngine(game, algo="mtdf", eval="shape")


def _shape_ref_eval(weights):
    def ev(state, pov):
        v = shape_evaluate_ref([int(x) for x in state.board], state.game.size, state.game.rule_id,
                               weights.combo, weights.eval)
        return v if state.current_player == pov else -v
    return ev


@pytest.mark.parametrize("eval_", ["classic", "shape"])
@pytest.mark.parametrize("text,depth", [("c3", 2), ("c3 b2 d4", 2), ("a1 b2 c3 d4", 3), ("c3 c4 b3 d3 d2", 2),
                                        ("c3 b2", 4), ("c3 b2 d4", 3)])
def test_pure_pvs_matches_reference_alphabeta(eval_, text, depth):
    game = load_game("gomoku(size=5)")
    state = game.state_from_text(text)
    engine = GomokuEngine(game, algo="alphabeta", hash=1, pure=True, eval=eval_)
    ref = _shape_ref_eval(engine.weights)
    expected = alphabeta(state.copy(), -WIN - 1, WIN + 1, depth=depth, evaluate=ref)
    result = engine.search(state, Limits(depth=depth))
    assert result.depth == depth
    s = result.lines[0].score
    got = s.value if s.kind == "eval" else (WIN - s.value if s.value > 0 else -(WIN + s.value))
    assert got == expected
    state.play(result.best_move)
    child = -alphabeta(state.copy(), -WIN - 1, WIN + 1, depth=depth - 1, evaluate=ref, ply=1) \
        if not state.is_terminal() else WIN - 1
    assert child == expected


# -- the threat-aware move generator against exhaustive searches ---------------------------------------


def _random_endgame(game, rng, empties):
    """A position with ``empties`` empty cells, nobody has five, the side to move does not win at once."""
    n = game.size ** 2
    while True:
        state = game.new_state()
        cells = list(range(n))
        rng.shuffle(cells)
        ok = True
        for m in cells[: n - empties]:
            state.play(m)
            if state.is_terminal():
                ok = False
                break
        if ok:
            return state


@pytest.mark.parametrize("seed", range(6))
def test_threat_moves_keep_the_forced_result_on_small_boards(seed):
    """On 6x6 endgames solved to the end, the engine (threat-aware moves, its threat searches, no
    heuristic reduction or pruning) finds the same result as plain alpha-beta over every empty cell."""
    game = load_game("gomoku(size=6)")
    rng = random.Random(seed)
    pure = GomokuEngine(game, algo="alphabeta", hash=4, pure=True, eval="classic")
    engine = GomokuEngine(game, algo="alphabeta", hash=4, lmr=0, lmp=0, rfp=0)

    def result(s):
        return 0 if s.kind != "mate" else (1 if s.value > 0 else -1)

    for _ in range(4):
        state = _random_endgame(game, rng, 11)
        depth = game.size ** 2 - state.stones
        pure.new_game()
        expected = result(pure.search(state, Limits(depth=depth)).score)
        engine.new_game()
        got = result(engine.search(state, Limits(depth=depth)).score)
        assert got == expected, state.to_text()


def _loses_at_once(state, move, pure):
    """Whether the opponent wins within three plies after ``move`` (plain alpha-beta over every cell)."""
    s = state.copy()
    s.play(move)
    if s.is_terminal():
        return False
    pure.new_game()
    sc = pure.search(s, Limits(depth=3)).score
    return sc.kind == "mate" and sc.value > 0


@pytest.mark.parametrize("seed", range(4))
def test_answers_to_an_open_three_are_all_the_defences(seed):
    """Where the opponent has an open three (an open-four point), every move the generator leaves out loses
    within four plies (so no defence is thrown away)."""
    game = load_game("gomoku(size=9)")
    rng = random.Random(100 + seed)
    pure = GomokuEngine(game, algo="alphabeta", hash=4, pure=True, eval="classic")
    found = 0
    tries = 0
    while found < 3 and tries < 2000:
        tries += 1
        state = game.new_state()
        for _ in range(rng.randint(8, 14)):
            near = [m for m in state.legal_moves() if abs(m // 9 - 4) <= 3 and abs(m % 9 - 4) <= 3]
            state.play(rng.choice(near))
            if state.is_terminal():
                break
        if state.is_terminal():
            continue
        pos = Position(game, state.board)
        me = state.stones % 2
        op = 1 - me
        if pos.cnt[op][K.C_F4] == 0 or pos.cnt[op][K.C_FIVE] or pos.cnt[me][K.C_FIVE] or pos.cnt[me][K.C_F4]:
            continue
        kept = set()
        for m in range(81):
            if state.board[m] == 0:
                cm, co = pos.cell_info(m)[2 + me], pos.cell_info(m)[2 + op]
                if cm >= K.C_B4 or co >= K.C_B4:
                    kept.add(m)
        for m in state.legal_moves():
            if m not in kept:
                assert _loses_at_once(state, m, pure), (state.to_text(), state.format_move(m))
        found += 1
    assert found == 3


# -- tactics and the engine's contract ----------------------------------------------------------------


def _mv(state, names):
    return {state.parse_move(t) for t in names.split()}


@pytest.mark.parametrize("spec", ["alphabeta", "alphabeta,eval=classic", "alphabeta,lmp=3,rfp=2,qfours=3,ext3=1",
                                  "alphabeta,nmp=2,nullvcf=10"])
def test_tactics(spec):
    game = load_game("gomoku")
    e = make_engine(game, spec)
    s = game.state_from_text("h8 a1 h9 a2 h10 b5 h11")  # white must stop h12 / h7
    assert e.search(s, Limits(depth=4)).best_move in _mv(s, "h12 h7")
    s = game.state_from_text("h8 a1 h9 a2 h10 a3 h11 b7")  # black wins at once
    r = e.search(s, Limits(depth=4))
    assert r.best_move in _mv(s, "h12 h7") and r.score.kind == "mate" and r.score.value == 1
    s = game.state_from_text("h8 a1 i8 a15 j8")  # an open three: white blocks
    r = e.search(s, Limits(depth=5))
    assert r.best_move in _mv(s, "g8 k8 f8 l8")


def test_reports_a_vct_as_a_mate_with_its_line():
    game = load_game("gomoku")
    e = make_engine(game, "alphabeta")
    s = game.state_from_text("h8 j8 e9 i11 h5 k7 h6 h7 g7 i5")
    attacker = s.current_player
    r = e.search(s, Limits(movetime=3000))
    assert r.score.kind == "mate" and r.score.value > 0 and len(r.pv) >= 7
    t = s.copy()
    for m in r.pv:
        assert t.is_legal(m) and not t.is_terminal()
        t.play(m)
    # the line ends in a five, or with the attacker to move again after an open four or a VCF-won position
    if not t.is_terminal():
        if t.current_player != attacker:
            t.play(make_engine(game, "alphabeta").search(t, Limits(depth=2)).best_move)
        assert e.solve_vcf(t) is not None
    else:
        assert t.returns()[attacker] == 1


def test_node_limit_holds():
    game = load_game("gomoku")
    e = make_engine(game, "alphabeta")
    s = game.state_from_text("h8 g10 f8 f9 h11 g8 h7 h9 g9 i10 j11 f10 h10 i11 f7 e7 j7 i7 i8 i13")
    r = e.search(s, Limits(nodes=50000))
    assert 0 < r.nodes <= 50000 * 1.06
