"""The Gomocup (Piskvork) brain protocol on standard input and output.

Run as ``gamesuite engine gomocup [--engine SPEC]`` (or the ``pbrain-gamesuite``
script). Coordinates are ``x,y`` with ``x`` the column from the left and ``y``
the row from the top, both from 0. Commands:

``START n`` / ``RECTSTART w,h`` (square boards 5..26) -> ``OK``; ``RESTART`` -> ``OK``;
``BEGIN`` -> our first move; ``TURN x,y`` -> our move; ``BOARD`` then ``x,y,f``
lines (``f`` 1 ours, 2 theirs, 3 a cell the continuous-game mode closed: a stone
of a finished winning line or a renju forbidden point; we never play there) and
``DONE`` -> our move; ``TAKEBACK x,y`` -> ``OK``; ``SWAP2BOARD`` then the
stones so far and ``DONE`` -> three stones, ``SWAP`` or a stone (swap openings,
see ``_swap2board``); ``INFO key value`` (``timeout_turn``, ``timeout_match``,
``time_left`` in ms, ``max_memory`` in bytes, ``rule`` bit mask 1 exactly five /
4 renju, or 5 swap1 / 6 swap2 over freestyle, ``game_type``, ``folder``; no
reply); ``ABOUT`` -> ``name="gamesuite", ...``; ``END`` -> exit.

Thinking is reported on ``MESSAGE`` lines (depth, score, nodes, speed, time,
PV). An unknown command gets ``UNKNOWN ...``, a malformed one ``ERROR ...``;
nothing a manager sends makes the brain crash or hang, and a move request is
answered within ``timeout_turn`` (the engine is compiled in the background at
start-up; until that is done, moves come from a quick rule-based choice).
"""

from __future__ import annotations

import argparse
import re
import sys
import threading
import time
from typing import Any, TextIO

from ..core.errors import GameSuiteError
from ..core.info import SearchInfo
from ..core.limits import Limits
from ..core.registry import engine_entry, load_game, make_engine

PROTOCOL = True

ABOUT = 'name="gamesuite", version="0.1.0", author="gamesuite authors", country="", www="", email=""'
DEFAULT_TIMEOUT_TURN = 5000
#: Milliseconds kept back from every time limit for Python, I/O and the manager's clock (a quarter
#: of a short limit, at least ``MIN_MARGIN_MS``: a fixed 150 ms would leave nothing of 100 ms turns).
MARGIN_MS = 150
MIN_MARGIN_MS = 30
#: How long after the last START / INFO rule / INFO max_memory the engine is built ahead of time.
PREPARE_DELAY_S = 0.2
_XY = re.compile(r"^\s*(-?\d+)\s*,\s*(-?\d+)\s*$")
_XYF = re.compile(r"^\s*(-?\d+)\s*,\s*(-?\d+)\s*,\s*(-?\d+)\s*$")


class ProtocolError(Exception):
    """A malformed command: the brain answers ``ERROR`` with the message."""


