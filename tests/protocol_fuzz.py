"""Fuzzed sessions of the three engine protocols (USI, Gomocup, JSON lines), each a real process.

A session starts ``gamesuite engine PROTOCOL`` under ``PYTHONIOENCODING=utf-8:strict``,
plays a seeded random conversation of valid commands (games, searches) with garbage
mixed in (random bytes and invalid UTF-8, huge and non-ASCII numbers, mutated
positions, bad options, deep JSON, overlong lines) and checks after every line that
the engine still answers. It counts, per session:

- ``death``: the process ended before it was told to, or with a status other than 0;
- ``traceback``: a Python traceback on standard error;
- ``internal``: a reply saying "internal error" (an exception the code did not expect);
- ``refused``: a command sent the moment a search had answered, refused as "busy";
- ``silent``: a command that got no reply within the time allowed (a hang);
- ``illegal``: a move answered that the rules do not allow.

``run_sessions(protocol, n, seed)`` returns the totals; ``tests/test_robust_protocols.py``
runs a few sessions (and 100 per protocol behind the ``slow`` marker), and
``tests/benchmarks/fuzz_protocols.py`` prints the figures.
"""

from __future__ import annotations

import json
import os
import queue
import random
import subprocess
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass, field

from gamesuite.core.registry import load_game

REPLY_TIMEOUT_S = 60.0  # generous: a loaded machine, the first search compiles or loads kernels
TRICKY = ["²", "١", "٣", "१", "１２", "½", "Ⅻ", "\u00a0", "\ufeff", "é", "王", "\u202e"]
HUGE = ["99999999999999999999", "18446744073709551616", "9" * 5000, "-1", "1e309", "nan", "0x10", "1_000"]


def garbage_bytes(rng: random.Random) -> bytes:
    """One line of garbage as bytes (never a line break inside)."""
    kind = rng.randrange(6)
    if kind == 0:
        data = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 40)))
    elif kind == 1:
        data = b"\xff\xfe" + "caf\u00e9".encode("latin-1") + b"\x80\xc3"
    elif kind == 2:
        data = "".join(rng.choice(TRICKY) for _ in range(rng.randrange(1, 6))).encode("utf-8")
    elif kind == 3:
        data = rng.choice(HUGE).encode()
    elif kind == 4:
        data = b"x" * rng.choice([1000, 100_000])
    else:
        data = bytes(rng.choice(b"\t \x00\x1b\x7f") for _ in range(rng.randrange(1, 10)))
    return data.replace(b"\n", b" ").replace(b"\r", b" ")


@dataclass
class Tally:
    sessions: int = 0
    lines: int = 0
    garbage: int = 0
    answers: int = 0
    counts: Counter = field(default_factory=Counter)

    def add(self, other: Tally) -> None:
        self.sessions += other.sessions
        self.lines += other.lines
        self.garbage += other.garbage
        self.answers += other.answers
        self.counts.update(other.counts)

    def bad(self) -> int:
        return sum(self.counts[k] for k in ("death", "traceback", "internal", "refused", "silent", "illegal"))

    def text(self, protocol: str) -> str:
        c = self.counts
        return (f"{protocol}: {self.sessions} sessions, {self.lines} lines ({self.garbage} garbage), "
                f"{self.answers} search answers: {c['death']} deaths, {c['traceback']} tracebacks, "
                f"{c['internal']} internal errors, {c['refused']} refused after an answer, "
                f"{c['silent']} unanswered, {c['illegal']} illegal moves")


