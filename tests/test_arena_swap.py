"""Swap openings (swap1, swap2): the rules, an engine's decisions, the referee, the Gomocup adapter and brain."""

from __future__ import annotations

import io
import itertools
import random
import sys

import pytest

from gamesuite.arena.game import GameTask, MatchLimits, _close_external, play_game
from gamesuite.arena.openings import Opening
from gamesuite.arena.record import load_record, save_record
from gamesuite.arena.spec import parse_engine_spec
from gamesuite.arena.swap import (
    SWAP,
    SwapStep,
    check_answer,
    check_rule,
    choose,
    finished,
    next_role,
    options,
    propose,
    roles_after,
)
from gamesuite.core.errors import InvalidMoveError, InvalidOptionError
from gamesuite.core.limits import Limits
from gamesuite.core.registry import load_game, make_engine
from gamesuite.protocols import gomocup as brain
from gamesuite.search.reference import solve_all

from .test_arena import gomocup

SWAPPY = "py:tests.fakes.engines:SwapScripted"


@pytest.fixture(autouse=True)
def _no_processes_left():
    yield
    _close_external()


def _state(game_spec: str, cells: list[str]):
    s = load_game(game_spec).new_state()
    for c in cells:
        s.play_text(c)
    return s


# -- the rules ----------------------------------------------------------------------


def test_options_and_answers_follow_the_rule():
    assert options("swap2", 0) == ("3",) and options("swap2", 3) == (SWAP, "1", "2")
    assert options("swap2", 5) == (SWAP, "1")
    assert options("swap1", 3) == (SWAP, "1")
    with pytest.raises(InvalidOptionError):
        options("swap1", 5)
    s0 = load_game("tictactoe(m=5,n=5,k=4)").new_state()
    assert check_answer(s0, "swap2", [0, 1, 2]) == [0, 1, 2]
    s3 = _state("tictactoe(m=5,n=5,k=4)", ["a1", "b1", "c1"])
    assert check_answer(s3, "swap2", SWAP) == SWAP and check_answer(s3, "swap2", [5, 6]) == [5, 6]
    for state, rule, answer, fragment in [
        (s0, "swap2", SWAP, "no swap with 0 stones"), (s0, "swap2", [0, 1], "3 stone"),
        (s3, "swap1", [5, 6], "swap or 1 stone"), (s3, "swap2", [5, 6, 7], "not 3"),
        (s3, "swap2", [s3.history[0]], "cannot be placed"), (s3, "swap2", [5, 5], "cannot be placed"),
    ]:
        with pytest.raises(InvalidMoveError, match=fragment):
            check_answer(state, rule, answer)


def test_who_plays_black_after_each_path():
    three = SwapStep(0, 0, [0, 1, 2])
    assert roles_after([three, SwapStep(1, 3, SWAP)]) == (1, 0)  # the chooser took black
    assert roles_after([three, SwapStep(1, 3, [3])]) == (0, 1)  # the chooser stayed white
    two = SwapStep(1, 3, [3, 4])
    assert roles_after([three, two, SwapStep(0, 5, SWAP)]) == (0, 1)  # the proposer took black
    assert roles_after([three, two, SwapStep(0, 5, [5])]) == (1, 0)  # the proposer took white
    assert not finished([three]) and not finished([three, two]) and finished([three, two, SwapStep(0, 5, [5])])
    assert [next_role(x) for x in ([], [three], [three, two])] == [0, 1, 0]


def test_rules_are_checked_against_the_game():
    check_rule(load_game("gomoku(rule=standard)"), "swap2")
    for spec, rule, fragment in (("gomoku(rule=renju)", "swap2", "renju"), ("shogi", "swap1", "placement"),
                                 ("gomoku", "swap3", "unknown opening rule")):
        with pytest.raises(InvalidOptionError, match=fragment):
            check_rule(load_game(spec), rule)


# -- an engine's decisions, checked against the solved game --------------------------


