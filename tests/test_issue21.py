"""Issue 21, item by item: each test reproduces what the reliability review found.

These use only interfaces that existed before the issue (the window, the protocol
sessions, the command line, ``make_engine``, ``GameRecord``), so the same file run
against the code before the fix shows every item failing. The property tests, the
fuzzed sessions and the kill counts live in ``test_robust_*.py``.
"""

from __future__ import annotations

import io
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from gamesuite.core.errors import GameSuiteError, InvalidOptionError, InvalidRecordError
from gamesuite.core.limits import Limits
from gamesuite.core.registry import load_game, make_engine

SFEN_SUPERSCRIPT = "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSN\u00b2 b - 1"
SFEN_LONG = "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - " + "1" * 4301


def _run(args: list[str], data: bytes = b"", env: dict | None = None, timeout: int = 180):
    return subprocess.run([sys.executable, "-m", "gamesuite", *args], input=data, capture_output=True,
                          env=dict(os.environ, **(env or {})), timeout=timeout)


def _one_line_error(r) -> bool:  # type: ignore[no-untyped-def]
    err = r.stderr.decode("utf-8", "replace").strip()
    return r.returncode == 2 and "Traceback" not in err and len(err.splitlines()) == 1


# -- 1. Save and Export write in place; autosave leaves stale temporaries ------------------------------

SAVER = r"""
import os, sys
os.environ["QT_QPA_PLATFORM"] = "offscreen"
from PySide6.QtWidgets import QApplication
app = QApplication([])
from gamesuite.gui.mainwindow import MainWindow
from gamesuite.gui.record import PlayerSpec
win = MainWindow(data_dir=sys.argv[1], restore=False, game_spec="gomoku(size=15)",
                 players=[PlayerSpec(), PlayerSpec()])
while not win.ready:
    app.processEvents()
assert win.load_from(sys.argv[2])
while win.controller.current.ply == 0:
    app.processEvents()
print("ready", flush=True)
while True:
    win.save_to(sys.argv[3])
"""


def _long_game_text() -> str:
    from gamesuite.core.score import Score
    from gamesuite.gui.record import GameRecord

    game = load_game("gomoku(size=15)")
    rec = GameRecord(game)
    rng = random.Random(3)
    s, node = game.new_state(), rec.root
    while len(s.history) < 120 and not s.is_terminal():
        m = rng.choice(s.legal_moves())
        node = rec.add_move(node, m)
        node.score, node.comment = Score.eval(rng.randint(-300, 300), 0), "a comment on the move " * 30
        s.play(m)
    return rec.dumps(node)


@pytest.mark.skipif(os.name != "posix", reason="SIGKILL")
def test_item1_killing_the_window_during_save_never_empties_or_truncates_the_file(tmp_path):
    source = tmp_path / "source.json"
    source.write_text(_long_game_text(), encoding="utf-8")
    target = tmp_path / "games" / "game.json"
    target.parent.mkdir()
    rng = random.Random(1)
    expected = None
    for _ in range(4):
        child = subprocess.Popen([sys.executable, "-c", SAVER, str(tmp_path / "data"), str(source), str(target)],
                                 stdout=subprocess.PIPE, text=True)
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "ready"
        time.sleep(0.2 + rng.random() * 0.05)  # it has saved several times: kill it in one of its saves
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
        child.stdout.close()
        text = target.read_text(encoding="utf-8")
        expected = expected or text
        assert text and text == expected, f"the saved game was cut to {len(text)} characters"


def test_item1_autosave_temporaries_of_dead_sessions_are_cleaned(tmp_path):
    from gamesuite.gui.storage import Storage

    auto = tmp_path / "autosave"
    auto.mkdir()
    stale = auto / "999999999-0badc0de.tmp"  # the autosave temporary a killed window left
    stale.write_text("{", encoding="utf-8")
    s = Storage(tmp_path)
    s.autosave({"format": "gamesuite-game"})
    assert not stale.exists()
    assert not [p for p in auto.iterdir() if "tmp" in p.name]
    s.abandon()


# -- 2. one bad position line kills the USI engine ---------------------------------------------------------

