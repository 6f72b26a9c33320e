"""``gamesuite engine json``: a JSON-lines command protocol for every game (see docs/json-protocol.md).

One JSON object per line in, one per line out. Commands: ``new`` (loads the
engine before it answers, with ``loading`` lines while it compiles), ``legal``,
``move``, ``think`` (streams ``info`` lines, then ``bestmove``), ``stop``,
``quit``. Every reply echoes the request's ``id``. Bad input gets an ``error``
reply; the server never dies of it (bytes that are not UTF-8 are replaced; JSON nested
too deep or with numbers too long is an error like any other). The session takes the
next command the moment the ``bestmove`` line is written.
"""

from __future__ import annotations

import argparse
import json as _json
import random
import sys
import threading
import time
from typing import Any, TextIO

from ..core.errors import GameSuiteError, InvalidOptionError, InvalidRecordError, ProtocolError, quote
from ..core.files import parse_json_text
from ..core.info import SearchInfo, new_stop_flag
from ..core.limits import LIMIT_MAX, Limits
from ..core.options import MAX_SEED, int_arg
from ..core.registry import Game, load_game, make_engine
from ..core.state import CHANCE, TERMINAL, State
from ._io import lines

PROTOCOL = True
COMMANDS = ("new", "legal", "move", "think", "stop", "quit")
DEFAULT_MOVETIME = 1000
#: The least time between two ``loading`` lines while an engine compiles (seconds).
LOADING_EVERY_S = 0.5


def describe(state: State) -> dict[str, Any]:
    """The position, whose turn it is, the legal moves or chance outcomes, and the result."""
    cp = state.current_player
    d: dict[str, Any] = {
        "position": state.to_text(),
        "to_move": "chance" if cp == CHANCE else "over" if cp == TERMINAL else cp,
        "legal": [state.format_move(m) for m in state.legal_moves()],
    }
    if cp == CHANCE:
        d["chance"] = [{"move": state.format_move(m), "p": p} for m, p in state.chance_outcomes()]
    if state.is_terminal():
        d["returns"] = state.returns()
        d["result"] = state.result_text()
    return d