def test_a_perfect_chooser_takes_the_winning_side():
    game = load_game("tictactoe")
    solver = make_engine(game, "solver")
    for cells in itertools.islice(itertools.permutations(range(9), 3), 0, 504, 7):
        s = game.new_state()
        for c in cells:
            s.play(c)
        if s.is_terminal():
            continue
        value = solve_all(s)[s.key]  # for black (player 0); white is to move
        answer = choose(solver, s, "swap2", Limits(depth=9))
        if value > 0:
            assert answer == SWAP, s.to_text()
        else:
            assert answer != SWAP and len(answer) == 1, s.to_text()
            s.play(answer[0])
            after = solve_all(s)[s.key]
            assert (after > 0) == (value > 0) and (after < 0) == (value < 0)  # a move that keeps white's result


def test_a_proposal_is_as_even_as_the_engine_can_see():
    game = load_game("tictactoe")
    solver = make_engine(game, "solver")
    for seed in range(5):
        moves = propose(solver, game.new_state(), Limits(depth=9), random.Random(seed), candidates=12)
        s = game.new_state()
        for m in moves:
            s.play(m)
        assert len(set(moves)) == 3 and solve_all(s)[s.key] == 0  # a drawn opening: nothing to gain by choosing


# -- the referee ------------------------------------------------------------------------


def _game(specs: list[str], rule: str = "swap2", tc: MatchLimits = MatchLimits(depth=3, margin=2000), seed: int = 1,
          game_spec: str = "tictactoe(m=5,n=5,k=4)"):
    game = load_game(game_spec)
    sp = tuple(parse_engine_spec(s, game.name) for s in specs)
    return play_game(GameTask(game.spec, sp, (0, 1), Opening(), tc, seed=seed, swap_rule=rule, reuse_engines=False))


@pytest.mark.parametrize("script, black, stones", [
    ("swap/swap", "chooser", 3), ("one/swap", "proposer", 4), ("two/swap", "proposer", 5), ("two/one", "chooser", 6),
])
def test_the_referee_seats_the_colours_the_negotiation_gives(script, black, stones, tmp_path):
    proposer = SWAPPY + ",swap=one/swap,label=P"
    chooser = SWAPPY + f",swap={script},label=C"
    # the proposer's script never matters at 3 stones; at 5 it is the chooser's "second" answer we script
    if script.startswith("two"):
        proposer = SWAPPY + f",swap=x/{script.split('/')[1]},label=P"
    r = _game([proposer, chooser])
    assert r.adjudication is None and r.error == ""
    want_black = "P" if black == "proposer" else "C"
    assert r.engines[0] == want_black and r.swap["black"] == want_black and r.swap["proposer"] == "P"
    assert r.engine_index == ([0, 1] if want_black == "P" else [1, 0])
    assert r.opening_plies == stones and [st["by"] for st in r.swap["steps"]][:2] == ["P", "C"]
    rec, game, start, moves = load_record(save_record(r, tmp_path))  # replays by the ordinary rules
    assert rec.swap == r.swap and len(moves) == stones + r.plies


def test_our_engines_negotiate_by_search():
    r = _game(["solver", "reference"], seed=3)
    assert r.adjudication is None and r.swap["steps"][0]["by"] == "solver"
    assert len(r.swap["steps"][0]["answer"].split()) == 3
    assert len(r.swap["steps"]) == 2  # ours never hand the choice back with two stones
    assert r.swap["steps"][1]["answer"] == SWAP or len(r.swap["steps"][1]["answer"].split()) == 1


def test_each_role_decides_on_its_own_clock():
    from .fakes.engines import SwapScripted

    SwapScripted.seen.clear()
    r = _game([SWAPPY + ",swap=x/one,@clock=2+0,label=P", SWAPPY + ",swap=two/swap,@clock=9+0,label=C"],
              tc=MatchLimits(depth=2))
    assert r.adjudication is None and [n for n, _ in SwapScripted.seen[:3]] == [0, 3, 5]
    own = [lim.time_left for _, lim in SwapScripted.seen[:3]]
    assert all(len(set(t)) == 1 for t in own)  # every seat shows the decider's own clock
    assert own[0][0] <= 2000 and 2000 < own[1][0] <= 9000 and own[2][0] <= 2000  # the proposer decides at 5


