"""One game record for the window, the arena and the command line (``play.record``).

A game the arena plays opens in the window's model (and in the window) and replays; the window's
files open in the arena's reader; the old version-1 layouts of both are still read.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from gamesuite.arena.game import GameTask, MatchLimits, play_game, state_after
from gamesuite.arena.openings import Opening
from gamesuite.arena.record import load_record, save_record
from gamesuite.arena.spec import parse_engine_spec
from gamesuite.core import InvalidRecordError, load_game
from gamesuite.play.record import VERSION, GameRecord, PlayerSpec


def _arena_game(tmp_path, spec="tictactoe", engines=("solver", "reference")):
    game = load_game(spec)
    specs = tuple(parse_engine_spec(e, game.name) for e in engines)
    r = play_game(GameTask(game.spec, specs, (0, 1), Opening(None, ("b2",)), MatchLimits(depth=2), round=3, seed=9))
    return r, save_record(r, tmp_path)


def test_an_arena_game_opens_in_the_record_model_and_replays(tmp_path):
    r, path = _arena_game(tmp_path)
    d = json.loads(path.read_text())
    assert (d["format"], d["version"]) == ("gamesuite-game", VERSION)
    rec, node = GameRecord.loads(path.read_text())
    line = rec.mainline()
    assert [rec.start_state().format_line(n.moves()) for n in line][-1] == r.moves
    final = rec.state_at(line[-1])
    assert final.is_terminal() == bool(r.reason and not r.adjudication)
    assert [p.name for p in rec.players] == r.engines
    assert rec.result["result"] == r.result and rec.result["reason"] == r.reason
    assert rec.match["round"] == 3 and rec.match["opening_plies"] == 1 and rec.match["seed"] == 9
    # the window's model writes it back, and the arena reads what the window wrote
    again = tmp_path / "again.json"
    again.write_text(rec.dumps())
    back, game, start, moves = load_record(again)
    assert (back.moves, back.engines, back.result, back.round, back.opening_plies) == (
        r.moves, r.engines, r.result, 3, 1)


def test_a_window_game_opens_in_the_arena(tmp_path):
    g = load_game("tictactoe")
    rec = GameRecord(g, players=[PlayerSpec("human"), PlayerSpec("engine", "solver")])
    node = rec.root
    for m in (4, 0, 8):
        node = rec.add_move(node, m)
    rec.add_move(rec.root, 0)  # a variation: the arena keeps the main line
    (tmp_path / "w.json").write_text(rec.dumps())
    back, game, start, moves = load_record(tmp_path / "w.json")
    assert moves == [4, 0, 8] and back.engines == ["Human", "Computer (solver, 1 s)"] and back.result == ""


def test_old_arena_files_still_open_in_both(tmp_path):
    old = {"format": "gamesuite-game", "version": 1, "game": "tictactoe", "start": ".........",
           "moves": ["b2", "a1", "c3"], "opening_plies": 1, "engines": ["solver", "reference"],
           "returns": [0.0, 0.0], "result": "1/2-1/2", "reason": "draw", "adjudication": None,
           "round": 2, "seed": 5, "time_control": "depth 2", "date": "2026-11-22T14:00:00Z"}
    path = tmp_path / "old.json"
    path.write_text(json.dumps(old))
    rec, _ = GameRecord.loads(path.read_text())
    assert len(rec.mainline()) == 4 and rec.match["round"] == 2 and rec.metadata["date"].startswith("2026")
    back, *_ = load_record(path)
    assert (back.engines, back.moves, back.round, back.seed, back.opening_plies) == (
        ["solver", "reference"], ["b2", "a1", "c3"], 2, 5, 1)


def test_a_bad_result_is_a_precise_error():
    d = GameRecord(load_game("tictactoe")).to_json()
    d["result"] = {"returns": [3, 0], "result": "1-0"}
    with pytest.raises(InvalidRecordError, match="returns"):
        GameRecord.from_json(d)


def test_a_match_saved_by_the_cli_opens_in_the_window_and_replays(qtbot, tmp_path):
    pytest.importorskip("PySide6")
    from gamesuite.gui.mainwindow import MainWindow

    r = subprocess.run([sys.executable, "-m", "gamesuite", "match", "tictactoe", "--engine", "solver", "--engine",
                        "reference", "--games", "2", "--depth", "2", "--save", str(tmp_path / "games")],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    files = sorted((tmp_path / "games").glob("game-*.json"))
    assert files
    arena, *_ = load_record(files[0])
    win = MainWindow(data_dir=tmp_path / "data", restore=False, game_spec="tictactoe")
    qtbot.addWidget(win)
    win.show()
    qtbot.waitUntil(lambda: win.ready, timeout=60_000)
    win.ask_save_changes = lambda what: "discard"
    assert win.load_from(files[0])
    c = win.controller
    c.to_start()
    seen = []
    while c.forward():
        seen.append(c.current.move)
    assert c.record.start_state().format_line(seen) == arena.moves
    assert c.state.to_text() == state_after(arena).to_text()
    win.close()
