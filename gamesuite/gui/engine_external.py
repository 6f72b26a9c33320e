"""External engines for the window, without Qt: what a program says about itself, the Gomocup
program as a ``core.Engine``, and the one factory the window's worker builds every engine with.

- ``probe_engine(protocol, command)`` starts a USI or Gomocup program, reads its name and (USI) its
  ``option`` lines, and ends it: the engine manager keeps what it learnt.
- ``GomocupEngine`` is a Gomocup (``pbrain-``) program as a ``core.Engine``: it searches the position
  it is given (sent whole, as ``BOARD``), streams what the program reports (Yixin-Board's
  ``INFO PV`` blocks, which Rapfi writes after ``INFO show_detail``, and gamesuite's own ``MESSAGE
  depth ...`` lines) and stops when asked: ``YXSTOP`` first, and a program that does not answer it
  at once is ended (and started again for the next search).
- ``WindowUsiEngine`` is ``arena.external.UsiEngine`` that also sets ``MultiPV`` for multi-line
  analysis.
- ``open_window_engine(game, spec)`` builds the engine an engine spec names: ours (``mtdf,hash=64``),
  ``usi:COMMAND,...`` or ``gomocup:COMMAND,...``. The engine's own limits in the spec (``@depth=8``)
  are the window's business (``spec_limits``), not the engine's.
"""

from __future__ import annotations

import re
import shlex
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..arena.boards import move_to_xy, require_board, stones, xy_to_move
from ..arena.external import STARTUP_MS, EngineProcess, UsiEngine
from ..arena.spec import EngineSpec, parse_engine_spec
from ..core.errors import EngineFailure, GameSuiteError, InvalidOptionError, quote
from ..core.info import Engine, InfoCallback, SearchInfo, SearchResult
from ..core.limits import Limits
from ..core.registry import Game, make_engine
from ..core.score import Score
from ..core.state import State
from ..search.driver import next_search_id

PROTOCOLS = ("usi", "gomocup")
#: The games each protocol plays in the window.
PROTOCOL_GAMES = {"usi": ("shogi",), "gomocup": ("gomoku",)}
#: ``timeout_turn`` for a search with no time limit (about 11 days; a 32-bit millisecond count).
FOREVER_MS = 1_000_000_000
#: ``timeout_turn`` for a search limited by nodes or depth only.
WORK_CAP_MS = 30_000


# -- what a program says about itself ------------------------------------------------------------------

@dataclass
class EngineOption:
    """One setting of an external program: a USI ``option`` line, or a Gomocup ``INFO`` key."""

    name: str
    type: str  # "spin", "check", "combo", "string", "filename" (USI's types; "button" is not kept)
    default: str = ""
    min: int | None = None
    max: int | None = None
    choices: tuple[str, ...] = ()
    help: str = ""  # (built-in engines' options: their help line)

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"name": self.name, "type": self.type, "default": self.default}
        if self.min is not None:
            d["min"] = self.min
        if self.max is not None:
            d["max"] = self.max
        if self.choices:
            d["choices"] = list(self.choices)
        return d

    @classmethod
    def from_json(cls, d: Any) -> EngineOption:
        if not isinstance(d, dict) or not isinstance(d.get("name"), str) or not isinstance(d.get("type"), str):
            raise InvalidOptionError(f"an engine option must be {{'name': ..., 'type': ...}}, got {quote(d)}")
        return cls(d["name"], d["type"], str(d.get("default", "")),
                   d.get("min") if isinstance(d.get("min"), int) else None,
                   d.get("max") if isinstance(d.get("max"), int) else None,
                   tuple(str(c) for c in d.get("choices", ()) if isinstance(c, str)))


_OPTION_WORDS = ("name", "type", "default", "min", "max", "var")


