"""The protocol loops survive anything and are ready the moment they answer (issue 21, items 2-5, 7, 9).

Scripted conversations with each protocol object (in process, quick), the review's exact
examples, and fuzzed sessions of real processes (``tests/protocol_fuzz.py``): a few here,
100 per protocol behind the ``slow`` marker.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import protocol_fuzz

from gamesuite.protocols.gomocup import Brain
from gamesuite.protocols.json import Session
from gamesuite.protocols.usi import OPTIONS, UsiSession


class Lines:
    """A thread-safe list of written lines with a wait."""

    def __init__(self):
        self.lines: list[str] = []
        self.cond = threading.Condition()

    def write(self, line: str) -> None:
        with self.cond:
            self.lines.extend(line.splitlines() or [""])
            self.cond.notify_all()

    def flush(self) -> None:
        pass

    def wait_for(self, pred, timeout: float = 60.0) -> str:
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                for ln in self.lines:
                    if pred(ln):
                        return ln
                left = deadline - time.monotonic()
                assert left > 0, f"nothing matching in {self.lines[-10:]}"
                self.cond.wait(left)


# -- USI ---------------------------------------------------------------------------------------------

@pytest.fixture
def usi():
    out = Lines()
    s = UsiSession(out.write)
    s.out = out
    yield s
    s.handle("quit")


@pytest.mark.parametrize("line", [
    "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSN\u00b2 b - 1",
    "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - " + "1" * 5000,
    "go nodes 99999999999999999999",
    "go btime 18446744073709551616 wtime 1",
    "setoption name USI_Hash value 100000",
    "setoption name USI_Hash value \u0661\u0666",
    "setoption name USI_MultiPV value 33",
    "setoption name Nope value 1",
    "\ufffd\ufffd",
])
def test_a_bad_usi_line_gets_an_error_and_the_engine_stays_ready(usi, line):
    usi.handle("usi")
    usi.handle(line)
    errors = [ln for ln in usi.out.lines if ln.startswith("info string")]
    assert errors and "error" in errors[-1] and "internal" not in errors[-1]
    assert not any(ln.startswith("bestmove") for ln in usi.out.lines)  # a refused go is not a search
    usi.handle("isready")
    assert usi.out.lines[-1] == "readyok"
    assert usi.settings["USI_Hash"] == "16" and usi.settings["USI_MultiPV"] == "1"


def test_usi_advertises_the_maxima_it_enforces(usi):
    assert "option name USI_Hash type spin default 16 min 1 max 4096" in OPTIONS
    usi.handle("setoption name USI_Hash value 4096")
    assert usi.settings["USI_Hash"] == "4096"
    usi.handle("setoption name USI_Hash value 4097")
    assert usi.settings["USI_Hash"] == "4096" and "4097" in usi.out.lines[-1]


def test_usi_takes_a_go_the_moment_it_has_answered(usi):
    """The answer race: a ``go`` sent as soon as ``bestmove`` is read is never refused as "busy"."""
    usi.handle("setoption name USI_Hash value 1")
    usi.handle("position startpos")
    refused = 0
    for _ in range(30):
        n = len(usi.out.lines)
        usi.handle("go depth 1")

        def answered(ln, n=n):
            return any(x.startswith("bestmove") or "while searching" in x for x in usi.out.lines[n:])

        usi.out.wait_for(lambda ln, answered=answered: answered(ln))
        refused += any("while searching" in x for x in usi.out.lines[n:])
    assert refused == 0


# -- JSON ------------------------------------------------------------------------------------------------

def test_json_takes_a_command_the_moment_it_has_answered():
    out = Lines()
    s = Session(out)
    s.handle_line(json.dumps({"cmd": "new", "game": "tictactoe", "engine": "solver"}))
    refused = 0
    for i in range(30):
        n = len(out.lines)
        s.handle_line(json.dumps({"cmd": "think", "depth": 1, "id": i}))
        out.wait_for(lambda ln, i=i, n=n: any(f'"id": {i}' in x and "bestmove" in x for x in out.lines[n:]))
        s.handle_line(json.dumps({"cmd": "legal", "id": f"L{i}"}))
        refused += any("busy" in x for x in out.lines[n:])
    assert refused == 0
    s.handle_line('{"cmd": "quit"}')


@pytest.mark.parametrize("line", [
    "[" * 100_000, '{"cmd": "think", "nodes": ' + "9" * 5000 + "}", '{"cmd": "think", "depth": NaN}',
    '{"cmd": "think", "nodes": 99999999999999999999}', json.dumps({"cmd": "new", "game": "tictactoe",
                                                                  "engine": "solver,hash=65536"}),
    json.dumps({"cmd": "new", "game": "tictactoe", "position": 5}),
    json.dumps({"cmd": "new", "game": "tictactoe", "engine": "mcts," + "a" * 3000}),
])
def test_a_bad_json_request_gets_a_clean_error(line):
    out = io.StringIO()
    s = Session(out)
    s.handle_line(json.dumps({"cmd": "new", "game": "tictactoe"}))
    s.handle_line(line)
    replies = [json.loads(x) for x in out.getvalue().splitlines()]
    assert replies[-1]["type"] == "error" and "internal" not in replies[-1]["error"]


# -- Gomocup ------------------------------------------------------------------------------------------------

def _brain():
    out = Lines()
    b = Brain(out, "mtdf,hash=1", warm=False)
    return b, out


def test_a_refused_turn_leaves_no_stone_and_cannot_be_taken_back():
    b, out = _brain()
    b.handle("START 9")
    b.handle("INFO timeout_turn 100")
    # their open four on the top row (field 2), four scattered stones of ours (field 1): we block one end
    for line in ("BOARD", "1,0,2", "2,0,2", "3,0,2", "4,0,2", "0,8,1", "2,8,1", "4,8,1", "6,8,1", "DONE"):
        b.handle(line)
    x, y = (int(v) for v in out.lines[-1].split(","))
    assert y == 0 and x in (0, 5)
    other = 5 if x == 0 else 0
    b.handle(f"TURN {other},0")  # their five: the game is over, there is no move to make
    assert out.lines[-1].startswith("ERROR") and "over" in out.lines[-1]
    assert other not in b.stones and len(b.stones) == 9  # the refused stone is not kept ...
    b.handle(f"TAKEBACK {other},0")
    assert out.lines[-1].startswith("ERROR")  # ... so it cannot be taken back


def test_a_board_with_the_opponents_five_is_refused_and_the_old_board_kept():
    b, out = _brain()
    b.handle("START 9")
    b.handle("INFO timeout_turn 100")
    b.handle("TURN 4,4")
    assert "," in out.lines[-1] and not out.lines[-1].startswith("ERROR")
    before = dict(b.stones)
    for line in ("BOARD", "0,0,2", "1,0,2", "2,0,2", "3,0,2", "4,0,2", "0,1,1", "1,1,1", "2,1,1", "3,1,1",
                 "DONE"):
        b.handle(line)
    assert out.lines[-1].startswith("ERROR") and "over" in out.lines[-1]
    assert b.stones == before


@pytest.mark.parametrize("line", ["START \u0661\u0665", "START " + "9" * 5000, "INFO timeout_turn 99999999999999999999",
                                  "INFO max_memory \u00b2", "TURN \u0663,4", "TURN 99999999999999999999,1",
                                  "RECTSTART 1" + "0" * 5000 + ",15"])
def test_a_bad_gomocup_line_gets_error_and_changes_nothing(line):
    b, out = _brain()
    b.handle("START 15")
    b.handle(line)
    assert out.lines[-1].startswith("ERROR") and "internal" not in out.lines[-1]
    assert b.size == 15 and not b.stones and b.timeout_turn == 5000


# -- bytes that are not UTF-8 under a strict locale (item 7) -------------------------------------------

@pytest.mark.parametrize("protocol,lines,alive", [
    ("usi", [b"usi", b"\xff\xfe bad", b"isready", b"quit"], "readyok"),
    ("gomocup", [b"\xff", b"ABOUT", b"END"], "name="),
    ("json", [b'{"cmd": "\xff"}', b'{"cmd": "legal", "id": 7}', b'{"cmd": "quit"}'], '"id": 7'),
])
def test_an_invalid_utf8_byte_does_not_kill_a_protocol(protocol, lines, alive):
    import os

    env = dict(os.environ, PYTHONIOENCODING="utf-8:strict")
    r = subprocess.run([sys.executable, "-m", "gamesuite", "engine", protocol], input=b"\n".join(lines) + b"\n",
                       capture_output=True, env=env, timeout=120)
    out = r.stdout.decode("utf-8", "replace")
    assert r.returncode == 0 and b"Traceback" not in r.stderr and alive in out, (out, r.stderr[-500:])


def test_analyse_positions_on_a_latin1_file_is_a_clean_error(tmp_path):
    p = tmp_path / "positions.txt"
    p.write_bytes("x..\n# Gérard\n".encode("latin-1"))
    r = subprocess.run([sys.executable, "-m", "gamesuite", "analyse", "tictactoe", "--positions", str(p),
                        "--depth", "1"], capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and "Traceback" not in r.stderr and len(r.stderr.strip().splitlines()) == 1


# -- fuzzed sessions of real processes ------------------------------------------------------------------

@pytest.mark.parametrize("protocol", sorted(protocol_fuzz.SESSIONS))
def test_fuzzed_sessions_survive_and_answer(protocol):
    t = protocol_fuzz.run_sessions(protocol, 2, seed=7, steps=10)
    assert t.bad() == 0, t.text(protocol)
    assert t.answers > 0 and t.garbage > 0


@pytest.mark.slow
@pytest.mark.parametrize("protocol", sorted(protocol_fuzz.SESSIONS))
def test_100_fuzzed_sessions_per_protocol(protocol):
    t = protocol_fuzz.run_sessions(protocol, 100, seed=21, steps=14)
    print(t.text(protocol))
    assert t.sessions == 100 and t.bad() == 0, t.text(protocol)
