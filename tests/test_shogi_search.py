"""The shogi search's helper kernels against plain-Python references: SEE, mate in one, evasions."""

import random

import numpy as np
import pytest

from gamesuite.core import load_game
from gamesuite.games.shogi import search as S
from gamesuite.games.shogi.board import BLACK_BIT, KING, PAWN, SLIDE_MASK, STEP_MASK
from gamesuite.games.shogi.engine import search_params
from gamesuite.games.shogi.evaluation import hand_values, piece_values
from gamesuite.games.shogi.kernels import MAX_MOVES, SCRATCH
from gamesuite.games.shogi.reference import RefPosition

PRM = search_params(piece_values(), hand_values())


def _positions(spec, count, seed, lo=10, hi=140):
    rng = random.Random(seed)
    game = load_game(spec)
    out = []
    while len(out) < count:
        s = game.new_state()
        for _ in range(rng.randrange(lo, hi)):
            if s.is_terminal():
                break
            s.play(rng.choice(s.legal_moves()))
        if not s.is_terminal():
            out.append(s)
    return out


# -- SEE ---------------------------------------------------------------------------------------------------


def _val(t):
    return int(PRM[S.P_SEEV + t])


def _attackers(pos, sq, color):
    return [rc for rc, (c, _t) in pos.pieces.items() if c == color and sq in pos.targets(*rc)]


def _capture(pos, frm, sq):
    p = RefPosition(pos.g, pos.pieces, pos.hands, pos.color)
    p.pieces[sq] = p.pieces.pop(frm)
    return p


def _see_outcomes(pos, sq, side, on_sq):
    """Every value ``side`` can get by starting the exchange on ``sq`` (or not), over the ways of breaking ties
    between equally valuable least attackers."""
    att = _attackers(pos, sq, side)
    if not att:
        return {0}
    low = min(_val(pos.pieces[a][1]) for a in att)
    out = set()
    for a in att:
        t = pos.pieces[a][1]
        if _val(t) != low:
            continue
        after = _capture(pos, a, sq)
        if t == KING:
            out.add(0 if _attackers(after, sq, 1 - side) else on_sq)
            continue
        for g in _see_outcomes(after, sq, 1 - side, _val(t)):
            out.add(max(0, on_sq - g))
    return out


def _see_reference(state, m, threshold):
    """The set of possible answers of "the exchange started by ``m`` wins at least ``threshold``"."""
    g = state.g
    pos = RefPosition.from_arrays(g, state.board, state.hands, state.color)
    frm, to, promote = m >> 8, (m >> 1) & 127, m & 1
    sq = divmod(to, g.files)
    us = state.color
    if frm >= g.N:
        kind = frm - g.N + 1
        gain, moved = 0, kind
        pos.pieces[sq] = (us, kind)
    else:
        f = divmod(frm, g.files)
        t = pos.pieces[f][1]
        moved = t + 8 if promote else t
        gain = (_val(pos.pieces[sq][1]) if sq in pos.pieces else 0) + (_val(moved) - _val(t) if promote else 0)
        pos.pieces.pop(f)
        pos.pieces[sq] = (us, moved)
    return {gain - x >= threshold for x in _see_outcomes(pos, sq, 1 - us, _val(moved))}


@pytest.mark.parametrize("spec", ["shogi", "shogi(variant=mini)"])
def test_see_matches_the_exchange_minimax(spec):
    rng = random.Random(7)
    scratch = np.zeros(SCRATCH, dtype=np.int64)
    checked = captures = 0
    for s in _positions(spec, 60, 5):
        g = s.g
        moves = s.legal_moves()
        caps = [m for m in moves if (m >> 8) < g.N and s.board[g.sq2p[(m >> 1) & 127]] != 0]
        for m in caps + rng.sample(moves, min(6, len(moves))):
            for thr in (-400, -150, -1, 0, 1, 150, 400):
                want = _see_reference(s, m, thr)
                board = s.board.copy()
                got = S._see_ge(s.board, np.int64(m), np.int64(s.color), np.int64(thr), np.int64(g.N), g.sq2p,
                                g.dirs, STEP_MASK, SLIDE_MASK, np.int64(g.W), PRM, scratch)
                assert (s.board == board).all()
                assert got in want, (s.sfen(), s.format_move(m), thr, got, want)
                checked += 1
            captures += m in caps
    assert checked > 1000 and captures > 50