class Session:
    """One conversation: the game, the engine, the current position and the search thread."""

    def __init__(self, out: TextIO, seed: int | None = None) -> None:
        self.out = out
        self.lock = threading.Lock()
        self.game: Game | None = None
        self.engine: Any = None
        self.state: State | None = None
        self.thread: threading.Thread | None = None
        #: set (under the output lock) as a search's ``bestmove`` (or its error) is written
        self.answered = threading.Event()
        self.stop_flag = new_stop_flag()
        self.infinite = False
        self.rng = random.Random(seed)

    # -- output --------------------------------------------------------------
    def send(self, obj: dict[str, Any], answer: bool = False) -> None:
        """Write one reply; ``answer``: it ends the running search (the session is free from now)."""
        text = _json.dumps(obj) + "\n"
        with self.lock:
            if answer:
                self.answered.set()
            self.out.write(text)
            self.out.flush()

    def error(self, message: str, rid: Any = None, answer: bool = False) -> None:
        d: dict[str, Any] = {"type": "error", "error": message}
        if rid is not None:
            d["id"] = rid
        self.send(d, answer)

    # -- input ----------------------------------------------------------------
    def handle_line(self, line: str) -> bool:
        """Handle one input line; returns False after ``quit``."""
        line = line.strip()
        if not line:
            return True
        rid = None
        try:
            try:
                req = parse_json_text(line, "the request")
            except InvalidRecordError as e:
                raise ProtocolError(f"not JSON: {quote(line)} ({e})") from None
            if not isinstance(req, dict):
                raise ProtocolError(f"a request is a JSON object, got {quote(line)}")
            rid = req.get("id")
            cmd = req.get("cmd")
            if cmd not in COMMANDS:
                raise ProtocolError(f"unknown cmd {quote(cmd)} in {quote(line)}; known: {', '.join(COMMANDS)}")
            if cmd == "quit":
                self.stop_flag[0] = 1
                self.wait()
                self.reply(rid, {"type": "bye"})
                return False
            if cmd == "stop":
                if self.busy():
                    self.stop_flag[0] = 1
                    self.wait()  # the bestmove line goes out before the next command is read
                else:
                    self.wait()
                    self.reply(rid, {"type": "idle"})
                return True
            if self.busy():
                raise ProtocolError(f"busy thinking: send stop first (got {quote(cmd)})")
            self.wait()  # a search that has answered: its thread is returning
            getattr(self, "cmd_" + cmd)(req, rid)
        except GameSuiteError as e:
            self.error(str(e), rid)
        except Exception as e:  # noqa: BLE001 - the server must survive anything
            self.error(f"internal error: {type(e).__name__}: {e}", rid)
        return True

    def reply(self, rid: Any, d: dict[str, Any], answer: bool = False) -> None:
        if rid is not None:
            d = {**d, "id": rid}
        self.send(d, answer)

    def busy(self) -> bool:
        """A search runs that has not written its ``bestmove`` yet."""
        return self.thread is not None and self.thread.is_alive() and not self.answered.is_set()

    def wait(self) -> None:
        if self.thread is not None:
            self.thread.join()
            self.thread = None

    # -- commands ----------------------------------------------------------------
    def _position(self, req: dict[str, Any]) -> State:
        """The request's ``position`` (stateless use) or the session's current one."""
        if self.game is None:
            raise ProtocolError("no game yet: send {\"cmd\": \"new\", \"game\": \"...\"} first")
        text = req.get("position")
        if text is not None:
            if not isinstance(text, str):
                raise ProtocolError(f"position must be a string, got {quote(text)}")
            self.state = self.game.state_from_text(text)
        assert self.state is not None
        return self.state

    def cmd_new(self, req: dict[str, Any], rid: Any) -> None:
        spec = req.get("game")
        if not isinstance(spec, str):
            raise ProtocolError("new needs \"game\": a game spec such as \"tictactoe\" or \"hare(players=3)\"")
        game = load_game(spec)
        engine_spec = req.get("engine", "")
        if not isinstance(engine_spec, str):
            raise ProtocolError(f"engine must be a string spec, got {quote(engine_spec)}")
        position = req.get("position")
        if position is not None and not isinstance(position, str):
            raise ProtocolError(f"position must be a string, got {quote(position)}")
        engine = make_engine(game, engine_spec)
        state = game.state_from_text(position) if position is not None else game.new_state()
        self._load(game, engine, rid)
        self.game, self.engine, self.state = game, engine, state
        self.reply(rid, {"type": "position", "game": game.spec, "engine": getattr(engine, "name", ""),
                         "players": game.num_players, **describe(state)})

    def _load(self, game: Game, engine: Any, rid: Any) -> None:
        """Load (or compile) the engine's kernels before answering ``new``, so that no search pays for
        them; while compiling, ``loading`` lines say how far it is (at most every ``LOADING_EVERY_S``)."""
        from ..warmup import prepare

        last = [time.monotonic() - LOADING_EVERY_S / 2]  # the first line after a quarter of a second

        def progress(done: int, total: int, what: str) -> None:
            now = time.monotonic()
            if now - last[0] >= LOADING_EVERY_S and (done < total or not total):
                last[0] = now
                self.reply(rid, {"type": "loading", "what": f"compiling {what}", "done": done, "total": total})

        prepare(game, engine, progress)

    def cmd_legal(self, req: dict[str, Any], rid: Any) -> None:
        self.reply(rid, {"type": "position", **describe(self._position(req))})

    def cmd_move(self, req: dict[str, Any], rid: Any) -> None:
        state = self._position(req).copy()
        text = req.get("move")
        if not isinstance(text, str):
            raise ProtocolError(f"move needs \"move\": a move text, got {quote(text)}")
        draw = req.get("draw", "auto")
        if draw not in ("auto", "manual"):
            raise ProtocolError(f"draw must be \"auto\" or \"manual\", got {quote(draw)}")
        events = []
        move = state.parse_move(text)
        event = _event(state, move)
        state.play_checked(move)
        events.append(event)
        while draw == "auto" and state.current_player == CHANCE:
            outcomes = state.chance_outcomes()
            m = self.rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0]
            events.append(_event(state, m))
            state.play(m)
        self.state = state
        self.reply(rid, {"type": "position", "events": events, **describe(state)})

    def cmd_think(self, req: dict[str, Any], rid: Any) -> None:
        state = self._position(req).copy()
        if state.is_terminal():
            raise ProtocolError("the game is over: nothing to think about")
        if state.current_player == CHANCE:
            raise ProtocolError("a chance outcome comes next (move with a card or draw=auto), not a player's move")
        limits = _limits(req)
        play = bool(req.get("play", False))
        self.stop_flag = new_stop_flag()
        self.answered = answered = threading.Event()
        self.infinite = limits.infinite
        engine = self.engine

        def info(i: SearchInfo) -> None:
            d = i.to_json(state.format_move)
            d["pv"] = state.format_line(i.pv)
            self.reply(rid, {"type": "info", **d})

        def work() -> None:
            try:
                result = engine.search(state, limits, self.stop_flag, info)
                best = result.best_move
                d: dict[str, Any] = {
                    "type": "bestmove",
                    "bestmove": state.format_move(best) if best is not None else None,
                    "score": result.score.to_json(),
                    "pv": state.format_line(result.pv),
                    "depth": result.depth,
                    "nodes": result.nodes,
                    "time_ms": result.time_ms,
                }
                if play and best is not None and self.state is not None:
                    after = self.state.copy()
                    after.play(best)
                    self.state = after
                    d["position"] = after.to_text()
                self.reply(rid, d, answer=True)
            except Exception as e:  # noqa: BLE001
                if not answered.is_set():
                    self.error(f"internal error while thinking: {type(e).__name__}: {e}", rid, answer=True)

        self.thread = threading.Thread(target=work, name="json-think", daemon=True)
        self.thread.start()
        if req.get("wait", False):
            self.wait()  # a synchronous think: the next command is read after the bestmove line


