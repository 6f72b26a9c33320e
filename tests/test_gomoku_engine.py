"""The gomoku engine: pattern tables, incremental evaluation and searches against their references, tactics."""

import random
import threading

import numpy as np
import pytest

from gamesuite.core import InvalidOptionError, Limits, load_game, make_engine
from gamesuite.core.errors import IllegalMoveError
from gamesuite.core.info import new_stop_flag
from gamesuite.core.score import WIN
from gamesuite.games.gomoku import kernels as K
from gamesuite.games.gomoku import patterns as pt
from gamesuite.games.gomoku.engine import GomokuEngine, Position
from gamesuite.games.gomoku.reference import cell_info_ref, combine_ref, evaluate_ref, totals_ref
from gamesuite.search.reference import alphabeta
from tests.gomoku_lines import VCT_POSITIONS, attacker_wins_after


def test_ternary_tables_match_the_classifier():
    rng = random.Random(3)
    for rule in (0, 1, 2):
        t = pt.ternary_tables(rule)
        for _ in range(1500):
            line = [rng.choice((0, 0, 0, 1, 1, 2)) for _ in range(11)]
            line[5] = 1
            idx = pt.line_index(line)
            for colour in (0, 1):
                exact = rule == 1 or (rule == 2 and colour == 0)
                assert t[colour, idx] == pt.classify_ref(line, exact), (rule, colour, line)


def test_packed_key_table_matches_the_classifier():
    rng = random.Random(4)
    t = pt.pattern_table(2)
    for _ in range(800):
        key = 0
        for j in range(10):
            key |= rng.choice((0, 0, 1, 1, 2, 3)) << (2 * j)
        assert t[0, key] == pt.classify_ref(pt.key_to_line(key, 1), True)
        assert t[1, key] == pt.classify_ref(pt.key_to_line(key, 2), False)


def test_classifier_on_known_lines():
    o, x, b = 0, 1, 2
    assert pt.classify_ref([o, o, x, x, x, x, x, o, o, o, o], False) == pt.FIVE
    assert pt.classify_ref([o, x, x, x, x, x, x, o, o, o, o], True) == pt.OL
    assert pt.classify_ref([o, x, x, x, x, x, x, o, o, o, o], False) == pt.FIVE
    assert pt.classify_ref([o, o, o, x, x, x, x, o, o, o, o], False) == pt.F4   # _XXXX_
    assert pt.classify_ref([o, o, b, x, x, x, x, o, o, o, o], False) == pt.B4   # OXXXX_
    assert pt.classify_ref([o, o, o, o, x, x, x, o, o, o, o], False) == pt.F3   # _XXX_
    assert pt.classify_ref([o, o, o, b, x, x, x, o, o, o, o], False) == pt.B3   # OXXX_
    assert pt.classify_ref([o, o, x, o, x, x, x, o, x, o, o], False) == pt.DF4  # X.XXX.X
    assert pt.classify_ref([o, x, o, x, x, x, x, o, o, o, o], True) == pt.B4    # the left five would be six
    assert pt.classify_ref([b, b, b, b, b, x, b, b, b, b, b], False) == pt.NONE


