"""The shogi board: 9x9 shogi and 5x5 minishogi with both hands beside the board.

A move takes two clicks: a piece (on the board or in one's hand), then a
target among the highlighted legal ones (or a drag from the one to the other). When promotion is optional the
board asks (``ask_promotion``); when it is forced it is applied. A click that
cannot start or finish a move is refused with the reason (``message``).

Pieces are drawn as the traditional pentagons, pointing at the opponent
(Gote's turned around), with kanji or western letters (``piece_style``);
promoted pieces are red. Kanji are drawn with the shipped font subset
(``gui/fonts.py``), so they show on a machine without a Japanese font too.

Points (what ``move_at`` returns) are squares ``0 .. N-1`` (``row * files +
col``, row 0 = rank a, col 0 = the leftmost file from Sente's side) and hand
pieces ``N + 7 * colour + kind - 1`` (kinds P L N S B R G = 1..7).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np
from PySide6.QtCore import QCoreApplication, QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontDatabase, QMouseEvent, QPainter, QPen, QPolygonF
from PySide6.QtWidgets import QMessageBox, QWidget

from ...core.errors import GameSuiteError
from ...core.registry import Game
from ...core.state import State
from ...games.shogi.board import (
    BLACK_BIT,
    COLOR_BITS,
    FULL_SET,
    HAND_ORDER,
    KING,
    LETTERS,
    PROMOTED,
    WHITE_BIT,
    decode_move,
    encode_drop,
    encode_move,
)
from ..fonts import kanji_family, load_fonts
from .base import BoardWidget

if TYPE_CHECKING:  # (the rules load with the game, not with the window)
    from ...games.shogi.board import Geometry
    from ...games.shogi.rules import Shogi, ShogiState

#: Kanji of each type (index = type; 8 = king: Gote's 王, Sente's 玉 below).
KANJI = ["", "歩", "香", "桂", "銀", "角", "飛", "金", "王", "と", "杏", "圭", "全", "馬", "龍"]
SENTE_KING = "玉"
WESTERN = ["", "P", "L", "N", "S", "B", "R", "G", "K", "+P", "+L", "+N", "+S", "+B", "+R"]
#: Relative size of each unpromoted type (the king largest, the pawn smallest).
SIZE = [0, 0.86, 0.89, 0.9, 0.93, 0.96, 0.96, 0.93, 1.0]
RANK_KANJI = "一二三四五六七八九"
CELL_ASPECT = 1.08  # cells are a little taller than wide, as on a real board

WOOD = {"light": ("#e6c27a", "#f5e1b3"), "dark": ("#b8935a", "#d9bd86")}  # board, piece


_KANJI: list[bool] = []


def kanji_available() -> bool:
    """Whether kanji can be drawn: the shipped font is loaded, or some installed font has Japanese
    glyphs (else the pieces show letters); asked once."""
    if not _KANJI:
        _KANJI.append(bool(load_fonts()) or bool(QFontDatabase.families(QFontDatabase.WritingSystem.Japanese)))
    return _KANJI[0]


class ShogiBoard(BoardWidget):
    """Shogi and minishogi: board, both hands, two-click moves, drops and the promotion choice."""

    game: Shogi  # (supports: shogi only)
    state: ShogiState

    @classmethod
    def supports(cls, game: Game) -> bool:
        return game.name == "shogi"

    def __init__(self, game: Game, parent: QWidget | None = None) -> None:
        super().__init__(game, parent)
        #: "kanji" or "western"; kanji fall back to letters without a Japanese font.
        self.piece_style = "kanji"
        #: Answers the promotion question instead of a dialog (tests, scripts): text → True/False/None.
        self.promotion_chooser: Callable[[str], bool | None] | None = None
        self.selected: int | None = None  # a point (square or hand piece) of the side to move
        self.targets: dict[int, list[int]] = {}  # target square -> legal moves from the selection
        self._setup_cells = np.zeros(self.g.N, dtype=np.int64)
        self._setup_hands = np.zeros((2, 8), dtype=np.int64)
        self._geom = (0.0, 0.0, 1.0, 1.0)  # board origin x, y, cell width, cell height
        self._pressed: int | None = None  # the point a left button press selected (for dragging)

    # -- the game's geometry ------------------------------------------------------------------
    @property
    def g(self) -> Geometry:
        return self.game.geometry

    @property
    def files(self) -> int:
        return int(self.g.files)

    @property
    def ranks(self) -> int:
        return int(self.g.ranks)

    def hand_kinds(self) -> list[int]:
        """The kinds a hand can hold in this variant, in the conventional order (rook first)."""
        full = FULL_SET[self.game["variant"]]
        return [k for k in HAND_ORDER if full.get(k, 0)]

    def hand_point(self, color: int, kind: int) -> int:
        return self.g.N + 7 * color + kind - 1

    # -- what is shown ------------------------------------------------------------------------
    def cells(self) -> np.ndarray:
        """The piece on each square (0, or colour bit | type)."""
        if self.setup_mode:
            return self._setup_cells
        return np.asarray(self.state.board)[self.g.sq2p].astype(np.int64)

    def hands(self) -> np.ndarray:
        return self._setup_hands if self.setup_mode else np.asarray(self.state.hands)

    def _kanji(self) -> bool:
        return self.piece_style == "kanji" and kanji_available()

    def piece_text(self, v: int) -> str:
        t = v & 15
        if self._kanji():
            return SENTE_KING if t == KING and v & BLACK_BIT else KANJI[t]
        return WESTERN[t]

    def set_piece_style(self, style: str) -> None:
        self.piece_style = style
        self.update()

    # -- geometry ------------------------------------------------------------------------------
    def _layout(self, rect: QRectF) -> tuple[float, float, float, float]:
        s = min(rect.width() / (self.files + 4.2), rect.height() / (self.ranks * CELL_ASPECT + 1.3))
        ch = s * CELL_ASPECT
        w = (self.files + 4.2) * s
        x0 = rect.x() + (rect.width() - w) / 2 + 1.9 * s
        y0 = rect.y() + (rect.height() - (self.ranks * ch + 1.3 * s)) / 2 + 0.65 * s
        return x0, y0, s, ch

    def _display(self, sq: int) -> tuple[int, int]:
        r, c = divmod(sq, self.files)
        if self.flipped:
            r, c = self.ranks - 1 - r, self.files - 1 - c
        return r, c

    def _square_rect(self, sq: int, geom: tuple[float, float, float, float] | None = None) -> QRectF:
        x0, y0, s, ch = geom or self._geom
        r, c = self._display(sq)
        return QRectF(x0 + c * s, y0 + r * ch, s, ch)

    def _hand_side(self, color: int) -> str:
        """``"left"`` (at the top) or ``"right"`` (at the bottom): the player at the bottom is on the right."""
        bottom = 1 if self.flipped else 0
        return "right" if color == bottom else "left"

    def _hand_rect(self, color: int, kind: int, geom: tuple[float, float, float, float] | None = None) -> QRectF:
        x0, y0, s, ch = geom or self._geom
        kinds = self.hand_kinds()
        i = kinds.index(kind)
        if self._hand_side(color) == "left":
            return QRectF(x0 - 1.8 * s, y0 + i * ch, 1.6 * s, ch)
        bottom = y0 + self.ranks * ch
        return QRectF(x0 + self.files * s + 0.6 * s, bottom - (i + 1) * ch, 1.6 * s, ch)

    def point_rect(self, point: int, geom: tuple[float, float, float, float] | None = None) -> QRectF:
        N = self.g.N
        if point < N:
            return self._square_rect(point, geom)
        color, kind = divmod(point - N, 7)
        return self._hand_rect(color, kind + 1, geom)

    def point_of(self, point: int) -> QPointF:
        """The widget point at the centre of a square or a hand piece (for tests and keyboard entry)."""
        return self.point_rect(point, self._layout(QRectF(self.rect()))).center()

    def move_at(self, pos: QPointF) -> int | None:
        geom = self._layout(QRectF(self.rect()))
        x0, y0, s, ch = geom
        c, r = int((pos.x() - x0) // s), int((pos.y() - y0) // ch)
        if 0 <= r < self.ranks and 0 <= c < self.files and pos.x() >= x0 and pos.y() >= y0:
            if self.flipped:
                r, c = self.ranks - 1 - r, self.files - 1 - c
            return r * self.files + c
        for color in (0, 1):
            for kind in self.hand_kinds():
                if self._hand_rect(color, kind, geom).contains(pos):
                    return self.hand_point(color, kind)
        return None

    def point_name(self, move: int) -> str:
        N = self.g.N
        if move < N:
            return self.g.square_name(move)
        color, kind = divmod(move - N, 7)
        return f"{self.game.player_name(color)}'s {LETTERS[kind + 1]} in hand"

    # -- clicks -----------------------------------------------------------------------------------
    def set_state(self, state: State) -> None:
        self.selected, self.targets = None, {}
        super().set_state(state)

    def set_game(self, game: Game) -> None:
        self.selected, self.targets = None, {}
        super().set_game(game)
        self._setup_cells = np.zeros(self.g.N, dtype=np.int64)
        self._setup_hands = np.zeros((2, 8), dtype=np.int64)

    def click_move(self, move: int) -> None:
        """Act as if the user clicked point ``move`` (a square or a hand piece)."""
        if self.setup_mode:
            super().click_move(move)
        else:
            self.click_point(move)

    def mousePressEvent(self, event: QMouseEvent) -> None:
        point = self.move_at(event.position())
        if self.setup_mode:
            super().mousePressEvent(event)
            return
        if event.button() == Qt.MouseButton.RightButton:
            self._select(None)
            return
        if point is None:
            self._select(None)
            return
        if event.button() == Qt.MouseButton.LeftButton:
            self.click_point(point)
            self._pressed = point

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        """Dragging a piece onto a target plays it, as two clicks would."""
        pressed, self._pressed = self._pressed, None
        if self.setup_mode or event.button() != Qt.MouseButton.LeftButton or pressed is None:
            return
        point = self.move_at(event.position())
        if point is not None and point != pressed and self.selected == pressed and point in self.targets:
            self.click_point(point)

    def _own(self, point: int) -> bool:
        """Whether ``point`` holds a piece of the side to move (a hand piece: at least one)."""
        st = self.state
        N = self.g.N
        if point < N:
            v = int(self.cells()[point])
            return bool(v & COLOR_BITS[st.current_player])
        color, kind = divmod(point - N, 7)
        return color == st.current_player and int(self.hands()[color, kind + 1]) > 0

    def _refuse(self, text: str) -> None:
        self.message.emit(text)

    def _select(self, point: int | None) -> None:
        self.selected = point
        self.targets = {}
        if point is not None:
            N = self.g.N
            frm = point if point < N else N + (point - N) % 7
            for m in self.state.legal_moves():
                f, to, _ = decode_move(m)
                if f == frm:
                    self.targets.setdefault(to, []).append(m)
        self.update()

    def click_point(self, point: int) -> None:
        """One click of the two that make a move: select a piece, then its target."""
        st = self.state
        if not self.rules_ready:
            self._refuse("Preparing engines…")
            return
        if st.is_terminal():
            self._refuse(f"The game is over ({st.result_text()})")
            return
        if not self.interactive:
            self._refuse("The computer is to move")
            return
        N = self.g.N
        if point == self.selected:
            self._select(None)
            return
        if self._own(point):
            self._select(point)
            if not self.targets:
                self._refuse(f"{self.point_name(point)}: this piece has no legal move")
            return
        if self.selected is None or point >= N:
            self._select(None)
            if point >= N:
                color, kind = divmod(point - N, 7)
                if color != st.current_player:
                    self._refuse(f"That is {self.game.player_name(color)}'s hand: "
                                 f"{self.game.player_name(st.current_player)} is to move")
                else:
                    self._refuse(f"No {LETTERS[kind + 1]} in hand")
            elif int(self.cells()[point]):
                self._refuse(f"{self.g.square_name(point)}: that piece is "
                             f"{self.game.player_name(1 - st.current_player)}'s; "
                             f"{self.game.player_name(st.current_player)} is to move")
            else:
                self._refuse(f"{self.g.square_name(point)} is empty: click one of your pieces first")
            return
        moves = self.targets.get(point, [])
        sel = self.selected
        self._select(None)
        if not moves:
            if sel >= N:
                move = encode_drop(N, (sel - N) % 7 + 1, point)
            else:
                move = encode_move(sel, point, False)
            try:
                text = st.format_move(move)
                why = st.why_illegal(move)
            except GameSuiteError:
                text, why = self.g.square_name(point), "illegal move"
            self._refuse(f"{text} is not allowed: {why or 'illegal move'}")
            return
        if len(moves) == 1:
            self.moveRequested.emit(moves[0])  # a forced promotion (or none possible) is applied
            return
        promote = [m for m in moves if m & 1][0]
        plain = [m for m in moves if not m & 1][0]
        answer = self.ask_promotion(st.format_move(plain))
        if answer is None:
            return
        self.moveRequested.emit(promote if answer else plain)

    def ask_promotion(self, move_text: str) -> bool | None:
        """Whether to promote on ``move_text``: True, False, or None (the move is cancelled)."""
        if self.promotion_chooser is not None:
            return self.promotion_chooser(move_text)
        box = QMessageBox(self)
        box.setWindowTitle("Promotion")
        box.setText(f"Promote on {move_text}?")
        yes = box.addButton("Promote", QMessageBox.ButtonRole.YesRole)
        no = box.addButton("Do not promote", QMessageBox.ButtonRole.NoRole)
        box.addButton(QMessageBox.StandardButton.Cancel)
        box.setDefaultButton(yes)
        box.exec()
        clicked = box.clickedButton()
        return True if clicked is yes else False if clicked is no else None

    # -- painting -----------------------------------------------------------------------------------
    def _last_move(self) -> tuple[int | None, int | None]:
        if self.setup_mode:
            return None, None
        hist = self.state.history
        if not hist:
            return None, None
        frm, to, _ = decode_move(int(hist[-1]))
        return (frm if frm < self.g.N else None), to

    def _checked_king(self) -> int | None:
        if self.setup_mode or not self.rules_ready:
            return None
        st = self.state
        if not st.in_check():
            return None
        want = COLOR_BITS[st.current_player] | KING
        where = np.flatnonzero(self.cells() == want)
        return int(where[0]) if where.size else None

    def paint_board(self, p: QPainter, rect: QRectF) -> None:
        t = self.theme
        self._geom = self._layout(rect)
        x0, y0, s, ch = self._geom
        wood, _ = WOOD.get(t.name, WOOD["light"])
        p.fillRect(rect, QColor(t.background))
        area = QRectF(x0, y0, self.files * s, self.ranks * ch)
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(QColor(wood))
        p.drawRect(area.adjusted(-0.12 * s, -0.12 * s, 0.12 * s, 0.12 * s))
        for color in (0, 1):  # the piece stands (komadai)
            kinds = self.hand_kinds()
            r0 = self._hand_rect(color, kinds[0]).united(self._hand_rect(color, kinds[-1]))
            p.setBrush(QColor(wood).darker(108))
            p.drawRoundedRect(r0.adjusted(-0.05 * s, -0.05 * s, 0.05 * s, 0.05 * s), 0.1 * s, 0.1 * s)
        # highlights under the pieces
        frm, to = self._last_move()
        for sq in (frm, to):
            if sq is not None:
                p.fillRect(self._square_rect(sq), self._alpha(t.last_move, 110))
        king = self._checked_king()
        if king is not None:
            p.fillRect(self._square_rect(king), self._alpha(t.forbidden, 150))
        if self.selected is not None:
            p.fillRect(self.point_rect(self.selected), self._alpha(t.hint, 110))
        # grid
        p.setPen(QPen(QColor("#3b2f1e"), max(1.0, s * 0.025)))
        p.setBrush(Qt.BrushStyle.NoBrush)
        for i in range(self.files + 1):
            p.drawLine(QPointF(x0 + i * s, y0), QPointF(x0 + i * s, y0 + self.ranks * ch))
        for i in range(self.ranks + 1):
            p.drawLine(QPointF(x0, y0 + i * ch), QPointF(x0 + self.files * s, y0 + i * ch))
        if self.files == 9:
            p.setBrush(QColor("#3b2f1e"))
            for r in (3, 6):
                for c in (3, 6):
                    p.drawEllipse(QPointF(x0 + c * s, y0 + r * ch), s * 0.06, s * 0.06)
        self._paint_coords(p)
        cells = self.cells()
        for occupied in np.flatnonzero(cells):
            self._paint_piece(p, self._square_rect(int(occupied)), int(cells[occupied]))
        self._paint_hands(p)
        # marks over the pieces
        hover = self.hover
        for sq in self.targets:
            centre = self._square_rect(sq).center()
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(self._alpha(t.hint, 235 if sq == hover else 170))
            rad = s * (0.2 if sq == hover else 0.13)
            if cells[sq]:
                p.setBrush(Qt.BrushStyle.NoBrush)
                p.setPen(QPen(self._alpha(t.hint, 220), max(2.0, s * 0.07)))
                rad = s * 0.44
            p.drawEllipse(centre, rad, rad)
        if self.hint is not None:
            self._paint_arrow(p, self.hint, QColor(t.hint))
        for i, m in enumerate(self.preview):
            try:
                _, pto, _ = decode_move(int(m))
            except (TypeError, ValueError):
                continue
            if 0 <= pto < self.g.N:
                centre = self._square_rect(pto).center()
                p.setPen(Qt.PenStyle.NoPen)
                p.setBrush(self._alpha("#1f5fbf" if i % 2 == 0 else "#d2463c", 200))
                p.drawEllipse(QPointF(centre.x() + 0.3 * s, centre.y() - 0.3 * ch), s * 0.17, s * 0.17)
                font = QFont()
                font.setPixelSize(max(7, int(s * 0.22)))
                font.setBold(True)
                p.setFont(font)
                p.setPen(QColor("#ffffff"))
                p.drawText(QRectF(centre.x() + 0.13 * s, centre.y() - 0.3 * ch - 0.17 * s, 0.34 * s, 0.34 * s),
                           Qt.AlignmentFlag.AlignCenter, str(i + 1))

    @staticmethod
    def _alpha(colour: str, a: int) -> QColor:
        q = QColor(colour)
        q.setAlpha(a)
        return q

    def _paint_arrow(self, p: QPainter, move: int, colour: QColor) -> None:
        frm, to, _ = decode_move(int(move))
        if not 0 <= to < self.g.N:
            return
        s = self._geom[2]
        end = self._square_rect(to).center()
        p.setPen(QPen(colour, max(2.0, s * 0.08), Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap))
        p.setBrush(Qt.BrushStyle.NoBrush)
        if frm < self.g.N:
            p.drawLine(self._square_rect(frm).center(), end)
        p.drawEllipse(end, s * 0.42, s * 0.42)

    def _paint_coords(self, p: QPainter) -> None:
        x0, y0, s, ch = self._geom
        font = QFont()
        font.setPixelSize(max(8, int(s * 0.3)))
        p.setFont(font)
        p.setPen(QColor(self.theme.coords))
        kanji = self._kanji()
        for c in range(self.files):
            col = self.files - 1 - c if self.flipped else c
            p.drawText(QRectF(x0 + c * s, y0 - 0.62 * s, s, 0.45 * s), Qt.AlignmentFlag.AlignCenter,
                       str(self.files - col))
        for r in range(self.ranks):
            row = self.ranks - 1 - r if self.flipped else r
            label = RANK_KANJI[row] if kanji else chr(ord("a") + row)
            p.drawText(QRectF(x0 + self.files * s + 0.14 * s, y0 + r * ch, 0.4 * s, ch),
                       Qt.AlignmentFlag.AlignCenter, label)

    def _paint_hands(self, p: QPainter) -> None:
        x0, y0, s, ch = self._geom
        hands = self.hands()
        to_move = -1 if self.setup_mode or not self.rules_ready else self.state.current_player
        for color in (0, 1):
            kinds = self.hand_kinds()
            # the player's name above the top hand, below the bottom one
            first = self._hand_rect(color, kinds[0])
            font = QFont()
            font.setPixelSize(max(8, int(s * 0.27)))
            font.setBold(color == to_move)
            p.setFont(font)
            p.setPen(QColor(self.theme.hint if color == to_move else self.theme.coords))
            label = ("☗ " if color == 0 else "☖ ") + QCoreApplication.translate("Players", self.game.player_name(color))
            if self._hand_side(color) == "left":
                box = QRectF(first.x() - 0.3 * s, first.y() - 0.62 * s, first.width() + 0.6 * s, 0.5 * s)
            else:
                box = QRectF(first.x() - 0.3 * s, first.bottom() + 0.12 * s, first.width() + 0.6 * s, 0.5 * s)
            p.drawText(box, Qt.AlignmentFlag.AlignCenter, label)
            for kind in kinds:
                n = int(hands[color, kind])
                if not n:
                    continue
                r = self._hand_rect(color, kind)
                self._paint_piece(p, QRectF(r.x(), r.y(), s, ch), COLOR_BITS[color] | kind, scale=0.9)
                if n > 1:
                    f2 = QFont()
                    f2.setPixelSize(max(8, int(s * 0.34)))
                    f2.setBold(True)
                    p.setFont(f2)
                    p.setPen(QColor(self.theme.coords))
                    p.drawText(QRectF(r.x() + s, r.y(), 0.6 * s, ch), Qt.AlignmentFlag.AlignCenter, str(n))

    def _paint_piece(self, p: QPainter, cell: QRectF, v: int, scale: float = 1.0) -> None:
        t = v & 15
        base = t - PROMOTED if t > KING else t
        k = SIZE[base] * scale
        w, h = cell.width() * 0.84 * k, cell.height() * 0.9 * k
        c = cell.center()
        gote = bool(v & WHITE_BIT)
        turned = gote != self.flipped
        p.save()
        p.translate(c)
        if turned:
            p.rotate(180)
        poly = QPolygonF([QPointF(0, -h / 2), QPointF(w * 0.36, -h * 0.33), QPointF(w / 2, h / 2),
                          QPointF(-w / 2, h / 2), QPointF(-w * 0.36, -h * 0.33)])
        _, face = WOOD.get(self.theme.name, WOOD["light"])
        p.setPen(QPen(QColor("#5a4220"), max(0.8, cell.width() * 0.025)))
        p.setBrush(QColor(face))
        p.drawPolygon(poly)
        text = self.piece_text(v)
        kanji = self._kanji()
        family = kanji_family() if kanji else None
        font = QFont(family) if family else QFont()
        font.setPixelSize(max(7, int(cell.width() * (0.5 if kanji else (0.36 if len(text) > 1 else 0.44)) * k)))
        font.setBold(not kanji or family is not None)
        p.setFont(font)
        p.setPen(QColor("#c62828") if t > KING else QColor("#111111"))
        p.drawText(QRectF(-w / 2, -h * 0.32, w, h * 0.8), Qt.AlignmentFlag.AlignCenter, text)
        p.restore()

    # -- setup ----------------------------------------------------------------------------------------
    def setup_tools(self) -> list[tuple[str, str]]:
        kinds = [k for k in (1, 2, 3, 4, 7, 5, 6, 8) if k == KING or FULL_SET[self.game["variant"]].get(k, 0)]
        tools = [(f"b{LETTERS[k]}", f"☗{LETTERS[k]}") for k in kinds]
        tools += [(f"w{LETTERS[k]}", f"☖{LETTERS[k].lower()}") for k in kinds]
        return tools + [("erase", "Erase")]

    def setup_sides(self) -> list[str]:
        return [self.game.player_name(0), self.game.player_name(1)]

    def begin_setup(self) -> None:
        self.selected, self.targets = None, {}
        self._setup_cells = np.asarray(self.state.board)[self.g.sq2p].astype(np.int64)
        self._setup_hands = np.asarray(self.state.hands).astype(np.int64).copy()
        super().begin_setup()

    def setup_click(self, move: int, button: Qt.MouseButton) -> None:
        """Place the tool's piece (again: promote it, then remove it); in a hand: add one (right: remove)."""
        tool = self.setup_tool
        N = self.g.N
        if move >= N:
            color, kind = divmod(move - N, 7)
            kind += 1
            if button == Qt.MouseButton.RightButton or tool == "erase":
                self._setup_hands[color, kind] = max(0, self._setup_hands[color, kind] - 1)
            else:
                self._setup_hands[color, kind] += 1
            return
        if button == Qt.MouseButton.RightButton or tool == "erase" or not tool:
            self._setup_cells[move] = 0
            return
        color = 0 if tool[0] == "b" else 1
        kind = LETTERS.index(tool[1])
        v = COLOR_BITS[color] | kind
        cur = int(self._setup_cells[move])
        if cur == v and kind not in (KING, 7):
            self._setup_cells[move] = v + PROMOTED
        elif cur in (v, v + PROMOTED):
            self._setup_cells[move] = 0
        else:
            self._setup_cells[move] = v

    def setup_clear(self) -> None:
        self._setup_cells[:] = 0
        self._setup_hands[:] = 0
        self.update()

    def setup_text(self) -> str:
        rows = []
        for r in range(self.ranks):
            row, empty = "", 0
            for c in range(self.files):
                v = int(self._setup_cells[r * self.files + c])
                if not v:
                    empty += 1
                    continue
                if empty:
                    row, empty = row + str(empty), 0
                t = v & 15
                letter = ("+" + LETTERS[t - PROMOTED]) if t > KING else LETTERS[t]
                row += letter if v & BLACK_BIT else letter.lower()
            rows.append(row + (str(empty) if empty else ""))
        hand = ""
        for color in (0, 1):
            for k in HAND_ORDER:
                n = int(self._setup_hands[color, k])
                if n:
                    hand += (str(n) if n > 1 else "") + (LETTERS[k] if color == 0 else LETTERS[k].lower())
        return f"{'/'.join(rows)} {'bw'[self.setup_side]} {hand or '-'} 1"
