"""SPSA through the arena: parameters, gains, the state file and resuming, a toy with a known optimum."""

from __future__ import annotations

import json

import pytest

from gamesuite.arena.spec import parse_engine_spec
from gamesuite.arena.spsa import Spsa, SpsaParam, final_spec, load_state, parse_param, read_params, run_spsa
from gamesuite.core.errors import InvalidOptionError
from gamesuite.core.registry import _GAMES, load_game, register_game

from .fakes.duel import Duel

NOISY = "py:tests.fakes.duel:Noisy,@depth=1"


@pytest.fixture
def duel():
    register_game(Duel)
    yield load_game("duel")
    _GAMES.pop(Duel.name, None)


def test_parameters_are_written_the_fishtest_way(tmp_path):
    p = parse_param(" w_four, 800, 0, 2000, 40, 0.002")
    assert p == SpsaParam("w_four", 800.0, 0.0, 2000.0, 40.0, 0.002, integer=True)
    assert p.value_text(812.6) == "813" and p.value_text(5000) == "2000"
    q = parse_param("c,1.4,0.1,5,0.2,0.01")
    assert not q.integer and q.value_text(1.23456789) == "1.23457"
    for bad, fragment in (("x,1,2,3", "expected NAME"), ("x,a,0,1,1,1", "must be numbers"),
                          ("x,5,0,1,1,1", "min <= start <= max"), ("x,1,0,2,0,1", "positive"),
                          ("1x,1,0,2,1,1", "not an option name")):
        with pytest.raises(InvalidOptionError, match=fragment):
            parse_param(bad)
    f = tmp_path / "p.txt"
    f.write_text("# name, start, min, max, c_end, r_end\nx, 2, 0, 20, 1, 0.05\n\ny,8,0,20,1,0.05\n")
    assert [p.name for p in read_params(f)] == ["x", "y"]
    f.write_text("x,2,0,20,1,0.05\ny,8\n")
    with pytest.raises(InvalidOptionError, match="line 2"):
        read_params(f)


def test_gains_follow_fishtest(duel):
    s = Spsa(duel, parse_engine_spec(NOISY), [parse_param("x,2,0,20,4,0.01")], pairs=1000)
    p = s.params[0]
    assert s.c_k(p, 1000) == pytest.approx(4.0) and s.c_k(p, 1) == pytest.approx(4 * 1000**0.101)
    a_end = 0.01 * 4**2
    assert s.a_k(p, 1000) == pytest.approx(a_end) and s.a_k(p, 1) > s.a_k(p, 500) > a_end
    assert s.big_a == 100


def test_bad_runs_are_refused(duel):
    x = [parse_param("x,2,0,20,1,0.05")]
    with pytest.raises(InvalidOptionError, match="has no limit"):
        Spsa(duel, parse_engine_spec("py:tests.fakes.duel:Noisy"), x, pairs=10)
    with pytest.raises(InvalidOptionError, match="sets x itself"):
        Spsa(duel, parse_engine_spec(NOISY + ",x=3"), x, pairs=10)
    with pytest.raises(InvalidOptionError, match="repeat a name"):
        Spsa(duel, parse_engine_spec(NOISY), x + x, pairs=10)
    with pytest.raises(InvalidOptionError, match="two engines"):
        Spsa(load_game("hare(players=3)"), parse_engine_spec("maxn,@depth=1"), x, pairs=10)


def test_spsa_finds_the_known_optimum_of_a_toy(duel, tmp_path):
    # Noisy plays best at x = 7; start far away at 2
    s = Spsa(duel, parse_engine_spec(NOISY), [parse_param("x,2.0,0.0,20.0,1.0,0.05")], pairs=150, batch=1, seed=3,
             state_path=tmp_path / "state.json")
    seen = []
    state = run_spsa(s, lambda entry, st: seen.append(entry))
    assert state["k"] == 150 and len(seen) == 150 == len(state["history"])
    assert abs(state["theta"]["x"] - 7.0) < 1.0
    first = seen[0]
    assert sum(first["result"]) == 2 and first["delta"]["x"] in (-1, 1)
    # theta+ is the perturbed side that the sign points to
    assert float(first["plus"]["x"]) == pytest.approx(2.0 + first["c"]["x"] * first["delta"]["x"], abs=1e-4)
    saved = json.loads((tmp_path / "state.json").read_text())
    assert saved["k"] == 150 and saved["theta"] == state["theta"] and saved["format"] == "gamesuite-spsa"
    assert final_spec(s, state["theta"]).startswith(NOISY + ",x=")