def test_see_of_simple_exchanges():
    game = load_game("shogi")
    scratch = np.zeros(SCRATCH, dtype=np.int64)

    def see(sfen, move, thr=0):
        s = game.state_from_text(sfen)
        g = s.g
        return bool(S._see_ge(s.board, np.int64(s.parse_move(move)), np.int64(s.color), np.int64(thr),
                              np.int64(g.N), g.sq2p, g.dirs, STEP_MASK, SLIDE_MASK, np.int64(g.W), PRM, scratch))

    # a rook takes a pawn defended by a gold: loses the rook for a pawn
    assert not see("4k4/9/4g4/4p4/9/9/9/4R4/4K4 b - 1", "5h5d")
    # the same pawn undefended: wins it
    assert see("4k4/9/9/4p4/9/9/9/4R4/4K4 b - 1", "5h5d", _val(PAWN))
    # a pawn takes a pawn defended by a gold, backed by the rook behind it (x-ray): even exchange at least
    assert see("4k4/9/4g4/4p4/4P4/9/9/4R4/4K4 b - 1", "5e5d")
    # a drop onto a square the enemy attacks and we do not defend loses the piece
    assert not see("4k4/9/4g4/9/9/9/9/9/4K4 b S 1", "S*5d")
    assert see("4k4/9/4g4/9/9/9/9/9/4K4 b S 1", "S*5d", -_val(4))


def _en_prise_answers(s, index):
    """The possible answers of "the piece of the side to move on square ``index`` is en prise" (the opponent's
    least valuable attacker starts an exchange there that wins at least 1, by the plain exchange minimax, over
    the ways of breaking ties), or None where the least valuable attacker is the king (legal or not, the
    kernel's SEE does not decide that)."""
    from types import SimpleNamespace

    g = s.g
    them = 1 - s.color
    pos = RefPosition.from_arrays(g, s.board, s.hands, s.color)
    sq = divmod(index, g.files)
    att = _attackers(pos, sq, them)
    if not att:
        return {False}
    low = min(_val(pos.pieces[x][1]) for x in att)
    if low == _val(KING):
        return None
    flipped = SimpleNamespace(g=g, board=s.board, hands=s.hands, color=them)
    want: set = set()
    for x in att:
        if _val(pos.pieces[x][1]) == low:
            want |= _see_reference(flipped, (x[0] * g.files + x[1]) * 256 + index * 2, 1)
    return want


@pytest.mark.parametrize("spec", ["shogi", "shogi(variant=mini)"])
def test_en_prise_matches_the_exchange_minimax(spec):
    """``_en_prise`` (the ``escape`` option's test): the opponent's least valuable attacker starts an exchange on
    the piece that wins at least 1, by the plain exchange minimax."""
    scratch = np.zeros(SCRATCH, dtype=np.int64)
    checked = hits = 0
    for s in _positions(spec, 60, 9):
        g = s.g
        pos = RefPosition.from_arrays(g, s.board, s.hands, s.color)
        for sq, (c, t) in list(pos.pieces.items()):
            if c != s.color or t == KING:
                continue
            index = sq[0] * g.files + sq[1]
            board = s.board.copy()
            got = bool(S._en_prise(s.board, np.int64(index), np.int64(s.color), np.int64(g.N), g.sq2p, g.p2sq,
                                   g.dirs, STEP_MASK, SLIDE_MASK, np.int64(g.W), PRM, scratch))
            assert (s.board == board).all()
            want = _en_prise_answers(s, index)
            if want is None:
                continue
            assert got in want, (s.sfen(), sq, got, want)
            checked += 1
            hits += got
    assert checked > (200 if spec == "shogi" else 80) and hits > 10


