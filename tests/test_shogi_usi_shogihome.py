"""The USI engine under ShogiHome's conversations.

ShogiHome (the Electron shogi GUI) cannot run here, so these tests replay the exact command
sequences it sends (read from its public source: engine registration, a game with and without
pondering, "early ponder", analysis, mate search, consecutive games) and check that every reply has
the shape its parser needs: ``option`` lines split on single spaces as ``name N type T (key value)*``,
``info`` lines whose ``pv``/``string`` take the rest of the line and whose ``score mate`` is signed
for the side to move (``mate 0`` meaning "the side to move mates"), one ``bestmove M [ponder P]``
per ``go``, ``checkmate <moves>|nomate|timeout`` per ``go mate``.
"""

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from gamesuite.core import load_game
from gamesuite.core.info import SearchInfo
from gamesuite.core.score import Score
from gamesuite.protocols.usi import OPTIONS, UsiSession, info_line, usi_score

START_SFEN = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
MATE_IN_1 = "4k4/9/4P4/9/9/9/9/9/4K4 b G 1"  # G*5b
MATE_IN_9 = "6g1k/5G2p/7P1/9/9/9/9/9/K8 b 2SR 1"
OPTION_KEYS = {"check": {"default"}, "spin": {"default", "min", "max"}, "combo": {"default", "var"},
               "string": {"default"}, "filename": {"default"}, "button": set()}
INFO_NUMBERS = ("depth", "seldepth", "time", "nodes", "multipv", "hashfull", "nps")


class Conversation:
    """A session driven line by line, as ShogiHome's EngineProcess drives the engine's stdin."""

    def __init__(self):
        self.lines = []
        self.cond = threading.Condition()
        self.session = UsiSession(self._write)

    def _write(self, line):
        assert "\n" not in line and line == line.strip(), repr(line)
        with self.cond:
            self.lines.append(line)
            self.cond.notify_all()

    def send(self, *lines):
        for ln in lines:
            self.session.handle(ln)

    def count(self, prefix):
        with self.cond:
            return sum(ln.startswith(prefix) for ln in self.lines)

    def wait_for(self, prefix, count=1, timeout=60):
        deadline = time.monotonic() + timeout
        with self.cond:
            while sum(ln.startswith(prefix) for ln in self.lines) < count:
                left = deadline - time.monotonic()
                assert left > 0, f"no {prefix!r} in {self.lines[-10:]}"
                self.cond.wait(left)
            return [ln for ln in self.lines if ln.startswith(prefix)]

    def settle(self):
        """Wait until the search thread is done, so that a late extra reply would be seen."""
        worker = self.session._worker
        if worker is not None:
            worker.join(60)
            assert not worker.is_alive()


@pytest.fixture
def gui():
    c = Conversation()
    yield c
    c.send("quit")


def parse_option(line):
    """An ``option`` line the way ShogiHome reads it (single spaces; name and values without spaces)."""
    assert line.startswith("option ")
    args = line[len("option "):].split(" ")
    assert len(args) >= 4 and args[0] == "name" and args[2] == "type", line
    name, kind = args[1], args[3]
    assert kind in OPTION_KEYS, line
    rest = args[4:]
    assert len(rest) % 2 == 0, f"unpaired key/value in {line!r}"
    opt = {"name": name, "type": kind, "vars": []}
    for key, value in zip(rest[::2], rest[1::2]):
        assert key in OPTION_KEYS[kind], f"{key!r} is not read for a {kind} option: {line!r}"
        if key == "var":
            opt["vars"].append(value)
        elif kind == "spin":
            opt[key] = int(value)  # ShogiHome: Number(value); it must be an integer
        else:
            opt[key] = value
    return opt


