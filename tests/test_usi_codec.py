"""The USI codec (``protocols._usi``) and a USI program as a ``core.Engine`` (``arena.external.UsiEngine``)."""

from __future__ import annotations

import pytest

from gamesuite.arena.external import UsiEngine, UsiPlayer
from gamesuite.core import Engine, Limits, Score, load_game, new_stop_flag
from gamesuite.protocols._usi import go_command, parse_info
from gamesuite.protocols.usi import info_line

from .test_arena import usi


@pytest.mark.parametrize("limits, line", [
    (Limits(movetime=500), "go btime 0 wtime 0 byoyomi 500"),
    (Limits(time_left=(60000, 55000), increment=(1000, 1000)), "go btime 60000 wtime 55000 binc 1000 winc 1000"),
    (Limits(time_left=(0, 0), byoyomi=3000), "go btime 0 wtime 0 byoyomi 3000"),
    (Limits(byoyomi=3000), "go btime 0 wtime 0 byoyomi 3000"),
    (Limits(depth=4), "go depth 4"),
    (Limits(movetime=500, nodes=9), "go btime 0 wtime 0 byoyomi 500 nodes 9"),
    (Limits(), "go infinite"),
    (Limits(infinite=True, depth=3), "go infinite"),
])
def test_limits_become_one_go_line(limits, line):
    assert go_command(limits) == line
    assert UsiPlayer.go_command(limits) == line  # the arena speaks through the codec


def test_info_lines_become_search_reports():
    g = load_game("shogi")
    s = g.new_state()
    info = parse_info("info depth 6 seldepth 9 time 120 nodes 5000 nps 41666 hashfull 3 multipv 2 score cp -31 "
                      "pv 7g7f 3c3d 2g2f", s, search_id=7)
    assert (info.search_id, info.depth, info.seldepth, info.time_ms, info.nodes, info.nps, info.hashfull,
            info.multipv) == (7, 6, 9, 120, 5000, 41666, 3, 2)
    assert info.score == Score.eval(-31, 0) and s.format_line(info.pv) == ["7g7f", "3c3d", "2g2f"]
    assert parse_info("info depth 3 score mate 5 pv 7g7f", s).score == Score.mate(5, 0)
    assert parse_info("info score mate -0", s).score == Score.mate(0, 0)
    # a line is read up to its first move that is not legal; strings and currmove carry no report
    assert s.format_line(parse_info("info depth 2 score cp 10 pv 7g7f 9z9z 2g2f", s).pv) == ["7g7f"]
    assert parse_info("info string hello pv 7g7f", s) is None
    assert parse_info("info currmove 7g7f currmovenumber 1", s) is None
    # what our own front end writes, the codec reads back
    ours = parse_info("info depth 4 seldepth 6 time 50 nodes 900 nps 18000 hashfull 0 multipv 1 score cp 12 pv 7g7f",
                      s, 1)
    assert parse_info(info_line(ours, s), s, 1) == ours


def test_a_usi_program_is_an_engine_that_streams_its_infos():
    g = load_game("tictactoe")
    e = UsiEngine(g, usi())
    try:
        assert isinstance(e, Engine)
        s = g.state_from_text("x...o....")
        before = (s.to_text(), list(s.history))
        infos = []
        r = e.search(s, Limits(movetime=200), new_stop_flag(), infos.append)
        assert r.best_move in s.legal_moves() and (s.to_text(), list(s.history)) == before
        assert infos and infos[-1].pv[0] == r.best_move and r.lines == (infos[-1],)
        assert len({i.search_id for i in infos}) == 1
    finally:
        e.close()


def test_the_command_line_analyses_with_a_usi_program(capsys):
    from gamesuite.cli import main

    assert main(["analyse", "tictactoe", "--position", "x...o....", "--engine", usi(), "--movetime", "200"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("depth 1/1") and out[-1].startswith("bestmove ")