def test_a_stopped_run_continues_where_it_stopped(duel, tmp_path):
    def make(path):
        return Spsa(duel, parse_engine_spec(NOISY), [parse_param("x,2.0,0.0,20.0,1.0,0.05"),
                                                     parse_param("y,8,0,20,1,0.05")],
                    pairs=40, batch=2, seed=5, state_path=path)

    whole = run_spsa(make(tmp_path / "a.json"))
    # the same run killed after 6 batches, then started again
    count = {"n": 0}

    def stop_after_six() -> bool:
        return count["n"] >= 6

    part = run_spsa(make(tmp_path / "b.json"), lambda e, s: count.__setitem__("n", count["n"] + 1), stop_after_six)
    assert part["k"] == 12
    assert load_state(tmp_path / "b.json", make(None))["k"] == 12
    again = run_spsa(make(tmp_path / "b.json"))
    assert again["k"] == 40 and again["theta"] == whole["theta"] and again["history"] == whole["history"]
    # a finished run does nothing more; another run's settings are refused
    assert run_spsa(make(tmp_path / "b.json"))["history"] == whole["history"]
    other = Spsa(duel, parse_engine_spec(NOISY), [parse_param("x,3.0,0.0,20.0,1.0,0.05")], pairs=40,
                 state_path=tmp_path / "b.json")
    with pytest.raises(InvalidOptionError, match="belongs to another run.*params"):
        run_spsa(other)
    (tmp_path / "c.json").write_text("{nope")
    with pytest.raises(InvalidOptionError, match="cannot read the SPSA state"):
        run_spsa(make(tmp_path / "c.json"))


def test_tune_spsa_command(duel, tmp_path, capsys):
    from gamesuite.cli import main

    args = ["tune", "duel", "--spsa", "--engine", NOISY, "--param", "x,2.0,0.0,20.0,1.0,0.05", "--pairs", "30",
            "--state", str(tmp_path / "s.json"), "--seed", "2", "--save", str(tmp_path / "games")]
    assert main(args) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("duel(target=10,top=20): SPSA of x in " + NOISY)
    assert sum(1 for ln in out if ln.startswith("pairs ")) == 30 and out[-3].startswith("pairs 30/30")
    assert out[-2].startswith("theta after 30 pairs: x=") and out[-1].startswith(f"engine: {NOISY},x=")
    assert len(list((tmp_path / "games").glob("game-*.json"))) == 60
    assert main(args) == 0  # finished: continued with nothing left to play
    out = capsys.readouterr().out.splitlines()
    assert "(continued)" in out[0] and not any(ln.startswith("pairs ") for ln in out)
    assert main(["tune", "duel", "--spsa", "--engine", NOISY, "--state", str(tmp_path / "t.json")]) == 2
    assert "at least one parameter" in capsys.readouterr().err
    assert main(["tune", "duel", "--spsa", "--engine", NOISY, "--param", "x,2,0,20,1,0.05"]) == 2
    assert "--state" in capsys.readouterr().err
    # SPSA's options without --spsa are refused, not silently ignored
    assert main(["tune", "hare", "--opponent", "maxn", "--score", "place"]) == 2
    assert "--opponent, --score only apply to an SPSA run: add --spsa" in capsys.readouterr().err


def test_tune_spsa_in_worker_processes(tmp_path):
    """A real engine's option, through local worker processes (as a user runs it)."""
    from .test_arena_cli import gs

    r = gs("tune", "tictactoe(m=4,n=4,k=3)", "--spsa", "--engine", "tictactoe:mcts,seed=1,@nodes=200",
           "--param", "c,1.4,0.1,5.0,0.3,0.01", "--pairs", "2", "--concurrency", "2",
           "--state", str(tmp_path / "s.json"))
    assert r.returncode == 0, r.stderr
    state = json.loads((tmp_path / "s.json").read_text())
    assert state["k"] == 2 and len(state["history"]) == 2  # batch: half of two workers, one pair
    assert all(sum(h["result"]) == 2 and h["errors"] == 0 for h in state["history"])
    assert 0.1 <= state["theta"]["c"] <= 5.0 and "engine: tictactoe:mcts,seed=1,@nodes=200,c=" in r.stdout