def parse_info(line, state):
    """An ``info`` line the way ShogiHome reads it, checking that each value is what it expects."""
    assert line.startswith("info ")
    words = line[len("info "):].split(" ")
    out, i = {}, 0
    while i < len(words):
        w = words[i]
        if w in INFO_NUMBERS:
            out[w] = int(words[i + 1])
            assert out[w] >= 0, line
            i += 2
        elif w == "score":
            kind, value = words[i + 1], words[i + 2]
            assert kind in ("cp", "mate"), line
            if kind == "cp":
                out["cp"] = int(value)
            else:
                assert value not in ("0", "+0", "+", "-"), f"ambiguous mate score in {line!r}"
                out["mate"] = int(value)
                assert out["mate"] != 0 or value == "-0", line
            i += 3
        elif w in ("lowerbound", "upperbound"):
            out[w] = True
            i += 1
        elif w == "pv":
            out["pv"] = words[i + 1:]
            assert out["pv"] and all(out["pv"]), f"empty pv in {line!r}"
            s = state.copy()
            for m in out["pv"]:
                s.play_text(m)  # ShogiHome parses the PV as moves from the position of the search
            break
        elif w == "string":
            out["string"] = " ".join(words[i + 1:])
            break
        else:
            raise AssertionError(f"word {w!r} not understood by ShogiHome in {line!r}")
    return out


def check_bestmove(line, state):
    """``bestmove M`` or ``bestmove M ponder P`` with M legal (or resign/win) and P legal after M."""
    words = line.split(" ")
    assert words[0] == "bestmove" and len(words) in (2, 4), line
    if words[1] in ("resign", "win"):
        assert len(words) == 2, line
        return
    after = state.copy()
    after.play_text(words[1])
    if len(words) == 4:
        assert words[2] == "ponder", line
        after.copy().play_text(words[3])


def position_state(command):
    return load_game("shogi").state_from_text(command)


# -- registration ------------------------------------------------------------------------------

def test_registration_usi_options_and_quit(gui):
    # getUSIEngineInfo: "usi", read id/option until "usiok", then "quit"
    gui.send("usi")
    assert gui.lines[0].startswith("id name ") and gui.lines[0][len("id name "):]
    assert gui.lines[1].startswith("id author ")
    assert gui.lines[-1] == "usiok" and gui.lines.count("usiok") == 1
    opts = {o["name"]: o for o in (parse_option(ln) for ln in gui.lines if ln.startswith("option "))}
    assert len(opts) == len(OPTIONS)
    # the reserved names keep their types: USI_Ponder decides whether ShogiHome ponders, and its
    # MultiPV control in analysis needs USI_MultiPV to be a spin
    assert opts["USI_Hash"]["type"] == "spin" and opts["USI_Ponder"]["type"] == "check"
    assert opts["USI_MultiPV"]["type"] == "spin" and opts["USI_MultiPV"]["max"] > 1
    for o in opts.values():
        if o["type"] == "spin":
            assert o["min"] <= o["default"] <= o["max"], o
        elif o["type"] == "check":
            assert o["default"] in ("true", "false"), o
        elif o["type"] == "combo":
            assert o["vars"] and o["default"] in o["vars"], o
    gui.send("quit")
    assert gui.session.quit


def test_every_default_is_accepted_back_by_setoption(gui):
    # after "usiok" ShogiHome sends "setoption name N value V" for every option with its current value
    gui.send("usi")
    opts = [parse_option(ln) for ln in gui.lines if ln.startswith("option ")]
    before = len(gui.lines)
    for o in opts:
        gui.send(f"setoption name {o['name']} value {o['default']}")
        for v in o["vars"]:
            gui.send(f"setoption name {o['name']} value {v}")
        gui.send(f"setoption name {o['name']} value {o['default']}")
    gui.send("setoption name USI_Ponder value true", "setoption name USI_Hash value 32")
    assert gui.lines[before:] == []
    assert gui.session.settings["USI_Ponder"] == "true" and gui.session.settings["USI_Hash"] == "32"


# -- a game ------------------------------------------------------------------------------------

@pytest.mark.parametrize("position", [
    f"position sfen {START_SFEN} moves",  # older ShogiHome: always "sfen ... moves", even with no move
    f"position sfen {START_SFEN} moves 7g7f 3c3d",
    "position startpos",  # newer ShogiHome: startpos for the even game, " moves" only with moves
    "position startpos moves 2g2f 8c8d",
    "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSN1 w - 1 moves 3c3d",  # handicap
])
def test_game_sequence_and_position_forms(gui, position):
    gui.send("usi", "setoption name USI_Hash value 16", "setoption name USI_Ponder value false", "isready")
    assert gui.lines[-1] == "readyok"
    gui.send("usinewgame", position, "go depth 2")  # (ShogiHome sends a clock: see the subprocess test)
    best = gui.wait_for("bestmove")
    gui.settle()
    assert len(best) == gui.count("bestmove") == 1
    state = position_state(position)
    check_bestmove(best[0], state)
    infos = [parse_info(ln, state) for ln in gui.lines if ln.startswith("info ")]
    assert infos and all("pv" in i and ("cp" in i or "mate" in i) for i in infos)