@pytest.mark.parametrize("line", [SFEN_SUPERSCRIPT, SFEN_LONG])
def test_item2_usi_survives_a_bad_position_line(line):
    r = _run(["engine", "usi"], f"usi\n{line}\nisready\nquit\n".encode())
    out = r.stdout.decode()
    assert r.returncode == 0 and b"Traceback" not in r.stderr and "readyok" in out
    assert any(ln.startswith("info string") for ln in out.splitlines())


@pytest.mark.parametrize("line", [SFEN_SUPERSCRIPT, SFEN_LONG])
def test_item2_analyse_gives_one_line_for_a_bad_position(line):
    r = _run(["analyse", "shogi", "--position", line.removeprefix("position "), "--depth", "1"])
    assert _one_line_error(r)


# -- 3. unbounded integers -------------------------------------------------------------------------------

def test_item3_usi_go_nodes_beyond_any_search_is_an_error_not_a_resignation():
    r = _run(["engine", "usi"], b"usi\nposition startpos\ngo nodes 99999999999999999999\nisready\nquit\n")
    out = r.stdout.decode()
    assert "bestmove resign" not in out and "99999999999999999999" in out and "readyok" in out


@pytest.mark.parametrize("args", [["analyse", "shogi", "--nodes", "18446744073709551616"],
                                  ["perft", "tictactoe", "--depth", "18446744073709551616"]])
def test_item3_huge_flags_give_status_2_and_one_line(args):
    assert _one_line_error(_run(args))


# -- 4. engine options not checked ------------------------------------------------------------------------

@pytest.mark.parametrize("game,spec", [("tictactoe", "solver,hash=abc"), ("tictactoe", "solver,hash=1e309"),
                                       ("tictactoe", "solver,hash=65536"), ("gomoku", "mtdf,top=9223372036854775808"),
                                       ("hare", "maxn,kc=1.o"), ("gomoku", "pvs,pure=flase")])
def test_item4_bad_engine_options_are_refused(game, spec):
    with pytest.raises(InvalidOptionError):
        make_engine(load_game(game), spec)


def test_item4_usi_hash_beyond_the_advertised_maximum_is_refused_and_the_engine_lives():
    r = _run(["engine", "usi"], b"usi\nsetoption name USI_Hash value 100000\nisready\nquit\n", timeout=300)
    out = r.stdout.decode()
    assert r.returncode == 0 and "readyok" in out and "100000" in out.split("usiok")[1]


# -- 5. the answer race --------------------------------------------------------------------------------------

def test_item5_usi_takes_a_go_sent_the_moment_bestmove_is_read():
    from gamesuite.protocols.usi import UsiSession

    lines: list[str] = []
    busy_at_answer: list[bool] = []
    cond = threading.Condition()

    def write(line: str) -> None:
        if line.startswith("bestmove"):  # the client reads it now: would its next command be taken?
            busy_at_answer.append(s.searching)
        with cond:
            lines.append(line)
            cond.notify_all()

    s = UsiSession(write)
    s.handle("setoption name USI_Hash value 1")
    s.handle("position startpos")
    refused = 0
    for _ in range(40):
        n = len(lines)
        s.handle("go depth 1")
        with cond:
            assert cond.wait_for(lambda n=n: any(x.startswith("bestmove") or "searching" in x
                                                 for x in lines[n:]), 60)
        refused += any("searching" in x for x in lines[n:])
    s.handle("quit")
    assert refused == 0 and len(busy_at_answer) == 40 and not any(busy_at_answer)


