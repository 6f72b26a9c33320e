"""The Qt-free play session: clocks (sudden death, increment, byoyomi), flag fall, adjudication, move-now."""

from __future__ import annotations

import pytest

from gamesuite.core import InvalidOptionError, Limits, load_game
from gamesuite.play.clock import ClockValue, TimeControl
from gamesuite.play.session import PlaySession


class FakeTime:
    def __init__(self) -> None:
        self.t = 0

    def __call__(self) -> int:
        return self.t


@pytest.mark.parametrize("text, control", [
    ("60+0.5", TimeControl(60_000, increment=500)),
    ("300+0", TimeControl(300_000)),
    ("300", TimeControl(300_000)),
    ("600+30b", TimeControl(600_000, byoyomi=30_000)),
    ("0+10b", TimeControl(0, byoyomi=10_000)),
    ("60+5b3", TimeControl(60_000, byoyomi=5000, periods=3)),
])
def test_a_time_control_reads_its_text_and_writes_it_back(text, control):
    assert TimeControl.parse(text) == control
    assert TimeControl.parse(control.spec()) == control


@pytest.mark.parametrize("bad", ["", "soon", "-1+2", "0+0", "60+5b0", "60+5x"])
def test_a_bad_clock_text_is_a_precise_error(bad):
    with pytest.raises(InvalidOptionError) as e:
        TimeControl.parse(bad)
    assert repr(bad) in str(e.value)


def test_an_increment_clock_runs_for_the_mover_and_gains_the_increment():
    g = load_game("tictactoe")
    now = FakeTime()
    s = PlaySession(g.new_state(), [TimeControl(10_000, increment=1000)] * 2, now=now)
    s.begin_turn()
    now.t = 3000
    assert s.reading(0).main == 7000 and s.reading(1).main == 10_000
    lim = s.limits(0, Limits(depth=3))
    assert (lim.time_left, lim.increment, lim.byoyomi, lim.depth) == ((7000, 10_000), (1000, 1000), None, 3)
    assert s.play(g.new_state().parse_move("b2"))
    assert s.clocks == [ClockValue(8000), ClockValue(10_000)] and s.to_move == 1
    # the engine is told a little less than its clock shows (a tenth at most)
    assert s.limits(1, margin_ms=300).time_left == (8000, 9700)


def test_byoyomi_keeps_a_period_used_in_time_and_loses_one_used_up():
    g = load_game("shogi(variant=mini)")
    now = FakeTime()
    ctl = TimeControl(1000, byoyomi=500, periods=2)
    s = PlaySession(g.new_state(), [ctl, ctl], now=now)
    st = g.new_state()
    s.begin_turn()
    now.t = 1300  # into the first period
    assert s.limits(0).byoyomi == 200 and s.limits(0).time_left[0] == 0
    assert s.play(st.legal_moves()[0])
    assert s.clocks[0] == ClockValue(0, 2)
    s.begin_turn()
    now.t += 100
    assert s.play(s.state.legal_moves()[0])
    s.begin_turn()
    now.t += 700  # the first period used up: one left
    assert s.play(s.state.legal_moves()[0])
    assert s.clocks[0] == ClockValue(0, 1)
    assert s.allowed(0) == 500 and s.limits(0).byoyomi == 500


def test_a_flag_falls_past_the_grace_and_the_mover_loses_on_time():
    g = load_game("tictactoe")
    now = FakeTime()
    s = PlaySession(g.new_state(), [TimeControl(1000), None], grace_ms=100, labels=["a", "b"], now=now)
    s.begin_turn()
    now.t = 1050
    assert not s.flag_fell()  # within the grace
    now.t = 1101
    assert s.flag_fell() and s.over
    assert s.outcome.returns == (-1.0, 1.0) and s.outcome.adjudication.kind == "time"
    assert s.outcome.reason == "X (a) loses: time: took 1101 ms with 1000 ms allowed"


def test_a_move_within_the_grace_leaves_the_last_millisecond_and_a_late_one_loses():
    g = load_game("tictactoe")
    s = PlaySession(g.new_state(), [TimeControl(1000), TimeControl(1000)], grace_ms=100)
    assert s.play(4, spent=1050) and s.clocks[0] == ClockValue(1)
    assert not s.play(0, spent=1101) and s.outcome.adjudication.seat == 1
    with pytest.raises(InvalidOptionError, match="over"):
        s.play(1, spent=0)


def test_a_fixed_movetime_is_judged_like_a_clock():
    g = load_game("tictactoe")
    s = PlaySession(g.new_state(), None, grace_ms=50)
    assert s.play(4, spent=140, limit_ms=100)
    assert not s.play(0, spent=151, limit_ms=100)
    assert "took 151 ms with 100 ms allowed" in s.outcome.reason


def test_an_illegal_move_loses_and_quotes_the_move_and_the_position():
    g = load_game("tictactoe")
    s = PlaySession(g.new_state())
    s.play(4, spent=0)
    assert not s.play(4, spent=0)
    assert s.outcome.adjudication.kind == "illegal" and "'b2'" in s.outcome.reason


def test_the_rules_end_the_game_and_move_now_sets_the_turns_stop_flag():
    g = load_game("tictactoe")
    s = PlaySession(g.new_state())
    for m in (0, 3, 1, 4):
        s.play(m, spent=0)
    flag = s.begin_turn()
    s.move_now()
    assert flag[0] == 1
    s.play(2, spent=0)
    assert s.over and s.outcome.returns == (1.0, -1.0) and s.outcome.adjudication is None
    d = PlaySession(g.new_state()).draw("ply limit", "9 plies played")
    assert d.returns == (0.0, 0.0) and d.reason == "draw by adjudication: 9 plies played"


def test_players_without_a_clock_show_the_movers_and_reorder_swaps_seats():
    g = load_game("tictactoe")
    s = PlaySession(g.new_state(), [TimeControl(5000, increment=100), None], labels=["a", "b"])
    assert s.limits(0).time_left == (5000, 5000) and s.limits(1) == Limits()
    s.reorder([1, 0])
    assert s.controls[1] == TimeControl(5000, increment=100) and s.labels == ["b", "a"]


def test_a_session_from_a_position_with_its_clocks_and_a_turn_already_running():
    """How the window uses the session: the position shown, its clocks, the time spent there so far."""
    g = load_game("shogi")
    st = g.new_state()
    st.play(st.parse_move("7g7f"))
    now = FakeTime()
    now.t = 50_000
    byo = TimeControl(10_000, byoyomi=5_000)
    s = PlaySession(st, [byo, byo], clocks=[ClockValue(9_000, 1), ClockValue(2_000, 1)], now=now)
    s.begin_turn(spent_ms=1_500)  # white to move, 1.5 s spent already
    assert s.to_move == 1 and s.reading(1).main == 500 and s.reading(0).main == 9_000
    lim = s.limits(1, margin_ms=100)
    assert lim.time_left == (9_000, 450) and lim.byoyomi == 5_000 - 100
    now.t += 499
    assert not s.flag_fell()
    now.t += 1 + 5_000  # main time and the one period used up: the clock reads zero
    assert s.flag_fell() and s.outcome.adjudication.seat == 1
    with pytest.raises(InvalidOptionError):
        PlaySession(st, [byo, byo], clocks=[ClockValue(1, 0)])
