"""Tic-tac-toe and its m,n,k generalisation: the rules and the notation.

Cells are numbered row by row from the top-left: ``move = row * width + col``.
Text at the edges uses gomoku's scheme: column letter from the left, row number
from the bottom (``a1`` is the bottom-left cell, ``b2`` the centre of 3x3).
Position text is ``width * height`` characters ``x``, ``o`` or ``.`` row by row
from the top; ``/`` between rows and white space are allowed and ignored. X
moves first; the side to move follows from the counts.
"""

from __future__ import annotations

import string
from collections.abc import Sequence
from typing import ClassVar

import numpy as np

from ...core.errors import InvalidGameSpecError, InvalidMoveError, InvalidPositionError, quote
from ...core.registry import Game, Param, register_game
from ...core.state import TERMINAL, State

EMPTY, X, O = 0, 1, 2
SYMBOLS = ".xo"


def windows(width: int, height: int, k: int) -> np.ndarray:
    """Every line of ``k`` cells (rows, columns, both diagonals) as an array of cell indices."""
    out = []
    for r in range(height):
        for c in range(width):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                er, ec = r + dr * (k - 1), c + dc * (k - 1)
                if 0 <= er < height and 0 <= ec < width:
                    out.append([(r + dr * i) * width + c + dc * i for i in range(k)])
    return np.array(out, dtype=np.int32).reshape(-1, k)


def zobrist_table(cells: int, seed: int = 0x7A11C0DE) -> np.ndarray:
    """Random 64-bit keys, one per (stone colour, cell)."""
    rng = np.random.default_rng(seed + cells)
    return rng.integers(1, 2**63 - 1, size=(2, cells), dtype=np.int64).astype(np.uint64)


def is_win_at(board: Sequence[int] | np.ndarray, width: int, height: int, k: int, idx: int) -> bool:
    """Whether the stone at ``idx`` is part of ``k`` in a row (reference, plain Python)."""
    p = board[idx]
    if p == EMPTY:
        return False
    r0, c0 = divmod(idx, width)
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        run = 1
        for sign in (1, -1):
            r, c = r0 + sign * dr, c0 + sign * dc
            while 0 <= r < height and 0 <= c < width and board[r * width + c] == p:
                run += 1
                r, c = r + sign * dr, c + sign * dc
        if run >= k:
            return True
    return False


@register_game
class TicTacToe(Game):
    """Tic-tac-toe on an m x n board, k in a row to win (3,3,3 by default)."""

    name = "tictactoe"
    long_name = "Tic-tac-toe (m,n,k)"
    description = "Two players place X and O in turn; k in a row (any direction) wins; a full board is a draw."
    params: ClassVar[tuple[Param, ...]] = (
        Param("m", 3, "board width", min=3, max=10),
        Param("n", 3, "board height", min=3, max=10),
        Param("k", 3, "stones in a row to win", min=3, max=10),
    )
    test_specs = ("tictactoe(m=4,n=4,k=3)", "tictactoe(m=5,n=4,k=4)")

    def validate(self) -> None:
        if self["k"] > max(self["m"], self["n"]):
            raise InvalidGameSpecError(f"k={self['k']} cannot fit on a {self['m']}x{self['n']} board")
        self.width, self.height, self.k = self["m"], self["n"], self["k"]
        self.cells = self.width * self.height
        self.zobrist = zobrist_table(self.cells)
        self.windows = windows(self.width, self.height, self.k)

    @property
    def num_players(self) -> int:
        return 2

    def player_name(self, player: int) -> str:
        return "X" if player == 0 else "O"

    def new_state(self) -> TicTacToeState:
        return TicTacToeState(self)

    def state_from_text(self, text: str) -> TicTacToeState:
        cleaned = "".join(ch for ch in text if not ch.isspace() and ch != "/").lower()
        if len(cleaned) != self.cells or any(ch not in SYMBOLS for ch in cleaned):
            raise InvalidPositionError(
                f"position {quote(text)} must be {self.cells} characters of x, o and . "
                f"({self.width}x{self.height}, row by row from the top)"
            )
        xs, os_ = cleaned.count("x"), cleaned.count("o")
        if xs - os_ not in (0, 1):
            raise InvalidPositionError(f"position {quote(text)} has {xs} x and {os_} o; x moves first")
        board = [SYMBOLS.index(ch) for ch in cleaned]
        wins = {p for i, p in enumerate(board) if p and is_win_at(board, self.width, self.height, self.k, i)}
        if len(wins) > 1:
            raise InvalidPositionError(f"position {quote(text)} has a winning line for both sides")
        if X in wins and xs == os_ or O in wins and xs != os_:
            raise InvalidPositionError(f"position {quote(text)}: the side that just lost would be to move")
        s = TicTacToeState(self)
        for i, p in enumerate(board):
            if p:
                s._place(i, p)
        s._history.clear()
        s._preset = True
        s._winner = next(iter(wins), EMPTY)
        return s


