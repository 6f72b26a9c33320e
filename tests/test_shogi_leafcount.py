"""The counting kernel of shogi perft (leafcount.py) against the move generator and the plain-Python reference."""

import random

import numpy as np
import pytest

from gamesuite.core import load_game
from gamesuite.games.shogi import kernels, leafcount
from gamesuite.games.shogi.reference import RefPosition

START = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
MIDGAME = "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1"
DROPS = "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1"
MINI = "rbsgk/4p/5/P4/KGSBR b - 1"

# positions where the shortcuts of the counter could go wrong: pins on every kind of line, x-rays through the
# king, checks of every kind, pawn drops in front of the king (mate and not), last-rank and nifu limits
TACTICAL = [
    ("shogi", "8k/9/6NG1/9/9/9/9/9/4K4 b P 1"),  # pawn-drop mate forbidden
    ("shogi", "8k/9/7G1/9/9/9/9/9/4K4 b P 1"),  # pawn-drop check allowed
    ("shogi", "4k4/9/9/9/4r4/9/9/4G4/4K4 b - 1"),  # gold pinned on the file
    ("shogi", "4k4/9/9/9/4l4/9/9/4P4/4K4 b - 1"),  # pawn pinned by a lance: it still moves on the file
    ("shogi", "4k4/9/9/9/4r4/9/9/4N4/4K4 b - 1"),  # pinned knight: no move
    ("shogi", "4k4/9/9/9/9/9/2b6/3S5/4K4 b - 1"),  # silver pinned on the diagonal
    ("shogi", "4k4/9/9/9/9/9/9/4K1S1r/9 b - 1"),  # silver pinned on the rank
    ("shogi", "4k4/9/9/9/9/9/9/9/r2BK4 b - 1"),  # bishop pinned on the rank: no move
    ("shogi", "4k4/9/9/9/+b8/9/9/3R5/4K4 b - 1"),  # rook pinned by a horse
    ("shogi", "4k4/9/9/9/9/9/9/3b5/4K4 b RBGSNLP 1"),  # contact check, drops cannot help
    ("shogi", "4k4/9/4r4/9/9/9/9/9/4K4 b GSNLP 1"),  # distant check: interpose by drops
    ("shogi", "4k4/9/9/9/9/9/2b6/9/4K1r2 b G 1"),  # double check
    ("shogi", "k8/9/9/9/9/9/5n3/9/4K4 b PL 1"),  # knight check
    ("shogi", "8k/P8/6P2/9/9/9/9/9/4K4 b P 1"),  # pawns near the last ranks, drops limited
    ("shogi", "4k4/9/9/9/9/9/9/9/r3K3r b - 1"),  # king between two rooks: x-ray along the rank
    ("shogi", "4k4/4l4/9/9/9/9/9/9/4K4 b - 1"),  # lance check from afar
    ("shogi", "4k4/9/9/9/9/9/9/4K4/9 b - 1"),
    ("shogi", "4k4/9/9/9/9/9/9/3+r5/4K4 b - 1"),  # dragon next to the king (diagonal step)
    ("shogi", "4k4/9/9/9/9/9/9/4+b4/4K4 b - 1"),  # horse next to the king (orthogonal step)
    ("shogi", "1n2k4/9/9/9/9/9/9/9/4K4 w LN 1"),  # Gote: lance and knight drops limited
    ("shogi", "4k4/4p4/9/9/9/9/9/9/4K4 w P 1"),  # Gote: nifu
    ("shogi", "4K4/9/4G4/9/9/9/9/9/4k4 w P 1"),  # Gote: pawn-drop check on an exposed king
    ("shogi", "3GKG3/9/4P4/9/9/9/9/9/4k4 w P 1"),  # Gote: a pawn already on the file
    ("shogi", "4k4/9/9/9/9/9/9/9/4K4 w P 1"),  # Gote: pawn-drop check on a bare king
    ("shogi", "k8/9/9/9/9/9/4g4/3S1S3/3NKN3 w P 1"),  # Gote: pawn-drop mate forbidden
    ("shogi", "9/9/9/9/9/9/9/9/k7K b - 1"),
    ("shogi", MIDGAME),
    ("shogi", DROPS),
    ("shogi(variant=mini)", "k4/5/2r2/5/2K2 b P 1"),
    ("shogi(variant=mini)", "4k/5/4P/5/K4 b g 1"),
    ("shogi(variant=mini)", "2k2/5/2G2/5/2K2 b P 1"),
    ("shogi(variant=mini)", MINI),
]


def _random_positions(spec, sfen, games, seed):
    rng = random.Random(seed)
    game = load_game(spec)
    for _ in range(games):
        s = game.state_from_text(sfen)
        for _ply in range(rng.randrange(2, 140)):
            moves = s.legal_moves()
            if not moves:
                break
            s.play(rng.choice(moves))
        if s.legal_moves():
            yield s


@pytest.mark.parametrize("spec,sfen", TACTICAL, ids=[t[1] for t in TACTICAL])
def test_count_matches_the_reference_on_tactical_positions(spec, sfen):
    s = load_game(spec).state_from_text(sfen)
    ref = RefPosition.from_arrays(s.g, s.board, s.hands, s.color)
    before = s.board.copy()
    assert leafcount.count_moves(s.g, s.board, s.hands, s.kings, s.color) == len(ref.legal_moves())
    assert np.array_equal(before, s.board)