@pytest.mark.parametrize("go", ["go btime 0 wtime 0 byoyomi 200",  # byoyomi only (the usual ShogiHome game)
                                "go btime 3000 wtime 3000 byoyomi 100",
                                "go btime 2000 wtime 2000 binc 100 winc 100",  # Fischer: no byoyomi word
                                "go btime 500 wtime 60000 byoyomi 0"])
def test_clock_forms_shogihome_sends(gui, go):
    pos = f"position sfen {START_SFEN} moves 7g7f"
    gui.send("isready", "usinewgame", pos, go)
    best = gui.wait_for("bestmove")
    gui.settle()
    assert gui.count("bestmove") == 1 and gui.count("info string") == 0
    check_bestmove(best[0], position_state(pos))


def test_score_mate_sign_is_for_the_side_to_move(gui):
    # ShogiHome multiplies the score by +1 (Sente to move) or -1 (Gote to move): it must be the mover's
    winner = "position sfen 6snk/6p2/9/9/9/9/9/9/4K4 b RBG 1"
    gui.send(winner, "go btime 0 wtime 0 byoyomi 1000")
    gui.wait_for("bestmove")
    gui.settle()
    mates = [parse_info(ln, position_state(winner)).get("mate") for ln in gui.lines if ln.startswith("info ")]
    assert mates[-1] == 5
    # Gote to move and mated in two plies (the mate's line two moves on: a position the search proves on its own,
    # not only through the table the search above left)
    loser = "position sfen 6snk/6p2/9/9/9/9/9/9/4K4 b RBG 1 moves R*1d 1a2b B*1a"
    start = len(gui.lines)
    gui.send(loser, "go depth 4")
    gui.wait_for("bestmove", 2)
    gui.settle()
    mates = [parse_info(ln, position_state(loser)).get("mate") for ln in gui.lines[start:] if ln.startswith("info ")]
    assert mates[-1] == -2


def test_mate_score_zero_is_never_ambiguous():
    assert usi_score(Score.mate(3)) == "mate 3" and usi_score(Score.mate(-2)) == "mate -2"
    assert usi_score(Score.mate(0)) == "mate -0"  # "mate 0" would mean "mates" to ShogiHome


def test_info_line_without_pv_has_no_pv_word():
    state = load_game("shogi").new_state()
    info = SearchInfo(search_id=1, depth=1, seldepth=1, score=Score.eval(12), pv=(), nodes=5, nps=5, time_ms=1)
    line = info_line(info, state)
    assert " pv" not in line and line.endswith("score cp 12")
    parse_info(line, state)
    move = state.parse_move("7g7f")
    line = info_line(SearchInfo(1, 1, 1, Score.eval(12), (move,), 5, 5, 1), state)
    assert line.endswith(" pv 7g7f") and parse_info(line, state)["pv"] == ["7g7f"]


def test_ponder_hit(gui):
    # bestmove M ponder P -> "position ... M P" + "go ponder <clock>" -> the opponent plays P -> "ponderhit"
    pos = "position sfen " + START_SFEN + " moves 7g7f 3c3d"
    gui.send("setoption name USI_Ponder value true", "isready", "usinewgame", pos,
             "go ponder btime 1000 wtime 1000 byoyomi 200")
    gui.send("isready")
    assert gui.lines[-1] == "readyok" and gui.count("bestmove") == 0
    gui.send("ponderhit")
    best = gui.wait_for("bestmove")
    gui.settle()
    assert gui.count("bestmove") == 1
    check_bestmove(best[0], position_state(pos))


