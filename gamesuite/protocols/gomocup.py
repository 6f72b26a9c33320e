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
4 renju, or 5 swap1 / 6 swap2 over freestyle, ``game_type``, ``folder``, and
Yixin-Board's ``max_node`` and ``max_depth`` (0 or less: no limit); no reply);
``ABOUT`` -> ``name="gamesuite", ...``; ``END`` -> exit.

The engine is loaded (its kernels compiled or read from numba's cache) from
the moment the brain starts, and ``START`` is answered ``OK`` only once it is
ready: managers wait for that ``OK``, so every move is a full search.
``timeout_turn`` caps each move; with ``timeout_match`` the search time comes
from ``time_left`` through the time manager (``search.timeman``): a share of
what is left by the stones still to play, never more than the turn allows.
``timeout_turn 0`` ("as fast as possible") gives a short search of
``FAST_MS``.

Thinking is reported on ``MESSAGE`` lines (depth, score, nodes, speed, time,
PV), and each move ends with a ``MESSAGE result`` line (depth, nodes, time).
An unknown command gets ``UNKNOWN ...``, a malformed one ``ERROR ...``;
a command answered ``ERROR`` changes nothing (a refused ``TURN`` leaves no stone, a
refused ``BOARD`` keeps the previous board), a position where someone already has
five is refused (``ERROR the game is over``), bytes that are not UTF-8 are replaced;
nothing a manager sends makes the brain crash or hang, and a move request is
answered within ``timeout_turn``.
"""

from __future__ import annotations

import argparse
import sys
import threading
import time
from typing import Any, TextIO

from ..core.errors import GameSuiteError, ProtocolError
from ..core.info import SearchInfo
from ..core.limits import MAX_TIME_MS, Limits
from ..core.options import parse_int
from ..core.registry import engine_entry, load_game, make_engine
from ._gomocup import XY, XYF, message_line
from ._io import lenient_stdout, lines

PROTOCOL = True

ABOUT = 'name="gamesuite", version="0.1.0", author="gamesuite authors", country="", www="", email=""'
DEFAULT_TIMEOUT_TURN = 5000
#: Milliseconds kept back from every time limit for Python, I/O and the manager's clock (a quarter
#: of a short limit, at least ``MIN_MARGIN_MS``: a fixed 150 ms would leave nothing of 100 ms turns).
MARGIN_MS = 150
MIN_MARGIN_MS = 30
#: How long after the last START / INFO rule / INFO max_memory the engine is built ahead of time.
PREPARE_DELAY_S = 0.2
#: The search time of a move when ``timeout_turn`` is 0 ("play as fast as possible").
FAST_MS = 100
#: The game loaded while the brain starts (a renju board: its rule kernels too; the other rules and
#: sizes share the engine's kernels).
LOAD_SPEC = "gomoku(size=15,rule=renju)"
#: ``INFO`` keys with an integer value and the range each accepts (``max_node``/``max_depth``: 0 or
#: less is no limit).
_INFO_INTS = {"timeout_turn": (0, MAX_TIME_MS), "timeout_match": (0, MAX_TIME_MS),
              "time_left": (-MAX_TIME_MS, MAX_TIME_MS), "max_memory": (0, 2**62), "rule": (0, 2**31 - 1),
              "game_type": (0, 2**31 - 1), "max_node": (-(2**62), 2**62), "max_depth": (-(2**31), 2**31)}


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
        self.max_node = 0  # Yixin-Board's node limit per move (0: none)
        self.max_depth = 0
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
        self.timer_lock = threading.Lock()
        self.ready = threading.Event()  # the engine's kernels are loaded
        self.load_error = ""
        self.running = True
        if warm:
            threading.Thread(target=self._load, name="load-engine", daemon=True).start()
        else:
            self.ready.set()

    # -- output ------------------------------------------------------------
    def send(self, line: str) -> None:
        self.out.write(line + "\n")
        self.out.flush()

    def _load(self) -> None:
        """Compile or load the engine's kernels (from start-up, while the manager sets things up)."""
        try:
            from ..warmup import prepare

            game = load_game(LOAD_SPEC)
            prepare(game, make_engine(game, self._spec(game, 1)))
        except Exception as e:  # noqa: BLE001  # pragma: no cover - the first move builds the engine and reports the error
            self.load_error = f"{type(e).__name__}: {e}"
        finally:
            self.ready.set()
        self._prepare_engine()

    def _prepare_engine(self) -> None:
        """Build the engine for the current board, rule and memory in a thread, shortly after the
        last of a burst of settings (its table takes a while to allocate), so that the first move
        does not pay for it; a move that comes first builds it itself."""
        if not self.prepare or not self.size or not self.ready.is_set():
            return

        def build() -> None:  # for the settings when it runs (the loader and the input thread both start it)
            try:
                self._get_engine(self._game())
            except Exception:  # noqa: BLE001  # pragma: no cover - the move builds it again and reports the error
                pass

        with self.timer_lock:
            if self.prepare_timer is not None:
                self.prepare_timer.cancel()
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
            if handler is None or not (cmd.isascii() and cmd.isalnum()):
                self.send(f"UNKNOWN command {_one_line(repr(word[:100]))}")
                return True
            handler(rest.strip())
        except GameSuiteError as e:
            self.send(f"ERROR {_one_line(str(e))}")
        except Exception as e:  # noqa: BLE001 - never crash on input; the fuzz tests count these as bugs
            self.send(f"ERROR internal error: {type(e).__name__}: {_one_line(str(e))}")
        return self.running

    def _need_board(self) -> None:
        if not self.size:
            raise ProtocolError("no board yet: send START first")

    def _cell(self, text: str) -> int:
        m = XY.match(text)
        if not m:
            raise ProtocolError(f"expected x,y but got {_quote(text)}")
        x, y = int(m.group(1)), int(m.group(2))
        if not (0 <= x < self.size and 0 <= y < self.size):
            raise ProtocolError(f"{text!r} is off the {self.size}x{self.size} board")
        return y * self.size + x

    def _xy(self, cell: int) -> str:
        y, x = divmod(cell, self.size)
        return f"{x},{y}"

    def _cmd_start(self, rest: str) -> None:
        n = parse_int(rest, "START: the board size (this brain plays 5..26)", 5, 26, error=ProtocolError)
        self._new_board(n)
        self._wait_ready()
        self.send("OK")

    def _wait_ready(self) -> None:
        """Wait until the engine is loaded (managers wait for the ``OK`` to ``START``)."""
        if not self.ready.is_set():
            self.ready.wait()
            if self.load_error:
                self.send(f"MESSAGE the engine failed to load: {self.load_error}")

    def _cmd_rectstart(self, rest: str) -> None:
        m = XY.match(rest)
        if not m:
            raise ProtocolError(f"RECTSTART needs width,height, got {_quote(rest)}")
        w, h = int(m.group(1)), int(m.group(2))
        if w != h or not 5 <= w <= 26:
            raise ProtocolError(f"unsupported board {w}x{h}: this brain plays square boards 5..26")
        self._new_board(w)
        self._wait_ready()
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
        try:
            self._move()
        except BaseException:  # a refused TURN leaves the board as it was
            del self.stones[cell]
            self.order.remove(cell)
            raise

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
            before = (dict(self.stones), list(self.order), set(self.marked))
            self.stones.clear()
            self.order.clear()
            self.marked.clear()
            for x, y, f in self.board_lines:
                if f in (1, 2):
                    self._put(y * self.size + x, f)
                else:
                    self.marked.add(y * self.size + x)
            try:
                self._move()
            except BaseException:  # a refused BOARD keeps the board it replaced
                self.stones, self.order, self.marked = before
                raise
            return
        m = XYF.match(text)
        if not m:
            self.in_board = False
            raise ProtocolError(f"BOARD expects x,y,field lines and DONE, got {_quote(text)}; board ignored")
        x, y, f = int(m.group(1)), int(m.group(2)), int(m.group(3))
        if not (0 <= x < self.size and 0 <= y < self.size) or f not in (1, 2, 3):
            self.in_board = False
            raise ProtocolError(f"bad BOARD line {_quote(text)}; board ignored")
        if any((x, y) == (a, b) for a, b, _ in self.board_lines):
            self.in_board = False
            raise ProtocolError(f"BOARD line {_quote(text)} repeats a cell; board ignored")
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
        m = XY.match(text) or XYF.match(text)
        if not m:
            raise ProtocolError(f"SWAP2BOARD expects x,y lines and DONE, got {text!r}; ignored")
        cells.append(self._cell(f"{m.group(1)},{m.group(2)}"))
        self.swap_cells = cells

    def _cmd_info(self, rest: str) -> None:
        key, _, value = rest.partition(" ")
        key = key.lower()
        value = value.strip()
        if key in _INFO_INTS:
            lo, hi = _INFO_INTS[key]
            v = parse_int(value, f"INFO {key}", lo, hi, error=ProtocolError)
            if key in ("max_node", "max_depth"):
                setattr(self, key, max(0, v))
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
            self.send(f"UNKNOWN INFO key {_quote(key)}")

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

    @staticmethod
    def _margin(ms: int) -> int:
        """What is kept back from ``ms`` for Python, I/O and the manager's clock."""
        return min(MARGIN_MS, max(MIN_MARGIN_MS, ms // 4))

    def _budget_ms(self) -> int:
        """The most a move may take: the turn's limit less the margin (``FAST_MS`` for a 0 turn)."""
        turn = self.timeout_turn if self.timeout_turn > 0 else FAST_MS
        return max(10, turn - self._margin(turn))

    def _limits(self, searchmoves: tuple[int, ...] | None = None, spent_ms: int = 0) -> Limits:
        """The search limits of our move: ``timeout_turn`` caps it; with ``timeout_match`` the time
        manager shares ``time_left`` over the stones still to play; ``max_node`` / ``max_depth``."""
        cap = max(5, self._budget_ms() - spent_ms)
        clock: dict[str, Any] = {}
        if self.time_left is not None and self.timeout_match > 0:
            left = max(0, self.time_left - self._margin(max(0, self.time_left)) - spent_ms)
            empties = self.size * self.size - len(self.stones) - len(self.marked)
            clock = {"time_left": (left, left), "moves_to_go": max(8, min(40, empties // 4))}
        return Limits(movetime=cap, nodes=self.max_node or None, depth=self.max_depth or None,
                      searchmoves=searchmoves, **clock)

    def _spec(self, game: Any, hash_mb: int) -> str:
        spec = self.engine_spec or "mtdf"
        if "hash=" not in spec and "hash" in engine_entry(game, spec).options:
            spec += f",hash={hash_mb}"
        return spec

    def _get_engine(self, game: Any) -> Any:
        """The engine for ``game`` and the memory limit, built (and its kernels loaded) if need be."""
        mem = self.max_memory
        hash_mb = 64 if not mem else max(1, min(64, mem // (4 * 1024 * 1024)))
        key = (game.spec, hash_mb)
        with self.engine_lock:
            if self.engine is None or self.engine_key != key:
                self.engine = make_engine(game, self._spec(game, hash_mb))
                self.engine_key = key
            engine = self.engine
        if self.prepare:
            from ..warmup import prepare

            prepare(game, engine)  # at once when the kernels are loaded (a new size or rule: its rule kernels)
        return engine

    def _move(self) -> None:
        t0 = time.perf_counter()
        game, state = self._state()
        if state.is_terminal():
            raise ProtocolError(f"the game is over ({state.result_text()}): no move to make")
        open_cells = [m for m in state.legal_moves() if m not in self.marked]
        if not open_cells:
            empty = [c for c in range(self.size * self.size) if c not in self.stones and c not in self.marked]
            if not empty:
                raise ProtocolError("the board is full")
            move = empty[0]
        else:
            self._wait_ready()  # only a move asked for before START waits here
            engine = self._get_engine(game)  # (a new engine's table takes a while: count it)
            spent = int((time.perf_counter() - t0) * 1000)
            limits = self._limits(tuple(open_cells) if self.marked else None, spent)

            def report(info: SearchInfo) -> None:
                self.send(message_line(info, self.size))

            result = engine.search(state, limits, on_info=report)
            move = result.best_move
            self.send(f"MESSAGE result depth {result.depth} nodes {result.nodes} time {result.time_ms}")
            if move is None or move in self.marked:
                # the one rule-based move left: an engine that cannot restrict its root to the open cells
                move = quick_move(state, self.marked)
        self._put(move, 1)
        self.send(self._xy(move))


def _one_line(text: str, limit: int = 300) -> str:
    """``text`` on one line, shortened: a reply never spans lines (a manager reads each as a reply)."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _quote(text: str) -> str:
    return _one_line(repr(text[:200]))


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
    for line in lines(inp):
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
    lenient_stdout()
    return run(sys.stdin, sys.stdout, args.engine)


def entry_point() -> None:
    """The ``pbrain-gamesuite`` console script."""
    sys.exit(main(sys.argv[1:]))
