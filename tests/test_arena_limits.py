"""Per-engine limits (``@nodes=N`` ... in an engine spec): parsing, the referee, the adapters, the CLI."""

from __future__ import annotations

import json
import threading

import pytest

from gamesuite.arena.external import UsiPlayer
from gamesuite.arena.game import _LOCAL_ENGINES, GameTask, MatchLimits, play_game, run_task
from gamesuite.arena.openings import Opening
from gamesuite.arena.record import load_record
from gamesuite.arena.report import limits_text
from gamesuite.arena.spec import parse_engine_spec
from gamesuite.core.errors import InvalidOptionError
from gamesuite.core.limits import Limits
from gamesuite.core.registry import load_game

from .test_arena import SCRIPTED, gomocup, one_game, usi


def test_limits_are_items_that_start_with_an_at_sign():
    s = parse_engine_spec("gomoku:mtdf,top=10,@nodes=300000")
    assert (s.target, s.limits, s.label) == ("mtdf,top=10", (("nodes", "300000"),), "mtdf,top=10@nodes=300000")
    s = parse_engine_spec("usi:/opt/yane/engine -x,NodesLimit=10000,@movetime=1000,label=yane")
    assert s.command == ("/opt/yane/engine", "-x") and s.options == (("NodesLimit", "10000"),)
    assert s.limits == (("movetime", "1000"),) and s.label == "yane" and s.limits_text() == "@movetime=1000"
    s = parse_engine_spec("gomocup:/x/pbrain-foo,@depth=3,MAX_NODE=5")
    assert s.options == (("MAX_NODE", "5"),) and s.limits == (("depth", "3"),)
    assert s.label == "gomocup:pbrain-foo@depth=3"
    s = parse_engine_spec(SCRIPTED + ",mode=random,@nodes=9")
    assert s.options == (("mode", "random"),) and s.limits == (("nodes", "9"),)
    # normalized, in a fixed order; the default engine may carry limits alone
    s = parse_engine_spec("solver,@depth=04,@clock=60+0.50")
    assert s.limits == (("clock", "60+0.5"), ("depth", "4"))
    assert parse_engine_spec("@nodes=5").target == "" and parse_engine_spec("@nodes=5").limits == (("nodes", "5"),)
    assert parse_engine_spec("solver").limits == ()


@pytest.mark.parametrize("bad, fragment", [
    ("solver,@nodes=0", "@nodes must be a positive integer, got '0'"),
    ("solver,@nodes=lots", "@nodes must be a positive integer"),
    ("solver,@speed=1", "unknown limit '@speed'"),
    ("solver,@nodes=1,@depth=2", "at most one time limit"),
    ("usi:/x,@movetime=5,@clock=1+0", "at most one time limit"),
    ("solver,@nodes=1,@nodes=2", "@nodes twice"),
    ("solver,@clock=soon", "@clock"),
])
def test_bad_limits_are_precise_errors(bad, fragment):
    with pytest.raises(InvalidOptionError, match=fragment) as e:
        parse_engine_spec(bad, "tictactoe")
    assert repr(bad) in str(e.value)


def test_time_controls_combine_one_time_and_one_work_limit():
    tc = MatchLimits(movetime=1000, nodes=5000)
    assert tc.describe() == "movetime 1000 ms, nodes 5000"
    assert tc.work() == Limits(movetime=1000, nodes=5000)
    assert MatchLimits().describe() == "per engine" and not MatchLimits().is_set
    with pytest.raises(InvalidOptionError, match="at most one"):
        MatchLimits.with_clock("1+0", movetime=10)
    with pytest.raises(InvalidOptionError, match="at most one"):
        MatchLimits(depth=1, nodes=10)
    base = MatchLimits(movetime=200, margin=7, hang=9)
    own = base.for_engine(parse_engine_spec("solver,@clock=2+0.5,@nodes=300"))
    assert (own.movetime, own.base, own.increment, own.nodes, own.margin, own.hang) == (None, 2000, 500, 300, 7, 9)
    assert base.for_engine(parse_engine_spec("solver")) is base


