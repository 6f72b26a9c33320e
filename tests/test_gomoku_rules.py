"""Gomoku rules: notation, position text, wins under each rule, renju forbidden points, records."""

import random

import numpy as np
import pytest

from gamesuite.core import (
    IllegalMoveError,
    InvalidGameSpecError,
    InvalidMoveError,
    InvalidPositionError,
    InvalidRecordError,
    load_game,
)
from gamesuite.games.gomoku import load_psq, load_record, renju, save_record


def setup(black: str, white: str, spec: str = "gomoku(rule=renju)"):
    """A state from lists of black and white cells (via a diagram)."""
    g = load_game(spec)
    rows = [["."] * g.width for _ in range(g.height)]
    for stones, ch in ((black, "x"), (white, "o")):
        for t in stones.split():
            r, c = divmod(g.parse_cell(t), g.width)
            rows[r][c] = ch
    return g.state_from_text("/".join("".join(r) for r in rows))


def cells(state, names: str) -> list[int]:
    return [state.parse_move(t) for t in names.split()]


def test_notation_and_contract():
    g = load_game("gomoku")
    s = g.new_state()
    assert (g.width, g.height) == (15, 15)
    assert s.parse_move("h8") == 7 * 15 + 7
    assert s.parse_move("a1") == 14 * 15
    assert s.parse_move("o15") == 14
    assert s.format_move(0) == "a15"
    assert g.player_name(0) == "Black" and g.player_name(1) == "White"
    assert s.board.dtype == np.int8 and s.board.shape == (225,)
    assert s.last_move is None and s.winning_line() == [] and s.forbidden_moves() == []
    big = load_game("gomoku(size=26)").new_state()
    assert big.format_move(25) == "z26" and big.parse_move("z1") == 25 * 26 + 25
    for bad in ("p1", "a16", "a0", "h", "88", "hh8"):
        with pytest.raises(InvalidMoveError) as e:
            s.parse_move(bad)
        assert repr(bad) in str(e.value)


@pytest.mark.parametrize("spec", ["gomoku(size=4)", "gomoku(size=27)", "gomoku(rule=caro)", "gomoku(colour=1)"])
def test_bad_specs(spec):
    with pytest.raises(InvalidGameSpecError):
        load_game(spec)


def test_move_list_text_round_trip_and_errors():
    g = load_game("gomoku")
    s = g.state_from_text("h8 i9 h9")
    assert s.to_text() == "h8 i9 h9" and s.current_player == 1 and s.last_move == s.parse_move("h9")
    assert s.board[s.parse_move("i9")] == 2
    assert g.state_from_text("").to_text() == ""
    for bad in ("h8 h8", "h8 z9", "h8 i9 qq"):
        with pytest.raises(InvalidPositionError) as e:
            g.state_from_text(bad)
        assert repr(bad) in str(e.value)


def test_diagram_text():
    s = setup("h8 h9", "a1 b1", "gomoku")
    again = load_game("gomoku").state_from_text(s.diagram())
    assert again.key == s.key and again.canonical_text() == s.canonical_text()
    assert again.current_player == 0
    with pytest.raises(InvalidPositionError, match="black moves first"):
        setup("h8", "a1 b1", "gomoku")
    with pytest.raises(InvalidPositionError):
        load_game("gomoku").state_from_text("x.o/...")


def test_five_wins_and_line():
    g = load_game("gomoku")
    s = g.state_from_text("a1 a2 b1 b2 c1 c2 d1 d2")
    assert not s.is_terminal()
    s.play_text("e1")
    assert s.is_terminal() and s.returns() == [1.0, -1.0] and s.result_text() == "Black wins"
    assert sorted(s.winning_line()) == sorted(cells(s, "a1 b1 c1 d1 e1"))
    with pytest.raises(IllegalMoveError, match="over"):
        s.play_text("f1")
    s.undo()
    assert not s.is_terminal() and s.winning_line() == []


@pytest.mark.parametrize("rule,black_wins,white_wins", [
    ("freestyle", True, True), ("standard", False, False), ("renju", None, True),
])
def test_overline(rule, black_wins, white_wins):
    # Black: a1 b1 c1 e1 f1, then d1 makes six.
    b = setup("a1 b1 c1 e1 f1", "a3 b3 c3 e3 f3", f"gomoku(rule={rule})")
    d1 = b.parse_move("d1")
    if black_wins is None:
        assert d1 in b.forbidden_moves() and not b.is_legal(d1)
    else:
        b.play(d1)
        assert (b.winner == 1) == black_wins
    w = setup("a1 b1 c1 e1 f1 h8", "a3 b3 c3 e3 f3", f"gomoku(rule={rule})")
    w.play(w.parse_move("d3"))
    assert (w.winner == 2) == white_wins


