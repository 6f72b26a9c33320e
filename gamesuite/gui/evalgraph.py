"""The evaluation graph: the engine's scores over the main line, with a scale, drawn with QPainter."""

from __future__ import annotations

import math

from PySide6.QtCore import QPointF, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QFontMetrics, QMouseEvent, QPainter, QPainterPath, QPaintEvent, QPen
from PySide6.QtWidgets import QSizePolicy, QToolTip, QWidget

from ..play.record import GameRecord, Node
from .fmt import score_text, score_value
from .notation import notation_for
from .themes import LIGHT, PLAYER_LINE_COLOURS, BoardTheme

#: Scores (in the engines' units, 100 = one pawn or one "point") marked on the scale of a two-player graph.
EVAL_TICKS = (100, 300, 1000)
WINRATE_TICKS = (0.25, 0.5, 0.75)


class EvalGraph(QWidget):
    """Scores along the main line: player 0's advantage (top: player 0 better), or one curve per player
    in games of more than two; a scale on the left, move numbers below; click to go to a move."""

    plyClicked = Signal(object)  # the Node clicked

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.record: GameRecord | None = None
        self.current: Node | None = None
        self.theme: BoardTheme = LIGHT
        self.setMinimumHeight(90)
        self.setMinimumWidth(160)
        self.setMouseTracking(True)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setToolTip(self.tr("The engine's scores over the main line; click to go to that move"))

    def sizeHint(self) -> QSize:
        return QSize(300, 140)

    def set_theme(self, theme: BoardTheme) -> None:
        self.theme = theme
        self.update()

    def show_record(self, record: GameRecord, current: Node) -> None:
        self.record, self.current = record, current
        self.update()

    def clear(self) -> None:
        self.record, self.current = None, None
        self.update()

    def values(self) -> list[float | None]:
        """The plotted value of each main-line position (None where no engine has looked)."""
        if self.record is None:
            return []
        return [None if n.score is None else score_value(n.score) for n in self.record.mainline()]

    def _vector_top(self) -> float:
        nodes = self.record.mainline() if self.record is not None else []
        return max((abs(v) for n in nodes if n.score is not None and n.score.kind == "vector"
                    for v in n.score.values), default=0.0) or 1.0

    def series(self) -> list[list[float | None]]:
        """What is drawn: one list of values in [-1, 1] per curve, one value per main-line position.

        Two-player scores give one curve (player 0's advantage). Per-player scores (``Score.vector``,
        from max^n or multi-player MCTS) give one curve per player, all divided by the largest
        magnitude shown, since their units depend on the engine.
        """
        if self.record is None:
            return []
        nodes = self.record.mainline()
        vectors = [len(n.score.values) for n in nodes if n.score is not None and n.score.kind == "vector"]
        if not vectors and self.record.game.num_players <= 2:
            return [self.values()]
        players = max(vectors, default=self.record.game.num_players)
        raw: list[list[float | None]] = [[None] * len(nodes) for _ in range(players)]
        for i, n in enumerate(nodes):
            if n.score is not None and n.score.kind == "vector":
                for pl, v in enumerate(n.score.values):
                    raw[pl][i] = v
        top = self._vector_top()
        return [[None if v is None else v / top for v in curve] for curve in raw]

    def ticks(self) -> list[tuple[float, str]]:
        """The scale: (position in [-1, 1], label) pairs, 0 included."""
        if self.record is None:
            return [(0.0, "0")]
        scores = [n.score for n in self.record.mainline() if n.score is not None]
        if any(s.kind == "vector" for s in scores) or self.record.game.num_players > 2:
            top = self._vector_top()
            return [(f, _number(f * top)) for f in (-1.0, -0.5, 0.0, 0.5, 1.0)]
        if scores and all(s.kind == "winrate" for s in scores):
            return [(2 * w - 1, f"{100 * w:.0f}%") for w in WINRATE_TICKS]
        out = [(0.0, "0")]
        for t in EVAL_TICKS:
            y = math.tanh(t / 400.0)
            out += [(y, f"+{t / 100:g}"), (-y, f"−{t / 100:g}")]
        return out

    # -- geometry --------------------------------------------------------------
    def plot_rect(self) -> QRectF:
        """Where the curves are drawn (inside the scale on the left and the move numbers below)."""
        fm = QFontMetrics(self.font())
        left = max(fm.horizontalAdvance(label) for _, label in self.ticks()) + 10
        return QRectF(self.rect()).adjusted(left, 6, -8, -(fm.height() + 6))

    def _x(self, i: int, n: int, r: QRectF) -> float:
        return r.left() + (r.width() * i / max(1, n - 1))

    def _y(self, v: float, r: QRectF) -> float:
        return r.center().y() - v * r.height() / 2

    def ply_at(self, x: float) -> int | None:
        """The main-line index under viewport x (None without a record)."""
        if self.record is None:
            return None
        n = len(self.record.mainline())
        r = self.plot_rect()
        i = round((x - r.left()) / max(1.0, r.width()) * max(1, n - 1))
        return max(0, min(n - 1, i))

    # -- drawing -----------------------------------------------------------------
    def paintEvent(self, event: QPaintEvent) -> None:
        t = self.theme
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.fillRect(self.rect(), QColor(t.graph_bg))
        r = self.plot_rect()
        if r.width() < 10 or r.height() < 10:
            p.end()
            return
        curves = self.series()
        multi = len(curves) > 1
        if not multi:  # the half where the first player is better, and the other
            p.fillRect(QRectF(r.left(), r.top(), r.width(), r.height() / 2), QColor(t.graph_first))
            p.fillRect(QRectF(r.left(), r.center().y(), r.width(), r.height() / 2), QColor(t.graph_second))
        fm = p.fontMetrics()
        text = QColor(t.coords)
        # the scale: a line per tick across the plot, its label on the left
        for y, label in self.ticks():
            yy = self._y(y, r)
            p.setPen(QPen(QColor(t.graph_grid), 1, Qt.PenStyle.SolidLine if y == 0 else Qt.PenStyle.DotLine))
            p.drawLine(QPointF(r.left(), yy), QPointF(r.right(), yy))
            p.setPen(text)
            p.drawText(QRectF(0, yy - fm.height() / 2, r.left() - 5, fm.height()),
                       Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter, label)
        n = len(curves[0]) if curves else 1
        # move numbers below
        step = _step(n, r.width(), fm.horizontalAdvance("000") + 10)
        p.setPen(text)
        for i in range(0, n, step):
            x = self._x(i, n, r)
            p.drawLine(QPointF(x, r.bottom()), QPointF(x, r.bottom() + 3))
            p.drawText(QRectF(x - 20, r.bottom() + 3, 40, fm.height()), Qt.AlignmentFlag.AlignHCenter, str(i))
        p.setPen(QPen(QColor(t.graph_grid), 1))
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawRect(r)
        mid = r.center().y()
        for k, vals in enumerate(curves):
            pts = [(i, v) for i, v in enumerate(vals) if v is not None]
            if not pts:
                continue
            colour = QColor(PLAYER_LINE_COLOURS[k % len(PLAYER_LINE_COLOURS)] if multi else t.graph_line)
            if not multi:
                path = QPainterPath(QPointF(self._x(pts[0][0], n, r), mid))
                for i, v in pts:
                    path.lineTo(QPointF(self._x(i, n, r), self._y(v, r)))
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
                p.drawLine(QPointF(self._x(i0, n, r), self._y(v0, r)), QPointF(self._x(i1, n, r), self._y(v1, r)))
            for i, v in pts:
                p.drawEllipse(QPointF(self._x(i, n, r), self._y(v, r)), 2, 2)
        if self.record is not None and self.current is not None and self.current.is_mainline():
            x = self._x(self.current.ply, n, r)
            p.setPen(QPen(QColor(t.forbidden), 1.5))
            p.drawLine(QPointF(x, r.top()), QPointF(x, r.bottom()))
        if self.record is not None:
            self._legend(p, r, curves, multi)
        p.end()

    def _legend(self, p: QPainter, r: QRectF, curves: list, multi: bool) -> None:
        """The players' names on boxes of the graph's background, so they read over any curve or half."""
        t = self.theme
        names = notation_for(self.record.game)  # type: ignore[union-attr]
        fm = p.fontMetrics()
        h = fm.height() + 2

        def box(x: float, y: float, label: str, colour: QColor) -> float:
            w = fm.horizontalAdvance(label) + 8
            bg = QColor(t.graph_bg)
            bg.setAlpha(225)
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(bg)
            p.drawRoundedRect(QRectF(x, y, w, h), 3, 3)
            p.setPen(colour)
            p.drawText(QRectF(x, y, w, h), Qt.AlignmentFlag.AlignCenter, label)
            return w

        if multi:
            x = r.left() + 3
            for pl in range(len(curves)):
                x += box(x, r.top() + 3, names.player(pl), QColor(PLAYER_LINE_COLOURS[pl % len(PLAYER_LINE_COLOURS)]))
                x += 4
        else:
            text = QColor(t.graph_text)
            box(r.left() + 3, r.top() + 3, self.tr("{0} better").format(names.player(0)), text)
            box(r.left() + 3, r.bottom() - h - 3, self.tr("{0} better").format(names.player(1)), text)

    # -- the mouse ---------------------------------------------------------------------
    def mousePressEvent(self, event: QMouseEvent) -> None:
        i = self.ply_at(event.position().x())
        if i is not None and self.record is not None:
            self.plyClicked.emit(self.record.mainline()[i])

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        i = self.ply_at(event.position().x())
        if i is None or self.record is None:
            return
        node = self.record.mainline()[i]
        score = "no score" if node.score is None else (
            " ".join(notation_for(self.record.game).score_cells(node.score)) if node.score.kind == "vector"
            else score_text(node.score, self.record.game))
        QToolTip.showText(event.globalPosition().toPoint(), f"after move {i}: {score}" if i else f"start: {score}",
                          self)


def _number(v: float) -> str:
    return f"{v:+.3g}" if v else "0"


def _step(n: int, width: float, min_px: float) -> int:
    """A step between labelled moves that keeps labels ``min_px`` apart."""
    for s in (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000):
        if width * s / max(1, n - 1) >= min_px:
            return s
    return 1000
