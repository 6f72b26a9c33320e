"""Gomoku: the rules (freestyle, standard, renju), the notation and position text.

Cells are numbered row by row from the top-left: ``move = row * width + col``
(row 0 is the top row). Text uses column letters from the left (``a`` .. ``z``,
none skipped) and row numbers from the bottom: ``a1`` is the bottom-left cell,
``h8`` the centre of 15x15.

Position text is the move list from the empty board, black first, separated by
spaces (``h8 i9 h9``); the empty board is the empty string. A board diagram is
accepted too: ``size`` rows from the top of ``x`` (black), ``o`` (white) and
``.`` (empty), separated by ``/`` or new lines (row numbers at the start of a
row and a last line of column letters, as ``diagram()`` prints them, are
ignored). A state set up from a diagram writes its position as a diagram.
"""

from __future__ import annotations

import re
import string

import numpy as np

from ...core.errors import IllegalMoveError, InvalidMoveError, InvalidPositionError, quote
from ...core.registry import Game, Param, register_game
from ...core.state import TERMINAL, State
from . import renju

EMPTY, BLACK, WHITE = 0, 1, 2
SYMBOLS = ".xo"
RULES = ("freestyle", "standard", "renju")
FREESTYLE, STANDARD, RENJU = 0, 1, 2

_MOVE = re.compile(r"^([a-z])([0-9]{1,2})$")


def zobrist_table(cells: int, seed: int = 0x60F0C0) -> np.ndarray:
    """Random 64-bit keys, one per (stone colour, cell)."""
    rng = np.random.default_rng(seed + cells)
    return rng.integers(1, 2**63 - 1, size=(2, cells), dtype=np.int64).astype(np.uint64)


@register_game
class Gomoku(Game):
    """Five in a row on a square board: freestyle, standard (exactly five) or renju."""

    name = "gomoku"
    long_name = "Gomoku (five in a row)"
    description = (
        "Black and White place stones in turn, Black first; five in a row wins. "
        "freestyle: five or more; standard: exactly five; renju: Black may not make "
        "a double-three, a double-four or an overline. A full board is a draw."
    )
    params = (
        Param("size", 15, "board width and height", min=5, max=26),
        Param("rule", "freestyle", "winning rule", choices=RULES),
    )
    test_specs = ("gomoku(size=9)", "gomoku(size=15,rule=renju)", "gomoku(size=7,rule=standard)")

    def validate(self) -> None:
        self.size = int(self["size"])
        self.width = self.size
        self.height = self.size
        self.cells = self.size * self.size
        self.rule_id = RULES.index(self["rule"])
        self.zobrist = zobrist_table(self.cells)

    @property
    def num_players(self) -> int:
        return 2

    def player_name(self, player: int) -> str:
        return "Black" if player == 0 else "White"

    def new_state(self) -> GomokuState:
        return GomokuState(self)

    # -- text -----------------------------------------------------------
    def parse_cell(self, text: str) -> int:
        """The cell named by ``text`` (``h8``); ``InvalidMoveError`` quoting it."""
        t = text.strip().lower()
        m = _MOVE.match(t)
        if not m:
            raise InvalidMoveError(
                f"move {quote(text)} is not a cell like a1 or {self.format_cell(self.width - 1)}"
            )
        col, row = ord(m.group(1)) - ord("a"), int(m.group(2))
        if not (0 <= col < self.width and 1 <= row <= self.height):
            raise InvalidMoveError(f"move {quote(text)} is off the {self.width}x{self.height} board")
        return (self.height - row) * self.width + col

    def format_cell(self, move: int) -> str:
        if not 0 <= move < self.cells:
            raise InvalidMoveError(f"move {move} is off the {self.width}x{self.height} board")
        r, c = divmod(move, self.width)
        return f"{string.ascii_lowercase[c]}{self.height - r}"

    def state_from_moves(self, moves: list[int], text: str | None = None) -> GomokuState:
        """Play ``moves`` (cells) from the empty board, checking each; errors quote ``text``."""
        s = GomokuState(self)
        for i, m in enumerate(moves):
            if not s.is_legal(m):
                raise InvalidPositionError(
                    f"position {quote(text if text is not None else moves)}: move {i + 1} "
                    f"({self.format_cell(m)}) is illegal: {s.why_illegal(m) or 'not allowed'}"
                )
            s.play(m)
        return s

    def state_from_text(self, text: str) -> GomokuState:
        tokens = text.replace(",", " ").split()
        if all(_MOVE.match(t.lower()) for t in tokens):
            moves = []
            for t in tokens:
                try:
                    moves.append(self.parse_cell(t))
                except InvalidMoveError as e:
                    raise InvalidPositionError(f"position {quote(text)}: {e}") from None
            return self.state_from_moves(moves, text)
        return self._from_diagram(text)

    def _from_diagram(self, text: str) -> GomokuState:
        rows = []
        for line in re.split(r"[/\n]", text):
            line = line.strip()
            if not line:
                continue
            line = re.sub(r"^[0-9]+\s*", "", line)  # a row number
            cells = line.replace(" ", "").lower()
            if cells and all(ch in string.ascii_lowercase[: self.width] for ch in cells) and (
                cells == string.ascii_lowercase[: len(cells)]
            ):
                continue  # the line of column letters
            rows.append(cells)
        if len(rows) == 1 and len(rows[0]) == self.cells:
            rows = [rows[0][i : i + self.width] for i in range(0, self.cells, self.width)]
        if len(rows) != self.height or any(len(r) != self.width for r in rows):
            raise InvalidPositionError(
                f"position {quote(text)} is neither a move list (h8 i9 ...) nor a {self.width}x{self.height} "
                "diagram of x, o and . rows"
            )
        flat = "".join(rows).replace("*", ".")
        bad = sorted({ch for ch in flat if ch not in SYMBOLS})
        if bad:
            raise InvalidPositionError(f"position {quote(text)} has unknown cell characters {''.join(bad)!r}")
        board = np.array([SYMBOLS.index(ch) for ch in flat], dtype=np.int8)
        blacks, whites = int((board == BLACK).sum()), int((board == WHITE).sum())
        if blacks - whites not in (0, 1):
            raise InvalidPositionError(
                f"position {quote(text)} has {blacks} black and {whites} white stones; black moves first"
            )
        s = GomokuState(self)
        for i in np.flatnonzero(board):
            s._place(int(i), int(board[i]))
        s._from_diagram = True
        wins: dict[int, list[int]] = {}
        for i in np.flatnonzero(board):
            line = s._five_through(int(i))
            if line:
                wins.setdefault(int(board[i]), line)
        if len(wins) > 1:
            raise InvalidPositionError(f"position {quote(text)} has a five for both sides")
        if wins:
            winner = next(iter(wins))
            last_mover = BLACK if blacks > whites else WHITE
            if winner != last_mover:
                raise InvalidPositionError(f"position {quote(text)}: the side that just lost would be to move")
            s._winner, s._line = winner, wins[winner]
        return s


