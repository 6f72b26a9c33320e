"""External programs as engines (``arena.external``: one ``open_engine`` for the window and the command
line) and the Gomocup codec (``protocols._gomocup``) both directions use. No Qt."""

import shlex
import sys
from pathlib import Path

import pytest

from gamesuite.arena.external import GomocupEngine, UsiEngine, open_engine
from gamesuite.core.errors import InvalidOptionError
from gamesuite.core.info import SearchInfo, new_stop_flag
from gamesuite.core.limits import Limits
from gamesuite.core.registry import load_game
from gamesuite.core.score import Score
from gamesuite.protocols._gomocup import (
    FOREVER_MS,
    gomocup_score,
    limit_lines,
    message_line,
    parse_message,
    parse_xy,
    rule_code,
)

FAKE = Path(__file__).parent / "fakes" / "fake_analyser.py"


def fake_spec(protocol="usi", *extra, options=""):
    command = [sys.executable, str(FAKE), "--protocol", protocol, *extra]
    return f"{protocol}:{shlex.join(command)}" + (f",{options}" if options else "")


# -- the codec -------------------------------------------------------------------------------------------

def test_cells_and_rules():
    assert parse_xy(" 7, 12 ") == (7, 12) and parse_xy("7,12,1") is None and parse_xy("h8") is None
    assert rule_code(load_game("gomoku(rule=renju)")) == 4
    assert rule_code(load_game("gomoku(rule=freestyle)")) == 0
    assert rule_code(load_game("gomoku(rule=standard)")) == 1


def test_limits_as_info_lines_and_a_work_limit_set_back_once_not_wanted():
    sent: dict[str, int] = {}
    assert limit_lines(Limits(movetime=500), 0, 9000, sent) == ["INFO timeout_turn 500", "INFO timeout_match 0"]
    assert limit_lines(Limits(time_left=(60000, 30000), byoyomi=1000), 1, 9000, sent) == [
        "INFO timeout_turn 31000", "INFO time_left 30000"]
    assert limit_lines(Limits(nodes=5000, depth=7), 0, 9000, sent) == [
        "INFO timeout_turn 9000", "INFO timeout_match 0", "INFO MAX_NODE 5000", "INFO MAX_DEPTH 7"]
    assert sent == {"MAX_NODE": 5000, "MAX_DEPTH": 7}
    assert limit_lines(Limits(movetime=100), 0, 9000, sent)[2:] == ["INFO MAX_NODE 0", "INFO MAX_DEPTH 0"]
    assert limit_lines(Limits(movetime=100), 0, 9000, sent)[2:] == []  # told once
    assert limit_lines(Limits(infinite=True, nodes=10), 0, 9000, {}) == [
        f"INFO timeout_turn {FOREVER_MS}", "INFO timeout_match 0"]


def test_a_message_line_reads_back_as_written():
    info = SearchInfo(1, 6, 9, Score.mate(5, 0), (3, 20, 17), 12345, 67890, 250)
    words = message_line(info, 15).split()[1:]
    m = parse_message(words)
    assert m is not None
    assert (m["depth"], m["seldepth"], m["nodes"], m["nps"], m["time"]) == (6, 9, 12345, 67890, 250)
    assert m["pv"] == ["3,0", "5,1", "2,1"]
    assert gomocup_score(m["score"], 0) == info.score
    assert parse_message(["hello", "world"]) is None


def test_gomocup_scores_of_rapfi_and_of_our_brain():
    assert gomocup_score("85", 1).value == 85 and gomocup_score("85", 1).kind == "eval"
    assert gomocup_score("+M7", 0).kind == "mate" and gomocup_score("+M7", 0).value == 7
    assert gomocup_score("-M4", 0).value == -4
    assert gomocup_score("+0.35", 0).value == pytest.approx(35)
    assert gomocup_score("win in 3", 0).value == 5 and gomocup_score("loss in 2", 0).value == -4
    assert gomocup_score("banana", 0) is None




def test_a_gomocup_program_streams_its_lines_and_stops_at_once_even_without_yxstop():
    game = load_game("tictactoe")
    st = game.new_state()
    st.play(st.parse_move("b2"))
    for extra in ((), ("--no-yxstop",)):
        eng = open_engine(game, fake_spec("gomocup", *extra))
        assert isinstance(eng, GomocupEngine)
        try:
            stop = new_stop_flag()
            infos = []

            def on_info(info, infos=infos, stop=stop):
                infos.append(info)
                if len(infos) == 5:
                    stop[0] = 1

            before = st.to_text()
            res = eng.search(st, Limits(infinite=True), stop, on_info)
            assert st.to_text() == before
            assert res.best_move == st.parse_move("a3") and len(infos) >= 5
            assert [i.depth for i in infos[:5]] == [1, 2, 3, 4, 5] and infos[0].pv == (st.parse_move("a3"),)
            assert infos[-1].score.value == pytest.approx(infos[-1].depth)  # "+0.0d": d centi-units
            # ... and it searches again after being stopped (a new process where it had to be ended)
            res = eng.search(st, Limits(movetime=200))
            assert res.best_move == st.parse_move("a3") and res.depth == 3
        finally:
            eng.close()




def test_a_usi_program_is_told_the_number_of_lines(tmp_path):
    game = load_game("tictactoe")
    log = tmp_path / "usi.log"
    eng = open_engine(game, fake_spec("usi", "--log", str(log)))
    try:
        st = game.new_state()
        res = eng.search(st, Limits(depth=3, multipv=3))
        assert [line.multipv for line in res.lines] == [1, 2, 3]
        assert len({line.pv[0] for line in res.lines}) == 3
        res = eng.search(st, Limits(depth=3))
        assert len(res.lines) == 1
    finally:
        eng.close()
    sent = log.read_text()
    assert "setoption name MultiPV value 3" in sent and "setoption name MultiPV value 1" in sent


# -- one way to open an engine ---------------------------------------------------------------------------

def test_open_engine_builds_ours_and_each_protocols_and_refuses_py():
    game = load_game("tictactoe")
    assert open_engine(game, "").search(game.new_state(), Limits(depth=2)).best_move in game.new_state().legal_moves()
    assert isinstance(open_engine(game, fake_spec("usi")), UsiEngine)
    assert isinstance(open_engine(game, fake_spec("gomocup")), GomocupEngine)  # (no process until used)
    with pytest.raises(InvalidOptionError, match="py:"):
        open_engine(game, "py:somewhere:Engine")