def test_en_prise_of_simple_positions():
    game = load_game("shogi")
    scratch = np.zeros(SCRATCH, dtype=np.int64)

    def en_prise(sfen, square):
        s = game.state_from_text(sfen)
        g = s.g
        index = s.parse_move(square + "5i")  # (only its origin square is read)
        return bool(S._en_prise(s.board, np.int64(index >> 8), np.int64(s.color), np.int64(g.N), g.sq2p, g.p2sq,
                                g.dirs, STEP_MASK, SLIDE_MASK, np.int64(g.W), PRM, scratch))

    # a silver attacked by a pawn: en prise, defended or not
    assert en_prise("4k4/9/9/9/4p4/4S4/9/9/K8 b - 1", "5f")
    assert en_prise("4k4/9/9/9/4p4/4S4/4G4/9/K8 b - 1", "5f")
    # a pawn attacked by a silver and defended by a gold: not en prise; undefended: en prise
    assert not en_prise("4k4/9/9/4s4/4P4/4G4/9/9/K8 b - 1", "5e")
    assert en_prise("4k4/9/9/4s4/4P4/9/9/9/K8 b - 1", "5e")
    # nobody attacks it
    assert not en_prise("4k4/9/9/9/9/4S4/9/9/K8 b - 1", "5f")


# -- evasions and mate in one -------------------------------------------------------------------------------


@pytest.mark.parametrize("spec", ["shogi", "shogi(variant=mini)"])
def test_has_evasion_agrees_with_the_legal_moves(spec):
    seen = mated = 0
    for s in _positions(spec, 500, 9, lo=60, hi=260):
        checks = []
        for m in s.legal_moves():  # every check of the position (the replies are what is tested)
            s.play(m)
            if s.in_check():
                checks.append(m)
            s.undo()
        for m in checks:
            s.play(m)
            g = s.g
            got = S._has_evasion(s.board, s.hands, s.kings, np.int64(s.color), g.geo, g.rel, g.pfile, g.sq2p,
                                 g.dirs, STEP_MASK, SLIDE_MASK)
            assert got == bool(s.legal_moves()), s.sfen()
            seen += 1
            mated += not got
            s.undo()
    assert seen > 300 and mated > 10


def _attacks(state, frm_rc, target_rc):
    pos = RefPosition.from_arrays(state.g, state.board, state.hands, state.color)
    return target_rc in pos.targets(*frm_rc)


def _contact_mates(s):
    """The legal moves of the side to move that land next to the enemy king (or on a knight's checking
    square) with a piece that attacks the king from there, and mate."""
    g = s.g
    us = s.color
    ek = int(s.kings[1 - us])
    if ek < 0:
        return set()
    kr, kc = divmod(int(g.p2sq[ek]), g.files)
    out = set()
    for m in s.legal_moves():
        to = (m >> 1) & 127
        tr, tc = divmod(to, g.files)
        if max(abs(tr - kr), abs(tc - kc)) > 1 and not (abs(tc - kc) == 1 and tr - kr == (2 if us == 0 else -2)):
            continue
        s.play(m)
        if _attacks(s, (tr, tc), (kr, kc)) and not s.legal_moves():
            out.add(m)
        s.undo()
    return out


@pytest.mark.parametrize("spec", ["shogi", "shogi(variant=mini)"])
def test_mate_in_one_finds_a_contact_mate_exactly_when_there_is_one(spec):
    out = np.zeros(MAX_MOVES, dtype=np.int32)
    scratch = np.zeros(SCRATCH, dtype=np.int64)
    found = empty = 0
    for s in _positions(spec, 1200, 11, lo=60, hi=260):
        if s.in_check():
            continue
        g = s.g
        board = s.board.copy()
        m = S._mate1(s.board, s.hands, s.kings, np.int64(s.color), g.geo, g.sq2p, g.p2sq, g.rel, g.pfile, g.dirs,
                     STEP_MASK, SLIDE_MASK, g.tab, out, scratch)
        assert (s.board == board).all()
        want = _contact_mates(s)
        if want:
            assert m in want, (s.sfen(), [s.format_move(x) for x in want])
            found += 1
        else:
            assert m == -1, (s.sfen(), s.format_move(m))
            empty += 1
    assert found > 15 and empty > 100