@pytest.mark.parametrize("spec,sfen,games", [("shogi", START, 250), ("shogi", MIDGAME, 80), ("shogi", DROPS, 40),
                                             ("shogi(variant=mini)", MINI, 300)])
def test_count_matches_the_generator_on_random_positions(spec, sfen, games):
    checks = hands = 0
    for i, s in enumerate(_random_positions(spec, sfen, games, seed=len(sfen) * 7 + games)):
        g = s.g
        want = len(kernels.generate(g, s.board, s.hands, s.kings, s.color))
        assert leafcount.count_moves(g, s.board, s.hands, s.kings, s.color) == want, s.sfen()
        if i % 10 == 0:  # the reference is slow: every tenth position
            assert len(RefPosition.from_arrays(g, s.board, s.hands, s.color).legal_moves()) == want, s.sfen()
        checks += s.in_check()
        hands += int(s.hands[s.color, 1:].sum() > 0)
    assert hands > 0
    if spec == "shogi" and sfen == START or "mini" in spec:
        assert checks > 0, "the sample should contain positions in check"


@pytest.mark.parametrize("spec,sfen,games,depth", [("shogi", START, 40, 2), ("shogi", MIDGAME, 12, 2),
                                                   ("shogi(variant=mini)", MINI, 60, 3)])
def test_counting_perft_matches_the_mailbox_perft(spec, sfen, games, depth):
    """Every reply of every move counted: the inline make/unmake with bitboards, captures, promotions and drops."""
    for s in _random_positions(spec, sfen, games, seed=depth * 1000 + games):
        args = (s.g, s.board, s.hands, s.kings, s.color, depth)
        before = (s.board.copy(), s.hands.copy(), s.kings.copy())
        assert kernels.perft(*args) == kernels.perft_mailbox(*args), s.sfen()
        assert all(np.array_equal(a, b) for a, b in zip(before, (s.board, s.hands, s.kings)))


def test_bitboards_follow_make_and_unmake():
    g = load_game("shogi").new_state().g
    ct = leafcount.count_tables(g)
    for s in _random_positions("shogi", START, 15, seed=5):
        bb = leafcount.bitboards(g, s.board)
        for m in kernels.generate(g, s.board, s.hands, s.kings, s.color).tolist():
            cap = leafcount._bmake(s.board, s.hands, s.kings, bb, leafcount.SLOT_OF, np.int64(s.color), np.int64(m),
                                   np.int64(g.N), g.sq2p, ct.p2w, ct.p2m)
            assert np.array_equal(bb, leafcount.bitboards(g, s.board)), (s.sfen(), m)
            leafcount._bunmake(s.board, s.hands, s.kings, bb, leafcount.SLOT_OF, np.int64(s.color), np.int64(m),
                               np.int64(cap), np.int64(g.N), g.sq2p, ct.p2w, ct.p2m)
            assert np.array_equal(bb, leafcount.bitboards(g, s.board)), (s.sfen(), m)


def test_tables_are_consistent():
    for spec in ("shogi", "shogi(variant=mini)"):
        g = load_game(spec).new_state().g
        ct = leafcount.count_tables(g)
        bits = ct.sq2b.tolist()
        assert len(set(bits)) == g.N and all(b % 64 < 63 for b in bits)
        for sq, b in enumerate(bits):
            assert ct.b2p[b] == g.sq2p[sq]
        board_bits = sum(bin(int(w)).count("1") for w in ct.masks[leafcount.M_BOARD])
        assert board_bits == g.N


def test_count_wrapper_validates_its_input():
    s = load_game("shogi").new_state()
    with pytest.raises(ValueError, match="hands"):
        leafcount.count_moves(s.g, s.board, s.hands.astype(np.int64), s.kings, 0)
    with pytest.raises(ValueError, match="color"):
        leafcount.count_moves(s.g, s.board, s.hands, s.kings, -1)


def test_count_and_moves_match_cshogi_on_random_games():
    """cshogi (GPL, a test-only oracle, never imported by gamesuite) on every position of random games."""
    cshogi = pytest.importorskip("cshogi")
    rng = random.Random(2026)
    game = load_game("shogi")
    positions = 0
    for gi in range(60):
        s = game.state_from_text(START if gi % 3 else MIDGAME)
        board = cshogi.Board(s.sfen())
        for _ply in range(rng.randrange(20, 160)):
            ours = sorted(s.format_move(m) for m in s.legal_moves())
            theirs = sorted(cshogi.move_to_usi(m) for m in board.legal_moves)
            assert ours == theirs, s.sfen()
            assert leafcount.count_moves(s.g, s.board, s.hands, s.kings, s.color) == len(theirs), s.sfen()
            positions += 1
            if not ours:
                break
            if positions % 25 == 0:
                n, _ = kernels.perft(s.g, s.board, s.hands, s.kings, s.color, 2)
                assert n == sum(_cshogi_replies(board, m) for m in board.legal_moves), s.sfen()
            move = rng.choice(ours)
            s.play(s.parse_move(move))
            board.push_usi(move)
    assert positions > 2000


def _cshogi_replies(board, move):  # type: ignore[no-untyped-def]
    board.push(move)
    n = len(board.legal_moves)
    board.pop()
    return n
