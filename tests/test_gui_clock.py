"""Game clocks in the window and the New game dialog.

The clocks read a fake time source the tests move by hand, so nothing here
depends on how fast the machine is.
"""

import json

import pytest

pytest.importorskip("PySide6")

from PySide6.QtCore import Qt

from gamesuite.core.registry import load_game
from gamesuite.gui.mainwindow import MainWindow
from gamesuite.play.clock import ClockValue, TimeControl
from gamesuite.play.record import PlayerSpec

from .gui_fakes import Factory, FakeTime

FISCHER = TimeControl(60_000, increment=2_000)
BYO = TimeControl(1_000, byoyomi=5_000, periods=2)

def make_window(qtbot, tmp_path, players, factory=None, game="tictactoe", time=None):
    win = MainWindow(data_dir=tmp_path, engine_factory=factory or Factory(step_s=0.005), restore=False,
                     game_spec=game, players=players, clock_source=time or FakeTime())
    qtbot.addWidget(win)
    win.show()
    qtbot.waitUntil(lambda: win.ready and win.engines_ready, timeout=30_000)
    return win


def click(qtbot, win, cell_text):
    move = win.controller.state.parse_move(cell_text)
    qtbot.mouseClick(win.board, Qt.MouseButton.LeftButton, pos=win.board.point_of(move).toPoint())


def humans(clock):
    return [PlayerSpec("human", clock=clock), PlayerSpec("human", clock=clock)]


def clock_searches(factory):
    """The Limits of the searches made under a clock (not the warm-up's, nor the analysis')."""
    return [lim for e in factory.engines for _, lim in e.searches if lim.time_left is not None]


def mains(win):
    return [None if r is None else r.main for r in win.clock_readings()]


def test_a_humans_clock_runs_down_gets_its_increment_and_flags(qtbot, tmp_path):
    t = FakeTime()
    win = make_window(qtbot, tmp_path, humans(FISCHER), time=t)
    announced = []
    win.resultAnnounced.connect(announced.append)
    assert win.clock_panel.isVisible() and len(win.clock_panel.labels) == 2
    assert win.clock.player == 0 and win.clock_timer.isActive()
    t.advance(10_000)
    win.clock_tick()
    assert mains(win) == [50_000, 60_000]
    assert win.clock_panel.texts == ["0:50", "1:00"] and win.clock_panel.running == 0
    click(qtbot, win, "b2")
    node = win.controller.current
    assert node.clocks == (ClockValue(52_000, 0), ClockValue(60_000, 0))  # 60 - 10 + 2
    assert win.clock.player == 1 and win.clock_panel.running == 1
    t.advance(55_000)
    win.clock_tick()
    assert win.clock_panel.texts[1] == "0:05.0" and win.clock_panel.low == [False, True]
    assert "#c62828" not in win.clock_panel.labels[0].styleSheet()  # the warning colour only on O's clock
    assert "#c62828" in win.clock_panel.labels[1].styleSheet()
    win.set_theme("dark")
    assert "#ff5252" in win.clock_panel.labels[1].styleSheet()
    win.set_theme("light")
    t.advance(5_000)
    win.clock_tick()
    assert node.timeout == 1 and node.clocks[1] == ClockValue(0, 0)
    assert announced == ["O loses on time"]
    assert win.moves.toPlainText().rstrip().endswith("O loses on time")
    assert "Game over: O loses on time" in win.banner.text()
    assert not win.clock.running and not win.clock_timer.isActive()
    click(qtbot, win, "a1")  # too late
    assert win.controller.current is node and "O loses on time" in win.statusBar().currentMessage()
    saved = json.loads(win.controller.record.dumps(win.controller.current))
    assert saved["moves"][0]["result"]["reason"] == "time"
    win.close()


def test_a_late_move_between_two_ticks_loses_on_time(qtbot, tmp_path):
    t = FakeTime()
    win = make_window(qtbot, tmp_path, humans(TimeControl(5_000)), time=t)
    t.advance(5_001)  # no tick came in between
    click(qtbot, win, "b2")
    assert win.controller.current is win.controller.record.root
    assert win.controller.record.root.timeout == 0
    assert json.loads(win.controller.record.dumps())["start_result"]["loser"] == 0
    win.close()