class Process:
    """A protocol process with a reader thread; lines in as bytes, replies out as text."""

    def __init__(self, protocol: str, args: tuple[str, ...] = ()) -> None:
        env = dict(os.environ, PYTHONIOENCODING="utf-8:strict", PYTHONUNBUFFERED="1")
        self.proc = subprocess.Popen([sys.executable, "-m", "gamesuite", "engine", protocol, *args],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     env=env)
        self.replies: queue.Queue[str | None] = queue.Queue()
        self.stderr = b""
        self.log: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._read_err, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for raw in self.proc.stdout:
            self.replies.put(raw.decode("utf-8", "replace").rstrip("\r\n"))
        self.replies.put(None)

    def _read_err(self) -> None:
        assert self.proc.stderr is not None
        self.stderr = self.proc.stderr.read()

    def send(self, data: bytes | str) -> bool:
        """Write one line; False when the process is gone."""
        if isinstance(data, str):
            data = data.encode("utf-8")
        self.log.append(">" + data[:200].decode("utf-8", "replace"))
        try:
            assert self.proc.stdin is not None
            self.proc.stdin.write(data + b"\n")
            self.proc.stdin.flush()
            return True
        except (BrokenPipeError, OSError):
            return False

    def read(self, timeout: float = REPLY_TIMEOUT_S) -> str | None:
        """The next reply, ``None`` at the end of output; raises ``queue.Empty`` after ``timeout``."""
        line = self.replies.get(timeout=timeout)
        if line is not None:
            self.log.append("<" + line[:200])
        return line

    def close(self, quit_line: str | None) -> int | None:
        if quit_line is not None:
            self.send(quit_line)
        try:
            assert self.proc.stdin is not None
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            return self.proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            return None


class Dead(Exception):
    """The process ended (or stopped answering) in the middle of a session."""


# -- USI ---------------------------------------------------------------------------------------------

def _usi_game_moves(rng: random.Random, variant: str) -> tuple[str, list[str], object]:
    game = load_game(f"shogi(variant={variant})")
    s = game.new_state()
    moves = []
    for _ in range(rng.randrange(0, 30)):
        if s.is_terminal():
            break
        m = rng.choice(s.legal_moves())
        moves.append(s.format_move(m))
        s.play(m)
    return "position startpos" + (" moves " + " ".join(moves) if moves else ""), moves, s


def _usi_garbage(rng: random.Random) -> bytes:
    kind = rng.randrange(8)
    if kind == 0:
        return garbage_bytes(rng)
    if kind == 1:
        return f"setoption name {rng.choice(['USI_Hash', 'USI_MultiPV', 'Variant', 'Nope'])} value " \
               f"{rng.choice(HUGE + TRICKY + ['0', '100000', 'mini', 'flase'])}".encode()
    if kind == 2:
        return f"go {rng.choice(['nodes', 'depth', 'movetime', 'btime', 'byoyomi', 'mate'])} " \
               f"{rng.choice(HUGE + TRICKY)}".encode()
    if kind == 3:
        sfen = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
        i = rng.randrange(len(sfen))
        return ("position sfen " + sfen[:i] + rng.choice(TRICKY + HUGE) + sfen[i + 1:]).encode()
    if kind == 4:
        return b"position startpos moves 7g7f 7g7f"
    if kind == 5:
        return b"ponderhit btime x wtime 1"
    if kind == 6:
        return "position " + " ".join(rng.choice(["sfen", "startpos", "moves", "7g7f", "P*5e", "+", "b"])
                                      for _ in range(rng.randrange(1, 12)))
    return b"go " + b" ".join(rng.choice([b"ponder", b"infinite", b"nodes", b"1", b"mate"])
                              for _ in range(rng.randrange(1, 5)))