def test_early_ponder_takes_the_clock_from_ponderhit(gui):
    # ShogiHome's "early ponder" (and YaneuraOu's): "go ponder" without a clock, the clock on "ponderhit".
    # Before the fix the real search had no limit at all and never answered.
    pos = "position sfen " + START_SFEN + " moves 2g2f 8c8d"
    gui.send("isready", "usinewgame", pos, "go ponder")
    gui.send("isready")
    assert gui.lines[-1] == "readyok" and gui.count("bestmove") == 0
    gui.send("ponderhit btime 0 wtime 0 byoyomi 200")
    best = gui.wait_for("bestmove")
    gui.settle()
    assert gui.count("bestmove") == 1 and gui.count("info string") == 0
    check_bestmove(best[0], position_state(pos))


def test_bad_ponderhit_clock_is_reported_and_the_ponder_goes_on(gui):
    gui.send("position startpos moves 7g7f", "go ponder", "ponderhit btime x")
    assert gui.lines[-1].startswith("info string error") and "'x'" in gui.lines[-1]
    assert gui.count("bestmove") == 0
    gui.send("ponderhit byoyomi 100")
    gui.wait_for("bestmove")
    gui.settle()
    assert gui.count("bestmove") == 1


def test_ponder_miss_stop_gives_one_bestmove_then_the_real_go(gui):
    # the opponent did not play P: "stop" (ShogiHome waits for a bestmove and ignores it), then position + go
    gui.send("isready", "usinewgame", "position startpos moves 7g7f 3c3d",
             "go ponder btime 1000 wtime 1000 byoyomi 200")
    gui.send("stop")
    assert gui.count("bestmove") == 1  # stop waits for the search: the answer is already out
    real = "position startpos moves 7g7f 8c8d"
    gui.send(real, "go btime 1000 wtime 1000 byoyomi 200")
    best = gui.wait_for("bestmove", 2)
    gui.settle()
    assert gui.count("bestmove") == 2
    check_bestmove(best[-1], position_state(real))


def test_gameover_during_search_then_a_new_game(gui):
    # ShogiHome ends a game while the engine thinks with "stop" then "gameover"; the late bestmove is
    # ignored; the next game is "isready" -> "readyok" -> "usinewgame" -> position -> go
    gui.send("isready", "usinewgame", "position startpos", "go btime 0 wtime 0 byoyomi 60000")
    gui.send("stop", "gameover lose")
    assert gui.count("bestmove") == 1
    stopped = gui.wait_for("bestmove")[0]
    assert stopped != "bestmove resign"  # even a search stopped at once answers a move
    check_bestmove(stopped, load_game("shogi").new_state())
    for result in ("win", "draw"):
        gui.send("isready")
        assert gui.lines[-1] == "readyok"
        gui.send("usinewgame", "position startpos moves 7g7f", "go depth 2")
        gui.wait_for("bestmove", 2 if result == "win" else 3)
        gui.settle()
        gui.send(f"gameover {result}")
    assert gui.count("bestmove") == 3 and gui.count("info string") == 0
    gui.send("stop")  # a stop that crossed the bestmove on the pipe gets no second answer
    assert gui.count("bestmove") == 3 and gui.count("info string") == 0
    gui.send("gameover win")  # a gameover while idle (ShogiHome's "ready" after an aborted game) is harmless
    assert gui.count("info string") == 0


def test_analysis_go_infinite_with_multipv(gui):
    # analysis: "go infinite", MultiPV set while idle (ShogiHome holds setoption back while searching),
    # a new position is "stop" -> bestmove -> position -> "go infinite"
    gui.send("setoption name USI_MultiPV value 3", "isready", "usinewgame", "position startpos", "go infinite")
    gui.wait_for("info depth 2 ", 3)
    gui.send("isready")
    assert gui.lines[-1] == "readyok" and gui.count("bestmove") == 0
    gui.send("stop")
    assert gui.count("bestmove") == 1
    state = load_game("shogi").new_state()
    infos = [parse_info(ln, state) for ln in gui.lines if ln.startswith("info ")]
    assert {i["multipv"] for i in infos} == {1, 2, 3}
    check_bestmove(gui.wait_for("bestmove")[0], state)
    nxt = "position startpos moves 7g7f"
    gui.send(nxt, "go infinite")
    gui.wait_for("info depth 2 ", 6)
    gui.send("stop")
    gui.settle()
    assert gui.count("bestmove") == 2
    check_bestmove(gui.wait_for("bestmove")[-1], position_state(nxt))


