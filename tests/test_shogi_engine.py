"""The shogi engine: evaluation and keys against references, the search against plain minimax, mates."""

import random

import numpy as np
import pytest

from gamesuite.core import Limits, load_game, make_engine, new_stop_flag
from gamesuite.core.score import WIN
from gamesuite.games.shogi import search as S
from gamesuite.games.shogi.board import PAWN
from gamesuite.games.shogi.engine import ShogiEngine, _Searcher
from gamesuite.games.shogi.evaluation import (
    E_SIZE,
    default_weights,
    evaluate_reference,
    hand_values,
    load_weights,
    piece_values,
)
from gamesuite.search.reference import minimax


def _random_states(spec, count, seed, max_plies=60):
    rng = random.Random(seed)
    game = load_game(spec)
    out = []
    while len(out) < count:
        s = game.new_state()
        for _ in range(rng.randrange(2, max_plies)):
            if s.is_terminal():
                break
            s.play(rng.choice(s.legal_moves()))
        if not s.is_terminal():
            out.append(s)
    return out


def _kernel_eval(s, ew):
    from gamesuite.games.shogi.board import SLIDE_MASK
    from gamesuite.games.shogi.evaluation import _evaluate

    g = s.g
    return _evaluate(s.board, s.hands, s.kings, np.int64(s.color), g.geo, g.sq2p, g.rel, g.pfile, g.dirs, SLIDE_MASK,
                     ew)


@pytest.mark.parametrize("spec", ["shogi", "shogi(variant=mini)"])
@pytest.mark.parametrize("weights", ["default", "material", "loaded", "random"])
def test_evaluation_kernel_matches_reference(spec, weights):
    rng = np.random.default_rng(4)
    for s in _random_states(spec, 40, 3):
        g = s.g
        ew = {"default": default_weights(g), "material": default_weights(g, positional=False),
              "loaded": load_weights(g), "random": rng.integers(-300, 300, E_SIZE).astype(np.int32)}[weights]
        assert _kernel_eval(s, ew) == evaluate_reference(g, s.board, s.hands, s.color, ew), s.sfen()


def test_the_evaluation_cache_gives_the_evaluation():
    # a cache of 4 slots: positions share slots and replace each other; every answer, hit or miss, is the
    # reference's, and a position read back from its slot is a hit
    from gamesuite.games.shogi.board import SLIDE_MASK

    ec = np.zeros((4, 2), dtype=np.int64)
    states = _random_states("shogi", 30, 11)
    hits = 0
    for s in states + states[::-1]:
        g = s.g
        key = np.uint64(s.key)
        slot = int(key & np.uint64(3))
        was = ec[slot, 0] == np.int64(key)
        v = S._static_eval(s.board, s.hands, s.kings, np.int64(s.color), key, g.geo, g.sq2p, g.rel, g.pfile, g.dirs,
                           SLIDE_MASK, load_weights(g), ec)
        assert v == evaluate_reference(g, s.board, s.hands, s.color, load_weights(g)), s.sfen()
        assert ec[slot, 0] == np.int64(key) and ec[slot, 1] == v
        hits += bool(was)
    assert hits >= 1  # the last position of the list, again at once


@pytest.mark.parametrize("spec", ["shogi", "shogi(variant=mini)"])
def test_the_evaluation_is_the_weights_of_the_features(spec):
    from gamesuite.games.shogi.board import SLIDE_MASK
    from gamesuite.games.shogi.evaluation import MAX_FEATURES, _features

    rng = np.random.default_rng(5)
    ew = rng.integers(-300, 300, E_SIZE).astype(np.int32)
    idx = np.zeros(MAX_FEATURES, dtype=np.int64)
    coef = np.zeros(MAX_FEATURES, dtype=np.int64)
    for s in _random_states(spec, 40, 8, max_plies=150):
        g = s.g
        n = _features(s.board, s.hands, s.kings, np.int64(s.color), g.geo, g.sq2p, g.rel, g.pfile, g.dirs,
                      SLIDE_MASK, idx, coef)
        sente = int((ew[idx[:n]].astype(np.int64) * coef[:n]).sum())
        assert sente == (1 if s.color == 0 else -1) * _kernel_eval(s, ew)


def _mirror_sfen(sfen):
    """The position of ``sfen`` mirrored left to right (files 1..9 -> 9..1)."""
    import re

    board, rest = sfen.split(" ", 1)
    rows = ["".join(reversed(re.findall(r"\+?[A-Za-z]|\d+", row))) for row in board.split("/")]
    return "/".join(rows) + " " + rest


def _kpa_weights(g, rng, on=True):
    """The loaded weights with random KPA tables, on or off."""
    from gamesuite.games.shogi.evaluation import E_KPA, E_KPA_ON

    ew = load_weights(g)
    ew[E_KPA:] = rng.integers(-300, 300, E_SIZE - E_KPA)
    ew[E_KPA_ON] = 1 if on else 0
    return ew


