"""Shogi and minishogi: rules, SFEN and USI notation, game ends, keys."""

import random

import pytest

from gamesuite.core import IllegalMoveError, InvalidGameSpecError, InvalidMoveError, InvalidPositionError, load_game
from gamesuite.games.shogi.rules import HANDICAPS, MINI_START, STANDARD_START

IMPASSE_28 = "+P+P+P+P+P+P+P+P1/1R2K1B2/9/9/9/9/9/9/8k b 4G4S2N 1"


@pytest.fixture(scope="module")
def shogi():
    return load_game("shogi")


@pytest.fixture(scope="module")
def mini():
    return load_game("shogi(variant=mini)")


def test_start_positions(shogi, mini):
    s = shogi.new_state()
    assert s.to_text() == STANDARD_START and s.current_player == 0 and len(s.legal_moves()) == 30
    m = mini.new_state()
    assert m.to_text() == MINI_START and len(m.legal_moves()) == 14
    assert s.canonical_text() == STANDARD_START[:-2]


def test_usi_moves_round_trip(shogi):
    s = shogi.state_from_text("lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3")
    assert "8h2b+" in [s.format_move(m) for m in s.legal_moves()]
    for text in ("7g7f", "8h2b+", "8h2b", "P*5e", "G*1a"):
        assert s.format_move(s.parse_move(text)) == text
    s.play_text("8h2b+")
    assert s.to_text() == "lnsgkgsnl/1r5+B1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL w B 4"


@pytest.mark.parametrize("bad", ["7g7", "0g7f", "7j7f", "K*5e", "p*5e", "P*0e", "7g7g", "", "7g7f++", "resign"])
def test_bad_usi_moves_quote_the_input(shogi, bad):
    with pytest.raises(InvalidMoveError) as e:
        shogi.new_state().parse_move(bad)
    assert repr(bad) in str(e.value)


def test_moves_off_the_minishogi_board(mini):
    with pytest.raises(InvalidMoveError, match="off the 5x5 board"):
        mini.new_state().parse_move("6e5e")


@pytest.mark.parametrize("bad", [
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1 b - 1",  # 8 ranks
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL x - 1",  # side
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSN b - 1",  # short rank
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNLL b - 1",  # long rank
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNX b - 1",  # unknown piece
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNS+GKGSNL b - 1",  # promoted gold
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b K 1",  # king in hand
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b P 1",  # 19 pawns
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 0",  # move number
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKKSNL b - 1",  # two kings
    "4k4/9/9/9/9/9/9/9/P3K4 b - 1",  # pawn that can never move... is fine for Sente? no: rank i is not last
    "P3k4/9/9/9/9/9/9/9/4K4 b - 1",  # Sente pawn on the last rank
    "4k4/N8/9/9/9/9/9/9/4K4 b - 1",  # Sente knight on rank b
    "4k4/9/9/9/P8/9/P8/9/4K4 b - 1",  # nifu
    "4k4/4R4/9/9/9/9/9/9/4K4 b - 1",  # the side not to move is in check
    "rbsgk/4p/5/P4/KGSBR b L 1",
    "garbage",
])
def test_bad_sfen_quotes_the_input(shogi, mini, bad):
    game = mini if bad.startswith("rbsgk") else shogi
    if bad.startswith("4k4/9/9/9/9/9/9/9/P3K4"):
        game.state_from_text(bad)  # legal: a Sente pawn on its own first rank can move
        return
    with pytest.raises(InvalidPositionError) as e:
        game.state_from_text(bad)
    assert repr(bad) in str(e.value)


def test_sfen_variants_of_input(shogi):
    s = shogi.state_from_text("position startpos moves 7g7f 3c3d")
    assert s.to_text() == "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3"
    t = shogi.state_from_text("sfen " + s.to_text())
    assert t.key == s.key and t.canonical_text() == s.canonical_text()
    with pytest.raises(InvalidPositionError, match="7g7f"):
        shogi.state_from_text("startpos moves 7g7f 7g7f")


def test_hands_in_keys_and_text(shogi):
    a = shogi.state_from_text("4k4/9/9/9/9/9/9/9/4K4 b 2P 1")
    b = shogi.state_from_text("4k4/9/9/9/9/9/9/9/4K4 b P 1")
    c = shogi.state_from_text("4k4/9/9/9/9/9/9/9/4K4 b p 1")
    assert len({a.key, b.key, c.key}) == 3
    assert a.to_text() == "4k4/9/9/9/9/9/9/9/4K4 b 2P 1"
    d = shogi.state_from_text("4k4/9/9/9/9/9/9/9/4K4 b 2p3PbR 7")
    assert d.to_text() == "4k4/9/9/9/9/9/9/9/4K4 b R3Pb2p 7"


def test_drop_rules(shogi):
    # Sente has a pawn, lance and knight in hand and a pawn on file 5
    s = shogi.state_from_text("4k4/9/9/9/9/9/4P4/9/4K4 b PLN 1")
    moves = {s.format_move(m) for m in s.legal_moves()}
    assert "P*5e" not in moves  # nifu
    assert "P*4e" in moves and "P*4a" not in moves and "L*4a" not in moves and "L*4b" in moves
    assert "N*4b" not in moves and "N*4c" in moves
    with pytest.raises(IllegalMoveError, match="nifu"):
        s.play_text("P*5e")
    with pytest.raises(IllegalMoveError, match="never move"):
        s.play_text("N*3b")


