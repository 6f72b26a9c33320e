"""The window opens offscreen, takes a click and the engine answers from its thread."""

import pytest

pytest.importorskip("PySide6")

from gamesuite.gui.mainwindow import MainWindow  # noqa: E402


def test_click_and_engine_reply(qtbot):
    win = MainWindow()
    qtbot.addWidget(win)
    win.show()
    win.buttons[4].click()  # X takes the centre
    assert win.state.board[4] == 1
    qtbot.waitUntil(lambda: len(win.state.history) == 2, timeout=10_000)
    assert win.state.board.tolist().count(2) == 1  # O answered
    win.buttons[4].click()  # taken: refused with a reason
    assert "taken" in win.status.text()
    win.close()