def test_combo_table_matches_reference():
    cmb = K.combo_table()
    for i in range(0, K.NPAT ** 4, 7):
        pats = (i // K.NPAT ** 3, (i // K.NPAT ** 2) % K.NPAT, (i // K.NPAT) % K.NPAT, i % K.NPAT)
        val, cls, mf = combine_ref(pats)
        e = int(cmb[i])
        assert (e & 0xFFFF, (e >> 16) & 15, (e >> 20) & 1) == (val, cls, mf), pats


def test_combo_nibbles_index_the_same_combinations():
    cmb = K.combo_table()
    nib = K.combo_nibbles(cmb)
    for i in range(0, K.NPAT ** 4, 5):
        p0, p1, p2, p3 = i // K.NPAT ** 3, (i // K.NPAT ** 2) % K.NPAT, (i // K.NPAT) % K.NPAT, i % K.NPAT
        assert nib[p0 | p1 << 4 | p2 << 8 | p3 << 12] == cmb[i], (p0, p1, p2, p3)
    assert nib[0xC000] == 0 and nib[0x00F0] == 0  # no pattern 12 or 15


@pytest.mark.parametrize("spec", ["gomoku(size=7)", "gomoku(size=8,rule=renju)", "gomoku(size=7,rule=standard)"])
def test_incremental_evaluation_matches_reference(spec):
    game = load_game(spec)
    rng = random.Random(spec)
    size = game.size
    state = game.new_state()
    pos = Position(game, state.board)
    played = []
    for step in range(60):
        if played and (rng.random() < 0.3 or state.is_terminal() or len(played) > 30):
            state.undo()
            pos.remove(played.pop())
        else:
            move = rng.choice(state.legal_moves())
            state.play(move)
            pos.place(move)
            played.append(move)
        board = [int(v) for v in state.board]
        assert pos.key == state.key
        assert tuple(int(v) for v in pos.g[[K.TOT_B, K.TOT_W]]) == totals_ref(board, size, game.rule_id)
        assert pos.evaluate() == evaluate_ref(board, size, game.rule_id)
        for cell in range(size * size):
            if board[cell] == 0:
                assert pos.cell_info(cell) == cell_info_ref(board, size, game.rule_id, cell), (step, cell)
        # a fresh build from the board agrees with the incremental one
        fresh = Position(game, state.board)
        assert np.array_equal(fresh.ci, pos.ci) and np.array_equal(fresh.cnt, pos.cnt)


def test_position_takes_back_only_the_last_stone():
    game = load_game("gomoku(size=7)")
    state = game.state_from_text("d4 c3 e5")
    pos = Position(game, state.board)
    before = (pos.ci.copy(), pos.cnt.copy(), pos.key)
    pos.place(game.parse_cell("b2"))
    pos.place(game.parse_cell("f6"))
    with pytest.raises(IllegalMoveError, match="last stone"):
        pos.remove(game.parse_cell("b2"))
    with pytest.raises(IllegalMoveError, match="taken"):
        pos.place(game.parse_cell("d4"))
    pos.remove(game.parse_cell("f6"))
    pos.remove(game.parse_cell("b2"))
    assert np.array_equal(pos.ci, before[0]) and np.array_equal(pos.cnt, before[1]) and pos.key == before[2]
    # the starting position's stones were placed in cell order: the first of them is not the last
    with pytest.raises(IllegalMoveError):
        pos.remove(min(game.parse_cell(m) for m in ("d4", "c3", "e5")))


def _ref_eval(state, pov):
    size, rule = state.game.size, state.game.rule_id
    v = evaluate_ref([int(x) for x in state.board], size, rule)
    return v if state.current_player == pov else -v


@pytest.mark.parametrize("algo", ["negamax", "pvs", "mtdf"])
@pytest.mark.parametrize("text,depth", [("c3", 2), ("c3 b2 d4", 2), ("a1 b2 c3 d4", 3), ("c3 c4 b3 d3 d2", 2),
                                        ("c3 b2", 4)])
def test_pure_search_matches_reference_alphabeta(algo, text, depth):
    game = load_game("gomoku(size=5)")
    state = game.state_from_text(text)
    expected = alphabeta(state.copy(), -WIN - 1, WIN + 1, depth=depth, evaluate=_ref_eval)
    engine = GomokuEngine(game, algo=algo, top=0, hash=1, pure=True)
    result = engine.search(state, Limits(depth=depth))
    assert result.depth == depth
    s = result.lines[0].score
    got = s.value if s.kind == "eval" else (WIN - s.value if s.value > 0 else -(WIN + s.value))
    assert got == expected
    # the best move really has that value
    state.play(result.best_move)
    child = -alphabeta(state.copy(), -WIN - 1, WIN + 1, depth=depth - 1, evaluate=_ref_eval, ply=1) \
        if not state.is_terminal() else WIN - 1
    assert child == expected


def test_pure_search_finds_the_win_like_the_reference():
    game = load_game("gomoku(size=6)")
    state = game.state_from_text("a1 a6 b1 b6 c1 c6 d1")  # white must block e1 or lose
    engine = GomokuEngine(game, algo="pvs", top=0, hash=1, pure=True)
    expected = alphabeta(state.copy(), -WIN - 1, WIN + 1, depth=2, evaluate=_ref_eval)
    r = engine.search(state, Limits(depth=2))
    assert r.score.kind == "eval" and r.score.value == expected
    assert r.best_move in (state.parse_move("e1"),)


# -- tactics --------------------------------------------------------------

# the last one searches one move per node from ply 2 on, except where a four or an open three is answered
ENGINES = ["mtdf", "pvs", "negamax,top=10", "mtdf,vcf=0,leafvcf=0", "mtdf,taper=5,topmin=1", "mtdf,accept=8",
           "mtdf,threads=2"]


def _mv(state, names):
    return {state.parse_move(t) for t in names.split()}


@pytest.mark.parametrize("spec", ENGINES)
def test_never_misses_a_win_in_one(spec):
    g = load_game("gomoku")
    s = g.state_from_text("h8 a1 h9 a3 h10 a5 h11 c2")  # black h8-h11, open at both ends
    r = make_engine(g, spec).search(s, Limits(depth=4))
    assert r.best_move in _mv(s, "h12 h7")
    assert r.score.is_mate and r.score.value == 1


@pytest.mark.parametrize("spec", ENGINES)
def test_always_stops_a_four(spec):
    g = load_game("gomoku")
    # white has g7 h7 i7 j7 blocked by black f7; black has a nice shape but no four
    s = g.state_from_text("f7 g7 h9 h7 i10 i7 b2 j7")
    r = make_engine(g, spec).search(s, Limits(depth=4))
    assert r.best_move == s.parse_move("k7")


@pytest.mark.parametrize("spec", ENGINES)
def test_blocks_an_open_three(spec):
    g = load_game("gomoku")
    # white has an open three h9 i9 j9; black has scattered stones and no threat
    s = g.state_from_text("h8 h9 e5 i9 l12 j9")
    assert s.current_player == 0
    r = make_engine(g, spec).search(s, Limits(depth=4))
    assert r.best_move in _mv(s, "g9 k9 f9 l9")
    assert not (r.score.is_mate and r.score.value < 0)


@pytest.mark.parametrize("spec", ENGINES)
def test_makes_its_own_four_before_blocking_a_three(spec):
    g = load_game("gomoku")
    # both have open threes; black to move wins by making an open four
    s = g.state_from_text("h8 h10 i8 i10 j8 j10")
    r = make_engine(g, spec).search(s, Limits(depth=4))
    assert r.best_move in _mv(s, "g8 k8")
    assert r.score.is_mate and r.score.value > 0


VCF_POSITIONS = [
    "h8 f7 e10 f5 e5 h9 g8 i8 f9 h7 e4 g7 i7 j9 g6 f4 f6 e6 d7 j6 g10 e8 f10 k10 l11 h10",
    "h8 i11 g9 e9 j11 f7 f10 e11 i7 j6 h6 e10 e8 e12 e13 g8 g5 j8 h7 h9 h4 h5 e6 f11 g10 g12 h13",
    "h8 e6 f7 j6 h5 j5 g6 i4 e8 d9 h7 h4 h6 h9 j7 i7 g4 k8 i5 g7 f3 i6 f5 i8",
]


def _check_vcf_line(state, line):
    """Replay ``line`` with the rules alone: every attacker move but the last threatens exactly one five,
    every defender move is that block, and the attacker ends with five (or an unstoppable four)."""
    s = state.copy()
    attacker = s.current_player
    for i, m in enumerate(line):
        assert s.is_legal(m)
        s.play(m)
        if s.is_terminal():
            assert s.returns()[attacker] == 1 and i == len(line) - 1
            return
        if i % 2 == 0:
            threats = []
            for c in s.legal_moves():
                t = s.copy()
                t._count += 1  # the attacker to move again
                t.play(c)
                if t.winner == attacker + 1:
                    threats.append(c)
            assert threats, "every attacker move must threaten five"
            if i + 1 < len(line):
                assert line[i + 1] in threats and len(threats) == 1
            else:
                assert len(threats) >= 2  # the line ends on a double threat
                return
    raise AssertionError("the line does not end the game")


@pytest.mark.parametrize("text", VCF_POSITIONS)
def test_vcf_finds_and_proves_forced_wins(text):
    g = load_game("gomoku")
    s = g.state_from_text(text)
    e = make_engine(g, "mtdf")
    line = e.solve_vcf(s)
    assert line and len(line) >= 9
    _check_vcf_line(s, line)
    infos = []
    r = e.search(s, Limits(depth=6), on_info=infos.append)
    assert r.score.is_mate and r.score.value > 0 and r.score.value >= len(line) - 2
    _check_vcf_line(s, list(r.pv))


def test_vcf_respects_renju_forbidden_points():
    g = load_game("gomoku(rule=renju)")
    # black's only four-making continuation would be a double four at h8 (forbidden): no VCF through it
    s = g.state_from_text("e8 a1 f8 a3 g8 a5 h9 a7 h10 a9 h11 a11")
    h8 = s.parse_move("h8")
    assert h8 in s.forbidden_moves()
    line = make_engine(g, "mtdf").solve_vcf(s)
    assert line is None or line[0] != h8
    r = make_engine(g, "mtdf").search(s, Limits(depth=3))
    assert r.best_move not in s.forbidden_moves()


def test_reports_a_forced_loss():
    g = load_game("gomoku")
    # white to move faces black's open four h8-h11 after a blunder: any move loses
    s = g.state_from_text("h8 a1 h9 a3 h10 a5 h11")
    r = make_engine(g, "pvs").search(s, Limits(depth=3))
    assert r.score.is_mate and r.score.value < 0


def test_multipv_and_infos_per_depth():
    g = load_game("gomoku")
    s = g.state_from_text("h8 i9 h9 i10")
    infos = []
    r = make_engine(g, "pvs,top=8").search(s, Limits(depth=3, multipv=3), on_info=infos.append)
    assert [i.depth for i in infos if i.multipv == 1] == [1, 2, 3]
    last = [i for i in infos if i.depth == 3]
    assert sorted(i.multipv for i in last) == [1, 2, 3]
    assert len({i.pv[0] for i in last}) == 3
    first = next(i for i in last if i.multipv == 1)
    assert r.best_move == first.pv[0]
    assert first.score.sort_key() >= max(i.score.sort_key() for i in last)


def test_stop_flag_ends_an_infinite_search():
    g = load_game("gomoku")
    s = g.state_from_text("h8 i9 h9 i10 g7 j8")
    e = make_engine(g, "pvs")
    stop = new_stop_flag()
    box = {}
    t = threading.Thread(target=lambda: box.setdefault("r", e.search(s, Limits(infinite=True), stop)))
    t.start()
    t.join(0.3)
    stop[0] = 1
    t.join(30)
    assert not t.is_alive()
    assert box["r"].best_move in s.legal_moves()


def test_engine_specs_and_options():
    g = load_game("gomoku")
    e = make_engine(g, "mtdf,top=10,hash=64")
    assert e.top == 10 and e.algo == "mtdf"
    assert make_engine(g, "").algo == "mtdf"
    assert make_engine(g, "pvs").top == 0
    infos = []
    s = g.state_from_text("h8 i9 h9 i10")
    make_engine(g, "pvs,top=8,step=2").search(s, Limits(depth=4), on_info=infos.append)
    assert [i.depth for i in infos] == [2, 4]
    for bad in ("mtdf,top=-1", "mtdf,hash=0", "mtdf,colour=1", "nosuch", "pvs,step=3"):
        with pytest.raises(InvalidOptionError):
            make_engine(g, bad)


def test_opening_and_terminal():
    g = load_game("gomoku")
    r = make_engine(g, "").search(g.new_state(), Limits(depth=3))
    assert r.best_move == g.new_state().parse_move("h8")
    done = g.state_from_text("a1 a2 b1 b2 c1 c2 d1 d2 e1")
    assert make_engine(g, "").search(done, Limits(depth=3)).best_move is None


@pytest.mark.parametrize("text", VCT_POSITIONS)
def test_vct_wins_hold_against_a_real_defence(text):
    g = load_game("gomoku")
    s = g.state_from_text(text)
    attacker = s.current_player
    e = make_engine(g, "mtdf")
    assert e.solve_vcf(s) is None
    line = e.solve_vct(s)
    assert line and len(line) >= 7
    # a first root VCT slice as large as the solver's finds it at once
    r = make_engine(g, "mtdf,vctnodes=30000").search(s, Limits(depth=4))
    assert r.score.is_mate and r.score.value > 0 and r.best_move == line[0]
    # the default engine's slices (4000 nodes, doubling while they use at most a third of the search) too
    r = make_engine(g, "mtdf").search(s, Limits(depth=12))
    assert r.score.is_mate and r.score.value > 0
    defender = make_engine(g, "pvs,vct=0")
    while not s.is_terminal():
        if s.current_player == attacker:
            move = (e.solve_vcf(s) or e.solve_vct(s) or [None])[0]
            assert move is not None, f"the claimed win evaporated at {s.to_text()!r}"
        else:
            move = defender.search(s, Limits(depth=4)).best_move
        s.play(move)
    assert s.returns()[attacker] == 1


def test_vct_is_not_claimed_when_the_defender_has_a_free_move():
    g = load_game("gomoku")
    s = g.state_from_text("h8 a1 i9 a15")  # two stones: nothing forced
    assert make_engine(g, "mtdf").solve_vct(s) is None


def test_wide_widens_the_plies_near_the_root():
    g = load_game("gomoku")
    s = g.state_from_text("h8 g10 f8 f9 h11 g8 h7 h9 g9 i10 j11 f10 h10 i11 f7 e7")

    def run(spec):
        r = make_engine(g, spec + ",vct=0,vcf=0").search(s, Limits(depth=4))
        return r.nodes, r.pv

    narrow = run("pvs,top=6")
    # as wide as ``top`` (or no plies) changes nothing; wide at every ply is a wider ``top``
    assert run("pvs,top=6,wide=6,wideply=4") == narrow
    assert run("pvs,top=6,wide=12,wideply=0") == narrow
    assert run("pvs,top=6,wide=12,wideply=9") == run("pvs,top=12")
    # the root alone wider: more than the narrow tree, less than the wide one
    assert narrow[0] < run("pvs,top=6,wide=12,wideply=1")[0] < run("pvs,top=12")[0]
    e = make_engine(g, "mtdf,wide=20,wideply=2")
    assert (e.wide, e.wideply) == (20, 2)
    # the default: mtdf's root searches 20 moves, the other algorithms' roots as the rest of the tree
    assert (make_engine(g, "mtdf").wide, make_engine(g, "mtdf").wideply) == (20, 1)
    assert (make_engine(g, "pvs").wide, make_engine(g, "pvs").wideply) == (0, 0)
    for bad in ("mtdf,wide=-1", "mtdf,wideply=x"):
        with pytest.raises(InvalidOptionError):
            make_engine(g, bad)

@pytest.mark.parametrize("text", ["h8 j8 e9 i11 h5 k7 h6 h7 g7 i5", "h8 j8 j10 j11 f10 e9 g9 e11"])
def test_vct_inside_the_tree_reports_the_mate_and_its_line(text):
    g = load_game("gomoku")
    s = g.state_from_text(text)
    attacker = s.current_player
    # no threat search at the root: only the tree's VCT (at plies 1 and 2) can see the win at depth 4
    r = make_engine(g, "mtdf,vcf=0,vctnodes=0").search(s, Limits(depth=4))
    assert r.score.is_mate and r.score.value > 0
    assert len(r.pv) >= 7 and attacker_wins_after(s, list(r.pv), attacker)
    blind = make_engine(g, "mtdf,vcf=0,vctnodes=0,treevct=0").search(s, Limits(depth=4))
    assert not blind.score.is_mate


def test_mtdf_deepens_by_two_and_keeps_the_parity_asked_for():
    g = load_game("gomoku")
    s = g.state_from_text("h8 i9 h9 i10 g7 j8")
    for depth, expected in ((4, [2, 4]), (5, [1, 3, 5])):
        infos = []
        r = make_engine(g, "mtdf").search(s, Limits(depth=depth), on_info=infos.append)
        assert [i.depth for i in infos] == expected and r.depth == depth
    infos = []
    make_engine(g, "mtdf,step=1").search(s, Limits(depth=3), on_info=infos.append)
    assert [i.depth for i in infos] == [1, 2, 3]


def test_new_options_are_checked():
    g = load_game("gomoku")
    e = make_engine(g, "mtdf,grain=8,lmr=0,treevct=1,treevctnodes=500")
    assert (e.grain, e.lmr, e.treevct, e.treevctnodes) == (8, 0, 1, 500)
    assert make_engine(g, "mtdf,pure=true").grain_for_search == 0
    for bad in ("mtdf,grain=-1", "mtdf,lmr=x", "mtdf,treevct=-2", "mtdf,treevctnodes=1.5"):
        with pytest.raises(InvalidOptionError):
            make_engine(g, bad)


def test_taper_narrows_the_tree_deeper_down():
    g = load_game("gomoku")
    s = g.state_from_text("h8 g10 f8 f9 h11 g8 h7 h9 g9 i10 j11 f10 h10 i11 f7 e7")

    def run(spec):  # the hand-set weights: with others, ply 2's narrower tree can cut less well
        e = make_engine(g, spec + ",weights=classic")
        r = e.search(s, Limits(depth=6))
        return r.nodes, r.pv

    full = run("pvs,top=10,vct=0,vcf=0")
    narrow = run("pvs,top=10,vct=0,vcf=0,taper=3,topmin=1")
    assert narrow[0] < full[0] // 2
    # a floor at the full width changes nothing, wherever the taper starts
    assert run("pvs,top=10,vct=0,vcf=0,taper=3,topmin=10") == full
    assert run("pvs,top=10,vct=0,vcf=0,taper=1,topmin=1,taperfrom=9") == full
    # starting the taper at ply 2 narrows less, but still
    assert run("pvs,top=10,vct=0,vcf=0,taper=3,topmin=1,taperfrom=2")[0] < full[0]


@pytest.mark.parametrize("text", ["h8 j8 e9 i11 h5 k7 h6 h7 g7 i5", "h8 j8 j10 j11 f10 e9 g9 e11"])
def test_a_narrow_tree_still_proves_the_vct_mates(text):
    g = load_game("gomoku")
    s = g.state_from_text(text)
    attacker = s.current_player
    r = make_engine(g, "mtdf,vcf=0,vctnodes=0,taper=5,topmin=1").search(s, Limits(depth=4))
    assert r.score.is_mate and r.score.value > 0
    assert attacker_wins_after(s, list(r.pv), attacker)


def test_taper_options_are_checked():
    g = load_game("gomoku")
    e = make_engine(g, "mtdf,taper=2,topmin=4,taperfrom=3")
    assert (e.taper, e.topmin, e.taperfrom) == (2, 4, 3)
    for bad in ("mtdf,taper=-1", "mtdf,topmin=x", "mtdf,taperfrom=1.5"):
        with pytest.raises(InvalidOptionError):
            make_engine(g, bad)


def test_one_sided_mtdf_ends_each_depth_at_its_first_fail_high():
    g = load_game("gomoku")
    s = g.state_from_text("h8 g10 f8 f9 h11 g8 h7 h9 g9 i10 j11 f10 h10 i11 f7 e7")
    exact = make_engine(g, "mtdf")
    one = make_engine(g, "mtdf,accept=8")
    assert one.accept == 8 and exact.accept == 0
    re_ = exact.search(s, Limits(depth=6))
    ro = one.search(s, Limits(depth=6))
    # every depth takes one pass when its first test holds, never more passes than bracketing needs
    assert all(n >= 1 for n in one.last_passes.values())
    assert sum(one.last_passes.values()) < sum(exact.last_passes.values())
    assert ro.nodes < re_.nodes
    assert s.is_legal(ro.best_move) and ro.pv and ro.pv[0] == ro.best_move
    # from depth 6 on only: the shallower depths search exactly like the default
    late = make_engine(g, "mtdf,accept=8,acceptfrom=6")
    fresh = make_engine(g, "mtdf")
    assert late.search(s, Limits(depth=4)).nodes == fresh.search(s, Limits(depth=4)).nodes
    assert late.last_passes == fresh.last_passes
    for bad in ("mtdf,accept=-1", "mtdf,acceptfrom=x"):
        with pytest.raises(InvalidOptionError):
            make_engine(g, bad)


def test_weight_options_at_their_defaults_search_the_same_tree():
    game = load_game("gomoku(size=11)")
    state = game.state_from_text("f6 g7 e7 f8 g6")
    explicit = ",".join(f"w_{n}={int(K.WEIGHTS[i])}" for i, n in enumerate(K.WEIGHT_NAMES) if i)
    results = [make_engine(game, spec).search(state, Limits(depth=6))
               for spec in ("mtdf,hash=1", f"mtdf,hash=1,weights=classic,{explicit}")]
    assert [(r.best_move, r.score, r.pv, r.nodes) for r in results[:1]] == \
        [(r.best_move, r.score, r.pv, r.nodes) for r in results[1:]]
    changed = make_engine(game, "mtdf,hash=1,w_f3=200,w_b4=30").search(state, Limits(depth=6))
    assert (changed.score, changed.nodes) != (results[0].score, results[0].nodes)


def test_weight_options_change_the_evaluation_as_the_reference():
    game = load_game("gomoku(size=9)")
    state = game.state_from_text("e5 f6 e6 e4 d5 c6")
    board = [int(v) for v in state.board]
    engine = make_engine(game, "mtdf,w_f2=33,w_b3=7,w_43=900")
    w = K.WEIGHTS.copy()
    w[K.WEIGHT_NAMES.index("f2")], w[K.WEIGHT_NAMES.index("b3")], w[K.WEIGHT_NAMES.index("43")] = 33, 7, 900
    assert list(engine.weights) == list(w)
    pos = Position(game, state.board, weights=engine.weights)
    assert pos.evaluate() == evaluate_ref(board, 9, game.rule_id, w) != evaluate_ref(board, 9, game.rule_id)


def test_tempo_weighs_the_side_to_move_as_the_reference():
    game = load_game("gomoku(size=9)")
    state = game.state_from_text("e5 f6 e6 e4 d5 c6 d4")
    board = [int(v) for v in state.board]
    assert make_engine(game, "mtdf").tempo == 20
    for tempo in (16, 20, 23):
        e = make_engine(game, f"mtdf,tempo={tempo}")
        pos = Position(game, state.board, weights=e.weights, tempo=e.tempo)
        assert pos.evaluate() == evaluate_ref(board, 9, game.rule_id, tempo=tempo)
    assert evaluate_ref(board, 9, game.rule_id, tempo=16) != evaluate_ref(board, 9, game.rule_id)
    with pytest.raises(InvalidOptionError):
        make_engine(game, "mtdf,tempo=-1")


@pytest.mark.parametrize("spec", ["mtdf,w_f3=-1", "mtdf,w_f3=1e9", "mtdf,w_none=3", "mtdf,weights=nosuch"])
def test_bad_weight_options_are_refused(spec):
    with pytest.raises(InvalidOptionError):
        make_engine(load_game("gomoku"), spec)


def test_bad_weights_given_to_the_engine_directly_are_refused():
    game = load_game("gomoku")
    with pytest.raises(InvalidOptionError, match="no evaluation weight 'none'"):
        GomokuEngine(game, w_none=3)
    with pytest.raises(InvalidOptionError, match="'nosuch'"):
        GomokuEngine(game, weights="nosuch")
    with pytest.raises(InvalidOptionError, match="no option 'colour'"):
        GomokuEngine(game, colour=3)


def test_a_weight_preset_is_its_weights_and_options_change_it():
    from gamesuite.games.gomoku.engine import WEIGHT_PRESETS
    game = load_game("gomoku")
    for name, changes in WEIGHT_PRESETS.items():
        spec = ",".join(f"w_{k}={v}" for k, v in changes.items())
        assert list(make_engine(game, f"mtdf,weights={name}").weights) == \
            list(make_engine(game, f"mtdf,{spec}" if spec else "mtdf").weights)
    w = make_engine(game, "mtdf,weights=classic,w_f3=77").weights
    assert w[K.WEIGHT_NAMES.index("f3")] == 77
    assert w[K.WEIGHT_NAMES.index("f4")] == WEIGHT_PRESETS["classic"]["f4"]
