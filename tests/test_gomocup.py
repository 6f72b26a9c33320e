"""The Gomocup brain protocol: scripted conversations, in-process and as a subprocess."""

import io
import subprocess
import sys

import pytest

from gamesuite.protocols import gomocup


def talk(*lines, spec="pvs,top=8", **info):
    out = io.StringIO()
    head = [f"INFO {k} {v}" for k, v in info.items()]
    gomocup.run(io.StringIO("\n".join(head + list(lines)) + "\n"), out, spec, warm=False)
    return [ln for ln in out.getvalue().splitlines()]


def replies(lines):
    return [ln for ln in lines if not ln.startswith("MESSAGE")]


def test_start_begin_turn_end():
    out = talk("START 15", "BEGIN", "TURN 8,8", "END", timeout_turn=300)
    r = replies(out)
    assert r[0] == "OK"
    assert r[1] == "7,7"  # the centre
    x, y = map(int, r[2].split(","))
    assert (x, y) not in ((7, 7), (8, 8)) and 0 <= x < 15 and 0 <= y < 15
    assert len(r) == 3


def test_board_and_messages():
    # we (1) have 4 in a row on y=7 from x=3..6, open at both ends: we must complete five
    board = ["BOARD", "3,7,1", "0,0,2", "4,7,1", "0,2,2", "5,7,1", "0,4,2", "6,7,1", "14,14,2", "DONE"]
    out = talk("START 15", *board, timeout_turn=500)
    r = replies(out)
    assert r[0] == "OK" and r[1] in ("2,7", "7,7")
    msgs = [ln for ln in out if ln.startswith("MESSAGE")]
    assert msgs and "score" in msgs[0] and "pv" in msgs[0]


def test_blocks_a_four_as_white():
    # the opponent (2) has four on x=5, y=3..6 with (5,2) blocked by us; we must block (5,7)
    board = ["BOARD", "5,3,2", "5,2,1", "5,4,2", "10,10,1", "5,5,2", "12,1,1", "5,6,2", "DONE"]
    r = replies(talk("START 15", *board, timeout_turn=500))
    assert r[1] == "5,7"


def test_takeback_restart_about_and_rules():
    out = talk("START 10", "INFO rule 4", "BEGIN", "TAKEBACK 5,5", "TAKEBACK 5,5", "RESTART", "ABOUT",
               "START 4", "RECTSTART 20,15", "RECTSTART 12,12", timeout_turn=300)
    r = replies(out)
    assert r[0] == "OK" and r[1] == "5,5" and r[2] == "OK"
    assert r[3].startswith("ERROR") and "no stone" in r[3]
    assert r[4] == "OK" and r[5].startswith('name="gamesuite"')
    assert r[6].startswith("ERROR") and "size" in r[6]
    assert r[7].startswith("ERROR") and r[8] == "OK"


@pytest.mark.parametrize("line,kind", [
    ("HELLO", "UNKNOWN"),
    ("TURN 99,1", "ERROR"),
    ("TURN a,b", "ERROR"),
    ("TURN", "ERROR"),
    ("START x", "ERROR"),
    ("INFO timeout_turn soon", "ERROR"),
    ("INFO colour 3", "UNKNOWN"),
    ("RECTSTART 9", "ERROR"),
    ("BEGIN!", "UNKNOWN"),
])
def test_bad_input_gets_error_or_unknown(line, kind):
    r = replies(talk("START 15", line, "TURN 7,7", timeout_turn=300))
    assert r[0] == "OK"
    assert r[1].startswith(kind), r
    assert "," in r[-1] and not r[-1].startswith(("ERROR", "UNKNOWN"))  # still plays afterwards


