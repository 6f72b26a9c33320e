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
    """The command in a fresh interpreter (as a user runs it)."""
    return subprocess.run([sys.executable, "-m", "gamesuite", *args], capture_output=True, text=True,
                          timeout=timeout, cwd=ROOT)




def test_match_prints_the_figures_and_saves_records_the_app_can_open(tmp_path, run):
    status, out, err = run("match", "tictactoe(m=4,n=4,k=3)", "--engine", "tictactoe:solver", "--engine",
                           "reference,label=ref", "--games", "6", "--depth", "3", "--seed", "5",
                           "--save", str(tmp_path))
    assert status == 0, err
    assert "solver vs ref" in out and "Score of solver vs ref:" in out
    assert "95% CI" in out and "Elo difference:" in out and "adjudications:" in out and "pentanomial" in out
    assert "6/6" in err  # the progress line reached the end
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


def test_same_seed_same_games(tmp_path, run):
    outs = []
    for k in range(2):
        d = tmp_path / str(k)
        status, _, err = run("match", "tictactoe", "--engine", "solver", "--engine",
                             "py:tests.fakes.engines:Scripted,mode=random", "--games", "4", "--depth", "9",
                             "--seed", "9", "--save", str(d), "--quiet")
        assert status == 0, err
        outs.append([json.loads(f.read_text())["moves"] for f in sorted(d.glob("game-*.json"))])
    assert outs[0] == outs[1]


def test_sprt_stops_a_one_sided_match_early(run):
    status, out, err = run("match", "tictactoe", "--engine", "solver", "--engine", FIRST, "--games", "200",
                           "--depth", "9", "--sprt", "0,100,0.05,0.05", "--quiet", "--seed", "1")
    assert status == 0, err
    assert "H1 accepted" in out and "stopped after" in out
    played = int(out.split("stopped after ")[1].split()[0])
    assert 2 <= played < 200


def test_tournament_table_printed_and_saved(tmp_path, run):
    table = tmp_path / "t.csv"
    status, out, err = run("tournament", "tictactoe", "--engine", "solver", "--engine", "reference", "--engine",
                           FIRST, "--games", "2", "--depth", "9", "--table", str(table), "--save",
                           str(tmp_path / "rec"), "--quiet", "--concurrency", "2")
    assert status == 0, err
    rows = list(csv.DictReader(table.open()))
    assert [row["engine"] for row in rows][-1] == "first"  # first-legal-move loses to both
    assert {row["engine"] for row in rows} == {"solver", "reference", "first"}
    assert all(int(row["games"]) == 4 for row in rows)
    assert len(list((tmp_path / "rec").glob("game-*.json"))) == 6
    j = json.loads((tmp_path / "rec" / "tournament.json").read_text())
    assert j["games"] == 6 and j["standings"][0]["rank"] == 1
    assert (tmp_path / "rec" / "standings.csv").exists()
    assert "engine" in out and "first" in out


def test_tournament_json_table(tmp_path, run):
    status, _, err = run("tournament", "tictactoe", "--engine", "solver", "--engine", FIRST, "--games", "2",
                         "--depth", "2", "--table", str(tmp_path / "t.json"), "--quiet")
    assert status == 0, err
    assert json.loads((tmp_path / "t.json").read_text())["standings"][0]["engine"] == "solver"


def test_a_crashing_engine_loses_every_game_and_the_match_finishes(run):
    status, out, err = run("match", "tictactoe", "--engine", "solver", "--engine",
                           "py:tests.fakes.engines:Scripted,mode=crash,at=1,label=crashy", "--games", "4",
                           "--depth", "2", "--quiet")
    assert status == 0, err
    assert "Score of solver vs crashy: 4 - 0 - 0" in out and "crash 4" in out


@pytest.mark.parametrize("args, fragment", [
    (["--engine", "solver", "--engine", "nosuch", "--depth", "2"], "unknown engine 'nosuch'"),
    (["--engine", "solver", "--engine", "solver", "--clock", "x"], "BASE+INC"),
    (["--engine", "solver", "--engine", "gomoku:mtdf", "--depth", "2"], "is for 'gomoku'"),
    (["--engine", "solver", "--engine", "usi:/no/such/engine", "--depth", "2"], "no program"),
    (["--engine", "solver", "--engine", "solver", "--engine", "reference", "--depth", "2"], "tournament"),
    (["--engine", "solver", "--engine", "solver", "--depth", "2", "--sprt", "5,0"], "elo0 < elo1"),
    (["--engine", "solver", "--engine", "solver", "--depth", "0"], "--depth must be positive"),
    (["--engine", "solver", "--engine", "solver", "--depth", "2", "--openings", "/no/file"], "cannot read"),
    (["--engine", "solver", "--engine", "py:tests.fakes.engines:Crasher", "--depth", "2"], "cannot even start"),
])
def test_bad_input_gives_one_clear_line(args, fragment, run):
    status, out, err = run("match", "tictactoe", *args, "--games", "2")
    assert status == 2
    assert fragment in err and len(err.strip().splitlines()) == 1


def test_a_time_control_is_required_and_errors_exit_2_from_the_shell():
    r = gs("match", "tictactoe", "--engine", "solver", "--engine", "solver")
    assert r.returncode == 2 and "engine solver has no limit" in r.stderr and "Traceback" not in r.stderr
    r = gs("match", "tictactoe", "--engine", "solver", "--engine", "solver", "--depth", "2", "--nodes", "5")
    assert r.returncode == 2 and "not allowed with argument" in r.stderr
    r = gs("match", "tictactoe", "--engine", "solver", "--engine", "nosuch", "--depth", "2")
    assert r.returncode == 2 and "unknown engine 'nosuch'" in r.stderr and "Traceback" not in r.stderr


def test_bench_arena_prints_figures(run):
    status, out, err = run("bench", "arena", "--games", "4", "--depth", "2", "--concurrency", "1")
    assert status == 0, err
    assert "games/s" in out and len(out.strip().splitlines()) == 3