def usi_session(seed: int, steps: int = 12) -> Tally:
    rng = random.Random(seed)
    t = Tally(sessions=1)
    p = Process("usi")
    variant = rng.choice(["standard", "mini"])
    state = None

    def until(pred, what: str) -> list[str]:
        got = []
        while True:
            try:
                line = p.read()
            except queue.Empty:
                t.counts["silent"] += 1
                raise Dead(f"no {what}") from None
            if line is None:
                raise Dead(f"ended waiting for {what}")
            got.append(line)
            if "internal error" in line:
                t.counts["internal"] += 1
            if pred(line):
                return got

    def ready() -> None:
        t.lines += 1
        if not p.send("isready"):
            raise Dead("stdin closed")
        until(lambda ln: ln == "readyok", "readyok")

    try:
        for cmd in ("usi", "setoption name USI_Hash value 1", f"setoption name Variant value {variant}"):
            t.lines += 1
            p.send(cmd)
        ready()
        for _ in range(steps):
            r = rng.random()
            if r < 0.45:  # garbage, then the engine must still be ready
                t.garbage += 1
                t.lines += 2
                if not p.send(_usi_garbage(rng)):
                    raise Dead("stdin closed")
                p.send("stop")  # (garbage such as "go infinite" may have started a search)
                ready()
            elif r < 0.85:  # a search: exactly one bestmove, then a command at once must be taken
                pos, _, state = _usi_game_moves(rng, variant)
                limit = rng.choice(["depth 1", "depth 2", "nodes 300", "movetime 30"])
                t.lines += 2
                p.send(pos)
                p.send(f"go {limit}")
                got = until(lambda ln: ln.startswith("bestmove"), "bestmove")
                t.answers += 1
                best = got[-1].split()[1]
                if best not in ("resign", "win") and state is not None:
                    try:
                        state.play_text(best)
                    except ValueError:
                        t.counts["illegal"] += 1
                t.lines += 1
                p.send("go depth 1")  # at once (same position): must not be "go while searching"
                got = until(lambda ln: ln.startswith("bestmove") or "while searching" in ln, "an answer")
                if "while searching" in got[-1]:
                    t.counts["refused"] += 1  # (a client that does not retry would wait for ever)
                else:
                    t.answers += 1
            else:  # go mate, then isready at once
                pos, _, _ = _usi_game_moves(rng, variant)
                t.lines += 2
                p.send(pos)
                p.send("go mate 50")
                until(lambda ln: ln.startswith("checkmate"), "checkmate")
                t.answers += 1
                ready()
    except Dead:
        pass
    rc = p.close("quit")
    _finish(t, p, rc)
    return t


# -- Gomocup -------------------------------------------------------------------------------------------

def _gomocup_garbage(rng: random.Random, size: int) -> bytes:
    kind = rng.randrange(7)
    if kind == 0:
        return garbage_bytes(rng)
    if kind == 1:
        return f"TURN {rng.choice(HUGE + TRICKY + ['-1', str(size)])},{rng.randrange(size)}".encode()
    if kind == 2:
        return f"INFO {rng.choice(['timeout_turn', 'max_memory', 'rule', 'time_left'])} " \
               f"{rng.choice(HUGE + TRICKY)}".encode()
    if kind == 3:
        return f"START {rng.choice(HUGE + TRICKY + ['4', '27'])}".encode()
    if kind == 4:
        return f"TAKEBACK {rng.randrange(-2, size + 2)},{rng.randrange(-2, size + 2)}".encode()
    if kind == 5:
        return f"RECTSTART {rng.choice(HUGE)},{rng.choice(HUGE)}".encode()
    return rng.choice([b"BEGIN", b"DONE", b"RESTART", b"turn", b"END_", b"INFO"])