@pytest.mark.parametrize("spec", ["shogi", "shogi(variant=mini)"])
def test_the_kpa_tables_kernel_reference_and_features_agree(spec):
    # with the tables on: kernel == reference == the features' dot product; off: the value without them
    from gamesuite.games.shogi.board import SLIDE_MASK
    from gamesuite.games.shogi.evaluation import E_KPA, E_KPA_ON, MAX_FEATURES, _features

    rng = np.random.default_rng(7)
    idx = np.zeros(MAX_FEATURES, dtype=np.int64)
    coef = np.zeros(MAX_FEATURES, dtype=np.int64)
    g = load_game(spec).geometry
    on, off = _kpa_weights(g, rng), _kpa_weights(g, rng, on=False)
    bare = off.copy()
    bare[E_KPA:] = 0
    for s in _random_states(spec, 40, 9, max_plies=150):
        sgn = 1 if s.color == 0 else -1
        n = _features(s.board, s.hands, s.kings, np.int64(s.color), g.geo, g.sq2p, g.rel, g.pfile, g.dirs,
                      SLIDE_MASK, idx, coef)
        assert E_KPA_ON not in idx[:n] and np.count_nonzero(idx[:n] >= E_KPA) > 0
        v = _kernel_eval(s, on)
        assert v == evaluate_reference(g, s.board, s.hands, s.color, on), s.sfen()
        assert sgn * v == int((on[idx[:n]].astype(np.int64) * coef[:n]).sum()), s.sfen()
        w = _kernel_eval(s, off)
        assert w == evaluate_reference(g, s.board, s.hands, s.color, off) == _kernel_eval(s, bare), s.sfen()
        assert sgn * w == int((bare[idx[:n]].astype(np.int64) * coef[:n]).sum())