def test_byoyomi_resets_per_move_in_the_window(qtbot, tmp_path):
    t = FakeTime()
    win = make_window(qtbot, tmp_path, humans(BYO), time=t)
    assert win.clock_panel.texts[0] == "0:01.0 + 5 s ×2"
    t.advance(4_000)
    win.clock_tick()
    assert win.clock_panel.texts[0] == "0:02.0 (byoyomi ×2)"
    click(qtbot, win, "b2")
    assert win.controller.current.clocks[0] == ClockValue(0, 2)
    click(qtbot, win, "a1")  # O answers at once
    t.advance(7_000)  # X uses up a period and 2 s of the next
    click(qtbot, win, "c3")
    assert win.controller.current.clocks[0] == ClockValue(0, 1)
    click(qtbot, win, "a3")
    t.advance(4_900)
    win.clock_tick()
    assert win.controller.current.timeout is None and win.clock_panel.low[0]
    t.advance(100)
    win.clock_tick()
    assert win.controller.current.timeout == 0
    win.close()


def test_clocks_pause_in_analyse_mode_when_browsing_and_in_setup(qtbot, tmp_path):
    t = FakeTime()
    win = make_window(qtbot, tmp_path, humans(FISCHER), time=t)
    click(qtbot, win, "b2")
    t.advance(3_000)
    win.controller.back()  # browsing the past: O's 3 s are kept, nothing more runs
    assert not win.clock.running
    t.advance(100_000)
    win.clock_tick()
    assert win.controller.current.timeout is None
    win.controller.forward()
    assert win.clock.player == 1 and mains(win) == [62_000, 57_000]
    win.set_mode("analyse")
    assert not win.clock.running
    t.advance(100_000)
    win.clock_tick()
    win.set_mode("play")
    assert win.clock.running and mains(win) == [62_000, 57_000]
    win.begin_setup()
    assert not win.clock.running
    win.end_setup()
    assert win.clock.running
    t.advance(1_000)
    click(qtbot, win, "a1")
    assert win.controller.current.clocks == (ClockValue(62_000, 0), ClockValue(58_000, 0))
    win.close()


def test_taking_back_restores_the_clocks_of_that_position(qtbot, tmp_path):
    t = FakeTime()
    players = [PlayerSpec("human", clock=FISCHER), PlayerSpec("engine", "", 500, None, FISCHER)]
    factory = Factory(step_s=0.005)
    win = make_window(qtbot, tmp_path, players, factory, time=t)
    t.advance(20_000)
    click(qtbot, win, "b2")
    qtbot.waitUntil(lambda: bool(clock_searches(factory)), timeout=5000)
    t.advance(4_000)
    win.host.move_now()
    qtbot.waitUntil(lambda: len(win.controller.current.moves()) == 2, timeout=5000)
    assert win.controller.current.clocks == (ClockValue(42_000, 0), ClockValue(58_000, 0))
    t.advance(30_000)
    win.clock_tick()
    assert mains(win) == [12_000, 58_000]
    win.takeback()  # back to X's first move: X had the full minute there
    assert win.controller.current is win.controller.record.root
    assert mains(win) == [60_000, 60_000] and not win.clock.running
    win.controller.to_end()
    assert mains(win) == [12_000, 58_000]  # the 30 s spent there are not given back
    win.takeback()
    t.advance(5_000)  # the clock does not run at an earlier position...
    click(qtbot, win, "a1")  # ...so a move there takes no time and earns no increment
    assert win.controller.current.clocks == (ClockValue(60_000, 0), ClockValue(60_000, 0))
    assert len(win.controller.record.root.children) == 2  # a variation
    assert win.clock.player == 1  # and the clock runs again at the end of the new line
    win.close()


def test_an_engine_with_a_clock_gets_limits_from_it(qtbot, tmp_path):
    t = FakeTime()
    factory = Factory(step_s=0.005)
    players = [PlayerSpec("human", clock=FISCHER),
               PlayerSpec("engine", "", 500, None, TimeControl(120_000, increment=1_000))]
    win = make_window(qtbot, tmp_path, players, factory, time=t)
    t.advance(10_000)
    click(qtbot, win, "b2")
    qtbot.waitUntil(lambda: bool(clock_searches(factory)), timeout=5000)
    limits = clock_searches(factory)[0]
    assert limits.time_left == (52_000, 120_000 - 100) and limits.increment == (2_000, 1_000)
    assert limits.byoyomi is None and limits.movetime is None and limits.depth is None
    assert "thinking" in win.banner.text() and win.clock_panel.running == 1
    t.advance(7_000)
    win.host.move_now()
    qtbot.waitUntil(lambda: len(win.controller.current.moves()) == 2, timeout=5000)
    assert win.controller.current.clocks == (ClockValue(52_000, 0), ClockValue(114_000, 0))
    win.close()