def test_mate_in_one_by_drop_and_by_promotion():
    game = load_game("shogi")
    out = np.zeros(MAX_MOVES, dtype=np.int32)
    scratch = np.zeros(SCRATCH, dtype=np.int64)

    def mate1(sfen):
        s = game.state_from_text(sfen)
        g = s.g
        m = S._mate1(s.board, s.hands, s.kings, np.int64(s.color), g.geo, g.sq2p, g.p2sq, g.rel, g.pfile, g.dirs,
                     STEP_MASK, SLIDE_MASK, g.tab, out, scratch)
        return None if m < 0 else s.format_move(m)

    assert mate1("4k4/9/4P4/9/9/9/9/9/4K4 b G 1") == "G*5b"
    assert mate1("4k4/9/4P4/9/9/9/9/9/4K4 b S 1") is None  # a silver on 5b leaves 4b and 6b
    assert mate1("3gkg3/9/4N4/9/9/9/9/9/4K4 b - 1") is None  # the knight can only take a gold
    assert mate1("7gk/7np/9/9/9/9/9/9/4K4 b N 1") == "N*2c"  # the king is boxed in by its own pieces
    assert mate1("7gk/7sp/9/9/9/9/9/9/4K4 b N 1") is None  # the silver takes the knight
    assert mate1("7nk/9/7G1/9/9/9/9/9/4K4 b P 1") is None  # only a pawn-drop mate: illegal
    assert mate1("8k/9/7+R1/9/9/9/9/9/4K4 b G 1") in ("G*1b", "G*2a", "G*2b")
    assert mate1("8k/9/7+R1/9/9/9/9/9/4K4 w G 1") is None  # the other side has nothing to mate with


@pytest.mark.parametrize("spec", ["shogi", "shogi(variant=mini)"])
def test_direct_check_agrees_with_making_the_move(spec):
    checks = 0
    for s in _positions(spec, 150, 13, lo=20, hi=200):
        g = s.g
        us = s.color
        for m in s.legal_moves():
            board = s.board.copy()
            got = S._direct_check(s.board, np.int64(m), np.int64(us), s.kings, np.int64(g.N), g.sq2p, g.dirs,
                                  STEP_MASK, SLIDE_MASK, np.int64(g.W))
            assert (s.board == board).all()
            to = (m >> 1) & 127
            s.play(m)
            ek = int(s.kings[s.color])  # the king of the side now to move
            direct = ek >= 0 and _attacks(s, divmod(to, g.files), divmod(int(g.p2sq[ek]), g.files))
            s.undo()
            assert got == direct, (s.sfen(), s.format_move(m))
            checks += got
    assert checks > 100


@pytest.mark.parametrize("spec", ["shogi", "shogi(variant=mini)"])
def test_pseudo_legal_accepts_the_legal_moves_and_agrees_with_a_plain_check(spec):
    # every legal move passes; any other number passes exactly when it drops a held kind on an empty square
    # or moves a piece of the side to move onto a square without one (the plain-Python rule)
    rng = random.Random(17)
    for s in _positions(spec, 40, 17):
        g = s.g
        us = s.color

        def plain(m, s=s, g=g, us=us):
            frm, to = m >> 8, (m >> 1) & 127
            if m < 0 or to >= g.N or frm >= g.N + 7:
                return False
            target = int(s.board[g.sq2p[to]])
            if frm >= g.N:
                return int(s.hands[us, frm - g.N + 1]) > 0 and target == 0
            piece = int(s.board[g.sq2p[frm]])

            def colour(v):
                return 0 if v & BLACK_BIT else 1

            return piece != 0 and colour(piece) == us and not (target != 0 and colour(target) == us)

        def kernel(m, s=s, g=g, us=us):
            return S._pseudo_legal(s.board, s.hands, np.int64(us), np.int64(m), np.int64(g.N), g.sq2p)

        for m in s.legal_moves():
            assert kernel(m), (s.sfen(), s.format_move(m))
        for _ in range(200):
            m = rng.randrange(-2, (g.N + 8) * 256)
            assert kernel(m) == plain(m), (s.sfen(), m)