@pytest.mark.parametrize("script, role", [("bad/swap", 1), ("two/bad", 0)])
def test_a_bad_answer_loses_the_game(script, role):
    r = _game([SWAPPY + f",swap={script},label=P", SWAPPY + f",swap={script},label=C"])
    assert r.adjudication["kind"] == "illegal" and r.adjudication["seat"] == role
    assert "cannot be placed" in r.reason and r.returns[role] == -1.0


def test_an_engine_that_cannot_negotiate_loses(tmp_path):
    from .test_arena import usi

    r = _game([usi(), "solver"], tc=MatchLimits(movetime=200, margin=2000))
    assert r.adjudication["kind"] == "protocol" and r.adjudication["seat"] == 0 and "cannot play swap2" in r.reason


# -- external brains ------------------------------------------------------------------


@pytest.mark.parametrize("chooser_script, black", [("--swap3 swap", "brain"), ("--swap3 one", "P"),
                                                   ("--swap3 two --swap5 swap", "P"),
                                                   ("--swap3 two --swap5 one", "brain")])
def test_a_gomocup_brain_negotiates_over_swap2board(tmp_path, chooser_script, black):
    log = tmp_path / "brain.log"
    script = chooser_script.split("--swap5")[0]
    proposer = SWAPPY + ",label=P,swap=one/" + ("swap" if "--swap5 swap" in chooser_script else "one")
    r = _game([proposer, gomocup(f"--log {log} {script}") + ",label=brain"],
              tc=MatchLimits(movetime=200, margin=2000), game_spec="tictactoe(m=5,n=5,k=4)")
    assert r.adjudication is None, r.reason
    assert r.engines[0] == black
    lines = log.read_text().splitlines()
    assert "INFO rule 6" in lines  # swap2 over freestyle, as Rapfi numbers it
    i = lines.index("SWAP2BOARD")
    # the proposer's three stones, in order, with fields for the side to move (white: 1)
    assert lines[i + 1:i + 5] == ["0,0,2", "1,0,1", "2,0,2", "DONE"]
    after = lines[i + 5:]
    assert "BOARD" in after  # the game proper starts from the whole board


def test_a_gomocup_brain_proposes_and_decides_at_five(tmp_path):
    log = tmp_path / "brain.log"
    r = _game([gomocup(f"--log {log} --swap5 one") + ",label=brain", SWAPPY + ",swap=two/swap,label=C"],
              tc=MatchLimits(movetime=200, margin=2000))
    assert r.adjudication is None, r.reason
    assert [st["by"] for st in r.swap["steps"]] == ["brain", "C", "brain"] and r.engines[1] == "brain"
    lines = log.read_text().splitlines()
    assert lines.count("SWAP2BOARD") == 2
    j = len(lines) - 1 - lines[::-1].index("SWAP2BOARD")
    assert len(lines[j + 1:lines.index("DONE", j)]) == 5


@pytest.mark.parametrize("flag, fragment", [("--swap0 bad", "no swap with 0 stones"),
                                            ("--swap3 bad", "cannot be placed")])
def test_a_brain_that_breaks_the_rule_loses(flag, fragment):
    who = 0 if "swap0" in flag else 1
    specs = [gomocup(flag) + ",label=brain", SWAPPY + ",label=S"] if who == 0 else \
        [SWAPPY + ",label=S", gomocup(flag) + ",label=brain"]
    r = _game(specs, tc=MatchLimits(movetime=200, margin=2000))
    assert r.adjudication["kind"] == "illegal" and r.adjudication["seat"] == who and fragment in r.reason


