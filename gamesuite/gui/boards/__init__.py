"""Board widgets: one base class (``BoardWidget``) and one widget per family of boards.

``board_class_for(game)`` picks the widget that can show a game; a new board
family (shogi, Hare and Hedgehog) subclasses ``BoardWidget`` and is added to
``BOARD_CLASSES``.
"""

from __future__ import annotations

from ...core.registry import Game
from .base import BoardWidget
from .grid import GridBoard
from .hare import HareBoard
from .shogi import ShogiBoard

#: Widgets tried in order; the first whose ``supports(game)`` is true shows the game.
BOARD_CLASSES: list[type[BoardWidget]] = [GridBoard, ShogiBoard, HareBoard]


def board_class_for(game: Game) -> type[BoardWidget]:
    """The board widget class for ``game``; ``ValueError`` if none can show it."""
    for cls in BOARD_CLASSES:
        if cls.supports(game):
            return cls
    raise ValueError(f"no board widget can show {game.spec}")


__all__ = ["BOARD_CLASSES", "BoardWidget", "GridBoard", "HareBoard", "ShogiBoard", "board_class_for"]