def test_full_board_is_a_draw():
    g = load_game("gomoku(size=5)")
    # columns alternate in pairs so nobody gets five in any line
    order = []
    s = g.new_state()
    pattern = ["xxoox", "ooxxo", "xxoox", "ooxxo", "xxoox"]
    blacks = [r * 5 + c for r in range(5) for c in range(5) if pattern[r][c] == "x"]
    whites = [r * 5 + c for r in range(5) for c in range(5) if pattern[r][c] == "o"]
    for i in range(12):
        order += [blacks[i], whites[i]]
    order.append(blacks[12])
    for m in order:
        s.play_checked(m)
    assert s.is_terminal() and s.returns() == [0.0, 0.0] and s.result_text() == "draw"


# -- renju --------------------------------------------------------------

FAR_WHITE = "a1 a3 a5 a7 a9 a11 a13 a15"


def _white(n):
    return " ".join(FAR_WHITE.split()[:n])


def test_double_three_is_forbidden():
    s = setup("g8 h8 i10 i9", _white(4))
    assert s.parse_move("i8") in s.forbidden_moves()
    with pytest.raises(IllegalMoveError, match="forbidden"):
        s.play_text("i8")
    # the same shape for white is fine
    w = setup("g8 h8 i10 i9 o1", _white(4))
    assert w.forbidden_moves() == [] and w.is_legal(w.parse_move("i8"))


def test_blocked_three_is_not_a_three():
    s = setup("g8 h8 i10 i9", _white(3) + " f8")
    assert s.parse_move("i8") not in s.forbidden_moves()


def test_three_at_the_edge_is_not_a_three():
    # a8 b8 c8 would need d8 to become four, but the four a8-d8 has no open end on the left
    s = setup("a9 b9 c10 c11", "o1 o3 o5 o7")
    assert s.parse_move("c9") not in s.forbidden_moves()  # a9 b9 c9 is bound by the edge
    s2 = setup("b9 c9 d10 d11", "o1 o3 o5 o7")
    assert s2.parse_move("d9") in s2.forbidden_moves()


def test_three_whose_straight_four_would_be_an_overline_is_not_a_three():
    # c8 . . f8 g8 [h8] . . k8: every four made from f8 g8 h8 touches an overline on one side
    s = setup("c8 f8 g8 k8 h9 h10", _white(6))
    assert s.parse_move("h8") not in s.forbidden_moves()
    t = setup("f8 g8 h9 h10", _white(4))   # without c8 and k8 it is a double three
    assert t.parse_move("h8") in t.forbidden_moves()


def test_three_completed_only_on_a_forbidden_point_is_not_a_three():
    # h10 makes the vertical h8 h9 h10 and the horizontal f10 g10 h10. The vertical can only become
    # a straight four on h11 or h7, and the stones around make both of them double-threes (forbidden),
    # so the vertical is no three and h10 is legal; without those stones h10 is a double three.
    black = "h8 h9 f10 g10 f11 g11 g12 f13 f7 g7 g6 f5"
    s = setup(black, "a1 a3 a5 a7 a9 a11 a13 a15 o1 o3 o5 o7")
    b = [int(v) for v in s.board]
    h11, h7, h10 = cells(s, "h11 h7 h10")
    b[h10] = 1
    assert renju.is_forbidden_ref(b, 15, h11) and renju.is_forbidden_ref(b, 15, h7)
    b[h10] = 0
    assert h10 not in s.forbidden_moves()
    assert h10 not in renju.forbidden_points_ref(s.board, 15)
    assert h11 in s.forbidden_moves() and h7 in s.forbidden_moves()
    plain = setup("h8 h9 f10 g10", "a1 a3 a5 a7")
    assert h10 in plain.forbidden_moves()


def test_double_four_and_four_three():
    s = setup("e8 f8 g8 h9 h10 h11", _white(6))
    assert s.parse_move("h8") in s.forbidden_moves()
    t = setup("e8 f8 g8 h9 h10", _white(5))  # 4-3 is allowed
    assert t.parse_move("h8") not in t.forbidden_moves()
    u = setup("b8 c8 d8 h8 i8 j8", _white(6))   # x x x . [f8] . x x x: two fours in one line
    assert u.parse_move("f8") in u.forbidden_moves()


