"""Keyboard move entry: type a move (``h8``, ``7g7f``, ``P*5e``, ``７六歩``, Hare's ``5``) and press Enter.

``MoveEntry`` is a small line edit (the toolbar holds it). Typing over the window
starts it: a printable key that nothing else took (no shortcut, no focused
widget) goes into the entry, which takes the focus. Enter emits
``moveTyped(text)``; the window reads the text with the game's notation and plays
it, or says why not above the board with the text quoted (``accepted`` /
``refused`` tell the entry which: a refused text stays, selected, to be typed over).
Escape empties the entry and gives the keys back to the window. **Ctrl+L** (the
window's *Type a move* action) goes to the entry.

While the entry has the focus it keeps the keys it types: one-letter shortcuts
(``H`` hint, ``F`` flip, Space) do not fire, so ``h8`` can be typed. The focus
stays after a move, for the next one; while the entry is empty the arrows,
Home, End and Space still step through the game and start the engine.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QLineEdit, QWidget

#: Characters that may start a typed move (letters, digits, and the marks notation uses).
_STARTERS = set("*+-=▲△☗☖")
#: Keys an empty entry leaves to the window's shortcuts (walking through the game, the engine).
_PASS_WHEN_EMPTY = {Qt.Key.Key_Left, Qt.Key.Key_Right, Qt.Key.Key_Up, Qt.Key.Key_Down, Qt.Key.Key_Home,
                    Qt.Key.Key_End, Qt.Key.Key_Space}


class MoveEntry(QLineEdit):
    """A line edit for one move; ``moveTyped(text)`` on Enter."""

    moveTyped = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("move-entry")
        self.setPlaceholderText(self.tr("Type a move"))
        self.setToolTip(self.tr("Type a move and press Enter: h8, 7g7f, P*5e, ７六歩, P-7f… "
                                "(typing over the board starts here; Esc leaves)"))
        self.setMaximumWidth(150)
        self.setClearButtonEnabled(True)
        self.returnPressed.connect(self._submit)

    def _submit(self) -> None:
        text = self.text().strip()
        if text:
            self.moveTyped.emit(text)

    def accepted(self) -> None:
        """The move was played: empty the entry (the focus stays, for the next move)."""
        self.clear()

    def refused(self) -> None:
        """The text was no move: keep it, selected, so the next keys replace it."""
        self.selectAll()

    def start(self, text: str = "") -> None:
        """Take the focus and begin with ``text`` (the key typed over the window)."""
        self.setFocus(Qt.FocusReason.ShortcutFocusReason)
        if text:
            if self.selectedText() == self.text():
                self.clear()
            self.insert(text)

    def event(self, event: QEvent) -> bool:
        if (event.type() == QEvent.Type.ShortcutOverride and isinstance(event, QKeyEvent) and not self.text()
                and not event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
                and event.key() in _PASS_WHEN_EMPTY):
            event.ignore()  # not ours: the window's shortcut takes it
            return False
        return super().event(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Escape:
            self.clear()
            self.clearFocus()
            event.accept()
            return
        super().keyPressEvent(event)


class TypeAhead(QObject):
    """An event filter on the window: a printable key that reached the window unused starts ``entry``."""

    def __init__(self, window: QWidget, entry: MoveEntry) -> None:
        super().__init__(window)
        self.entry = entry
        window.installEventFilter(self)

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.KeyPress and isinstance(event, QKeyEvent) and self.entry.isEnabled():
            mods = event.modifiers() & ~(Qt.KeyboardModifier.ShiftModifier | Qt.KeyboardModifier.KeypadModifier)
            text = event.text()
            if (not mods and len(text) == 1 and not self.entry.hasFocus() and self.entry.isVisible()
                    and (text.isalnum() or text in _STARTERS)):
                self.entry.start(text)
                return True
        return False
