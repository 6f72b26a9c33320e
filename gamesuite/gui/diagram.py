"""Board diagrams as PNG or SVG files, drawn by the board widgets (also offscreen)."""

from __future__ import annotations

import os
from pathlib import Path

from ..core.errors import InvalidOptionError, quote
from ..core.files import write_atomic_with
from ..core.registry import Game
from ..core.state import State


def ensure_app() -> object:
    """A Qt application for drawing: the running one, or a new offscreen one."""
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance()
    if app is None:
        if not os.environ.get("QT_QPA_PLATFORM"):
            os.environ["QT_QPA_PLATFORM"] = "offscreen"  # a diagram needs no screen
        app = QApplication(["gamesuite-diagram"])
    return app


def render_diagram(game: Game, state: State, path: str | Path, size: int = 600, theme: str = "light",
                   flipped: bool = False) -> Path:
    """Draw ``state`` into ``path`` (``.png`` or ``.svg``); returns the path written."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in (".png", ".svg"):
        raise InvalidOptionError(f"diagram file must end in .png or .svg, got {quote(str(path))}")
    if not 16 <= size <= 8000:
        raise InvalidOptionError(f"diagram size must be in 16..8000 pixels, got {size}")
    ensure_app()
    from .boards import board_class_for
    from .themes import board_theme

    try:
        board = board_class_for(game)(game)
    except ValueError as e:
        raise InvalidOptionError(str(e)) from None
    board.set_theme(board_theme(theme))
    board.set_flipped(flipped)
    board.set_state(state)
    board.resize(size, size)
    def write(tmp: Path) -> None:
        if suffix == ".svg":
            board.save_svg(str(tmp), size)
        elif not board.save_png(str(tmp), size):
            raise InvalidOptionError(f"cannot write {quote(str(path))}")

    try:
        write_atomic_with(path, write)
    except OSError as e:
        raise InvalidOptionError(f"cannot write {quote(str(path))}: {e.strerror or e}") from None
    board.deleteLater()
    return path
