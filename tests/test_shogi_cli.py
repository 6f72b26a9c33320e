"""Shogi at the command line and against cshogi (an optional, test-only oracle)."""

import random
import subprocess
import sys

import pytest

from gamesuite.cli.cmd_perft import generic_perft
from gamesuite.core import load_game, new_stop_flag


def gs(*args, timeout=120):
    return subprocess.run([sys.executable, "-m", "gamesuite", *args], capture_output=True, text=True, timeout=timeout)


def test_perft_command_counts_and_times():
    r = gs("perft", "shogi", "--depth", "3")
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("perft 3: 25470 nodes in ") and "nodes/s" in r.stdout


def test_perft_divide_on_minishogi():
    r = gs("perft", "shogi(variant=mini)", "--position", "rbsgk/4p/5/P4/KGSBR b - 1", "--depth", "2", "--divide")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.strip().splitlines()
    per_move = dict(line.split(": ") for line in lines[:-1])
    assert len(per_move) == 14 and sum(int(v) for v in per_move.values()) == 181
    assert lines[-1].startswith("perft 2: 181 nodes")


@pytest.mark.parametrize("args,message", [
    (("perft", "shogi", "--depth", "0"), "--depth: the value must be an integer in 1..64, got '0'"),
    (("perft", "shogi", "--depth", "2", "--position", "9/9 b - 1"), "'9/9 b - 1'"),
])
def test_perft_command_errors(args, message):
    r = gs(*args)
    assert r.returncode == 2 and message in r.stderr


def test_generic_perft_agrees_with_the_kernel():
    s = load_game("shogi(variant=mini)").new_state()
    assert generic_perft(s, 3, new_stop_flag()) == (2512, True) == s.perft(3)


def test_bench_runs():
    # the repository's mate problem set is left out (``--tsume ''``): it took most of the 24 s this test ran
    r = gs("bench", "shogi", "--repeat", "1", "--search-ms", "200", "--tsume", "", timeout=300)
    assert r.returncode == 0, r.stderr
    assert r.stdout.count(" yes ") == 4 and " NO " not in r.stdout
    assert "k nodes/s" in r.stdout and "mate search (df-pn)" in r.stdout
    assert "nomate" in r.stdout  # the pawn-drop-only problem: proven no mate


def _cshogi_moves(cshogi, board):
    return sorted(cshogi.move_to_usi(m) for m in board.legal_moves)


@pytest.mark.parametrize("sfen", [
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1",
])
def test_legal_moves_match_cshogi_on_random_games(sfen):
    cshogi = pytest.importorskip("cshogi")
    game = load_game("shogi")
    rng = random.Random(sfen)
    positions = 0
    for _ in range(30):
        s = game.state_from_text(sfen)
        board = cshogi.Board(sfen)
        for _ply in range(150):
            ours = sorted(s.format_move(m) for m in s._moves())
            assert ours == _cshogi_moves(cshogi, board), s.sfen()
            positions += 1
            if not ours:
                break
            mv = rng.choice(ours)
            s.play(s.parse_move(mv))
            board.push_usi(mv)
    assert positions > 1000
