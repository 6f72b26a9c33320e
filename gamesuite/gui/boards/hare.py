"""The Hare and Hedgehog board: the 65-square track as a winding path, and the players' holdings.

The track is drawn as a serpentine of rows (square 0, the start, at the bottom
left; 64, the finish, at the top). Each square shows its kind by colour and
letter; pieces are discs in the player colours. Below the track a panel lists
each player's carrots, lettuces and place, the last hare card drawn, the
finishing order, and buttons for the moves that are not a square (stay and
take or give 10 carrots, eat a lettuce, miss a turn, the stuck player's return).

A click on a square asks for the move of the selected piece to that square
(forward, back to the hedgehog, or stay when it is the piece's own square); the
controller refuses it with the rules' reason when it is illegal. With two
pieces each, a click on the player's other piece selects it.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QMouseEvent, QPainter, QPen
from PySide6.QtWidgets import QWidget

from ...core.registry import Game
from ...core.state import State
from ...games.hare.board import (
    CARD_NAMES,
    CARD_TEXT,
    CARROT,
    FINISH,
    HARE,
    HEDGEHOG,
    LAST,
    LETTUCE,
    POS2,
    POS3,
    POS4,
    POS156,
    START,
)
from ...games.hare.rules import BACK, PIECE_STRIDE, STAY, TAKE10
from ..notation import HareNotation
from ..themes import PLAYER_COLOURS
from .base import BoardWidget

COLUMNS = 11  # squares per row of the serpentine (6 rows hold the 65 squares)

KIND_STYLE = {  # kind: (label, fill colour)
    START: ("S", "#b0b0b0"),
    HARE: ("H", "#c9a36b"),
    CARROT: ("C", "#f08a24"),
    HEDGEHOG: ("Hg", "#8d6e63"),
    LETTUCE: ("L", "#7cc450"),
    POS156: ("1/5/6", "#64b5f6"),
    POS2: ("2", "#90caf9"),
    POS3: ("3", "#90caf9"),
    POS4: ("4", "#90caf9"),
    FINISH: ("F", "#b0b0b0"),
}


class HareBoard(BoardWidget):
    """Shows a Hare and Hedgehog race and turns clicks on squares and buttons into moves."""

    @classmethod
    def supports(cls, game: Game) -> bool:
        return game.name == "hare"

    def __init__(self, game: Game, parent: QWidget | None = None) -> None:
        super().__init__(game, parent)
        self.selected = 0  # the selected piece (0 or 1) of the player to move, with two pieces each
        self._buttons: list[tuple[QRectF, str, int]] = []  # (rect, "move"/"select", value)
        self.setMinimumSize(320, 320)

    # -- the game's tables --------------------------------------------------------
    @property
    def kinds(self) -> list[int]:
        return list(self.game.kind)  # type: ignore[attr-defined]

    @property
    def ppp(self) -> int:
        return int(self.game.ppp)  # type: ignore[attr-defined]

    def _phase_draw(self) -> bool:
        return self.state.is_chance_node()

    def sizeHint(self) -> QSize:
        return QSize(620, 640)

    # -- layout ---------------------------------------------------------------------
    def _layout(self, rect: QRectF) -> tuple[QRectF, QRectF]:
        """The track's rectangle and the panel's, inside ``rect``."""
        n = self.game.num_players
        panel_h = max(120.0, min(rect.height() * 0.45, 20.0 * (n + 4.5)))
        track = QRectF(rect.left() + 6, rect.top() + 6, rect.width() - 12, rect.height() - panel_h - 12)
        panel = QRectF(rect.left() + 6, track.bottom() + 6, rect.width() - 12, panel_h)
        return track, panel

    def _cell(self, track: QRectF) -> float:
        rows = (LAST + COLUMNS) // COLUMNS
        return min(track.width() / COLUMNS, track.height() / (rows * 1.25))

    def square_rect(self, square: int, rect: QRectF | None = None) -> QRectF:
        """Where ``square`` is drawn (in widget coordinates unless ``rect`` is the board's rectangle)."""
        track, _ = self._layout(rect if rect is not None else QRectF(self.rect()))
        cell = self._cell(track)
        rows = (LAST + COLUMNS) // COLUMNS
        row, col = divmod(square, COLUMNS)
        if row % 2:
            col = COLUMNS - 1 - col
        x0 = track.left() + (track.width() - cell * COLUMNS) / 2
        pitch = cell * 1.25
        y_bottom = track.top() + (track.height() + pitch * rows) / 2 - pitch
        pad = cell * 0.06
        return QRectF(x0 + col * cell + pad, y_bottom - row * pitch + pad, cell - 2 * pad, cell - 2 * pad)

    def square_center(self, square: int) -> QPointF:
        return self.square_rect(square).center()

    def _square_at(self, pos: QPointF) -> int | None:
        for sq in range(LAST + 1):
            if self.square_rect(sq).contains(pos):
                return sq
        return None

    def _button_at(self, pos: QPointF) -> tuple[str, int] | None:
        for r, kind, value in self._buttons:
            if r.contains(pos):
                return kind, value
        return None

    # -- what a click means ---------------------------------------------------------------
    def _piece(self) -> int:
        """The index (into the state's pieces) of the selected piece of the player to move."""
        p = max(0, self.state.current_player)
        return p * self.ppp + min(self.selected, self.ppp - 1)

    def move_to(self, square: int) -> int:
        """The move that asks the selected piece to go to ``square`` (it may be illegal)."""
        piece = self._piece()
        here = self.state.sq[piece]  # type: ignore[attr-defined]
        base = PIECE_STRIDE * (piece % self.ppp)
        if square > here:
            return base + (square - here)
        if square < here:
            return base + BACK + (here - square)
        return base + STAY

    def targets(self) -> dict[int, int]:
        """Legal target squares of the selected piece: square -> carrots it costs (negative: received)."""
        st = self.state
        if not self.rules_ready or st.current_player < 0:
            return {}
        piece = self._piece()
        here = st.sq[piece]  # type: ignore[attr-defined]
        out: dict[int, int] = {}
        for m in st.legal_moves():
            pc, code = divmod(m, PIECE_STRIDE)
            if pc != piece % self.ppp:
                continue
            if 1 <= code <= LAST:
                out[here + code] = code * (code + 1) // 2
            elif BACK < code < TAKE10:
                out[here - (code - BACK)] = -10 * (code - BACK)
        return out

    def button_moves(self) -> list[int]:
        """Legal moves that are not a move to another square (stay, take/give 10, eat, miss, return)."""
        st = self.state
        if not self.rules_ready or st.current_player < 0:
            return []
        return [m for m in st.legal_moves() if not (1 <= m % PIECE_STRIDE <= LAST or BACK < m % PIECE_STRIDE < TAKE10)]

    def move_at(self, pos: QPointF) -> int | None:
        b = self._button_at(pos)
        if b is not None:
            return b[1] if b[0] == "move" else None
        sq = self._square_at(pos)
        if sq is None or self.state.current_player < 0:
            return None
        return self.move_to(sq)

    def set_state(self, state: State) -> None:
        old_player = self.state.current_player
        super().set_state(state)
        if state.current_player != old_player or self.ppp == 1:
            self.selected = 0
            if self.ppp == 2 and self.rules_ready and state.current_player >= 0:
                moves = state.legal_moves()
                if moves and all(m // PIECE_STRIDE == 1 for m in moves):
                    self.selected = 1

    def select_piece(self, piece: int) -> None:
        """Select piece ``piece`` (0 = a, 1 = b) of the player to move."""
        self.selected = max(0, min(piece, self.ppp - 1))
        self.update()

    def mousePressEvent(self, event: QMouseEvent) -> None:
        if self.setup_mode or event.button() != Qt.MouseButton.LeftButton:
            return
        pos = event.position()
        b = self._button_at(pos)
        if b is not None and b[0] == "select":
            self.select_piece(b[1])
            return
        sq = self._square_at(pos) if b is None else None
        if sq is not None and self.ppp == 2 and self.state.current_player >= 0 and sq not in self.targets():
            other = self.state.current_player * 2 + (1 - self.selected)
            if self.state.sq[other] == sq and sq != self.state.sq[self._piece()]:  # type: ignore[attr-defined]
                self.select_piece(1 - self.selected)
                return
        move = self.move_at(pos)
        if move is None:
            if sq is not None and self.state.current_player < 0 and not self.state.is_terminal():
                self.message.emit("A hare card is being drawn")
            return
        self.moveRequested.emit(move)  # the controller refuses an illegal move and says why

    def point_name(self, move: int) -> str:
        try:
            words = HareNotation(self.game).move(self.state, move)
            return f"{words}: {self.state.describe_move(move)}"  # type: ignore[attr-defined]
        except (ValueError, KeyError, IndexError):
            return ""

    # -- drawing -------------------------------------------------------------------
    def paint_board(self, p: QPainter, rect: QRectF) -> None:
        st = self.state
        track, panel = self._layout(rect)
        cell = self._cell(track)
        kinds = self.kinds
        theme = self.theme
        p.fillRect(rect, QColor(theme.background))
        # the path joining the squares
        p.setPen(QPen(QColor(theme.line), max(2.0, cell * 0.12)))
        centers = [self.square_rect(s, rect).center() for s in range(LAST + 1)]
        for a, b in zip(centers, centers[1:]):
            p.drawLine(a, b)
        targets = self.targets()
        font = QFont(p.font())
        for s in range(LAST + 1):
            r = self.square_rect(s, rect)
            label, fill = KIND_STYLE[kinds[s]]
            p.setPen(QPen(QColor(theme.line), 1.2))
            p.setBrush(QColor(fill))
            p.drawRoundedRect(r, cell * 0.15, cell * 0.15)
            font.setPixelSize(max(6, int(cell * (0.22 if len(label) > 2 else 0.34))))
            font.setBold(True)
            p.setFont(font)
            p.setPen(QColor("#202020"))
            p.drawText(r.adjusted(0, cell * 0.12, 0, 0), Qt.AlignmentFlag.AlignCenter, label)
            font.setPixelSize(max(5, int(cell * 0.2)))
            font.setBold(False)
            p.setFont(font)
            p.drawText(r.adjusted(3, 1, -2, 0), Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop, str(s))
        # pieces
        npieces = len(st.sq)  # type: ignore[attr-defined]
        by_square: dict[int, list[int]] = {}
        for j in range(npieces):
            by_square.setdefault(st.sq[j], []).append(j)  # type: ignore[attr-defined]
        mover = st.current_player
        for s, pieces in by_square.items():
            r = self.square_rect(s, rect)
            k = len(pieces)
            per_row = 1 if k == 1 else (2 if k <= 4 else 3)
            rows = (k + per_row - 1) // per_row
            d = min(r.width() / per_row, r.height() / rows) * (0.78 if k == 1 else 0.92)
            for i, j in enumerate(pieces):
                row, col = divmod(i, per_row)
                cx = r.left() + r.width() * (col + 0.5) / per_row
                cy = r.top() + r.height() * (row + 0.5) / rows
                owner = j // self.ppp
                disc = QRectF(cx - d / 2, cy - d / 2, d, d)
                selected = owner == mover and j % self.ppp == min(self.selected, self.ppp - 1)
                p.setPen(QPen(QColor("#000000") if selected else QColor("#303030"), 3 if selected else 1))
                p.setBrush(QColor(PLAYER_COLOURS[owner % len(PLAYER_COLOURS)]))
                p.drawEllipse(disc)
                font.setPixelSize(max(5, int(d * 0.55)))
                font.setBold(True)
                p.setFont(font)
                p.setPen(QColor("#000000") if owner in (2, 4) else QColor("#ffffff"))
                text = "ab"[j % 2] if self.ppp == 2 else str(owner + 1)
                p.drawText(disc, Qt.AlignmentFlag.AlignCenter, text)
        # legal targets with their carrot cost
        for s, cost in targets.items():
            r = self.square_rect(s, rect)
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.setPen(QPen(QColor(theme.hint), max(2.0, cell * 0.08)))
            p.drawRoundedRect(r.adjusted(-1, -1, 1, 1), cell * 0.15, cell * 0.15)
            tag = QRectF(r.left(), r.bottom() + 1, r.width(), cell * 0.22)
            font.setPixelSize(max(6, int(cell * 0.2)))
            font.setBold(True)
            p.setFont(font)
            p.setPen(QColor(theme.hint))
            p.drawText(tag, Qt.AlignmentFlag.AlignCenter, f"−{cost}" if cost >= 0 else f"+{-cost}")
        if self.hint is not None:
            hs = self._target_of(self.hint)
            if hs is not None:
                r = self.square_rect(hs, rect)
                p.setBrush(Qt.BrushStyle.NoBrush)
                p.setPen(QPen(QColor(theme.last_move), max(3.0, cell * 0.12)))
                p.drawEllipse(r.adjusted(-3, -3, 3, 3))
        self._paint_panel(p, panel)

    def _target_of(self, move: int) -> int | None:
        st = self.state
        if st.current_player < 0:
            return None
        piece = max(0, st.current_player) * self.ppp + (move // PIECE_STRIDE) % max(1, self.ppp)
        if piece >= len(st.sq):  # type: ignore[attr-defined]
            return None
        here, code = st.sq[piece], move % PIECE_STRIDE  # type: ignore[attr-defined]
        if 1 <= code <= LAST:
            return here + code
        if BACK < code < TAKE10:
            return here - (code - BACK)
        return here

    def last_card(self) -> tuple[int, bool]:
        """The last hare card drawn in the game so far (-1: none) and whether the last move drew it."""
        return self.state.last_card_drawn()  # type: ignore[attr-defined]

    def last_card_text(self) -> str:
        """The last hare card drawn, for the panel ("" when none)."""
        card, fresh = self.last_card()
        if card < 0:
            return ""
        return f"Hare card{' (just drawn)' if fresh else ''}: {CARD_NAMES[card]} — {CARD_TEXT[card]}"

    def panel_lines(self) -> list[str]:
        """The panel's text: one line per player, then the card and the finishing order."""
        st = self.state
        g = self.game
        names = HareNotation(g)
        out = []
        for pl in range(g.num_players):
            squares = ", ".join(str(st.sq[j]) for j in range(pl * self.ppp, pl * self.ppp + self.ppp))  # type: ignore[attr-defined]
            if st.place[pl]:  # type: ignore[attr-defined]
                where = f"finished {st.place[pl]}."  # type: ignore[attr-defined]
            else:
                pos = min(st.race_position(j) for j in range(pl * self.ppp, pl * self.ppp + self.ppp))  # type: ignore[attr-defined]
                where = f"position {pos}" + (", misses a turn" if st.skip[pl] else "")  # type: ignore[attr-defined]
                if any(st.eat[j] == 1 for j in range(pl * self.ppp, pl * self.ppp + self.ppp)):  # type: ignore[attr-defined]
                    where += ", must eat a lettuce"
            mark = "▶ " if pl == st.current_player else "   "
            out.append(f"{mark}{names.player(pl)}: {'squares' if self.ppp == 2 else 'square'} {squares}, "
                       f"{st.car[pl]} carrots, {st.let[pl]} lettuces, {where}")  # type: ignore[attr-defined]
        card = self.last_card_text()
        out.append(card or "Hare card: none drawn yet")
        done = sorted((st.place[pl], pl) for pl in range(g.num_players) if st.place[pl])  # type: ignore[attr-defined]
        if done:
            out.append("Finishing order: " + ", ".join(f"{n}. {names.player(pl)}" for n, pl in done))
        if st.is_chance_node():
            out.append("A hare card is drawn…")
        return out

    def _paint_panel(self, p: QPainter, panel: QRectF) -> None:
        theme = self.theme
        p.setPen(QPen(QColor(theme.line), 1))
        p.setBrush(QColor(theme.board))
        p.drawRoundedRect(panel, 6, 6)
        lines = self.panel_lines()
        n = self.game.num_players
        line_h = min(20.0, panel.height() / (len(lines) + 2.2))
        font = QFont(p.font())
        font.setPixelSize(max(7, int(line_h * 0.68)))
        font.setBold(False)
        p.setFont(font)
        y = panel.top() + 4
        for i, text in enumerate(lines):
            r = QRectF(panel.left() + 8 + (line_h if i < n else 0), y, panel.width() - 16, line_h)
            if i < n:
                p.setPen(QPen(QColor("#303030"), 1))
                p.setBrush(QColor(PLAYER_COLOURS[i % 6]))
                p.drawEllipse(QRectF(panel.left() + 8, y + line_h * 0.15, line_h * 0.7, line_h * 0.7))
            p.setPen(QColor(theme.coords))
            p.drawText(r, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, text)
            y += line_h
        # buttons: the moves that are not a square, and the piece choice with two pieces
        self._buttons = []
        specs: list[tuple[str, int, str]] = []
        st = self.state
        if self.ppp == 2 and st.current_player >= 0:
            specs += [("select", k, f"piece {'ab'[k]}" + (" ✓" if k == self.selected else "")) for k in (0, 1)]
        for m in self.button_moves():
            label = st.describe_move(m)  # type: ignore[attr-defined]
            if self.ppp == 2:
                label = f"{'ab'[m // PIECE_STRIDE]}: {label}"
            specs.append(("move", m, label))
        x, by = panel.left() + 8, panel.bottom() - line_h * 1.4
        for kind, value, label in specs:
            w = p.fontMetrics().horizontalAdvance(label) + 16
            r = QRectF(x, by, w, line_h * 1.2)
            p.setPen(QPen(QColor(theme.line), 1))
            chosen = kind == "select" and value == self.selected
            p.setBrush(QColor(theme.board_alt if kind == "move" else ("#9fd8b0" if chosen else "#dcdcdc")))
            p.drawRoundedRect(r, 4, 4)
            p.setPen(QColor("#202020"))
            p.drawText(r, Qt.AlignmentFlag.AlignCenter, label)
            self._buttons.append((r, kind, value))
            x += w + 6

    def button_center(self, move: int) -> QPointF | None:
        """Where the button for ``move`` is (after the board was painted), if there is one."""
        for r, kind, value in self._buttons:
            if kind == "move" and value == move:
                return r.center()
        return None

    # -- setup: positions are entered as text for this game ---------------------------------
    def setup_text(self) -> str:
        return self.state.to_text()