class TicTacToeState(State):
    """A tic-tac-toe position: a flat ``int8`` board (0 empty, 1 X, 2 O)."""

    game: TicTacToe  # a state of this game (the State API types it as any Game)

    def __init__(self, game: TicTacToe) -> None:
        self.game = game
        self.board = np.zeros(game.cells, dtype=np.int8)
        self._history: list[int] = []
        self._winners: list[int] = []
        self._winner = EMPTY
        self._key = 0
        self._count = 0
        self._preset = False

    # -- internals ----------------------------------------------------
    def _place(self, idx: int, p: int) -> None:
        self.board[idx] = p
        self._key ^= int(self.game.zobrist[p - 1, idx])
        self._count += 1

    @property
    def to_move_stone(self) -> int:
        """The stone (1 X, 2 O) of the side to move."""
        return X if self._count % 2 == 0 else O

    @property
    def winner(self) -> int:
        """The stone that made k in a row (0 if none)."""
        return self._winner

    # -- State API ----------------------------------------------------
    @property
    def current_player(self) -> int:
        return TERMINAL if self.is_terminal() else self.to_move_stone - 1

    def legal_moves(self) -> list[int]:
        if self.is_terminal():
            return []
        return [int(i) for i in np.flatnonzero(self.board == EMPTY)]

    def play(self, move: int) -> None:
        p = self.to_move_stone
        self._place(move, p)
        self._history.append(move)
        self._winners.append(self._winner)
        g = self.game
        if is_win_at(self.board, g.width, g.height, g.k, move):
            self._winner = p

    def undo(self) -> None:
        if not self._history:
            raise IndexError("no move to take back")
        move = self._history.pop()
        self._winner = self._winners.pop()
        p = int(self.board[move])
        self.board[move] = EMPTY
        self._key ^= int(self.game.zobrist[p - 1, move])
        self._count -= 1

    def why_illegal(self, move: int) -> str:
        if self.is_terminal():
            return "the game is over"
        if not 0 <= move < self.game.cells:
            return "off the board"
        if self.board[move] != EMPTY:
            return "the cell is taken"
        return ""

    def is_terminal(self) -> bool:
        return self._winner != EMPTY or self._count == self.game.cells

    def returns(self) -> list[float]:
        if self._winner == X:
            return [1.0, -1.0]
        if self._winner == O:
            return [-1.0, 1.0]
        return [0.0, 0.0]

    @property
    def key(self) -> int:
        return self._key

    @property
    def history(self) -> list[int]:
        return list(self._history)

    def copy(self) -> TicTacToeState:
        s = TicTacToeState.__new__(TicTacToeState)
        s.game = self.game
        s.board = self.board.copy()
        s._history = list(self._history)
        s._winners = list(self._winners)
        s._winner = self._winner
        s._key = self._key
        s._count = self._count
        s._preset = self._preset
        return s

    def parse_move(self, text: str) -> int:
        g = self.game
        t = text.strip().lower()
        if not 2 <= len(t) <= 4 or t[0] not in string.ascii_lowercase or not (t[1:].isascii() and t[1:].isdigit()):
            raise InvalidMoveError(f"move {quote(text)} is not a cell like a1 or {self.format_move(g.cells - 1)}")
        col, row = ord(t[0]) - ord("a"), int(t[1:])
        if not (0 <= col < g.width and 1 <= row <= g.height):
            raise InvalidMoveError(f"move {quote(text)} is off the {g.width}x{g.height} board")
        return (g.height - row) * g.width + col

    def format_move(self, move: int) -> str:
        g = self.game
        if not 0 <= move < g.cells:
            raise InvalidMoveError(f"move {move} is off the {g.width}x{g.height} board")
        r, c = divmod(move, g.width)
        return f"{string.ascii_lowercase[c]}{g.height - r}"

    def to_text(self) -> str:
        return "".join(SYMBOLS[v] for v in self.board)

    def diagram(self) -> str:
        """The board as rows of text with coordinates."""
        g = self.game
        rows = []
        for r in range(g.height):
            cells = " ".join(SYMBOLS[v] for v in self.board[r * g.width : (r + 1) * g.width])
            rows.append(f"{g.height - r:>2} {cells}")
        rows.append("   " + " ".join(string.ascii_lowercase[: g.width]))
        return "\n".join(rows)