def test_item5_json_takes_a_command_sent_the_moment_bestmove_is_read():
    from gamesuite.protocols.json import Session

    busy_at_answer: list[bool] = []

    class Out(io.StringIO):
        def __init__(self):
            super().__init__()
            self.cond = threading.Condition()

        def write(self, text):  # type: ignore[override]
            if '"type": "bestmove"' in text:  # the client reads it now: would its next command be taken?
                busy_at_answer.append(s.busy())
            with self.cond:
                n = super().write(text)
                self.cond.notify_all()
                return n

    out = Out()
    s = Session(out)
    s.handle_line(json.dumps({"cmd": "new", "game": "tictactoe", "engine": "solver"}))
    refused = 0
    def replies(start: int) -> list[dict]:
        return [json.loads(x) for x in out.getvalue()[start:].splitlines() if x.strip()]

    for i in range(40):
        start = len(out.getvalue())
        s.handle_line(json.dumps({"cmd": "think", "depth": 1, "id": i}))
        with out.cond:
            assert out.cond.wait_for(lambda i=i, start=start: any(
                d.get("type") == "bestmove" and d.get("id") == i for d in replies(start)), 60)
        start = len(out.getvalue())
        s.handle_line(json.dumps({"cmd": "legal", "id": f"legal{i}"}))
        refused += any(d.get("type") == "error" and "busy" in d["error"] for d in replies(start))
    s.handle_line(json.dumps({"cmd": "quit"}))
    assert refused == 0 and len(busy_at_answer) == 40 and not any(busy_at_answer)


# -- 6. opening a file aborts the window ---------------------------------------------------------------------

def _bad_files() -> dict[str, bytes]:
    from gamesuite.gui.record import GameRecord

    game = load_game("tictactoe")
    rec = GameRecord(game)
    s = game.new_state()
    node = rec.add_move(rec.root, s.legal_moves()[0])
    from gamesuite.core.score import Score

    node.score = Score.eval(12, 0)
    good = rec.dumps(node)
    return {
        "latin1": "Partie de Gérard".encode("latin-1"),
        "nested": b"[" * 100_000,
        "bigint": b'{"format": "gamesuite-game", "version": ' + b"1" * 5000 + b"}",
        "score_inf": good.replace('"value": 12', '"value": 1e999').encode(),
        "score_abc": good.replace('"value": 12', '"value": "abc"').encode(),
        "binary": bytes(range(256)) * 8,
    }


@pytest.mark.parametrize("name", ["nested", "bigint", "score_inf", "score_abc"])
def test_item6_a_bad_game_text_is_a_clean_error_at_the_library_level(name):
    from gamesuite.gui.record import GameRecord

    with pytest.raises(InvalidRecordError):
        GameRecord.loads(_bad_files()[name].decode("utf-8"))


def test_item6_opening_bad_files_never_aborts_the_window(qtbot, tmp_path):
    from gamesuite.gui.mainwindow import MainWindow
    from gamesuite.gui.record import PlayerSpec

    win = MainWindow(data_dir=tmp_path / "data", restore=False, game_spec="tictactoe",
                     players=[PlayerSpec(), PlayerSpec()])
    qtbot.addWidget(win)
    qtbot.waitUntil(lambda: win.ready, timeout=60_000)
    for name, data in _bad_files().items():
        p = tmp_path / f"{name}.json"
        p.write_bytes(data)
        assert win.load_from(p) is False, name
        qtbot.wait(10)
    assert win.controller.current.ply == 0  # the window still shows its own game


# -- 7. one invalid byte kills the protocols; analyse --positions on Latin-1 ------------------------------

@pytest.mark.parametrize("protocol,data,alive", [
    ("usi", b"usi\n\xff\nisready\nquit\n", "readyok"),
    ("gomocup", b"\xff\nABOUT\nEND\n", "name="),
    ("json", b'\xff\n{"cmd": "legal", "id": 1}\n{"cmd": "quit"}\n', '"id": 1'),
])
def test_item7_an_invalid_utf8_byte_under_a_strict_locale(protocol, data, alive):
    r = _run(["engine", protocol], data, {"PYTHONIOENCODING": "utf-8:strict"})
    assert r.returncode == 0 and b"Traceback" not in r.stderr and alive in r.stdout.decode()


def test_item7_analyse_positions_on_a_latin1_file(tmp_path):
    p = tmp_path / "positions.txt"
    p.write_bytes("# partie de Gérard\n".encode("latin-1"))
    assert _one_line_error(_run(["analyse", "tictactoe", "--positions", str(p), "--depth", "1"]))


# -- 8. KIF/CSA import follows a path written inside the file ----------------------------------------------

def test_item8_import_never_opens_a_path_written_in_the_file(tmp_path):
    from gamesuite.gui.formats import formats_for, read_game

    secret = tmp_path / "secret.kif"
    secret.write_text("SECRET FIRST LINE\n", encoding="utf-8")
    for fmt in formats_for("shogi"):
        with pytest.raises(InvalidRecordError) as e:
            read_game(fmt, str(secret))  # the whole file's text is that path
        assert "SECRET" not in str(e.value)