def gomocup_session(seed: int, steps: int = 12) -> Tally:
    rng = random.Random(seed)
    t = Tally(sessions=1)
    p = Process("gomocup")
    size = rng.choice([9, 12, 15])
    game = load_game(f"gomoku(size={size})")
    board: dict[int, int] = {}  # cell -> 1 the brain's, 2 ours

    def reply(what: str) -> str:
        """The next reply that is not a MESSAGE/DEBUG line."""
        while True:
            try:
                line = p.read()
            except queue.Empty:
                t.counts["silent"] += 1
                raise Dead(f"no {what}") from None
            if line is None:
                raise Dead(f"ended waiting for {what}")
            if "internal error" in line:
                t.counts["internal"] += 1
            if not line.startswith(("MESSAGE", "DEBUG")):
                return line

    def sync() -> None:
        """ABOUT answers ``name=...`` (a garbage line may have left the brain in BOARD mode: then the
        first ABOUT is refused as a board line and ends that mode)."""
        for _ in range(3):
            t.lines += 1
            if not p.send("ABOUT"):
                raise Dead("stdin closed")
            while True:
                line = reply("ABOUT")
                if line.startswith("name="):
                    return
                if line.startswith("ERROR") and "BOARD" in line:
                    break
        raise Dead("ABOUT")

    def state_text() -> str:
        theirs = [c for c, v in board.items() if v == 2]
        mine = [c for c, v in board.items() if v == 1]
        cells = ["."] * (size * size)
        for c in theirs:
            cells[c] = "x" if len(theirs) > len(mine) else "o"
        for c in mine:
            cells[c] = "o" if len(theirs) > len(mine) else "x"
        return "/".join("".join(cells[r * size:(r + 1) * size]) for r in range(size))

    def check_move(line: str, before: dict[int, int]) -> None:
        try:
            x, y = (int(v) for v in line.split(","))
            cell = y * size + x
        except ValueError:
            return
        if not (0 <= x < size and 0 <= y < size) or cell in before:
            t.counts["illegal"] += 1
        else:
            board[cell] = 1

    try:
        for cmd in ("INFO timeout_turn 150", "INFO max_memory 20000000", f"START {size}"):
            t.lines += 1
            p.send(cmd)
        if reply("OK") != "OK":
            raise Dead("START")
        sync()
        for _ in range(steps):
            r = rng.random()
            if r < 0.45:
                t.garbage += 1
                t.lines += 1
                junk = _gomocup_garbage(rng, size)
                if not p.send(junk):
                    raise Dead("stdin closed")
                sync()
                if junk.startswith((b"RESTART", b"BEGIN", b"TAKEBACK", b"START")):
                    # a line that may be valid and change the brain's board: start both afresh, or a
                    # legal move on a cell the brain no longer has would be counted as illegal
                    board.clear()
                    t.lines += 1
                    p.send("RESTART")
                    while reply("OK") != "OK":
                        pass
            elif r < 0.75:  # our move
                try:
                    s = game.state_from_text(state_text())
                except ValueError:  # a five on the board (the brain won): a new game
                    s = None
                if s is None or s.is_terminal() or len(board) > size * size - 4:
                    board.clear()
                    t.lines += 1
                    p.send("RESTART")
                    reply("OK")
                    continue
                cell = rng.choice([m for m in s.legal_moves() if m not in board])
                before = dict(board)
                board[cell] = 2
                t.lines += 1
                p.send(f"TURN {cell % size},{cell // size}")
                line = reply("a move")
                t.answers += 1
                if line.startswith("ERROR"):
                    board.pop(cell)
                else:
                    check_move(line, {**before, cell: 2})
                sync()
            else:  # a BOARD of a random game
                board.clear()
                s = game.new_state()
                for _ in range(rng.randrange(0, 12)):
                    if s.is_terminal():
                        break
                    s.play(rng.choice(s.legal_moves()))
                k = len(s.history)  # the brain moves next: the last stone is the opponent's (field 2)
                lines = ["BOARD"]
                for i, m in enumerate(s.history):
                    who = 2 if (k - i) % 2 == 1 else 1
                    board[m] = who
                    lines.append(f"{m % size},{m // size},{who}")
                lines.append("DONE")
                for ln in lines:
                    t.lines += 1
                    p.send(ln)
                line = reply("a move")
                t.answers += 1
                if not line.startswith("ERROR"):
                    check_move(line, dict(board))
                else:  # a refused BOARD keeps the brain's previous board: start both afresh
                    board.clear()
                    t.lines += 1
                    p.send("RESTART")
                    reply("OK")
                sync()
    except Dead:
        pass
    rc = p.close("END")
    _finish(t, p, rc)
    return t


# -- JSON ---------------------------------------------------------------------------------------------

def _json_garbage(rng: random.Random) -> bytes:
    kind = rng.randrange(8)
    if kind == 0:
        return garbage_bytes(rng)
    if kind == 1:
        return b"[" * rng.choice([100, 100_000])
    if kind == 2:
        return ('{"cmd": "think", "nodes": ' + "9" * rng.choice([20, 5000]) + "}").encode()
    if kind == 3:
        return json.dumps({"cmd": "new", "game": rng.choice(["gomoku(size=" + rng.choice(HUGE) + ")",
                                                            "tictactoe", "nope"]),
                           "engine": rng.choice(["x" * 300, "mcts,memory=1e999", "solver,hash=abc", ""])}).encode()
    if kind == 4:
        return json.dumps({"cmd": "move", "move": rng.choice(TRICKY + HUGE)}).encode()
    if kind == 5:
        return json.dumps({"cmd": rng.choice(["legal", "think", "move"]),
                           "position": rng.choice(TRICKY + HUGE + [None, 5, []])}).encode()
    if kind == 6:
        return b'{"cmd": "think", "depth": NaN, "movetime": Infinity}'
    return json.dumps({"cmd": "think", rng.choice(["depth", "nodes", "movetime"]):
                       rng.choice([0, -1, True, 1.5, "1", 10**30])}).encode()


