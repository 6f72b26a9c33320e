"""The arena: specs, openings, the referee's adjudications, seats and chance, the adapters, records."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from gamesuite.arena.game import GameTask, MatchLimits, play_game, run_task
from gamesuite.arena.match import Tally, pairings_for, run_games, schedule, seats_of
from gamesuite.arena.openings import Opening, builtin_openings, load_openings, parse_opening
from gamesuite.arena.record import GameRecord, load_record, result_string, save_record
from gamesuite.arena.spec import parse_engine_spec, unique_labels
from gamesuite.core.errors import InvalidOptionError, InvalidPositionError, InvalidRecordError
from gamesuite.core.registry import _GAMES, load_game, register_game
from gamesuite.search.reference import solve_all

from .fakes import engines as fake_engines
from .fakes.dice import DiceRace

FAKES = Path(__file__).parent / "fakes"
PY = sys.executable
SCRIPTED = "py:tests.fakes.engines:Scripted"


def usi(args: str = "") -> str:
    return f"usi:{PY} {FAKES / 'fake_usi.py'} {args}".strip()


def gomocup(args: str = "") -> str:
    return f"gomocup:{PY} {FAKES / 'fake_gomocup.py'} {args}".strip()


@pytest.fixture(autouse=True)
def _release_hanging_fakes():
    fake_engines.RELEASE.clear()
    yield
    fake_engines.RELEASE.set()


@pytest.fixture
def dice():
    register_game(DiceRace)
    yield
    _GAMES.pop(DiceRace.name, None)


def one_game(game_spec: str, specs: list[str], opening: Opening = Opening(), tc: MatchLimits | None = None,
             seed: int = 0) -> GameRecord:
    game = load_game(game_spec)
    sp = [parse_engine_spec(s, game.name) for s in specs]
    task = GameTask(game.spec, tuple(sp), tuple(range(len(sp))), opening, tc or MatchLimits(depth=3), seed=seed,
                    reuse_engines=False)
    return play_game(task)


# -- specs ------------------------------------------------------------------


def test_engine_specs_of_every_kind():
    s = parse_engine_spec("gomoku:mtdf,top=10,hash=64")
    assert (s.kind, s.game, s.target, s.label) == ("ours", "gomoku", "mtdf,top=10,hash=64", "mtdf,top=10,hash=64")
    s = parse_engine_spec("tictactoe:solver,hash=1,label=fast", "tictactoe")
    assert (s.target, s.label) == ("solver,hash=1", "fast")
    assert parse_engine_spec("reference").target == "reference"
    s = parse_engine_spec("usi:/opt/yane/YaneuraOu -x,USI_Hash=256,label=yane")
    assert s.kind == "usi" and s.command == ("/opt/yane/YaneuraOu", "-x")
    assert s.options == (("USI_Hash", "256"),) and s.label == "yane"
    s = parse_engine_spec("gomocup:python3 /x/pbrain-foo.py")
    assert s.kind == "gomocup" and s.label == "gomocup:pbrain-foo.py"
    s = parse_engine_spec("py:tests.fakes.engines:Scripted,mode=crash")
    assert s.kind == "py" and s.target == "tests.fakes.engines:Scripted" and s.options == (("mode", "crash"),)
    assert [x.label for x in unique_labels([parse_engine_spec("solver")] * 3)] == ["solver", "solver#2", "solver#3"]


@pytest.mark.parametrize("bad, fragment", [
    ("", "empty"), ("usi:", "names no"), ("py:nomodule", "py:MODULE:ATTR"),
    ("gomoku:mtdf", "is for 'gomoku'"), ("usi:'unclosed", "bad command line"),
])
def test_bad_engine_specs_are_precise_errors(bad, fragment):
    with pytest.raises(InvalidOptionError, match=fragment):
        parse_engine_spec(bad, "tictactoe")


# -- openings ---------------------------------------------------------------


def test_builtin_openings_are_random_near_the_centre_and_balanced():
    game = load_game("tictactoe")
    ops = builtin_openings(game, 6, seed=3)
    assert len(ops) == 6 and len({o.moves for o in ops}) == 6
    assert ops == builtin_openings(game, 6, seed=3)  # reproducible
    for op in ops:
        start, moves = op.build(game)
        assert len(moves) == 2
        s = start.copy()
        for m in moves:
            s.play(m)
        assert solve_all(s)[s.key] == 0  # 3x3: balanced means a draw with perfect play


def test_start_position_for_games_without_a_board(dice):
    ops = builtin_openings(load_game("dicerace"), 3)
    assert ops == [Opening()] * 3


def test_openings_file(tmp_path):
    game = load_game("tictactoe")
    f = tmp_path / "o.txt"
    f.write_text("# comment\nstartpos\n\nstartpos moves b2 a1\nx...o.... moves c3\n", encoding="utf-8")
    ops = load_openings(f, game)
    assert ops == [Opening(), Opening(None, ("b2", "a1")), Opening("x...o....", ("c3",))]
    assert parse_opening(ops[2].text()) == ops[2]
    f.write_text("startpos\nxxxxxxxxx\n", encoding="utf-8")
    with pytest.raises(InvalidPositionError, match="line 2.*xxxxxxxxx"):
        load_openings(f, game)
    f.write_text("startpos moves b2 b2\n", encoding="utf-8")
    with pytest.raises(ValueError, match="line 1"):
        load_openings(f, game)
    with pytest.raises(InvalidOptionError, match="cannot read"):
        load_openings(tmp_path / "missing.txt", game)


# -- games between our engines ----------------------------------------------------


def test_perfect_players_reach_the_game_theoretic_result_with_colours_swapped():
    game = load_game("tictactoe")
    ops = builtin_openings(game, 3, seed=5) + [Opening(None, ("c3", "b3"))]  # the last: a forced X win
    specs = [parse_engine_spec("tictactoe:solver"), parse_engine_spec("tictactoe:reference")]
    tasks = schedule(game, specs, 8, ops, MatchLimits(depth=9))
    recs = run_games(tasks)
    assert len(recs) == 8
    for i in range(0, 8, 2):  # each opening twice, seats swapped
        a, b = recs[i], recs[i + 1]
        assert a.opening_index == b.opening_index and a.engine_index == [0, 1] and b.engine_index == [1, 0]
        start, moves = ops[a.opening_index].build(game)
        s = start.copy()
        for m in moves:
            s.play(m)
        value = solve_all(s)[s.key]  # from X's view (X is to move after two plies)
        for r in (a, b):
            assert r.opening_plies == 2 and r.moves[:2] == list(ops[a.opening_index].moves)
            assert r.returns == ([1.0, -1.0] if value > 0 else [-1.0, 1.0] if value < 0 else [0.0, 0.0])
            assert r.adjudication is None
    assert recs[-1].result == "1-0" and recs[-2].result == "1-0"


def test_mnk_variant_gives_decisive_games_and_a_tally():
    game = load_game("tictactoe(m=4,n=4,k=3)")
    ops = builtin_openings(game, 4, seed=2)
    specs = [parse_engine_spec("solver"), parse_engine_spec(SCRIPTED + ",mode=random,seed=7")]
    recs = run_games(schedule(game, specs, 8, ops, MatchLimits(depth=16)))
    tally = Tally(["solver", "random"]).add_all(recs)
    w, d, l = tally.total(0)
    assert w + d + l == 8 and tally.games == 8
    assert w >= 6 and w > l  # the solver beats random moves (which may stumble on a won opening)
    assert tally.total(1) == [l, d, w]


def test_chance_and_seats_rotate_for_three_players(dice):
    game = load_game("dicerace(players=3,goal=6)")
    specs = [parse_engine_spec(SCRIPTED + f",mode=random,seed={i}", "dicerace").with_label(f"e{i}") for i in range(3)]
    assert pairings_for(3, 3) == [(0, 1, 2)]
    tasks = schedule(game, specs, 6, [Opening()], MatchLimits(depth=2), seed=11)
    assert [t.engine_index for t in tasks[:3]] == [(0, 1, 2), (1, 2, 0), (2, 0, 1)]
    assert len({t.seed for t in tasks[:3]}) == 1 and tasks[0].seed != tasks[3].seed
    recs = run_games(tasks)
    again = run_games(tasks)
    assert [r.moves for r in recs] == [r.moves for r in again]  # seeded dice, seeded engines
    assert all(any(m.startswith("r") for m in r.moves) for r in recs)
    for r in recs:
        assert sorted(r.returns).count(1.0) == 1 and r.result.count("1") >= 1
    tally = Tally([s.label for s in specs]).add_all(recs)
    assert [len(p) for p in tally.places] == [6, 6, 6]
    assert sum(tally.total(e)[0] for e in range(3)) == 6 * 2  # every game: the winner beats two


def test_seats_for_fewer_engines_than_players():
    assert [seats_of((0, 1), 4, r) for r in range(2)] == [(0, 1, 0, 1), (1, 0, 1, 0)]
    assert pairings_for(4, 2, "tournament") == [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
    with pytest.raises(InvalidOptionError, match="tournament"):
        pairings_for(3, 2)


# -- adjudication -------------------------------------------------------------


@pytest.mark.parametrize("mode, kind, fragment", [
    ("illegal", "illegal", "illegal move"),
    ("crash", "crash", "scripted crash"),
    ("none", "no move", "no move"),
])
@pytest.mark.parametrize("seat", [0, 1])
def test_misbehaving_engines_lose_with_the_reason(mode, kind, fragment, seat):
    specs = ["solver", SCRIPTED + f",mode={mode},at=2"]
    if seat == 0:
        specs.reverse()
    r = one_game("tictactoe", specs)
    assert r.adjudication["kind"] == kind and r.adjudication["seat"] == seat
    assert fragment in r.reason and "Scripted" in r.reason
    assert r.returns[seat] == -1.0 and r.returns[1 - seat] == 1.0
    assert r.result == ("0-1" if seat == 0 else "1-0")


def test_hang_and_time_losses():
    r = one_game("tictactoe", ["solver", SCRIPTED + ",mode=hang"], tc=MatchLimits(depth=3, work_hang=300))
    assert r.adjudication["kind"] == "hang" and r.returns == [1.0, -1.0]
    r = one_game("tictactoe", ["solver", SCRIPTED + ",mode=hang,@movetime=50"],
                 tc=MatchLimits(depth=3, margin=50, hang=200))
    assert r.adjudication["kind"] == "hang" and r.returns == [1.0, -1.0]
    r = one_game("tictactoe", [SCRIPTED + ",mode=slow,sleep_ms=600", "solver"],
                 tc=MatchLimits(movetime=50, margin=100, hang=5000))
    assert r.adjudication["kind"] == "time" and "allowed" in r.reason and r.returns == [-1.0, 1.0]


def test_a_search_limited_by_work_alone_is_not_cut_short_by_the_clock():
    # a fixed-work move that takes longer than the hang timeout (a loaded machine) is waited for, so that
    # the game does not depend on the load; a stop would have made the fake play its last move
    stoppable = SCRIPTED + ",mode=stoppable,sleep_ms=400"
    s = load_game("tictactoe").new_state()
    first, last = s.format_move(s.legal_moves()[0]), s.format_move(s.legal_moves()[-1])
    r = one_game("tictactoe", [stoppable, "solver"], tc=MatchLimits(depth=3, hang=50))
    assert r.adjudication is None and r.moves[0] == first
    # told so (--work-timeout), the referee stops it after that long: the stopped search's move counts
    r = one_game("tictactoe", [stoppable, "solver"], tc=MatchLimits(depth=3, work_hang=50))
    assert r.adjudication is None and r.moves[0] == last


def test_an_engine_that_cannot_be_built_loses_and_the_match_goes_on():
    game = load_game("tictactoe")
    specs = [parse_engine_spec("solver"), parse_engine_spec("py:tests.fakes.engines:Crasher")]
    recs = run_games(schedule(game, specs, 4, builtin_openings(game, 2, seed=1), MatchLimits(depth=2)))
    assert len(recs) == 4
    assert all(r.adjudication["kind"] == "crash" and "cannot even start" in r.reason for r in recs)
    assert Tally(["a", "b"]).add_all(recs).total(0) == [4, 0, 0]


def test_the_clock_is_passed_to_engines_and_runs_down():
    game = load_game("tictactoe")
    sp = parse_engine_spec(SCRIPTED, "tictactoe")
    task = GameTask(game.spec, (sp, parse_engine_spec("solver")), (0, 1), Opening(),
                    MatchLimits.with_clock("2+0.5"), reuse_engines=True)
    r = play_game(task)
    assert r.adjudication is None
    import threading

    from gamesuite.arena.game import _LOCAL_ENGINES

    eng = _LOCAL_ENGINES[(threading.get_ident(), game.spec, sp.text, 0)]
    seen = eng.limits_seen
    assert seen[0].time_left == (2000, 2000) and seen[0].increment == (500, 500)
    assert seen[1].time_left[0] >= 2000  # gained the increment, spent (much) less
    assert seen[1].time_left[1] <= 2500


def test_arena_errors_become_records_not_exceptions():
    sp = parse_engine_spec("solver")
    task = GameTask("tictactoe", (sp, sp), (0, 1), Opening("not a board"), MatchLimits(depth=2))
    r = run_task(task)
    assert r.error and "arena error" in r.reason and r.returns == []
    assert Tally(["a", "b"]).add_all([r]).errors == 1


# -- external programs --------------------------------------------------------


def test_usi_adapter_plays_and_speaks_the_protocol(tmp_path):
    log = tmp_path / "usi.log"
    r = one_game("tictactoe", [usi(f"--log {log}") + ",USI_Hash=16", "solver"],
                 tc=MatchLimits(movetime=200, margin=2000))
    assert r.adjudication is None and r.result in ("1-0", "0-1", "1/2-1/2")
    lines = log.read_text().splitlines()
    assert lines[0] == "#started"
    lines = lines[1:]
    assert lines[:4] == ["usi", "setoption name USI_Hash value 16", "isready", "usinewgame"]
    assert lines[4] == "position sfen ........."
    assert lines[5] == "go btime 0 wtime 0 byoyomi 200"
    assert any(ln.startswith("position sfen ......... moves ") for ln in lines)
    assert lines[-2].startswith("gameover ") and lines[-1] == "quit"
    # the fake plays the first empty cell: its first move is a3 (top-left)
    assert r.moves[0] == "a3"


def test_usi_adapter_clock_go_line():
    from gamesuite.arena.external import UsiPlayer
    from gamesuite.core.limits import Limits

    assert UsiPlayer.go_command(Limits(time_left=(60000, 55000), increment=(1000, 1000))) == \
        "go btime 60000 wtime 55000 binc 1000 winc 1000"
    assert UsiPlayer.go_command(Limits(depth=4)) == "go depth 4"


@pytest.mark.parametrize("mode, kind", [
    ("illegal", "illegal"), ("crash", "crash"), ("hang", "hang"), ("garbage", "illegal"),
    ("resign", "resign"), ("nousiok", "hang"), ("slow --sleep 1.0", "time"),
])
def test_usi_adapter_adjudications(mode, kind):
    hang = 3000 if "slow" in mode else 800  # a late answer must not pass for a hang on a busy machine
    r = one_game("tictactoe", ["solver", usi(f"--mode {mode} --at 2")],
                 tc=MatchLimits(movetime=100, margin=300, hang=hang, startup=1500))
    assert r.adjudication is not None and r.adjudication["kind"] == kind, r.reason
    assert r.returns == [1.0, -1.0]


def test_usi_program_that_does_not_exist_loses():
    r = one_game("tictactoe", ["solver", "usi:/nonexistent/engine"])
    assert r.adjudication["kind"] == "crash" and "cannot start" in r.reason


def test_gomocup_adapter_plays_and_speaks_the_protocol(tmp_path):
    log = tmp_path / "g.log"
    r = one_game("tictactoe(m=4,n=3,k=3)", [gomocup(f"--log {log}"), "solver"],
                 opening=Opening(None, ("b2", "a1")), tc=MatchLimits(movetime=200, margin=2000))
    assert r.adjudication is None
    lines = log.read_text().splitlines()[1:]
    assert lines[0] == "RECTSTART 4,3"
    assert "INFO timeout_turn 200" in lines
    i = lines.index("BOARD")  # the opening's stones: b2 own (x), a1 the opponent's
    assert lines[i + 1: i + 4] == ["1,1,1", "0,2,2", "DONE"]
    assert r.moves[2] == "a3"  # first empty cell from the top-left: x=0,y=0
    assert any(ln.startswith("TURN ") for ln in lines) and lines[-1] == "END"


def test_gomocup_begin_for_the_first_move(tmp_path):
    log = tmp_path / "g.log"
    r = one_game("tictactoe", [gomocup(f"--log {log}"), "solver"], tc=MatchLimits(movetime=200, margin=2000))
    assert r.adjudication is None and r.moves[0] == "a3"
    lines = log.read_text().splitlines()[1:]
    assert lines[0] == "START 3" and "BEGIN" in lines


@pytest.mark.parametrize("mode, kind", [
    ("illegal", "illegal"), ("offboard", "illegal"), ("crash", "crash"), ("hang", "hang"),
    ("garbage", "illegal"), ("error", "protocol"), ("refuse", "protocol"), ("slow --sleep 1.0", "time"),
])
def test_gomocup_adapter_adjudications(mode, kind):
    hang = 3000 if "slow" in mode else 800
    r = one_game("tictactoe", [gomocup(f"--mode {mode} --at 2"), "solver"],
                 tc=MatchLimits(movetime=100, margin=300, hang=hang))
    assert r.adjudication is not None and r.adjudication["kind"] == kind, r.reason
    assert r.returns == [-1.0, 1.0]


def test_gomocup_complaint_followed_by_a_move_is_not_a_loss():
    """An ``ERROR`` line before the move (about one of the ``INFO`` lines sent with the request)
    is not a protocol failure when the move follows it."""
    r = one_game("tictactoe", [gomocup("--mode complain --at 2"), "solver"],
                 tc=MatchLimits(movetime=100, margin=2000, hang=3000))
    assert r.adjudication is None, r.reason
    assert len(r.moves) >= 3


def test_gomocup_work_limit_not_understood_still_loses():
    r = one_game("tictactoe", [gomocup("--mode nolimit --at 2"), "solver"],
                 tc=MatchLimits(movetime=100, margin=2000, hang=3000))
    assert r.adjudication["kind"] == "protocol" and "MAX_NODE" in r.reason, r.reason


def test_gomocup_error_without_a_move_is_quoted_in_the_loss():
    r = one_game("tictactoe", [gomocup("--mode error --at 2"), "solver"],
                 tc=MatchLimits(movetime=100, margin=300, hang=800))
    assert r.adjudication["kind"] == "protocol" and "ERROR cannot think" in r.reason, r.reason


def test_external_programs_are_kept_between_games_and_restarted_after_a_failure(tmp_path):
    game = load_game("tictactoe")
    ops = builtin_openings(game, 2, seed=1)
    for kind, maker, new_game in (("usi", usi, "usinewgame"), ("gomocup", gomocup, "START 3")):
        log = tmp_path / f"{kind}.log"
        specs = [parse_engine_spec("solver"), parse_engine_spec(maker(f"--log {log}"))]
        recs = run_games(schedule(game, specs, 4, ops, MatchLimits(movetime=100, margin=2000)))
        assert all(r.adjudication is None for r in recs)
        lines = log.read_text().splitlines()
        assert lines.count("#started") == 1 and lines.count(new_game) == 4
        # a crash ends that process; the next game starts a new one
        log2 = tmp_path / f"{kind}2.log"
        specs = [parse_engine_spec("solver"), parse_engine_spec(maker(f"--log {log2} --mode crash --at 1"))]
        recs = run_games(schedule(game, specs, 2, ops, MatchLimits(movetime=100, margin=2000)))
        assert [r.adjudication["kind"] for r in recs] == ["crash", "crash"]
        assert log2.read_text().splitlines().count("#started") == 2
    from gamesuite.arena.game import _close_external

    _close_external()


# -- records --------------------------------------------------------------------


def test_records_round_trip_and_replay(tmp_path):
    r = one_game("tictactoe(m=4,n=4,k=3)", ["solver", "reference"], opening=Opening(None, ("b2", "c3")))
    path = save_record(r, tmp_path)
    data = json.loads(path.read_text())
    assert data["format"] == "gamesuite-game" and data["game"] == "tictactoe(m=4,n=4,k=3)"
    rec, game, start, moves = load_record(path)
    assert rec == r and len(moves) == len(r.moves)
    s = start.copy()
    for m in moves:
        s.play(m)
    assert s.is_terminal() == (r.adjudication is None) and s.returns() == r.returns


def test_bad_records_are_precise_errors(tmp_path):
    p = tmp_path / "x.json"
    p.write_text("{nope")
    with pytest.raises(InvalidRecordError, match="not a JSON game record"):
        load_record(p)
    r = one_game("tictactoe", ["solver", "solver"])
    d = r.to_json()
    d["moves"] = d["moves"][:1] + d["moves"][:1]
    p.write_text(json.dumps(d))
    with pytest.raises(InvalidRecordError, match="illegal move"):
        load_record(p)
    p.write_text(json.dumps({"format": "other"}))
    with pytest.raises(InvalidRecordError, match="not a gamesuite game record"):
        load_record(p)


def test_result_strings():
    assert result_string([1.0, -1.0]) == "1-0" and result_string([0.0, 0.0]) == "1/2-1/2"
    assert result_string([-1.0, 1.0, -1.0]) == "2,1,2"


def test_cluster_without_the_extra_is_a_clear_error(monkeypatch):
    from gamesuite.arena.match import make_executor

    monkeypatch.setitem(sys.modules, "distributed", None)  # as if the extra were not installed
    with pytest.raises(InvalidOptionError, match=r"gamesuite\[cluster\]"):
        make_executor(1, "tcp://127.0.0.1:8786")