@pytest.mark.parametrize("spec", ["shogi", "shogi(variant=mini)"])
def test_drop_unpromoted_removes_exactly_the_pawn_bishop_and_rook_moves_that_could_promote(spec):
    # (and ``_search_moves``, the search's generation, drops them exactly when its switch is on)
    # the plain rule: a legal move of a pawn, bishop or rook that does not promote while the same move
    # promoting is legal too; every other move stays, in the generator's order
    from gamesuite.games.shogi.board import BISHOP, ROOK
    from gamesuite.games.shogi.kernels import _generate

    removed = 0
    for s in _positions(spec, 60, 23):
        g = s.g
        pos = RefPosition.from_arrays(g, s.board, s.hands, s.color)
        buf = np.zeros(MAX_MOVES, dtype=np.int32)
        scratch = np.zeros(SCRATCH, dtype=np.int64)
        n = _generate(s.board.copy(), s.hands.copy(), s.kings.copy(), np.int64(s.color), g.geo, g.sq2p, g.p2sq,
                      g.rel, g.pfile, g.dirs, STEP_MASK, SLIDE_MASK, g.tab, buf, scratch)
        moves = [int(m) for m in buf[:n]]
        assert sorted(moves) == sorted(s.legal_moves())
        legal = set(moves)

        def dominated(m, g=g, pos=pos, legal=legal):
            frm = m >> 8
            return (frm < g.N and not m & 1 and m + 1 in legal
                    and pos.pieces[divmod(frm, g.files)][1] in (PAWN, BISHOP, ROOK))

        k = S._drop_unpromoted(s.board, buf, np.int64(n), np.int64(g.N), g.sq2p)
        assert [int(m) for m in buf[:k]] == [m for m in moves if not dominated(m)], s.sfen()
        removed += n - k
        # the search's own list (generate, then drop with the switch on): the same two lists
        for promote_only, want in ((0, moves), (1, [m for m in moves if not dominated(m)])):
            out = np.zeros(MAX_MOVES, dtype=np.int32)
            board = s.board.copy()
            c = S._search_moves(board, s.hands.copy(), s.kings.copy(), np.int64(s.color), g.geo, g.sq2p, g.p2sq,
                                g.rel, g.pfile, g.dirs, STEP_MASK, SLIDE_MASK, g.tab, out, scratch,
                                np.int64(promote_only))
            assert [int(m) for m in out[:c]] == want, (s.sfen(), promote_only)
            assert np.array_equal(board, s.board)
    assert removed > 20



def test_the_unpromoted_option_leaves_those_moves_out_of_the_root():
    from gamesuite.core import Limits, make_engine
    from gamesuite.games.shogi.engine import _Searcher

    game = load_game("shogi")
    s = game.state_from_text("lnsgkgsnl/1r5b1/pppppp1pp/7P1/9/9/PPPPPPP1P/1B5R1/LNSGKGSNL b - 1")
    plain, promoting = s.parse_move("2d2c"), s.parse_move("2d2c+")
    for spec, kept in (("alphabeta,mate=0,unpromoted=true", True), ("alphabeta,mate=0,unpromoted=false", False),
                       ("alphabeta,mate=0", False)):  # the default skips them (thirteenth session)
        e = make_engine(game, spec)
        e.new_game()
        root = _Searcher(e, s, 0)
        assert (plain in root.gen) == kept and promoting in root.gen
        assert (plain in root.root_moves) == kept and promoting in root.root_moves
        assert e.search(s, Limits(depth=4)).best_move in s.legal_moves()


# -- move ordering: the same order, with less work -----------------------------------------------------------