def test_an_engine_in_byoyomi_is_told_its_period(qtbot, tmp_path):
    t = FakeTime()
    factory = Factory(step_s=0.005)
    tc = TimeControl(0, byoyomi=30_000)
    win = make_window(qtbot, tmp_path, [PlayerSpec("engine", "", 500, None, tc), PlayerSpec("human")],
                      factory, time=t)
    qtbot.waitUntil(lambda: bool(clock_searches(factory)), timeout=5000)
    limits = clock_searches(factory)[-1]
    assert limits.time_left == (0, 0) and limits.byoyomi == 30_000 - 100 and limits.increment == (0, 0)
    assert win.clock_panel.texts == ["0:30 (byoyomi)", "—"]
    t.advance(30_000)  # the engine did not answer in time
    win.clock_tick()
    assert win.controller.record.root.timeout == 0 and win.host.current is None
    assert "X loses on time" in win.banner.text()
    win.close()


def test_an_engine_that_overruns_its_time_is_made_to_move_before_the_flag(qtbot, tmp_path):
    t = FakeTime()
    factory = Factory(step_s=0.005)  # the scripted engine ignores the clock: it thinks until stopped
    tc = TimeControl(0, byoyomi=30_000)
    win = make_window(qtbot, tmp_path, [PlayerSpec("engine", "", 500, None, tc), PlayerSpec("human", clock=tc)],
                      factory, time=t)
    qtbot.waitUntil(lambda: bool(clock_searches(factory)), timeout=5000)
    t.advance(29_950)
    win.clock_tick()
    qtbot.waitUntil(lambda: len(win.controller.current.moves()) == 1, timeout=5000)
    assert win.controller.current.clocks == (ClockValue(0, 1), ClockValue(0, 1))
    assert win.controller.current.timeout is None and win.clock.player == 1
    win.close()