def parse_usi_option(line: str) -> EngineOption | None:
    """The option a USI ``option name N type T [default D] [min a] [max b] [var v]...`` line declares
    (``None`` for a ``button``, which has no value to keep, or a line that is not one).

    >>> parse_usi_option("option name USI_Hash type spin default 256 min 1 max 33554432")
    EngineOption(name='USI_Hash', type='spin', default='256', min=1, max=33554432, choices=())
    """
    words = line.split()
    if len(words) < 5 or words[0] != "option" or words[1] != "name":
        return None
    fields: dict[str, list[str]] = {}
    key = ""
    vars_: list[str] = []
    for w in words[1:]:
        if w in _OPTION_WORDS and not (key == "name" and not fields.get("name")):
            key = w
            if key == "var":
                vars_.append("")
            else:
                fields.setdefault(key, [])
            continue
        if key == "var":
            vars_[-1] = (vars_[-1] + " " + w).strip()
        elif key:
            fields[key].append(w)
    name = " ".join(fields.get("name", []))
    kind = " ".join(fields.get("type", []))
    if not name or kind not in ("spin", "check", "combo", "string", "filename"):
        return None
    default = " ".join(fields.get("default", []))
    if default == "<empty>":
        default = ""

    def num(k: str) -> int | None:
        try:
            return int(fields[k][0])
        except (KeyError, IndexError, ValueError):
            return None

    return EngineOption(name, kind, default, num("min"), num("max"), tuple(v for v in vars_ if v))


#: The Gomocup ``INFO`` keys the settings dialog offers (Gomocup's own and Yixin-Board's); ``MAX_NODE``
#: and ``MAX_DEPTH`` are limits, set with the limits.
GOMOCUP_OPTIONS = (
    EngineOption("thread_num", "spin", "1", 1, 256),
    EngineOption("max_memory", "spin", "0", 0, 2**31 - 1),
)


@dataclass
class ProbeResult:
    """What a program said about itself."""

    name: str
    author: str = ""
    options: list[EngineOption] = field(default_factory=list)


def probe_engine(protocol: str, command: list[str] | tuple[str, ...], timeout_ms: float = 15_000) -> ProbeResult:
    """Start ``command``, ask it who it is and which options it has, and end it.

    ``EngineFailure`` when it cannot start, exits, or does not answer within ``timeout_ms``;
    ``InvalidOptionError`` for an unknown protocol."""
    if protocol not in PROTOCOLS:
        raise InvalidOptionError(f"unknown engine protocol {quote(protocol)}; known: {', '.join(PROTOCOLS)}")
    if not command:
        raise InvalidOptionError("no program given")
    prog = str(command[-1] if command[0].startswith("python") and len(command) > 1 else command[0])
    fallback = prog.replace("\\", "/").rsplit("/", 1)[-1]
    proc = EngineProcess(tuple(command), fallback)
    deadline = time.perf_counter() * 1000 + timeout_ms
    try:
        if protocol == "usi":
            proc.send("usi")
            result = ProbeResult(fallback)
            while True:
                line = proc.read(deadline - time.perf_counter() * 1000)
                if line is None:
                    raise EngineFailure("hang", f"{fallback}: no 'usiok' within {timeout_ms / 1000:.0f} s "
                                                f"(is it a USI engine?)")
                if line.startswith("id name "):
                    result.name = line[8:].strip() or fallback
                elif line.startswith("id author "):
                    result.author = line[10:].strip()
                elif line.startswith("option "):
                    opt = parse_usi_option(line)
                    if opt is not None:
                        result.options.append(opt)
                elif line.strip() == "usiok":
                    proc.send("quit")
                    return result
        proc.send("ABOUT")
        while True:
            line = proc.read(deadline - time.perf_counter() * 1000)
            if line is None:
                raise EngineFailure("hang", f"{fallback}: no answer to ABOUT within {timeout_ms / 1000:.0f} s "
                                            f"(is it a Gomocup brain?)")
            word = line.split(" ", 1)[0].upper()
            if word in ("MESSAGE", "DEBUG", ""):
                continue
            if word in ("UNKNOWN", "ERROR"):
                proc.send("END")
                return ProbeResult(fallback, "", list(GOMOCUP_OPTIONS))
            about = dict(re.findall(r'(\w+)\s*=\s*"([^"]*)"', line))
            proc.send("END")
            return ProbeResult(about.get("name") or fallback, about.get("author", ""), list(GOMOCUP_OPTIONS))
    finally:
        proc.close(500)


