"""Light and dark themes: the application palette and the board colours."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication

#: The colour of each player's pieces in games of more than two players (Hare and Hedgehog).
PLAYER_COLOURS = ("#d62728", "#1f77b4", "#f2c500", "#2ca02c", "#f5f5f5", "#9467bd")
#: The same colours for lines drawn on a light or dark background (the white piece is drawn grey).
PLAYER_LINE_COLOURS = ("#d62728", "#1f77b4", "#f2c500", "#2ca02c", "#9e9e9e", "#9467bd")


@dataclass(frozen=True)
class BoardTheme:
    """Colours a board widget draws with."""

    name: str
    background: str  # around the board
    board: str  # cells / wood
    board_alt: str  # second cell colour or wood grain
    line: str
    coords: str
    first: str  # X / black
    second: str  # O / white
    first_edge: str
    second_edge: str
    last_move: str
    win: str
    hover: str
    hint: str
    forbidden: str
    preview_text: str
    graph_bg: str
    graph_first: str  # the half of the graph where the first player is better
    graph_second: str
    graph_line: str
    graph_grid: str  # the frame and the scale's lines
    graph_text: str  # the legend (on graph_bg)


LIGHT = BoardTheme(
    name="light", background="#f4f1ea", board="#fbfaf7", board_alt="#e9c98b", line="#4a4a4a", coords="#6b6256",
    first="#1f5fbf", second="#d2463c", first_edge="#0d0d0d", second_edge="#6b6b6b", last_move="#e8a317",
    win="#3fae49", hover="#808080", hint="#1c9c5a", forbidden="#c62828", preview_text="#ffffff",
    graph_bg="#ffffff", graph_first="#f4f4f4", graph_second="#dedede", graph_line="#c77c00",
    graph_grid="#a8a8a8", graph_text="#202020",
)

DARK = BoardTheme(
    name="dark", background="#1e1f22", board="#2b2d31", board_alt="#b8935a", line="#c8c8c8", coords="#9aa0a6",
    first="#6aa7ff", second="#ff7a6e", first_edge="#000000", second_edge="#9a9a9a", last_move="#ffb74d",
    win="#66d37a", hover="#b0b0b0", hint="#4fd18b", forbidden="#ff5252", preview_text="#ffffff",
    graph_bg="#26282c", graph_first="#3a3d43", graph_second="#2d2f34", graph_line="#ffb74d",
    graph_grid="#6a6e76", graph_text="#e6e6e6",
)

THEMES = {"light": LIGHT, "dark": DARK}


def board_theme(name: str) -> BoardTheme:
    return THEMES.get(name, LIGHT)


def apply_app_theme(app: QApplication, name: str) -> None:
    """Set the Fusion style and a light or dark palette on ``app``."""
    app.setStyle("Fusion")
    if name != "dark":
        app.setPalette(app.style().standardPalette())
        return
    p = QPalette()
    base, window, text = QColor("#1e1f22"), QColor("#2b2d31"), QColor("#e6e6e6")
    p.setColor(QPalette.ColorRole.Window, window)
    p.setColor(QPalette.ColorRole.WindowText, text)
    p.setColor(QPalette.ColorRole.Base, base)
    p.setColor(QPalette.ColorRole.AlternateBase, window)
    p.setColor(QPalette.ColorRole.ToolTipBase, window)
    p.setColor(QPalette.ColorRole.ToolTipText, text)
    p.setColor(QPalette.ColorRole.Text, text)
    p.setColor(QPalette.ColorRole.Button, window)
    p.setColor(QPalette.ColorRole.ButtonText, text)
    p.setColor(QPalette.ColorRole.BrightText, QColor("#ff5252"))
    p.setColor(QPalette.ColorRole.Link, QColor("#6aa7ff"))
    p.setColor(QPalette.ColorRole.Highlight, QColor("#3d6fb6"))
    p.setColor(QPalette.ColorRole.HighlightedText, QColor("#ffffff"))
    p.setColor(QPalette.ColorRole.PlaceholderText, QColor("#8a8a8a"))
    for role in (QPalette.ColorRole.WindowText, QPalette.ColorRole.Text, QPalette.ColorRole.ButtonText):
        p.setColor(QPalette.ColorGroup.Disabled, role, QColor("#777777"))
    app.setPalette(p)
