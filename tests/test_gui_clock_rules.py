"""Game clocks without Qt: the clock rules and the record's clock fields."""

import json
import pathlib
import re

import pytest

from gamesuite.core.errors import InvalidRecordError
from gamesuite.core.registry import load_game
from gamesuite.play.clock import ClockRunner, ClockValue, TimeControl, after_move, available, format_ms, reading
from gamesuite.play.record import GameRecord, PlayerSpec

from .gui_fakes import FakeTime

FISCHER = TimeControl(60_000, increment=2_000)
BYO = TimeControl(1_000, byoyomi=5_000, periods=2)


# -- the clock rules (no Qt) --------------------------------------------------------------------


def test_fischer_clock_runs_down_adds_the_increment_and_flags():
    v = FISCHER.start()
    assert v == ClockValue(60_000, 0)
    r = reading(FISCHER, v, 10_500)
    assert (r.main, r.flagged, r.left) == (49_500, False, 49_500)
    assert after_move(FISCHER, v, 10_500) == ClockValue(51_500, 0)
    assert reading(FISCHER, v, 59_999).flagged is False
    assert reading(FISCHER, v, 60_000).flagged is True
    assert after_move(FISCHER, v, 60_001) is None


def test_byoyomi_periods_reset_per_move_and_the_last_one_loses():
    v = BYO.start()
    assert v == ClockValue(1_000, 2)
    r = reading(BYO, v, 500)
    assert (r.main, r.period, r.periods, r.in_byoyomi) == (500, 5_000, 2, False)
    r = reading(BYO, v, 3_000)  # main time gone, 2 s into the first period
    assert (r.main, r.period, r.periods, r.in_byoyomi, r.left) == (0, 3_000, 2, True, 3_000)
    v = after_move(BYO, v, 3_000)
    assert v == ClockValue(0, 2)  # the period used resets: both periods are left
    r = reading(BYO, v, 5_500)  # a whole period used up: one is lost
    assert (r.period, r.periods, r.flagged) == (4_500, 1, False)
    v = after_move(BYO, v, 5_500)
    assert v == ClockValue(0, 1)
    assert after_move(BYO, v, 4_999) == ClockValue(0, 1)
    assert reading(BYO, v, 5_000).flagged
    assert after_move(BYO, v, 5_000) is None
    assert available(BYO, BYO.start()) == 11_000 and available(FISCHER, ClockValue(7, 0)) == 7
    assert reading(BYO, BYO.start(), 10_999).flagged is False and reading(BYO, BYO.start(), 11_000).flagged


def test_pure_byoyomi_and_texts():
    tc = TimeControl(0, byoyomi=30_000)
    assert reading(tc, tc.start(), 29_000).left == 1_000
    assert reading(tc, tc.start(), 30_000).flagged
    assert tc.text() == "30 s byoyomi"
    assert TimeControl(300_000, increment=3_000).text() == "5 min + 3 s"
    assert TimeControl(600_000, byoyomi=30_000, periods=3).text() == "10 min + 30 s byoyomi ×3"
    assert [format_ms(ms) for ms in (3_723_000, 299_900, 9_349, 0, -5)] == \
        ["1:02:03", "4:59", "0:09.3", "0:00.0", "0:00.0"]


def test_clock_runner_pauses_and_resumes_where_it_stopped():
    t = FakeTime()
    run = ClockRunner(t)
    run.start(7, 0)
    t.advance(3_000)
    assert run.spent(7) == 3_000
    run.pause()
    t.advance(50_000)  # browsing: not counted
    assert run.spent(7) == 3_000 and not run.running
    run.start(7, 0)
    t.advance(1_000)
    assert run.take(7) == 4_000
    assert run.spent(7) == 0 and not run.running
    assert run.take(7) is None and run.take(8) is None  # the clock never ran there (since)


@pytest.mark.parametrize("clock, what", [
    ({"base": -5, "increment": 0}, "-5"),
    ({"base": "5 min"}, "5 min"),
    ({"base": 1000, "increment": 1000, "byoyomi": 1000}, "not both"),
    ({"base": 0, "increment": 1000}, "base time or a byoyomi"),
    ({"base": 1000, "byoyomi": 1000, "periods": 0}, "at least one period"),
    ({"base": 1000, "moves": 40}, "moves"),
    ([300000, 3000], "300000"),
    ({"base": True}, "True"),
])
def test_bad_time_controls_are_refused_quoting_them(clock, what):
    d = {"format": "gamesuite-game", "version": 1, "game": "tictactoe",
         "players": [{"kind": "human", "clock": clock}, {"kind": "human"}]}
    with pytest.raises(InvalidRecordError, match=re.escape(what)):
        GameRecord.from_json(d)