# -- 9. limits, Gomocup's board, the cluster -------------------------------------------------------------------

def test_item9_a_random_playout_stops_when_the_search_is_stopped(monkeypatch):
    """The shogi ``mcts`` overran ``movetime=20`` by a whole random game (~400 plies): the playout never
    looked at the stop flag. Counted in plies played after the flag is set, not in milliseconds."""
    from gamesuite.games.shogi.rules import ShogiState

    game = load_game("shogi")
    engine = make_engine(game, "mcts,seed=1")
    stop = np.zeros(1, dtype=np.uint8)
    plays = {"n": 0, "after": 0}
    real_play = ShogiState.play

    def play(self, move):  # type: ignore[no-untyped-def]
        plays["n"] += 1
        if stop[0]:
            plays["after"] += 1
        elif plays["n"] == 60:  # the middle of the first playout
            stop[0] = 1
            time.sleep(0.3)  # (the search's stop watch polls the caller's flag every 2 ms: let it see it)
        return real_play(self, move)

    monkeypatch.setattr(ShogiState, "play", play)
    r = engine.search(game.new_state(), Limits(infinite=True), stop)
    assert r.best_move is not None
    assert plays["after"] <= 2, f"{plays['after']} plies played after the stop"


@pytest.mark.parametrize("spec,engine", [("shogi", "alphabeta"), ("tictactoe", "solver"), ("gomoku", "pvs")])
def test_item9_a_node_limit_of_50_searches_about_50_nodes(spec, engine):
    if engine == "alphabeta" and not _has_shogi_node_fix():
        pytest.xfail("the shogi search's node-limit poll is fixed on branch 'shogi'")
    game = load_game(spec)
    state = game.new_state() if spec != "gomoku" else game.state_from_text("h8 h9 i8")
    r = make_engine(game, f"{engine},hash=1").search(state, Limits(nodes=50))
    assert r.nodes <= 66


def _has_shogi_node_fix() -> bool:
    src = Path(__file__).resolve().parents[1] / "gamesuite" / "games" / "shogi" / "search.py"
    text = src.read_text(encoding="utf-8")
    return "(stats[NODES] & 1023) == 0 and (stop[0] != 0 or (stats[NODE_LIMIT]" not in text


def _brain():
    from gamesuite.protocols.gomocup import Brain

    out = io.StringIO()
    return Brain(out, "mtdf,hash=1", warm=False), out


def test_item9_gomocup_keeps_no_stone_it_refused():
    b, out = _brain()
    for line in ("START 9", "INFO timeout_turn 100", "BOARD", "1,0,2", "2,0,2", "3,0,2", "4,0,2", "0,8,1",
                 "2,8,1", "4,8,1", "6,8,1", "DONE"):
        b.handle(line)
    x, y = (int(v) for v in out.getvalue().split()[-1].split(","))
    other = 5 if (x, y) == (0, 0) else 0
    b.handle(f"TURN {other},0")  # their five
    assert out.getvalue().splitlines()[-1].startswith("ERROR")
    b.handle(f"TAKEBACK {other},0")
    assert out.getvalue().splitlines()[-1].startswith("ERROR")


def test_item9_gomocup_does_not_play_on_after_the_opponents_five():
    b, out = _brain()
    for line in ("START 9", "INFO timeout_turn 100", "BOARD", "0,0,2", "1,0,2", "2,0,2", "3,0,2", "4,0,2",
                 "0,1,1", "1,1,1", "2,1,1", "3,1,1", "DONE"):
        b.handle(line)
    assert out.getvalue().splitlines()[-1].startswith("ERROR")


def test_item9_the_docs_start_the_dask_scheduler_on_loopback():
    text = (Path(__file__).resolve().parents[1] / "docs" / "arena.md").read_text(encoding="utf-8")
    assert "dask scheduler --host 127.0.0.1" in text and "tls" in text.lower()
    assert "\ndask scheduler  " not in text and "\ndask scheduler\n" not in text
    assert GameSuiteError  # (imported for the reader: every clean error is one)