# -- our brain ------------------------------------------------------------------------


def talk(*lines, spec="pvs,top=8", **info):
    out = io.StringIO()
    head = [f"INFO {k} {v}" for k, v in info.items()]
    brain.run(io.StringIO("\n".join(head + list(lines)) + "\n"), out, spec, warm=False)
    return [ln for ln in out.getvalue().splitlines() if not ln.startswith("MESSAGE")]


def _cells(reply: str) -> list[tuple[int, int]]:
    return [tuple(map(int, w.split(","))) for w in reply.split()]


def test_our_brain_answers_swap2board():
    r = talk("START 9", "INFO rule 6", "SWAP2BOARD", "DONE",
             "SWAP2BOARD", "4,4", "0,0", "4,5", "DONE",  # black builds in the centre, white in a corner
             "SWAP2BOARD", "0,0,1", "4,4,2", "8,8,1", "DONE",  # black in the corners, white in the centre
             "SWAP2BOARD", "4,4", "0,0", "4,5", "8,8", "4,6", "DONE",  # black: an open three, white: two corners
             "END", timeout_turn=300)
    assert r[0] == "OK"
    three = _cells(r[1])
    assert len(three) == 3 and len(set(three)) == 3 and all(0 <= x < 9 and 0 <= y < 9 for x, y in three)
    assert r[2] == "SWAP"  # black is ahead: take black
    assert len(_cells(r[3])) == 1 and _cells(r[3])[0] not in ((0, 0), (4, 4), (8, 8))  # white is ahead: stay white
    assert r[4] == "SWAP"  # black is far ahead
    assert len(r) == 5


def test_our_brain_refuses_bad_swap2boards():
    r = talk("SWAP2BOARD", "START 9", "SWAP2BOARD", "4,4", "DONE", "SWAP2BOARD", "4,4", "4,4", "1,1", "DONE",
             "SWAP2BOARD", "banana", "SWAP2BOARD", "9,9", "BEGIN", "END", timeout_turn=300)
    assert r[0].startswith("ERROR") and "START" in r[0]
    assert r[1] == "OK"
    assert r[2].startswith("ERROR") and "1 stones" in r[2]
    assert r[3].startswith("ERROR") and "repeats" in r[3]
    assert r[4].startswith("ERROR") and "banana" in r[4]
    assert r[5].startswith("ERROR") and "off the" in r[5]
    assert r[6] == "4,4"  # and it still plays: BEGIN on the empty board


def test_rules_5_and_6_are_freestyle_underneath():
    b = brain.Brain(io.StringIO(), warm=False)
    for rule, name in ((0, "freestyle"), (1, "standard"), (4, "renju"), (5, "freestyle"), (6, "freestyle")):
        b.rule = rule
        assert b._rule_name() == name


def test_the_arena_against_our_brain_as_a_program(tmp_path):
    """End to end: our brain as a subprocess, negotiating swap2 with one of our engines."""
    cmd = f"gomocup:{sys.executable} -m gamesuite engine gomocup --engine pvs"
    r = _game([cmd + ",label=brain", "gomoku:pvs,top=8,@depth=2,label=pvs"], tc=MatchLimits(movetime=300, margin=3000),
              game_spec="gomoku(size=9)")
    assert r.adjudication is None, r.reason
    assert r.swap["steps"][0]["by"] == "brain" and len(r.swap["steps"][0]["answer"].split()) == 3
    assert r.plies > 0