def _ordering_setup(s, rng, ties):
    """The legal moves of ``s`` in ``buf[1]`` and random history tables (all zero with ``ties``: many equal
    scores), as the search has them at ply 1."""
    g = s.g
    buf = np.zeros((2, MAX_MOVES), dtype=np.int32)
    n = int(S._search_moves(s.board, s.hands, s.kings, np.int64(s.color), g.geo, g.sq2p, g.p2sq, g.rel, g.pfile,
                            g.dirs, STEP_MASK, SLIDE_MASK, g.tab, buf[1], np.zeros(SCRATCH, dtype=np.int64),
                            np.int64(1)))
    heur = np.zeros(S.HEUR_SIZE, dtype=np.int32)
    cont = np.zeros(2 * S.PTS * S.PTS, dtype=np.int16)
    if not ties:
        heur[:S.H_COUNTER] = [rng.randrange(-S.HIST_MAX, S.HIST_MAX) for _ in range(S.H_COUNTER)]
    quiet = [m for m in buf[1, :n] if (m >> 8) >= g.N or s.board[g.sq2p[(m >> 1) & 127]] == 0]
    if quiet:
        heur[S.H_KILLERS + 2] = rng.choice(quiet)
    ss = np.zeros((4, S.SS_FIELDS), dtype=np.int64)
    ss[:, S.SS_PT] = -1
    return buf, n, heur, cont, ss


def _score(s, buf, n, heur, cont, ss, later, see=1):
    g = s.g
    scores = np.zeros((2, MAX_MOVES), dtype=np.int64)
    S._score_moves(s.board, buf, scores, np.int64(1), np.int64(0), np.int64(n), np.int64(s.color), np.int64(-1),
                   np.int64(g.N), g.sq2p, g.dirs, STEP_MASK, SLIDE_MASK, np.int64(g.W), PRM, heur, cont, ss,
                   np.zeros(SCRATCH, dtype=np.int64), np.int64(see), np.int64(0), later, g.p2sq, np.int64(0))
    return scores


def _capture_move(s, m):
    g = s.g
    return (m >> 8) < g.N and s.board[g.sq2p[(m >> 1) & 127]] != 0


def _see_ok(s, m):
    g = s.g
    return S._see_ge(s.board, np.int64(m), np.int64(s.color), np.int64(0), np.int64(g.N), g.sq2p, g.dirs,
                     STEP_MASK, SLIDE_MASK, np.int64(g.W), PRM, np.zeros(SCRATCH, dtype=np.int64))


def _loud(s, m):
    """A capture or a promotion (every promotion is ordered as one by default)."""
    g = s.g
    return ((m >> 8) < g.N and s.board[g.sq2p[(m >> 1) & 127]] != 0) or (m & 1) == 1


def _picked(buf, scores, n, start=0):
    for x in range(start, n):
        S._pick(buf, scores, np.int64(1), np.int64(x), np.int64(n))
    return buf[1, :n].tolist()


