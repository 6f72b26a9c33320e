"""The move list: the main line with its variations in brackets; click a move to go there."""

from __future__ import annotations

import html

from PySide6.QtCore import Qt, QUrl, Signal, Slot
from PySide6.QtGui import QContextMenuEvent
from PySide6.QtWidgets import QMenu, QTextBrowser, QWidget

from ..core.state import State
from ..play.record import GameRecord, Node
from .notation import Notation, notation_for


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
        self.notation: Notation | None = None
        self._link_colour = "#2060c0"

    def set_link_colour(self, colour: str) -> None:
        self._link_colour = colour

    def show_record(self, record: GameRecord, current: Node, notation: Notation | None = None) -> None:
        self.record, self.current = record, current
        self.notation = notation if notation is not None and notation.game == record.game else notation_for(record.game)
        self.setHtml(self._html())
        self.scrollToAnchor(f"n{current.id}")

    def _html(self) -> str:
        rec = self.record
        notation = self.notation
        assert rec is not None and notation is not None
        pairs = rec.game.num_players == 2 and not notation.numbers_each_move
        start = rec.start_state()
        parts: list[str] = []
        first_player = start.current_player

        def label(state: State, node: Node, force_number: bool, turn: int) -> str:
            ply = node.ply
            text = html.escape(notation.move(state, node.move)) if node.move is not None else ""
            num = ""
            if pairs:
                mover = (first_player + ply - 1) % 2
                moveno = (ply - 1 + (first_player == 1)) // 2 + 1
                if mover == 0:
                    num = f"{moveno}. "
                elif force_number:
                    num = f"{moveno}... "
            elif not state.is_chance_node():  # every player's move numbered; chance outcomes follow it
                num = f"{turn}. "
            # (nowrap: a move number never ends a line without its move)
            style = f"color:{self._link_colour}; text-decoration:none; white-space:nowrap"
            if node is self.current:
                style += "; background-color:#f0c040; color:#000000; font-weight:bold"
            return f'<a name="n{node.id}" href="node:{node.id}" style="{style}">{num}{text}</a>'

        def line(first: Node, state: State, depth: int, turn: int) -> None:
            node: Node | None = first
            s = state.copy()
            force = True
            while node is not None:
                chance = s.is_chance_node()
                if notation.move_per_line and depth == 0 and not chance and turn > 0:
                    parts.append("<br>")
                parts.append(label(s, node, force, turn + (0 if chance else 1)))
                force = False
                sibs = node.parent.children if node.parent is not None else []
                if sibs and node is sibs[0] and len(sibs) > 1:
                    for alt in sibs[1:]:
                        parts.append('<span style="color:#888888">(</span><i>')
                        line(alt, s, depth + 1, turn)
                        parts.append('</i><span style="color:#888888">)</span>')
                    force = True
                turn += 0 if chance else 1
                if node.move is None:  # (only the root has no move, and a line starts below it)
                    break
                s.play(node.move)
                node = node.children[0] if node.children else None

        if rec.root.children:
            line(rec.root.children[0], start, 0, 0)
        body = " ".join(parts) if parts else '<span style="color:#888888">No moves yet.</span>'
        result = ""
        end = rec.mainline()[-1]
        final = rec.state_at(end)
        over = notation.timeout(end.timeout) if end.timeout is not None else notation.result(final)
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
