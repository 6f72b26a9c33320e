"""The df-pn mate search against the plain AND/OR reference on crafted tsume and random positions."""

import random

import numpy as np
import pytest

from gamesuite.core import load_game
from gamesuite.core.errors import GameSuiteError
from gamesuite.games.shogi.mate import MateTable, find_mate, is_forced_mate, mate_reference

# (sfen, shortest mate in plies); each checked against the reference too
TSUME = [
    ("4k4/9/4P4/9/9/9/9/9/4K4 b G 1", 1),  # only a drop mates: G*5b
    ("7nk/9/7GP/9/9/9/9/9/4K4 b - 1", 1),  # a pawn *move* that mates is legal
    ("8k/9/7S1/7N1/9/9/9/9/4K4 b - 1", 1),  # only the promoting 2c1b+ mates
    ("6+P2/8k/6S2/8+P/9/9/9/9/K8 b 2S 1", 3),
    ("7l1/5k3/7+R+R/9/9/9/9/9/K8 b 2SN 1", 3),
    ("6snk/6p2/9/9/9/9/9/9/4K4 b RBG 1", 5),
    ("9/6k1l/7g1/6+B2/9/9/9/9/K8 b 2GLR 1", 5),
    ("5l2k/9/4s4/3+R5/9/9/9/9/K8 b GP 1", 7),
    ("8k/9/3g5/3S4s/9/9/9/9/K8 b RB 1", 7),
    ("6g1k/5G2p/7P1/9/9/9/9/9/K8 b 2SR 1", 9),
    ("2k2/5/2P2/5/K4 b GS 1", 1),  # minishogi
]
NO_MATE = [
    "7nk/9/7G1/9/9/9/9/9/4K4 b P 1",  # P*1b would mate, but a pawn-drop mate is illegal
    "8k/9/9/9/9/9/9/9/4K4 b 2G 1",
    "8k/9/9/9/9/9/9/9/4K4 b BG 1",
    "4k/5/5/5/4K b G 1",  # minishogi
]


def _state(sfen):
    spec = "shogi(variant=mini)" if sfen.split()[0].count("/") == 4 else "shogi"
    return load_game(spec).state_from_text(sfen)


@pytest.mark.parametrize("sfen,plies", TSUME)
def test_dfpn_finds_the_shortest_mate_and_a_forced_line(sfen, plies):
    s = _state(sfen)
    assert mate_reference(s, plies) == plies  # the reference agrees with the figure
    r = find_mate(s, nodes=500_000)
    assert r.status == "mate", (sfen, r)
    assert r.plies == plies, (sfen, s.format_line(r.pv))
    assert is_forced_mate(s, r.pv, plies), s.format_line(r.pv)


def test_the_mate_that_needs_the_promotion_is_the_promoting_move():
    s = _state("8k/9/7S1/7N1/9/9/9/9/4K4 b - 1")
    r = find_mate(s)
    assert s.format_line(r.pv) == ["2c1b+"]
    s.play(s.parse_move("2c1b"))  # the same move without promotion is no mate
    assert s.legal_moves()


def test_pawn_drop_mate_is_not_found_but_a_pawn_move_mate_is():
    s = _state("7nk/9/7G1/9/9/9/9/9/4K4 b P 1")
    assert find_mate(s).status == "nomate"
    assert s.format_line(find_mate(_state("7nk/9/7GP/9/9/9/9/9/4K4 b - 1")).pv)[0] in ("2c1b", "2c1b+")


@pytest.mark.parametrize("sfen", NO_MATE)
def test_dfpn_proves_no_mate(sfen):
    s = _state(sfen)
    assert mate_reference(s, 5) is None
    r = find_mate(s, nodes=500_000)
    assert r.status == "nomate" and r.pv == ()