class Brain:
    """One Gomocup brain: reads commands with ``handle(line)`` and writes replies to ``out``."""

    def __init__(self, out: TextIO, engine_spec: str = "", warm: bool = True) -> None:
        self.out = out
        self.engine_spec = engine_spec
        self.size = 0
        self.rule = 0  # the Gomocup bit mask
        self.timeout_turn = DEFAULT_TIMEOUT_TURN
        self.timeout_match = 0
        self.time_left: int | None = None
        self.max_memory = 0
        self.stones: dict[int, int] = {}  # cell -> 1 ours, 2 theirs
        self.order: list[int] = []
        self.marked: set[int] = set()  # BOARD field 3: cells closed to both sides
        self.in_board = False
        self.board_lines: list[tuple[int, int, int]] = []
        self.swap_cells: list[int] | None = None  # SWAP2BOARD lines being read (swap openings)
        self.engine: Any = None
        self.engine_key: tuple | None = None
        self.engine_lock = threading.Lock()  # the engine is built ahead of the first move, in a thread
        self.prepare = warm
        self.prepare_timer: threading.Timer | None = None
        self.ready = threading.Event()
        self.running = True
        if warm:
            threading.Thread(target=self._warm_up, name="warm-up", daemon=True).start()
        else:
            self.ready.set()

    # -- output ------------------------------------------------------------
    def send(self, line: str) -> None:
        self.out.write(line + "\n")
        self.out.flush()

    def _warm_up(self) -> None:
        try:
            from ..games.gomoku.engine import warm_up

            warm_up()
        except Exception:  # pragma: no cover - the quick move still answers
            pass
        finally:
            self.ready.set()
        self._prepare_engine()

    def _prepare_engine(self) -> None:
        """Build the engine for the current board, rule and memory in a thread, shortly after the
        last of a burst of settings (its table takes a while to allocate), so that the first move
        does not pay for it; a move that comes first builds it itself."""
        if not self.prepare or not self.size or not self.ready.is_set():
            return
        if self.prepare_timer is not None:
            self.prepare_timer.cancel()
        game = self._game()

        def build() -> None:
            try:
                self._get_engine(game)
            except Exception:  # pragma: no cover - the move builds it again and reports the error
                pass

        self.prepare_timer = threading.Timer(PREPARE_DELAY_S, build)
        self.prepare_timer.daemon = True
        self.prepare_timer.start()

    # -- commands ------------------------------------------------------------
    def handle(self, line: str) -> bool:
        """Handle one input line; ``False`` after ``END``."""
        text = line.strip()
        if not text:
            return True
        try:
            if self.in_board:
                self._board_line(text)
                return True
            if self.swap_cells is not None:
                self._swap_line(text)
                return True
            word, _, rest = text.partition(" ")
            cmd = word.upper()
            handler = getattr(self, "_cmd_" + cmd.lower(), None)
            if handler is None or not cmd.isalnum():
                self.send(f"UNKNOWN command {word!r}")
                return True
            handler(rest.strip())
        except ProtocolError as e:
            self.send(f"ERROR {e}")
        except GameSuiteError as e:
            self.send(f"ERROR {e}")
        except Exception as e:  # never crash on input
            self.send(f"ERROR internal error: {type(e).__name__}: {e}")
        return self.running

    def _need_board(self) -> None:
        if not self.size:
            raise ProtocolError("no board yet: send START first")

    def _cell(self, text: str) -> int:
        m = _XY.match(text)
        if not m:
            raise ProtocolError(f"expected x,y but got {text!r}")
        x, y = int(m.group(1)), int(m.group(2))
        if not (0 <= x < self.size and 0 <= y < self.size):
            raise ProtocolError(f"{text!r} is off the {self.size}x{self.size} board")
        return y * self.size + x

    def _xy(self, cell: int) -> str:
        y, x = divmod(cell, self.size)
        return f"{x},{y}"

    def _cmd_start(self, rest: str) -> None:
        try:
            n = int(rest)
        except ValueError:
            raise ProtocolError(f"START needs a board size, got {rest!r}") from None
        if not 5 <= n <= 26:
            raise ProtocolError(f"unsupported size {n}: this brain plays 5..26")
        self._new_board(n)
        self.send("OK")

    def _cmd_rectstart(self, rest: str) -> None:
        m = _XY.match(rest)
        if not m:
            raise ProtocolError(f"RECTSTART needs width,height, got {rest!r}")
        w, h = int(m.group(1)), int(m.group(2))
        if w != h or not 5 <= w <= 26:
            raise ProtocolError(f"unsupported board {w}x{h}: this brain plays square boards 5..26")
        self._new_board(w)
        self.send("OK")

    def _new_board(self, n: int) -> None:
        self.size = n
        self.stones.clear()
        self.order.clear()
        self.marked.clear()
        with self.engine_lock:
            if self.engine is not None:
                self.engine.new_game()
        self._prepare_engine()

    def _cmd_restart(self, rest: str) -> None:
        self._need_board()
        self._new_board(self.size)
        self.send("OK")

    def _cmd_begin(self, rest: str) -> None:
        self._need_board()
        if self.stones:
            raise ProtocolError("BEGIN on a board that is not empty")
        self._move()

    def _cmd_turn(self, rest: str) -> None:
        self._need_board()
        cell = self._cell(rest)
        if cell in self.stones or cell in self.marked:
            raise ProtocolError(f"TURN {rest}: the cell is taken")
        self._put(cell, 2)
        self._move()

    def _cmd_takeback(self, rest: str) -> None:
        self._need_board()
        cell = self._cell(rest)
        if cell not in self.stones:
            raise ProtocolError(f"TAKEBACK {rest}: there is no stone there")
        del self.stones[cell]
        self.order.remove(cell)
        self.send("OK")

    def _cmd_board(self, rest: str) -> None:
        self._need_board()
        self.in_board = True
        self.board_lines = []

    def _board_line(self, text: str) -> None:
        if text.upper() == "DONE":
            self.in_board = False
            self.stones.clear()
            self.order.clear()
            self.marked.clear()
            for x, y, f in self.board_lines:
                if f in (1, 2):
                    self._put(y * self.size + x, f)
                else:
                    self.marked.add(y * self.size + x)
            self._move()
            return
        m = _XYF.match(text)
        if not m:
            self.in_board = False
            raise ProtocolError(f"BOARD expects x,y,field lines and DONE, got {text!r}; board ignored")
        x, y, f = int(m.group(1)), int(m.group(2)), int(m.group(3))
        if not (0 <= x < self.size and 0 <= y < self.size) or f not in (1, 2, 3):
            self.in_board = False
            raise ProtocolError(f"bad BOARD line {text!r}; board ignored")
        if any((x, y) == (a, b) for a, b, _ in self.board_lines):
            self.in_board = False
            raise ProtocolError(f"BOARD line {text!r} repeats a cell; board ignored")
        self.board_lines.append((x, y, f))

    def _cmd_swap2board(self, rest: str) -> None:
        self._need_board()
        self.swap_cells = []

    def _swap_line(self, text: str) -> None:
        """A stone of ``SWAP2BOARD`` (``x,y`` or ``x,y,f``), or ``DONE``: the answer (``_swap2board``)."""
        cells, self.swap_cells = self.swap_cells, None
        assert cells is not None
        if text.upper() == "DONE":
            from ._swap2board import swap_reply

            self.send(swap_reply(self, cells))
            return
        m = _XY.match(text) or _XYF.match(text)
        if not m:
            raise ProtocolError(f"SWAP2BOARD expects x,y lines and DONE, got {text!r}; ignored")
        cells.append(self._cell(f"{m.group(1)},{m.group(2)}"))
        self.swap_cells = cells

    def _cmd_info(self, rest: str) -> None:
        key, _, value = rest.partition(" ")
        key = key.lower()
        value = value.strip()
        ints = ("timeout_turn", "timeout_match", "time_left", "max_memory", "rule", "game_type")
        if key in ints:
            try:
                v = int(value)
            except ValueError:
                raise ProtocolError(f"INFO {key} needs an integer, got {value!r}") from None
            if v < 0 and key != "time_left":
                raise ProtocolError(f"INFO {key} must not be negative, got {v}")
            if key == "timeout_turn":
                self.timeout_turn = v
            elif key == "timeout_match":
                self.timeout_match = v
            elif key == "time_left":
                self.time_left = v
            elif key == "max_memory":
                self.max_memory = v
                self._prepare_engine()
            elif key == "rule":
                self.rule = v
                self._prepare_engine()
        elif key in ("folder", "evaluate"):
            pass
        else:
            self.send(f"UNKNOWN INFO key {key!r}")

    def _cmd_about(self, rest: str) -> None:
        self.send(ABOUT)

    def _cmd_end(self, rest: str) -> None:
        self.running = False

    # -- thinking ----------------------------------------------------------
    def _put(self, cell: int, who: int) -> None:
        self.stones[cell] = who
        self.order.append(cell)

    def _game(self) -> Any:
        """The gomoku game of the current board size and rule."""
        return load_game(f"gomoku(size={self.size},rule={self._rule_name()})")

    def _rule_name(self) -> str:
        if self.rule in (5, 6):  # swap1/swap2 as Rapfi and Yixin-Board number them: freestyle underneath
            return "freestyle"
        if self.rule & 4:
            return "renju"
        if self.rule & 1:
            return "standard"
        return "freestyle"

    def _state(self) -> Any:
        """The position as a gomoku state, our side to move."""
        game = self._game()
        ours = sum(1 for v in self.stones.values() if v == 1)
        theirs = len(self.stones) - ours
        if ours == theirs:
            mine, other = "x", "o"
        elif theirs == ours + 1:
            mine, other = "o", "x"
        else:
            raise ProtocolError(f"cannot move with {ours} own and {theirs} opponent stones")
        cells = ["."] * (self.size * self.size)
        for c, v in self.stones.items():
            cells[c] = mine if v == 1 else other
        text = "/".join("".join(cells[r * self.size : (r + 1) * self.size]) for r in range(self.size))
        return game, game.state_from_text(text)

    def _budget_ms(self) -> int:
        turn = self.timeout_turn if self.timeout_turn > 0 else DEFAULT_TIMEOUT_TURN
        budget = turn
        if self.time_left is not None and self.timeout_match > 0:
            empties = self.size * self.size - len(self.stones)
            moves_left = max(8, min(40, empties // 4))
            budget = min(budget, self.time_left // moves_left)
        return max(10, budget - min(MARGIN_MS, max(MIN_MARGIN_MS, budget // 4)))

    def _get_engine(self, game: Any) -> Any:
        mem = self.max_memory
        hash_mb = 64 if not mem else max(1, min(64, mem // (4 * 1024 * 1024)))
        key = (game.spec, hash_mb)
        with self.engine_lock:
            if self.engine is None or self.engine_key != key:
                spec = self.engine_spec or "mtdf"
                if "hash=" not in spec and "hash" in engine_entry(game, spec).options:
                    spec += f",hash={hash_mb}"
                self.engine = make_engine(game, spec)
                self.engine_key = key
            return self.engine

    def _move(self) -> None:
        t0 = time.perf_counter()
        game, state = self._state()
        open_cells = [m for m in state.legal_moves() if m not in self.marked]
        if state.is_terminal() or not open_cells:
            empty = [c for c in range(self.size * self.size) if c not in self.stones and c not in self.marked]
            if not empty:
                raise ProtocolError("the board is full")
            move = empty[0]
        else:
            budget = self._budget_ms()
            waited = self.ready.wait(timeout=max(0.0, budget / 2000.0))
            if not waited:
                move = quick_move(state, self.marked)
                self.send("MESSAGE engine still compiling; quick rule-based move")
            else:
                engine = self._get_engine(game)  # (a new engine's table takes a while: count it)
                spent = int((time.perf_counter() - t0) * 1000)
                searchmoves = tuple(open_cells) if self.marked else None
                limits = Limits(movetime=max(5, budget - spent), searchmoves=searchmoves)

                def report(info: SearchInfo) -> None:
                    self.send(message_line(info, self.size))

                result = engine.search(state, limits, on_info=report)
                move = result.best_move
                if move is None or move in self.marked:  # an engine that cannot restrict its root
                    move = quick_move(state, self.marked)
        self._put(move, 1)
        self.send(self._xy(move))


def message_line(info: SearchInfo, size: int) -> str:
    """A ``MESSAGE`` line for one search report (PV in ``x,y``)."""
    pv = " ".join(f"{m % size},{m // size}" for m in info.pv)
    return (f"MESSAGE depth {info.depth}/{info.seldepth} score {info.score.text()} nodes {info.nodes} "
            f"nps {info.nps} time {info.time_ms} pv {pv}")


def quick_move(state: Any, closed: set[int] | frozenset[int] = frozenset()) -> int:
    """A move from the rules alone: win at once, else block a five, else near the last stones.

    ``closed``: cells not to play (BOARD field 3).
    """
    legal = [m for m in state.legal_moves() if m not in closed] or state.legal_moves()
    me = state.current_player
    near = _near_cells(state, legal)
    for m in near:
        s = state.copy()
        s.play(m)
        if s.is_terminal() and s.returns()[me] > 0:
            return m
    for m in near:
        s = state.copy()
        s._count += 1  # pretend the opponent moves here
        s.play(m)
        if s.winner and s.winner != me + 1:
            return m
    return near[0] if near else legal[0]


def _near_cells(state: Any, legal: list[int]) -> list[int]:
    g = state.game
    centre = (g.height // 2, g.width // 2)
    occupied = [i for i in range(g.cells) if state.board[i]]
    if not occupied:
        return sorted(legal, key=lambda m: abs(m // g.width - centre[0]) + abs(m % g.width - centre[1]))
    out = []
    for m in legal:
        r, c = divmod(m, g.width)
        if any(abs(r - o // g.width) <= 1 and abs(c - o % g.width) <= 1 for o in occupied):
            out.append(m)
    return out or legal


def run(inp: TextIO, out: TextIO, engine_spec: str = "", warm: bool = True) -> int:
    """Speak the protocol until ``END`` or the end of input."""
    brain = Brain(out, engine_spec, warm)
    for line in inp:
        if not brain.handle(line):
            break
    return 0


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="gamesuite engine gomocup", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--engine", default="", metavar="SPEC", help="engine and options, e.g. 'mtdf,top=10'")
    args = p.parse_args(argv)
    try:
        spec = (args.engine or "mtdf") + ("" if "hash=" in args.engine else ",hash=1")
        make_engine(load_game("gomoku(size=5)"), spec)
    except GameSuiteError as e:
        print(f"gamesuite engine gomocup: {e}", file=sys.stderr)
        return 2
    return run(sys.stdin, sys.stdout, args.engine)


def entry_point() -> None:
    """The ``pbrain-gamesuite`` console script."""
    sys.exit(main(sys.argv[1:]))
