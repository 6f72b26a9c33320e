"""The move list: the main line with its variations in brackets; click a move to go there."""

from __future__ import annotations

import html

from PySide6.QtCore import Qt, QUrl, Signal, Slot
from PySide6.QtGui import QContextMenuEvent
from PySide6.QtWidgets import QMenu, QTextBrowser, QWidget

from .record import GameRecord, Node


class MoveList(QTextBrowser):
    """Shows a ``GameRecord``; emits ``nodeClicked(node)`` and edit requests from its menu."""

    nodeClicked = Signal(object)
    promoteRequested = Signal(object)
    deleteRequested = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setOpenLinks(False)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # the arrow keys walk through the game, not this text
        self.setOpenExternalLinks(False)
        self.anchorClicked.connect(self._anchor)
        self.record: GameRecord | None = None
        self.current: Node | None = None
        self._link_colour = "#2060c0"

    def set_link_colour(self, colour: str) -> None:
        self._link_colour = colour

    def show_record(self, record: GameRecord, current: Node) -> None:
        self.record, self.current = record, current
        self.setHtml(self._html())
        self.scrollToAnchor(f"n{current.id}")

    def _html(self) -> str:
        rec = self.record
        assert rec is not None
        two = rec.game.num_players == 2
        start = rec.start_state()
        parts: list[str] = []
        first_player = start.current_player

        def label(state, node: Node, force_number: bool) -> str:  # type: ignore[no-untyped-def]
            ply = node.ply
            text = html.escape(state.format_move(node.move))
            num = ""
            if two:
                mover = (first_player + ply - 1) % 2
                moveno = (ply - 1 + (first_player == 1)) // 2 + 1
                if mover == 0:
                    num = f"{moveno}. "
                elif force_number:
                    num = f"{moveno}... "
            else:
                num = f"{ply}. "
            style = f"color:{self._link_colour}; text-decoration:none"
            if node is self.current:
                style += "; background-color:#f0c040; color:#000000; font-weight:bold"
            return f'<a name="n{node.id}" href="node:{node.id}" style="{style}">{num}{text}</a>'

        def line(first: Node, state, depth: int) -> None:  # type: ignore[no-untyped-def]
            node: Node | None = first
            s = state.copy()
            force = True
            while node is not None:
                parts.append(label(s, node, force))
                force = False
                sibs = node.parent.children if node.parent is not None else []
                if sibs and node is sibs[0] and len(sibs) > 1:
                    for alt in sibs[1:]:
                        parts.append('<span style="color:#888888">(</span><i>')
                        line(alt, s, depth + 1)
                        parts.append('</i><span style="color:#888888">)</span>')
                    force = True
                s.play(node.move)
                node = node.children[0] if node.children else None

        if rec.root.children:
            line(rec.root.children[0], start, 0)
        body = " ".join(parts) if parts else '<span style="color:#888888">No moves yet.</span>'
        result = ""
        end = rec.mainline()[-1]
        final = rec.state_at(end)
        over = rec.timeout_text(end) or (final.result_text() if final.is_terminal() else None)
        if over:
            result = f"<p><b>{html.escape(over)}</b></p>"
        return f'<div style="line-height:150%">{body}</div>{result}'

    @Slot(QUrl)
    def _anchor(self, url: QUrl) -> None:
        node = self._node_of(url.toString())
        if node is not None:
            self.nodeClicked.emit(node)

    def _node_of(self, href: str) -> Node | None:
        if not href.startswith("node:") or self.record is None:
            return None
        try:
            return self.record.find(int(href[5:]))
        except ValueError:
            return None

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:
        node = self._node_of(self.anchorAt(event.pos()))
        menu = QMenu(self)
        if node is not None:
            menu.addAction("Make this the main line", lambda: self.promoteRequested.emit(node))
            menu.addAction("Delete from here", lambda: self.deleteRequested.emit(node))
            menu.addSeparator()
        menu.addAction("Select all", self.selectAll)
        menu.exec(event.globalPos())
