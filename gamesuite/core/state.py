"""The State API every game implements (after OpenSpiel and python-chess)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING

from .errors import GameSuiteError, IllegalMoveError, quote

if TYPE_CHECKING:
    from .registry import Game

#: ``current_player`` of a chance node.
CHANCE = -1
#: ``current_player`` of a finished game.
TERMINAL = -2


class State(ABC):
    """A position of a game, with the moves that led to it.

    Moves are non-negative integers. ``play`` is the fast, unchecked path (the move
    must come from ``legal_moves()`` or ``chance_outcomes()``); ``play_text`` parses
    and checks. Text at the edges: ``parse_move`` / ``format_move`` and
    ``to_text`` / ``Game.state_from_text``.
    """

    game: Game

    # -- who moves --------------------------------------------------------
    @property
    @abstractmethod
    def current_player(self) -> int:
        """The player to move (0-based), ``CHANCE`` or ``TERMINAL``."""

    @property
    def num_players(self) -> int:
        return self.game.num_players

    # -- moves ------------------------------------------------------------
    @abstractmethod
    def legal_moves(self) -> list[int]:
        """Legal moves of the player to move, sorted ascending; empty when terminal."""

    @abstractmethod
    def play(self, move: int) -> None:
        """Make ``move`` (unchecked: it must be legal or a chance outcome)."""

    @abstractmethod
    def undo(self) -> None:
        """Take back the last move (raises ``IndexError`` at the start)."""

    def is_legal(self, move: int) -> bool:
        if self.is_chance_node():
            return any(m == move for m, _ in self.chance_outcomes())
        return move in self.legal_moves()

    def play_checked(self, move: int) -> None:
        """Make ``move`` after checking it is legal; raise ``IllegalMoveError`` otherwise."""
        if not self.is_legal(move):
            try:
                text = self.format_move(move)
            except ValueError:
                text = str(move)
            raise IllegalMoveError(
                f"illegal move {quote(text)} in position {quote(self.to_text())}"
                + (f": {why}" if (why := self.why_illegal(move)) else "")
            )
        self.play(move)

    def play_text(self, text: str) -> int:
        """Parse ``text``, check and play it; return the move."""
        move = self.parse_move(text)
        self.play_checked(move)
        return move

    def why_illegal(self, move: int) -> str:
        """A short reason why ``move`` is illegal here (empty when unknown)."""
        return ""

    # -- the end ----------------------------------------------------------
    @abstractmethod
    def is_terminal(self) -> bool:
        """True when the game is over."""

    @abstractmethod
    def returns(self) -> list[float]:
        """One value per player in [-1, 1] (win 1, loss -1, draw 0); zeros before the end."""

    def result_text(self) -> str:
        """A human sentence for the end of the game (empty while it goes on)."""
        if not self.is_terminal():
            return ""
        r = self.returns()
        best = max(r)
        winners = [i for i, v in enumerate(r) if v == best]
        if len(winners) == len(r):
            return "draw"
        return " and ".join(self.game.player_name(i) for i in winners) + " wins"

    # -- chance -----------------------------------------------------------
    def is_chance_node(self) -> bool:
        return self.current_player == CHANCE

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """``(outcome, probability)`` pairs at a chance node, sorted by outcome."""
        return []

    # -- identity ---------------------------------------------------------
    @property
    @abstractmethod
    def key(self) -> int:
        """64-bit Zobrist key of the position (equal positions, equal keys)."""

    @abstractmethod
    def copy(self) -> State:
        """An independent copy, history included."""

    @property
    @abstractmethod
    def history(self) -> Sequence[int]:
        """The moves (and chance outcomes) played since the start position."""

    # -- text -------------------------------------------------------------
    @abstractmethod
    def parse_move(self, text: str) -> int:
        """Parse a move in the game's notation; ``InvalidMoveError`` when malformed."""

    @abstractmethod
    def format_move(self, move: int) -> str:
        """The move in the game's notation."""

    @abstractmethod
    def to_text(self) -> str:
        """The position in the game's position text (``Game.state_from_text`` reads it)."""

    def format_line(self, moves: Sequence[int]) -> list[str]:
        """Format a line of moves played in sequence from this position."""
        s = self.copy()
        out = []
        for m in moves:
            out.append(s.format_move(m))
            s.play(m)
        return out

    def __str__(self) -> str:
        return self.to_text()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.game.spec} {self.to_text()!r}>"


def legal_line(state: State, words: Iterable[str],
               parse: Callable[[State, str], int] | None = None) -> list[int]:
    """The moves of ``words`` played in turn from a copy of ``state``, up to the first that does not
    parse or is not legal there (an engine's reported line, read as far as it makes sense).
    ``parse(state, word)`` reads one move (default: ``state.parse_move``)."""
    s = state.copy()
    out: list[int] = []
    for w in words:
        try:
            m = parse(s, w) if parse is not None else s.parse_move(w)
        except GameSuiteError:
            break
        if not s.is_legal(m):
            break
        s.play(m)
        out.append(m)
    return out
