"""The command line: analyse, games, play, bench, engine and their errors."""

import json
import subprocess
import sys

import pytest


def gs(*args, input=None, timeout=120):
    return subprocess.run([sys.executable, "-m", "gamesuite", *args], capture_output=True, text=True,
                          input=input, timeout=timeout)


def test_analyse_json_says_draw_from_the_empty_board():
    r = gs("analyse", "tictactoe", "--position", ".........", "--json")
    assert r.returncode == 0, r.stderr
    lines = [json.loads(ln) for ln in r.stdout.splitlines()]
    infos, last = lines[:-1], lines[-1]
    assert infos and all({"depth", "score", "pv", "nodes", "time_ms"} <= set(i) for i in infos)
    assert [i["depth"] for i in infos] == list(range(1, 10))
    assert last["bestmove"] in {"a1", "a3", "c1", "c3", "b2", "a2", "b1", "b3", "c2"}
    assert last["score"]["kind"] == "draw" and infos[-1]["score"]["text"] == "draw"


def test_analyse_text_and_multipv():
    r = gs("analyse", "tictactoe", "--position", "xx.oo....", "--multipv", "2", "--depth", "3")
    assert r.returncode == 0, r.stderr
    assert "multipv 2" in r.stdout
    assert r.stdout.strip().splitlines()[-1].startswith("bestmove c3 score win in 1")


def test_analyse_positions_file(tmp_path):
    f = tmp_path / "positions.txt"
    f.write_text("# two positions\n.........\nxx.oo....\n")
    r = gs("analyse", "tictactoe", "--positions", str(f), "--json")
    assert r.returncode == 0, r.stderr
    best = [json.loads(ln) for ln in r.stdout.splitlines() if '"bestmove"' in ln and '"type": "bestmove"' in ln]
    assert len(best) == 2 and best[1]["bestmove"] == "c3"


@pytest.mark.parametrize(
    "args, fragment",
    [
        (["analyse", "tictactoe", "--position", "xxxx"], "'xxxx'"),
        (["analyse", "nosuch"], "'nosuch'"),
        (["analyse", "tictactoe", "--depth", "0"], "--depth"),
        (["analyse", "tictactoe", "--engine", "bogus"], "'bogus'"),
        (["analyse", "tictactoe", "--positions", "/no/such/file"], "/no/such/file"),
        (["bench", "nosuch"], "'nosuch'"),
        (["engine", "nosuch"], "'nosuch'"),
    ],
)
def test_bad_input_gives_one_clear_line_and_nonzero_exit(args, fragment):
    r = gs(*args)
    assert r.returncode != 0
    err = r.stderr.strip().splitlines()
    assert len(err) == 1 and fragment in err[0], r.stderr
    assert "Traceback" not in r.stderr


def test_games_lists_parameters_and_engines():
    r = gs("games")
    assert r.returncode == 0
    assert "tictactoe" in r.stdout and "k=3" in r.stdout and "solver (default)" in r.stdout
    rows = [json.loads(ln) for ln in gs("games", "--json").stdout.splitlines()]
    assert any(row["name"] == "tictactoe" and row["params"] == {"m": 3, "n": 3, "k": 3} for row in rows)


def test_play_survives_bad_input_and_finishes_a_game():
    # the human (X) plays the corners greedily; bad lines in between must not break anything
    script = "\n".join(["zz9", "b2", "hint", "moves", "", "undo", "a1", "a1", "c3", "a3", "c1", "b1", "a2",
                        "b3", "c2", "quit"]) + "\n"
    r = gs("play", "tictactoe", "--movetime", "50", input=script)
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stdout + r.stderr
    assert "error: move 'zz9'" in r.stdout
    assert "hint:" in r.stdout
    assert "game over: draw" in r.stdout or "game over: O wins" in r.stdout


@pytest.mark.parametrize("cmd", [[], ["games"], ["analyse"], ["play"], ["bench"], ["engine"]])
def test_help(cmd):
    r = gs(*cmd, "--help")
    assert r.returncode == 0 and "usage:" in r.stdout


def test_bench_tictactoe_prints_figures():
    r = gs("bench", "tictactoe", "--repeat", "2")
    assert r.returncode == 0, r.stderr
    first = r.stdout.splitlines()[1].split()
    assert first[0] == "tictactoe" and first[1] == "draw" and int(first[2]) > 0


def test_gamesuite_alone_opens_the_window_and_closes_cleanly(tmp_path, monkeypatch):
    for var in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"):
        monkeypatch.setenv(var, str(tmp_path / var))
    monkeypatch.setenv("QT_QPA_PLATFORM", "offscreen")
    r = gs("--quit-after", "300")
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stderr