def _random_tsume(rng, game):
    while True:
        rows = [["."] * 9 for _ in range(9)]
        rows[rng.randrange(0, 2)][rng.randrange(5, 9)] = "k"
        rows[8][0] = "K"
        for _ in range(rng.randrange(2, 6)):
            r, c = rng.randrange(0, 4), rng.randrange(3, 9)
            if rows[r][c] == ".":
                rows[r][c] = rng.choice(["p", "l", "n", "s", "g", "P", "L", "N", "S", "G", "+P", "+R", "+B"])
        text = []
        for row in rows:
            out, e = "", 0
            for x in row:
                if x == ".":
                    e += 1
                else:
                    out += (str(e) if e else "") + x
                    e = 0
            text.append(out + (str(e) if e else ""))
        hand = "".join(rng.sample(["R", "B", "G", "S", "N", "L", "P", "2G", "2S"], rng.randrange(1, 4)))
        try:
            s = game.state_from_text("/".join(text) + f" b {hand} 1")
        except GameSuiteError:
            continue
        if not s.is_terminal() and not s.in_check():
            return s


def test_dfpn_agrees_with_the_reference_on_random_positions():
    game = load_game("shogi")
    rng = random.Random(7)
    mates = 0
    for _ in range(30):
        s = _random_tsume(rng, game)
        want = mate_reference(s, 5)
        r = find_mate(s, nodes=40_000)
        if want is not None:
            mates += 1
            assert r.status == "mate" and r.plies == want, (s.sfen(), want, s.format_line(r.pv))
            assert is_forced_mate(s, r.pv, want)
        else:
            assert r.status != "mate" or r.plies > 5, s.sfen()
    assert mates >= 5


def test_node_limit_and_stop_flag():
    s = _state("8k/9/9/9/9/9/9/9/4K4 b RG 1")  # checks forever across an open board
    r = find_mate(s, nodes=3000)
    assert r.status == "unknown" and r.nodes < 3000 + 2048
    stop = np.ones(1, dtype=np.uint8)
    assert find_mate(s, stop=stop).status == "unknown"
    assert s.sfen() == "8k/9/9/9/9/9/9/9/4K4 b RG 1"  # the state is left alone


def test_a_shared_table_serves_both_attackers():
    table = MateTable(1)
    s = _state("6snk/6p2/9/9/9/9/9/9/4K4 b RBG 1")
    assert find_mate(s, table=table).plies == 5
    white = _state("4k4/9/9/9/9/9/9/2P6/KNS6 w rbg 1")  # the same problem turned round, Gote attacking
    r = find_mate(white, table=table)
    assert r.status == "mate" and r.plies == 5 and is_forced_mate(white, r.pv, 5)
    assert find_mate(s, table=table).plies == 5
    with pytest.raises(ValueError):
        MateTable(0)
    with pytest.raises(ValueError):
        find_mate(s, nodes=-1)


@pytest.mark.slow
def test_dfpn_mate_in_13_against_the_reference():
    s = _state("3+Bgk2G/8n/9/9/9/9/9/9/K8 b PRN 1")
    r = find_mate(s, nodes=2_000_000)
    assert r.status == "mate" and r.plies == 13
    assert is_forced_mate(s, r.pv, 13)


def _tsume_set():
    from gamesuite.bench.shogi import TSUME_FILE, read_tsume

    return read_tsume(TSUME_FILE)


def _check_problem(sfen, plies, line):
    s = load_game("shogi").state_from_text(sfen)
    moves = []
    t = s.copy()
    for text in line:
        moves.append(t.parse_move(text))
        t.play(moves[-1])
    assert len(moves) == plies
    assert is_forced_mate(s, moves, plies), (sfen, line)  # the stored answer: legal checks to mate, reference-backed
    if plies >= 3:
        assert mate_reference(s, plies - 2) is None, sfen  # and no shorter mate
    r = find_mate(s, nodes=2_000_000)
    assert r.status == "mate" and r.plies == plies, (sfen, r.status, s.format_line(r.pv))


def test_the_tsume_set_short_problems_by_dfpn_and_the_reference():
    """The repository's mate problems (tests/data/shogi_tsume.txt) of up to 5 plies: the stored answer is a forced
    mate, the reference finds no shorter one, df-pn finds the same length."""
    problems = [p for p in _tsume_set() if p[1] <= 5]
    assert len(problems) >= 20
    for sfen, plies, line in problems:
        _check_problem(sfen, plies, line)


@pytest.mark.slow
def test_the_tsume_set_longer_problems_by_dfpn_and_the_reference():
    for sfen, plies, line in _tsume_set():
        if 5 < plies <= 7:
            _check_problem(sfen, plies, line)
