"""The window's set-up mode: the bar above the board and placing a position by hand.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Slot
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QToolButton,
    QWidget,
)

from ..core.errors import GameSuiteError
from .flowlayout import FlowLayout
from .window_parts import WindowParts


class SetupMixin(WindowParts):
    """Part of ``MainWindow`` (``gui/mainwindow.py``); its methods use the window's widgets and state."""

    def _build_setup_bar(self) -> None:
        """The setup editor's controls: the pieces (wrapping onto more rows as needed), the side to
        move, and Clear / Done / Cancel, always in view."""
        self.setup_bar = QWidget()
        self.setup_bar.setObjectName("setupbar")
        box = QHBoxLayout(self.setup_bar)
        box.setContentsMargins(0, 2, 0, 0)
        tools = QWidget()
        self.setup_tools_layout = FlowLayout(tools, spacing=3)
        box.addWidget(tools, 1)
        self.setup_side_label = QLabel(self.tr("To move:"))
        self.setup_side_box = QComboBox()
        self.setup_side_box.currentIndexChanged.connect(self._setup_side_changed)
        box.addWidget(self.setup_side_label, 0, Qt.AlignmentFlag.AlignTop)
        box.addWidget(self.setup_side_box, 0, Qt.AlignmentFlag.AlignTop)
        self.setup_clear = QPushButton(self.tr("Clear"))
        self.setup_clear.setToolTip(self.tr("Empty the board"))
        self.setup_clear.clicked.connect(lambda: self.board.setup_clear())
        self.setup_done = QPushButton(self.tr("Done"))
        self.setup_done.setToolTip(self.tr("Check the position and start from it"))
        self.setup_done.clicked.connect(self.finish_setup)
        self.setup_cancel = QPushButton(self.tr("Cancel"))
        self.setup_cancel.setToolTip(self.tr("Leave the editor; the game stays as it was"))
        self.setup_cancel.clicked.connect(lambda: self.end_setup(apply=False))
        for b in (self.setup_clear, self.setup_done, self.setup_cancel):
            b.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            box.addWidget(b, 0, Qt.AlignmentFlag.AlignTop)
        self.setup_bar.setVisible(False)

    @Slot(int)
    def _setup_side_changed(self, i: int) -> None:
        if i >= 0:
            self.board.setup_side = i

    # -- setup mode ----------------------------------------------------------------------------
    @Slot()
    def toggle_setup(self) -> None:
        if self.setup_active:
            self.finish_setup()
        else:
            self.begin_setup()

    def begin_setup(self) -> None:
        if not self.ready:
            self.act_setup.setChecked(False)
            return
        self._stop_search()
        self.setup_active = True
        self.act_setup.setChecked(True)
        self.board.begin_setup()
        flow = self.setup_tools_layout
        while flow.count():
            item = flow.takeAt(0)
            w = item.widget() if item is not None else None
            if w is not None:
                w.deleteLater()
        for a in self.setup_actions:
            self.setup_group.removeAction(a)
        self.setup_actions = []
        for key, label in self.board.setup_tools():
            a = QAction(label, self)
            a.setCheckable(True)
            a.setData(key)
            a.triggered.connect(lambda _=False, k=key: setattr(self.board, "setup_tool", k))
            self.setup_group.addAction(a)
            self.setup_actions.append(a)
            button = QToolButton()
            button.setDefaultAction(a)
            button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            flow.addWidget(button)
        if self.setup_actions:
            self.setup_actions[0].setChecked(True)
        sides = self.board.setup_sides()
        self.setup_side_box.blockSignals(True)
        self.setup_side_box.clear()
        self.setup_side_box.addItems(sides)
        self.setup_side_box.setCurrentIndex(min(self.board.setup_side, len(sides) - 1) if sides else -1)
        self.setup_side_box.blockSignals(False)
        self.setup_side_box.setVisible(bool(sides))
        self.setup_side_label.setVisible(bool(sides))
        self.setup_bar.setVisible(True)
        self._sync_clock()
        self._update_banner()
        self._update_interactive()

    def finish_setup(self) -> bool:
        """Validate the edited position and start from it; stays in setup mode when it is refused
        (the reason stays above the board) or when the user keeps the unsaved game."""
        if not self.setup_active:
            return False
        text = self.board.setup_text()
        try:
            self.controller.game.state_from_text(text)
        except GameSuiteError as e:
            self.act_setup.setChecked(True)
            self.report(f"This position cannot be played: {e}")
            return False
        if not self.may_replace_game("starting from the set-up position"):
            self.act_setup.setChecked(True)
            return False
        self.end_setup(apply=False)
        self.set_position_text(text)
        return True

    def end_setup(self, apply: bool = False) -> None:
        if not self.setup_active:
            return
        self.setup_active = False
        self.act_setup.setChecked(False)
        self.board.end_setup()
        self.setup_bar.setVisible(False)
        self.message_bar.dismiss()
        self.board.set_state(self.controller.state)
        self._sync_clock()
        self._update_banner()
        self._update_interactive()
        self._update_engine()
