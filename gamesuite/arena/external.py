"""External engines over their protocols: USI and Gomocup, driven as subprocesses.

Each adapter starts the program, speaks its protocol on stdin/stdout (through the protocol's one
codec: ``protocols._usi``, ``protocols._gomocup``) and turns what goes wrong into an
``EngineFailure``: a program that cannot start or exits is a crash, one that does not answer in time
a hang, an answer that does not parse an illegal move (or a protocol error). The arena checks
legality and time.

- ``UsiPlayer`` and ``GomocupPlayer`` are the arena's players (a move per request, the whole game
  told to the program; Gomocup's swap openings).
- ``UsiEngine`` and ``GomocupEngine`` are programs as a ``core.Engine``: ``search`` streams what the
  program reports as ``SearchInfo`` (USI ``info`` lines; Gomocup ``MESSAGE depth ...`` lines and
  Yixin-Board's ``INFO PV`` blocks), stops when the stop flag is set and leaves the state as it was.
  The command line and the window search with them as with ours.
- ``open_engine(game, spec)`` is the one way to build the engine a spec names: ours
  (``mtdf,hash=64``), ``usi:COMMAND,...`` or ``gomocup:COMMAND,...``.
"""

from __future__ import annotations

import collections
import queue
import subprocess
import threading
import time

import numpy as np

from ..core.errors import EngineFailure, GameSuiteError, InvalidOptionError, quote
from ..core.info import Engine, InfoCallback, SearchInfo, SearchResult
from ..core.limits import Limits
from ..core.registry import Game, make_engine
from ..core.score import Score
from ..core.state import State, legal_line
from ..protocols._gomocup import gomocup_score, limit_lines, parse_count, parse_message, parse_xy, rule_code
from ..protocols._usi import go_command, parse_info
from ..search.driver import next_search_id
from .boards import move_to_xy, require_board, stones, xy_to_move
from .players import MoveRequest, Player, SwapRequest
from .spec import EngineSpec

#: How long a program may take to start and say it is ready (ms).
STARTUP_MS = 30_000