def _seen(game_spec: str, spec_text: str) -> list[Limits]:
    key = (threading.get_ident(), load_game(game_spec).spec, parse_engine_spec(spec_text).text, 0)
    return _LOCAL_ENGINES[key].limits_seen


def test_each_engine_searches_with_its_own_limits_and_the_record_says_so(tmp_path):
    game = load_game("tictactoe")
    a, b = SCRIPTED + ",@nodes=500", SCRIPTED + ",seed=1"
    specs = (parse_engine_spec(a), parse_engine_spec(b))
    r = play_game(GameTask(game.spec, specs, (0, 1), Opening(), MatchLimits(depth=3)))
    assert r.adjudication is None
    assert {lim.nodes for lim in _seen("tictactoe", a)} == {500}
    assert {lim.depth for lim in _seen("tictactoe", a)} == {None}
    assert {lim.depth for lim in _seen("tictactoe", b)} == {3}
    assert {lim.nodes for lim in _seen("tictactoe", b)} == {None}
    assert r.time_control == "depth 3" and r.limits == ["nodes 500", "depth 3"]
    from gamesuite.arena.record import save_record

    rec, *_ = load_record(save_record(r, tmp_path))
    assert rec.limits == ["nodes 500", "depth 3"]


def test_a_clock_of_its_own_runs_down_for_that_engine_only():
    game = load_game("tictactoe")
    a = SCRIPTED + ",@clock=2+0.5"
    specs = (parse_engine_spec(a), parse_engine_spec("solver"))
    r = play_game(GameTask(game.spec, specs, (0, 1), Opening(), MatchLimits(depth=2)))
    assert r.adjudication is None and r.limits == ["clock 2+0.5 s", "depth 2"]
    seen = _seen("tictactoe", a)
    assert seen[0].time_left == (2000, 2000) and seen[0].increment == (500, 500) and seen[0].depth is None
    assert seen[1].time_left[0] >= 2000 and seen[1].time_left[0] <= 2500  # spent a little, gained the increment
    assert seen[1].time_left[1] == seen[1].time_left[0]  # the other seat has no clock: it shows the mover's


def test_a_match_may_leave_every_limit_to_the_engines_but_not_forget_one():
    r = one_game("tictactoe", [SCRIPTED + ",@depth=2", "solver,@nodes=100"], tc=MatchLimits())
    assert r.adjudication is None and r.time_control == "per engine" and r.limits == ["depth 2", "nodes 100"]
    with pytest.raises(InvalidOptionError, match="engine solver has no limit"):
        one_game("tictactoe", [SCRIPTED + ",@depth=2", "solver"], tc=MatchLimits())
    specs = (parse_engine_spec(SCRIPTED), parse_engine_spec("solver"))
    r = run_task(GameTask("tictactoe", specs, (0, 1), Opening(), MatchLimits()))
    assert "has no limit" in r.reason and r.error and r.returns == []  # an arena error: no game


def test_usi_engines_get_their_own_limits_in_the_go_line(tmp_path):
    log = tmp_path / "usi.log"
    r = one_game("tictactoe", [usi(f"--log {log}") + ",@nodes=1000", "solver"], tc=MatchLimits(movetime=100))
    assert r.adjudication is None
    gos = [ln for ln in log.read_text().splitlines() if ln.startswith("go")]
    assert gos and set(gos) == {"go nodes 1000"}
    log.unlink()
    r = one_game("tictactoe", [usi(f"--log {log}") + ",@movetime=300,@nodes=50", "solver"], tc=MatchLimits(depth=2))
    assert r.adjudication is None and r.limits == ["movetime 300 ms, nodes 50", "depth 2"]
    gos = {ln for ln in log.read_text().splitlines() if ln.startswith("go")}
    assert gos == {"go btime 0 wtime 0 byoyomi 300 nodes 50"}


def test_usi_go_lines():
    assert UsiPlayer.go_command(Limits(nodes=7)) == "go nodes 7"
    assert UsiPlayer.go_command(Limits(movetime=300, depth=5)) == "go btime 0 wtime 0 byoyomi 300 depth 5"
    assert UsiPlayer.go_command(Limits(time_left=(1000, 2000), increment=(10, 10), nodes=9)) == \
        "go btime 1000 wtime 2000 binc 10 winc 10 nodes 9"
    assert UsiPlayer.go_command(Limits()) == "go infinite"