@pytest.mark.slow
def test_spsa_finds_the_optimum_from_every_seed(duel):
    for seed in range(20):
        s = Spsa(duel, parse_engine_spec(NOISY), [parse_param("x,2.0,0.0,20.0,1.0,0.05")], pairs=150, seed=seed)
        assert abs(run_spsa(s)["theta"]["x"] - 7) < 1.0, seed
    for seed in range(10):
        s = Spsa(duel, parse_engine_spec(NOISY), [parse_param("x,2.0,0.0,20.0,1.0,0.05"),
                                                  parse_param("y,8,0,20,1,0.05")], pairs=600, batch=2, seed=seed)
        theta = run_spsa(s)["theta"]
        assert abs(theta["x"] - 7) < 1.0 and abs(theta["y"] - 3) < 1.0, (seed, theta)


# -- against fixed opponents -----------------------------------------------------------------------------------

WRITEUP = "hare:writeup,@nodes=300"


class _Recorder:
    """An executor that plays nothing: it keeps the tasks and answers each with made-up returns."""

    def __init__(self, returns_of):
        self.tasks = []
        self.returns_of = returns_of

    def run(self, tasks, on_record, should_stop):
        from gamesuite.arena.record import GameRecord

        for t in tasks:
            self.tasks.append(t)
            on_record(GameRecord(game=t.game, start="", moves=[], opening_plies=0, engines=[], returns=
                                 self.returns_of(t), result="", reason="", engine_index=list(t.engine_index),
                                 round=t.round, seed=t.seed, rotation=t.rotation))

    def close(self):
        pass


def _hare3(**kw):
    return Spsa(load_game("hare(players=3)"), parse_engine_spec("hare:maxn,@nodes=300", "hare"),
                [parse_param("ks,0.97,0.2,3,0.15,0.004")], pairs=12, batch=4,
                opponents=(parse_engine_spec(WRITEUP, "hare"),) * 2, **kw)


def test_theta_plus_and_minus_play_the_same_game_against_the_opponents():
    from gamesuite.arena.openings import Opening
    from gamesuite.arena.spsa import new_state, play_batch

    s = _hare3()
    s.openings = [Opening(moves=(str(i),)) for i in range(5)]  # stand-ins: only their identity is checked
    assert s.score == "first"  # the default with three players
    # theta+ finishes first whenever its seat is 0, else the tuned engine is last: only those pairs move theta

    def returns_of(t):
        seat = next(i for i, e in enumerate(t.engine_index) if e < 2)
        mine = 1.0 if t.engine_index[0] == 0 else -1.0
        rest = iter([0.0, -mine])
        return [mine if i == seat else next(rest) for i in range(3)]

    ex = _Recorder(returns_of)
    state = new_state(s)
    entries = [play_batch(s, state, ex) for _ in range(3)]
    tasks = ex.tasks
    assert len(tasks) == 24 and [t.round for t in tasks] == list(range(1, 25))
    seats, places = [], []
    for j, (a, b) in enumerate(zip(tasks[::2], tasks[1::2])):
        assert a.opening == b.opening and a.seed == b.seed and a.rotation == b.rotation
        assert a.specs[a.engine_index.index(0)].label == "plus" and b.specs[b.engine_index.index(1)].label == "minus"
        seat = a.engine_index.index(0)
        assert b.engine_index.index(1) == seat == j % 3
        assert [e for e in a.engine_index if e > 1] == [e for e in b.engine_index if e > 1]
        assert all(sp.text == WRITEUP for sp, e in zip(a.specs, a.engine_index) if e > 1)
        seats.append(seat)
        places.append(tuple(a.engine_index))
    assert sorted(seats) == [0] * 4 + [1] * 4 + [2] * 4  # every seat equally often
    assert len(set(places)) == 6 and all(places.count(p) == 2 for p in places)  # the opponents' seats too
    assert len({t.seed for t in tasks}) == 12  # a new deal every pair
    # pairs 0, 3, 6, 9 (seat 0) were won by theta+ only: result 2 * (1 - 0) each
    assert [e["scores"] for e in entries] == [[2.0, 0.0], [1.0, 0.0], [1.0, 0.0]]
    assert [e["result"] for e in entries] == [[2, 2, 0], [1, 3, 0], [1, 3, 0]]
    assert state["vs"] == {"pairs": 12, "plus": 4.0, "minus": 0.0}
    first = entries[0]
    step = s.a_k(s.params[0], 1) / first["c"]["ks"] * 2 * 2.0 * first["delta"]["ks"]
    assert first["theta"]["ks"] == pytest.approx(0.97 + step, rel=1e-4)