@pytest.mark.parametrize("entry, what", [
    ({"move": "b2", "clock": [1000]}, "[1000]"),
    ({"move": "b2", "clock": [1000, -1]}, "-1"),
    ({"move": "b2", "clock": "1000,1000"}, "1000,1000"),
    ({"move": "b2", "clock": [1000, 1000], "periods": [1, "x"]}, "'x'"),
    ({"move": "b2", "result": {"reason": "resign", "loser": 0}}, "resign"),
    ({"move": "b2", "result": {"reason": "time", "loser": 2}}, "got '2'"),
])
def test_bad_clock_values_in_moves_are_refused_quoting_them(entry, what):
    d = {"format": "gamesuite-game", "version": 1, "game": "tictactoe",
         "players": [{"kind": "human", "clock": {"base": 60000, "increment": 0}}, {"kind": "human"}],
         "moves": [entry]}
    with pytest.raises(InvalidRecordError, match=re.escape(what)):
        GameRecord.from_json(d)


def test_record_keeps_controls_remaining_times_and_the_time_result():
    game = load_game("tictactoe")
    rec = GameRecord(game, players=[PlayerSpec("human", clock=BYO),
                                    PlayerSpec("engine", "", 500, None, FISCHER)])
    s = rec.start_state()
    b2 = rec.add_move(rec.root, s.parse_move("b2"))
    b2.clocks = (ClockValue(0, 1), ClockValue(60_000, 0))
    a1 = rec.add_move(b2, s.parse_move("a1"))
    a1.clocks = (ClockValue(0, 1), ClockValue(12_000, 0))
    a1.timeout = 0
    d = rec.to_json(a1)
    assert d["players"][0]["clock"] == {"base": 1000, "byoyomi": 5000, "periods": 2}
    assert d["players"][1]["clock"] == {"base": 60000, "increment": 2000}
    assert d["moves"][1]["clock"] == [0, 12000] and d["moves"][1]["periods"] == [1, 0]
    assert d["moves"][1]["result"] == {"reason": "time", "loser": 0, "text": "X loses on time"}
    back, cur = GameRecord.loads(rec.dumps(a1))
    assert back.dumps(cur) == rec.dumps(a1)
    assert back.players[0].clock == BYO and back.players[1].clock == FISCHER
    assert cur.clocks == a1.clocks and cur.timeout == 0
    assert back.clocks_at(back.root) == (ClockValue(1_000, 2), ClockValue(60_000, 0))
    assert back.timeout_text(cur) == "X loses on time"


def test_a_file_without_clocks_loads_with_no_clock():
    text = json.dumps({"format": "gamesuite-game", "version": 1, "game": "tictactoe",
                       "players": [{"kind": "human"}, {"kind": "engine", "engine": "", "movetime": 700}],
                       "moves": [{"move": "b2"}, {"move": "a1"}]})
    rec, cur = GameRecord.loads(text)
    assert not rec.has_clocks and rec.players[1].clock is None and rec.players[1].movetime == 700
    assert cur.clocks is None and cur.timeout is None
    assert "clock" not in rec.dumps(cur)  # and nothing about clocks is written back


def test_the_documented_clock_example_loads():
    doc = (pathlib.Path(__file__).parents[1] / "docs" / "game-json.md").read_text()
    examples = re.findall(r"```json\n(.*?)```", doc, re.S)
    rec, cur = GameRecord.loads(examples[1])
    assert rec.players[0].clock == TimeControl(300_000, increment=3_000)
    assert rec.players[1].clock == TimeControl(600_000, byoyomi=30_000, periods=1)
    assert rec.mainline()[1].clocks == (ClockValue(291_500, 0), ClockValue(600_000, 1))
    assert cur.clocks == (ClockValue(0, 0), ClockValue(0, 1))
    assert cur.timeout == 0 and rec.timeout_text(cur) == "X loses on time"
