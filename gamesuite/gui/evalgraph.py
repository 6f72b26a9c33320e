"""The evaluation graph: the engine's scores over the main line, drawn with QPainter."""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QMouseEvent, QPainter, QPainterPath, QPaintEvent, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

from .fmt import score_value
from .record import GameRecord, Node
from .themes import LIGHT, PLAYER_LINE_COLOURS, BoardTheme


class EvalGraph(QWidget):
    """Scores along the main line: player 0's advantage (top: player 0 better), or one curve per player
    in games of more than two; click to go to a ply."""

    plyClicked = Signal(object)  # the Node clicked

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.record: GameRecord | None = None
        self.current: Node | None = None
        self.theme: BoardTheme = LIGHT
        self.setMinimumHeight(80)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)

    def sizeHint(self) -> QSize:
        return QSize(300, 120)

    def set_theme(self, theme: BoardTheme) -> None:
        self.theme = theme
        self.update()

    def show_record(self, record: GameRecord, current: Node) -> None:
        self.record, self.current = record, current
        self.update()

    def values(self) -> list[float | None]:
        """The plotted value of each main-line position (None where no engine has looked)."""
        if self.record is None:
            return []
        return [None if n.score is None else score_value(n.score) for n in self.record.mainline()]

    def series(self) -> list[list[float | None]]:
        """What is drawn: one list of values in [-1, 1] per curve, one value per main-line position.

        Two-player scores give one curve (player 0's advantage). Per-player scores (``Score.vector``,
        from max^n or multi-player MCTS) give one curve per player, all divided by the largest
        magnitude shown, since their units depend on the engine.
        """
        if self.record is None:
            return []
        nodes = self.record.mainline()
        if not any(n.score is not None and n.score.kind == "vector" for n in nodes):
            return [self.values()]
        players = max(len(n.score.values) for n in nodes if n.score is not None and n.score.kind == "vector")
        raw: list[list[float | None]] = [[None] * len(nodes) for _ in range(players)]
        for i, n in enumerate(nodes):
            if n.score is not None and n.score.kind == "vector":
                for pl, v in enumerate(n.score.values):
                    raw[pl][i] = v
        top = max((abs(v) for curve in raw for v in curve if v is not None), default=0.0) or 1.0
        return [[None if v is None else v / top for v in curve] for curve in raw]

    def _x(self, i: int, n: int, r: QRectF) -> float:
        return r.left() + (r.width() * i / max(1, n - 1))

    def paintEvent(self, event: QPaintEvent) -> None:
        t = self.theme
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        r = QRectF(self.rect()).adjusted(4, 4, -4, -4)
        p.fillRect(self.rect(), QColor(t.graph_bg))
        curves = self.series()
        multi = len(curves) > 1
        if not multi:
            p.fillRect(QRectF(r.left(), r.top(), r.width(), r.height() / 2), QColor(t.graph_first))
            p.fillRect(QRectF(r.left(), r.center().y(), r.width(), r.height() / 2), QColor(t.graph_second))
        n = len(curves[0]) if curves else 0
        mid = r.center().y()
        for k, vals in enumerate(curves):
            pts = [(i, v) for i, v in enumerate(vals) if v is not None]
            if not pts:
                continue
            colour = QColor(PLAYER_LINE_COLOURS[k % len(PLAYER_LINE_COLOURS)] if multi else t.graph_line)
            if not multi:
                path = QPainterPath(QPointF(self._x(pts[0][0], n, r), mid))
                for i, v in pts:
                    path.lineTo(QPointF(self._x(i, n, r), mid - v * r.height() / 2))
                path.lineTo(QPointF(self._x(pts[-1][0], n, r), mid))
                path.closeSubpath()
                fill = QColor(colour)
                fill.setAlpha(90)
                p.setPen(Qt.PenStyle.NoPen)
                p.setBrush(fill)
                p.drawPath(path)
            p.setPen(QPen(colour, 2))
            p.setBrush(Qt.BrushStyle.NoBrush)
            for (i0, v0), (i1, v1) in zip(pts, pts[1:]):
                p.drawLine(QPointF(self._x(i0, n, r), mid - v0 * r.height() / 2),
                           QPointF(self._x(i1, n, r), mid - v1 * r.height() / 2))
            for i, v in pts:
                p.drawEllipse(QPointF(self._x(i, n, r), mid - v * r.height() / 2), 2, 2)
        p.setPen(QPen(QColor("#888888"), 1, Qt.PenStyle.DashLine))
        p.drawLine(QPointF(r.left(), mid), QPointF(r.right(), mid))
        if self.record is not None and self.current is not None and self.current.is_mainline():
            x = self._x(self.current.ply, n, r)
            p.setPen(QPen(QColor("#d04040"), 1.5))
            p.drawLine(QPointF(x, r.top()), QPointF(x, r.bottom()))
        if self.record is not None:
            game = self.record.game
            box = r.adjusted(4, 2, -4, -2)
            if multi:
                x = box.left()
                for pl in range(len(curves)):
                    name = game.player_name(pl)
                    p.setPen(QColor(PLAYER_LINE_COLOURS[pl % len(PLAYER_LINE_COLOURS)]))
                    p.drawText(QRectF(x, box.top(), box.width(), box.height()), Qt.AlignmentFlag.AlignLeft
                               | Qt.AlignmentFlag.AlignTop, name)
                    x += p.fontMetrics().horizontalAdvance(name) + 10
            else:
                p.setPen(QColor(t.coords))
                p.drawText(box, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop, game.player_name(0))
                p.drawText(box, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignBottom, game.player_name(1))
        p.end()

    def mousePressEvent(self, event: QMouseEvent) -> None:
        if self.record is None:
            return
        line = self.record.mainline()
        r = QRectF(self.rect()).adjusted(4, 4, -4, -4)
        n = len(line)
        if n == 0:
            return
        i = round((event.position().x() - r.left()) / max(1.0, r.width()) * max(1, n - 1))
        self.plyClicked.emit(line[max(0, min(n - 1, i))])
