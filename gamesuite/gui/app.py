"""Start the desktop program."""

from __future__ import annotations

import sys


def run_app(argv: list[str]) -> int:
    """Open the main window and run the event loop; returns the exit status."""
    from PySide6.QtWidgets import QApplication

    from .mainwindow import MainWindow

    app = QApplication.instance() or QApplication([sys.argv[0], *argv])
    app.setApplicationName("gamesuite")
    app.setOrganizationName("gamesuite")
    win = MainWindow()
    win.show()
    return app.exec()