def test_two_computers_with_clocks_play_to_the_end(qtbot, tmp_path):
    t = FakeTime()
    factory = Factory(step_s=0.001, max_depth=2)
    tc = TimeControl(60_000, increment=1_000)
    win = make_window(qtbot, tmp_path, [PlayerSpec("engine", "", 500, None, tc)] * 2, factory, time=t)
    announced = []
    win.resultAnnounced.connect(announced.append)
    qtbot.waitUntil(lambda: win.controller.state.is_terminal(), timeout=10_000)
    moves = win.controller.current.moves()
    x_moves, o_moves = (len(moves) + 1) // 2, len(moves) // 2
    assert win.controller.current.clocks == (ClockValue(60_000 + 1_000 * x_moves, 0),
                                             ClockValue(60_000 + 1_000 * o_moves, 0))
    lims = clock_searches(factory)  # one search per move, each told its mover's clock
    assert [lim.time_left[k % 2] for k, lim in enumerate(lims)] == \
        [60_000 + 1_000 * (k // 2) - 100 for k in range(len(moves))]
    assert announced and not win.clock.running
    win.close()


def test_an_engine_without_a_clock_keeps_its_movetime(qtbot, tmp_path):
    factory = Factory(step_s=0.005)
    players = [PlayerSpec("human", clock=FISCHER), PlayerSpec("engine", "", 40, None)]
    win = make_window(qtbot, tmp_path, players, factory)
    click(qtbot, win, "b2")
    qtbot.waitUntil(lambda: len(win.controller.current.moves()) == 2, timeout=5000)
    limits = [lim for e in factory.engines for _, lim in e.searches if lim.movetime == 40]
    assert limits and limits[-1].time_left is None
    assert win.clock_panel.texts[1] == "—" and win.controller.current.clocks[1] is None
    win.close()


def test_save_and_load_keep_the_control_and_the_times(qtbot, tmp_path):
    t = FakeTime()
    win = make_window(qtbot, tmp_path, humans(BYO), time=t)
    t.advance(2_000)
    click(qtbot, win, "b2")
    t.advance(500)
    click(qtbot, win, "a1")
    path = tmp_path / "games" / "clock.json"
    assert win.save_to(path)
    saved = path.read_text()
    win.new_game(load_game("tictactoe"), humans(None))
    qtbot.waitUntil(lambda: win.ready and win.engines_ready, timeout=30_000)
    assert not win.clock_panel.isVisible()
    assert win.load_from(path)
    qtbot.waitUntil(lambda: win.ready and win.engines_ready, timeout=30_000)
    rec = win.controller.record
    assert rec.dumps(win.controller.current) == saved
    assert [p.clock for p in rec.players] == [BYO, BYO]
    assert win.controller.current.clocks == (ClockValue(0, 2), ClockValue(500, 2))
    assert win.clock.player == 0 and win.clock_panel.isVisible()  # the clock goes on where it was
    t.advance(1_000)
    win.clock_tick()
    assert win.clock_panel.texts[0] == "0:04.0 (byoyomi ×2)"
    win.close()


def test_an_old_file_without_clocks_opens_without_clocks(qtbot, tmp_path):
    win = make_window(qtbot, tmp_path, humans(FISCHER))
    path = tmp_path / "old.json"
    path.write_text(json.dumps({"format": "gamesuite-game", "version": 1, "game": "tictactoe",
                                "players": [{"kind": "human"}, {"kind": "human"}],
                                "moves": [{"move": "b2"}]}))
    assert win.load_from(path)
    assert not win.clock_panel.isVisible() and not win.clock.running
    click(qtbot, win, "a1")
    assert win.controller.current.clocks is None
    win.close()


def test_the_clocks_are_kept_in_the_settings_with_the_players(qtbot, tmp_path):
    win = make_window(qtbot, tmp_path, humans(None))
    players = [PlayerSpec("human", clock=BYO), PlayerSpec("engine", "", 300, None, FISCHER)]
    win.new_game(load_game("tictactoe"), players)
    win.close()
    again = MainWindow(data_dir=tmp_path, engine_factory=Factory(), restore=False, clock_source=FakeTime())
    qtbot.addWidget(again)
    assert [p.clock for p in again.controller.players] == [BYO, FISCHER]
    again.close()


def test_hare_shows_a_clock_for_each_of_six_players(qtbot, tmp_path):
    t = FakeTime()
    tc = TimeControl(180_000, increment=5_000)
    players = [PlayerSpec("human", clock=tc) for _ in range(6)]
    win = make_window(qtbot, tmp_path, players, game="hare(players=6)", time=t)
    assert len(win.clock_panel.labels) == 6 and win.clock_panel.running == 0
    t.advance(1_000)
    win.clock_tick()
    assert win.clock_panel.texts == ["2:59"] + ["3:00"] * 5
    win.close()


# -- the New game dialog ---------------------------------------------------------------------


def test_new_game_dialog_chooses_one_clock_for_all_or_one_per_player(qtbot):
    from gamesuite.gui.dialogs import NewGameDialog

    dlg = NewGameDialog(None, load_game("tictactoe"), humans(None))
    qtbot.addWidget(dlg)
    assert dlg.same_clock.isChecked() and dlg.clock.kind.currentIndex() == 0
    assert [p.clock for p in dlg.result_players()] == [None, None]
    dlg.clock.kind.setCurrentIndex(2)
    dlg.clock.base.setValue(10)
    dlg.clock.extra.setValue(30)
    want = TimeControl(600_000, byoyomi=30_000, periods=1)
    assert [p.clock for p in dlg.result_players()] == [want, want]
    dlg.same_clock.setChecked(False)
    assert not dlg.rows[0].clock.isHidden()
    assert [p.clock for p in dlg.result_players()] == [want, want]  # each starts with the shared clock
    dlg.rows[0].clock.kind.setCurrentIndex(1)
    dlg.rows[0].clock.base.setValue(5)
    dlg.rows[0].clock.extra.setValue(3)
    dlg.rows[1].clock.kind.setCurrentIndex(0)  # no clock for O
    assert [p.clock for p in dlg.result_players()] == [TimeControl(300_000, increment=3_000), None]
    dlg.rows[1].clock.kind.setCurrentIndex(1)
    dlg.rows[1].clock.base.setValue(0)
    dlg._accept()  # no time at all: refused with the reason
    assert "base time" in dlg.error.text() and dlg.result() == 0
    # reopened with per-player clocks, the dialog shows them per player
    again = NewGameDialog(None, load_game("tictactoe"),
                          [PlayerSpec("human", clock=BYO), PlayerSpec("human", clock=FISCHER)])
    qtbot.addWidget(again)
    assert not again.same_clock.isChecked()
    assert [p.clock for p in again.result_players()] == [BYO, FISCHER]


def test_new_game_dialog_gives_every_hare_player_a_clock(qtbot):
    from gamesuite.gui.dialogs import NewGameDialog

    dlg = NewGameDialog(None, load_game("hare"), [PlayerSpec("human", clock=FISCHER)] * 2)
    qtbot.addWidget(dlg)
    dlg.param_widgets["players"].setValue(5)
    assert [p.clock for p in dlg.result_players()] == [FISCHER] * 5
