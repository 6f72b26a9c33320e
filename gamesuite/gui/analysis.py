"""The analysis panel: one row per completed depth and line, redrawn at a bounded rate."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QPoint, Qt, QTimer, Signal, Slot
from PySide6.QtGui import QFontMetrics, QMouseEvent
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSpinBox,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ..core.info import SearchInfo
from ..core.registry import Game
from ..core.state import State
from .fmt import count_text, score_text, time_text

#: The panel redraws at most this often (ms), however fast reports arrive.
REDRAW_MS = 100
#: Rows kept (the oldest go first).
MAX_ROWS = 300

COLUMNS = ["Line", "Depth", "Score", "Nodes", "N/s", "Time", "Principal variation"]
PV_COLUMN = 6
PV_MARGIN = 4  # pixels between a column's edge and its text


class AnalysisPanel(QWidget):
    """Shows what the engine thinks; clicking a row previews its line on the board."""

    lineClicked = Signal(object)  # list[int]: the line, from the analysed position
    lineActivated = Signal(object)  # double click: list[int]
    toggleRequested = Signal()  # the start/stop button
    multipvChanged = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.state: State | None = None
        self.game: Game | None = None
        self.rows: list[SearchInfo] = []  # every row shown, oldest first
        self.redraws = 0
        self._pending: list[SearchInfo] = []
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(REDRAW_MS)
        self._timer.timeout.connect(self._flush)

        self.title = QLabel("Engine idle")
        self.title.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.multipv = QSpinBox()
        self.multipv.setRange(1, 10)
        self.multipv.setPrefix("lines: ")
        self.multipv.setToolTip("How many best lines the engine shows (multi-PV)")
        self.multipv.valueChanged.connect(self.multipvChanged.emit)
        # Nothing in the panel keeps the keyboard focus: Space and the arrows stay the window's.
        self.multipv.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.button = QPushButton("Analyse")
        self.button.setToolTip("Start or stop the engine (Space)")
        self.button.clicked.connect(self.toggleRequested.emit)
        self.button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        top = QHBoxLayout()
        top.addWidget(self.title, 1)
        top.addWidget(self.multipv)
        top.addWidget(self.button)
        self.tree = QTreeWidget()
        self.tree.setRootIsDecorated(False)
        self.tree.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.tree.setUniformRowHeights(True)
        self.tree.setAlternatingRowColors(True)
        self.tree.setHeaderLabels(COLUMNS)
        for i, w in enumerate((44, 52, 110, 64, 64, 60)):
            self.tree.setColumnWidth(i, w)
        self.tree.itemClicked.connect(self._clicked)
        self._press: QPoint | None = None
        self.tree.viewport().installEventFilter(self)
        self.tree.itemDoubleClicked.connect(self._activated)
        box = QVBoxLayout(self)
        box.setContentsMargins(4, 4, 4, 4)
        box.addLayout(top)
        box.addWidget(self.tree)

    # -- driven by the window ---------------------------------------------------
    def begin(self, state: State, label: str) -> None:
        """A new search of ``state`` starts: clear the rows."""
        self.state = state.copy()
        self.game = state.game
        self.rows.clear()
        self._pending.clear()
        self.tree.clear()
        self.title.setText(label)

    def set_running(self, running: bool, label: str | None = None) -> None:
        self.button.setText("Stop" if running else "Analyse")
        if label is not None:
            self.title.setText(label)

    def add_infos(self, infos: list[SearchInfo]) -> None:
        """Queue reports; they appear at the next redraw tick."""
        self._pending.extend(infos)
        if not self._timer.isActive():
            self._timer.start()

    def flush(self) -> None:
        """Draw queued reports now (the end of a search)."""
        self._timer.stop()
        self._flush()

    @Slot()
    def _flush(self) -> None:
        if not self._pending or self.state is None:
            return
        self.redraws += 1
        self.tree.setUpdatesEnabled(False)
        for info in self._pending:
            self.rows.append(info)
            self.tree.insertTopLevelItem(self._row_for(info), self._item(info))
        self._pending.clear()
        while self.tree.topLevelItemCount() > MAX_ROWS:
            self.tree.takeTopLevelItem(self.tree.topLevelItemCount() - 1)
        del self.rows[:-MAX_ROWS]
        self.tree.setUpdatesEnabled(True)

    def _row_for(self, info: SearchInfo) -> int:
        """Where a new report goes: deeper rows first; within one depth, by line number (line 1 first).

        A line reported again at the same depth goes above its older report.
        """
        n = self.tree.topLevelItemCount()
        for i in range(n):
            depth, line = self.tree.topLevelItem(i).data(1, Qt.ItemDataRole.UserRole)
            if depth < info.depth or (depth == info.depth and line >= info.multipv):
                return i
        return n

    def _item(self, info: SearchInfo) -> QTreeWidgetItem:
        assert self.state is not None
        try:
            pv = " ".join(self.state.format_line(info.pv))
        except (ValueError, IndexError):
            pv = " ".join(map(str, info.pv))
        item = QTreeWidgetItem([
            str(info.multipv),
            f"{info.depth}/{info.seldepth}",
            score_text(info.score, self.state.game),
            count_text(info.nodes),
            count_text(info.nps),
            time_text(info.time_ms),
            pv,
        ])
        for col in range(1, 6):
            item.setTextAlignment(col, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        item.setData(0, Qt.ItemDataRole.UserRole, list(info.pv))
        item.setData(1, Qt.ItemDataRole.UserRole, (info.depth, info.multipv))
        item.setToolTip(6, pv)
        if info.text:  # e.g. an MCTS line's visits
            item.setToolTip(2, info.text)
            item.setToolTip(3, info.text)
        return item

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.MouseButtonPress and isinstance(event, QMouseEvent):
            self._press = event.position().toPoint()
        return False

    def moves_up_to(self, item: QTreeWidgetItem, x: int) -> int:
        """How many moves of the row's line lie left of viewport x (at least 1)."""
        pv = item.data(0, Qt.ItemDataRole.UserRole) or []
        tokens = item.text(PV_COLUMN).split()
        if not pv or len(tokens) != len(pv):
            return len(pv)
        inside = x - self.tree.header().sectionViewportPosition(PV_COLUMN) - PV_MARGIN
        fm = QFontMetrics(self.tree.font())
        for k in range(len(tokens)):
            if inside <= fm.horizontalAdvance(" ".join(tokens[: k + 1])):
                return k + 1
        return len(pv)

    @Slot(QTreeWidgetItem, int)
    def _clicked(self, item: QTreeWidgetItem, col: int) -> None:
        """A click on a move of the line previews the line up to that move; elsewhere, all of it."""
        pv = list(item.data(0, Qt.ItemDataRole.UserRole) or [])
        if col == PV_COLUMN and self._press is not None:
            pv = pv[: self.moves_up_to(item, self._press.x())]
        self.lineClicked.emit(pv)

    @Slot(QTreeWidgetItem, int)
    def _activated(self, item: QTreeWidgetItem, col: int) -> None:
        self.lineActivated.emit(list(item.data(0, Qt.ItemDataRole.UserRole) or []))
