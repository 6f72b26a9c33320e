"""The game controller: the one object that changes the game record.

Board widgets, the move list and the engines only *ask* (``play``,
``go_to``...); the controller checks, changes the record and says what changed
(``changed`` for the position shown, ``treeChanged`` for the moves).
"""

from __future__ import annotations

import random
from typing import Any

from PySide6.QtCore import QObject, Signal

from ..core.errors import GameSuiteError
from ..core.registry import Game
from ..core.score import Score
from ..core.state import State
from ..play.clock import ClockValue
from ..play.record import GameRecord, Node, PlayerSpec
from .notation import notation_for


class GameController(QObject):
    """Owns a ``GameRecord`` and the node being shown."""

    changed = Signal()  # the current position changed (navigation, a move, a new game)
    treeChanged = Signal()  # moves were added, removed or reordered
    scoresChanged = Signal()
    message = Signal(str)  # a short text for the status bar (e.g. why a move was refused)
    gameLoaded = Signal()  # a new record replaced the old one

    def __init__(self, record: GameRecord, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.record = record
        self.current: Node = record.root
        self._state = record.start_state()
        #: Draws the outcomes of chance nodes (hare cards...); tests may replace it with a seeded one.
        self.rng = random.Random()

    # -- what is shown --------------------------------------------------------
    @property
    def game(self) -> Game:
        return self.record.game

    @property
    def state(self) -> State:
        """The position at the current node (do not modify it; copy it)."""
        return self._state

    @property
    def players(self) -> list[PlayerSpec]:
        return self.record.players

    def player_to_move(self) -> PlayerSpec | None:
        p = self._state.current_player
        return self.record.players[p] if 0 <= p < len(self.record.players) else None

    def at_end_of_line(self) -> bool:
        return not self.current.children

    def over_text(self) -> str | None:
        """Why the game is over at the current position (the rules' result, or a player's
        time ran out), or None while it goes on."""
        notation = notation_for(self.game)
        if self.current.timeout is not None:
            return notation.timeout(self.current.timeout)
        return notation.result(self._state) if self._state.is_terminal() else None

    # -- changing the record -------------------------------------------------------
    def new_game(self, game: Game, players: list[PlayerSpec] | None = None, start_text: str | None = None,
                 metadata: dict[str, str] | None = None, match: dict[str, Any] | None = None) -> None:
        """Start a new record (``start_text`` None: the game's start position; ``match``: e.g. a swap
        opening to negotiate, ``{"swap": {"rule": "swap2", "steps": []}}``)."""
        rec = GameRecord(game, start_text, players=list(players or []), metadata=dict(metadata or {}),
                         match=dict(match or {}))
        self.load(rec, rec.root)

    def load(self, record: GameRecord, current: Node | None = None) -> None:
        self.record = record
        self.current = current or record.root
        self._state = record.state_at(self.current)
        while not self.current.children and self._state.is_chance_node() and self._state.chance_outcomes():
            self._draw_chance()  # a position waiting for a chance outcome (a hare card): draw it
        self.gameLoaded.emit()
        self.treeChanged.emit()
        self.changed.emit()

    def set_players(self, players: list[PlayerSpec]) -> None:
        self.record.players = list(players)
        self.changed.emit()

    def refusal(self, move: int) -> str | None:
        """Why ``move`` cannot be played here (None when it can)."""
        s = self._state
        try:
            text = s.format_move(move)
        except GameSuiteError:
            text = str(move)
        over = self.over_text()
        if over is not None:
            return f"{text}: the game is over ({over})"
        if s.is_legal(move):
            return None
        return f"{text} is not allowed: {s.why_illegal(move) or 'illegal move'}"

    def play(self, move: int) -> bool:
        """Play ``move`` from the current position (a new variation if it differs from the game)."""
        why = self.refusal(move)
        if why is not None:
            self.message.emit(why)
            return False
        existed = any(c.move == move for c in self.current.children)
        self.current = self.record.add_move(self.current, move)
        self._state.play(move)
        new_line = not existed
        while self._state.is_chance_node() and self._state.chance_outcomes():
            new_line = self._draw_chance() or new_line
        if new_line:
            self.treeChanged.emit()
        self.changed.emit()
        return True

    def _draw_chance(self) -> bool:
        """At a chance node: draw an outcome weighted by its probability and record it like a move.

        A chance node already followed in the record keeps its recorded outcome (replaying a
        move repeats the card drawn). Returns whether a new node was added to the tree.
        """
        first = self.current.children[0].move if self.current.children else None
        if first is not None:  # (every node but the root has a move)
            outcome = first
        else:
            outcomes = self._state.chance_outcomes()
            moves = [m for m, _ in outcomes]
            outcome = self.rng.choices(moves, weights=[w for _, w in outcomes])[0]
        existed = any(c.move == outcome for c in self.current.children)
        self.current = self.record.add_move(self.current, outcome)
        self._state.play(outcome)
        return not existed

    def set_timeout(self, node: Node, player: int, clocks: tuple[ClockValue | None, ...]) -> None:
        """``player``'s time ran out at ``node`` (the clocks then: ``clocks``): the game ends there."""
        node.timeout = player
        node.clocks = clocks
        self.treeChanged.emit()
        if node is self.current:
            self.changed.emit()

    def set_score(self, node: Node, score: Score) -> None:
        """Remember an engine's score for ``node`` (converted to player 0's view here, once)."""
        node.score = score.for_player(0) if score.kind != "vector" else score
        self.scoresChanged.emit()

    def promote(self, node: Node) -> None:
        self.record.promote(node)
        self.treeChanged.emit()

    def delete_from(self, node: Node) -> None:
        """Remove ``node`` and what follows; shows its parent if the current node went with it."""
        if node.parent is None:
            return
        cur, inside = self.current, False
        while cur is not None:
            if cur is node:
                inside = True
                break
            cur = cur.parent  # type: ignore[assignment]
        parent = self.record.delete(node)
        if inside:  # the position shown first: nothing may look at a node no longer in the tree
            self.go_to(parent)
        self.treeChanged.emit()

    def set_start_position(self, text: str) -> None:
        """A new record starting from position ``text`` (checked: ``InvalidPositionError``)."""
        self.game.state_from_text(text)  # validates before anything changes
        self.new_game(self.game, self.record.players, start_text=text, metadata=self.record.metadata)

    # -- navigation -------------------------------------------------------------
    def go_to(self, node: Node) -> None:
        if node is self.current:
            return
        self.current = node
        self._state = self.record.state_at(node)
        self.changed.emit()

    def back(self) -> bool:
        if self.current.parent is None:
            return False
        self.go_to(self.current.parent)
        return True

    def forward(self) -> bool:
        if not self.current.children:
            return False
        self.go_to(self.current.children[0])
        return True

    def to_start(self) -> None:
        self.go_to(self.record.root)

    def to_end(self) -> None:
        node = self.current
        while node.children:
            node = node.children[0]
        self.go_to(node)

    def takeback(self) -> bool:
        """Step back to the last position where a human was to move (the moves stay in the tree)."""
        node = self.current
        if node.parent is None:
            return False
        node = node.parent
        while node.parent is not None:
            p = self.record.state_at(node).current_player
            if 0 <= p < len(self.players) and not self.players[p].is_engine:
                break
            node = node.parent
        self.go_to(node)
        return True
