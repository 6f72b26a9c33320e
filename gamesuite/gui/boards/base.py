"""The base of every board widget: rendering on request, clicks as move requests.

A board never changes the game. It is told what to show (``set_state``, a
hint, a previewed line, the theme, the orientation) and emits
``moveRequested(move)`` when the user clicks a move; the controller decides.
In setup mode it edits its own copy of the position and ``setup_text()``
returns it as position text for the game to validate.

Subclasses implement ``supports``, ``paint_board``, ``move_at`` and the setup
hooks. Everything is drawn with ``QPainter`` into any paint device, so the
same code draws the window, PNG and SVG diagrams.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QImage, QMouseEvent, QPainter, QPaintEvent
from PySide6.QtWidgets import QSizePolicy, QWidget

from ...core.registry import Game
from ...core.state import State
from ..themes import LIGHT, BoardTheme


class BoardWidget(QWidget):
    """Shows one position of one game and turns clicks into move requests."""

    moveRequested = Signal(int)
    setupChanged = Signal()
    hoverChanged = Signal(str)  # the name of the point under the mouse ("" when none)
    message = Signal(str)  # why a click was refused, for the status bar (boards whose moves take several clicks)

    def __init__(self, game: Game, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.game = game
        self.state: State = game.new_state()
        self.flipped = False
        self.theme: BoardTheme = LIGHT
        self.interactive = True  # False: no hover preview (clicks still reach the window, which may refuse)
        self.hint: int | None = None
        self.preview: list[int] = []
        self.setup_mode = False
        self.setup_tool = ""
        self.setup_side = 0
        self.hover: int | None = None
        #: False until the window says the game's rule kernels are loaded: until then a board
        #: draws only the pieces and calls no optional state method (they may compile).
        self.rules_ready = True
        self.setMouseTracking(True)
        self.setMinimumSize(240, 240)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setFocusPolicy(Qt.FocusPolicy.ClickFocus)

    # -- what a subclass provides -----------------------------------------------
    @classmethod
    def supports(cls, game: Game) -> bool:
        """Whether this widget can show ``game``."""
        return False

    def paint_board(self, p: QPainter, rect: QRectF) -> None:
        """Draw the whole board (with coordinates and marks) inside ``rect``."""
        raise NotImplementedError

    def move_at(self, pos: QPointF) -> int | None:
        """The move a click at ``pos`` (widget coordinates) asks for, if any."""
        raise NotImplementedError

    def point_name(self, move: int) -> str:
        try:
            return self.state.format_move(move)
        except ValueError:
            return ""

    def setup_tools(self) -> list[tuple[str, str]]:
        """``(key, label)`` of the pieces a setup click can place ("erase" removes)."""
        return []

    def setup_sides(self) -> list[str]:
        """Names of the sides that may be chosen to move in setup mode.

        Empty when the position itself decides (tic-tac-toe and gomoku: the stone
        counts); a board whose game lets either side move (shogi) lists them, and
        ``setup_text`` then uses ``setup_side`` (an index into this list).
        """
        return []

    def begin_setup(self) -> None:
        """Enter setup mode, editing a copy of the current position."""
        self.setup_mode = True
        tools = self.setup_tools()
        self.setup_tool = tools[0][0] if tools else ""
        self.setup_side = max(0, self.state.current_player)
        self.update()

    def end_setup(self) -> None:
        self.setup_mode = False
        self.update()

    def setup_click(self, move: int, button: Qt.MouseButton) -> None:
        """Edit the setup position at ``move``."""

    def setup_clear(self) -> None:
        """Empty the setup position."""

    def setup_text(self) -> str:
        """The setup position as the game's position text (validated by the caller)."""
        raise NotImplementedError

    # -- what the window tells the board ---------------------------------------------
    def set_game(self, game: Game) -> None:
        self.game = game
        self.state = game.new_state()
        self.hint, self.preview, self.hover = None, [], None
        self.updateGeometry()
        self.update()

    def set_state(self, state: State) -> None:
        """Show ``state`` (a copy is kept); clears the hint and the preview."""
        self.state = state.copy()
        self.hint, self.preview = None, []
        self.update()

    def set_flipped(self, flipped: bool) -> None:
        self.flipped = flipped
        self.update()

    def set_theme(self, theme: BoardTheme) -> None:
        self.theme = theme
        self.update()

    def set_interactive(self, on: bool) -> None:
        self.interactive = on
        if not on:
            self.hover = None
        self.update()

    def set_hint(self, move: int | None) -> None:
        self.hint = move
        self.update()

    def set_preview(self, moves: list[int]) -> None:
        """Show ``moves`` (played from the shown position) numbered on the board."""
        self.preview = list(moves)
        self.update()

    # -- Qt ---------------------------------------------------------------------
    def sizeHint(self) -> QSize:
        return QSize(560, 560)

    def paintEvent(self, event: QPaintEvent) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.setRenderHint(QPainter.RenderHint.TextAntialiasing)
        self.paint_board(p, QRectF(self.rect()))
        p.end()

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        move = self.move_at(event.position())
        if move != self.hover:
            self.hover = move
            self.hoverChanged.emit(self.point_name(move) if move is not None else "")
            self.update()

    def leaveEvent(self, event: object) -> None:
        if self.hover is not None:
            self.hover = None
            self.hoverChanged.emit("")
            self.update()

    def mousePressEvent(self, event: QMouseEvent) -> None:
        move = self.move_at(event.position())
        if move is None:
            return
        if self.setup_mode:
            self.setup_click(move, event.button())
            self.setupChanged.emit()
            self.update()
        elif event.button() == Qt.MouseButton.LeftButton:
            self.moveRequested.emit(move)  # even when not interactive: the window says why it refuses

    def click_move(self, move: int) -> None:
        """Act as if the user clicked ``move`` (keyboard entry and tests)."""
        if self.setup_mode:
            self.setup_click(move, Qt.MouseButton.LeftButton)
            self.setupChanged.emit()
            self.update()
        else:
            self.moveRequested.emit(move)

    # -- diagrams ---------------------------------------------------------------
    def render_image(self, width: int, height: int | None = None) -> QImage:
        """The board drawn into a new image (``width`` x ``height`` pixels)."""
        img = QImage(width, height or width, QImage.Format.Format_ARGB32)
        img.fill(QColor(self.theme.background))
        p = QPainter(img)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.setRenderHint(QPainter.RenderHint.TextAntialiasing)
        self.paint_board(p, QRectF(0, 0, width, height or width))
        p.end()
        return img

    def save_png(self, path: str, size: int = 600) -> bool:
        return self.render_image(size).save(path, "PNG")  # type: ignore[call-overload]  # PySide6 wants str; its stub says bytes

    def save_svg(self, path: str, size: int = 600, title: str = "") -> None:
        from PySide6.QtSvg import QSvgGenerator

        gen = QSvgGenerator()
        gen.setFileName(path)
        gen.setSize(QSize(size, size))
        gen.setViewBox(QRectF(0, 0, size, size))
        gen.setTitle(title or self.game.spec)
        gen.setDescription(f"{self.game.spec} {self.state.to_text()}")
        p = QPainter(gen)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.fillRect(QRectF(0, 0, size, size), QColor(self.theme.background))
        self.paint_board(p, QRectF(0, 0, size, size))
        p.end()