def test_five_beats_forbidden():
    # d1 makes exactly five on the row and also a double four elsewhere: it wins
    s = setup("a1 b1 c1 e1 d2 d3 d4 c2 e2 f3", "o1 o3 o5 o7 o9 o11 o13 o15 m15 k15")
    d1 = s.parse_move("d1")
    assert d1 not in s.forbidden_moves()
    s.play(d1)
    assert s.winner == 1


def test_forbidden_kernel_matches_reference_on_random_boards():
    rng = random.Random(7)
    for trial in range(60):
        size = 9
        board = np.zeros(size * size, dtype=np.int8)
        n = rng.randrange(10, 40)
        cells_ = rng.sample(range(size * size), n)
        for c in cells_:
            board[c] = 1 if rng.random() < 0.62 else 2
        assert renju.forbidden_points(board, size) == renju.forbidden_points_ref(board, size), trial


def test_renju_game_refuses_forbidden_moves_in_legal_moves():
    s = setup("g8 h8 i10 i9", _white(4))
    assert s.parse_move("i8") not in s.legal_moves()
    assert len(s.legal_moves()) == 225 - 8 - len(s.forbidden_moves())


# -- records ------------------------------------------------------------

def test_record_round_trip():
    g = load_game("gomoku(size=15,rule=renju)")
    s = g.state_from_text("h8 i9 h9 i10 h10 i11 h11 i12 h12")
    text = save_record(s, {"Black": 'Ann "the" one', "White": "gamesuite"})
    assert '[Game "gomoku(size=15,rule=renju)"]' in text and '[Result "1-0"]' in text
    rec = load_record(text)
    assert rec.state.history == s.history and rec.headers["Black"] == 'Ann "the" one'
    assert rec.game == g and rec.state.winner == 1


@pytest.mark.parametrize("text", [
    "1. h8 i9",  # no Game header
    '[Game "tictactoe"]\n1. b2',
    '[Game "gomoku"]\n1. h8 h8',
    '[Game "gomoku"]\n1. h8 zz9',
    '[Game gomoku]\n1. h8',
])
def test_bad_records(text):
    with pytest.raises(InvalidRecordError):
        load_record(text)


def test_psq_import():
    psq = "Piskvorky 20x20, 11:11, 0\n10,10,0\n11,10,531\n10,11,0\n-1\npbrain-a.exe\n"
    rec = load_psq(psq)
    s = rec.state
    assert s.game.size == 20 and len(s.history) == 3
    assert s.format_move(s.history[0]) == "j11"  # x=10 from the left, y=10 from the top of 20 rows
    assert s.board[s.history[1]] == 2
    with pytest.raises(InvalidRecordError):
        load_psq("Piskvorky 20x20, 11:11, 0\n10,10,0\n10,10,0\n")
    with pytest.raises(InvalidRecordError):
        load_psq("Gomoku 20x20\n1,1\n")


def test_the_sets_of_match_openings_are_distinct():
    """``gomoku_openings_s16.txt`` (the ninth session's fresh openings, 68) and ``gomoku_openings_s17.txt`` (the
    thirteenth session's, 100) hold openings of three stones, none equal by a symmetry of the board to another
    one of its set or of an earlier set, except one position that the first two share: the ninth session's rule
    kept the order of the stones, and ``j9 e7 e5`` is ``k5 k7 f9`` with the black stones played the other way."""
    from pathlib import Path

    from gamesuite.arena.openings import load_openings
    from tests.benchmarks.gomoku_openings import SIZE, _canonical

    g = load_game("gomoku")
    data = Path(__file__).parent / "data"
    sets = [load_openings(data / name, g) for name in
            ("gomoku_openings.txt", "gomoku_openings_s16.txt", "gomoku_openings_s17.txt")]
    assert [len(x) for x in sets] == [100, 68, 100]
    assert all(len((o.start or "").split()) == 3 for x in sets for o in x)

    def canonical(text: str) -> tuple:  # the generator's own rule for "equal by symmetry"
        return _canonical([divmod(g.parse_cell(m), SIZE) for m in text.split()])

    keys = [[canonical(o.start or "") for o in x] for x in sets]
    assert all(len(set(k)) == len(k) for k in keys)
    assert set(keys[0]) & set(keys[1]) == {canonical("j9 e7 e5")} == {canonical("k5 k7 f9")}
    assert not set(keys[2]) & (set(keys[0]) | set(keys[1]))