class GomokuState(State):
    """A gomoku position: a flat ``int8`` board (0 empty, 1 black, 2 white)."""

    game: Gomoku  # a state of this game (the State API types it as any Game)

    def __init__(self, game: Gomoku) -> None:
        self.game = game
        self.board = np.zeros(game.cells, dtype=np.int8)
        self._history: list[int] = []
        self._undo: list[tuple[int, list[int]]] = []  # (winner, line) before each move
        self._winner = EMPTY
        self._line: list[int] = []
        self._key = 0
        self._count = 0
        self._from_diagram = False
        self._forbidden: list[int] | None = None

    # -- internals ----------------------------------------------------
    def _place(self, idx: int, p: int) -> None:
        self.board[idx] = p
        self._key ^= int(self.game.zobrist[p - 1, idx])
        self._count += 1
        self._forbidden = None

    def _five_through(self, idx: int) -> list[int]:
        """The winning run through ``idx`` under the game's rule (empty if none)."""
        p = int(self.board[idx])
        if p == EMPTY:
            return []
        size = self.game.size
        for d in range(4):
            run = renju.run_cells_ref(self.board, size, idx, d)
            if renju.wins_ref(len(run), p, self.game.rule_id):
                return run
        return []

    @property
    def to_move_stone(self) -> int:
        """The stone (1 black, 2 white) of the side to move."""
        return BLACK if self._count % 2 == 0 else WHITE

    @property
    def winner(self) -> int:
        """The stone that made five (0 if none)."""
        return self._winner

    @property
    def last_move(self) -> int | None:
        """The cell of the last move played (``None`` at the start or after a diagram)."""
        return self._history[-1] if self._history else None

    @property
    def stones(self) -> int:
        """How many stones are on the board."""
        return self._count

    def winning_line(self) -> list[int]:
        """The cells of the winning five (or longer run), empty if nobody has won."""
        return list(self._line)

    def forbidden_moves(self) -> list[int]:
        """Renju points forbidden to black when black is to move; empty otherwise."""
        if self.game.rule_id != RENJU or self.to_move_stone != BLACK or self._winner != EMPTY:
            return []
        if self._forbidden is None:
            self._forbidden = renju.forbidden_points(self.board, self.game.size)
        return list(self._forbidden)

    # -- State API ----------------------------------------------------
    @property
    def current_player(self) -> int:
        return TERMINAL if self.is_terminal() else self.to_move_stone - 1

    def legal_moves(self) -> list[int]:
        if self._winner != EMPTY or self._count == self.game.cells:
            return []
        empty: list[int] = np.flatnonzero(self.board == EMPTY).tolist()
        forb = self.forbidden_moves()
        if forb:
            fs = set(forb)
            return [i for i in empty if i not in fs]
        return empty

    def is_legal(self, move: int) -> bool:
        if not isinstance(move, (int, np.integer)) or not 0 <= move < self.game.cells:
            return False
        if self._winner != EMPTY or self.board[move] != EMPTY:
            return False
        return move not in self.forbidden_moves()

    def play(self, move: int) -> None:
        p = self.to_move_stone
        self._undo.append((self._winner, self._line))
        self._place(move, p)
        self._history.append(move)
        line = self._five_through(move)
        if line:
            self._winner, self._line = p, line

    def undo(self) -> None:
        if not self._history:
            raise IndexError("no move to take back")
        move = self._history.pop()
        self._winner, self._line = self._undo.pop()
        p = int(self.board[move])
        self.board[move] = EMPTY
        self._key ^= int(self.game.zobrist[p - 1, move])
        self._count -= 1
        self._forbidden = None

    def why_illegal(self, move: int) -> str:
        if self._winner != EMPTY:
            return "the game is over"
        if not 0 <= move < self.game.cells:
            return "off the board"
        if self.board[move] != EMPTY:
            return "the cell is taken"
        if move in self.forbidden_moves():
            return "forbidden to black under renju (double-three, double-four or overline)"
        return ""

    def is_terminal(self) -> bool:
        if self._winner != EMPTY or self._count == self.game.cells:
            return True
        # Under renju every empty cell may be forbidden to black: a draw.
        return self.game.rule_id == RENJU and not self.legal_moves()

    def returns(self) -> list[float]:
        if self._winner == BLACK:
            return [1.0, -1.0]
        if self._winner == WHITE:
            return [-1.0, 1.0]
        return [0.0, 0.0]

    @property
    def key(self) -> int:
        return self._key

    @property
    def history(self) -> list[int]:
        return list(self._history)

    def copy(self) -> GomokuState:
        s = GomokuState.__new__(GomokuState)
        s.game = self.game
        s.board = self.board.copy()
        s._history = list(self._history)
        s._undo = list(self._undo)
        s._winner = self._winner
        s._line = list(self._line)
        s._key = self._key
        s._count = self._count
        s._from_diagram = self._from_diagram
        s._forbidden = None if self._forbidden is None else list(self._forbidden)
        return s

    # -- text -----------------------------------------------------------
    def parse_move(self, text: str) -> int:
        return self.game.parse_cell(text)

    def format_move(self, move: int) -> str:
        return self.game.format_cell(move)

    def play_text(self, text: str) -> int:
        move = self.parse_move(text)
        if not self.is_legal(move):
            raise IllegalMoveError(
                f"illegal move {quote(text)} in position {quote(self.to_text())}: {self.why_illegal(move)}"
            )
        self.play(move)
        return move

    def to_text(self) -> str:
        if self._from_diagram:
            return self.canonical_text()
        return " ".join(self.format_move(m) for m in self._history)

    def canonical_text(self) -> str:
        """The board as ``/``-separated rows of ``x``, ``o`` and ``.`` from the top (no move order)."""
        w = self.game.width
        flat = "".join(SYMBOLS[v] for v in self.board)
        return "/".join(flat[i : i + w] for i in range(0, len(flat), w))

    def diagram(self) -> str:
        """The board as rows of text with coordinates (forbidden points as ``*``)."""
        g = self.game
        forb = set(self.forbidden_moves())
        rows = []
        for r in range(g.height):
            cells = []
            for c in range(g.width):
                i = r * g.width + c
                cells.append("*" if i in forb else SYMBOLS[self.board[i]])
            rows.append(f"{g.height - r:>2} " + " ".join(cells))
        rows.append("   " + " ".join(string.ascii_lowercase[: g.width]))
        return "\n".join(rows)
