"""The analysis panel: the engine's best lines, one row per line updated in place, and the history by depth.

The *Lines* tab shows one row per line (multi-PV index), each rewritten with
the engine's latest report for that line (as ShogiHome and Lichess do); the
*By depth* tab keeps every report, the deepest first. The panel is bound to
one position of one record (``begin``) and shows nothing else: the window
clears it (``clear``) whenever that position is no longer the one it is about.
Reports are drawn at a bounded rate.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QPoint, Qt, QTimer, Signal, Slot
from PySide6.QtGui import QFontMetrics, QMouseEvent
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSpinBox,
    QTabWidget,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ..core.info import SearchInfo
from ..core.registry import Game
from ..core.state import State
from .fmt import count_text, time_text
from .notation import Notation, notation_for

#: The panel redraws at most this often (ms), however fast reports arrive.
REDRAW_MS = 100
#: Rows kept in the history (the oldest go first).
MAX_ROWS = 300
PV_MARGIN = 4  # pixels between a column's edge and its text
IDLE = "Engine idle"


class AnalysisPanel(QWidget):
    """Shows what the engine thinks about one position; clicking a row previews its line on the board."""

    lineClicked = Signal(object)  # list[int]: the line, from the analysed position
    lineActivated = Signal(object)  # double click: list[int]
    toggleRequested = Signal()  # the start/stop button
    multipvChanged = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.state: State | None = None  # the position the rows are about (None: no position)
        self.game: Game | None = None
        self.node_id: int | None = None  # the record node of that position
        self.record: object | None = None  # the record it belongs to
        self.purpose = ""  # what the search was for ("move", "analysis", "hint")
        self.notation: Notation | None = None
        self.rows: list[SearchInfo] = []  # every report shown in the history, oldest first
        self.lines: dict[int, SearchInfo] = {}  # the latest report of each line (multi-PV index)
        self.redraws = 0
        self._pending: list[SearchInfo] = []
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(REDRAW_MS)
        self._timer.timeout.connect(self._flush)

        self.title = QLabel(self.tr("Engine idle"))
        self.title.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.title.setWordWrap(True)
        self.multipv = QSpinBox()
        self.multipv.setRange(1, 10)
        self.multipv.setPrefix(self.tr("lines: "))
        self.multipv.setToolTip(self.tr("How many best lines the engine shows (multi-PV)"))
        self.multipv.valueChanged.connect(self.multipvChanged.emit)
        # Nothing in the panel keeps the keyboard focus: Space and the arrows stay the window's.
        self.multipv.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.button = QPushButton(self.tr("Analyse"))
        self.button.setToolTip(self.tr("Start or stop the engine (Space)"))
        self.button.clicked.connect(self.toggleRequested.emit)
        self.button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        top = QHBoxLayout()
        top.addWidget(self.title, 1)
        top.addWidget(self.multipv)
        top.addWidget(self.button)
        self.tree = self._make_tree()  # the lines, one row each
        self.history = self._make_tree()  # every report, by depth
        self.tabs = QTabWidget()
        self.tabs.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.tabs.setDocumentMode(True)
        self.tabs.addTab(self.tree, self.tr("Lines"))
        self.tabs.addTab(self.history, self.tr("By depth"))
        self.tabs.setTabToolTip(0, self.tr("The best lines, each updated in place as the engine goes deeper"))
        self.tabs.setTabToolTip(1, self.tr("Every report of the engine, the deepest first"))
        self._line_items: dict[int, QTreeWidgetItem] = {}
        self._press: QPoint | None = None
        box = QVBoxLayout(self)
        box.setContentsMargins(4, 4, 4, 4)
        box.addLayout(top)
        box.addWidget(self.tabs)
        self.set_notation(None)

    def _make_tree(self) -> QTreeWidget:
        t = QTreeWidget()
        t.setRootIsDecorated(False)
        t.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        t.setUniformRowHeights(True)
        t.setAlternatingRowColors(True)
        t.itemClicked.connect(self._clicked)
        t.itemDoubleClicked.connect(self._activated)
        t.viewport().installEventFilter(self)
        return t

    # -- columns ---------------------------------------------------------------
    @property
    def score_columns(self) -> int:
        return len(self.notation.score_headers()) if self.notation is not None else 1

    @property
    def pv_column(self) -> int:
        """The column of the principal variation (after line, depth, the scores, nodes, speed, time)."""
        return 2 + self.score_columns + 3

    def set_notation(self, notation: Notation | None) -> None:
        """Use ``notation`` for moves and scores (its score columns: one, or one per player)."""
        self.notation = notation
        scores = notation.score_headers() if notation is not None else ["Score"]
        scores = [self.tr("Score") if h == "Score" else h for h in scores]
        headers = [self.tr("Line"), self.tr("Depth"), *scores, self.tr("Nodes"), self.tr("N/s"), self.tr("Time"),
                   self.tr("Principal variation")]
        score_w = 110 if len(scores) == 1 else 62
        for t in (self.tree, self.history):
            t.clear()
            t.setColumnCount(len(headers))
            t.setHeaderLabels(headers)
            widths = [44, 52, *([score_w] * len(scores)), 64, 64, 60]
            for i, w in enumerate(widths):
                t.setColumnWidth(i, w)
        self._line_items.clear()

    # -- driven by the window ---------------------------------------------------
    def begin(self, state: State, label: str, node_id: int | None = None, record: object | None = None,
              purpose: str = "") -> None:
        """A new search of ``state`` (the position of ``node_id`` in ``record``) starts: clear the rows."""
        if self.notation is None or self.notation.game != state.game:
            self.set_notation(notation_for(state.game))
        self._reset()
        self.state = state.copy()
        self.game = state.game
        self.node_id, self.record, self.purpose = node_id, record, purpose
        self.title.setText(label)

    def clear(self, label: str | None = None) -> None:
        """Show no position: the rows go, the running state too."""
        label = self.tr("Engine idle") if label is None else label
        self._reset()
        self.state = None
        self.node_id, self.record, self.purpose = None, None, ""
        self.button.setText(self.tr("Analyse"))
        self.title.setText(label)

    def _reset(self) -> None:
        self._timer.stop()
        self.rows.clear()
        self.lines.clear()
        self._pending.clear()
        self.tree.clear()
        self.history.clear()
        self._line_items.clear()

    def is_about(self, record: object, node_id: int | None) -> bool:
        return self.state is not None and self.record is record and self.node_id == node_id

    def set_running(self, running: bool, label: str | None = None) -> None:
        self.button.setText(self.tr("Stop") if running else self.tr("Analyse"))
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
            self._pending.clear()
            return
        self.redraws += 1
        for t in (self.tree, self.history):
            t.setUpdatesEnabled(False)
        for info in self._pending:
            self.rows.append(info)
            self.history.insertTopLevelItem(self._history_row_for(info), self._item(info))
            self.lines[info.multipv] = info
            self._show_line(info)
        self._pending.clear()
        while self.history.topLevelItemCount() > MAX_ROWS:
            self.history.takeTopLevelItem(self.history.topLevelItemCount() - 1)
        del self.rows[:-MAX_ROWS]
        for t in (self.tree, self.history):
            t.setUpdatesEnabled(True)

    def _show_line(self, info: SearchInfo) -> None:
        """Rewrite the row of ``info``'s line (made, in line order, the first time the line is reported)."""
        k = info.multipv
        item = self._line_items.get(k)
        if item is None:
            item = self._item(info)
            self._line_items[k] = item
            at = sum(1 for j in self._line_items if j < k)
            self.tree.insertTopLevelItem(at, item)
        else:
            self._fill(item, info)

    def _history_row_for(self, info: SearchInfo) -> int:
        """Where a report goes in the history: deeper rows first; within one depth, by line number.

        A line reported again at the same depth goes above its older report.
        """
        n = self.history.topLevelItemCount()
        for i in range(n):
            item = self.history.topLevelItem(i)
            if item is None:
                continue
            depth, line = item.data(1, Qt.ItemDataRole.UserRole)
            if depth < info.depth or (depth == info.depth and line >= info.multipv):
                return i
        return n

    def _item(self, info: SearchInfo) -> QTreeWidgetItem:
        item = QTreeWidgetItem()
        self._fill(item, info)
        return item

    def _fill(self, item: QTreeWidgetItem, info: SearchInfo) -> None:
        assert self.state is not None and self.notation is not None
        moves = self.notation.line(self.state, info.pv)
        pv = self.notation.separator.join(moves)
        scores = self.notation.score_cells(info.score)
        texts = [str(info.multipv), f"{info.depth}/{info.seldepth}", *scores, count_text(info.nodes),
                 count_text(info.nps), time_text(info.time_ms), pv]
        for col, text in enumerate(texts):
            item.setText(col, text)
        for col in range(1, self.pv_column):
            item.setTextAlignment(col, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        item.setData(0, Qt.ItemDataRole.UserRole, list(info.pv))
        item.setData(1, Qt.ItemDataRole.UserRole, (info.depth, info.multipv))
        item.setData(self.pv_column, Qt.ItemDataRole.UserRole, moves)
        item.setToolTip(self.pv_column, pv)
        for col in range(2, 2 + len(scores)):
            item.setToolTip(col, scores[col - 2])
        if info.text:  # e.g. an MCTS line's visits, on the nodes column
            item.setToolTip(2 + len(scores), info.text)

    def line_rows(self) -> list[tuple[str, ...]]:
        """The texts of the *Lines* rows, top to bottom (for tests and screenshots)."""
        out = []
        for i in range(self.tree.topLevelItemCount()):
            item = self.tree.topLevelItem(i)
            if item is None:
                continue
            out.append(tuple(item.text(c) for c in range(self.tree.columnCount())))
        return out

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.MouseButtonPress and isinstance(event, QMouseEvent):
            self._press = event.position().toPoint()
        return False

    def moves_up_to(self, item: QTreeWidgetItem, x: int) -> int:
        """How many moves of the row's line lie left of viewport x (at least 1)."""
        pv = item.data(0, Qt.ItemDataRole.UserRole) or []
        tokens = item.data(self.pv_column, Qt.ItemDataRole.UserRole) or []
        tree = item.treeWidget() or self.tree
        if not pv or len(tokens) != len(pv) or self.notation is None:
            return len(pv)
        inside = x - tree.header().sectionViewportPosition(self.pv_column) - PV_MARGIN
        fm = QFontMetrics(tree.font())
        sep = self.notation.separator
        for k in range(len(tokens)):
            if inside <= fm.horizontalAdvance(sep.join(tokens[: k + 1])):
                return k + 1
        return len(pv)

    @Slot(QTreeWidgetItem, int)
    def _clicked(self, item: QTreeWidgetItem, col: int) -> None:
        """A click on a move of the line previews the line up to that move; elsewhere, all of it."""
        pv = list(item.data(0, Qt.ItemDataRole.UserRole) or [])
        if col == self.pv_column and self._press is not None:
            pv = pv[: self.moves_up_to(item, self._press.x())]
        self.lineClicked.emit(pv)

    @Slot(QTreeWidgetItem, int)
    def _activated(self, item: QTreeWidgetItem, col: int) -> None:
        self.lineActivated.emit(list(item.data(0, Qt.ItemDataRole.UserRole) or []))
