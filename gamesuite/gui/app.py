"""Start the desktop program."""

from __future__ import annotations

import sys


def run_app(argv: list[str]) -> int:
    """Open the main window and run the event loop; returns the exit status.

    ``argv`` may name a saved game (``.json``) to open.
    """
    from PySide6.QtWidgets import QApplication

    from .mainwindow import MainWindow

    app = QApplication.instance() or QApplication([sys.argv[0]])
    app.setApplicationName("gamesuite")
    app.setOrganizationName("gamesuite")
    win = MainWindow()
    win.show()
    files = [a for a in argv if not a.startswith("-")]
    if files:
        win.load_from(files[0])
    return int(app.exec())
