"""The clocks above the board: one box per player with the time left and byoyomi periods."""

from __future__ import annotations

import html

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QHBoxLayout, QLabel, QWidget

from ..play.clock import Reading, TimeControl, format_ms
from .themes import LIGHT, BoardTheme

#: Under this much time left (and no spare byoyomi period) a clock is drawn in the warning colour.
LOW_MS = 10_000


def clock_text(control: TimeControl | None, r: Reading | None) -> str:
    """``4:59``, ``0:27.4 (byoyomi ×2)``, ``9:45 + 30 s``, or ``—`` without a clock."""
    if control is None or r is None:
        return "—"
    if r.flagged:
        return "0:00.0 — time"
    if control.byoyomi:
        extra = f" ×{r.periods}" if control.periods > 1 else ""
        if r.in_byoyomi:
            return f"{format_ms(r.period)} (byoyomi{extra})"
        return f"{format_ms(r.main)} + {control.byoyomi / 1000:g} s{extra}"
    return format_ms(r.main)


def is_low(r: Reading | None) -> bool:
    """Whether a clock is in its last seconds (or has fallen)."""
    if r is None:
        return False
    return r.flagged or (r.left < LOW_MS and r.periods <= 1)


class ClockPanel(QWidget):
    """Shows every player's clock; the running one highlighted, low time in the warning colour."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._box = QHBoxLayout(self)
        self._box.setContentsMargins(0, 0, 0, 0)
        self.labels: list[QLabel] = []
        self.theme: BoardTheme = LIGHT
        self.texts: list[str] = []
        self.low: list[bool] = []
        self.running: int | None = None

    def set_theme(self, theme: BoardTheme) -> None:
        self.theme = theme

    def show_clocks(self, names: list[str], controls: list[TimeControl | None], readings: list[Reading | None],
                    running: int | None) -> None:
        """Redraw: ``readings[i]`` is player ``i``'s clock now, ``running`` the clock that runs."""
        while len(self.labels) < len(names):
            lab = QLabel()
            lab.setAlignment(Qt.AlignmentFlag.AlignCenter)
            lab.setTextFormat(Qt.TextFormat.RichText)
            self._box.addWidget(lab, 1)
            self.labels.append(lab)
        while len(self.labels) > len(names):
            self.labels.pop().deleteLater()
        self.texts = [clock_text(c, r) for c, r in zip(controls, readings)]
        self.low = [is_low(r) for r in readings]
        self.running = running
        t = self.theme
        for i, lab in enumerate(self.labels):
            colour = t.forbidden if self.low[i] else t.line
            border = t.last_move if i == running else "transparent"
            weight = "bold" if i == running else "normal"
            style = (f"QLabel {{ border: 2px solid {border}; border-radius: 4px; padding: 2px 6px;"
                     f" color: {colour}; font-weight: {weight}; }}")
            if lab.styleSheet() != style:  # restyling is dear; the text changes every tick
                lab.setStyleSheet(style)
            text = f"{html.escape(names[i])}<br><span style='font-size:large'>{self.texts[i]}</span>"
            if lab.text() != text:
                lab.setText(text)