@pytest.mark.parametrize("spec", ["shogi", "shogi(variant=mini)"])
def test_the_kpa_tables_fold_the_board_on_the_kings_file(spec):
    # KPA weights alone: a position and its mirror image are worth the same when no king is on the middle file
    from gamesuite.games.shogi.evaluation import E_KPA, E_KPA_ON, kpa_index

    rng = np.random.default_rng(8)
    game = load_game(spec)
    g = game.geometry
    ew = np.zeros(E_SIZE, dtype=np.int32)
    ew[E_KPA:] = rng.integers(-300, 300, E_SIZE - E_KPA)
    ew[E_KPA_ON] = 1
    checked = 0
    for s in _random_states(spec, 60, 10, max_plies=150):
        m = game.state_from_text(_mirror_sfen(s.sfen()))
        if all(k >= 0 and g.pfile[k] != g.files // 2 for k in s.kings):
            assert _kernel_eval(s, ew) == _kernel_eval(m, ew), s.sfen()
            checked += 1
    assert checked >= 10
    # the index: the king's square and the piece's, folded together onto the king's left half
    assert kpa_index(9, 1, 7, 7, 5, 6, 8) == kpa_index(9, 1, 7, 1, 5, 6, 0) == \
        E_KPA + ((1 * 45 + 7 * 5 + 1) * 16 + 5) * 81 + 6 * 9 + 0
    assert kpa_index(5, 0, 4, 2, 3, 1, 4) == E_KPA + ((0 * 45 + 4 * 3 + 2) * 16 + 3) * 81 + 1 * 5 + 4


def test_weights_of_the_old_layout_load_with_the_kpa_tables_off(tmp_path):
    from gamesuite.core.errors import InvalidOptionError
    from gamesuite.games.shogi.evaluation import E_KPA_ON, E_SIZE_V1, WEIGHTS_FILE

    g = load_game("shogi").geometry
    with np.load(WEIGHTS_FILE) as z:
        shipped = z["standard"]
    assert shipped.shape == (E_SIZE_V1,)  # the package's weights are of the old layout: the tables stay off
    ew = load_weights(g)
    assert ew.shape == (E_SIZE,) and np.array_equal(ew[:E_SIZE_V1], shipped) and not ew[E_SIZE_V1:].any()
    rng = np.random.default_rng(9)
    old = rng.integers(-300, 300, E_SIZE_V1).astype(np.int32)
    new = rng.integers(-300, 300, E_SIZE).astype(np.int32)
    np.savez(tmp_path / "old.npz", standard=old)
    np.savez(tmp_path / "new.npz", standard=new)
    np.savez(tmp_path / "bad.npz", standard=new[:-1])
    got = load_weights(g, path=tmp_path / "old.npz")
    assert np.array_equal(got[:E_SIZE_V1], old) and not got[E_SIZE_V1:].any() and got[E_KPA_ON] == 0
    assert np.array_equal(load_weights(g, path=tmp_path / "new.npz"), new)
    with pytest.raises(InvalidOptionError, match="no standard weights"):
        load_weights(g, path=tmp_path / "bad.npz")


def test_king_safety_prefers_a_castle():
    game = load_game("shogi")
    castle = game.state_from_text("4k4/9/9/9/9/9/9/1SG6/1K7 b - 1")  # Sente king with gold and silver beside it
    bare = game.state_from_text("4k4/9/9/9/9/9/9/9/1K2G1S2 b - 1")  # the same pieces, away from the king
    g = castle.g
    for ew in (default_weights(g), load_weights(g)):
        flat = default_weights(g, positional=False)
        on = [evaluate_reference(g, x.board, x.hands, 0, ew) for x in (castle, bare)]
        off = [evaluate_reference(g, x.board, x.hands, 0, flat) for x in (castle, bare)]
        assert on[0] - on[1] > off[0] - off[1]


def test_hand_pieces_are_worth_more_than_on_the_board():
    assert all(hand_values()[t] == piece_values()[t] * 130 // 100 for t in range(1, 8))
    ew = load_weights(load_game("shogi").geometry)
    assert all(hand_values(ew)[t] > 0 and piece_values(ew)[t] > 0 for t in range(1, 8))


@pytest.mark.parametrize("spec", ["shogi", "shogi(variant=mini)"])
def test_key_kernel_matches_the_state(spec):
    zs = None
    for s in _random_states(spec, 20, 5):
        g = s.g
        zs = np.array([g.zob_side], dtype=np.uint64)
        for m in s.legal_moves()[:40]:
            k = S._key_after(s.board, s.hands, np.int64(s.color), np.int64(m), np.uint64(s.key), np.int64(g.N),
                             g.sq2p, g.zob_board, g.zob_hand, zs)
            s.play(m)
            assert int(k) == s.key
            s.undo()
    assert zs is not None


def _plain_engine(game, **kw):
    opts = dict(quiesce=False, nullmove=False, lmr=False, extensions=False, aspiration=False, prune=False,
                mate1=False, singular=False, unpromoted=True, hash=1)
    opts.update(kw)
    return ShogiEngine(game, **opts)


def _assert_deepening_equals_minimax(game, states, depths, **options):
    """One searcher per state (``_plain_engine`` with ``options``), deepening through ``depths`` so that the TT
    carries over as in a real search: each iteration's value is minimax's and its PV starts with a legal move."""
    for s in states:
        searcher = _Searcher(_plain_engine(game, **options), s, 0)
        for d in depths:
            it = searcher.iterate(d, new_stop_flag(), [])
            assert it is not None
            assert it.value == minimax(s, depth=d, evaluate=_ref_eval), (s.sfen(), d)
            assert it.pv and it.pv[0] in s.legal_moves()


def test_aspiration_windows_keep_the_value():
    game = load_game("shogi(variant=mini)")
    for s in _random_states("shogi(variant=mini)", 3, 23, max_plies=30):
        plain = _Searcher(_plain_engine(game), s, 0)
        windowed = _Searcher(_plain_engine(game, aspiration=True), s, 0)
        for d in range(1, 6):
            a = plain.iterate(d, new_stop_flag(), [])
            b = windowed.iterate(d, new_stop_flag(), [])
            assert a.value == b.value, (s.sfen(), d)
            assert b.pv and b.pv[0] in s.legal_moves()


def _ref_eval(state, pov):
    v = evaluate_reference(state.g, state.board, state.hands, state.color, load_weights(state.g))
    return v if state.color == pov else -v


@pytest.mark.parametrize("spec,depths,count", [("shogi(variant=mini)", (1, 2, 3), 4), ("shogi", (1, 2), 3)])
def test_search_equals_minimax(spec, depths, count):
    _assert_deepening_equals_minimax(load_game(spec), _random_states(spec, count, 11, max_plies=30), depths)


@pytest.mark.parametrize("spec,depths,count", [("shogi(variant=mini)", (1, 2, 3), 4), ("shogi", (1, 2), 3)])
def test_search_with_quiet_promotions_equals_minimax(spec, depths, count):
    # ordering the promotions other than a pawn's among the quiet moves changes the order only: with the
    # pruning and the reductions off the values are minimax's
    _assert_deepening_equals_minimax(load_game(spec), _random_states(spec, count, 12, max_plies=60), depths,
                                     quiet_promotions=True)


@pytest.mark.parametrize("spec,depths,count", [("shogi(variant=mini)", (1, 2, 3), 4), ("shogi", (1, 2), 3)])
def test_search_with_escape_and_threat_equals_minimax(spec, depths, count):
    # the two options only spare moves from the pruning and the reductions, and escape_order changes the order
    # only: with those off the values are minimax's (the en-prise test runs on every late quiet move and in
    # the ordering, and must leave the board as it found it)
    states = _random_states(spec, count, 12, max_plies=60)  # (the quiet_promotions test's positions)
    _assert_deepening_equals_minimax(load_game(spec), states, depths, escape=True, threat=True,
                                     escape_order=True)


@pytest.mark.parametrize("options", ["escape=true", "threat=true", "escape=true,threat=true,spare_r=2",
                                     "escape_order=true", "see_promotions=true"])
def test_escape_and_threat_in_the_full_search(options):
    # with everything on (the null move gives ``threat`` its square): legal moves, the position left as found
    game = load_game("shogi")
    for s in _random_states("shogi", 3, 14, max_plies=60):
        before = s.to_text()
        e = make_engine(game, "alphabeta," + options)
        r = e.search(s, Limits(depth=6))
        assert r.best_move in s.legal_moves()
        assert s.to_text() == before


class _TooBig(Exception):
    pass


def _ref_quiesce(state, ply, budget, pawn_promotions=False, checks=False, qdepth=0, recapture=0, last=-1):
    """Plain quiescence: every move in check, else the captures (and, with ``pawn_promotions``, the pawn
    promotions that capture nothing; with ``checks``, at ``qdepth`` 0 the other moves that give check;
    with ``recapture`` N > 0, from ``qdepth`` -N on only the moves onto ``last``, the last move's square)."""
    budget[0] -= 1
    if budget[0] < 0:
        raise _TooBig
    moves = state._moves()
    in_check = state.in_check()
    if not moves and in_check:
        return -(WIN - ply)
    best = -WIN - 1 if in_check else _ref_eval(state, state.color)
    g = state.g
    for m in moves:
        frm, to = m >> 8, (m >> 1) & 127
        capture = frm < g.N and state.board[g.sq2p[to]] != 0
        push = (pawn_promotions and not capture and frm < g.N and m & 1
                and state.board[g.sq2p[frm]] & 15 == PAWN)
        if not in_check and recapture > 0 and qdepth <= -recapture and to != last:
            continue
        quiet = not (in_check or capture or push)
        if quiet and not (checks and qdepth == 0):
            continue
        state.play(m)
        if not quiet or state.in_check():
            best = max(best, -_ref_quiesce(state, ply + 1, budget, pawn_promotions, checks, qdepth - 1, recapture,
                                           to))
        state.undo()
    return best


@pytest.mark.parametrize("spec,qpromote,qchecks,qrecapture,count", [
    ("shogi(variant=mini)", False, False, 0, 8), ("shogi(variant=mini)", True, False, 0, 8),
    ("shogi(variant=mini)", False, True, 0, 4), ("shogi(variant=mini)", True, True, 1, 8),
    # the full board (lances, knights, three-rank promotion zones): one position in the default run, eight
    # under ``slow`` (about 35 s of plain-Python reference search)
    ("shogi", True, False, 0, 1), pytest.param("shogi", True, False, 0, 8, marks=pytest.mark.slow),
    pytest.param("shogi", True, True, 0, 8, marks=pytest.mark.slow),
    pytest.param("shogi", True, True, 2, 8, marks=pytest.mark.slow)])
def test_quiescence_equals_a_plain_capture_search(spec, qpromote, qchecks, qrecapture, count):
    game = load_game(spec)
    checked = 0
    for s in _random_states(spec, 60, 17, max_plies=20 if "mini" in spec else 90):
        if checked == count:
            break
        budget = [3000]  # the plain search has no pruning; positions where it explodes are skipped
        try:
            want = max(_ref_q_child(s, m, budget, qpromote, qchecks, qrecapture) for m in s.legal_moves())
        except _TooBig:
            continue
        engine = _plain_engine(game, quiesce=True, qpromote=qpromote, qchecks=qchecks, qrecapture=qrecapture)
        it = _Searcher(engine, s, 0).iterate(1, new_stop_flag(), [])
        assert it.value == want, s.sfen()
        checked += 1
    assert checked == count


def test_the_quiescence_pawn_promotions_are_the_legal_ones():
    # ``_pawn_promotions`` against the legal moves: the pawn promotions that capture nothing, exactly
    from gamesuite.games.shogi.board import SLIDE_MASK, STEP_MASK
    from gamesuite.games.shogi.kernels import MAX_MOVES

    found = 0
    for spec in ("shogi", "shogi(variant=mini)"):
        for s in _random_states(spec, 80, 5, max_plies=120):
            if s.in_check():
                continue
            g = s.g
            buf = np.zeros(MAX_MOVES, dtype=np.int32)
            board = s.board.copy()
            n = S._pawn_promotions(board, s.kings.copy(), np.int64(s.color), g.geo, g.sq2p, g.p2sq, g.rel, g.dirs,
                                   STEP_MASK, SLIDE_MASK, buf, np.int64(0))
            assert (board == s.board).all()
            want = sorted(m for m in s.legal_moves() if m & 1 and m >> 8 < g.N
                          and s.board[g.sq2p[(m >> 1) & 127]] == 0 and s.board[g.sq2p[m >> 8]] & 15 == PAWN)
            assert sorted(int(m) for m in buf[:n]) == want, s.sfen()
            found += n
    assert found > 5


def test_the_quiescence_checks_are_the_quiet_checking_moves():
    # ``_quiet_checks`` against the legal moves: every move or drop that captures nothing and gives check
    # (discovered checks too), less the pawn promotions when those are added apart; the board left as found
    from gamesuite.games.shogi.board import SLIDE_MASK, STEP_MASK
    from gamesuite.games.shogi.kernels import MAX_MOVES, SCRATCH

    found = discovered = 0
    for spec in ("shogi", "shogi(variant=mini)"):
        for s in _random_states(spec, 80, 6, max_plies=120):
            if s.in_check():
                continue
            g = s.g
            for promotions in (0, 1):
                buf = np.zeros(MAX_MOVES, dtype=np.int32)
                work = np.zeros(MAX_MOVES, dtype=np.int32)
                scratch = np.zeros(SCRATCH, dtype=np.int64)
                board, hands, kings = s.board.copy(), s.hands.copy(), s.kings.copy()
                n = S._quiet_checks(board, hands, kings, np.int64(s.color), g.geo, g.sq2p, g.p2sq, g.rel, g.pfile,
                                    g.dirs, STEP_MASK, SLIDE_MASK, g.tab, buf, np.int64(0), work, scratch,
                                    np.int64(promotions))
                assert (board == s.board).all() and (hands == s.hands).all() and (kings == s.kings).all()
                want = []
                for m in s.legal_moves():
                    frm = m >> 8
                    if frm < g.N and s.board[g.sq2p[(m >> 1) & 127]] != 0:
                        continue
                    if promotions and frm < g.N and m & 1 and s.board[g.sq2p[frm]] & 15 == PAWN:
                        continue
                    s.play(m)
                    if s.in_check():
                        want.append(m)
                        s.undo()
                        discovered += not S._direct_check(s.board, np.int64(m), np.int64(s.color), s.kings, g.N,
                                                          g.sq2p, g.dirs, STEP_MASK, SLIDE_MASK, g.geo[2])
                    else:
                        s.undo()
                assert sorted(int(m) for m in buf[:n]) == sorted(want), s.sfen()
                found += n
    assert found > 20 and discovered > 0


def _ref_q_child(s, m, budget, pawn_promotions=False, checks=False, recapture=0):
    s.play(m)
    v = -_ref_quiesce(s, 1, budget, pawn_promotions, checks, 0, recapture, (m >> 1) & 127)
    s.undo()
    return v


def _mates_in_one(s):
    out = []
    for m in s.legal_moves():
        s.play(m)
        if s.is_terminal() and s.returns()[1 - s.color] == 1.0:
            out.append(m)
        s.undo()
    return out


@pytest.mark.parametrize("sfen,mate_plies", [
    ("4k4/9/4P4/9/9/9/9/9/4K4 b G 1", 1),  # G*5b
    ("8k/9/9/9/9/9/9/9/4K4 b 2G 1", 3),  # G*2c K-2a G*2b
    ("8k/9/9/9/9/9/9/9/4K4 b RB 1", 5),
])
def test_engine_finds_mates(sfen, mate_plies):
    game = load_game("shogi")
    s = game.state_from_text(sfen)
    # the pruned search needs a few plies more than the mate's length to see it (the mate in 5 needs depth 11
    # with the correction history, 10 without it)
    r = make_engine(game, "alphabeta,hash=4").search(s, Limits(depth=mate_plies + 6))
    assert r.score.is_mate and r.score.value == mate_plies, (r.score, s.format_line(r.pv))
    line = s.copy()
    for m in r.pv[:mate_plies]:
        line.play_checked(m)
    assert line.is_terminal() and line.returns() == [1.0, -1.0]
    if mate_plies == 3:  # check the claim exhaustively: no mate in 1, and every defence allows one
        assert not _mates_in_one(s)
        s.play(r.pv[0])
        for reply in s.legal_moves():
            s.play(reply)
            assert _mates_in_one(s), s.format_move(reply)
            s.undo()


def test_engine_multipv_and_node_limit():
    game = load_game("shogi")
    engine = make_engine(game, "alphabeta,hash=4")
    r = engine.search(game.new_state(), Limits(depth=3, multipv=3))
    assert len(r.lines) == 3 and len({li.pv[0] for li in r.lines}) == 3
    r2 = engine.search(game.new_state(), Limits(nodes=3000))
    assert r2.best_move in game.new_state().legal_moves()


def test_engine_plays_a_legal_minishogi_game():
    game = load_game("shogi(variant=mini)")
    engine = make_engine(game, "alphabeta,hash=2")
    s = game.new_state()
    for _ in range(40):
        if s.is_terminal():
            break
        r = engine.search(s, Limits(depth=2))
        s.play_checked(r.best_move)
    assert len(s.history) > 0


def test_see_promotions_keeps_losing_promotions_from_crowding_out_the_quiet_moves():
    # after 1a2b the rook's three promotions on the first file lose it to the king; ordered before the quiet
    # moves (the default), they use up late-move pruning's count at depth 1, no quiet move is searched, and a
    # depth-2 search calls the mated side nearly five pieces up; see_promotions orders them after the quiet moves
    game = load_game("shogi")
    s = game.state_from_text("6snk/6p2/9/9/9/9/9/9/4K4 b RBG 1")
    s.play(s.parse_move("R*1d"))
    # (the search without the option is fooled, which shows the position exercises it; both play the hand-set
    # weights, which do not change when the shipped ones are fitted anew; should a change of the search mend
    # the default, drop that case or find a position it still fails on)
    for spec, fooled in (("alphabeta,hash=4,weights=default", True),
                         ("alphabeta,hash=4,weights=default,see_promotions=true", False)):
        r = make_engine(game, spec).search(s.copy(), Limits(depth=2))
        white = r.score if r.score.pov == 1 else r.score.flipped()  # the mated side's view
        lost = white.value < 0 if white.is_mate else white.value < -500
        assert lost != fooled, (spec, r.score, s.format_line(r.pv))


def test_escape_order_searches_the_retreat_of_an_attacked_rook():
    # after 7h7g the silver attacks the rook on 8f: in the default's depth-4 tree the rook's retreats came
    # after seven other quiet moves at ply 1, late-move pruning dropped them, and the search expected to
    # win the rook (+23); the ordering puts them first among the quiet moves
    game = load_game("shogi")
    s = game.state_from_text("lns1ggsnl/4k4/2ppp1bp1/p4pp1p/9/1rP3P1P/P2PPP1P1/1BGKGSR2/LNS4NL b Pp 25")
    # (as above: the hand-set weights, fooled without the option; the nineteenth session's fitted weights see
    # only +3 here without it, the unpruned search +0.07)
    for spec, fooled in (("alphabeta,hash=4,weights=default", True),
                         ("alphabeta,hash=4,weights=default,escape_order=true", False)):
        r = make_engine(game, spec).search(s.copy(), Limits(depth=4))
        assert (r.score.kind == "eval" and r.score.value > 1000) == fooled, (spec, r.score, s.format_line(r.pv))


def test_engine_reports_the_mate_search_mate_with_a_forced_line():
    from gamesuite.games.shogi.mate import is_forced_mate

    game = load_game("shogi")
    s = game.state_from_text("5l2k/9/4s4/3+R5/9/9/9/9/K8 b GP 1")  # mate in 7 by checks, beyond depth 2
    infos = []
    r = make_engine(game, "alphabeta,hash=4").search(s, Limits(depth=2), on_info=infos.append)
    assert r.score.is_mate and r.score.value == 7 and r.score.pov == 0
    assert is_forced_mate(s, r.pv, 7)
    assert infos[-1].score == r.score and infos[-1].pv == r.pv
    off = make_engine(game, "alphabeta,hash=4,mate=0").search(s, Limits(depth=2))
    assert not off.score.is_mate
    with pytest.raises(ValueError):
        make_engine(game, "alphabeta,mate=-1")


def test_engine_keeps_a_shorter_quiet_mate_of_the_alpha_beta_search():
    game = load_game("shogi")
    s = game.state_from_text("6g1k/5G2p/7P1/9/9/9/9/9/K8 b 2SR 1")  # checks mate in 9, a quiet move in 3
    r = make_engine(game, "alphabeta,hash=4").search(s, Limits(depth=6))
    assert r.score.is_mate and r.score.value == 3
    line = s.copy()
    for m in r.pv[:3]:
        line.play_checked(m)
    assert line.is_terminal() and line.returns() == [1.0, -1.0]


def test_analyse_command_shows_the_mate():
    import subprocess
    import sys

    r = subprocess.run([sys.executable, "-m", "gamesuite", "analyse", "shogi", "--position",
                        "5l2k/9/4s4/3+R5/9/9/9/9/K8 b GP 1", "--depth", "2"], capture_output=True, text=True,
                       timeout=120, check=False)
    assert r.returncode == 0, r.stderr
    assert "score win in 4" in r.stdout and r.stdout.strip().splitlines()[-1] == "bestmove 6d1d score win in 4"


@pytest.mark.parametrize("sfen", [None, "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1"])
def test_multipv_gives_distinct_legal_lines_with_non_increasing_scores(sfen):
    game = load_game("shogi")
    s = game.new_state() if sfen is None else game.state_from_text(sfen)
    infos = []
    r = make_engine(game, "alphabeta,hash=4,mate=0").search(s, Limits(depth=4, multipv=3), on_info=infos.append)
    assert [li.multipv for li in r.lines] == [1, 2, 3]
    assert len({li.pv[0] for li in r.lines}) == 3
    values = [li.score.for_player(s.color).value for li in r.lines]
    assert values == sorted(values, reverse=True), values
    for li in r.lines:
        line = s.copy()
        for m in li.pv:
            line.play_checked(m)
    assert r.best_move == r.lines[0].pv[0]
    assert {i.multipv for i in infos if i.depth == 4} == {1, 2, 3}


def test_selective_root_deepens_the_best_move_and_keeps_every_move_above_the_minimum():
    from gamesuite.games.shogi.engine import SELECTIVE_GAP

    game = load_game("shogi(variant=mini)")
    for s in _random_states("shogi(variant=mini)", 3, 29, max_plies=20):
        searcher = _Searcher(_plain_engine(game, root="selective"), s, 0)
        for d in range(1, 5):
            it = searcher.iterate(d, new_stop_flag(), [])
            best = it.pv[0]
            depth, value, line = searcher.sel[best]
            assert depth == d and value == it.value and line == it.pv
            assert all(searcher.sel[m][0] >= max(1, d - SELECTIVE_GAP) for m in s.legal_moves())
            assert all(searcher.sel[m][1] <= value for m in s.legal_moves())
            # the settled move's value is that of plain minimax on its own subtree
            child = s.copy()
            child.play(best)
            assert value == -minimax(child, depth=d - 1, evaluate=_ref_eval), (s.sfen(), d)
            replay = s.copy()
            for m in line:
                replay.play_checked(m)


def test_selective_root_plays_under_a_time_limit_and_streams_infos():
    game = load_game("shogi")
    s = game.new_state()
    infos = []
    engine = make_engine(game, "alphabeta,hash=4,root=selective")
    r = engine.search(s, Limits(movetime=300), on_info=infos.append)
    assert r.best_move in s.legal_moves() and infos and infos[-1].pv[0] == r.best_move
    r = engine.search(s, Limits(depth=3, multipv=2))
    assert len({li.pv[0] for li in r.lines}) == 2
    with pytest.raises(ValueError):
        make_engine(game, "alphabeta,root=sideways")


def test_search_scores_perpetual_check_as_a_loss_and_other_repetitions_as_draws():
    game = load_game("shogi")
    s = game.state_from_text("3k5/9/9/9/9/9/9/9/K3R4 b - 1")
    for m in ("5i6i", "6a5a", "6i5i", "5a6a"):  # Sente checks with every move; the start comes back
        s.play_text(m)
    again = s.parse_move("5i6i")
    others = [m for m in s.legal_moves() if m != again]
    searcher = _Searcher(_plain_engine(game), s, 0)
    assert searcher.iterate(1, new_stop_flag(), others).value == -(WIN - 1)  # checking on: the checker loses
    s.undo()  # Gote to move, in check: stepping back into the cycle makes Sente the perpetual checker
    back = s.parse_move("5a6a")
    others = [m for m in s.legal_moves() if m != back]
    assert _Searcher(_plain_engine(game), s, 0).iterate(1, new_stop_flag(), others).value == WIN - 1
    # the same cycle without checks (the rook on the 9th rank is no check) is a plain draw
    q = game.state_from_text("3k5/9/9/9/9/9/9/9/K3R4 b - 1")
    for m in ("5i4i", "6a5a", "4i5i", "5a6a"):
        q.play_text(m)
    again = q.parse_move("5i4i")
    others = [m for m in q.legal_moves() if m != again]
    assert _Searcher(_plain_engine(game), q, 0).iterate(1, new_stop_flag(), others).value == 0


def test_opening_book_plays_its_moves_and_reads_its_file(tmp_path):
    import random as _random

    from gamesuite.games.shogi.book import Book

    game = load_game("shogi")
    s = game.new_state()
    book = Book({s.sfen(with_number=False): {"7g7f": (5, 3), "2g2f": (3, 2), "1g1f": (4, 0)}})
    path = tmp_path / "book.txt"
    book.save(path)
    again = Book.load(path)
    assert again.entries == book.entries
    rng = _random.Random(1)
    picks = {s.format_move(again.choose(s, rng)) for _ in range(50)}
    assert picks == {"7g7f", "2g2f"}  # 1g1f never won: not played
    s.play_text("7g7f")
    assert again.choose(s, rng) is None  # out of the book
    engine = make_engine(game, f"alphabeta,hash=1,book={path}")
    r = engine.search(game.new_state(), Limits(depth=3))
    assert game.new_state().format_move(r.best_move) in ("7g7f", "2g2f") and r.lines[0].text == "book"
    path.write_text("startpos | 7g7f x\n", encoding="utf-8")
    with pytest.raises(ValueError, match="line 1"):
        Book.load(path)


def test_the_root_mate_search_time_comes_off_the_byoyomi_when_the_clock_is_empty():
    from gamesuite.games.shogi.engine import _less_time
    from gamesuite.search.timeman import allocate

    byo = _less_time(Limits(time_left=(0, 0), byoyomi=1000), 0, 30)
    assert byo.byoyomi == 970 and byo.time_left == (0, 0) and allocate(byo, 0).per_move
    clock = _less_time(Limits(time_left=(60_000, 60_000), byoyomi=1000), 1, 30)
    assert clock.time_left == (60_000, 59_970) and clock.byoyomi == 1000
    assert _less_time(Limits(movetime=500), 0, 30).movetime == 470


def test_the_weights_option_loads_a_file_and_rejects_a_bad_one(tmp_path):
    from gamesuite.core.errors import InvalidOptionError

    g = load_game("shogi")
    ew = default_weights(g.geometry)
    ew[1] += 37  # a pawn worth a little more: the file's weights, not the defaults, must come back
    path = tmp_path / "w.npz"
    np.savez(path, standard=ew)
    assert np.array_equal(load_weights(g.geometry, path=str(path)), ew)
    e = make_engine(g, f"alphabeta,weights={path}")
    assert np.array_equal(e.ew, ew)
    assert np.array_equal(load_weights(g.geometry, path="default"), default_weights(g.geometry))
    with pytest.raises(InvalidOptionError, match="nothere.npz"):
        make_engine(g, f"alphabeta,weights={tmp_path / 'nothere.npz'}")
    np.savez(tmp_path / "mini.npz", mini=ew)
    with pytest.raises(InvalidOptionError, match="no standard weights"):
        load_weights(g.geometry, path=str(tmp_path / "mini.npz"))
    (tmp_path / "cut.npz").write_bytes(path.read_bytes()[:3000])  # cut short: an error, not a BadZipFile
    with pytest.raises(InvalidOptionError, match="cannot read evaluation weights .*cut.npz.*cut short"):
        make_engine(g, f"alphabeta,weights={tmp_path / 'cut.npz'}")


def test_the_hand_bonus_option_sets_the_worth_of_pieces_in_hand():
    from gamesuite.core.errors import InvalidOptionError
    from gamesuite.games.shogi.evaluation import E_HAND, E_VAL, with_hand_bonus

    g = load_game("shogi")
    ew = default_weights(g.geometry)
    assert np.array_equal(with_hand_bonus(ew, 30), ew)  # the hand-set weights' own bonus
    flat = with_hand_bonus(ew, 0)
    for k in range(1, 8):
        for n in range(20):
            assert flat[E_HAND + k * 20 + n] == n * ew[E_VAL + k]
    assert np.array_equal(np.delete(flat, np.s_[E_HAND:E_HAND + 160]), np.delete(ew, np.s_[E_HAND:E_HAND + 160]))
    e = make_engine(g, "alphabeta,hand_bonus=10")  # over the weights the engine loads (the shipped, tuned ones)
    lw = load_weights(g.geometry)
    assert e.ew[E_HAND + 1 * 20 + 1] == lw[E_VAL + 1] * 110 // 100
    assert hand_values(e.ew)[7] == lw[E_VAL + 7] * 110 // 100  # the search's piece values follow
    assert np.array_equal(make_engine(g, "alphabeta").ew, load_weights(g.geometry))
    with pytest.raises(InvalidOptionError, match="hand_bonus"):
        make_engine(g, "alphabeta,hand_bonus=500")


def test_the_shipped_opening_book_is_legal_and_varies_from_the_start():
    import random as _random

    from gamesuite.games.shogi.book import BOOK_FILE, Book

    game = load_game("shogi")
    book = Book.load(BOOK_FILE)
    assert len(book) > 100
    for sfen, moves in book.entries.items():  # every move of it legal in its position
        s = game.state_from_text(f"sfen {sfen} 1")
        legal = {s.format_move(m) for m in s.legal_moves()}
        assert set(moves) <= legal, (sfen, set(moves) - legal)
    rng = _random.Random(7)
    firsts = {book.choose(game.new_state(), rng) for _ in range(40)}
    assert len(firsts) >= 4  # games from the start position do not repeat
    engine = make_engine(game, "alphabeta,hash=1,book=true")
    r = engine.search(game.new_state(), Limits(depth=3))
    assert r.lines[0].text == "book" and r.best_move in {m for m, _ in book.moves(game.new_state())}
    mini = make_engine(load_game("shogi(variant=mini)"), "alphabeta,hash=1,book=true")
    assert mini.book is None  # the book is of the standard game


# -- ProbCut and the correction history (twelfth session; both off by default) ------------------------------


@pytest.mark.parametrize("spec,depths,count", [("shogi(variant=mini)", (1, 2, 3), 2), ("shogi", (1, 2), 2)])
def test_search_with_probcut_and_correction_history_equals_minimax(spec, depths, count):
    # both act only through the pruning (ProbCut is pruning; the corrected evaluation feeds only the pruning
    # decisions): with that off the values are minimax's while the correction history still learns
    states = _random_states(spec, count, 12, max_plies=60)  # (the quiet_promotions test's positions)
    _assert_deepening_equals_minimax(load_game(spec), states, depths, probcut_margin=50, probcut_depth=1,
                                     corr_weight=100)


@pytest.mark.parametrize("options,common", [
    ("probcut_margin=100,corr_weight=0", ""), ("corr_weight=100", ""), ("probcut_margin=100,corr_weight=50", ""),
    ("q_max=2,corr_weight=0", ""), ("ttcap_r=1,corr_weight=0", ""),  # (fifteenth session)
    # ``se_neg`` (seventeenth session) acts only where a singular search ran and the TT move was not singular:
    # with singular searches from depth 4 (in both engines), a depth-8 search meets such nodes
    ("se_neg=1,corr_weight=0", "se_depth=4,"),
])
def test_probcut_and_correction_history_in_the_full_search(options, common):
    # legal moves, the position left as found, a different tree from the one without the option (the option does
    # something), and the correction history filled only when it is on
    game = load_game("shogi")
    differs = False
    for s in _random_states("shogi", 3, 16, max_plies=60):
        before = s.to_text()
        base = make_engine(game, "alphabeta,mate=0," + common + "corr_weight=0").search(s, Limits(depth=8))
        e = make_engine(game, "alphabeta,mate=0," + common + options)
        r = e.search(s, Limits(depth=8))
        assert r.best_move in s.legal_moves()
        assert s.to_text() == before
        differs |= r.nodes != base.nodes
        assert np.any(e.heur[S.H_CORR:] != 0) == ("corr_weight=0" not in options)
    assert differs


def _ref_pawn_hand_slot(s):
    g = s.g
    k = 0
    for sq in range(g.N):
        v = int(s.board[g.sq2p[sq]])
        if v & 15 == PAWN:
            k ^= int(g.zob_board[g.sq2p[sq], v])
    for c in range(2):
        for kind in range(1, 8):
            k ^= int(g.zob_hand[c, kind, s.hands[c, kind]])
    return k >> (64 - S.CORR_BITS)


@pytest.mark.parametrize("spec", ["shogi", "shogi(variant=mini)"])
def test_pawn_hand_slot_matches_reference(spec):
    slots = set()
    changed = 0
    for s in _random_states(spec, 30, 17, max_plies=120):
        g = s.g
        phk = S._pawn_hand_key(s.board, s.hands, g.N, g.sq2p, g.zob_board, g.zob_hand)
        slot = S._pawn_hand_slot(phk)
        assert slot == _ref_pawn_hand_slot(s), s.sfen()
        assert 0 <= slot < S.CORR_N
        slots.add(slot)
        # the key after each legal move, from the key before it (as the search passes it down), is the key
        # of the position after the move
        for m in s.legal_moves():
            after = S._pawn_hand_key_after(s.board, s.hands, np.int64(s.color), np.int64(m), phk, np.int64(g.N),
                                           g.sq2p, g.zob_board, g.zob_hand)
            s.play(m)
            assert after == S._pawn_hand_key(s.board, s.hands, g.N, g.sq2p, g.zob_board, g.zob_hand), (s.sfen(), m)
            s.undo()
            changed += after != phk
    assert len(slots) > 20  # the positions differ in their pawns or hands, and so mostly in their slots
    assert changed > 100  # pawn moves, drops and captures change the key


def test_correction_update_and_correction_match_reference():
    rng = random.Random(18)
    heur = np.zeros(4, dtype=np.int32)
    ref = [0] * 4
    for _ in range(2000):
        i = rng.randrange(4)
        diff, depth = rng.randrange(-1500, 1500), rng.randrange(1, 30)
        S._corr_update(heur, np.int64(i), np.int64(diff), np.int64(depth))
        d = min(max(diff, -S.CORR_CLAMP), S.CORR_CLAMP)
        ref[i] += (d * S.CORR_GRAIN - ref[i]) * min(depth + 1, 16) // 64
        assert list(heur) == ref
        assert abs(ref[i]) <= S.CORR_CLAMP * S.CORR_GRAIN
        ev, w = rng.randrange(-3000, 3000), rng.randrange(0, 200)
        assert S._corrected(heur, np.int64(i), np.int64(ev), np.int64(w)) == ev + ref[i] * w // (S.CORR_GRAIN * 100)
    # a constant difference is learned as the mean it is
    heur[:] = 0
    for _ in range(200):
        S._corr_update(heur, np.int64(0), np.int64(120), np.int64(10))
    assert S._corrected(heur, np.int64(0), np.int64(0), np.int64(100)) in (119, 120)