@pytest.mark.parametrize("spec", ["shogi", "shogi(variant=mini)"])
@pytest.mark.parametrize("see", [1, 2])
def test_captures_checked_by_see_when_they_come_up_keep_the_order(spec, see):
    # scoring every capture (and with see=2, the see_promotions option, every promotion) by SEE at once, then
    # picking, and checking each by SEE when it is picked give the same order (ties included: no history) and
    # the same final scores
    rng = random.Random(31)
    demoted = promotions = 0
    for i, s in enumerate(_positions(spec, 40, 29)):
        g = s.g
        buf, n, heur, cont, ss = _ordering_setup(s, rng, ties=i % 2 == 0)
        b1 = buf.copy()
        s1 = _score(s, b1, n, heur, cont, ss, False, see)
        want = _picked(b1, s1, n)
        b2 = buf.copy()
        s2 = _score(s, b2, n, heur, cont, ss, True, see)
        for x in range(n):
            S._next_move(s.board, b2, s2, np.int64(1), np.int64(x), np.int64(n), np.int64(s.color), np.int64(see),
                         np.int64(g.N), g.sq2p, g.dirs, STEP_MASK, SLIDE_MASK, np.int64(g.W), PRM,
                         np.zeros(SCRATCH, dtype=np.int64))
        assert b2[1, :n].tolist() == want, s.sfen()
        assert (s2[1, :n] == s1[1, :n]).all()
        bad = [x for x in range(n) if s1[1, x] < S._BAD_CAPTURE // 2]
        demoted += len(bad)
        promotions += sum(1 for x in bad if not _capture_move(s, int(b1[1, x])))
        # exactly the captures (and with see=2 the promotions) that lose by SEE come after the quiet moves
        for x in range(n):
            m = int(b1[1, x])
            if _capture_move(s, m) or (see == 2 and _loud(s, m)):
                assert (x in bad) == (not _see_ok(s, m)), s.format_move(m)
            elif _loud(s, m):
                assert x not in bad, s.format_move(m)
    # losing captures (and promotions) were there to be put back
    assert demoted > 20 and (promotions > 5 if see == 2 else promotions == 0)


@pytest.mark.parametrize("spec", ["shogi", "shogi(variant=mini)"])
def test_escape_order_puts_the_quiet_moves_of_pieces_en_prise_after_the_killers(spec):
    # with escape_order a quiet move of a piece (not a pawn or the king) that stands en prise by the plain
    # exchange minimax is scored in its band (its quiet score plus _ESCAPE, below the killers); every other
    # move keeps the score it has without the option
    rng = random.Random(43)
    moved = checked = 0
    for s in _positions(spec, 40, 47):
        g = s.g
        buf, n, heur, cont, ss = _ordering_setup(s, rng, ties=False)
        plain = _score(s, buf.copy(), n, heur, cont, ss, True)
        scores = np.zeros((2, MAX_MOVES), dtype=np.int64)
        S._score_moves(s.board, buf, scores, np.int64(1), np.int64(0), np.int64(n), np.int64(s.color),
                       np.int64(-1), np.int64(g.N), g.sq2p, g.dirs, STEP_MASK, SLIDE_MASK, np.int64(g.W), PRM, heur,
                       cont, ss, np.zeros(SCRATCH, dtype=np.int64), np.int64(1), np.int64(0), True, g.p2sq,
                       np.int64(1))
        pos = RefPosition.from_arrays(g, s.board, s.hands, s.color)
        for x in range(n):
            m = int(buf[1, x])
            frm = m >> 8
            quiet = not _loud(s, m) and plain[1, x] < S._KILLER
            if not quiet or frm >= g.N or pos.pieces[divmod(frm, g.files)][1] in (PAWN, KING):
                assert scores[1, x] == plain[1, x], s.format_move(m)
                continue
            want = _en_prise_answers(s, frm)
            got = scores[1, x] - plain[1, x]
            assert got in (0, S._ESCAPE), s.format_move(m)
            assert want is None or (got == S._ESCAPE) in want, (s.sfen(), s.format_move(m), want)
            checked += 1
            moved += got == S._ESCAPE
    assert checked > 200 and moved > 20


@pytest.mark.parametrize("spec", ["shogi", "shogi(variant=mini)"])
def test_dropping_the_late_quiet_moves_keeps_the_order_of_the_rest(spec):
    # from any point of the picking, dropping the quiet moves left keeps the other moves in the order that
    # picking all the rest gives them, or gives up (-1) only when two of those have equal scores
    rng = random.Random(37)
    dropped = gave_up = 0
    for i, s in enumerate(_positions(spec, 40, 41)):
        g = s.g
        buf, n, heur, cont, ss = _ordering_setup(s, rng, ties=i % 3 == 0)
        if n < 4:
            continue
        scores = _score(s, buf, n, heur, cont, ss, False)
        start = rng.randrange(1, n)
        _picked(buf, scores, start)  # the first ``start`` moves picked
        excluded = int(buf[1, rng.randrange(start, n)]) if rng.random() < 0.3 else -1
        b_ref, s_ref = buf.copy(), scores.copy()
        rest = _picked(b_ref, s_ref, n, start)[start:]
        kept = [m for m in rest if _loud(s, m)]
        q, c = S._drop_late_quiets(s.board, buf, scores, np.int64(1), np.int64(start), np.int64(n),
                                   np.int64(excluded), np.int64(g.N), g.sq2p, np.int64(0))
        if q < 0:
            ks = [int(s_ref[1, start + rest.index(m)]) for m in kept]
            assert len(set(ks)) < len(ks)  # a tie among the kept moves
            gave_up += 1
            continue
        assert buf[1, start:start + c].tolist() == kept
        assert q == sum(1 for m in rest if not _loud(s, m) and m != excluded)
        dropped += q
    assert dropped > 100 and gave_up >= 1
