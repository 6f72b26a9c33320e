"""The USI protocol: a scripted conversation with the session, and the command end to end."""

import subprocess
import sys
import threading
import time

import pytest

from gamesuite.core import load_game
from gamesuite.protocols.usi import UsiSession

IMPASSE_28 = "+P+P+P+P+P+P+P+P1/1R2K1B2/9/9/9/9/9/9/8k b 4G4S2N 1"


class Script:
    def __init__(self):
        self.lines = []
        self.cond = threading.Condition()
        self.session = UsiSession(self._write)

    def _write(self, line):
        with self.cond:
            self.lines.append(line)
            self.cond.notify_all()

    def send(self, *lines):
        for ln in lines:
            self.session.handle(ln)

    def wait_for(self, prefix, count=1, timeout=60):
        deadline = time.monotonic() + timeout
        with self.cond:
            while sum(ln.startswith(prefix) for ln in self.lines) < count:
                left = deadline - time.monotonic()
                assert left > 0, f"no {prefix!r} in {self.lines[-10:]}"
                self.cond.wait(left)
        return [ln for ln in self.lines if ln.startswith(prefix)]


@pytest.fixture
def usi():
    s = Script()
    yield s
    s.send("quit")


def test_handshake_and_ready(usi):
    usi.send("usi")
    assert usi.lines[0] == "id name gamesuite-shogi" and usi.lines[-1] == "usiok"
    assert any(ln.startswith("option name USI_Hash type spin") for ln in usi.lines)
    assert any(ln.startswith("option name USI_MultiPV") for ln in usi.lines)
    usi.send("isready")
    assert usi.lines[-1] == "readyok"


def test_go_depth_gives_info_and_one_legal_bestmove(usi):
    usi.send("usinewgame", "position startpos moves 7g7f 3c3d", "go depth 3")
    best = usi.wait_for("bestmove")
    time.sleep(0.1)
    assert len([ln for ln in usi.lines if ln.startswith("bestmove")]) == 1
    info = [ln for ln in usi.lines if ln.startswith("info depth")]
    assert info and all(" score cp " in ln or " score mate " in ln for ln in info)
    assert all(f" {k} " in info[-1] for k in ("seldepth", "time", "nodes", "nps", "hashfull", "multipv", "pv"))
    state = load_game("shogi").state_from_text("startpos moves 7g7f 3c3d")
    move = best[0].split()[1]
    state.play_text(move)
    if " ponder " in best[0]:
        state.play_text(best[0].split()[3])


def test_infinite_search_answers_isready_and_stops(usi):
    usi.send("position startpos", "go infinite")
    time.sleep(0.3)
    usi.send("isready")
    assert usi.lines[-1] == "readyok" or "readyok" in usi.lines
    assert not any(ln.startswith("bestmove") for ln in usi.lines)
    usi.send("stop")
    assert len(usi.wait_for("bestmove")) == 1


def test_ponder_then_ponderhit_gives_one_bestmove(usi):
    usi.send("position startpos moves 2g2f", "go ponder btime 1000 wtime 1000 byoyomi 300")
    time.sleep(0.2)
    assert not any(ln.startswith("bestmove") for ln in usi.lines)
    usi.send("ponderhit")
    usi.wait_for("bestmove")
    time.sleep(0.2)
    assert len([ln for ln in usi.lines if ln.startswith("bestmove")]) == 1


def test_multipv_option(usi):
    usi.send("setoption name USI_MultiPV value 3", "position startpos", "go depth 2")
    usi.wait_for("bestmove")
    assert {ln.split(" multipv ")[1].split()[0] for ln in usi.lines if " multipv " in ln} == {"1", "2", "3"}
    last = [ln.split() for ln in usi.lines if ln.startswith("info depth 2 ")]
    assert [w[w.index("multipv") + 1] for w in last] == ["1", "2", "3"]
    scores = [int(w[w.index("cp") + 1]) for w in last]
    assert scores == sorted(scores, reverse=True)
    firsts = [w[w.index("pv") + 1] for w in last]
    assert len(set(firsts)) == 3
    for w in last:
        state = load_game("shogi").new_state()
        for m in w[w.index("pv") + 1:]:
            state.play_text(m)


def test_go_mate(usi):
    usi.send("position sfen 4k4/9/4P4/9/9/9/9/9/4K4 b G 1", "go mate 5000")
    assert usi.wait_for("checkmate") == ["checkmate G*5b"]
    usi.send("position startpos", "go mate 300")
    assert usi.wait_for("checkmate", 2)[-1] == "checkmate nomate"
    # a tsume search: the attacker checks with every move, so the quiet mate G*2c 1a2a G*2b does not count
    usi.send("position sfen 8k/9/9/9/9/9/9/9/4K4 b 2G 1", "go mate infinite")
    assert usi.wait_for("checkmate", 3)[-1] == "checkmate nomate"
    usi.send("position sfen 6g1k/5G2p/7P1/9/9/9/9/9/K8 b 2SR 1", "go mate infinite")
    assert usi.wait_for("checkmate", 4)[-1] == "checkmate S*2b 3a2b R*3a 2b2a 3a2a+ 1a2a G*3a 2a1a S*2b"