class EngineProcess:
    """A child process with line-based stdin/stdout, read by a thread into a queue."""

    def __init__(self, command: tuple[str, ...], label: str) -> None:
        self.label = label
        self.command = command
        try:
            self.proc = subprocess.Popen(
                list(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                text=True, bufsize=1, errors="replace",
            )
        except OSError as e:
            raise EngineFailure("crash", f"cannot start {' '.join(command)!r}: {e.strerror or e}") from None
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.stderr: collections.deque[str] = collections.deque(maxlen=20)
        self.transcript: collections.deque[str] = collections.deque(maxlen=200)
        threading.Thread(target=self._read_out, daemon=True, name=f"{label}-out").start()
        threading.Thread(target=self._read_err, daemon=True, name=f"{label}-err").start()

    def _read_out(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\r\n"))
        self.lines.put(None)

    def _read_err(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self.stderr.append(line.rstrip("\r\n"))

    def _crash(self, what: str) -> EngineFailure:
        try:
            code = self.proc.wait(0.5)
        except subprocess.TimeoutExpired:
            code = None
        detail = what + (f" (exit status {code})" if code is not None else "")
        if self.stderr:
            detail += f"; stderr: {self.stderr[-1]}"
        return EngineFailure("crash", detail)

    def send(self, line: str) -> None:
        self.transcript.append("> " + line)
        try:
            assert self.proc.stdin is not None
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise self._crash(f"the program is gone (writing {line!r})") from None

    def read(self, timeout_ms: float) -> str | None:
        """The next line, or ``None`` after ``timeout_ms``; a crash when the program exits."""
        try:
            line = self.lines.get(timeout=max(timeout_ms, 0.0) / 1000.0)
        except queue.Empty:
            return None
        if line is None:
            self.lines.put(None)  # keep reporting the end
            raise self._crash("the program exited")
        self.transcript.append("< " + line)
        return line

    def close(self, grace_ms: float = 1000.0) -> None:
        if self.proc.poll() is None:
            try:
                self.proc.wait(grace_ms / 1000.0)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        for f in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            try:
                if f is not None:
                    f.close()
            except OSError:
                pass


def _returns_word(state: State, seat: int) -> str:
    r = state.returns()
    if not state.is_terminal() or len(r) <= seat:
        return "draw"
    mine, best = r[seat], max(r)
    if mine == best and r.count(best) == len(r):
        return "draw"
    return "win" if mine == best else "lose"


class UsiPlayer(Player):
    """A USI program (shogi engines). Positions go out as ``position sfen TEXT moves ...``.

    The position text is the state's ``to_sfen()`` when it has one, else
    ``to_text()``; moves are written and read with the game's notation.
    Player 0 is ``b`` (sente), player 1 ``w``. ``bestmove resign`` loses; ``bestmove
    win`` (an entering-king declaration) is not verified by the arena and loses
    as a protocol failure.
    """

    def __init__(self, spec: EngineSpec, stop_grace_ms: float = 1000.0, startup_ms: float = STARTUP_MS) -> None:
        self.spec = spec
        self.startup_ms = startup_ms
        self.label = spec.label
        self.stop_grace_ms = stop_grace_ms
        self.proc: EngineProcess | None = None
        self.engine_name = ""

    def _expect(self, word: str, timeout_ms: float) -> None:
        assert self.proc is not None
        deadline = time.perf_counter() * 1000 + timeout_ms
        while True:
            line = self.proc.read(deadline - time.perf_counter() * 1000)
            if line is None:
                self.broken = True
                raise EngineFailure("hang", f"no {word!r} within {timeout_ms / 1000:.1f} s")
            if line.startswith("id name "):
                self.engine_name = line[8:].strip()
            if line.strip() == word:
                return

    def start_game(self, game: Game, start: State, seat: int, opening_rule: str = "") -> None:
        if self.proc is not None and self.proc.proc.poll() is not None:
            self.close()
        if self.proc is None:
            self.proc = EngineProcess(self.spec.command, self.label)
            self.proc.send("usi")
            self._expect("usiok", self.startup_ms)
            for k, v in self.spec.options:
                self.proc.send(f"setoption name {k} value {v}")
        self.proc.send("isready")
        self._expect("readyok", self.startup_ms)
        self.proc.send("usinewgame")

    @staticmethod
    def _position_text(state: State) -> str:
        hook = getattr(state, "to_sfen", None)
        return hook() if callable(hook) else state.to_text()

    #: The ``go`` line for ``Limits`` (the USI codec's, ``protocols._usi.go_command``).
    go_command = staticmethod(go_command)

    def move(self, request: MoveRequest) -> int:
        best = self.think(request.start, request.moves, request.state, request.limits, request.wait_ms).best_move
        if best is None:  # think raises before it returns a result without a move
            raise EngineFailure("protocol", "bestmove without a move")
        return best

    def think(self, start: State, moves: list[int], state: State, limits: Limits, wait_ms: float | None,
              stop: np.ndarray | None = None, on_info: InfoCallback | None = None) -> SearchResult:
        """Search ``state`` (``start`` and ``moves`` since): its ``info`` lines go to ``on_info`` as
        ``SearchInfo``; past ``wait_ms`` (None: never) or once ``stop[0]`` is set it is told to stop.

        Raises ``EngineFailure``: a hang (no ``bestmove`` after ``stop``), a resignation, a move that
        cannot be read."""
        assert self.proc is not None, "start_game first"
        line_text = start.format_line(moves)
        pos = f"position sfen {self._position_text(start)}"
        if line_text:
            pos += " moves " + " ".join(line_text)
        self.proc.send(pos)
        self.proc.send(go_command(limits))
        sid = next_search_id()
        t0 = time.perf_counter()
        deadline = None if wait_ms is None else t0 * 1000 + wait_ms
        stopped = False
        lines: dict[int, SearchInfo] = {}
        while True:
            now = time.perf_counter() * 1000
            poll = 20.0 if stop is not None else (1e9 if deadline is None else deadline - now)
            if deadline is not None:
                poll = min(poll, deadline - now)
            if not stopped and ((deadline is not None and now >= deadline) or (stop is not None and stop[0])):
                # (checked before each read: a program that writes info lines without pause is stopped too)
                self.proc.send("stop")
                stopped = True
                deadline = now + self.stop_grace_ms
                poll = self.stop_grace_ms
            line = self.proc.read(poll)
            if line is None:
                now = time.perf_counter() * 1000
                if stopped:
                    if deadline is not None and now < deadline:
                        continue
                    self.broken = True
                    raise EngineFailure("hang", f"no bestmove {(wait_ms or 0) / 1000:.1f} s after go, nor after stop")
                continue
            words = line.split()
            if words and words[0] == "info":
                info = parse_info(line, state, sid)
                if info is not None:
                    lines[info.multipv] = info
                    if on_info is not None:
                        on_info(info)
                continue
            if not words or words[0] != "bestmove":
                continue
            if len(words) < 2:
                raise EngineFailure("protocol", f"bestmove without a move: {line!r}")
            text = words[1]
            if text == "resign":
                raise EngineFailure("resign", "resigned")
            if text == "win":
                raise EngineFailure("protocol", "declared a win (bestmove win), which the arena cannot verify")
            try:
                move = state.parse_move(text)
            except GameSuiteError as e:
                raise EngineFailure("illegal", f"unreadable move {text!r}: {e}") from None
            ms = int((time.perf_counter() - t0) * 1000)
            ordered = tuple(lines[k] for k in sorted(lines))
            top = lines.get(1)
            pv = top.pv if top is not None and top.pv and top.pv[0] == move else (move,)
            score = top.score if top is not None else Score.eval(0, max(state.current_player, 0))
            ponder = None
            if len(words) >= 4 and words[2] == "ponder":
                after = state.copy()
                after.play(move)
                try:
                    ponder = after.parse_move(words[3])
                except GameSuiteError:
                    ponder = None
            return SearchResult(move, score, pv, top.depth if top else 0, top.nodes if top else 0, ms,
                                ponder if ponder is not None else (pv[1] if len(pv) > 1 else None), ordered)

    def game_over(self, state: State, seat: int) -> None:
        if self.proc is not None and self.proc.proc.poll() is None:
            try:
                self.proc.send(f"gameover {_returns_word(state, seat)}")
            except EngineFailure:
                pass

    def close(self) -> None:
        if self.proc is not None:
            try:
                self.proc.send("quit")
            except EngineFailure:
                pass
            self.proc.close()
            self.proc = None


def _external_spec(game: Game, spec: EngineSpec | str, kind: str, protocol: str) -> EngineSpec:
    """``spec`` (parsed for ``game`` if text), which must name a program of ``kind``."""
    from .spec import parse_engine_spec

    parsed = parse_engine_spec(spec, game.name) if isinstance(spec, str) else spec
    if parsed.kind != kind:
        raise InvalidOptionError(f"not a {protocol} engine spec: {parsed.text!r}")
    return parsed


class UsiEngine:
    """A USI program as a ``core.Engine``: ``search`` streams its ``info`` lines as ``SearchInfo``, stops
    when the stop flag is set, and leaves the state as it was. The arena plays it through ``UsiPlayer``
    (the same process and loop); the command line and the window can search with it like with ours."""

    external = True  # a program: warmed up by starting it, not by a search

    def __init__(self, game: Game, spec: EngineSpec | str, startup_ms: float = STARTUP_MS,
                 stop_grace_ms: float = 1000.0) -> None:
        self.game = game
        self.spec = _external_spec(game, spec, "usi", "USI")
        self.player = UsiPlayer(self.spec, stop_grace_ms=stop_grace_ms, startup_ms=startup_ms)
        self.name = self.spec.label
        self._started = False
        self._multipv: tuple[object, int] | None = None  # (the process told, the lines asked for)

    def new_game(self) -> None:
        self.player.start_game(self.game, self.game.new_state(), 0)
        self._started = True

    def search(self, state: State, limits: Limits, stop: np.ndarray | None = None,
               on_info: InfoCallback | None = None) -> SearchResult:
        """Search ``state``; more than one line (``limits.multipv``) is asked for with
        ``setoption name MultiPV``. A program that exited is started again."""
        if not self._started or self.player.proc is None or self.player.proc.proc.poll() is not None:
            self.new_game()
        proc = self.player.proc
        assert proc is not None
        if self._multipv != (proc, limits.multipv) and (limits.multipv > 1 or self._multipv is not None):
            proc.send(f"setoption name MultiPV value {limits.multipv}")
            self._multipv = (proc, limits.multipv)
        start = state.copy()
        moves = list(state.history)
        for _ in moves:
            start.undo()
        return self.player.think(start, moves, state, limits, None, stop, on_info)

    def close(self) -> None:
        self.player.close()
        self._started = False


#: The ``INFO`` keys of a work limit (Yixin-Board's extension), which a program must not ignore.
WORK_KEYS = ("MAX_NODE", "MAX_DEPTH")


class GomocupPlayer(Player):
    """A Gomocup (``pbrain-``) program for gomoku-like games.

    ``START size`` (``RECTSTART w,h`` for non-square boards), ``INFO`` for the
    time control and the rule, ``BEGIN``/``TURN x,y``/``BOARD ... DONE`` to ask
    for a move, ``END`` to finish. Replies ``x,y``; ``MESSAGE``, ``DEBUG`` and
    ``SUGGEST`` lines are ignored, ``ERROR``/``UNKNOWN`` are protocol failures (to a move request
    only when no move follows them in the time allowed: they may answer an ``INFO`` line).
    """

    def __init__(self, spec: EngineSpec, startup_ms: float = STARTUP_MS) -> None:
        self.spec = spec
        self.startup_ms = startup_ms
        self.label = spec.label
        self.proc: EngineProcess | None = None
        self.dims = (0, 0)
        self.known = -1  # how many stones the engine knows about (-1: nothing sent yet)
        self._work: dict[str, int] = {}  # MAX_NODE / MAX_DEPTH as last sent

    def _reply(self, timeout_ms: float, what: str, patient: bool = False) -> str:
        """The program's next answer to ``what`` within ``timeout_ms``, skipping ``MESSAGE``,
        ``DEBUG`` and ``SUGGEST`` lines.

        ``ERROR``/``UNKNOWN`` fail at once unless ``patient``: then (for a move, whose ``INFO``
        lines went just before it) the complaint may be about one of those lines, so the wait goes
        on for the move, and only a program that then sends none loses, with the complaint quoted.
        A complaint that names ``MAX_NODE`` or ``MAX_DEPTH`` fails at once even so: a work limit
        the program does not follow is not to pass silently.
        """
        assert self.proc is not None
        deadline = time.perf_counter() * 1000 + timeout_ms
        complaint = ""
        while True:
            line = self.proc.read(deadline - time.perf_counter() * 1000)
            if line is None:
                self.broken = True
                if complaint:
                    raise EngineFailure("protocol", f"answered {what} with {complaint!r} and no move")
                raise EngineFailure("hang", f"no answer to {what} within {timeout_ms / 1000:.1f} s")
            word = line.split(" ", 1)[0].upper() if line.strip() else ""
            if word in ("MESSAGE", "DEBUG", "SUGGEST", ""):
                continue
            if word in ("ERROR", "UNKNOWN"):
                if not patient or any(k in line.upper() for k in WORK_KEYS):
                    raise EngineFailure("protocol", f"answered {what} with {line!r}")
                complaint = complaint or line
                continue
            return line

    def start_game(self, game: Game, start: State, seat: int, opening_rule: str = "") -> None:
        self.dims = require_board(game, "the Gomocup protocol")
        self.game = game
        if self.proc is not None and self.proc.proc.poll() is not None:
            self.close()
        if self.proc is None:
            self.proc = EngineProcess(self.spec.command, self.label)
        w, h = self.dims
        cmd = f"START {w}" if w == h else f"RECTSTART {w},{h}"
        self.proc.send(cmd)
        line = self._reply(self.startup_ms, cmd)
        if line.strip().upper() != "OK":
            raise EngineFailure("protocol", f"answered {cmd!r} with {line!r}")
        rule = rule_code(game)
        if opening_rule and rule == 0:  # Rapfi's and Yixin-Board's swap codes are freestyle underneath
            from .swap import GOMOCUP_RULES

            rule = GOMOCUP_RULES[opening_rule]
        self.proc.send(f"INFO rule {int(rule)}")
        self.proc.send("INFO game_type 1")
        for k, v in self.spec.options:
            self.proc.send(f"INFO {k} {v}")
        self.known = -1
        self._work = {}

    def _send_times(self, limits: Limits, seat: int, wait_ms: float) -> None:
        """The move's limits as ``INFO`` lines (``protocols._gomocup.limit_lines``); a work limit alone
        is also three quarters of the referee's wait as ``timeout_turn``, so that the program answers
        in time even where it ignores the work limit."""
        assert self.proc is not None
        for line in limit_lines(limits, seat, int(wait_ms * 3 / 4), self._work):
            self.proc.send(line)

    def move(self, request: MoveRequest) -> int:
        assert self.proc is not None, "start_game first"
        self._send_times(request.limits, request.seat, request.wait_ms)
        placed = stones(request.start, request.moves)
        st = request.state
        if not placed:
            cmd = "BEGIN"
            self.proc.send(cmd)
        elif self.known == len(placed) - 1 and placed[-1][1] != request.seat:
            x, y = move_to_xy(st, placed[-1][0], self.dims)
            cmd = f"TURN {x},{y}"
            self.proc.send(cmd)
        else:
            cmd = "BOARD"
            self.proc.send(cmd)
            for m, p in placed:
                x, y = move_to_xy(st, m, self.dims)
                self.proc.send(f"{x},{y},{1 if p == request.seat else 2}")
            self.proc.send("DONE")
        line = self._reply(request.wait_ms, cmd, patient=True)
        xy = parse_xy(line)
        if xy is None:
            raise EngineFailure("illegal", f"unreadable move {line!r}")
        try:
            move = xy_to_move(st, *xy, self.dims)
        except GameSuiteError as e:
            raise EngineFailure("illegal", f"move {line.strip()!r}: {e}") from None
        self.known = len(placed) + 1
        return move

    def swap_answer(self, request: SwapRequest) -> str | list[int]:
        """``SWAP2BOARD``, the stones so far as ``x,y,f`` lines (``f`` 1 for the stones of the side to
        move, 2 for the others, as in ``BOARD``) and ``DONE``; the reply is ``SWAP`` or stones
        ``x,y x,y ...``. The next move request sends the whole ``BOARD``."""
        assert self.proc is not None, "start_game first"
        self._send_times(request.limits, request.state.current_player, request.wait_ms)
        st = request.state
        self.proc.send("SWAP2BOARD")
        for m, p in stones(st.game.new_state(), list(st.history)):
            x, y = move_to_xy(st, m, self.dims)
            self.proc.send(f"{x},{y},{1 if p == st.current_player else 2}")
        self.proc.send("DONE")
        self.known = -1
        line = self._reply(request.wait_ms, "SWAP2BOARD", patient=True)
        if line.strip().upper() == "SWAP":
            return "swap"
        out = []
        s = st.copy()
        for word in line.split():
            xy = parse_xy(word)
            if xy is None:
                raise EngineFailure("illegal", f"unreadable {request.rule} answer {line!r}")
            try:
                m = xy_to_move(s, *xy, self.dims)
            except GameSuiteError as e:
                raise EngineFailure("illegal", f"{request.rule} answer {line.strip()!r}: {e}") from None
            out.append(m)
        if not out:
            raise EngineFailure("illegal", f"empty {request.rule} answer {line!r}")
        return out

    def game_over(self, state: State, seat: int) -> None:
        self.known = -1

    def close(self) -> None:
        if self.proc is not None:
            try:
                self.proc.send("END")
            except EngineFailure:
                pass
            self.proc.close()
            self.proc = None


#: ``timeout_turn`` of ``GomocupEngine`` for a search limited by nodes or depth only.
WORK_CAP_MS = 30_000


class GomocupEngine:
    """A Gomocup (``pbrain-``) program as a ``core.Engine`` for gomoku-like games.

    It searches the position it is given (sent whole, as ``BOARD``), streams what the program reports
    (Yixin-Board's ``INFO PV`` blocks, which Rapfi writes after ``INFO show_detail``, and gamesuite's
    own ``MESSAGE depth ...`` lines) and stops when asked: ``YXSTOP`` first, and a program that does
    not answer it at once is ended (and started again for the next search).
    """

    external = True  # a program: warmed up by starting it, not by a search

    def __init__(self, game: Game, spec: EngineSpec | str, startup_ms: float = STARTUP_MS,
                 stop_grace_ms: float = 300.0) -> None:
        self.game = game
        self.spec = _external_spec(game, spec, "gomocup", "Gomocup")
        self.dims = require_board(game, "the Gomocup protocol")
        self.name = self.spec.label
        self.startup_ms = startup_ms
        self.stop_grace_ms = stop_grace_ms
        self.proc: EngineProcess | None = None
        self._work: dict[str, int] = {}  # MAX_NODE / MAX_DEPTH as last sent

    def _reply(self, what: str) -> str:
        assert self.proc is not None
        deadline = time.perf_counter() * 1000 + self.startup_ms
        while True:
            line = self.proc.read(deadline - time.perf_counter() * 1000)
            if line is None:
                raise EngineFailure("hang", f"no answer to {what} within {self.startup_ms / 1000:.0f} s")
            word = line.split(" ", 1)[0].upper() if line.strip() else ""
            if word in ("MESSAGE", "DEBUG", "SUGGEST", "INFO", ""):
                continue
            return line

    def _start(self) -> None:
        if self.proc is not None and self.proc.proc.poll() is not None:
            self.close()
        if self.proc is not None:
            return
        self.proc = EngineProcess(self.spec.command, self.name)
        w, h = self.dims
        cmd = f"START {w}" if w == h else f"RECTSTART {w},{h}"
        self.proc.send(cmd)
        line = self._reply(cmd)
        if line.strip().upper() != "OK":
            self.close()
            raise EngineFailure("protocol", f"answered {cmd!r} with {line!r}")
        self.proc.send(f"INFO rule {rule_code(self.game)}")
        self.proc.send("INFO game_type 1")
        self.proc.send("INFO show_detail 3")  # Yixin-Board's: stream INFO PV blocks (others answer UNKNOWN)
        self.proc.send("INFO pondering 0")
        for k, v in self.spec.options:
            self.proc.send(f"INFO {k} {v}")
        self._work = {}

    def new_game(self) -> None:
        self._start()

    @staticmethod
    def _wait_ms(limits: Limits, seat: int) -> float | None:
        """How long to wait for the move (ms): the limit sent and 5 s; None: until stopped."""
        if limits.infinite:
            return None
        if limits.movetime is not None:
            return limits.movetime + 5000.0
        if limits.time_left is not None:
            left = limits.time_left[seat] if 0 <= seat < len(limits.time_left) else limits.time_left[0]
            return max(0, left) + (limits.byoyomi or 0) + 5000.0
        if limits.nodes is not None or limits.depth is not None:
            return WORK_CAP_MS + 5000.0
        return None

    def search(self, state: State, limits: Limits, stop: np.ndarray | None = None,
               on_info: InfoCallback | None = None) -> SearchResult:
        """Search ``state`` (sent whole as ``BOARD``) until the program answers, ``stop[0]`` is set, or
        the time limit has long passed; ``EngineFailure`` when it fails."""
        legal = state.legal_moves()
        if not legal:
            raise InvalidOptionError("no legal move in this position")
        self._start()
        assert self.proc is not None
        proc = self.proc
        me = state.current_player
        for info_line in limit_lines(limits, me, WORK_CAP_MS, self._work):
            proc.send(info_line)
        wait = self._wait_ms(limits, me)
        placed = stones(state, [])  # (move, the player who placed it)
        if not placed:
            proc.send("BEGIN")
        else:
            proc.send("BOARD")
            for m, p in placed:
                x, y = move_to_xy(state, m, self.dims)
                proc.send(f"{x},{y},{1 if p == me else 2}")
            proc.send("DONE")
        sid = next_search_id()
        t0 = time.perf_counter()
        deadline = None if wait is None else t0 * 1000 + wait
        stopped_at: float | None = None
        lines: dict[int, SearchInfo] = {}
        block: dict[str, str] = {}
        pov = max(me, 0)
        last_nodes = [0]

        def report(info: SearchInfo | None) -> None:
            if info is None:
                return
            lines[info.multipv] = info
            if on_info is not None:
                on_info(info)

        while True:
            now = time.perf_counter() * 1000
            if stop is not None and stop[0] and stopped_at is None:
                stopped_at = now
                proc.send("YXSTOP")
            if stopped_at is not None and now - stopped_at > self.stop_grace_ms:
                self.close(kill=True)  # it did not stop at once: end it (a new one starts next time)
                return self._result(state, legal, lines, t0, None)
            if wait is not None and deadline is not None and now > deadline and stopped_at is None:
                self.close(kill=True)
                raise EngineFailure("hang", f"no move within {wait / 1000:.1f} s")
            line = proc.read(20.0)
            if line is None:
                continue
            words = line.split()
            if not words:
                continue
            head = words[0].upper()
            if head == "INFO" and len(words) >= 2:
                key = words[1].upper()
                if key == "PV" and len(words) >= 3 and words[2].upper() == "DONE":
                    report(self._block_info(block, state, sid, pov, t0, last_nodes))
                    block = {}
                elif key == "PV":
                    block = {"PV": words[2] if len(words) > 2 else "0"}
                else:
                    block[key] = " ".join(words[2:])
                continue
            if head == "MESSAGE":
                report(self._message_info(words[1:], state, sid, pov, t0, last_nodes))
                continue
            if head in ("DEBUG", "SUGGEST", "UNKNOWN", "ERROR", "OK"):
                continue  # (UNKNOWN: an INFO key or YXSTOP it does not know)
            xy = parse_xy(line)
            if xy is None:
                continue
            try:
                move = xy_to_move(state, *xy, self.dims)
            except GameSuiteError as e:
                raise EngineFailure("illegal", f"move {line.strip()!r}: {e}") from None
            if move not in legal:
                raise EngineFailure("illegal", f"move {line.strip()!r} is not legal here")
            return self._result(state, legal, lines, t0, move)

    def _pv(self, state: State, words: list[str]) -> tuple[int, ...]:
        """A reported line (``x,y`` cells, or our own notation) as moves, as far as they are legal."""
        def parse(s: State, w: str) -> int:
            xy = parse_xy(w)
            return xy_to_move(s, *xy, self.dims) if xy is not None else s.parse_move(w.lower())

        return tuple(legal_line(state, words, parse))

    def _block_info(self, block: dict[str, str], state: State, sid: int, pov: int, t0: float,
                    last_nodes: list[int]) -> SearchInfo | None:
        """A Yixin-Board ``INFO PV`` block (``DEPTH``, ``SELDEPTH``, ``NODES``/``TOTALNODES``, ``EVAL``,
        ``BESTLINE`` in ``x,y``) as a report."""
        score = gomocup_score(block.get("EVAL", ""), pov)
        pv = self._pv(state, block.get("BESTLINE", "").split())
        if score is None and not pv:
            return None
        nodes = max(parse_count(block.get("TOTALNODES", "") or block.get("NODES", "")), last_nodes[0])
        last_nodes[0] = nodes
        ms = int((time.perf_counter() - t0) * 1000)
        depth = parse_count(block.get("DEPTH", "")) or len(pv)
        return SearchInfo(sid, depth, max(depth, parse_count(block.get("SELDEPTH", ""))),
                          score if score is not None else Score.eval(0, pov), pv, nodes,
                          parse_count(block.get("SPEED", "")) or (nodes * 1000 // max(ms, 1)), ms,
                          multipv=parse_count(block.get("PV", "0")) + 1)

    def _message_info(self, words: list[str], state: State, sid: int, pov: int, t0: float,
                      last_nodes: list[int]) -> SearchInfo | None:
        """gamesuite's ``MESSAGE depth D/S score X nodes N nps P time T pv x,y ...`` as a report."""
        m = parse_message(words)
        if m is None:
            return None
        score = gomocup_score(m["score"], pov)
        nodes = max(m["nodes"], last_nodes[0])
        last_nodes[0] = nodes
        return SearchInfo(sid, m["depth"], m["seldepth"], score if score is not None else Score.eval(0, pov),
                          self._pv(state, m["pv"]), nodes, m["nps"],
                          max(m["time"], int((time.perf_counter() - t0) * 1000)))

    @staticmethod
    def _result(state: State, legal: list[int], lines: dict[int, SearchInfo], t0: float,
                move: int | None) -> SearchResult:
        top = lines.get(1)
        if move is None:  # stopped before it answered: its best line so far, else any legal move
            move = top.pv[0] if top is not None and top.pv and top.pv[0] in legal else legal[0]
        pv = top.pv if top is not None and top.pv and top.pv[0] == move else (move,)
        score = top.score if top is not None else Score.eval(0, max(state.current_player, 0))
        ordered = tuple(lines[k] for k in sorted(lines))
        return SearchResult(move, score, pv, top.depth if top else 0, top.nodes if top else 0,
                            int((time.perf_counter() - t0) * 1000), pv[1] if len(pv) > 1 else None, ordered)

    def close(self, kill: bool = False) -> None:
        if self.proc is not None:
            proc, self.proc = self.proc, None
            if kill and proc.proc.poll() is None:
                proc.proc.kill()
            else:
                try:
                    proc.send("END")
                except EngineFailure:
                    pass
            proc.close(300)


def open_engine(game: Game, spec: str) -> Engine:
    """The engine ``spec`` names for ``game``: ours (``mtdf,top=10``: ``core.make_engine``), a USI
    program (``usi:COMMAND[,opt=val...]``: ``UsiEngine``) or a Gomocup one (``gomocup:COMMAND``:
    ``GomocupEngine``); ``close()`` a program when done. The window and the command line build
    engines with it (the arena's players are ``make_player``'s); ``@`` limits in the spec are
    the caller's (``EngineSpec.limits``)."""
    from .spec import parse_engine_spec

    parsed = parse_engine_spec(spec, game.name) if spec.strip() else None
    if parsed is None:
        return make_engine(game, "")
    if parsed.kind == "usi":
        return UsiEngine(game, parsed)
    if parsed.kind == "gomocup":
        return GomocupEngine(game, parsed)
    if parsed.kind == "py":
        raise InvalidOptionError(f"engine spec {quote(spec)}: py: engines are for the arena's matches")
    return make_engine(game, parsed.target)