def test_commands_before_start_and_bad_boards():
    r = replies(talk("TURN 1,1", "BEGIN", "START 15", "BOARD", "1,1,1", "1,1,2", "TURN 3,3", timeout_turn=300))
    assert r[0].startswith("ERROR") and r[1].startswith("ERROR") and r[2] == "OK"
    assert r[3].startswith("ERROR") and "repeats" in r[3]
    assert "," in r[4] and not r[4].startswith("ERROR")  # the game goes on from an empty board
    r = replies(talk("START 15", "BOARD", "1,1,1", "2,2,1", "DONE", timeout_turn=300))
    assert r[1].startswith("ERROR")  # two own stones, none of theirs: nobody can be to move
    r = replies(talk("START 15", "TURN 7,7", "TURN 7,7", timeout_turn=300))
    assert r[2].startswith("ERROR") and "taken" in r[2]


def test_time_left_is_honoured_by_the_time_manager():
    from gamesuite.search.timeman import SAFETY_MS, allocate

    brain = gomocup.Brain(io.StringIO(), warm=False)
    brain.size = 15
    brain.timeout_turn = 5000
    brain.timeout_match = 100000
    brain.time_left = 2000
    b = allocate(brain._limits(), 0)
    assert b.soft_ms <= 2000 // 8 and b.hard_ms <= 2000 // 4  # a share of what is left, far below the turn
    brain.time_left = 100_000  # plenty left: the turn caps the hard limit, the share is the soft one
    b = allocate(brain._limits(), 0)
    assert b.hard_ms == 5000 - gomocup.MARGIN_MS - SAFETY_MS and b.soft_ms < b.hard_ms
    brain.time_left = None  # no match clock: the whole turn
    b = allocate(brain._limits(), 0)
    assert b.soft_ms == b.hard_ms == 5000 - gomocup.MARGIN_MS - SAFETY_MS
    brain.timeout_match, brain.time_left = 0, 2000  # timeout_match 0: no match limit, time_left is ignored
    assert allocate(brain._limits(), 0).hard_ms == 5000 - gomocup.MARGIN_MS - SAFETY_MS
    brain.timeout_turn = 0  # "as fast as possible"
    assert brain._budget_ms() == gomocup.FAST_MS - gomocup.MIN_MARGIN_MS


def test_node_and_depth_limits_from_info():
    brain = gomocup.Brain(io.StringIO(), warm=False)
    brain.size = 15
    for line in ("INFO max_node 5000", "INFO max_depth 6"):
        brain.handle(line)
    lim = brain._limits()
    assert lim.nodes == 5000 and lim.depth == 6
    brain.handle("INFO max_node -1")  # Yixin-Board's "no limit"
    brain.handle("INFO max_depth 0")
    lim = brain._limits()
    assert lim.nodes is None and lim.depth is None


MIDGAME = ["BOARD", "7,7,1", "7,8,2", "8,8,1", "6,6,2", "9,9,1", "8,7,2", "DONE"]


def _result(lines):
    res = [ln.split() for ln in lines if ln.startswith("MESSAGE result")]
    assert res, lines
    return {res[-1][i]: int(res[-1][i + 1]) for i in (2, 4, 6)}


@pytest.mark.parametrize("limit", [3000, 20000])
def test_max_node_is_respected_within_a_few_percent(limit):
    out = talk("START 15", *MIDGAME, spec="mtdf", timeout_turn=60000, max_node=limit)
    r = _result(out)
    assert r["nodes"] <= limit * 1.05, r
    assert r["nodes"] >= limit * 0.5, r  # the limit, not the clock, ended the search
    assert r["depth"] >= 2, r


def test_max_depth_is_respected():
    out = talk("START 15", *MIDGAME, spec="pvs,top=8", timeout_turn=60000, max_depth=3)
    assert _result(out)["depth"] == 3
def test_short_turns_keep_a_proportional_margin():
    brain = gomocup.Brain(io.StringIO(), warm=False)
    brain.size = 15
    budgets = {}
    for turn in (40, 100, 300, 600, 1000):
        brain.timeout_turn = turn
        budgets[turn] = brain._budget_ms()
    assert budgets[1000] == 1000 - gomocup.MARGIN_MS
    assert budgets[600] == 600 - gomocup.MARGIN_MS
    assert budgets[300] == 300 - 75  # a quarter
    assert budgets[100] == 100 - gomocup.MIN_MARGIN_MS
    assert budgets[40] == 10  # never below 10 ms
    assert all(0 < b < t for t, b in budgets.items())


