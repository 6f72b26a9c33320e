"""What the arena learns about a board game through the State API alone.

Gomoku-like games (two players placing stones on a rectangular board, every
empty cell a legal move) get random openings and can be played over the
Gomocup protocol. The board's size comes from the game (``width``/``height``
attributes, or a ``size`` or ``m``/``n`` parameter); coordinates go through
the game's notation (column letter from the left, row number from the bottom,
as tic-tac-toe and gomoku write them) unless the state offers the hooks
``to_gomocup(move) -> (x, y)`` and ``from_gomocup(x, y) -> move``.
"""

from __future__ import annotations

import string

from ..core.errors import InvalidMoveError, InvalidOptionError, quote
from ..core.registry import Game
from ..core.state import State


def board_dims(game: Game) -> tuple[int, int] | None:
    """``(width, height)`` of a rectangular board game, or ``None`` when the game has none."""
    w = getattr(game, "width", None)
    h = getattr(game, "height", None)
    if isinstance(w, int) and isinstance(h, int):
        return w, h
    values = getattr(game, "values", {})
    if isinstance(values.get("size"), int):
        return values["size"], values["size"]
    if isinstance(values.get("m"), int) and isinstance(values.get("n"), int):
        return values["m"], values["n"]
    return None


def is_placement_game(game: Game) -> bool:
    """True for gomoku-like games: two players, no chance, every cell of the empty board legal."""
    dims = board_dims(game)
    if dims is None or game.num_players != 2 or game.chance:
        return False
    try:
        return len(game.new_state().legal_moves()) == dims[0] * dims[1]
    except Exception:  # noqa: BLE001 - a game that cannot say is not one of these
        return False


def move_to_xy(state: State, move: int, dims: tuple[int, int]) -> tuple[int, int]:
    """Gomocup coordinates (``x`` from the left, ``y`` from the top, 0-based) of ``move``."""
    hook = getattr(state, "to_gomocup", None)
    if callable(hook):
        x, y = hook(move)
        return int(x), int(y)
    text = state.format_move(move).strip().lower()
    if not 2 <= len(text) <= 5 or text[0] not in string.ascii_lowercase or not (text[1:].isascii()
                                                                                 and text[1:].isdigit()):
        raise InvalidMoveError(f"move {quote(text)} is not in column-letter/row-number notation")
    return ord(text[0]) - ord("a"), dims[1] - int(text[1:])


def xy_to_move(state: State, x: int, y: int, dims: tuple[int, int]) -> int:
    """The move at Gomocup coordinates ``x,y``; ``InvalidMoveError`` when off the board."""
    hook = getattr(state, "from_gomocup", None)
    if callable(hook):
        return int(hook(x, y))
    w, h = dims
    if not (0 <= x < w and 0 <= y < h) or x >= 26:
        raise InvalidMoveError(f"move {x},{y} is off the {w}x{h} board")
    return state.parse_move(f"{string.ascii_lowercase[x]}{h - y}")


def stones(start: State, moves: list[int]) -> list[tuple[int, int]]:
    """``(move, player)`` of every stone on the board after ``moves`` from ``start``, in order.

    The stones of ``start`` itself come from its ``gomocup_stones()`` hook, else from its
    history replayed from the empty board, else from a ``board`` array (0 empty,
    1 first player, 2 second player, indexed by move).
    """
    out: list[tuple[int, int]] = []
    hook = getattr(start, "gomocup_stones", None)
    if callable(hook):
        out = [(int(m), int(p)) for m, p in hook()]
    elif start.history:
        s = start.game.new_state()
        for m in start.history:
            out.append((int(m), s.current_player))
            s.play(m)
    else:
        board = getattr(start, "board", None)
        if board is not None:
            out = [(i, int(v) - 1) for i, v in enumerate(list(board)) if int(v) in (1, 2)]
    s = start.copy()
    for m in moves:
        out.append((int(m), s.current_player))
        s.play(m)
    return out


def require_board(game: Game, what: str) -> tuple[int, int]:
    """The board size, or ``InvalidOptionError`` saying ``what`` needs one."""
    dims = board_dims(game)
    if dims is None:
        raise InvalidOptionError(f"{what} needs a rectangular board game; {quote(game.spec)} has no board size")
    return dims