def test_games_against_opponents_are_scored_by_first_place_or_by_place():
    from gamesuite.arena.record import GameRecord
    from gamesuite.arena.spsa import game_score, pair_results

    assert [game_score([1.0, 0.0, -1.0], s, "first") for s in range(3)] == [1.0, 0.0, 0.0]
    assert [game_score([1.0, 0.0, -1.0], s, "place") for s in range(3)] == [1.0, 0.5, 0.0]
    assert [game_score([1.0, 1.0, -1.0], s, "first") for s in range(3)] == [0.5, 0.5, 0.0]  # a tie for first
    assert [game_score([0.0, 0.0], s, r) for s in range(2) for r in ("first", "place")] == [0.5] * 4  # a draw
    assert [game_score([-1.0, 1.0], 0, r) for r in ("first", "place")] == [0.0, 0.0]
    assert game_score([-1.0, 1.0 / 3, -1.0 / 3, 1.0], 1, "place") == pytest.approx(2 / 3)
    with pytest.raises(InvalidOptionError, match="score rule"):
        game_score([1.0, -1.0], 0, "mean")

    def rec(rnd, index, returns, error=""):
        return GameRecord(game="", start="", moves=[], opening_plies=0, engines=[], returns=returns, result="",
                          reason="", engine_index=index, round=rnd, error=error)

    s = _hare3(score="place")
    records = [rec(4, [2, 1, 3], [1.0, 0.0, -1.0]), rec(1, [0, 2, 3], [0.0, 1.0, -1.0]),
               rec(2, [1, 2, 3], [-1.0, 1.0, 0.0]), rec(3, [2, 0, 3], [1.0, -1.0, 0.0]),
               rec(5, [2, 3, 0], [0.0, -1.0, 1.0]), rec(6, [2, 3, 1], [], error="crashed")]
    pairs, errors = pair_results(s, records)
    assert pairs == [(0.5, 0.0), (0.0, 0.5)] and errors == 1  # the third pair lost a game: it counts for nothing
    assert pair_results(_hare3(), records)[0] == [(0.0, 0.0), (0.0, 0.0)]


def test_opponents_are_checked_and_recorded_in_the_state(duel, tmp_path):
    x = [parse_param("x,2.0,0.0,20.0,1.0,0.05")]
    opp = parse_engine_spec("py:tests.fakes.duel:Noisy,x=5,y=3,@depth=1")
    with pytest.raises(InvalidOptionError, match="needs 1 opponent"):
        Spsa(duel, parse_engine_spec(NOISY), x, pairs=4, opponents=(opp, opp))
    with pytest.raises(InvalidOptionError, match="has no limit"):
        Spsa(duel, parse_engine_spec(NOISY), x, pairs=4, opponents=(parse_engine_spec("py:tests.fakes.duel:Noisy"),))
    with pytest.raises(InvalidOptionError, match="needs opponents"):
        Spsa(duel, parse_engine_spec(NOISY), x, pairs=4, score="first")
    with pytest.raises(InvalidOptionError, match="score rule"):
        Spsa(duel, parse_engine_spec(NOISY), x, pairs=4, opponents=(opp,), score="mean")
    path = tmp_path / "s.json"

    def make(opponents, **kw):
        return Spsa(duel, parse_engine_spec(NOISY), x, pairs=4, batch=2, seed=1, state_path=path,
                    opponents=opponents, **kw)

    s = make((opp,))
    assert s.score == "place"  # two players: win, draw, loss
    state = run_spsa(s, should_stop=lambda: path.exists())
    assert state["k"] == 2 and state["opponents"] == [opp.text] and state["score"] == "place"
    other = parse_engine_spec("py:tests.fakes.duel:Noisy,x=6,y=3,@depth=1")
    with pytest.raises(InvalidOptionError, match=r"another run \(its opponents differ; its opponents: "
                                                 r"py:tests.fakes.duel:Noisy,x=5.*this run's: .*x=6"):
        run_spsa(make((other,)))
    with pytest.raises(InvalidOptionError, match="its score differ"):
        run_spsa(make((opp,), score="first"))
    with pytest.raises(InvalidOptionError, match="this run's: none \\(self-play\\)"):
        run_spsa(make(()))
    assert run_spsa(make((opp,)))["k"] == 4  # the same opponents continue


def test_spsa_against_an_opponent_finds_the_known_optimum_of_a_toy(duel):
    # Noisy plays best at x = 7; against a fixed middling opponent, from 2
    opp = parse_engine_spec("py:tests.fakes.duel:Noisy,x=4,y=3,@depth=1")
    s = Spsa(duel, parse_engine_spec(NOISY + ",y=3"), [parse_param("x,2.0,0.0,20.0,1.0,0.05")], pairs=100, batch=1,
             seed=3, opponents=(opp,))
    state = run_spsa(s)
    assert abs(state["theta"]["x"] - 7.0) < 1.0, state["theta"]
    assert state["vs"]["pairs"] == 100 and 0 < state["vs"]["plus"] + state["vs"]["minus"] < 200