def test_gomocup_brains_get_max_node_and_max_depth(tmp_path):
    log = tmp_path / "g.log"
    r = one_game("tictactoe", [gomocup(f"--log {log}") + ",@nodes=777", "solver"],
                 tc=MatchLimits(movetime=100, hang=4000, work_hang=8000))
    assert r.adjudication is None
    lines = log.read_text().splitlines()
    # three quarters of the referee's wait for a move limited by work alone
    assert "INFO MAX_NODE 777" in lines and "INFO timeout_turn 6000" in lines and "INFO timeout_match 0" in lines
    assert "INFO timeout_turn 100" not in lines and not any("MAX_DEPTH" in ln for ln in lines)
    log.unlink()
    r = one_game("tictactoe", [gomocup(f"--log {log}") + ",@depth=4,@movetime=250", "solver"],
                 tc=MatchLimits(nodes=10))
    lines = log.read_text().splitlines()
    assert r.adjudication is None and "INFO MAX_DEPTH 4" in lines and "INFO timeout_turn 250" in lines
    assert not any("MAX_NODE" in ln for ln in lines)
    # the match's own node limit reaches a brain the same way
    log.unlink()
    one_game("tictactoe", [gomocup(f"--log {log}"), "solver"], tc=MatchLimits(nodes=123))
    assert "INFO MAX_NODE 123" in log.read_text().splitlines()


def test_limits_text_names_the_engines_with_their_own():
    tc = MatchLimits(movetime=1000)
    a, b = parse_engine_spec("solver,@nodes=5"), parse_engine_spec("reference,label=ref")
    assert limits_text(tc, [b, b]) == "movetime 1000 ms"
    assert limits_text(tc, [a, b]) == "movetime 1000 ms (solver@nodes=5: nodes 5)"
    assert limits_text(MatchLimits(), [a, a.with_label("x")]) == "solver@nodes=5: nodes 5; x: nodes 5"


def test_match_command_with_per_engine_limits(tmp_path, capsys):
    from gamesuite.cli import main

    status = main(["match", "tictactoe", "--engine", "solver,@depth=9", "--engine", SCRIPTED + ",@nodes=50,label=f",
                   "--games", "2", "--seed", "3", "--save", str(tmp_path), "--quiet"])
    out = capsys.readouterr()
    assert status == 0, out.err
    assert "solver@depth=9: depth 9; f: nodes 50" in out.out.splitlines()[0]
    summary = json.loads((tmp_path / "match.json").read_text())
    assert summary["time_control"] == "per engine"
    assert [e["limits"] for e in summary["engines"]] == ["depth 9", "nodes 50"]
    for f in tmp_path.glob("game-*.json"):
        rec, *_ = load_record(f)
        assert sorted(rec.limits) == ["depth 9", "nodes 50"]


def test_a_shogi_match_with_byoyomi(tmp_path):
    """Both engines on byoyomi clocks: told the period each move, judged by it, the records say so."""
    game = load_game("shogi(variant=mini)")
    a = SCRIPTED + ",@clock=0+2b"
    specs = (parse_engine_spec(a, "shogi"), parse_engine_spec("shogi:alphabeta,@clock=0+0.3b"))
    r = play_game(GameTask(game.spec, specs, (0, 1), Opening(), MatchLimits(margin=5000), max_plies=12))
    assert r.adjudication is None or r.adjudication["kind"] == "ply limit", r.reason
    assert r.limits == ["clock 2 s byoyomi", "clock 0.3 s byoyomi"]
    seen = _seen(game.spec, a)
    assert seen and all(lim.byoyomi == 2000 and lim.time_left == (0, 0) for lim in seen)
    from gamesuite.arena.record import save_record

    rec, *_ = load_record(save_record(r, tmp_path))
    assert rec.limits == r.limits and rec.moves == r.moves and r.plies <= 12
