"""Messages that stay until read: the inline message bar, error dialogs and the last-resort handler.

The status bar is for news that may pass (*Saved*, *Copied*). What the user must
read (a refused move, a position the rules refuse, a file that cannot be read,
an engine that failed) goes to the ``MessageBar`` above the board, which keeps
it until the user closes it or a newer message replaces it; a failure to read
or write a file also gets a dialog. ``install_excepthook`` turns any exception
that would escape a Qt slot into a dialog (and a line in ``errors.log``): the
game stays as it was, and nothing reaches standard error; so do exceptions
that end a Python thread.
"""

from __future__ import annotations

import sys
import threading
import traceback
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from types import TracebackType

from PySide6.QtCore import QObject, Qt, Signal, Slot
from PySide6.QtWidgets import QHBoxLayout, QLabel, QMessageBox, QToolButton, QWidget

#: Message kinds and their colours (background, text) in the light and the dark theme.
STYLES = {
    "error": {"light": ("#fde2e1", "#7a1712"), "dark": ("#5a2522", "#ffd9d6")},
    "warning": {"light": ("#fff1cc", "#5c4300"), "dark": ("#4d3d12", "#ffe8a8")},
    "info": {"light": ("#dcecff", "#173d6b"), "dark": ("#1f3656", "#d6e6ff")},
}


class MessageBar(QWidget):
    """One message, word-wrapped, with a close button; hidden when there is none."""

    closed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("messagebar")
        self.kind = ""
        self.theme = "light"
        self.label = QLabel()
        self.label.setWordWrap(True)
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.label.setTextFormat(Qt.TextFormat.PlainText)
        self.close_button = QToolButton()
        self.close_button.setText("✕")
        self.close_button.setToolTip("Close this message")
        self.close_button.setAutoRaise(True)
        self.close_button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.close_button.clicked.connect(lambda: self.dismiss())
        box = QHBoxLayout(self)
        box.setContentsMargins(8, 4, 4, 4)
        box.addWidget(self.label, 1)
        box.addWidget(self.close_button, 0, Qt.AlignmentFlag.AlignTop)
        self.setAttribute(Qt.WidgetAttribute.WA_StyledBackground, True)
        self.setVisible(False)

    def text(self) -> str:
        return self.label.text() if self.kind else ""

    def show_message(self, text: str, kind: str = "error") -> None:
        """Show ``text`` until the user closes it or another message comes."""
        self.kind = kind if kind in STYLES else "error"
        self.label.setText(text)
        self._restyle()
        self.setVisible(True)

    def dismiss(self, kind: str | None = None) -> None:
        """Hide the message (only one of ``kind`` when given)."""
        if not self.kind or (kind is not None and kind != self.kind):
            return
        self.kind = ""
        self.label.setText("")
        self.setVisible(False)
        self.closed.emit()

    def set_theme(self, name: str) -> None:
        self.theme = name
        self._restyle()

    def _restyle(self) -> None:
        bg, fg = STYLES[self.kind or "info"]["dark" if self.theme == "dark" else "light"]
        self.setStyleSheet(f"#messagebar {{ background: {bg}; border-radius: 4px; }}"
                           f" #messagebar QLabel {{ color: {fg}; }} #messagebar QToolButton {{ color: {fg}; }}")


def error_box(parent: QWidget | None, title: str, text: str) -> QMessageBox:
    """A warning dialog that does not block the event loop (``open()``, modal to its window)."""
    box = QMessageBox(QMessageBox.Icon.Warning, title, text, QMessageBox.StandardButton.Ok, parent)
    box.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, True)
    box.open()
    return box


class _Relay(QObject):
    """Carries a message to the GUI thread (a queued signal into its slot), whichever thread raised."""

    message = Signal(str, str)

    def __init__(self, show: Callable[[str, str], object]) -> None:
        super().__init__()
        self._show = show
        self.message.connect(self._deliver)

    @Slot(str, str)
    def _deliver(self, title: str, text: str) -> None:
        self._show(title, text)


def install_excepthook(show: Callable[[str, str], object], log: Path | None = None) -> Callable[[], None]:
    """Make exceptions that escape Qt slots (and Python threads) call ``show(title, text)`` in the GUI
    thread instead of printing to stderr.

    Call it from the GUI thread. The traceback goes to ``log`` (appended) when given. Returns a
    function that puts the previous hooks back.
    """
    previous, previous_thread = sys.excepthook, threading.excepthook
    relay = _Relay(show)

    def hook(exc_type: type[BaseException], exc: BaseException, tb: TracebackType | None) -> None:
        if issubclass(exc_type, KeyboardInterrupt):
            previous(exc_type, exc, tb)
            return
        where = ""
        if log is not None:
            try:
                log.parent.mkdir(parents=True, exist_ok=True)
                with log.open("a", encoding="utf-8") as f:
                    f.write(f"--- {datetime.now().isoformat(timespec='seconds')}\n")
                    f.write("".join(traceback.format_exception(exc_type, exc, tb)))
                where = f"\n\nThe details are in {log}."
            except OSError:
                pass
        text = (f"Something went wrong inside gamesuite: {exc_type.__name__}: {exc}\n\n"
                f"The game is kept as it was (it is autosaved); you can go on or save it.{where}")
        try:
            relay.message.emit("Unexpected error", text)
        except Exception:  # noqa: BLE001 - the dialog itself failed: nothing more can be shown
            pass

    def thread_hook(args: threading.ExceptHookArgs) -> None:
        hook(args.exc_type, args.exc_value if args.exc_value is not None else args.exc_type(),
             args.exc_traceback)

    def uninstall() -> None:
        sys.excepthook, threading.excepthook = previous, previous_thread

    hook.relay = relay  # type: ignore[attr-defined]  # (kept alive with the hook)
    sys.excepthook = hook
    threading.excepthook = thread_hook
    return uninstall