def test_tune_spsa_command_against_opponents(tmp_path, capsys):
    from gamesuite.cli import main

    state = tmp_path / "s.json"
    args = ["tune", "tictactoe", "--spsa", "--engine", "tictactoe:mcts,seed=1,@nodes=60",
            "--opponent", "tictactoe:mcts,seed=2,@nodes=60", "--param", "c,1.4,0.1,5.0,0.3,0.01", "--pairs", "2",
            "--batch", "1", "--state", str(state)]
    assert main(args) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1] == "against tictactoe:mcts,seed=2,@nodes=60; score: place"
    lines = [ln for ln in out if ln.startswith("pairs ")]
    assert len(lines) == 2 and all("mean score" in ln for ln in lines) and lines[-1].endswith("2 pairs)")
    saved = json.loads(state.read_text())
    assert saved["k"] == 2 and saved["opponents"] == ["tictactoe:mcts,seed=2,@nodes=60"]
    assert main(args[:5] + ["--opponent", "tictactoe:mcts,seed=3,@nodes=60"] + args[7:]) == 2
    assert "opponents differ" in capsys.readouterr().err


def test_the_shipped_parameter_files_make_engines_that_play():
    from gamesuite.arena.match import check_specs
    from gamesuite.arena.spsa import read_params

    for game, engine, path in (("hare(players=3)", "hare:maxn,@nodes=300", "tests/data/hare_spsa_3p.txt"),
                               ("gomoku", "gomoku:mtdf,@nodes=300", "tests/data/gomoku_spsa_rapfi.txt"),
                               ("gomoku", "gomoku:mtdf,@nodes=300", "tests/data/gomoku_spsa_params.txt")):
        g = load_game(game)
        params = read_params(path)
        spec = parse_engine_spec(engine, g.name)
        s = Spsa(g, spec, params, pairs=600, opponents=(spec,) * (g.num_players - 1))
        check_specs(g, [s.spec_for({p.name: getattr(p, end) for p in params}, end) for end in ("start", "lo", "hi")])
    assert [p.name for p in read_params("tests/data/hare_spsa_3p.txt")] == [
        "ks", "kc", "c0", "c1", "need_per_square", "excess", "finishable", "percarrot", "lettuce", "behind", "tight",
        "due", "skip", "turns"]


def test_both_games_of_a_pair_start_from_fresh_engines(duel, tmp_path):
    # theta+ = theta- (a perturbation too small to show): the two games of every pair must be the same game, though
    # the opponent draws its noise from how many searches it has made (a kept engine would play on differently)
    opp = parse_engine_spec("py:tests.fakes.duel:Noisy,x=4,noise=3,@depth=1")
    s = Spsa(duel, parse_engine_spec(NOISY + ",noise=3"), [parse_param("x,5.0,0.0,20.0,0.000001,0.05")], pairs=6,
             batch=3, seed=4, opponents=(opp,), save_dir=tmp_path)
    run_spsa(s)
    games = [json.loads(f.read_text()) for f in sorted(tmp_path.glob("game-*.json"))]
    assert len(games) == 12
    for a, b in zip(games[::2], games[1::2]):
        assert [p["name"] for p in a["players"]].index("plus") == [p["name"] for p in b["players"]].index("minus")
        assert a["moves"] == b["moves"] and a["match"]["seed"] == b["match"]["seed"]
    assert len({json.dumps(g["moves"]) for g in games}) > 1


def test_a_match_with_fresh_engines_replays_every_game_the_same(duel, tmp_path):
    # the engine draws its noise from how many searches it has made: a kept engine plays every game differently,
    # one started afresh for every game plays the same game from the same position (what --fresh-engines is for)
    from gamesuite.arena.game import MatchLimits
    from gamesuite.arena.openings import Opening
    from gamesuite.arena.session import Session, run_session

    def moves(fresh: bool) -> set[str]:
        session = Session.from_texts("duel", [NOISY + ",noise=3", NOISY + ",noise=3"], games=8, tc=MatchLimits(),
                                     seed=5, openings=[Opening()], save_dir=tmp_path / str(fresh),
                                     fresh_engines=fresh)
        run_session(session)
        return {json.dumps(json.loads(f.read_text())["moves"]) for f in (tmp_path / str(fresh)).glob("game-*.json")}

    assert len(moves(True)) == 1
    assert len(moves(False)) > 1