def test_quick_move_wins_and_blocks():
    from gamesuite.core import load_game
    g = load_game("gomoku")
    s = g.state_from_text("h8 a1 h9 a2 h10 a3 h11 o15")
    assert gomocup.quick_move(s) in (s.parse_move("h12"), s.parse_move("h7"))
    s = g.state_from_text("h8 a1 h9 a2 h10 a3 o14 a4")
    assert gomocup.quick_move(s) == s.parse_move("a5")


def test_subprocess_conversation():
    inp = "START 15\nINFO timeout_turn 1000\nBEGIN\nABOUT\nFOO\nEND\n"
    r = subprocess.run([sys.executable, "-m", "gamesuite", "engine", "gomocup"], input=inp, capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    lines = replies(r.stdout.splitlines())
    assert lines[:2] == ["OK", "7,7"] and lines[2].startswith("name=") and lines[3].startswith("UNKNOWN")
    bad = subprocess.run([sys.executable, "-m", "gamesuite", "engine", "gomocup", "--engine", "nosuch"],
                         input="END\n", capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and "nosuch" in bad.stderr


FOUR = ["3,7,1", "0,0,2", "4,7,1", "0,2,2", "5,7,1", "0,4,2", "6,7,1", "14,14,2"]


@pytest.mark.parametrize("spec", ["pvs,top=8", "mtdf", "mcts"])
def test_board_field_3_cells_are_never_played(spec):
    # our open four on y=7: one end closed by the continuous-game mode (field 3) leaves the other
    r = replies(talk("START 15", "BOARD", *FOUR, "7,7,3", "DONE", spec=spec, timeout_turn=500))
    if spec == "mcts":  # it cannot restrict its root: whatever it plays, the closed cell is replaced
        assert r[1] != "7,7" and "," in r[1] and not r[1].startswith("ERROR")
    else:
        assert r[1] == "2,7"
    # both ends closed: any other cell, never a closed one
    r = replies(talk("START 15", "BOARD", *FOUR, "7,7,3", "2,7,3", "DONE", "TURN 7,7", "TURN 9,9",
                     spec=spec, timeout_turn=500))
    x, y = map(int, r[1].split(","))
    assert (x, y) not in ((7, 7), (2, 7)) and 0 <= x < 15 and 0 <= y < 15
    assert r[2].startswith("ERROR") and "taken" in r[2]  # the opponent cannot play there either
    assert "," in r[3] and not r[3].startswith("ERROR")


def test_engine_is_built_ahead_of_the_first_move():
    import time

    out = io.StringIO()
    brain = gomocup.Brain(out, warm=True)
    brain.handle("START 15")
    brain.handle("INFO max_memory 20971520")  # 20 MB: a 5 MB table
    brain.handle("INFO rule 1")
    deadline = time.monotonic() + 120  # a cold numba cache compiles first
    while brain.engine is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert brain.engine is not None, "the engine was not built before the first move"
    built = brain.engine
    assert brain.engine_key[1] == 5 and "standard" in brain.engine_key[0]
    brain.handle("INFO timeout_turn 300")
    brain.handle("BEGIN")
    assert brain.engine is built  # the first move used it
    assert out.getvalue().strip().splitlines()[-1] == "7,7"
    brain.handle("END")


def test_a_fresh_brain_searches_its_first_move():
    # a new process (its kernels loaded, or compiled, before the OK to START), its first move limited by
    # nodes: a full search, never a rule-based move
    inp = "START 15\nINFO timeout_turn 60000\nINFO max_node 20000\n" + "\n".join(MIDGAME) + "\nEND\n"
    r = subprocess.run([sys.executable, "-m", "gamesuite", "engine", "gomocup"], input=inp, capture_output=True,
                       text=True, timeout=900)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0] == "OK"
    assert _result(lines)["depth"] >= 2
    assert not any("rule-based" in ln or "compiling" in ln for ln in lines)