# -- the Gomocup program as an engine -------------------------------------------------------------------

_XY = re.compile(r"^\s*(-?[0-9]{1,4})\s*,\s*(-?[0-9]{1,4})\s*$")
_RULES = {"freestyle": 0, "standard": 1, "exact": 1, "exactfive": 1, "renju": 4, "caro": 8}
_MATE = re.compile(r"^([+-]?)M(\d+)$", re.I)


def _int(text: str) -> int:
    """``123``, ``12K``, ``3M`` as an integer (0 when it is none)."""
    m = re.match(r"^([0-9.]+)([KMG]?)$", text.strip(), re.I)
    if not m:
        return 0
    try:
        return int(float(m.group(1)) * {"": 1, "K": 1e3, "M": 1e6, "G": 1e9}[m.group(2).upper()])
    except ValueError:
        return 0


def gomocup_score(text: str, pov: int) -> Score | None:
    """A Gomocup program's evaluation of the side to move: ``85``, ``-M7``/``+M7`` (Rapfi's mate in
    plies), or gamesuite's ``+0.85``, ``win in 3``, ``loss in 2``, ``draw``."""
    t = text.strip()
    m = _MATE.match(t)
    if m:
        n = int(m.group(2))
        return Score.mate(-n if m.group(1) == "-" else n, pov)
    w = t.split()
    if len(w) == 3 and w[0] in ("win", "loss") and w[1] == "in" and w[2].isdigit():
        n = int(w[2])
        return Score.mate(2 * n - 1 if w[0] == "win" else -2 * n, pov)
    if t == "draw":
        return Score.eval(0, pov)
    try:
        return Score.eval(float(t) * 100 if "." in t else int(t), pov)
    except ValueError:
        return None


