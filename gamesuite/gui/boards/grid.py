"""The grid board: tic-tac-toe (marks in cells) and gomoku (stones on intersections).

It shows any game whose ``game`` has ``width`` and ``height`` and whose states
have a flat ``board`` array (0 empty, 1 first player, 2 second; index
``row * width + col``, row 0 at the top). Optional state methods are used when
present: ``last_move``, ``winning_line()``, ``forbidden_moves()`` (renju points
forbidden to black, drawn as red crosses).
"""

from __future__ import annotations

import string

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QPainter, QPen, QRadialGradient
from PySide6.QtWidgets import QWidget

from ...core.registry import Game
from .base import BoardWidget


def grid_size(game: Game) -> tuple[int, int] | None:
    """``game``'s ``width`` and ``height`` when it has them (a grid game), else ``None``."""
    w, h = getattr(game, "width", None), getattr(game, "height", None)
    return (int(w), int(h)) if isinstance(w, (int, np.integer)) and isinstance(h, (int, np.integer)) else None

SYMBOLS = ".xo"


class GridBoard(BoardWidget):
    """A rectangular board of cells or intersections."""

    @classmethod
    def supports(cls, game: Game) -> bool:
        size = grid_size(game)
        if size is None:
            return False
        board = getattr(game.new_state(), "board", None)
        return isinstance(board, np.ndarray) and board.size == size[0] * size[1]

    def __init__(self, game: Game, parent: QWidget | None = None) -> None:
        super().__init__(game, parent)
        self._setup_board = np.zeros(self.cols * self.rows, dtype=np.int8)
        self._geom = (0.0, 0.0, 1.0)  # origin x, origin y, cell size
        #: Each stone (mark) shows the number of the move that placed it (View › Numbered stones).
        self.numbered = False

    def set_numbered(self, on: bool) -> None:
        self.numbered = on
        self.update()

    def move_numbers(self) -> dict[int, int]:
        """The number of the move that placed each stone of the game (1 = the game's first move);
        empty when the numbers are off, in setup mode, or for stones of a set-up position."""
        if not self.numbered or self.setup_mode:
            return {}
        board = self._board()
        return {int(m): i + 1 for i, m in enumerate(self.state.history) if 0 <= int(m) < board.size and board[m]}

    # -- style -------------------------------------------------------------
    @property
    def stones(self) -> bool:
        """Stones on intersections (gomoku) rather than marks in cells (tic-tac-toe)."""
        return getattr(self.game, "board_style", "stones" if self.game.name == "gomoku" else "cells") == "stones"

    @property
    def cols(self) -> int:
        return self._size()[0]

    @property
    def rows(self) -> int:
        return self._size()[1]

    def _size(self) -> tuple[int, int]:
        size = grid_size(self.game)
        if size is None:  # the window shows a game on the board that supports it
            raise TypeError(f"{self.game.spec} has no grid (width and height)")
        return size

    # -- geometry ------------------------------------------------------------
    def _layout(self, rect: QRectF) -> tuple[float, float, float]:
        """Origin and cell size for drawing into ``rect`` (room for coordinates left and below)."""
        s = min(rect.width() / (self.cols + 1.1), rect.height() / (self.rows + 1.1))
        w, h = self.cols * s, self.rows * s
        x0 = rect.x() + (rect.width() - w) / 2 + 0.35 * s
        y0 = rect.y() + (rect.height() - h) / 2 - 0.35 * s
        return x0, y0, s

    def _display(self, move: int) -> tuple[int, int]:
        r, c = divmod(move, self.cols)
        if self.flipped:
            r, c = self.rows - 1 - r, self.cols - 1 - c
        return r, c

    def _centre(self, move: int) -> QPointF:
        x0, y0, s = self._geom
        r, c = self._display(move)
        return QPointF(x0 + (c + 0.5) * s, y0 + (r + 0.5) * s)

    def point_of(self, move: int) -> QPointF:
        """The widget point at the centre of ``move`` (for tests and keyboard entry)."""
        x0, y0, s = self._layout(QRectF(self.rect()))
        r, c = self._display(move)
        return QPointF(x0 + (c + 0.5) * s, y0 + (r + 0.5) * s)

    def move_at(self, pos: QPointF) -> int | None:
        x0, y0, s = self._layout(QRectF(self.rect()))
        c, r = int((pos.x() - x0) // s), int((pos.y() - y0) // s)
        if not (0 <= r < self.rows and 0 <= c < self.cols):
            return None
        if self.flipped:
            r, c = self.rows - 1 - r, self.cols - 1 - c
        return r * self.cols + c

    # -- what is shown --------------------------------------------------------
    def _board(self) -> np.ndarray:
        return self._setup_board if self.setup_mode else self._state_board()

    def _state_board(self) -> np.ndarray:
        board = getattr(self.state, "board", None)
        if not isinstance(board, np.ndarray):  # the window shows a game on the board that supports it
            raise TypeError(f"{self.game.spec} states have no board array")
        return board

    def _last_move(self) -> int | None:
        if self.setup_mode:
            return None
        lm = getattr(self.state, "last_move", None)
        if lm is not None and not callable(lm):
            return int(lm)
        hist = self.state.history
        return int(hist[-1]) if hist else None

    def _winning_line(self) -> list[int]:
        if self.setup_mode or not self.rules_ready:
            return []
        fn = getattr(self.state, "winning_line", None)
        if callable(fn):
            return [int(m) for m in fn()]
        winner = getattr(self.state, "winner", 0)
        windows = getattr(self.game, "windows", None)
        if winner and windows is not None:
            board = self._state_board()
            for w in windows:
                if all(board[i] == winner for i in w):
                    return [int(i) for i in w]
        return []

    def _forbidden(self) -> list[int]:
        if self.setup_mode or not self.rules_ready:
            return []
        fn = getattr(self.state, "forbidden_moves", None)
        return [int(m) for m in fn()] if callable(fn) else []

    def _to_move_stone(self) -> int:
        if not self.rules_ready:
            return 0
        p = self.state.current_player
        return p + 1 if p in (0, 1) else 0

    # -- painting -------------------------------------------------------------
    def paint_board(self, p: QPainter, rect: QRectF) -> None:
        t = self.theme
        self._geom = self._layout(rect)
        x0, y0, s = self._geom
        p.fillRect(rect, QColor(t.background))
        area = QRectF(x0, y0, self.cols * s, self.rows * s)
        if self.stones:
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(QColor(t.board_alt))
            p.drawRoundedRect(area, s * 0.08, s * 0.08)
            pen = QPen(QColor("#3b2f1e"), max(1.0, s * 0.03))
            p.setPen(pen)
            for i in range(self.cols):
                x = x0 + (i + 0.5) * s
                p.drawLine(QPointF(x, y0 + 0.5 * s), QPointF(x, y0 + (self.rows - 0.5) * s))
            for i in range(self.rows):
                y = y0 + (i + 0.5) * s
                p.drawLine(QPointF(x0 + 0.5 * s, y), QPointF(x0 + (self.cols - 0.5) * s, y))
            p.setBrush(QColor("#3b2f1e"))
            p.setPen(Qt.PenStyle.NoPen)
            for m in self._star_points():
                p.drawEllipse(self._centre(m), s * 0.1, s * 0.1)
        else:
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(QColor(t.board))
            p.drawRect(area)
            p.setPen(QPen(QColor(t.line), max(1.0, s * 0.035), Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap))
            for i in range(1, self.cols):
                x = x0 + i * s
                p.drawLine(QPointF(x, y0 + 0.06 * s), QPointF(x, y0 + self.rows * s - 0.06 * s))
            for i in range(1, self.rows):
                y = y0 + i * s
                p.drawLine(QPointF(x0 + 0.06 * s, y), QPointF(x0 + self.cols * s - 0.06 * s, y))
        self._paint_coords(p, s)
        board = self._board()
        last = self._last_move()
        for cell in np.flatnonzero(board):
            self._paint_piece(p, int(cell), int(board[cell]), 1.0)
        numbers = self.move_numbers()
        if numbers:
            self._paint_numbers(p, s, board, numbers, last)
        elif last is not None and board[last]:
            c = self._centre(last)
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(QColor(t.last_move))
            if self.stones:
                p.drawEllipse(c, s * 0.12, s * 0.12)
            else:
                p.drawEllipse(QPointF(c.x() + 0.36 * s, c.y() - 0.36 * s), s * 0.07, s * 0.07)
        for m in self._forbidden():
            c = self._centre(m)
            p.setPen(QPen(QColor(t.forbidden), max(1.5, s * 0.07), Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap))
            d = s * 0.16
            p.drawLine(QPointF(c.x() - d, c.y() - d), QPointF(c.x() + d, c.y() + d))
            p.drawLine(QPointF(c.x() - d, c.y() + d), QPointF(c.x() + d, c.y() - d))
        line = self._winning_line()
        if len(line) >= 2:
            pts = sorted((self._centre(m) for m in line), key=lambda q: (q.x(), q.y()))
            p.setPen(QPen(QColor(t.win), max(2.0, s * 0.12), Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap))
            p.drawLine(pts[0], pts[-1])
        if self.preview:
            self._paint_preview(p, s)
        if self.hint is not None and 0 <= self.hint < board.size:
            p.setPen(QPen(QColor(t.hint), max(2.0, s * 0.08)))
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.drawEllipse(self._centre(self.hint), s * 0.4, s * 0.4)
        self._paint_hover(p, board)

    def _star_points(self) -> list[int]:
        w, h = self.cols, self.rows
        if w < 7 or h < 7:
            return []
        e = 3 if min(w, h) >= 13 else 2
        pts = {(h // 2, w // 2)}
        if min(w, h) >= 9:
            pts |= {(e, e), (e, w - 1 - e), (h - 1 - e, e), (h - 1 - e, w - 1 - e)}
        return [r * w + c for r, c in pts]

    def _paint_coords(self, p: QPainter, s: float) -> None:
        x0, y0, _ = self._geom
        font = QFont()
        font.setPixelSize(max(8, int(s * (0.36 if self.stones else 0.22))))
        p.setFont(font)
        p.setPen(QColor(self.theme.coords))
        for c in range(self.cols):
            col = self.cols - 1 - c if self.flipped else c
            cell = QRectF(x0 + c * s, y0 + self.rows * s + 0.12 * s, s, 0.6 * s)
            p.drawText(cell, Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop, string.ascii_lowercase[col])
        for r in range(self.rows):
            number = r + 1 if self.flipped else self.rows - r
            box = QRectF(x0 - 0.8 * s, y0 + r * s, 0.62 * s, s)
            p.drawText(box, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter, str(number))

    def _paint_piece(self, p: QPainter, move: int, stone: int, alpha: float) -> None:
        t = self.theme
        c = self._centre(move)
        s = self._geom[2]
        if self.stones:
            rad = s * 0.46
            g = QRadialGradient(QPointF(c.x() - rad * 0.35, c.y() - rad * 0.35), rad * 1.3)
            if stone == 1:
                g.setColorAt(0, QColor("#5a5a5a"))
                g.setColorAt(1, QColor("#0a0a0a"))
                edge = QColor(t.first_edge)
            else:
                g.setColorAt(0, QColor("#ffffff"))
                g.setColorAt(1, QColor("#cfcfcf"))
                edge = QColor(t.second_edge)
            p.setOpacity(alpha)
            p.setPen(QPen(edge, max(0.8, s * 0.02)))
            p.setBrush(QBrush(g))
            p.drawEllipse(c, rad, rad)
            p.setOpacity(1.0)
            return
        d = s * 0.3
        p.setOpacity(alpha)
        p.setBrush(Qt.BrushStyle.NoBrush)
        if stone == 1:
            p.setPen(QPen(QColor(t.first), max(2.0, s * 0.1), Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap))
            p.drawLine(QPointF(c.x() - d, c.y() - d), QPointF(c.x() + d, c.y() + d))
            p.drawLine(QPointF(c.x() - d, c.y() + d), QPointF(c.x() + d, c.y() - d))
        else:
            p.setPen(QPen(QColor(t.second), max(2.0, s * 0.1)))
            p.drawEllipse(c, d * 1.05, d * 1.05)
        p.setOpacity(1.0)

    def _paint_numbers(self, p: QPainter, s: float, board: np.ndarray, numbers: dict[int, int],
                       last: int | None) -> None:
        """The move numbers on the stones (in a corner of the cell for marks); the last one in red."""
        font = QFont()
        font.setBold(True)
        for m, k in numbers.items():
            c = self._centre(m)
            text = str(k)
            if self.stones:
                font.setPixelSize(max(7, int(s * (0.42 if len(text) < 2 else 0.36 if len(text) < 3 else 0.28))))
                box = QRectF(c.x() - s / 2, c.y() - s / 2, s, s)
                colour = "#ffffff" if board[m] == 1 else "#000000"
            else:
                font.setPixelSize(max(7, int(s * 0.2)))
                box = QRectF(c.x() - s * 0.46, c.y() - s * 0.46, s * 0.5, s * 0.3)
                colour = self.theme.coords
            p.setFont(font)
            if m == last:  # the last move's number in red (lighter on a black stone)
                colour = "#ff6b6b" if self.stones and board[m] == 1 else "#d32f2f"
            p.setPen(QColor(colour))
            align = Qt.AlignmentFlag.AlignCenter if self.stones else Qt.AlignmentFlag.AlignLeft
            p.drawText(box, align, text)

    def _paint_preview(self, p: QPainter, s: float) -> None:
        stone = self._to_move_stone() or 1
        font = QFont()
        font.setPixelSize(max(8, int(s * 0.3)))
        font.setBold(True)
        p.setFont(font)
        board = self._board()
        for i, m in enumerate(self.preview):
            if 0 <= m < board.size and not board[m]:
                self._paint_piece(p, m, stone, 0.55)
                c = self._centre(m)
                box = QRectF(c.x() - s / 2, c.y() - s / 2, s, s)
                if self.stones:
                    p.setPen(QColor("#ffffff" if stone == 1 else "#000000"))
                else:
                    p.setPen(QColor(self.theme.coords))
                    box = QRectF(c.x() - s / 2, c.y() - s / 2 + s * 0.28, s, s)
                p.drawText(box, Qt.AlignmentFlag.AlignCenter, str(i + 1))
            stone = 3 - stone

    def _paint_hover(self, p: QPainter, board: np.ndarray) -> None:
        m = self.hover
        if m is None or not 0 <= m < board.size:
            return
        if self.setup_mode:
            tool = {"first": 1, "second": 2}.get(self.setup_tool, 0)
            if tool and not board[m]:
                self._paint_piece(p, m, tool, 0.4)
            return
        if not self.interactive or not self.rules_ready or board[m] or self.state.is_terminal() \
                or m in self._forbidden():
            return
        stone = self._to_move_stone()
        if stone:
            self._paint_piece(p, m, stone, 0.35)

    # -- setup -------------------------------------------------------------------
    def setup_tools(self) -> list[tuple[str, str]]:
        first, second = self.game.player_name(0), self.game.player_name(1)
        return [("first", first), ("second", second), ("erase", "Erase")]

    def begin_setup(self) -> None:
        self._setup_board = self._state_board().copy()
        super().begin_setup()

    def setup_click(self, move: int, button: Qt.MouseButton) -> None:
        if not 0 <= move < self._setup_board.size:
            return
        tool = {"first": 1, "second": 2}.get(self.setup_tool, 0)
        if button == Qt.MouseButton.RightButton or tool == 0:
            self._setup_board[move] = 0
        elif self._setup_board[move] == tool:
            self._setup_board[move] = 0  # clicking a stone of the tool again removes it
        else:
            self._setup_board[move] = tool

    def setup_clear(self) -> None:
        self._setup_board[:] = 0
        self.update()

    def setup_text(self) -> str:
        b = self._setup_board
        return "/".join(
            "".join(SYMBOLS[int(v)] for v in b[r * self.cols : (r + 1) * self.cols]) for r in range(self.rows)
        )
