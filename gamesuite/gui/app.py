"""Start the desktop program."""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PySide6.QtCore import QCoreApplication

    from .mainwindow import MainWindow


def run_app(argv: list[str], quit_after_ms: int | None = None) -> int:
    """Open the main window and run the event loop; returns the exit status.

    ``argv`` may name a saved game (``.json``) to open. ``quit_after_ms`` closes the
    window after that many milliseconds (for smoke tests of an installed program).
    """
    from PySide6.QtCore import QTimer

    app, win = start(argv)
    if quit_after_ms is not None:
        QTimer.singleShot(quit_after_ms, win.close)
    return int(app.exec())


def start(argv: list[str]) -> tuple[QCoreApplication, MainWindow]:
    """The program up to its event loop: the application and the main window, shown (``run_app`` then
    runs the loop; a script driving the program under an X server runs its own)."""
    if not [a for a in argv if not a.startswith("-")]:
        start_compiling_last_game()  # before Qt's widgets and the window are loaded (seconds)
    from PySide6.QtWidgets import QApplication

    from .mainwindow import MainWindow
    from .messages import install_excepthook

    app = QApplication.instance() or QApplication([sys.argv[0]])
    app.setApplicationName("gamesuite")
    app.setOrganizationName("gamesuite")
    win = MainWindow()
    # the last resort: an exception that escapes a slot becomes a dialog (the game stays), not a trace on stderr
    install_excepthook(win.error_dialog, win.storage.data_dir / "errors.log")
    win.show()
    files = [a for a in argv if not a.startswith("-")]
    if files:
        win.load_from(files[0])
    if os.environ.get("GAMESUITE_REPORT_STARTUP"):
        # for start-time measurements of an installed program (packaging/smoke_test.sh)
        win.interactive.connect(lambda: print("interactive", file=sys.stderr, flush=True))
    return app, win


def start_compiling_last_game() -> None:
    """On a cold numba cache, start compiling the engines of the game the window will open (the last one
    played) now, in the background (``warmup.start_early``); the window's worker then waits for it.
    Never raises: the window prepares its engines anyway."""
    try:
        import json

        from PySide6.QtCore import QSettings

        from .. import warmup
        from .storage import APP

        data = os.environ.get("GAMESUITE_DATA_DIR")
        settings = (QSettings(os.path.join(data, "settings.ini"), QSettings.Format.IniFormat) if data
                    else QSettings(APP, APP))
        game = str(settings.value("game", "") or "tictactoe")  # (mainwindow.DEFAULT_GAME)
        engines = [""]
        try:
            players = json.loads(str(settings.value("players", "") or "[]"))
            engines = [str(p.get("engine", "")) for p in players if p.get("kind") == "engine"] or [""]
        except (ValueError, TypeError, AttributeError):
            pass
        for spec in dict.fromkeys(engines):
            warmup.start_early(game, spec)
    except Exception:  # noqa: BLE001 - only a head start
        pass