class GomocupEngine:
    """A Gomocup program as a ``core.Engine`` (for gomoku-like games; see the module's text)."""

    external = True  # a program: warmed up by starting it, not by a search

    def __init__(self, game: Game, spec: EngineSpec | str, startup_ms: float = STARTUP_MS,
                 stop_grace_ms: float = 300.0) -> None:
        self.game = game
        self.spec = parse_engine_spec(spec, game.name) if isinstance(spec, str) else spec
        if self.spec.kind != "gomocup":
            raise InvalidOptionError(f"not a Gomocup engine spec: {self.spec.text!r}")
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
        rule = getattr(self.game, "gomocup_rule", None)
        if rule is None:
            rule = _RULES.get(str(getattr(self.game, "values", {}).get("rule", "freestyle")).lower(), 0)
        self.proc.send(f"INFO rule {int(rule)}")
        self.proc.send("INFO game_type 1")
        self.proc.send("INFO show_detail 3")  # Yixin-Board's: stream INFO PV blocks (others answer UNKNOWN)
        self.proc.send("INFO pondering 0")
        for k, v in self.spec.options:
            self.proc.send(f"INFO {k} {v}")
        self._work = {}

    def new_game(self) -> None:
        self._start()

    def _send_limits(self, limits: Limits, seat: int) -> float | None:
        """The limits as ``INFO`` lines; returns how long to wait for the move (ms), None: until stopped."""
        assert self.proc is not None
        wait: float | None = None
        if limits.movetime is not None and not limits.infinite:
            self.proc.send(f"INFO timeout_turn {max(1, limits.movetime)}")
            self.proc.send("INFO timeout_match 0")
            wait = limits.movetime + 5000.0
        elif limits.time_left is not None and not limits.infinite:
            left = limits.time_left[seat] if seat < len(limits.time_left) else limits.time_left[0]
            per = max(1, left // 20 + (limits.byoyomi or 0))
            self.proc.send(f"INFO timeout_turn {per}")
            self.proc.send(f"INFO time_left {left}")
            wait = per + 5000.0
        elif not limits.infinite and (limits.nodes is not None or limits.depth is not None):
            # a work limit alone: also a time cap, for programs that do not read MAX_NODE / MAX_DEPTH
            self.proc.send(f"INFO timeout_turn {WORK_CAP_MS}")
            self.proc.send("INFO timeout_match 0")
            wait = WORK_CAP_MS + 5000.0
        else:
            self.proc.send(f"INFO timeout_turn {FOREVER_MS}")
            self.proc.send("INFO timeout_match 0")
        for key, value in (("MAX_NODE", None if limits.infinite else limits.nodes),
                           ("MAX_DEPTH", None if limits.infinite else limits.depth)):
            v = int(value or 0)
            if v or self._work.get(key):
                self.proc.send(f"INFO {key} {v}")
                self._work[key] = v
        return wait

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
        wait = self._send_limits(limits, me)
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
            if deadline is not None and now > deadline and stopped_at is None:
                self.close(kill=True)
                raise EngineFailure("hang", f"no move within {wait / 1000:.1f} s")  # type: ignore[operator]
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
            mt = _XY.match(line)
            if not mt:
                continue
            try:
                move = xy_to_move(state, int(mt.group(1)), int(mt.group(2)), self.dims)
            except GameSuiteError as e:
                raise EngineFailure("illegal", f"move {line.strip()!r}: {e}") from None
            if move not in legal:
                raise EngineFailure("illegal", f"move {line.strip()!r} is not legal here")
            return self._result(state, legal, lines, t0, move)

    def _pv(self, state: State, words: list[str]) -> tuple[int, ...]:
        s = state.copy()
        out = []
        for w in words:
            mt = _XY.match(w)
            try:
                if mt:
                    m = xy_to_move(s, int(mt.group(1)), int(mt.group(2)), self.dims)
                else:
                    m = s.parse_move(w.lower())
            except GameSuiteError:
                break
            if not s.is_legal(m):
                break
            s.play(m)
            out.append(m)
        return tuple(out)

    def _block_info(self, block: dict[str, str], state: State, sid: int, pov: int, t0: float,
                    last_nodes: list[int]) -> SearchInfo | None:
        """A Yixin-Board ``INFO PV`` block (``DEPTH``, ``SELDEPTH``, ``NODES``/``TOTALNODES``, ``EVAL``,
        ``BESTLINE`` in ``x,y``) as a report."""
        score = gomocup_score(block.get("EVAL", ""), pov)
        pv = self._pv(state, block.get("BESTLINE", "").split())
        if score is None and not pv:
            return None
        nodes = max(_int(block.get("TOTALNODES", "") or block.get("NODES", "")), last_nodes[0])
        last_nodes[0] = nodes
        ms = int((time.perf_counter() - t0) * 1000)
        depth = _int(block.get("DEPTH", "")) or len(pv)
        return SearchInfo(sid, depth, max(depth, _int(block.get("SELDEPTH", ""))),
                          score if score is not None else Score.eval(0, pov), pv, nodes,
                          _int(block.get("SPEED", "")) or (nodes * 1000 // max(ms, 1)), ms,
                          multipv=_int(block.get("PV", "0")) + 1)

    def _message_info(self, words: list[str], state: State, sid: int, pov: int, t0: float,
                      last_nodes: list[int]) -> SearchInfo | None:
        """gamesuite's ``MESSAGE depth D/S score X nodes N nps P time T pv x,y ...`` as a report."""
        if not words or words[0].lower() != "depth" or "pv" not in words or "score" not in words:
            return None
        i_score, i_pv = words.index("score"), words.index("pv")
        ends = [i for i, w in enumerate(words) if w in ("nodes", "nps", "time", "pv") and i > i_score]
        score = gomocup_score(" ".join(words[i_score + 1:min(ends) if ends else len(words)]), pov)
        d = words[1].split("/")
        vals = {w: words[i + 1] for i, w in enumerate(words[:-1]) if w in ("nodes", "nps", "time")}
        nodes = max(_int(vals.get("nodes", "0")), last_nodes[0])
        last_nodes[0] = nodes
        depth = _int(d[0])
        return SearchInfo(sid, depth, max(depth, _int(d[1]) if len(d) > 1 else 0),
                          score if score is not None else Score.eval(0, pov), self._pv(state, words[i_pv + 1:]),
                          nodes, _int(vals.get("nps", "0")),
                          max(_int(vals.get("time", "0")), int((time.perf_counter() - t0) * 1000)))

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


class WindowUsiEngine(UsiEngine):
    """``UsiEngine`` that also asks for the number of lines analysed (``setoption name MultiPV``)."""

    external = True  # a program: warmed up by starting it, not by a search

    def __init__(self, game: Game, spec: EngineSpec | str, **kw: Any) -> None:
        super().__init__(game, spec, **kw)
        self._multipv: tuple[object, int] | None = None  # (the process told, the lines asked for)

    def search(self, state: State, limits: Limits, stop: np.ndarray | None = None,
               on_info: InfoCallback | None = None) -> SearchResult:
        if not self._started or self.player.proc is None or self.player.proc.proc.poll() is not None:
            self.new_game()  # (a program that exited is started again)
        proc = self.player.proc
        assert proc is not None
        if self._multipv != (proc, limits.multipv) and (limits.multipv > 1 or self._multipv is not None):
            proc.send(f"setoption name MultiPV value {limits.multipv}")
            self._multipv = (proc, limits.multipv)
        return super().search(state, limits, stop, on_info)


def spec_limits(spec: str) -> Limits | None:
    """The engine's own limits in a spec (``mtdf,@depth=8``: ``Limits(depth=8)``), or None: none given
    (or a spec that does not parse: the engine's factory reports that)."""
    try:
        parsed = parse_engine_spec(spec) if spec.strip() else None
    except GameSuiteError:
        return None
    if parsed is None or not parsed.limits:
        return None
    d = dict(parsed.limits)
    kw: dict[str, Any] = {k: int(d[k]) for k in ("depth", "nodes", "movetime") if k in d}
    if "clock" in d:  # a clock of its own is a time per move in the window: its base, shared out
        from ..play.clock import TimeControl

        tc = TimeControl.parse(d["clock"])
        kw["movetime"] = max(10, tc.base // 30 + (tc.increment or tc.byoyomi or 0))
    return Limits(**kw)


def open_window_engine(game: Game, spec: str) -> Engine:
    """The engine ``spec`` names for ``game``: ours (``make_engine``), a USI or a Gomocup program
    (``close()`` them when done). ``@`` limits in the spec are left to the caller (``spec_limits``)."""
    parsed = parse_engine_spec(spec, game.name) if spec.strip() else None
    if parsed is None:
        return make_engine(game, "")
    if parsed.kind == "usi":
        return WindowUsiEngine(game, parsed)
    if parsed.kind == "gomocup":
        return GomocupEngine(game, parsed)
    if parsed.kind == "py":
        raise InvalidOptionError(f"engine spec {quote(spec)}: py: engines are for the arena")
    return make_engine(game, parsed.target)


def spec_command_text(command: list[str] | tuple[str, ...]) -> str:
    """A command line as written in a spec."""
    return shlex.join(command)


def spec_label(spec: str) -> str:
    """The short name of the engine a spec names (its ``label=``, the program's name, or the spec)."""
    try:
        return parse_engine_spec(spec).label if spec.strip() else ""
    except GameSuiteError:
        return spec