def test_mate_search_replies(gui):
    # mate search: "go mate <ms>" (seconds * 1000) or "go mate infinite"; one "checkmate" reply each
    pos = f"position sfen {MATE_IN_9} moves"
    gui.send("isready", "usinewgame", pos, "go mate 10000")
    line = gui.wait_for("checkmate")[0]
    moves = line.split(" ")[1:]
    assert len(moves) == 9
    state = position_state(pos)
    for m in moves:  # ShogiHome plays them one by one and rejects an unknown or invalid move
        state.play_text(m)
    assert state.is_terminal() and not state.legal_moves()
    gui.send(f"position sfen {MATE_IN_1}", "go mate infinite")
    assert gui.wait_for("checkmate", 2)[-1] == "checkmate G*5b"
    gui.send("position startpos", "go mate 3000")
    assert gui.wait_for("checkmate", 3)[-1] == "checkmate nomate"
    gui.send("position sfen 8k/9/9/9/9/9/9/9/4K4 b RG 1", "go mate infinite")
    gui.send("isready")
    assert gui.lines[-1] == "readyok"
    gui.send("stop")  # the user's stop button
    assert gui.wait_for("checkmate", 4)[-1] == "checkmate timeout"
    gui.settle()
    assert gui.count("checkmate") == 4 and gui.count("bestmove") == 0
    for ln in gui.lines:
        if ln.startswith("info "):
            assert ln.startswith("info string ")


def _executable(kind, folder):
    """What a user gives ShogiHome: the console script, or the one-line wrapper of docs/shogi.md."""
    if kind == "console-script":
        script = Path(sys.executable).parent / ("gamesuite-usi.exe" if os.name == "nt" else "gamesuite-usi")
        if not script.exists():
            pytest.skip("the gamesuite-usi console script is not installed next to this Python")
        return script
    if os.name == "nt":
        pytest.skip("the shell wrapper is for POSIX systems")
    wrapper = folder / "gamesuite-usi.sh"
    wrapper.write_text(f"#!/bin/sh\nexec {sys.executable} -m gamesuite engine usi\n")
    wrapper.chmod(0o755)
    return wrapper


@pytest.mark.parametrize("kind", ["wrapper", "console-script"])
def test_shogihome_session_over_pipes(tmp_path, kind):
    """One whole ShogiHome session against the engine as a process started the way ShogiHome starts
    one (the file alone, no arguments, its folder as the working directory): replies are read line by
    line from stdout, and nothing may go to stderr (ShogiHome never reads it: a full pipe would block)."""
    exe = _executable(kind, tmp_path)
    p = subprocess.Popen([str(exe)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, cwd=exe.parent)
    assert p.stdin is not None and p.stdout is not None and p.stderr is not None
    received = []

    def send(line):
        p.stdin.write(line + "\n")
        p.stdin.flush()

    def until(prefix):
        while True:
            line = p.stdout.readline()
            assert line, f"engine closed; last lines {received[-5:]}"
            assert line.endswith("\n")
            received.append(line.rstrip("\n"))
            if received[-1].startswith(prefix):
                return received[-1]

    try:
        send("usi")
        until("usiok")
        options = [parse_option(ln) for ln in received if ln.startswith("option ")]
        for o in options:  # ShogiHome: every option with its value, USI_Ponder turned on
            value = "true" if o["name"] == "USI_Ponder" else o["default"]
            send(f"setoption name {o['name']} value {value}")
        send("isready")
        until("readyok")
        pos = f"position sfen {START_SFEN} moves 7g7f"
        send("usinewgame")
        send(pos)
        send("go btime 0 wtime 0 byoyomi 300")
        best = until("bestmove")
        state = position_state(pos)
        check_bestmove(best, state)
        words = best.split(" ")
        if len(words) == 4:  # the ponder flow, as ShogiHome does it when the prediction comes true
            send(f"{pos} {words[1]} {words[3]}")
            send("go ponder btime 0 wtime 0 byoyomi 300")
            send("ponderhit")
            check_bestmove(until("bestmove"), position_state(f"{pos} {words[1]} {words[3]}"))
        send("gameover win")
        send("quit")
        assert p.wait(timeout=60) == 0
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    assert p.stderr.read() == ""
    assert all(ln.startswith(("id ", "option ", "usiok", "readyok", "info ", "bestmove ")) for ln in received)