def json_session(seed: int, steps: int = 12) -> Tally:
    rng = random.Random(seed)
    t = Tally(sessions=1)
    p = Process("json")
    rid = 0
    spec = rng.choice(["tictactoe", "gomoku(size=9)", "hare", "shogi(variant=mini)"])
    game = load_game(spec)
    engine = {"tictactoe": "solver", "gomoku(size=9)": "mtdf,hash=1", "hare": "maxn",
              "shogi(variant=mini)": "alphabeta,hash=1"}[spec]

    def until_id(want: int, what: str) -> list[dict]:
        got = []
        while True:
            try:
                line = p.read()
            except queue.Empty:
                t.counts["silent"] += 1
                raise Dead(f"no {what}") from None
            if line is None:
                raise Dead(f"ended waiting for {what}")
            try:
                d = json.loads(line)
            except ValueError:
                t.counts["internal"] += 1
                continue
            if "internal error" in str(d.get("error", "")):
                t.counts["internal"] += 1
            got.append(d)
            if d.get("id") == want and d.get("type") != "info":
                return got

    def request(d: dict) -> dict:
        nonlocal rid
        rid += 1
        t.lines += 1
        if not p.send(json.dumps({**d, "id": rid})):
            raise Dead("stdin closed")
        return until_id(rid, d.get("cmd", "?"))[-1]

    try:
        request({"cmd": "new", "game": spec, "engine": engine})
        for _ in range(steps):
            r = rng.random()
            if r < 0.45:
                t.garbage += 1
                t.lines += 2
                if not p.send(_json_garbage(rng)):
                    raise Dead("stdin closed")
                p.send(json.dumps({"cmd": "stop"}))  # (garbage may be a valid think)
                request({"cmd": "legal"})
            elif r < 0.85:
                s = game.new_state()
                for _ in range(rng.randrange(0, 8)):
                    if s.is_terminal():
                        break
                    if s.is_chance_node():
                        s.play(rng.choice([m for m, _ in s.chance_outcomes()]))
                    else:
                        s.play(rng.choice(s.legal_moves()))
                if s.is_terminal() or s.is_chance_node():
                    continue
                limit = rng.choice([{"depth": 1}, {"depth": 2}, {"nodes": 300}, {"movetime": 30}])
                d = request({"cmd": "think", "position": s.to_text(), **limit})
                if d.get("type") == "bestmove":
                    t.answers += 1
                    if d.get("bestmove") is not None:
                        try:
                            s.play_text(d["bestmove"])
                        except ValueError:
                            t.counts["illegal"] += 1
                d = request({"cmd": "legal"})  # at once: must not be "busy"
                if d.get("type") == "error" and "busy" in d.get("error", ""):
                    t.counts["refused"] += 1
            else:  # an infinite search, then stop
                rid += 1
                t.lines += 2
                p.send(json.dumps({"cmd": "think", "infinite": True, "id": rid}))
                time.sleep(0.05)
                p.send(json.dumps({"cmd": "stop", "id": rid + 1000}))
                until_id(rid, "bestmove")
                t.answers += 1
    except Dead:
        pass
    rc = p.close(json.dumps({"cmd": "quit"}))
    _finish(t, p, rc)
    return t


def _finish(t: Tally, p: Process, rc: int | None) -> None:
    if rc != 0:
        t.counts["death"] += 1
    time.sleep(0.05)
    if b"Traceback" in p.stderr:
        t.counts["traceback"] += 1
    if t.bad() and os.environ.get("FUZZ_VERBOSE"):
        print("\n".join(p.log[-30:]), "\n", p.stderr.decode("utf-8", "replace")[-2000:], file=sys.stderr)


SESSIONS = {"usi": usi_session, "gomocup": gomocup_session, "json": json_session}


def run_sessions(protocol: str, n: int, seed: int = 0, steps: int = 12) -> Tally:
    total = Tally()
    for i in range(n):
        total.add(SESSIONS[protocol](seed * 100_003 + i, steps))
    return total