def test_go_mate_timeout_and_stop(usi):
    usi.send("position sfen 8k/9/9/9/9/9/9/9/4K4 b RG 1", "go mate 200")  # checks can go on for ever
    assert usi.wait_for("checkmate") == ["checkmate timeout"]
    usi.send("go mate infinite")
    time.sleep(0.2)
    usi.send("isready")
    assert usi.wait_for("readyok")
    usi.send("stop")
    assert usi.wait_for("checkmate", 2)[-1] == "checkmate timeout"


def test_normal_search_reports_score_mate(usi):
    usi.send("position sfen 6snk/6p2/9/9/9/9/9/9/4K4 b RBG 1", "go btime 10000 wtime 10000 byoyomi 1000")
    assert usi.wait_for("bestmove")[0].startswith("bestmove R*1d")
    assert any(" score mate 5 " in ln and ln.endswith("pv R*1d 1a2b B*1a 2b2c G*2d") for ln in usi.lines)


def test_resign_and_win(usi):
    usi.send("position sfen 4k4/4G4/4P4/9/9/9/9/9/4K4 w - 1", "go depth 2")  # Gote is mated
    assert usi.wait_for("bestmove") == ["bestmove resign"]
    usi.send(f"position sfen {IMPASSE_28}", "go btime 1000 wtime 1000")
    assert usi.wait_for("bestmove", 2)[-1] == "bestmove win"


@pytest.mark.parametrize("line", ["", "hello", "go depth x", "go sideways", "position sfen 9/9 b - 1",
                                  "position startpos moves 7g7e", "setoption", "setoption name Nope value 1",
                                  "setoption name Variant value huge", "ponderhit", "\x00\xff garbage"])
def test_garbage_never_crashes(usi, line):
    usi.send(line)
    assert all(ln.startswith("info string") for ln in usi.lines)
    usi.send("isready")
    assert usi.lines[-1] == "readyok"


def test_minishogi_variant(usi):
    usi.send("setoption name Variant value mini", "position startpos", "go depth 2")
    move = usi.wait_for("bestmove")[0].split()[1]
    load_game("shogi(variant=mini)").new_state().play_text(move)


def test_engine_usi_command_end_to_end():
    script = "usi\nisready\nposition startpos\ngo depth 2\n"
    p = subprocess.Popen([sys.executable, "-m", "gamesuite", "engine", "usi"], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, text=True)
    assert p.stdin is not None and p.stdout is not None
    p.stdin.write(script)
    p.stdin.flush()
    lines = []
    for line in p.stdout:
        lines.append(line.strip())
        if line.startswith("bestmove"):
            break
    p.stdin.write("quit\n")
    p.stdin.flush()
    assert p.wait(timeout=60) == 0
    assert "usiok" in lines and "readyok" in lines and lines[-1].startswith("bestmove ")


@pytest.mark.slow
def test_plays_complete_games_under_the_cshogi_match_runner(tmp_path):
    pytest.importorskip("cshogi")
    engine = tmp_path / "gamesuite-usi.sh"
    engine.write_text(f"#!/bin/sh\nexec {sys.executable} -m gamesuite engine usi\n")
    engine.chmod(0o755)
    r = subprocess.run([sys.executable, "-m", "cshogi.cli", str(engine), str(engine), "--games", "2",
                        "--byoyomi", "100", "--draw", "200", "--ponder"], capture_output=True, text=True, timeout=900)
    assert r.returncode == 0, r.stderr
    assert "2 of 2 games finished." in r.stdout


def test_own_book_option_plays_a_book_move(usi):
    from gamesuite.games.shogi.book import BOOK_FILE, Book

    usi.send("usi")
    assert "option name USI_OwnBook type check default false" in usi.lines
    state = load_game("shogi").new_state()
    book = {state.format_move(m) for m, _ in Book.load(BOOK_FILE).moves(state)}
    usi.send("setoption name USI_OwnBook value true", "isready", "usinewgame", "position startpos", "go byoyomi 1000")
    assert usi.wait_for("bestmove")[0].split()[1] in book
    usi.send("setoption name USI_OwnBook value maybe")
    assert any("USI_OwnBook" in ln and "maybe" in ln for ln in usi.lines if ln.startswith("info string"))
