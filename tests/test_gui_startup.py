"""The window while its engines load: "preparing", real progress, no clock running, no "thinking"."""

import json
import subprocess
import sys
import textwrap
import threading

import pytest

pytest.importorskip("PySide6")

from gamesuite.gui.clock import TimeControl
from gamesuite.gui.mainwindow import MainWindow
from gamesuite.gui.record import PlayerSpec

from .gui_fakes import FakeTime, ScriptedEngine

#: Set by a test: the slow engine's warm-up (this module's ``warm_up``) waits for it.
LOADED = threading.Event()


class SlowLoadingEngine(ScriptedEngine):
    """A scripted engine whose kernels "compile" until the test says so (``LOADED``)."""


def warm_up(engine=None) -> None:  # the hook warmup.warm_up_engine calls for this module's engines
    assert LOADED.wait(30), "the test never let the engine load"


def test_the_window_says_it_prepares_and_runs_no_clock_while_an_engine_loads(qtbot, tmp_path):
    LOADED.clear()
    made = []

    def factory(game, spec):
        made.append(SlowLoadingEngine(game, step_s=0.005, max_depth=3))
        return made[-1]

    clock = TimeControl(60_000)
    t = FakeTime()
    win = MainWindow(data_dir=tmp_path, engine_factory=factory, restore=False, game_spec="tictactoe",
                     players=[PlayerSpec("engine", "", 100, clock=clock), PlayerSpec("human", clock=clock)],
                     clock_source=t)
    qtbot.addWidget(win)
    win.show()
    qtbot.waitUntil(lambda: win.ready, timeout=30_000)  # the rules are loaded; the engine is not
    qtbot.wait(100)
    assert not win.engines_ready
    texts = [win.thinking_label.text(), win.banner.text(), win.panel.title.text()]
    assert win.thinking_label.text().startswith("Preparing the tictactoe engine")
    assert "preparing the tictactoe engine" in win.banner.text()
    assert not any("thinking" in x.lower() for x in texts), texts
    assert win.thinking.isVisible()
    # real progress, as the worker reports it while kernels compile
    win.host.progress.emit(win._ready_token, 3, 10, "the tictactoe engine")
    qtbot.waitUntil(lambda: "(3 of 10)" in win.thinking_label.text(), timeout=5000)
    assert (win.thinking.value(), win.thinking.maximum()) == (3, 10)
    # no clock runs while the engine loads, whatever time passes
    t.advance(20_000)
    win.clock_tick()
    assert not win.clock_timer.isActive() and win.clock.player is None
    assert [r.main for r in win.clock_readings()] == [60_000, 60_000]
    assert all(not e.searches for e in made)  # and no search has started
    LOADED.set()
    qtbot.waitUntil(lambda: win.engines_ready, timeout=30_000)
    qtbot.waitUntil(lambda: win.controller.current.parent is not None, timeout=30_000)  # the computer moved
    assert made[0].searches and made[0].searches[-1][1].time_left is not None  # under its clock, once ready
    win.close()


FIRST_MOVE = """
import json, os, sys
os.environ["QT_QPA_PLATFORM"] = "offscreen"
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication
app = QApplication([])
from gamesuite.gui.mainwindow import MainWindow
from gamesuite.gui.record import PlayerSpec
win = MainWindow(data_dir=sys.argv[1], restore=False, game_spec="hare",
                 players=[PlayerSpec("engine", "", None, 3), PlayerSpec("human")])
win.show()
out = {}
win.host.result.connect(lambda sid, purpose, r: out.setdefault("depth", r.depth))
def check():
    if "depth" in out:
        print(json.dumps(out), flush=True)
        app.quit()
t = QTimer(); t.timeout.connect(check); t.start(20)
QTimer.singleShot(600_000, app.quit)
app.exec()
"""


def test_a_fresh_windows_first_computer_move_is_a_full_search(tmp_path):
    # a new process (cold or warm cache), the computer moving first at a fixed depth: the depth it reports
    r = subprocess.run([sys.executable, "-c", textwrap.dedent(FIRST_MOVE), str(tmp_path)], capture_output=True,
                       text=True, timeout=900)
    assert r.returncode == 0, r.stderr[-2000:]
    assert json.loads(r.stdout.strip().splitlines()[-1])["depth"] == 3


def test_the_program_starts_compiling_the_last_games_engines_at_launch(tmp_path, monkeypatch):
    from PySide6.QtCore import QSettings

    from gamesuite import warmup
    from gamesuite.gui import app

    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    settings.setValue("game", "shogi")
    settings.setValue("players", json.dumps([{"kind": "human"}, {"kind": "engine", "engine": "alphabeta,hash=8"}]))
    settings.sync()
    monkeypatch.setenv("GAMESUITE_DATA_DIR", str(tmp_path))
    calls = []
    monkeypatch.setattr(warmup, "start_early", lambda game, spec="": calls.append((game, spec)))
    app.start_compiling_last_game()
    assert calls == [("shogi", "alphabeta,hash=8")]
    settings.setValue("players", "not json")
    settings.sync()
    calls.clear()
    app.start_compiling_last_game()
    assert calls == [("shogi", "")]  # unreadable players: the default engine
