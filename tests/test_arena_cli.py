"""``gamesuite match`` and ``gamesuite tournament`` end to end."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path

import pytest

from gamesuite.arena.record import load_record

ROOT = Path(__file__).resolve().parent.parent
FIRST = "py:tests.fakes.engines:Scripted,label=first"


def gs(*args: str, timeout: int = 240) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "gamesuite", *args], capture_output=True, text=True,
                          timeout=timeout, cwd=ROOT)


def test_match_prints_the_figures_and_saves_records_the_app_can_open(tmp_path):
    r = gs("match", "tictactoe(m=4,n=4,k=3)", "--engine", "tictactoe:solver", "--engine", "reference,label=ref",
           "--games", "6", "--depth", "3", "--seed", "5", "--save", str(tmp_path))
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert "solver vs ref" in out and "Score of solver vs ref:" in out
    assert "95% CI" in out and "Elo difference:" in out and "adjudications:" in out
    assert "6/6" in r.stderr  # the progress line reached the end
    files = sorted(tmp_path.glob("game-*.json"))
    assert len(files) == 6
    for f in files:
        rec, game, start, moves = load_record(f)
        assert game.spec == "tictactoe(m=4,n=4,k=3)" and rec.engines in (["solver", "ref"], ["ref", "solver"])
        s = start.copy()
        for m in moves:
            s.play(m)
        assert s.is_terminal() and s.returns() == rec.returns
    summary = json.loads((tmp_path / "match.json").read_text())
    assert summary["games_played"] == 6 and summary["seed"] == 5
    w, d, l = summary["wdl"]["solver vs ref"]
    assert w + d + l == 6


def test_same_seed_same_games(tmp_path):
    outs = []
    for k in range(2):
        d = tmp_path / str(k)
        r = gs("match", "tictactoe", "--engine", "solver", "--engine", "py:tests.fakes.engines:Scripted,mode=random",
               "--games", "4", "--depth", "9", "--seed", "9", "--save", str(d), "--quiet")
        assert r.returncode == 0, r.stderr
        outs.append([json.loads(f.read_text())["moves"] for f in sorted(d.glob("game-*.json"))])
    assert outs[0] == outs[1]


def test_sprt_stops_a_one_sided_match_early():
    r = gs("match", "tictactoe", "--engine", "solver", "--engine", FIRST, "--games", "200", "--depth", "9",
           "--sprt", "0,100,0.05,0.05", "--quiet", "--seed", "1")
    assert r.returncode == 0, r.stderr
    assert "H1 accepted" in r.stdout and "stopped after" in r.stdout
    played = int(r.stdout.split("stopped after ")[1].split()[0])
    assert 2 <= played < 200


def test_tournament_table_printed_and_saved(tmp_path):
    table = tmp_path / "t.csv"
    r = gs("tournament", "tictactoe", "--engine", "solver", "--engine", "reference", "--engine", FIRST,
           "--games", "2", "--depth", "9", "--table", str(table), "--save", str(tmp_path / "rec"), "--quiet",
           "--concurrency", "2")
    assert r.returncode == 0, r.stderr
    rows = list(csv.DictReader(table.open()))
    assert [row["engine"] for row in rows][-1] == "first"  # first-legal-move loses to both
    assert {row["engine"] for row in rows} == {"solver", "reference", "first"}
    assert all(int(row["games"]) == 4 for row in rows)
    assert len(list((tmp_path / "rec").glob("game-*.json"))) == 6
    j = json.loads((tmp_path / "rec" / "tournament.json").read_text())
    assert j["games"] == 6 and j["standings"][0]["rank"] == 1
    assert (tmp_path / "rec" / "standings.csv").exists()
    assert "engine" in r.stdout and "first" in r.stdout
    r = gs("tournament", "tictactoe", "--engine", "solver", "--engine", FIRST, "--games", "2", "--depth", "2",
           "--table", str(tmp_path / "t.json"), "--quiet")
    assert r.returncode == 0, r.stderr
    assert json.loads((tmp_path / "t.json").read_text())["standings"][0]["engine"] == "solver"


def test_a_crashing_engine_loses_every_game_and_the_match_finishes():
    r = gs("match", "tictactoe", "--engine", "solver", "--engine",
           "py:tests.fakes.engines:Scripted,mode=crash,at=1,label=crashy", "--games", "4", "--depth", "2", "--quiet")
    assert r.returncode == 0, r.stderr
    assert "Score of solver vs crashy: 4 - 0 - 0" in r.stdout and "crash 4" in r.stdout


@pytest.mark.parametrize("args, fragment", [
    (["--engine", "solver", "--engine", "nosuch", "--depth", "2"], "unknown engine 'nosuch'"),
    (["--engine", "solver", "--engine", "solver", "--clock", "x"], "BASE+INC"),
    (["--engine", "solver", "--engine", "gomoku:mtdf", "--depth", "2"], "is for 'gomoku'"),
    (["--engine", "solver", "--engine", "usi:/no/such/engine", "--depth", "2"], "no program"),
    (["--engine", "solver", "--engine", "solver", "--engine", "reference", "--depth", "2"], "tournament"),
    (["--engine", "solver", "--engine", "solver", "--depth", "2", "--sprt", "5,0"], "elo0 < elo1"),
    (["--engine", "solver", "--engine", "solver", "--depth", "0"], "--depth must be positive"),
    (["--engine", "solver", "--engine", "solver", "--depth", "2", "--openings", "/no/file"], "cannot read"),
])
def test_bad_input_gives_one_clear_line(args, fragment):
    r = gs("match", "tictactoe", *args, "--games", "2")
    assert r.returncode == 2
    assert fragment in r.stderr and "Traceback" not in r.stderr


def test_a_time_control_is_required():
    r = gs("match", "tictactoe", "--engine", "solver", "--engine", "solver")
    assert r.returncode == 2 and "one of the arguments" in r.stderr
