"""Toolbar icons drawn in the palette's text colour, so that they follow the theme.

The style's standard media icons are black whatever the palette, which is
invisible on a dark toolbar; these are drawn with ``QPainter`` in the colour
the palette gives to button text (and its disabled form), at two resolutions.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QIcon, QPainter, QPainterPath, QPalette, QPixmap

#: The icons there are: first, back, forward, last (the move list's navigation).
NAMES = ("first", "back", "forward", "last")


def _triangle(p: QPainter, x: float, s: float, left: bool) -> None:
    """A triangle of width ``0.34 s`` starting at ``x``, pointing left or right, vertically centred."""
    w, h = 0.34 * s, 0.56 * s
    top, mid, bot = (s - h) / 2, s / 2, (s + h) / 2
    path = QPainterPath()
    if left:
        path.moveTo(QPointF(x + w, top))
        path.lineTo(QPointF(x, mid))
        path.lineTo(QPointF(x + w, bot))
    else:
        path.moveTo(QPointF(x, top))
        path.lineTo(QPointF(x + w, mid))
        path.lineTo(QPointF(x, bot))
    path.closeSubpath()
    p.drawPath(path)


def draw_icon(p: QPainter, name: str, size: float, colour: QColor) -> None:
    """Draw icon ``name`` into the square ``(0, 0, size, size)`` of ``p``."""
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(colour)
    s = size
    bar = 0.1 * s
    h = 0.56 * s
    if name == "back":
        _triangle(p, 0.33 * s, s, True)
    elif name == "forward":
        _triangle(p, 0.33 * s, s, False)
    elif name == "first":
        p.drawRect(QRectF(0.2 * s, (s - h) / 2, bar, h))
        _triangle(p, 0.3 * s, s, True)
        _triangle(p, 0.5 * s, s, True)
    elif name == "last":
        _triangle(p, 0.16 * s, s, False)
        _triangle(p, 0.36 * s, s, False)
        p.drawRect(QRectF(0.7 * s, (s - h) / 2, bar, h))
    else:
        raise ValueError(f"no icon named {name!r} (one of {', '.join(NAMES)})")


def _pixmap(name: str, size: int, colour: QColor) -> QPixmap:
    pix = QPixmap(size, size)
    pix.fill(Qt.GlobalColor.transparent)
    p = QPainter(pix)
    draw_icon(p, name, size, colour)
    p.end()
    return pix


def themed_icon(name: str, palette: QPalette) -> QIcon:
    """Icon ``name`` in ``palette``'s button-text colour (greyed as the palette greys disabled text)."""
    icon = QIcon()
    normal = palette.color(QPalette.ColorGroup.Active, QPalette.ColorRole.ButtonText)
    disabled = palette.color(QPalette.ColorGroup.Disabled, QPalette.ColorRole.ButtonText)
    for size in (16, 24, 32, 48):
        icon.addPixmap(_pixmap(name, size, normal), QIcon.Mode.Normal)
        icon.addPixmap(_pixmap(name, size, disabled), QIcon.Mode.Disabled)
    return icon