def test_forced_and_optional_promotion(shogi):
    s = shogi.state_from_text("4k4/9/P8/1N7/9/9/9/9/4K4 b L 1")
    moves = {s.format_move(m) for m in s.legal_moves()}
    assert "9c9b+" in moves and "9c9b" in moves  # a pawn may stay unpromoted on rank b
    assert "8d7b+" in moves and "8d7b" not in moves  # a knight on rank b could never move
    s2 = shogi.state_from_text("4k4/P8/9/9/9/9/9/9/4K4 b - 1")
    moves = {s2.format_move(m) for m in s2.legal_moves()}
    assert "9b9a+" in moves and "9b9a" not in moves
    with pytest.raises(IllegalMoveError, match="must promote"):
        s2.play_text("9b9a")


def test_pawn_drop_mate_is_illegal_but_pawn_drop_check_is_not(shogi):
    # Gote king in the corner, its escapes covered: P*1b would mate
    mate = shogi.state_from_text("8k/9/6NG1/9/9/9/9/9/4K4 b P 1")
    assert "P*1b" not in {mate.format_move(m) for m in mate.legal_moves()}
    with pytest.raises(IllegalMoveError, match="uchifuzume"):
        mate.play_text("P*1b")
    # the king can take the pawn: the drop is legal
    free = shogi.state_from_text("8k/9/9/9/9/9/9/9/4K4 b P 1")
    assert "P*1b" in {free.format_move(m) for m in free.legal_moves()}
    # a mate by a pawn *move* is legal
    moved = shogi.state_from_text("8k/9/6NGP/9/9/9/9/9/4K4 b - 1")
    moved.play_text("1c1b")
    assert moved.is_terminal() and moved.returns() == [1.0, -1.0] and "checkmate" in moved.result_text()


def test_no_move_leaves_the_king_in_check(shogi):
    s = shogi.state_from_text("4k4/9/9/9/4r4/9/9/4G4/4K4 b - 1")  # the gold is pinned on file 5
    moves = {s.format_move(m) for m in s.legal_moves()}
    assert moves and not any(m.startswith("5h") and m[2] != "5" for m in moves)
    assert "5h5g" in moves


def test_fourfold_repetition_is_a_draw(shogi):
    s = shogi.new_state()
    for _ in range(3):
        for mv in ("2h3h", "8b7b", "3h2h", "7b8b"):
            assert not s.is_terminal()
            s.play_text(mv)
    assert s.is_terminal() and s.returns() == [0.0, 0.0] and s.legal_moves() == []
    assert "repetition" in s.result_text()
    again = shogi.state_from_text(s.to_text())
    assert again.is_terminal() and again.key == s.key
    s.undo()
    assert not s.is_terminal()


def test_perpetual_check_loses(shogi):
    s = shogi.state_from_text("4k4/9/9/9/5R3/9/9/9/4K4 b - 1")
    for _ in range(3):
        for mv in ("4e5e", "5a4a", "5e4e", "4a5a"):
            assert not s.is_terminal()
            s.play_text(mv)
    assert s.is_terminal() and s.returns() == [-1.0, 1.0]
    assert "perpetual check" in s.result_text()


def test_perpetual_check_loses_also_when_the_checking_move_completes_it(shogi):
    s = shogi.state_from_text("4k4/9/9/9/4R4/9/9/9/4K4 w - 1")  # Gote in check, to move
    for _ in range(3):
        for mv in ("5a4a", "5e4e", "4a5a", "4e5e"):
            assert not s.is_terminal()
            s.play_text(mv)
    assert s.is_terminal() and s.returns() == [-1.0, 1.0] and "Sente gave perpetual check" in s.result_text()


def test_entering_king_declaration(shogi):
    s = shogi.state_from_text(IMPASSE_28)
    assert s.is_terminal() and s.returns() == [1.0, -1.0] and "declaration" in s.result_text()
    assert s.impasse_points(0) == 28
    short = shogi.state_from_text(IMPASSE_28.replace("2N", "N"))
    assert not short.is_terminal()
    assert not load_game("shogi(impasse=24)").state_from_text(IMPASSE_28).is_terminal()
    assert not load_game("shogi(impasse=off)").state_from_text(IMPASSE_28).is_terminal()
    gote_27 = shogi.state_from_text("K8/9/9/9/9/9/9/2b1k2r1/1+p+p+p+p+p+p+p+p w 4g4sn 1")
    assert gote_27.impasse_points(1) == 27 and gote_27.is_terminal() and gote_27.returns() == [-1.0, 1.0]
    assert load_game("shogi(impasse=24)").state_from_text(IMPASSE_28.replace("2N", "2N2L")
                                                           .replace("4S", "4S2P")).is_terminal()


def test_handicaps():
    for name, sfen in HANDICAPS.items():
        s = load_game(f"shogi(handicap={name})").new_state()
        assert s.to_text() == sfen
        assert s.current_player == (0 if name == "none" else 1)
        assert s.legal_moves()
    with pytest.raises(InvalidGameSpecError):
        load_game("shogi(variant=mini,handicap=two)")
    with pytest.raises(InvalidGameSpecError):
        load_game("shogi(handicap=twelve)")


def test_transpositions_have_equal_keys(shogi):
    a = shogi.state_from_text("startpos moves 7g7f 3c3d 2g2f")
    b = shogi.state_from_text("startpos moves 2g2f 3c3d 7g7f")
    assert a.key == b.key and a.canonical_text() == b.canonical_text()
    assert a.to_text() == b.to_text()


def test_random_games_undo_to_the_start(mini):
    rng = random.Random(7)
    s = mini.new_state()
    texts = []
    while not s.is_terminal() and len(texts) < 300:
        texts.append((s.to_text(), s.key))
        s.play(rng.choice(s.legal_moves()))
    while texts:
        s.undo()
        assert (s.to_text(), s.key) == texts.pop()
