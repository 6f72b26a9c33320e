"""The window opens offscreen, takes a click and the real engine answers from its thread."""

import pytest

pytest.importorskip("PySide6")

from PySide6.QtCore import Qt

from gamesuite.gui.mainwindow import MainWindow
from gamesuite.play.record import PlayerSpec


def test_click_and_engine_reply(qtbot, tmp_path):
    win = MainWindow(data_dir=tmp_path, restore=False, game_spec="tictactoe",
                     players=[PlayerSpec("human"), PlayerSpec("engine", "", None, 9)])
    qtbot.addWidget(win)
    win.show()
    qtbot.waitUntil(lambda: win.ready, timeout=30_000)
    qtbot.mouseClick(win.board, Qt.MouseButton.LeftButton, pos=win.board.point_of(4).toPoint())
    assert win.controller.state.board[4] == 1  # X took the centre
    qtbot.waitUntil(lambda: len(win.controller.state.history) == 2, timeout=10_000)
    assert win.controller.state.board.tolist().count(2) == 1  # O answered
    qtbot.mouseClick(win.board, Qt.MouseButton.LeftButton, pos=win.board.point_of(4).toPoint())
    assert "taken" in win.message_bar.text()  # refused, with the reason
    assert len(win.controller.state.history) == 2
    win.close()