def _event(state: State, move: int) -> dict[str, Any]:
    """What happens when ``move`` is played in ``state`` (before it is played): who, the move, a sentence."""
    cp = state.current_player
    d: dict[str, Any] = {"player": "chance" if cp == CHANCE else cp, "move": state.format_move(move)}
    fn = getattr(state, "describe_move", None)
    if callable(fn):
        try:
            d["text"] = str(fn(move))
        except (ValueError, KeyError, IndexError):
            pass
    return d


def _limits(req: dict[str, Any]) -> Limits:
    kw: dict[str, Any] = {}
    for name in ("depth", "nodes", "movetime"):
        v = req.get(name)
        if v is not None:
            if not isinstance(v, int) or isinstance(v, bool) or not 0 < v <= LIMIT_MAX[name]:
                raise InvalidOptionError(f"{name} must be an integer in 1..{LIMIT_MAX[name]}, got {quote(v)}")
            kw[name] = v
    infinite = req.get("infinite", False)
    if not isinstance(infinite, bool):
        raise InvalidOptionError(f"infinite must be true or false, got {quote(infinite)}")
    if not kw and not infinite:
        kw["movetime"] = DEFAULT_MOVETIME
    return Limits(infinite=infinite, **kw)


def serve(inp: TextIO, out: TextIO, seed: int | None = None) -> int:
    """Run a session over ``inp`` and ``out`` until ``quit`` or the end of input."""
    session = Session(out, seed)
    for line in lines(inp):
        if not session.handle_line(line):
            return 0
    if session.busy() and session.infinite:
        session.stop_flag[0] = 1  # nobody is left to send stop
    session.wait()  # a search still running ends on its own limits
    return 0


def main(argv: list[str], stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    p = argparse.ArgumentParser(prog="gamesuite engine json", description=__doc__)
    p.add_argument("--seed", type=int_arg(0, MAX_SEED),
                   help="seed of the random hare card draws (reproducible sessions)")
    args = p.parse_args(argv)
    return serve(stdin or sys.stdin, stdout or sys.stdout, args.seed)
