"""Shogi move generation: the numba kernels against the plain-Python reference and the published perft counts."""

import random

import numpy as np
import pytest

from gamesuite.core import load_game
from gamesuite.games.shogi import kernels
from gamesuite.games.shogi.reference import RefPosition

START = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
MIDGAME = "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1"
DROPS = "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1"
MINI = "rbsgk/4p/5/P4/KGSBR b - 1"

# (game, position, published counts by depth)
PERFT = [
    ("shogi", START, [30, 900, 25_470, 719_731, 19_861_490, 547_581_517]),
    ("shogi", MIDGAME, [207, 28_684, 4_809_015, 516_925_165]),
    ("shogi", DROPS, [593, 105_677, 53_393_368]),
    ("shogi(variant=mini)", MINI, [14, 181, 2_512, 35_401, 533_203]),
]
FAST_DEPTH = {START: 3, MIDGAME: 2, DROPS: 2, MINI: 4}


def _perft(spec, sfen, depth):
    s = load_game(spec).state_from_text(sfen)
    before = (s.board.copy(), s.hands.copy(), s.kings.copy())
    n, done = kernels.perft(s.g, s.board, s.hands, s.kings, s.color, depth)
    assert done
    assert all(np.array_equal(a, b) for a, b in zip(before, (s.board, s.hands, s.kings))), "perft must restore"
    return n


@pytest.mark.parametrize("spec,sfen,counts", PERFT, ids=["start", "midgame", "drops", "mini"])
def test_perft_small_depths(spec, sfen, counts):
    for depth in range(1, FAST_DEPTH[sfen] + 1):
        assert _perft(spec, sfen, depth) == counts[depth - 1], f"depth {depth}"


@pytest.mark.slow
@pytest.mark.parametrize("spec,sfen,counts", PERFT, ids=["start", "midgame", "drops", "mini"])
def test_perft_deep(spec, sfen, counts):
    for depth in range(FAST_DEPTH[sfen] + 1, len(counts) + 1):  # every published figure (about a minute)
        assert _perft(spec, sfen, depth) == counts[depth - 1], f"depth {depth}"


@pytest.mark.parametrize("spec,sfen,depth,count", [("shogi", START, 2, 900), ("shogi(variant=mini)", MINI, 3, 2512),
                                                   ("shogi", MIDGAME, 1, 207)])
def test_reference_perft(spec, sfen, depth, count):
    s = load_game(spec).state_from_text(sfen)
    assert RefPosition.from_arrays(s.g, s.board, s.hands, s.color).perft(depth) == count


def _random_positions(spec, sfen, games, seed):
    rng = random.Random(seed)
    game = load_game(spec)
    for _ in range(games):
        s = game.state_from_text(sfen)
        for _ply in range(rng.randrange(4, 120)):
            moves = s.legal_moves()
            if not moves:
                break
            # prefer captures and checks now and then so hands fill up and kings get chased
            s.play(rng.choice(moves))
        yield s


@pytest.mark.parametrize("spec,sfen,games", [("shogi", START, 100), ("shogi", MIDGAME, 30),
                                             ("shogi(variant=mini)", MINI, 200)])
def test_kernel_matches_reference_on_random_positions(spec, sfen, games):
    seen = 0
    for s in _random_positions(spec, sfen, games, seed=hash(spec + sfen) & 0xFFFF):
        ref = RefPosition.from_arrays(s.g, s.board, s.hands, s.color)
        fast = kernels.generate(s.g, s.board, s.hands, s.kings, s.color).tolist()
        assert fast == ref.legal_moves(), s.sfen()
        assert kernels.in_check(s.g, s.board, s.kings, s.color) == ref.in_check(s.color)
        seen += 1
    assert seen == games


def test_kernel_matches_reference_on_tactical_positions():
    positions = [
        ("shogi", "8k/9/6NG1/9/9/9/9/9/4K4 b P 1"),  # pawn-drop mate forbidden
        ("shogi", "8k/9/7G1/9/9/9/9/9/4K4 b P 1"),  # pawn-drop check allowed
        ("shogi", "4k4/9/9/9/4r4/9/9/4G4/4K4 b - 1"),  # pin
        ("shogi", "4k4/9/9/9/9/9/9/3b5/4K4 b RBGSNLP 1"),  # contact check, drops cannot help
        ("shogi", "4k4/9/4r4/9/9/9/9/9/4K4 b GSNLP 1"),  # distant check: interpose by drops
        ("shogi", "4k4/9/9/9/9/9/2b6/9/4K1r2 b G 1"),  # double line check
        ("shogi", "k8/9/9/9/9/9/5n3/9/4K4 b PL 1"),  # knight check
        ("shogi", "8k/P8/6P2/9/9/9/9/9/4K4 b P 1"),  # pawn on the last ranks, drops limited
        ("shogi(variant=mini)", "k4/5/2r2/5/2K2 b P 1"),
        ("shogi(variant=mini)", "4k/5/4P/5/K4 b g 1"),
        ("shogi", DROPS),
    ]
    for spec, sfen in positions:
        s = load_game(spec).state_from_text(sfen)
        ref = RefPosition.from_arrays(s.g, s.board, s.hands, s.color)
        assert kernels.generate(s.g, s.board, s.hands, s.kings, s.color).tolist() == ref.legal_moves(), sfen


def test_wrappers_validate_their_input():
    s = load_game("shogi").new_state()
    with pytest.raises(ValueError, match="board"):
        kernels.generate(s.g, s.board.astype(np.int16), s.hands, s.kings, 0)
    with pytest.raises(ValueError, match="color"):
        kernels.generate(s.g, s.board, s.hands, s.kings, 2)
    with pytest.raises(ValueError, match="depth"):
        kernels.perft(s.g, s.board, s.hands, s.kings, 0, 0)


def test_perft_stops_on_the_flag():
    s = load_game("shogi").new_state()
    stop = np.ones(1, dtype=np.uint8)
    n, done = kernels.perft(s.g, s.board, s.hands, s.kings, 0, 5, stop)
    assert not done and n < 19_861_490


@pytest.mark.parametrize("spec,sfen,games", [("shogi", START, 60), ("shogi", MIDGAME, 20),
                                             ("shogi(variant=mini)", MINI, 100)])
def test_capture_kernel_matches_the_filtered_legal_moves(spec, sfen, games):
    checked = 0
    for s in _random_positions(spec, sfen, games, seed=99):
        if kernels.in_check(s.g, s.board, s.kings, s.color):
            continue
        g = s.g
        legal = kernels.generate(g, s.board, s.hands, s.kings, s.color).tolist()
        want = [m for m in legal if (m >> 8) < g.N and s.board[g.sq2p[(m >> 1) & 127]] != 0]
        out = np.empty(kernels.MAX_MOVES, dtype=np.int32)
        n = kernels._captures(s.board, s.kings, np.int64(s.color), g.geo, g.sq2p, g.p2sq, g.rel, g.dirs,
                              kernels.STEP_MASK, kernels.SLIDE_MASK, g.tab, out, np.zeros(kernels.SCRATCH, np.int64))
        assert sorted(out[:n].tolist()) == want, s.sfen()
        checked += 1
    assert checked > games // 2