def test_match_command_with_an_opening_rule(tmp_path, capsys):
    from gamesuite.cli import main

    status = main(["match", "tictactoe(m=5,n=5,k=4)", "--engine", "solver", "--engine", "reference", "--games", "2",
                   "--depth", "2", "--opening-rule", "swap1", "--seed", "2", "--save", str(tmp_path), "--quiet"])
    out = capsys.readouterr()
    assert status == 0, out.err
    assert "swap1 openings" in out.out.splitlines()[0] and "Score of solver vs reference" in out.out
    recs = [load_record(f)[0] for f in sorted(tmp_path.glob("game-*.json"))]
    assert [r.swap["proposer"] for r in recs] == ["solver", "reference"]  # the proposer's role rotates
    import json

    assert json.loads((tmp_path / "match.json").read_text())["opening_rule"] == "swap1"
    for args, fragment in ((["gomoku(rule=renju)"], "renju has its own"),
                           (["tictactoe", "--openings", str(tmp_path / "o.txt")], "no --openings")):
        (tmp_path / "o.txt").write_text("startpos\n")
        status = main(["match", *args, "--engine", "reference", "--engine", "reference", "--depth", "1",
                       "--opening-rule", "swap2", "--games", "2"])
        assert status == 2 and fragment in capsys.readouterr().err


# -- a negotiation in progress (the window) and its record ------------------------------------


def test_due_says_who_answers_what_at_every_stone():
    from gamesuite.arena.swap import answer_due, due

    assert due("swap2", [], 0).role == 0 and due("swap2", [], 0).want == 3
    assert due("swap2", [], 2).placed == 2 and answer_due("swap2", [], 2) == 3
    three = [SwapStep(0, 0, [1, 2, 3])]
    d = due("swap2", three, 3)
    assert (d.role, d.at, d.allowed, d.choosing) == (1, 3, (SWAP, "1", "2"), True)
    assert answer_due("swap2", three, 3) == 1 and answer_due("swap2", three, 3, two=True) == 2
    assert answer_due("swap1", three, 3, two=True) == 1  # swap1: no two stones
    assert due("swap2", three, 4).want == 2  # a stone down after 3 with the answer not given: the first of two
    five = three + [SwapStep(1, 3, [4, 5])]
    assert due("swap2", five, 5).role == 0 and due("swap2", five, 5).allowed == (SWAP, "1")
    assert due("swap2", five + [SwapStep(0, 5, SWAP)], 5) is None
    with pytest.raises(InvalidMoveError):
        due("swap2", three, 2)  # fewer stones than the answers placed
    with pytest.raises(InvalidMoveError):
        due("swap1", three, 4)  # swap1 after 3: one stone ends it, there is no second


def test_the_log_reads_back_into_the_same_steps_and_checks_the_stones():
    from gamesuite.arena.swap import log, steps_from_log
    from gamesuite.core.errors import InvalidRecordError

    game = load_game("gomoku(size=9)")
    start = game.new_state()
    s = start.copy()
    moves = [s.parse_move(t) for t in ("e5", "d4", "f6", "e6", "d5", "c3")]
    steps = [SwapStep(0, 0, moves[:3]), SwapStep(1, 3, moves[3:5]), SwapStep(0, 5, [moves[5]])]
    d = log("swap2", steps, start, moves, ("Human", "Computer"))
    assert d == {"rule": "swap2", "proposer": "Human", "black": "Computer",
                 "steps": [{"by": "Human", "stones": 0, "answer": "e5 d4 f6"},
                           {"by": "Computer", "stones": 3, "answer": "e6 d5"},
                           {"by": "Human", "stones": 5, "answer": "c3"}]}
    assert steps_from_log(d, start, moves) == ("swap2", steps)
    assert steps_from_log(d, start, moves + [0])[1] == steps  # the game goes on after the opening
    for bad in ({**d, "rule": "renju"}, {**d, "steps": [{"answer": "e5 d4"}]},
                {**d, "steps": [{"answer": "e5 d4 f6"}, {"answer": "swap"}, {"answer": "c3"}]},
                {**d, "steps": [{"answer": "e5 e5 f6"}]}, {**d, "steps": [{"answer": "e5 d4 a1"}]}):
        with pytest.raises(InvalidRecordError):
            steps_from_log(bad, start, moves)
    with pytest.raises(InvalidRecordError):
        steps_from_log(d, start, moves[:4])  # fewer stones than the opening placed
