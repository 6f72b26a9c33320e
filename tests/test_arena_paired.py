"""``gamesuite compare``: two saved runs of one schedule, paired game by game."""

from __future__ import annotations

import json
import math

import pytest

from gamesuite.arena.paired import compare_runs, engine_score, load_run, sign_test
from gamesuite.arena.record import GameRecord
from gamesuite.core.errors import InvalidRecordError

RANDOM = "py:tests.fakes.engines:Scripted,mode=random,seed=3,label=random"
FIRST = "py:tests.fakes.engines:Scripted,label=first"
GAME = "tictactoe(m=4,n=4,k=3)"


def _match(run, folder, engine: str, seed: str = "7", games: str = "8") -> None:
    status, _, err = run("match", GAME, "--engine", engine, "--engine", RANDOM, "--games", games, "--depth", "3",
                         "--seed", seed, "--save", str(folder), "--quiet")
    assert status == 0, err


def test_sign_test_is_the_exact_binomial():
    assert sign_test(0, 0) == 1.0
    assert sign_test(5, 5) == 1.0
    assert math.isclose(sign_test(10, 0), 2 / 1024)
    assert math.isclose(sign_test(1, 9), 2 * 11 / 1024)
    assert sign_test(3, 4) == sign_test(4, 3)


def test_a_run_against_itself_changes_nothing(tmp_path, run):
    _match(run, tmp_path / "a", "tictactoe:solver")
    _match(run, tmp_path / "b", "tictactoe:solver")
    c = compare_runs(load_run(tmp_path / "a"), load_run(tmp_path / "b"))
    assert len(c.games) == 8 and c.identical == 8
    assert c.better == c.worse == 0 and c.difference().value == 0.0 and c.sign_p() == 1.0


def test_a_weaker_candidate_shows_as_worse_game_by_game(tmp_path, run):
    _match(run, tmp_path / "base", "tictactoe:solver")
    _match(run, tmp_path / "cand", FIRST)
    base, cand = load_run(tmp_path / "base"), load_run(tmp_path / "cand")
    c = compare_runs(base, cand)
    assert len(c.games) == 8
    # every paired score is the record's own result for engine 1
    for g in c.games:
        assert g.base == engine_score(base[g.round], 0) and g.cand == engine_score(cand[g.round], 0)
    assert c.mean("base") > c.mean("cand") and c.worse > c.better
    d = c.difference()
    assert d.value == pytest.approx(c.mean("cand") - c.mean("base")) and d.lo <= d.value <= d.hi
    # the opponent's view is the mirror image
    o = compare_runs(base, cand, engine=1)
    assert o.better == c.worse and o.worse == c.better


def test_the_command_prints_the_summary(tmp_path, run):
    _match(run, tmp_path / "base", "tictactoe:solver")
    _match(run, tmp_path / "cand", FIRST)
    status, out, err = run("compare", str(tmp_path / "base"), str(tmp_path / "cand"), "--games")
    assert status == 0, err
    assert "8 games paired" in out and "difference" in out and "sign test" in out and "game " in out


def test_runs_of_different_schedules_are_refused(tmp_path, run):
    _match(run, tmp_path / "a", "tictactoe:solver", seed="7")
    _match(run, tmp_path / "b", "tictactoe:solver", seed="8")
    a, b = load_run(tmp_path / "a"), load_run(tmp_path / "b")
    if all(a[n].moves[:a[n].opening_plies] == b[n].moves[:b[n].opening_plies] for n in a):
        pytest.skip("the two seeds happened to draw the same openings")
    with pytest.raises(InvalidRecordError, match="same --openings"):
        compare_runs(a, b)


def test_bad_folders_give_one_clear_line(tmp_path, run):
    status, _, err = run("compare", str(tmp_path / "missing"), str(tmp_path))
    assert status == 2 and "is not a folder of saved games" in err and "missing" in err
    (tmp_path / "game-00001.json").write_text("{not json")
    status, _, err = run("compare", str(tmp_path), str(tmp_path))
    assert status == 2 and "not valid JSON" in err


def test_first_places_of_a_three_player_game():
    rec = GameRecord(game="x", start="", moves=[], opening_plies=0, engines=["a", "b", "c"],
                     returns=[0.0, 1.0, -1.0], result="2,1,3", reason="", engine_index=[2, 0, 1])
    assert engine_score(rec, 0, "first") == 1.0 and engine_score(rec, 2, "first") == 0.0
    tie = GameRecord(game="x", start="", moves=[], opening_plies=0, engines=["a", "b", "c"],
                     returns=[1.0, 1.0, -1.0], result="1,1,3", reason="", engine_index=[0, 1, 2])
    assert engine_score(tie, 0, "first") == 0.5 and engine_score(tie, 0) == 1.0
    assert engine_score(rec, 2) == 0.5 and engine_score(rec, 1) == 0.0
    assert json.loads(json.dumps(rec.to_json()))["match"]["engine_index"] == [2, 0, 1]


def test_first_opening_starts_the_file_further_on(tmp_path, run):
    lines = ["x.......o", ".x......o", "..x.....o", "...x....o"]
    f = tmp_path / "openings.txt"
    f.write_text("# four openings\n" + "\n".join(lines) + "\n")
    starts = {}
    for first in ("1", "3"):
        d = tmp_path / first
        status, _, err = run("match", "tictactoe", "--engine", "solver", "--engine", "reference", "--games", "4",
                             "--depth", "2", "--openings", str(f), "--first-opening", first, "--save", str(d),
                             "--quiet")
        assert status == 0, err
        starts[first] = [json.loads(p.read_text())["start"] for p in sorted(d.glob("game-*.json"))]
    assert starts["1"] == [lines[0], lines[0], lines[1], lines[1]]
    assert starts["3"] == [lines[2], lines[2], lines[3], lines[3]]
    status, _, err = run("match", "tictactoe", "--engine", "solver", "--engine", "reference", "--games", "2",
                         "--depth", "2", "--openings", str(f), "--first-opening", "5")
    assert status == 2 and "--first-opening must be 1..4" in err
    status, _, err = run("match", "tictactoe", "--engine", "solver", "--engine", "reference", "--games", "2",
                         "--depth", "2", "--first-opening", "2")
    assert status == 2 and "needs --openings" in err
